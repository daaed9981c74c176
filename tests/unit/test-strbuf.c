/* Unit tests for util/strbuf: formatted appends that fit the room left,
 * that need the buffer to grow, and many in a row (as a report's lines). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "util/strbuf.h"

static void test_addf_fits_and_grows(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char big[1000];

	(void)state;
	strbuf_addf(&sb, "%6.2f%%", 12.345);
	assert_string_equal(strbuf_str(&sb), " 12.35%");
	assert_int_equal(sb.len, 7);
	/* longer than all the room left: formatted again after growing */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	strbuf_addf(&sb, "[%s]", big);
	assert_int_equal(sb.len, 7 + 2 + 999);
	assert_int_equal(sb.buf[7], '[');
	assert_int_equal(sb.buf[sb.len - 1], ']');
	assert_int_equal(sb.buf[sb.len], '\0');
	assert_int_equal(strspn(sb.buf + 8, "x"), 999);
	strbuf_release(&sb);
}

static void test_addf_exactly_the_room_left(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	/* every length around the first allocation's size */
	for (int n = 50; n < 80; n++) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "ab");
		strbuf_addf(&sb, "%-*s|", n, "c");
		assert_int_equal(sb.len, 2 + n + 1);
		assert_int_equal(sb.buf[sb.len - 1], '|');
		assert_int_equal(sb.buf[sb.len], '\0');
		assert_int_equal((int)strlen(sb.buf), (int)sb.len);
	}
	strbuf_release(&sb);
}

static void test_addf_many_appends(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char want[32];
	size_t at = 0;

	(void)state;
	for (int i = 0; i < 5000; i++)
		strbuf_addf(&sb, "%d,", i);
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(want, sizeof(want), "%d,", i);

		assert_memory_equal(sb.buf + at, want, (size_t)n);
		at += (size_t)n;
	}
	assert_int_equal(sb.len, at);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addf_fits_and_grows),
		cmocka_unit_test(test_addf_exactly_the_room_left),
		cmocka_unit_test(test_addf_many_appends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
