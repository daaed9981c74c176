/* hist: histogram entries, their totals and output order (see hist.h). */
#include "core/hist/hist.h"
#include "core/data/perf-record.h"
#include "core/hist/hist-int.h"
#include "core/events/evsel.h"
#include "core/events/parse-events.h"
#include "core/symbols/srcline-text.h"
#include "util/rbtree.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <inttypes.h>
#include <stddef.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void memo_release(struct hists *h);

struct hists *hists__new(const struct hist_opts *opts, struct evsel *evsel,
			 struct strset *strings, struct callchain_store *store)
{
	struct hists *h = xcalloc(1, sizeof(*h));

	h->opts = opts;
	h->evsel = evsel;
	h->strings = strings;
	h->store = store;
	h->leader = h;
	h->nr_members = 1;
	h->socket_filter = -1;
	return h;
}

void hists__delete(struct hists *h)
{
	if (!h)
		return;
	memo_release(h);
	if (h->opts->layout.hierarchy)
		hists__hierarchy_free(h);
	free(h->sorted);
	free(h->members);
	free(h->spare);
	free(h->retired);
	hashmap_release(&h->by_hash);
	hashmap_release(&h->index_names);
	arena_release(&h->arena);
	strbuf_release(&h->scratch);
	free(h);
}

/* --- entries -------------------------------------------------------------- */

static void stat_add(struct he_stat *st, uint64_t period)
{
	st->period += period;
	st->nr_events++;
}

static void stat_add_cpumode(struct he_stat *st, uint8_t cpumode, uint64_t period)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		st->period_sys += period;
		break;
	case PERF_RECORD_MISC_USER:
		st->period_us += period;
		break;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		st->period_guest_sys += period;
		break;
	case PERF_RECORD_MISC_GUEST_USER:
		st->period_guest_us += period;
		break;
	default:
		break;
	}
}

static struct rb_node *entry_node(struct hist_entry *he, size_t off)
{
	return (struct rb_node *)(void *)((char *)he + off);
}

/* The tree entries live in: perf's entries_in, after the collapse pass
 * (for keys that need one) its entries_collapsed. */
struct rb_root *hists__entry_tree(struct hists *h, size_t *off)
{
	*off = h->is_collapsed ? offsetof(struct hist_entry, rb_collapsed) :
				 offsetof(struct hist_entry, rb_in);
	return h->is_collapsed ? &h->collapsed : &h->in;
}

/*
 * perf's search of an entry tree: returns the equal entry, or NULL and
 * where a new one goes.  As perf compares inlined functions by name and
 * others by address, the comparison is not always transitive and the walk
 * may miss an equal entry; perf then has two, and so does pcl.
 */
static struct hist_entry *tree_find(const struct hist_layout *l, struct rb_root *root, size_t off,
				    struct hist_entry *key, struct rb_node ***plink,
				    struct rb_node **pparent)
{
	struct rb_node **link = &root->node, *parent = NULL;
	bool collapsed = off == offsetof(struct hist_entry, rb_collapsed);

	while (*link) {
		int cmp;

		parent = *link;
		cmp = collapsed ? hist_layout__collapse_cmp(l, key, node_entry(parent, off)) :
				  hist_layout__cmp_mark(l, key, node_entry(parent, off));
		if (!cmp)
			return node_entry(parent, off);
		link = cmp < 0 ? &parent->left : &parent->right;
	}
	if (plink) {
		*plink = link;
		*pparent = parent;
	}
	return NULL;
}

struct index_key {
	const struct hist_layout *l;
	struct hist_entry *he;
};

static bool index_eq(const void *value, const void *key)
{
	const struct index_key *k = key;

	return !hist_layout__cmp_mark(k->l, k->he, *(struct hist_entry *const *)value);
}

/* The addresses of one DSO name's entries: while they span less than
 * 2^63 and none is inlined, the index answers for that name. */
struct index_span {
	int64_t lo, hi;
	bool used, broken;
};

static void index_off(struct hists *h)
{
	hashmap_release(&h->by_hash);
	hashmap_release(&h->index_names);
	h->index = HIST_INDEX_OFF;
}

static struct index_span *index_span(struct hists *h, const struct hist_entry *he, bool add)
{
	uint64_t name = he->dso ? he->dso->short_name_hash >> 1 : 0;	/* not UINT64_MAX */

	return add ? hashmap_u64_findnew(&h->index_names, name, NULL) :
		     hashmap_u64_find(&h->index_names, name);
}

/* Whether h->by_hash may answer for h->in's search. */
static bool index_on(struct hists *h)
{
	if (h->index == HIST_INDEX_UNKNOWN) {
		h->index = !h->nr_entries && !h->opts->layout.hierarchy &&
			   hist_layout__total_order(&h->opts->layout) ? HIST_INDEX_ON :
									HIST_INDEX_OFF;
		hashmap_init(&h->index_names, sizeof(struct index_span));
	}
	return h->index == HIST_INDEX_ON && !h->is_collapsed;
}

/* A new entry of h->in indexed, or the index given up when the entry
 * breaks the total order (or, which that order rules out, equals one). */
static void index_add(struct hists *h, struct hist_entry *he)
{
	struct index_key k = { &h->opts->layout, he };
	bool added;
	struct hist_entry **slot;
	struct index_span *span;
	int64_t lo, hi;

	span = index_span(h, he, true);
	if (span->broken)
		return;
	if (!hist_entry__order_addrs(he, &lo, &hi)) {
		span->broken = true;
		return;
	}
	if (!span->used || lo < span->lo)
		span->lo = lo;
	if (!span->used || hi > span->hi)
		span->hi = hi;
	span->used = true;
	if ((uint64_t)span->hi - (uint64_t)span->lo >= (uint64_t)1 << 63) {
		span->broken = true;
		return;
	}
	slot = hashmap_findnew(&h->by_hash, he->hash, index_eq, &k, &added);
	if (!added) {
		index_off(h);
		return;
	}
	*slot = he;
}

