/* rbtree: red-black insertion (see rbtree.h). */
#include "util/rbtree.h"

/* Puts v (maybe NULL) where u hangs. */
static void transplant(struct rb_root *root, struct rb_node *u, struct rb_node *v)
{
	struct rb_node *p = u->parent;

	if (!p)
		root->node = v;
	else if (p->left == u)
		p->left = v;
	else
		p->right = v;
	if (v)
		v->parent = p;
}

/* Makes new take old's place under old's parent; old becomes new's child. */
static void replace_child(struct rb_root *root, struct rb_node *old, struct rb_node *new)
{
	transplant(root, old, new);
	old->parent = new;
}

static void rotate_left(struct rb_root *root, struct rb_node *x)
{
	struct rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	replace_child(root, x, y);
	y->left = x;
}

static void rotate_right(struct rb_root *root, struct rb_node *x)
{
	struct rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	replace_child(root, x, y);
	y->right = x;
}

void rb_insert(struct rb_root *root, struct rb_node *node, struct rb_node *parent,
	       struct rb_node **link)
{
	node->parent = parent;
	node->left = node->right = NULL;
	node->red = true;
	*link = node;
	while (node->parent && node->parent->red) {
		struct rb_node *p = node->parent, *g = p->parent;
		bool left = p == g->left;
		struct rb_node *uncle = left ? g->right : g->left;

		if (uncle && uncle->red) {	/* recolor and go up */
			p->red = uncle->red = false;
			g->red = true;
			node = g;
			continue;
		}
		if (node == (left ? p->right : p->left)) {	/* inner child: straighten */
			if (left)
				rotate_left(root, p);
			else
				rotate_right(root, p);
			node = p;
			p = node->parent;
		}
		p->red = false;
		g->red = true;
		if (left)
			rotate_right(root, g);
		else
			rotate_left(root, g);
	}
	root->node->red = false;
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->node;

	while (n && n->left)
		n = n->left;
	return n;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	const struct rb_node *p;

	if (node->right) {
		node = node->right;
		while (node->left)
			node = node->left;
		return (struct rb_node *)node;
	}
	while ((p = node->parent) && node == p->right)
		node = p;
	return (struct rb_node *)p;
}

static bool is_red(const struct rb_node *n)
{
	return n && n->red;
}

/* x (maybe NULL, under parent) is one black short: the textbook cases. */
static void erase_fixup(struct rb_root *root, struct rb_node *x, struct rb_node *parent)
{
	while (x != root->node && !is_red(x)) {
		bool left = x == parent->left;
		struct rb_node *w = left ? parent->right : parent->left;

		if (w->red) {	/* red sibling: rotate it above the parent */
			w->red = false;
			parent->red = true;
			if (left)
				rotate_left(root, parent);
			else
				rotate_right(root, parent);
			w = left ? parent->right : parent->left;
		}
		if (!is_red(w->left) && !is_red(w->right)) {	/* push the shortage up */
			w->red = true;
			x = parent;
			parent = x->parent;
			continue;
		}
		if (!is_red(left ? w->right : w->left)) {	/* near nephew red: straighten */
			(left ? w->left : w->right)->red = false;
			w->red = true;
			if (left)
				rotate_right(root, w);
			else
				rotate_left(root, w);
			w = left ? parent->right : parent->left;
		}
		w->red = parent->red;	/* far nephew red: rotate and done */
		parent->red = false;
		(left ? w->right : w->left)->red = false;
		if (left)
			rotate_left(root, parent);
		else
			rotate_right(root, parent);
		x = root->node;
		break;
	}
	if (x)
		x->red = false;
}

void rb_erase(struct rb_root *root, struct rb_node *z)
{
	struct rb_node *x, *parent;
	bool removed_black;

	if (!z->left || !z->right) {
		x = z->left ? z->left : z->right;
		parent = z->parent;
		removed_black = !z->red;
		transplant(root, z, x);
	} else {	/* the successor takes z's place and colour */
		struct rb_node *y = z->right;

		while (y->left)
			y = y->left;
		removed_black = !y->red;
		x = y->right;
		if (y->parent == z) {
			parent = y;
		} else {
			parent = y->parent;
			transplant(root, y, x);
			y->right = z->right;
			y->right->parent = y;
		}
		transplant(root, z, y);
		y->left = z->left;
		y->left->parent = y;
		y->red = z->red;
	}
	if (removed_black)
		erase_fixup(root, x, parent);
}
