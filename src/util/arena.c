/* arena: chunked bump allocation (see arena.h). */
#include "util/arena.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Chunks start small (a DSO's few names) and double up to the cap (a
 * report's call-graph trie). */
#define ARENA_FIRST_CHUNK (16u << 10)
#define ARENA_MAX_CHUNK (2u << 20)

struct arena_chunk {
	struct arena_chunk *next;
	void *owned;	/* arena_own()'s buffer; such a chunk has no data */
	size_t mapped;	/* the length of a chunk mmapped on its own, else 0 */
	max_align_t data[];
};

/*
 * A chunk of the cap's size: mapped on its own, aligned to 2 MB and
 * offered to transparent huge pages, so that filling it takes one page
 * fault instead of 512 (the faults of a system-wide report's call-graph
 * trie and entries were a tenth of its time).  NULL when mmap fails.
 */
static struct arena_chunk *huge_chunk(void)
{
	const size_t len = ARENA_MAX_CHUNK;
	char *m = mmap(NULL, 2 * len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *p;

	if (m == MAP_FAILED)
		return NULL;
	p = (char *)(((uintptr_t)m + len - 1) & ~(uintptr_t)(len - 1));
	if (p > m)
		munmap(m, (size_t)(p - m));
	if (p + len < m + 2 * len)
		munmap(p + len, (size_t)(m + 2 * len - (p + len)));
	madvise(p, len, MADV_HUGEPAGE);	/* a hint: no THP, small pages */
	((struct arena_chunk *)(void *)p)->mapped = len;
	return (struct arena_chunk *)(void *)p;
}

/* size bytes at a->cur aligned to align (a power of two). */
static char *arena_take(struct arena *a, size_t size, size_t align)
{
	char *p = (char *)(((uintptr_t)a->cur + align - 1) & ~(uintptr_t)(align - 1));

	if (!a->cur || p > a->end || (size_t)(a->end - p) < size) {
		size_t n;
		struct arena_chunk *c;

		a->chunk_size = !a->chunk_size ? ARENA_FIRST_CHUNK :
				a->chunk_size < ARENA_MAX_CHUNK ? a->chunk_size * 2 : ARENA_MAX_CHUNK;
		n = size + align > a->chunk_size ? size + align : a->chunk_size;
		if (n == ARENA_MAX_CHUNK && size + align <= n - sizeof(*c) &&
		    (c = huge_chunk())) {
			n -= sizeof(*c);
		} else {
			c = xmalloc(sizeof(*c) + n);
			c->mapped = 0;
		}
		c->owned = NULL;
		c->next = a->chunks;
		a->chunks = c;
		a->end = (char *)c->data + n;
		p = (char *)(((uintptr_t)c->data + align - 1) & ~(uintptr_t)(align - 1));
	}
	a->cur = p + size;
	return p;
}

void *arena_alloc_aligned(struct arena *a, size_t size, size_t align)
{
	char *p = arena_take(a, size, align);

	memset(p, 0, size);
	return p;
}

void *arena_alloc(struct arena *a, size_t size)
{
	return arena_alloc_aligned(a, size, 16);
}

const char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = arena_take(a, len + 1, 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void arena_own(struct arena *a, void *buf)
{
	struct arena_chunk *c = xmalloc(sizeof(*c));

	c->owned = buf;
	c->mapped = 0;
	c->next = a->chunks;
	a->chunks = c;
}

void arena_release(struct arena *a)
{
	while (a->chunks) {
		struct arena_chunk *next = a->chunks->next;

		free(a->chunks->owned);
		if (a->chunks->mapped)
			munmap(a->chunks, a->chunks->mapped);
		else
			free(a->chunks);
		a->chunks = next;
	}
	memset(a, 0, sizeof(*a));
}
