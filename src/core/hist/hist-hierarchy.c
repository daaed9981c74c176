/* hist-hierarchy: perf report --hierarchy's nested entries.
 *
 * Each sort key level (-s comm,dso,sym: three; braces put several keys on
 * one) gets entries of its own: the entries of the first level are the
 * samples' totals by its keys, each with the next level's entries below
 * it, down to the last level's, which carry the callchains.  As in perf,
 * an upper entry is a copy of the first entry merged into it, whose other
 * keys still take part in the output order and in the column widths.
 */
#include "core/hist/hist-int.h"
#include "util/rbtree.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static const size_t IN_OFF = offsetof(struct hist_entry, rb_in);

/* Whether one of the level's keys is what the filter (a bit) looks at. */
static bool level_filters(const struct hist_level *lv, uint8_t bit)
{
	switch (bit) {
	case HIST_FILTER_THREAD:
		return hist_level__has(lv, HISTC_THREAD) || hist_level__has(lv, HISTC_COMM);
	case HIST_FILTER_DSO:
		return hist_level__has(lv, HISTC_DSO);
	case HIST_FILTER_SYMBOL:
		return hist_level__has(lv, HISTC_SYMBOL);
	case HIST_FILTER_SOCKET:
		return hist_level__has(lv, HISTC_SOCKET);
	default:
		return false;
	}
}

/* The filters a level's own keys decide (perf's check_and_remove_filter):
 * a level showing the key keeps the entry's own bit and clears it on the
 * way up when not set; one without takes it from the level above (the top
 * one sets it, so that a level below must clear it). */
static void apply_filter(struct hist_entry *he, uint8_t bit, bool active, bool own)
{
	if (!active)
		return;
	if (own) {
		if (!(he->filtered & bit))
			for (struct hist_entry *p = he->parent_he; p; p = p->parent_he)
				p->filtered &= (uint8_t)~bit;
		return;
	}
	he->filtered |= he->parent_he ? (he->parent_he->filtered & bit) : bit;
}

static struct hist_entry *level_new(struct hists *h, const struct hist_level *lv,
				    const struct hist_entry *tmpl, struct hist_entry *parent,
				    int depth)
{
	const struct hist_opts *o = h->opts;
	struct hist_entry *he = arena_alloc(&h->arena, sizeof(*he));

	*he = *tmpl;
	he->hists = h;		/* tmpl may be another's (perf top's view) */
	memset(&he->rb_in, 0, sizeof(he->rb_in));
	memset(&he->rb_collapsed, 0, sizeof(he->rb_collapsed));
	he->hroot.node = NULL;
	he->children = NULL;
	he->nr_children = 0;
	he->parent_he = parent;
	he->depth = (uint8_t)depth;
	he->leaf = false;
	he->paired = false;
	he->callchain = NULL;
	if (h->nr_members > 1)
		he->pairs = memset(arena_alloc(&h->arena, (size_t)(h->nr_members - 1) *
					       sizeof(*he->pairs)),
				   0, (size_t)(h->nr_members - 1) * sizeof(*he->pairs));
	/* a level keeps the strings only of its own keys */
	if (!hist_level__has(lv, HISTC_SRCLINE))
		he->srcline = NULL;
	if (!hist_level__has(lv, HISTC_SRCFILE))
		he->srcfile = NULL;
	if (!hist_level__has(lv, HISTC_TRACE))
		he->trace = NULL;
	apply_filter(he, HIST_FILTER_THREAD, o->thread_filter, level_filters(lv, HIST_FILTER_THREAD));
	apply_filter(he, HIST_FILTER_DSO, o->dso_filter, level_filters(lv, HIST_FILTER_DSO));
	apply_filter(he, HIST_FILTER_SYMBOL, o->sym_filter, level_filters(lv, HIST_FILTER_SYMBOL));
	hists__apply_ui_filters(h, he);
	h->nr_entries++;
	return he;
}

