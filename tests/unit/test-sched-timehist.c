/* Unit tests for core/analysis/sched-timehist: run time, wait split by
 * the state a task left in, scheduling delay, the idle task per CPU, the
 * --time window, the pid filter and the summary's thread order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/sched-timehist.h"
#include "core/data/sample-filter.h"
#include "core/symbols/machine.h"
#include "core/symbols/thread.h"
#include "sched-fake.h"

#define TASK_S 1
#define TASK_D 2

static struct machine *m;
static struct th_row rows[16];
static struct th_task copies[16];
static int nr_rows;

static void collect(const struct th_row *row, void *arg)
{
	assert_true(nr_rows < 16);
	rows[nr_rows] = *row;
	if (row->task) {
		copies[nr_rows] = *row->task;
		rows[nr_rows].task = &copies[nr_rows];
	}
	nr_rows++;
}

static int setup(void **state)
{
	m = machine__new();
	machine__process_comm(m, 10, 10, "a", false);
	machine__process_comm(m, 300, 300, "b", false);
	machine__process_comm(m, 20, 20, "c", false);
	nr_rows = 0;
	return 0;
}

static int teardown(void **state)
{
	machine__delete(m);
	return 0;
}

static struct th_opts opts(void)
{
	return (struct th_opts){ .nr_cpus_online = 2, .emit = collect };
}

/* a switch on cpu at time: the sample's task is prev */
static void sw(struct sched_timehist *th, uint64_t time, int cpu, uint32_t prev, uint64_t state,
	       uint32_t next)
{
	struct sched_event ev = fake_switch(prev, state, next);
	struct perf_sample s = fake_sample(time, cpu, (int)prev, (int)prev);

	sched_timehist__sample(th, m, &ev, &s);
}

static void wake(struct sched_timehist *th, uint64_t time, int cpu, uint32_t waker, uint32_t pid)
{
	struct sched_event ev = fake_wakeup("sched:sched_waking", pid);
	struct perf_sample s = fake_sample(time, cpu, (int)waker, (int)waker);

	sched_timehist__sample(th, m, &ev, &s);
}

static void run_wait_and_delay(void **state)
{
	struct th_opts o = opts();
	struct sched_timehist *th = sched_timehist__new(&o);

	sw(th, 1000, 0, 0, 0, 10);		/* idle leaves: first switch, nothing ran */
	sw(th, 3000, 0, 10, TASK_S, 0);		/* a ran 2000 */
	wake(th, 4000, 1, 20, 10);
	sw(th, 4500, 0, 0, 0, 10);		/* idle ran 1500 */
	sw(th, 5000, 0, 10, TASK_D, 0);		/* a slept 3000 - 1500, delay 500 */
	assert_int_equal(nr_rows, 4);
	assert_true(rows[0].idle);
	assert_string_equal(rows[0].who.comm, "<idle>");
	assert_int_equal(rows[1].task->dt_run, 2000);
	assert_int_equal(rows[2].task->dt_run, 1500);
	assert_int_equal(rows[3].task->dt_run, 500);
	assert_int_equal(rows[3].task->dt_sleep, 1500);
	assert_int_equal(rows[3].task->dt_delay, 500);
	assert_int_equal(rows[3].state, TASK_D);
	assert_int_equal(sched_timehist__max_cpu(th), 2);
	sched_timehist__delete(th);
}

static void time_window_cuts_and_drops(void **state)
{
	struct th_opts o = opts();
	struct sample_filter filter = { 0 };
	struct sched_timehist *th;

	assert_int_equal(sample_filter__set_time(&filter, "0.000002,0.000004"), 0);
	o.filter = &filter;
	th = sched_timehist__new(&o);
	sw(th, 1000, 0, 0, 0, 10);		/* before the window */
	sw(th, 3000, 0, 10, TASK_S, 0);		/* run from the window's start */
	sw(th, 5000, 0, 0, 0, 10);		/* cut at its end */
	sw(th, 6000, 0, 10, TASK_S, 0);		/* after it */
	assert_int_equal(nr_rows, 2);
	assert_int_equal(rows[0].task->dt_run, 1000);
	assert_int_equal(rows[1].time, 4000);
	assert_int_equal(rows[1].task->dt_run, 1000);
	sched_timehist__delete(th);
	sample_filter__exit(&filter);
}

