/* Unit tests for core/metrics: every "#" metric perf 6.1 derives, its
 * label and format, and how shadows are matched (unit, context). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/hist/metrics.h"

#define CACHE(c, op, res) ((c) | ((op) << 8) | ((res) << 16))
#define READ_ACCESS(c) CACHE(c, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS)
#define READ_MISS(c) CACHE(c, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS)

static struct evsel mk(uint32_t type, uint64_t config)
{
	struct evsel e;

	memset(&e, 0, sizeof(e));
	e.attr.type = type;
	e.attr.config = config;
	e.leader = &e;
	e.nr_members = 1;
	e.supported = true;
	return e;
}

static struct shadow_stats sh;

static int setup(void **state)
{
	shadow_stats__init(&sh, 2);
	return 0;
}

static int teardown(void **state)
{
	shadow_stats__exit(&sh);
	return 0;
}

/* Computes the metrics and renders the first one as "fmt|unit". */
static int metric(const struct evsel *e, int unit, double avg, char *buf, size_t size,
		  struct metric_out *out)
{
	int n = metrics__compute(&sh, e, unit, avg, out);
	char val[64] = "";

	if (out[0].none)
		snprintf(buf, size, "none");
	else if (!out[0].fmt)
		snprintf(buf, size, "-|%s", out[0].unit);
	else {
		snprintf(val, sizeof(val), out[0].fmt, out[0].val);
		snprintf(buf, size, "%s|%s", val, out[0].unit);
	}
	return n;
}

static void expect(const struct evsel *e, int unit, double avg, const char *want)
{
	struct metric_out out[METRICS_MAX];
	char buf[128];

	metric(e, unit, avg, buf, sizeof(buf), out);
	assert_string_equal(buf, want);
}

static void clocks(void **state)
{
	struct evsel tc = mk(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);

	shadow_stats__reset(&sh);
	stats__init(&sh.walltime);
	expect(&tc, 0, 500.0, "-|CPUs utilized");
	stats__update(&sh.walltime, 1e9);
	/* 500 msec over 1 s of wall time */
	expect(&tc, 0, 500.0, "   0.500|CPUs utilized");
	/* -r: the mean wall time is used */
	stats__update(&sh.walltime, 3e9);
	expect(&tc, 0, 500.0, "   0.250|CPUs utilized");
}

