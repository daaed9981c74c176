/* c2c: perf c2c's categories of memory samples (see c2c.h). */
#include "core/analysis/c2c.h"
#include "core/hist/data-src.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/data/perf-data.h"
#include "core/symbols/dso.h"
#include "core/symbols/srcline-text.h"
#include "core/symbols/thread.h"
#include "util/strbuf.h"
#include "util/util.h"

enum {
	OP_LOAD = 1 << 1, OP_STORE = 1 << 2,
	LVL_NA = 1 << 0, LVL_HIT = 1 << 1, LVL_MISS = 1 << 2, LVL_L1 = 1 << 3, LVL_LFB = 1 << 4,
	LVL_L2 = 1 << 5, LVL_L3 = 1 << 6, LVL_LOC_RAM = 1 << 7, LVL_REM_RAM1 = 1 << 8,
	LVL_REM_RAM2 = 1 << 9, LVL_REM_CCE1 = 1 << 10, LVL_REM_CCE2 = 1 << 11, LVL_IO = 1 << 12,
	LVL_UNC = 1 << 13,
	SNOOP_HIT = 1 << 2, SNOOP_HITM = 1 << 4,
	SNOOPX_PEER = 1 << 1,
	LOCK_LOCKED = 1 << 1,
	BLK_DATA = 1 << 1, BLK_ADDR = 1 << 2,
};

static void decode_load(struct c2c_stats *st, const struct data_src *d)
{
	/* a remote bit without hops: some remote level the hardware did not name */
	bool remote_unknown = d->remote && !d->hops;
	bool shared_snoop = d->snoop & SNOOP_HIT;

	if (d->lvl & LVL_HIT) {
		st->ld_uncache += !!(d->lvl & LVL_UNC);
		st->ld_io += !!(d->lvl & LVL_IO);
		st->ld_fbhit += !!(d->lvl & LVL_LFB);
		st->ld_l1hit += !!(d->lvl & LVL_L1);
		if (d->lvl & LVL_L2) {
			st->ld_l2hit++;
			if (d->snoopx & SNOOPX_PEER)
				st->lcl_peer++, st->tot_peer++;
		}
		if (d->lvl & LVL_L3) {
			if (d->snoop & SNOOP_HITM)
				st->lcl_hitm++, st->tot_hitm++;
			else
				st->ld_llchit++;
			if (d->snoopx & SNOOPX_PEER)
				st->lcl_peer++, st->tot_peer++;
		}
		if (d->lvl & LVL_LOC_RAM) {
			st->lcl_dram++;
			shared_snoop ? st->ld_shared++ : st->ld_excl++;
		}
		if ((d->lvl & (LVL_REM_RAM1 | LVL_REM_RAM2)) || remote_unknown) {
			st->rmt_dram++;
			shared_snoop ? st->ld_shared++ : st->ld_excl++;
		}
		if ((d->lvl & (LVL_REM_CCE1 | LVL_REM_CCE2)) || remote_unknown) {
			if (d->snoop & SNOOP_HIT)
				st->rmt_hit++;
			else if (d->snoop & SNOOP_HITM)
				st->rmt_hitm++, st->tot_hitm++;
			if (d->snoopx & SNOOPX_PEER)
				st->rmt_peer++, st->tot_peer++;
		}
	}
	st->ld_miss += !!(d->lvl & LVL_MISS);
}

void c2c_stats__decode(struct c2c_stats *st, uint64_t data_src, uint64_t daddr, bool mapped)
{
	struct data_src d;

	data_src__decode(data_src, &d);
	st->nr_entries++;
	st->locks += !!(d.lock & LOCK_LOCKED);
	st->blk_data += !!(d.blk & BLK_DATA);
	st->blk_addr += !!(d.blk & BLK_ADDR);
	if (d.op & OP_LOAD) {
		st->load++;
		if (!daddr) {
			st->ld_noadrs++;
			return;
		}
		decode_load(st, &d);
	} else if (d.op & OP_STORE) {
		st->store++;
		if (!daddr) {
			st->st_noadrs++;
			return;
		}
		if (d.lvl & LVL_HIT) {
			st->st_uncache += !!(d.lvl & LVL_UNC);
			st->st_l1hit += !!(d.lvl & LVL_L1);
		}
		st->st_l1miss += (d.lvl & LVL_MISS) && (d.lvl & LVL_L1);
		st->st_na += !!(d.lvl & LVL_NA);
	} else {
		st->noparse++;
		return;
	}
	st->nomap += !mapped;
}

