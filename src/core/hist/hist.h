/* hist: histograms of samples, one per event, as perf report builds them.
 *
 * Every sample becomes (or adds to) a hist entry: the entry of its sort
 * keys (comm, dso, symbol, ...).  With --children the sample also adds to
 * the entry of every distinct function on its stack (perf's "cumulative"
 * entries), so those carry a Children total next to their Self one.  The
 * callchain of each sample is folded into its entries' tries.
 *
 * After all samples, hists__output_resort() totals, finalizes callchains,
 * computes column widths and sorts entries for output; --group links the
 * members' histograms to their leader first (hists__link_group()).
 * Used by report now, by top, diff and flame graphs later.
 */
#ifndef PCL_HIST_H
#define PCL_HIST_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/hist/branch-type.h"
#include "core/hist/callchain.h"
#include "core/symbols/machine.h"
#include "core/hist/sort.h"
#include "util/hashmap.h"
#include "util/rbtree.h"
#include "util/strbuf.h"
#include "util/strset.h"

struct evsel;

/* Why an entry is hidden (bits of hist_entry.filtered), as perf's. */
enum hist_filter {
	HIST_FILTER_THREAD = 1 << 0,	/* --comms, --pid, --tid */
	HIST_FILTER_DSO = 1 << 1,	/* --dsos */
	HIST_FILTER_SYMBOL = 1 << 2,	/* --symbols, --symbol-filter */
	HIST_FILTER_PARENT = 1 << 3,	/* -x */
	HIST_FILTER_SOCKET = 1 << 4,	/* --socket-filter */
	HIST_FILTER_GUEST = 1 << 5,	/* a guest's sample, not profiled (pcl kvm --no-guest) */
	HIST_FILTER_HOST = 1 << 6,	/* the host's sample under pcl kvm without --host */
};

/* The GUEST or HOST bit for a sample of the side (host or guests) that
 * parse_events__host / parse_events__guest leave out. */
uint8_t hist_filter__host_guest(uint8_t cpumode);

struct he_stat {
	uint64_t period;
	uint64_t period_sys, period_us, period_guest_sys, period_guest_us;
	uint64_t nr_events;
};

/* A sample's cgroup (--all-cgroups) and its thread's cgroup namespace. */
struct hist_cgroup {
	uint64_t id;		/* 0: the sample names none */
	const char *path;	/* of id, NULL when no CGROUP record named it */
	uint64_t ns_dev, ns_ino;	/* 0 without NAMESPACES records */
};

/* A memory sample's access (--mem-mode): perf's mem_info. */
struct hist_mem {
	bool present;			/* false: not a memory entry */
	uint64_t data_src;		/* PERF_SAMPLE_DATA_SRC */
	uint64_t daddr;			/* the data address as sampled */
	uint64_t daddr_rel;		/* ... relative to its map */
	struct dso *dso;		/* of the data address: NULL, no map */
	struct symbol *sym;		/* ... NULL, no symbol */
	uint64_t phys_addr, page_size;
	/* dcacheline: the sample's mode, and the data map as perf tells
	 * cache lines apart (by file, else by process when anonymous) */
	uint8_t cpumode;
	bool mapped;			/* a map covers the address */
	bool anon;			/* private, of no file (no inode) */
	bool shared_file;		/* shared, of a file, not executable: [s] */
	uint32_t map_maj, map_min;	/* the map's file: device, inode */
	uint64_t map_ino, map_ino_gen;
	uint64_t sym_unmapped;		/* sym's start in the address space */
};

/* One end of a branch (branch mode): where its address resolved. */
struct hist_branch_end {
	uint64_t addr;			/* as the branch stack holds it */
	uint64_t al_addr;		/* DSO-relative (the address without a map) */
	struct dso *dso;		/* NULL: no map */
	struct symbol *sym;		/* NULL: no symbol */
	char level;			/* [k], [.], or [H] when nothing covers it */
	const char *srcline;		/* interned, with srcline_from/to */
	bool srcline_compared;		/* perf computed it (see hist_entry's) */
};

/* A branch stack entry (perf's branch_info): an entry of branch mode is
 * one branch, from and to, with the flags word of perf_branch_entry. */
struct hist_branch {
	bool present;
	struct hist_branch_end from, to;
	uint64_t flags;
};

