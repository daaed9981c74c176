/* ringbuf: one perf_event_open mmap ring buffer, read from user space.
 *
 * The mapping is 1 + 2^n pages: a control page (struct perf_event_mmap_page)
 * and the data pages the kernel writes records into.
 *
 * Forward rings (the default): the kernel advances data_head; we read
 * [data_tail, data_head) and then move data_tail, which hands the space back.
 * head is loaded with acquire ordering (so the record bytes it covers are
 * visible) and tail stored with release ordering (so we are done reading
 * before the kernel may overwrite).  When the ring is full the kernel drops
 * records and later writes a PERF_RECORD_LOST saying how many.
 *
 * Overwrite rings (mapped read-only, events opened with write_backward): the
 * kernel never waits for us.  It moves data_head down and writes each record
 * below the previous one, overwriting the oldest; a reader pauses the ring,
 * takes what lies between the new head and the last one it read (at most a
 * buffer's worth, newest record first) and resumes it.
 *
 * ringbuf__take() copies everything new out in one go, as whole records in a
 * linear buffer (a record that wraps around the end of the ring comes out in
 * one piece), and hands the space back before returning.
 */
#ifndef PCL_RINGBUF_H
#define PCL_RINGBUF_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ringbuf {
	int fd;			/* the event that owns the buffer (-1 if unmapped) */
	int cpu;		/* cpu the buffer collects, -1 when per-thread */
	void *base;		/* control page, then the data pages */
	size_t mmap_len;
	unsigned char *data;	/* the data pages */
	size_t mask;		/* data size - 1 */
	uint64_t tail;		/* the next read's start (overwrite: the last head read) */
	bool overwrite;		/* read-only mapping written backward */
};

/* Maps 1 + data_pages pages of fd (data_pages a power of two), read-only for
 * an overwrite ring.  Returns 0 or -errno. */
int ringbuf__mmap(struct ringbuf *rb, int fd, int cpu, size_t data_pages, bool overwrite);
void ringbuf__munmap(struct ringbuf *rb);

static inline size_t ringbuf__data_size(const struct ringbuf *rb)
{
	return rb->mask + 1;
}

/*
 * Copies the records written since the last take into dst (room for
 * ringbuf__data_size() bytes), oldest first in a forward ring, newest first
 * in an overwrite ring, and hands their space back to the kernel.  Returns
 * the bytes copied: whole records only.  A corrupt size (smaller than a
 * header, or running past what was written) ends the copy there and the rest
 * is skipped rather than misread; so does, in an overwrite ring, the oldest
 * record that was partly overwritten.
 */
size_t ringbuf__take(struct ringbuf *rb, void *dst);

/* Rounds a data page count up to a power of two (0 becomes 1, as perf does). */
size_t ringbuf__round_pages(size_t pages);

/* Parses -m: a page count, or a size with a B/K/M/G suffix turned into whole
 * pages (not yet rounded).  Anything after a ',' (perf's AUX size) is
 * ignored.  Returns 0 and sets *pages, or -1 when the text is not a size. */
int ringbuf__parse_pages(const char *str, size_t *pages);

#endif
