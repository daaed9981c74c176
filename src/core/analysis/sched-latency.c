/* sched-latency: perf sched latency's accounting (see sched-latency.h). */
#include "core/analysis/sched-latency.h"

#include <stdlib.h>
#include <string.h>

#include "core/analysis/sched-events.h"
#include "core/data/perf-record.h"
#include "core/symbols/machine.h"
#include "core/symbols/thread.h"
#include "util/hashmap.h"
#include "util/util.h"

enum atom_state { ATOM_SLEEPING, ATOM_WAIT_CPU, ATOM_SCHED_IN, ATOM_IGNORE };

struct sched_latency {
	int profile_cpu;
	struct hashmap by_tid;		/* tid -> struct sched_lat_task * */
	struct sched_lat_task **tasks;	/* in creation order */
	int nr_tasks, alloc_tasks;
	struct sched_lat_task **rows;
	int nr_rows;
	uint64_t *cpu_last_switched;	/* by CPU */
	uint32_t *cpu_curr_pid;		/* by CPU, (u32)-1 before the first switch */
	int nr_cpus;
	struct sched_lat_counts counts;
};

struct sched_latency *sched_latency__new(int profile_cpu)
{
	struct sched_latency *lat = xcalloc(1, sizeof(*lat));

	lat->profile_cpu = profile_cpu;
	return lat;
}

static void free_rows(struct sched_latency *lat)
{
	for (int i = 0; i < lat->nr_rows; i++)
		free(lat->rows[i]);
	free(lat->rows);
	lat->rows = NULL;
	lat->nr_rows = 0;
}

void sched_latency__delete(struct sched_latency *lat)
{
	if (!lat)
		return;
	for (int i = 0; i < lat->nr_tasks; i++)
		free(lat->tasks[i]);
	free(lat->tasks);
	free_rows(lat);
	free(lat->cpu_last_switched);
	free(lat->cpu_curr_pid);
	hashmap_release(&lat->by_tid);
	free(lat);
}

static void grow_cpus(struct sched_latency *lat, int cpu)
{
	int n;

	if (cpu < lat->nr_cpus)
		return;
	n = cpu + 16;
	lat->cpu_last_switched = xrealloc(lat->cpu_last_switched, (size_t)n * sizeof(uint64_t));
	lat->cpu_curr_pid = xrealloc(lat->cpu_curr_pid, (size_t)n * sizeof(uint32_t));
	for (int i = lat->nr_cpus; i < n; i++) {
		lat->cpu_last_switched[i] = 0;
		lat->cpu_curr_pid[i] = (uint32_t)-1;
	}
	lat->nr_cpus = n;
}

static struct sched_lat_task *find_task(struct sched_latency *lat, uint32_t tid)
{
	return hashmap_u64_get(&lat->by_tid, tid);
}

static struct sched_lat_task *new_task(struct sched_latency *lat, struct machine *m, uint32_t tid)
{
	struct sched_lat_task *t = xcalloc(1, sizeof(*t));

	t->thread = machine__findnew_thread(m, -1, (pid_t)tid);
	hashmap_u64_put(&lat->by_tid, tid, t);
	if (lat->nr_tasks == lat->alloc_tasks) {
		lat->alloc_tasks = lat->alloc_tasks ? 2 * lat->alloc_tasks : 64;
		lat->tasks = xrealloc(lat->tasks, (size_t)lat->alloc_tasks * sizeof(*lat->tasks));
	}
	lat->tasks[lat->nr_tasks++] = t;
	return t;
}

/* A new atom: the task left the CPU at time (runnable when 'R'). */
static void sched_out(struct sched_lat_task *t, bool runnable, uint64_t time)
{
	t->has_atom = true;
	t->last_sched_out = time;
	t->last_wake_up = runnable ? time : 0;
	t->last_state = runnable ? ATOM_WAIT_CPU : ATOM_SLEEPING;
}

static void sched_in(struct sched_lat_task *t, uint64_t time)
{
	uint64_t delta;

	if (!t->has_atom || t->last_state != ATOM_WAIT_CPU)
		return;
	if (time < t->last_wake_up) {
		t->last_state = ATOM_IGNORE;
		return;
	}
	t->last_state = ATOM_SCHED_IN;
	delta = time - t->last_wake_up;
	t->total_lat += delta;
	if (delta > t->max_lat) {
		t->max_lat = delta;
		t->max_lat_start = t->last_wake_up;
		t->max_lat_end = time;
	}
	t->nr_switches++;
}

