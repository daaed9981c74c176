/* arena: chunked bump allocation (see arena.h). */
#include "util/arena.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Chunks start small (a DSO's few names) and double up to the cap (a
 * report's call-graph trie). */
#define ARENA_FIRST_CHUNK (16u << 10)
#define ARENA_MAX_CHUNK (1u << 20)

struct arena_chunk {
	struct arena_chunk *next;
	void *owned;	/* arena_own()'s buffer; such a chunk has no data */
	max_align_t data[];
};

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
		c = xmalloc(sizeof(*c) + n);
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
	c->next = a->chunks;
	a->chunks = c;
}

void arena_release(struct arena *a)
{
	while (a->chunks) {
		struct arena_chunk *next = a->chunks->next;

		free(a->chunks->owned);
		free(a->chunks);
		a->chunks = next;
	}
	memset(a, 0, sizeof(*a));
}
