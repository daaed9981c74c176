/* c2c: perf c2c's categories of memory samples (see c2c.h). */
#include "core/analysis/c2c.h"
#include "core/hist/data-src.h"

#include <string.h>

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

static void stats_add(struct c2c_stats *to, const struct c2c_stats *from)
{
	uint32_t *t = (uint32_t *)to;
	const uint32_t *f = (const uint32_t *)from;

	for (size_t i = 0; i < sizeof(*to) / sizeof(uint32_t); i++)
		t[i] += f[i];
}

struct c2c_line {
	struct c2c_line_key key;
	struct c2c_stats stats;
};

static bool line_eq(const void *value, const void *key)
{
	return !memcmp(&((const struct c2c_line *)value)->key, key, sizeof(struct c2c_line_key));
}

void c2c__init(struct c2c *c)
{
	memset(c, 0, sizeof(*c));
	hashmap_init(&c->lines, sizeof(struct c2c_line));
}

void c2c__add(struct c2c *c, const struct c2c_access *a)
{
	struct c2c_stats one = { 0 };
	struct c2c_line_key key;
	struct c2c_line *line;
	uint64_t hash;
	bool added;

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
	if (added)
		line->key = key;
	stats_add(&line->stats, &one);
}

void c2c__finish(struct c2c *c)
{
	for (struct c2c_line *l = hashmap_next(&c->lines, NULL); l; l = hashmap_next(&c->lines, l)) {
		if (!l->stats.lcl_hitm && !l->stats.rmt_hitm && !l->stats.lcl_peer &&
		    !l->stats.rmt_peer)
			continue;
		c->nr_shared_lines++;
		stats_add(&c->shared, &l->stats);
	}
}

void c2c__exit(struct c2c *c)
{
	hashmap_release(&c->lines);
}
