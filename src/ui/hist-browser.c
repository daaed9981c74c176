/* hist-browser: perf report's full-screen histogram browser (see hist-browser.h). */
#include "ui/hist-browser.h"

#include <curses.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/data/perf-data.h"
#include "core/events/evsel.h"
#include "core/hist/callchain.h"
#include "core/symbols/dso.h"
#include "core/symbols/thread.h"
#include "ui/callchain-print.h"
#include "ui/tui.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "util/util.h"

/* What the browser narrows the entries to, in the order zoomed into
 * (ESC and the left arrow zoom out of the last one). */
enum zoom {
	ZOOM_THREAD,
	ZOOM_DSO,
	ZOOM_SOCKET,
	ZOOM_NAME,		/* '/': symbols whose name holds a text */
	ZOOM_NR,
};

/* How the browser of one event was left. */
enum leave {
	LEAVE_EXIT,
	LEAVE_BACK,		/* to the menu of events */
	LEAVE_NEXT,		/* TAB: the next event */
	LEAVE_PREV,		/* shift-TAB */
	LEAVE_RELOAD,		/* the event's browser again, from scratch */
};

/* perf's browser indents a call graph's levels by this many columns. */
#define GRAPH_LEVEL_STEP 3

/* A line of an unfolded call graph in perf's browser layout: one frame of
 * a compressed node, which folds when it leads to more lines. */
struct graph_line {
	const struct callchain_node *frame;	/* the frame's trie node */
	const struct callchain_node *node;	/* its compressed node's first */
	int offset;
	bool value;		/* the node's value before the name */
	char sign;		/* '+' folded, '-' unfolded, ' ' nothing to fold */
	uint64_t level_total;	/* its level's parent's hits: fractal's 100% */
};

struct entry_view {
	struct hist_entry *he;
	uint8_t filtered;	/* its filter bits before the browser's zooms */
	struct he_stat stat;	/* (--hierarchy) its stat before them */
	bool expanded;		/* its call graph, or (--hierarchy) the level below, shown */
	/* drawn, or folded by E or C: as perf's browser, which looks whether
	 * an entry has something to unfold only then, it shows the entry's
	 * fold sign from then on, in perf.hist.N too */
	bool seen;
	bool chain_built;
	int nr_chain;
	/* graph modes: the lines its unfolded levels show (rebuilt with the
	 * rows); other modes: its call graph's lines as --stdio prints them */
	char **chain;
	struct graph_line *graph;
	int alloc_graph;
};

/* A screen line: an entry's row (line -1) or one of its call graph's lines. */
struct row {
	size_t entry;
	int line;
};

struct browser {
	const struct hist_browser_event *event;
	const struct hist_browser_opts *opts;
	bool multiple_events;
	struct hists *hists;
	struct entry_view *entries;
	size_t nr_entries;
	struct row *rows;
	size_t nr_rows, alloc_rows;
	size_t top, selected;
	bool show_headers;
	bool navkeypressed;	/* the cursor and scroll bar show after a move key */
	bool graph;		/* call graphs in perf's browser layout (graph modes) */
	struct hashmap unfolded;	/* trie nodes whose frame is unfolded */
	double percent_limit;	/* entries below it are hidden ('L' sets it) */
	double graph_percent;	/* graph nodes below it are hidden ('L' too) */
	uint64_t min_hit;	/* the graph threshold's period */
	int verbose;		/* 'V': frames show their DSO from 1 */
	int horiz_scroll;	/* LEFT/RIGHT: the first columns scrolled away */
	uint16_t col_len[HISTC_NR_COLS];	/* the widths before any zoom */
	bool refiltered;	/* zoomed into or out of something since opened */
	enum zoom zooms[ZOOM_NR];
	int nr_zooms;
	enum zoom last_zoom;	/* the zoom last gone into or out of */
	bool fold_passed;	/* (--hierarchy) a zoom folds the entries it leaves */
	const struct thread *thread;
	/* its name when zoomed into: top may free an exited thread meanwhile */
	char *thread_label;
	const struct dso *dso;
	int socket;
	char *name_filter;
	char message[256];	/* shown on the status line until the next key */
	struct strbuf sb;
};

/* --- entries and rows ------------------------------------------------------ */

static void collect_entries(struct browser *b)
{
	struct hists *h = b->hists;

	if (h->opts->layout.hierarchy) {
		for (const struct hist_entry *he = h->nr_sorted ? h->sorted[0] : NULL; he;
		     he = hist_entry__hierarchy_next(he))
			b->nr_entries++;
	} else {
		b->nr_entries = h->nr_sorted;
	}
	b->entries = xcalloc(b->nr_entries ? b->nr_entries : 1, sizeof(*b->entries));
	if (h->opts->layout.hierarchy) {
		size_t i = 0;

		for (const struct hist_entry *he = h->nr_sorted ? h->sorted[0] : NULL; he;
		     he = hist_entry__hierarchy_next(he))
			b->entries[i++].he = (struct hist_entry *)he;
	} else {
		for (size_t i = 0; i < h->nr_sorted; i++)
			b->entries[i].he = h->sorted[i];
	}
	for (size_t i = 0; i < b->nr_entries; i++) {
		b->entries[i].filtered = b->entries[i].he->filtered;
		b->entries[i].stat = b->entries[i].he->stat;
	}
}

static void free_chain(struct entry_view *e)
{
	for (int i = 0; e->chain && i < e->nr_chain; i++)
		free(e->chain[i]);
	free(e->chain);
	free(e->graph);
	e->chain = NULL;
	e->graph = NULL;
	e->nr_chain = e->alloc_graph = 0;
	e->chain_built = false;
}

/* --- call graphs in perf's browser layout ---------------------------------- */

static uint64_t graph_min_hit(const struct browser *b, const struct callchain_node *n)
{
	return callchain_graph__min_hit(&b->hists->opts->cc, b->graph_percent, b->min_hit, n);
}

/* How many children of n the graph shows. */
static uint32_t nr_shown_children(const struct browser *b, const struct callchain_node *n)
{
	const struct callchain_node **kids;
	uint32_t nr = callchain_node__sorted_children(n, graph_min_hit(b, n), &kids);

	free(kids);
	return nr;
}

static bool is_unfolded(const struct browser *b, const struct callchain_node *frame)
{
	return hashmap_u64_get(&b->unfolded, (uintptr_t)frame) != NULL;
}

static void set_unfolded(struct browser *b, const struct callchain_node *frame, bool unfolded)
{
	if (unfolded || hashmap_u64_find(&b->unfolded, (uintptr_t)frame))
		hashmap_u64_put(&b->unfolded, (uintptr_t)frame, unfolded ? (void *)frame : NULL);
}

/* Whether a frame of the compressed node [first, last] folds what follows
 * it, as perf decides: the last frame its children, the first (of a
 * longer node) the frames after it, or at the top its siblings. */
static bool frame_folds(const struct browser *b, const struct callchain_node *first,
			const struct callchain_node *frame, const struct callchain_node *last,
			bool top, bool has_siblings)
{
	if (frame == last)
		return nr_shown_children(b, last) > 0;
	if (frame == first)
		return top ? has_siblings : true;
	return false;
}

static void add_graph_line(struct entry_view *e, struct graph_line line)
{
	if (e->nr_chain == e->alloc_graph) {
		e->alloc_graph = e->alloc_graph ? 2 * e->alloc_graph : 16;
		e->graph = xrealloc(e->graph, (size_t)e->alloc_graph * sizeof(*e->graph));
	}
	e->graph[e->nr_chain++] = line;
}

/* The shown lines of parent's children and, where unfolded, theirs; a
 * level's values show unless its one node holds all of parent_total. */
static void graph_level(struct browser *b, struct entry_view *e,
			const struct callchain_node *parent, uint64_t parent_total, int level,
			bool top)
{
	const struct callchain_node **kids;
	uint32_t nr = callchain_node__sorted_children(parent, graph_min_hit(b, parent), &kids);
	bool values = nr > 1 || (nr && callchain_node__cumul_hits(kids[0]) != parent_total);

	for (uint32_t k = 0; k < nr; k++) {
		const struct callchain_node *last = callchain_node__run_end(kids[k]);
		int extra = 0;
		char sign = ' ';

		for (const struct callchain_node *n = kids[k];; n = n->child) {
			if (n != kids[k] && values)
				extra = GRAPH_LEVEL_STEP;
			sign = !frame_folds(b, kids[k], n, last, top, nr > 1) ? ' ' :
			       is_unfolded(b, n) ? '-' : '+';
			add_graph_line(e, (struct graph_line){ n, kids[k],
				       level * GRAPH_LEVEL_STEP + extra, n == kids[k] && values,
				       sign, parent_total });
			if (sign == '+' || n == last)
				break;
		}
		if (sign == '-')
			graph_level(b, e, last, last->children_hit, level + (extra ? 2 : 1), false);
	}
	free(kids);
}

