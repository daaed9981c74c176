/* Unit tests for core/analysis/c2c: perf c2c's categories of a sample,
 * the shared cache lines (lines with a HITM or a peer snoop hit), and the
 * order and grouping of the report's tables. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/c2c.h"
#include "core/data/perf-data.h"
#include "core/symbols/thread.h"

static uint64_t src(unsigned op, unsigned lvl, unsigned snoop, unsigned lock, unsigned remote,
		    unsigned snoopx, unsigned blk, unsigned hops)
{
	return (uint64_t)op | (uint64_t)lvl << 5 | (uint64_t)snoop << 19 | (uint64_t)lock << 24 |
	       (uint64_t)remote << 37 | (uint64_t)snoopx << 38 | (uint64_t)blk << 40 |
	       (uint64_t)hops << 43;
}

enum { LOAD = 2, STORE = 4, HIT = 0x2, MISS = 0x4, L1 = 0x8, LFB = 0x10, L2 = 0x20, L3 = 0x40,
       LOC_RAM = 0x80, REM_RAM1 = 0x100, REM_CCE1 = 0x400, UNC = 0x2000 };

static struct c2c_stats one(uint64_t data_src, uint64_t daddr, bool mapped)
{
	struct c2c_stats st;

	memset(&st, 0, sizeof(st));
	c2c_stats__decode(&st, data_src, daddr, mapped);
	return st;
}

static void loads(void **state)
{
	struct c2c_stats st;

	(void)state;
	st = one(src(LOAD, HIT | L1, 2, 2, 0, 0, 2, 0), 0x1000, true);
	assert_int_equal(st.load + st.ld_l1hit + st.locks + st.blk_data, 4);
	st = one(src(LOAD, HIT | L3, 16, 0, 0, 0, 0, 0), 0x1000, true);
	assert_int_equal(st.lcl_hitm, 1);
	assert_int_equal(st.tot_hitm, 1);
	assert_int_equal(st.ld_llchit, 0);
	st = one(src(LOAD, HIT | L2, 0, 0, 0, 2, 0, 0), 0x1000, true);
	assert_int_equal(st.ld_l2hit + st.lcl_peer + st.tot_peer, 3);
	st = one(src(LOAD, HIT | LOC_RAM, 4, 0, 0, 0, 0, 0), 0x1000, true);
	assert_int_equal(st.lcl_dram + st.ld_shared, 2);
	assert_int_equal(st.ld_excl, 0);
	/* remote without hops: both remote DRAM and remote cache, as perf */
	st = one(src(LOAD, HIT, 16, 0, 1, 0, 0, 0), 0x1000, true);
	assert_int_equal(st.rmt_dram + st.ld_excl + st.rmt_hitm, 3);
	st = one(src(LOAD, HIT | REM_CCE1, 16, 0, 1, 0, 0, 2), 0x1000, true);
	assert_int_equal(st.rmt_hitm, 1);
	assert_int_equal(st.rmt_dram, 0);
	st = one(src(LOAD, HIT | REM_RAM1 | LFB | UNC, 4, 0, 0, 0, 0, 0), 0x1000, false);
	assert_int_equal(st.rmt_dram + st.ld_shared + st.ld_fbhit + st.ld_uncache + st.nomap, 5);
	st = one(src(LOAD, MISS | L1, 0, 0, 0, 0, 0, 0), 0x1000, true);
	assert_int_equal(st.ld_miss, 1);
	assert_int_equal(c2c_stats__llc_misses(&st), 0);
	/* no address: counted as a load, nothing else */
	st = one(src(LOAD, HIT | L1, 0, 0, 0, 0, 0, 0), 0, false);
	assert_int_equal(st.load + st.ld_noadrs, 2);
	assert_int_equal(st.ld_l1hit + st.nomap, 0);
}

