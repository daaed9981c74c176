/* map: one mapping [start, end) of a DSO in an address space, and maps:
 * an address space (a process's, or the kernel's with its modules).
 *
 * Public: what readers, the UI, hist/ and the commands may use.  How maps
 * are inserted, split and shared lives in symbols-int.h, which only
 * src/core/symbols/ and unit tests include.
 */
#ifndef PCL_MAP_H
#define PCL_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "core/symbols/dso.h"

struct map {
	uint64_t start, end;	/* [start, end) in the address space */
	uint64_t pgoff;
	struct dso *dso;
	uint32_t prot, flags;	/* MMAP2 prot/flags (PROT_EXEC assumed for MMAP) */
	uint64_t ino;		/* MMAP2's inode (0 with a build id instead) */
	uint32_t maj, min;	/* ... and device, likewise */
	uint64_t ino_generation;
	bool identity;		/* ip is the DSO address (kernel, anon/JIT maps) */
	bool ksymbol;		/* a KSYMBOL's (a BPF program's) */
};

/* Address -> DSO-relative address through a map (perf's map__map_ip). */
uint64_t map__map_ip(const struct map *map, uint64_t ip);
uint64_t map__unmap_ip(const struct map *map, uint64_t addr);

/* Whether MMAP2 named a file (device or inode) for the map. */
bool map__has_file_id(const struct map *map);

struct maps;

/* The map covering addr, or NULL. */
struct map *maps__find(const struct maps *maps, uint64_t addr);
/* Every map, by address. */
void maps__for_each_map(const struct maps *maps, void (*fn)(const struct map *map, void *arg),
			void *arg);

/* Caches attached to an address space (see struct cache_kind in dso.h):
 * released once when the last thread lets go of it, or on an exec. */
void *maps__cache(const struct maps *maps, const struct cache_kind *kind);
void maps__set_cache(struct maps *maps, const struct cache_kind *kind, void *cache);

#endif