static struct hist_entry *entry_new(struct hists *h, const struct hist_entry *tmpl,
				    struct rb_node *parent, struct rb_node **link)
{
	struct hist_entry *he = h->nr_spare ? h->spare[--h->nr_spare] :
				arena_alloc_aligned(&h->arena, sizeof(*he), 64);
	struct hist_entry **pairs = he->pairs;	/* a reused entry's, for --group */
	size_t off;
	struct rb_root *root = hists__entry_tree(h, &off);

	*he = *tmpl;
	he->hists = h;
	he->browser_marks = 0;
	memset(&he->stat, 0, sizeof(he->stat));
	memset(&he->stat_acc, 0, sizeof(he->stat_acc));
	he->callchain = h->opts->use_callchain ? callchain_root__new(h->store) : NULL;
	if (h->nr_members > 1)
		he->pairs = pairs ? memset(pairs, 0, (size_t)(h->nr_members - 1) * sizeof(*pairs)) :
			arena_alloc(&h->arena, (size_t)(h->nr_members - 1) * sizeof(*he->pairs));
	rb_insert(root, entry_node(he, off), parent, link);
	h->nr_entries++;
	if (h->index == HIST_INDEX_ON && !h->is_collapsed)
		index_add(h, he);
	return he;
}

/* perf's findnew: the entry of tmpl's keys, created when the walk finds
 * none (tmpl->hash set).  While the keys order entries totally, the one
 * equal entry is the one the walk would find, so the index answers. */
static struct hist_entry *entry_findnew(struct hists *h, struct hist_entry *tmpl)
{
	struct rb_node **link, *parent;
	size_t off;
	struct rb_root *root = hists__entry_tree(h, &off);
	bool indexed = index_on(h);
	struct hist_entry *he;

	/* (an entry equal to tmpl has its addresses: only an inlined tmpl
	 * may equal an entry it would not find) */
	if (indexed && !tmpl->inlined) {
		struct index_span *span = index_span(h, tmpl, false);
		struct index_key k = { &h->opts->layout, tmpl };
		struct hist_entry **found = span && !span->broken ?
			hashmap_find(&h->by_hash, tmpl->hash, index_eq, &k) : NULL;

		if (found)
			return *found;
	}
	he = tree_find(&h->opts->layout, root, off, tmpl, &link, &parent);
	return he ? he : entry_new(h, tmpl, parent, link);
}

/* A sample's share of an entry: self samples count in Self (and in the
 * callchain total), every sample in Children. */
static void account(struct hists *h, struct hist_entry *he, bool self, uint64_t period,
		    uint8_t cpumode)
{
	if (self) {
		stat_add(&he->stat, period);
		stat_add_cpumode(&he->stat, cpumode, period);
		if (he->callchain) {
			h->stats.callchain_period += period;
			if (!he->filtered)
				h->stats.callchain_non_filtered_period += period;
		}
	}
	if (h->opts->cumulate) {
		stat_add(&he->stat_acc, period);
		stat_add_cpumode(&he->stat_acc, cpumode, period);
	}
}

/* perf's hists__findnew_entry (tmpl->hash set by the caller). */
static struct hist_entry *findnew(struct hists *h, struct hist_entry *tmpl, bool self,
				  uint64_t period, uint8_t cpumode)
{
	struct hist_entry *he = entry_findnew(h, tmpl);

	account(h, he, self, period, cpumode);
	return he;
}

/* perf's srcline of an entry: its address's line, else "sym+offset"
 * (decimal) or "dso[addr]"; "??:0" without a map. */
static const char *entry_srcline(struct hists *h, struct dso *dso, struct symbol *sym, uint64_t ip)
{
	const char *line;

	if (!dso)
		return strset_intern(h->strings, "??:0");
	line = srcline_known(dso, ip);
	if (line)
		return strset_intern(h->strings, line);
	strbuf_reset(&h->scratch);
	if (sym)
		strbuf_addf(&h->scratch, "%s+%" PRIu64, sym->name, ip - sym->start);
	else
		srcline_unknown(&h->scratch, dso, ip);
	return strset_intern(h->strings, strbuf_str(&h->scratch));
}

/* perf's srcfile: the file of the address's line, "" when unknown
 * (also for "??:0", a function found without a line).  perf cuts its
 * "dso[addr]" stand-in at a colon too: a memfd DSO without a symbol is
 * in srcfile "memfd". */
static const char *entry_srcfile(struct hists *h, struct dso *dso, struct symbol *sym,
				 uint64_t addr)
{
	const char *line = dso ? srcline_known(dso, addr) : NULL;

	if (srcline_lineless(line))
		line = NULL;
	if (!line && dso && !sym && strchr(dso->short_name, ':'))
		line = dso->short_name;
	const char *colon = line ? strchr(line, ':') : NULL;

	return strset_intern_len(h->strings, line ? line : "", colon ? (size_t)(colon - line) : 0);
}

/*
 * Samples with the same stack (and everything else that decides their
 * entries) land in the same entries and trie nodes; a direct-mapped memo
 * of recent stacks replays them without resolving entries again.
 */
#define MEMO_SLOTS 4096

struct memo_target {
	struct hist_entry *he;
	struct callchain_node *leaf;	/* where the stack ended in he's trie */
	uint8_t cpumode;
};

/* What a sample must share with the stored one to replay it: the keys
 * hists__add_sample takes from the sample rather than its stack. */
struct memo_key {
	struct thread *thread;
	const char *comm;
	struct dso *dso;
	struct symbol *sym;
	uint64_t ip;
	struct symbol *parent;
	const char *trace;
	int32_t cpu;
	char level;
	uint8_t filtered;
};

struct stack_memo {
	uint64_t hash;
	struct memo_key key;		/* of the sample's own entry template */
	uint8_t cpumode;
	const struct cc_frame **frames;
	uint32_t nr_frames;
	struct memo_target *targets;	/* [0]: the sample's own entry */
	uint32_t nr_targets, alloc_targets;
	size_t nr_entries;		/* the tree's size when stored */
};


static void record_target(struct memo_record *rec, struct hist_entry *he,
			  struct callchain_node *leaf, uint8_t cpumode)
{
	if (!rec)
		return;
	if (rec->nr == rec->alloc) {
		rec->alloc = rec->alloc ? rec->alloc * 2 : 32;
		rec->v = xrealloc(rec->v, rec->alloc * sizeof(*rec->v));
	}
	rec->v[rec->nr++] = (struct memo_target){ he, leaf, cpumode };
}

