/* Unit tests for core/record: attrs configured as perf record configures
 * them, --call-graph parsing, fallbacks, and a live session that samples
 * this very process into a file. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/events/evlist.h"
#include "core/events/parse-events.h"
#include "core/live/record.h"

static struct evlist el;
static struct record_opts opts;

static int setup(void **state)
{
	evlist__init(&el);
	record_opts__init(&opts);
	return 0;
}

static int teardown(void **state)
{
	evlist__exit(&el);
	return 0;
}

static void parse(const char *str)
{
	struct parse_events_error err = { .idx = -1 };

	assert_int_equal(parse_events(&el, str, &err), 0);
	parse_events_error__exit(&err);
}

static void defaults_for_a_workload(void **state)
{
	struct perf_event_attr *a;

	parse("cpu-clock");
	record__config(&el, &opts);
	assert_int_equal(el.nr_entries, 1);
	a = &el.first->attr;
	assert_int_equal(a->sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					  PERF_SAMPLE_PERIOD);
	assert_int_equal(a->read_format, PERF_FORMAT_ID | PERF_FORMAT_LOST);
	assert_true(a->freq);
	assert_int_equal(a->sample_freq, 4000);
	assert_true(a->disabled && a->inherit && a->enable_on_exec && a->sample_id_all);
	/* The only event tracks the side-band records. */
	assert_true(a->mmap && a->mmap2 && a->comm && a->comm_exec && a->task);
	assert_true(a->ksymbol && a->bpf_event);
	assert_false(a->mmap_data);
}

static void period_instead_of_frequency(void **state)
{
	parse("cpu-clock");
	opts.freq = 0;
	opts.interval = 10000;
	opts.user_interval = true;
	record__config(&el, &opts);
	assert_false(el.first->attr.freq);
	assert_int_equal(el.first->attr.sample_period, 10000);
	assert_false(el.first->attr.sample_type & PERF_SAMPLE_PERIOD);
}

static void tracepoints_keep_their_period(void **state)
{
	parse("sched:sched_switch");
	record__config(&el, &opts);
	assert_false(el.first->attr.freq);
	assert_int_equal(el.first->attr.sample_period, 1);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_RAW);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_CPU);
}

static void system_wide_adds_a_dummy(void **state)
{
	struct evsel *dummy;

	parse("cpu-clock");
	opts.target.system_wide = true;
	record__config(&el, &opts);
	assert_int_equal(el.nr_entries, 2);
	dummy = el.last;
	assert_string_equal(dummy->name, "dummy:HG");
	assert_int_equal(dummy->attr.config, PERF_COUNT_SW_DUMMY);
	/* The dummy tracks from the start; the sampler waits to be enabled. */
	assert_true(dummy->attr.mmap && dummy->attr.comm && !dummy->attr.disabled);
	assert_false(el.first->attr.mmap || el.first->attr.enable_on_exec);
	assert_true(el.first->attr.disabled);
	/* Different sample types: samples carry IDENTIFIER. */
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_IDENTIFIER);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_CPU);
	assert_false(dummy->attr.sample_type & PERF_SAMPLE_PERIOD);
	assert_true(dummy->attr.sample_type & PERF_SAMPLE_IDENTIFIER);
}

/* perf evlist -v of perf 6.1's `record -a -g` / `-a --call-graph dwarf` / `-a -R`: the
 * tracking dummy samples what the sampling event samples. */
static void system_wide_dummy_gets_the_call_graph(void **state)
{
	const uint64_t dwarf_bits = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				    PERF_SAMPLE_STACK_USER | PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	const char *msg;
	char buf[128];
	struct perf_event_attr *dummy;

	parse("cpu-clock");
	opts.target.system_wide = true;
	opts.call_graph = CALLGRAPH_FP;
	record__config(&el, &opts);
	dummy = &el.last->attr;
	assert_int_equal(dummy->sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					     PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_CPU |
					     PERF_SAMPLE_IDENTIFIER);

	evlist__exit(&el);
	evlist__init(&el);
	record_opts__init(&opts);
	opts.target.system_wide = true;
	opts.raw_samples = true;
	assert_int_equal(record_opts__parse_callgraph(&opts, "dwarf", buf, sizeof(buf), &msg), 0);
	parse("cpu-clock");
	record__config(&el, &opts);
	dummy = &el.last->attr;
	assert_int_equal(dummy->sample_type & dwarf_bits, dwarf_bits);
	assert_true(dummy->sample_type & PERF_SAMPLE_RAW);
	assert_int_equal(dummy->sample_regs_user, 0xff0fff);
	assert_int_equal(dummy->sample_stack_user, 8192);
	assert_true(dummy->exclude_callchain_user && dummy->mmap_data);
}

