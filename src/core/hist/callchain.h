/* callchain: call stacks of samples, resolved and folded into trees.
 *
 * A sample's stack is first resolved into a cursor: the frames in the order
 * the report wants them (callee first, or caller first), each an interned
 * struct cc_frame.  Cursors are then appended to a callchain_root, a trie
 * whose edges are frames compared by the chosen key (function, address or
 * source line).  perf stores the same trie path-compressed; a compressed
 * node is a maximal run of trie nodes that end in no sample and have one
 * child, which is how the printers walk it (callchain_node__run_end()).
 *
 * Appending only counts at the last node; callchain_root__finalize()
 * computes the children totals bottom-up once all samples are in.
 * Used by report, and meant for top, annotate and flame graphs alike.
 */
#ifndef PCL_CALLCHAIN_H
#define PCL_CALLCHAIN_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/symbols/machine.h"
#include "core/data/perf-record.h"
#include "core/data/session.h"
#include "core/hist/branch-type.h"
#include "util/arena.h"
#include "util/hashmap.h"
#include "util/rbtree.h"
#include "util/strbuf.h"
#include "util/strset.h"

enum chain_mode { CHAIN_NONE, CHAIN_FLAT, CHAIN_GRAPH_ABS, CHAIN_GRAPH_REL, CHAIN_FOLDED };
enum chain_order { ORDER_CALLEE, ORDER_CALLER };
enum chain_key { CCKEY_FUNCTION, CCKEY_ADDRESS, CCKEY_SRCLINE };
enum chain_value { CCVAL_PERCENT, CCVAL_PERIOD, CCVAL_COUNT };

struct callchain_param {
	bool enabled;		/* -g was given (or implied by the file) */
	enum chain_mode mode;
	double min_percent;	/* threshold */
	uint32_t print_limit;	/* 0: no limit */
	enum chain_order order;
	bool order_set;		/* caller/callee given explicitly */
	enum chain_key key;
	enum chain_value value;
};

/* The stack depth perf keeps by default: the kernel's perf_event_max_stack
 * sysctl, else 127. */
int callchain_max_stack_default(void);

/* perf report's defaults: graph, 0.5%, callee order, function key, percent. */
void callchain_param__init(struct callchain_param *p);

/* Parses a -g/--call-graph argument ("graph,0.5,caller,function,percent",
 * each word a prefix, any order, "none" alone).  Sets *use_callchain.
 * Returns 0, or -1 for a word it does not know. */
int callchain_param__parse(struct callchain_param *p, const char *arg, bool *use_callchain);

/* perf's call-graph.print-type, order, sort-key, threshold and print-limit
 * keys (name: the part after "call-graph."; others are ignored) into p.
 * Returns 0, or -1 with *why set to perf's complaint (in buf). */
int callchain_param__config(struct callchain_param *p, const char *name, const char *value,
			    char *buf, size_t size, const char **why);

/* The same for each of those keys the perfconfig files set (as perf reads
 * them at start-up, before the command line).  Returns 0, or -1 with *why
 * and the offending *key ("call-graph.order") and *value. */
int callchain_param__read_config(struct callchain_param *p, char *buf, size_t size,
				 const char **why, const char **key, const char **value);

/* One resolved frame.  Interned: frames equal in every field share one. */
struct cc_frame {
	uint64_t ip;		/* as sampled; printed when there is no symbol */
	struct dso *dso;	/* NULL: no map covers ip */
	struct symbol *sym;
	const char *srcline;	/* for the address/srcline keys, and of
				 * DWARF-expanded frames always (perf) */
	enum chain_key key;	/* what sibling nodes compare (callchain_param) */
	uint64_t map_size;	/* of the map ip is in (dso_size key) */
	uint64_t unmap_shift;	/* of that map: an address less its DSO address */
	uint64_t addr;		/* DSO-relative */
	uint32_t dso_order;	/* the DSO's creation rank (ties in output) */
	bool kernel;		/* resolved in the kernel's address space */
	bool inlined;		/* DWARF-expanded inlined function */
};

