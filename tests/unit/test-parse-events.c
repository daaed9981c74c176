/* Unit tests for core/parse-events: every event form, the attrs it yields,
 * and the bad ones with the column perf 6.1 blames and its message.
 * PMU forms run against a fake sysfs tree; tracepoints use the real tracefs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/events/parse-events.h"
#include "core/events/pmu.h"
#include "core/events/tracepoint.h"
#include "fake-fs.h"
#include "util/util.h"

static struct evlist evlist;
static struct parse_events_error err;

static int setup(void **state)
{
	evlist__init(&evlist);
	parse_events__stat_terms(false);
	return 0;
}

static int teardown(void **state)
{
	evlist__exit(&evlist);
	parse_events_error__exit(&err);
	return 0;
}

/* Parses str, which must succeed, and returns the idx-th event. */
static struct evsel *ok(const char *str, int nr)
{
	struct evsel *e;

	evlist__exit(&evlist);
	parse_events_error__exit(&err);
	if (parse_events(&evlist, str, &err)) {
		fprintf(stderr, "parse_events(\"%s\") failed\n", str);
		parse_events_error__print(&err, str);
		fail();
	}
	assert_int_equal(evlist.nr_entries, nr);
	e = evlist.first;
	return e;
}

static struct evsel *nth(int idx)
{
	evlist__for_each(&evlist, pos)
		if (pos->idx == idx)
			return pos;
	fail();
	return NULL;
}

/* Parses str, which must fail at column idx with the message what. */
static void bad(const char *str, int idx, const char *what)
{
	evlist__exit(&evlist);
	parse_events_error__exit(&err);
	if (!parse_events(&evlist, str, &err)) {
		fprintf(stderr, "parse_events(\"%s\") succeeded\n", str);
		fail();
	}
	assert_int_equal(evlist.nr_entries, 0);
	if (err.idx != idx || strcmp(err.str ? err.str : "", what))
		fprintf(stderr, "\"%s\": got idx %d \"%s\", want %d \"%s\"\n",
			str, err.idx, err.str, idx, what);
	assert_int_equal(err.idx, idx);
	assert_string_equal(err.str, what);
}

