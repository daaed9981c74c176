/* Unit tests for core/analysis/trace: the lines of paired, interrupted and
 * continued calls, results (errno, hex, pid), the filters and the summary
 * statistics.  Expected text is perf trace 6.1's layout; syscall formats
 * come from the real tracefs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/analysis/trace.h"
#include "core/events/tracepoint.h"

#define MS 1000000ULL
#define T0 (1000 * MS)

struct fixture {
	struct machine *m;
	struct trace t;
	struct thread *a, *b;
};

static const uint64_t write_args[SYSCALL_MAX_ARGS] = { 3, 0x7ffc00001000, 64 };
static const uint64_t no_args[SYSCALL_MAX_ARGS];

static int setup_cfg(void **state, const struct trace_config *cfg)
{
	struct fixture *f;

	if (!tracing_events_path() || tracepoint__id("syscalls", "sys_enter_write") < 0)
		skip();
	f = calloc(1, sizeof(*f));
	f->m = machine__new();
	machine__process_comm(f->m, 100, 100, "prog", false);
	machine__process_comm(f->m, 100, 101, "worker", false);
	f->a = machine__findnew_thread(f->m, 100, 100);
	f->b = machine__findnew_thread(f->m, 100, 101);
	trace__init(&f->t, cfg, f->m);
	*state = f;
	return 0;
}

static int setup(void **state)
{
	struct trace_config cfg = { .summary = true, .args_alignment = TRACE_ARGS_ALIGNMENT };

	return setup_cfg(state, &cfg);
}

static int setup_failure(void **state)
{
	struct trace_config cfg = { .failure_only = true,
				     .args_alignment = TRACE_ARGS_ALIGNMENT };

	return setup_cfg(state, &cfg);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	trace__exit(&f->t);
	machine__delete(f->m);
	free(f);
	return 0;
}

static void enter(struct fixture *f, struct thread *th, uint64_t t, const char *name,
		  const uint64_t *args)
{
	trace__account(&f->t, t, true, true);
	trace__sys_enter(&f->t, th, t, syscall__id(name), args);
}

static void leave(struct fixture *f, struct thread *th, uint64_t t, const char *name, long ret)
{
	trace__account(&f->t, t, true, true);
	trace__sys_exit(&f->t, th, t, syscall__id(name), ret, -1);
}

static void test_paired_call(void **state)
{
	struct fixture *f = *state;

	enter(f, f->a, T0, "write", write_args);
	assert_int_equal(f->t.out.len, 0);
	leave(f, f->a, T0 + 2000, "write", 64);
	assert_string_equal(strbuf_str(&f->t.out),
		"     0.000 ( 0.002 ms): prog/100 write(fd: 3, buf: 0x7ffc00001000, count: 64)"
		"                          = 64\n");
}

static void test_errno_and_continued(void **state)
{
	struct fixture *f = *state;

	leave(f, f->a, T0, "execve", 0);
	enter(f, f->a, T0 + MS, "close", (const uint64_t[SYSCALL_MAX_ARGS]){ 9 });
	leave(f, f->a, T0 + MS + 1000, "close", -9);
	assert_string_equal(strbuf_str(&f->t.out),
		"         ? (         ): prog/100  ... [continued]: execve())"
		"                                           = 0\n"
		"     1.000 ( 0.001 ms): prog/100 close(fd: 9)"
		"                                                          "
		"= -1 EBADF (Bad file descriptor)\n");
}

static void test_interrupted(void **state)
{
	struct fixture *f = *state;

	enter(f, f->a, T0, "write", write_args);
	enter(f, f->b, T0 + 1000, "getpid", no_args);
	leave(f, f->b, T0 + 2000, "getpid", 100);
	leave(f, f->a, T0 + 3000, "write", 64);
	assert_string_equal(strbuf_str(&f->t.out),
		"     0.000 (         ): prog/100 write(fd: 3, buf: 0x7ffc00001000, count: 64)"
		"                       ...\n"
		"     0.001 ( 0.001 ms): worker/101 getpid()"
		"                                                              = 100\n"
		"     0.000 ( 0.003 ms): prog/100  ... [continued]: write())"
		"                                            = 64\n");
}

static void test_failure_only(void **state)
{
	struct fixture *f = *state;

	enter(f, f->a, T0, "write", write_args);
	leave(f, f->a, T0 + 1000, "write", 64);
	assert_int_equal(f->t.out.len, 0);
	enter(f, f->a, T0 + 2000, "write", write_args);
	leave(f, f->a, T0 + 3000, "write", -11);
	assert_non_null(strstr(strbuf_str(&f->t.out), "= -1 EAGAIN (Resource temporarily"));
}

/* perf's message for the kernel-internal ERESTART* numbers libc cannot name */
static void test_internal_errno(void **state)
{
	struct fixture *f = *state;

	enter(f, f->a, T0, "getpid", no_args);
	leave(f, f->a, T0 + 1000, "getpid", -514);
	assert_non_null(strstr(strbuf_str(&f->t.out),
			       "= -1 (unknown) "
			       "(INTERNAL ERROR: strerror_r(514, [buf], 128)=22)\n"));
}

static void test_stats(void **state)
{
	struct fixture *f = *state;
	const struct trace_thread *tt;
	const struct syscall_stats *s;

	for (int i = 0; i < 4; i++) {
		enter(f, f->a, T0 + i * MS, "write", write_args);
		leave(f, f->a, T0 + i * MS + (i + 1) * 1000, "write", i == 3 ? -28 : 64);
	}
	tt = trace__thread(&f->t, f->a);
	assert_non_null(tt);
	assert_int_equal(tt->nr_events, 8);
	s = tt->stats[syscall__id("write")];
	assert_int_equal((int)s->stats.n, 4);
	assert_int_equal(s->nr_failures, 1);
	assert_int_equal(s->min, 1000);
	assert_int_equal(s->max, 4000);
	assert_true(stats__avg(&s->stats) == 2500.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_paired_call, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errno_and_continued, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_only, setup_failure, teardown),
		cmocka_unit_test_setup_teardown(test_internal_errno, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stats, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
