/* Unit tests for core/analysis/c2c: perf c2c's categories of a sample and
 * the shared cache lines (lines with a HITM or a peer snoop hit). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/c2c.h"

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

static void add(struct c2c *c, uint64_t data_src, uint64_t line)
{
	struct c2c_access a;

	memset(&a, 0, sizeof(a));
	a.data_src = data_src;
	a.daddr = 0x5000 + line;
	a.mapped = a.key.mapped = true;
	a.key.line = line;
	c2c__add(c, &a);
}

static void shared_lines(void **state)
{
	struct c2c c;

	(void)state;
	c2c__init(&c);
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
	c2c__exit(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads),
		cmocka_unit_test(stores_and_others),
		cmocka_unit_test(shared_lines),
	};
	return cmocka_run_group_tests_name("c2c", tests, NULL, NULL);
}
