/* Unit tests for core/callchain: -g parsing, cursors built from callchain
 * arrays (order, context markers, --max-stack), the trie (counts,
 * compression, children totals) and the output orders perf uses.
 * Frames are made by hand or resolved in a machine with maps of files
 * that do not exist, so no symbols are read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/perf_event.h>

#include "core/hist/callchain.h"

/* --- -g parsing ------------------------------------------------------------ */

static void test_param_defaults_and_words(void **state)
{
	struct callchain_param p;
	bool use = false;

	callchain_param__init(&p);
	assert_int_equal(p.mode, CHAIN_GRAPH_ABS);
	assert_int_equal(p.order, ORDER_CALLEE);
	assert_true(p.min_percent == 0.5);

	assert_int_equal(callchain_param__parse(&p, "fractal,2,10,caller,address,period", &use), 0);
	assert_true(use);
	assert_int_equal(p.mode, CHAIN_GRAPH_REL);
	assert_true(p.min_percent == 2.0);
	assert_int_equal(p.print_limit, 10);
	assert_int_equal(p.order, ORDER_CALLER);
	assert_true(p.order_set);
	assert_int_equal(p.key, CCKEY_ADDRESS);
	assert_int_equal(p.value, CCVAL_PERIOD);
}

static void test_param_prefixes_none_and_errors(void **state)
{
	struct callchain_param p;
	bool use = false;

	/* words are prefixes, matched in perf's order: "f" is flat */
	callchain_param__init(&p);
	assert_int_equal(callchain_param__parse(&p, "f", &use), 0);
	assert_int_equal(p.mode, CHAIN_FLAT);
	assert_int_equal(callchain_param__parse(&p, "fo,callee", &use), 0);
	assert_int_equal(p.mode, CHAIN_FOLDED);
	assert_int_equal(p.order, ORDER_CALLEE);
	/* "c" is caller (order comes before value), not count */
	assert_int_equal(callchain_param__parse(&p, "c", &use), 0);
	assert_int_equal(p.order, ORDER_CALLER);
	assert_int_equal(p.value, CCVAL_PERCENT);

	callchain_param__init(&p);
	assert_int_equal(callchain_param__parse(&p, "none", &use), 0);
	assert_false(use);
	assert_int_equal(p.mode, CHAIN_NONE);

	callchain_param__init(&p);
	assert_int_equal(callchain_param__parse(&p, "graph,bogus", &use), -1);
}

/* --- the trie ---------------------------------------------------------------- */

static struct cc_frame frames[8];

/* Hand-made frames: one per letter, keyed by address, DSO rank = index. */
static void make_frames(void)
{
	for (int i = 0; i < 8; i++) {
		memset(&frames[i], 0, sizeof(frames[i]));
		frames[i].ip = 0x1000 + (uint64_t)i * 0x10;
	}
}

static const struct cc_frame *F(char c)
{
	return &frames[c - 'a'];
}

static void append(struct callchain_store *s, struct callchain_root *root, const char *path,
		   uint64_t period)
{
	const struct cc_frame *v[16];
	uint32_t n = 0;

	for (const char *c = path; *c; c++)
		v[n++] = F(*c);
	callchain_root__append(s, root, v, n, period);
}