/* With --children every distinct function of the stack gets the sample
 * in its Children total, with the part of the stack from it onwards as
 * its callchain (perf's cumulative entries). */
static void add_cumulative(struct hists *h, const struct hist_sample *s, struct hist_entry *self,
			   struct memo_record *rec)
{
	const struct callchain_cursor *c = s->cursor;
	struct hist_entry *seen_stack[64], **seen = seen_stack;
	uint32_t nr_seen = 0;
	char level = s->level;
	uint8_t cpumode = s->cpumode;

	if (c->nr + 1 > ARRAY_SIZE(seen_stack))
		seen = xmalloc((c->nr + 1) * sizeof(*seen));
	seen[nr_seen++] = self;
	for (uint32_t i = 0; i < c->nr; i++) {
		const struct cc_frame *f = c->frames[i];
		struct hist_entry tmpl = {
			.hists = h,
			.thread = s->thread,
			.comm = s->comm,
			.dso = f->dso,
			.sym = f->sym,
			.ip = f->ip,	/* perf keeps the absolute address here */
			.object_off = f->sym && f->sym->object ? f->addr - f->sym->start : 0,
			.inlined = f->inlined,
			.parent = c->parent,
			.trace = s->trace,
			.cpu = s->cpu,
			.socket = s->socket,
			.time = s->time,
			.weight = s->weight,
			.ins_lat = s->ins_lat,
			.map_size = f->map_size,
			/* perf unmaps the (absolute) ip again for the addr key */
			.unmap_shift = f->unmap_shift,
			.transaction = s->transaction,
			.code_page_size = s->code_page_size,
			.cgroup = s->cgroup,
			.mem = s->mem,
			.br = s->br,
			.filtered = s->filtered,
		};
		struct callchain_node *leaf = NULL;
		struct hist_entry *he, blind;
		struct hist_entry *probe;
		bool dup = false;

		/* an unresolved frame outside any map keeps the mode before it */
		if (f->sym || f->dso) {
			cpumode = f->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
			level = f->kernel ? 'k' : '.';
		}
		tmpl.level = level;
		if (h->opts->layout.has_srcline)
			tmpl.srcline = f->srcline ? f->srcline : entry_srcline(h, f->dso, f->sym, f->ip);
		if (h->opts->layout.has_srcfile)
			tmpl.srcfile = entry_srcfile(h, f->dso, f->sym, f->ip);	/* absolute: perf's */
		tmpl.hash = hist_layout__hash(&h->opts->layout, &tmpl);
		probe = &tmpl;
		if (h->opts->layout.has_sample_keys) {
			/* perf looks for the frame's entry among those the sample
			 * already reached without its socket, time, weight,
			 * transaction and code page size */
			blind = tmpl;
			blind.socket = 0;
			blind.time = blind.weight = 0;
			blind.transaction = blind.code_page_size = 0;
			blind.hash = hist_layout__hash(&h->opts->layout, &blind);
			probe = &blind;
		}
		/* recursion: a function counts once per sample (the hash only
		 * spares comparisons) */
		for (uint32_t k = 0; k < nr_seen && !dup; k++)
			dup = seen[k]->hash == probe->hash &&
			      !hist_layout__cmp_mark(&h->opts->layout, seen[k], probe);
		if (dup)
			continue;
		he = findnew(h, &tmpl, false, s->period, cpumode);
		seen[nr_seen++] = he;
		if (he->callchain)
			leaf = callchain_root__append_branches(h->store, he->callchain,
							       c->frames + i,
							       c->branches ? c->branches + i : NULL,
							       c->nr - i, s->period);
		record_target(rec, he, leaf, cpumode);
	}
	if (seen != seen_stack)
		free(seen);
}

static struct symbol *sample_parent(const struct hist_sample *s)
{
	return s->cursor ? s->cursor->parent : NULL;
}

/* Keyed by the sample itself, so that a replayed one builds no entry template. */
static uint64_t memo_hash(const struct hist_sample *s)
{
	const struct callchain_cursor *c = s->cursor;
	uint64_t h = s->addr ^ ((uintptr_t)s->thread << 7) ^ ((uintptr_t)s->comm << 13) ^
		     ((uintptr_t)s->sym << 17) ^ (uint64_t)(uint32_t)s->cpu ^
		     ((uintptr_t)s->trace << 3) ^ s->cpumode;

	h ^= c->hash;
	return h ^ (h >> 29);
}

static bool memo_match(const struct stack_memo *m, uint64_t hash, const struct hist_sample *s,
		       size_t nr_entries)
{
	const struct callchain_cursor *c = s->cursor;

	return m->frames && m->hash == hash && m->cpumode == s->cpumode && m->nr_frames == c->nr &&
	       m->nr_entries == nr_entries &&
	       m->key.thread == s->thread && m->key.comm == s->comm && m->key.dso == s->dso &&
	       m->key.sym == s->sym && m->key.ip == s->addr &&
	       m->key.parent == sample_parent(s) && m->key.trace == s->trace &&
	       m->key.cpu == s->cpu && m->key.level == s->level &&
	       m->key.filtered == s->filtered &&
	       (!c->nr || !memcmp(m->frames, c->frames, c->nr * sizeof(*c->frames)));
}

static void memo_replay(struct hists *h, const struct stack_memo *m, uint64_t period)
{
	for (uint32_t i = 0; i < m->nr_targets; i++) {
		const struct memo_target *t = &m->targets[i];

		account(h, t->he, i == 0, period, t->cpumode);
		if (t->leaf)
			callchain_node__add(t->leaf, period);
	}
}

