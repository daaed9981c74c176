/* rbtree: red-black insertion (see rbtree.h). */
#include "util/rbtree.h"

/* Makes new take old's place under old's parent; old becomes new's child. */
static void replace_child(struct rb_root *root, struct rb_node *old, struct rb_node *new)
{
	struct rb_node *p = old->parent;

	new->parent = p;
	if (!p)
		root->node = new;
	else if (p->left == old)
		p->left = new;
	else
		p->right = new;
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
