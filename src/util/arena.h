/* arena: many small allocations freed at once (trie nodes, frames).
 * Memory comes in big chunks; nothing is freed before arena_release(). */
#ifndef PCL_ARENA_H
#define PCL_ARENA_H

#include <stddef.h>

struct arena {
	struct arena_chunk *chunks;
	char *cur, *end;
	size_t total;		/* bytes handed out */
};

/* Zeroed, 16-byte aligned memory. */
void *arena_alloc(struct arena *a, size_t size);
void arena_release(struct arena *a);

#endif
