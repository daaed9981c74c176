/* session: reads a perf.data (file or pipe) and delivers its records.
 *
 * The one way in for every command that reads perf.data.  The session
 * decodes the header and events, streams the data section (a regular
 * file in our byte order mapped, its pages dropped behind the queued
 * records; else read in bounded buffers; never the whole file resident),
 * inflates PERF_RECORD_COMPRESSED,
 * byte-swaps foreign-endian files, routes records to their event by sample
 * id, puts kernel records back in time order (ordered-events), keeps the
 * address-space model (the machine: threads, maps, DSOs, build ids) up to
 * date, and hands each record with its decoded sample to the tool.
 *
 * A reading command:
 *
 *	struct my_cmd { struct perf_tool tool; ... } c = {
 *		.tool = { .sample = my_sample, .comm = my_comm, .ordered = true },
 *	};
 *	s = perf_session__open(path, force, &err);
 *	perf_session__new_machine(s, kallsyms, symfs, force);	// if it resolves
 *	perf_session__process(s, &c.tool);
 *	perf_session__delete(s);			// the machine too
 *
 * and in my_sample:
 *
 *	struct addr_location al;
 *	perf_session__resolve_sample(s, sample, &al);	// thread, map, symbol
 *	n = perf_session__resolve_callchain(s, evsel, sample, al.thread,
 *					    max_stack, frames, max_frames);
 *
 * Per record, in this order: tool->record (every record, the raw view),
 * the kind's callback when its before_machine[] flag is set, the machine,
 * the kind's callback otherwise.  So a COMM's callback already finds the
 * new name, an MMAP's the new map; set before_machine[PERF_RECORD_EXIT]
 * to see the thread before it goes away.  NULL callbacks mean "not
 * interested"; the machine is fed whatever the tool sets (nothing is fed
 * without perf_session__new_machine(), and nothing can be resolved).  No
 * command needs to know which records change what an address resolves
 * to: caches of resolutions compare machine__maps_generation().
 *
 * Raw order (-D, --dump-unsorted-raw-trace, --show-round-events): set
 * tool->record to see every record, and ordered = false to get them in
 * the file's order instead of time order.
 *
 * Tool records (HEADER_ATTR, FEATURE, ID_INDEX, FINISHED_ROUND, ...) are
 * consumed by the session first, then shown to the tool too (for -D).
 * COMPRESSED records are never shown: the records inside them are.
 */
#ifndef PCL_SESSION_H
#define PCL_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/events/evsel.h"
#include "core/data/ordered-events.h"
#include "core/data/perf-data.h"
#include "core/data/perf-record.h"
#include "core/symbols/machine.h"
#include "util/hashmap.h"

struct perf_session;
struct perf_tool;
struct tep_handle;
struct tep_event;
struct trace_seq;

/*
 * A record of one kind.  sample is decoded for SAMPLE records and holds
 * the sample_id_all trailer of others (or defaults); evsel is the record's
 * event when known, else NULL (never NULL for samples).  A non-zero return
 * stops processing and is returned by perf_session__process().
 */
typedef int (*perf_tool_fn)(struct perf_tool *tool, struct perf_session *session,
			    const struct perf_event_header *rec, struct perf_sample *sample,
			    struct evsel *evsel);

