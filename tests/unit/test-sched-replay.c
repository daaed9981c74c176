/* Unit tests for core/analysis/sched-replay: perf's task model (a task per
 * pid starting asleep, RUN then SLEEP per switch, WAKEUPs tied to their
 * target's last SLEEP, target-less and multi-target wake-ups) and a short
 * replay of it with real threads. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/sched-replay.h"
#include "sched-fake.h"

static struct sched_replay *r;

static int setup(void **state)
{
	r = sched_replay__new();
	return 0;
}

static int teardown(void **state)
{
	sched_replay__delete(r);
	return 0;
}

static void sw(uint64_t time, int cpu, uint32_t prev, uint32_t next)
{
	struct sched_event ev = fake_switch(prev, 1, next);
	struct perf_sample s = fake_sample(time, cpu, (int)prev, (int)prev);

	assert_int_equal(sched_replay__event(r, &ev, &s), 0);
}

static void wake(const char *name, uint64_t time, uint32_t waker, uint32_t pid)
{
	struct sched_event ev = fake_wakeup(name, pid);
	struct perf_sample s = fake_sample(time, 0, (int)waker, (int)waker);

	assert_int_equal(sched_replay__event(r, &ev, &s), 0);
}

static void model(void **state)
{
	const struct replay_counts *n;

	sw(1000, 0, 10, 20);		/* tasks 10, 20: SLEEP; 10: RUN SLEEP */
	wake("sched:sched_wakeup", 1500, 20, 10);	/* 20: WAKEUP -> 10's last SLEEP */
	wake("sched:sched_wakeup", 1600, 20, 10);	/* that SLEEP is taken already */
	wake("sched:sched_waking", 1700, 20, 10);	/* not read, as in perf 6.1 */
	sw(2000, 0, 20, 10);		/* 20: RUN SLEEP */
	wake("sched:sched_wakeup_new", 2100, 10, 30);	/* 30 new: SLEEP, woken */
	wake("sched:sched_wakeup", 2200, 10, 20);
	n = sched_replay__counts(r);
	assert_int_equal(n->nr_run_events, 2);
	assert_int_equal(n->nr_sleep_events, 5);
	assert_int_equal(n->nr_wakeup_events, 3);
	assert_int_equal(n->multitarget_wakeups, 1);
	assert_int_equal(n->targetless_wakeups, 0);
	assert_int_equal(sched_replay__nr_tasks(r), 3);
	assert_string_equal(sched_replay__task(r, 0).comm, "prev");
	assert_int_equal(sched_replay__task(r, 0).nr_events, 5);	/* S R S W W */
	assert_int_equal(sched_replay__task(r, 1).nr_events, 5);	/* S W W R S */
	assert_int_equal(sched_replay__task(r, 2).pid, 30);
}

/* A wakee whose last atom is not a SLEEP (here: a wake-up it sent) */
static void a_wakeup_of_a_task_not_asleep_has_no_target(void **state)
{
	sw(1000, 0, 10, 20);
	wake("sched:sched_wakeup", 1500, 20, 10);
	assert_int_equal(sched_replay__counts(r)->targetless_wakeups, 0);
	wake("sched:sched_wakeup", 1600, 10, 20);
	assert_int_equal(sched_replay__counts(r)->targetless_wakeups, 1);
	assert_int_equal(sched_replay__counts(r)->nr_wakeup_events, 1);
}

static int nr_rounds;

static void count_round(const struct replay_round *round, void *arg)
{
	if (round)
		assert_int_equal(round->nr, ++nr_rounds);
}

static void replays_rounds(void **state)
{
	char *err = NULL;

	sw(1000, 0, 10, 20);
	wake("sched:sched_wakeup", 1500, 20, 10);
	sw(101000, 0, 20, 10);
	nr_rounds = 0;
	assert_int_equal(sched_replay__run(r, 3, false, count_round, NULL, &err), 0);
	assert_int_equal(nr_rounds, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(model, setup, teardown),
		cmocka_unit_test_setup_teardown(a_wakeup_of_a_task_not_asleep_has_no_target, setup,
						teardown),
		cmocka_unit_test_setup_teardown(replays_rounds, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
