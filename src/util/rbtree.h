/* rbtree: an intrusive red-black tree (insertion, erasure, in-order walks).
 *
 * perf orders report output by inserting entries one by one into a
 * red-black tree with a comparator that is not always transitive, so the
 * order it prints depends on the tree's shape.  Reproducing that order
 * needs the same, textbook insertion algorithm (as in Linux's rbtree):
 * find the leaf by comparisons, link it, then rebalance.
 */
#ifndef PCL_RBTREE_H
#define PCL_RBTREE_H

#include <stdbool.h>
#include <stddef.h>

struct rb_node {
	struct rb_node *parent, *left, *right;
	bool red;
};

struct rb_root {
	struct rb_node *node;
};

/* Links node as a child (link = &parent->left/right or &root->node) and
 * rebalances. */
void rb_insert(struct rb_root *root, struct rb_node *node, struct rb_node *parent,
	       struct rb_node **link);

/* Unlinks node and rebalances, as Linux's rb_erase shapes the tree (perf
 * erases duplicate symbols from its symbol trees). */
void rb_erase(struct rb_root *root, struct rb_node *node);

struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);

#endif
