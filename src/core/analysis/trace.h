/* trace: the strace-like analysis of pcl trace over raw_syscalls:sys_enter /
 * sys_exit samples, live or from a file.
 *
 * Per thread it pairs each sys_enter with its sys_exit, formats the lines
 * perf trace prints (timestamp, duration, comm/tid, call with decoded
 * arguments, result; "..." for a call another thread's event interrupted,
 * "[continued]" for an exit without its entry) and keeps the per-syscall
 * statistics of -s/-S.  The lines are appended to trace->out, which the
 * command writes out and empties; the engine prints nothing itself.
 */
#ifndef PCL_TRACE_H
#define PCL_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/analysis/syscalls.h"
#include "core/hist/counts.h"
#include "core/symbols/machine.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

/* perf's column of "= result" */
#define TRACE_ARGS_ALIGNMENT 70

struct trace_config {
	bool summary;		/* -s/-S: keep statistics */
	bool summary_only;	/* -s: no syscall lines */
	bool tp_events;		/* tracepoints too: -s shows them and the calls they
				 * interrupt, as perf's does */
	bool errno_summary;	/* --errno-summary: failures by errno */
	bool failure_only;	/* --failure */
	bool full_time;		/* -T: absolute timestamps */
	bool live;		/* fd paths may be read from /proc */
	bool no_syscalls;	/* only tracepoint events: lines have no duration */
	bool hide_comm;		/* --no-comm: tids alone */
	bool hide_thread;	/* one task traced, none it starts: no comm/tid */
	bool sched;		/* --sched: threads' CPU time in the summary */
	bool print_sample;	/* --print-sample: a line per raw syscall sample */
	bool tep_print;		/* --libtraceevent_print: events' own print format */
	double duration_ms;	/* --duration: shorter calls are not shown */
	unsigned long max_events; /* --max-events, 0: no limit */
	unsigned int min_stack;	/* --min-stack: exits with shorter chains not shown */
	/* perfconfig's trace.* display keys */
	int args_alignment;	/* the column of "= result" (TRACE_ARGS_ALIGNMENT) */
	bool hide_timestamp;	/* trace.show_timestamp = false */
	bool hide_duration;	/* trace.show_duration = false */
	bool show_zeros;	/* trace.show_zeros: zero arguments too */
	bool hide_arg_names;	/* trace.show_arg_names = false: values alone */
	bool show_prefix;	/* trace.show_prefix: O_RDONLY, not RDONLY */
};

/* One syscall's statistics in one thread. */
struct syscall_stats {
	struct stats stats;	/* durations in ns */
	uint64_t min, max;
	uint64_t nr_failures;
	int max_errno;
	unsigned int *errnos;	/* [max_errno], failures by errno - 1 */
};

/* What the trace keeps per thread. */
struct trace_thread {
	uint64_t entry_time;
	bool entry_pending;
	unsigned long nr_events;
	unsigned long majfaults, minfaults;
	double runtime_ms;		/* --sched: sched_stat_runtime's sum */
	struct strbuf entry_str;	/* "name(args" of the pending call */
	enum syscall_ret_kind ret_kind;	/* what its arguments say of its result */
	/* the pending call's pathnames were not all read at its entry: its
	 * id and arguments, to ask again at its exit */
	bool strings_late;
	long entry_id;
	uint64_t entry_args[SYSCALL_MAX_ARGS];
	struct syscall_stats **stats;	/* [syscall__max_nr() + 1], NULL until seen */
};

struct trace {
	struct trace_config cfg;
	struct syscall_table *table;
	struct machine *machine;
	struct thread *current;		/* whose sys_enter came last */
	struct hashmap threads;		/* struct thread * -> struct trace_thread * */
	struct hashmap fd_tables;	/* live: pid -> its fds' paths */
	uint64_t base_time;
	unsigned long nr_events;	/* syscall samples seen */
	unsigned long nr_printed;
	unsigned long proc_getname;	/* fd paths read from /proc (--tool_stats) */
	bool done;			/* --max-events reached */
	struct strbuf out;		/* lines not yet written */
	/* live: the strings of thread tid's call id's pathname arguments
	 * (strs[i] for argument i, NULL when unread), read as it began or,
	 * asked again when some were not, as it ended; false when it has
	 * none.  NULL: pathnames are shown as pointers. */
	bool (*user_strings)(void *priv, pid_t tid, long id, const uint64_t args[SYSCALL_MAX_ARGS],
			     bool at_exit, const char *strs[SYSCALL_MAX_ARGS]);
	void *user_strings_priv;
};

void trace__init(struct trace *t, const struct trace_config *cfg, struct machine *m);
void trace__exit(struct trace *t);

/* A raw_syscalls sample of thread: its time and id, the six arguments
 * (enter) or the return value (exit). */
void trace__sys_enter(struct trace *t, struct thread *thread, uint64_t time, long id,
		      const uint64_t args[SYSCALL_MAX_ARGS]);
/* Returns whether the exit made a line (a call chain may follow it);
 * chain_depth is the frames of its call chain, -1 when it has none. */
bool trace__sys_exit(struct trace *t, struct thread *thread, uint64_t time, long id, long ret,
		     int chain_depth);

/* A tracepoint event other than raw_syscalls: "name(field: value, ...)". */
void trace__tp_event(struct trace *t, struct thread *thread, uint64_t time, const char *name,
		     const struct tep_event *format, const void *raw, size_t raw_size);

/* A page fault of thread (-F): "majfault [sym+off] => dso@0xaddr (d.)", ip
 * and data resolved by the caller (a NULL map: not found; addr is the
 * sample's data address, shown for what has no map). */
void trace__pgfault(struct trace *t, struct thread *thread, uint64_t time, bool major,
		    const struct addr_location *ip, const struct addr_location *data,
		    uint64_t addr);

/* --sched: a sched_stat_runtime sample, runtime_ns of thread on a CPU. */
void trace__sched_runtime(struct trace *t, struct thread *thread, uint64_t runtime_ns);

/* Sets the time base (the first sample unless -T) and counts syscall
 * samples in the total: call before the handlers above, for every sample. */
void trace__account(struct trace *t, uint64_t time, bool has_time, bool is_syscall);

/* The thread's trace state, or NULL when it has no syscalls seen. */
struct trace_thread *trace__thread(const struct trace *t, const struct thread *thread);

/* The frames of a sys_exit's call chain under its line, as perf prints
 * them: "sym (dso)" at column 39, "[0xaddr]" for an unknown symbol. */
void trace__callchain(struct trace *t, const struct callchain_frame *frames, int n);

/* The errno name perf shows ("(unknown)" past the table). */
const char *trace__errno_name(int err);

#endif