/* The entry of he's keys at one level below parent (or the top). */
static struct hist_entry *level_findnew(struct hists *h, struct rb_root *root,
					const struct hist_level *lv, const struct hist_entry *he,
					struct hist_entry *parent, int depth)
{
	struct rb_node **link = &root->node, *rb_parent = NULL;
	struct hist_entry *new;

	while (*link) {
		struct hist_entry *iter = node_entry(*link, IN_OFF);
		int cmp = hist_level__cmp(lv, he, iter);

		if (!cmp) {
			he_stat__merge(&iter->stat, &he->stat);
			return iter;
		}
		rb_parent = *link;
		link = cmp < 0 ? &rb_parent->left : &rb_parent->right;
	}
	new = level_new(h, lv, he, parent, depth);
	rb_insert(root, &new->rb_in, rb_parent, link);
	return new;
}

/* The levels of the entries of tree (nodes at off) into h. */
static void build_hierarchy(struct hists *h, const struct rb_root *tree, size_t off)
{
	const struct hist_layout *l = &h->opts->layout;

	h->nr_entries = 0;
	for (struct rb_node *nd = rb_first(tree); nd; nd = rb_next(nd)) {
		const struct hist_entry *he = node_entry(nd, off);
		struct hist_entry *parent = NULL;
		struct rb_root *root = &h->hroot;

		for (int i = 0; i < l->nr_levels; i++) {
			parent = level_findnew(h, root, &l->levels[i], he, parent, i);
			root = &parent->hroot;
		}
		if (!parent)
			continue;
		parent->leaf = true;
		if (he->callchain) {
			if (!parent->callchain)
				parent->callchain = callchain_root__new(h->store);
			callchain_root__merge(h->store, parent->callchain, he->callchain);
		}
	}
}

void hists__build_hierarchy(struct hists *h)
{
	build_hierarchy(h, &h->in, IN_OFF);
}

void hists__hierarchy_view(struct hists *view, struct hists *flat)
{
	size_t off;
	const struct rb_root *tree = hists__entry_tree(flat, &off);

	build_hierarchy(view, tree, off);
	view->is_collapsed = true;
}

/* The entry of a level's tree equal to he at that level, or NULL. */
static struct hist_entry *level_find(const struct hist_level *lv, const struct rb_root *root,
				     struct hist_entry *he)
{
	for (struct rb_node *n = root->node; n;) {
		struct hist_entry *iter = node_entry(n, IN_OFF);
		int cmp = hist_level__cmp(lv, he, iter);

		if (!cmp)
			return iter;
		n = cmp < 0 ? n->left : n->right;
	}
	return NULL;
}

static void carry_level(const struct hist_layout *l, struct rb_root *to,
			const struct rb_root *from, int depth)
{
	for (struct rb_node *nd = rb_first(to); nd; nd = rb_next(nd)) {
		struct hist_entry *pos = node_entry(nd, IN_OFF);
		struct hist_entry *old = level_find(&l->levels[depth], from, pos);

		if (!old)
			continue;
		pos->browser_marks = old->browser_marks;
		if (!pos->leaf && !old->leaf)
			carry_level(l, &pos->hroot, &old->hroot, depth + 1);
	}
}

void hists__hierarchy_carry_marks(struct hists *view, const struct hists *old)
{
	carry_level(&view->opts->layout, &view->hroot, &old->hroot, 0);
}

/* --- groups ---------------------------------------------------------------- */

/* The member's entries become pairs of the leader's equal ones, level by
 * level below equal parents (perf's hists__match_hierarchy). */