static uint64_t entry_period(const struct hist_entry *he)
{
	return he->hists->opts->cumulate ? he->stat_acc.period : he->stat.period;
}

/* The entry's graph lines as its fold states show them now. */
static void build_graph(struct browser *b, struct entry_view *e)
{
	e->nr_chain = 0;
	e->chain_built = true;
	/* (--hierarchy: a leaf's graph starts a level below the leaf's) */
	if (e->he->callchain)
		graph_level(b, e, &e->he->callchain->node, entry_period(e->he),
			    1 + e->he->depth, true);
}

/* Unfolds (folds) every frame of the graph below n. */
static void fold_graph(struct browser *b, const struct callchain_node *n, bool unfolded)
{
	const struct callchain_node **kids;
	uint32_t nr = callchain_node__sorted_children(n, graph_min_hit(b, n), &kids);

	for (uint32_t k = 0; k < nr; k++) {
		const struct callchain_node *last = callchain_node__run_end(kids[k]);

		for (const struct callchain_node *f = kids[k];; f = f->child) {
			set_unfolded(b, f, unfolded);
			if (f == last)
				break;
		}
		fold_graph(b, last, unfolded);
	}
	free(kids);
}

/* The entry's call graph, printed by report-stdio and cut into lines. */
static void build_chain(struct browser *b, struct entry_view *e)
{
	char *text = NULL, *line, *save = NULL;
	size_t size = 0;
	FILE *fp;

	if (b->graph) {
		build_graph(b, e);
		return;
	}
	if (e->chain_built)
		return;
	e->chain_built = true;
	if (!b->hists->opts->use_callchain || !(fp = open_memstream(&text, &size)))
		return;
	report_stdio__callchain(fp, e->he, b->opts->stdio, true);
	fclose(fp);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		e->chain = xrealloc(e->chain, (size_t)(e->nr_chain + 1) * sizeof(*e->chain));
		e->chain[e->nr_chain++] = xstrdup(line);
	}
	/* --stdio's blank line after a graph is no line of it */
	while (e->nr_chain && !e->chain[e->nr_chain - 1][strspn(e->chain[e->nr_chain - 1], " ")])
		free(e->chain[--e->nr_chain]);
	free(text);
}

/* Whether the entry folds: a call graph, or (--hierarchy) a level below. */
static bool has_chain(struct browser *b, struct entry_view *e)
{
	if (b->hists->opts->layout.hierarchy && !e->he->leaf)
		return e->he->nr_children > 0;
	if (b->graph)
		return e->he->callchain && nr_shown_children(b, &e->he->callchain->node) > 0;
	build_chain(b, e);
	return e->nr_chain > 0;
}

/* report --stdio's choice at the browser's percent limit ('L'). */
static bool entry_shown(const struct browser *b, const struct hist_entry *he)
{
	return !he->filtered && hist_entry__percent_limit(he) >= b->percent_limit;
}

static void add_row(struct browser *b, size_t entry, int line)
{
	if (b->nr_rows == b->alloc_rows) {
		b->alloc_rows = b->alloc_rows ? 2 * b->alloc_rows : 256;
		b->rows = xrealloc(b->rows, b->alloc_rows * sizeof(*b->rows));
	}
	b->rows[b->nr_rows++] = (struct row){ entry, line };
}

/* Lays the shown entries and their unfolded call graphs out, the cursor on
 * the row was (the first row when it is not shown). */
static void layout_rows(struct browser *b, struct row was)
{
	/* --hierarchy: whether the entry last seen at a depth shows its level below */
	bool open[UINT8_MAX + 1] = { false };

	b->nr_rows = 0;
	b->selected = 0;
	for (size_t i = 0; i < b->nr_entries; i++) {
		struct entry_view *e = &b->entries[i];
		uint8_t depth = e->he->depth;

		open[depth] = false;
		if (!entry_shown(b, e->he) || (depth && !open[depth - 1]))
			continue;
		open[depth] = e->expanded;
		if (i == was.entry)
			b->selected = b->nr_rows;
		add_row(b, i, -1);
		if (!e->expanded || (b->hists->opts->layout.hierarchy && !e->he->leaf))
			continue;
		build_chain(b, e);
		for (int k = 0; k < e->nr_chain; k++) {
			if (i == was.entry && k == was.line)
				b->selected = b->nr_rows;
			add_row(b, i, k);
		}
	}
}

/* layout_rows(), keeping the cursor on the entry (or graph line) it was on. */
static void build_rows(struct browser *b)
{
	layout_rows(b, b->nr_rows ? b->rows[b->selected] : (struct row){ SIZE_MAX, -1 });
}

/* --- zooms ----------------------------------------------------------------- */

static int zoom_index(const struct browser *b, enum zoom z)
{
	for (int i = 0; i < b->nr_zooms; i++)
		if (b->zooms[i] == z)
			return i;
	return -1;
}

static uint8_t zoom_bit(enum zoom z)
{
	static const uint8_t bits[ZOOM_NR] = {
		[ZOOM_THREAD] = HIST_FILTER_THREAD,
		[ZOOM_DSO] = HIST_FILTER_DSO,
		[ZOOM_SOCKET] = HIST_FILTER_SOCKET,
		[ZOOM_NAME] = HIST_FILTER_SYMBOL,
	};

	return z < ZOOM_NR ? bits[z] : 0;
}

/* Whether the zoom z leaves he out. */
static bool zoom_misses(const struct browser *b, enum zoom z, const struct hist_entry *he)
{
	switch (z) {
	case ZOOM_THREAD:
		return he->thread != b->thread;
	case ZOOM_DSO:
		return he->dso != b->dso;
	case ZOOM_SOCKET:
		return he->socket != b->socket;
	case ZOOM_NAME:
		return !he->sym || !strstr(he->sym->name, b->name_filter);
	case ZOOM_NR:
		break;
	}
	return false;
}

static uint8_t zoom_bits(const struct browser *b, const struct hist_entry *he)
{
	uint8_t bits = 0;

	for (int i = 0; i < b->nr_zooms; i++)
		if (zoom_misses(b, b->zooms[i], he))
			bits |= zoom_bit(b->zooms[i]);
	return bits;
}

/* The totals of the entries a zoom leaves, which relative percentages
 * ('F', --percentage relative) and the title then take, as perf counts
 * them after a zoom: the top level's entries with --hierarchy. */
static void count_shown(struct browser *b)
{
	struct hists_stats *st = &b->hists->stats;

	st->nr_non_filtered_samples = st->total_non_filtered_period = 0;
	for (size_t i = 0; i < b->nr_entries; i++) {
		const struct hist_entry *he = b->entries[i].he;

		if (he->filtered || he->depth)
			continue;
		st->nr_non_filtered_samples += he->stat.nr_events;
		st->total_non_filtered_period += he->stat.period;
	}
}

/* --- zooms of a --hierarchy --------------------------------------------- */

/* One zoom's pass over the levels, and the entries' views by address. */
struct refilter {
	struct browser *b;
	enum zoom z;
	bool fold;
	struct entry_view **by_he;
};

static int view_cmp(const void *a, const void *b)
{
	const struct hist_entry *x = (*(struct entry_view *const *)a)->he;
	const struct hist_entry *y = (*(struct entry_view *const *)b)->he;

	return x < y ? -1 : x > y;
}

static struct entry_view *view_of(const struct refilter *r, const struct hist_entry *he)
{
	struct entry_view key = { .he = (struct hist_entry *)he }, *k = &key, **v;

	v = bsearch(&k, r->by_he, r->b->nr_entries, sizeof(*r->by_he), view_cmp);
	return v ? *v : NULL;
}

static bool refilter_misses(const struct hist_entry *he, void *arg)
{
	const struct refilter *r = arg;

	return zoom_misses(r->b, r->z, he);
}