/* Resolves, interns and caches frames; one per report. */
struct cc_resolver {
	struct machine *machine;
	const struct callchain_param *param;
	struct strset *strings;		/* srclines are interned here */
	regex_t *parent_regex;		/* for the "parent" sort key, or NULL */
	int max_stack;
	bool hide_unresolved;		/* -U: frames without a symbol left out */
	regex_t *ignore_callees;	/* --ignore-callees, or NULL */
	/* --branch-history: the sample's branches head its stack, their
	 * flags kept in the cursor (callchain_request.branch_history) */
	bool branch_history;
	/* --stitch-lbr: the file's LBR depth (callchain_request.lbr_depth) */
	uint32_t lbr_depth;
	struct hashmap frames;		/* the frames, each once */
	struct arena arena;
	struct hashmap ranks;		/* DSO -> creation rank */
	uint32_t generation;		/* bumped when address spaces change */
	uint64_t maps_generation;	/* the machine's, when last looked at */
	struct cc_stack *stacks;	/* resolved stacks by addresses */
	/* a sample's frames as the session resolves them */
	struct callchain_frame *resolved;
	struct callchain_branch *resolved_branches;	/* --branch-history */
	int resolved_cap;
	struct strbuf scratch;		/* a srcline built before interning */
};

void cc_resolver__init(struct cc_resolver *r, struct machine *m,
		       const struct callchain_param *param, struct strset *strings);
void cc_resolver__exit(struct cc_resolver *r);

/* A fresh resolver with r's settings and none of its frames: perf top
 * renews its frames so that those no call graph holds any more are freed. */
void cc_resolver__init_like(struct cc_resolver *fresh, const struct cc_resolver *r);

/* frame, interned in r (a copy when another resolver made it). */
const struct cc_frame *cc_resolver__adopt(struct cc_resolver *r, const struct cc_frame *frame);

struct callchain_cursor {
	const struct cc_frame **frames;
	/* --branch-history: what each frame tells of its branch (NULL
	 * otherwise) */
	struct callchain_branch *branches;
	uint32_t nr, alloc;
	struct symbol *parent;		/* first frame matching the parent regex */
	/* --ignore-callees: the last frame that matched, where the stack now
	 * starts and the sample belongs (perf's root_al), or NULL */
	const struct cc_frame *root;
	uint64_t hash;			/* of the stack: equal frames, equal hash
					 * (mostly the raw addresses' hash) */
	bool has_user;			/* the stack reached user space */
	bool broken;			/* ... but not a thread start (see below) */
};

void callchain_cursor__exit(struct callchain_cursor *c);

/*
 * Resolves a sample's stack (its PERF_SAMPLE_CALLCHAIN, then for
 * --call-graph dwarf the unwound user stack) into c, in param->order.  At
 * most max_stack addresses of each part are taken, as perf does.  A
 * corrupt context marker empties the cursor.
 */
void callchain_cursor__resolve(struct callchain_cursor *c, struct cc_resolver *r,
			       struct thread *thread, const struct perf_event_attr *attr,
			       const struct perf_sample *sample);

/* --- the trie ----------------------------------------------------------- */

/* What the branch ends a call-graph node stands for add up to (perf's
 * counts of a callchain_list): a branch target counts prediction, aborts
 * and types; a source its cycles and the loops folded into it.
 * branch_to says which of the two the node was last. */
struct cc_branch_counts {
	uint64_t branch_count, predicted_count, abort_count, cycles_count;
	uint64_t iter_count, iter_cycles, from_count;
	bool branch_to;
	struct branch_type_stat types;
};

