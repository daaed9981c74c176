/* Unit tests for core/symbols/dwarf-scopes: the chain of DIEs around an
 * address is the one libdw's dwarf_getscopes() + dwarf_getscopes_die()
 * give, at the boundaries of every scope's ranges (where the two could
 * part), in real DWARF compiled here: a library of some of pcl's own
 * sources (C, big units, many inlined calls) and a C++ program
 * (namespaces, classes, templates, inlined members). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include <dwarf.h>

#include "core/symbols/dwarf-scopes.h"

static const char cxx_source[] =
	"#include <map>\n#include <string>\n#include <vector>\n#include <algorithm>\n"
	"namespace ns { struct Box { std::vector<int> v;\n"
	"  int sum() const { int s = 0; for (int x : v) s += x * 3; return s; } };\n"
	"template <typename T> T twice(T x) { return x + x; } }\n"
	"int main(int argc, char **argv) { std::map<std::string, int> m; ns::Box b;\n"
	"  for (int i = 0; i < argc * 1000; i++) { m[std::to_string(i % 97)] += i;\n"
	"    b.v.push_back(ns::twice(i)); }\n"
	"  std::sort(b.v.begin(), b.v.end()); return b.sum() + (int)m.size(); }\n";

static char cxx_prog[] = "/tmp/pcl-dwarf-scopes-XXXXXX";
static char c_lib[] = "/tmp/pcl-dwarf-scopes-lib-XXXXXX";

static int build_program(void **state)
{
	char cmd[512];
	FILE *cc;
	int fd = mkstemp(cxx_prog), fd2 = mkstemp(c_lib);

	if (fd < 0 || fd2 < 0)
		return -1;
	close(fd);
	close(fd2);
	snprintf(cmd, sizeof(cmd), "cc -O2 -g -shared -fPIC -std=gnu11 -D_GNU_SOURCE -Isrc "
		 "-Ibuild/gen -o %s src/core/symbols/srcline.c src/core/hist/callchain.c "
		 "src/util/hashmap.c", c_lib);
	if (system(cmd))
		return -1;
	snprintf(cmd, sizeof(cmd), "g++ -O2 -g -x c++ -o %s -", cxx_prog);
	cc = popen(cmd, "w");
	if (!cc)
		return -1;
	fputs(cxx_source, cc);
	return pclose(cc) == 0 ? 0 : -1;
}

static int remove_program(void **state)
{
	unlink(cxx_prog);
	unlink(c_lib);
	return 0;
}

/* libdw's answer: the innermost scope's physical chain, without the unit */
static int libdw_chain(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Off *out, int max)
{
	Dwarf_Die *scopes = NULL, *chain = NULL, inner;
	int n = dwarf_getscopes(cu, pc, &scopes);

	if (n <= 0 || !dwarf_offdie(dwarf_cu_getdwarf(cu->cu), dwarf_dieoffset(&scopes[0]), &inner)) {
		free(scopes);
		return 0;
	}
	free(scopes);
	n = dwarf_getscopes_die(&inner, &chain);
	if (n > 0)
		n--;	/* the unit */
	for (int i = 0; i < n && i < max; i++)
		out[i] = dwarf_dieoffset(&chain[i]);
	free(chain);
	return n > 0 ? n : 0;
}

struct tally {
	unsigned addrs, found, inlined;
};

static void check_address(struct dwarf_scopes *ds, Dwarf_Die *cu, Dwarf_Addr pc, struct tally *t)
{
	Dwarf_Off want[256];
	const Dwarf_Die *chain;
	int n = libdw_chain(cu, pc, want, 256), got = dwarf_scopes__chain(ds, cu, pc, &chain);

	if (got != n)
		fail_msg("unit %#lx address %#lx: %d scopes, libdw %d",
			 (unsigned long)dwarf_dieoffset(cu), (unsigned long)pc, got, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(dwarf_dieoffset((Dwarf_Die *)&chain[i]), want[i]);
		if (dwarf_tag((Dwarf_Die *)&chain[i]) == DW_TAG_inlined_subroutine && !i)
			t->inlined++;
	}
	t->addrs++;
	t->found += n > 0;
}

/* Each boundary of the ranges of the unit's DIEs: every n-th DIE, so big
 * units stay quick (libdw walks the unit for each address). */
static void check_die_ranges(struct dwarf_scopes *ds, Dwarf_Die *cu, Dwarf_Die *parent,
			     unsigned every, unsigned *seen, struct tally *t)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child))
		return;
	do {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t it = 0;

		if ((*seen)++ % every == 0) {
			while ((it = dwarf_ranges(&child, it, &base, &lo, &hi)) > 0) {
				check_address(ds, cu, lo, t);
				check_address(ds, cu, hi - 1, t);
				check_address(ds, cu, hi, t);
			}
		}
		check_die_ranges(ds, cu, &child, every, seen, t);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static struct tally check_file(const char *path, unsigned every)
{
	struct tally t = { 0 };
	struct dwarf_scopes *ds = dwarf_scopes__new();
	int fd = open(path, O_RDONLY);
	Dwarf *dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
	Dwarf_Off off = 0, next;
	size_t hsize;

	assert_non_null(dw);
	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;
		unsigned seen = 0;

		if (dwarf_offdie(dw, off + hsize, &cu))
			check_die_ranges(ds, &cu, &cu, every, &seen, &t);
		off = next;
	}
	dwarf_scopes__delete(ds);
	dwarf_end(dw);
	close(fd);
	return t;
}

static void same_as_libdw_in_c(void **state)
{
	struct tally t = check_file(c_lib, 3);

	assert_true(t.addrs > 1000);
	assert_true(t.found > 500);
	assert_true(t.inlined > 100);
}

static void same_as_libdw_in_cxx(void **state)
{
	struct tally t = check_file(cxx_prog, 1);

	assert_true(t.addrs > 1000);
	assert_true(t.inlined > 100);
}

/* Addresses outside every scope: nothing, as libdw says. */
static void outside_every_scope(void **state)
{
	struct dwarf_scopes *ds = dwarf_scopes__new();
	int fd = open(cxx_prog, O_RDONLY);
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	Dwarf_Off next;
	size_t hsize;
	Dwarf_Die cu;
	const Dwarf_Die *chain;

	assert_non_null(dw);
	assert_int_equal(dwarf_nextcu(dw, 0, &next, &hsize, NULL, NULL, NULL), 0);
	assert_non_null(dwarf_offdie(dw, hsize, &cu));
	assert_int_equal(dwarf_scopes__chain(ds, &cu, 0, &chain), 0);
	assert_int_equal(dwarf_scopes__chain(ds, &cu, UINT64_MAX - 1, &chain), 0);
	dwarf_scopes__delete(ds);
	dwarf_end(dw);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_as_libdw_in_c),
		cmocka_unit_test(same_as_libdw_in_cxx),
		cmocka_unit_test(outside_every_scope),
	};

	return cmocka_run_group_tests(tests, build_program, remove_program);
}
