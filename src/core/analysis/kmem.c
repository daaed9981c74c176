/* kmem: slab and page allocator statistics from kmem:* tracepoints (see kmem.h). */
#include "core/analysis/kmem.h"
#include "core/analysis/tp-fields.h"

#include <dirent.h>
#include <errno.h>
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-seq.h>

#include "util/util.h"

/* ---- storage: growable vectors of stats, hash maps of indexes --------- */

static void *vec_push(struct kmem_stat_vec *v, size_t size)
{
	if (v->nr == v->alloc) {
		v->alloc = v->alloc ? v->alloc * 2 : 256;
		v->v = xrealloc(v->v, v->alloc * size);
	}
	return memset((char *)v->v + v->nr++ * size, 0, size);
}

#define SLAB_AT(vec, i) (&((struct kmem_slab_stat *)(vec)->v)[i])
#define PAGE_AT(vec, i) (&((struct kmem_page_stat *)(vec)->v)[i])

/* A page group's identity: (page or call site, order, migrate type, gfp). */
struct group_key {
	uint64_t id;
	int order;
	uint32_t migrate_type, gfp_flags;
	uint32_t index;		/* in the vector, in the map's value */
};

static bool group_eq(const void *value, const void *key)
{
	const struct group_key *a = value, *b = key;

	return a->id == b->id && a->order == b->order && a->migrate_type == b->migrate_type &&
	       a->gfp_flags == b->gfp_flags;
}

static uint64_t group_hash(const struct group_key *k)
{
	uint64_t h = hash_add(hash_add(k->id, (uint64_t)k->order), k->migrate_type);

	return hash_mix(hash_add(h, k->gfp_flags));
}

void kmem__init(struct kmem *k)
{
	memset(k, 0, sizeof(*k));
	hashmap_init(&k->slab_alloc_idx, sizeof(uint32_t));
	hashmap_init(&k->slab_caller_idx, sizeof(uint32_t));
	hashmap_init(&k->page_idx, sizeof(uint32_t));
	hashmap_init(&k->page_alloc_idx, sizeof(struct group_key));
	hashmap_init(&k->page_caller_idx, sizeof(struct group_key));
	for (size_t i = 0; i < ARRAY_SIZE(k->cpu_node); i++)
		k->cpu_node[i] = -1;
	k->page_size = 4096;
}

void kmem__exit(struct kmem *k)
{
	free(k->slab_allocs.v);
	free(k->slab_callers.v);
	free(k->pages.v);
	free(k->page_allocs.v);
	free(k->page_callers.v);
	hashmap_release(&k->slab_alloc_idx);
	hashmap_release(&k->slab_caller_idx);
	hashmap_release(&k->page_idx);
	hashmap_release(&k->page_alloc_idx);
	hashmap_release(&k->page_caller_idx);
	for (int i = 0; i < k->nr_gfps; i++) {
		free(k->gfps[i].names);
		free(k->gfps[i].compact);
	}
	free(k->gfps);
	free(k->events);
	if (k->seq) {
		trace_seq_destroy(k->seq);
		free(k->seq);
	}
	free(k->slab_caller_sorted);
	free(k->slab_alloc_sorted);
	free(k->page_caller_sorted);
	free(k->page_alloc_sorted);
}

/* ---- sort keys ---------------------------------------------------------- */

static const struct {
	const char *name;
	enum kmem_key key;
} slab_keys[] = {
	{ "ptr", KMEM_KEY_PTR }, { "callsite", KMEM_KEY_CALLSITE }, { "hit", KMEM_KEY_HIT },
	{ "bytes", KMEM_KEY_BYTES }, { "frag", KMEM_KEY_FRAG }, { "pingpong", KMEM_KEY_PINGPONG },
}, page_keys[] = {
	{ "page", KMEM_KEY_PAGE }, { "callsite", KMEM_KEY_CALLSITE }, { "hit", KMEM_KEY_HIT },
	{ "bytes", KMEM_KEY_BYTES }, { "order", KMEM_KEY_ORDER },
	{ "migtype", KMEM_KEY_MIGTYPE }, { "gfp", KMEM_KEY_GFP },
};

