/* sched-replay: perf sched replay: the recorded tasks rebuilt as threads
 * that run, sleep and wake each other as the recording says.
 *
 * Reading builds one task per pid seen, each a list of atoms: RUN (burn
 * the CPU for the time it ran before a switch), SLEEP (after a switch
 * out; it waits on a semaphore when a wake-up targets it) and WAKEUP
 * (posts the semaphore of its target's last SLEEP).  Replaying starts a
 * thread per task and runs the lists N times, measuring each round.
 */
#ifndef PCL_SCHED_REPLAY_H
#define PCL_SCHED_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

struct machine;
struct perf_sample;
struct sched_event;
struct sched_replay;

struct replay_counts {
	long nr_run_events, nr_sleep_events, nr_wakeup_events;
	long targetless_wakeups, multitarget_wakeups, nr_run_events_optimized;
};

struct replay_task_info {
	long nr, nr_events;
	unsigned long pid;
	const char *comm;
};

/* The clock's and nanosleep's own cost, and a 1 ms test of each. */
struct replay_calibration {
	uint64_t run_overhead, sleep_overhead, run_test, sleep_test;
};

/* One round: its wall time, the running average, and the CPU time the
 * tasks used (with its running average), all in ns. */
struct replay_round {
	unsigned long nr;
	uint64_t delta, run_avg, cpu_usage, runavg_cpu_usage;
};

struct sched_replay *sched_replay__new(void);
void sched_replay__delete(struct sched_replay *r);

void sched_replay__calibrate(struct sched_replay *r, struct replay_calibration *cal);

int sched_replay__event(struct sched_replay *r, const struct sched_event *ev,
			const struct perf_sample *sample);
/* A FORK record, after the machine took it: both tasks are registered. */
void sched_replay__fork(struct sched_replay *r, struct machine *m, int pid, int tid, int ppid,
			int ptid);

const struct replay_counts *sched_replay__counts(const struct sched_replay *r);
int sched_replay__nr_tasks(const struct sched_replay *r);
struct replay_task_info sched_replay__task(const struct sched_replay *r, int i);

/* Starts the threads (each with a task-clock counter: -1 and *err set
 * when it cannot be opened), tells report (round NULL), then runs repeat
 * rounds, handing each to report; the threads are stopped at the end. */
int sched_replay__run(struct sched_replay *r, unsigned long repeat, bool force,
		      void (*report)(const struct replay_round *round, void *arg), void *arg,
		      char **err);

#endif
