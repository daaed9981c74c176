/* sched-latency: per-task scheduling latency, as perf sched latency counts
 * it.
 *
 * Each task's life is a list of "atoms": one per switch-out, holding when
 * it left the CPU, when it was woken and when it ran again.  A task's
 * delay is the time from its wake-up (or its preemption) to its next
 * switch-in; its runtime sums sched_stat_runtime.  Tasks of one comm are
 * merged unless asked per pid, then sorted by the -s keys.
 */
#ifndef PCL_SCHED_LATENCY_H
#define PCL_SCHED_LATENCY_H

#include <stdbool.h>
#include <stdint.h>

struct machine;
struct perf_sample;
struct sched_event;
struct thread;

struct sched_lat_task {
	struct thread *thread;	/* the first (of a merged comm: the highest tid) */
	int nr_merged;		/* tasks summed in this row */
	uint64_t total_runtime;
	uint64_t nr_switches;	/* switch-ins after a wait: perf's "Switches" */
	uint64_t total_lat, max_lat, max_lat_start, max_lat_end;
	/* the atom list, kept as its last atom (the only one read) */
	int last_state;
	uint64_t last_sched_out, last_wake_up;
	bool has_atom;
};

struct sched_lat_counts {
	long nr_timestamps, nr_unordered_timestamps, nr_context_switch_bugs;
};

struct sched_latency;

/* profile_cpu: -C, or -1 for every CPU. */
struct sched_latency *sched_latency__new(int profile_cpu);
void sched_latency__delete(struct sched_latency *lat);

/* Feeds one decoded event of sample; -1 on a time going backwards on a
 * CPU (perf stops there too). */
int sched_latency__event(struct sched_latency *lat, struct machine *m,
			 const struct sched_event *ev, const struct perf_sample *sample);

/* Checks a sort key list ("avg, max": runtime, switch, avg, max, pid);
 * the unknown key in *bad when false. */
bool sched_latency__valid_sort(const char *keys, char **bad);

/* The rows in output order: merged by comm unless per_pid, sorted by
 * keys.  Valid until the analysis is deleted. */
struct sched_lat_task **sched_latency__rows(struct sched_latency *lat, const char *keys,
					   bool per_pid, int *nr);
const struct sched_lat_counts *sched_latency__counts(const struct sched_latency *lat);

#endif