static void match_level(const struct hist_layout *l, struct rb_root *leader, struct rb_root *member,
			int depth, int slot)
{
	for (struct rb_node *nd = rb_first(leader); nd; nd = rb_next(nd)) {
		struct hist_entry *pos = node_entry(nd, IN_OFF);
		struct hist_entry *pair = level_find(&l->levels[depth], member, pos);

		if (!pair)
			continue;
		pos->pairs[slot] = pair;
		pair->paired = true;
		if (!pos->leaf)
			match_level(l, &pos->hroot, &pair->hroot, depth + 1, slot);
	}
}

/* Entries only the member has get an empty twin in the leader (perf's
 * hists__link_hierarchy). */
static void link_level(struct hists *leader, struct hist_entry *parent, struct rb_root *lroot,
		       struct rb_root *mroot, int depth, int slot)
{
	const struct hist_level *lv = &leader->opts->layout.levels[depth];

	for (struct rb_node *nd = rb_first(mroot); nd; nd = rb_next(nd)) {
		struct hist_entry *pos = node_entry(nd, IN_OFF), *twin = NULL;
		struct rb_node **link = &lroot->node, *rb_parent = NULL;

		while (*link && !twin) {
			struct hist_entry *iter = node_entry(*link, IN_OFF);
			int cmp = hist_level__cmp(lv, pos, iter);

			if (!cmp) {
				twin = iter;
				break;
			}
			rb_parent = *link;
			link = cmp < 0 ? &rb_parent->left : &rb_parent->right;
		}
		if (!twin) {
			twin = arena_alloc(&leader->arena, sizeof(*twin));
			*twin = *pos;
			memset(&twin->stat, 0, sizeof(twin->stat));
			twin->hists = leader;
			twin->hroot.node = NULL;
			twin->children = NULL;
			twin->nr_children = 0;
			twin->callchain = NULL;
			twin->paired = false;
			twin->parent_he = parent;
			twin->pairs = memset(arena_alloc(&leader->arena, (size_t)(leader->nr_members - 1) *
							 sizeof(*twin->pairs)),
					     0, (size_t)(leader->nr_members - 1) * sizeof(*twin->pairs));
			rb_insert(lroot, &twin->rb_in, rb_parent, link);
			leader->nr_entries++;
		}
		if (!pos->paired)
			twin->pairs[slot] = pos;
		if (!pos->leaf)
			link_level(leader, twin, &twin->hroot, &pos->hroot, depth + 1, slot);
	}
}

void hists__hierarchy_link(struct hists *leader, struct hists *member, int slot)
{
	if (!leader->opts->layout.nr_levels)
		return;
	match_level(&leader->opts->layout, &leader->hroot, &member->hroot, 0, slot);
	link_level(leader, NULL, &leader->hroot, &member->hroot, 0, slot);
}

/* --- output ---------------------------------------------------------------- */

/* Output order of the entries in root, recursively; widths of the shown. */
static struct hist_entry **level_output(struct hists *h, struct rb_root *root, uint32_t *nr)
{
	struct hist_entry **v;
	uint32_t n = 0, cap = 16;

	v = xmalloc(cap * sizeof(*v));
	for (struct rb_node *nd = rb_first(root); nd; nd = rb_next(nd)) {
		struct hist_entry *he = node_entry(nd, IN_OFF);

		if (n == cap)
			v = xrealloc(v, (cap *= 2) * sizeof(*v));
		v[n++] = he;
		h->nr_entries++;
		if (!he->filtered)
			hists__calc_col_len(h, he);
		if (!he->leaf)
			he->children = level_output(h, &he->hroot, &he->nr_children);
		else if (he->callchain)
			callchain_root__finalize(he->callchain);
	}
	hist_entries__sort_output(v, n, NULL);
	for (uint32_t i = 0; i < n; i++)
		v[i]->sibling_idx = i;
	*nr = n;
	return v;
}

static void free_children(struct hist_entry **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i]->children) {
			free_children(v[i]->children, v[i]->nr_children);
			free(v[i]->children);
			v[i]->children = NULL;
		}
}

