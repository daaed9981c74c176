/* Unit tests for util/json: the string escapes perf's JSON export uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/json.h"

/* What json_write_string() writes for s. */
static char *escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	json_write_string(f, s);
	fclose(f);
	return buf;
}

static void check(const char *in, const char *want)
{
	char *got = escaped(in);

	assert_string_equal(got, want);
	free(got);
}

static void test_plain_text_is_quoted(void **state)
{
	(void)state;
	check("perf_iterate_sb.constprop.0", "\"perf_iterate_sb.constprop.0\"");
	check("", "\"\"");
	check(NULL, "\"\"");
}

static void test_named_escapes(void **state)
{
	(void)state;
	check("a\"b\\c", "\"a\\\"b\\\\c\"");
	check("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
}

static void test_other_controls_as_hex(void **state)
{
	(void)state;
	check("\x01x\x1f", "\"\\u0001x\\u001f\"");
}

static void test_utf8_passes_through(void **state)
{
	(void)state;
	/* perf 6.1 writes \uffffffc3\uffffffa9 here, which no parser accepts */
	check("tr\xc3\xa9", "\"tr\xc3\xa9\"");
	check("\x7f", "\"\x7f\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_text_is_quoted),
		cmocka_unit_test(test_named_escapes),
		cmocka_unit_test(test_other_controls_as_hex),
		cmocka_unit_test(test_utf8_passes_through),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
