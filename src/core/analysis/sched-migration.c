/* sched-migration: the script's runqueue model.  Each event starts a
 * candidate slice from the last one; it joins the list only when a
 * runqueue changed, but the last slice ends at the event either way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "core/analysis/sched-migration.h"
#include "core/analysis/tp-fields.h"
#include "core/data/perf-record.h"
#include "util/util.h"

static int32_t idle_task;
static const struct rq_snapshot initial_rq = { 1, &idle_task, RQ_UNKNOWN, 0 };

void sched_migration__init(struct sched_migration *sm)
{
	memset(sm, 0, sizeof(*sm));	/* comms: a zeroed map holds pointers */
	hashmap_init(&sm->current, sizeof(uint64_t));
}

void sched_migration__exit(struct sched_migration *sm)
{
	for (void **comm = hashmap_next(&sm->comms, NULL); comm;
	     comm = hashmap_next(&sm->comms, comm))
		free(*comm);
	hashmap_release(&sm->comms);
	hashmap_release(&sm->current);
	free(sm->slices);
	free(sm->pending.rqs);
	arena_release(&sm->mem);
}

const struct rq_snapshot *time_slice__rq(const struct time_slice *ts, uint32_t cpu)
{
	return cpu < ts->nr_rqs && ts->rqs[cpu] ? ts->rqs[cpu] : &initial_rq;
}

const char *sched_migration__task_name(const struct sched_migration *sm, int32_t pid,
				       char *buf, size_t size)
{
	const char *comm = hashmap_u64_get(&sm->comms, (uint64_t)(uint32_t)pid);

	snprintf(buf, size, "%s:%d", comm ? comm : "", pid);
	return buf;
}

/* The candidate slice at time t, copied from the last one. */
static struct time_slice *begin_slice(struct sched_migration *sm, uint64_t t)
{
	struct time_slice *last = sm->nr ? &sm->slices[sm->nr - 1] : NULL;
	struct time_slice *ts = &sm->pending;

	if (last)
		last->end = t;
	ts->rqs = xrealloc(ts->rqs, sm->nr_cpus * sizeof(*ts->rqs));
	for (uint32_t cpu = 0; cpu < sm->nr_cpus; cpu++)
		ts->rqs[cpu] = last ? time_slice__rq(last, cpu) : &initial_rq;
	ts->nr_rqs = sm->nr_cpus;
	ts->start = ts->end = t;
	ts->total_load = last ? last->total_load : 0;
	ts->nr_event_cpus = 0;
	return ts;
}

static void set_rq(struct time_slice *ts, uint32_t cpu, const struct rq_snapshot *old,
		   const struct rq_snapshot *new)
{
	ts->rqs[cpu] = new;
	ts->total_load += (int64_t)new->nr - (int64_t)old->nr;
}

static void append_slice(struct sched_migration *sm)
{
	struct time_slice *ts;

	if (sm->nr == sm->alloc) {
		sm->alloc = sm->alloc ? 2 * sm->alloc : 1024;
		sm->slices = xrealloc(sm->slices, sm->alloc * sizeof(*sm->slices));
	}
	ts = &sm->slices[sm->nr++];
	*ts = sm->pending;
	ts->rqs = arena_alloc(&sm->mem, ts->nr_rqs * sizeof(*ts->rqs));
	memcpy(ts->rqs, sm->pending.rqs, ts->nr_rqs * sizeof(*ts->rqs));
}

static bool has_task(const struct rq_snapshot *rq, int32_t pid)
{
	for (uint32_t i = 0; i < rq->nr; i++)
		if (rq->tasks[i] == pid)
			return true;
	return false;
}

static struct rq_snapshot *new_rq(struct sched_migration *sm, uint32_t room,
				  enum rq_event event, int32_t pid)
{
	struct rq_snapshot *rq = arena_alloc(&sm->mem, sizeof(*rq));

	*rq = (struct rq_snapshot){ 0, arena_alloc(&sm->mem, (room + 1) * sizeof(int32_t)),
				    event, pid };
	return rq;
}

static const struct rq_snapshot *rq_switch(struct sched_migration *sm,
					   const struct rq_snapshot *rq, int32_t prev,
					   int64_t prev_state, int32_t next)
{
	bool runnable = prev_state == 0, has_prev = has_task(rq, prev), removed = false;
	struct rq_snapshot *out;

	if (runnable && has_task(rq, next) && has_prev)
		return rq;
	out = new_rq(sm, rq->nr + 2, runnable ? RQ_UNKNOWN : RQ_SLEEP, prev);
	for (uint32_t i = 0; i < rq->nr; i++) {
		if (!runnable && !removed && rq->tasks[i] == prev) {
			removed = true;	/* list.remove: the first one */
			continue;
		}
		out->tasks[out->nr++] = rq->tasks[i];
	}
	if (!has_prev && runnable)
		out->tasks[out->nr++] = prev;
	if (!has_task(out, next))
		out->tasks[out->nr++] = next;
	return out;
}

static const struct rq_snapshot *rq_add(struct sched_migration *sm, const struct rq_snapshot *rq,
					int32_t pid, enum rq_event event)
{
	struct rq_snapshot *out;

	if (has_task(rq, pid))
		return rq;
	out = new_rq(sm, rq->nr + 1, event, pid);
	memcpy(out->tasks, rq->tasks, rq->nr * sizeof(*rq->tasks));
	out->nr = rq->nr;
	out->tasks[out->nr++] = pid;
	return out;
}

