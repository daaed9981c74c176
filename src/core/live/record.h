/* record: the sampling engine behind `pcl record` (and, later, the commands
 * that record through it: sched, lock, kmem, timechart ...).
 *
 *   record__config()          attrs as perf record sets them
 *   record_session__open()    open the events (falling back like perf),
 *                             read their ids, install filters, mmap the
 *                             per-CPU ring buffers (core/live/drain)
 *   record_session__create_file()  the perf.data header, then the records
 *                             that describe the world before sampling
 *   record_session__consumer()  what drain__run() feeds the drained
 *                             records to: the file
 *   record_session__drain()   one round over every buffer into the file
 *   record_session__finish_file()  lost counts, build ids, features
 *
 * The engine prints nothing: errors come back as -errno, with the event at
 * fault where one is.
 */
#ifndef PCL_RECORD_H
#define PCL_RECORD_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/events/cpumap.h"
#include "core/data/bpf-info.h"
#include "core/live/dso-hits.h"
#include "core/live/drain.h"
#include "core/live/off-cpu.h"
#include "core/live/record-threads.h"
#include "core/events/evsel.h"
#include "core/data/perf-data-write.h"
#include "core/live/ringbuf.h"
#include "core/live/synthesize.h"
#include "core/live/target.h"

enum record_callgraph {
	CALLGRAPH_NONE = 0,
	CALLGRAPH_FP,
	CALLGRAPH_DWARF,
	CALLGRAPH_LBR,
};

/* The default and the largest user stack copy for --call-graph dwarf. */
#define RECORD_STACK_SIZE_DEFAULT	8192
#define RECORD_STACK_SIZE_MAX		65528

struct record_opts {
	struct target target;
	unsigned int freq;		/* samples per second; 0 when -c is used */
	uint64_t interval;		/* -c period; 0 in frequency mode */
	bool user_freq, user_interval;	/* -F / -c given (they override terms' defaults) */
	enum record_callgraph call_graph;
	uint32_t stack_size;		/* dwarf user stack bytes */
	int callchain_max_stack;	/* --call-graph fp,N: sample_max_stack (0: none) */
	bool synth_no_tasks;		/* --synth no: nothing of the tasks running */
	bool synth_no_mmaps;		/* --synth without mmap: threads' names only */
	unsigned int nr_synth_threads;	/* --num-thread-synthesize: /proc readers for -a */
	unsigned int proc_map_timeout_ms;	/* --proc-map-timeout: a process's maps */
	void (*maps_timed_out)(pid_t pid, pid_t tid);	/* told when they took longer */
	bool tail_synthesize;		/* the tasks and maps at the end of a file */
	bool sample_address;		/* -d (also set by --call-graph dwarf) */
	bool raw_samples;		/* -R */
	bool no_inherit;		/* -i */
	bool overwrite;			/* --overwrite: a flight recorder's rings */
	bool all_cgroups;		/* --all-cgroups: samples say their cgroup */
	bool use_clockid;		/* -k */
	bool sample_time;		/* -T */
	bool sample_cpu;		/* --sample-cpu */
	bool sample_period;		/* -P: the period even with -c */
	bool sample_weight;		/* -W */
	bool sample_phys_addr;		/* --phys-data */
	bool sample_data_page_size;	/* --data-page-size */
	bool sample_identifier;		/* --sample-identifier, even for one event */
	bool no_tracking_dummy;		/* perf trace's way: the first event tracks
					 * tasks, even with -D or CPUs */
	bool inherit_stat;		/* -s: per-thread counts (with their times) */
	bool running_time;		/* --running-time: enabled/running times */
	bool record_namespaces;		/* --namespaces: on the tracking event */
	bool record_switch_events;	/* --switch-events: on the tracking event */
	bool sample_code_page_size;	/* --code-page-size */
	bool no_samples;		/* -n: counting only, no period or frequency */
	bool no_buffering;		/* --no-buffering: a wake-up per record */
	bool no_bpf_event;		/* --no-bpf-event: no BPF records on the tracking event */
	bool all_user, all_kernel;	/* --all-user, --all-kernel: every event's privilege */
	bool kernel_callchains;		/* --kernel-callchains: call chains' kernel part only */
	bool user_callchains;		/* --user-callchains: their user part only */
	bool buildid_mmap;		/* --buildid-mmap: build ids in the MMAP2 records */
	bool group;			/* --group: every event (the dummy too) in one group */
	int clockid;
	size_t mmap_pages;		/* data pages per buffer (power of two) */
	uint64_t regs_user, regs_intr;	/* --user-regs, --intr-regs masks */
	uint64_t branch_sample_type;	/* -b, -j: 0 for no branch stack */
};

