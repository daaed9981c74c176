/* dso-hits: which DSOs a recording's samples landed in, so that perf record
 * can store their build ids (the BUILD_ID feature) and no others.
 *
 * A light model, not the full machine: maps are kept per process as the
 * MMAP/MMAP2 records (synthesized and recorded) describe them, forks link a
 * child to its parent's maps, and each sample contributes its (pid, page)
 * once.  Resolution happens at the end, so samples that were drained before
 * the map record that covers them (they come from different CPUs' buffers)
 * still count.  Maps are page aligned, so a page decides the map exactly.
 */
#ifndef PCL_DSO_HITS_H
#define PCL_DSO_HITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/data/header-features.h"

struct dso_hits;

struct dso_hits *dso_hits__new(void);
void dso_hits__delete(struct dso_hits *h);

/* A map of filename at [start, start + len) in process pid (-1: kernel). */
void dso_hits__mmap(struct dso_hits *h, int32_t pid, uint64_t start, uint64_t len,
		    const char *filename);
/* pid was forked from ppid: it sees ppid's maps until it maps its own. */
void dso_hits__fork(struct dso_hits *h, int32_t pid, int32_t ppid);
/* A sample at ip in pid (kernel: a kernel-mode ip). */
void dso_hits__sample(struct dso_hits *h, int32_t pid, uint64_t ip, bool kernel);

/* Feeds one recorded record: MMAP, MMAP2, FORK; samples need their ip and
 * pid, which the caller parses (see dso_hits__sample). */
void dso_hits__record(struct dso_hits *h, const void *record);

/*
 * The DSOs that were hit (every DSO seen when all is set) that have a
 * build id, kernel first.  The array and its strings belong to h.
 */
/* The kernel's name in the build-id table (the vmlinux its symbols come
 * from) instead of "[kernel.kallsyms]"; its build id stays the running
 * kernel's. */
void dso_hits__name_kernel(struct dso_hits *h, const char *name);

size_t dso_hits__resolve(struct dso_hits *h, bool all, const struct hit_dso **out);

#endif