int kmem__parse_sort(struct kmem_sort *sort, const char *arg, bool page, char **bad,
		     char **to_free)
{
	char *copy = xstrdup(arg), *pos = copy, *tok;

	*to_free = copy;
	while ((tok = strsep(&pos, ","))) {
		size_t n = page ? ARRAY_SIZE(page_keys) : ARRAY_SIZE(slab_keys), i;

		for (i = 0; i < n; i++)
			if (!strcmp(page ? page_keys[i].name : slab_keys[i].name, tok))
				break;
		if (i == n) {
			*bad = tok;
			return -1;
		}
		if (sort->nr < KMEM_MAX_SORT_KEYS)
			sort->keys[sort->nr++] = page ? page_keys[i].key : slab_keys[i].key;
	}
	return 0;
}

static void default_sort(struct kmem_sort *sort, bool page)
{
	char *bad, *copy;

	if (sort->nr)
		return;
	kmem__parse_sort(sort, page ? "bytes,hit" : "frag,hit,bytes", page, &bad, &copy);
	free(copy);
}

/* perf asks sysfs which node each CPU of this machine is on: the node
 * directories listed once (probing node0..node1023 by name cost a
 * thousand failed path lookups). */
static void read_cpu_nodes(struct kmem *k)
{
	static const char nodes_dir[] = "/sys/devices/system/node";
	DIR *nodes = opendir(nodes_dir), *dir;
	struct dirent *nd, *de;
	char path[300];

	while (nodes && (nd = readdir(nodes))) {
		int node;
		char tail;

		if (sscanf(nd->d_name, "node%d%c", &node, &tail) != 1 || node < 0 || node >= 1024)
			continue;
		snprintf(path, sizeof(path), "%s/%s", nodes_dir, nd->d_name);
		dir = opendir(path);
		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			unsigned int cpu;

			if (sscanf(de->d_name, "cpu%u%c", &cpu, &tail) == 1 &&
			    cpu < ARRAY_SIZE(k->cpu_node))
				k->cpu_node[cpu] = node;
		}
		closedir(dir);
	}
	if (nodes)
		closedir(nodes);
}

static struct evsel *find_tracepoint(struct perf_session *s, const char *name)
{
	for (struct evsel *e = s->evlist.first; e; e = e->next)
		if (e->attr.type == PERF_TYPE_TRACEPOINT && !strcmp(e->name, name))
			return e;
	return NULL;
}

void kmem__setup(struct kmem *k, struct perf_session *s)
{
	struct evsel *page_alloc = find_tracepoint(s, "kmem:mm_page_alloc");
	struct tep_event *tp = page_alloc ? perf_session__event(s, page_alloc)->tp_format : NULL;

	default_sort(&k->slab_caller_sort, false);
	default_sort(&k->slab_alloc_sort, false);
	default_sort(&k->page_caller_sort, true);
	default_sort(&k->page_alloc_sort, true);
	read_cpu_nodes(k);
	if (s->tep && tep_get_page_size(s->tep) > 0)
		k->page_size = (uint64_t)tep_get_page_size(s->tep);
	k->use_pfn = tp && tep_find_field(tp, "pfn");
	k->swap = tp_swapped(s->tep);
	k->seq = xmalloc(sizeof(*k->seq));
	trace_seq_init(k->seq);
}

/* ---- fields ------------------------------------------------------------- */

enum kmem_handler { H_NONE, H_SLAB_ALLOC, H_SLAB_FREE, H_PAGE_ALLOC, H_PAGE_FREE };
enum kmem_field {
	F_PTR, F_CALL_SITE, F_BYTES_REQ, F_BYTES_ALLOC, F_NODE, F_ORDER, F_GFP, F_MIGRATE, F_PAGE,
	F_NR
};

/* What one event is to kmem, looked up once. */
struct kmem_event {
	bool known;
	enum kmem_handler handler;
	struct tep_format_field *fields[F_NR];
};

