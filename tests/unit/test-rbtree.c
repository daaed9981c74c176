/* Unit tests for util/rbtree: insertion and erasure keep a valid
 * red-black tree in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/rbtree.h"

struct item {
	struct rb_node rb;	/* first: items are cast from nodes */
	int key;
	bool linked;
};

static void insert(struct rb_root *root, struct item *it)
{
	struct rb_node **link = &root->node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = it->key < ((struct item *)parent)->key ? &parent->left : &parent->right;
	}
	rb_insert(root, &it->rb, parent, link);
	it->linked = true;
}

/* The black height of n's subtree; fails on a broken invariant. */
static int check(const struct rb_node *n, const struct rb_node *parent)
{
	int l, r;

	if (!n)
		return 1;
	assert_ptr_equal(n->parent, parent);
	if (n->red) {
		assert_false(n->left && n->left->red);
		assert_false(n->right && n->right->red);
	}
	if (n->left)
		assert_true(((const struct item *)n->left)->key <= ((const struct item *)n)->key);
	if (n->right)
		assert_true(((const struct item *)n->right)->key >= ((const struct item *)n)->key);
	l = check(n->left, n);
	r = check(n->right, n);
	assert_int_equal(l, r);
	return l + !n->red;
}

static void check_tree(const struct rb_root *root, const struct item *items, int n)
{
	int linked = 0, walked = 0, last = -1;

	if (root->node)
		assert_false(root->node->red);
	check(root->node, NULL);
	for (int i = 0; i < n; i++)
		linked += items[i].linked;
	for (const struct rb_node *nd = rb_first(root); nd; nd = rb_next(nd)) {
		assert_true(((const struct item *)nd)->key >= last);
		last = ((const struct item *)nd)->key;
		walked++;
	}
	assert_int_equal(walked, linked);
}

static void test_insert_and_erase(void **state)
{
	enum { N = 2000 };
	struct item *items = calloc(N, sizeof(*items));

	(void)state;
	for (unsigned seed = 1; seed <= 5; seed++) {
		struct rb_root root = { NULL };

		srand(seed);
		for (int i = 0; i < N; i++) {
			items[i] = (struct item){ .key = rand() % 500 };	/* duplicates too */
			insert(&root, &items[i]);
		}
		check_tree(&root, items, N);
		/* erase in a random order, checking as it shrinks */
		for (int k = 0; k < N; k++) {
			int i = rand() % N;

			if (!items[i].linked)
				continue;
			rb_erase(&root, &items[i].rb);
			items[i].linked = false;
			if (k % 97 == 0)
				check_tree(&root, items, N);
		}
		check_tree(&root, items, N);
		for (int i = 0; i < N; i++)
			if (items[i].linked)
				rb_erase(&root, &items[i].rb);
		assert_null(root.node);
	}
	free(items);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_insert_and_erase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