static int on_switch(struct sched_latency *lat, struct machine *m, const struct sched_event *ev,
		     const struct perf_sample *sample)
{
	int cpu = (int)sample->cpu;
	uint64_t last = lat->cpu_last_switched[cpu];
	struct sched_lat_task *out, *in;

	lat->cpu_last_switched[cpu] = sample->time;
	if (last && sample->time < last)
		return -1;
	out = find_task(lat, ev->prev_pid);
	if (!out)
		out = new_task(lat, m, ev->prev_pid);
	/* perf reads the state letter at index prev_state: only 0 is 'R' */
	sched_out(out, ev->prev_state == 0, sample->time);
	in = find_task(lat, ev->next_pid);
	if (!in) {
		in = new_task(lat, m, ev->next_pid);
		sched_out(in, true, sample->time);
	}
	sched_in(in, sample->time);
	return 0;
}

static void on_runtime(struct sched_latency *lat, struct machine *m, const struct sched_event *ev,
		       const struct perf_sample *sample)
{
	struct sched_lat_task *t = find_task(lat, ev->pid);

	if (!t) {
		t = new_task(lat, m, ev->pid);
		sched_out(t, true, sample->time);
	}
	t->total_runtime += ev->runtime;
}

static void on_wakeup(struct sched_latency *lat, struct machine *m, const struct sched_event *ev,
		      const struct perf_sample *sample)
{
	struct sched_lat_task *t = find_task(lat, ev->pid);

	if (!t) {
		t = new_task(lat, m, ev->pid);
		sched_out(t, false, sample->time);
	}
	/* A wake-up of a task still on its run queue only changes its state;
	 * with one CPU profiled, events are missing: take them all. */
	if (lat->profile_cpu == -1 && t->last_state != ATOM_SLEEPING)
		return;
	lat->counts.nr_timestamps++;
	if (t->last_sched_out > sample->time) {
		lat->counts.nr_unordered_timestamps++;
		return;
	}
	t->last_state = ATOM_WAIT_CPU;
	t->last_wake_up = sample->time;
}

static void on_migrate(struct sched_latency *lat, struct machine *m, const struct sched_event *ev,
		       const struct perf_sample *sample)
{
	struct sched_lat_task *t;

	/* only a one-CPU profile needs to follow migrations */
	if (lat->profile_cpu == -1)
		return;
	t = find_task(lat, ev->pid);
	if (!t) {
		t = new_task(lat, m, ev->pid);
		sched_out(t, true, sample->time);
	}
	t->last_sched_out = t->last_wake_up = sample->time;
	lat->counts.nr_timestamps++;
}

int sched_latency__event(struct sched_latency *lat, struct machine *m,
			 const struct sched_event *ev, const struct perf_sample *sample)
{
	int err = 0;

	switch (ev->kind) {
	case SCHED_EV_SWITCH:
		grow_cpus(lat, (int)sample->cpu);
		if (lat->cpu_curr_pid[sample->cpu] != (uint32_t)-1 &&
		    lat->cpu_curr_pid[sample->cpu] != ev->prev_pid)
			lat->counts.nr_context_switch_bugs++;
		err = on_switch(lat, m, ev, sample);
		lat->cpu_curr_pid[sample->cpu] = ev->next_pid;
		break;
	case SCHED_EV_RUNTIME:
		on_runtime(lat, m, ev, sample);
		break;
	case SCHED_EV_WAKEUP:
		/* perf 6.1's latency reads sched_wakeup, not sched_waking,
		 * although its record asks for sched_waking */
		if (ev->waking)
			break;
		/* fall through */
	case SCHED_EV_WAKEUP_NEW:
		on_wakeup(lat, m, ev, sample);
		break;
	case SCHED_EV_MIGRATE:
		on_migrate(lat, m, ev, sample);
		break;
	default:
		break;
	}
	return err;
}

const struct sched_lat_counts *sched_latency__counts(const struct sched_latency *lat)
{
	return &lat->counts;
}

/* Sort keys; tasks without switches sort below all others, as in perf. */
typedef int sort_fn(const struct sched_lat_task *l, const struct sched_lat_task *r);

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)

static int cmp_pid(const struct sched_lat_task *l, const struct sched_lat_task *r)
{
	return CMP(l->thread->tid, r->thread->tid);
}

static int cmp_avg(const struct sched_lat_task *l, const struct sched_lat_task *r)
{
	if (!l->nr_switches)
		return -1;
	if (!r->nr_switches)
		return 1;
	return CMP(l->total_lat / l->nr_switches, r->total_lat / r->nr_switches);
}

static int cmp_max(const struct sched_lat_task *l, const struct sched_lat_task *r)
{
	return CMP(l->max_lat, r->max_lat);
}

static int cmp_switch(const struct sched_lat_task *l, const struct sched_lat_task *r)
{
	return CMP(l->nr_switches, r->nr_switches);
}

