/* Unit tests for util/strbuf: formatted appends that fit the room left,
 * that need the buffer to grow, and many in a row (as a report's lines);
 * "%*.2f" without printf, against printf. */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
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

/* printf's text for v, next to strbuf_add_fixed2's */
static void check_fixed2(int width, double v)
{
	struct strbuf sb = STRBUF_INIT;
	char want[512];

	snprintf(want, sizeof(want), "%*.2f", width, v);
	strbuf_addstr(&sb, "<");
	strbuf_add_fixed2(&sb, width, v);
	if (strcmp(sb.buf + 1, want))
		fail_msg("%%*.2f of %.17g (width %d): \"%s\", printf \"%s\"", v, width,
			 sb.buf + 1, want);
	strbuf_release(&sb);
}

static void test_fixed2_as_printf(void **state)
{
	uint64_t seed = 42;

	(void)state;
	/* exact halves round to even, as printf does: 0.125 -> 0.12 */
	for (int i = 0; i < 4096; i++)
		check_fixed2(6, i / 8.0);
	/* the percentages reports print: 100 * part / total */
	for (uint64_t total = 1; total < 3000; total += 7)
		for (uint64_t part = 0; part <= total; part += 1 + total / 97)
			check_fixed2(6, 100.0 * (double)part / (double)total);
	/* any bits, any width; huge, negative and odd values fall back */
	for (int i = 0; i < 200000; i++) {
		double v;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		v = (double)(seed >> 11) / (double)(1ULL << 53) * (i % 3 ? 200.0 : 1e6);
		check_fixed2(i % 12, v);
	}
	check_fixed2(6, 0.0);
	check_fixed2(6, -0.0);
	check_fixed2(6, -1.005);
	check_fixed2(6, 99.995);
	check_fixed2(6, 1e15);
	check_fixed2(6, 1e15 - 0.125);
	check_fixed2(6, 1e300);
	check_fixed2(6, 5e-324);
	check_fixed2(6, HUGE_VAL);
	check_fixed2(6, NAN);
}

static void test_column_as_printf(void **state)
{
	static const char *const texts[] = { "", "a", "perf", "[kernel.kallsyms]" };
	struct strbuf sb = STRBUF_INIT;
	char want[64];

	(void)state;
	for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
		for (int width = -20; width <= 20; width++) {
			snprintf(want, sizeof(want), "%-*.*s", width, width, texts[t]);
			strbuf_reset(&sb);
			strbuf_add_column(&sb, texts[t], width);
			assert_string_equal(strbuf_str(&sb), want);
			assert_int_equal(sb.len, strlen(want));
		}
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addf_fits_and_grows),
		cmocka_unit_test(test_addf_exactly_the_room_left),
		cmocka_unit_test(test_addf_many_appends),
		cmocka_unit_test(test_fixed2_as_printf),
		cmocka_unit_test(test_column_as_printf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