static const struct rq_snapshot *rq_remove(struct sched_migration *sm,
					   const struct rq_snapshot *rq, int32_t pid)
{
	struct rq_snapshot *out;

	if (!has_task(rq, pid))
		return rq;
	out = new_rq(sm, rq->nr, RQ_MIGRATE_OUT, pid);
	for (uint32_t i = 0; i < rq->nr; i++)
		if (rq->tasks[i] != pid)
			out->tasks[out->nr++] = rq->tasks[i];
	return out;
}

static void see_cpu(struct sched_migration *sm, int64_t cpu)
{
	if (cpu >= 0 && cpu < 4096 && (uint32_t)cpu >= sm->nr_cpus)
		sm->nr_cpus = (uint32_t)cpu + 1;
}

static void set_comm(struct sched_migration *sm, int64_t pid, char *comm)
{
	char **slot = hashmap_u64_findnew(&sm->comms, (uint64_t)(uint32_t)pid, NULL);

	free(*slot);
	*slot = comm;
}

static void sched_switch(struct sched_migration *sm, struct tep_event *tp,
			 const struct perf_sample *sample)
{
	int32_t prev = (int32_t)tp_value(tp, sample, "prev_pid");
	int32_t next = (int32_t)tp_value(tp, sample, "next_pid");
	uint64_t *current = hashmap_u64_findnew(&sm->current, sample->cpu, NULL);
	const struct rq_snapshot *old, *new;
	struct time_slice *ts;

	if (*current && *current - 1 != (uint64_t)(uint32_t)prev)
		sm->rejected++;	/* a switch was lost; the script goes on all the same */
	*current = (uint64_t)(uint32_t)next + 1;
	set_comm(sm, prev, tp_string(tp, sample, "prev_comm"));
	set_comm(sm, next, tp_string(tp, sample, "next_comm"));
	see_cpu(sm, sample->cpu);
	ts = begin_slice(sm, sample->time);
	if (sample->cpu >= ts->nr_rqs)
		return;
	old = ts->rqs[sample->cpu];
	new = rq_switch(sm, old, prev, tp_value(tp, sample, "prev_state"), next);
	if (new == old)
		return;
	set_rq(ts, sample->cpu, old, new);
	ts->event_cpus[0] = (int)sample->cpu;
	ts->nr_event_cpus = 1;
	append_slice(sm);
}

static void migrate(struct sched_migration *sm, struct tep_event *tp,
		    const struct perf_sample *sample)
{
	int32_t pid = (int32_t)tp_value(tp, sample, "pid");
	int64_t from = tp_value(tp, sample, "orig_cpu"), to = tp_value(tp, sample, "dest_cpu");
	const struct rq_snapshot *old_from, *old_to, *out;
	struct time_slice *ts;

	see_cpu(sm, from);
	see_cpu(sm, to);
	ts = begin_slice(sm, sample->time);
	if (from == to || from < 0 || to < 0 || from >= (int64_t)ts->nr_rqs ||
	    to >= (int64_t)ts->nr_rqs)
		return;
	old_from = ts->rqs[from];
	old_to = ts->rqs[to];
	out = rq_remove(sm, old_from, pid);
	set_rq(ts, (uint32_t)from, old_from, out);
	set_rq(ts, (uint32_t)to, old_to, rq_add(sm, old_to, pid, RQ_MIGRATE_IN));
	if (out != old_from)
		ts->event_cpus[ts->nr_event_cpus++] = (int)from;
	ts->event_cpus[ts->nr_event_cpus++] = (int)to;
	append_slice(sm);
}

static void wake_up(struct sched_migration *sm, struct tep_event *tp,
		    const struct perf_sample *sample, bool fork)
{
	int64_t success = 1, cpu = tp_value(tp, sample, "target_cpu");
	const struct rq_snapshot *old, *new;
	struct time_slice *ts;

	/* kernels since 4.x trace only successful wake-ups, without the field */
	if (tp_field(tp, sample, "success", &success) && success == 0)
		return;
	see_cpu(sm, cpu);
	ts = begin_slice(sm, sample->time);
	if (cpu < 0 || cpu >= (int64_t)ts->nr_rqs)
		return;
	old = ts->rqs[cpu];
	new = rq_add(sm, old, (int32_t)tp_value(tp, sample, "pid"), fork ? RQ_FORK : RQ_WAKEUP);
	if (new == old)
		return;
	set_rq(ts, (uint32_t)cpu, old, new);
	ts->event_cpus[0] = (int)cpu;
	ts->nr_event_cpus = 1;
	append_slice(sm);
}

void sched_migration__event(struct sched_migration *sm, struct tep_event *tp,
			    const struct perf_sample *sample)
{
	if (strcmp(tp->system, "sched"))
		return;
	if (!strcmp(tp->name, "sched_switch"))
		sched_switch(sm, tp, sample);
	else if (!strcmp(tp->name, "sched_migrate_task"))
		migrate(sm, tp, sample);
	else if (!strcmp(tp->name, "sched_wakeup"))
		wake_up(sm, tp, sample, false);
	else if (!strcmp(tp->name, "sched_wakeup_new"))
		wake_up(sm, tp, sample, true);
}
