/* Unit tests for util/hashmap (u64, composite and string keys, growth,
 * collisions, iteration), util/arena's strings and util/strset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/arena.h"
#include "util/hashmap.h"
#include "util/strset.h"
#include "util/util.h"

#define MANY 100000

static void test_u64_insert_lookup_update(void **state)
{
	struct hashmap m;
	bool added;
	uint32_t *v;

	(void)state;
	hashmap_init(&m, sizeof(uint32_t));
	assert_null(hashmap_u64_find(&m, 7));
	v = hashmap_u64_findnew(&m, 7, &added);
	assert_true(added);
	assert_int_equal(*v, 0);	/* new values are zeroed */
	*v = 70;
	v = hashmap_u64_findnew(&m, 7, &added);
	assert_false(added);
	assert_int_equal(*v, 70);
	*v = 71;
	assert_int_equal(*(uint32_t *)hashmap_u64_find(&m, 7), 71);
	/* key 0 is a key like any other */
	*(uint32_t *)hashmap_u64_findnew(&m, 0, NULL) = 5;
	assert_int_equal(*(uint32_t *)hashmap_u64_find(&m, 0), 5);
	assert_int_equal(m.used, 2);
	assert_int_equal(hashmap_u64_key(hashmap_u64_find(&m, 7)), 7);
	hashmap_release(&m);
	assert_null(hashmap_u64_find(&m, 7));
	/* usable again after release, with the same value size */
	*(uint32_t *)hashmap_u64_findnew(&m, 9, NULL) = 9;
	assert_int_equal(*(uint32_t *)hashmap_u64_find(&m, 9), 9);
	hashmap_release(&m);
}

/* A zeroed map holds one pointer per key. */
static void test_pointer_values_of_a_zeroed_map(void **state)
{
	struct hashmap m = { 0 };
	int a, b;

	(void)state;
	assert_null(hashmap_u64_get(&m, 1));
	hashmap_u64_put(&m, 1, &a);
	hashmap_u64_put(&m, 2, &b);
	assert_ptr_equal(hashmap_u64_get(&m, 1), &a);
	hashmap_u64_put(&m, 1, &b);
	assert_ptr_equal(hashmap_u64_get(&m, 1), &b);
	hashmap_u64_put(&m, 1, NULL);
	assert_null(hashmap_u64_get(&m, 1));
	assert_ptr_equal(hashmap_u64_get(&m, 2), &b);
	hashmap_release(&m);
}

/* Growth keeps every entry, in a power of two at most half full. */
static void test_growth_keeps_entries(void **state)
{
	struct hashmap m;

	(void)state;
	hashmap_init(&m, sizeof(uint64_t));
	for (uint64_t k = 0; k < MANY; k++) {
		*(uint64_t *)hashmap_u64_findnew(&m, k * 4096, NULL) = ~k;
		assert_true(m.used * 2 <= m.cap);
	}
	assert_int_equal(m.used, MANY);
	assert_int_equal(m.cap & (m.cap - 1), 0);
	for (uint64_t k = 0; k < MANY; k++)
		assert_int_equal(*(uint64_t *)hashmap_u64_find(&m, k * 4096), ~k);
	assert_null(hashmap_u64_find(&m, 4095));
	hashmap_release(&m);
}

/* Composite keys that all share one hash stay apart by their equality. */
struct pair {
	uint64_t a, b;
	int value;
};

static bool pair_equal(const void *value, const void *key)
{
	const struct pair *x = value, *y = key;

	return x->a == y->a && x->b == y->b;
}

static void test_colliding_composite_keys(void **state)
{
	struct hashmap m;

	(void)state;
	hashmap_init(&m, sizeof(struct pair));
	for (int i = 0; i < 1000; i++) {
		struct pair key = { (uint64_t)i, (uint64_t)i * 3, i };
		bool added;
		struct pair *p = hashmap_findnew(&m, 42, pair_equal, &key, &added);

		assert_true(added);
		*p = key;
	}
	for (int i = 0; i < 1000; i++) {
		struct pair key = { (uint64_t)i, (uint64_t)i * 3, 0 };
		struct pair *p = hashmap_find(&m, 42, pair_equal, &key);

		assert_non_null(p);
		assert_int_equal(p->value, i);
	}
	{
		struct pair absent = { 1, 2, 0 };

		assert_null(hashmap_find(&m, 42, pair_equal, &absent));
		assert_null(hashmap_find(&m, 43, pair_equal, &absent));
	}
	hashmap_release(&m);
}

struct counted {
	struct hashmap_str key;
	int count;
};

