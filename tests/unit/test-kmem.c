/* Unit tests for core/analysis/kmem: sort keys, fragmentation and the
 * order of the tables (user keys descending, ties in perf's filing order:
 * ascending pointer or call site, descending page for live pages). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/kmem.h"

static void sort_keys(void **state)
{
	struct kmem_sort sort = { .nr = 0 };
	char *bad = NULL, *copy = NULL;

	(void)state;
	assert_int_equal(kmem__parse_sort(&sort, "frag,hit,bytes", false, &bad, &copy), 0);
	free(copy);
	assert_int_equal(sort.nr, 3);
	assert_int_equal(sort.keys[0], KMEM_KEY_FRAG);
	assert_int_equal(sort.keys[2], KMEM_KEY_BYTES);
	/* page keys are not slab keys: the bad one is named */
	assert_int_equal(kmem__parse_sort(&sort, "hit,gfp", false, &bad, &copy), -1);
	assert_string_equal(bad, "gfp");
	free(copy);
	sort.nr = 0;
	assert_int_equal(kmem__parse_sort(&sort, "gfp,migtype,order", true, &bad, &copy), 0);
	free(copy);
	assert_int_equal(sort.keys[1], KMEM_KEY_MIGTYPE);
}

static void fragmentation(void **state)
{
	(void)state;
	assert_true(kmem__fragmentation(0, 0) == 0.0);
	assert_true(kmem__fragmentation(75, 100) == 25.0);
	assert_true(kmem__fragmentation(8704, 16384) == 46.875);	/* perf: 46.875% */
}

static void slab_order(void **state)
{
	struct kmem k;
	struct kmem_slab_stat *v = calloc(4, sizeof(*v));
	char *bad, *copy;

	(void)state;
	kmem__init(&k);
	k.slab = true;
	/* filed in any order; two ties at 50% frag, 1 hit, 64 bytes */
	v[0] = (struct kmem_slab_stat){ .ptr = 0x3000, .bytes_req = 32, .bytes_alloc = 64,
					.hit = 1 };
	v[1] = (struct kmem_slab_stat){ .ptr = 0x1000, .bytes_req = 32, .bytes_alloc = 64,
					.hit = 1 };
	v[2] = (struct kmem_slab_stat){ .ptr = 0x2000, .bytes_req = 64, .bytes_alloc = 64,
					.hit = 9 };
	v[3] = (struct kmem_slab_stat){ .ptr = 0x4000, .bytes_req = 8, .bytes_alloc = 64,
					.hit = 1 };
	k.slab_allocs = (struct kmem_stat_vec){ v, 4, 4 };
	kmem__parse_sort(&k.slab_alloc_sort, "frag,hit", false, &bad, &copy);
	free(copy);
	kmem__parse_sort(&k.slab_caller_sort, "hit", false, &bad, &copy);
	free(copy);
	kmem__sort(&k);
	assert_int_equal(k.nr_slab_alloc_sorted, 4);
	assert_int_equal(k.slab_alloc_sorted[0]->ptr, 0x4000);	/* 87.5% */
	assert_int_equal(k.slab_alloc_sorted[1]->ptr, 0x1000);	/* tie: lower pointer first */
	assert_int_equal(k.slab_alloc_sorted[2]->ptr, 0x3000);
	assert_int_equal(k.slab_alloc_sorted[3]->ptr, 0x2000);	/* 0% */
	kmem__exit(&k);
}

static void live_pages_tie_by_descending_page(void **state)
{
	struct kmem k;
	struct kmem_page_stat *v = calloc(3, sizeof(*v));
	char *bad, *copy;

	(void)state;
	kmem__init(&k);
	k.page = k.live = true;
	v[0] = (struct kmem_page_stat){ .page = 10, .alloc_bytes = 4096, .nr_alloc = 1 };
	v[1] = (struct kmem_page_stat){ .page = 30, .alloc_bytes = 4096, .nr_alloc = 1 };
	v[2] = (struct kmem_page_stat){ .page = 20, .alloc_bytes = 4096, .nr_alloc = 1,
					.gone = true };	/* freed: not live */
	k.pages = (struct kmem_stat_vec){ v, 3, 3 };
	kmem__parse_sort(&k.page_alloc_sort, "bytes,hit", true, &bad, &copy);
	free(copy);
	kmem__parse_sort(&k.page_caller_sort, "bytes,hit", true, &bad, &copy);
	free(copy);
	kmem__sort(&k);
	assert_int_equal(k.nr_page_alloc_sorted, 2);
	assert_int_equal(k.page_alloc_sorted[0]->page, 30);
	assert_int_equal(k.page_alloc_sorted[1]->page, 10);
	kmem__exit(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sort_keys),
		cmocka_unit_test(fragmentation),
		cmocka_unit_test(slab_order),
		cmocka_unit_test(live_pages_tie_by_descending_page),
	};

	return cmocka_run_group_tests_name("kmem", tests, NULL, NULL);
}