static void test_trie_counts_and_compression(void **state)
{
	struct callchain_store s;
	struct callchain_root *root;
	const struct callchain_node *ab, *end, **kids;
	uint32_t nr;

	make_frames();
	callchain_store__init(&s);
	root = callchain_root__new(&s);
	append(&s, root, "abc", 10);
	append(&s, root, "abd", 5);
	append(&s, root, "abc", 1);
	append(&s, root, "ab", 2);
	append(&s, root, "e", 3);
	assert_int_equal(root->max_depth, 3);
	callchain_root__finalize(root);
	assert_int_equal(root->node.children_hit, 21);
	assert_int_equal(root->node.children_count, 5);

	/* "a" has no samples of its own and one child: it runs on to "b" */
	nr = callchain_node__sorted_children(&root->node, 0, &kids);
	assert_int_equal(nr, 2);
	ab = kids[0];
	assert_ptr_equal(ab->frame, F('a'));
	end = callchain_node__run_end(ab);
	assert_ptr_equal(end->frame, F('b'));
	assert_int_equal(end->hit, 2);
	assert_int_equal(callchain_node__cumul_hits(ab), 18);
	assert_int_equal(callchain_node__cumul_counts(ab), 4);
	free(kids);

	/* b's children, by total: c (11) then d (5); a threshold drops d */
	nr = callchain_node__sorted_children(end, 0, &kids);
	assert_int_equal(nr, 2);
	assert_ptr_equal(kids[0]->frame, F('c'));
	assert_int_equal(kids[0]->hit, 11);
	assert_int_equal(kids[0]->count, 2);
	free(kids);
	nr = callchain_node__sorted_children(end, 6, &kids);
	assert_int_equal(nr, 1);
	free(kids);
	callchain_store__exit(&s);
}

/* perf top's renewal: only stacks with hits are copied, hits and counts
 * kept, frames re-interned in the new resolver. */
static void test_trie_copy_keeps_live_stacks(void **state)
{
	struct callchain_store s, to;
	struct callchain_root *root, *copy;
	struct callchain_param p;
	struct machine *mach = machine__new();
	struct cc_resolver r;
	const struct callchain_node **kids, *end;
	uint32_t nr;

	make_frames();
	callchain_param__init(&p);
	cc_resolver__init(&r, mach, &p, NULL);
	callchain_store__init(&s);
	callchain_store__init(&to);
	root = callchain_root__new(&s);
	append(&s, root, "abc", 1);
	append(&s, root, "abd", 16);
	append(&s, root, "abd", 16);
	append(&s, root, "e", 1);
	callchain_root__decay(root);	/* abc and e decay to nothing */
	copy = callchain_root__copy(&to, root, &r);
	callchain_store__exit(&s);	/* the copy holds nothing of the old store */
	callchain_root__finalize(copy);
	assert_int_equal(copy->max_depth, 3);
	assert_int_equal(copy->node.children_hit, 28);
	nr = callchain_node__sorted_children(&copy->node, 0, &kids);
	assert_int_equal(nr, 1);
	assert_ptr_not_equal(kids[0]->frame, F('a'));	/* the resolver's own copy */
	assert_int_equal(kids[0]->frame->ip, F('a')->ip);
	end = callchain_node__run_end(kids[0]);
	free(kids);
	assert_int_equal(end->frame->ip, F('d')->ip);
	assert_int_equal(end->hit, 28);
	assert_int_equal(end->count, 2);
	assert_ptr_equal(cc_resolver__adopt(&r, F('d')), end->frame);
	callchain_store__exit(&to);
	cc_resolver__exit(&r);
	machine__delete(mach);
}

/* The marks a browser leaves on nodes go with the copy, each on its
 * frame's node, those of stacks that decayed away with them. */
static void test_trie_copy_keeps_browser_marks(void **state)
{
	struct callchain_store s, to;
	struct callchain_root *root, *copy;
	struct callchain_param p;
	struct machine *mach = machine__new();
	struct cc_resolver r;
	const struct callchain_node *a, *b, *d;

	make_frames();
	callchain_param__init(&p);
	cc_resolver__init(&r, mach, &p, NULL);
	callchain_store__init(&s);
	callchain_store__init(&to);
	root = callchain_root__new(&s);
	append(&s, root, "abd", 16);
	append(&s, root, "e", 1);
	root->node.child->browser_marks = 1;		/* e, which decays away */
	root->node.child->sibling->child->browser_marks = 3;	/* b, no hits of its own */
	callchain_root__decay(root);
	copy = callchain_root__copy(&to, root, &r);
	callchain_store__exit(&s);
	a = copy->node.child;
	assert_non_null(a);
	assert_null(a->sibling);
	b = a->child;
	d = b->child;
	assert_int_equal(a->frame->ip, F('a')->ip);
	assert_int_equal(a->browser_marks, 0);
	assert_int_equal(b->browser_marks, 3);
	assert_int_equal(d->browser_marks, 0);
	callchain_store__exit(&to);
	cc_resolver__exit(&r);
	machine__delete(mach);
}

