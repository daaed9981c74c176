/* timechart-svg: draws a timechart (core/analysis/timechart.h) as perf's SVG.
 *
 * The chart has a time grid, a legend, a box per CPU with the tasks that
 * ran on it and its C/P-states, then a row per task drawn (its runs,
 * waits and blocks, and the wake-up lines between rows); for files of
 * `timechart record -I`, a row per task with its I/O instead.  Numbers are
 * printed as perf prints them, so the files are byte-equal.
 */
#ifndef PCL_UI_TIMECHART_SVG_H
#define PCL_UI_TIMECHART_SVG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct timechart;

struct timechart_svg_opts {
	int width;			/* -w: the least page width */
	uint64_t highlight_ns;		/* --highlight DURATION */
	const char *highlight_name;	/* --highlight NAME */
	int rows;			/* task rows (timechart__select) */
	bool draw_tasks;		/* the task rows and wake-ups (not -P / -n 0) */
	bool tasks_only;		/* -T: no C/P-states */
	bool skip_eagain;		/* --io-skip-eagain */
	const int *cpu_position;	/* -t: a CPU's place in the topology, or NULL */
	const char *cpu_model;		/* the text under each CPU's name */
	uint64_t sysfs_max_freq;	/* the highest scaling_available_frequencies */
};

/* Writes the SVG to f; the tasks' rows are stored in tc (wake-ups find them). */
void timechart_svg__write(FILE *f, struct timechart *tc, const struct timechart_svg_opts *o);

/* The same chart in one offline HTML page titled title: the SVG inline in
 * a scrolling box, with buttons, keys and Ctrl+wheel to zoom it. */
void timechart_svg__write_html(FILE *f, struct timechart *tc, const struct timechart_svg_opts *o,
			       const char *title);

#endif