void hists__hierarchy_free(struct hists *h)
{
	if (h->sorted)
		free_children(h->sorted, h->nr_sorted);
	free(h->sorted);
	h->sorted = NULL;
}

void hists__hierarchy_output_resort(struct hists *h)
{
	uint32_t nr;

	hists__hierarchy_free(h);
	memset(h->col_len, 0, sizeof(h->col_len));
	h->nr_entries = 0;
	h->sorted = level_output(h, &h->hroot, &nr);
	h->nr_sorted = nr;
	/* the totals of the top level: lower ones only see what is shown */
	h->stats.total_period = h->stats.total_non_filtered_period = 0;
	for (size_t i = 0; i < h->nr_sorted; i++) {
		h->stats.total_period += h->sorted[i]->stat.period;
		if (!h->sorted[i]->filtered)
			h->stats.total_non_filtered_period += h->sorted[i]->stat.period;
	}
}

const struct hist_entry *hist_entry__hierarchy_next(const struct hist_entry *he)
{
	if (!he->leaf && he->nr_children)
		return he->children[0];
	for (; he; he = he->parent_he) {
		const struct hist_entry *p = he->parent_he;
		size_t n = p ? p->nr_children : he->hists->nr_sorted;
		struct hist_entry *const *v = p ? p->children : he->hists->sorted;

		if (he->sibling_idx + 1 < n)
			return v[he->sibling_idx + 1];
	}
	return NULL;
}

/* --- refiltering (perf's browser zooms) ------------------------------------ */

static void sort_level(struct hist_entry **v, size_t n)
{
	hist_entries__sort_output(v, n, NULL);
	for (size_t i = 0; i < n; i++) {
		v[i]->sibling_idx = (uint32_t)i;
		if (!v[i]->leaf)
			sort_level(v[i]->children, v[i]->nr_children);
	}
}

void hists__hierarchy_sort_again(struct hists *h)
{
	h->stats.total_period = h->stats.total_non_filtered_period = 0;
	for (size_t i = 0; i < h->nr_sorted; i++) {
		h->stats.total_period += h->sorted[i]->stat.period;
		if (!h->sorted[i]->filtered)
			h->stats.total_non_filtered_period += h->sorted[i]->stat.period;
	}
	sort_level(h->sorted, h->nr_sorted);
}

/* An entry that passes: unmarked, its stat added to the entries above it,
 * which pass too. */
static void refilter_pass(struct hists *h, struct hist_entry *he,
			  const struct hierarchy_filter *f)
{
	he->filtered &= (uint8_t)~f->bit;
	for (struct hist_entry *p = he->parent_he; p; p = p->parent_he) {
		he_stat__merge(&p->stat, &he->stat);
		p->filtered &= (uint8_t)~f->bit;
	}
	if (!he->filtered) {
		h->stats.nr_non_filtered_samples += he->stat.nr_events;
		hists__calc_col_len(h, he);
	}
	if (f->passed)
		f->passed(he, f->arg);
}

static void refilter_level(struct hists *h, struct hist_entry **v, size_t n,
			   const struct hierarchy_filter *f)
{
	for (size_t i = 0; i < n; i++) {
		struct hist_entry *he = v[i];

		if (!level_filters(&h->opts->layout.levels[he->depth], f->bit)) {
			memset(&he->stat, 0, sizeof(he->stat));
			he->filtered |= f->bit;
			if (!he->leaf)
				refilter_level(h, he->children, he->nr_children, f);
		} else if (f->misses && f->misses(he, f->arg)) {
			he->filtered |= f->bit;
		} else {
			refilter_pass(h, he, f);
		}
	}
}

void hists__hierarchy_refilter(struct hists *h, const struct hierarchy_filter *f)
{
	h->stats.nr_non_filtered_samples = 0;
	memset(h->col_len, 0, sizeof(h->col_len));
	refilter_level(h, h->sorted, h->nr_sorted, f);
	hists__hierarchy_sort_again(h);
}