static void test_trie_ties_and_flat_order(void **state)
{
	struct callchain_store s;
	struct callchain_root *root;
	const struct callchain_node **v;
	uint32_t nr;

	make_frames();
	callchain_store__init(&s);
	root = callchain_root__new(&s);
	/* equal totals: perf's input order, the larger key first */
	append(&s, root, "b", 4);
	append(&s, root, "d", 4);
	append(&s, root, "c", 4);
	append(&s, root, "ca", 1);
	callchain_root__finalize(root);
	nr = callchain_node__sorted_children(&root->node, 0, &v);
	assert_int_equal(nr, 3);
	assert_ptr_equal(v[0]->frame, F('c'));	/* 5 */
	assert_ptr_equal(v[1]->frame, F('d'));	/* 4, larger key */
	assert_ptr_equal(v[2]->frame, F('b'));
	free(v);

	/* flat: nodes where stacks end, by their own period */
	nr = callchain_root__flat(root, 2, &v);
	assert_int_equal(nr, 3);
	assert_ptr_equal(v[0]->frame, F('d'));
	assert_ptr_equal(v[1]->frame, F('c'));
	assert_ptr_equal(v[2]->frame, F('b'));
	free(v);
	callchain_store__exit(&s);
}

static void test_trie_wide_nodes(void **state)
{
	struct callchain_store s;
	struct callchain_root *root;
	static struct cc_frame many[200];
	const struct callchain_node **v;
	uint32_t nr;

	callchain_store__init(&s);
	root = callchain_root__new(&s);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 200; i++) {
			const struct cc_frame *f = &many[i];

			many[i].ip = 0x100 + (uint64_t)i;
			callchain_root__append(&s, root, &f, 1, (uint64_t)i + 1);
		}
	callchain_root__finalize(root);
	assert_int_equal(root->node.nr_children, 200);
	nr = callchain_node__sorted_children(&root->node, 0, &v);
	assert_int_equal(nr, 200);
	assert_int_equal(v[0]->hit, 400);
	assert_int_equal(v[0]->count, 2);
	assert_int_equal(v[199]->hit, 2);
	free(v);
	callchain_store__exit(&s);
}

/* perf's match_chain compares an inlined function with any symbol by name,
 * two symbols by address: an inlined "open" and the symbol "open" share a
 * node, two distinct symbols named "open" do not. */
static void test_trie_inlined_matches_symbol_by_name(void **state)
{
	static struct symbol s_inl = { .start = 0x100, .end = 0x110, .name = "open" };
	static struct symbol s1 = { .start = 0x200, .end = 0x280, .name = "open" };
	static struct symbol s2 = { .start = 0x300, .end = 0x380, .name = "open" };
	struct cc_frame inl = { .ip = 0x100, .sym = &s_inl, .inlined = true };
	struct cc_frame sym1 = { .ip = 0x200, .sym = &s1 }, sym2 = { .ip = 0x300, .sym = &s2 };
	const struct cc_frame *order[] = { &sym1, &inl, &sym2, &inl };
	const uint64_t periods[] = { 10, 20, 40, 80 };
	struct callchain_store s;
	struct callchain_root *root;

	callchain_store__init(&s);
	root = callchain_root__new(&s);
	for (int i = 0; i < 4; i++)
		callchain_root__append(&s, root, &order[i], 1, periods[i]);
	callchain_root__finalize(root);
	assert_int_equal(root->node.nr_children, 2);
	for (const struct callchain_node *c = root->node.child; c; c = c->sibling)
		assert_int_equal(c->hit, c->frame == &sym1 ? 10 + 20 + 80 : 40);
	callchain_store__exit(&s);
}

/* The comparison is not transitive, and perf searches its children's tree
 * with it: "a" at 0x300, then "b" at 0x100 (right of "a": a higher
 * address), then an inlined "b", which compares with "a" by name, goes
 * left and never meets the symbol "b": two siblings named b, as perf
 * shows them.  Equal totals print in the tree's order. */
