/* sched-timehist: perf sched timehist's per-task time accounting.
 *
 * At every sched_switch the task leaving the CPU gets its run time (since
 * the CPU's previous switch), its wait time (since it last left a CPU,
 * split into sleep, iowait and preemption by the state it left in) and its
 * scheduling delay (from its wake-up to the CPU's previous switch).  Each
 * CPU has its own idle task.  Every switch, and with -w/-M every wake-up
 * and migration, becomes a row handed to the caller to print; the totals
 * make the summary.
 */
#ifndef PCL_SCHED_TIMEHIST_H
#define PCL_SCHED_TIMEHIST_H

#include <stdbool.h>
#include <stdint.h>

struct machine;
struct perf_sample;
struct sched_event;
struct thread;
struct sample_filter;

/* perf's running statistics (Welford's), n a double as in perf */
struct th_stats {
	double n, mean, m2;
	uint64_t min, max;
};

struct th_task {
	struct thread *thread;	/* NULL for a CPU's idle task */
	int idle_cpu;
	uint64_t dt_run, dt_delay, dt_sleep, dt_iowait, dt_preempt;
	uint64_t total_run, total_delay, total_sleep, total_iowait, total_preempt;
	struct th_stats run_stats;
	uint64_t last_time, ready_to_run, migrations;
	int last_state;
	struct thread *idle_last;	/* -I: the task that ran before this idle task */
};

/* What a row names: comm, tid and pid as perf's "comm[tid/pid]" needs. */
struct th_name {
	const char *comm;
	int tid, pid;
};

enum th_row_kind { TH_ROW_SWITCH, TH_ROW_WAKEUP, TH_ROW_MIGRATE };

struct th_row {
	enum th_row_kind kind;
	uint64_t time;
	int cpu;
	struct th_name who;		/* switch: the task leaving; else the sample's */
	const struct th_task *task;	/* switch: its accounting */
	bool idle;			/* switch: who is an idle task */
	int state;			/* switch: prev_state */
	const char *next_comm;		/* switch */
	uint32_t next_pid;
	struct th_name target;		/* wake-up, migration: the task woken/moved */
	int orig_cpu, dest_cpu;		/* migration */
};

struct th_opts {
	bool idle_hist, wakeups, migrations, summary_only;
	/* -p, -t, --cpu and --time (one range), or NULL */
	const struct sample_filter *filter;
	int nr_cpus_online;			/* the header's */
	void (*emit)(const struct th_row *row, void *arg);
	void *arg;
};

struct sched_timehist;

struct sched_timehist *sched_timehist__new(const struct th_opts *o);
void sched_timehist__delete(struct sched_timehist *th);

/* Every sample goes here, sched events decoded in ev (others: kind
 * SCHED_EV_OTHER): the highest CPU seen counts for the -V columns. */
int sched_timehist__sample(struct sched_timehist *th, struct machine *m,
			   const struct sched_event *ev, const struct perf_sample *sample);

/* The stack (folded, callee first) of the next sample's task, kept when
 * -I sees it go idle; NULL when the sample has none. */
void sched_timehist__set_stack(struct sched_timehist *th, const char *folded);
/* An idle task's stacks by idle time, longest first (the summary sorts
 * them). */

/* The highest CPU number: the header's online count, or a sample's. */
int sched_timehist__max_cpu(const struct sched_timehist *th);

struct th_summary {
	const struct th_task **tasks;	/* perf's thread order, with run stats */
	int nr_tasks;
	const struct th_task **idle;	/* by CPU, nr_idle of them */
	int nr_idle;
	bool idle_skipped;		/* samples were filtered: no idle stats */
	uint64_t hist_time;
};

/* Fills s (free with sched_timehist__summary_free). */
void sched_timehist__summary(struct sched_timehist *th, struct th_summary *s);
void sched_timehist__summary_free(struct th_summary *s);

bool sched_timehist__filtered(const struct sched_timehist *th, const struct thread *t);
/* The name of a task's row (the idle task: "<idle>", pid 0) */
struct th_name sched_timehist__name(const struct th_task *task);

double th_stats__mean(const struct th_stats *s);
/* the standard deviation of the mean, in percent of it */
double th_stats__rel_stddev(const struct th_stats *s);

#endif
