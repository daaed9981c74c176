/* stat-display: perf 6.1's `stat` output — the text table, -x CSV and -j
 * JSON lines, for every aggregation mode, interval rows, the header and
 * the footer.
 */
#ifndef PCL_STAT_DISPLAY_H
#define PCL_STAT_DISPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

#include "core/hist/counts.h"
#include "core/hist/metrics.h"

/* One event as the display shows it. */
struct stat_counter {
	const struct evsel *evsel;
	const char *unit;		/* "msec", "ns" or "" */
	double scale;			/* value -> shown value (1e-6 for msec) */
	struct aggr_value *values;	/* one per unit of the aggregation map */
	double noise_stddev;		/* -r: stddev of the mean of the run values */
};

struct stat_display {
	FILE *out;
	enum aggr_mode aggr_mode;
	bool csv, json;
	const char *sep;		/* the -x separator, " " in text mode */
	bool big_num;			/* thousands separators (locale) */
	int unit_width;
	int run_count;
	unsigned int interval;		/* -I ms, 0 when off */
	bool null_run;			/* -n */
	bool ru_display;		/* footer shows user/sys times */
	bool per_thread_skip_zero;	/* --per-thread -a: hide idle tasks */
	bool csv_summary;		/* --summary with -x: rows start with "summary" */
	bool interval_clear;		/* --interval-clear: clear the screen each interval */
	bool metric_only;		/* --metric-only: metrics as columns, no counts */
	const char *target_desc;	/* "'true'", "'system wide'", "process id '42'" */
	const char *tool_name;		/* "pcl", in the NMI watchdog hint */

	/* what to print */
	struct stat_counter *counters;
	int nr_counters;
	const struct aggr_map *map;
	const struct thread_map *threads;
	const struct shadow_stats *shadow;

	/* footer data */
	struct timeval ru_utime, ru_stime;
	const uint64_t *walltime_run;	/* --table: elapsed ns of each run, or NULL */

	/* state */
	int interval_rows;		/* repeats the interval header every 25 */
	int metric_prints;		/* --metric-only: prints so far, perf's header counter */
	bool hint_uncounted;		/* a supported event was not counted */
	bool hint_mixed_group;
};

/*
 * Prints the counters: the header (or, with ts, interval rows stamped with
 * ts), one row per event and unit, and the footer unless interval/CSV/JSON.
 */
void stat_display__print(struct stat_display *d, const struct timespec *ts);

/* Helpers exposed for the tests. */
/* perf's value column: "%'18.2f" for fractional scales, "%'18.0f" otherwise. */
void stat_display__format_value(char *buf, size_t size, double val, double scale,
				bool csv, bool big_num);
/* Digits after the point for the -r elapsed time given its stddev. */
int stat_display__precision(double stddev);
/* The numeric part of a formatted metric as CSV shows it ("  12.50%" -> "12.50"). */
void stat_display__csv_metric_value(char *buf, size_t size, const char *fmt, double val);

#endif