static void test_string_keys(void **state)
{
	struct hashmap m;
	struct arena strings = { 0 };
	const char text[] = "main;foo;main";
	struct counted *a, *b, *c;
	bool added;

	(void)state;
	hashmap_init(&m, sizeof(struct counted));
	a = hashmap_str_findnew(&m, text, 4, &strings, &added);
	assert_true(added);
	a->count++;
	assert_string_equal(a->key.str, "main");	/* a NUL-terminated copy */
	assert_ptr_not_equal(a->key.str, text);
	b = hashmap_str_findnew(&m, text + 5, 3, &strings, &added);
	assert_true(added);
	b->count++;
	c = hashmap_str_findnew(&m, text + 9, 4, &strings, &added);
	assert_false(added);
	assert_ptr_equal(c, a);
	c->count++;
	assert_int_equal(((struct counted *)hashmap_str_find(&m, "main", 4))->count, 2);
	assert_null(hashmap_str_find(&m, "mai", 3));
	assert_null(hashmap_str_find(&m, "mainx", 5));
	/* the empty string is a key too */
	hashmap_str_findnew(&m, "", 0, &strings, &added);
	assert_true(added);
	assert_non_null(hashmap_str_find(&m, "", 0));
	hashmap_release(&m);
	arena_release(&strings);
}

/* Iteration visits every entry once. */
static void test_iteration_visits_all(void **state)
{
	struct hashmap m;
	static unsigned char seen[1000];
	size_t n = 0;

	(void)state;
	hashmap_init(&m, 0);
	for (uint64_t k = 0; k < 1000; k++)
		hashmap_u64_findnew(&m, k, NULL);
	hashmap_u64_findnew(&m, 10, NULL);	/* a set: no second entry */
	for (const void *v = NULL; (v = hashmap_next(&m, v));) {
		uint64_t k = hashmap_u64_key(v);

		assert_true(k < 1000);
		assert_int_equal(seen[k]++, 0);
		n++;
	}
	assert_int_equal(n, 1000);
	hashmap_release(&m);
	assert_null(hashmap_next(&m, NULL));
}

static void test_arena_strings_and_blocks(void **state)
{
	struct arena a = { 0 };
	const char *s = arena_strndup(&a, "abcdef", 3);
	uint64_t *p = arena_alloc(&a, 24);

	(void)state;
	assert_string_equal(s, "abc");
	assert_int_equal((uintptr_t)p % 16, 0);	/* blocks stay aligned after strings */
	assert_int_equal(p[0] | p[1] | p[2], 0);
	for (int i = 0; i < 100000; i++)	/* across many chunks */
		assert_string_equal(arena_strndup(&a, "xyz", 3), "xyz");
	assert_string_equal(s, "abc");
	arena_release(&a);
}

/* Past the cap, chunks are mapped on their own (huge pages); blocks of
 * every size stay zeroed, aligned and apart; an owned buffer is freed
 * with the arena (ASan tells a leak). */
static void test_arena_big_chunks_and_owned(void **state)
{
	struct arena a = { 0 };
	char *prev = NULL;

	(void)state;
	arena_own(&a, xstrdup("owned"));
	for (int i = 0; i < 12000; i++) {	/* 12 MB: several capped chunks */
		char *p = arena_alloc_aligned(&a, 1000, i % 2 ? 8 : 64);

		assert_int_equal((uintptr_t)p % (i % 2 ? 8 : 64), 0);
		assert_int_equal(p[0] | p[999], 0);
		memset(p, 0xff, 1000);
		if (prev)
			assert_int_equal((unsigned char)prev[999], 0xff);
		prev = p;
	}
	for (size_t size = (2u << 20) - 64; size <= (2u << 20) + 64; size += 16) {
		char *p = arena_alloc(&a, size);	/* about a chunk: a chunk of its own */

		assert_int_equal(p[0] | p[size - 1], 0);
		memset(p, 1, size);
	}
	arena_own(&a, xstrdup("owned too"));
	arena_release(&a);
	assert_null(a.chunks);
}

static void test_strset_interns(void **state)
{
	struct strset set = { 0 };
	const char *a = strset_intern(&set, "libc.so.6");
	const char *b = strset_intern_len(&set, "libc.so.6 (deleted)", 9);

	(void)state;
	assert_ptr_equal(a, b);
	assert_string_equal(b, "libc.so.6");
	assert_ptr_not_equal(strset_intern(&set, "libc.so"), a);
	strset_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64_insert_lookup_update),
		cmocka_unit_test(test_pointer_values_of_a_zeroed_map),
		cmocka_unit_test(test_growth_keeps_entries),
		cmocka_unit_test(test_colliding_composite_keys),
		cmocka_unit_test(test_string_keys),
		cmocka_unit_test(test_iteration_visits_all),
		cmocka_unit_test(test_arena_strings_and_blocks),
		cmocka_unit_test(test_arena_big_chunks_and_owned),
		cmocka_unit_test(test_strset_interns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
