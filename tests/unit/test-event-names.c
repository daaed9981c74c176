/* Unit tests for core/event-names: name tables, attr -> name, probing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/hw_breakpoint.h>
#include <stdlib.h>
#include <string.h>

#include "core/events/event-names.h"
#include "core/events/tracepoint.h"

static void expect_name(struct perf_event_attr a, const char *want)
{
	char *s = event_name_for_attr(&a);

	assert_string_equal(s, want);
	free(s);
}

static void test_name_for_attr(void **state)
{
	/* perf's modifier suffix: the exclude bits, precision, then guest/host */
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_HARDWARE, .exclude_guest = 1 },
		    "cycles");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_HARDWARE, .exclude_guest = 1,
					      .exclude_kernel = 1, .exclude_hv = 1 },
		    "cycles:uH");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .config = 0,
					      .exclude_user = 1, .exclude_hv = 1 },
		    "cpu-clock:k");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .config = 1,
					      .exclude_guest = 1, .precise_ip = 2 },
		    "task-clock:ppH");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .config = 0 },
		    "cpu-clock:HG");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .config = 0,
					      .exclude_host = 1 },
		    "cpu-clock:G");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .config = 99,
					      .exclude_guest = 1 },
		    "unknown-software");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_HW_CACHE, .config = 0x10002,
					      .exclude_guest = 1 },
		    "LLC-load-misses");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_HW_CACHE, .config = 0x104,
					      .exclude_guest = 1 },
		    "invalid-cache");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_HW_CACHE, .config = 0x9,
					      .exclude_guest = 1 },
		    "unknown-ext-hardware-cache-type");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_BREAKPOINT, .bp_addr = 0x1000,
					      .bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_W,
					      .exclude_guest = 1 },
		    "mem:0x1000:rw");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_RAW, .config = 0x3c,
					      .exclude_guest = 1 },
		    "raw 0x3c");
	expect_name((struct perf_event_attr){ .type = 42 }, "unknown attr type: 42");
}

static void test_tracepoint_name_for_attr(void **state)
{
	long long id = tracepoint__id("sched", "sched_switch");

	if (id < 0)
		skip();
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_TRACEPOINT,
					      .config = (uint64_t)id },
		    "sched:sched_switch");
	expect_name((struct perf_event_attr){ .type = PERF_TYPE_TRACEPOINT, .config = ~0ULL },
		    "unknown tracepoint");
}

static void test_cache_tables(void **state)
{
	char name[64];

	hw_cache_event_name(name, sizeof(name), PERF_COUNT_HW_CACHE_L1D,
			    PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS);
	assert_string_equal(name, "L1-dcache-loads");
	hw_cache_event_name(name, sizeof(name), PERF_COUNT_HW_CACHE_DTLB,
			    PERF_COUNT_HW_CACHE_OP_PREFETCH, PERF_COUNT_HW_CACHE_RESULT_MISS);
	assert_string_equal(name, "dTLB-prefetch-misses");
	assert_true(hw_cache_op_valid(PERF_COUNT_HW_CACHE_L1I, PERF_COUNT_HW_CACHE_OP_PREFETCH));
	assert_false(hw_cache_op_valid(PERF_COUNT_HW_CACHE_L1I, PERF_COUNT_HW_CACHE_OP_WRITE));
	assert_false(hw_cache_op_valid(PERF_COUNT_HW_CACHE_ITLB, PERF_COUNT_HW_CACHE_OP_PREFETCH));
	assert_false(hw_cache_op_valid(PERF_COUNT_HW_CACHE_MAX, 0));
	/* spellings match as case-insensitive prefixes */
	assert_int_equal(hw_cache_lookup("l1-DCACHE", hw_cache_names, PERF_COUNT_HW_CACHE_MAX),
			 PERF_COUNT_HW_CACHE_L1D);
	assert_int_equal(hw_cache_lookup("btb", hw_cache_names, PERF_COUNT_HW_CACHE_MAX),
			 PERF_COUNT_HW_CACHE_BPU);
	assert_int_equal(hw_cache_lookup("speculative-load", hw_cache_op_names,
					 PERF_COUNT_HW_CACHE_OP_MAX),
			 PERF_COUNT_HW_CACHE_OP_PREFETCH);
	assert_int_equal(hw_cache_lookup("miss", hw_cache_result_names,
					 PERF_COUNT_HW_CACHE_RESULT_MAX),
			 PERF_COUNT_HW_CACHE_RESULT_MISS);
	assert_int_equal(hw_cache_lookup("nope", hw_cache_result_names,
					 PERF_COUNT_HW_CACHE_RESULT_MAX), -1);
}

static void test_symbol_tables(void **state)
{
	assert_string_equal(hw_event_symbols[PERF_COUNT_HW_CPU_CYCLES].alias, "cycles");
	assert_string_equal(sw_event_symbols[PERF_COUNT_SW_CONTEXT_SWITCHES].alias, "cs");
	assert_string_equal(sw_event_symbols[PERF_COUNT_SW_CGROUP_SWITCHES].symbol,
			    "cgroup-switches");
	assert_string_equal(tool_event_names[TOOL_USER_TIME], "user_time");
	assert_null(tool_event_names[TOOL_NONE]);
}

static void test_supported(void **state)
{
	/* software clocks are always there; a made-up type never is */
	assert_true(event_is_supported(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK));
	assert_false(event_is_supported(4242, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_for_attr),
		cmocka_unit_test(test_tracepoint_name_for_attr),
		cmocka_unit_test(test_cache_tables),
		cmocka_unit_test(test_symbol_tables),
		cmocka_unit_test(test_supported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
