/* script-builtins: the analyses perf ships as scripts (`perf script -l`),
 * built in: their catalogue (names, arguments, the events their record step
 * asks for) and what each one gathers from a recording's tracepoints.
 * src/ui/script-builtins-print.c prints the results in perf's layouts. */
#ifndef PCL_SCRIPT_BUILTINS_H
#define PCL_SCRIPT_BUILTINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/hashmap.h"

struct perf_session;
struct perf_sample;
struct netdev_times;
struct callchain_frame;
struct sched_migration;
struct evsel;

enum script_builtin_id {
	SB_RWTOP,
	SB_RW_BY_PID,
	SB_WAKEUP_LATENCY,
	SB_FAILED_SYSCALLS,
	SB_RW_BY_FILE,
	SB_SCHED_MIGRATION,
	SB_EXPORT_TO_SQLITE,
	SB_NET_DROPMONITOR,
	SB_SCTOP,
	SB_COMPACTION_TIMES,
	SB_MEM_PHYS_ADDR,
	SB_SYSCALL_COUNTS_BY_PID,
	SB_SYSCALL_COUNTS,
	SB_POWERPC_HCALLS,
	SB_FUTEX_CONTENTION,
	SB_INTEL_PT_EVENTS,
	SB_FLAMEGRAPH,
	SB_FAILED_SYSCALLS_BY_PID,
	SB_EVENT_ANALYZING_SAMPLE,
	SB_STACKCOLLAPSE,
	SB_NETDEV_TIMES,
	SB_EXPORT_TO_POSTGRESQL,
	SB_NR
};

/* How a built-in runs its report. */
enum script_builtin_kind {
	SB_TRACE,	/* reads tracepoints here: script_builtin_run */
	SB_DELEGATE,	/* another pcl command does it (flamegraph) */
	SB_EXPORT,	/* writes a database (export-to-sqlite, -postgresql) */
	SB_NO_DATA,	/* its data cannot exist in pcl's files: a message */
	SB_MISSING,	/* not built in (yet): a message */
};

struct script_builtin {
	enum script_builtin_id id;
	const char *name;
	const char *args;		/* the arguments -l shows, "" for none */
	const char *description;	/* "" for none (perf has one such) */
	/* what `record` passes before the user's options, NULL-terminated */
	const char *const *record_args;
	int max_args;			/* script arguments the report takes */
	bool dash_args;			/* its arguments start with '-' too */
	enum script_builtin_kind kind;
};

/* Every built-in, in the order `perf script -l` lists perf 6.1's scripts
 * on Debian (its directory order, which differs between machines). */
const struct script_builtin *script_builtins(size_t *nr);
/* The built-in of that name, or NULL. */
const struct script_builtin *script_builtin__find(const char *name);

/* One row of a tally: a key (a string and up to three numbers) and what
 * the analysis adds up for it. */
struct sb_row {
	char *str;		/* comm, event name; NULL when unused */
	int64_t key[3];
	char *comm;		/* a value: the last comm of a pid key */
	uint64_t count;
	int64_t val[3];		/* per analysis: bytes, timestamps, ... */
	bool has_val;		/* val[] was set (Perl's "defined") */
	int64_t min, max;
	double avg;		/* Python's running (avg + value) / 2 */
};

/* Rows in first-seen order (Python dicts keep it), found by hash. */
struct sb_tally {
	struct sb_row *rows;
	size_t nr, alloc;
	struct hashmap index;	/* key hash -> row index */
};

/* The row of that key, created zeroed when new; valid until the next get. */
struct sb_row *sb_tally__get(struct sb_tally *t, const char *str, int64_t a, int64_t b,
			     int64_t c);
/* ... or NULL when there is none. */
struct sb_row *sb_tally__find(const struct sb_tally *t, const char *str, int64_t a, int64_t b,
			      int64_t c);
/* Frees the rows; the tally is empty and usable again. */
void sb_tally__exit(struct sb_tally *t);
/* Row indexes stably sorted by cmp, for printing (caller frees). */
size_t *sb_tally__sorted(const struct sb_tally *t,
			 int (*cmp)(const struct sb_row *, const struct sb_row *));

/* compaction-times: what one compaction (or a sum of them) did */
struct compaction {
	int64_t ns;			/* the start time while pending */
	int64_t moved, failed;		/* pages migrated */
	int64_t free_scanned, free_isolated;
	int64_t migrate_scanned, migrate_isolated;
};

/* compaction-times: the compactions of one pid */
struct compaction_task {
	int64_t pid;
	char *comm;			/* at its first compaction */
	bool filtered, pending;
	struct compaction current, sum;
	struct compaction *done;	/* each one, for -pv */
	size_t nr_done;
};