static void memo_store(struct stack_memo *m, uint64_t hash, const struct hist_entry *k,
		       uint8_t cpumode, const struct callchain_cursor *c,
		       const struct memo_record *rec, size_t nr_entries)
{
	free(m->frames);
	m->hash = hash;
	m->key = (struct memo_key){
		.thread = k->thread, .comm = k->comm, .dso = k->dso, .sym = k->sym, .ip = k->ip,
		.parent = k->parent, .trace = k->trace, .cpu = k->cpu, .level = k->level,
		.filtered = k->filtered,
	};
	m->cpumode = cpumode;
	m->nr_frames = c->nr;
	m->nr_entries = nr_entries;
	m->frames = xmalloc((c->nr ? c->nr : 1) * sizeof(*m->frames));
	if (c->nr)
		memcpy(m->frames, c->frames, c->nr * sizeof(*c->frames));
	if (m->alloc_targets < rec->nr) {
		m->alloc_targets = rec->nr;
		m->targets = xrealloc(m->targets, rec->nr * sizeof(*m->targets));
	}
	memcpy(m->targets, rec->v, rec->nr * sizeof(*rec->v));
	m->nr_targets = rec->nr;
}

static void memo_release(struct hists *h)
{
	for (size_t i = 0; h->memo && i < MEMO_SLOTS; i++) {
		free(h->memo[i].frames);
		free(h->memo[i].targets);
	}
	free(h->memo);
	free(h->memo_rec.v);
	h->memo = NULL;
	memset(&h->memo_rec, 0, sizeof(h->memo_rec));
}

struct hist_sample hist_sample__resolved(struct thread *thread, const struct addr_location *al,
					 const struct perf_sample *sample, struct strset *strings)
{
	return (struct hist_sample){
		.thread = thread,
		.comm = strset_intern(strings, thread->comm ? thread->comm : ""),
		.dso = al->map ? al->dso : NULL,
		.sym = al->map ? al->sym : NULL,
		.addr = al->addr,
		.level = al->level,
		.cpumode = sample->cpumode,
		.cpu = (int32_t)sample->cpu,
		.socket = -1,
		.period = sample->period,
		.unmap_shift = al->map ? map__unmap_ip(al->map, 0) : 0,
		.transaction = sample->transaction,
		.code_page_size = sample->code_page_size,
	};
}

struct hist_entry *hists__add_sample(struct hists *h, const struct hist_sample *s)
{
	/* a replay would not count the branches of --branch-history */
	struct memo_record *rec = s->cursor && !s->cursor->branches &&
				  !h->opts->layout.has_sample_keys ? &h->memo_rec : NULL;
	struct stack_memo *slot = NULL;
	struct callchain_node *leaf = NULL;
	struct hist_entry *he, tmpl;
	uint64_t hash = 0;

	h->stats.nr_samples++;
	if (rec) {
		if (!h->memo)
			h->memo = xcalloc(MEMO_SLOTS, sizeof(*h->memo));
		hash = memo_hash(s);
		slot = &h->memo[hash % MEMO_SLOTS];
		if (memo_match(slot, hash, s, h->nr_entries)) {
			memo_replay(h, slot, s->period);
			h->stats.nr_non_filtered_samples += !slot->targets[0].he->filtered;
			return slot->targets[0].he;
		}
		rec->nr = 0;
	}
	tmpl = (struct hist_entry){
		.hists = h,
		.thread = s->thread,
		.comm = s->comm,
		.dso = s->dso,
		.sym = s->sym,
		.ip = s->addr,
		.parent = sample_parent(s),
		.trace = s->trace,
		.cpu = s->cpu,
		.socket = s->socket,
		.time = s->time,
		.weight = s->weight,
		.ins_lat = s->ins_lat,
		.map_size = s->map_size,
		.unmap_shift = s->unmap_shift,
		.transaction = s->transaction,
		.code_page_size = s->code_page_size,
		.cgroup = s->cgroup,
		.mem = s->mem,
		.br = s->br,
		.level = s->level,
		.filtered = s->filtered,
	};
	if (h->opts->layout.has_srcline)
		tmpl.srcline = entry_srcline(h, s->dso, s->sym, s->addr);
	if (h->opts->layout.has_srcfile)
		tmpl.srcfile = entry_srcfile(h, s->dso, s->sym, s->addr);
	if (h->opts->layout.has_branch_srcline && s->br.present) {
		tmpl.br.from.srcline = entry_srcline(h, s->br.from.dso, s->br.from.sym,
						     s->br.from.al_addr);
		tmpl.br.to.srcline = entry_srcline(h, s->br.to.dso, s->br.to.sym, s->br.to.al_addr);
	}
	tmpl.hash = hist_layout__hash(&h->opts->layout, &tmpl);
	he = findnew(h, &tmpl, true, s->period, s->cpumode);
	/* an entry stays as filtered as the sample that made it (perf) */
	h->stats.nr_non_filtered_samples += !he->filtered;
	if (he->callchain && s->cursor)
		leaf = callchain_root__append_branches(h->store, he->callchain, s->cursor->frames,
						       s->cursor->branches, s->cursor->nr,
						       s->period);
	record_target(rec, he, leaf, s->cpumode);
	if (h->opts->cumulate && s->cursor)
		add_cumulative(h, s, he, rec);
	if (slot)
		memo_store(slot, hash, &tmpl, s->cpumode, s->cursor, rec, h->nr_entries);
	return he;
}

void he_stat__merge(struct he_stat *into, const struct he_stat *st)
{
	into->period += st->period;
	into->period_sys += st->period_sys;
	into->period_us += st->period_us;
	into->period_guest_sys += st->period_guest_sys;
	into->period_guest_us += st->period_guest_us;
	into->nr_events += st->nr_events;
}

void hists__apply_ui_filters(const struct hists *h, struct hist_entry *he)
{
	if (h->symbol_filter && (!he->sym || !strstr(he->sym->name, h->symbol_filter)))
		he->filtered |= HIST_FILTER_SYMBOL;
	if (h->socket_filter >= 0 && he->socket != h->socket_filter)
		he->filtered |= HIST_FILTER_SOCKET;
}

/* perf's collapse pass: entries re-inserted one by one; equal ones merge
 * (which also catches some perf's first walk missed).  A new one meets
 * --symbol-filter and --socket-filter here: perf has them nowhere else,
 * so without a key that collapses they filter nothing. */
