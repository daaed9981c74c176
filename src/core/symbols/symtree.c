/* symtree: perf's symbol tree where symbols overlap (see symtree.h). */
#include "core/symbols/symtree.h"
#include "util/rbtree.h"
#include "util/util.h"

#include <stdlib.h>

struct symtree_node {
	struct rb_node rb;		/* first: nodes are cast from rb_node */
	const struct sym_raw *raw;	/* as inserted (while the tree is built) */
	uint64_t start;
	struct symbol *sym;		/* the DSO's symbol it stands for */
};

struct symtree {
	struct rb_root root;
	struct symtree_node *nodes;
};

static void insert(struct symtree *t, struct symtree_node *n)
{
	struct rb_node **link = &t->root.node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = n->start < ((struct symtree_node *)parent)->start ? &parent->left :
									   &parent->right;
	}
	rb_insert(&t->root, &n->rb, parent, link);
}

/* The final symbol of raw's start and name. */
static struct symbol *final_symbol(struct symbol *syms, size_t nr, const struct sym_raw *raw)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].start < raw->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nr && syms[lo].start == raw->start; lo++)
		if (syms[lo].name == raw->name)
			return &syms[lo];
	return NULL;
}

struct symtree *symtree__new(const struct sym_raw *pre, size_t nr_pre,
			     const struct sym_raw *late, size_t nr_late,
			     struct symbol *syms, size_t nr_syms)
{
	struct symtree *t = xcalloc(1, sizeof(*t));
	struct rb_node *nd;

	t->nodes = xcalloc(nr_pre + nr_late + 1, sizeof(*t->nodes));
	for (size_t i = 0; i < nr_pre; i++) {
		t->nodes[i].raw = &pre[i];
		t->nodes[i].start = pre[i].start;
		insert(t, &t->nodes[i]);
	}
	/* perf's duplicate pass: of neighbours with one start, the loser is
	 * erased and the winner meets the next one */
	nd = rb_first(&t->root);
	while (nd) {
		struct rb_node *next = rb_next(nd);
		struct symtree_node *a = (struct symtree_node *)nd, *b = (struct symtree_node *)next;

		if (!next)
			break;
		if (a->start != b->start) {
			nd = next;
			continue;
		}
		if (sym_raw__prefer_first(a->raw, b->raw)) {
			rb_erase(&t->root, next);
		} else {
			rb_erase(&t->root, nd);
			nd = next;
		}
	}
	for (nd = rb_first(&t->root); nd; nd = rb_next(nd)) {
		struct symtree_node *n = (struct symtree_node *)nd;

		n->sym = final_symbol(syms, nr_syms, n->raw);
	}
	for (size_t i = 0; i < nr_late; i++) {
		struct symtree_node *n = &t->nodes[nr_pre + i];

		n->raw = &late[i];
		n->start = late[i].start;
		n->sym = final_symbol(syms, nr_syms, n->raw);
		insert(t, n);
	}
	for (size_t i = 0; i < nr_pre + nr_late; i++)
		t->nodes[i].raw = NULL;	/* the tables are the caller's */
	return t;
}

struct symbol *symtree__find(const struct symtree *t, uint64_t addr)
{
	const struct rb_node *nd = t->root.node;

	while (nd) {
		const struct symtree_node *n = (const struct symtree_node *)nd;
		const struct symbol *s = n->sym;

		if (addr < n->start)
			nd = nd->left;
		else if (!s || addr > s->end || (addr == s->end && addr != s->start))
			nd = nd->right;
		else
			return n->sym;
	}
	return NULL;
}

void symtree__delete(struct symtree *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t);
}