/* Fills opts with perf record's defaults (4000 Hz, 512K buffers...). */
void record_opts__init(struct record_opts *opts);

/* --call-graph's help text in record and trace, as perf words it */
#define RECORD_CALL_GRAPH_HELP \
	"setup and enables call-graph (stack chain/backtrace):\n\n" \
	"\t\t\t\trecord_mode:\tcall graph recording mode (fp|dwarf|lbr)\n" \
	"\t\t\t\trecord_size:\tif record_mode is 'dwarf', max size of stack recording " \
	"(<bytes>)\n\t\t\t\t\t\tdefault: 8192 (bytes)\n\n\t\t\t\tDefault: fp"

/* Parses --call-graph "fp", "dwarf[,size]" or "lbr" into opts.  Returns 0,
 * or -1 with *msg set to perf's complaint (static or in buf). */
int record_opts__parse_callgraph(struct record_opts *opts, const char *arg,
				 char *buf, size_t size, const char **msg);

/* A perfconfig value that is not one (what perf's message names). */
struct config_error {
	char key[64];
	const char *value;	/* the config's, valid while it is */
	const char *why;	/* perf's complaint, or NULL (static or in msg) */
	char msg[256];
};

/* The call graph -g records under perf's configuration c, into *cg
 * (call_graph, stack_size, callchain_max_stack): call-graph.record-mode
 * and dump-size in file order (perf's start-up pass), then the command's
 * own key (record.call-graph, top.call-graph), which wins.  Returns 1 when
 * the config set one, 0 when not, -1 for a wrong value (*err filled). */
struct perfconfig;
int record_opts__config_callgraph(struct record_opts *cg, const struct perfconfig *c,
				  const char *key, struct config_error *err);

/* Parses --user-regs/--intr-regs' list of register names (any case) into
 * *mask; NULL means all of them.  Returns 0, or -1 with *msg set (in buf) to
 * the list of names for "?", perf's complaint for an unknown name (citing
 * list_hint, the way to list them), or NULL for an empty list. */
int record_opts__parse_regs(const char *arg, const char *list_hint, uint64_t *mask,
			    char *buf, size_t size, const char **msg);

/* Parses -j's comma-separated branch filter into opts->branch_sample_type;
 * privilege levels alone mean any branch there.  Returns 0, or -1 with *msg
 * set (in buf) to perf's complaint. */
int record_opts__parse_branch_filter(struct record_opts *opts, const char *arg,
				     char *buf, size_t size, const char **msg);

/*
 * Sets up every event's attr as perf record does: sample_type bits, period
 * or frequency, inherit, the tracking bits (mmap/comm/task...) on the first
 * event, disabled/enable_on_exec, call-graph fields, ID or IDENTIFIER when
 * several events share the file.  Adds a "dummy:HG" tracking event for
 * system-wide recordings and with a start delay, as perf does.
 */
void record__config(struct evlist *evlist, const struct record_opts *opts);

/* --off-cpu, before record__config(): perf's "offcpu-time" event, which
 * the file's off-CPU samples belong to. */
struct evsel *record__add_off_cpu(struct evlist *evlist);

