/* Unit tests for core/analysis/sched-latency: perf sched latency's atoms
 * (delays from wake-up or preemption to switch-in), sched_waking left
 * out as in perf 6.1, merging by comm under the highest tid, the sort
 * keys and the context switch bugs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/sched-latency.h"
#include "core/symbols/machine.h"
#include "core/symbols/thread.h"
#include "sched-fake.h"

#define TASK_S 1

static struct machine *m;
static struct sched_latency *lat;

static int setup(void **state)
{
	m = machine__new();
	lat = sched_latency__new(-1);
	machine__process_comm(m, 10, 10, "a", false);
	machine__process_comm(m, 20, 20, "w", false);
	machine__process_comm(m, 21, 21, "w", false);
	return 0;
}

static int teardown(void **state)
{
	sched_latency__delete(lat);
	machine__delete(m);
	return 0;
}

static void feed(const struct sched_event ev, uint64_t time, int cpu)
{
	struct perf_sample s = fake_sample(time, cpu, 0, 0);

	assert_int_equal(sched_latency__event(lat, m, &ev, &s), 0);
}

static const struct sched_lat_task *row_of(struct sched_lat_task **rows, int nr, const char *comm)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(rows[i]->thread->comm, comm))
			return rows[i];
	fail_msg("no row for %s", comm);
	return NULL;
}

static void delay_from_wakeup_to_switch_in(void **state)
{
	struct sched_lat_task **rows;
	const struct sched_lat_task *a;
	int nr;

	feed(fake_switch(0, 0, 10), 1000, 0);	/* first sight: runnable, no delay */
	feed(fake_runtime(10, 500), 1500, 0);
	feed(fake_switch(10, TASK_S, 0), 2000, 0);
	feed(fake_wakeup("sched:sched_wakeup", 10), 3000, 1);
	feed(fake_switch(0, 0, 10), 5000, 0);
	rows = sched_latency__rows(lat, "avg, max, switch, runtime", false, &nr);
	a = row_of(rows, nr, "a");
	assert_int_equal(a->nr_switches, 2);
	assert_int_equal(a->total_lat, 2000);
	assert_int_equal(a->max_lat, 2000);
	assert_int_equal(a->max_lat_start, 3000);
	assert_int_equal(a->max_lat_end, 5000);
	assert_int_equal(a->total_runtime, 500);
	assert_int_equal(sched_latency__counts(lat)->nr_timestamps, 1);
}

static void waking_is_not_a_wakeup(void **state)
{
	struct sched_lat_task **rows;
	int nr;

	feed(fake_switch(0, 0, 10), 1000, 0);
	feed(fake_switch(10, TASK_S, 0), 2000, 0);
	feed(fake_wakeup("sched:sched_waking", 10), 3000, 1);
	feed(fake_switch(0, 0, 10), 5000, 0);
	rows = sched_latency__rows(lat, "avg", false, &nr);
	assert_int_equal(row_of(rows, nr, "a")->nr_switches, 1);
}

static void preemption_counts_from_switch_out(void **state)
{
	struct sched_lat_task **rows;
	int nr;

	feed(fake_switch(0, 0, 10), 1000, 0);
	feed(fake_switch(10, 0, 0), 2000, 0);	/* still runnable */
	feed(fake_switch(0, 0, 10), 2600, 0);
	rows = sched_latency__rows(lat, "max", false, &nr);
	assert_int_equal(row_of(rows, nr, "a")->max_lat, 600);
}

static void same_comm_merges_under_highest_tid(void **state)
{
	struct sched_lat_task **rows;
	const struct sched_lat_task *w;
	int nr;

	feed(fake_switch(0, 0, 20), 1000, 0);
	feed(fake_switch(20, 0, 21), 1100, 0);	/* 20 waits 400 */
	feed(fake_switch(21, 0, 20), 1500, 0);	/* 21 waits 100 */
	feed(fake_switch(20, 0, 21), 1600, 0);
	rows = sched_latency__rows(lat, "max", false, &nr);
	w = row_of(rows, nr, "w");
	assert_int_equal(w->nr_merged, 2);
	assert_int_equal(w->thread->tid, 21);
	assert_int_equal(w->nr_switches, 4);
	assert_int_equal(w->max_lat, 400);
	rows = sched_latency__rows(lat, "max", true, &nr);
	assert_int_equal(nr, 3);	/* swapper, 20 and 21 */
}

static void sorted_descending_by_keys(void **state)
{
	struct sched_lat_task **rows;
	int nr;

	feed(fake_switch(0, 0, 10), 1000, 0);
	feed(fake_runtime(10, 50), 1000, 0);
	feed(fake_switch(10, 0, 20), 1100, 0);
	feed(fake_runtime(20, 70), 1100, 0);
	feed(fake_switch(20, 0, 10), 1200, 0);	/* a waited 100 */
	rows = sched_latency__rows(lat, "runtime", false, &nr);
	assert_string_equal(rows[0]->thread->comm, "w");
	assert_string_equal(rows[1]->thread->comm, "a");
	rows = sched_latency__rows(lat, "max", false, &nr);
	assert_string_equal(rows[0]->thread->comm, "a");
}

static void switch_away_from_another_task_is_a_bug(void **state)
{
	feed(fake_switch(0, 0, 10), 1000, 0);
	feed(fake_switch(20, 0, 0), 2000, 0);
	assert_int_equal(sched_latency__counts(lat)->nr_context_switch_bugs, 1);
}

static void sort_keys_are_checked(void **state)
{
	char *bad = NULL;

	assert_true(sched_latency__valid_sort("runtime,switch avg, max,pid", &bad));
	assert_false(sched_latency__valid_sort("avg,bogus", &bad));
	assert_string_equal(bad, "bogus");
	free(bad);
}

static void time_going_back_stops(void **state)
{
	struct sched_event ev = fake_switch(0, 0, 10);
	struct perf_sample s = fake_sample(1000, 0, 0, 0);

	feed(ev, 2000, 0);
	assert_int_equal(sched_latency__event(lat, m, &ev, &s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(delay_from_wakeup_to_switch_in, setup, teardown),
		cmocka_unit_test_setup_teardown(waking_is_not_a_wakeup, setup, teardown),
		cmocka_unit_test_setup_teardown(preemption_counts_from_switch_out, setup, teardown),
		cmocka_unit_test_setup_teardown(same_comm_merges_under_highest_tid, setup,
						teardown),
		cmocka_unit_test_setup_teardown(sorted_descending_by_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(switch_away_from_another_task_is_a_bug, setup,
						teardown),
		cmocka_unit_test_setup_teardown(sort_keys_are_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(time_going_back_stops, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
