/* sched-map: perf sched map's view: which task each CPU runs, one line per
 * context switch.
 *
 * Tasks get two-character short names ("A0", "B0", ... "Z0", "A1", ...;
 * the idle task is "."), announced when first seen or after their comm
 * changed.  perf shows CPUs 0 .. (highest CPU - 1) unless --compact, where
 * CPUs appear in the order they first switch.
 */
#ifndef PCL_SCHED_MAP_H
#define PCL_SCHED_MAP_H

#include <stdbool.h>
#include <stdint.h>

struct machine;
struct perf_sample;
struct sched_event;
struct thread;
struct cpu_map;

struct map_cell {
	int cpu;
	const char *shortname;	/* the CPU's current task, NULL before its first */
};

struct map_row {
	uint64_t time;
	int cpu;
	const struct map_cell *cells;
	int nr_cells;
	bool shown;		/* cpu is one --cpus shows: the time and names follow */
	bool announce;		/* name the task switched in: */
	const char *shortname, *comm;
	int tid;
	bool new_cpu;		/* --compact: cpu switches for the first time */
};

struct map_opts {
	bool compact;
	int verbose;
	const struct cpu_map *cpus;	/* --cpus (NULL: all) */
	int nr_cpus_conf;	/* this machine's configured CPUs: perf's start */
	void (*emit)(const struct map_row *row, void *arg);
	void *arg;
};

struct sched_map;

struct sched_map *sched_map__new(const struct map_opts *o);
void sched_map__delete(struct sched_map *map);

/* A sched_switch: emits its row; -1 when time goes back on a CPU. */
int sched_map__switch(struct sched_map *map, struct machine *m, const struct sched_event *ev,
		      const struct perf_sample *sample);
/* A COMM record's task is announced again at its next switch-in. */
void sched_map__comm(struct sched_map *map, struct thread *t);

#endif
