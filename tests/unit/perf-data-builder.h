/* perf-data-builder: synthesises perf.data byte images for the reader's
 * unit tests, in either byte order, so that every test states its input
 * byte by byte instead of depending on a recording. */
#ifndef PCL_TEST_PERF_DATA_BUILDER_H
#define PCL_TEST_PERF_DATA_BUILDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct buf {
	uint8_t *p;
	size_t len, cap;
	bool be;		/* write big endian */
};

static inline void b_reserve(struct buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
	}
}

static inline void b_bytes(struct buf *b, const void *d, size_t n)
{
	b_reserve(b, n);
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static inline void b_uint(struct buf *b, uint64_t v, int width)
{
	uint8_t o[8];

	for (int i = 0; i < width; i++)
		o[b->be ? width - 1 - i : i] = (uint8_t)(v >> (8 * i));
	b_bytes(b, o, (size_t)width);
}

#define b_u8(b, v) b_uint(b, v, 1)
#define b_u16(b, v) b_uint(b, v, 2)
#define b_u32(b, v) b_uint(b, v, 4)
#define b_u64(b, v) b_uint(b, v, 8)

static inline void b_zero(struct buf *b, size_t n)
{
	b_reserve(b, n);
	memset(b->p + b->len, 0, n);
	b->len += n;
}

/* Overwrites a u64 at off (for sizes known later). */
static inline void b_put_u64(struct buf *b, size_t off, uint64_t v)
{
	size_t save = b->len;

	b->len = off;
	b_u64(b, v);
	b->len = save;
}

static inline void b_put_u16(struct buf *b, size_t off, uint16_t v)
{
	size_t save = b->len;

	b->len = off;
	b_u16(b, v);
	b->len = save;
}

/* perf string: u32 padded length, text, zero padding (to 64). */
static inline void b_str(struct buf *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 63) & ~(size_t)63;

	b_u32(b, padded);
	b_bytes(b, s, n);
	b_zero(b, padded - n);
}

/* Starts a record; returns its offset for rec_end(). */
static inline size_t rec_begin(struct buf *b, uint32_t type, uint16_t misc)
{
	size_t off = b->len;

	b_u32(b, type);
	b_u16(b, misc);
	b_u16(b, 0);
	return off;
}

static inline void rec_end(struct buf *b, size_t off)
{
	b_put_u16(b, off + 6, (uint16_t)(b->len - off));
}

/* perf_event_attr, written field by field in b's byte order. */
struct t_attr {
	uint32_t type;
	uint64_t config, period, sample_type, read_format, flags;
};

#define T_ATTR_SIZE 128

static inline void b_attr(struct buf *b, const struct t_attr *a)
{
	size_t start = b->len;

	b_u32(b, a->type);
	b_u32(b, T_ATTR_SIZE);
	b_u64(b, a->config);
	b_u64(b, a->period);
	b_u64(b, a->sample_type);
	b_u64(b, a->read_format);
	/* a big-endian machine allocates the bitfield from the top bit down */
	if (b->be) {
		uint64_t r = 0;

		for (int i = 0; i < 64; i++)
			if (a->flags & (1ULL << i))
				r |= 1ULL << (63 - i);
		b_u64(b, r);
	} else {
		b_u64(b, a->flags);
	}
	b_zero(b, T_ATTR_SIZE - (b->len - start));
}

/* Writes the image to a temporary file, returns its path (caller frees). */
static inline char *b_to_file(const struct buf *b)
{
	char *path = strdup("/tmp/pcl-test-XXXXXX");
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, b->p, b->len) != (ssize_t)b->len)
		abort();
	close(fd);
	return path;
}

#endif