static enum kmem_handler handler_of(const struct evsel *evsel)
{
	static const struct {
		const char *name;
		enum kmem_handler handler;
	} handlers[] = {
		{ "kmem:kmalloc", H_SLAB_ALLOC }, { "kmem:kmem_cache_alloc", H_SLAB_ALLOC },
		{ "kmem:kmalloc_node", H_SLAB_ALLOC },
		{ "kmem:kmem_cache_alloc_node", H_SLAB_ALLOC },
		{ "kmem:kfree", H_SLAB_FREE }, { "kmem:kmem_cache_free", H_SLAB_FREE },
		{ "kmem:mm_page_alloc", H_PAGE_ALLOC }, { "kmem:mm_page_free", H_PAGE_FREE },
	};

	if (evsel->attr.type != PERF_TYPE_TRACEPOINT)
		return H_NONE;
	for (size_t i = 0; i < ARRAY_SIZE(handlers); i++)
		if (!strcmp(evsel->name, handlers[i].name))
			return handlers[i].handler;
	return H_NONE;
}

static const struct kmem_event *event_of(struct kmem *k, struct perf_session *s,
					 const struct evsel *evsel)
{
	static const char *const names[F_NR] = {
		"ptr", "call_site", "bytes_req", "bytes_alloc", "node", "order", "gfp_flags",
		"migratetype", "page",
	};
	struct kmem_event *e;
	struct tep_event *tp;

	e = tp_event_slot(&k->events, &k->nr_events, evsel->idx, sizeof(*e));
	if (e->known)
		return e;
	e->known = true;
	e->handler = handler_of(evsel);
	tp = perf_session__event(s, evsel)->tp_format;
	for (int f = 0; tp && f < F_NR; f++)
		e->fields[f] = tep_find_field(tp, f == F_PAGE && k->use_pfn ? "pfn" : names[f]);
	return e;
}

static inline uint64_t field(const struct kmem *k, const struct kmem_event *e,
			     const struct perf_sample *sample, enum kmem_field which, bool *found)
{
	if (found)
		*found = e->fields[which] != NULL;
	return tp_read_number(e->fields[which], sample, k->swap);
}

double kmem__fragmentation(uint64_t req, uint64_t alloc)
{
	return alloc ? 100.0 - (100.0 * (double)req / (double)alloc) : 0.0;
}

/* ---- slab ----------------------------------------------------------------- */

static struct kmem_slab_stat *slab_findnew(struct kmem_stat_vec *vec, struct hashmap *idx,
					   uint64_t key, bool *added)
{
	uint32_t *i = hashmap_u64_findnew(idx, key, added);

	if (*added)
		*i = (uint32_t)vec->nr, vec_push(vec, sizeof(struct kmem_slab_stat));
	return SLAB_AT(vec, *i);
}

static struct kmem_slab_stat *slab_find(struct kmem_stat_vec *vec, struct hashmap *idx,
					uint64_t key)
{
	uint32_t *i = key == UINT64_MAX ? NULL : hashmap_u64_find(idx, key);

	return i ? SLAB_AT(vec, *i) : NULL;
}

static int slab_alloc(struct kmem *k, const struct kmem_event *e,
		      const struct perf_sample *sample)
{
	uint64_t ptr = field(k, e, sample, F_PTR, NULL);
	uint64_t call_site = field(k, e, sample, F_CALL_SITE, NULL);
	/* perf keeps the sizes in ints */
	int bytes_req = (int)field(k, e, sample, F_BYTES_REQ, NULL);
	int bytes_alloc = (int)field(k, e, sample, F_BYTES_ALLOC, NULL);
	struct kmem_slab_stat *st;
	bool added, has_node;
	int node;

	if (ptr == UINT64_MAX || call_site == UINT64_MAX)
		return 0;
	st = slab_findnew(&k->slab_allocs, &k->slab_alloc_idx, ptr, &added);
	if (added)
		st->ptr = ptr;
	st->hit++;
	st->bytes_req += (uint64_t)(int64_t)bytes_req;
	st->bytes_alloc += (uint64_t)(int64_t)bytes_alloc;
	st->call_site = call_site;
	st->alloc_cpu = (short)sample->cpu;
	st->last_alloc = (uint64_t)(int64_t)bytes_alloc;

	st = slab_findnew(&k->slab_callers, &k->slab_caller_idx, call_site, &added);
	if (added)
		st->call_site = call_site;
	st->hit++;
	st->bytes_req += (uint64_t)(int64_t)bytes_req;
	st->bytes_alloc += (uint64_t)(int64_t)bytes_alloc;

	k->total_requested += (uint64_t)(int64_t)bytes_req;
	k->total_allocated += (uint64_t)(int64_t)bytes_alloc;
	k->nr_allocs++;

	/* the allocation is cross-node when the tracepoint names a node
	 * (not NUMA_NO_NODE) other than the CPU's */
	node = (int)field(k, e, sample, F_NODE, &has_node);
	if (has_node && node != -1) {
		int cpu_node = sample->cpu < ARRAY_SIZE(k->cpu_node) ?
			       k->cpu_node[sample->cpu] : -1;

		if (cpu_node != node)
			k->nr_cross_allocs++;
	}
	return 0;
}