/* --off-cpu, after record__config(): the sched:sched_switch event that
 * watches the target's threads leave (with their stacks) and come back
 * (PERF_RECORD_SWITCH), laid out as offcpu's samples so that every record
 * still says its event at the same place.  Returns it, or NULL without
 * the tracepoint or without sample times. */
struct evsel *record__add_off_cpu_switch(struct evlist *evlist, const struct evsel *off_cpu);

/* For -o -: every event's samples carry an id, as perf sets for a pipe, where
 * the EVENT_UPDATE records name events by id. */
void record__config_pipe(struct evlist *evlist);

/* perf's fallbacks after a failed open: a hardware cycles event the machine
 * lacks becomes cpu-clock (keeping its modifiers); an event refused for
 * watching the kernel (perf_event_paranoid) watches user space only.
 * Returns true when it changed something worth another try, with perf's
 * explanation in msg. */
bool record__fallback(struct evsel *evsel, int err, char *msg, size_t size);


struct record_session {
	const struct record_opts *opts;
	struct evlist *evlist;
	const struct cpu_map *cpus;
	const struct thread_map *threads;

	/* The rings and the loop; a caller with a workload points
	 * drain.opts.workload at it before drain__run(). */
	struct drain drain;

	struct perf_data_writer writer;
	bool writing;
	/* --threads: the output is perf's directory format, the rings'
	 * records written to DIR/data.N by one thread per group of these
	 * masks (set them before record_session__create_file()) */
	const struct record_thread_masks *dir_masks;
	struct record_threads *dir_writers;	/* while a directory is written */
	struct dso_hits *hits;
	/* the BPF programs and BTF seen loaded, for the header */
	struct bpf_env bpf;
	pid_t workload_pid;		/* the forked command, or -1 */

	/* id -> event, for samples of several events */
	struct { uint64_t id; struct evsel *evsel; } *id_map;
	size_t nr_ids;

	bool *clock_unit;		/* by idx: a clock event by name (msec units) */

	char fallback_msg[256];		/* the last fallback taken at open, "" if none */

	/* Of the current file, counted from the drain's stats since its start: */
	struct drain_stats file_start;
	uint64_t samples;		/* SAMPLE records written to it */
	uint64_t nr_records;		/* every record drained into it */
	uint64_t lost_chunks;		/* PERF_RECORD_LOST records: ring buffer overruns */
	uint64_t lost_samples;		/* dropped by the kernel (read_format LOST) */
	uint64_t first_time, last_time;	/* of samples, for SAMPLE_TIME */

	/* --off-cpu: the sleeps measured from the switch event's records,
	 * which stay out of the file (unless --switch-events asked for the
	 * switches), written as samples of the offcpu event */
	struct off_cpu *off_cpu;
	struct evsel *off_cpu_switch;	/* the evlist's last, not the file's */
	uint64_t samples_dropped, samples_added;	/* of the current file */
};

/* --off-cpu: tracks the sleeps of the opened session's switch event (see
 * record__add_off_cpu_switch(); the last of the evlist) into offcpu's
 * samples.  The files leave the switch event out: perf's BPF version has
 * none.  Returns 0, or -EINVAL when offcpu's sample_type has fields perf's
 * version cannot fill. */
int record_session__track_off_cpu(struct record_session *rs, const struct evsel *off_cpu,
				  struct evsel *sched_switch);

/*
 * Opens the configured evlist on cpus x threads.  A hardware cycles event
 * the machine lacks falls back to cpu-clock, a too high precise level is
 * lowered.  Then reads the ids, installs the filters and maps the ring
 * buffers (opts->mmap_pages each).  On error returns -errno, *failed set to
 * the event at fault (NULL for buffer errors); *filter_failed tells a
 * filter was refused.
 */
int record_session__open(struct record_session *rs, struct evlist *evlist,
			 const struct cpu_map *cpus, const struct thread_map *threads,
			 const struct record_opts *opts, struct evsel **failed,
			 bool *filter_failed);