uint32_t c2c_stats__llc_misses(const struct c2c_stats *st)
{
	return st->lcl_dram + st->rmt_dram + st->rmt_hitm + st->rmt_hit;
}

uint32_t c2c_stats__loads(const struct c2c_stats *st)
{
	return c2c_stats__llc_misses(st) + st->ld_fbhit + st->ld_l1hit + st->ld_l2hit +
	       st->ld_llchit + st->lcl_hitm;
}

uint32_t c2c_stats__records(const struct c2c_stats *st)
{
	return c2c_stats__loads(st) + st->st_l1hit + st->st_l1miss + st->st_na;
}

static void stats_add(struct c2c_stats *to, const struct c2c_stats *from)
{
	uint32_t *t = (uint32_t *)to;
	const uint32_t *f = (const uint32_t *)from;

	for (size_t i = 0; i < sizeof(*to) / sizeof(uint32_t); i++)
		t[i] += f[i];
}

/* An entry's key: its line, its offset and the -c keys (the others 0). */
struct entry_key {
	uint32_t line_id;
	int32_t tid, pid;
	uint64_t offset, iaddr;
	const char *dso;	/* the short name; NULL: no map, or not a key */
};

struct entry_slot {
	struct entry_key key;
	struct c2c_entry entry;
};

static bool line_eq(const void *value, const void *key)
{
	return !memcmp(&((const struct c2c_line *)value)->key, key, sizeof(struct c2c_line_key));
}

static bool entry_eq(const void *value, const void *key)
{
	const struct entry_key *a = &((const struct entry_slot *)value)->key, *b = key;

	if (a->line_id != b->line_id || a->tid != b->tid || a->pid != b->pid ||
	    a->offset != b->offset || a->iaddr != b->iaddr)
		return false;
	return a->dso && b->dso ? !strcmp(a->dso, b->dso) : a->dso == b->dso;
}

const char *c2c_config__parse_coalesce(struct c2c_config *cfg, char *list)
{
	static const char *const names[] = {
		[C2C_BY_TID] = "tid", [C2C_BY_PID] = "pid", [C2C_BY_IADDR] = "iaddr",
		[C2C_BY_DSO] = "dso",
	};
	char *save = NULL;

	cfg->nr_coalesce = 0;
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned k = 0;

		if (!strcmp(tok, "offset"))
			continue;
		while (k < sizeof(names) / sizeof(names[0]) && strcmp(tok, names[k]))
			k++;
		if (k == sizeof(names) / sizeof(names[0]))
			return tok;
		if (cfg->nr_coalesce < C2C_MAX_COALESCE)
			cfg->coalesce[cfg->nr_coalesce++] = (enum c2c_coalesce)k;
	}
	return NULL;
}

void c2c__init(struct c2c *c, const struct c2c_config *cfg)
{
	memset(c, 0, sizeof(*c));
	c->cfg = *cfg;
	hashmap_init(&c->lines, sizeof(struct c2c_line));
	hashmap_init(&c->entries, sizeof(struct entry_slot));
	callchain_store__init(&c->store);
}

bool c2c_config__coalesces(const struct c2c_config *cfg, enum c2c_coalesce k)
{
	for (unsigned i = 0; i < cfg->nr_coalesce; i++)
		if (cfg->coalesce[i] == k)
			return true;
	return false;
}

/* perf's update_stats(): the mean moves by the difference over n */
static void mean_add(struct c2c_mean *m, uint64_t value)
{
	double delta = (double)value - m->mean;

	m->n++;
	m->mean += delta / m->n;
}

static const char *dso_name(const struct c2c_config *cfg, const struct dso *dso)
{
	if (!dso)
		return NULL;
	return cfg->long_dso_names ? dso__shown_long_name(dso) : dso->short_name;
}

