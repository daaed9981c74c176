/* Unit tests for core/analysis/syscall-table: x86_64 numbers and names
 * (perf's own table names them alike), errno names as perf's scripts. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/analysis/syscall-table.h"

static void names_numbers(void **state)
{
#ifdef __x86_64__
	assert_string_equal(syscall_table__name(0), "read");
	assert_string_equal(syscall_table__name(257), "openat");
	assert_string_equal(syscall_table__name(231), "exit_group");
	assert_int_equal(syscall_table__nr("futex"), 202);
#endif
	assert_int_equal(syscall_table__nr(syscall_table__name(1)), 1);
	assert_null(syscall_table__name(-1));
	assert_null(syscall_table__name(100000));
	assert_int_equal(syscall_table__nr("no_such_call"), -1);
}

static void errno_names(void **state)
{
	assert_string_equal(errno_table__name(-ENOENT), "ENOENT");
	assert_string_equal(errno_table__name(EBADF), "EBADF");
	/* Python's errno names of the two numbers with two names */
	assert_string_equal(errno_table__name(-EDEADLK), "EDEADLOCK");
	assert_string_equal(errno_table__name(-EOPNOTSUPP), "ENOTSUP");
	assert_null(errno_table__name(0));
	assert_null(errno_table__name(-5000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_numbers),
		cmocka_unit_test(errno_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
