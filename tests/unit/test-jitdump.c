/* Unit tests for the jitdump reader: a dump with every record kind reads
 * back field for field (also written in the other byte order), and each
 * kind of damage gives an error naming the offset and the reason, with the
 * records before it still read. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <byteswap.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "core/data/jitdump.h"

struct dump {
	uint8_t buf[4096];
	size_t len;
	bool swap;		/* write the other byte order */
};

static void put(struct dump *d, const void *p, size_t n)
{
	assert_true(d->len + n <= sizeof(d->buf));
	memcpy(d->buf + d->len, p, n);
	d->len += n;
}

static void put32(struct dump *d, uint32_t v)
{
	v = d->swap ? bswap_32(v) : v;
	put(d, &v, 4);
}

static void put64(struct dump *d, uint64_t v)
{
	v = d->swap ? bswap_64(v) : v;
	put(d, &v, 8);
}

static void header(struct dump *d, uint32_t version)
{
	put32(d, JITDUMP_MAGIC);
	put32(d, version);
	put32(d, 40);
	put32(d, EM_X86_64);
	put32(d, 0);
	put32(d, 1234);		/* pid */
	put64(d, 1000);		/* timestamp */
	put64(d, 0);		/* flags */
}

static size_t prefix(struct dump *d, uint32_t id, uint64_t timestamp)
{
	size_t at = d->len;

	put32(d, id);
	put32(d, 0);		/* total size, set by end() */
	put64(d, timestamp);
	return at;
}

static void end(struct dump *d, size_t at)
{
	uint32_t size = (uint32_t)(d->len - at);

	size = d->swap ? bswap_32(size) : size;
	memcpy(d->buf + at + 4, &size, 4);
}

static const uint8_t code[4] = { 0x90, 0x90, 0x90, 0xc3 };

static void load(struct dump *d, const char *name, uint64_t addr, uint64_t index)
{
	size_t at = prefix(d, JIT_CODE_LOAD, 2000 + index);

	put32(d, 1234);
	put32(d, 1235);
	put64(d, addr);
	put64(d, addr);
	put64(d, sizeof(code));
	put64(d, index);
	put(d, name, strlen(name) + 1);
	put(d, code, sizeof(code));
	end(d, at);
}

/* header, DEBUG_INFO (2 entries), UNWINDING_INFO, LOAD, MOVE, an unknown
 * record kind, CLOSE */