struct perf_tool {
	/*
	 * Every record in delivery order, before the machine and the kind's
	 * callback see it (-D dumps, progress).  file_offset is where the
	 * record is in the file (a COMPRESSED record's for those inside).
	 */
	int (*record)(struct perf_tool *tool, struct perf_session *session,
		      const struct perf_event_header *rec, struct perf_sample *sample,
		      struct evsel *evsel, uint64_t file_offset);
	/* kernel records */
	perf_tool_fn sample, mmap, mmap2, comm, fork, exit, lost, lost_samples;
	perf_tool_fn throttle, unthrottle, read;
	perf_tool_fn context_switch;		/* SWITCH and SWITCH_CPU_WIDE */
	perf_tool_fn namespaces, cgroup, ksymbol, bpf_event, text_poke;
	perf_tool_fn aux, itrace_start, aux_output_hw_id;
	/* records perf's tools write */
	perf_tool_fn build_id, finished_round, finished_init, event_update, tracing_data;
	perf_tool_fn id_index, stat, stat_round, stat_config, time_conv, thread_map, cpu_map;
	perf_tool_fn feature, auxtrace_info, auxtrace, auxtrace_error;
	/* A FORK named a parent whose tid a thread of another pid held (its
	 * EXIT lost, or the tid reused): that thread, forgotten (perf's -D
	 * dumps say so after the FORK's line). */
	void (*stale_parent)(struct perf_tool *tool, struct perf_session *session, int pid,
			     int tid);
	/* A pipe's HEADER_ATTR added evsel (after the record was delivered,
	 * so that a dump still sees the events before it). */
	int (*attr)(struct perf_tool *tool, struct perf_session *session, struct evsel *evsel);
	/* by record type: the kind's callback runs before the machine takes
	 * the record (perf script shows an EXIT while the thread still lives) */
	bool before_machine[PERF_RECORD_HEADER_MAX];
	/* by record type: the machine never takes it (perf's tools whose stub
	 * drops the record: report --tasks does not learn threads from
	 * NAMESPACES) */
	bool machine_ignores[PERF_RECORD_HEADER_MAX];
	bool ordered;		/* deliver kernel records in time order; false: the
				 * file's order (--dump-unsorted-raw-trace, rounds) */
	bool round_after_flush;	/* ordered: a FINISHED_ROUND is delivered after
				 * the records it releases (inject --guest-data
				 * writes what it merges in between) */
	/*
	 * Whether the tool ignores every sample of evsel (asked at its first
	 * sample, not at all when record is set): they are counted in the
	 * stats, checked, and neither queued nor delivered.
	 */
	bool (*ignores_samples)(struct perf_tool *tool, struct perf_session *session,
				struct evsel *evsel);
};

/* Per-event data the session keeps beside struct evsel (by evsel->idx). */
struct session_event {
	size_t id_hdr_size;
	/* where a record's time is: in a sample, bytes from its start; in
	 * another record's trailer, bytes from its end (0: none) */
	uint32_t sample_time_pos, trailer_time_back;
	enum { SAMPLES_UNASKED, SAMPLES_WANTED, SAMPLES_IGNORED } samples;	/* the tool's
				 * ignores_samples() answer */
	struct tep_event *tp_format;		/* tracepoints, when tracing data exists */
};

struct session_stats {
	uint64_t nr_events;		/* every record read, of any type */
	uint64_t nr_records[PERF_RECORD_HEADER_MAX];
	uint64_t nr_unknown;		/* records of unknown type, skipped */
	uint64_t nr_unknown_id;		/* samples whose id matches no event */
	uint64_t total_lost_samples;	/* summed from LOST_SAMPLES records */
	uint64_t nr_unordered;
	uint64_t nr_bad_samples;
	/* the first and last times of the samples the tool ignored (see
	 * perf_tool.ignores_samples), 0 when none had a time */
	uint64_t ignored_first_time, ignored_last_time;
};

/* A file's COMPRESSED records: one zstd stream (each data.N file of a
 * directory has its own), and the inflated bytes not yet processed. */
struct session_inflate {
	void *zstd;		/* ZSTD_DStream */
	uint8_t *buf;
	size_t len, alloc;
};

/* One of the per-ring files of perf's directory format ("DIR/data.3"). */
struct session_dir_file {
	char *path;
	int fd;
	uint64_t size;
};

