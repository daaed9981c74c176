/* Unit tests for ui/stat-display: number formatting, rows in text/CSV/JSON
 * with their "#" metrics, <not supported>/<not counted>, multiplexing and
 * -r noise columns, header, interval rows and footers, byte for byte as
 * perf 6.1 prints them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/events/evlist.h"
#include "ui/stat-display.h"

static void value_formats(void **state)
{
	char buf[64];

	stat_display__format_value(buf, sizeof(buf), 1234.5678, 1e-6, false, true);
	assert_string_equal(buf, "           1234.57");
	stat_display__format_value(buf, sizeof(buf), 1234567, 1, false, false);
	assert_string_equal(buf, "           1234567");
	/* the C locale has no thousands separator, as perf shows here */
	stat_display__format_value(buf, sizeof(buf), 1234567, 1, false, true);
	assert_string_equal(buf, "           1234567");
	stat_display__format_value(buf, sizeof(buf), 0.5, 1e-6, true, false);
	assert_string_equal(buf, "0.50");
	stat_display__format_value(buf, sizeof(buf), 42, 1, true, false);
	assert_string_equal(buf, "42");
}

static void csv_metric_values(void **state)
{
	char buf[32];

	stat_display__csv_metric_value(buf, sizeof(buf), "%7.2f%%", 12.5);
	assert_string_equal(buf, "12.50");
	stat_display__csv_metric_value(buf, sizeof(buf), "%8.3f", 0.25);
	assert_string_equal(buf, "0.250");
	stat_display__csv_metric_value(buf, sizeof(buf), "%8.3f %%", 3.0);
	assert_string_equal(buf, "3.000");
	/* perf keeps digits and dots only: a negative value comes out empty */
	stat_display__csv_metric_value(buf, sizeof(buf), "%7.2f ", -1.5);
	assert_string_equal(buf, "");
}

static void precision(void **state)
{
	assert_int_equal(stat_display__precision(2.0), 0);
	assert_int_equal(stat_display__precision(0.0549), 2);
	assert_int_equal(stat_display__precision(0.000151), 4);
	assert_int_equal(stat_display__precision(0.0), 0);
}

/* --- whole outputs --- */

#define MAX_EV 4

static struct evsel evsels[MAX_EV];
static struct stat_counter counters[MAX_EV];
static struct aggr_value values[MAX_EV][2];
static struct shadow_stats shadow;
static struct aggr_map *map;
static struct stat_display d;
static char *buf;
static size_t len;

static void add(int i, uint32_t type, uint64_t config, const char *name, double val,
		uint64_t ena, uint64_t run, bool supported)
{
	memset(&evsels[i], 0, sizeof(evsels[i]));
	evsels[i].attr.type = type;
	evsels[i].attr.config = config;
	evsels[i].name = (char *)name;
	evsels[i].leader = &evsels[i];
	evsels[i].nr_members = 1;
	evsels[i].supported = supported;
	counters[i].evsel = &evsels[i];
	counters[i].unit = evsel__unit(&evsels[i]);
	counters[i].scale = evsel__scale(&evsels[i]);
	counters[i].values = values[i];
	values[i][0] = (struct aggr_value){ val, ena, run, 1, supported && run && ena };
	if (supported && run)
		shadow_stats__update(&shadow, &evsels[i], 0, (uint64_t)val);
	d.nr_counters = i + 1;
}

static int setup(void **state)
{
	struct cpu_map *any = cpu_map__new_any();

	map = aggr_map__new(AGGR_GLOBAL, any, NULL, NULL);
	cpu_map__delete(any);
	shadow_stats__init(&shadow, 2);
	return 0;
}

static int teardown(void **state)
{
	shadow_stats__exit(&shadow);
	aggr_map__delete(map);
	return 0;
}

static int reset(void **state)
{
	shadow_stats__reset(&shadow);
	stats__init(&shadow.walltime);
	stats__update(&shadow.walltime, 2000000);	/* 2 ms */
	memset(&d, 0, sizeof(d));
	d.out = open_memstream(&buf, &len);
	d.sep = " ";
	d.unit_width = 4;
	d.run_count = 1;
	d.target_desc = "'true'";
	d.tool_name = "pcl";
	d.counters = counters;
	d.map = map;
	d.shadow = &shadow;
	return 0;
}