static int slab_free(struct kmem *k, const struct kmem_event *e,
		     const struct perf_sample *sample)
{
	uint64_t ptr = field(k, e, sample, F_PTR, NULL);
	struct kmem_slab_stat *st = slab_find(&k->slab_allocs, &k->slab_alloc_idx, ptr);

	if (!st)
		return 0;
	k->total_freed += st->last_alloc;
	if ((short)sample->cpu != st->alloc_cpu) {
		struct kmem_slab_stat *caller =
			slab_find(&k->slab_callers, &k->slab_caller_idx, st->call_site);

		st->pingpong++;
		if (!caller)
			return -1;	/* perf's status for a lost call site */
		caller->pingpong++;
	}
	st->alloc_cpu = -1;
	return 0;
}

/* ---- page ----------------------------------------------------------------- */

/* The short names perf shows for the gfp flag names. */
static const struct {
	const char *name, *compact;
} gfp_compact[] = {
	{ "GFP_TRANSHUGE", "THP" }, { "GFP_TRANSHUGE_LIGHT", "THL" },
	{ "GFP_HIGHUSER_MOVABLE", "HUM" }, { "GFP_HIGHUSER", "HU" }, { "GFP_USER", "U" },
	{ "GFP_KERNEL_ACCOUNT", "KAC" }, { "GFP_KERNEL", "K" }, { "GFP_NOFS", "NF" },
	{ "GFP_ATOMIC", "A" }, { "GFP_NOIO", "NI" }, { "GFP_NOWAIT", "NW" }, { "GFP_DMA", "D" },
	{ "__GFP_HIGHMEM", "HM" }, { "GFP_DMA32", "D32" }, { "__GFP_HIGH", "H" },
	{ "__GFP_ATOMIC", "_A" }, { "__GFP_IO", "I" }, { "__GFP_FS", "F" },
	{ "__GFP_NOWARN", "NWR" }, { "__GFP_RETRY_MAYFAIL", "R" }, { "__GFP_NOFAIL", "NF" },
	{ "__GFP_NORETRY", "NR" }, { "__GFP_COMP", "C" }, { "__GFP_ZERO", "Z" },
	{ "__GFP_NOMEMALLOC", "NMA" }, { "__GFP_MEMALLOC", "MA" }, { "__GFP_HARDWALL", "HW" },
	{ "__GFP_THISNODE", "TN" }, { "__GFP_RECLAIMABLE", "RC" }, { "__GFP_MOVABLE", "M" },
	{ "__GFP_ACCOUNT", "AC" }, { "__GFP_WRITE", "WR" }, { "__GFP_RECLAIM", "R" },
	{ "__GFP_DIRECT_RECLAIM", "DR" }, { "__GFP_KSWAPD_RECLAIM", "KR" },
};

/* "GFP_KERNEL|__GFP_ZERO" -> "K|Z"; NULL when no name is known (perf
 * then gives up on the recording). */
