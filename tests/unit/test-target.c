/* Unit tests for core/target and core/cpumap: CPU lists as perf parses
 * them, pid/tid lists against a fake /proc, option conflicts, the maps a
 * target gets, and the workload's exec error. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/events/cpumap.h"
#include "core/live/target.h"

/* Parses list and checks the CPUs (expect == NULL: the list is refused). */
static void check_cpus(const char *list, const int *expect, int nr)
{
	struct cpu_map *m = cpu_map__parse(list);

	if (!expect) {
		assert_null(m);
		return;
	}
	assert_non_null(m);
	assert_int_equal(m->nr, nr);
	for (int i = 0; i < nr; i++)
		assert_int_equal(m->map[i], expect[i]);
	cpu_map__delete(m);
}

static void cpu_lists(void **state)
{
	static const int c0[] = { 0 }, c01[] = { 0, 1 }, c013[] = { 0, 1, 3 }, c1[] = { 1 };
	static const int any[] = { -1 }, c2to5[] = { 2, 3, 4, 5 };

	check_cpus("0", c0, 1);
	check_cpus("0-1,3", c013, 3);
	check_cpus("3,0-1", c013, 3);		/* sorted */
	check_cpus("1,0", c01, 2);
	check_cpus("2-5", c2to5, 4);
	check_cpus("0x1", c1, 1);		/* strtoul base 0, as perf */
	check_cpus("0-", c0, 1);		/* an empty range end reads as 0 */
	check_cpus("0,,1", c0, 1);		/* parsing stops at the empty entry */
	check_cpus("0,a", c0, 1);
	check_cpus("1,,", c1, 1);
	check_cpus("", any, 1);			/* the "any CPU" map */
}

static void bad_cpu_lists(void **state)
{
	check_cpus("1-0", NULL, 0);		/* reversed range */
	check_cpus("a", NULL, 0);
	check_cpus("0a", NULL, 0);		/* garbage after a number */
	check_cpus("-1", NULL, 0);
	check_cpus(" 0", NULL, 0);
	check_cpus("0 ", NULL, 0);
	check_cpus("0,0", NULL, 0);		/* duplicate */
	check_cpus("0-1-2", NULL, 0);
	check_cpus("0-1,1", NULL, 0);
}

static void cpu_map_helpers(void **state)
{
	int cpus[] = { 4, 2 };
	struct cpu_map *m = cpu_map__new_from(cpus, 2), *any = cpu_map__new_any();

	assert_int_equal(cpu_map__idx(m, 2), 1);
	assert_int_equal(cpu_map__idx(m, 3), -1);
	assert_false(cpu_map__is_any(m));
	assert_true(cpu_map__is_any(any));
	cpu_map__delete(m);
	cpu_map__delete(any);
}

/* A fake procfs/sysfs tree under a temporary directory. */
static char root[64];

static void mkpath(const char *fmt, ...)
{
	char path[512], rel[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0700);
			*p = '/';
		}
	}
	mkdir(path, 0700);
}

