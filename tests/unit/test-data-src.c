/* Unit tests for core/hist/data-src: PERF_SAMPLE_DATA_SRC in perf's words.
 * The expected texts are perf 6.1's (perf report --mem-mode) for the same
 * data sources, as tests/e2e/perfdata_mem.py writes them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/hist/data-src.h"
#include "util/strbuf.h"

/* perf_event.h's layout, field by field */
static uint64_t src(unsigned op, unsigned lvl, unsigned snoop, unsigned lock, unsigned dtlb,
		    unsigned lvl_num, unsigned remote, unsigned snoopx, unsigned blk, unsigned hops)
{
	return (uint64_t)op | (uint64_t)lvl << 5 | (uint64_t)snoop << 19 | (uint64_t)lock << 24 |
	       (uint64_t)dtlb << 26 | (uint64_t)lvl_num << 33 | (uint64_t)remote << 37 |
	       (uint64_t)snoopx << 38 | (uint64_t)blk << 40 | (uint64_t)hops << 43;
}

struct expect {
	uint64_t raw;
	const char *mem, *snoop, *tlb, *locked, *blocked;
};

static void check(void (*fn)(struct strbuf *, uint64_t, bool), uint64_t raw, bool present,
		  const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "|");	/* appends: what is there stays */
	fn(&sb, raw, present);
	assert_string_equal(strbuf_str(&sb) + 1, want);
	assert_int_equal(strbuf_str(&sb)[0], '|');
	strbuf_release(&sb);
}

