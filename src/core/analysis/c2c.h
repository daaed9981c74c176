/* c2c: perf c2c's account of memory samples, the cache-to-cache view.
 *
 * Every load and store sample is sorted by what its data source says
 * (perf c2c's categories: L1/L2/LLC hits, local and remote HITMs, DRAM,
 * uncached, unmapped, ...), in total and per data cache line.  Lines that
 * saw a HITM or a peer snoop hit are the "shared" ones, whose counts are
 * summed apart.  report --stats prints these totals.
 */
#ifndef PCL_C2C_H
#define PCL_C2C_H

#include <stdbool.h>
#include <stdint.h>

#include "util/hashmap.h"

struct c2c_stats {
	uint32_t nr_entries, locks, blk_data, blk_addr;
	uint32_t load, ld_noadrs, ld_uncache, ld_io, ld_miss, ld_fbhit, ld_l1hit, ld_l2hit;
	uint32_t ld_llchit, lcl_hitm, rmt_hitm, tot_hitm, rmt_hit, lcl_dram, rmt_dram;
	uint32_t ld_excl, ld_shared, lcl_peer, rmt_peer, tot_peer;
	uint32_t store, st_noadrs, st_uncache, st_l1hit, st_l1miss, st_na;
	uint32_t nomap, noparse;
};

/* One sample: its data source and address, and the cache line it falls
 * in as perf tells lines apart (see the dcacheline sort key). */
struct c2c_access {
	uint64_t data_src, daddr;
	bool mapped;		/* both the data and the instruction have a map */
	struct c2c_line_key {
		uint64_t line;	/* the map-relative address, to the line */
		uint64_t maj_min, ino, ino_gen;	/* of the data's file */
		int32_t pid;	/* of anonymous memory, else 0 */
		uint8_t cpumode;
		bool mapped;	/* the data has a map */
	} key;
};

struct c2c {
	struct c2c_stats total;
	struct c2c_stats shared;	/* of the shared lines, after c2c__finish() */
	uint32_t nr_shared_lines;
	struct hashmap lines;		/* c2c_line_key -> its stats */
};

/* perf's categories of one sample, added to st (perf's c2c_decode_stats). */
void c2c_stats__decode(struct c2c_stats *st, uint64_t data_src, uint64_t daddr, bool mapped);

void c2c__init(struct c2c *c);
void c2c__add(struct c2c *c, const struct c2c_access *a);
/* Sums the shared lines: those with a HITM or a peer snoop hit (perf 6.1,
 * whatever -d says). */
void c2c__finish(struct c2c *c);
void c2c__exit(struct c2c *c);

/* Loads that missed the LLC: local and remote DRAM, remote HIT and HITM. */
uint32_t c2c_stats__llc_misses(const struct c2c_stats *st);

#endif
