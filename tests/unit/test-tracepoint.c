/* Unit tests for core/tracepoint: tracefs ids, directory listings, the
 * sorted tracepoint set and perf's error hints.  Uses the real tracefs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/events/tracepoint.h"
#include "util/util.h"

static int need_tracefs(void **state)
{
	if (!tracing_events_path() || tracepoint__id("sched", "sched_switch") < 0)
		skip();
	return 0;
}

static void test_id(void **state)
{
	char *path = xasprintf("%s/sched/sched_switch/id", tracing_events_path());
	char *text = read_file_str(path);

	assert_non_null(text);
	assert_int_equal(tracepoint__id("sched", "sched_switch"), strtoll(text, NULL, 10));
	assert_int_equal(tracepoint__id("sched", "nosuch"), -ENOENT);
	assert_int_equal(tracepoint__id("nosys", "nosuch"), -ENOENT);
	free(text);
	free(path);
}

static void test_readdir(void **state)
{
	char **names;
	int n = tracepoint__readdir("sched", &names);
	bool has_switch = false, has_enable = false;

	assert_true(n > 2);
	for (int i = 0; i < n; i++) {
		has_switch |= !strcmp(names[i], "sched_switch");
		has_enable |= !strcmp(names[i], "enable");
		assert_string_not_equal(names[i], ".");
	}
	assert_true(has_switch && has_enable);
	strlist__free(names, n);
	assert_int_equal(tracepoint__readdir("nosys", &names), -ENOENT);
	assert_null(names);
}

static void test_list(void **state)
{
	char **all, **sched;
	int n = tracepoints__list(NULL, NULL, &all);
	int m = tracepoints__list("sch?d", "sched_*", &sched), in_all = 0;

	assert_true(n > 100 && m > 5);
	for (int i = 1; i < n; i++)
		assert_true(strcmp(all[i - 1], all[i]) < 0);
	for (int i = 0; i < n; i++) {
		assert_non_null(strchr(all[i], ':'));
		assert_null(strstr(all[i], ":enable"));
		if (!strncmp(all[i], "sched:sched_", 12))
			in_all++;
	}
	assert_int_equal(m, in_all);
	strlist__free(all, n);
	strlist__free(sched, m);
	assert_int_equal(tracepoints__list("nosys", NULL, &all), 0);
	strlist__free(all, 0);
}

static void test_strerror(void **state)
{
	char *want = xasprintf("Error:\tFile %s/sched/nosuch not found.\n"
			       "Hint:\tPerhaps this kernel misses some CONFIG_ setting to enable "
			       "this feature?.\n", tracing_events_path());
	char *s = tracepoint__strerror(ENOENT, "sched", "nosuch");

	assert_string_equal(s, want);
	free(s);
	free(want);
	s = tracepoint__strerror(-ENOENT, "sdt_libc", "setjmp");
	assert_non_null(strstr(s, "SDT event cannot be directly recorded on.\n"
				  "\tPlease first use 'pcl probe sdt_libc:setjmp'"));
	free(s);
	s = tracepoint__strerror(EACCES, "sched", NULL);
	assert_non_null(strstr(s, "Error:\tNo permissions to read "));
	assert_non_null(strstr(s, "/sched/*\nHint:\tTry 'sudo mount -o remount,mode=755 "));
	free(s);
	s = tracepoint__strerror(EIO, "a", "b");
	assert_string_equal(s, strerror(EIO));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_id, need_tracefs),
		cmocka_unit_test_setup(test_readdir, need_tracefs),
		cmocka_unit_test_setup(test_list, need_tracefs),
		cmocka_unit_test_setup(test_strerror, need_tracefs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
