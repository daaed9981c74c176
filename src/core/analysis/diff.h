/* diff: perf diff's comparison of one event's histograms across perf.data
 * files.  File 0 is the baseline: its entries are paired with the equal
 * entries (same sort keys) of every other file, entries only another file
 * has get an empty baseline twin, and each pair gets the value of the
 * chosen computation (delta of percentages, ratio or weighted difference
 * of periods).  The output order is perf's: the -o file's value first,
 * then the baseline, then each file's value, then the sort keys.
 */
#ifndef PCL_DIFF_H
#define PCL_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/hist/hist.h"

enum diff_compute {
	DIFF_DELTA,
	DIFF_RATIO,
	DIFF_WDIFF,
	DIFF_DELTA_ABS,
	DIFF_CYCLES,
};

struct diff_config {
	enum diff_compute compute;
	int64_t wdiff_w1, wdiff_w2;	/* wdiff:W1,W2 */
	unsigned int sort_idx;		/* -o: the file sorting first (0: none) */
	bool baseline_only;		/* -b */
	int nr_files;
};

/* -c ARG ("delta", "delta-abs", "ratio", "wdiff:W1,W2", "cycles");
 * 0, or -1 with perf's message in *err (caller frees). */
int diff_config__parse_compute(struct diff_config *c, const char *arg, char **err);

/* One event across the files. */
struct diff_event {
	const struct diff_config *cfg;
	struct hists *base;	/* file 0's, made with nr_members = nr_files */
	struct hists **files;	/* [nr_files]: files[0] = base; NULL: event absent */
	/* the baseline's totals when the values were computed (perf computes
	 * them before the output pass recounts the shown entries) */
	uint64_t base_total, base_total_non_filtered;
};

/* Pairs, links and sorts: base->sorted is the output.  The files' own
 * stats.total_period and total_non_filtered_period must hold their
 * samples' sums (perf counts them as samples come). */
void diff_event__process(struct diff_event *de);

/* The entry's pair in file i (1..), or NULL. */
const struct hist_entry *diff_event__pair(const struct diff_event *de,
					  const struct hist_entry *he, int i);

/* An empty baseline twin of an entry only other files have. */
bool diff_entry__is_dummy(const struct hist_entry *he);

/* The values of he against its pair in file i (which must exist). */
double diff_event__delta(const struct diff_event *de, const struct hist_entry *he, int i);
double diff_event__ratio(const struct diff_event *de, const struct hist_entry *he, int i);
int64_t diff_event__wdiff(const struct diff_event *de, const struct hist_entry *he, int i);

/* The totals perf's formulas show: the baseline's (as computed) and file i's. */
uint64_t diff_event__total(const struct diff_event *de, int i);

#endif
