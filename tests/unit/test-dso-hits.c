/* Unit tests for core/dso-hits: only DSOs that samples landed in are kept,
 * through forks, with late map records, kernel first. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/live/dso-hits.h"
#include "core/data/perf-record.h"

/* Binaries that exist here with build ids (Debian builds with them). */
#define LIBC	"/usr/lib/x86_64-linux-gnu/libc.so.6"
#define BIN	"/usr/bin/env"

static bool has(const struct hit_dso *d, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(d[i].filename, name))
			return true;
	return false;
}

static void only_hit_dsos(void **state)
{
	struct dso_hits *h = dso_hits__new();
	const struct hit_dso *d;
	size_t n;

	dso_hits__mmap(h, -1, 0xffffffff81000000ULL, 0x1000000, "[kernel.kallsyms]_text");
	dso_hits__mmap(h, 10, 0x400000, 0x10000, BIN);
	dso_hits__mmap(h, 10, 0x7f0000000000ULL, 0x200000, LIBC);
	dso_hits__sample(h, 10, 0x400123, false);
	dso_hits__sample(h, 10, 0x400124, false);	/* same page: counted once */
	n = dso_hits__resolve(h, false, &d);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].filename, BIN);
	assert_int_equal(d[0].build_id_size, 20);
	assert_false(d[0].kernel);

	/* A kernel sample, and --buildid-all. */
	dso_hits__sample(h, 10, 0xffffffff81000100ULL, true);
	n = dso_hits__resolve(h, false, &d);
	if (n == 2) {	/* the kernel's build id is readable here */
		assert_string_equal(d[0].filename, "[kernel.kallsyms]");
		assert_true(d[0].kernel);
	}
	n = dso_hits__resolve(h, true, &d);
	assert_true(has(d, n, LIBC));
	dso_hits__delete(h);
}

static void forked_child_uses_parent_maps(void **state)
{
	struct dso_hits *h = dso_hits__new();
	const struct hit_dso *d;
	size_t n;

	dso_hits__mmap(h, 10, 0x7f0000000000ULL, 0x200000, LIBC);
	/* The child's sample is seen before its FORK record: order is free. */
	dso_hits__sample(h, 11, 0x7f0000001000ULL, false);
	dso_hits__fork(h, 11, 10);
	n = dso_hits__resolve(h, false, &d);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].filename, LIBC);
	dso_hits__delete(h);
}

static void unmapped_and_anonymous_are_skipped(void **state)
{
	struct dso_hits *h = dso_hits__new();
	const struct hit_dso *d;

	dso_hits__mmap(h, 10, 0x1000, 0x1000, "//anon");
	dso_hits__mmap(h, 10, 0x3000, 0x1000, "/memfd:jit (deleted)");
	dso_hits__sample(h, 10, 0x1800, false);
	dso_hits__sample(h, 10, 0x3800, false);
	dso_hits__sample(h, 10, 0x9000, false);		/* no map */
	dso_hits__sample(h, 99, 0x1800, false);		/* unknown process */
	assert_int_equal(dso_hits__resolve(h, false, &d), 0);
	dso_hits__delete(h);
}

static void records_feed_maps(void **state)
{
	struct dso_hits *h = dso_hits__new();
	const struct hit_dso *d;
	union {
		struct perf_rec_mmap2 m;
		char buf[256];
	} r;

	memset(&r, 0, sizeof(r));
	r.m.header.type = PERF_RECORD_MMAP2;
	r.m.header.size = sizeof(r);
	r.m.pid = 20;
	r.m.tid = 20;
	r.m.start = 0x500000;
	r.m.len = 0x1000;
	strcpy(r.m.filename, BIN);
	dso_hits__record(h, &r);
	dso_hits__sample(h, 20, 0x500010, false);
	assert_int_equal(dso_hits__resolve(h, false, &d), 1);
	dso_hits__delete(h);
}

static void vdso_has_a_build_id(void **state)
{
	struct dso_hits *h = dso_hits__new();
	const struct hit_dso *d;

	dso_hits__mmap(h, 10, 0x7fff0000ULL, 0x2000, "[vdso]");
	dso_hits__sample(h, 10, 0x7fff0100ULL, false);
	assert_int_equal(dso_hits__resolve(h, false, &d), 1);
	assert_string_equal(d[0].filename, "[vdso]");
	assert_true(d[0].build_id_size > 0);
	dso_hits__delete(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(only_hit_dsos),
		cmocka_unit_test(forked_child_uses_parent_maps),
		cmocka_unit_test(unmapped_and_anonymous_are_skipped),
		cmocka_unit_test(records_feed_maps),
		cmocka_unit_test(vdso_has_a_build_id),
	};
	return cmocka_run_group_tests_name("dso-hits", tests, NULL, NULL);
}
