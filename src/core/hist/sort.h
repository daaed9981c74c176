/* sort: the columns of a report and the keys its entries are grouped and
 * ordered by (perf's "hpp" fields and sort dimensions).
 *
 * A field is either a value (Overhead, Children, sys, usr, Samples,
 * Period: numbers summed over an entry) or a key (comm, pid, dso, symbol,
 * cpu, srcline, parent, trace, ...: what makes two samples one entry).
 * A layout holds three lists built the way perf builds them from -s and
 * -F: the output columns, the output sort order, and the identity keys.
 *
 * Comparators here use the natural convention: negative means "a first".
 */
#ifndef PCL_SORT_H
#define PCL_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hist_entry;
struct hists;
struct strbuf;

/* Width slots shared by fields that show the same thing. */
enum hist_column {
	HISTC_SYMBOL,
	HISTC_DSO,
	HISTC_THREAD,
	HISTC_COMM,
	HISTC_PARENT,
	HISTC_CPU,
	HISTC_SOCKET,
	HISTC_SRCLINE,
	HISTC_SRCFILE,
	HISTC_TRACE,
	HISTC_IPC,
	HISTC_SYM_SIZE,
	HISTC_DSO_SIZE,
	HISTC_TIME,
	HISTC_WEIGHT,
	HISTC_LOCAL_WEIGHT,
	HISTC_CGROUP,
	HISTC_CGROUP_ID,
	HISTC_LOCAL_INS_LAT,
	HISTC_INS_LAT,
	HISTC_TRANSACTION,
	HISTC_CODE_PAGE_SIZE,
	HISTC_ADDR,
	HISTC_P_STAGE_CYC,
	/* --mem-mode's */
	HISTC_MEM_DADDR_SYMBOL,
	HISTC_MEM_DADDR_DSO,
	HISTC_MEM_DCACHELINE,
	HISTC_MEM_LOCKED,
	HISTC_MEM_TLB,
	HISTC_MEM_LVL,
	HISTC_MEM_SNOOP,
	HISTC_MEM_BLOCKED,
	HISTC_MEM_PHYS_DADDR,
	HISTC_MEM_DATA_PAGE_SIZE,
	HISTC_MEM_IADDR_SYMBOL,
	/* branch mode's */
	HISTC_SYMBOL_FROM,
	HISTC_SYMBOL_TO,
	HISTC_DSO_FROM,
	HISTC_DSO_TO,
	HISTC_MISPREDICT,
	HISTC_IN_TX,
	HISTC_ABORT,
	HISTC_CYCLES,
	HISTC_SRCLINE_FROM,
	HISTC_SRCLINE_TO,
	HISTC_ADDR_FROM,
	HISTC_ADDR_TO,
	HISTC_NR_COLS,
};

/* What a value field sums. */
enum hist_value {
	HV_OVERHEAD,
	HV_OVERHEAD_SYS,
	HV_OVERHEAD_US,
	HV_OVERHEAD_GUEST_SYS,
	HV_OVERHEAD_GUEST_US,
	HV_OVERHEAD_ACC,	/* Children */
	HV_SAMPLES,
	HV_PERIOD,
};

struct hist_field {
	const char *name;	/* as given to -s / -F */
	const char *header;
	bool is_key;
	/* values */
	enum hist_value value;
	int len;		/* column width of one event's value */
	bool percent;
	/* keys */
	enum hist_column col;
	int (*cmp)(const struct hist_entry *a, const struct hist_entry *b);
	int (*sort)(const struct hist_entry *a, const struct hist_entry *b);	/* NULL: cmp */
	/* appends the entry's key, padded or cut to width as perf does */
	void (*print)(const struct hist_entry *he, struct strbuf *sb, unsigned int width);
	uint64_t (*hash)(const struct hist_entry *he);
};

struct hist_column_cfg {
	const struct hist_field *field;
	bool elide;		/* hidden: a filter leaves one value */
	/* The header "Self" instead of "Overhead" with --children. */
	const char *header;
	int user_len;		/* -w: the width asked for, 0 for perf's */
};

#define HIST_MAX_FIELDS 32
#define HIST_LEVEL_MAX_KEYS 8

/* --hierarchy: the keys of one level of nested entries. */
struct hist_level {
	int level;		/* perf's number: braces keep keys on one */
	int nr_keys;
	const struct hist_field *keys[HIST_LEVEL_MAX_KEYS];
};

struct hist_layout {
	struct hist_column_cfg fields[HIST_MAX_FIELDS];
	int nr_fields;
	const struct hist_field *sorts[HIST_MAX_FIELDS];	/* output order */
	bool sort_elided[HIST_MAX_FIELDS];	/* sorts[i] is an elided column */
	int nr_sorts;
	int sort_level[HIST_MAX_FIELDS];	/* sorts[i]'s level (see parse_list) */
	const struct hist_field *keys[HIST_MAX_FIELDS];	/* identity */
	int nr_keys;
	bool has_srcline, has_trace;	/* shown or sorted by */
	bool has_srcfile;
	bool has_branch_srcline;	/* srcline_from or srcline_to */
	bool has_sample_keys;		/* time, weight, socket, transaction, code page
					 * size (see add_cumulative) */
	/* perf's hists__has() flags: set by -s (or the default order) only */
	bool has_parent, need_collapse;
	/* perf diff: the collapse pass (and the pairing across files) takes
	 * symbols by name, as files may come from different builds */
	bool sym_by_name;
	/* --hierarchy: entries nested by the keys' levels */
	bool hierarchy;
	struct hist_level levels[HIST_MAX_FIELDS];
	int nr_levels;
};

