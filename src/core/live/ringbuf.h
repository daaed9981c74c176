/* ringbuf: one perf_event_open mmap ring buffer, read from user space.
 *
 * The mapping is 1 + 2^n pages: a control page (struct perf_event_mmap_page)
 * and the data pages the kernel writes records into.  The kernel advances
 * data_head; we read [data_tail, data_head) and then move data_tail, which
 * hands the space back.  head is loaded with acquire ordering (so the record
 * bytes it covers are visible) and tail stored with release ordering (so we
 * are done reading before the kernel may overwrite).
 *
 * A read is a snapshot: ringbuf__read_init() takes head once, records are
 * then handed out one by one (a record that wraps around the end of the
 * buffer is copied into a scratch area so callers always see it whole), and
 * ringbuf__read_done() releases what was read.
 */
#ifndef PCL_RINGBUF_H
#define PCL_RINGBUF_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct ringbuf {
	int fd;			/* the event that owns the buffer (-1 if unmapped) */
	int cpu;		/* cpu the buffer collects, -1 when per-thread */
	void *base;		/* control page, then the data pages */
	size_t mmap_len;
	size_t mask;		/* data size - 1 */
	uint64_t start, end;	/* the current snapshot: next record, head */
	char *scratch;		/* one record's worth, for records that wrap */
};

/* Maps 1 + data_pages pages of fd (data_pages a power of two).  Returns 0 or -errno. */
int ringbuf__mmap(struct ringbuf *rb, int fd, int cpu, size_t data_pages);
void ringbuf__munmap(struct ringbuf *rb);

static inline size_t ringbuf__data_size(const struct ringbuf *rb)
{
	return rb->mask + 1;
}

/* Snapshots head; returns the number of unread bytes. */
size_t ringbuf__read_init(struct ringbuf *rb);

/* The next whole record of the snapshot (valid until the next call), or NULL
 * at its end.  A corrupt size (smaller than a header, or larger than what is
 * left) ends the snapshot: the rest is skipped rather than misread. */
const struct perf_event_header *ringbuf__read_event(struct ringbuf *rb);

/* Releases every record handed out so far to the kernel. */
void ringbuf__read_done(struct ringbuf *rb);

/* Rounds a data page count up to a power of two (0 becomes 1, as perf does). */
size_t ringbuf__round_pages(size_t pages);

/* Parses -m: a page count, or a size with a B/K/M/G suffix turned into whole
 * pages (not yet rounded).  Anything after a ',' (perf's AUX size) is
 * ignored.  Returns 0 and sets *pages, or -1 when the text is not a size. */
int ringbuf__parse_pages(const char *str, size_t *pages);

#endif