static char *compact_names(const char *names)
{
	char *copy = xstrdup(names), *pos = NULL, *tok;
	struct strbuf_lite {
		char *s;
		size_t len;
	} out = { NULL, 0 };

	for (tok = strtok_r(copy, "|", &pos); tok; tok = strtok_r(NULL, "|", &pos)) {
		for (size_t i = 0; i < ARRAY_SIZE(gfp_compact); i++) {
			size_t n = strlen(gfp_compact[i].compact);

			if (strcmp(gfp_compact[i].name, tok))
				continue;
			out.s = xrealloc(out.s, out.len + n + 2);
			if (out.len)
				out.s[out.len++] = '|';
			memcpy(out.s + out.len, gfp_compact[i].compact, n + 1);
			out.len += n;
		}
	}
	free(copy);
	return out.s;
}

static int gfp_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct kmem_gfp *)a)->flags, y = ((const struct kmem_gfp *)b)->flags;

	return x < y ? -1 : x > y;
}

static const struct kmem_gfp *gfp_find(const struct kmem *k, uint32_t flags)
{
	struct kmem_gfp key = { .flags = flags };

	return k->nr_gfps ? bsearch(&key, k->gfps, (size_t)k->nr_gfps, sizeof(key), gfp_cmp) : NULL;
}

const char *kmem__gfp_compact(const struct kmem *k, uint32_t flags)
{
	const struct kmem_gfp *g = gfp_find(k, flags);

	return g ? g->compact : NULL;
}

/* Learns the names of flags from the tracepoint's own text. */
static int learn_gfp(struct kmem *k, struct perf_session *s, struct evsel *evsel,
		     const struct perf_sample *sample, uint32_t flags)
{
	char *pos = NULL, *tok;

	if (gfp_find(k, flags))
		return 0;
	trace_seq_reset(k->seq);
	if (!perf_session__print_trace(s, evsel, sample, k->seq))
		return 0;
	for (tok = strtok_r(k->seq->buffer, " ", &pos); tok; tok = strtok_r(NULL, " ", &pos)) {
		struct kmem_gfp *g;
		char *compact;

		if (strncmp(tok, "gfp_flags=", 10))
			continue;
		compact = compact_names(tok + 10);
		if (!compact)
			return -ENOMEM;	/* as perf, which fails on unknown names */
		if ((int)strlen(compact) > k->max_gfp_len)
			k->max_gfp_len = (int)strlen(compact);
		k->gfps = xrealloc(k->gfps, (size_t)(k->nr_gfps + 1) * sizeof(*k->gfps));
		g = &k->gfps[k->nr_gfps++];
		g->flags = flags;
		g->names = xstrdup(tok + 10);
		g->compact = compact;
		qsort(k->gfps, (size_t)k->nr_gfps, sizeof(*k->gfps), gfp_cmp);
	}
	return 0;
}

/* perf's call site of a page allocation: the first frame of the call
 * chain taken back through its map (perf compares the raw addresses with
 * map-relative ones when skipping the allocator's own functions, so none
 * is ever skipped, and a kernel address comes out moved by the kernel
 * map's start); the sample's ip without a chain. */
static uint64_t page_callsite(struct perf_session *s, struct evsel *evsel,
			      const struct perf_sample *sample)
{
	struct callchain_frame frames[16];
	struct thread *thread = machine__findnew_thread(s->machine, (pid_t)sample->pid,
							(pid_t)sample->tid);
	int n = perf_session__resolve_callchain(s, evsel, sample, thread, 16, frames, 16);
	const struct map *map;

	if (n <= 0)
		return sample->ip;
	map = frames[0].al.map;
	if (!map)
		return frames[0].ip;
	if (map->identity)
		return frames[0].ip + map->start;
	return frames[0].ip + map->start - map->pgoff;
}

static struct kmem_page_stat *group_findnew(struct kmem_stat_vec *vec, struct hashmap *idx,
					    const struct group_key *key, bool create)
{
	struct group_key *slot;
	bool added;

	if (!create) {
		slot = hashmap_find(idx, group_hash(key), group_eq, key);
		return slot ? PAGE_AT(vec, slot->index) : NULL;
	}
	slot = hashmap_findnew(idx, group_hash(key), group_eq, key, &added);
	if (added) {
		struct kmem_page_stat *st = vec_push(vec, sizeof(*st));

		*slot = *key;
		slot->index = (uint32_t)(vec->nr - 1);
		st->order = key->order;
		st->migrate_type = key->migrate_type;
		st->gfp_flags = key->gfp_flags;
	}
	return PAGE_AT(vec, slot->index);
}