/* perf folds an entry the zoom leaves, and those above it shown again. */
static void refilter_passed(struct hist_entry *he, void *arg)
{
	const struct refilter *r = arg;

	if (!r->fold)
		return;
	for (; he; he = he->parent_he) {
		struct entry_view *e = view_of(r, he);

		if (e && !he->filtered)
			e->expanded = false;
	}
}

static void refilter_by(struct refilter *r, enum zoom z)
{
	bool active = zoom_index(r->b, z) >= 0;
	struct hierarchy_filter f = {
		.bit = zoom_bit(z),
		.misses = active ? refilter_misses : NULL,
		.passed = refilter_passed,
		.arg = r,
	};

	r->z = z;
	hists__hierarchy_refilter(r->b->hists, &f);
}

/* The entries' views in the levels' (new) order; keep's entry follows. */
static void reorder_views(struct refilter *r, struct row *keep)
{
	struct browser *b = r->b;
	struct entry_view *v = xmalloc((b->nr_entries ? b->nr_entries : 1) * sizeof(*v));
	size_t *moved = xmalloc((b->nr_entries ? b->nr_entries : 1) * sizeof(*moved));
	size_t n = 0;

	for (const struct hist_entry *he = b->hists->nr_sorted ? b->hists->sorted[0] : NULL;
	     he && n < b->nr_entries; he = hist_entry__hierarchy_next(he)) {
		struct entry_view *e = view_of(r, he);

		moved[e - b->entries] = n;
		v[n++] = *e;
	}
	if (keep->entry < n)
		keep->entry = moved[keep->entry];
	free(b->entries);
	free(moved);
	b->entries = v;
}

/* perf filters a hierarchy zoom by zoom, each on what the last left: the
 * stats as they were, each zoom's pass, then the pass of the zoom last
 * gone into or out of, whose entries set the widths (and fold). */
static void refilter_hierarchy(struct browser *b, struct row *keep)
{
	struct refilter r = { .b = b };

	r.by_he = xmalloc((b->nr_entries ? b->nr_entries : 1) * sizeof(*r.by_he));
	for (size_t i = 0; i < b->nr_entries; i++) {
		struct entry_view *e = &b->entries[i];

		e->he->stat = e->stat;
		e->he->filtered = e->filtered;
		r.by_he[i] = e;
	}
	qsort(r.by_he, b->nr_entries, sizeof(*r.by_he), view_cmp);
	for (int i = 0; i < b->nr_zooms; i++)
		if (b->zooms[i] != b->last_zoom)
			refilter_by(&r, b->zooms[i]);
	r.fold = b->fold_passed;
	refilter_by(&r, b->last_zoom);
	reorder_views(&r, keep);
	free(r.by_he);
}

/* Filters the entries again and sizes the columns for those left, as
 * perf does after a zoom; keep (an entry's row) follows its entry. */
static void filter_entries(struct browser *b, struct row *keep)
{
	if (b->hists->opts->layout.hierarchy) {
		b->hists->exact_widths = b->refiltered;
		if (b->refiltered) {
			refilter_hierarchy(b, keep);
			return;
		}
		count_shown(b);
		memcpy(b->hists->col_len, b->col_len, sizeof(b->col_len));
		return;
	}
	for (size_t i = 0; i < b->nr_entries; i++) {
		struct entry_view *e = &b->entries[i];

		e->he->filtered = e->filtered | zoom_bits(b, e->he);
	}
	count_shown(b);
	/* perf's browser hides the Shared Object column in a DSO, and sizes
	 * the columns for the rows alone, cutting the headers to fit, from
	 * its first filtering (top's at every refresh) on */
	b->hists->hidden_cols = zoom_index(b, ZOOM_DSO) >= 0 ? 1ull << HISTC_DSO : 0;
	b->hists->exact_widths = b->refiltered || b->opts->live;
	if (b->hists->exact_widths)
		hists__recalc_col_len(b->hists, SIZE_MAX);
	else
		memcpy(b->hists->col_len, b->col_len, sizeof(b->col_len));
}

static void apply_zooms(struct browser *b, enum zoom z)
{
	struct row was = b->nr_rows ? b->rows[b->selected] : (struct row){ SIZE_MAX, -1 };

	b->refiltered = true;
	b->last_zoom = z;
	b->fold_passed = true;
	filter_entries(b, &was);
	b->fold_passed = false;
	layout_rows(b, was);
}

static void zoom_out_of(struct browser *b, enum zoom z)
{
	int i = zoom_index(b, z);

	if (i < 0)
		return;
	memmove(b->zooms + i, b->zooms + i + 1, (size_t)(b->nr_zooms - i - 1) * sizeof(*b->zooms));
	b->nr_zooms--;
	if (z == ZOOM_NAME) {
		free(b->name_filter);
		b->name_filter = NULL;
	}
	apply_zooms(b, z);
}

static void zoom_into(struct browser *b, enum zoom z)
{
	if (zoom_index(b, z) < 0)
		b->zooms[b->nr_zooms++] = z;
	apply_zooms(b, z);
}

static const struct hist_entry *selected_entry(const struct browser *b)
{
	return b->nr_rows ? b->entries[b->rows[b->selected].entry].he : NULL;
}

static bool sorted_by(const struct hists *h, enum hist_column col)
{
	const struct hist_layout *l = &h->opts->layout;

	for (int i = 0; i < l->nr_keys; i++)
		if (l->keys[i]->col == col)
			return true;
	return false;
}

/* perf zooms into a thread (key or menu) only with a thread or comm key. */
static bool thread_zoomable(const struct hists *h)
{
	return sorted_by(h, HISTC_THREAD) || sorted_by(h, HISTC_COMM);
}

static const char *comm_of(const struct thread *t)
{
	return t->comm_set ? t->comm : "";
}

/* "comm(tid)", or "comm" when threads are not a sort key; caller frees. */
static char *thread_label(const struct browser *b, const struct thread *t)
{
	if (sorted_by(b->hists, HISTC_THREAD))
		return xasprintf("%s(%d)", comm_of(t), (int)t->tid);
	return xstrdup(comm_of(t));
}

/* The kernel's DSO: what 'k' zooms into. */
static const struct dso *kernel_dso(const struct browser *b)
{
	const struct dso *module = NULL;

	for (size_t i = 0; i < b->nr_entries; i++) {
		const struct dso *dso = b->entries[i].he->dso;

		if (!dso || !dso->kernel)
			continue;
		if (!strcmp(dso->short_name, "[kernel.kallsyms]") || dso->long_name[0] == '[')
			return dso;
		if (!module)
			module = dso;
	}
	return module;
}

/* Zooms into (or, zoomed already, out of) what the selected entry has. */
static void toggle_zoom(struct browser *b, enum zoom z)
{
	const struct hist_entry *he = selected_entry(b);

	if (zoom_index(b, z) >= 0) {
		zoom_out_of(b, z);
		return;
	}
	if (!he)
		return;
	switch (z) {
	case ZOOM_THREAD:
		if (!he->thread || !thread_zoomable(b->hists))
			return;
		b->thread = he->thread;
		free(b->thread_label);
		b->thread_label = thread_label(b, he->thread);
		break;
	case ZOOM_DSO:
		if (!he->dso)
			return;
		b->dso = he->dso;
		break;
	case ZOOM_SOCKET:
		if (he->socket < 0)
			return;
		b->socket = he->socket;
		break;
	case ZOOM_NAME:
	case ZOOM_NR:
		return;
	}
	zoom_into(b, z);
}

static void zoom_kernel(struct browser *b)
{
	const struct dso *kernel = kernel_dso(b);

	if (zoom_index(b, ZOOM_DSO) >= 0) {
		zoom_out_of(b, ZOOM_DSO);
		return;
	}
	if (!kernel) {
		snprintf(b->message, sizeof(b->message), "There is no kernel map in this profile");
		return;
	}
	b->dso = kernel;
	zoom_into(b, ZOOM_DSO);
}

static void filter_by_name(struct browser *b)
{
	char *text = tui__input("Symbol to show",
				"Please enter the name of symbol you want to see.\n"
				"To remove the filter later, press / + ENTER.");

	if (!text)
		return;
	if (!*text) {
		free(text);
		/* no filter: the rows filtered again all the same */
		if (zoom_index(b, ZOOM_NAME) >= 0)
			zoom_out_of(b, ZOOM_NAME);
		else
			apply_zooms(b, ZOOM_NAME);
		return;
	}
	zoom_out_of(b, ZOOM_NAME);
	b->name_filter = text;
	zoom_into(b, ZOOM_NAME);
}

