/* sched-map: perf sched map's state (see sched-map.h). */
#include "core/analysis/sched-map.h"

#include <stdlib.h>
#include <string.h>

#include "core/analysis/sched-events.h"
#include "core/data/perf-record.h"
#include "core/events/cpumap.h"
#include "core/symbols/machine.h"
#include "core/symbols/thread.h"
#include "util/hashmap.h"
#include "util/util.h"

struct map_task {
	char shortname[3];
	bool comm_changed;
};

struct sched_map {
	struct map_opts o;
	struct hashmap tasks;		/* struct thread * -> struct map_task * */
	struct map_task **curr;		/* by CPU: the task it runs */
	uint64_t *last_switch;		/* by CPU */
	int nr_cpus;			/* the arrays' size */
	int max_cpu;
	int *compact_cpus, nr_compact;	/* --compact: CPUs in order of appearance */
	struct map_cell *cells;
	char next1, next2;		/* the next short name */
};

static void grow(struct sched_map *map, int cpu)
{
	int n;

	if (cpu < map->nr_cpus)
		return;
	n = cpu + 16;
	map->curr = xrealloc(map->curr, (size_t)n * sizeof(*map->curr));
	map->last_switch = xrealloc(map->last_switch, (size_t)n * sizeof(*map->last_switch));
	map->compact_cpus = xrealloc(map->compact_cpus, (size_t)n * sizeof(int));
	map->cells = xrealloc(map->cells, (size_t)n * sizeof(*map->cells));
	for (int i = map->nr_cpus; i < n; i++) {
		map->curr[i] = NULL;
		map->last_switch[i] = 0;
	}
	map->nr_cpus = n;
}

struct sched_map *sched_map__new(const struct map_opts *o)
{
	struct sched_map *map = xcalloc(1, sizeof(*map));

	map->o = *o;
	map->max_cpu = o->nr_cpus_conf;
	map->next1 = 'A';
	map->next2 = '0';
	grow(map, map->max_cpu);
	return map;
}

void sched_map__delete(struct sched_map *map)
{
	struct map_task **slot = NULL;

	if (!map)
		return;
	while ((slot = hashmap_next(&map->tasks, slot)))
		free(*slot);
	hashmap_release(&map->tasks);
	free(map->curr);
	free(map->last_switch);
	free(map->compact_cpus);
	free(map->cells);
	free(map);
}

static struct map_task *task_of(struct sched_map *map, struct thread *t)
{
	struct map_task *task = hashmap_u64_get(&map->tasks, (uint64_t)(uintptr_t)t);

	if (!task) {
		task = xcalloc(1, sizeof(*task));
		hashmap_u64_put(&map->tasks, (uint64_t)(uintptr_t)t, task);
	}
	return task;
}

void sched_map__comm(struct sched_map *map, struct thread *t)
{
	task_of(map, t)->comm_changed = true;
}

static bool shown(const struct sched_map *map, int cpu)
{
	return !map->o.cpus || cpu_map__idx(map->o.cpus, cpu) >= 0;
}

/* A0 .. Z0, A1 .. Z9, then A0 again (perf's sequence) */
static void name_task(struct sched_map *map, struct map_task *task, const struct thread *t)
{
	if (!strcmp(t->comm, "swapper")) {
		strcpy(task->shortname, ". ");
		return;
	}
	task->shortname[0] = map->next1;
	task->shortname[1] = map->next2;
	if (map->next1 < 'Z') {
		map->next1++;
	} else {
		map->next1 = 'A';
		map->next2 = map->next2 < '9' ? (char)(map->next2 + 1) : '0';
	}
}

int sched_map__switch(struct sched_map *map, struct machine *m, const struct sched_event *ev,
		      const struct perf_sample *sample)
{
	int cpu = (int)sample->cpu, nr_cols;
	struct map_row row = { .time = sample->time, .cpu = cpu };
	struct thread *in;
	struct map_task *task;
	uint64_t last;
	bool new_name = false;

	grow(map, cpu);
	if (cpu > map->max_cpu)
		map->max_cpu = cpu;
	if (map->o.compact) {
		bool seen = false;

		for (int i = 0; i < map->nr_compact && !seen; i++)
			seen = map->compact_cpus[i] == cpu;
		if (!seen) {
			map->compact_cpus[map->nr_compact++] = cpu;
			row.new_cpu = true;
		}
		nr_cols = map->nr_compact;
	} else {
		/* perf leaves out its highest CPU here */
		nr_cols = map->max_cpu;
	}
	last = map->last_switch[cpu];
	map->last_switch[cpu] = sample->time;
	if (last && sample->time < last)
		return -1;
	in = machine__findnew_thread(m, -1, (pid_t)ev->next_pid);
	task = task_of(map, in);
	map->curr[cpu] = task;
	if (!task->shortname[0]) {
		name_task(map, task, in);
		new_name = true;
	}
	grow(map, nr_cols);
	for (int i = 0; i < nr_cols; i++) {
		int c = map->o.compact ? map->compact_cpus[i] : i;

		if (!shown(map, c))
			continue;
		map->cells[row.nr_cells].cpu = c;
		map->cells[row.nr_cells].shortname = map->curr[c] ? map->curr[c]->shortname : NULL;
		row.nr_cells++;
	}
	row.cells = map->cells;
	row.shown = shown(map, cpu);
	if (row.shown && (new_name || task->comm_changed || (map->o.verbose > 0 && in->tid))) {
		row.announce = true;
		row.shortname = task->shortname;
		row.comm = in->comm;
		row.tid = in->tid;
		task->comm_changed = false;
	}
	map->o.emit(&row, map->o.arg);
	return 0;
}
