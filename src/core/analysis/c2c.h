/* c2c: perf c2c's account of memory samples, the cache-to-cache view.
 *
 * Every load and store sample is sorted by what its data source says
 * (perf c2c's categories: L1/L2/LLC hits, local and remote HITMs, DRAM,
 * uncached, unmapped, ...), in total and per data cache line.  Lines that
 * saw a HITM or a peer snoop hit are the "shared" ones, whose counts are
 * summed apart.  report --stats prints these totals; the report's tables
 * show the shared lines, most HITMs first, and in each the samples grouped
 * by their offset and the -c keys (thread, process, instruction, DSO).
 */
#ifndef PCL_C2C_H
#define PCL_C2C_H

#include <stdbool.h>
#include <stdint.h>

#include "core/hist/callchain.h"
#include "util/hashmap.h"

struct c2c_stats {
	uint32_t nr_entries, locks, blk_data, blk_addr;
	uint32_t load, ld_noadrs, ld_uncache, ld_io, ld_miss, ld_fbhit, ld_l1hit, ld_l2hit;
	uint32_t ld_llchit, lcl_hitm, rmt_hitm, tot_hitm, rmt_hit, lcl_dram, rmt_dram;
	uint32_t ld_excl, ld_shared, lcl_peer, rmt_peer, tot_peer;
	uint32_t store, st_noadrs, st_uncache, st_l1hit, st_l1miss, st_na;
	uint32_t nomap, noparse;
};

struct dso;
struct perf_mem_node;
struct symbol;
struct thread;

/* How the report groups, sorts and filters (perf c2c report's -d, -c,
 * --show-all), and the machine's NUMA layout. */
enum c2c_display { C2C_DISPLAY_TOT, C2C_DISPLAY_LCL, C2C_DISPLAY_RMT, C2C_DISPLAY_PEER };
enum c2c_coalesce { C2C_BY_TID, C2C_BY_PID, C2C_BY_IADDR, C2C_BY_DSO };
#define C2C_MAX_COALESCE 8

struct c2c_config {
	enum c2c_display display;
	enum c2c_coalesce coalesce[C2C_MAX_COALESCE];	/* after the offset, in -c's order */
	unsigned nr_coalesce;
	bool show_all;		/* every cache line, not only those with HITMs (peers) */
	bool srclines;		/* find the source lines of the shown entries */
	bool long_dso_names;	/* -v: objects are told apart by path */
	uint32_t nr_cpus, nr_nodes;
	const int *cpu2node;	/* nr_cpus entries, -1: in no node */
	/* the memory blocks of each node, for the nodes of physical addresses */
	const struct perf_mem_node *mem_nodes;
	uint32_t nr_mem_nodes;
	uint64_t mem_block_size;
	const char *grouping;	/* "offset," and -c as given, for the details */
};

/* Parses -c's list ("tid,pid,iaddr,dso", empty items skipped) into cfg;
 * returns the unknown token (in list) or NULL. */
const char *c2c_config__parse_coalesce(struct c2c_config *cfg, char *list);
bool c2c_config__coalesces(const struct c2c_config *cfg, enum c2c_coalesce k);

/* One sample: its data source and address, and the cache line it falls
 * in as perf tells lines apart (see the dcacheline sort key), and where
 * the instruction was. */
struct c2c_access {
	uint64_t data_src, daddr, phys_addr, weight;
	uint32_t cpu;
	bool mapped;		/* both the data and the instruction have a map */
	struct c2c_line_key {
		uint64_t line;	/* the map-relative address, to the line */
		uint64_t maj_min, ino, ino_gen;	/* of the data's file */
		int32_t pid;	/* of anonymous memory, else 0 */
		uint8_t cpumode;
		bool mapped;	/* the data has a map */
	} key;
	struct thread *thread;
	uint64_t iaddr;		/* the sample's IP */
	uint64_t ip;		/* DSO-relative (the IP itself without a map) */
	struct dso *dso;	/* of the instruction, NULL without a map */
	struct symbol *sym;
	char level;		/* '.' user, 'k' kernel */
	uint64_t period;
	const struct cc_frame *const *frames;	/* the resolved call chain */
	uint32_t nr_frames;
};