/* -T -s --sample-cpu -W --phys-data --data-page-size --namespaces --switch-events
 * --sample-identifier, as perf 6.1 sets them for one event and a workload. */
static void sample_field_options(void **state)
{
	struct perf_event_attr *a;

	parse("cpu-clock");
	opts.sample_time = opts.sample_cpu = opts.sample_weight = true;
	opts.sample_phys_addr = opts.sample_data_page_size = opts.sample_identifier = true;
	opts.inherit_stat = opts.record_namespaces = opts.record_switch_events = true;
	record__config(&el, &opts);
	a = &el.first->attr;
	assert_int_equal(a->sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
					  PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_PHYS_ADDR |
					  PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_WEIGHT_STRUCT);
	assert_int_equal(a->read_format, PERF_FORMAT_TOTAL_TIME_ENABLED |
					  PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
					  PERF_FORMAT_LOST);
	assert_true(a->inherit_stat && a->namespaces && a->context_switch);
}

/* -P keeps the period in the samples even with -c. */
static void period_option_with_count(void **state)
{
	parse("cpu-clock");
	opts.freq = 0;
	opts.interval = 1000;
	opts.user_interval = true;
	opts.sample_period = true;
	record__config(&el, &opts);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_PERIOD);
}

/* --user-regs/--intr-regs and -j as perf 6.1 takes them (its evlist -v masks). */
static void register_and_branch_lists(void **state)
{
	char buf[256];
	const char *msg;
	uint64_t mask = 0;

	assert_int_equal(record_opts__parse_regs("ax,R15", "--user-regs=?", &mask, buf,
						 sizeof(buf), &msg), 0);
	assert_int_equal(mask, 0x800001);
	assert_int_equal(record_opts__parse_regs(NULL, "-I?", &mask, buf, sizeof(buf), &msg), 0);
	assert_int_equal(mask, 0xff0fff);
	assert_int_equal(record_opts__parse_regs("ds", "-I?", &mask, buf, sizeof(buf), &msg), -1);
	assert_string_equal(msg, "Unknown register \"ds\", check man page or run "
				 "\"perf record -I?\"");
	assert_int_equal(record_opts__parse_regs("?", "-I?", &mask, buf, sizeof(buf), &msg), -1);
	assert_string_equal(msg, "available registers: AX BX CX DX SI DI BP SP IP FLAGS CS SS "
				 "R8 R9 R10 R11 R12 R13 R14 R15 ");

	assert_int_equal(record_opts__parse_branch_filter(&opts, "u", buf, sizeof(buf), &msg), 0);
	assert_int_equal(opts.branch_sample_type, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY);
	assert_int_equal(record_opts__parse_branch_filter(&opts, "any_call,k", buf, sizeof(buf),
							  &msg), 0);
	assert_int_equal(opts.branch_sample_type,
			 PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_KERNEL);
	assert_int_equal(record_opts__parse_branch_filter(&opts, "bogus", buf, sizeof(buf), &msg),
			 -1);
	assert_string_equal(msg, "unknown branch filter bogus, check man page");

	opts.regs_intr = 0x3;
	parse("cpu-clock");
	record__config(&el, &opts);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_REGS_INTR);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_BRANCH_STACK);
	assert_int_equal(el.first->attr.sample_regs_intr, 0x3);

	/* perf 6.1's record -a --intr-regs: not on the tracking dummy. */
	evlist__exit(&el);
	evlist__init(&el);
	opts.target.system_wide = true;
	parse("cpu-clock");
	record__config(&el, &opts);
	assert_false(el.last->attr.sample_type &
		     (PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_BRANCH_STACK));
	assert_int_equal(el.last->attr.sample_regs_intr, 0);
}

static void delay_enables_the_dummy_at_exec(void **state)
{
	parse("cpu-clock");
	opts.target.initial_delay = 10;
	record__config(&el, &opts);
	assert_int_equal(el.nr_entries, 2);
	assert_true(el.last->attr.enable_on_exec && el.last->attr.disabled);
	assert_false(el.first->attr.enable_on_exec);
}

static void groups_and_same_types(void **state)
{
	parse("{cpu-clock,task-clock},page-faults");
	record__config(&el, &opts);
	/* Same sample_type everywhere: ID, not IDENTIFIER. */
	evlist__for_each(&el, e) {
		assert_true(e->attr.sample_type & PERF_SAMPLE_ID);
		assert_false(e->attr.sample_type & PERF_SAMPLE_IDENTIFIER);
	}
	/* A group member neither starts disabled nor tracks. */
	assert_false(el.first->next->attr.disabled);
	assert_false(el.first->next->attr.enable_on_exec);
	assert_false(el.first->next->attr.mmap);
	assert_true(el.last->attr.disabled);
}

