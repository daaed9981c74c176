/* metrics: shadow statistics and the derived "#" column of stat. */
#include "core/hist/metrics.h"
#include "core/events/evlist.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_ID(cache, op, result) \
	((uint64_t)(cache) | ((uint64_t)(op) << 8) | ((uint64_t)(result) << 16))

void shadow_stats__init(struct shadow_stats *s, int nr_units)
{
	s->nr_units = nr_units > 0 ? nr_units : 1;
	s->v = xcalloc((size_t)s->nr_units * STAT_KIND_MAX * STAT_CTX_MAX, sizeof(*s->v));
	stats__init(&s->walltime);
}

void shadow_stats__exit(struct shadow_stats *s)
{
	free(s->v);
	s->v = NULL;
}

void shadow_stats__reset(struct shadow_stats *s)
{
	memset(s->v, 0, (size_t)s->nr_units * STAT_KIND_MAX * STAT_CTX_MAX * sizeof(*s->v));
}

/* The privilege context: events only feed metrics of the same exclude_* set. */
static int evsel_ctx(const struct evsel *evsel)
{
	const struct perf_event_attr *a = &evsel->attr;

	return (a->exclude_user ? 1 : 0) | (a->exclude_kernel ? 2 : 0) | (a->exclude_hv ? 4 : 0) |
	       (a->exclude_host ? 8 : 0) | (a->exclude_idle ? 16 : 0);
}

static bool is_hw(const struct evsel *evsel, uint64_t config)
{
	return evsel->tool == TOOL_NONE && evsel->attr.type == PERF_TYPE_HARDWARE &&
	       (evsel->attr.config & 0xffffffffULL) == config;
}

static bool is_cache(const struct evsel *evsel, uint64_t config)
{
	return evsel->tool == TOOL_NONE && evsel->attr.type == PERF_TYPE_HW_CACHE &&
	       (evsel->attr.config & 0xffffffffULL) == config;
}

static enum stat_kind evsel_kind(const struct evsel *evsel)
{
	static const struct { uint64_t config; enum stat_kind kind; } hw[] = {
		{ PERF_COUNT_HW_CPU_CYCLES, STAT_CYCLES },
		{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, STAT_STALLED_FRONT },
		{ PERF_COUNT_HW_STALLED_CYCLES_BACKEND, STAT_STALLED_BACK },
		{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS, STAT_BRANCHES },
		{ PERF_COUNT_HW_CACHE_REFERENCES, STAT_CACHEREFS },
	};
	/* The "loads" (read accesses) of each cache are what misses divide by. */
	static const struct { uint64_t config; enum stat_kind kind; } cache[] = {
		{ PERF_COUNT_HW_CACHE_L1D, STAT_L1_DCACHE },
		{ PERF_COUNT_HW_CACHE_L1I, STAT_L1_ICACHE },
		{ PERF_COUNT_HW_CACHE_LL, STAT_LL_CACHE },
		{ PERF_COUNT_HW_CACHE_DTLB, STAT_DTLB_CACHE },
		{ PERF_COUNT_HW_CACHE_ITLB, STAT_ITLB_CACHE },
	};

	if (evsel__is_clock(evsel))
		return STAT_NSECS;
	for (size_t i = 0; i < ARRAY_SIZE(hw); i++)
		if (is_hw(evsel, hw[i].config))
			return hw[i].kind;
	for (size_t i = 0; i < ARRAY_SIZE(cache); i++)
		if (is_cache(evsel, cache[i].config))
			return cache[i].kind;
	return STAT_NONE;
}

static struct stats *shadow_at(const struct shadow_stats *s, int unit, enum stat_kind kind, int ctx)
{
	if (unit < 0 || unit >= s->nr_units)
		unit = 0;
	if (kind == STAT_NSECS)
		ctx = 0;	/* clocks serve every context */
	return &s->v[((size_t)unit * STAT_KIND_MAX + kind) * STAT_CTX_MAX + ctx];
}

void shadow_stats__update(struct shadow_stats *s, const struct evsel *evsel, int unit,
			  uint64_t count)
{
	enum stat_kind kind = evsel_kind(evsel);

	/* Only clocks have a unit scale, and their shadow is kept in ns. */
	if (kind == STAT_NONE)
		return;
	stats__update(shadow_at(s, unit, kind, evsel_ctx(evsel)), (double)count);
}

static double shadow_avg(const struct shadow_stats *s, int unit, enum stat_kind kind, int ctx)
{
	return stats__avg(shadow_at(s, unit, kind, ctx));
}

static bool shadow_seen(const struct shadow_stats *s, int unit, enum stat_kind kind, int ctx)
{
	return shadow_at(s, unit, kind, ctx)->n != 0;
}

static void set(struct metric_out *m, const char *fmt, const char *unit, double val)
{
	m->fmt = fmt;
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->val = val;
}

/* "N.NN% of all X": value over the shadow of kind, blank before any is seen. */
static void ratio_pct(const struct shadow_stats *s, int unit, int ctx, double avg,
		      enum stat_kind kind, const char *label, struct metric_out *m)
{
	double total = shadow_avg(s, unit, kind, ctx);