struct hist_entry {
	/* perf's entry tree, whose shape decides the order of equals, and
	 * what the default keys compare, in the one cache line a step of
	 * the tree's search reads (entry_new() aligns entries to it) */
	struct rb_node rb_in;
	/* the keys, as the first sample of the entry resolved them */
	const char *comm;		/* interned; the thread's comm then */
	struct dso *dso;		/* NULL: no map */
	struct symbol *sym;
	bool inlined;			/* sym is an inlined function (DWARF stacks) */
	char level;			/* 'k', '.', 'H' ... as [k] [.] */
	uint8_t filtered;		/* enum hist_filter bits: hidden */
	struct rb_node rb_collapsed;	/* the tree after the collapse pass */
	struct hists *hists;
	uint64_t hash;			/* of the keys: spares comparisons */
	struct thread *thread;
	uint64_t ip;			/* DSO-relative; absolute for stack entries */
	/* what the output sort compares first, in the third cache line
	 * (Children, the call graph's depth, then Self) */
	struct callchain_root *callchain;	/* NULL without callchains */
	struct he_stat stat_acc;	/* Children */
	struct he_stat stat;		/* Self */
	uint64_t object_off;		/* a stack entry's offset into a data-object sym */
	struct symbol *parent;
	const char *srcline;		/* interned, with the srcline key */
	bool srcline_compared;		/* perf computed it (lazily, in a comparison):
					 * only those size the Source:Line column */
	const char *trace;		/* interned, with the trace key */
	int32_t cpu;
	int32_t socket;			/* of the cpu (header topology), or -1 */
	uint64_t time;			/* time key: the sample's, to 100 ms */
	uint64_t weight;		/* the sample's (weight keys) */
	uint16_t ins_lat;		/* ... (ins_lat keys: WEIGHT_STRUCT's) */
	uint64_t map_size;		/* dso_size key: of the map; 0 without */
	uint64_t unmap_shift;		/* addr key: what perf's map adds to ip */
	uint64_t transaction;		/* the sample's PERF_SAMPLE_TRANSACTION */
	uint64_t code_page_size;	/* the sample's, 0 unknown */
	struct hist_cgroup cgroup;	/* cgroup, cgroup_id keys */
	struct hist_mem mem;		/* the memory keys (mem, snoop, tlb, ...) */
	struct hist_branch br;		/* the branch keys (branch mode) */
	const char *srcfile;		/* interned, with the srcfile key */
	/* --group: the members' entries (index = member position - 1) */
	struct hist_entry **pairs;
	bool paired;			/* a member's entry some leader's pairs */
	/* --hierarchy (hist-hierarchy.c): entries of one level's keys */
	struct hist_entry *parent_he;	/* a level up; NULL at the top */
	struct rb_root hroot;		/* the next level's, by its keys */
	struct hist_entry **children;	/* ... in output order */
	uint32_t nr_children;
	uint32_t sibling_idx;		/* in its parent's children (or sorted) */
	uint8_t depth;			/* 0 at the top */
	bool leaf;			/* the last level: has the callchain */
	/* enum hist_browser_mark bits a browser leaves on its entries while
	 * top ages and re-sorts them: they go with the entry, a reused
	 * entry starts without */
	uint8_t browser_marks;
};

enum hist_browser_mark {
	HIST_MARK_UNFOLDED = 1 << 0,	/* its call graph is shown */
	HIST_MARK_SELECTED = 1 << 1,	/* the cursor is on it */
	HIST_MARK_LEVELS = 1 << 2,	/* nodes of its call graph are marked */
	HIST_MARK_SEEN = 1 << 3,	/* drawn: its fold sign is shown */
};

/* Settings shared by every histogram of a report. */
struct hist_opts {
	struct hist_layout layout;
	struct callchain_param cc;
	bool cumulate;			/* --children */
	bool use_callchain;		/* keep call graphs */
	bool branch_counts;		/* --branch-history's notes on graph frames */
	bool filter_relative;		/* --percentage relative */
	bool event_group;		/* --group */
	int group_sort_idx;		/* --group-sort-idx: the member sorting first */
	double percent_limit;		/* --percent-limit */
	const char *field_sep;		/* -t */
	bool color;			/* percentages in perf's terminal colours */
	bool dso_filter;		/* --dsos given (no unresolved DSO width) */
	bool user_widths;		/* -w given (no unresolved DSO width either) */
	bool thread_filter, sym_filter;	/* --comms/--pid/--tid, --symbols given */
	bool verbose;			/* -v: DSO paths, symbol addresses */
	bool nanosecs;			/* --ns: the time key to the ns */
};

struct hists_stats {
	uint64_t total_period, total_non_filtered_period;
	uint64_t nr_samples, nr_non_filtered_samples;
	uint64_t nr_lost_samples;	/* what the event's LOST_SAMPLES records lost */
	uint64_t callchain_period, callchain_non_filtered_period;
};