static void callgraph_modes(void **state)
{
	char buf[128];
	const char *msg;

	assert_int_equal(record_opts__parse_callgraph(&opts, "fp", buf, sizeof(buf), &msg), 0);
	assert_int_equal(opts.call_graph, CALLGRAPH_FP);
	assert_int_equal(record_opts__parse_callgraph(&opts, "dwarf", buf, sizeof(buf), &msg), 0);
	assert_int_equal(opts.stack_size, 8192);
	assert_true(opts.sample_address);
	assert_int_equal(record_opts__parse_callgraph(&opts, "dwarf,4001", buf, sizeof(buf), &msg), 0);
	assert_int_equal(opts.stack_size, 4008);	/* rounded up to 8 */
	assert_int_equal(record_opts__parse_callgraph(&opts, "dwarf,70000", buf, sizeof(buf), &msg), -1);
	assert_string_equal(msg, "callchain: Incorrect stack dump size (max 65528): 70000");
	assert_int_equal(record_opts__parse_callgraph(&opts, "bogus", buf, sizeof(buf), &msg), -1);
	assert_string_equal(msg, "callchain: Unknown --call-graph option value: bogus");
	/* perf takes "fp,N" as the deepest stack to record (sample_max_stack) */
	assert_int_equal(record_opts__parse_callgraph(&opts, "fp,12", buf, sizeof(buf), &msg), 0);
	assert_int_equal(opts.callchain_max_stack, 12);
	assert_int_equal(record_opts__parse_callgraph(&opts, "lbr,12", buf, sizeof(buf), &msg), -1);
	assert_string_equal(msg, "callchain: No more arguments needed for --call-graph lbr");
	opts.callchain_max_stack = 0;

	assert_int_equal(record_opts__parse_callgraph(&opts, "dwarf,1024", buf, sizeof(buf), &msg), 0);
	parse("cpu-clock");
	record__config(&el, &opts);
	assert_int_equal(el.first->attr.sample_stack_user, 1024);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_REGS_USER);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_STACK_USER);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	assert_true(el.first->attr.exclude_callchain_user);
	assert_true(el.first->attr.mmap_data);
	assert_int_equal(el.first->attr.sample_regs_user, 0xff0fff);
}

static void cycles_falls_back_to_cpu_clock(void **state)
{
	parse("cycles:P");
	char msg[256] = "";

	assert_false(record__fallback(el.first, EACCES + 1000, msg, sizeof(msg)));
	assert_true(record__fallback(el.first, ENOENT, msg, sizeof(msg)));
	assert_string_equal(msg, "The cycles:P event is not supported, trying to fall back to cpu-clock-ticks");
	assert_int_equal(el.first->attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(el.first->attr.config, PERF_COUNT_SW_CPU_CLOCK);
	/* Not a cycles event any more: no second fallback. */
	assert_false(record__fallback(el.first, ENOENT, msg, sizeof(msg)));
}

static void live_session_samples_itself(void **state)
{
	struct record_session rs;
	struct cpu_map *cpus = cpu_map__new_online();
	struct thread_map *threads = thread_map__new_pid(getpid());
	struct evsel *failed;
	bool filter_failed;
	char path[] = "/tmp/pcl-record-XXXXXX";
	struct record_finish fin = { .version = "test" };
	const char *argv[] = { "record" };
	volatile unsigned long spin = 0;
	int fd = mkstemp(path);
	long n = 0;

	assert_true(fd >= 0);
	close(fd);
	parse("task-clock");
	opts.freq = 1000;
	opts.target.pid = "self";	/* a task target: events enabled by hand */
	record__config(&el, &opts);
	if (record_session__open(&rs, &el, cpus, threads, &opts, &failed, &filter_failed)) {
		record_session__close(&rs);
		cpu_map__delete(cpus);
		thread_map__delete(threads);
		unlink(path);
		skip();
	}
	/* a forward and an overwrite slot per CPU, the latter unused here */
	assert_int_equal(rs.drain.nr_rbs, 2 * (size_t)cpus->nr);
	assert_int_equal(record_session__create_file(&rs, path, 0, true, -1, NULL), 0);
	evlist__enable(&el);
	for (int i = 0; i < 50 && rs.samples < 20; i++) {
		for (unsigned long j = 0; j < 2000000; j++)
			spin += j;
		n = record_session__drain(&rs);
		assert_true(n >= 0);
	}
	evlist__disable(&el);
	record_session__drain(&rs);
	assert_true(rs.samples > 0);
	assert_true(rs.last_time >= rs.first_time);
	fin.argc = 1;
	fin.argv = argv;
	assert_int_equal(record_session__finish_file(&rs, &fin), 0);
	assert_true(fin.data_end > fin.written_bytes);
	record_session__close(&rs);
	cpu_map__delete(cpus);
	thread_map__delete(threads);
	unlink(path);
}

/* The values below are perf 6.1's, from perf evlist -v of its recordings. */
static void privilege_options_override_modifiers(void **state)
{
	parse("cpu-clock:k");
	opts.all_user = true;
	opts.target.system_wide = true;
	record__config(&el, &opts);
	assert_true(el.first->attr.exclude_kernel && !el.first->attr.exclude_user);
	/* the -a dummy too, named by its new modifiers */
	assert_true(el.last->attr.exclude_kernel);
	assert_string_equal(el.last->name, "dummy:uh");
}

static void no_samples_keeps_freq_without_a_rate(void **state)
{
	parse("cpu-clock");
	opts.no_samples = true;
	record__config(&el, &opts);
	assert_true(el.first->attr.freq);
	assert_int_equal(el.first->attr.sample_freq, 0);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_PERIOD);
}

