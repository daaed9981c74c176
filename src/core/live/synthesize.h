/* synthesize: the records perf record writes before the samples, built from
 * /proc and /sys, so that a reader knows the threads and address spaces that
 * existed before the recording started:
 *
 *   TIME_CONV, ID_INDEX, kernel MMAP "[kernel.kallsyms]_text", module MMAPs,
 *   THREAD_MAP, CPU_MAP, KSYMBOL/BPF_EVENT per loaded BPF program, per
 *   thread FORK/COMM/MMAP2, FINISHED_INIT.
 *
 * Every non-sample record carries a zeroed sample_id_all trailer of the
 * size the events' sample_type implies.  Records go to an emit callback
 * (normally the perf.data writer); the first non-zero return stops and is
 * returned.
 */
#ifndef PCL_SYNTHESIZE_H
#define PCL_SYNTHESIZE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/data/bpf-info.h"
#include "core/data/perf-record.h"

/* CPU_MAP payload kinds. */
enum {
	SYNTH_CPU_MAP_CPUS = 0,		/* u16 nr, u16 cpu[nr] */
	SYNTH_CPU_MAP_MASK = 1,
	SYNTH_CPU_MAP_RANGE_CPUS = 2,	/* u8 any_cpu, u8 pad, u16 start, u16 end */
};

/* One ID_INDEX entry: which event (idx in the attrs), cpu and thread an id is. */
struct synth_id {
	uint64_t id, idx, cpu, tid;
};

typedef int (*synth_emit_fn)(void *ctx, const struct perf_event_header *rec);

struct synth {
	synth_emit_fn emit;
	void *ctx;
	size_t id_hdr_size;	/* bytes of the sample_id_all trailer */
	bool mmap_data;		/* -d: non-exec maps too */
	bool build_ids;		/* MMAP2 records with build ids (--buildid-mmap) */
	const char *proc;	/* "/proc", or a test tree */
	unsigned int nr_threads;	/* workers reading /proc for synth__all_threads */
	char *buf;		/* one record being built */
	/* --proc-map-timeout: the time a process's maps may take to read (ns,
	 * < 0: no limit, the default).  Past it the map being read is the
	 * last, marked PROC_MAP_PARSE_TIMEOUT, and timed_out is told. */
	int64_t map_timeout_ns;
	void (*timed_out)(pid_t pid, pid_t tid);
};

/* attr: the events' attr, for the sample_id_all trailer's size. */
void synth__init(struct synth *s, const struct perf_event_attr *attr, bool mmap_data,
		 synth_emit_fn emit, void *ctx);
void synth__exit(struct synth *s);

/* TIME_CONV from an event's mmap control page; nothing when the kernel
 * offers no user-space time conversion (cap_user_time_zero clear). */
int synth__time_conv(struct synth *s, const struct perf_event_mmap_page *pc);

/* ID_INDEX: which event (idx), cpu and thread every id belongs to;
 * split over several records when it does not fit in one. */
int synth__id_index(struct synth *s, const struct synth_id *entries, size_t nr);

/* A CGROUP record (id and path under the mount) for every cgroup below
 * mountpoint, parents first: what --all-cgroups samples' ids refer to. */
int synth__cgroups(struct synth *s, const char *mountpoint);

/* THREAD_MAP (-1 is "any thread") and CPU_MAP (-1 is "any cpu"). */
int synth__thread_map(struct synth *s, const pid_t *tids, size_t nr);
int synth__cpu_map(struct synth *s, const int *cpus, size_t nr);

/* The kernel map: MMAP pid -1 "[kernel.kallsyms]_text", start and pgoff at
 * _text, up to _etext, from kallsyms (path NULL: /proc/kallsyms). */
int synth__kernel_mmap(struct synth *s, const char *kallsyms);

/* A guest's maps as perf record gives them for a guest machine, MMAPs in
 * guest kernel mode: its modules ("[name]", by address, from its
 * /proc/modules when readable), then its kernel, pid 0
 * "[guest.kernel.kallsyms]_text" for the default guest, else pid PID
 * "[guest.kernel.kallsyms.PID]_text", ranged from its kallsyms as the
 * host's (without _etext, up to the module after it).  -ENOENT without
 * _text. */
int synth__guest_os(struct synth *s, pid_t pid, const char *kallsyms, const char *modules);

/* One MMAP per loaded module (/proc/modules, .text from /sys/module). */
int synth__modules(struct synth *s);

/* COMM for one thread of process pid. */
int synth__comm(struct synth *s, pid_t pid, pid_t tid, const char *comm);

/* What perf synthesizes for a thread it was told to watch (-p, -t, -u, a
 * workload): COMM from /proc, and the process's executable MMAP2s when tid
 * is its main thread and with_mmaps is set.  A thread that is gone is not
 * an error (returns 0). */
int synth__thread(struct synth *s, pid_t tid, bool with_mmaps);

/* Every process in /proc (-a): FORK, COMM and, for main threads and when
 * asked (not for --synth task), MMAP2s.  With nr_threads > 1 the processes
 * are read by that many workers; the records keep the one-thread order. */
int synth__all_threads(struct synth *s, bool with_mmaps);

/* MMAP2s of process pid from /proc/pid/maps. */
int synth__mmaps(struct synth *s, pid_t pid, pid_t tid);

/* A BPF program's KSYMBOLs, one per function (named as perf names them,
 * by their BTF names when its BTF is among btfs), then with bpf_event its
 * BPF_EVENT (PROG_LOAD, id and tag). */
int synth__bpf_prog(struct synth *s, const struct bpf_prog_desc *p,
		    const struct bpf_btf_desc *btfs, uint32_t nr_btfs, bool bpf_event);

/* A KSYMBOL (a page long) per BPF trampoline and dispatcher in kallsyms
 * (the "[bpf]" pseudo-module's bpf_trampoline_N and bpf_dispatcher_NAME;
 * path NULL: /proc/kallsyms). */
int synth__bpf_images(struct synth *s, const char *kallsyms);

/* A bare tool record (FINISHED_INIT, FINISHED_ROUND). */
int synth__header_only(struct synth *s, uint32_t type);


#endif