	if (!shadow_seen(s, unit, kind, ctx)) {
		set(m, NULL, label, 0);
		return;
	}
	set(m, "%7.2f%%", label, total ? avg / total * 100.0 : 0.0);
}

/* K/M/G scaling of a rate, as perf prints events per second. */
static double convert_unit(double value, char *prefix)
{
	static const char prefixes[] = "KMG";

	*prefix = ' ';
	for (int i = 0; i < 3 && value > 1000.0; i++) {
		value /= 1000.0;
		*prefix = prefixes[i];
	}
	return value;
}

int metrics__compute(const struct shadow_stats *s, const struct evsel *evsel, int unit,
		     double avg, struct metric_out out[METRICS_MAX])
{
	int ctx = evsel_ctx(evsel);
	struct metric_out *m = &out[0];
	double total;

	memset(out, 0, METRICS_MAX * sizeof(*out));
	if (is_hw(evsel, PERF_COUNT_HW_INSTRUCTIONS)) {
		double stalled;

		total = shadow_avg(s, unit, STAT_CYCLES, ctx);
		set(m, total ? "%7.2f " : NULL, "insn per cycle", total ? avg / total : 0);
		stalled = shadow_avg(s, unit, STAT_STALLED_FRONT, ctx);
		if (shadow_avg(s, unit, STAT_STALLED_BACK, ctx) > stalled)
			stalled = shadow_avg(s, unit, STAT_STALLED_BACK, ctx);
		if (stalled && avg) {
			set(&out[1], "%7.2f ", "stalled cycles per insn", stalled / avg);
			return 2;
		}
		return 1;
	}
	if (is_hw(evsel, PERF_COUNT_HW_BRANCH_MISSES)) {
		ratio_pct(s, unit, ctx, avg, STAT_BRANCHES, "of all branches", m);
		return 1;
	}
	{
		static const struct { uint64_t cache; enum stat_kind kind; const char *label; } misses[] = {
			{ PERF_COUNT_HW_CACHE_L1D, STAT_L1_DCACHE, "of all L1-dcache accesses" },
			{ PERF_COUNT_HW_CACHE_L1I, STAT_L1_ICACHE, "of all L1-icache accesses" },
			{ PERF_COUNT_HW_CACHE_DTLB, STAT_DTLB_CACHE, "of all dTLB cache accesses" },
			{ PERF_COUNT_HW_CACHE_ITLB, STAT_ITLB_CACHE, "of all iTLB cache accesses" },
			{ PERF_COUNT_HW_CACHE_LL, STAT_LL_CACHE, "of all LL-cache accesses" },
		};

		for (size_t i = 0; i < ARRAY_SIZE(misses); i++) {
			if (!is_cache(evsel, CACHE_ID(misses[i].cache, PERF_COUNT_HW_CACHE_OP_READ,
						      PERF_COUNT_HW_CACHE_RESULT_MISS)))
				continue;
			ratio_pct(s, unit, ctx, avg, misses[i].kind, misses[i].label, m);
			return 1;
		}
	}
	if (is_hw(evsel, PERF_COUNT_HW_CACHE_MISSES)) {
		total = shadow_avg(s, unit, STAT_CACHEREFS, ctx);
		if (shadow_seen(s, unit, STAT_CACHEREFS, ctx))
			set(m, "%8.3f %%", "of all cache refs", total ? avg * 100 / total : 0);
		else
			set(m, NULL, "of all cache refs", 0);
		return 1;
	}
	if (is_hw(evsel, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND)) {
		total = shadow_avg(s, unit, STAT_CYCLES, ctx);
		if (total && avg)
			set(m, "%7.2f%%", "frontend cycles idle", avg / total * 100.0);
		else
			set(m, NULL, "frontend cycles idle", 0);
		return 1;
	}
	if (is_hw(evsel, PERF_COUNT_HW_STALLED_CYCLES_BACKEND)) {
		total = shadow_avg(s, unit, STAT_CYCLES, ctx);
		set(m, "%7.2f%%", "backend cycles idle", total ? avg / total * 100.0 : 0);
		return 1;
	}
	if (is_hw(evsel, PERF_COUNT_HW_CPU_CYCLES)) {
		total = shadow_avg(s, unit, STAT_NSECS, 0);
		if (total)
			set(m, "%8.3f", "GHz", avg / total);
		else
			set(m, NULL, "Ghz", 0);	/* sic: perf 6.1's label when it cannot compute */
		return 1;
	}
	if (evsel__is_clock(evsel)) {
		double wall = stats__avg(&s->walltime);

		if (wall)
			set(m, "%8.3f", "CPUs utilized", avg / (wall * evsel__scale(evsel)));
		else
			set(m, NULL, "CPUs utilized", 0);
		return 1;
	}
	if (shadow_seen(s, unit, STAT_NSECS, 0)) {
		char prefix = ' ', label[16] = "/sec";
		double ratio = 0;

		total = shadow_avg(s, unit, STAT_NSECS, 0);
		if (total)
			ratio = convert_unit(1e9 * avg / total, &prefix);
		if (prefix != ' ')
			snprintf(label, sizeof(label), "%c/sec", prefix);
		set(m, "%8.3f", label, ratio);
		return 1;
	}
	m->none = true;
	return 1;
}