struct hists {
	const struct hist_opts *opts;
	struct evsel *evsel;
	int nr_members;			/* --group: events shown side by side */
	struct hists **members;		/* [nr_members - 1], leaders only */
	struct hists *leader;		/* itself when alone */
	struct strset *strings;
	struct callchain_store *store;
	size_t nr_entries;
	struct rb_root in;		/* entries in identity order, as created */
	struct rb_root collapsed;	/* ... re-inserted (keys that collapse) */
	bool is_collapsed;
	/* h->in's entries by hash, for the DSO names whose entries the keys
	 * order totally (see hist_layout__total_order): a lookup instead of
	 * a tree search; index_names: per name hash, a struct index_span */
	struct hashmap by_hash, index_names;
	enum { HIST_INDEX_UNKNOWN, HIST_INDEX_ON, HIST_INDEX_OFF } index;
	struct hist_entry **sorted;	/* after output_resort (--hierarchy: */
	size_t nr_sorted;		/* the top level's entries) */
	struct rb_root hroot;		/* --hierarchy: the top level's entries */
	const char *symbol_filter;	/* --symbol-filter: names without it hidden */
	int socket_filter;		/* --socket-filter, or -1 */
	struct hists_stats stats;
	uint16_t col_len[HISTC_NR_COLS];
	/* a browser's view: the key columns a zoom hides (1 << enum
	 * hist_column), and whether the widths are the shown rows' alone,
	 * headers cut to them (perf's once its browser filters the rows) */
	uint64_t hidden_cols;
	bool exact_widths;
	/* a browser's screen scrolled sideways: its first shown columns
	 * left out of the rows and the header (not --hierarchy's) */
	int skip_cols;
	struct arena arena;
	struct stack_memo *memo;	/* recent stacks, replayed (hist.c) */
	struct memo_record {		/* scratch: what one sample touched */
		struct memo_target *v;
		uint32_t nr, alloc;
	} memo_rec;
	struct strbuf scratch;		/* a srcline built before interning */
	/* entries perf top's ageing removed, for new ones to reuse */
	struct hist_entry **spare;
	size_t nr_spare, alloc_spare;
	/* entries out of the tree that h->sorted still shows (top -z in a
	 * browser), spares once released */
	struct hist_entry **retired;
	size_t nr_retired, alloc_retired;
};

/* What one sample resolved to; the caller fills it. */
struct hist_sample {
	struct thread *thread;
	const char *comm;		/* interned */
	struct dso *dso;
	struct symbol *sym;
	uint64_t addr;			/* DSO-relative (or the ip when no map) */
	char level;
	uint8_t cpumode;
	int32_t cpu;
	int32_t socket;
	uint64_t time, weight;
	uint16_t ins_lat;
	uint64_t map_size;		/* of the sample's map */
	uint64_t unmap_shift;		/* of the sample's map: addr - its DSO address */
	uint64_t transaction, code_page_size;
	struct hist_cgroup cgroup;
	struct hist_mem mem;
	struct hist_branch br;		/* branch mode: the branch, period 1 */
	uint64_t period;
	uint8_t filtered;		/* enum hist_filter bits */
	const char *trace;		/* interned trace output (trace key) */
	const struct callchain_cursor *cursor;	/* NULL: no callchain */
};

struct perf_sample;

/* The keys every command's sample has: the thread (comm interned in
 * strings), where al resolved the ip, the sample's cpumode, CPU and period;
 * socket -1.  Callers add what their keys need besides (time, weight, ...). */
struct hist_sample hist_sample__resolved(struct thread *thread, const struct addr_location *al,
					 const struct perf_sample *sample, struct strset *strings);

struct hists *hists__new(const struct hist_opts *opts, struct evsel *evsel,
			 struct strset *strings, struct callchain_store *store);
void hists__delete(struct hists *h);

/* Returns the entry the sample went to (its Self entry). */
struct hist_entry *hists__add_sample(struct hists *h, const struct hist_sample *s);

/* perf's collapse pass: re-sorts entries when a key needs it (comm,
 * srcline).  Call once after the last sample, before linking groups. */
void hists__collapse(struct hists *h);

/* --group: member's entries become pairs of the leader's (adding empty
 * leader entries for those only the member has). */
void hists__link_group(struct hists *leader, struct hists *member, int member_idx);

/* perf's name of a leader's group, its members linked: "anon group { a,
 * b }" (the group's own name for a named one), or "a, b" without braces
 * (a group --group makes up of a file's ungrouped events).  Malloc'ed. */
char *hists__group_desc(const struct hists *leader, bool braces);