static void perf_words(void **state)
{
	const struct expect cases[] = {
		{ src(2, 0x2 | 0x8, 2, 1, 0x2 | 0x8, 1, 0, 0, 0, 0),
		  "L1 or L1 hit", "None", "L1 hit", "N/A", " N/A" },
		{ src(2, 0x2 | 0x10, 1, 0, 0x2 | 0x8 | 0x10, 0xc, 0, 0, 0, 0),
		  "LFB/MAB or LFB/MAB hit", "N/A", "L1 or L2 hit", "No", " N/A" },
		{ src(2, 0x2 | 0x20, 2, 0, 0x4 | 0x20, 2, 0, 0, 0, 0),
		  "L2 or L2 hit", "None", "Walker miss", "No", " N/A" },
		{ src(2, 0x2 | 0x40, 16, 2, 0x4 | 0x40, 0, 0, 0, 0, 0),
		  "L3 hit", "HitM", "Fault miss", "Yes", " N/A" },
		{ src(2, 0x4 | 0x80, 8, 0, 0x4 | 0x20, 0xd, 0, 0, 0, 0),
		  "Local RAM or RAM miss", "Miss", "Walker miss", "No", " N/A" },
		{ src(2, 0x2 | 0x100, 4, 0, 0, 0xd, 1, 0, 0, 2),
		  "Remote node, same socket RAM hit", "Hit", "N/A", "No", " N/A" },
		{ src(2, 0x2 | 0x400, 16, 0, 0, 0xb, 1, 0, 0, 3),
		  "Remote socket, same board Any cache hit", "HitM", "N/A", "No", " N/A" },
		{ src(2, 0x2 | 0x800, 0, 0, 0, 0, 1, 1, 0, 0),
		  "Remote Remote Cache (2 hops) hit", "Fwd", "N/A", "No", " N/A" },
		{ src(2, 0x1000, 1, 0, 0, 0, 0, 0, 2, 0), "I/O", "N/A", "N/A", "No", " Data" },
		{ src(2, 0x2000, 0, 1, 0, 0, 0, 0, 4, 0), "Uncached", "N/A", "N/A", "N/A", " Addr" },
		{ src(2, 0x2 | 0x8 | 0x20, 2 | 4, 0, 0x8 | 0x10, 0, 0, 0, 2 | 4, 0),
		  "L1 or L2 hit", "None or Hit", "L1 or L2", "No", " Data Addr" },
		{ src(8, 0x2 | 0x200, 0, 0, 0, 0xe, 1, 0, 0, 4),
		  "Remote board PMEM hit", "N/A", "N/A", "No", " N/A" },
		{ src(1, 0x1, 1, 1, 1, 0xf, 0, 0, 1, 0), "N/A or N/A", "N/A", "N/A", "N/A", " N/A" },
		{ src(0, 0, 0, 0, 0, 5, 0, 0, 0, 1), "core, same node L5", "N/A", "N/A", "No", " N/A" },
		{ src(0, 0x4, 16 | 8, 0, 0x7f, 9, 0, 3, 0, 0), "CXL miss",
		  "Miss or HitM or Fwd or Peer", "N/A or L1 or L2 or Walker or Fault hit miss", "No",
		  " N/A" },
		{ src(2, 0x2, 0, 0, 0, 0xa, 0, 0, 0, 0), "I/O hit", "N/A", "N/A", "No", " N/A" },
		{ src(2, 0x4, 0, 3, 0, 7, 0, 0, 7, 0), "L7 miss", "N/A", "N/A", "N/A", " N/A" },
		{ src(2, 0, 0, 0, 0, 0xc, 1, 0, 0, 0), "Remote LFB/MAB", "N/A", "N/A", "No", " N/A" },
		{ 0, "N/A", "N/A", "N/A", "No", " N/A" },
		/* reserved bits change nothing */
		{ 1ull << 46 | src(2, 0x2 | 0x8, 0, 0, 0, 0, 0, 0, 0, 0),
		  "L1 hit", "N/A", "N/A", "No", " N/A" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct expect *e = &cases[i];

		check(data_src__mem, e->raw, true, e->mem);
		check(data_src__snoop, e->raw, true, e->snoop);
		check(data_src__tlb, e->raw, true, e->tlb);
		check(data_src__locked, e->raw, true, e->locked);
		check(data_src__blocked, e->raw, true, e->blocked);
	}
}

/* an entry without memory information: N/A everywhere, whatever the bits */
static void absent(void **state)
{
	uint64_t raw = src(2, 0x2 | 0x8, 2, 2, 0x2 | 0x8, 1, 1, 1, 2, 1);

	(void)state;
	check(data_src__mem, raw, false, "N/A");
	check(data_src__snoop, raw, false, "N/A");
	check(data_src__tlb, raw, false, "N/A");
	check(data_src__locked, raw, false, "N/A");
	check(data_src__blocked, raw, false, " N/A");
}

static void decode_fields(void **state)
{
	struct data_src d;

	(void)state;
	data_src__decode(src(0x1f, 0x3fff, 0x1f, 3, 0x7f, 0xf, 1, 3, 7, 7), &d);
	assert_int_equal(d.op, 0x1f);
	assert_int_equal(d.lvl, 0x3fff);
	assert_int_equal(d.snoop, 0x1f);
	assert_int_equal(d.lock, 3);
	assert_int_equal(d.dtlb, 0x7f);
	assert_int_equal(d.lvl_num, 0xf);
	assert_int_equal(d.remote, 1);
	assert_int_equal(d.snoopx, 3);
	assert_int_equal(d.blk, 7);
	assert_int_equal(d.hops, 7);
	data_src__decode(src(0, 0, 0, 0, 0, 0, 1, 0, 0, 0), &d);
	assert_int_equal(d.remote, 1);
	assert_int_equal(d.lvl_num + d.snoopx + d.blk + d.hops + d.dtlb, 0);
}

static void page_sizes(void **state)
{
	static const struct { uint64_t size; const char *name; } cases[] = {
		{ 0, "N/A" }, { 512, "512B" }, { 1024, "1024B" }, { 4096, "4K" },
		{ 2 << 20, "2M" }, { 1 << 30, "1024M" }, { 6000, "5K" }, { 1ull << 40, "1024G" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		page_size__name(&sb, cases[i].size);
		assert_string_equal(strbuf_str(&sb), cases[i].name);
		strbuf_release(&sb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perf_words),
		cmocka_unit_test(absent),
		cmocka_unit_test(decode_fields),
		cmocka_unit_test(page_sizes),
	};
	return cmocka_run_group_tests_name("data-src", tests, NULL, NULL);
}