/* --- drawing --------------------------------------------------------------- */

/* Whether rows have a fold sign: with call graphs or levels. */
static bool folds(const struct hists *h)
{
	return h->opts->use_callchain || h->opts->layout.hierarchy;
}

static void title_line(struct browser *b, struct strbuf *sb)
{
	const struct evsel *evsel = b->event->hists->evsel;
	uint64_t nr_samples, nr_events;
	unsigned long shown;
	char unit;

	report_stdio__totals(b->hists, &nr_samples, &nr_events);
	shown = convert_unit((unsigned long)nr_samples, &unit);
	strbuf_reset(sb);
	strbuf_addf(sb, "Samples: %lu%c of event%s '%s',", shown, unit,
		    b->event->leads_group ? "s" : "", b->event->name);
	/* top's: the sampling frequency */
	if (b->opts->live && evsel->attr.freq)
		strbuf_addf(sb, " %" PRIu64 " Hz,", (uint64_t)evsel->attr.sample_freq);
	strbuf_addf(sb, " Event count (approx.): %" PRIu64, nr_events);
	/* in this order whatever the zooms' (the symbol filter shows none) */
	if (zoom_index(b, ZOOM_THREAD) >= 0)
		strbuf_addf(sb, ", Thread: %s", b->thread_label);
	if (zoom_index(b, ZOOM_DSO) >= 0)
		strbuf_addf(sb, ", DSO: %s", b->dso->short_name);
	if (zoom_index(b, ZOOM_SOCKET) >= 0)
		strbuf_addf(sb, ", Processor Socket: %d", b->socket);
	if (b->opts->live && b->opts->live->title_tail)
		b->opts->live->title_tail(b->opts->live->ctx, sb);
}

/* The column header line, as --stdio's first header line. */
static void header_line(struct browser *b, struct strbuf *sb)
{
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);

	strbuf_reset(sb);
	if (!fp)
		return;
	report_stdio__browser_header(fp, b->hists);
	fclose(fp);
	if (text) {
		text[strcspn(text, "\n")] = '\0';
		if (folds(b->hists))
			strbuf_addstr(sb, "  ");
		strbuf_addstr(sb, text + (strncmp(text, "# ", 2) ? 0 : 2));
	}
	free(text);
}

/* Whether perf's browser marks a frame with an arrow: from verbosity
 * level 1 on the screen, a symbol with samples of its own to annotate. */
static bool frame_annotated(const struct browser *b, const struct cc_frame *f)
{
	return b->verbose && f->sym && b->opts->has_samples &&
	       b->opts->has_samples(b->opts->annotate_ctx, f->sym);
}

/* A graph line: the offset, the fold sign, the node's value (as --stdio
 * shows it) before the first frame of a node, the frame's name and, from
 * verbosity level 1, its DSO's; on the screen (not perf.hist.N) the blank
 * after the sign is an arrow on an annotated frame (frame_annotated()). */
static void graph_line_text(struct browser *b, const struct entry_view *e,
			    const struct graph_line *g, struct strbuf *out, bool screen)
{
	const struct callchain_param *cc = &b->hists->opts->cc;
	const struct cc_frame *f = g->frame->frame;
	uint64_t period = callchain_node__cumul_hits(g->node);
	uint64_t total = cc->mode == CHAIN_GRAPH_REL ? g->level_total :
			 hists__total_period(b->hists);

	strbuf_addf(out, "%*s%c%s", g->offset, "", g->sign,
		    screen && frame_annotated(b, f) ? tui__glyph("→") : " ");
	if (g->value && cc->value == CCVAL_PERIOD)
		strbuf_addf(out, "%" PRIu64 " ", period);
	else if (g->value && cc->value == CCVAL_COUNT)
		strbuf_addf(out, "%u ", callchain_node__cumul_counts(g->node));
	else if (g->value)
		strbuf_addf(out, "%.2f%% ", total ? period * 100.0 / total : 0.0);
	strbuf_addstr(out, cc_frame__name(f, cc->key, &b->sb));
	if (b->verbose)
		strbuf_addf(out, " %s", f->dso ? f->dso->short_name : "unknown");
	/* perf 6.1's browser crashes on these graphs: stdio's notes */
	if (b->hists->opts->branch_counts)
		callchain_print__branch_notes(out, g->frame, NOTES_MAX_BRANCH);
}

/* A screen line's text (with perf's colour escapes when color). */
static void row_text(struct browser *b, const struct row *r, struct strbuf *out, bool color)
{
	struct entry_view *e = &b->entries[r->entry];
	size_t lead;

	strbuf_reset(out);
	if (r->line >= 0 && b->graph) {
		graph_line_text(b, e, &e->graph[r->line], out, color);
		return;
	}
	if (r->line >= 0) {
		strbuf_addstr(out, e->chain[r->line]);
		return;
	}
	report_stdio__row(&b->sb, e->he, color);
	/* report --stdio leads a row with two blanks (after a level's indent)
	 * where the browser puts the fold sign, or nothing without folds */
	lead = b->hists->opts->layout.hierarchy ? e->he->depth * (size_t)REPORT_HIERARCHY_INDENT :
	       0;
	if (b->hists->opts->field_sep || b->sb.len < lead + 2 ||
	    strncmp(b->sb.buf + lead, "  ", 2)) {
		strbuf_addstr(out, strbuf_str(&b->sb));
		return;
	}
	strbuf_addf(out, "%.*s", (int)lead, b->sb.buf);
	if (folds(b->hists))
		strbuf_addstr(out, !e->seen || !has_chain(b, e) ? "  " :
				   e->expanded ? "- " : "+ ");
	strbuf_addstr(out, b->sb.buf + lead + 2);
}

static int first_row_line(const struct browser *b)
{
	return b->show_headers ? 2 : 1;
}

static int visible_rows(const struct browser *b)
{
	int n = tui__rows() - 1 - first_row_line(b);

	return n > 0 ? n : 1;
}

static void scroll_to_selection(struct browser *b)
{
	size_t visible = (size_t)visible_rows(b);

	if (b->selected >= b->nr_rows)
		b->selected = b->nr_rows ? b->nr_rows - 1 : 0;
	if (b->selected < b->top)
		b->top = b->selected;
	if (b->selected >= b->top + visible)
		b->top = b->selected - visible + 1;
	/* perf lets a page down leave the screen part empty, not more */
	if (b->top >= b->nr_rows)
		b->top = b->nr_rows > visible ? b->nr_rows - visible : 0;
}

static void draw(struct browser *b)
{
	struct strbuf line = STRBUF_INIT;
	int first = first_row_line(b), visible = visible_rows(b);

	scroll_to_selection(b);
	erase();
	title_line(b, &line);
	tui__title("%s", strbuf_str(&line));
	/* (on the screen only: perf.hist.N has every column) */
	b->hists->skip_cols = b->horiz_scroll;
	if (b->show_headers) {
		header_line(b, &line);
		tui__write(1, 0, TUI_ROOT, true, strbuf_str(&line));
	}
	for (int i = 0; i < visible && b->top + (size_t)i < b->nr_rows; i++) {
		size_t at = b->top + (size_t)i;

		b->entries[b->rows[at].entry].seen = true;
		row_text(b, &b->rows[at], &line, true);
		tui__write_colored(first + i, 0, at == b->selected && b->navkeypressed ?
				   TUI_SELECTED : TUI_NORMAL, true, strbuf_str(&line));
	}
	b->hists->skip_cols = 0;
	tui__status("%s", b->message[0] ? b->message : b->opts->helpline ? b->opts->helpline : "");
	/* perf's bar runs as many rows as the screen has but the title and
	 * status lines, from below the header line (into the status line) */
	if (b->navkeypressed)
		tui__scroll_bar(first, tui__rows() - 2, b->selected, b->nr_rows);
	tui__refresh();
	strbuf_release(&line);
}

/* --- actions --------------------------------------------------------------- */

static void set_expanded(struct browser *b, struct entry_view *e, bool expanded)
{
	e->expanded = expanded && has_chain(b, e);
}

/* Gives the entries back as they were before the browser: their filter
 * bits and the widths; the call graphs' lines go. */