/* perf's running mean (Welford's update, its rounding included). */
struct c2c_mean {
	uint32_t n;
	double mean;
};

/* The NUMA nodes of the physical addresses of a line's (an entry's)
 * samples, and how often the address changed from one sample to the next
 * (perf's "PA cnt"; only addresses in a node count). */
struct c2c_phys {
	uint64_t nodes;		/* bit n: node n */
	uint64_t last;
	uint32_t changes;
};

/* The samples of a line that share an offset and the coalesce keys: one
 * row of the Pareto table. */
struct c2c_entry {
	uint32_t line_id;
	uint64_t offset;	/* in the line */
	struct thread *thread;
	uint64_t iaddr, ip;
	struct dso *dso;
	struct symbol *sym;
	char level;
	struct c2c_stats stats;
	struct c2c_stats *node_stats;	/* per NUMA node of the sampling CPU */
	struct c2c_mean rmt_hitm, lcl_hitm, rmt_peer, lcl_peer, load;	/* weights */
	uint64_t *cpus;		/* bitmap of the sampling CPUs */
	struct c2c_phys phys;
	char *srcline;		/* of shown entries, with cfg.srclines */
	uint64_t period;	/* of its samples */
	struct callchain_root *callchain;	/* of samples with call chains, or NULL */
	bool shown;		/* has a HITM (peer) of the display, or a store */
};

struct c2c_line {
	struct c2c_line_key key;
	uint32_t id;
	uint64_t daddr;		/* the first sample's data address */
	struct c2c_stats stats;
	struct c2c_phys phys;
	struct c2c_entry **entries;	/* after c2c__finish(), in report order */
	uint32_t nr_entries;
};

struct c2c {
	struct c2c_config cfg;
	struct c2c_stats total;
	struct c2c_stats shared;	/* of the shared lines, after c2c__finish() */
	uint32_t nr_shared_lines;
	struct hashmap lines;		/* c2c_line_key -> struct c2c_line */
	struct hashmap entries;		/* line id and keys -> struct c2c_entry */
	struct callchain_store store;	/* the entries' call chains */
	uint32_t nr_lines;
	struct c2c_line **shown;	/* after c2c__finish(): the table's lines, in order */
	uint32_t nr_shown;
};

/* perf's categories of one sample, added to st (perf's c2c_decode_stats). */
void c2c_stats__decode(struct c2c_stats *st, uint64_t data_src, uint64_t daddr, bool mapped);

/* cfg is copied (cpu2node must outlive c). */
void c2c__init(struct c2c *c, const struct c2c_config *cfg);
void c2c__add(struct c2c *c, const struct c2c_access *a);
/* Sums the shared lines: those with a HITM or a peer snoop hit (perf 6.1,
 * whatever -d says); sorts and picks the lines and entries to show. */
void c2c__finish(struct c2c *c);
void c2c__exit(struct c2c *c);

/* Loads that missed the LLC: local and remote DRAM, remote HIT and HITM. */
uint32_t c2c_stats__llc_misses(const struct c2c_stats *st);
/* The loads and records the tables count: those in a category that
 * tells where the data came from (no I/O, uncached, missed levels...). */
uint32_t c2c_stats__loads(const struct c2c_stats *st);
uint32_t c2c_stats__records(const struct c2c_stats *st);
/* What -d counts: HITMs (total, local, remote) or peer snoop hits. */
uint32_t c2c_stats__display(const struct c2c_stats *st, enum c2c_display d);
unsigned c2c_entry__nr_cpus(const struct c2c *c, const struct c2c_entry *e);
bool c2c_entry__has_cpu(const struct c2c *c, const struct c2c_entry *e, uint32_t cpu);

#endif
