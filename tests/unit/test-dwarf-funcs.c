/* Unit tests for core/symbols/dwarf-funcs: of functions tied for the
 * smallest range around an address, the last in DIE order names it.  The
 * DWARF comes from a small library compiled here: entry() inlines outer(),
 * which inlines inner() and has no instruction of its own, so outer's and
 * inner's ranges are the same bytes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/symbols/dwarf-funcs.h"

static const char source[] =
	"static inline __attribute__((always_inline)) int inner(int x) { return x * 7 + 3; }\n"
	"static inline __attribute__((always_inline)) int outer(int x) { return inner(x); }\n"
	"int entry(volatile int *p) { int s = 0; for (int i = 0; i < *p; i++) s += outer(*p + i);"
	" return s; }\n";

static char lib[] = "/tmp/pcl-dwarf-funcs-XXXXXX";

static int build_library(void **state)
{
	char cmd[256];
	FILE *cc;
	int fd = mkstemp(lib);

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd), "cc -O2 -g -shared -fPIC -x c -o %s -", lib);
	cc = popen(cmd, "w");
	if (!cc)
		return -1;
	fputs(source, cc);
	return pclose(cc) == 0 ? 0 : -1;
}

static int remove_library(void **state)
{
	unlink(lib);
	return 0;
}

static void innermost_of_equal_ranges(void **state)
{
	struct dwarf_funcs *df = dwarf_funcs__open(lib);
	unsigned ties = 0, entry_kept = 0;

	assert_non_null(df);
	for (uint64_t addr = 0; addr < 0x4000; addr++) {
		const char *named = dwarf_funcs__resolve_tie(df, addr, "outer");

		if (strcmp(named, "outer")) {
			assert_string_equal(named, "inner");
			ties++;
		}
		/* entry's range is larger than its inlined calls': no tie */
		named = dwarf_funcs__resolve_tie(df, addr, "entry");
		assert_string_equal(named, "entry");
		entry_kept++;
		/* a name DWARF does not tie at the address is bfd's to keep */
		assert_string_equal(dwarf_funcs__resolve_tie(df, addr, "elsewhere"), "elsewhere");
	}
	assert_true(ties > 0);
	assert_true(entry_kept > 0);
	assert_null(dwarf_funcs__resolve_tie(df, 0, NULL));
	dwarf_funcs__close(df);
}

/* A unit with code and lines but no function DIE (assembler, JIT images):
 * bfd's choice stands. */
static void unit_without_functions(void **state)
{
	char path[] = "/tmp/pcl-dwarf-funcs-asm-XXXXXX", cmd[256];
	struct dwarf_funcs *df;
	FILE *cc;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "cc -g -shared -nostdlib -x assembler -o %s -", path);
	cc = popen(cmd, "w");
	assert_non_null(cc);
	fputs("\t.text\n\t.globl f\nf:\n\tnop\n\tret\n", cc);
	assert_int_equal(pclose(cc), 0);
	df = dwarf_funcs__open(path);
	assert_non_null(df);
	for (uint64_t addr = 0; addr < 0x2000; addr++)
		assert_string_equal(dwarf_funcs__resolve_tie(df, addr, "f"), "f");
	dwarf_funcs__close(df);
	unlink(path);
}

static void no_dwarf(void **state)
{
	assert_null(dwarf_funcs__open("/dev/null"));
	assert_null(dwarf_funcs__open("/nonexistent/file"));
	/* without DWARF, bfd's choice stands */
	assert_string_equal(dwarf_funcs__resolve_tie(NULL, 0x1000, "main"), "main");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(innermost_of_equal_ranges),
		cmocka_unit_test(unit_without_functions),
		cmocka_unit_test(no_dwarf),
	};

	return cmocka_run_group_tests(tests, build_library, remove_library);
}