struct perf_session {
	char *path;		/* as given; "-" for stdin */
	const char *label;	/* what -D prints after '@': the path, or "pipe"; in
				 * a directory the file the record came from */
	int fd;			/* the file, or a directory's "data" file */
	bool is_pipe;
	uint64_t file_size;
	/*
	 * perf's directory format (record --threads): DIR/data holds the
	 * header, the features and the main thread's records, each data.N
	 * file the records of one ring buffer.  All are merged in time order.
	 */
	bool is_dir;
	char *data_path;		/* DIR/data */
	struct session_dir_file *dir_files;	/* the data.N files, in readdir order */
	uint32_t nr_dir_files;
	uint64_t last_queued;		/* the time of the last record queued */
	struct perf_header header;
	struct evlist evlist;
	struct session_event *events;	/* [evlist.nr_entries] */
	struct session_stats stats;
	struct perf_tool *tool;
	struct machine *machine;	/* fed by the session, or NULL (owned) */
	struct machine *guest;	/* the guests' records and samples (pcl kvm), or NULL */
	/* --guest-code: a guest machine per hypervisor pid, made on its
	 * first guest record or sample (owned) */
	struct session_code_guest { pid_t pid; struct machine *m; } *code_guests;
	size_t nr_code_guests;
	struct ordered_events oe;
	struct tep_handle *tep;	/* from the tracing data, or NULL */
	bool truncated;		/* stopped at a torn record / killed recording */
	uint64_t data_offset, data_end;

	/* id -> evsel hash */
	struct hashmap id_hash;		/* sample id -> struct evsel * */
	/* the same while there are few ids (an event per CPU or so): looked
	 * up for every record, a short scan beats hashing */
	uint64_t few_ids[16];
	struct evsel *few_evsels[16];
	uint32_t nr_few;
	bool many_ids;			/* more than few_ids holds: the hash only */
	/* and while all ids are less than SESSION_DENSE_IDS apart (the kernel
	 * numbers a recording's events in turn): evsels by id - dense_base */
	struct evsel **dense;
	uint64_t dense_base, nr_dense;	/* nr_dense 0: no such table */
	uint64_t id_min, id_max;
	int id_pos, is_pos;	/* -1 when samples carry no id */

	struct session_inflate *inflate;	/* the COMPRESSED stream being read */

	char *err;		/* set when a call fails */
	/* the record being processed when a tool's callback failed (perf
	 * names it: "OFFSET [SIZE]: failed to process type: TYPE") */
	struct perf_event_header failed_rec;
	uint64_t failed_offset;
	FILE *warn;		/* warnings go here (stderr) */
	/* --stitch-lbr for perf_session__resolve_callchain(): the LBR depth
	 * (callchain_request.lbr_depth); 0, the default, stitches nothing */
	uint32_t lbr_depth;
};

/*
 * Opens path ("-" or a pipe/FIFO means pipe mode, as does a file starting
 * with the pipe header; a directory is perf's directory format, its
 * data.N files read with its data file) and reads the header.  Returns NULL and prints
 * nothing on failure; *err receives "path: reason" (caller frees).  A
 * regular file another user (not root) owns is refused unless force (-f),
 * as perf refuses it.
 */
struct perf_session *perf_session__open(const char *path, bool force, char **err);
void perf_session__delete(struct perf_session *s);

/* Streams all records to tool.  Returns 0, a tool's non-zero return, or
 * -1 with s->err set (a malformed file: the message names the offset). */
int perf_session__process(struct perf_session *s, struct perf_tool *tool);

/* The event a sample id belongs to (single-event files need no id). */
struct evsel *perf_session__evsel_by_id(struct perf_session *s, uint64_t id);
struct session_event *perf_session__event(struct perf_session *s, const struct evsel *evsel);
/* Appends a tracepoint sample's fields as perf prints them (the format's
 * print fmt, through libtraceevent) to seq, terminated; false when the
 * file has no format for evsel or the sample no raw data. */
bool perf_session__print_trace(struct perf_session *s, const struct evsel *evsel,
			       const struct perf_sample *sample, struct trace_seq *seq);

/* The session's machine, fed from its records from now on: the
 * --kallsyms/--symfs overrides (NULL: none) and -f applied, the header's
 * build ids known.  The session owns it (replacing any earlier one). */
struct machine *perf_session__new_machine(struct perf_session *s, const char *kallsyms,
					  const char *symfs, bool force);
/* When guests are profiled (parse_events__guest: pcl kvm), the records and
 * samples of GUEST_KERNEL/GUEST_USER mode go to one guest machine, perf's
 * default guest, made on the first of them; its kernel's symbols come from
 * these files only (perf kvm's --guestkallsyms, --guestvmlinux), none
 * without them.  With in_hypervisor (--guest-code, which profiles guests
 * too) they go to the machine of their process (pid: an MMAP's, else the
 * sample's): machine__findnew_guest_code().
 * Else, and for every other mode, the session's machine. */
