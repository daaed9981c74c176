/* Unit tests for core/probe/probe-cache: perf 6.1's probes files (texts as
 * perf wrote them), its entry keys, purges and the listing order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/probe/probe-cache.h"

/* What perf 6.1 wrote for `perf probe -x probe_prog --cache -n -a ...` and
 * what buildid-cache writes for an SDT marker. */
static const char PERF_FILE[] =
	"#work n x=p->x name=p->name:string vals=vals[1]\n"
	"p:probe_probe_prog/work /b/probe_prog:0x1159 n=%di:s32 x=+0(%si):s32 "
	"name=+0(+8(%si)):string vals=+4(%dx):s32\n"
	"#grp:ev=work%return r=$retval\n"
	"r:grp/ev__return /b/probe_prog:0x1159 r=$retval\n"
	"%sdt_libstdcxx:catch=catch\n"
	"p:sdt_libstdcxx/catch /l/libstdc++.so:0xa7f05 arg1=%dx:u64 arg2=-80(%bx):u64\n"
	"#probe_probe_prog:myev=scale\n"
	"p:probe_probe_prog/myev /b/probe_prog:0x1149\n";

static void test_parse_roundtrip(void **state)
{
	struct probe_cache pc;
	char *text;

	(void)state;
	probe_cache__parse(&pc, PERF_FILE);
	assert_int_equal(pc.nr, 4);
	assert_string_equal(pc.entries[0].spev, "work n x=p->x name=p->name:string vals=vals[1]");
	assert_false(pc.entries[0].sdt);
	assert_int_equal(pc.entries[0].nr_defs, 1);
	assert_true(pc.entries[2].sdt);
	assert_string_equal(pc.entries[2].spev, "sdt_libstdcxx:catch=catch");
	text = probe_cache__text(&pc);
	assert_string_equal(text, PERF_FILE);
	free(text);
	probe_cache__exit(&pc);
}

static void assert_key(const char *head, const char *key)
{
	struct probe_cache pc;
	char *k;

	probe_cache__parse(&pc, head);
	k = probe_cache_entry__key(&pc.entries[0]);
	assert_string_equal(k, key);
	free(k);
	probe_cache__exit(&pc);
}

static void test_keys(void **state)
{
	(void)state;
	assert_key("#work n x=p->x\n", "work n x=p->x");
	assert_key("#grp:ev=work%return r=$retval\n", "grp:ev");
	assert_key("%sdt_python:gc__start=gc__start\n", "sdt_python:gc__start");
	assert_key("#work+4 %di\n", "work+4 %di");
}

static void test_add_replaces(void **state)
{
	struct probe_cache pc;
	char *defs[] = { "p:probe_probe_prog/work /b/probe_prog:0x1159" };
	char *text;

	(void)state;
	probe_cache__parse(&pc, PERF_FILE);
	probe_cache__add(&pc, "work", defs, 1);
	assert_int_equal(pc.nr, 5);
	assert_int_equal(pc.entries[4].nr_defs, 1);
	/* a definition cached already moves to the end, without its uprobes */
	probe_cache__add(&pc, "grp:ev=work%return r=$retval", defs, 1);
	assert_int_equal(pc.nr, 5);
	text = probe_cache__text(&pc);
	assert_non_null(strstr(text, "#work\np:probe_probe_prog/work /b/probe_prog:0x1159\n"
				     "#grp:ev=work%return r=$retval\n"));
	assert_null(strstr(text, "r:grp/"));
	free(text);
	probe_cache__exit(&pc);
}

static void test_purge(void **state)
{
	struct probe_cache pc;
	int nr;
	char **removed;

	(void)state;
	probe_cache__parse(&pc, PERF_FILE);
	/* a named entry is matched by GROUP:EVENT, not by its definition */
	removed = probe_cache__purge(&pc, "work*|probe_probe_prog:myev", &nr);
	assert_int_equal(nr, 2);
	assert_string_equal(removed[0], "work n x=p->x name=p->name:string vals=vals[1]");
	assert_string_equal(removed[1], "probe_probe_prog:myev=scale");
	for (int i = 0; i < nr; i++)
		free(removed[i]);
	free(removed);
	assert_int_equal(pc.nr, 2);
	removed = probe_cache__purge(&pc, "nothing", &nr);
	assert_int_equal(nr, 0);
	assert_null(removed);
	probe_cache__exit(&pc);
}

static void make_link(const char *dir, const char *bid, const char *origin)
{
	char path[512], target[512];

	snprintf(path, sizeof(path), "%s/.build-id/%.2s", dir, bid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", dir, bid, bid + 2);
	snprintf(target, sizeof(target), "../..%s/%s", origin, bid);
	assert_int_equal(symlink(target, path), 0);
}

static void test_list_sorted_by_build_id(void **state)
{
	char dir[] = "/tmp/test-probe-cache-XXXXXX", path[512];
	struct probe_cache_ref *refs;
	int n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/.build-id", dir);
	mkdir(path, 0755);
	make_link(dir, "ffaa01", "/usr/bin/b");
	make_link(dir, "00bb02", "/[kernel.kallsyms]");
	make_link(dir, "ff0003", "/usr/lib/a.so");
	n = probe_caches__list(dir, &refs);
	assert_int_equal(n, 3);
	assert_string_equal(refs[0].build_id, "00bb02");
	assert_string_equal(refs[0].origin, "[kernel.kallsyms]");
	assert_string_equal(refs[1].origin, "/usr/lib/a.so");
	assert_string_equal(refs[2].origin, "/usr/bin/b");
	snprintf(path, sizeof(path), "%s/.build-id/ff/aa01/probes", dir);
	assert_string_equal(refs[2].probes, path);
	probe_caches__free(refs, n);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_roundtrip),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_add_replaces),
		cmocka_unit_test(test_purge),
		cmocka_unit_test(test_list_sorted_by_build_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
