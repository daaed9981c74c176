/* Unit tests for core/ringbuf: a fake kernel writes records into a memfd
 * mapped like a perf ring buffer; the reader must copy them out whole,
 * including across the wrap point, and move data_tail (or, for an overwrite
 * ring, take the newest records, newest first). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/live/ringbuf.h"
#include "fake-ring.h"

static struct fake_ring fake;
static unsigned char out[65536];

static int setup(void **state)
{
	fake_ring__create(&fake);
	return 0;
}

static int teardown(void **state)
{
	fake_ring__destroy(&fake);
	return 0;
}

static void reads_records_in_order(void **state)
{
	struct ringbuf rb;
	struct perf_event_mmap_page *pc = fake_ring__control(&fake);
	size_t pos = 0;

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 3, 1, false), 0);
	assert_int_equal(ringbuf__data_size(&rb), fake.data_size);
	assert_int_equal(ringbuf__take(&rb, out), 0);

	fake_ring__write(&fake, PERF_RECORD_SAMPLE, 40, 0xaa);
	fake_ring__write(&fake, PERF_RECORD_COMM, 64, 0xbb);
	assert_int_equal(ringbuf__take(&rb, out), 104);
	fake_ring__check(out, &pos, PERF_RECORD_SAMPLE, 40, 0xaa);
	fake_ring__check(out, &pos, PERF_RECORD_COMM, 64, 0xbb);
	/* Handed back to the kernel, and not read twice. */
	assert_int_equal(pc->data_tail, 104);
	assert_int_equal(ringbuf__take(&rb, out), 0);
	ringbuf__munmap(&rb);
}

static void record_across_wrap_is_whole(void **state)
{
	struct ringbuf rb;
	struct perf_event_mmap_page *pc = fake_ring__control(&fake);
	size_t pos = 0;
	int n = 0;

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 0, 1, false), 0);
	/* Fill close to the end, drain, then write one record that wraps. */
	while (fake.head + 200 < fake.data_size)
		fake_ring__write(&fake, PERF_RECORD_SAMPLE, 200, (unsigned char)n++);
	assert_int_equal(ringbuf__take(&rb, out), (size_t)n * 200);
	for (int i = 0; i < n; i++)
		fake_ring__check(out, &pos, PERF_RECORD_SAMPLE, 200, (unsigned char)i);
	fake_ring__write(&fake, PERF_RECORD_MMAP2, 256, 0x5c);	/* crosses the end */
	fake_ring__write(&fake, PERF_RECORD_LOST, 24, 0x11);
	assert_int_equal(ringbuf__take(&rb, out), 280);
	pos = 0;
	fake_ring__check(out, &pos, PERF_RECORD_MMAP2, 256, 0x5c);
	fake_ring__check(out, &pos, PERF_RECORD_LOST, 24, 0x11);
	assert_int_equal(pc->data_tail, fake.head);
	ringbuf__munmap(&rb);
}

static void header_split_by_wrap(void **state)
{
	struct ringbuf rb;
	size_t pos = 0;

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 0, 1, false), 0);
	/* Leave 4 bytes before the end, so the next header itself wraps. */
	while (fake.data_size - 4 - fake.head > 256)
		fake_ring__write(&fake, PERF_RECORD_SAMPLE, 256, 1);
	fake_ring__write(&fake, PERF_RECORD_SAMPLE, (uint16_t)(fake.data_size - 4 - fake.head), 2);
	assert_int_equal(ringbuf__take(&rb, out), fake.data_size - 4);
	fake_ring__write(&fake, PERF_RECORD_THROTTLE, 32, 3);
	assert_int_equal(ringbuf__take(&rb, out), 32);
	fake_ring__check(out, &pos, PERF_RECORD_THROTTLE, 32, 3);
	ringbuf__munmap(&rb);
}

static void corrupt_size_skips_rest(void **state)
{
	struct ringbuf rb;
	struct perf_event_mmap_page *pc = fake_ring__control(&fake);

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 0, 1, false), 0);
	fake_ring__write(&fake, PERF_RECORD_SAMPLE, 40, 8);
	fake_ring__write(&fake, PERF_RECORD_SAMPLE, 4, 0);	/* smaller than a header */
	fake_ring__write(&fake, PERF_RECORD_SAMPLE, 40, 9);
	/* The good record before it comes out; the rest is released unread. */
	assert_int_equal(ringbuf__take(&rb, out), 40);
	assert_int_equal(pc->data_tail, fake.head);
	ringbuf__munmap(&rb);
}

