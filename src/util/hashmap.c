/* hashmap: see hashmap.h. */
#include "util/hashmap.h"
#include "util/util.h"

#include <stdlib.h>

#define FIRST_CAP 64

void hashmap_init(struct hashmap *m, size_t value_size)
{
	memset(m, 0, sizeof(*m));
	m->slot_size = sizeof(uint64_t) + ((value_size + 7) & ~(size_t)7);
}

void hashmap_release(struct hashmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->used = 0;
}

void hashmap__grow(struct hashmap *m)
{
	struct hashmap old = *m;

	if (!m->slot_size)
		m->slot_size = sizeof(uint64_t) + sizeof(void *);
	m->cap = old.cap ? old.cap * 2 : FIRST_CAP;
	m->slots = xcalloc(m->cap, m->slot_size);
	for (size_t i = 0; i < old.cap; i++) {
		uint64_t *t = hashmap__tag(&old, i);
		size_t mask = m->cap - 1, j;

		if (!*t)
			continue;
		for (j = hash_mix(*t) & mask; *hashmap__tag(m, j); j = (j + 1) & mask)
			;
		memcpy(hashmap__tag(m, j), t, m->slot_size);
	}
	free(old.slots);
}

struct str_key {
	const char *s;
	size_t len;
};

static bool str_equal(const void *value, const void *key)
{
	const struct hashmap_str *v = value;
	const struct str_key *k = key;

	return v->len == k->len && !memcmp(v->str, k->s, k->len);
}

void *hashmap_str_find(const struct hashmap *m, const char *s, size_t len)
{
	struct str_key k = { s, len };

	return hashmap_find(m, hash_string(s, len), str_equal, &k);
}

void *hashmap_str_findnew(struct hashmap *m, const char *s, size_t len, struct arena *strings,
			  bool *added)
{
	struct str_key k = { s, len };
	struct hashmap_str *v = hashmap_findnew(m, hash_string(s, len), str_equal, &k, added);

	if (*added) {
		v->str = arena_strndup(strings, s, len);
		v->len = len;
	}
	return v;
}

void *hashmap_next(const struct hashmap *m, const void *prev)
{
	size_t i = prev ? (size_t)((const unsigned char *)prev - sizeof(uint64_t) - m->slots) /
				  m->slot_size + 1 : 0;

	for (; i < m->cap; i++)
		if (*hashmap__tag(m, i))
			return hashmap__tag(m, i) + 1;
	return NULL;
}
