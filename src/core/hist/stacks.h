/* stacks: weighted call stacks, the data behind folded output and flame
 * graphs.
 *
 * Stacks are kept as a trie: node 0 is the root (all samples), each other
 * node is one frame under its parent, so a stack is the node of its last
 * frame and identical stacks are folded by construction (one hash look-up
 * per frame).  Frame names are interned.  A node's "self" weight is the sum
 * of the weights of stacks ending there; totals are derived.
 *
 * Names follow stackcollapse-perf.pl's default rules (see fold_frame()):
 * the process name (comm, spaces made '_') is the first frame, then frames
 * from the outermost caller to the leaf.  Stacks from perf.data are the
 * ones stackcollapse makes of perf script's text: the same readers of
 * that text (fold_parse_*, fold_frame_line) serve both.
 *
 * A second weight per node ("base") holds the first profile of a
 * differential flame graph.  Samples (time, stack, weight) are optionally
 * kept in arrival order for time-based views (heat map, flame chart).
 */
#ifndef PCL_STACKS_H
#define PCL_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/arena.h"
#include "util/hashmap.h"

struct perf_session;
struct sample_filter;

enum frame_kind {
	FRAME_USER = 0,
	FRAME_KERNEL = 1,	/* kernel or module code */
	FRAME_COMM = 2,		/* the process name at the bottom of a stack */
	FRAME_INLINED = 4,	/* an inlined function (DWARF) */
};

struct stack_node {
	uint32_t parent;	/* node 0 is its own parent */
	uint32_t name;		/* index into stacks.names */
	uint32_t depth;		/* 0 for the root */
	uint64_t self;		/* weight of stacks ending here */
	uint64_t self_base;	/* the same in the base profile (diff) */
};

struct stack_sample {
	uint64_t time;		/* ns, perf clock */
	uint64_t weight;
	uint32_t node;
};

struct stacks {
	const char **names;	/* in name_strings */
	uint8_t *name_kind;	/* enum frame_kind bits, per name */
	uint32_t nr_names, names_alloc;
	struct hashmap name_ids;	/* name -> struct name_id */
	struct arena name_strings;

	struct stack_node *nodes;
	uint32_t nr_nodes, nodes_alloc;
	struct hashmap node_ids;	/* parent << 32 | name -> node */

	bool keep_samples;
	bool timed;		/* sample times are perf clock ns, not input order */
	struct stack_sample *samples;
	size_t nr_samples, samples_alloc;

	bool diff;		/* base weights are meaningful */
	uint64_t total, total_base;
};

struct stacks *stacks__new(bool keep_samples);
void stacks__delete(struct stacks *st);

/* Interns a frame name (kind bits accumulate). */
uint32_t stacks__name(struct stacks *st, const char *name, size_t len, unsigned kind);
/* The child of parent named name, created when missing. */
uint32_t stacks__child(struct stacks *st, uint32_t parent, uint32_t name);
/* Adds weight to the stack ending at node (and a sample when kept). */
void stacks__add(struct stacks *st, uint32_t node, uint64_t weight, uint64_t time);
void stacks__add_base(struct stacks *st, uint32_t node, uint64_t weight);
/* Adds a ';'-separated stack; returns its node. */
uint32_t stacks__add_path(struct stacks *st, const char *path, size_t len);

/* Sorts kept samples by time (stable), for producers that finish stacks
 * out of order (off-CPU). */
void stacks__sort_samples(struct stacks *st);

/* Writes "a;b;c N" lines (N the self weight), sorted like
 * stackcollapse-perf.pl (byte order of the whole line). With diff, writes
 * difffolded's "a;b;c BASE NEW". Returns 0 or -1 on a write error. */
int stacks__write_folded(const struct stacks *st, FILE *out);

/*
 * Reads folded stacks ("stack N" or "stack N1 N2" per line; the count is
 * the last field).  With base, counts go to the base profile.  Two counts
 * per line make a differential profile (base and new at once).  Returns 0,
 * or -1 with *err set (caller frees) on a malformed line.
 */
int stacks__read_folded(struct stacks *st, FILE *in, bool base, char **err);

/* New stacks with every stack reversed (leaf first), weights kept. */
struct stacks *stacks__reversed(const struct stacks *st);
/* New stacks for a flame chart: the kept samples in time order, merged
 * only with the adjacent (last) sibling, so x is time. */
struct stacks *stacks__chart(const struct stacks *st);
/* Adds base's stacks (their new weights) as the base profile of st. */
void stacks__merge_base(struct stacks *st, const struct stacks *base);
/* Scales base weights so that their total equals the new total. */
void stacks__normalize_base(struct stacks *st);

/* Totals and children lists of every node, for renderers. */
struct stack_tree {
	uint64_t *total, *total_base;
	uint32_t *first_child;	/* [nr_nodes + 1]: children[first_child[i]..first_child[i+1]) */
	uint32_t *children;
	uint32_t max_depth;
};