static void full_dump(struct dump *d)
{
	static const uint8_t unwind[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	size_t at;

	header(d, 1);
	at = prefix(d, JIT_CODE_DEBUG_INFO, 1500);
	put64(d, 0x5000);
	put64(d, 2);
	put64(d, 0x5000);
	put32(d, 7);
	put32(d, 0);
	put(d, "a.js", 5);
	put64(d, 0x5002);
	put32(d, 9);
	put32(d, 1);
	put(d, "b.js", 5);
	end(d, at);
	at = prefix(d, JIT_CODE_UNWINDING_INFO, 1600);
	put64(d, sizeof(unwind));
	put64(d, 4);
	put64(d, 16);
	put(d, unwind, sizeof(unwind));
	end(d, at);
	load(d, "fn_one", 0x5000, 1);
	at = prefix(d, JIT_CODE_MOVE, 3000);
	put32(d, 1234);
	put32(d, 1236);
	put64(d, 0x6000);
	put64(d, 0x5000);
	put64(d, 0x6000);
	put64(d, sizeof(code));
	put64(d, 1);
	end(d, at);
	at = prefix(d, 77, 3100);
	put64(d, 0);
	end(d, at);
	at = prefix(d, JIT_CODE_CLOSE, 4000);
	end(d, at);
}

static void check_full_dump(struct dump *d)
{
	struct jitdump jd;
	struct jit_record r;
	char *err = NULL;

	assert_int_equal(jitdump__open(&jd, d->buf, d->len, &err), 0);
	assert_int_equal(jd.swapped, d->swap);
	assert_int_equal(jd.pid, 1234);
	assert_int_equal(jd.elf_mach, EM_X86_64);

	assert_int_equal(jitdump__next(&jd, &r, &err), 1);
	assert_int_equal(r.id, JIT_CODE_DEBUG_INFO);
	assert_int_equal(r.offset, 40);
	assert_int_equal(r.timestamp, 1500);
	assert_int_equal(r.debug.code_addr, 0x5000);
	assert_int_equal(r.debug.nr_entries, 2);
	assert_int_equal(r.debug.entries[1].addr, 0x5002);
	assert_int_equal(r.debug.entries[1].line, 9);
	assert_int_equal(r.debug.entries[1].discrim, 1);
	assert_string_equal(r.debug.entries[0].file, "a.js");
	assert_string_equal(r.debug.entries[1].file, "b.js");

	assert_int_equal(jitdump__next(&jd, &r, &err), 1);
	assert_int_equal(r.id, JIT_CODE_UNWINDING_INFO);
	assert_int_equal(r.unwind.unwinding_size, 12);
	assert_int_equal(r.unwind.eh_frame_hdr_size, 4);
	assert_int_equal(r.unwind.mapped_size, 16);
	assert_int_equal(r.unwind.data[11], 12);

	assert_int_equal(jitdump__next(&jd, &r, &err), 1);
	assert_int_equal(r.id, JIT_CODE_LOAD);
	assert_int_equal(r.load.pid, 1234);
	assert_int_equal(r.load.tid, 1235);
	assert_int_equal(r.load.code_addr, 0x5000);
	assert_int_equal(r.load.code_size, 4);
	assert_int_equal(r.load.code_index, 1);
	assert_string_equal(r.load.name, "fn_one");
	assert_memory_equal(r.load.code, code, sizeof(code));

	assert_int_equal(jitdump__next(&jd, &r, &err), 1);
	assert_int_equal(r.id, JIT_CODE_MOVE);
	assert_int_equal(r.timestamp, 3000);
	assert_int_equal(r.move.tid, 1236);
	assert_int_equal(r.move.old_code_addr, 0x5000);
	assert_int_equal(r.move.new_code_addr, 0x6000);
	assert_int_equal(r.move.code_index, 1);

	assert_int_equal(jitdump__next(&jd, &r, &err), 1);	/* unknown: passed over */
	assert_int_equal(r.id, 77);
	assert_int_equal(jitdump__next(&jd, &r, &err), 1);
	assert_int_equal(r.id, JIT_CODE_CLOSE);
	assert_int_equal(jitdump__next(&jd, &r, &err), 0);
	assert_null(err);
	jitdump__exit(&jd);
}

static void test_every_record_kind(void **state)
{
	struct dump d = { .len = 0 };

	(void)state;
	full_dump(&d);
	check_full_dump(&d);
}

static void test_other_byte_order(void **state)
{
	struct dump d = { .swap = true };

	(void)state;
	full_dump(&d);
	check_full_dump(&d);
}

static void expect_open_error(struct dump *d, const char *msg)
{
	struct jitdump jd;
	char *err = NULL;

	assert_int_equal(jitdump__open(&jd, d->buf, d->len, &err), -1);
	assert_non_null(err);
	assert_string_equal(err, msg);
	free(err);
	jitdump__exit(&jd);
}

static void test_bad_headers(void **state)
{
	struct dump d = { .len = 0 };

	(void)state;
	header(&d, 1);
	d.len = 39;
	expect_open_error(&d, "offset 0: file too short for a jitdump header");
	d.len = 0;
	header(&d, 1);
	d.buf[0] ^= 0xff;
	expect_open_error(&d, "offset 0: bad magic, not a jitdump");
	d.len = 0;
	header(&d, 2);
	expect_open_error(&d, "offset 0x4: version 2, only 1 is known");
	d.len = 0;
	header(&d, 1);
	d.buf[8] = 200;		/* header size past the end */
	expect_open_error(&d, "offset 0x8: header size out of bounds");
}

/* The record after a good LOAD (0x28..0x6b: 56 bytes, the name, 4 of code)
 * is damaged: the LOAD reads, then the error names the damaged field. */
static void expect_second_record_error(struct dump *d, const char *msg)
{
	struct jitdump jd;
	struct jit_record r;
	char *err = NULL;

	assert_int_equal(jitdump__open(&jd, d->buf, d->len, &err), 0);
	assert_int_equal(jitdump__next(&jd, &r, &err), 1);
	assert_int_equal(r.id, JIT_CODE_LOAD);
	assert_int_equal(jitdump__next(&jd, &r, &err), -1);
	assert_non_null(err);
	assert_string_equal(err, msg);
	free(err);
	jitdump__exit(&jd);
}

static void good_start(struct dump *d)
{
	d->len = 0;
	header(d, 1);
	load(d, "fn_one", 0x5000, 1);
}

static void test_damaged_records(void **state)
{
	struct dump d;
	size_t at;

	(void)state;
	good_start(&d);
	put32(&d, JIT_CODE_CLOSE);	/* a torn prefix */
	expect_second_record_error(&d, "offset 0x6b: truncated record prefix");

	good_start(&d);
	at = prefix(&d, JIT_CODE_CLOSE, 1);
	d.buf[at + 4] = 8;
	expect_second_record_error(&d, "offset 0x6f: record size smaller than its prefix");

	good_start(&d);
	at = prefix(&d, JIT_CODE_CLOSE, 1);
	d.buf[at + 4] = 64;
	expect_second_record_error(&d, "offset 0x6f: record runs past the end of the file");

	good_start(&d);
	at = prefix(&d, JIT_CODE_LOAD, 1);
	put32(&d, 1);
	end(&d, at);
	expect_second_record_error(&d, "offset 0x7f: record too short for its tid");

	good_start(&d);
	at = prefix(&d, JIT_CODE_LOAD, 1);
	put32(&d, 1);
	put32(&d, 1);
	for (int i = 0; i < 4; i++)
		put64(&d, 0);
	put(&d, "no_nul", 6);
	end(&d, at);
	expect_second_record_error(&d,
				   "offset 0xa3: function name not terminated inside the record");

	good_start(&d);
	at = prefix(&d, JIT_CODE_LOAD, 1);
	put32(&d, 1);
	put32(&d, 1);
	put64(&d, 0);
	put64(&d, 0);
	put64(&d, 100);		/* code size, with 4 bytes of code */
	put64(&d, 0);
	put(&d, "f", 2);
	put(&d, code, sizeof(code));
	end(&d, at);
	expect_second_record_error(&d, "offset 0xa5: code size runs past the record");

	good_start(&d);
	at = prefix(&d, JIT_CODE_DEBUG_INFO, 1);
	put64(&d, 0);
	put64(&d, 1000000);	/* entries, with room for none */
	end(&d, at);
	expect_second_record_error(&d, "offset 0x83: more entries than the record holds");

	good_start(&d);
	at = prefix(&d, JIT_CODE_DEBUG_INFO, 1);
	put64(&d, 0);
	put64(&d, 1);
	put64(&d, 0);
	put32(&d, 1);
	put32(&d, 0);
	put(&d, "abcdefgh", 8);
	end(&d, at);
	expect_second_record_error(&d,
				   "offset 0x9b: entry file name not terminated inside the record");

	good_start(&d);
	at = prefix(&d, JIT_CODE_UNWINDING_INFO, 1);
	put64(&d, 4);
	put64(&d, 8);		/* a header larger than the data */
	put64(&d, 0);
	put32(&d, 0);
	end(&d, at);
	expect_second_record_error(&d, "offset 0x83: eh_frame_hdr larger than the unwinding data");

	good_start(&d);
	at = prefix(&d, JIT_CODE_UNWINDING_INFO, 1);
	put64(&d, 400);
	put64(&d, 0);
	put64(&d, 0);
	end(&d, at);
	expect_second_record_error(&d, "offset 0x93: unwinding data runs past the record");
}

/* Every truncation of a good dump reads its whole records and then stops
 * with an error or cleanly, never past the buffer (checked by ASan). */
static void test_every_truncation(void **state)
{
	struct dump d = { .len = 0 };

	(void)state;
	full_dump(&d);
	for (size_t len = 0; len < d.len; len++) {
		uint8_t *copy = malloc(len + 1);
		struct jitdump jd;
		struct jit_record r;
		char *err = NULL;
		int rc;

		memcpy(copy, d.buf, len);
		if (!jitdump__open(&jd, copy, len, &err)) {
			while ((rc = jitdump__next(&jd, &r, &err)) > 0)
				;
			assert_true(rc == 0 || err);
		}
		free(err);
		jitdump__exit(&jd);
		free(copy);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_record_kind),
		cmocka_unit_test(test_other_byte_order),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_damaged_records),
		cmocka_unit_test(test_every_truncation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
