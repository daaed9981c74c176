/* embed: symbol tables carried inside a perf.data (pcl archive --embed).
 *
 * A machine's loaded symbol tables, written as one zstd-compressed buffer
 * (the layout is in docs/pcl-archive.1), and the reverse: a machine given
 * such a buffer takes a DSO's symbols from it before any file, so a
 * profile reports the same anywhere, without its binaries, build-id cache
 * or the kernel's kallsyms.
 */
#ifndef PCL_EMBED_H
#define PCL_EMBED_H

#include <stddef.h>

struct machine;

struct symbols_embed_stats {
	size_t nr_dsos, nr_syms;
	const char *skipped_kernel;	/* the vmlinux whose tables were left out */
};

/* Every DSO whose symbols were loaded (those the processed samples and
 * callchains reached), with the resolutions of the addresses looked up
 * where perf's tree decides among overlapping symbols.  A kernel read
 * from a vmlinux is left out (its maps were rebuilt from the image).
 * Returns the malloc'ed buffer and its *size, NULL when no DSO had
 * symbols. */
void *symbols_embed__write(struct machine *m, size_t *size, struct symbols_embed_stats *stats);

/* The DSOs the machine loads from now on take their symbols from buf
 * (copied) when it names them.  Returns -1 when buf is no such table. */
int machine__use_embedded_symbols(struct machine *m, const void *buf, size_t size);

#endif
