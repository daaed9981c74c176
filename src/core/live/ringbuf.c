/* ringbuf: reading a perf_event_open mmap ring buffer (see ringbuf.h). */
#include "core/live/ringbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

int ringbuf__mmap(struct ringbuf *rb, int fd, int cpu, size_t data_pages, bool overwrite)
{
	size_t ps = page_size();
	/* The kernel reads a read-only mapping as "nobody moves the tail". */
	int prot = overwrite ? PROT_READ : PROT_READ | PROT_WRITE;

	memset(rb, 0, sizeof(*rb));
	rb->fd = -1;
	if (!data_pages || (data_pages & (data_pages - 1)))
		return -EINVAL;
	rb->mmap_len = (1 + data_pages) * ps;
	rb->base = mmap(NULL, rb->mmap_len, prot, MAP_SHARED, fd, 0);
	if (rb->base == MAP_FAILED) {
		int err = errno;

		rb->base = NULL;
		return -err;
	}
	rb->fd = fd;
	rb->cpu = cpu;
	rb->data = (unsigned char *)rb->base + ps;
	rb->mask = data_pages * ps - 1;
	rb->overwrite = overwrite;
	/* Start where the kernel says the reader is: normally 0. */
	rb->tail = overwrite ? ((struct perf_event_mmap_page *)rb->base)->data_head :
			       ((struct perf_event_mmap_page *)rb->base)->data_tail;
	return 0;
}

void ringbuf__munmap(struct ringbuf *rb)
{
	if (rb->base)
		munmap(rb->base, rb->mmap_len);
	memset(rb, 0, sizeof(*rb));
	rb->fd = -1;
}

/* Copies len bytes of the ring from position from, unwrapped. */
static void copy_out(const struct ringbuf *rb, uint64_t from, size_t len, unsigned char *dst)
{
	size_t off = (size_t)(from & rb->mask);
	size_t first = rb->mask + 1 - off;	/* bytes before the wrap point */

	if (len <= first) {
		memcpy(dst, rb->data + off, len);
	} else {
		memcpy(dst, rb->data + off, first);
		memcpy(dst + first, rb->data, len - first);
	}
}

/* How many bytes at the start of buf are whole records. */
static size_t whole_records(const unsigned char *buf, size_t len)
{
	size_t pos = 0;

	while (len - pos >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;

		memcpy(&h, buf + pos, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - pos)
			break;
		pos += h.size;
	}
	return pos;
}

/* Overwrite ring: what lies between the new head and the last one read,
 * taken while the kernel is told to hold its writes. */
static size_t take_backward(struct ringbuf *rb, struct perf_event_mmap_page *pc, void *dst)
{
	uint64_t head;
	size_t len;

	/* Fails harmlessly on anything but a perf event (the tests' memfd). */
	ioctl(rb->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	len = (size_t)(rb->tail - head);
	if (len > rb->mask + 1)
		len = rb->mask + 1;	/* lapped: the oldest bytes are gone */
	copy_out(rb, head, len, dst);
	rb->tail = head;
	ioctl(rb->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	return whole_records(dst, len);
}

size_t ringbuf__take(struct ringbuf *rb, void *dst)
{
	struct perf_event_mmap_page *pc = rb->base;
	uint64_t head;
	size_t len = 0;

	if (!pc)
		return 0;
	if (rb->overwrite)
		return take_backward(rb, pc, dst);
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	/* A head more than a buffer ahead means we were overrun; the kernel
	 * never does that to a forward ring, but never trust it. */
	if (head - rb->tail <= rb->mask + 1) {
		len = (size_t)(head - rb->tail);
		copy_out(rb, rb->tail, len, dst);
	}
	rb->tail = head;
	__atomic_store_n(&pc->data_tail, head, __ATOMIC_RELEASE);
	return whole_records(dst, len);
}

size_t ringbuf__round_pages(size_t pages)
{
	size_t p = 1;

	while (p < pages && p <= SIZE_MAX / 2)
		p <<= 1;
	return p;
}

int ringbuf__parse_pages(const char *str, size_t *pages)
{
	char *end;
	unsigned long long v;
	size_t mult = 0, ps = page_size();

	if (!str || !isdigit((unsigned char)*str))
		return -1;
	errno = 0;
	v = strtoull(str, &end, 0);
	if (errno)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'B': mult = 1; break;
	case 'K': mult = 1ULL << 10; break;
	case 'M': mult = 1ULL << 20; break;
	case 'G': mult = 1ULL << 30; break;
	default: break;
	}
	if (mult)
		end++;
	if (*end && *end != ',')
		return -1;
	if (!mult) {
		*pages = v;
		return 0;
	}
	if (v > (unsigned long long)SIZE_MAX / mult)
		return -1;
	*pages = (v * mult + ps - 1) / ps;
	return 0;
}