static void stores_and_others(void **state)
{
	struct c2c_stats st;

	(void)state;
	st = one(src(STORE, HIT | L1, 0, 0, 0, 0, 0, 0), 0x40, true);
	assert_int_equal(st.store + st.st_l1hit, 2);
	st = one(src(STORE, MISS | L1, 0, 0, 0, 0, 0, 0), 0x40, true);
	assert_int_equal(st.st_l1miss, 1);
	st = one(src(STORE, 1, 0, 0, 0, 0, 0, 0), 0x40, true);
	assert_int_equal(st.st_na, 1);
	st = one(src(STORE, HIT | L1, 0, 0, 0, 0, 0, 0), 0, true);
	assert_int_equal(st.st_noadrs, 1);
	assert_int_equal(st.st_l1hit, 0);
	st = one(src(8, HIT | L1, 0, 2, 0, 0, 4, 0), 0x40, true);
	assert_int_equal(st.noparse + st.nr_entries + st.locks + st.blk_addr, 4);
	assert_int_equal(st.load + st.store, 0);
}

static struct thread threads[2] = {
	{ .pid = 100, .tid = 100, .comm = (char *)"main" },
	{ .pid = 100, .tid = 101, .comm = (char *)"worker" },
};
static const int cpu2node[4] = { 0, 0, 1, 1 };

static void init(struct c2c *c, enum c2c_display display, bool show_all)
{
	struct c2c_config cfg = {
		.display = display, .coalesce = { C2C_BY_IADDR }, .nr_coalesce = 1,
		.show_all = show_all, .nr_cpus = 4, .nr_nodes = 2, .cpu2node = cpu2node,
	};

	c2c__init(c, &cfg);
}

/* one sample at line + offset, from the thread and CPU, at the IP */
static void add_at(struct c2c *c, uint64_t data_src, uint64_t line, uint64_t offset,
		   unsigned thread, uint32_t cpu, uint64_t ip, uint64_t weight)
{
	struct c2c_access a;

	memset(&a, 0, sizeof(a));
	a.data_src = data_src;
	a.daddr = 0x5000 + line + offset;
	a.mapped = a.key.mapped = true;
	a.key.line = line;
	a.thread = &threads[thread];
	a.cpu = cpu;
	a.iaddr = a.ip = ip;
	a.weight = weight;
	a.level = '.';
	c2c__add(c, &a);
}

static void add(struct c2c *c, uint64_t data_src, uint64_t line)
{
	add_at(c, data_src, line, 0, 0, 0, 0x400, 0);
}

static void shared_lines(void **state)
{
	struct c2c c;

	(void)state;
	init(&c, C2C_DISPLAY_TOT, false);
	add(&c, src(LOAD, HIT | L3, 16, 0, 0, 0, 0, 0), 0);	/* a HITM: line 0 shared */
	add(&c, src(STORE, HIT | L1, 0, 0, 0, 0, 0, 0), 0);
	add(&c, src(STORE, HIT | L1, 0, 0, 0, 0, 0, 0), 64);	/* stores alone: not shared */
	add(&c, src(LOAD, HIT | L2, 0, 0, 0, 2, 0, 0), 128);	/* a peer hit: shared */
	add(&c, src(LOAD, HIT | L1, 0, 0, 0, 0, 0, 0), 192);
	c2c__finish(&c);
	assert_int_equal(c.total.nr_entries, 5);
	assert_int_equal(c.nr_shared_lines, 2);
	assert_int_equal(c.shared.load, 2);
	assert_int_equal(c.shared.store, 1);
	assert_int_equal(c.shared.lcl_hitm, 1);
	/* the table shows the line with the HITM; the peer line only with -d peer */
	assert_int_equal(c.nr_shown, 1);
	assert_int_equal(c.shown[0]->key.line, 0);
	c2c__exit(&c);
	init(&c, C2C_DISPLAY_PEER, false);
	add(&c, src(LOAD, HIT | L3, 16, 0, 0, 0, 0, 0), 0);
	add(&c, src(LOAD, HIT | L2, 0, 0, 0, 2, 0, 0), 128);
	c2c__finish(&c);
	assert_int_equal(c.nr_shown, 1);
	assert_int_equal(c.shown[0]->key.line, 128);
	c2c__exit(&c);
}

