/* branch-type: the fields of a branch stack entry's flags word, and
 * perf's count of branches by type, direction and reach (report -b's
 * "Branch Statistics", --branch-history's call-graph notes).  Apart from
 * branch.h so that the call-graph trie can count without hist entries. */
#ifndef PCL_BRANCH_TYPE_H
#define PCL_BRANCH_TYPE_H

#include <stdint.h>

/* The fields of the flags word (perf_branch_entry) */
#define BRANCH_MISPRED(f)	((f) & 1)
#define BRANCH_PREDICTED(f)	((f) >> 1 & 1)
#define BRANCH_IN_TX(f)		((f) >> 2 & 1)
#define BRANCH_ABORT(f)		((f) >> 3 & 1)
#define BRANCH_CYCLES(f)	((unsigned)((f) >> 4 & 0xffff))
#define BRANCH_TYPE(f)		((unsigned)((f) >> 20 & 0xf))
#define BRANCH_NEW_TYPE(f)	((unsigned)((f) >> 26 & 0xf))

/* PERF_BR_*: the types of the flags word, and the one that says the
 * type is in its new_type field */
#define BRANCH_TYPE_MAX		16
#define BRANCH_TYPE_EXTEND_ABI	15

/* perf's branch type statistics. */
struct branch_type_stat {
	uint64_t counts[BRANCH_TYPE_MAX];
	uint64_t cond_fwd, cond_bwd, cross_4k, cross_2m;
};

/* Counts a branch of flags from one address to another (none when its
 * type is unknown or it has no source, as perf). */
void branch_type_stat__add(struct branch_type_stat *st, uint64_t flags, uint64_t from,
			   uint64_t to);

/* The same as perf 6.1 counts the branches of a call-graph entry: an
 * extended type (EXTEND_ABI) in a table of its own, which names none
 * and whose new types 8 to 11 count in cond_fwd, cond_bwd, cross_4k and
 * cross_2m (perf writes past the table's end; it corrupts memory with
 * higher ones, which count nowhere here). */
void branch_type_stat__add_apart(struct branch_type_stat *st, uint64_t flags, uint64_t from,
				 uint64_t to);

#endif
