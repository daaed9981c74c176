/* diff: pairing and the computations of perf diff (see diff.h). */
#include "core/analysis/diff.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int diff_config__parse_compute(struct diff_config *c, const char *arg, char **err)
{
	static const struct { const char *name; enum diff_compute c; } names[] = {
		{ "delta", DIFF_DELTA }, { "ratio", DIFF_RATIO }, { "wdiff", DIFF_WDIFF },
		{ "delta-abs", DIFF_DELTA_ABS }, { "cycles", DIFF_CYCLES },
	};
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);

	*err = NULL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i].name) != len || memcmp(names[i].name, arg, len))
			continue;
		c->compute = names[i].c;
		if (c->compute == DIFF_WDIFF) {
			const char *comma = colon ? strchr(colon + 1, ',') : NULL;

			if (comma && comma[1]) {
				c->wdiff_w1 = strtol(colon + 1, NULL, 10);
				c->wdiff_w2 = strtol(comma + 1, NULL, 10);
			}
			if (!comma || !comma[1] || !c->wdiff_w1 || !c->wdiff_w2) {
				*err = xstrdup("Failed: wrong weight data, use 'wdiff:w1,w2'\n");
				return -1;
			}
			return 0;
		}
		if (colon) {
			/* perf's message has no newline here */
			*err = xasprintf("Failed: extra option specified '%s'", colon + 1);
			return -1;
		}
		return 0;
	}
	*err = xasprintf("Failed: '%s' is not computation method (use 'delta','ratio' or "
			 "'wdiff')\n", arg);
	return -1;
}

const struct hist_entry *diff_event__pair(const struct diff_event *de,
					  const struct hist_entry *he, int i)
{
	return i > 0 && de->files[i] ? he->pairs[i - 1] : NULL;
}

static bool has_pairs(const struct diff_event *de, const struct hist_entry *he)
{
	for (int i = 1; i < de->cfg->nr_files; i++)
		if (diff_event__pair(de, he, i))
			return true;
	return false;
}

bool diff_entry__is_dummy(const struct hist_entry *he)
{
	return he->stat.nr_events == 0;
}

uint64_t diff_event__total(const struct diff_event *de, int i)
{
	bool relative = de->base->opts->filter_relative;

	if (!i)
		return relative ? de->base_total_non_filtered : de->base_total;
	return hists__total_period(de->files[i]);
}

double diff_event__delta(const struct diff_event *de, const struct hist_entry *he, int i)
{
	const struct hist_entry *pair = diff_event__pair(de, he, i);
	double old_pct = he->stat.period * 100.0 / diff_event__total(de, 0);
	double new_pct = pair->stat.period * 100.0 / diff_event__total(de, i);

	return new_pct - old_pct;
}

double diff_event__ratio(const struct diff_event *de, const struct hist_entry *he, int i)
{
	const struct hist_entry *pair = diff_event__pair(de, he, i);
	double old_period = he->stat.period ? (double)he->stat.period : 1.0;

	return (double)pair->stat.period / old_period;
}

int64_t diff_event__wdiff(const struct diff_event *de, const struct hist_entry *he, int i)
{
	const struct hist_entry *pair = diff_event__pair(de, he, i);

	return (int64_t)(pair->stat.period * (uint64_t)de->cfg->wdiff_w2 -
			 he->stat.period * (uint64_t)de->cfg->wdiff_w1);
}

/* Larger values first. */
static int cmp_desc(double a, double b)
{
	return a > b ? -1 : a < b;
}

/* Two entries paired in file i, by the computation's value. */
static int cmp_values(const struct diff_event *de, const struct hist_entry *a,
		      const struct hist_entry *b, int i)
{
	switch (de->cfg->compute) {
	case DIFF_DELTA:
		return cmp_desc(diff_event__delta(de, a, i), diff_event__delta(de, b, i));
	case DIFF_DELTA_ABS:
		return cmp_desc(fabs(diff_event__delta(de, a, i)),
				fabs(diff_event__delta(de, b, i)));
	case DIFF_RATIO:
		return cmp_desc(diff_event__ratio(de, a, i), diff_event__ratio(de, b, i));
	case DIFF_WDIFF: {
		int64_t x = diff_event__wdiff(de, a, i), y = diff_event__wdiff(de, b, i);

		return x > y ? -1 : x < y;
	}
	case DIFF_CYCLES:
		break;
	}
	return 0;
}

/* Entries with a pair in file i first. */
static int cmp_paired(const struct diff_event *de, const struct hist_entry *a,
		      const struct hist_entry *b, int i, bool *both)
{
	bool pa = diff_event__pair(de, a, i), pb = diff_event__pair(de, b, i);

	*both = pa && pb;
	return pa == pb ? 0 : pa ? -1 : 1;
}

/* The -o column: paired first; for ratio and wdiff, real entries before
 * the empty twins, whose values mean nothing: two twins tie here and the
 * other columns order them. */
static int cmp_sort_idx(const struct diff_event *de, const struct hist_entry *a,
			const struct hist_entry *b)
{
	int i = (int)de->cfg->sort_idx, ret;
	bool both;

	if ((ret = cmp_paired(de, a, b, i, &both)) || !both)
		return ret;
	if (de->cfg->compute != DIFF_DELTA && de->cfg->compute != DIFF_DELTA_ABS &&
	    (diff_entry__is_dummy(a) || diff_entry__is_dummy(b)))
		return diff_entry__is_dummy(a) - diff_entry__is_dummy(b);
	return cmp_values(de, a, b, i);
}

/* A file's column: entries paired anywhere first, then paired there. */
static int cmp_file(const struct diff_event *de, const struct hist_entry *a,
		    const struct hist_entry *b, int i)
{
	bool pa = has_pairs(de, a), pb = has_pairs(de, b), both;
	int ret;

	if (pa != pb)
		return pa ? -1 : 1;
	if (!pa)
		return 0;
	if ((ret = cmp_paired(de, a, b, i, &both)) || !both)
		return ret;
	return cmp_values(de, a, b, i);
}

static int diff_cmp(const struct hist_entry *a, const struct hist_entry *b, void *arg)
{
	const struct diff_event *de = arg;
	int ret;

	if (de->cfg->sort_idx && (ret = cmp_sort_idx(de, a, b)))
		return ret;
	if (a->stat.period != b->stat.period)
		return a->stat.period > b->stat.period ? -1 : 1;
	for (int i = 1; i < de->cfg->nr_files; i++)
		if ((ret = cmp_file(de, a, b, i)))
			return ret;
	return 0;
}

/* -b drops the baseline's entries no other file has. */
static bool diff_keep(const struct hist_entry *he, void *arg)
{
	const struct diff_event *de = arg;

	return !de->cfg->baseline_only || has_pairs(de, he);
}

void diff_event__process(struct diff_event *de)
{
	hists__collapse(de->base);
	for (int i = 1; i < de->cfg->nr_files; i++) {
		if (!de->files[i])
			continue;
		hists__collapse(de->files[i]);
		hists__match(de->base, de->files[i], i);
		if (!de->cfg->baseline_only)
			hists__link(de->base, de->files[i], i);
	}
	de->base_total = de->base->stats.total_period;
	de->base_total_non_filtered = de->base->stats.total_non_filtered_period;
	hists__output_resort_by(de->base, diff_cmp, diff_keep, de);
}
