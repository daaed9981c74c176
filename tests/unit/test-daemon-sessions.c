/* Unit tests for core/live/daemon-sessions: the daemon's config file
 * (perf daemon's "[daemon] base" and "[session-NAME] run"), how a changed
 * config changes the running set, and run lines split into arguments. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/live/daemon-sessions.h"

static enum daemon_config_error read_text(struct daemon_config *cfg, const char *text)
{
	char path[] = "/tmp/test-daemon-sessions-XXXXXX";
	int fd = mkstemp(path);
	enum daemon_config_error err;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	err = daemon_config__read(cfg, path);
	unlink(path);
	return err;
}

static void test_read(void **state)
{
	struct daemon_config cfg;

	assert_int_equal(read_text(&cfg, "[daemon]\n\tbase = /tmp/b\n"
				   "[session-cycles]\n\trun = -m 10 -e cycles -a\n"
				   "[report]\n\tchildren = false\n"
				   "[session-]\n\trun = -a\n"
				   "[session-sleep]\n\trun = -e cpu-clock -- sleep 1\n"),
			 DAEMON_CONFIG_OK);
	assert_string_equal(cfg.base, "/tmp/b");
	/* "[session-]" names nothing; other sections are not sessions */
	assert_int_equal(cfg.nr, 2);
	assert_string_equal(cfg.sessions[0].name, "cycles");
	assert_string_equal(cfg.sessions[0].run, "-m 10 -e cycles -a");
	assert_int_equal(cfg.sessions[0].pid, -1);
	assert_string_equal(cfg.sessions[1].name, "sleep");
	assert_ptr_equal(daemon_config__find(&cfg, "sleep"), &cfg.sessions[1]);
	assert_null(daemon_config__find(&cfg, "nope"));
	daemon_config__release(&cfg);
}

static void test_read_errors(void **state)
{
	struct daemon_config cfg;

	assert_int_equal(read_text(&cfg, "[session-a]\nrun = -a\n"), DAEMON_CONFIG_NO_BASE);
	daemon_config__release(&cfg);
	assert_int_equal(read_text(&cfg, "[daemon\nbase = /tmp\n"), DAEMON_CONFIG_UNREADABLE);
	daemon_config__release(&cfg);
}

static void test_reconfig(void **state)
{
	struct daemon_config running, next;

	assert_int_equal(read_text(&running, "[daemon]\nbase=/b\n[session-keep]\nrun = -a\n"
				   "[session-gone]\nrun = -a\n[session-changed]\nrun = -e x\n"),
			 DAEMON_CONFIG_OK);
	for (size_t i = 0; i < running.nr; i++) {
		running.sessions[i].pid = 100 + (pid_t)i;
		running.sessions[i].started = 1;
	}
	assert_int_equal(read_text(&next, "[daemon]\nbase=/b\n[session-new]\nrun = -g\n"
				   "[session-changed]\nrun = -e y\n[session-keep]\nrun = -a\n"),
			 DAEMON_CONFIG_OK);
	/* gone and changed are to stop; changed (again) and new to start */
	assert_int_equal(daemon_config__reconfig(&running, &next), 4);
	assert_int_equal(running.nr, 5);
	assert_false(running.sessions[0].stale);
	assert_int_equal(running.sessions[0].pid, 100);
	assert_true(running.sessions[1].stale);
	assert_true(running.sessions[2].stale);
	assert_string_equal(daemon_config__find(&running, "changed")->run, "-e y");
	assert_int_equal(daemon_config__find(&running, "changed")->pid, -1);
	assert_int_equal(daemon_config__find(&running, "new")->started, 0);

	/* a stale session stays until it no longer runs */
	running.sessions[1].pid = -1;
	daemon_config__drop_stale(&running);
	assert_int_equal(running.nr, 4);
	assert_string_equal(running.sessions[1].name, "changed");
	assert_true(running.sessions[1].stale);

	/* the same config again changes nothing */
	assert_int_equal(daemon_config__reconfig(&running, &next), 0);
	daemon_config__release(&running);
	daemon_config__release(&next);
}

static void test_argv(void **state)
{
	size_t nr;
	char **argv = daemon_session__argv("  -e cpu-clock\t-a --  sleep 1 ", 2, &nr);

	assert_int_equal(nr, 8);
	assert_null(argv[0]);
	assert_string_equal(argv[2], "-e");
	assert_string_equal(argv[3], "cpu-clock");
	assert_string_equal(argv[4], "-a");
	assert_string_equal(argv[5], "--");
	assert_string_equal(argv[6], "sleep");
	assert_string_equal(argv[7], "1");
	assert_null(argv[8]);
	daemon_session__argv_free(argv, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_reconfig),
		cmocka_unit_test(test_argv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