enum compaction_show {			/* -t, -m, -fs, -ms: 0 is the time alone */
	COMPACTION_MIGRATION = 1,
	COMPACTION_FREE_SCANNER = 2,
	COMPACTION_MIGRATION_SCANNER = 4,
	COMPACTION_ALL = 7,
};

struct compaction_opts {
	int by_task;			/* 0, 1 (-p), 2 (-pv) */
	unsigned show;			/* enum compaction_show bits */
	bool micro;			/* -u */
	bool help;			/* -h */
	long pid_lo, pid_hi;		/* pid filter (hi 0: no upper bound) */
	bool pid_filter;
	void *comm_re;			/* regex_t * of a comm filter, or NULL */
};

/* mem-phys-addr: the ranges of /proc/iomem */
struct iomem_table {
	struct iomem_range {
		uint64_t start, end;
		char *rest;		/* the line after the ':', as the script keeps it */
	} *ranges;
	size_t nr;
	uint64_t *ram, *pmem;		/* start, end, start, ... in file order */
	size_t nr_ram, nr_pmem;
};

/* One analysis over one recording. */
struct script_builtin_run {
	const struct script_builtin *sb;
	const char *for_comm;		/* [comm] argument */
	bool numeric_syscalls;		/* another architecture's file: no names */
	long for_pid;			/* [pid] argument, 0: none */
	struct sb_tally counts;		/* the main table of each analysis */
	struct sb_tally reads, read_errors, writes, write_errors;	/* rw-by-* */
	struct sb_tally unhandled;	/* Perl scripts: events without a handler */
	/* futex-contention: the waits not yet returned, per tid;
	 * compaction-times: the index in tasks of each pid */
	struct sb_tally pending;
	struct sb_tally names;		/* futex-contention: comm per tid */
	struct sb_tally last_wakeup;	/* wakeup-latency: per target cpu */
	uint64_t wakeups;
	int64_t min_latency, max_latency, total_latency;
	struct sb_tally by_comm, by_symbol, by_dso;	/* event_analyzing_sample */
	uint64_t tracepoint_samples;	/* event_analyzing_sample: with callchains, not shown */
	struct iomem_table iomem;	/* mem-phys-addr */
	struct netdev_times *netdev;	/* netdev-times */
	struct sched_migration *sched;	/* sched-migration */
	const char *output;		/* sched-migration: the page's path */
	char *first_event;		/* mem-phys-addr: the first sample's event */
	struct callchain_frame *frames;	/* stackcollapse: a sample's callchain */
	struct stackcollapse_opts {
		bool include_tid, include_pid, no_comm, tidy_java, annotate_kernel;
	} collapse;
	struct compaction_opts compaction;
	struct compaction_task *tasks;	/* compaction-times, in first-seen order */
	size_t nr_tasks;
	struct compaction total;
	uint64_t interval_ns;		/* rwtop, sctop: between screens */
	uint64_t next_screen;		/* the time of the next one, 0: not started */
};

/* Takes the report's script arguments: 0, or -1 when the script cannot
 * take them (too many, rw-by-file's missing comm, an unknown option). */
int script_builtin_run__init(struct script_builtin_run *run, const struct script_builtin *sb,
			     int argc, const char **argv);
void script_builtin_run__exit(struct script_builtin_run *run);

/* Feeds one sample (the session's machine has seen the records before it). */
void script_builtin_run__sample(struct script_builtin_run *run, struct perf_session *s,
				struct evsel *evsel, const struct perf_sample *sample);

/*
 * rwtop and sctop show their totals every interval, of the recording's
 * time here (perf's scripts use the wall clock of the report): true when
 * a sample at time ends an interval, so that the totals so far are shown
 * and cleared (script_builtin_run__clear_screen) before it is fed.
 */
bool script_builtin_run__screen_due(struct script_builtin_run *run, uint64_t time);
void script_builtin_run__clear_screen(struct script_builtin_run *run);

/* Reads /proc/iomem (path, when not NULL): an unreadable file gives none. */
void iomem_table__load(struct iomem_table *t, const char *path);
/* "System RAM", "Persistent Memory", the rest of the first line whose range
 * holds phys, or "N/A" (also for 0), as mem-phys-addr names them. */
const char *iomem_table__type(const struct iomem_table *t, uint64_t phys);
void iomem_table__exit(struct iomem_table *t);

/* Kernel symbols for net_dropmonitor: sorted by address, then name. */
struct ksym_table {
	struct ksym { uint64_t addr; char *name; } *syms;
	size_t nr;
};
/* Reads /proc/kallsyms (path, when not NULL); an unreadable file gives an
 * empty table, as the script does. */
void ksym_table__load(struct ksym_table *t, const char *path);
/* The symbol at or before addr, or NULL. */
const struct ksym *ksym_table__find(const struct ksym_table *t, uint64_t addr);
void ksym_table__exit(struct ksym_table *t);

#endif
