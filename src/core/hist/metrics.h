/* metrics: the derived "#" column of `stat` ("CPUs utilized", "insn per
 * cycle", "of all branches", ...), computed as perf 6.1 does.
 *
 * Each counted event feeds a "shadow" statistic keyed by aggregation unit,
 * kind (cycles, branches, ...) and privilege context (the exclude_* bits);
 * a metric divides an event's value by the matching shadow of another event
 * in the same unit and context.  Shadows accumulate over -r runs (their
 * mean is used) and are reset at each -I interval.
 */
#ifndef PCL_METRICS_H
#define PCL_METRICS_H

#include "core/hist/counts.h"
#include "core/events/evsel.h"

enum stat_kind {
	STAT_NONE,
	STAT_NSECS,		/* task-clock / cpu-clock, in ns */
	STAT_CYCLES,
	STAT_STALLED_FRONT,
	STAT_STALLED_BACK,
	STAT_BRANCHES,
	STAT_CACHEREFS,
	STAT_L1_DCACHE,
	STAT_L1_ICACHE,
	STAT_LL_CACHE,
	STAT_DTLB_CACHE,
	STAT_ITLB_CACHE,
	STAT_KIND_MAX,
};

#define STAT_CTX_MAX 32	/* combinations of the 5 exclude_* bits we key on */

struct shadow_stats {
	int nr_units;
	struct stats *v;	/* [unit][kind][ctx] */
	struct stats walltime;	/* elapsed ns of each run (the interval in -I) */
};

void shadow_stats__init(struct shadow_stats *s, int nr_units);
void shadow_stats__exit(struct shadow_stats *s);
/* Forgets the event statistics (a new interval); walltime is kept. */
void shadow_stats__reset(struct shadow_stats *s);
/* Feeds a counted value (multiplex-scaled, before the unit scale) of evsel. */
void shadow_stats__update(struct shadow_stats *s, const struct evsel *evsel, int unit,
			  uint64_t count);

/*
 * One entry of the "#" column.  fmt NULL: the metric applies but has no
 * value (blank in text, empty fields in CSV).  none: the event has no
 * metric at all (blank column; perf prints a "(null)" unit in JSON).
 */
struct metric_out {
	bool none;
	const char *fmt;
	char unit[32];
	double val;
};

#define METRICS_MAX 2

/*
 * The metrics of evsel in a unit, given its value avg (scaled by the
 * event's unit, e.g. msec).  Returns how many (1 or 2); the second one goes
 * on a continuation line.
 */
int metrics__compute(const struct shadow_stats *s, const struct evsel *evsel, int unit,
		     double avg, struct metric_out out[METRICS_MAX]);

#endif
