/* strset: interned strings (see strset.h). */
#include "util/strset.h"

const char *strset_intern_len(struct strset *set, const char *s, size_t len)
{
	bool added;

	if (!set->map.slot_size)
		hashmap_init(&set->map, sizeof(struct hashmap_str));
	return ((struct hashmap_str *)hashmap_str_findnew(&set->map, s, len, &set->strings,
							  &added))->str;
}

const char *strset_intern(struct strset *set, const char *s)
{
	return strset_intern_len(set, s, strlen(s));
}

void strset_release(struct strset *set)
{
	hashmap_release(&set->map);
	arena_release(&set->strings);
}