void hists__collapse(struct hists *h)
{
	const struct hist_layout *l = &h->opts->layout;
	const size_t in_off = offsetof(struct hist_entry, rb_in);
	const size_t off = offsetof(struct hist_entry, rb_collapsed);

	if (h->is_collapsed || !l->need_collapse)
		return;
	if (l->hierarchy) {
		hists__build_hierarchy(h);
		h->is_collapsed = true;
		return;
	}
	/* While the index is on, the keys up to the DSO's order entries
	 * totally, and past them so do those of every DSO name whose span is
	 * whole: h->in's walk has such an entry after every one before it and
	 * equal to none, so its search here would only go right.  It goes
	 * under the last node without comparisons. */
	bool ordered = h->index == HIST_INDEX_ON && !l->sym_by_name;
	struct rb_node *last = NULL;	/* the tree's rightmost node */

	for (struct rb_node *nd = rb_first(&h->in); nd; nd = rb_next(nd)) {
		struct hist_entry *he = node_entry(nd, in_off), *into;
		struct rb_node **link, *parent;
		const struct index_span *span = ordered ? index_span(h, he, false) : NULL;

		if (span && !span->broken && !he->inlined) {
			into = NULL;
			parent = last;
			link = last ? &last->right : &h->collapsed.node;
		} else {
			into = tree_find(l, &h->collapsed, off, he, &link, &parent);
		}
		if (!into) {
			rb_insert(&h->collapsed, entry_node(he, off), parent, link);
			/* (rotations keep the greatest node rightmost) */
			if (link == (last ? &last->right : &h->collapsed.node))
				last = entry_node(he, off);
			else
				for (last = h->collapsed.node; last->right; last = last->right)
					;
			hists__apply_ui_filters(h, he);
			continue;
		}
		he_stat__merge(&into->stat, &he->stat);
		he_stat__merge(&into->stat_acc, &he->stat_acc);
		if (into->callchain && he->callchain)
			callchain_root__merge(h->store, into->callchain, he->callchain);
		h->nr_entries--;
	}
	h->is_collapsed = true;
}

/* --- ageing (perf top) ----------------------------------------------------- */

static void push_entry(struct hist_entry ***v, size_t *nr, size_t *alloc, struct hist_entry *he)
{
	if (*nr == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 64;
		*v = xrealloc(*v, *alloc * sizeof(**v));
	}
	(*v)[(*nr)++] = he;
}

/* Unlinks the entries drop() says go, for new entries to reuse (their call
 * graphs stay in the store), or with retire to stay shown until released;
 * the replay memo, which points at entries, is forgotten. */
static void unlink_entries_if(struct hists *h, bool (*drop)(struct hist_entry *he, void *arg),
			      void *arg, bool retire)
{
	size_t off;
	struct rb_root *root = hists__entry_tree(h, &off);
	struct rb_node *nd = rb_first(root);

	memo_release(h);
	index_off(h);
	if (!retire) {
		free(h->sorted);
		h->sorted = NULL;
		h->nr_sorted = 0;
	}
	h->stats.callchain_period = h->stats.callchain_non_filtered_period = 0;
	while (nd) {
		struct hist_entry *he = node_entry(nd, off);

		nd = rb_next(nd);
		if (drop(he, arg)) {
			rb_erase(root, entry_node(he, off));
			h->nr_entries--;
			if (retire)
				push_entry(&h->retired, &h->nr_retired, &h->alloc_retired, he);
			else
				push_entry(&h->spare, &h->nr_spare, &h->alloc_spare, he);
			continue;
		}
		if (he->callchain) {
			h->stats.callchain_period += he->stat.period;
			if (!he->filtered)
				h->stats.callchain_non_filtered_period += he->stat.period;
		}
	}
}

struct decay_zap {
	bool user, kernel;
};

static bool decay_entry(struct hist_entry *he, void *arg)
{
	const struct decay_zap *zap = arg;

	if ((zap->user && he->level == '.') || (zap->kernel && he->level != '.'))
		return true;
	/* perf drops an entry that had no Self period before decaying too */
	if (!he->stat.period)
		return true;
	he->stat.period = he->stat.period * 7 / 8;
	he->stat.nr_events = he->stat.nr_events * 7 / 8;
	if (he->hists->opts->cumulate) {
		he->stat_acc.period = he->stat_acc.period * 7 / 8;
		he->stat_acc.nr_events = he->stat_acc.nr_events * 7 / 8;
	}
	if (he->callchain)
		callchain_root__decay(he->callchain);
	return !he->stat.period;
}

void hists__decay(struct hists *h, bool zap_user, bool zap_kernel)
{
	struct decay_zap zap = { zap_user, zap_kernel };

	unlink_entries_if(h, decay_entry, &zap, false);
}

void hists__move_callchains(struct hists *h, struct callchain_store *to,
			    struct cc_resolver *frames)
{
	size_t off;
	struct rb_root *root = hists__entry_tree(h, &off);

	memo_release(h);	/* it points at frames */
	h->store = to;
	for (struct rb_node *nd = rb_first(root); nd; nd = rb_next(nd)) {
		struct hist_entry *he = node_entry(nd, off);

		if (he->callchain)
			he->callchain = callchain_root__copy(to, he->callchain, frames);
	}
}

void hists__for_each_entry(struct hists *h, void (*fn)(const struct hist_entry *he, void *arg),
			   void *arg)
{
	size_t off;
	struct rb_root *root = hists__entry_tree(h, &off);

	for (struct rb_node *nd = rb_first(root); nd; nd = rb_next(nd))
		fn(node_entry(nd, off), arg);
}

static bool every_entry(struct hist_entry *he, void *arg)
{
	return true;
}

void hists__delete_entries(struct hists *h)
{
	unlink_entries_if(h, every_entry, NULL, false);
}

void hists__retire_entries(struct hists *h)
{
	unlink_entries_if(h, every_entry, NULL, true);
}

void hists__release_retired(struct hists *h)
{
	if (h->nr_retired) {	/* what it showed */
		free(h->sorted);
		h->sorted = NULL;
		h->nr_sorted = 0;
	}
	for (size_t i = 0; i < h->nr_retired; i++)
		push_entry(&h->spare, &h->nr_spare, &h->alloc_spare, h->retired[i]);
	h->nr_retired = 0;
}

void hists__recalc_col_len(struct hists *h, size_t max_rows)
{
	size_t rows = 0;

	memset(h->col_len, 0, sizeof(h->col_len));
	/* the rows shown: hidden entries (--comms, --dsos ...) take none */
	for (size_t i = 0; i < h->nr_sorted && rows < max_rows; i++)
		if (!h->sorted[i]->filtered) {
			hists__calc_col_len(h, h->sorted[i]);
			rows++;
		}
}