struct sort_setup {
	const char *sort_order;		/* -s, or NULL */
	const char *field_order;	/* -F, or NULL */
	bool tracepoints_only;		/* every event is a tracepoint: sort by trace */
	bool cumulate;			/* Children + Self columns */
	bool show_cpu_utilization;
	bool show_nr_samples;
	bool show_total_period;
	bool hierarchy;			/* --hierarchy: keys by level */
	bool diff;			/* perf diff: keys only, no overhead columns */
	bool mem_mode;			/* --mem-mode: the memory keys exist */
	bool branch_mode;		/* -b: the branch keys exist */
};

/* Builds the lists.  Returns 0, or -1 with *err (caller frees) naming the
 * bad key the way perf does ("Invalid --sort key: `foo'"). */
int hist_layout__setup(struct hist_layout *l, const struct sort_setup *s, char **err);

/* Order of two entries over one --hierarchy level's keys (0: the same). */
int hist_level__cmp(const struct hist_level *lv, const struct hist_entry *a,
		    const struct hist_entry *b);

/* Whether one of the level's keys shows column col. */
bool hist_level__has(const struct hist_level *lv, enum hist_column col);

/* -w: "w1,w2,..." the widths of the columns in order (0 or a word: as
 * perf's own); stops at the first entry not followed by a comma. */
void hist_layout__set_user_widths(struct hist_layout *l, const char *list);

/* Drops the Children column (the file has no callchains after all). */
void hist_layout__cancel_cumulate(struct hist_layout *l);

/* Marks columns a single-entry filter makes pointless (perf's elide):
 * index HISTC_COMM/DSO/SYMBOL -> the filter's only value, or NULL. */
void hist_layout__elide(struct hist_layout *l, const char *const only[HISTC_NR_COLS]);

/* Whether f is an elided column (which does not sort the output either). */
bool hist_layout__elided(const struct hist_layout *l, const struct hist_field *f);

/* The default sort order perf uses for the file. */
const char *sort_default_order(bool tracepoints_only);

/* perf's default order of branch mode. */
#define SORT_BRANCH_DEFAULT_ORDER "comm,dso_from,symbol_from,symbol_to,cycles"

/* perf's default order of --mem-mode. */
#define SORT_MEM_DEFAULT_ORDER "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb," \
			       "locked,blocked,local_ins_lat,local_p_stage_cyc"

/* Identity order of two entries over the layout's keys (0: same entry),
 * marking both srcline_compared when it got as far as the srcline key
 * (where perf computes their source lines). */
int hist_layout__cmp_mark(const struct hist_layout *l, struct hist_entry *a,
			  struct hist_entry *b);
/* Marks both entries' source lines of f's column computed, as perf
 * computes them when it compares by them (srcline, srcline_from/to). */
void hist_field__mark_srclines(const struct hist_field *f, struct hist_entry *a,
			       struct hist_entry *b);
/* The collapse pass's order: hist_layout__cmp_mark() but for symbols
 * taken by name with sym_by_name. */
int hist_layout__collapse_cmp(const struct hist_layout *l, struct hist_entry *a,
			      struct hist_entry *b);
uint64_t hist_layout__hash(const struct hist_layout *l, const struct hist_entry *he);
/* Whether the keys order the entries of one DSO name totally (the keys
 * before the symbol order entries of different names) as long as none of
 * them is an inlined function and the addresses hist_entry__order_addrs()
 * gives span less than 2^63 (perf orders addresses by the sign of their
 * difference, which wraps beyond, as garbage ips of broken stacks do).
 * Then an entry tree has at most one entry equal to a key of such a DSO
 * name, the one its search finds, and a hash index may stand in for the
 * search.  Not so for inlined functions (compared by name, others by
 * address), unresolved symbols across DSOs (-s sym without dso), or where
 * comparing marks entries (srcline). */
bool hist_layout__total_order(const struct hist_layout *l);
/* The lowest and highest address (as signed) he's symbol key compares by;
 * false for an inlined function. */
bool hist_entry__order_addrs(const struct hist_entry *he, int64_t *lo, int64_t *hi);

/* The header perf prints for a key column: "Shared Object", ... */
const char *hist_field__header(const struct hist_column_cfg *c);

/* perf's column width of the unresolved-address form, "0x" + 16 digits. */
#define UNRESOLVED_ADDR_WIDTH 16
/* -v: the address before a symbol, "0x" and 16 digits, left aligned (perf) */
#define VERBOSE_ADDR_WIDTH 18

#endif
