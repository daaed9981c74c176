/* Unit tests for core/evlist: opening, enabling, reading and closing real
 * software counters on this process, skipping events the kernel lacks,
 * groups, and perf's open error messages. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/events/evlist.h"

static struct evsel *sw(uint64_t config, const char *name)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .config = config };

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = 1;
	return evsel__new(&attr, name);
}

/* An event type no kernel knows: perf_event_open says ENOENT. */
static struct evsel *bogus(void)
{
	struct perf_event_attr attr = { .type = 0x7fff0000, .config = 1 };

	return evsel__new(&attr, "bogus");
}

static void spin(void)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < 20000000UL; i++)
		x += i;
}

static void count_self(void **state)
{
	struct evlist evlist;
	struct cpu_map *any = cpu_map__new_any();
	struct thread_map *self = thread_map__new_pid(0);
	struct evsel *failed, *tc;
	struct counts_values v;

	evlist__init(&evlist);
	evlist__add(&evlist, tc = sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock"));
	evlist__add(&evlist, bogus());
	assert_int_equal(evlist__open(&evlist, any, self, any, EVLIST_OPEN_SKIP_UNSUPPORTED, &failed), 0);
	assert_true(tc->supported);
	assert_false(evlist.last->supported);
	assert_true(evsel__fd(tc, 0, 0) >= 0);
	assert_int_equal(evsel__fd(evlist.last, 0, 0), -1);
	assert_int_equal(evlist__enable(&evlist), 0);
	spin();
	assert_int_equal(evlist__disable(&evlist), 0);
	assert_int_equal(evsel__read(tc, 0, 0, &v), 0);
	assert_true(v.val > 0);
	assert_true(v.ena >= v.run && v.run > 0);
	assert_int_equal(evsel__read(evlist.last, 0, 0, &v), -EBADF);
	evlist__close(&evlist);
	assert_null(tc->fds);
	evlist__exit(&evlist);
	cpu_map__delete(any);
	thread_map__delete(self);
}

static void unsupported_is_fatal_without_skip(void **state)
{
	struct evlist evlist;
	struct cpu_map *any = cpu_map__new_any();
	struct thread_map *self = thread_map__new_pid(0);
	struct evsel *failed;
	char msg[256];

	evlist__init(&evlist);
	evlist__add(&evlist, bogus());
	assert_int_equal(evlist__open(&evlist, any, self, any, 0, &failed), -ENOENT);
	assert_ptr_equal(failed, evlist.first);
	evsel__open_strerror(failed, ENOENT, false, msg, sizeof(msg));
	assert_string_equal(msg, "The bogus event is not supported.");
	evsel__open_strerror(failed, ESRCH, false, msg, sizeof(msg));
	assert_string_equal(msg, "The sys_perf_event_open() syscall returned with 3 (No such process) "
			    "for event (bogus).\n/bin/dmesg | grep -i perf may provide additional information.\n");
	evlist__close(&evlist);
	evlist__exit(&evlist);
	cpu_map__delete(any);
	thread_map__delete(self);
}

static void groups(void **state)
{
	struct evlist evlist;
	struct cpu_map *any = cpu_map__new_any();
	struct thread_map *self = thread_map__new_pid(0);
	struct evsel *failed, *leader, *member;

	/* a lacking leader of a real group stays an error */
	evlist__init(&evlist);
	evlist__add(&evlist, leader = bogus());
	evlist__add(&evlist, member = sw(PERF_COUNT_SW_PAGE_FAULTS, "page-faults"));
	leader->nr_members = 2;
	member->leader = leader;
	assert_int_equal(evlist__open(&evlist, any, self, any, EVLIST_OPEN_SKIP_UNSUPPORTED, &failed),
			 -ENOENT);
	assert_ptr_equal(failed, leader);
	evlist__close(&evlist);
	evlist__exit(&evlist);

	/* a working group: the member is opened with its leader's fd */
	evlist__init(&evlist);
	evlist__add(&evlist, leader = sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock"));
	evlist__add(&evlist, member = sw(PERF_COUNT_SW_PAGE_FAULTS, "page-faults"));
	member->attr.disabled = 0;
	leader->nr_members = 2;
	member->leader = leader;
	assert_int_equal(evlist__open(&evlist, any, self, any, EVLIST_OPEN_SKIP_UNSUPPORTED, &failed), 0);
	assert_true(member->supported);
	evlist__close(&evlist);
	evlist__exit(&evlist);
	cpu_map__delete(any);
	thread_map__delete(self);
}

static void units_and_clocks(void **state)
{
	struct evsel *tc = sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
	struct evsel *cc = sw(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	struct evsel *pf = sw(PERF_COUNT_SW_PAGE_FAULTS, "page-faults");

	assert_true(evsel__is_clock(tc) && evsel__is_clock(cc));
	assert_false(evsel__is_clock(pf));
	assert_string_equal(evsel__unit(tc), "msec");
	assert_true(evsel__scale(tc) == 1e-6);
	assert_string_equal(evsel__unit(pf), "");
	pf->tool = TOOL_DURATION_TIME;
	assert_string_equal(evsel__unit(pf), "ns");
	evsel__delete(tc);
	evsel__delete(cc);
	evsel__delete(pf);
}

/* --for-each-cgroup: one copy of the list per cgroup, groups kept. */
static void expand_cgroups(void **state)
{
	struct evlist evlist;
	struct evsel *a = sw(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
	struct evsel *b = sw(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	struct evsel *e[4];
	char *bad = NULL, *mnt = cgroup__mountpoint();
	int n = 0;

	evlist__init(&evlist);
	evlist__add(&evlist, a);
	evlist__add(&evlist, b);
	b->leader = a;
	a->nr_members = 2;
	evlist.nr_groups = 1;
	/* a repeated name counts once */
	assert_int_equal(evlist__expand_cgroups(&evlist, "/,/", &bad), 0);
	evlist__for_each(&evlist, pos)
		e[n++] = pos;
	assert_int_equal(n, 2);
	assert_int_equal(evlist.nr_groups, 1);
	assert_string_equal(e[0]->name, "task-clock");
	assert_ptr_equal(e[1]->leader, e[0]);
	assert_int_equal(e[0]->nr_members, 2);
	assert_string_equal(e[1]->cgrp->name, "/");
	assert_ptr_equal(e[0]->cgrp, e[1]->cgrp);
	evlist__release_cgroups(&evlist);

	/* a regular expression matches paths below the mount point, "" the root */
	assert_int_equal(evlist__expand_cgroups(&evlist, "^$", &bad), 0);
	assert_int_equal(evlist.nr_entries, 2);
	assert_string_equal(evlist.first->cgrp->name, "");
	evlist__release_cgroups(&evlist);
	assert_int_equal(evlist__expand_cgroups(&evlist, "^pcl-no-such$,^/pcl-none", &bad), -2);
	assert_string_equal(bad, "^pcl-no-such$,^/pcl-none");
	free(bad);
	assert_int_equal(evlist.nr_entries, 2);

	/* one leading '/' goes: "/x" is "mount/x" */
	assert_int_equal(evlist__expand_cgroups(&evlist, "/,/pcl-no-such-cgroup", &bad), -1);
	assert_int_equal(evlist.nr_entries, 4);
	assert_non_null(bad);
	assert_true(!strncmp(bad, mnt, strlen(mnt)));
	assert_string_equal(bad + strlen(mnt), "/pcl-no-such-cgroup");
	free(bad);
	free(mnt);
	evlist__release_cgroups(&evlist);
	evlist__exit(&evlist);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(expand_cgroups),
		cmocka_unit_test(count_self),
		cmocka_unit_test(unsupported_is_fatal_without_skip),
		cmocka_unit_test(groups),
		cmocka_unit_test(units_and_clocks),
	};
	return cmocka_run_group_tests_name("evlist", tests, NULL, NULL);
}
