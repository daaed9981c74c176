/* Unit tests for util/perfconfig: perf's (git's) file syntax, the order
 * items keep, later files overriding earlier ones, writing back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/perfconfig.h"

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/test-perfconfig-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_syntax(void **state)
{
	char *path = write_temp("# comment\n[Report]\n  Children = false ; note\n"
				"[annotate \"Sub\"]\n\tfoo = \"a b\" # c\n\tbar = x\\ty  \n"
				"\thide_src_code = 1\n");
	struct perfconfig c = { 0 };

	assert_int_equal(perfconfig__read_file(&c, path, false), 0);
	assert_string_equal(perfconfig__get(&c, "report.children"), "false");
	/* the section is "annotate", the name "Sub.foo" (split at the first dot) */
	assert_int_equal(c.nr, 2);
	assert_string_equal(c.sections[1].name, "annotate");
	assert_string_equal(perfconfig__get(&c, "annotate.Sub.foo"), "a b");
	assert_string_equal(perfconfig__get(&c, "annotate.Sub.bar"), "x\ty");
	assert_string_equal(perfconfig__get(&c, "annotate.Sub.hide_src_code"), "1");
	assert_null(perfconfig__get(&c, "report.sort_order"));
	perfconfig__release(&c);
	unlink(path);
	free(path);
}

static void test_bad_lines(void **state)
{
	static const char *const bad[] = {
		"[report\nx = 1\n", "x = 1\n", "[report]\n\tchildren\n", "[report]\n\tx = \"open\n",
	};
	static const int lines[] = { 2, 1, 2, 2 };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *path = write_temp(bad[i]);
		struct perfconfig c = { 0 };

		assert_int_equal(perfconfig__read_file(&c, path, false), lines[i]);
		assert_int_equal(c.nr, 0);	/* nothing of a bad file is kept */
		unlink(path);
		free(path);
	}
}

static void test_override_and_write(void **state)
{
	char *sys = write_temp("[report]\n\tchildren = true\n\tsort_order = dso\n");
	char *user = write_temp("[ui]\n\tshow-headers = false\n[report]\n\tchildren = no\n");
	struct perfconfig c = { 0 };
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	bool b;

	assert_int_equal(perfconfig__read_file(&c, sys, true), 0);
	assert_int_equal(perfconfig__read_file(&c, user, false), 0);
	/* first appearance decides the order, the last file the value */
	assert_string_equal(c.sections[0].name, "report");
	assert_string_equal(c.sections[0].items[0].name, "children");
	assert_string_equal(perfconfig__get(&c, "report.children"), "no");
	perfconfig__set(&c, "ui.color", "never", false);
	perfconfig__write(&c, f, false);
	fclose(f);
	assert_string_equal(text, "# this file is auto-generated.\n[report]\n\tchildren = no\n"
			    "[ui]\n\tshow-headers = false\n\tcolor = never\n");
	assert_true(perfconfig__bool("No", &b) && !b);
	assert_true(perfconfig__bool("on", &b) && b);
	assert_true(perfconfig__bool("2", &b) && b);
	assert_false(perfconfig__bool("maybe", &b));
	free(text);
	perfconfig__release(&c);
	unlink(sys);
	unlink(user);
	free(sys);
	free(user);
}

/* Commands' defaults: $PERF_CONFIG read on the first call, kept after. */
static void test_defaults(void **state)
{
	char *path = write_temp("[stat]\n\tbig-num = off\n[kmem]\n\tdefault = page\n"
				"[trace]\n\tshow_duration = maybe\n");

	(void)state;
	setenv("PERF_CONFIG", path, 1);
	assert_string_equal(perfconfig__default("kmem.default"), "page");
	assert_false(perfconfig__default_bool("stat.big-num", true));
	assert_true(perfconfig__default_bool("trace.show_duration", true));	/* not a bool */
	assert_false(perfconfig__default_bool("trace.show_zeros", false));	/* unset */
	unlink(path);
	assert_string_equal(perfconfig__default("kmem.default"), "page");
	assert_null(perfconfig__default("kmem"));
	unsetenv("PERF_CONFIG");
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_override_and_write),
		cmocka_unit_test(test_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
