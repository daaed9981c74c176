/* cache-slots: the caches other modules attach to a dso or an address
 * space, each released once with its kind's release function.  A DSO or
 * maps holds one or two: a list is all it takes.
 */
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <stdlib.h>

void *cache_slots__get(const struct cache_slot *slots, const struct cache_kind *kind)
{
	for (const struct cache_slot *s = slots; s; s = s->next)
		if (s->kind == kind)
			return s->cache;
	return NULL;
}

void cache_slots__set(struct cache_slot **slots, const struct cache_kind *kind, void *cache)
{
	struct cache_slot **at = slots, *s;

	while (*at && (*at)->kind != kind)
		at = &(*at)->next;
	s = *at;
	if (s && s->cache == cache)
		return;
	if (s) {	/* slots hold no NULL caches */
		kind->release(s->cache);
		if (cache) {
			s->cache = cache;
		} else {
			*at = s->next;
			free(s);
		}
	} else if (cache) {
		s = xmalloc(sizeof(*s));
		*s = (struct cache_slot){ .kind = kind, .cache = cache, .next = NULL };
		*at = s;
	}
}

void cache_slots__release(struct cache_slot **slots)
{
	while (*slots) {
		struct cache_slot *s = *slots;

		/* unlinked first: a release that looks again finds nothing */
		*slots = s->next;
		s->kind->release(s->cache);
		free(s);
	}
}