static struct c2c_entry *entry_findnew(struct c2c *c, const struct c2c_line *line,
				       const struct c2c_access *a)
{
	struct entry_key key;
	struct entry_slot *slot;
	uint64_t hash;
	bool added;

	memset(&key, 0, sizeof(key));
	key.line_id = line->id;
	key.offset = a->daddr & 63;
	if (c2c_config__coalesces(&c->cfg, C2C_BY_TID))
		key.tid = a->thread->tid;
	if (c2c_config__coalesces(&c->cfg, C2C_BY_PID))
		key.pid = a->thread->pid;
	if (c2c_config__coalesces(&c->cfg, C2C_BY_IADDR))
		key.iaddr = a->iaddr;
	if (c2c_config__coalesces(&c->cfg, C2C_BY_DSO) && a->dso)
		key.dso = dso_name(&c->cfg, a->dso);
	hash = hash_add(hash_add(hash_add(key.line_id, key.offset), key.iaddr),
			(uint64_t)key.tid << 32 | (uint32_t)key.pid);
	if (key.dso)
		hash = hash_add(hash, hash_string(key.dso, strlen(key.dso)));
	slot = hashmap_findnew(&c->entries, hash_mix(hash), entry_eq, &key, &added);
	if (added) {
		struct c2c_entry *e = &slot->entry;

		slot->key = key;
		e->line_id = line->id;
		e->offset = key.offset;
		e->thread = a->thread;
		e->iaddr = a->iaddr;
		e->ip = a->ip;
		e->dso = a->dso;
		e->sym = a->sym;
		e->level = a->level;
		e->node_stats = xcalloc(c->cfg.nr_nodes ? c->cfg.nr_nodes : 1,
					sizeof(*e->node_stats));
		e->cpus = xcalloc((c->cfg.nr_cpus + 63) / 64 + 1, sizeof(*e->cpus));
	}
	return &slot->entry;
}

/* perf's mem2node: the node whose memory blocks hold the address, or -1 */
static int phys_node(const struct c2c *c, uint64_t phys)
{
	uint64_t block;

	if (!c->cfg.mem_block_size)
		return -1;
	block = phys / c->cfg.mem_block_size;
	for (uint32_t i = 0; i < c->cfg.nr_mem_nodes; i++) {
		const struct perf_mem_node *m = &c->cfg.mem_nodes[i];

		if (block < m->nbits && (m->set[block / 64] >> (block % 64) & 1))
			return (int)m->node;
	}
	return -1;
}

static void phys_add(struct c2c_phys *p, uint64_t phys, int node)
{
	if (!phys || node < 0 || node >= 64)
		return;
	p->nodes |= 1ULL << node;
	if (p->last != phys) {
		p->changes++;
		p->last = phys;
	}
}

void c2c__add(struct c2c *c, const struct c2c_access *a)
{
	int phys_in = a->phys_addr ? phys_node(c, a->phys_addr) : -1;
	struct c2c_stats one = { 0 };
	struct c2c_line_key key;
	struct c2c_line *line;
	struct c2c_entry *e;
	uint64_t hash;
	bool added;
	int node;

	c2c_stats__decode(&one, a->data_src, a->daddr, a->mapped);
	stats_add(&c->total, &one);
	memset(&key, 0, sizeof(key));	/* padding too: keys compare whole */
	key.line = a->key.line;
	key.maj_min = a->key.maj_min;
	key.ino = a->key.ino;
	key.ino_gen = a->key.ino_gen;
	key.pid = a->key.pid;
	key.cpumode = a->key.cpumode;
	key.mapped = a->key.mapped;
	hash = hash_add(hash_add(hash_add(key.line, key.ino), key.maj_min), (uint64_t)key.pid);
	line = hashmap_findnew(&c->lines, hash_mix(hash), line_eq, &key, &added);
	if (added) {
		line->key = key;
		line->id = c->nr_lines++;
		line->daddr = a->daddr;
	}
	stats_add(&line->stats, &one);
	phys_add(&line->phys, a->phys_addr, phys_in);
	if (!a->thread)
		return;
	e = entry_findnew(c, line, a);
	stats_add(&e->stats, &one);
	e->period += a->period;
	if (a->nr_frames) {
		if (!e->callchain)
			e->callchain = callchain_root__new(&c->store);
		callchain_root__append(&c->store, e->callchain, a->frames, a->nr_frames, a->period);
	}
	phys_add(&e->phys, a->phys_addr, phys_in);
	/* perf puts samples without a CPU on node 0 */
	node = a->cpu < c->cfg.nr_cpus ? c->cfg.cpu2node[a->cpu] : -1;
	if (a->cpu == UINT32_MAX)
		node = 0;
	if (node >= 0 && (uint32_t)node < c->cfg.nr_nodes)
		stats_add(&e->node_stats[node], &one);
	if (one.rmt_hitm)
		mean_add(&e->rmt_hitm, a->weight);
	else if (one.lcl_hitm)
		mean_add(&e->lcl_hitm, a->weight);
	else if (one.rmt_peer)
		mean_add(&e->rmt_peer, a->weight);
	else if (one.lcl_peer)
		mean_add(&e->lcl_peer, a->weight);
	else if (one.load)
		mean_add(&e->load, a->weight);
	if (a->cpu < c->cfg.nr_cpus)
		e->cpus[a->cpu / 64] |= 1ULL << (a->cpu % 64);
}