static struct kmem_page_stat *live_page(struct kmem *k, uint64_t page)
{
	uint32_t *i = page == UINT64_MAX ? NULL : hashmap_u64_find(&k->page_idx, page);
	struct kmem_page_stat *st = i ? PAGE_AT(&k->pages, *i) : NULL;

	return st && !st->gone ? st : NULL;
}

static int page_alloc(struct kmem *k, const struct kmem_event *e, struct perf_session *s,
		      struct evsel *evsel, const struct perf_sample *sample)
{
	int order = (int)field(k, e, sample, F_ORDER, NULL);
	uint32_t gfp = (uint32_t)field(k, e, sample, F_GFP, NULL);
	uint32_t migrate_type = (uint32_t)field(k, e, sample, F_MIGRATE, NULL);
	uint64_t page = field(k, e, sample, F_PAGE, NULL);
	uint64_t bytes = k->page_size << order, callsite;
	struct group_key key = { page, order, migrate_type, gfp, 0 };
	struct kmem_page_stat *st;

	k->nr_page_allocs++;
	k->total_page_alloc_bytes += bytes;
	if ((k->use_pfn && page == UINT64_MAX) || (!k->use_pfn && !page)) {
		k->nr_page_fails++;
		k->total_page_fail_bytes += bytes;
		return 0;
	}
	if (learn_gfp(k, s, evsel, sample, gfp) < 0)
		return -ENOMEM;
	callsite = page_callsite(s, evsel, sample);

	/* the page keeps the gfp and type of its first allocation */
	st = live_page(k, page);
	if (!st) {
		uint32_t *i = hashmap_u64_findnew(&k->page_idx, page, NULL);

		*i = (uint32_t)k->pages.nr;
		st = vec_push(&k->pages, sizeof(*st));
		st->page = page;
		st->order = order;
		st->gfp_flags = gfp;
		st->migrate_type = migrate_type;
	}
	st->nr_alloc++;
	st->alloc_bytes += bytes;
	st->callsite = callsite;

	if (!k->live) {
		st = group_findnew(&k->page_allocs, &k->page_alloc_idx, &key, true);
		st->page = page;
		st->nr_alloc++;
		st->alloc_bytes += bytes;
		st->callsite = callsite;
	}
	key.id = callsite;
	st = group_findnew(&k->page_callers, &k->page_caller_idx, &key, true);
	if (st->gone)
		memset(&st->alloc_bytes, 0,
		       sizeof(*st) - offsetof(struct kmem_page_stat, alloc_bytes));
	st->callsite = callsite;
	st->nr_alloc++;
	st->alloc_bytes += bytes;

	if (order >= 0 && order < KMEM_MAX_ORDER && migrate_type < KMEM_MIGRATE_TYPES)
		k->order_stats[order][migrate_type]++;
	return 0;
}

static int page_free(struct kmem *k, const struct kmem_event *e,
		     const struct perf_sample *sample)
{
	int order = (int)field(k, e, sample, F_ORDER, NULL);
	uint64_t page = field(k, e, sample, F_PAGE, NULL);
	uint64_t bytes = k->page_size << order;
	struct kmem_page_stat *st = live_page(k, page);
	struct group_key key;

	k->nr_page_frees++;
	k->total_page_free_bytes += bytes;
	if (!st) {
		k->nr_page_nomatch++;
		k->total_page_nomatch_bytes += bytes;
		return 0;
	}
	/* the free's order, the allocation's type and flags */
	key = (struct group_key){ page, order, st->migrate_type, st->gfp_flags, 0 };
	st->gone = true;

	if (k->live) {
		if (order >= 0 && order < KMEM_MAX_ORDER && key.migrate_type < KMEM_MIGRATE_TYPES)
			k->order_stats[order][key.migrate_type]--;
	} else {
		struct kmem_page_stat *group =
			group_findnew(&k->page_allocs, &k->page_alloc_idx, &key, false);

		if (!group)	/* freed with another order: perf gives up */
			return -ENOMEM;
		group->nr_free++;
		group->free_bytes += bytes;
	}
	key.id = st->callsite;
	st = group_findnew(&k->page_callers, &k->page_caller_idx, &key, false);
	if (!st || st->gone)
		return -ENOENT;
	st->nr_free++;
	st->free_bytes += bytes;
	if (k->live) {
		st->nr_alloc--;
		st->alloc_bytes -= bytes;
		if (!st->nr_alloc)
			st->gone = true;
	}
	return 0;
}

