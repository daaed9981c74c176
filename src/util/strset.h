/* strset: interned strings.  Equal strings come back as the same pointer,
 * so hash keys and comparisons can use pointers; every string lives until
 * strset_release().  A zeroed struct strset is empty.
 */
#ifndef PCL_STRSET_H
#define PCL_STRSET_H

#include "util/arena.h"
#include "util/hashmap.h"

struct strset {
	struct hashmap map;	/* string keys, no value */
	struct arena strings;
};

/* The interned copy of s (len bytes, need not be NUL-terminated). */
const char *strset_intern_len(struct strset *set, const char *s, size_t len);
const char *strset_intern(struct strset *set, const char *s);
void strset_release(struct strset *set);

#endif
