/* Unit tests for core/data-cursor: bounds, byte order, counts, strings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <byteswap.h>
#include <cmocka.h>

#include "core/data/data-cursor.h"
#include "util/strbuf.h"

static void put_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

/* A perf string: u32 length, then len bytes of text (not padded here). */
static void put_str(struct strbuf *sb, const char *s, uint32_t len)
{
	put_u32(sb, len);
	strbuf_add(sb, s, len);
}

/* A u16, a u32 and a u64 back to back, read as they are or swapped. */
static void check_numbers(bool swap)
{
	const uint16_t a = 0x1234;
	const uint32_t b = 0x89abcdef;
	const uint64_t d = 0x0102030405060708ULL;
	uint8_t buf[14];
	struct data_cursor c;

	memcpy(buf, &a, 2);
	memcpy(buf + 2, &b, 4);
	memcpy(buf + 6, &d, 8);
	data_cursor__init(&c, buf, sizeof(buf), swap);
	assert_int_equal(data_cursor__u16(&c), swap ? bswap_16(a) : a);
	assert_int_equal(data_cursor__u32(&c), swap ? bswap_32(b) : b);
	assert_true(data_cursor__u64(&c) == (swap ? bswap_64(d) : d));
	assert_int_equal(data_cursor__left(&c), 0);
	assert_false(c.bad);
}

static void reads_in_host_order(void **state) { check_numbers(false); }
static void swaps_the_other_order(void **state) { check_numbers(true); }

static void short_reads_fail_and_stick(void **state)
{
	uint8_t buf[6] = { 1, 0, 0, 0, 2, 0 };
	struct data_cursor c;

	data_cursor__init(&c, buf, sizeof(buf), false);
	assert_int_equal(data_cursor__u32(&c), 1);
	assert_int_equal(data_cursor__left(&c), 2);
	assert_int_equal(data_cursor__u32(&c), 0);	/* only 2 bytes left */
	assert_true(c.bad);
	/* once bad, even a read that would fit fails */
	assert_int_equal(data_cursor__u16(&c), 0);
	assert_int_equal(data_cursor__left(&c), 0);
	assert_null(data_cursor__skip(&c, 0));
}

static void skip_stays_inside(void **state)
{
	uint8_t buf[8] = { 0 };
	struct data_cursor c;

	data_cursor__init(&c, buf, sizeof(buf), false);
	assert_ptr_equal(data_cursor__skip(&c, 3), buf);
	assert_ptr_equal(data_cursor__skip(&c, 5), buf + 3);
	assert_false(c.bad);
	assert_null(data_cursor__skip(&c, 1));
	assert_true(c.bad);

	data_cursor__init(&c, buf, sizeof(buf), false);
	assert_null(data_cursor__skip(&c, SIZE_MAX));	/* no wrap-around */
	assert_true(c.bad);
}

static void empty_buffer(void **state)
{
	struct data_cursor c;
	char *s;

	data_cursor__init(&c, NULL, 0, false);
	assert_int_equal(data_cursor__left(&c), 0);
	assert_non_null(data_cursor__skip(&c, 0));
	assert_false(c.bad);
	assert_int_equal(data_cursor__u64(&c), 0);
	assert_true(c.bad);

	/* a zero-length string is an empty one */
	uint32_t zero = 0;

	data_cursor__init(&c, &zero, sizeof(zero), false);
	s = data_cursor__str(&c);
	assert_non_null(s);
	assert_string_equal(s, "");
	assert_false(c.bad);
	free(s);
}

static void counts_are_bounded(void **state)
{
	struct data_cursor c;

	data_cursor__init(&c, "", 0, false);
	assert_int_equal(data_cursor__count(&c, 7), 7);
	assert_int_equal(data_cursor__count(&c, DATA_CURSOR_MAX_ITEMS), DATA_CURSOR_MAX_ITEMS);
	assert_false(c.bad);
	assert_int_equal(data_cursor__count(&c, DATA_CURSOR_MAX_ITEMS + 1ULL), 0);
	assert_true(c.bad);
	assert_int_equal(data_cursor__count(&c, 1), 0);	/* bad stays bad */

	data_cursor__init(&c, "", 0, false);
	assert_int_equal(data_cursor__count(&c, UINT64_MAX), 0);
	assert_true(c.bad);
}