struct callchain_node {
	struct callchain_node *parent;
	struct callchain_node *child;	/* first child, then via sibling */
	struct callchain_node *sibling;
	/* The children as perf keeps them: a red-black tree searched with its
	 * frame comparison, which is not transitive (inlined frames compare
	 * by name, others by DSO and address), so the tree's shape decides
	 * which sibling a frame joins and the order of equal siblings. */
	struct rb_root kids;
	struct rb_node kid;
	const struct cc_frame *frame;	/* the first frame appended here */
	uint64_t hit;			/* period of stacks ending here */
	uint64_t children_hit;		/* after finalize: the children's total */
	uint32_t count, children_count;	/* the same in number of stacks */
	uint32_t nr_children;
	struct cc_branch_counts *branch;	/* NULL: no branch reached it */
	/* enum hist_browser_mark bits a browser leaves on the node while top
	 * ages and moves the call graphs: callchain_root__copy() keeps them */
	uint8_t browser_marks;
};

struct callchain_root {
	struct callchain_node node;	/* frame is NULL */
	uint32_t max_depth;		/* longest stack appended */
};

/* Nodes of every tree of one report come from one store. */
struct callchain_store {
	struct arena arena;
};

void callchain_store__init(struct callchain_store *s);
void callchain_store__exit(struct callchain_store *s);

struct callchain_root *callchain_root__new(struct callchain_store *s);

/* Appends frames[0..nr) with period; returns the node the stack ends at
 * (NULL when nr == 0: nothing appended).  Adding another period to that
 * node later (callchain_node__add) is the same as appending again. */
struct callchain_node *callchain_root__append(struct callchain_store *s,
					      struct callchain_root *root,
					      const struct cc_frame *const *frames, uint32_t nr,
					      uint64_t period);

/* The same with what each frame tells of its branch (NULL: nothing, as
 * callchain_root__append). */
struct callchain_node *callchain_root__append_branches(struct callchain_store *s,
						       struct callchain_root *root,
						       const struct cc_frame *const *frames,
						       const struct callchain_branch *branches,
						       uint32_t nr, uint64_t period);

static inline void callchain_node__add(struct callchain_node *n, uint64_t period)
{
	n->hit += period;
	n->count++;
}

/* Adds src's stacks to dst (perf's callchain_merge: each node where
 * stacks end counts once; dst's max_depth stays as it was). */
void callchain_root__merge(struct callchain_store *s, struct callchain_root *dst,
			   const struct callchain_root *src);

/* A copy of src in store s with only the stacks that still have hits (hits
 * and counts kept), each frame interned in frames: perf top moves its
 * call graphs so that what decayed away is freed. */
struct callchain_root *callchain_root__copy(struct callchain_store *s,
					    const struct callchain_root *src,
					    struct cc_resolver *frames);

/* Computes children_hit/children_count of every node (after appending). */
void callchain_root__finalize(struct callchain_root *root);

/* perf top's ageing: every node keeps 7/8 of its hits (finalize again). */
void callchain_root__decay(struct callchain_root *root);

static inline uint64_t callchain_node__cumul_hits(const struct callchain_node *n)
{
	return n->hit + n->children_hit;
}

static inline uint32_t callchain_node__cumul_counts(const struct callchain_node *n)
{
	return n->count + n->children_count;
}

/* The last trie node of the compressed node starting at n. */
const struct callchain_node *callchain_node__run_end(const struct callchain_node *n);

/*
 * The children of the compressed node ending at n, as perf orders them for
 * output (graph: by total, flat/folded: see callchain_root__flat) and
 * keeping those with at least min_hit.  Returns how many were stored in
 * *out (caller frees).
 */
uint32_t callchain_node__sorted_children(const struct callchain_node *n, uint64_t min_hit,
					 const struct callchain_node ***out);

/* Flat and folded modes: every node where stacks end with at least
 * min_hit (and more than 0), by that period, largest first. */
uint32_t callchain_root__flat(const struct callchain_root *root, uint64_t min_hit,
			      const struct callchain_node ***out);

/* The name perf shows for a frame ("sym", "sym srcline", or "0x..."),
 * written over sb. */
const char *cc_frame__name(const struct cc_frame *f, enum chain_key key, struct strbuf *sb);

#endif
