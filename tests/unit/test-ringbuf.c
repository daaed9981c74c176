/* Unit tests for core/ringbuf: a fake kernel writes records into a memfd
 * mapped like a perf ring buffer; the reader must hand them back whole,
 * including across the wrap point, and move data_tail. */
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

struct fake {
	int fd;
	size_t ps, data_size;
	void *map;		/* the "kernel" view */
	uint64_t head;
};

static struct fake fake;

static int setup(void **state)
{
	fake.ps = (size_t)sysconf(_SC_PAGESIZE);
	fake.data_size = fake.ps;	/* one data page makes wrapping easy */
	fake.fd = memfd_create("ringbuf-test", 0);
	assert_true(fake.fd >= 0);
	assert_int_equal(ftruncate(fake.fd, (off_t)(fake.ps + fake.data_size)), 0);
	fake.map = mmap(NULL, fake.ps + fake.data_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			fake.fd, 0);
	assert_true(fake.map != MAP_FAILED);
	fake.head = 0;
	return 0;
}

static int teardown(void **state)
{
	munmap(fake.map, fake.ps + fake.data_size);
	close(fake.fd);
	return 0;
}

/* The kernel side: appends a record of size bytes filled with tag. */
static void kernel_write(uint32_t type, uint16_t size, unsigned char tag)
{
	unsigned char rec[512];
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };
	unsigned char *data = (unsigned char *)fake.map + fake.ps;
	struct perf_event_mmap_page *pc = fake.map;

	assert_true(size <= sizeof(rec));
	memset(rec, tag, size);
	memcpy(rec, &h, sizeof(h));
	for (uint16_t i = 0; i < size; i++)
		data[(fake.head + i) % fake.data_size] = rec[i];
	fake.head += size;
	__atomic_store_n(&pc->data_head, fake.head, __ATOMIC_RELEASE);
}

static void check_record(const struct perf_event_header *h, uint32_t type, uint16_t size,
			 unsigned char tag)
{
	const unsigned char *p = (const unsigned char *)h;

	assert_non_null(h);
	assert_int_equal(h->type, type);
	assert_int_equal(h->size, size);
	for (uint16_t i = sizeof(*h); i < size; i++)
		assert_int_equal(p[i], tag);
}

static void reads_records_in_order(void **state)
{
	struct ringbuf rb;
	struct perf_event_mmap_page *pc = fake.map;

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 3, 1), 0);
	assert_int_equal(ringbuf__data_size(&rb), fake.data_size);
	assert_int_equal(ringbuf__read_init(&rb), 0);
	assert_null(ringbuf__read_event(&rb));

	kernel_write(PERF_RECORD_SAMPLE, 40, 0xaa);
	kernel_write(PERF_RECORD_COMM, 64, 0xbb);
	assert_int_equal(ringbuf__read_init(&rb), 104);
	check_record(ringbuf__read_event(&rb), PERF_RECORD_SAMPLE, 40, 0xaa);
	check_record(ringbuf__read_event(&rb), PERF_RECORD_COMM, 64, 0xbb);
	assert_null(ringbuf__read_event(&rb));
	/* Nothing released until read_done. */
	assert_int_equal(pc->data_tail, 0);
	ringbuf__read_done(&rb);
	assert_int_equal(pc->data_tail, 104);
	ringbuf__munmap(&rb);
}

static void record_across_wrap_is_whole(void **state)
{
	struct ringbuf rb;
	struct perf_event_mmap_page *pc = fake.map;
	int n = 0;

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 0, 1), 0);
	/* Fill close to the end, drain, then write one record that wraps. */
	while (fake.head + 200 < fake.data_size)
		kernel_write(PERF_RECORD_SAMPLE, 200, (unsigned char)n++);
	ringbuf__read_init(&rb);
	for (int i = 0; i < n; i++)
		check_record(ringbuf__read_event(&rb), PERF_RECORD_SAMPLE, 200, (unsigned char)i);
	ringbuf__read_done(&rb);
	kernel_write(PERF_RECORD_MMAP2, 256, 0x5c);	/* crosses the end */
	kernel_write(PERF_RECORD_LOST, 24, 0x11);
	assert_int_equal(ringbuf__read_init(&rb), 280);
	check_record(ringbuf__read_event(&rb), PERF_RECORD_MMAP2, 256, 0x5c);
	check_record(ringbuf__read_event(&rb), PERF_RECORD_LOST, 24, 0x11);
	assert_null(ringbuf__read_event(&rb));
	ringbuf__read_done(&rb);
	assert_int_equal(pc->data_tail, fake.head);
	ringbuf__munmap(&rb);
}

static void header_split_by_wrap(void **state)
{
	struct ringbuf rb;

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 0, 1), 0);
	/* Leave 4 bytes before the end, so the next header itself wraps. */
	while (fake.data_size - 4 - fake.head > 256)
		kernel_write(PERF_RECORD_SAMPLE, 256, 1);
	kernel_write(PERF_RECORD_SAMPLE, (uint16_t)(fake.data_size - 4 - fake.head), 2);
	ringbuf__read_init(&rb);
	while (ringbuf__read_event(&rb))
		;
	ringbuf__read_done(&rb);
	kernel_write(PERF_RECORD_THROTTLE, 32, 3);
	ringbuf__read_init(&rb);
	check_record(ringbuf__read_event(&rb), PERF_RECORD_THROTTLE, 32, 3);
	ringbuf__read_done(&rb);
	ringbuf__munmap(&rb);
}

static void corrupt_size_skips_rest(void **state)
{
	struct ringbuf rb;
	struct perf_event_mmap_page *pc = fake.map;

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 0, 1), 0);
	kernel_write(PERF_RECORD_SAMPLE, 4, 0);	/* smaller than a header */
	kernel_write(PERF_RECORD_SAMPLE, 40, 9);
	ringbuf__read_init(&rb);
	assert_null(ringbuf__read_event(&rb));
	ringbuf__read_done(&rb);
	assert_int_equal(pc->data_tail, fake.head);
	ringbuf__munmap(&rb);
}

static void bad_page_counts(void **state)
{
	struct ringbuf rb;

	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 0, 3), -EINVAL);
	assert_int_equal(ringbuf__mmap(&rb, fake.fd, 0, 0), -EINVAL);
	assert_int_equal(ringbuf__mmap(&rb, -1, 0, 1), -EBADF);
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
		cmocka_unit_test_setup_teardown(bad_page_counts, setup, teardown),
		cmocka_unit_test(page_parsing),
	};
	return cmocka_run_group_tests_name("ringbuf", tests, NULL, NULL);
}
