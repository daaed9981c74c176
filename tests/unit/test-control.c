/* Unit tests for core/live/control: the --control spec, the command words
 * and the exchange over a pipe (perf's "ack\n" with its NUL). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "core/live/control.h"

static void specs(void **state)
{
	struct control c;

	assert_int_equal(control__open(&c, "fd:7"), 0);
	assert_int_equal(c.fd, 7);
	assert_int_equal(c.ack_fd, -1);
	assert_int_equal(control__open(&c, "fd:7,8"), 0);
	assert_int_equal(c.ack_fd, 8);
	control__close(&c);	/* not ours: nothing is closed */
	assert_int_equal(control__open(&c, "foo"), -1);
	assert_int_equal(control__open(&c, "fd:"), -1);
	assert_int_equal(control__open(&c, "fd:abc"), -1);
	assert_int_equal(control__open(&c, "fd:3x"), -1);
	assert_int_equal(control__open(&c, "fd:3,"), -1);
	assert_int_equal(control__open(&c, "fifo:"), -1);
	assert_null(c.failed_path);
	assert_int_equal(control__open(&c, "fifo:/nonexistent/ctl"), -1);
	assert_string_equal(c.failed_path, "/nonexistent/ctl");
	control__close(&c);
}

static void words(void **state)
{
	const char *arg;

	assert_int_equal(control__parse_line("enable", &arg), CONTROL_ENABLE);
	assert_string_equal(arg, "");
	assert_int_equal(control__parse_line("disable cycles", &arg), CONTROL_DISABLE);
	assert_string_equal(arg, "cycles");
	assert_int_equal(control__parse_line("snapshot", &arg), CONTROL_SNAPSHOT);
	assert_int_equal(control__parse_line("evlist", &arg), CONTROL_EVLIST);
	assert_int_equal(control__parse_line("stop", &arg), CONTROL_STOP);
	assert_int_equal(control__parse_line("ping", &arg), CONTROL_PING);
	assert_int_equal(control__parse_line("ack", &arg), CONTROL_ACK);
	assert_int_equal(control__parse_line("bogus", &arg), CONTROL_UNSUPPORTED);
}

static void exchange(void **state)
{
	int in[2], out[2];
	char buf[64], *spec;
	const char *arg;
	struct control c;

	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	spec = NULL;
	assert_true(asprintf(&spec, "fd:%d,%d", in[0], out[1]) > 0);
	assert_int_equal(control__open(&c, spec), 0);
	free(spec);
	assert_int_equal(control__receive(&c, 0, buf, sizeof(buf), &arg), CONTROL_NONE);
	assert_int_equal(write(in[1], "enable\nping\n", 12), 12);
	assert_int_equal(control__receive(&c, 1000, buf, sizeof(buf), &arg), CONTROL_ENABLE);
	control__ack(&c);
	/* the second line stays for the next read */
	assert_int_equal(control__receive(&c, 1000, buf, sizeof(buf), &arg), CONTROL_PING);
	control__ack(&c);
	assert_int_equal(read(out[0], buf, sizeof(buf)), 10);
	assert_memory_equal(buf, "ack\n\0ack\n\0", 10);
	close(in[0]);
	close(in[1]);
	close(out[0]);
	close(out[1]);
}

static void fifos(void **state)
{
	char dir[] = "/tmp/pcl-control-XXXXXX", ctl[64], ack[64], *spec = NULL;
	struct control c;

	assert_non_null(mkdtemp(dir));
	snprintf(ctl, sizeof(ctl), "%s/ctl", dir);
	snprintf(ack, sizeof(ack), "%s/ack", dir);
	assert_int_equal(mkfifo(ctl, 0600), 0);
	assert_int_equal(mkfifo(ack, 0600), 0);
	assert_true(asprintf(&spec, "fifo:%s,%s", ctl, ack) > 0);
	/* opening does not wait for the other ends */
	assert_int_equal(control__open(&c, spec), 0);
	assert_true(c.fd >= 0 && c.ack_fd >= 0);
	control__close(&c);
	free(spec);
	unlink(ctl);
	unlink(ack);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(specs),
		cmocka_unit_test(words),
		cmocka_unit_test(exchange),
		cmocka_unit_test(fifos),
	};
	return cmocka_run_group_tests_name("control", tests, NULL, NULL);
}