static const char *finish(void)
{
	fclose(d.out);
	return buf;
}

static int release(void **state)
{
	free(buf);
	buf = NULL;
	return 0;
}

static void default_text(void **state)
{
	add(0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 1000000, 1000000, 1000000, true);
	add(1, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", 50, 1000000, 1000000, true);
	add(2, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", 0, 0, 0, false);
	d.ru_display = true;
	d.ru_utime.tv_usec = 1500;
	stat_display__print(&d, NULL);
	assert_string_equal(finish(),
		"\n Performance counter stats for 'true':\n\n"
		"              1.00 msec task-clock                       #    0.500 CPUs utilized          \n"
		"                50      page-faults                      #   50.000 K/sec                  \n"
		"   <not supported>      cycles                                                      \n"
		"\n"
		"       0.002000000 seconds time elapsed\n\n"
		"       0.001500000 seconds user\n"
		"       0.000000000 seconds sys\n\n\n");
}

static void csv_rows(void **state)
{
	add(0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 1000000, 1000000, 1000000, true);
	add(1, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches", 0, 1000000, 1000000, true);
	add(2, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", 0, 0, 0, false);
	add(3, PERF_TYPE_TRACEPOINT, 1, "sched:sched_switch", 7, 1000000, 500000, true);
	d.csv = true;
	d.sep = ",";
	stat_display__print(&d, NULL);
	/* running percentage in integers as perf computes it */
	assert_string_equal(finish(),
		"1.00,msec,task-clock,1000000,100.00,0.500,CPUs utilized\n"
		"0,,context-switches,1000000,100.00,0.000,/sec\n"
		"<not supported>,,cycles,0,100.00,,\n"
		"7,,sched:sched_switch,500000,50.00,7.000,K/sec\n");
}

static void json_rows(void **state)
{
	add(0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 1000000, 1000000, 1000000, true);
	add(1, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", 0, 0, 0, false);
	add(2, PERF_TYPE_TRACEPOINT, 1, "x:y", 3, 10, 10, true);
	shadow_stats__reset(&shadow);	/* no clock: the tracepoint has no metric */
	d.json = true;
	stat_display__print(&d, NULL);
	assert_string_equal(finish(),
		"{\"counter-value\" : \"1.000000\", \"unit\" : \"msec\", \"event\" : \"task-clock\", "
		"\"event-runtime\" : 1000000, \"pcnt-running\" : 100.00, \"metric-value\" : 0.500000, "
		"\"metric-unit\" : \"CPUs utilized\"}\n"
		"{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"cycles\", "
		"\"event-runtime\" : 0, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, "
		"\"metric-unit\" : \"\"}\n"
		"{\"counter-value\" : \"3.000000\", \"unit\" : \"\", \"event\" : \"x:y\", "
		"\"event-runtime\" : 10, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, "
		"\"metric-unit\" : \"(null)\"}\n");
}

static void two_metrics(void **state)
{
	struct evsel fe;
	char want[512];

	add(0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", 400, 10, 10, true);
	add(1, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions", 1000, 10, 5, true);
	memset(&fe, 0, sizeof(fe));
	fe.attr.type = PERF_TYPE_HARDWARE;
	fe.attr.config = PERF_COUNT_HW_STALLED_CYCLES_FRONTEND;
	shadow_stats__update(&shadow, &fe, 0, 250);
	stat_display__print(&d, NULL);
	finish();
	/* value 18, unit 4, name 32, metric column 35: " # " + "%7.2f " + label */
	snprintf(want, sizeof(want),
		 "%18s %-4s %-32s%35s\n"
		 "%18s %-4s %-32s #    2.50  %-23s\n"
		 "%49s #    0.25  %-23s  (50.00%%)\n",
		 "400", "", "cycles", "",
		 "1000", "", "instructions", "insn per cycle",
		 "", "stalled cycles per insn");
	/* the second metric goes on its own line; multiplexing shows last */
	assert_non_null(strstr(buf, want));
}

static void two_metrics_csv(void **state)
{
	struct evsel fe;

	add(0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", 400, 10, 10, true);
	add(1, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions", 1000, 10, 10, true);
	memset(&fe, 0, sizeof(fe));
	fe.attr.type = PERF_TYPE_HARDWARE;
	fe.attr.config = PERF_COUNT_HW_STALLED_CYCLES_BACKEND;
	shadow_stats__update(&shadow, &fe, 0, 500);
	d.csv = true;
	d.sep = ";";
	stat_display__print(&d, NULL);
	assert_string_equal(finish(),
		"400;;cycles;10;100.00;;\n"
		"1000;;instructions;10;100.00;2.50;insn per cycle\n"
		/* perf pads a continuation with 3 fields only */
		";;;;0.50;stalled cycles per insn\n");
}

static void repeat_noise(void **state)
{
	add(0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 1000000, 1000000, 1000000, true);
	add(1, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", 50, 1000000, 1000000, true);
	counters[0].noise_stddev = 41500;	/* 4.15% of the value */
	counters[1].noise_stddev = 0;
	d.run_count = 5;
	stats__update(&shadow.walltime, 2100000);
	stat_display__print(&d, NULL);
	assert_string_equal(finish(),
		"\n Performance counter stats for 'true' (5 runs):\n\n"
		"              1.00 msec task-clock                       #    0.488 CPUs utilized            ( +-  4.15% )\n"
		"                50      page-faults                      #   50.000 K/sec                  \n"
		"\n"
		"         0.0020500 +- 0.0000500 seconds time elapsed  ( +-  2.44% )\n\n");
}

static void repeat_noise_csv(void **state)
{
	add(0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 1000000, 1000000, 1000000, true);
	counters[0].noise_stddev = 45700;
	d.run_count = 3;
	d.csv = true;
	d.sep = ",";
	stat_display__print(&d, NULL);
	assert_string_equal(finish(), "1.00,msec,task-clock,4.57%,1000000,100.00,0.500,CPUs utilized\n");
}

static void not_counted_interval(void **state)
{
	struct timespec ts = { 1, 5000 };

	add(0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 0, 0, 0, true);
	d.interval = 100;
	stat_display__print(&d, &ts);
	assert_string_equal(finish(),
		"#           time             counts unit events\n"
		"     1.000005000      <not counted> msec task-clock                                                  \n");
}

static void headers(void **state)
{
	add(0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", 1, 1, 1, true);
	d.target_desc = "process id '42'";
	d.null_run = true;
	d.nr_counters = 0;
	stat_display__print(&d, NULL);
	assert_string_equal(finish(),
		"\n Performance counter stats for process id '42':\n\n"
		"       0.002000000 seconds time elapsed\n\n");
}

static void per_core_rows(void **state)
{
	int cpus[] = { 0, 1 };
	struct cpu_map *m = cpu_map__new_from(cpus, 2);
	struct aggr_map *core = aggr_map__new(AGGR_CORE, m, NULL, NULL);

	add(0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", 1000000, 1000000, 1000000, true);
	values[0][0].nr = 1;
	values[0][1] = values[0][0];
	d.map = core;
	d.aggr_mode = AGGR_CORE;
	core->ids[0] = (struct aggr_id){ 0, 0, 0, -1, -1, -1 };
	if (core->nr > 1)
		core->ids[1] = (struct aggr_id){ 0, 0, 1, -1, -1, -1 };
	stat_display__print(&d, NULL);
	assert_non_null(strstr(finish(),
		"S0-D0-C0           1               1.00 msec cpu-clock                        #    0.500 CPUs utilized          \n"));
	aggr_map__delete(core);
	cpu_map__delete(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(value_formats),
		cmocka_unit_test(csv_metric_values),
		cmocka_unit_test(precision),
		cmocka_unit_test_setup_teardown(default_text, reset, release),
		cmocka_unit_test_setup_teardown(csv_rows, reset, release),
		cmocka_unit_test_setup_teardown(json_rows, reset, release),
		cmocka_unit_test_setup_teardown(two_metrics, reset, release),
		cmocka_unit_test_setup_teardown(two_metrics_csv, reset, release),
		cmocka_unit_test_setup_teardown(repeat_noise, reset, release),
		cmocka_unit_test_setup_teardown(repeat_noise_csv, reset, release),
		cmocka_unit_test_setup_teardown(not_counted_interval, reset, release),
		cmocka_unit_test_setup_teardown(headers, reset, release),
		cmocka_unit_test_setup_teardown(per_core_rows, reset, release),
	};
	return cmocka_run_group_tests_name("stat-format", tests, setup, teardown);
}
