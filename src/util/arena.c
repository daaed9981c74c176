/* arena: chunked bump allocation (see arena.h). */
#include "util/arena.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK (1u << 20)

struct arena_chunk {
	struct arena_chunk *next;
	max_align_t data[];
};

void *arena_alloc(struct arena *a, size_t size)
{
	char *p;

	size = (size + 15) & ~(size_t)15;
	if ((size_t)(a->end - a->cur) < size) {
		size_t n = size > ARENA_CHUNK ? size : ARENA_CHUNK;
		struct arena_chunk *c = xmalloc(sizeof(*c) + n);

		c->next = a->chunks;
		a->chunks = c;
		a->cur = (char *)c->data;
		a->end = a->cur + n;
	}
	p = a->cur;
	a->cur += size;
	a->total += size;
	memset(p, 0, size);
	return p;
}

void arena_release(struct arena *a)
{
	while (a->chunks) {
		struct arena_chunk *next = a->chunks->next;

		free(a->chunks);
		a->chunks = next;
	}
	memset(a, 0, sizeof(*a));
}