static void release_entries(struct browser *b)
{
	for (size_t i = 0; i < b->nr_entries; i++) {
		b->entries[i].he->filtered = b->entries[i].filtered;
		if (b->hists->opts->layout.hierarchy)
			b->entries[i].he->stat = b->entries[i].stat;
		free_chain(&b->entries[i]);
	}
	if (b->hists->opts->layout.hierarchy && b->refiltered)
		hists__hierarchy_sort_again(b->hists);
	memcpy(b->hists->col_len, b->col_len, sizeof(b->col_len));
	free(b->entries);
	b->entries = NULL;
	b->nr_entries = 0;
}

/* Marks the unfolded frames of the graph below n (and the cursor's frame)
 * on the nodes, which top's ageing copies with the graph; true if any. */
static bool mark_levels(struct browser *b, struct callchain_node *n,
			const struct callchain_node *cursor)
{
	bool any = false;

	for (struct callchain_node *c = n->child; c; c = c->sibling) {
		c->browser_marks = (uint8_t)((is_unfolded(b, c) ? HIST_MARK_UNFOLDED : 0) |
					     (c == cursor ? HIST_MARK_SELECTED : 0));
		any |= c->browser_marks != 0;
		any |= mark_levels(b, c, cursor);
	}
	return any;
}

/* mark_levels() undone on the copied graph below n: its unfolded frames
 * are unfolded again and *cursor is the cursor's frame, if left. */
static void take_levels(struct browser *b, struct callchain_node *n,
			const struct callchain_node **cursor)
{
	for (struct callchain_node *c = n->child; c; c = c->sibling) {
		if (c->browser_marks & HIST_MARK_UNFOLDED)
			set_unfolded(b, c, true);
		if (c->browser_marks & HIST_MARK_SELECTED)
			*cursor = c;
		c->browser_marks = 0;
		take_levels(b, c, cursor);
	}
}

static void forget_unfolded(struct browser *b)
{
	hashmap_release(&b->unfolded);
	memset(&b->unfolded, 0, sizeof(b->unfolded));
}

/* The line of the entry's graph that shows frame, or -1. */
static int graph_line_of(struct browser *b, struct entry_view *e,
			 const struct callchain_node *frame)
{
	build_graph(b, e);
	for (int k = 0; k < e->nr_chain; k++)
		if (e->graph[k].frame == frame)
			return k;
	return -1;
}

/* A live histogram's refresh: the entries may go, and top's ageing moves
 * the call graphs' nodes, so what is unfolded (entries and graph levels)
 * and the cursor's entry and frame are marked on the entries and nodes
 * themselves and found again on those left after the re-sort. */
static void reload(struct browser *b)
{
	const struct hist_entry *selected = selected_entry(b);
	struct row was = { SIZE_MAX, b->nr_rows ? b->rows[b->selected].line : -1 };
	const struct callchain_node *cursor = NULL;

	if (b->graph && was.line >= 0)
		cursor = b->entries[b->rows[b->selected].entry].graph[was.line].frame;
	for (size_t i = 0; i < b->nr_entries; i++) {
		struct entry_view *e = &b->entries[i];
		bool levels = b->graph && e->he->callchain &&
			      (b->unfolded.used || cursor) &&
			      mark_levels(b, &e->he->callchain->node, cursor);

		e->he->browser_marks = (uint8_t)((e->expanded ? HIST_MARK_UNFOLDED : 0) |
						 (e->he == selected ? HIST_MARK_SELECTED : 0) |
						 (levels ? HIST_MARK_LEVELS : 0) |
						 (e->seen ? HIST_MARK_SEEN : 0));
	}
	release_entries(b);
	forget_unfolded(b);
	b->hists = b->opts->live->resort(b->opts->live->ctx, b->event->hists);
	memcpy(b->col_len, b->hists->col_len, sizeof(b->col_len));
	collect_entries(b);
	cursor = NULL;
	for (size_t i = 0; i < b->nr_entries; i++) {
		struct entry_view *e = &b->entries[i];
		uint8_t marks = e->he->browser_marks;

		e->he->browser_marks = 0;
		e->seen = marks & HIST_MARK_SEEN;
		if (marks & HIST_MARK_SELECTED)
			was.entry = i;
		if (marks & HIST_MARK_LEVELS)
			take_levels(b, &e->he->callchain->node, &cursor);
		if (marks & HIST_MARK_UNFOLDED)
			set_expanded(b, e, true);
	}
	if (was.entry == SIZE_MAX)
		was.line = -1;
	else if (b->graph && was.line >= 0)
		was.line = cursor ? graph_line_of(b, &b->entries[was.entry], cursor) : -1;
	filter_entries(b, &was);
	layout_rows(b, was);
}


/* E and C: every entry and (graph layout) every level of its graph; the
 * cursor goes back to the first row, as perf's. */
static void expand_all(struct browser *b, bool expanded)
{
	if (!expanded)
		forget_unfolded(b);
	for (size_t i = 0; i < b->nr_entries; i++) {
		struct entry_view *e = &b->entries[i];

		e->seen = true;		/* filtered out or not, as perf's */
		if (!entry_shown(b, e->he))
			continue;
		set_expanded(b, e, expanded);
		if (expanded && b->graph && e->he->callchain)
			fold_graph(b, &e->he->callchain->node, true);
	}
	build_rows(b);
	b->selected = b->top = 0;
}

/* '+' and 'e' (toggle) or 'c' (fold): the selected row's level, an
 * entry's graph or (perf's browser layout) a graph line's frame; what
 * was unfolded below it stays so for the next unfolding. */
static void fold_level(struct browser *b, bool toggle)
{
	struct row *r = b->nr_rows ? &b->rows[b->selected] : NULL;
	struct entry_view *e = r ? &b->entries[r->entry] : NULL;

	if (!r)
		return;
	if (r->line < 0 || !b->graph) {
		set_expanded(b, e, toggle && !e->expanded);
		/* folding from a --stdio graph's line leaves the cursor on its entry */
		r->line = -1;
	} else if (e->graph[r->line].sign != ' ') {
		set_unfolded(b, e->graph[r->line].frame, toggle && e->graph[r->line].sign == '+');
	}
	build_rows(b);
}

/* The one place the annotate browser opens from ('a' and the menu); the
 * screen is drawn again when it comes back. */
static void annotate(struct browser *b, const struct hist_entry *he)
{
	const char *why = "no annotation here";

	if (he && he->sym && b->opts->annotate && b->opts->has_samples &&
	    !b->opts->has_samples(b->opts->annotate_ctx, he->sym)) {
		char line[512];
		const char *warning[] = { line, "", "Probably appeared just in a callchain", "",
					  "Press any key..." };

		snprintf(line, sizeof(line), "No samples for the \"%s\" symbol.", he->sym->name);
		tui__message("Warning!", warning, ARRAY_SIZE(warning));
		clear();
		return;
	}
	if (he && he->sym && b->opts->annotate)
		why = b->opts->annotate(b->opts->annotate_ctx, he);
	if (why)
		snprintf(b->message, sizeof(b->message), "%s", why);
	clear();
}

static void browse_map(const struct hist_entry *he)
{
	char lines[3][512];
	const char *text[3] = { lines[0], lines[1], lines[2] };

	snprintf(lines[0], sizeof(lines[0]), "DSO: %s", he->dso ? he->dso->long_name : "[unknown]");
	snprintf(lines[1], sizeof(lines[1]), "Symbol: %s", he->sym ? he->sym->name : "[unknown]");
	if (he->sym)
		snprintf(lines[2], sizeof(lines[2]), "Range: %#" PRIx64 "-%#" PRIx64,
			 he->sym->start, he->sym->end);
	else
		snprintf(lines[2], sizeof(lines[2]), "Address: %#" PRIx64, he->ip);
	tui__message("Map details", text, 3);
}

/* The first free perf.hist.N. */
static FILE *open_dump(char *name, size_t size)
{
	for (int n = 0; n < 8192; n++) {
		snprintf(name, size, "perf.hist.%d", n);
		if (access(name, F_OK))
			return fopen(name, "w");
	}
	return NULL;
}

/* perf prints a --hierarchy entry to perf.hist.N without the blank
 * after its fold sign, nor the blanks after its last column. */
static void hierarchy_dump_row(const struct browser *b, const struct row *r, struct strbuf *line)
{
	size_t blank = b->entries[r->entry].he->depth * (size_t)REPORT_HIERARCHY_INDENT + 1;
	char *text = line->buf;
	size_t len = line->len;

	if (len > blank && text[blank] == ' ') {
		memmove(text + blank, text + blank + 1, len - blank);
		len--;
	}
	while (len && text[len - 1] == ' ')
		len--;
	strbuf_setlen(line, len);
}