static void pid_filter_hides_and_stops_idle_stats(void **state)
{
	struct th_opts o = opts();
	struct sample_filter filter = { 0 };
	struct sched_timehist *th;
	struct th_summary s;

	name_list__add(&filter.pids, "10");
	o.filter = &filter;
	th = sched_timehist__new(&o);
	sw(th, 1000, 0, 20, 0, 10);
	sw(th, 2000, 0, 10, 0, 20);
	sw(th, 3000, 0, 20, 0, 10);
	assert_int_equal(nr_rows, 1);
	assert_string_equal(rows[0].who.comm, "a");
	sched_timehist__summary(th, &s);
	assert_true(s.idle_skipped);
	assert_int_equal(s.nr_tasks, 1);
	sched_timehist__summary_free(&s);
	sched_timehist__delete(th);
	sample_filter__exit(&filter);
}

static void summary_in_perfs_thread_order(void **state)
{
	struct th_opts o = opts();
	struct sched_timehist *th;
	struct th_summary s;

	o.summary_only = true;
	th = sched_timehist__new(&o);
	sw(th, 1000, 0, 300, 0, 20);	/* tid 300 sits in bucket 44 */
	sw(th, 2000, 0, 20, 0, 10);
	sw(th, 3000, 0, 10, 0, 300);
	assert_int_equal(nr_rows, 0);
	sched_timehist__summary(th, &s);
	assert_int_equal(s.nr_tasks, 3);
	assert_int_equal(s.tasks[0]->thread->tid, 10);
	assert_int_equal(s.tasks[1]->thread->tid, 20);
	assert_int_equal(s.tasks[2]->thread->tid, 300);
	assert_int_equal(s.hist_time, 2000);
	sched_timehist__summary_free(&s);
	sched_timehist__delete(th);
}

/* Runs of 0, 200 and 300: perf's min, mean and relative deviation of the mean. */
static void stats_as_perf(void **state)
{
	struct th_opts o = opts();
	struct sched_timehist *th = sched_timehist__new(&o);
	const struct th_stats *r = NULL;
	struct th_summary s;

	sw(th, 1000, 0, 10, 0, 20);
	sw(th, 1100, 0, 20, 0, 10);
	sw(th, 1300, 0, 10, 0, 20);
	sw(th, 1400, 0, 20, 0, 10);
	sw(th, 1700, 0, 10, 0, 20);
	sched_timehist__summary(th, &s);
	for (int i = 0; i < s.nr_tasks; i++)
		if (s.tasks[i]->thread->tid == 10)
			r = &s.tasks[i]->run_stats;
	assert_non_null(r);
	assert_int_equal((int)r->n, 3);
	assert_int_equal(r->min, 0);
	assert_int_equal(r->max, 300);
	assert_true(th_stats__mean(r) > 166.6 && th_stats__mean(r) < 166.7);
	/* deviation 152.75, of the mean 88.19: 52.9 % of the mean */
	assert_true(th_stats__rel_stddev(r) > 52.9 && th_stats__rel_stddev(r) < 53.0);
	sched_timehist__summary_free(&s);
	sched_timehist__delete(th);
}

/* -I with stacks: each CPU's idle time (perf 6.1 lists no stacks under it) */
static void idle_time_with_stacks(void **state)
{
	struct th_opts o = opts();
	struct sched_timehist *th;
	struct th_summary s;
	const struct th_task *idle;

	o.idle_hist = true;
	th = sched_timehist__new(&o);
	sched_timehist__set_stack(th, "schedule;do_nanosleep");
	sw(th, 1000, 0, 10, TASK_S, 0);
	sched_timehist__set_stack(th, NULL);
	sw(th, 1500, 0, 0, 0, 20);		/* 500 idle after do_nanosleep */
	sched_timehist__set_stack(th, "schedule;pipe_read");
	sw(th, 2000, 0, 20, TASK_S, 0);
	sched_timehist__set_stack(th, NULL);
	sw(th, 4000, 0, 0, 0, 10);		/* 2000 after pipe_read */
	sched_timehist__set_stack(th, "schedule;do_nanosleep");
	sw(th, 4100, 0, 10, TASK_S, 0);
	sched_timehist__set_stack(th, NULL);
	sw(th, 4400, 0, 0, 0, 20);		/* 300 more after do_nanosleep */
	sched_timehist__summary(th, &s);
	idle = s.idle[0];
	assert_int_equal(idle->total_run, 500 + 2000 + 300);
	sched_timehist__summary_free(&s);
	sched_timehist__delete(th);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(run_wait_and_delay, setup, teardown),
		cmocka_unit_test_setup_teardown(time_window_cuts_and_drops, setup, teardown),
		cmocka_unit_test_setup_teardown(pid_filter_hides_and_stops_idle_stats, setup,
						teardown),
		cmocka_unit_test_setup_teardown(summary_in_perfs_thread_order, setup, teardown),
		cmocka_unit_test_setup_teardown(stats_as_perf, setup, teardown),
		cmocka_unit_test_setup_teardown(idle_time_with_stacks, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