/* The two halves of linking (perf's hists__match and hists__link): the
 * leader's entries get the member's equal entry as pairs[member_idx - 1];
 * then the member's entries left unpaired get an empty twin in the leader
 * (nr_events 0).  Not for --hierarchy. */
void hists__match(struct hists *leader, struct hists *member, int member_idx);
void hists__link(struct hists *leader, struct hists *member, int member_idx);

/* Totals, callchain tries, widths, then the output order in h->sorted
 * (with --hierarchy: of the top level, each entry's children below it). */
void hists__output_resort(struct hists *h);

/* A command's output order (negative: a first), before the layout's keys. */
typedef int (*hist_entry_cmp_fn)(const struct hist_entry *a, const struct hist_entry *b,
				 void *arg);

/* hists__output_resort() with the command's comparison first and only the
 * entries keep() accepts (NULL: all) counted and sorted; not for
 * --hierarchy. */
void hists__output_resort_by(struct hists *h, hist_entry_cmp_fn first,
			     bool (*keep)(const struct hist_entry *he, void *arg), void *arg);

/* --hierarchy: nests the collapsed entries by level, as perf's collapse
 * pass does (called by hists__collapse). */
void hists__build_hierarchy(struct hists *h);

/* perf top --hierarchy: view (empty, of a hierarchy layout with flat's
 * keys) gets the levels of flat's entries, which stay as they are: the
 * view is printed, then deleted. */
void hists__hierarchy_view(struct hists *view, struct hists *flat);
/* The entries of a view rebuilt from scratch take the browser_marks of an
 * older view's equal ones, level by level (top rebuilds its --hierarchy
 * view at every refresh: the levels unfolded and the cursor stay). */
void hists__hierarchy_carry_marks(struct hists *view, const struct hists *old);

/* --hierarchy: perf's browser filtering the nested entries again by one
 * filter (a zoom, or its end).  From the top, an entry of a level without
 * the filter's keys is emptied and marked (bit), and the level below it
 * looked at; one of a level with them is marked when misses() says so
 * (misses NULL: none is), else it passes: unmarked, its stat added to
 * every entry above it, which are unmarked too, and passed() told.  The
 * column widths are those of the entries that pass and are shown, the
 * shown samples theirs; the totals are the top level's again, each level
 * sorted again by the new stats. */
struct hierarchy_filter {
	uint8_t bit;
	bool (*misses)(const struct hist_entry *he, void *arg);
	void (*passed)(struct hist_entry *he, void *arg);
	void *arg;
};
void hists__hierarchy_refilter(struct hists *h, const struct hierarchy_filter *f);

/* --hierarchy: the top level's totals counted and every level sorted
 * again, after the entries' stats changed. */
void hists__hierarchy_sort_again(struct hists *h);

/* --hierarchy: the next entry in output order (depth first), or NULL. */
const struct hist_entry *hist_entry__hierarchy_next(const struct hist_entry *he);

/* perf top between refreshes: every entry keeps 7/8 of its period and
 * samples (and call graph); an entry without Self period left goes, as do,
 * with zap_user or zap_kernel, the user ('.') or kernel ones. */
void hists__decay(struct hists *h, bool zap_user, bool zap_kernel);

/* perf top between refreshes: every entry's call graph moves to store to,
 * its frames to frames (see callchain_root__copy()); the old store and
 * resolver can then go, with what removed entries and decayed stacks held. */
void hists__move_callchains(struct hists *h, struct callchain_store *to,
			    struct cc_resolver *frames);

/* Calls fn on every entry (in no particular order). */
void hists__for_each_entry(struct hists *h, void (*fn)(const struct hist_entry *he, void *arg),
			   void *arg);

/* perf top -z: every entry goes. */
void hists__delete_entries(struct hists *h);

/* perf top -z in a browser, after the output sort: every entry leaves the
 * tree, so that the samples to come start new ones, but stays (and
 * h->sorted with them) for the browser to show until
 * hists__release_retired(), which makes them spares. */
void hists__retire_entries(struct hists *h);
void hists__release_retired(struct hists *h);

/* The sorted entries in output order again, after a setting that order
 * reads changed (the browser's group member to sort by); not for
 * --hierarchy. */
void hists__sort_again(struct hists *h);

/* perf top's column widths: from the first max_rows entries in output order. */
void hists__recalc_col_len(struct hists *h, size_t max_rows);

/* The total percentages are taken of (absolute or relative). */
uint64_t hists__total_period(const struct hists *h);

/* Percent of an entry's Self, or Children with --children (--percent-limit). */
double hist_entry__percent_limit(const struct hist_entry *he);

/* Value of a value field for an entry (one event). */
uint64_t hist_entry__value(const struct hist_entry *he, enum hist_value v);

#endif