/* Lines most HITMs first, ties in address order; --show-all shows all. */
static void line_order(void **state)
{
	uint64_t hitm = src(LOAD, HIT | L3, 16, 0, 0, 0, 0, 0);
	uint64_t rmt_hitm = src(LOAD, HIT | REM_CCE1, 16, 0, 1, 0, 0, 2);
	struct c2c c;

	(void)state;
	for (int all = 0; all < 2; all++) {
		init(&c, C2C_DISPLAY_RMT, all);
		add(&c, hitm, 256);
		add(&c, hitm, 256);
		add(&c, rmt_hitm, 192);
		add(&c, rmt_hitm, 64);
		add(&c, rmt_hitm, 128);
		add(&c, rmt_hitm, 128);
		c2c__finish(&c);
		assert_int_equal(c.nr_shown, all ? 4 : 3);
		assert_int_equal(c.shown[0]->key.line, 128);
		assert_int_equal(c.shown[1]->key.line, 64);
		assert_int_equal(c.shown[2]->key.line, 192);
		if (all)
			assert_int_equal(c.shown[3]->key.line, 256);
		c2c__exit(&c);
	}
}

/* A line's entries: by offset, then HITMs, then instruction address; the
 * entries without a HITM or a store are kept (for the widths) but hidden. */
static void entries(void **state)
{
	uint64_t hitm = src(LOAD, HIT | L3, 16, 0, 0, 0, 0, 0);
	uint64_t store = src(STORE, HIT | L1, 0, 0, 0, 0, 0, 0);
	uint64_t l1 = src(LOAD, HIT | L1, 0, 0, 0, 0, 0, 0);
	const struct c2c_line *l;
	struct c2c c;

	(void)state;
	init(&c, C2C_DISPLAY_TOT, false);
	add_at(&c, l1, 0, 8, 0, 0, 0x500, 10);
	add_at(&c, hitm, 0, 8, 0, 1, 0x600, 30);
	add_at(&c, hitm, 0, 8, 1, 2, 0x600, 41);
	add_at(&c, store, 0, 8, 1, 3, 0x300, 0);
	add_at(&c, hitm, 0, 0, 0, 0, 0x700, 7);
	c2c__finish(&c);
	assert_int_equal(c.nr_shown, 1);
	l = c.shown[0];
	assert_int_equal(l->nr_entries, 4);
	assert_int_equal(l->entries[0]->offset, 0);
	assert_int_equal(l->entries[1]->iaddr, 0x600);
	assert_int_equal(l->entries[2]->iaddr, 0x300);
	assert_int_equal(l->entries[3]->iaddr, 0x500);
	assert_true(l->entries[2]->shown);
	assert_false(l->entries[3]->shown);
	/* two HITMs of the weights 30 and 41, on CPUs of both nodes */
	assert_int_equal(l->entries[1]->lcl_hitm.n, 2);
	assert_true(l->entries[1]->lcl_hitm.mean == 35.5);
	assert_int_equal(c2c_entry__nr_cpus(&c, l->entries[1]), 2);
	assert_int_equal(l->entries[1]->node_stats[0].lcl_hitm, 1);
	assert_int_equal(l->entries[1]->node_stats[1].lcl_hitm, 1);
	assert_int_equal(l->entries[3]->load.n, 1);
	c2c__exit(&c);
}

/* Physical addresses: the nodes whose memory blocks hold them, and how
 * often the address changed; addresses in no node (or 0) do not count. */
static void phys_nodes(void **state)
{
	uint64_t node0_blocks = 1ULL << 2, node1_blocks = 1ULL << 3;
	struct perf_mem_node mem[2] = {
		{ .node = 0, .size = 64, .nbits = 64, .set = &node0_blocks },
		{ .node = 1, .size = 64, .nbits = 64, .set = &node1_blocks },
	};
	struct c2c_config cfg = {
		.coalesce = { C2C_BY_IADDR }, .nr_coalesce = 1, .nr_cpus = 4, .nr_nodes = 2,
		.cpu2node = cpu2node, .mem_nodes = mem, .nr_mem_nodes = 2, .mem_block_size = 0x1000,
	};
	static const uint64_t phys[] = { 0x2010, 0x2010, 0x3040, 0, 0x5000, 0x2010 };
	struct c2c c;

	(void)state;
	c2c__init(&c, &cfg);
	for (size_t i = 0; i < sizeof(phys) / sizeof(phys[0]); i++) {
		struct c2c_access a;

		memset(&a, 0, sizeof(a));
		a.data_src = src(LOAD, HIT | L3, 16, 0, 0, 0, 0, 0);
		a.daddr = 0x5000;
		a.phys_addr = phys[i];
		a.mapped = a.key.mapped = true;
		a.thread = &threads[0];
		c2c__add(&c, &a);
	}
	c2c__finish(&c);
	assert_int_equal(c.nr_shown, 1);
	assert_int_equal(c.shown[0]->phys.nodes, 3);
	assert_int_equal(c.shown[0]->phys.changes, 3);
	assert_int_equal(c.shown[0]->entries[0]->phys.changes, 3);
	c2c__exit(&c);
}

