/* u64map: the symbol engine's u64-keyed hash map, which hist/callchain.h
 * and srccode.h embed too.  Its own header so that they need not reach
 * into symbols-int.h; it gives way to the shared util/ hash map.
 */
#ifndef PCL_U64MAP_H
#define PCL_U64MAP_H

#include <stddef.h>
#include <stdint.h>

/* --- u64-keyed hash map (open addressing) ------------------------------ */
struct u64map {
	uint64_t *keys;
	void **vals;
	size_t cap, used;	/* cap is 0 or a power of two */
};
void *u64map_get(const struct u64map *h, uint64_t key);
void u64map_put(struct u64map *h, uint64_t key, void *val);
void u64map_release(struct u64map *h);

#endif
