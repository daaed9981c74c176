/* fake-ring: a perf ring buffer with a fake kernel, for unit tests.  A memfd
 * is mapped like the kernel's buffer (a control page, then the data pages);
 * the test writes records into it as the kernel would, forward or backward,
 * and the code under test maps the same memfd.  Header-only; include after
 * cmocka.h. */
#ifndef PCL_TEST_FAKE_RING_H
#define PCL_TEST_FAKE_RING_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct fake_ring {
	int fd;
	size_t ps, data_size;
	void *map;		/* the "kernel" view */
	uint64_t head;
};

/* One data page: wrapping comes quickly. */
static inline void fake_ring__create(struct fake_ring *f)
{
	f->ps = (size_t)sysconf(_SC_PAGESIZE);
	f->data_size = f->ps;
	f->fd = memfd_create("fake-ring", 0);
	assert_true(f->fd >= 0);
	assert_int_equal(ftruncate(f->fd, (off_t)(f->ps + f->data_size)), 0);
	f->map = mmap(NULL, f->ps + f->data_size, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0);
	assert_true(f->map != MAP_FAILED);
	f->head = 0;
}

static inline void fake_ring__destroy(struct fake_ring *f)
{
	munmap(f->map, f->ps + f->data_size);
	close(f->fd);
}

static inline struct perf_event_mmap_page *fake_ring__control(struct fake_ring *f)
{
	return f->map;
}

/* The kernel side: a record of size bytes filled with tag, at offset at. */
static inline void fake_ring__put(struct fake_ring *f, uint64_t at, uint32_t type, uint16_t size,
				  unsigned char tag)
{
	unsigned char rec[512];
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };
	unsigned char *data = (unsigned char *)f->map + f->ps;

	assert_true(size <= sizeof(rec));
	memset(rec, tag, size);
	memcpy(rec, &h, size < sizeof(h) ? size : sizeof(h));
	for (uint16_t i = 0; i < size; i++)
		data[(at + i) % f->data_size] = rec[i];
}

/* Appends a record to a forward ring. */
static inline void fake_ring__write(struct fake_ring *f, uint32_t type, uint16_t size,
				    unsigned char tag)
{
	fake_ring__put(f, f->head, type, size, tag);
	f->head += size;
	__atomic_store_n(&fake_ring__control(f)->data_head, f->head, __ATOMIC_RELEASE);
}

/* Writes a record below the previous one, as into an overwrite ring. */
static inline void fake_ring__write_backward(struct fake_ring *f, uint32_t type, uint16_t size,
					     unsigned char tag)
{
	f->head -= size;
	fake_ring__put(f, f->head, type, size, tag);
	__atomic_store_n(&fake_ring__control(f)->data_head, f->head, __ATOMIC_RELEASE);
}

/* A LOST record saying lost records were dropped. */
static inline void fake_ring__write_lost(struct fake_ring *f, uint64_t lost)
{
	uint64_t body[2] = { 7, lost };

	fake_ring__put(f, f->head, PERF_RECORD_LOST, 24, 0);
	for (size_t i = 0; i < sizeof(body); i++)
		((unsigned char *)f->map + f->ps)[(f->head + 8 + i) % f->data_size] =
			((unsigned char *)body)[i];
	f->head += 24;
	__atomic_store_n(&fake_ring__control(f)->data_head, f->head, __ATOMIC_RELEASE);
}

/* Checks the record at *pos of a copied-out buffer and moves past it. */
static inline void fake_ring__check(const unsigned char *buf, size_t *pos, uint32_t type,
				    uint16_t size, unsigned char tag)
{
	struct perf_event_header h;

	memcpy(&h, buf + *pos, sizeof(h));
	assert_int_equal(h.type, type);
	assert_int_equal(h.size, size);
	for (uint16_t i = sizeof(h); i < size; i++)
		assert_int_equal(buf[*pos + i], tag);
	*pos += size;
}

#endif
