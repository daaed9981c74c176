/* kmem: the slab and page allocator statistics of `pcl kmem stat`.
 *
 * Fed with the samples of kmem:* tracepoints (perf kmem record's events),
 * it keeps perf's tables: per allocated pointer and per call site for the
 * slab allocator; per page, per call site and per (order, migrate type)
 * for the page allocator.  kmem__sort() then orders them by the user's
 * keys, descending, ties in the order of the key perf files them under
 * (pointer, call site, page), so the tables come out as perf's do.
 */
#ifndef PCL_ANALYSIS_KMEM_H
#define PCL_ANALYSIS_KMEM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/data/session.h"
#include "util/hashmap.h"

#define KMEM_MAX_ORDER 11
#define KMEM_MIGRATE_TYPES 6
#define KMEM_MAX_SORT_KEYS 16

enum kmem_key {
	KMEM_KEY_PTR, KMEM_KEY_CALLSITE, KMEM_KEY_HIT, KMEM_KEY_BYTES, KMEM_KEY_FRAG,
	KMEM_KEY_PINGPONG, KMEM_KEY_PAGE, KMEM_KEY_ORDER, KMEM_KEY_MIGTYPE, KMEM_KEY_GFP,
};

struct kmem_sort {
	enum kmem_key keys[KMEM_MAX_SORT_KEYS];
	int nr;
};

/* One slab pointer or call site (perf's alloc_stat). */
struct kmem_slab_stat {
	uint64_t ptr, call_site;
	uint64_t bytes_req, bytes_alloc, last_alloc;
	uint32_t hit, pingpong;
	short alloc_cpu;
};

/* One page, or one (call site | page, order, migrate type, gfp) group. */
struct kmem_page_stat {
	uint64_t page, callsite;
	int order;
	uint32_t gfp_flags, migrate_type;
	uint64_t alloc_bytes, free_bytes;
	int nr_alloc, nr_free;
	bool gone;		/* freed (live pages) or emptied (live call sites) */
};

/* A gfp_flags value the recording showed, with its names. */
struct kmem_gfp {
	uint32_t flags;
	char *names;		/* "GFP_KERNEL|__GFP_ZERO", as the tracepoint prints it */
	char *compact;		/* "K|Z" */
};

struct kmem_stat_vec {
	void *v;
	size_t nr, alloc;
};

struct kmem_event;

struct kmem {
	/* settings */
	bool slab, page, live;
	struct kmem_sort slab_caller_sort, slab_alloc_sort;
	struct kmem_sort page_caller_sort, page_alloc_sort;
	int cpu_node[4096];		/* NUMA node of each CPU, -1 unknown */
	uint64_t page_size;
	bool use_pfn;
	bool swap;			/* the file's byte order is not ours */

	/* slab */
	struct kmem_stat_vec slab_allocs, slab_callers;	/* struct kmem_slab_stat */
	struct hashmap slab_alloc_idx, slab_caller_idx;	/* key -> index + 1 */
	uint64_t total_requested, total_allocated, total_freed;
	uint64_t nr_allocs, nr_cross_allocs;

	/* page */
	struct kmem_stat_vec pages, page_allocs, page_callers;	/* struct kmem_page_stat */
	struct hashmap page_idx, page_alloc_idx, page_caller_idx;
	uint64_t nr_page_allocs, nr_page_frees, nr_page_fails, nr_page_nomatch;
	uint64_t total_page_alloc_bytes, total_page_free_bytes;
	uint64_t total_page_nomatch_bytes, total_page_fail_bytes;
	int order_stats[KMEM_MAX_ORDER][KMEM_MIGRATE_TYPES];
	struct kmem_gfp *gfps;		/* by flags */
	int nr_gfps, max_gfp_len;
	struct trace_seq *seq;
	struct kmem_event *events;	/* per evsel idx: its handler and fields */
	int nr_events;

	/* kmem__sort()'s results */
	const struct kmem_slab_stat **slab_caller_sorted, **slab_alloc_sorted;
	size_t nr_slab_caller_sorted, nr_slab_alloc_sorted;
	const struct kmem_page_stat **page_caller_sorted, **page_alloc_sorted;
	size_t nr_page_caller_sorted, nr_page_alloc_sorted;
};

void kmem__init(struct kmem *k);
void kmem__exit(struct kmem *k);

/* Appends "frag,hit" (comma-separated) to sort; slab or page keys.  -1 with
 * *bad pointing into a copy the caller frees (*to_free) at the unknown key. */
int kmem__parse_sort(struct kmem_sort *sort, const char *arg, bool page, char **bad,
		     char **to_free);
/* perf's defaults for the lists the user left empty, and what the file
 * tells (page size, pfn or page pointers). */
void kmem__setup(struct kmem *k, struct perf_session *s);

/* One sample of evsel (kmem:* tracepoints; others are ignored).  perf's
 * negative status on a failure that stops its processing (an unknown gfp
 * name, a free whose page group or call site cannot be found). */
int kmem__sample(struct kmem *k, struct perf_session *s, struct evsel *evsel,
		 const struct perf_sample *sample);

void kmem__sort(struct kmem *k);

/* The compact gfp string of flags, or NULL when the recording named none. */
const char *kmem__gfp_compact(const struct kmem *k, uint32_t flags);
double kmem__fragmentation(uint64_t req, uint64_t alloc);

#endif
