/* buildid-cache: adding DSOs to perf's build-id cache, so that a recording
 * can be reported after the binaries changed or on another machine.
 *
 *   DIR/<path>/<hex>/elf            the binary (hard link, else a copy)
 *   DIR/<path>/<hex>/debug          its separate debug info, when installed
 *   DIR/[kernel.kallsyms]/<hex>/kallsyms   a copy of /proc/kallsyms
 *   DIR/[vdso]/<hex>/vdso           the vDSO image
 *   DIR/.build-id/<xx>/<rest>  ->   ../../<path>/<hex>
 *
 * DIR is $PERF_BUILDID_DIR, else buildid.dir from perfconfig, else ~/.debug.
 */
#ifndef PCL_BUILDID_CACHE_H
#define PCL_BUILDID_CACHE_H

#include <stdbool.h>
#include <stdint.h>

/* The cache directory (caller frees). */
char *build_id_cache__dir(void);

/* Adds the DSO named as in the BUILD_ID feature ("/usr/lib/libc.so.6",
 * "[kernel.kallsyms]", "[vdso]").  An entry already there is left alone.
 * Returns 0, or -errno. */
int build_id_cache__add(const char *dir, const char *name, const uint8_t *id, int size);
/* The same, the file's bytes read from source (name seen from another
 * mount namespace: /proc/PID/root/name). */
int build_id_cache__add_from(const char *dir, const char *name, const char *source,
			     const uint8_t *id, int size);

/* The entry directory of a file in the cache: DIR/<name>/<hex> (caller
 * frees). */
char *build_id_cache__entry(const char *dir, const char *name, const uint8_t *id, int size);

/* Removes the entry of name (its files, its directory and its .build-id
 * link).  Returns 0, or -ENOENT when it was not cached. */
int build_id_cache__remove(const char *dir, const char *name, const uint8_t *id, int size);

#endif
