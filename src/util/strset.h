/* strset: interned strings.  Equal strings come back as the same pointer,
 * so hash keys and comparisons can use pointers; every string lives until
 * strset_release().
 */
#ifndef PCL_STRSET_H
#define PCL_STRSET_H

#include <stddef.h>
#include <stdint.h>

struct strset {
	const char **slots;	/* open addressing, NULL = empty */
	size_t cap, used;	/* cap is 0 or a power of two */
	struct strset_chunk *chunks;
};

/* The interned copy of s (len bytes, need not be NUL-terminated). */
const char *strset_intern_len(struct strset *set, const char *s, size_t len);
const char *strset_intern(struct strset *set, const char *s);
void strset_release(struct strset *set);

/* FNV-1a, also handy for callers hashing their own keys. */
uint64_t strset_hash(const char *s, size_t len);

#endif