struct record_finish {
	const char *version;
	int argc;
	const char **argv;
	bool buildid_all;
	bool buildid_cache;		/* add the DSOs hit to ~/.debug */
	const char *vmlinux;		/* --vmlinux: the kernel's image, if it is one */
	bool sample_time_range;		/* the first and last sample times in the header */
	/* filled in: data bytes before and after compression, and where the
	 * data ended in the file (its size before the features; a directory's
	 * data.N files added) */
	uint64_t raw_bytes, written_bytes, data_end;
};

/*
 * Creates the output file: header with every event's attr and ids, then the
 * synthesized records (TIME_CONV, ID_INDEX, kernel and module maps, thread
 * and cpu maps, the threads already running, FINISHED_INIT; with
 * opts->tail_synthesize these come at the end of the file).  workload_pid
 * is the forked command's pid or -1.  comp_level > 0 compresses the records
 * with zstd.  path "-" writes perf's pipe format to stdout, the features
 * (from fin's version and command line) first, event names as EVENT_UPDATE
 * records, no build ids.  With rs->dir_masks path is a directory made
 * here (perf's format: DIR/data and a DIR/data.N per ring).  Returns 0 or
 * -errno.
 */
int record_session__create_file(struct record_session *rs, const char *path,
				int comp_level, bool build_ids, pid_t workload_pid,
				const struct record_finish *fin);

/* The consumer that writes drained records into the current file, each
 * round ending with FINISHED_ROUND, and notes what the file's features need
 * (sample times, the DSOs hit).  Its ctx is rs: a command that adds a tick
 * or a note gets rs there too. */
void record_session__consumer(struct record_session *rs, struct drain_consumer *c);

/* Drains every ring buffer once into the file (record_session__consumer).
 * Returns bytes drained, or -errno (write error). */
long record_session__drain(struct record_session *rs);

/* Where the data written so far ends: the file size at this point. */
uint64_t record_session__file_size(const struct record_session *rs);

/* Finishes the file: LOST_SAMPLES records from the counters' lost counts,
 * then the feature sections (with the build ids of the DSOs hit).  Returns
 * 0 or -errno.  The session can create another file afterwards. */
int record_session__finish_file(struct record_session *rs, struct record_finish *fin);

/* Unmaps the buffers and closes the events. */
void record_session__close(struct record_session *rs);

/* --- live consumers (top, trace): records taken as a session would ---------- */

/* The event of a sample's id (the first event when samples carry no id), or
 * NULL for an id the session did not open. */
struct evsel *record_session__evsel_of_id(const struct record_session *rs, uint64_t id);

/* The layout a record is parsed with: a sample's is its event's (events of
 * several layouts carry PERF_SAMPLE_IDENTIFIER first), other records' id
 * trailers are the first event's. */
const struct perf_event_attr *record_session__attr_of(const struct record_session *rs,
						      const struct perf_event_header *rec);

/* One drain round's records, copied as they come, then put in time order
 * (records of equal times, or without one, keep their arrival order):
 * what a live command feeds its machine and its analysis, one round at a
 * time. */
struct record_round {
	const struct record_session *rs;
	unsigned char *buf;		/* the records, back to back */
	size_t len, alloc;
	struct record_round_entry {
		uint64_t time;
		size_t seq, off;	/* arrival rank, offset in buf */
	} *entries;
	size_t nr, alloc_entries;
};

void record_round__add(struct record_round *r, const struct perf_event_header *rec);
void record_round__sort(struct record_round *r);

static inline const struct perf_event_header *record_round__at(const struct record_round *r,
								 size_t i)
{
	return (const struct perf_event_header *)(const void *)(r->buf + r->entries[i].off);
}

/* Empties the round for the next one, keeping its memory. */
void record_round__reset(struct record_round *r);
void record_round__exit(struct record_round *r);

#endif
