/* Unit tests for ui/export-ctf: the names, strings and integers of
 * tracepoint fields as perf 6.1 puts them into a CTF trace (checked against
 * perf's traces: ipi_send_cpumask's callsite is "_callsite" in its metadata,
 * a comm "tré" is "tr\xc3\xa9"). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "ui/export-ctf.h"

static void keywords_get_an_underscore(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(ctf_field_name("callsite", buf, sizeof(buf)), "_callsite");
	assert_string_equal(ctf_field_name("event", buf, sizeof(buf)), "_event");
	assert_string_equal(ctf_field_name("align", buf, sizeof(buf)), "_align");
	assert_string_equal(ctf_field_name("prev_comm", buf, sizeof(buf)), "prev_comm");
	assert_string_equal(ctf_field_name("__syscall_nr", buf, sizeof(buf)), "__syscall_nr");
	assert_string_equal(ctf_field_name("events", buf, sizeof(buf)), "events");
}

static void unprintable_bytes_are_escaped(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(ctf_printable(out, "tr\xc3\xa9", 16), 10);
	assert_string_equal(out, "tr\\xc3\\xa9");
	assert_int_equal(ctf_printable(out, "a\tb", 16), 6);
	assert_string_equal(out, "a\\x09b");
	/* a char[4] without its NUL stops at the field's end */
	assert_int_equal(ctf_printable(out, "abcdefgh", 4), 4);
	assert_string_equal(out, "abcd");
	assert_int_equal(ctf_printable(out, "", 4), 0);
}

static void numbers_of_each_size(void **state)
{
	const uint8_t bytes[8] = { 0xfe, 0xff, 0xff, 0xff, 0x01, 0, 0, 0x80 };
	struct tep_handle *tep = tep_alloc();

	(void)state;
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	assert_int_equal(ctf_read_number(tep, bytes, 1, false), 0xfe);
	assert_int_equal((int64_t)ctf_read_number(tep, bytes, 1, true), -2);
	assert_int_equal((int64_t)ctf_read_number(tep, bytes, 2, true), -2);
	assert_int_equal(ctf_read_number(tep, bytes, 4, false), 0xfffffffe);
	assert_int_equal((int64_t)ctf_read_number(tep, bytes, 4, true), -2);
	assert_int_equal(ctf_read_number(tep, bytes, 8, false), 0x80000001fffffffeULL);
	assert_int_equal((int64_t)ctf_read_number(tep, bytes + 4, 4, true), -2147483647);
	/* libtraceevent reads no other size */
	assert_int_equal(ctf_read_number(tep, bytes, 3, false), 0);
	assert_int_equal(ctf_read_number(tep, bytes, 16, true), 0);
	/* a big-endian file's fields are swapped */
	tep_set_file_bigendian(tep, TEP_BIG_ENDIAN);
	assert_int_equal(ctf_read_number(tep, bytes + 4, 4, false), 0x01000080);
	assert_int_equal((int64_t)ctf_read_number(tep, bytes, 2, true), -257);	/* 0xfeff */
	tep_free(tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keywords_get_an_underscore),
		cmocka_unit_test(unprintable_bytes_are_escaped),
		cmocka_unit_test(numbers_of_each_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