/* by_name: children sorted by name (flame graph); else creation order. */
void stack_tree__build(struct stack_tree *t, const struct stacks *st, bool by_name);
void stack_tree__exit(struct stack_tree *t);

/*
 * stackcollapse-perf.pl's default rules for one `perf script` frame
 * ("ADDR FUNC (MOD)"): FUNC's "+0x.." offset is stripped; a FUNC starting
 * with '(' yields nothing; FUNC is split at "->" (inlined parts after the
 * first get "_[i]"); "[unknown]" becomes "[basename of MOD]" unless MOD is
 * "[unknown]"; ';' becomes ':'; everything from the first '(' that does not
 * open "(anonymous namespace)" is dropped unless the name looks like a Go
 * method ".(...)."; quotes are removed; for the process "java", a leading
 * 'L' of names containing '/' is removed.  With annotate_kernel, names
 * from a kernel MOD get "_[k]".
 * Appends the resulting names to out, each preceded by ';' when out is not
 * empty (no name contains one), and returns how many were appended.
 */
struct strbuf;
struct fold_opts {
	bool java;		/* the process name is "java" */
	bool annotate_kernel;	/* stackcollapse --kernel */
};
int fold_frame(struct strbuf *out, const char *func, size_t flen, const char *mod,
	       size_t mlen, const struct fold_opts *o);

/* A perf script sample line as stackcollapse reads it:
 * "COMM  PID[/TID] ...", the process name the text before the PID. */
struct fold_head {
	const char *comm;
	size_t comm_len;
	const char *pid, *tid;	/* digits in the line; pid NULL when not shown */
	size_t pid_len, tid_len;
};
bool fold_parse_head(const char *line, size_t len, struct fold_head *h);

/* The event a sample line names at its end, "[PERIOD] EVENT:" (*period 0
 * when absent).  False when it names none: a tracepoint's line ends with
 * its fields, a line without callchain with the sample's frame. */
bool fold_parse_event(const char *line, size_t len, const char **ev, size_t *ev_len,
		      uint64_t *period);

/* Whether stackcollapse keeps a sample whose line names event ev (NULL:
 * names none, always kept).  With no *filter, the first event named
 * becomes it (allocated). */
bool fold_keep_event(char **filter, const char *ev, size_t ev_len);

/* Folds a frame line "ADDR FUNC (MOD)" with fold_frame(): FUNC runs to the
 * last " (" that opens a blank-free run holding a ')', so a MOD with
 * blanks ("/memfd:x (deleted)") cuts FUNC short.  Returns the number of
 * names appended, -1 when the line is not a frame line. */
int fold_frame_line(struct strbuf *out, const char *line, size_t len, const struct fold_opts *o);

/* Process name as stackcollapse makes it: spaces -> '_', with "-PID" or
 * "-PID/TID" when asked ('?' for a PID the line does not show). */
void fold_comm(struct strbuf *out, const struct fold_head *h, bool include_pid,
	       bool include_tid);

/* From perf.data ------------------------------------------------------- */

struct stacks_opts {
	const struct sample_filter *filter;	/* NULL: every sample */
	/* event name: its samples only; NULL: stackcollapse's choice, the first
	 * event a sample line names and the samples whose lines name none */
	const char *event;
	bool off_cpu;		/* weight sched_switch stacks by time off CPU */
	bool include_pid, include_tid;
	bool annotate_kernel;
	int max_stack;		/* frames kept per callchain; <= 0: 127 */
	const char *kallsyms, *symfs;
	bool force;
};

struct stacks_stats {
	uint64_t nr_samples;	/* samples that went into stacks */
	uint64_t nr_filtered;	/* samples of the event dropped by filters */
	uint64_t nr_other_event;
	uint64_t nr_no_switch_in;	/* off-CPU: switch-outs never followed */
	bool has_callchain;
	char *event_name;	/* the event used; caller frees */
};

/* Reads every sample of the session into st.  Returns 0, or -1 with *err
 * set (caller frees). */
int stacks__add_session(struct stacks *st, struct perf_session *s,
			const struct stacks_opts *o, struct stacks_stats *stats, char **err);

/* From `perf script` text (any perf version's default output) --------- */

struct script_text_opts {
	/* NULL: the first event a sample line names, like stackcollapse; given,
	 * only that event's samples (a line that names no event at its end, as
	 * a tracepoint's, is kept when " EVENT: " is in it) */
	const char *event_filter;
	bool include_pid, include_tid;
	bool annotate_kernel;
};

/* Collapses perf script output into st, weighting stacks by the period
 * on each sample line (1 when absent).  Returns 0 or -1 with *err. */
int stacks__read_perf_script(struct stacks *st, FILE *in, const struct script_text_opts *o,
			     char **err);

#endif