static int cmp_runtime(const struct sched_lat_task *l, const struct sched_lat_task *r)
{
	return CMP(l->total_runtime, r->total_runtime);
}

static const struct { const char *name; sort_fn *fn; } sort_keys[] = {
	{ "pid", cmp_pid }, { "avg", cmp_avg }, { "max", cmp_max },
	{ "switch", cmp_switch }, { "runtime", cmp_runtime },
};

#define MAX_KEYS 16

/* Splits keys at commas and blanks into functions; false with the bad
 * key in *bad. */
static bool parse_keys(const char *keys, sort_fn **fns, int *nr, char **bad)
{
	char *copy = xstrdup(keys), *save = NULL;

	*nr = 0;
	for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(sort_keys); i++)
			if (!strcmp(tok, sort_keys[i].name))
				break;
		if (i == ARRAY_SIZE(sort_keys)) {
			if (bad)
				*bad = xstrdup(tok);
			free(copy);
			return false;
		}
		if (*nr < MAX_KEYS)
			fns[(*nr)++] = sort_keys[i].fn;
	}
	free(copy);
	return true;
}

bool sched_latency__valid_sort(const char *keys, char **bad)
{
	sort_fn *fns[MAX_KEYS];
	int nr;

	return parse_keys(keys, fns, &nr, bad);
}

static int cmp_keys(sort_fn **fns, int nr, const struct sched_lat_task *l,
		    const struct sched_lat_task *r)
{
	int ret = 0;

	for (int i = 0; i < nr && !ret; i++)
		ret = fns[i](l, r);
	return ret;
}

/* Rows in descending key order, equal rows in their given order (perf's
 * tree puts equal keys to the right). */
static void stable_sort_desc(struct sched_lat_task **rows, int nr, sort_fn **fns, int nr_fns)
{
	for (int i = 1; i < nr; i++) {
		struct sched_lat_task *x = rows[i];
		int j = i;

		while (j > 0 && cmp_keys(fns, nr_fns, x, rows[j - 1]) > 0) {
			rows[j] = rows[j - 1];
			j--;
		}
		rows[j] = x;
	}
}

/* perf's merge walks the tasks from the highest tid down: by comm, then
 * by descending tid, the first task of a comm takes the others in. */
static int by_comm_then_tid_desc(const void *a, const void *b)
{
	const struct sched_lat_task *l = *(const struct sched_lat_task *const *)a;
	const struct sched_lat_task *r = *(const struct sched_lat_task *const *)b;
	int c = strcmp(r->thread->comm, l->thread->comm);

	return c ? c : CMP(r->thread->tid, l->thread->tid);
}

static int by_tid_desc(const void *a, const void *b)
{
	const struct sched_lat_task *l = *(const struct sched_lat_task *const *)a;
	const struct sched_lat_task *r = *(const struct sched_lat_task *const *)b;

	return CMP(r->thread->tid, l->thread->tid);
}

static void merge_into(struct sched_lat_task *into, const struct sched_lat_task *t)
{
	into->nr_merged++;
	into->total_runtime += t->total_runtime;
	into->nr_switches += t->nr_switches;
	into->total_lat += t->total_lat;
	if (into->max_lat < t->max_lat) {
		into->max_lat = t->max_lat;
		into->max_lat_start = t->max_lat_start;
		into->max_lat_end = t->max_lat_end;
	}
}

struct sched_lat_task **sched_latency__rows(struct sched_latency *lat, const char *keys,
					   bool per_pid, int *nr)
{
	sort_fn *fns[MAX_KEYS];
	int nr_fns = 0, n = 0;

	parse_keys(keys, fns, &nr_fns, NULL);
	free_rows(lat);
	lat->rows = xcalloc((size_t)lat->nr_tasks + 1, sizeof(*lat->rows));
	for (int i = 0; i < lat->nr_tasks; i++) {
		/* rows are copies: merging must not change the tasks */
		lat->rows[i] = xcalloc(1, sizeof(**lat->rows));
		*lat->rows[i] = *lat->tasks[i];
	}
	qsort(lat->rows, (size_t)lat->nr_tasks, sizeof(*lat->rows),
	      per_pid ? by_tid_desc : by_comm_then_tid_desc);
	for (int i = 0; i < lat->nr_tasks; i++) {
		struct sched_lat_task *t = lat->rows[i];

		if (!per_pid && n && !strcmp(lat->rows[n - 1]->thread->comm, t->thread->comm)) {
			merge_into(lat->rows[n - 1], t);
			free(t);
			continue;
		}
		if (!per_pid)
			t->nr_merged = 1;
		lat->rows[n++] = t;
	}
	lat->nr_rows = n;
	stable_sort_desc(lat->rows, n, fns, nr_fns);
	*nr = n;
	return lat->rows;
}