static void overwrite_ring_newest_first(void **state)
{
	struct ringbuf rb;
	size_t pos = 0;

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 1, 1, true), 0);
	fake_ring__write_backward(&fake, PERF_RECORD_SAMPLE, 40, 1);
	fake_ring__write_backward(&fake, PERF_RECORD_COMM, 64, 2);
	assert_int_equal(ringbuf__take(&rb, out), 104);
	fake_ring__check(out, &pos, PERF_RECORD_COMM, 64, 2);
	fake_ring__check(out, &pos, PERF_RECORD_SAMPLE, 40, 1);
	/* Only what came after the last take. */
	fake_ring__write_backward(&fake, PERF_RECORD_SAMPLE, 48, 3);
	assert_int_equal(ringbuf__take(&rb, out), 48);
	pos = 0;
	fake_ring__check(out, &pos, PERF_RECORD_SAMPLE, 48, 3);
	/* The reader never moves the tail of an overwrite ring. */
	assert_int_equal(fake_ring__control(&fake)->data_tail, 0);
	ringbuf__munmap(&rb);
}

static void overwrite_ring_lapped_keeps_whole_records(void **state)
{
	struct ringbuf rb;
	size_t pos = 0, expect;
	int n = 0;

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 1, 1, true), 0);
	/* 200-byte records lap the ring: the oldest one in it is cut. */
	while (n * 200 < (int)fake.data_size * 2)
		fake_ring__write_backward(&fake, PERF_RECORD_SAMPLE, 200, (unsigned char)n++);
	expect = fake.data_size / 200 * 200;
	assert_int_equal(ringbuf__take(&rb, out), expect);
	for (size_t i = 0; i < expect / 200; i++)
		fake_ring__check(out, &pos, PERF_RECORD_SAMPLE, 200,
				 (unsigned char)(n - 1 - (int)i));
	ringbuf__munmap(&rb);
}

static void bad_page_counts(void **state)
{
	struct ringbuf rb;

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 0, 3, false), -EINVAL);
	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 0, 0, false), -EINVAL);
	assert_int_equal(ringbuf__mmap(&rb, -1, 0, 1, false), -EBADF);
}

static void page_parsing(void **state)
{
	size_t pages = 0, ps = (size_t)sysconf(_SC_PAGESIZE);

	assert_int_equal(ringbuf__parse_pages("128", &pages), 0);
	assert_int_equal(pages, 128);
	assert_int_equal(ringbuf__parse_pages("1M", &pages), 0);
	assert_int_equal(pages, (1 << 20) / ps);
	assert_int_equal(ringbuf__parse_pages("5K", &pages), 0);
	assert_int_equal(pages, (5120 + ps - 1) / ps);
	assert_int_equal(ringbuf__parse_pages("16,4", &pages), 0);
	assert_int_equal(pages, 16);
	assert_int_equal(ringbuf__parse_pages("x", &pages), -1);
	assert_int_equal(ringbuf__parse_pages("12Q", &pages), -1);
	assert_int_equal(ringbuf__round_pages(100), 128);
	assert_int_equal(ringbuf__round_pages(128), 128);
	assert_int_equal(ringbuf__round_pages(0), 1);
	assert_int_equal(ringbuf__round_pages(3), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(reads_records_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(record_across_wrap_is_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(header_split_by_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(corrupt_size_skips_rest, setup, teardown),
		cmocka_unit_test_setup_teardown(overwrite_ring_newest_first, setup, teardown),
		cmocka_unit_test_setup_teardown(overwrite_ring_lapped_keeps_whole_records, setup,
						teardown),
		cmocka_unit_test_setup_teardown(bad_page_counts, setup, teardown),
		cmocka_unit_test(page_parsing),
	};
	return cmocka_run_group_tests_name("ringbuf", tests, NULL, NULL);
}