/* ---- dispatch ------------------------------------------------------------- */

int kmem__sample(struct kmem *k, struct perf_session *s, struct evsel *evsel,
		 const struct perf_sample *sample)
{
	const struct kmem_event *e = event_of(k, s, evsel);

	switch (e->handler) {
	case H_SLAB_ALLOC:
		return slab_alloc(k, e, sample);
	case H_SLAB_FREE:
		return slab_free(k, e, sample);
	case H_PAGE_ALLOC:
		return page_alloc(k, e, s, evsel, sample);
	case H_PAGE_FREE:
		return page_free(k, e, sample);
	default:
		return 0;
	}
}

/* ---- sorting -------------------------------------------------------------- */

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b))

static const struct kmem_sort *sort_keys;

/* A slab key's value as a number whose unsigned order is the key's. */
static uint64_t slab_key_value(enum kmem_key key, const struct kmem_slab_stat *st)
{
	double frag;
	uint64_t bits;

	switch (key) {
	case KMEM_KEY_PTR:
		return st->ptr;
	case KMEM_KEY_CALLSITE:
		return st->call_site;
	case KMEM_KEY_HIT:
		return st->hit;
	case KMEM_KEY_BYTES:
		return st->bytes_alloc;
	case KMEM_KEY_FRAG:
		/* IEEE doubles order as sign-magnitude integers: flip them
		 * into unsigned order (a zero is +0, as the comparison of
		 * doubles has -0 equal to it) */
		frag = kmem__fragmentation(st->bytes_req, st->bytes_alloc);
		if (frag == 0)
			frag = 0;
		memcpy(&bits, &frag, sizeof(bits));
		return bits >> 63 ? ~bits : bits | 1ULL << 63;
	case KMEM_KEY_PINGPONG:
		return st->pingpong;
	default:
		return 0;
	}
}

static int page_key_cmp(enum kmem_key key, const struct kmem_page_stat *a,
			const struct kmem_page_stat *b)
{
	switch (key) {
	case KMEM_KEY_PAGE:
		return CMP(a->page, b->page);
	case KMEM_KEY_CALLSITE:
		return CMP(a->callsite, b->callsite);
	case KMEM_KEY_HIT:
		return CMP(a->nr_alloc, b->nr_alloc);
	case KMEM_KEY_BYTES:
		return CMP(a->alloc_bytes, b->alloc_bytes);
	case KMEM_KEY_ORDER:
		return CMP(a->order, b->order);
	case KMEM_KEY_MIGTYPE:
		return CMP(a->migrate_type, b->migrate_type);
	case KMEM_KEY_GFP:
		return CMP(a->gfp_flags, b->gfp_flags);
	default:
		return 0;
	}
}

/* The user's keys descending; ties in perf's filing order, given by
 * tie_keys (ascending; a negative count means descending). */
static const enum kmem_key *tie_keys;
static int nr_tie_keys;

/* The slab tables are sorted as records of their keys' values, made once,
 * so that a comparison reads no stats scattered in memory: the user's keys
 * inverted (descending), the filing key, the stat's address. */
static size_t record_keys;

