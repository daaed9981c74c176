/* strset: interned strings (see strset.h). */
#include "util/strset.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_SIZE (64u << 10)

struct strset_chunk {
	struct strset_chunk *next;
	size_t used, size;
	char data[];
};

uint64_t strset_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static char *strset_alloc(struct strset *set, size_t n)
{
	struct strset_chunk *c = set->chunks;

	if (!c || c->size - c->used < n) {
		size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;

		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->used = 0;
		c->next = set->chunks;
		set->chunks = c;
	}
	c->used += n;
	return c->data + c->used - n;
}

static void strset_grow(struct strset *set)
{
	size_t old_cap = set->cap;
	const char **old = set->slots;

	set->cap = old_cap ? old_cap * 2 : 256;
	set->slots = xcalloc(set->cap, sizeof(*set->slots));
	for (size_t i = 0; i < old_cap; i++) {
		const char *s = old[i];
		size_t j;

		if (!s)
			continue;
		for (j = strset_hash(s, strlen(s)) & (set->cap - 1); set->slots[j];
		     j = (j + 1) & (set->cap - 1))
			;
		set->slots[j] = s;
	}
	free(old);
}

const char *strset_intern_len(struct strset *set, const char *s, size_t len)
{
	size_t i;
	char *copy;

	if ((set->used + 1) * 2 > set->cap)
		strset_grow(set);
	for (i = strset_hash(s, len) & (set->cap - 1); set->slots[i]; i = (i + 1) & (set->cap - 1))
		if (!strncmp(set->slots[i], s, len) && set->slots[i][len] == '\0')
			return set->slots[i];
	copy = strset_alloc(set, len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	set->slots[i] = copy;
	set->used++;
	return copy;
}

const char *strset_intern(struct strset *set, const char *s)
{
	return strset_intern_len(set, s, strlen(s));
}

void strset_release(struct strset *set)
{
	while (set->chunks) {
		struct strset_chunk *next = set->chunks->next;

		free(set->chunks);
		set->chunks = next;
	}
	free(set->slots);
	memset(set, 0, sizeof(*set));
}