static void test_trie_search_follows_perfs_tree(void **state)
{
	static struct symbol a = { .start = 0x300, .end = 0x380, .name = "a" };
	static struct symbol b = { .start = 0x100, .end = 0x180, .name = "b" };
	static struct symbol b_inl = { .start = 0x400, .end = 0x410, .name = "b" };
	struct cc_frame fa = { .ip = 0x300, .sym = &a }, fb = { .ip = 0x100, .sym = &b };
	struct cc_frame fb_inl = { .ip = 0x400, .sym = &b_inl, .inlined = true };
	const struct cc_frame *order[] = { &fa, &fb, &fb_inl };
	const struct callchain_node **v;
	struct callchain_store s;
	struct callchain_root *root;

	callchain_store__init(&s);
	root = callchain_root__new(&s);
	for (int i = 0; i < 3; i++)
		callchain_root__append(&s, root, &order[i], 1, 5);
	callchain_root__finalize(root);
	assert_int_equal(root->node.nr_children, 3);
	assert_int_equal(callchain_node__sorted_children(&root->node, 0, &v), 3);
	assert_ptr_equal(v[0]->frame, &fb_inl);
	assert_ptr_equal(v[1]->frame, &fa);
	assert_ptr_equal(v[2]->frame, &fb);
	free(v);
	callchain_store__exit(&s);
}

static void test_frame_names(void **state)
{
	struct symbol sym = { .start = 0x10, .end = 0x20, .name = "func" };
	struct cc_frame f = { .ip = 0x7f0012345678 };
	struct strbuf sb = STRBUF_INIT;
	char long_name[5000];

	assert_string_equal(cc_frame__name(&f, CCKEY_FUNCTION, &sb), "0x7f0012345678");
	f.sym = &sym;
	f.srcline = "a.c:12";
	assert_string_equal(cc_frame__name(&f, CCKEY_FUNCTION, &sb), "func");
	assert_string_equal(cc_frame__name(&f, CCKEY_SRCLINE, &sb), "func a.c:12");
	f.inlined = true;
	assert_string_equal(cc_frame__name(&f, CCKEY_ADDRESS, &sb), "func a.c:12 (inlined)");
	/* C++ names are as long as they like: never cut */
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	sym.name = long_name;
	assert_int_equal(strlen(cc_frame__name(&f, CCKEY_ADDRESS, &sb)),
			 sizeof(long_name) - 1 + strlen(" a.c:12 (inlined)"));
	strbuf_release(&sb);
}

/* --- cursors from callchain arrays ----------------------------------------- */

struct cursor_env {
	struct machine *m;
	struct thread *t;
	struct callchain_param p;
	struct strset strings;
	struct cc_resolver r;
	struct callchain_cursor c;
};

static int cursor_setup(void **state)
{
	struct cursor_env *e = calloc(1, sizeof(*e));

	e->m = machine__new();
	machine__process_mmap(e->m, 7, 7, 0x400000, 0x100000, 0, "/no/prog", PERF_RECORD_MISC_USER,
			      NULL, 0);
	machine__process_mmap(e->m, -1, 0, 0xffffffff81000000ULL, 0x1000000,
			      0xffffffff81000000ULL, "[kernel.kallsyms]_text",
			      PERF_RECORD_MISC_KERNEL, NULL, 0);
	e->t = machine__findnew_thread(e->m, 7, 7);
	callchain_param__init(&e->p);
	*state = e;
	return 0;
}

static int cursor_teardown(void **state)
{
	struct cursor_env *e = *state;

	callchain_cursor__exit(&e->c);
	cc_resolver__exit(&e->r);
	strset_release(&e->strings);
	machine__delete(e->m);
	free(e);
	return 0;
}

