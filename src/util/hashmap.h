/* hashmap: the one open-addressing hash map (and the one hash mixer).
 *
 * Power-of-two capacity, linear probing, at most half full.  A slot holds
 * a 64-bit tag (0: empty) and the value inline, so lookups touch one cache
 * line and growth never hashes a key again.  Three ways to key it:
 *
 *  - u64 keys: the tag is the key itself (plus one: key UINT64_MAX is not
 *    allowed), so the key is stored and compared inline;
 *  - composite keys: the caller's 64-bit hash is the tag and its equality
 *    function compares the key it keeps in the value;
 *  - string keys: hashed once to a tag; the value starts with the key's
 *    pointer and length (struct hashmap_str).
 *
 * A zeroed struct hashmap maps to one pointer per key (the u64 map of
 * the symbol engine); hashmap_init() picks another value size.  Entries
 * cannot be deleted; values stay put until the next insertion.
 */
#ifndef PCL_HASHMAP_H
#define PCL_HASHMAP_H

#include "util/arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct hashmap {
	unsigned char *slots;	/* cap slots of slot_size bytes */
	size_t cap, used;	/* cap is 0 or a power of two */
	size_t slot_size;	/* the tag, then the value; 0: a pointer value */
};

/* Spreads every bit of x over all bits (murmur3's finalizer). */
static inline uint64_t hash_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* One step of FNV-1a: folds x into the running hash h of a sequence
 * (the mixer is for the result, where all bits must count). */
static inline uint64_t hash_add(uint64_t h, uint64_t x)
{
	return (h ^ x) * 0x100000001b3ULL;
}

/* The hash of len bytes (FNV-1a). */
static inline uint64_t hash_string(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = hash_add(h, (unsigned char)s[i]);
	return h;
}

/* value_size bytes of value per key (0: a set). */
void hashmap_init(struct hashmap *m, size_t value_size);
/* Frees the slots; the map stays usable (and empty) with its value size. */
void hashmap_release(struct hashmap *m);
/* Doubles the slots (internal to the inline functions). */
void hashmap__grow(struct hashmap *m);

/* Room for one more entry, at most half full. */
static inline void hashmap__reserve(struct hashmap *m)
{
	if ((m->used + 1) * 2 > m->cap)
		hashmap__grow(m);
}

static inline uint64_t *hashmap__tag(const struct hashmap *m, size_t i)
{
	return (uint64_t *)(void *)(m->slots + i * m->slot_size);
}

/* Compares the key kept in value with key. */
typedef bool hashmap_eq_fn(const void *value, const void *key);

static inline size_t hashmap__probe(const struct hashmap *m, uint64_t tag, hashmap_eq_fn *eq,
				    const void *key, bool *found)
{
	size_t mask = m->cap - 1, i = hash_mix(tag) & mask;
	uint64_t *t;

	for (;; i = (i + 1) & mask) {
		t = hashmap__tag(m, i);
		if (!*t)
			break;
		if (*t == tag && (!eq || eq(t + 1, key))) {
			*found = true;
			return i;
		}
	}
	*found = false;
	return i;
}

/* Composite keys: the value whose tag is hash and eq accepts key, or NULL. */
static inline void *hashmap_find(const struct hashmap *m, uint64_t hash, hashmap_eq_fn *eq,
				 const void *key)
{
	bool found;
	size_t i;

	if (!m->cap)
		return NULL;
	i = hashmap__probe(m, hash | 1, eq, key, &found);
	return found ? hashmap__tag(m, i) + 1 : NULL;
}

/* ... or a new zeroed value (*added set) where the caller stores the key. */
static inline void *hashmap_findnew(struct hashmap *m, uint64_t hash, hashmap_eq_fn *eq,
				    const void *key, bool *added)
{
	uint64_t *t;
	bool found;
	size_t i;

	hashmap__reserve(m);
	i = hashmap__probe(m, hash | 1, eq, key, &found);
	t = hashmap__tag(m, i);
	*added = !found;
	if (!found) {
		*t = hash | 1;
		m->used++;
	}
	return t + 1;
}

/* u64 keys: the value of key, or NULL. */
static inline void *hashmap_u64_find(const struct hashmap *m, uint64_t key)
{
	bool found;
	size_t i;

	if (!m->cap)
		return NULL;
	i = hashmap__probe(m, key + 1, NULL, NULL, &found);
	return found ? hashmap__tag(m, i) + 1 : NULL;
}

/* ... or a new zeroed one (*added set when given). */
static inline void *hashmap_u64_findnew(struct hashmap *m, uint64_t key, bool *added)
{
	uint64_t *t;
	bool found;
	size_t i;

	hashmap__reserve(m);
	i = hashmap__probe(m, key + 1, NULL, NULL, &found);
	t = hashmap__tag(m, i);
	if (added)
		*added = !found;
	if (!found) {
		*t = key + 1;
		m->used++;
	}
	return t + 1;
}

/* The key of a value of a u64-keyed map. */
static inline uint64_t hashmap_u64_key(const void *value)
{
	return ((const uint64_t *)value)[-1] - 1;
}

/* Pointer values (a zeroed map): the pointer stored for key, or NULL. */
static inline void *hashmap_u64_get(const struct hashmap *m, uint64_t key)
{
	void **v = hashmap_u64_find(m, key);

	return v ? *v : NULL;
}

static inline void hashmap_u64_put(struct hashmap *m, uint64_t key, void *ptr)
{
	*(void **)hashmap_u64_findnew(m, key, NULL) = ptr;
}

/* String keys: what a value of such a map starts with. */
struct hashmap_str {
	const char *str;	/* NUL-terminated */
	size_t len;
};

/* The value of the len bytes at s, or NULL. */
void *hashmap_str_find(const struct hashmap *m, const char *s, size_t len);
/* ... or a new one (*added set) keyed by a copy of the bytes in strings. */
void *hashmap_str_findnew(struct hashmap *m, const char *s, size_t len, struct arena *strings,
			  bool *added);

/* Iteration in slot order: the value after prev (NULL: the first one), or
 * NULL after the last. */
void *hashmap_next(const struct hashmap *m, const void *prev);

#endif