/* --- groups --------------------------------------------------------------- */

void hists__match(struct hists *leader, struct hists *member, int member_idx)
{
	const struct hist_layout *l = &leader->opts->layout;
	int slot = member_idx - 1;
	size_t loff, moff;
	struct rb_root *lroot = hists__entry_tree(leader, &loff);
	struct rb_root *mroot = hists__entry_tree(member, &moff);

	/* perf top matches again at every refresh */
	for (struct rb_node *nd = rb_first(mroot); nd; nd = rb_next(nd))
		node_entry(nd, moff)->paired = false;
	for (struct rb_node *nd = rb_first(lroot); nd; nd = rb_next(nd)) {
		struct hist_entry *he = node_entry(nd, loff);

		he->pairs[slot] = tree_find(l, mroot, moff, he, NULL, NULL);
		if (he->pairs[slot])
			he->pairs[slot]->paired = true;
	}
}

void hists__link(struct hists *leader, struct hists *member, int member_idx)
{
	const struct hist_layout *l = &leader->opts->layout;
	int slot = member_idx - 1;
	size_t loff, moff;
	struct rb_root *lroot = hists__entry_tree(leader, &loff);
	struct rb_root *mroot = hists__entry_tree(member, &moff);

	/* entries only the member has get an empty twin in the leader */
	for (struct rb_node *nd = rb_first(mroot); nd; nd = rb_next(nd)) {
		struct hist_entry *pos = node_entry(nd, moff), *twin;
		struct rb_node **link, *parent;

		if (pos->paired)
			continue;
		twin = tree_find(l, lroot, loff, pos, &link, &parent);
		if (!twin)
			twin = entry_new(leader, pos, parent, link);
		twin->pairs[slot] = pos;
	}
}

char *hists__group_desc(const struct hists *leader, bool braces)
{
	struct strbuf sb = STRBUF_INIT;

	if (braces)
		strbuf_addf(&sb, "%s { ", leader->evsel->group_name ? leader->evsel->group_name :
			    "anon group");
	strbuf_addstr(&sb, leader->evsel->name);
	for (int i = 0; i < leader->nr_members - 1; i++)
		strbuf_addf(&sb, ", %s", leader->members[i]->evsel->name);
	if (braces)
		strbuf_addstr(&sb, " }");
	return strbuf_detach(&sb);
}

void hists__link_group(struct hists *leader, struct hists *member, int member_idx)
{
	if (leader->opts->layout.hierarchy) {
		hists__hierarchy_link(leader, member, member_idx - 1);
		return;
	}
	hists__match(leader, member, member_idx);
	hists__link(leader, member, member_idx);
}

/* --- totals and output order ---------------------------------------------- */

uint64_t hists__total_period(const struct hists *h)
{
	return h->opts->filter_relative ? h->stats.total_non_filtered_period : h->stats.total_period;
}

double hist_entry__percent_limit(const struct hist_entry *he)
{
	uint64_t total = hists__total_period(he->hists);
	uint64_t period = he->hists->opts->cumulate ? he->stat_acc.period : he->stat.period;

	return total ? period * 100.0 / total : 0;
}

uint64_t hist_entry__value(const struct hist_entry *he, enum hist_value v)
{
	switch (v) {
	case HV_OVERHEAD:
		return he->stat.period;
	case HV_OVERHEAD_SYS:
		return he->stat.period_sys;
	case HV_OVERHEAD_US:
		return he->stat.period_us;
	case HV_OVERHEAD_GUEST_SYS:
		return he->stat.period_guest_sys;
	case HV_OVERHEAD_GUEST_US:
		return he->stat.period_guest_us;
	case HV_OVERHEAD_ACC:
		return he->stat_acc.period;
	case HV_SAMPLES:
		return he->stat.nr_events;
	case HV_PERIOD:
		return he->stat.period;
	}
	return 0;
}

static void col_len_max(struct hists *h, enum hist_column col, size_t len)
{
	if (len > h->col_len[col])
		h->col_len[col] = (uint16_t)(len > 0xffff ? 0xffff : len);
}

/* The memory keys' widths, as perf measures them. */
static void calc_mem_col_len(struct hists *h, const struct hist_entry *he)
{
	size_t unresolved = UNRESOLVED_ADDR_WIDTH + 4 + 2;
	bool unres_dso = !h->opts->field_sep && !h->opts->dso_filter && !h->opts->user_widths;

	if (he->mem.present && he->mem.sym) {
		col_len_max(h, HISTC_MEM_DADDR_SYMBOL, strlen(he->mem.sym->name) + unresolved);
		col_len_max(h, HISTC_MEM_DCACHELINE, strlen(he->mem.sym->name) + unresolved + 1);
	} else if (!he->mem.present) {
		col_len_max(h, HISTC_MEM_DADDR_SYMBOL, unresolved);
		col_len_max(h, HISTC_MEM_DCACHELINE, unresolved);
	} else if (unres_dso) {
		col_len_max(h, HISTC_MEM_DADDR_SYMBOL, UNRESOLVED_ADDR_WIDTH);
		col_len_max(h, HISTC_MEM_DCACHELINE, UNRESOLVED_ADDR_WIDTH);
	}
	if (he->mem.present && he->sym)
		col_len_max(h, HISTC_MEM_IADDR_SYMBOL, strlen(he->sym->name) + unresolved);
	else if (!he->mem.present)
		col_len_max(h, HISTC_MEM_IADDR_SYMBOL, unresolved);
	else if (unres_dso)
		col_len_max(h, HISTC_MEM_IADDR_SYMBOL, UNRESOLVED_ADDR_WIDTH);
	if (he->mem.present && he->mem.dso)
		col_len_max(h, HISTC_MEM_DADDR_DSO, strlen(h->opts->verbose ? dso__shown_long_name(he->mem.dso) :
						  he->mem.dso->short_name));
	else if (unres_dso)
		col_len_max(h, HISTC_MEM_DADDR_DSO, UNRESOLVED_ADDR_WIDTH);
	if (he->mem.present) {
		col_len_max(h, HISTC_MEM_PHYS_DADDR, unresolved);
		col_len_max(h, HISTC_MEM_DATA_PAGE_SIZE, unresolved);
	}
	col_len_max(h, HISTC_MEM_LOCKED, 6);
	col_len_max(h, HISTC_MEM_TLB, 22);
	col_len_max(h, HISTC_MEM_SNOOP, 12);
	col_len_max(h, HISTC_MEM_LVL, 21 + 3);
	col_len_max(h, HISTC_MEM_BLOCKED, 10);
	col_len_max(h, HISTC_LOCAL_INS_LAT, 13);
	col_len_max(h, HISTC_INS_LAT, 13);
}