static void resolve(struct cursor_env *e, const uint64_t *ips, uint64_t nr, int max_stack)
{
	struct perf_event_attr attr = { .sample_type = PERF_SAMPLE_CALLCHAIN };
	struct perf_sample sample = { .callchain = ips, .callchain_nr = nr };

	cc_resolver__exit(&e->r);
	cc_resolver__init(&e->r, e->m, &e->p, &e->strings);
	e->r.max_stack = max_stack;
	callchain_cursor__resolve(&e->c, &e->r, e->t, &attr, &sample);
}

static const uint64_t chain[] = {
	PERF_CONTEXT_KERNEL, 0xffffffff81000100ULL, 0xffffffff81000200ULL,
	PERF_CONTEXT_USER, 0x401000, 0x402000, 0x403000,
};

static void test_cursor_orders(void **state)
{
	struct cursor_env *e = *state;

	resolve(e, chain, 7, 127);
	assert_int_equal(e->c.nr, 5);
	assert_int_equal(e->c.frames[0]->ip, 0xffffffff81000100ULL);
	assert_true(e->c.frames[0]->kernel);
	assert_false(e->c.frames[2]->kernel);
	assert_int_equal(e->c.frames[4]->ip, 0x403000);
	assert_true(e->c.has_user);

	/* caller order walks backwards, each part in its own mode */
	e->p.order = ORDER_CALLER;
	resolve(e, chain, 7, 127);
	assert_int_equal(e->c.nr, 5);
	assert_int_equal(e->c.frames[0]->ip, 0x403000);
	assert_false(e->c.frames[0]->kernel);
	assert_int_equal(e->c.frames[4]->ip, 0xffffffff81000100ULL);
	assert_true(e->c.frames[4]->kernel);
}

static void test_cursor_max_stack_and_corruption(void **state)
{
	struct cursor_env *e = *state;
	uint64_t bad[] = { PERF_CONTEXT_USER, 0x401000, (uint64_t)-4000, 0x402000 };

	/* --max-stack counts addresses, not markers, from where the walk starts */
	resolve(e, chain, 7, 3);
	assert_int_equal(e->c.nr, 3);
	assert_int_equal(e->c.frames[2]->ip, 0x401000);
	e->p.order = ORDER_CALLER;
	resolve(e, chain, 7, 2);
	assert_int_equal(e->c.nr, 2);
	assert_int_equal(e->c.frames[0]->ip, 0x403000);

	/* an unknown context marker throws the whole chain away, as perf */
	e->p.order = ORDER_CALLEE;
	resolve(e, bad, 4, 127);
	assert_int_equal(e->c.nr, 0);
}

static void test_cursor_frames_interned(void **state)
{
	struct cursor_env *e = *state;
	uint64_t twice[] = { PERF_CONTEXT_USER, 0x401000, 0x401000, 0x401004 };

	resolve(e, twice, 4, 127);
	assert_int_equal(e->c.nr, 3);
	assert_ptr_equal(e->c.frames[0], e->c.frames[1]);
	assert_ptr_not_equal(e->c.frames[1], e->c.frames[2]);
	/* no symbols here: frames are told apart by address */
	assert_null(e->c.frames[2]->sym);
	assert_string_equal(e->c.frames[2]->dso->long_name, "/no/prog");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_param_defaults_and_words),
		cmocka_unit_test(test_param_prefixes_none_and_errors),
		cmocka_unit_test(test_trie_counts_and_compression),
		cmocka_unit_test(test_trie_copy_keeps_live_stacks),
		cmocka_unit_test(test_trie_copy_keeps_browser_marks),
		cmocka_unit_test(test_trie_ties_and_flat_order),
		cmocka_unit_test(test_trie_wide_nodes),
		cmocka_unit_test(test_trie_inlined_matches_symbol_by_name),
		cmocka_unit_test(test_trie_search_follows_perfs_tree),
		cmocka_unit_test(test_frame_names),
		cmocka_unit_test_setup_teardown(test_cursor_orders, cursor_setup, cursor_teardown),
		cmocka_unit_test_setup_teardown(test_cursor_max_stack_and_corruption, cursor_setup,
						cursor_teardown),
		cmocka_unit_test_setup_teardown(test_cursor_frames_interned, cursor_setup,
						cursor_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
