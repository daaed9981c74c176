/* heatmap: latencies for latency heat maps (pcl heatmap): x = time,
 * y = latency bucket, colour = how many events.
 *
 * Events come from perf.data, a start and an end event paired by key
 * fields (or by thread), or single events whose field holds a duration;
 * or from text of "time latency" lines (trace2heatmap.pl's input).  The
 * grid then counts them per time column and latency row.  Nothing here
 * prints: ui/heatmap-svg.c and ui/heatmap-html.c draw the grid.
 */
#ifndef PCL_HEATMAP_H
#define PCL_HEATMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/arena.h"
#include "util/hashmap.h"
#include "util/strset.h"

struct perf_session;

/* One latency: where it ends in time and how long it took. */
struct heatmap_event {
	double time;		/* seconds */
	double latency;		/* in the latency unit (--unitslat) */
	int32_t pid, tid;	/* -1 from text input */
	const char *comm;	/* interned; NULL from text input */
	const char *stack;	/* interned "outermost;...;innermost", or NULL */
};

struct heatmap_events {
	struct heatmap_event *ev;
	size_t nr, alloc;
	struct strset strings;		/* comms and stacks */
	uint64_t nr_unmatched_end;	/* ends without a start */
	uint64_t nr_restarted;		/* starts replaced by a later one of the same key */
	uint64_t nr_open;		/* starts still waiting for their end */
	bool have_stacks;
};

void heatmap_events__init(struct heatmap_events *e);
void heatmap_events__exit(struct heatmap_events *e);
void heatmap_events__add(struct heatmap_events *e, const struct heatmap_event *ev);

/* Pairs starts with ends of the same key; latency = end - start. */
struct heatmap_pairer {
	struct heatmap_events *out;
	double units_per_ns;		/* latency unit per nanosecond */
	struct hashmap pending;		/* key -> struct heatmap_start */
	struct arena keys;
};

void heatmap_pairer__init(struct heatmap_pairer *p, struct heatmap_events *out,
			  double units_per_ns);
/* Counts the starts never ended (out->nr_open) and frees the pairer. */
void heatmap_pairer__exit(struct heatmap_pairer *p);
void heatmap_pairer__start(struct heatmap_pairer *p, const char *key, size_t key_len,
			   uint64_t time_ns, int32_t pid, int32_t tid, const char *comm,
			   const char *stack);
/* Adds the event ending at time_ns; false when no start waits for key. */
bool heatmap_pairer__end(struct heatmap_pairer *p, const char *key, size_t key_len,
			 uint64_t time_ns);

/* What to take from perf.data. */
struct heatmap_source {
	const char *start;		/* event name, e.g. "block:block_rq_issue" */
	const char *end;		/* NULL: perf's syscall exit for a syscall enter,
					 * or single events with latency_field */
	const char *keys;		/* comma-separated fields; NULL: by thread */
	const char *latency_field;	/* single events: the field holding the duration */
	double field_ns;		/* nanoseconds per unit of that field */
	double units_per_ns;		/* latency unit per nanosecond */
	bool stacks;			/* keep the start's resolved callchain */
	int max_stack;
};

/* The end event a start implies: sys_enter_X -> sys_exit_X and
 * raw_syscalls:sys_enter -> raw_syscalls:sys_exit (caller frees), else NULL. */
char *heatmap_default_end(const char *start);

/* Reads the session's samples into e.  Returns 0, or -1 with *err set
 * (caller frees): an unknown event or field, or a malformed file. */
int heatmap_events__from_session(struct heatmap_events *e, struct perf_session *s,
				 const struct heatmap_source *src, char **err);

/* Reads "time latency" lines (blank and '#' lines skipped); times are in
 * units of seconds_per_unit seconds, latencies kept as they are.  Returns
 * 0, or -1 with *err set naming the line. */
int heatmap_events__read_text(struct heatmap_events *e, FILE *in, double seconds_per_unit,
			      char **err);

/* The factor of a unit name: "s" 1, "ms" 1e-3, "us" 1e-6, "ns" 1e-9; 0 if unknown. */
double heatmap_unit_seconds(const char *unit);

struct heatmap_grid_opts {
	double stepsec;			/* column width in seconds (> 0) */
	int rows;			/* latency rows (> 0) */
	double minlat, maxlat;		/* maxlat < 0: the largest latency seen */
};

/* Counts per cell: column c (time), row r (latency, 0 the lowest) at
 * counts[c * rows + r]. */
struct heatmap_grid {
	int cols, rows;
	double t0;			/* the first event's time: column 0 starts there */
	double stepsec, minlat, maxlat, rowsize;
	uint64_t *counts;
	uint64_t max_count, nr_in, nr_out;	/* nr_out: latencies outside [minlat, maxlat] */
	int32_t *cell;			/* per event: its cell index, or -1 outside */
};

/* Returns 0, or -1 with *err set (caller frees) for bad options. */
int heatmap_grid__build(struct heatmap_grid *g, const struct heatmap_events *e,
			const struct heatmap_grid_opts *o, char **err);
void heatmap_grid__exit(struct heatmap_grid *g);

#endif