/* A branch end's symbol, DSO and address widths: perf measures the DSO
 * only when a symbol covers the address, the address only when none does */
static void calc_branch_end_len(struct hists *h, const struct hist_branch_end *e,
				enum hist_column sym_col, enum hist_column dso_col,
				enum hist_column addr_col)
{
	if (e->sym) {
		col_len_max(h, sym_col, strlen(e->sym->name) + 4 +
			    (h->opts->verbose ? VERBOSE_ADDR_WIDTH + 3 : 0));
		if (e->dso)
			col_len_max(h, dso_col, strlen(h->opts->verbose ?
						       dso__shown_long_name(e->dso) :
						       e->dso->short_name));
	} else {
		col_len_max(h, sym_col, UNRESOLVED_ADDR_WIDTH + 4 + 2);
		col_len_max(h, addr_col, UNRESOLVED_ADDR_WIDTH + 4 + 2);
		if (!h->opts->field_sep && !h->opts->dso_filter && !h->opts->user_widths)
			col_len_max(h, dso_col, UNRESOLVED_ADDR_WIDTH);
	}
}

/* perf's hists__calc_col_len: widths from what entries will show. */
void hists__calc_col_len(struct hists *h, const struct hist_entry *he)
{
	size_t comm_len = he->thread->comm ? strlen(he->thread->comm) : 0;

	/* -v puts "address origin " before the symbol */
	size_t verbose_len = h->opts->verbose ? VERBOSE_ADDR_WIDTH + 3 : 0;

	if (he->sym) {
		col_len_max(h, HISTC_SYMBOL, strlen(he->sym->name) + 4 + verbose_len);
	} else {
		col_len_max(h, HISTC_SYMBOL, UNRESOLVED_ADDR_WIDTH + 4 + 2);
		if (!h->opts->field_sep && !h->opts->dso_filter && !h->opts->user_widths)
			col_len_max(h, HISTC_DSO, UNRESOLVED_ADDR_WIDTH);
	}
	if (comm_len > h->col_len[HISTC_COMM]) {
		h->col_len[HISTC_COMM] = (uint16_t)comm_len;
		h->col_len[HISTC_THREAD] = (uint16_t)(comm_len + 8);
	}
	if (he->dso)
		col_len_max(h, HISTC_DSO, strlen(h->opts->verbose ? dso__shown_long_name(he->dso) :
						  he->dso->short_name));
	if (he->parent)
		col_len_max(h, HISTC_PARENT, strlen(he->parent->name));
	col_len_max(h, HISTC_CPU, 3);
	col_len_max(h, HISTC_SOCKET, 6);
	if (he->cgroup.id)
		col_len_max(h, HISTC_CGROUP, strlen(he->cgroup.path ? he->cgroup.path : "unknown"));
	/* perf computes source lines lazily: those it has not yet are not
	 * measured (and get cut to the width when printed) */
	if (he->srcline && (he->srcline_compared || h->opts->layout.hierarchy))
		col_len_max(h, HISTC_SRCLINE, strlen(he->srcline) > 11 ? strlen(he->srcline) : 11);
	if (he->trace)
		col_len_max(h, HISTC_TRACE, strlen(he->trace));
	if (he->srcfile)
		col_len_max(h, HISTC_SRCFILE, strlen(he->srcfile));
	col_len_max(h, HISTC_TIME, h->opts->nanosecs ? 16 : 12);
	col_len_max(h, HISTC_WEIGHT, 12);
	col_len_max(h, HISTC_LOCAL_WEIGHT, 12);
	col_len_max(h, HISTC_ADDR, UNRESOLVED_ADDR_WIDTH + 2);
	calc_mem_col_len(h, he);
	if (he->br.present) {
		calc_branch_end_len(h, &he->br.from, HISTC_SYMBOL_FROM, HISTC_DSO_FROM,
				    HISTC_ADDR_FROM);
		calc_branch_end_len(h, &he->br.to, HISTC_SYMBOL_TO, HISTC_DSO_TO, HISTC_ADDR_TO);
		if (he->br.from.srcline && he->br.from.srcline_compared)
			col_len_max(h, HISTC_SRCLINE_FROM, strlen(he->br.from.srcline));
		if (he->br.to.srcline && he->br.to.srcline_compared)
			col_len_max(h, HISTC_SRCLINE_TO, strlen(he->br.to.srcline));
	}
}

/* A group member's value of an entry (0: the leader's own), 0 without. */
static uint64_t member_value(const struct hist_entry *he, int i, enum hist_value v)
{
	if (!i)
		return hist_entry__value(he, v);
	return he->pairs[i - 1] ? hist_entry__value(he->pairs[i - 1], v) : 0;
}

/* --group-sort-idx N: member N's value first, then the other members'
 * (perf leaves the leader's out of this order). */
static int group_idx_cmp(const struct hist_entry *a, const struct hist_entry *b,
			 enum hist_value v, int idx)
{
	for (int k = 0; k < a->hists->nr_members; k++) {
		int i = k ? k : idx;	/* idx first, then 1, 2, ... but idx */
		uint64_t x, y;

		if (k && k == idx)
			continue;
		x = member_value(a, i, v);
		y = member_value(b, i, v);
		if (x != y)
			return x > y ? -1 : 1;
	}
	return 0;
}

