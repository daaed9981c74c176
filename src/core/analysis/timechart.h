/* timechart: what `pcl timechart` draws, from sched/power/syscall tracepoints.
 *
 * Per task (pid) and per name it took (comm), the intervals it ran, waited
 * for a CPU or was blocked; per CPU its C-states (power:cpu_idle) and
 * frequencies (power:cpu_frequency); the wake-ups; and for `record -I`
 * files the read/write/sync/net/poll system calls as I/O intervals.
 *
 * Every list is kept newest first, as perf keeps them, and the tasks end
 * up sorted by (ppid, pid): the SVG draws them in these orders, so pcl's
 * chart comes out byte-equal to perf's.  The fields of the tracepoints are
 * read the way perf reads them: only the event's own fields (the common_*
 * ones read as 0), as unsigned numbers of their size.
 */
#ifndef PCL_ANALYSIS_TIMECHART_H
#define PCL_ANALYSIS_TIMECHART_H

#include <stdbool.h>
#include <stdint.h>

#include "util/hashmap.h"

struct perf_header;
struct perf_sample;
struct tep_event;
struct tep_format_field;

#define TIMECHART_MAX_CPUS 4096

enum tc_state { TC_NONE, TC_RUNNING, TC_WAITING, TC_BLOCKED };

enum tc_io_type { TC_IO_READ, TC_IO_WRITE, TC_IO_SYNC, TC_IO_TX, TC_IO_RX, TC_IO_POLL };

/* What a tracepoint means to the chart. */
enum tc_event {
	TC_EV_OTHER,
	TC_EV_CPU_IDLE, TC_EV_CPU_FREQUENCY, TC_EV_WAKEUP, TC_EV_SWITCH,
	TC_EV_POWER_START, TC_EV_POWER_END, TC_EV_POWER_FREQUENCY,
	TC_EV_IO_ENTER,		/* + enum tc_io_type */
	TC_EV_IO_EXIT = TC_EV_IO_ENTER + TC_IO_POLL + 1,	/* + enum tc_io_type */
};

struct tc_interval {		/* a task's run, wait or block on one CPU */
	struct tc_interval *next;
	uint64_t start, end;
	enum tc_state type;
	int cpu;
	char *backtrace;	/* NULL: none was taken (blocked intervals) */
};

struct tc_io {
	struct tc_io *next;
	uint64_t start, end, bytes;
	enum tc_io_type type;
	int fd, err, merges;
};

struct tc_comm {		/* a task under one name */
	struct tc_comm *next;
	uint64_t start, end, total_time, max_bytes, total_bytes;
	int row;		/* its row in the chart, 0 when not shown */
	bool display;
	enum tc_state state;
	uint64_t state_since;
	char *comm;		/* NULL when the task was never named */
	struct tc_interval *intervals;
	struct tc_io *io;
};

struct tc_task {
	struct tc_task *next;
	int pid, ppid;
	struct tc_comm *comms, *current;
};

enum tc_power_type { TC_CSTATE = 1, TC_PSTATE = 2 };

struct tc_power {
	struct tc_power *next;
	enum tc_power_type type;
	int state;
	uint64_t start, end;
	int cpu;
};

struct tc_wakeup {
	struct tc_wakeup *next;
	int waker, wakee;	/* waker -1: from an interrupt */
	uint64_t time;
	char *backtrace;
};

struct tc_filter {		/* -p: a pid or a task name */
	struct tc_filter *next;
	char *name;
	int pid;
};

struct timechart {
	struct tc_task *tasks;
	struct hashmap task_by_pid;	/* (uint32_t)pid -> struct tc_task * */
	struct tc_power *power;
	struct tc_wakeup *wakeups;
	unsigned int nr_cpus;		/* from the header (nrcpus avail) */
	uint64_t min_freq, max_freq, turbo_freq;
	uint64_t first_time, last_time;
	uint64_t io_events;
	uint64_t io_invalid;		/* system calls without their other half */
	void (*warn)(const char *what);	/* told of each of those, or NULL */
	uint64_t io_min_time, io_merge_dist;	/* --io-min-time, --io-merge-dist */
	struct tc_filter *filters;
	/* per CPU: the C-state entered and when, the P-state and since when */
	uint64_t *cstate_since, *pstate_since, *pstate;
	int *cstate;
	/* fields found in tracepoint formats, by event and name (a literal):
	 * a search by name per field of every sample costs a tenth of a run */
	struct tc_field_slot {
		const struct tep_event *tp;
		const char *name;
		struct tep_format_field *field;
	} fields[16];
	unsigned int next_field;	/* the slot a new one takes */
};

void timechart__init(struct timechart *tc);
void timechart__exit(struct timechart *tc);

/* The meaning of the tracepoint "sys:name". */
enum tc_event timechart__event_kind(const char *name);

/* Records, in time order. */
void timechart__comm(struct timechart *tc, int tid, const char *comm);
void timechart__fork(struct timechart *tc, int pid, int ppid, uint64_t time);
void timechart__exit_task(struct timechart *tc, int pid, uint64_t time);
/* A sample of any event (it widens the time range), of kind ev with the
 * tracepoint format tp; backtrace is the text the chart shows for it.
 * Returns -1 where perf stops reading: a cpu_id out of range, a system
 * call's exit in a task never seen before. */
int timechart__sample(struct timechart *tc, enum tc_event ev, struct tep_event *tp,
		      const struct perf_sample *sample, const char *backtrace);
/* The time range takes in [first, last]: the times of samples of other
 * events, which only widen it (the session need not deliver them). */
void timechart__widen(struct timechart *tc, uint64_t first, uint64_t last);

/* The sample's call chain as the chart's tooltips show it: a line
 * "..... ADDRESS" per frame, callee first (perf's timechart resolves no
 * symbols: it keeps no maps); "" without a chain, NULL for a chain with
 * an unknown context marker.  Caller frees. */
char *timechart__backtrace(const struct perf_sample *sample);

/* After the last record: closes the P-states, sorts the tasks. */
void timechart__finish(struct timechart *tc);

/* The task of pid, or NULL. */
struct tc_task *timechart__task(const struct timechart *tc, int pid);

/* -p */
void timechart__add_filter(struct timechart *tc, const char *pid_or_name);

/* Marks the task names to draw: the filtered ones, or those which ran
 * (or, with I/O, moved bytes) above a threshold lowered tenfold until
 * at least proc_num qualify.  Returns how many are drawn. */
int timechart__select(struct timechart *tc, int proc_num);

/* -t: each CPU's place when CPUs are ordered by core, then by thread
 * sibling (from the header's CPU_TOPOLOGY), -1 for a CPU in no list; an
 * array of the header's online CPU count (caller frees), or NULL when the
 * lists cannot be read. */
int *timechart__topology(const struct perf_header *h);

#endif