/* 'P': every row as the screen shows it (unfolded graphs included). */
static void dump_rows(struct browser *b)
{
	struct strbuf line = STRBUF_INIT;
	char name[32];
	FILE *fp = open_dump(name, sizeof(name));

	if (!fp) {
		snprintf(b->message, sizeof(b->message), "Couldn't write perf.hist.N");
		return;
	}
	for (size_t i = 0; i < b->nr_rows; i++) {
		const struct row *r = &b->rows[i];

		row_text(b, r, &line, false);
		if (b->hists->opts->layout.hierarchy && r->line < 0)
			hierarchy_dump_row(b, r, &line);
		fprintf(fp, "%s\n", strbuf_str(&line));
	}
	fclose(fp);
	strbuf_release(&line);
	snprintf(b->message, sizeof(b->message), "%s written!", name);
}

/* perf's help, its lines for the keys pcl has (top's own before '/'). */
static void help(const struct browser *b)
{
	static const char *const keys[] = {
		"h/?/F1        Show this window",
		"UP/DOWN/PGUP",
		"PGDN/SPACE    Navigate",
		"q/ESC/CTRL+C  Exit browser or go back to previous screen",
		"",
		"For multiple event sessions:",
		"",
		"TAB/UNTAB     Switch events",
		"",
		"For symbolic views (--sort has sym):",
		"",
		"ENTER         Zoom into DSO/Threads & Annotate current symbol",
		"ESC           Zoom out",
		"+             Expand/Collapse one callchain level",
		"a             Annotate current symbol",
		"C             Collapse all callchains",
		"d             Zoom into current DSO",
		"e             Expand/Collapse main entry callchains",
		"E             Expand all callchains",
		"F             Toggle percentage of filtered entries",
		"H             Display column headers",
		"k             Zoom into the kernel map",
		"L             Change percent limit",
		"m             Display context menu",
		"S             Zoom into current Processor Socket",
		"i             Show header information",
		"P             Print histograms to perf.hist.N",
		"r             Run available scripts",
		"s             Switch to another data file in PWD",
		"t             Zoom into current Thread",
		"V             Verbose (DSO names in callchains, etc)",
		"/             Filter symbol by name",
		"0-9           Sort by event n in group",
	};
	const struct hist_browser_live *live = b->opts->live;
	int nr_live = live ? live->nr_help : 0;
	const char **text = xcalloc(ARRAY_SIZE(keys) + (size_t)nr_live + 2, sizeof(*text));
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		/* top has no header, scripts nor files to show */
		if ((!b->opts->header && keys[i][0] == 'i') ||
		    (!b->opts->scripts && keys[i][0] == 'r') ||
		    (!b->opts->switch_input && keys[i][0] == 's'))
			continue;
		if (keys[i][0] == '/')
			for (int k = 0; k < nr_live; k++)
				text[n++] = live->help[k];
		text[n++] = keys[i];
	}
	text[n++] = "";
	text[n++] = "Press any key...";
	tui__message("Help", text, n);
	free(text);
}

/* 'L': perf's question; entries and graph nodes under the answer hide,
 * every graph folds and the cursor goes back to the top. */
static void change_percent_limit(struct browser *b)
{
	char *text = tui__input("Percent Limit",
				"Please enter the value you want to hide entries under that percent.");
	double pct;

	if (!text)
		return;
	pct = strtod(text, NULL);
	free(text);
	if (pct < 0 || pct > 100) {
		char line[64];
		const char *warning[] = { line, "", "Press any key..." };

		snprintf(line, sizeof(line), "Invalid percent: %.2f", pct);
		tui__message("Warning!", warning, ARRAY_SIZE(warning));
		return;
	}
	b->percent_limit = b->graph_percent = pct;
	b->min_hit = report_stdio__callchain_min_hit(b->hists, pct);
	for (size_t i = 0; i < b->nr_entries; i++)
		b->entries[i].expanded = false;
	forget_unfolded(b);
	build_rows(b);
	b->selected = b->top = 0;
}

/* Whether the file starts with a perf.data magic (either byte order). */
static bool is_perf_data(const char *name)
{
	uint64_t magic = 0;
	FILE *fp = fopen(name, "r");
	bool yes;

	if (!fp)
		return false;
	yes = fread(&magic, sizeof(magic), 1, fp) == 1 &&
	      (magic == PERF_MAGIC2 || magic == __builtin_bswap64(PERF_MAGIC2));
	fclose(fp);
	return yes;
}

/* 's': perf's list of the perf.data files in the current directory, in
 * the directory's order; true when one was chosen. */
static bool switch_data_file(struct browser *b)
{
	char **names = NULL;
	int n = 0, chosen;
	struct dirent *d;
	DIR *dir = opendir(".");

	if (!dir)
		return false;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !is_perf_data(d->d_name))
			continue;
		names = xrealloc(names, (size_t)(n + 1) * sizeof(*names));
		names[n++] = xstrdup(d->d_name);
	}
	closedir(dir);
	if (!n) {
		snprintf(b->message, sizeof(b->message), "No perf data file found in PWD");
		return false;
	}
	chosen = tui__list(NULL, (const char *const *)names, n,
			   "ESC: exit, ENTER|->: Select option", 0);
	if (chosen >= 0)
		*b->opts->switch_input = xstrdup(names[chosen]);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return chosen >= 0;
}

/* 'i': the file's header lines, as report --header-only shows them
 * between its rules. */
static void header_info(struct browser *b)
{
	char *text = NULL, *line, *save = NULL;
	const char **lines = NULL;
	size_t size = 0;
	int n = 0;
	FILE *fp;

	if (!b->opts->header || !(fp = open_memstream(&text, &size)))
		return;
	b->opts->header(b->opts->header_ctx, fp);
	fclose(fp);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "#") || !strncmp(line, "# ====", 6))
			continue;
		lines = xrealloc(lines, (size_t)(n + 1) * sizeof(*lines));
		lines[n++] = line;
	}
	tui__list("Header information", lines, n, "Press 'q' to exit", 0);
	free(lines);
	free(text);
}

enum menu_action {
	ACT_ANNOTATE, ACT_THREAD, ACT_DSO, ACT_FOLD, ACT_MAP,
	ACT_SCRIPTS_THREAD, ACT_SCRIPTS_SYMBOL, ACT_SCRIPTS_ALL, ACT_SWITCH, ACT_EXIT
};

/* The symbol of the selected row: its entry's, or its graph line's frame's. */
static const struct symbol *selected_symbol(const struct browser *b)
{
	const struct row *r = &b->rows[b->selected];
	const struct entry_view *e = &b->entries[r->entry];

	if (r->line >= 0 && b->graph)
		return e->graph[r->line].frame->frame->sym;
	return e->he->sym;
}

/* What 'a' and the menu's Annotate take on the selected row: its entry,
 * or on a graph line (perf's graph layout) the entry with the frame's
 * symbol in tmp: perf annotates the symbol of the line selected. */
static const struct hist_entry *annotate_target(const struct browser *b, struct hist_entry *tmp)
{
	const struct row *r = &b->rows[b->selected];
	const struct entry_view *e = &b->entries[r->entry];
	const struct cc_frame *f;

	if (r->line < 0 || !b->graph)
		return e->he;
	f = e->graph[r->line].frame->frame;
	*tmp = *e->he;
	tmp->sym = f->sym;
	tmp->dso = f->dso;
	tmp->ip = f->addr;
	tmp->unmap_shift = f->unmap_shift;
	return tmp;
}

/* The name of what the selected row folds: its entry's symbol or (perf's
 * graph layout) its frame's; NULL when it folds nothing. */
static const char *fold_name(struct browser *b, struct strbuf *sb)
{
	const struct row *r = &b->rows[b->selected];
	struct entry_view *e = &b->entries[r->entry];

	if (r->line >= 0 && b->graph)
		return e->graph[r->line].sign == ' ' ? NULL :
		       cc_frame__name(e->graph[r->line].frame->frame, b->hists->opts->cc.key, sb);
	return has_chain(b, e) && e->he->sym ? e->he->sym->name : NULL;
}

/* Whether the selected row's fold is open. */
static bool fold_open(const struct browser *b)
{
	const struct row *r = &b->rows[b->selected];
	const struct entry_view *e = &b->entries[r->entry];

	return r->line >= 0 && b->graph ? e->graph[r->line].sign == '-' : e->expanded;
}