static int value_cmp(const struct hist_entry *a, const struct hist_entry *b, enum hist_value v)
{
	uint64_t x = hist_entry__value(a, v), y = hist_entry__value(b, v);
	int nr = a->hists->nr_members;
	int idx = a->hists->opts->group_sort_idx;

	if (v != HV_OVERHEAD_ACC && a->hists->opts->event_group && idx) {
		/* perf: an index outside the members sorts by the leader alone */
		if (idx >= 1 && idx < nr)
			return group_idx_cmp(a, b, v, idx);
		return x == y ? 0 : x > y ? -1 : 1;
	}
	if (x != y)
		return x > y ? -1 : 1;
	if (v == HV_OVERHEAD_ACC) {
		const struct hist_opts *o = a->hists->opts;
		int ret;

		/* equal Children: the caller above its callee */
		if (a->thread != b->thread || !a->callchain || !b->callchain)
			return 0;
		ret = a->callchain->max_depth < b->callchain->max_depth ? -1 :
		      a->callchain->max_depth > b->callchain->max_depth;
		return o->cc.order == ORDER_CALLER ? -ret : ret;
	}
	if (!a->hists->opts->event_group)
		return 0;
	for (int i = 0; i < nr - 1; i++) {
		x = a->pairs[i] ? hist_entry__value(a->pairs[i], v) : 0;
		y = b->pairs[i] ? hist_entry__value(b->pairs[i], v) : 0;
		if (x != y)
			return x > y ? -1 : 1;
	}
	return 0;
}

/* A command's own columns sorting before the layout's (perf diff's). */
struct output_order {
	hist_entry_cmp_fn first;
	void *arg;
};

/* perf's hist_entry__sort: the output sort keys only.  Not always
 * transitive (equal Children compare by depth only within a thread). */
static int output_cmp(const struct hist_entry *a, const struct hist_entry *b,
		      const struct output_order *order, const struct hist_field **reached,
		      int *nr_reached)
{
	const struct hist_layout *l = &a->hists->opts->layout;
	bool mark = l->has_srcline || l->has_branch_srcline;
	int ret;

	if (order && (ret = order->first(a, b, order->arg)))
		return ret;

	for (int i = 0; i < l->nr_sorts; i++) {
		const struct hist_field *f = l->sorts[i];

		if (l->sort_elided[i])
			continue;
		if (mark && f->is_key && !f->sort)	/* source lines perf computes here */
			reached[(*nr_reached)++] = f;
		if (f->is_key)
			ret = f->sort ? f->sort(a, b) : f->cmp(a, b);
		else
			ret = value_cmp(a, b, f->value);
		if (ret)
			return ret;
	}
	return 0;
}


struct out_node {
	struct rb_node rb;
	struct hist_entry *he;
};

/*
 * perf walks its entries in identity order and inserts each into a
 * red-black tree (equal ones to the right).  As the comparison is not
 * always transitive, the output depends on that tree's shape, so the
 * same insertion is done here: v[0..n) in identity order becomes v in
 * output order.
 */
static void sort_output(struct hist_entry **v, size_t n, struct hists *widths,
			const struct output_order *order)
{
	struct out_node *nodes = xmalloc((n ? n : 1) * sizeof(*nodes));
	struct rb_root root = { NULL };

	for (size_t i = 0; i < n; i++) {
		struct rb_node **link = &root.node, *parent = NULL;

		nodes[i].he = v[i];
		while (*link) {
			struct out_node *it = (struct out_node *)*link;

			const struct hist_field *reached[HIST_MAX_FIELDS];
			int nr_reached = 0;

			parent = *link;
			link = output_cmp(v[i], it->he, order, reached, &nr_reached) < 0 ?
			       &parent->left : &parent->right;
			for (int k = 0; k < nr_reached; k++)
				hist_field__mark_srclines(reached[k], v[i], it->he);
		}
		rb_insert(&root, &nodes[i].rb, parent, link);
		/* perf sizes the columns entry by entry, as it inserts them */
		if (widths && !v[i]->filtered)
			hists__calc_col_len(widths, v[i]);
	}
	n = 0;
	for (struct rb_node *nd = rb_first(&root); nd; nd = rb_next(nd))
		v[n++] = ((struct out_node *)nd)->he;
	free(nodes);
}

void hist_entries__sort_output(struct hist_entry **v, size_t n, struct hists *widths)
{
	sort_output(v, n, widths, NULL);
}

static void output_resort(struct hists *h, const struct output_order *order,
			  bool (*keep)(const struct hist_entry *he, void *arg))
{
	size_t off;
	struct rb_root *root = hists__entry_tree(h, &off);

	h->stats.total_period = h->stats.total_non_filtered_period = 0;
	memset(h->col_len, 0, sizeof(h->col_len));
	free(h->sorted);
	h->sorted = xmalloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*h->sorted));
	h->nr_sorted = 0;
	for (struct rb_node *nd = rb_first(root); nd; nd = rb_next(nd)) {
		struct hist_entry *he = node_entry(nd, off);

		if (keep && !keep(he, order->arg))
			continue;
		if (he->callchain)
			callchain_root__finalize(he->callchain);
		h->stats.total_period += he->stat.period;
		if (!he->filtered)
			h->stats.total_non_filtered_period += he->stat.period;
		h->sorted[h->nr_sorted++] = he;
	}
	sort_output(h->sorted, h->nr_sorted, h, order);
}

void hists__sort_again(struct hists *h)
{
	sort_output(h->sorted, h->nr_sorted, NULL, NULL);
}

void hists__output_resort(struct hists *h)
{
	hists__collapse(h);
	if (h->opts->layout.hierarchy) {
		hists__hierarchy_output_resort(h);
		return;
	}
	output_resort(h, NULL, NULL);
}

void hists__output_resort_by(struct hists *h, hist_entry_cmp_fn first,
			     bool (*keep)(const struct hist_entry *he, void *arg), void *arg)
{
	struct output_order order = { first, arg };

	hists__collapse(h);
	output_resort(h, &order, keep);
}

uint8_t hist_filter__host_guest(uint8_t cpumode)
{
	bool guest = cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
		     cpumode == PERF_RECORD_MISC_GUEST_USER;
	bool host = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_USER;

	return (guest && !parse_events__guest ? HIST_FILTER_GUEST : 0) |
	       (host && !parse_events__host ? HIST_FILTER_HOST : 0);
}