/* Samples with call chains give their entry a call graph of their periods */
static void call_chains(void **state)
{
	static const struct cc_frame leaf = { .ip = 0x600 }, caller = { .ip = 0x900 };
	const struct cc_frame *chain[] = { &leaf, &caller };
	const struct c2c_entry *e;
	struct c2c_access a;
	struct c2c c;

	(void)state;
	init(&c, C2C_DISPLAY_TOT, false);
	for (int i = 0; i < 3; i++) {
		memset(&a, 0, sizeof(a));
		a.data_src = src(LOAD, HIT | L3, 16, 0, 0, 0, 0, 0);
		a.daddr = 0x5008;
		a.mapped = a.key.mapped = true;
		a.thread = &threads[0];
		a.iaddr = a.ip = 0x600;
		a.period = i ? 1 : 10007;
		a.frames = chain;
		a.nr_frames = i == 2 ? 1 : 2;
		c2c__add(&c, &a);
	}
	c2c__finish(&c);
	e = c.shown[0]->entries[0];
	assert_int_equal(e->period, 10009);
	assert_non_null(e->callchain);
	assert_int_equal(callchain_node__cumul_hits(&e->callchain->node), 10009);
	assert_int_equal(e->callchain->max_depth, 2);
	c2c__exit(&c);
}

/* The tables count the loads whose source is known: not I/O, uncached or
 * missed loads, nor other operations. */
static void records(void **state)
{
	struct c2c_stats st;

	(void)state;
	memset(&st, 0, sizeof(st));
	c2c_stats__decode(&st, src(LOAD, HIT | L1, 0, 0, 0, 0, 0, 0), 0x10, true);
	c2c_stats__decode(&st, src(LOAD, HIT | UNC, 0, 0, 0, 0, 0, 0), 0x10, true);
	c2c_stats__decode(&st, src(LOAD, MISS | L1, 0, 0, 0, 0, 0, 0), 0x10, true);
	c2c_stats__decode(&st, src(STORE, HIT | L1, 0, 0, 0, 0, 0, 0), 0x10, true);
	c2c_stats__decode(&st, src(8, HIT | L1, 0, 0, 0, 0, 0, 0), 0x10, true);
	assert_int_equal(st.nr_entries, 5);
	assert_int_equal(c2c_stats__loads(&st), 1);
	assert_int_equal(c2c_stats__records(&st), 2);
}

static void coalesce(void **state)
{
	struct c2c_config cfg;
	char ok[] = "dso,,offset,tid", bad[] = "tid,foo";

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	assert_null(c2c_config__parse_coalesce(&cfg, ok));
	assert_int_equal(cfg.nr_coalesce, 2);
	assert_int_equal(cfg.coalesce[0], C2C_BY_DSO);
	assert_int_equal(cfg.coalesce[1], C2C_BY_TID);
	assert_string_equal(c2c_config__parse_coalesce(&cfg, bad), "foo");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads),
		cmocka_unit_test(stores_and_others),
		cmocka_unit_test(shared_lines),
		cmocka_unit_test(line_order),
		cmocka_unit_test(entries),
		cmocka_unit_test(phys_nodes),
		cmocka_unit_test(call_chains),
		cmocka_unit_test(records),
		cmocka_unit_test(coalesce),
	};
	return cmocka_run_group_tests_name("c2c", tests, NULL, NULL);
}