static void write_file(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int make_tree(void **state)
{
	strcpy(root, "/tmp/pcl-test-target-XXXXXX");
	assert_non_null(mkdtemp(root));
	mkpath("proc/100/task/100");
	mkpath("proc/100/task/101");
	mkpath("proc/100/task/105");
	mkpath("proc/200/task/200");
	mkpath("proc/101");
	write_file("proc/100/comm", "main\n");
	write_file("proc/101/comm", "worker\n");
	write_file("proc/200/stat", "200 (a (b) c) S 1 200 200 0 -1 4194304 90 0 0 0 250 50 0 0 20 0 1\n");
	write_file("proc/stat", "cpu  1000 7 300 5000 0 0 0 0 0 0\ncpu0 1 2 3\n");
	mkpath("sys/devices/system/cpu/cpu0/topology");
	mkpath("sys/devices/system/cpu/cpu1/topology");
	mkpath("sys/devices/system/node/node0/cpu0");
	mkpath("sys/devices/system/node/node1/cpu1");
	write_file("sys/devices/system/cpu/online", "0-1\n");
	write_file("sys/devices/system/cpu/cpu0/topology/physical_package_id", "0\n");
	write_file("sys/devices/system/cpu/cpu0/topology/core_id", "3\n");
	write_file("sys/devices/system/cpu/cpu1/topology/physical_package_id", "1\n");
	write_file("sys/devices/system/cpu/cpu1/topology/die_id", "2\n");
	write_file("sys/devices/system/cpu/cpu1/topology/core_id", "7\n");
	static char proc[96], sys[96];
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	cpumap_procfs_root = proc;
	cpumap_sysfs_root = sys;
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	cpumap_procfs_root = "/proc";
	cpumap_sysfs_root = "/sys";
	return 0;
}

static void pid_lists(void **state)
{
	struct thread_map *t = thread_map__new_by_pid_str("100,200");

	assert_non_null(t);
	assert_int_equal(t->nr, 4);
	assert_int_equal(t->map[0].pid, 100);
	assert_int_equal(t->map[1].pid, 101);
	assert_int_equal(t->map[2].pid, 105);
	assert_int_equal(t->map[3].pid, 200);
	thread_map__read_comms(t);
	assert_string_equal(t->map[0].comm, "main");
	assert_string_equal(t->map[1].comm, "worker");
	assert_string_equal(t->map[2].comm, "<unknown>");
	thread_map__delete(t);

	assert_null(thread_map__new_by_pid_str("300"));		/* no such process */
	assert_null(thread_map__new_by_pid_str("100,300"));
	assert_null(thread_map__new_by_pid_str("abc"));
	assert_null(thread_map__new_by_pid_str("100,,200"));
	assert_null(thread_map__new_by_pid_str(""));
	assert_null(thread_map__new_by_pid_str("100,"));
}

static void tid_lists(void **state)
{
	/* tids are taken as given: perf lets the open fail later */
	struct thread_map *t = thread_map__new_by_tid_str("7,999999");

	assert_non_null(t);
	assert_int_equal(t->nr, 2);
	assert_int_equal(t->map[1].pid, 999999);
	thread_map__delete(t);
	assert_null(thread_map__new_by_tid_str("1,abc"));
	assert_null(thread_map__new_by_tid_str(""));
}

static void all_threads(void **state)
{
	struct thread_map *t = thread_map__new_all();

	/* 100 has three tasks, 101 none (no task dir), 200 one */
	assert_int_equal(t->nr, 4);
	thread_map__delete(t);
}

static void topology(void **state)
{
	struct cpu_topology t;
	struct cpu_map *online = cpu_map__new_online();

	cpu_topology__read(0, &t);
	assert_int_equal(t.socket, 0);
	assert_int_equal(t.die, 0);	/* no die_id: one die per socket */
	assert_int_equal(t.core, 3);
	assert_int_equal(t.node, 0);
	cpu_topology__read(1, &t);
	assert_int_equal(t.socket, 1);
	assert_int_equal(t.die, 2);
	assert_int_equal(t.core, 7);
	assert_int_equal(t.node, 1);
	assert_non_null(online);
	assert_int_equal(online->nr, 2);
	cpu_map__delete(online);
}

static void cpu_times(void **state)
{
	uint64_t t[2];
	uint64_t tick = 1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK);

	/* the comm may hold parentheses: fields count from the last one */
	target__cpu_times(200, t);
	assert_true(t[0] == 250 * tick);
	assert_true(t[1] == 50 * tick);
	target__cpu_times(-1, t);	/* the machine: user and system of "cpu" */
	assert_true(t[0] == 1000 * tick);
	assert_true(t[1] == 300 * tick);
	target__cpu_times(4242, t);	/* gone: zero */
	assert_true(t[0] == 0 && t[1] == 0);
}

static void conflicts(void **state)
{
	struct target t = { .pid = "1", .tid = "2", .cpu_list = "0", .system_wide = true };

	assert_int_equal(target__validate(&t), TARGET_PID_OVERRIDE_CPU);
	assert_string_equal(t.tid, "1");	/* -p wins over -t */
	assert_null(t.cpu_list);
	assert_false(t.system_wide);
	assert_string_equal(target__conflict_str(TARGET_PID_OVERRIDE_CPU),
			    "PID/TID switch overriding CPU");

	t = (struct target){ .pid = "1", .system_wide = true };
	assert_int_equal(target__validate(&t), TARGET_PID_OVERRIDE_SYSTEM);
	assert_true(target__has_task(&t));
	assert_false(target__has_cpu(&t));

	t = (struct target){ .uid_str = "root", .cpu_list = "1" };
	assert_int_equal(target__validate(&t), TARGET_UID_OVERRIDE_CPU);

	t = (struct target){ .system_wide = true, .per_thread = true, .cpu_list = "0" };
	assert_int_equal(target__validate(&t), TARGET_SYSTEM_OVERRIDE_THREAD);

	t = (struct target){ 0 };
	assert_int_equal(target__validate(&t), TARGET_OK);
	assert_true(target__none(&t));
	assert_true(target__enable_on_exec(&t));
	t.initial_delay = 100;
	assert_false(target__enable_on_exec(&t));
}