/* Enter: perf's options for the selected entry, in its order; true to
 * leave. */
static bool options_menu(struct browser *b)
{
	const struct hist_entry *he = selected_entry(b), *target;
	struct hist_entry frame;
	char *text[ACT_EXIT + 1];
	const char *entries[ACT_EXIT + 1];
	enum menu_action actions[ACT_EXIT + 1];
	int n = 0, chosen;
	bool leave = false;

	if (!he)
		return false;
	target = annotate_target(b, &frame);
	if (target != he ? target->sym && b->opts->has_samples &&
			   b->opts->has_samples(b->opts->annotate_ctx, target->sym) :
			   he->sym && he->stat.nr_events) {
		text[n] = xasprintf("Annotate %s", target->sym->name);
		actions[n++] = ACT_ANNOTATE;
	}
	if (he->thread && thread_zoomable(b->hists)) {
		bool out = zoom_index(b, ZOOM_THREAD) >= 0;
		char *label = out ? b->thread_label : thread_label(b, he->thread);

		text[n] = xasprintf("Zoom %s %s thread", out ? "out of" : "into", label);
		if (!out)
			free(label);
		actions[n++] = ACT_THREAD;
	}
	/* perf offers the DSO's zoom and map with the dso key only */
	if (he->dso && sorted_by(b->hists, HISTC_DSO)) {
		bool out = zoom_index(b, ZOOM_DSO) >= 0;
		const struct dso *dso = out ? b->dso : he->dso;

		text[n] = xasprintf("Zoom %s %s DSO (use the 'k' hotkey to zoom directly into the "
				    "kernel)", out ? "out of" : "into",
				    dso->kernel ? "the Kernel" : dso->short_name);
		actions[n++] = ACT_DSO;
	}
	if (fold_name(b, &b->sb)) {
		text[n] = xasprintf("%s [%s] callchain (one level, same as '+' hotkey, use 'e'/'c' "
				    "for the whole main level entry)",
				    fold_open(b) ? "Collapse" : "Expand", fold_name(b, &b->sb));
		actions[n++] = ACT_FOLD;
	}
	if (he->dso && sorted_by(b->hists, HISTC_DSO)) {
		text[n] = xstrdup("Browse map details");
		actions[n++] = ACT_MAP;
	}
	if (b->opts->scripts && he->thread && sorted_by(b->hists, HISTC_THREAD)) {
		text[n] = xasprintf("Run scripts for samples of thread [%s]", comm_of(he->thread));
		actions[n++] = ACT_SCRIPTS_THREAD;
	}
	if (b->opts->scripts && selected_symbol(b)) {
		text[n] = xasprintf("Run scripts for samples of symbol [%s]",
				    selected_symbol(b)->name);
		actions[n++] = ACT_SCRIPTS_SYMBOL;
	}
	if (b->opts->scripts) {
		text[n] = xstrdup("Run scripts for all samples");
		actions[n++] = ACT_SCRIPTS_ALL;
	}
	if (b->opts->switch_input) {
		text[n] = xstrdup("Switch to another data file in PWD");
		actions[n++] = ACT_SWITCH;
	}
	text[n] = xstrdup("Exit");
	actions[n++] = ACT_EXIT;
	for (int i = 0; i < n; i++)
		entries[i] = text[i];
	chosen = tui__list(NULL, entries, n, "ESC: exit, ENTER|->: Select option", 0);
	for (int i = 0; i < n; i++)
		free(text[i]);
	if (chosen < 0)
		return false;
	switch (actions[chosen]) {
	case ACT_THREAD:
		toggle_zoom(b, ZOOM_THREAD);
		break;
	case ACT_DSO:
		toggle_zoom(b, ZOOM_DSO);
		break;
	case ACT_FOLD:
		fold_level(b, true);
		break;
	case ACT_ANNOTATE:
		annotate(b, target);
		break;
	case ACT_MAP:
		browse_map(he);
		break;
	case ACT_SCRIPTS_THREAD:
		script_menu__run(b->opts->scripts, comm_of(he->thread), NULL);
		break;
	case ACT_SCRIPTS_SYMBOL:
		script_menu__run(b->opts->scripts, NULL, selected_symbol(b)->name);
		break;
	case ACT_SCRIPTS_ALL:
		script_menu__run(b->opts->scripts, NULL, NULL);
		break;
	case ACT_SWITCH:
		leave = switch_data_file(b);
		break;
	case ACT_EXIT:
		leave = true;
		break;
	}
	return leave;
}

/* The cursor keys as perf's browser moves: a page moves the screen
 * with the cursor, and none past the last row. */
static void move_cursor(struct browser *b, int key)
{
	size_t page = (size_t)visible_rows(b), last = b->nr_rows ? b->nr_rows - 1 : 0, step;

	switch (key) {
	case KEY_UP:
		if (b->selected)
			b->selected--;
		break;
	case KEY_DOWN:
		if (b->selected < last)
			b->selected++;
		break;
	case KEY_PPAGE:
		step = b->top < page ? b->top : page;
		b->selected -= b->selected < step ? b->selected : step;
		b->top -= step;
		break;
	case KEY_NPAGE:
	case ' ':
		if (b->top + page > last)
			break;
		step = b->selected + page > last ? last - b->selected : page;
		b->selected += step;
		b->top += step;
		break;
	case KEY_HOME:
		b->selected = b->top = 0;
		break;
	case KEY_END:
		b->selected = last;
		b->top = last - (page - 1 < last ? page - 1 : last);
		break;
	}
}

static bool is_move_key(int key)
{
	return key == KEY_UP || key == KEY_DOWN || key == KEY_PPAGE || key == KEY_NPAGE ||
	       key == ' ' || key == KEY_HOME || key == KEY_END;
}

/* LEFT and RIGHT once the cursor shows: all columns but the last can be
 * scrolled away (with --hierarchy, whose keys make one column, the
 * values). */
static void scroll_sideways(struct browser *b, int step)
{
	const struct hist_layout *l = &b->hists->opts->layout;
	int last = l->nr_fields - 1;

	if (l->hierarchy) {
		last = 0;
		for (int i = 0; i < l->nr_fields; i++)
			last += !l->fields[i].field->is_key;
	}

	if (b->horiz_scroll + step >= 0 && b->horiz_scroll + step <= (last > 0 ? last : 0))
		b->horiz_scroll += step;
}

/* A digit: the entries sort by that group member's column first, and
 * the browser starts again on them (perf reloads the report); true then.
 * A live histogram sorts so at its refreshes, the first one now, after
 * telling its owner (perf top zeroes its samples from then on). */
static bool sort_by_member(struct browser *b, int idx)
{
	int *current = b->opts->group_sort_idx;
	int nr = b->event->hists->nr_members;

	if (!current || !b->event->leads_group || nr < 2) {
		snprintf(b->message, sizeof(b->message),
			 "Sort by index only available with group events!");
		return false;
	}
	if (idx == *current)
		return false;
	*current = idx;
	if (idx >= nr) {
		snprintf(b->message, sizeof(b->message),
			 "Max event group index to sort is %d (index from 0 to %d)", nr - 1, nr - 1);
		return false;
	}
	if (b->opts->live) {
		if (b->opts->live->sort_changed)
			b->opts->live->sort_changed(b->opts->live->ctx);
		reload(b);
		return false;
	}
	hists__sort_again(b->event->hists);
	return true;
}

/* ESC or the left arrow: zooms out of the last zoom; true when there
 * was none. */
static bool zoom_out_last(struct browser *b)
{
	/* the symbol filter stays: only '/' and an empty text end it */
	for (int i = b->nr_zooms - 1; i >= 0; i--) {
		if (b->zooms[i] != ZOOM_NAME) {
			zoom_out_of(b, b->zooms[i]);
			return false;
		}
	}
	return true;
}

static enum leave browse(struct browser *b)
{
	const struct hist_browser_live *live = b->opts->live;
	bool redraw = true;

