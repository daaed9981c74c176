/* map: one mapping [start, end) of a DSO, and maps: an address space kept
 * sorted and non-overlapping, where a new mapping splits or replaces the
 * ones it overlaps, as mmap(2) does in the kernel.
 */
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

uint64_t map__map_ip(const struct map *map, uint64_t ip)
{
	return map->identity ? ip : ip - map->start + map->pgoff;
}

uint64_t map__unmap_ip(const struct map *map, uint64_t addr)
{
	return map->identity ? addr : addr + map->start - map->pgoff;
}

struct maps *maps__new(void)
{
	struct maps *maps = xcalloc(1, sizeof(*maps));

	maps->refcnt = 1;
	return maps;
}

struct maps *maps__get(struct maps *maps)
{
	maps->refcnt++;
	return maps;
}

void maps__put(struct maps *maps)
{
	if (!maps || --maps->refcnt > 0)
		return;
	cache_slots__release(&maps->caches);
	free(maps->v);	/* the maps themselves belong to the machine */
	free(maps);
}

void maps__release_caches(struct maps *maps)
{
	if (maps)
		cache_slots__release(&maps->caches);
}

void *maps__cache(const struct maps *maps, const struct cache_kind *kind)
{
	return cache_slots__get(maps->caches, kind);
}

void maps__set_cache(struct maps *maps, const struct cache_kind *kind, void *cache)
{
	cache_slots__set(&maps->caches, kind, cache);
}

/* Index of the first map whose end is above addr. */
static size_t maps__lower(const struct maps *maps, uint64_t addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->v[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct map *maps__find(const struct maps *maps, uint64_t addr)
{
	size_t i = maps__lower(maps, addr);

	if (i < maps->nr && maps->v[i]->start <= addr)
		return maps->v[i];
	return NULL;
}

void maps__for_each_map(const struct maps *maps, void (*fn)(const struct map *map, void *arg),
			void *arg)
{
	for (size_t i = 0; i < maps->nr; i++)
		fn(maps->v[i], arg);
}

static void maps__insert_at(struct maps *maps, size_t i, struct map *map)
{
	if (maps->nr == maps->alloc) {
		maps->alloc = maps->alloc ? maps->alloc * 2 : 16;
		maps->v = xrealloc(maps->v, maps->alloc * sizeof(*maps->v));
	}
	memmove(&maps->v[i + 1], &maps->v[i], (maps->nr - i) * sizeof(*maps->v));
	maps->v[i] = map;
	maps->nr++;
}

static struct map *map__clone(struct machine *m, const struct map *from)
{
	struct map *map = machine__new_map(m);

	*map = *from;
	return map;
}

void maps__insert(struct maps *maps, struct map *map, struct machine *m)
{
	size_t i = maps__lower(maps, map->start);
	struct map *before = NULL, *after = NULL;
	size_t j = i;

	if (map->end <= map->start)
		return;
	/* Every map in [i, j) overlaps the new one. */
	while (j < maps->nr && maps->v[j]->start < map->end)
		j++;
	if (j > i) {
		const struct map *first = maps->v[i], *last = maps->v[j - 1];

		if (first->start < map->start) {
			before = map__clone(m, first);
			before->end = map->start;
		}
		if (last->end > map->end) {
			after = map__clone(m, last);
			after->start = map->end;
			if (!after->identity)
				after->pgoff += map->end - last->start;
		}
		memmove(&maps->v[i], &maps->v[j], (maps->nr - j) * sizeof(*maps->v));
		maps->nr -= j - i;
	}
	if (after)
		maps__insert_at(maps, i, after);
	maps__insert_at(maps, i, map);
	if (before)
		maps__insert_at(maps, i, before);
	maps->generation++;
}

void maps__remove(struct maps *maps, struct map *map)
{
	for (size_t i = 0; i < maps->nr; i++)
		if (maps->v[i] == map) {
			memmove(&maps->v[i], &maps->v[i + 1], (maps->nr - i - 1) * sizeof(*maps->v));
			maps->nr--;
			maps->generation++;
			return;
		}
}

void maps__clone(struct maps *to, const struct maps *from, struct machine *m)
{
	for (size_t i = 0; i < from->nr; i++)
		maps__insert(to, map__clone(m, from->v[i]), m);
}

bool map__has_file_id(const struct map *map)
{
	return map->maj || map->min || map->ino || map->ino_generation;
}