static void uids(void **state)
{
	struct target t = { .uid_str = "root" };

	assert_int_equal(target__parse_uid(&t), 0);
	assert_int_equal(t.uid, 0);
	t.uid_str = "0";
	assert_int_equal(target__parse_uid(&t), 0);
	t.uid_str = "no-such-user-here";
	assert_int_equal(target__parse_uid(&t), -1);
	/* a number, but no user's: perf words it apart */
	t.uid_str = "4000000000";
	assert_int_equal(target__parse_uid(&t), -2);
	t.uid_str = "-3";
	assert_int_equal(target__parse_uid(&t), -2);
}

static void maps(void **state)
{
	struct cpu_map *cpus;
	struct thread_map *threads;
	struct target t = { .cpu_list = "0-1" };

	assert_int_equal(target__create_maps(&t, &cpus, &threads), TARGET_MAPS_OK);
	assert_int_equal(cpus->nr, 2);
	assert_int_equal(threads->map[0].pid, -1);
	cpu_map__delete(cpus);
	thread_map__delete(threads);

	t = (struct target){ .system_wide = true };
	assert_int_equal(target__create_maps(&t, &cpus, &threads), TARGET_MAPS_OK);
	assert_int_equal(cpus->nr, 2);	/* the fake online list */
	cpu_map__delete(cpus);
	thread_map__delete(threads);

	t = (struct target){ .pid = "100", .tid = "100" };
	assert_int_equal(target__create_maps(&t, &cpus, &threads), TARGET_MAPS_OK);
	assert_true(cpu_map__is_any(cpus));
	assert_int_equal(threads->nr, 3);
	cpu_map__delete(cpus);
	thread_map__delete(threads);

	t = (struct target){ .cpu_list = "1-0" };
	assert_int_equal(target__create_maps(&t, &cpus, &threads), TARGET_MAPS_BAD_CPUS);
	assert_null(cpus);
	assert_null(threads);
	t = (struct target){ .pid = "4242" };
	assert_int_equal(target__create_maps(&t, &cpus, &threads), TARGET_MAPS_BAD_THREADS);
}

static void workload_exec_failure(void **state)
{
	const char *argv[] = { "/nonexistent/pcl-no-such-command", NULL };
	struct workload w;

	assert_int_equal(workload__prepare(&w, argv), 0);
	assert_true(w.pid > 0);
	assert_int_equal(workload__start(&w), 0);
	assert_int_equal(workload__wait(&w), 0);
	workload__close(&w);
	assert_int_equal(w.exec_errno, ENOENT);
}

static void workload_exit_status(void **state)
{
	const char *argv[] = { "sh", "-c", "exit 3", NULL };
	struct workload w;

	assert_int_equal(workload__prepare(&w, argv), 0);
	assert_int_equal(workload__start(&w), 0);
	assert_int_equal(workload__wait(&w), 0);
	workload__close(&w);
	assert_int_equal(w.exec_errno, 0);
	assert_true(WIFEXITED(w.status));
	assert_int_equal(WEXITSTATUS(w.status), 3);
}

static void workload_held_until_start(void **state)
{
	const char *argv[] = { "true", NULL };
	struct workload w;

	assert_int_equal(workload__prepare(&w, argv), 0);
	usleep(20000);
	assert_false(workload__poll_exit(&w));	/* waiting on the go pipe */
	workload__kill(&w, SIGTERM);
	workload__close(&w);
	assert_int_equal(w.pid, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpu_lists),
		cmocka_unit_test(bad_cpu_lists),
		cmocka_unit_test(cpu_map_helpers),
		cmocka_unit_test(pid_lists),
		cmocka_unit_test(tid_lists),
		cmocka_unit_test(all_threads),
		cmocka_unit_test(topology),
		cmocka_unit_test(maps),
		cmocka_unit_test(cpu_times),
		cmocka_unit_test(conflicts),
		cmocka_unit_test(uids),
		cmocka_unit_test(workload_exec_failure),
		cmocka_unit_test(workload_exit_status),
		cmocka_unit_test(workload_held_until_start),
	};
	return cmocka_run_group_tests_name("target", tests, make_tree, remove_tree);
}
