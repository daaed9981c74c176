/* Unit tests for util/strbuf: formatted appends that fit the room left,
 * that need the buffer to grow, and many in a row (as a report's lines);
 * "%*.2f" without printf, against printf. */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
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

/* printf's text for v, next to strbuf_add_fixed's */
static void check_fixed(int width, int prec, double v)
{
	struct strbuf sb = STRBUF_INIT;
	char want[512];

	snprintf(want, sizeof(want), "%*.*f", width, prec, v);
	strbuf_addstr(&sb, "<");
	strbuf_add_fixed(&sb, width, prec, v);
	if (strcmp(sb.buf + 1, want))
		fail_msg("%%*.%df of %.17g (width %d): \"%s\", printf \"%s\"", prec, v, width,
			 sb.buf + 1, want);
	strbuf_release(&sb);
}

static void test_fixed_as_printf(void **state)
{
	static const double odd[] = {
		0.0, -0.0, -1.005, 99.995, 0.5, 1.5, 2.5, 0.125, 0.001953125, 1e15,
		1e15 - 0.125, 4503599627370495.5, 1e300, -1e300, 5e-324, HUGE_VAL, -HUGE_VAL, NAN,
	};
	uint64_t seed = 42;

	(void)state;
	for (int prec = 0; prec <= 10; prec++) {
		/* exact halves round to even, as printf does: 0.125 -> 0.12 */
		for (int i = -4096; i < 4096; i++)
			check_fixed(6, prec, i / 512.0);
		for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
			check_fixed(6, prec, odd[i]);
	}
	/* the percentages reports print: 100 * part / total */
	for (uint64_t total = 1; total < 3000; total += 7)
		for (uint64_t part = 0; part <= total; part += 1 + total / 97)
			check_fixed(6, 2, 100.0 * (double)part / (double)total);
	/* any bits, any width and precision, any size a chart draws */
	for (int i = 0; i < 300000; i++) {
		static const double scale[] = { 1.0, 200.0, 1e6, 1e9, 1e12 };
		double v;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		v = (double)(seed >> 11) / (double)(1ULL << 53) * scale[i % 5];
		check_fixed(i % 12, i % 10, i & 1 ? v : -v);
	}
}

/* strbuf_addf_fast's text next to printf's for the same arguments */
#define CHECK_FAST(fmt, ...) do {						\
	struct strbuf sb_ = STRBUF_INIT;					\
	char want_[256];							\
										\
	snprintf(want_, sizeof(want_), fmt, __VA_ARGS__);			\
	strbuf_addf_fast(&sb_, fmt, __VA_ARGS__);				\
	assert_string_equal(strbuf_str(&sb_), want_);				\
	strbuf_release(&sb_);							\
} while (0)

static void test_addf_fast_as_printf(void **state)
{
	(void)state;
	CHECK_FAST("<rect x=\"%.8f\" width=\"%.8f\" y=\"%.1f\" class=\"%s\"/>\n",
		   1234.56789012345, 0.000000005, 90.25, "sample");
	CHECK_FAST("%d %i %s|%5d|%-5i|%05d", -7, 2147483647, "", 42, -3, 9);
	CHECK_FAST("%" PRIu64 " %" PRIu64 " %9" PRIu64 " %-6" PRIu64 "|", (uint64_t)0,
		   UINT64_MAX, (uint64_t)12345, (uint64_t)7);
	CHECK_FAST("%x %X %#x %08x %u", 255u, 255u, 255u, 48879u, 4000000000u);
	CHECK_FAST("%ld %lx %zu %zd", -5L, 0xdeadbeefUL, (size_t)99, (ssize_t)-99);
	CHECK_FAST("100%% %c%c %3.1f %6.2f %2.2f %.3f %f", 'o', 'k', 2.25, -0.125, 100.0, 1e-9,
		   3.0);
	CHECK_FAST("%.0f %.9f %+.2f % .2f", 2.5, 1.0 / 3.0, 1.005, 0.5);
	CHECK_FAST("%s", "no conversions after this");
	/* the padded integers written without printf */
	CHECK_FAST("|%9lu/%-5lu|%8u|%-3d|%4d|%-4ld|%12ld|", 0UL, 123456UL, 4294967295u, -1, -42,
		   -9L, -9223372036854775807L - 1);
	CHECK_FAST("|%#lx|%#x|%#18lx|%-#8x|%6x|%-6lx|", 0xffff888100000000UL, 0u, 0x1UL, 0xabu,
		   0u, 0xfUL);
	CHECK_FAST("|%1u|%1d|%20lu|", 12345u, -12345, 18446744073709551615UL);
}

static void test_decimal_digits_as_printf(void **state)
{
	static const unsigned long long values[] = {
		0, 1, 9, 10, 99, 100, 123456, 999999, 1000000, 18446744073709551615ULL,
	};
	char buf[32], want[32];

	(void)state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		for (int min = 1; min <= 8; min++) {
			char *end = buf + sizeof(buf), *p = decimal_digits(end, values[i], min);

			snprintf(want, sizeof(want), "%0*llu", min, values[i]);
			assert_int_equal(end - p, (long)strlen(want));
			assert_memory_equal(p, want, strlen(want));
		}
	}
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
		cmocka_unit_test(test_fixed_as_printf),
		cmocka_unit_test(test_addf_fast_as_printf),
		cmocka_unit_test(test_column_as_printf),
		cmocka_unit_test(test_decimal_digits_as_printf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
