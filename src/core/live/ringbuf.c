/* ringbuf: reading a perf_event_open mmap ring buffer (see ringbuf.h). */
#include "core/live/ringbuf.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Records are at most 64K (header.size is a u16). */
#define RECORD_MAX	65536

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

int ringbuf__mmap(struct ringbuf *rb, int fd, int cpu, size_t data_pages)
{
	size_t ps = page_size();

	memset(rb, 0, sizeof(*rb));
	rb->fd = -1;
	if (!data_pages || (data_pages & (data_pages - 1)))
		return -EINVAL;
	rb->mmap_len = (1 + data_pages) * ps;
	rb->base = mmap(NULL, rb->mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (rb->base == MAP_FAILED) {
		int err = errno;

		rb->base = NULL;
		return -err;
	}
	rb->fd = fd;
	rb->cpu = cpu;
	rb->mask = data_pages * ps - 1;
	rb->scratch = xmalloc(RECORD_MAX);
	/* Start where the kernel says the reader is: normally 0. */
	rb->start = rb->end = ((struct perf_event_mmap_page *)rb->base)->data_tail;
	return 0;
}

void ringbuf__munmap(struct ringbuf *rb)
{
	if (rb->base)
		munmap(rb->base, rb->mmap_len);
	free(rb->scratch);
	memset(rb, 0, sizeof(*rb));
	rb->fd = -1;
}

static unsigned char *ringbuf_data(const struct ringbuf *rb)
{
	return (unsigned char *)rb->base + page_size();
}

size_t ringbuf__read_init(struct ringbuf *rb)
{
	struct perf_event_mmap_page *pc = rb->base;

	if (!pc)
		return 0;
	rb->end = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	/* A head that ran more than a buffer ahead means we were overrun;
	 * the kernel never does that in non-overwrite mode, but never trust it. */
	if (rb->end - rb->start > rb->mask + 1)
		rb->start = rb->end;
	return (size_t)(rb->end - rb->start);
}

const struct perf_event_header *ringbuf__read_event(struct ringbuf *rb)
{
	unsigned char *data = ringbuf_data(rb);
	size_t left = (size_t)(rb->end - rb->start);
	size_t off = (size_t)(rb->start & rb->mask);
	size_t first = rb->mask + 1 - off;	/* bytes before the wrap point */
	struct perf_event_header hdr;
	const struct perf_event_header *ev;

	if (left < sizeof(hdr))
		goto skip_rest;
	if (first >= sizeof(hdr)) {
		memcpy(&hdr, data + off, sizeof(hdr));
	} else {
		memcpy(&hdr, data + off, first);
		memcpy((char *)&hdr + first, data, sizeof(hdr) - first);
	}
	if (hdr.size < sizeof(hdr) || hdr.size > left)
		goto skip_rest;
	if (hdr.size <= first) {
		ev = (const struct perf_event_header *)(data + off);
	} else {
		memcpy(rb->scratch, data + off, first);
		memcpy(rb->scratch + first, data, hdr.size - first);
		ev = (const struct perf_event_header *)rb->scratch;
	}
	rb->start += hdr.size;
	return ev;

skip_rest:
	rb->start = rb->end;
	return NULL;
}

void ringbuf__read_done(struct ringbuf *rb)
{
	struct perf_event_mmap_page *pc = rb->base;

	if (pc)
		__atomic_store_n(&pc->data_tail, rb->start, __ATOMIC_RELEASE);
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