static void rates(void **state)
{
	struct evsel tc = mk(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	struct evsel pf = mk(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);

	shadow_stats__reset(&sh);
	expect(&pf, 0, 50.0, "none");		/* no clock counted: nothing */
	shadow_stats__update(&sh, &tc, 0, 1000000);	/* 1 ms */
	expect(&pf, 0, 0.0, "   0.000|/sec");
	expect(&pf, 0, 1.0, "1000.000|/sec");	/* exactly 1000/s stays in /sec */
	expect(&pf, 0, 2.0, "   2.000|K/sec");
	expect(&pf, 0, 50.0, "  50.000|K/sec");
	expect(&pf, 0, 1e-3, "   1.000|/sec");
	expect(&pf, 0, 5e3, "   5.000|M/sec");
	expect(&pf, 0, 2.5e6, "   2.500|G/sec");
	/* another unit has its own clock */
	expect(&pf, 1, 50.0, "none");
}

static void instructions(void **state)
{
	struct evsel cyc = mk(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	struct evsel ins = mk(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	struct evsel fe = mk(PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND);
	struct evsel be = mk(PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND);
	struct metric_out out[METRICS_MAX];
	char buf[128];

	shadow_stats__reset(&sh);
	expect(&ins, 0, 1000, "-|insn per cycle");
	shadow_stats__update(&sh, &cyc, 0, 400);
	assert_int_equal(metric(&ins, 0, 1000, buf, sizeof(buf), out), 1);
	assert_string_equal(buf, "   2.50 |insn per cycle");
	shadow_stats__update(&sh, &fe, 0, 100);
	shadow_stats__update(&sh, &be, 0, 250);
	assert_int_equal(metric(&ins, 0, 1000, buf, sizeof(buf), out), 2);
	/* the larger of the two stalls, per instruction */
	assert_string_equal(out[1].fmt, "%7.2f ");
	assert_string_equal(out[1].unit, "stalled cycles per insn");
	assert_true(fabs(out[1].val - 0.25) < 1e-12);
	expect(&fe, 0, 100, "  25.00%|frontend cycles idle");
	expect(&be, 0, 250, "  62.50%|backend cycles idle");
	expect(&fe, 0, 0, "-|frontend cycles idle");
}

static void cycles(void **state)
{
	struct evsel cyc = mk(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	struct evsel cc = mk(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);

	shadow_stats__reset(&sh);
	expect(&cyc, 0, 3e9, "-|Ghz");		/* perf 6.1's spelling without a clock */
	shadow_stats__update(&sh, &cc, 0, 1000000000);
	expect(&cyc, 0, 3e9, "   3.000|GHz");
}

static void misses(void **state)
{
	static const struct { uint64_t acc, miss; const char *label; } caches[] = {
		{ READ_ACCESS(PERF_COUNT_HW_CACHE_L1D), READ_MISS(PERF_COUNT_HW_CACHE_L1D), "of all L1-dcache accesses" },
		{ READ_ACCESS(PERF_COUNT_HW_CACHE_L1I), READ_MISS(PERF_COUNT_HW_CACHE_L1I), "of all L1-icache accesses" },
		{ READ_ACCESS(PERF_COUNT_HW_CACHE_LL), READ_MISS(PERF_COUNT_HW_CACHE_LL), "of all LL-cache accesses" },
		{ READ_ACCESS(PERF_COUNT_HW_CACHE_DTLB), READ_MISS(PERF_COUNT_HW_CACHE_DTLB), "of all dTLB cache accesses" },
		{ READ_ACCESS(PERF_COUNT_HW_CACHE_ITLB), READ_MISS(PERF_COUNT_HW_CACHE_ITLB), "of all iTLB cache accesses" },
	};
	struct evsel br = mk(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	struct evsel bm = mk(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES);
	struct evsel cr = mk(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES);
	struct evsel cm = mk(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES);
	char want[128];

	shadow_stats__reset(&sh);
	expect(&bm, 0, 5, "-|of all branches");
	expect(&cm, 0, 5, "-|of all cache refs");
	shadow_stats__update(&sh, &br, 0, 200);
	shadow_stats__update(&sh, &cr, 0, 400);
	expect(&bm, 0, 5, "   2.50%|of all branches");
	expect(&cm, 0, 5, "   1.250 %|of all cache refs");
	for (size_t i = 0; i < sizeof(caches) / sizeof(caches[0]); i++) {
		struct evsel acc = mk(PERF_TYPE_HW_CACHE, caches[i].acc);
		struct evsel miss = mk(PERF_TYPE_HW_CACHE, caches[i].miss);

		snprintf(want, sizeof(want), "-|%s", caches[i].label);
		expect(&miss, 0, 10, want);
		shadow_stats__update(&sh, &acc, 0, 1000);
		snprintf(want, sizeof(want), "   1.00%%|%s", caches[i].label);
		expect(&miss, 0, 10, want);
	}
	/* a counted total of 0 still shows the metric, at 0 */
	shadow_stats__reset(&sh);
	shadow_stats__update(&sh, &br, 0, 0);
	expect(&bm, 0, 5, "   0.00%|of all branches");
}

static void contexts(void **state)
{
	struct evsel cyc = mk(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	struct evsel ins_u = mk(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	struct evsel cyc_u = cyc;
	struct evsel tc_u = mk(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	struct evsel pf = mk(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);

	ins_u.attr.exclude_kernel = 1;
	cyc_u.attr.exclude_kernel = 1;
	shadow_stats__reset(&sh);
	shadow_stats__update(&sh, &cyc, 0, 100);
	/* instructions:u only divides by cycles:u */
	expect(&ins_u, 0, 100, "-|insn per cycle");
	shadow_stats__update(&sh, &cyc_u, 0, 50);
	expect(&ins_u, 0, 100, "   2.00 |insn per cycle");
	/* but a clock serves every context */
	tc_u.attr.exclude_kernel = 1;
	shadow_stats__update(&sh, &tc_u, 0, 1000000000);
	expect(&pf, 0, 3, "   3.000|/sec");
}

static void nothing_to_say(void **state)
{
	struct evsel tp = mk(PERF_TYPE_TRACEPOINT, 42);
	struct evsel tool = mk(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);

	shadow_stats__reset(&sh);
	expect(&tp, 0, 1000, "none");
	/* a tool event is never a clock even with a clock-like attr */
	tool.tool = TOOL_DURATION_TIME;
	expect(&tool, 0, 1000, "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clocks),
		cmocka_unit_test(rates),
		cmocka_unit_test(instructions),
		cmocka_unit_test(cycles),
		cmocka_unit_test(misses),
		cmocka_unit_test(contexts),
		cmocka_unit_test(nothing_to_say),
	};
	return cmocka_run_group_tests_name("metrics", tests, setup, teardown);
}