static void test_hardware_symbols(void **state)
{
	static const struct { const char *name; uint64_t config; } hw[] = {
		{ "cycles", PERF_COUNT_HW_CPU_CYCLES }, { "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
		{ "cache-references", PERF_COUNT_HW_CACHE_REFERENCES },
		{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
		{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
		{ "bus-cycles", PERF_COUNT_HW_BUS_CYCLES },
		{ "stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "idle-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
	};

	for (size_t i = 0; i < ARRAY_SIZE(hw); i++) {
		struct evsel *e = ok(hw[i].name, 1);

		assert_int_equal(e->attr.type, PERF_TYPE_HARDWARE);
		assert_int_equal(e->attr.config, hw[i].config);
		assert_string_equal(e->name, hw[i].name);
		/* perf's default: no guest samples, nothing else excluded */
		assert_int_equal(e->attr.exclude_guest, 1);
		assert_int_equal(e->attr.exclude_user | e->attr.exclude_kernel, 0);
		assert_ptr_equal(e->leader, e);
	}
}

static void test_software_and_tool_symbols(void **state)
{
	static const struct { const char *name; uint64_t config; } sw[] = {
		{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK }, { "task-clock", PERF_COUNT_SW_TASK_CLOCK },
		{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS }, { "faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN },
		{ "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
		{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS },
		{ "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS },
		{ "dummy", PERF_COUNT_SW_DUMMY }, { "bpf-output", PERF_COUNT_SW_BPF_OUTPUT },
		{ "cgroup-switches", PERF_COUNT_SW_CGROUP_SWITCHES },
	};
	static const struct { const char *name; enum tool_event tool; } tools[] = {
		{ "duration_time", TOOL_DURATION_TIME }, { "user_time", TOOL_USER_TIME },
		{ "system_time", TOOL_SYSTEM_TIME },
	};
	struct evsel *e;

	for (size_t i = 0; i < ARRAY_SIZE(sw); i++) {
		e = ok(sw[i].name, 1);
		assert_int_equal(e->attr.type, PERF_TYPE_SOFTWARE);
		assert_int_equal(e->attr.config, sw[i].config);
		assert_int_equal(e->tool, TOOL_NONE);
	}
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
		e = ok(tools[i].name, 1);
		assert_int_equal(e->tool, tools[i].tool);
		assert_int_equal(e->attr.type, PERF_TYPE_SOFTWARE);
		assert_int_equal(e->attr.config, PERF_COUNT_SW_DUMMY);
		assert_string_equal(e->name, tools[i].name);
	}
	e = ok("duration_time//", 1);
	assert_int_equal(e->tool, TOOL_DURATION_TIME);
	/* the name is the text as written, modifiers included */
	e = ok("duration_time:u", 1);
	assert_string_equal(e->name, "duration_time:u");
	bad("duration_time/name=x/", 13, "parser error");
}

static void test_cache_events(void **state)
{
#define CACHE(t, o, r) (PERF_COUNT_HW_CACHE_##t | (PERF_COUNT_HW_CACHE_OP_##o << 8) | \
			(PERF_COUNT_HW_CACHE_RESULT_##r << 16))
	static const struct { const char *name; uint64_t config; } cache[] = {
		{ "L1-dcache", CACHE(L1D, READ, ACCESS) },
		{ "L1-dcache-loads", CACHE(L1D, READ, ACCESS) },
		{ "L1-dcache-load-misses", CACHE(L1D, READ, MISS) },
		{ "L1-dcache-stores", CACHE(L1D, WRITE, ACCESS) },
		{ "L1-dcache-prefetch-misses", CACHE(L1D, PREFETCH, MISS) },
		{ "L1-icache-loads", CACHE(L1I, READ, ACCESS) },
		{ "L1-icache-prefetches", CACHE(L1I, PREFETCH, ACCESS) },
		{ "LLC-loads", CACHE(LL, READ, ACCESS) },
		{ "LLC-prefetch-misses", CACHE(LL, PREFETCH, MISS) },
		{ "dTLB-prefetch-misses", CACHE(DTLB, PREFETCH, MISS) },
		{ "iTLB-load-misses", CACHE(ITLB, READ, MISS) },
		{ "branch-loads", CACHE(BPU, READ, ACCESS) },
		{ "branch-load-misses", CACHE(BPU, READ, MISS) },
		{ "node-stores", CACHE(NODE, WRITE, ACCESS) },
		{ "node-prefetch-misses", CACHE(NODE, PREFETCH, MISS) },
		/* perf's other spellings, and its forgiving word order */
		{ "l1d-miss", CACHE(L1D, READ, MISS) },
		{ "L1-data-read-miss", CACHE(L1D, READ, MISS) },
		{ "L2-write", CACHE(LL, WRITE, ACCESS) },
		{ "d-tlb-speculative-read", CACHE(DTLB, PREFETCH, ACCESS) },
		{ "Instruction-TLB-miss", CACHE(ITLB, READ, MISS) },
		{ "bpc-Reference", CACHE(BPU, READ, ACCESS) },
		{ "LLC-misses-loads", CACHE(LL, READ, MISS) },
		{ "L1-dcache-load-load", CACHE(L1D, READ, ACCESS) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cache); i++) {
		struct evsel *e = ok(cache[i].name, 1);

		assert_int_equal(e->attr.type, PERF_TYPE_HW_CACHE);
		assert_int_equal(e->attr.config, cache[i].config);
		assert_string_equal(e->name, cache[i].name);
	}
	/* cache events are named without their modifiers, as in perf */
	assert_string_equal(ok("L1-dcache-load-misses:u", 1)->name, "L1-dcache-load-misses");
	assert_int_equal(ok("LLC-loads/period=3/", 1)->attr.sample_period, 3);
	bad("L1-icache-stores", 0, "L1-icache has no 'stores' events");
	bad("iTLB-prefetches", 0, "iTLB has no 'prefetches' events");
	bad("branch-stores", 0, "branch has no 'stores' events");
	bad("branches-loads", 0, "parser error");
	bad("L1-dcache-foo", 9, "parser error");
	bad("L1-dcache-", 0, "parser error");
#undef CACHE
}

static void test_raw_and_numeric(void **state)
{
	struct evsel *e = ok("r003c", 1);

	assert_int_equal(e->attr.type, PERF_TYPE_RAW);
	assert_int_equal(e->attr.config, 0x3c);
	e = ok("r80a2:u", 1);
	assert_int_equal(e->attr.config, 0x80a2);
	assert_string_equal(e->name, "r80a2:u");
	assert_int_equal(e->attr.exclude_kernel, 1);
	e = ok("1:0", 1);
	assert_int_equal(e->attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(e->attr.config, PERF_COUNT_SW_CPU_CLOCK);
	e = ok("4:0x3c/period=7/", 1);
	assert_int_equal(e->attr.type, 4);
	assert_int_equal(e->attr.config, 0x3c);
	assert_int_equal(e->attr.sample_period, 7);
	bad("r", 0, "parser error");
	bad("rxyz", 0, "parser error");
	bad("1:", 0, "parser error");
	bad("r99999999999999999999", 0, "parser error");
}

static void test_breakpoints(void **state)
{
	struct evsel *e = ok("mem:0x1000", 1);

	assert_int_equal(e->attr.type, PERF_TYPE_BREAKPOINT);
	assert_int_equal(e->attr.bp_addr, 0x1000);
	assert_int_equal(e->attr.bp_type, HW_BREAKPOINT_R | HW_BREAKPOINT_W);
	assert_int_equal(e->attr.bp_len, HW_BREAKPOINT_LEN_4);
	assert_int_equal(e->attr.sample_period, 1);
	e = ok("mem:0x1000:x", 1);
	assert_int_equal(e->attr.bp_type, HW_BREAKPOINT_X);
	assert_int_equal(e->attr.bp_len, sizeof(long));
	assert_string_equal(e->name, "mem:0x1000:x");
	e = ok("mem:0x2000/2:w", 1);
	assert_int_equal(e->attr.bp_addr, 0x2000);
	assert_int_equal(e->attr.bp_type, HW_BREAKPOINT_W);
	assert_int_equal(e->attr.bp_len, 2);
	assert_string_equal(e->name, "mem:0x2000");	/* perf stops the name at '/' */
	e = ok("mem:4096:rw:u", 1);
	assert_int_equal(e->attr.bp_addr, 4096);
	assert_int_equal(e->attr.exclude_kernel, 1);
	e = ok("mem:0x1000:rwxu", 1);		/* rwx, then the u modifier */
	assert_int_equal(e->attr.bp_type, HW_BREAKPOINT_R | HW_BREAKPOINT_W | HW_BREAKPOINT_X);
	assert_int_equal(e->attr.exclude_kernel, 1);
	ok("mem:0x1000,mem:0x2000,mem:0x3000,mem:0x4000", 4);
	bad("mem:", 0, "parser error");
	bad("mem:0x1000/", 4, "parser error");
	/* leaving the breakpoint scanner counts a column twice, as in perf */
	bad("mem:0x1000:u,foo", 14, "parser error");
	bad("mem:0x1000:rr", 11, "'r' given twice in the breakpoint access type");
}

static void test_modifiers(void **state)
{
	struct evsel *e = ok("cpu-clock:u", 1);
	struct perf_event_attr *a = &e->attr;

	assert_string_equal(e->name, "cpu-clock:u");
	assert_true(!a->exclude_user && a->exclude_kernel && a->exclude_hv && a->exclude_guest);
	a = &ok("cpu-clock:k", 1)->attr;
	assert_true(a->exclude_user && !a->exclude_kernel && a->exclude_hv && !a->exclude_guest);
	a = &ok("cpu-clock:h", 1)->attr;
	assert_true(a->exclude_user && a->exclude_kernel && !a->exclude_hv);
	a = &ok("cpu-clock:uk", 1)->attr;
	assert_true(!a->exclude_user && !a->exclude_kernel && a->exclude_hv);
	a = &ok("cpu-clock:G", 1)->attr;
	assert_true(a->exclude_host && !a->exclude_guest);
	a = &ok("cpu-clock:H", 1)->attr;
	assert_true(!a->exclude_host && a->exclude_guest);
	a = &ok("cpu-clock:Gu", 1)->attr;	/* G given: u leaves the guest bit alone */
	assert_true(a->exclude_host && !a->exclude_guest && a->exclude_kernel);
	a = &ok("cpu-clock:p", 1)->attr;
	assert_int_equal(a->precise_ip, 1);
	assert_int_equal(a->exclude_guest, 1);
	assert_int_equal(ok("cpu-clock:upp", 1)->attr.precise_ip, 2);
	assert_int_equal(ok("cpu-clock:ppp", 1)->attr.precise_ip, 3);
	a = &ok("cpu-clock:S", 1)->attr;
	assert_int_equal(a->exclude_guest, 0);	/* any modifier starts from nothing */
	assert_true(evlist.first->sample_read);
	assert_int_equal(ok("cpu-clock:D", 1)->attr.pinned, 1);
	assert_int_equal(ok("cpu-clock:e", 1)->attr.exclusive, 1);
	assert_int_equal(ok("cpu-clock:I", 1)->attr.exclude_idle, 1);
	assert_true(ok("cpu-clock:W", 1)->weak_group);
	assert_true(ok("cpu-clock:P", 1)->precise_max);
	ok("cpu-clock:b", 1);
	e = ok("cpu-clock:ukhGHpppPSDIWeb", 1);
	assert_int_equal(e->attr.precise_ip, 3);
	assert_true(e->attr.pinned && e->attr.exclusive && e->sample_read);
	/* a trailing ':' and the '//' form are fine */
	ok("cpu-clock:", 1);
	ok("cpu-clock//u", 1);
	ok("cycles:k,cycles:u", 2);

	bad("cpu-clock:pppp", 10, "Bad modifier");
	bad("cpu-clock:uu", 10, "Bad modifier");
	bad("cpu-clock:ukhGHpppPSDIWebu", 10, "Bad modifier");
	bad("cycles:z", 6, "parser error");
	bad("cpu-clock:uz", 9, "parser error");
	bad("cpu-clock::u", 9, "parser error");
	bad("cycles:{k,u}", 6, "parser error");
}

static void test_groups(void **state)
{
	struct evsel *a, *b, *c;

	ok("{cpu-clock,task-clock},page-faults", 3);
	a = nth(0), b = nth(1), c = nth(2);
	assert_ptr_equal(a->leader, a);
	assert_ptr_equal(b->leader, a);
	assert_int_equal(a->nr_members, 2);
	assert_ptr_equal(c->leader, c);
	assert_int_equal(c->nr_members, 1);
	assert_int_equal(evlist.nr_groups, 1);
	assert_true(c->cmdline_group_boundary && !b->cmdline_group_boundary);

	/* group modifiers start from each member's own bits */
	ok("{cpu-clock,task-clock:k}:u", 2);
	a = nth(0), b = nth(1);
	assert_string_equal(a->name, "cpu-clock");
	assert_string_equal(b->name, "task-clock:k");
	assert_true(!a->attr.exclude_user && a->attr.exclude_kernel && a->attr.exclude_guest);
	assert_true(!b->attr.exclude_user && !b->attr.exclude_kernel && b->attr.exclude_hv);

	/* D and e pin only the leader */
	ok("{cpu-clock,task-clock}:D", 2);
	assert_int_equal(nth(0)->attr.pinned, 1);
	assert_int_equal(nth(1)->attr.pinned, 0);

	ok("mygroup{cpu-clock,task-clock},g2{cs}:k", 3);
	assert_string_equal(nth(0)->group_name, "mygroup");
	assert_string_equal(nth(2)->group_name, "g2");
	assert_int_equal(nth(2)->attr.exclude_user, 1);
	assert_int_equal(evlist.nr_groups, 2);

	bad("{cpu-clock,task-clock}:uu", 23, "Bad modifier");
	bad("{cpu-clock,task-clock}:", 21, "parser error");
	bad("{cpu-clock,{task-clock}}", 11, "parser error");
	bad("{}", 0, "parser error");
	bad("cpu-clock}", 0, "parser error");
	bad("{cpu-clock", 1, "parser error");
}

static void test_lists_and_syntax_errors(void **state)
{
	ok("cpu-clock,task-clock,cs", 3);
	assert_string_equal(nth(2)->name, "cs");
	/* text the scanner skips stays in the name, as in perf */
	assert_string_equal(ok("cycles u", 1)->name, "cycles u");

	bad("", 1, "parser error");
	bad(",", 1, "parser error");
	bad("foo", 0, "parser error");
	bad("sched*", 0, "parser error");
	bad("cpu-clock,,task-clock", 9, "parser error");
	bad("cpu-clock,", 0, "parser error");
	bad("foo/bar", 3, "parser error");
}

static void test_terms(void **state)
{
	struct evsel *e = ok("cpu-clock/period=1000/", 1);

	assert_string_equal(e->name, "cpu-clock/period=1000/");
	assert_int_equal(e->attr.sample_period, 1000);
	assert_true(e->period_set && !e->attr.freq);
	e = ok("cpu-clock/freq=99/", 1);
	assert_true(e->freq_set && e->attr.freq);
	assert_int_equal(e->attr.sample_freq, 99);
	e = ok("cpu-clock/name=foo/u", 1);
	assert_string_equal(e->name, "foo");
	assert_int_equal(e->attr.exclude_kernel, 1);
	e = ok("cpu-clock/max-stack=2,call-graph=dwarf,stack-size=4096/", 1);
	assert_int_equal(e->max_stack, 2);
	assert_string_equal(e->call_graph, "dwarf");
	assert_int_equal(e->stack_size, 4096);
	e = ok("cpu-clock/config=3,config1=4,config2=5/", 1);
	assert_int_equal(e->attr.config, 3);
	assert_int_equal(e->attr.config1, 4);
	assert_int_equal(e->attr.config2, 5);
	e = ok("cpu-clock/no-inherit,overwrite,nr=5,time=0/", 1);
	assert_int_equal(e->inherit, 0);
	assert_int_equal(e->overwrite, 1);
	assert_int_equal(e->max_events, 5);
	assert_int_equal(e->sample_time, 0);
	e = ok("cpu-clock/branch_type=any_call/", 1);
	assert_int_equal(e->attr.branch_sample_type, PERF_SAMPLE_BRANCH_ANY_CALL);
	assert_int_equal(ok("cpu-clock/branch_type=u/", 1)->attr.branch_sample_type,
			 PERF_SAMPLE_BRANCH_ANY);
	e = ok("cpu-clock", 1);
	assert_int_equal(e->max_stack, -1);
	assert_int_equal(e->inherit, -1);
	assert_null(e->call_graph);

	bad("cpu-clock/period=abc/", 17, "expected numeric value");
	bad("cpu-clock/name=123/", 15, "expected string value");
	bad("cpu-clock/foo=1/", 10, "unknown term");
	assert_string_equal(err.help, "valid terms: config,config1,config2,name,period,freq,"
			    "branch_type,time,call-graph,stack-size,no-inherit,inherit,max-stack,"
			    "nr,no-overwrite,overwrite,driver-config,percore,aux-output,"
			    "aux-sample-size,metric-id");
	bad("cpu-clock/time=2/", 15, "expected 0 or 1");
	bad("cpu-clock/branch_type=foo/", 22, "invalid branch sample type");
	bad("cpu-clock/period=1,/", 18, "parser error");
	bad("cpu-clock/=1/", 9, "parser error");

	/* pcl stat takes fewer terms, like perf stat */
	parse_events__stat_terms(true);
	bad("cpu-clock/max-stack=2/", -1, "'max-stack' is not usable in 'pcl stat'");
	bad("cpu-clock/foo=1/", 10, "unknown term");
	assert_string_equal(err.help, "valid terms: config,config1,config2,name,period,"
			    "percore,metric-id");
	ok("cpu-clock/period=5,name=x/", 1);
	parse_events__stat_terms(false);
}

static void test_tracepoints(void **state)
{
	long long id = tracepoint__id("sched", "sched_switch");
	char **names;
	int n, want = 0;
	struct evsel *e;

	if (id < 0)
		skip();
	e = ok("sched:sched_switch", 1);
	assert_int_equal(e->attr.type, PERF_TYPE_TRACEPOINT);
	assert_int_equal(e->attr.config, (uint64_t)id);
	assert_int_equal(e->attr.sample_period, 1);
	assert_true(e->attr.sample_type & PERF_SAMPLE_RAW);
	assert_string_equal(e->name, "sched:sched_switch");
	/* modifiers do not rename tracepoints */
	e = ok("sched:sched_switch:k", 1);
	assert_string_equal(e->name, "sched:sched_switch");
	assert_int_equal(e->attr.exclude_user, 1);
	e = ok("sched:sched_switch/call-graph=fp,stack-size=8/", 1);
	assert_string_equal(e->call_graph, "fp");

	/* a glob expands in directory order to every match */
	n = tracepoint__readdir("sched", &names);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		if (!strncmp(names[i], "sched_", 6) && strcmp(names[i], "enable") &&
		    strcmp(names[i], "filter"))
			want++;
	ok("sched:sched_*", want);
	assert_int_equal(strncmp(nth(0)->name, "sched:sched_", 12), 0);
	strlist__free(names, n);
	ok("s?hed:sched_switch", 1);
	ok("sched:sched_switc?,sched:sched_wakeup", 2);

	bad("sched:nosuch", 0, "unknown tracepoint");
	assert_non_null(strstr(err.help, "events/sched/nosuch not found."));
	bad("cpu-clock,nosys:*", 0, "unknown tracepoint");
	assert_non_null(strstr(err.help, "events/nosys/* not found."));
	bad("sched:sched_switch/period=1/", 19, "unknown term");
	assert_string_equal(err.help, "valid terms: call-graph,stack-size\n");
	bad("sched:", 0, "parser error");
	bad("sched:sched_sw*,foo", 16, "parser error");
}

static void test_filter(void **state)
{
	if (tracepoint__id("sched", "sched_switch") < 0)
		skip();
	evlist__exit(&evlist);
	assert_int_equal(parse_events_filter(&evlist, "prev_pid > 0"), FILTER_ERR_NO_EVENT);
	assert_int_equal(parse_events(&evlist, "cpu-clock", &err), 0);
	assert_int_equal(parse_events(&evlist, "sched:sched_switch,sched:sched_wakeup", &err), 0);
	assert_int_equal(parse_events_filter(&evlist, "prev_pid > 0"), 0);
	assert_int_equal(parse_events_filter(&evlist, "next_pid > 1"), 0);
	assert_null(nth(0)->filter);
	assert_string_equal(nth(1)->filter, "(prev_pid > 0) && (next_pid > 1)");
	assert_string_equal(nth(2)->filter, "(prev_pid > 0) && (next_pid > 1)");
	assert_int_equal(parse_events(&evlist, "cpu-clock", &err), 0);
	assert_int_equal(parse_events_filter(&evlist, "x"), FILTER_ERR_NOT_TRACEPOINT);
	assert_string_equal(parse_events_filter_strerror(FILTER_ERR_NOT_TRACEPOINT),
			    "This CPU does not support address filtering");
}

/* --- PMUs from a fake sysfs ---------------------------------------------- */

static char sysfs[] = "/tmp/pcl-sysfs-XXXXXX";

static int setup_pmus(void **state)
{
	strcpy(sysfs, "/tmp/pcl-sysfs-XXXXXX");
	fake_fs_create(sysfs);
	fake_fs_pmus(sysfs);
	pmus__set_sysfs_root(sysfs);
	return setup(state);
}

static int teardown_pmus(void **state)
{
	pmus__set_sysfs_root(NULL);
	fake_fs_remove(sysfs);
	return teardown(state);
}

static void test_pmu_terms(void **state)
{
	struct evsel *e = ok("cpu/event=0x3c,umask=0/", 1);

	assert_int_equal(e->attr.type, 4);
	assert_int_equal(e->attr.config, 0x3c);
	assert_string_equal(e->pmu_name, "cpu");
	assert_string_equal(e->name, "cpu/event=0x3c,umask=0/");
	e = ok("cpu/event=0x0e,umask=0x01,inv,cmask=1/u", 1);
	assert_int_equal(e->attr.config, 0x0eULL | 0x100 | (1ULL << 23) | (1ULL << 24));
	assert_int_equal(e->attr.exclude_kernel, 1);
	assert_int_equal(ok("cpu/split=0xff/", 1)->attr.config, 0xfULL | (0xfULL << 40));
	assert_int_equal(ok("cpu/ldlat=7,config=1/", 1)->attr.config1, 7);
	assert_int_equal(ok("cpu/r1a/", 1)->attr.config, 0x1a);
	/* sysfs events: by name inside the slashes, as event=, or alone */
	e = ok("cpu/mem-loads/", 1);
	assert_int_equal(e->attr.config, 0xcd | 0x100);
	assert_int_equal(e->attr.config1, 3);
	assert_int_equal(ok("msr/event=tsc/", 1)->attr.type, 9);
	e = ok("cpu/ev-param,ldlat=3/", 1);
	assert_int_equal(e->attr.config, 0x12);
	assert_int_equal(e->attr.config1, 3);
	e = ok("tsc", 1);
	assert_int_equal(e->attr.type, 9);
	assert_string_equal(e->name, "tsc");
	e = ok("energy-pkg", 1);		/* a dashed sysfs name, split by the scanner */
	assert_int_equal(e->attr.type, 23);
	e = ok("power/energy-pkg/", 1);
	assert_int_equal(e->attr.config, 2);
	assert_string_equal(e->unit, "Joules");
	assert_true(e->scale < 1e-9 && e->scale > 1e-10);
	ok("msr//", 1);
	/* uncore_imc means every uncore_imc_N */
	ok("uncore_imc/event=1/", 2);
	assert_int_equal(nth(0)->attr.type + nth(1)->attr.type, 30 + 31);
	ok("imc/event=1/", 2);

	bad("cpu/event=0x100/", 10, "value too big for format, maximum is 255");
	assert_int_equal(err.num_errors, 2);	/* retried on cpu itself, like perf */
	bad("cpu/nosuch=1/", 4, "unknown term 'nosuch' for pmu 'cpu'");
	assert_string_equal(err.first_str, "unknown term 'nosuch' for pmu 'cpu'");
	/* the PMU's formats (in directory order), then the built-in terms */
	assert_true(str_starts_with(err.help, "valid terms: "));
	assert_non_null(strstr(err.help, "ldlat"));
	assert_non_null(strstr(err.help, "split"));
	assert_non_null(strstr(err.help, ",config,config1,config2,name,period,"));
	bad("nopmu/event=1/", 0, "Cannot find PMU `nopmu'. Missing kernel support?");
	assert_int_equal(err.num_errors, 1);
	bad("cpu/event=abc/", 10, "expected numeric value");
	bad("cpu/ev-param/", 4, "Required parameter 'ldlat' not specified");
	bad("msr", 0, "parser error");
	bad("msr/tsc/:u", 7, "parser error");
}

/* --- printing --------------------------------------------------------- */

static char *print_to_string(const char *str)
{
	char path[] = "/tmp/pcl-err-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	char *out;

	evlist__exit(&evlist);
	parse_events_error__exit(&err);
	assert_int_not_equal(parse_events(&evlist, str, &err), 0);
	fflush(stderr);
	dup2(fd, 2);
	parse_events_error__print(&err, str);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	out = read_file_str(path);
	unlink(path);
	return out;
}

static void test_error_print(void **state)
{
	char *s;

	unsetenv("LINES");
	s = print_to_string("cycles:z");
	assert_string_equal(s, "event syntax error: 'cycles:z'\n"
			       "                           \\___ parser error\n"
			       "Run 'pcl list' for a list of valid events\n");
	free(s);
	/* errors far into the string cut its start so the caret stays close */
	s = print_to_string("cpu-clock/period=abc/");
	assert_string_equal(s, "event syntax error: '..ock/period=abc/'\n"
			       "                                  \\___ expected numeric value\n"
			       "Run 'pcl list' for a list of valid events\n");
	free(s);
	s = print_to_string("cpu-clock/foo=1/");
	assert_non_null(strstr(s, "\\___ unknown term\n\nvalid terms: config,"));
	free(s);
}

static void test_error_print_pmu(void **state)
{
	char *s = print_to_string("cpu/nosuch=1/");

	assert_non_null(strstr(s, "\n\nInitial error:\nevent syntax error: 'cpu/nosuch=1/'\n"));
	free(s);
}

/* Globs matching no tracepoint: "found nothing", and a group of nothing is
 * left out with a warning (the fuzzer's: its leader was read past the end). */
static void test_globs_matching_nothing(void **state)
{
	if (tracepoint__id("sched", "sched_switch") < 0)
		skip();
	assert_int_equal(parse_events(&evlist, "nosuch*:foo", &err), -1);
	assert_true(err.found_nothing);
	assert_false(err.empty_group);
	assert_int_equal(err.num_errors, 0);
	parse_events_error__exit(&err);
	assert_int_equal(parse_events(&evlist, "{nosuch*:foo}", &err), -1);
	assert_true(err.found_nothing && err.empty_group);
	assert_int_equal(evlist.nr_entries, 0);
	ok("{nosuch*:foo},cpu-clock", 1);
	assert_true(err.empty_group);
	assert_ptr_equal(evlist.first->leader, evlist.first);
	assert_int_equal(evlist.nr_groups, 0);
	ok("cpu-clock,g{nosys*:x}:u,task-clock", 2);
	assert_true(err.empty_group);
	bad("{nosuch*:foo}:", 12, "parser error");	/* where perf points too */
	assert_true(err.empty_group);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hardware_symbols, setup, teardown),
		cmocka_unit_test_setup_teardown(test_software_and_tool_symbols, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_raw_and_numeric, setup, teardown),
		cmocka_unit_test_setup_teardown(test_breakpoints, setup, teardown),
		cmocka_unit_test_setup_teardown(test_modifiers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lists_and_syntax_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_terms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tracepoints, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_error_print, setup, teardown),
		cmocka_unit_test_setup_teardown(test_globs_matching_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pmu_terms, setup_pmus, teardown_pmus),
		cmocka_unit_test_setup_teardown(test_error_print_pmu, setup_pmus, teardown_pmus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
