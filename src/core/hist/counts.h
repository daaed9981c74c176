/* counts: what `stat` does with counter reads.
 *
 *  - running statistics (mean and standard deviation of the mean) for -r;
 *  - the aggregation units of --per-socket/--per-die/--per-core/--per-node,
 *    -A (one unit per CPU) and --per-thread, built from the CPU topology;
 *  - per-event storage of the raw cumulative reads, interval deltas,
 *    multiplexing scaling (value * enabled / running) and the sums per unit.
 */
#ifndef PCL_COUNTS_H
#define PCL_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/events/cpumap.h"
#include "core/events/evlist.h"

/* Welford's running mean and variance. */
struct stats {
	double n, mean, M2;
};

void stats__init(struct stats *s);
void stats__update(struct stats *s, double val);
double stats__avg(const struct stats *s);
/* Standard deviation of the mean: sqrt(variance / n), 0 below two samples. */
double stats__stddev(const struct stats *s);
/* stddev as a percentage of avg (0 when avg is 0): the "( +- x.xx% )" of -r. */
double stats__rel_stddev(double stddev, double avg);

enum aggr_mode {
	AGGR_GLOBAL,	/* everything summed into one value */
	AGGR_NONE,	/* -A: one value per CPU */
	AGGR_SOCKET,
	AGGR_DIE,
	AGGR_CORE,
	AGGR_NODE,
	AGGR_THREAD,	/* one value per task */
};

/* One aggregation unit; fields that are not part of the mode's key are -1. */
struct aggr_id {
	int socket, die, core, node;
	int cpu;	/* AGGR_NONE */
	int thread;	/* AGGR_THREAD: index in the thread map */
};

struct aggr_map {
	enum aggr_mode mode;
	int nr;
	struct aggr_id *ids;	/* sorted by node, socket, die, core */
	int max_cpu;
	int *cpu_unit;		/* [cpu number] -> unit index, -1 if none */
};

/* Topology reader: fills topo for a CPU (cpu_topology__read by default). */
typedef void (*topology_reader_t)(int cpu, struct cpu_topology *topo);

/*
 * The units of mode over cpus (or threads for AGGR_THREAD; one unit for
 * AGGR_GLOBAL).  read_topo may be NULL for the sysfs topology.
 */
struct aggr_map *aggr_map__new(enum aggr_mode mode, const struct cpu_map *cpus,
			       const struct thread_map *threads, topology_reader_t read_topo);
/* The unit a CPU belongs to, -1 if none. */
int aggr_map__unit_of_cpu(const struct aggr_map *map, int cpu);
void aggr_map__delete(struct aggr_map *map);

/* The counts of one event. */
struct evsel_counts {
	int nr_cpus, nr_threads;
	struct counts_values *raw;	/* latest cumulative reads [cpu][thread] */
	struct counts_values *prev;	/* reads at the previous interval */
	struct counts_values aggr_prev;	/* AGGR_GLOBAL sum at the previous interval */
	bool failed;			/* a read failed: shown <not counted> */
	struct stats res_stats;		/* AGGR_GLOBAL value of each -r run */
};

void evsel_counts__init(struct evsel_counts *c, int nr_cpus, int nr_threads);
void evsel_counts__exit(struct evsel_counts *c);
/* Forgets the previous reads (a new -r run opens new counters). */
void evsel_counts__reset_prev(struct evsel_counts *c);
struct counts_values *evsel_counts__at(struct evsel_counts *c, int cpu_idx, int thread_idx);

/*
 * Reads every fd of evsel into c->raw.  Events of a group with a member
 * the machine lacks cannot be read (perf's group read fails): they, and
 * events whose read fails, are marked failed.  Returns 0 or -1.
 */
int evsel_counts__read(struct evsel_counts *c, const struct evsel *evsel);

/* Multiplexing: val * ena / run when run < ena; -1 (not counted) when run is 0. */
int counts_values__scale(struct counts_values *v, bool scale);

/* A value ready to be shown: scaled for multiplexing, not by the unit. */
struct aggr_value {
	double val;
	uint64_t ena, run;
	int nr;		/* CPUs summed into it */
	bool counted;	/* false: <not counted> */
};

/*
 * AGGR_GLOBAL: sums all cpus and threads, takes the delta since the
 * previous interval when interval is set, and scales.
 */
void evsel_counts__aggr_global(struct evsel_counts *c, bool interval, bool scale,
			       struct aggr_value *out);
/*
 * Per-unit modes: each cpu x thread value has its delta taken (interval)
 * and is scaled, then summed into out[unit] (out has map->nr entries).
 * For CPU units a unit with a CPU that did not run is <not counted>.
 */
void evsel_counts__aggr_units(struct evsel_counts *c, const struct evsel *evsel,
			      const struct aggr_map *map, bool interval, bool scale,
			      struct aggr_value *out);
/*
 * --percore-show-thread: in AGGR_NONE, every CPU's value (out, one per unit
 * of map) becomes the sum over the CPUs of its core, its SMT siblings.
 */
void aggr_values__sum_core_siblings(const struct aggr_map *map, struct aggr_value *out);

#endif