static void callchain_halves_and_tracking_bits(void **state)
{
	parse("cpu-clock");
	opts.call_graph = CALLGRAPH_FP;
	opts.user_callchains = true;
	opts.no_bpf_event = true;
	opts.buildid_mmap = true;
	opts.no_buffering = true;
	opts.sample_code_page_size = true;
	record__config(&el, &opts);
	assert_true(el.first->attr.exclude_callchain_kernel);
	assert_false(el.first->attr.exclude_callchain_user);
	assert_false(el.first->attr.bpf_event);
	assert_true(el.first->attr.build_id);
	assert_int_equal(el.first->attr.wakeup_events, 1);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_CODE_PAGE_SIZE);
}

static void per_thread_samples_have_no_time(void **state)
{
	parse("cpu-clock");
	opts.target.per_thread = true;
	opts.no_inherit = true;
	record__config(&el, &opts);
	assert_false(el.first->attr.sample_type & PERF_SAMPLE_TIME);
	assert_false(el.first->attr.inherit);
	opts.sample_time = true;	/* -T */
	record__config(&el, &opts);
	assert_true(el.first->attr.sample_type & PERF_SAMPLE_TIME);
}

static void group_takes_every_event_and_the_dummy(void **state)
{
	parse("cpu-clock");
	parse("task-clock");
	opts.group = true;
	opts.target.system_wide = true;
	record__config(&el, &opts);
	assert_int_equal(el.nr_entries, 3);
	assert_int_equal(el.first->nr_members, 3);
	evlist__for_each(&el, e)
		assert_ptr_equal(e->leader, el.first);
	/* only the leader waits to be enabled; the dummy runs at once */
	assert_true(el.first->attr.disabled);
	assert_false(el.first->next->attr.disabled || el.last->attr.disabled);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(defaults_for_a_workload, setup, teardown),
		cmocka_unit_test_setup_teardown(period_instead_of_frequency, setup, teardown),
		cmocka_unit_test_setup_teardown(tracepoints_keep_their_period, setup, teardown),
		cmocka_unit_test_setup_teardown(system_wide_adds_a_dummy, setup, teardown),
		cmocka_unit_test_setup_teardown(system_wide_dummy_gets_the_call_graph, setup,
						teardown),
		cmocka_unit_test_setup_teardown(sample_field_options, setup, teardown),
		cmocka_unit_test_setup_teardown(period_option_with_count, setup, teardown),
		cmocka_unit_test_setup_teardown(register_and_branch_lists, setup, teardown),
		cmocka_unit_test_setup_teardown(delay_enables_the_dummy_at_exec, setup, teardown),
		cmocka_unit_test_setup_teardown(groups_and_same_types, setup, teardown),
		cmocka_unit_test_setup_teardown(callgraph_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(cycles_falls_back_to_cpu_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(live_session_samples_itself, setup, teardown),
		cmocka_unit_test_setup_teardown(privilege_options_override_modifiers, setup, teardown),
		cmocka_unit_test_setup_teardown(no_samples_keeps_freq_without_a_rate, setup, teardown),
		cmocka_unit_test_setup_teardown(callchain_halves_and_tracking_bits, setup, teardown),
		cmocka_unit_test_setup_teardown(per_thread_samples_have_no_time, setup, teardown),
		cmocka_unit_test_setup_teardown(group_takes_every_event_and_the_dummy, setup, teardown),
	};
	return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