static void strings(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct data_cursor c;
	char *s;

	put_str(&sb, "abc\0\0\0\0", 8);
	put_str(&sb, "wxyz", 4);		/* no NUL in the file */
	put_str(&sb, "12", 3);			/* length past the end */
	data_cursor__init(&c, sb.buf, sb.len - 1, false);

	s = data_cursor__str(&c);
	assert_string_equal(s, "abc");
	free(s);
	s = data_cursor__str(&c);
	assert_string_equal(s, "wxyz");
	free(s);
	assert_false(c.bad);
	assert_null(data_cursor__str(&c));
	assert_true(c.bad);
	strbuf_release(&sb);
}

static void swapped_string_length(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct data_cursor c;
	char *s;

	put_u32(&sb, bswap_32(4));
	strbuf_add(&sb, "hi\0\0", 4);
	data_cursor__init(&c, sb.buf, sb.len, true);
	s = data_cursor__str(&c);
	assert_string_equal(s, "hi");
	assert_int_equal(data_cursor__left(&c), 0);
	free(s);
	strbuf_release(&sb);
}

static void string_lists(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct data_cursor c;
	uint32_t nr;
	char **v;

	put_u32(&sb, 2);
	put_str(&sb, "one\0", 4);
	put_str(&sb, "two\0", 4);
	data_cursor__init(&c, sb.buf, sb.len, false);
	v = data_cursor__str_list(&c, &nr);
	assert_int_equal(nr, 2);
	assert_string_equal(v[0], "one");
	assert_string_equal(v[1], "two");
	assert_false(c.bad);
	str_list__free(v, nr);

	/* the count promises more strings than there are */
	data_cursor__init(&c, sb.buf, sb.len - 8, false);
	v = data_cursor__str_list(&c, &nr);
	assert_true(c.bad);
	assert_string_equal(v[0], "one");
	assert_null(v[nr - 1]);
	str_list__free(v, nr);
	strbuf_release(&sb);
}

static void absurd_list_count(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct data_cursor c;
	uint32_t nr = 99;
	char **v;

	put_u32(&sb, 0xffffffffu);
	data_cursor__init(&c, sb.buf, sb.len, false);
	v = data_cursor__str_list(&c, &nr);
	assert_true(c.bad);
	assert_int_equal(nr, 0);
	assert_non_null(v);
	str_list__free(v, nr);
	str_list__free(NULL, 3);
	strbuf_release(&sb);
}

static void swaps_words_in_place(void **state)
{
	uint8_t buf[9] = { 0xaa, 1, 2, 3, 4, 5, 6, 7, 8 };	/* +1: unaligned */
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	memcpy(&v64, buf + 1, 8);
	swap_in_place(buf + 1, 8);
	assert_true(memcmp(buf, (uint8_t[]){ 0xaa, 8, 7, 6, 5, 4, 3, 2, 1 }, 9) == 0);
	swap_in_place(buf + 1, 8);
	assert_true(memcmp(buf + 1, &v64, 8) == 0);

	v32 = 0x11223344;
	swap_in_place(&v32, 4);
	assert_int_equal(v32, 0x44332211);
	v16 = 0xabcd;
	swap_in_place(&v16, 2);
	assert_int_equal(v16, 0xcdab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_in_host_order),
		cmocka_unit_test(swaps_the_other_order),
		cmocka_unit_test(short_reads_fail_and_stick),
		cmocka_unit_test(skip_stays_inside),
		cmocka_unit_test(empty_buffer),
		cmocka_unit_test(counts_are_bounded),
		cmocka_unit_test(strings),
		cmocka_unit_test(swapped_string_length),
		cmocka_unit_test(string_lists),
		cmocka_unit_test(absurd_list_count),
		cmocka_unit_test(swaps_words_in_place),
	};
	return cmocka_run_group_tests_name("data-cursor", tests, NULL, NULL);
}
