/* arena: many small allocations freed at once (trie nodes, frames, the
 * names of a symbol table).  Memory comes in big chunks; nothing is freed
 * before arena_release().  A zeroed struct arena is empty. */
#ifndef PCL_ARENA_H
#define PCL_ARENA_H

#include <stddef.h>

struct arena {
	struct arena_chunk *chunks;
	char *cur, *end;
	size_t chunk_size;	/* of the last chunk (they double, up to a cap) */
};

/* Zeroed, 16-byte aligned memory. */
void *arena_alloc(struct arena *a, size_t size);
/* The same, aligned to align (a power of two), e.g. a cache line. */
void *arena_alloc_aligned(struct arena *a, size_t size, size_t align);
/* A NUL-terminated copy of the len bytes at s (packed: no alignment). */
const char *arena_strndup(struct arena *a, const char *s, size_t len);
/* Hands buf (from malloc) to the arena: freed by arena_release(), e.g. a
 * file read whole whose strings the arena's users point into. */
void arena_own(struct arena *a, void *buf);
void arena_release(struct arena *a);

#endif