	for (;;) {
		int key;

		if (redraw)
			draw(b);
		key = tui__getkey(live ? live->interval_ms : -1);
		if (key == TUI_KEY_TIMEOUT) {
			redraw = live && live->due(live->ctx);
			if (redraw)
				reload(b);
			continue;
		}
		redraw = true;
		b->message[0] = '\0';
		/* the first move only shows the cursor (and the scroll bar) */
		if (is_move_key(key)) {
			if (b->navkeypressed)
				move_cursor(b, key);
			b->navkeypressed = true;
			continue;
		}
		switch (key) {
		case '+':
		case 'e':
		case 'c':
			fold_level(b, key != 'c');
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
		case 'm':
			if (options_menu(b))
				return LEAVE_EXIT;
			break;
		case 'E':
		case 'C':
			expand_all(b, key == 'E');
			break;
		case 'L':
			change_percent_limit(b);
			break;
		case 'i':
			header_info(b);
			break;
		case 'F':
			if (b->opts->filter_relative)
				*b->opts->filter_relative = !*b->opts->filter_relative;
			break;
		case 'V':
			b->verbose = (b->verbose + 1) % 4;
			if (b->opts->verbose)
				*b->opts->verbose = b->verbose > 0;
			break;
		case '0' ... '9':
			if (sort_by_member(b, key - '0'))
				return LEAVE_RELOAD;
			break;
		case 'a':
			if (b->nr_rows) {
				struct hist_entry frame;
				const struct hist_entry *target = annotate_target(b, &frame);

				if (target->sym)
					annotate(b, target);
			}
			break;
		case 'd':
			toggle_zoom(b, ZOOM_DSO);
			break;
		case 't':
			toggle_zoom(b, ZOOM_THREAD);
			break;
		case 's':
			if (b->opts->switch_input && switch_data_file(b))
				return LEAVE_EXIT;
			break;
		case 'r':
			if (b->opts->scripts)
				script_menu__run(b->opts->scripts, NULL, NULL);
			break;
		case 'S':
			toggle_zoom(b, ZOOM_SOCKET);
			break;
		case 'k':
			zoom_kernel(b);
			break;
		case '/':
			filter_by_name(b);
			break;
		case 'H':
			b->show_headers = !b->show_headers;
			break;
		case 'P':
			dump_rows(b);
			break;
		case 'h':
		case '?':
		case KEY_F(1):
			help(b);
			break;
		case '\t':
			if (b->multiple_events)
				return LEAVE_NEXT;
			break;
		case KEY_BTAB:
			if (b->multiple_events)
				return LEAVE_PREV;
			break;
		case KEY_LEFT:
		case KEY_RIGHT:
			/* perf's browser scrolls its columns sideways with these
			 * (all but the last can go): they neither zoom out nor
			 * leave; the first only shows the cursor, as a move key */
			if (b->navkeypressed)
				scroll_sideways(b, key == KEY_RIGHT ? 1 : -1);
			b->navkeypressed = true;
			break;
		case TUI_KEY_ESC:
			/* several events: back to their menu, without asking */
			if (zoom_out_last(b) &&
			    (b->multiple_events || tui__confirm("Do you really want to exit?")))
				return b->multiple_events ? LEAVE_BACK : LEAVE_EXIT;
			break;
		case 'q':
		case TUI_KEY_CTRL('c'):
			return LEAVE_EXIT;
		default:	/* KEY_RESIZE among them: the loop redraws */
			if (live && live->key)
				live->key(live->ctx, key);
			break;
		}
	}
}

static enum leave browse_event(const struct hist_browser_event *event,
			       const struct hist_browser_opts *opts, bool multiple_events)
{
	struct browser b = {
		.event = event,
		.opts = opts,
		.multiple_events = multiple_events,
		.hists = event->hists,
		.show_headers = opts->show_headers,
		.socket = -1,
		.sb = STRBUF_INIT,
		.graph = event->hists->opts->use_callchain &&
			 (event->hists->opts->cc.mode == CHAIN_GRAPH_ABS ||
			  event->hists->opts->cc.mode == CHAIN_GRAPH_REL),
		.percent_limit = event->hists->opts->percent_limit,
		.graph_percent = event->hists->opts->cc.min_percent,
	};
	enum leave how;

	b.min_hit = report_stdio__callchain_min_hit(b.hists, b.graph_percent);
	memcpy(b.col_len, b.hists->col_len, sizeof(b.col_len));
	collect_entries(&b);
	build_rows(&b);
	how = browse(&b);
	/* the histogram as it was: another event's browser or --stdio may follow */
	release_entries(&b);
	free(b.rows);
	free(b.name_filter);
	free(b.thread_label);
	hashmap_release(&b.unfolded);
	strbuf_release(&b.sb);
	return how;
}

/* The menu of events of choose_event(), and (top) what refreshes it. */
struct event_menu {
	const struct hist_browser_event **events;	/* the menu's, members left out */
	int nr_events;
	const struct hist_browser_live *live;
	char **text;
};

static void event_menu_text(struct event_menu *m)
{
	for (int i = 0; i < m->nr_events; i++) {
		const struct hist_browser_event *ev = m->events[i];
		uint64_t nr_samples, nr_period;
		unsigned long shown;
		char unit;

		report_stdio__totals(ev->hists, &nr_samples, &nr_period);
		shown = convert_unit((unsigned long)nr_samples, &unit);
		free(m->text[i]);
		m->text[i] = xasprintf("%lu%c%s%s", shown, unit, unit == ' ' ? "" : " ",
				       !ev->leads_group ? ev->name :
				       ev->hists->evsel->group_name ?
				       ev->hists->evsel->group_name : "anon group");
	}
}

/* perf top's menu: the samples read meanwhile, shown again at every
 * refresh (the first event's histogram sorted then, as perf's timer). */
static bool event_menu_update(void *ctx)
{
	struct event_menu *m = ctx;

	if (!m->live->due(m->live->ctx))
		return false;
	m->live->resort(m->live->ctx, m->events[0]->hists);
	event_menu_text(m);
	return true;
}

/* perf's menu of events: "1K cycles" lines, a group's by its name alone
 ("anon group" when it has none) and the samples of all its events; the
 left arrow does nothing there (perf's).  Returns an index of events
 (selected is one: a member's selects its leader), or TUI_LIST_*. */
static int choose_event(const struct hist_browser_event *events, int nr_events, int selected,
			const struct hist_browser_live *live)
{
	struct event_menu m = { xcalloc((size_t)nr_events, sizeof(*m.events)), 0, live,
				xcalloc((size_t)nr_events, sizeof(*m.text)) };
	struct tui_list_opts lo = { .left_stays = true };
	int chosen, at = 0;

	for (int i = 0; i < nr_events; i++) {
		if (events[i].member)
			continue;
		if (i <= selected)
			at = m.nr_events;
		m.events[m.nr_events++] = &events[i];
	}

	if (live) {
		lo.period_ms = live->interval_ms;
		lo.update = event_menu_update;
		lo.ctx = &m;
	}
	event_menu_text(&m);
	chosen = tui__list_with("Available samples", (const char *const *)m.text, m.nr_events,
				"ESC: exit, ENTER|->: Browse histograms", at, &lo);
	if (chosen >= 0)
		chosen = (int)(m.events[chosen] - events);
	for (int i = 0; i < m.nr_events; i++)
		free(m.text[i]);
	free(m.text);
	free(m.events);
	return chosen;
}

int hist_browser__run(const struct hist_browser_event *events, int nr_events,
		      const struct hist_browser_opts *opts)
{
	int current = 0, nr_menu = 0, at = 0;

	/* (one entry in the menu: no menu, and TAB stays, as perf's) */
	for (int i = 0; i < nr_events; i++)
		nr_menu += !events[i].member;
	if (tui__start() < 0)
		return -1;
	for (;;) {
		enum leave how;

		if (nr_menu > 1) {
			/* (the menu's cursor where it was: TAB does not move it) */
			int chosen = choose_event(events, nr_events, at, opts->live);

			if (chosen == TUI_LIST_QUIT)
				break;
			if (chosen == TUI_LIST_BACK && tui__confirm("Do you really want to exit?"))
				break;
			if (chosen < 0)
				continue;
			current = at = chosen;
		}
		/* TAB: the next event, a group's member too (shown alone) */
		how = browse_event(&events[current], opts, nr_menu > 1);
		while (how == LEAVE_NEXT || how == LEAVE_PREV || how == LEAVE_RELOAD) {
			if (how != LEAVE_RELOAD)
				current = (current + (how == LEAVE_NEXT ? 1 : nr_events - 1)) %
					  nr_events;
			how = browse_event(&events[current], opts, nr_menu > 1);
		}
		if (how == LEAVE_EXIT || nr_menu == 1)
			break;
	}
	tui__stop();
	return 0;
}