uint32_t c2c_stats__display(const struct c2c_stats *st, enum c2c_display d)
{
	switch (d) {
	case C2C_DISPLAY_LCL:
		return st->lcl_hitm;
	case C2C_DISPLAY_RMT:
		return st->rmt_hitm;
	case C2C_DISPLAY_PEER:
		return st->tot_peer;
	case C2C_DISPLAY_TOT:
		break;
	}
	return st->tot_hitm;
}

unsigned c2c_entry__nr_cpus(const struct c2c *c, const struct c2c_entry *e)
{
	unsigned n = 0;

	for (uint32_t w = 0; w < (c->cfg.nr_cpus + 63) / 64; w++)
		n += (unsigned)__builtin_popcountll(e->cpus[w]);
	return n;
}

bool c2c_entry__has_cpu(const struct c2c *c, const struct c2c_entry *e, uint32_t cpu)
{
	return cpu < c->cfg.nr_cpus && (e->cpus[cpu / 64] >> (cpu % 64) & 1);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* The order perf's dcacheline key leaves lines in, where the table's sort
 * keeps ties: kernel after user, mapped data first, then by the file's
 * ids, the process (of anonymous memory) and the address, all ascending. */
static int line_order(const struct c2c_line *a, const struct c2c_line *b)
{
	const struct c2c_line_key *x = &a->key, *y = &b->key;
	int ret = cmp_u64(x->cpumode, y->cpumode);

	if (ret)
		return ret;
	if (x->mapped != y->mapped)
		return x->mapped ? -1 : 1;
	if (x->mapped) {
		ret = cmp_u64(x->maj_min, y->maj_min);
		if (!ret)
			ret = cmp_u64(x->ino, y->ino);
		if (!ret)
			ret = cmp_u64(x->ino_gen, y->ino_gen);
		if (!ret)
			ret = x->pid < y->pid ? -1 : x->pid > y->pid;
		if (ret)
			return ret;
	}
	return cmp_u64(x->line, y->line);
}

/* Lines and entries sort on what -d counts, most first. */
static int cmp_counts(const struct c2c_stats *a, const struct c2c_stats *b, enum c2c_display d)
{
	uint32_t x = c2c_stats__display(a, d), y = c2c_stats__display(b, d);

	return x == y ? 0 : x > y ? -1 : 1;
}

/* Entries then on the other HITMs, with -d lcl or rmt (perf's further
 * keys after the total HITMs or peers change no order). */
static int cmp_entry_counts(const struct c2c_stats *a, const struct c2c_stats *b,
			    enum c2c_display d)
{
	int ret = cmp_counts(a, b, d);

	if (ret || (d != C2C_DISPLAY_LCL && d != C2C_DISPLAY_RMT))
		return ret;
	return cmp_counts(a, b, d == C2C_DISPLAY_LCL ? C2C_DISPLAY_RMT : C2C_DISPLAY_LCL);
}

static enum c2c_display sort_display;	/* qsort's comparators have no context */
static const struct c2c_config *sort_cfg;

static int line_report_cmp(const void *pa, const void *pb)
{
	const struct c2c_line *a = *(struct c2c_line *const *)pa, *b = *(struct c2c_line *const *)pb;
	int ret = cmp_counts(&a->stats, &b->stats, sort_display);

	return ret ? ret : line_order(a, b);
}

static int str_null_last(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

/* The order of perf's input tree of a line's entries: the offset, then
 * the -c keys as perf's comparisons leave them (processes descending). */
static int entry_order(const struct c2c_entry *a, const struct c2c_entry *b)
{
	int ret = cmp_u64(a->offset, b->offset);

	for (unsigned i = 0; !ret && i < sort_cfg->nr_coalesce; i++) {
		switch (sort_cfg->coalesce[i]) {
		case C2C_BY_TID:
			ret = (a->thread->tid > b->thread->tid) - (a->thread->tid < b->thread->tid);
			break;
		case C2C_BY_PID:
			ret = (a->thread->pid < b->thread->pid) - (a->thread->pid > b->thread->pid);
			break;
		case C2C_BY_IADDR:
			ret = cmp_u64(a->iaddr, b->iaddr);
			break;
		case C2C_BY_DSO:
			ret = str_null_last(dso_name(sort_cfg, a->dso), dso_name(sort_cfg, b->dso));
			break;
		}
	}
	return ret;
}

static int entry_report_cmp(const void *pa, const void *pb)
{
	const struct c2c_entry *a = *(struct c2c_entry *const *)pa;
	const struct c2c_entry *b = *(struct c2c_entry *const *)pb;
	int ret = cmp_u64(a->offset, b->offset);

	if (!ret)
		ret = cmp_entry_counts(&a->stats, &b->stats, sort_display);
	return ret ? ret : entry_order(a, b);
}

static char *entry_srcline(const struct c2c_entry *e)
{
	struct strbuf sb = STRBUF_INIT;
	const char *line;

	if (!e->dso)
		return xstrdup("??:0");
	line = srcline_known(e->dso, e->ip);
	if (line)
		return xstrdup(line);
	if (e->sym)
		strbuf_addf(&sb, "%s+%" PRIu64, e->sym->name, e->ip - e->sym->start);
	else
		srcline_unknown(&sb, e->dso, e->ip);
	line = xstrdup(strbuf_str(&sb));
	strbuf_release(&sb);
	return (char *)line;
}

/* A line's entries, in report order; all of them (the widths count the
 * hidden ones, as perf's do), the shown ones marked. */
static void line_entries(struct c2c *c, struct c2c_line *l)
{
	enum c2c_display d = c->cfg.display;

	qsort(l->entries, l->nr_entries, sizeof(*l->entries), entry_report_cmp);
	for (uint32_t i = 0; i < l->nr_entries; i++) {
		struct c2c_entry *e = l->entries[i];

		e->shown = c2c_stats__display(&e->stats, d) || e->stats.store;
		if (e->callchain)
			callchain_root__finalize(e->callchain);
		if (c->cfg.srclines)
			e->srcline = entry_srcline(e);
	}
}

/* perf hides lines under a thousandth of the shared lines' count */
static bool line_shown(const struct c2c *c, const struct c2c_line *l)
{
	uint32_t all = c2c_stats__display(&c->shared, c->cfg.display);

	if (c->cfg.show_all)
		return true;
	return all && (double)c2c_stats__display(&l->stats, c->cfg.display) / all >= 0.001;
}

void c2c__finish(struct c2c *c)
{
	struct c2c_line **lines = xcalloc(c->nr_lines + 1, sizeof(*lines));
	struct c2c_line **by_id = xcalloc(c->nr_lines + 1, sizeof(*by_id));
	uint32_t n = 0;

	for (struct c2c_line *l = hashmap_next(&c->lines, NULL); l; l = hashmap_next(&c->lines, l)) {
		lines[n++] = by_id[l->id] = l;
		if (!l->stats.lcl_hitm && !l->stats.rmt_hitm && !l->stats.lcl_peer &&
		    !l->stats.rmt_peer)
			continue;
		c->nr_shared_lines++;
		stats_add(&c->shared, &l->stats);
	}
	for (struct entry_slot *s = hashmap_next(&c->entries, NULL); s;
	     s = hashmap_next(&c->entries, s))
		by_id[s->entry.line_id]->nr_entries++;
	for (uint32_t i = 0; i < n; i++) {
		lines[i]->entries = xcalloc(lines[i]->nr_entries + 1, sizeof(struct c2c_entry *));
		lines[i]->nr_entries = 0;
	}
	for (struct entry_slot *s = hashmap_next(&c->entries, NULL); s;
	     s = hashmap_next(&c->entries, s)) {
		struct c2c_line *l = by_id[s->entry.line_id];

		l->entries[l->nr_entries++] = &s->entry;
	}
	free(by_id);
	sort_display = c->cfg.display;
	sort_cfg = &c->cfg;
	qsort(lines, n, sizeof(*lines), line_report_cmp);
	c->shown = lines;
	for (uint32_t i = 0; i < n; i++) {
		if (!line_shown(c, lines[i]))
			continue;
		line_entries(c, lines[i]);
		c->shown[c->nr_shown++] = lines[i];
	}
}

void c2c__exit(struct c2c *c)
{
	for (struct c2c_line *l = hashmap_next(&c->lines, NULL); l; l = hashmap_next(&c->lines, l))
		free(l->entries);
	for (struct entry_slot *s = hashmap_next(&c->entries, NULL); s;
	     s = hashmap_next(&c->entries, s)) {
		free(s->entry.node_stats);
		free(s->entry.cpus);
		free(s->entry.srcline);
	}
	free(c->shown);
	callchain_store__exit(&c->store);
	hashmap_release(&c->lines);
	hashmap_release(&c->entries);
}
