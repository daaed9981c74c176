/* Unit tests for util/protobuf: the encodings protobuf's own documentation
 * gives as examples, byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/protobuf.h"

static void expect_bytes(struct pb_buf *b, const uint8_t *want, size_t len)
{
	assert_int_equal(b->len, len);
	assert_memory_equal(b->data, want, len);
	pb_release(b);
}

static void test_varint_field(void **state)
{
	/* the encoding guide's first example: field 1 = 150 */
	static const uint8_t want[] = { 0x08, 0x96, 0x01 };
	struct pb_buf b = { 0 };

	(void)state;
	pb_uint(&b, 1, 150);
	expect_bytes(&b, want, sizeof(want));
}

static void test_varint_edges(void **state)
{
	static const uint8_t want[] = { 0x00, 0x7f, 0x80, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f,
					/* int64 -1: two's complement, ten bytes */
					0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	struct pb_buf b = { 0 };

	(void)state;
	pb_varint(&b, 0);
	pb_varint(&b, 127);
	pb_varint(&b, 128);
	pb_varint(&b, UINT32_MAX);
	pb_varint(&b, (uint64_t)(int64_t)-1);
	expect_bytes(&b, want, sizeof(want));
}

static void test_string_field(void **state)
{
	static const uint8_t want[] = { 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g',
					0x32, 0x00 };
	struct pb_buf b = { 0 };

	(void)state;
	pb_string(&b, 2, "testing");
	pb_string(&b, 6, "");		/* pprof's string table starts with "" */
	expect_bytes(&b, want, sizeof(want));
}

static void test_nested_message(void **state)
{
	/* the guide's Test3 { Test1 c = 3; } with c.a = 150 */
	static const uint8_t want[] = { 0x1a, 0x03, 0x08, 0x96, 0x01 };
	struct pb_buf inner = { 0 }, b = { 0 };

	(void)state;
	pb_uint(&inner, 1, 150);
	pb_message(&b, 3, &inner);
	pb_release(&inner);
	expect_bytes(&b, want, sizeof(want));
}

static void test_packed_repeated(void **state)
{
	/* the guide's Test4 { repeated int32 d = 4 [packed]; } = [3, 270, 86942] */
	static const uint8_t want[] = { 0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05 };
	static const uint64_t values[] = { 3, 270, 86942 };
	struct pb_buf b = { 0 };

	(void)state;
	pb_packed(&b, 4, values, 3);
	pb_packed(&b, 5, values, 0);	/* empty: nothing at all */
	expect_bytes(&b, want, sizeof(want));
}

static void test_large_field_numbers_and_growth(void **state)
{
	struct pb_buf b = { 0 };
	char big[1000];

	(void)state;
	memset(big, 'x', sizeof(big));
	pb_bytes(&b, 16, big, sizeof(big));
	/* field 16, type 2: tag 0x82 0x01; length 1000: 0xe8 0x07 */
	assert_int_equal(b.len, 4 + sizeof(big));
	assert_int_equal(b.data[0], 0x82);
	assert_int_equal(b.data[1], 0x01);
	assert_int_equal(b.data[2], 0xe8);
	assert_int_equal(b.data[3], 0x07);
	assert_memory_equal(b.data + 4, big, sizeof(big));
	pb_reset(&b);
	assert_int_equal(b.len, 0);
	pb_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varint_field),
		cmocka_unit_test(test_varint_edges),
		cmocka_unit_test(test_string_field),
		cmocka_unit_test(test_nested_message),
		cmocka_unit_test(test_packed_repeated),
		cmocka_unit_test(test_large_field_numbers_and_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
