/* sched-migration: the runqueue of every CPU over time, as perf's
 * sched-migration script models it from sched_switch, sched_wakeup(_new)
 * and sched_migrate_task: a list of time slices, each holding the tasks
 * queued on each CPU and what changed.  src/ui draws it as an SVG page
 * where perf's script opens a wxPython window. */
#ifndef PCL_SCHED_MIGRATION_H
#define PCL_SCHED_MIGRATION_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/hashmap.h"

struct tep_event;
struct perf_sample;

enum rq_event {
	RQ_UNKNOWN,
	RQ_SLEEP,		/* the task left the CPU not runnable */
	RQ_WAKEUP,
	RQ_FORK,		/* sched_wakeup_new */
	RQ_MIGRATE_IN,
	RQ_MIGRATE_OUT,
};

/* One CPU's runqueue: immutable once made, shared between slices. */
struct rq_snapshot {
	uint32_t nr;			/* tasks[0] is the idle task, 0 */
	int32_t *tasks;
	enum rq_event event;
	int32_t event_pid;
};

struct time_slice {
	uint64_t start, end;
	int64_t total_load;		/* queued tasks of all CPUs, idle not counted */
	uint32_t nr_rqs;		/* CPUs beyond have the initial runqueue */
	const struct rq_snapshot **rqs;
	int event_cpus[2];
	int nr_event_cpus;
};

struct sched_migration {
	struct time_slice *slices;
	size_t nr, alloc;
	struct time_slice pending;	/* the slice the next event may add */
	uint32_t nr_cpus;		/* the highest CPU seen + 1 */
	struct hashmap comms;		/* pid -> char * (the last sched_switch name) */
	struct hashmap current;		/* cpu -> pid + 1 of the task switched in */
	uint64_t rejected;		/* switches away from a task not seen switched in */
	struct arena mem;
};

void sched_migration__init(struct sched_migration *sm);
void sched_migration__exit(struct sched_migration *sm);
void sched_migration__event(struct sched_migration *sm, struct tep_event *tp,
			    const struct perf_sample *sample);

/* The runqueue of cpu in slice, and a task's "comm:pid" (into buf). */
const struct rq_snapshot *time_slice__rq(const struct time_slice *ts, uint32_t cpu);
const char *sched_migration__task_name(const struct sched_migration *sm, int32_t pid,
				       char *buf, size_t size);

#endif