struct guest_symbols {
	const char *kallsyms, *vmlinux, *modules;	/* the default guest's kernel */
	const char *mount;	/* DIR/PID/proc/kallsyms: a guest's per QEMU pid
				 * (perf record's guest maps; reading ignores it) */
	bool in_hypervisor;	/* --guest-code: the code is the hypervisor's */
};
void perf_session__guest_symbols(const struct guest_symbols *g);
const struct guest_symbols *perf_session__guests(void);
struct machine *perf_session__machine_of(struct perf_session *s, uint8_t cpumode, pid_t pid);

/* What a sample's ip is: its thread (made when new), map, DSO, symbol and
 * cpumode, in *al (al->thread set).  False when no map covers the ip.
 * Marks the DSO hit (buildid-list --with-hits).  Needs a machine. */
bool perf_session__resolve_sample(struct perf_session *s, const struct perf_sample *sample,
				  struct addr_location *al);

/* How much of a sample's stack to resolve, and what came of it. */
/* perf report --branch-history: what a frame taken from the sample's
 * branch stack tells besides its address. */
struct callchain_branch {
	bool branch;		/* an end of a sampled branch (else a call frame) */
	uint64_t flags;		/* the branch entry's flags word */
	uint64_t from;		/* the target end: where the branch came from;
				 * 0 for the source end */
	uint32_t nr_loop_iter;	/* the source end: loops folded into it ... */
	uint64_t iter_cycles;	/* ... and the cycles of the last one */
};

struct callchain_request {
	int max_stack;		/* in: entries kept of each part (chain, unwound) */
	bool keep_outermost;	/* in: a longer chain keeps its outermost entries
				 * (perf's caller order), not its innermost */
	/* in: perf's --branch-history: the sample's branch stack (loops
	 * folded) goes before its call chain, both ends of each branch, and
	 * the chain loses as many entries as there are branches.  As the
	 * others, these frames come in caller order (keep_outermost) last
	 * first: the report reverses them */
	bool branch_history;
	/* in, optional: filled with one entry per frame written */
	struct callchain_branch *branches;
	/* in: --stitch-lbr: the file's LBR depth (perf_header__lbr_depth()),
	 * 0 for none.  An LBR call stack that goes on from its thread's last
	 * one gets the frames the earlier stacks held below it, as perf's
	 * stitching does; the thread remembers its stacks (thread.h) */
	uint32_t lbr_depth;
	int nr_chain;		/* out: frames from PERF_SAMPLE_CALLCHAIN (the rest
				 * were unwound) */
	bool corrupt;		/* out: an invalid context marker dropped the chain */
};

/* A sample's call stack, callee first, the way perf resolves it for every
 * command: the PERF_SAMPLE_CALLCHAIN entries (context markers switch the
 * cpumode, req->max_stack entries kept), then for --call-graph dwarf the
 * user stack unwound from its registers and stack copy, inlined functions
 * expanded unless inline_frames is off in the machine's symbols_config.
 * Returns the number of frames written (at most max_frames). */
int perf_sample__resolve_callchain(const struct perf_sample *sample,
				   const struct perf_event_attr *attr, struct machine *m,
				   struct thread *thread, struct callchain_request *req,
				   struct callchain_frame *frames, int max_frames);

/* The same in the session's machine, innermost max_stack entries kept (as
 * perf script prints them), LBR call stacks stitched as s->lbr_depth says. */
int perf_session__resolve_callchain(struct perf_session *s, const struct evsel *evsel,
				    const struct perf_sample *sample, struct thread *thread,
				    int max_stack, struct callchain_frame *frames, int max_frames);

/* Feeds one COMM, FORK, EXIT, MMAP, MMAP2 or HEADER_BUILD_ID record to m the
 * way a session feeds its machine: for live commands, which have no file. */
void machine__take_record(struct machine *m, const struct perf_event_header *rec);

/* perf's name for an attr when the file names none ("cpu-clock", "sched:sched_switch"). */
char *perf_session__attr_name(struct perf_session *s, const struct perf_event_attr *attr);

#endif
