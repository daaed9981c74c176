/* sched-timehist: perf sched timehist's accounting (see sched-timehist.h). */
#include "core/analysis/sched-timehist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/sched-events.h"
#include "core/data/perf-record.h"
#include "core/data/sample-filter.h"
#include "core/symbols/machine.h"
#include "core/symbols/thread.h"
#include "util/hashmap.h"
#include "util/util.h"

#define TASK_RUNNING 0
#define TASK_UNINTERRUPTIBLE 2

struct sched_timehist {
	struct th_opts o;
	struct hashmap by_thread;	/* struct thread * -> struct th_task * */
	struct th_task **idle;		/* by CPU */
	int nr_idle;
	uint64_t *cpu_last_switch;	/* by CPU: the previous sched_switch */
	int nr_cpu_times;
	int max_cpu;
	long skipped;
	uint64_t time_start, time_end;	/* the filter's range, 0: open */
	uint64_t hist_start, hist_end;
	const char *stack;		/* of the sample at hand, or NULL */
};

static void stats_init(struct th_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

static void stats_update(struct th_stats *s, uint64_t val)
{
	double delta;

	s->n++;
	delta = (double)val - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * ((double)val - s->mean);
	if (val > s->max)
		s->max = val;
	if (val < s->min)
		s->min = val;
}

double th_stats__mean(const struct th_stats *s)
{
	return s->mean;
}

double th_stats__rel_stddev(const struct th_stats *s)
{
	double stddev;

	if (s->n < 2)
		return 0.0;
	stddev = sqrt(s->m2 / (s->n - 1) / s->n);
	return s->mean ? 100.0 * stddev / s->mean : 0.0;
}

static struct th_task *task_new(struct thread *t, int idle_cpu)
{
	struct th_task *task = xcalloc(1, sizeof(*task));

	task->thread = t;
	task->idle_cpu = idle_cpu;
	stats_init(&task->run_stats);
	return task;
}

static void grow_idle(struct sched_timehist *th, int cpu)
{
	int n;

	if (cpu < th->nr_idle)
		return;
	n = cpu + 1;
	th->idle = xrealloc(th->idle, (size_t)n * sizeof(*th->idle));
	for (int i = th->nr_idle; i < n; i++)
		th->idle[i] = task_new(NULL, i);
	th->nr_idle = n;
}

struct sched_timehist *sched_timehist__new(const struct th_opts *o)
{
	struct sched_timehist *th = xcalloc(1, sizeof(*th));

	th->o = *o;
	if (o->filter && o->filter->nr_ranges) {
		th->time_start = o->filter->ranges[0].start;
		th->time_end = o->filter->ranges[0].end;
	}
	th->max_cpu = o->nr_cpus_online ? o->nr_cpus_online : 4;
	grow_idle(th, th->max_cpu - 1);
	return th;
}

void sched_timehist__delete(struct sched_timehist *th)
{
	struct th_task **slot = NULL;

	if (!th)
		return;
	while ((slot = hashmap_next(&th->by_thread, slot)))
		free(*slot);
	hashmap_release(&th->by_thread);
	for (int i = 0; i < th->nr_idle; i++) {
		free(th->idle[i]);
	}
	free(th->idle);
	free(th->cpu_last_switch);
	free(th);
}

int sched_timehist__max_cpu(const struct sched_timehist *th)
{
	return th->max_cpu;
}

static struct th_task *task_of(struct sched_timehist *th, struct thread *t)
{
	struct th_task *task = hashmap_u64_get(&th->by_thread, (uint64_t)(uintptr_t)t);

	if (!task) {
		task = task_new(t, -1);
		hashmap_u64_put(&th->by_thread, (uint64_t)(uintptr_t)t, task);
	}
	return task;
}

/* perf's idle tasks: pid and tid 0 */
static char idle_comm[] = "<idle>";
static const struct thread idle_thread = { .comm = idle_comm };

bool sched_timehist__filtered(const struct sched_timehist *th, const struct thread *t)
{
	return th->o.filter && sample_filter__thread(th->o.filter, t ? t : &idle_thread);
}

/* perf counts every filtered task it checks: any makes the idle stats moot */
static bool skip_task(struct sched_timehist *th, const struct thread *t)
{
	if (!sched_timehist__filtered(th, t))
		return false;
	th->skipped++;
	return true;
}

static bool cpu_selected(const struct sched_timehist *th, int cpu)
{
	return !th->o.filter || !sample_filter__skip_cpu(th->o.filter, (uint32_t)cpu);
}

struct th_name sched_timehist__name(const struct th_task *task)
{
	if (!task->thread)
		return (struct th_name){ "<idle>", 0, 0 };
	return (struct th_name){ task->thread->comm, task->thread->tid, task->thread->pid };
}

static struct th_name name_of(const struct thread *t)
{
	return (struct th_name){ t->comm, t->tid, t->pid };
}

static void update_runtime(struct th_task *r, uint64_t t, uint64_t tprev)
{
	r->dt_delay = r->dt_sleep = r->dt_iowait = r->dt_preempt = r->dt_run = 0;
	if (tprev) {
		r->dt_run = t - tprev;
		if (r->ready_to_run && r->ready_to_run <= tprev)
			r->dt_delay = tprev - r->ready_to_run;
		if (r->last_time && r->last_time <= tprev) {
			uint64_t wait = tprev - r->last_time;

			if (r->last_state == TASK_RUNNING)
				r->dt_preempt = wait;
			else if (r->last_state == TASK_UNINTERRUPTIBLE)
				r->dt_iowait = wait;
			else
				r->dt_sleep = wait;
		}
	}
	stats_update(&r->run_stats, r->dt_run);
	r->total_run += r->dt_run;
	r->total_delay += r->dt_delay;
	r->total_sleep += r->dt_sleep;
	r->total_iowait += r->dt_iowait;
	r->total_preempt += r->dt_preempt;
}

static uint64_t *last_switch(struct sched_timehist *th, int cpu)
{
	if (cpu >= th->nr_cpu_times) {
		int n = cpu + 16;

		th->cpu_last_switch = xrealloc(th->cpu_last_switch, (size_t)n * sizeof(uint64_t));
		memset(th->cpu_last_switch + th->nr_cpu_times, 0,
		       (size_t)(n - th->nr_cpu_times) * sizeof(uint64_t));
		th->nr_cpu_times = n;
	}
	return &th->cpu_last_switch[cpu];
}

void sched_timehist__set_stack(struct sched_timehist *th, const char *folded)
{
	th->stack = folded;
}

/* -I: the idle task's time is charged to the task that ran before it */
static void charge_idle(struct sched_timehist *th, struct th_task *idle, uint64_t t,
			uint64_t tprev)
{
	struct th_task *last;

	if (!idle->idle_last)
		return;
	last = task_of(th, idle->idle_last);
	update_runtime(last, t, tprev);
	last->dt_run = last->dt_delay = last->dt_sleep = last->dt_iowait = last->dt_preempt = 0;
	idle->idle_last = NULL;
}

static void on_switch(struct sched_timehist *th, struct machine *m, const struct sched_event *ev,
		      const struct perf_sample *sample)
{
	const struct th_opts *o = &th->o;
	int cpu = (int)sample->cpu;
	uint64_t *saved = last_switch(th, cpu);
	uint64_t t = sample->time, tprev = *saved;
	bool idle = ev->prev_pid == 0;
	struct thread *thread = NULL;
	struct th_task *task = NULL;
	bool skip;

	if (idle) {
		grow_idle(th, cpu);
		task = th->idle[cpu];
	} else {
		thread = machine__findnew_thread(m, (pid_t)sample->pid,
						 (pid_t)(sample->tid ? sample->tid : sample->pid));
		if (o->idle_hist) {
			struct th_task *idle_task;

			grow_idle(th, cpu);
			idle_task = th->idle[cpu];
			idle_task->idle_last = thread;
		}
	}
	skip = skip_task(th, thread);
	if (o->idle_hist && ev->prev_pid != 0 && ev->next_pid != 0)
		skip = true;
	if (skip) {
		task = NULL;
		goto out;
	}
	if (!idle)
		task = task_of(th, thread);
	if (th->time_start && th->time_start > t)
		goto out;
	if (tprev && th->time_start > tprev)
		tprev = th->time_start;
	if (th->time_end) {
		/* a CPU's first switch may lie inside or not: perf leaves it out */
		if (!tprev || tprev > th->time_end)
			goto out;
		if (t > th->time_end)
			t = th->time_end;
	}
	if (!o->idle_hist || idle) {
		if (cpu_selected(th, cpu))
			update_runtime(task, t, tprev);
		if (o->idle_hist) {
			if (!task->idle_last)
				goto out;
			charge_idle(th, task, t, tprev);
		}
	}
	if (!o->summary_only && cpu_selected(th, cpu)) {
		struct th_row row = {
			.kind = TH_ROW_SWITCH, .time = t, .cpu = cpu, .task = task, .idle = idle,
			.state = (int)ev->prev_state, .next_comm = ev->next_comm,
			.next_pid = ev->next_pid,
		};

		row.who = sched_timehist__name(task);
		o->emit(&row, o->arg);
	}
out:
	if (th->hist_start == 0 && t >= th->time_start)
		th->hist_start = t;
	if (th->time_end == 0 || t <= th->time_end)
		th->hist_end = t;
	if (task) {
		task->last_time = sample->time;
		task->last_state = (int)ev->prev_state;
		task->ready_to_run = 0;
	}
	*saved = sample->time;
}

static bool outside_time(const struct sched_timehist *th, uint64_t t)
{
	return (th->time_start && t < th->time_start) || (th->time_end && t > th->time_end);
}

/* A wake-up or migration row, unless both tasks are filtered out. */
static void emit_other(struct sched_timehist *th, struct machine *m, struct th_row *row,
		       const struct perf_sample *sample, struct thread *target)
{
	struct thread *actor = machine__findnew_thread(m, (pid_t)sample->pid, (pid_t)sample->tid);
	bool skip_actor = skip_task(th, actor);

	if (skip_actor && skip_task(th, target))
		return;
	row->time = sample->time;
	row->cpu = (int)sample->cpu;
	row->who = name_of(actor);
	row->target = name_of(target);
	th->o.emit(row, th->o.arg);
}

static void on_wakeup(struct sched_timehist *th, struct machine *m, const struct sched_event *ev,
		      const struct perf_sample *sample)
{
	struct thread *t = machine__findnew_thread(m, 0, (pid_t)ev->pid);
	struct th_task *task = task_of(th, t);

	if (task->ready_to_run == 0)
		task->ready_to_run = sample->time;
	if (th->o.wakeups && !outside_time(th, sample->time)) {
		struct th_row row = { .kind = TH_ROW_WAKEUP };

		emit_other(th, m, &row, sample, t);
	}
}

static void on_migrate(struct sched_timehist *th, struct machine *m, const struct sched_event *ev,
		       const struct perf_sample *sample)
{
	struct thread *t = machine__findnew_thread(m, 0, (pid_t)ev->pid);
	struct th_task *task = task_of(th, t);

	task->migrations++;
	if (!th->o.summary_only) {
		struct th_row row = {
			.kind = TH_ROW_MIGRATE, .orig_cpu = ev->orig_cpu, .dest_cpu = ev->dest_cpu,
		};

		emit_other(th, m, &row, sample, t);
	}
}

int sched_timehist__sample(struct sched_timehist *th, struct machine *m,
			   const struct sched_event *ev, const struct perf_sample *sample)
{
	if ((int)sample->cpu > th->max_cpu)
		th->max_cpu = (int)sample->cpu;
	switch (ev->kind) {
	case SCHED_EV_SWITCH:
		on_switch(th, m, ev, sample);
		break;
	case SCHED_EV_WAKEUP:
	case SCHED_EV_WAKEUP_NEW:
		on_wakeup(th, m, ev, sample);
		break;
	case SCHED_EV_MIGRATE:
		if (th->o.migrations)
			on_migrate(th, m, ev, sample);
		break;
	default:
		break;
	}
	return 0;
}

/* perf's machine keeps threads in 256 buckets by tid, each sorted by tid */
static int by_perf_thread_order(const void *a, const void *b)
{
	const struct th_task *l = *(const struct th_task *const *)a;
	const struct th_task *r = *(const struct th_task *const *)b;
	unsigned lb = (unsigned)l->thread->tid % 256, rb = (unsigned)r->thread->tid % 256;

	if (lb != rb)
		return lb < rb ? -1 : 1;
	return (l->thread->tid > r->thread->tid) - (l->thread->tid < r->thread->tid);
}

void sched_timehist__summary(struct sched_timehist *th, struct th_summary *s)
{
	struct th_task **slot = NULL;
	int n = 0;

	memset(s, 0, sizeof(*s));
	s->tasks = xcalloc(th->by_thread.used + 1, sizeof(*s->tasks));
	while ((slot = hashmap_next(&th->by_thread, slot))) {
		/* a thread the machine forgot (its tid was reused) is gone for perf too */
		if ((*slot)->run_stats.n && !sched_timehist__filtered(th, (*slot)->thread))
			s->tasks[n++] = *slot;
	}
	qsort(s->tasks, (size_t)n, sizeof(*s->tasks), by_perf_thread_order);
	s->nr_tasks = n;
	s->idle = (const struct th_task **)th->idle;
	s->nr_idle = th->nr_idle;
	s->idle_skipped = th->skipped && !th->o.idle_hist;
	s->hist_time = th->hist_end - th->hist_start;
}

void sched_timehist__summary_free(struct th_summary *s)
{
	free(s->tasks);
	s->tasks = NULL;
}
