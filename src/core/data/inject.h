/* inject: rewrites a perf.data stream with records added, as perf inject.
 *
 * Every record of the input goes to the output in the input's order (the
 * records of COMPRESSED ones inflated).  With build_ids, the first sample
 * that lands in a DSO is preceded by a HEADER_BUILD_ID record naming the
 * DSO's build id; with buildid_all, every mapped file gets one before its
 * first MMAP/MMAP2, hit or not.  A file output also gets the BUILD_ID
 * feature of the hit DSOs (-b only, as perf) and the input's other
 * features, its command line replaced by the one given; those DSOs go into
 * the build-id cache as perf's header writer puts them there.  A pipe
 * input gives a pipe-format output (file or stdout).  --itrace drops the
 * ID_INDEX record, as perf's decoder does; see inject_opts for the rest.
 */
#ifndef PCL_INJECT_H
#define PCL_INJECT_H

#include <stdbool.h>
#include <stdio.h>

struct guest_data_spec;

struct inject_opts {
	const char *input;	/* "-": stdin */
	const char *output;	/* "-": stdout, in pipe format */
	bool build_ids;		/* -b */
	bool buildid_all;	/* --buildid-all */
	bool jit;		/* -j: merge jitdumps (core/data/jit-inject.h) */
	/* -s: each sched:sched_stat_* sample becomes the task's last
	 * sched:sched_switch sample (where it slept, with its callchain) with
	 * the stat's time and period (how long); the switch and
	 * sched_process_exit samples themselves are not written */
	bool sched_stat;
	/* --known-build-ids: "BUILD-ID PATH" pairs, comma or newline separated,
	 * given to -b instead of the files' own ids */
	const char *known_build_ids;
	/* --itrace with --strip: no instruction trace is decoded here (no AUX
	 * area data), so only what is not a sample stays */
	bool itrace, strip;
	const char *kallsyms;	/* --kallsyms: the kernel's symbols from this file */
	/* -k: with -b, a kernel the input knows no build id for is named after
	 * this image and takes its build id, as perf's kernel DSO does;
	 * --ignore-vmlinux turns that off */
	const char *vmlinux;
	bool ignore_vmlinux;
	bool force;
	int argc;		/* the command line for the CMDLINE feature */
	const char **argv;
	FILE *verbose;		/* -v: one line per injected build id, or NULL */
	/* --guest-data: a guest's side-band records merged in (guest-inject.h);
	 * ignored with -b, --buildid-all, -s or --itrace, as perf ignores it.
	 * A guest directory (record --kcore) makes the output a directory with
	 * the guest's kcore_dir copied in as kcore_dir__PID. */
	const struct guest_data_spec *guest_data;
};

/* Returns 0, or -1 with *err set (caller frees).  A message ending with a
 * newline is perf's own (lines to print as they are), and then the return
 * is perf's status: -1, a negative errno for a failed merge of a guest, or
 * the wait status of a failed copy of its kcore_dir (perf exits with the
 * low byte: 0 for cp's plain failure). */
int perf_inject(const struct inject_opts *opts, char **err);

#endif