static int record_cmp(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;

	for (size_t i = 0; i < record_keys; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static int page_sorted_cmp(const void *pa, const void *pb)
{
	const struct kmem_page_stat *a = *(const void *const *)pa, *b = *(const void *const *)pb;
	int c;

	for (int i = 0; i < sort_keys->nr; i++)
		if ((c = page_key_cmp(sort_keys->keys[i], b, a)))
			return c;
	for (int i = 0; i < abs(nr_tie_keys); i++)
		if ((c = page_key_cmp(tie_keys[i], a, b)))
			return nr_tie_keys < 0 ? -c : c;
	return 0;
}

static size_t collect(const struct kmem_stat_vec *vec, size_t size, const void ***out,
		      bool skip_gone)
{
	size_t n = 0;

	*out = xmalloc((vec->nr + 1) * sizeof(**out));
	for (size_t i = 0; i < vec->nr; i++) {
		const void *st = (const char *)vec->v + i * size;

		if (skip_gone && ((const struct kmem_page_stat *)st)->gone)
			continue;
		(*out)[n++] = st;
	}
	return n;
}

static void sort_slab(const struct kmem_stat_vec *vec, const struct kmem_sort *sort,
		      enum kmem_key filed_by, const struct kmem_slab_stat ***out, size_t *nr)
{
	size_t width = (size_t)sort->nr + 2;
	uint64_t *records = xmalloc((vec->nr + 1) * width * sizeof(*records));

	for (size_t i = 0; i < vec->nr; i++) {
		const struct kmem_slab_stat *st = SLAB_AT(vec, i);
		uint64_t *r = records + i * width;

		for (int k = 0; k < sort->nr; k++)
			r[k] = ~slab_key_value(sort->keys[k], st);
		r[sort->nr] = slab_key_value(filed_by, st);
		r[sort->nr + 1] = (uint64_t)(uintptr_t)st;
	}
	record_keys = width - 1;
	qsort(records, vec->nr, width * sizeof(*records), record_cmp);
	*nr = vec->nr;
	*out = xmalloc((vec->nr + 1) * sizeof(**out));
	for (size_t i = 0; i < vec->nr; i++)
		(*out)[i] = (const struct kmem_slab_stat *)(uintptr_t)records[i * width + width - 1];
	free(records);
}

static void sort_page(const struct kmem_stat_vec *vec, const struct kmem_sort *sort,
		      const enum kmem_key *filed_by, int nr_filed_by,
		      const struct kmem_page_stat ***out, size_t *nr)
{
	*nr = collect(vec, sizeof(struct kmem_page_stat), (const void ***)out, true);
	sort_keys = sort;
	tie_keys = filed_by;
	nr_tie_keys = nr_filed_by;
	qsort(*out, *nr, sizeof(**out), page_sorted_cmp);
}

void kmem__sort(struct kmem *k)
{
	static const enum kmem_key by_page[] = {
		KMEM_KEY_PAGE, KMEM_KEY_ORDER, KMEM_KEY_MIGTYPE, KMEM_KEY_GFP,
	};
	static const enum kmem_key by_callsite[] = {
		KMEM_KEY_CALLSITE, KMEM_KEY_ORDER, KMEM_KEY_MIGTYPE, KMEM_KEY_GFP,
	};

	if (k->slab) {
		sort_slab(&k->slab_allocs, &k->slab_alloc_sort, KMEM_KEY_PTR,
			  &k->slab_alloc_sorted, &k->nr_slab_alloc_sorted);
		sort_slab(&k->slab_callers, &k->slab_caller_sort, KMEM_KEY_CALLSITE,
			  &k->slab_caller_sorted, &k->nr_slab_caller_sorted);
	}
	if (k->page) {
		/* perf files live pages in descending page order */
		if (k->live)
			sort_page(&k->pages, &k->page_alloc_sort, by_page, -1,
				  &k->page_alloc_sorted, &k->nr_page_alloc_sorted);
		else
			sort_page(&k->page_allocs, &k->page_alloc_sort, by_page, 4,
				  &k->page_alloc_sorted, &k->nr_page_alloc_sorted);
		sort_page(&k->page_callers, &k->page_caller_sort, by_callsite, 4,
			  &k->page_caller_sorted, &k->nr_page_caller_sorted);
	}
}
