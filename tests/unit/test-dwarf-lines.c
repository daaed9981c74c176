/* Unit tests for core/symbols/dwarf-lines: every unit's rows (in libdw's
 * order), file names and the row each row's address finds are libdw
 * 0.188's, in real DWARF: libc's debug file (DWARF 5, compressed
 * sections), libpython when installed, and this test compiled -gdwarf-4. */
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
#include <elfutils/libdwelf.h>

#include "core/symbols/dwarf-lines.h"

static const char source[] =
	"#include <stdio.h>\n#include <stdlib.h>\n"
	"static inline int sq(int x) { return x * x; }\n"
	"int main(int argc, char **argv) { int s = 0;\n"
	"  for (int i = 0; i < argc * 100; i++) s += sq(i) + atoi(argv[0]);\n"
	"  printf(\"%d\\n\", s); return 0; }\n";

static char dwarf4_prog[] = "/tmp/pcl-dwarf-lines-XXXXXX";

static int build(void **state)
{
	char src[sizeof(dwarf4_prog) + 2], *cmd;
	int fd = mkstemp(dwarf4_prog);
	FILE *f;

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(src, sizeof(src), "%s.c", dwarf4_prog);
	f = fopen(src, "w");
	if (!f)
		return -1;
	fputs(source, f);
	fclose(f);
	if (asprintf(&cmd, "cc -O2 -gdwarf-4 -o %s %s", dwarf4_prog, src) < 0)
		return -1;
	fd = system(cmd);
	free(cmd);
	unlink(src);
	return fd;
}

static int clean(void **state)
{
	unlink(dwarf4_prog);
	return 0;
}

static void same_rows(Dwarf_Die *cu, const struct dwarf_lines *got,
		      const struct dwarf_lines *want)
{
	unsigned long unit = (unsigned long)dwarf_dieoffset(cu);

	if (got->nr_rows != want->nr_rows || got->nr_files != want->nr_files)
		fail_msg("unit %#lx: %zu rows and %zu files, libdw %zu and %zu", unit,
			 got->nr_rows, got->nr_files, want->nr_rows, want->nr_files);
	for (size_t i = 0; i < want->nr_files; i++)
		if (strcmp(got->files[i] ? got->files[i] : "(null)",
			   want->files[i] ? want->files[i] : "(null)"))
			fail_msg("unit %#lx file %zu: %s, libdw %s", unit, i, got->files[i],
				 want->files[i]);
	for (size_t i = 0; i < want->nr_rows; i++) {
		const struct dwarf_line_row *g = &got->rows[i], *w = &want->rows[i];

		if (g->addr != w->addr || g->line != w->line || g->file != w->file ||
		    g->end_sequence != w->end_sequence)
			fail_msg("unit %#lx row %zu: %#lx line %d file %u end %d, libdw %#lx %d %u %d",
				 unit, i, (unsigned long)g->addr, g->line, g->file, g->end_sequence,
				 (unsigned long)w->addr, w->line, w->file, w->end_sequence);
	}
}

/* The row libdw finds for each row's address, one below and one above */
static void same_lookups(Dwarf_Die *cu, const struct dwarf_lines *got, unsigned *lookups)
{
	for (size_t i = 0; i < got->nr_rows; i++) {
		for (int d = -1; d <= 1; d++) {
			Dwarf_Addr pc = got->rows[i].addr + (Dwarf_Addr)d;
			Dwarf_Line *want = dwarf_getsrc_die(cu, pc);
			const struct dwarf_line_row *row = dwarf_lines__find(got, pc);
			Dwarf_Addr want_addr = 0;
			int want_line = 0;

			(*lookups)++;
			if (!want != !row)
				fail_msg("unit %#lx address %#lx: %s, libdw %s",
					 (unsigned long)dwarf_dieoffset(cu), (unsigned long)pc,
					 row ? "a row" : "none", want ? "a row" : "none");
			if (!want)
				continue;
			dwarf_lineaddr(want, &want_addr);
			dwarf_lineno(want, &want_line);
			assert_int_equal(row->addr, want_addr);
			assert_int_equal(row->line, want_line);
		}
	}
}

/* Compares each unit of the file; how many were read by this module. */
static unsigned check_file(const char *path, unsigned *lookups)
{
	int fd = open(path, O_RDONLY);
	Dwarf *dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
	Dwarf_Off off = 0, next;
	size_t hsize;
	unsigned units = 0;

	assert_non_null(dw);
	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;
		struct dwarf_lines *got, *want;

		if (dwarf_offdie(dw, off + hsize, &cu)) {
			got = dwarf_lines__read(&cu);
			want = dwarf_lines__from_libdw(&cu);
			assert_true(!got == !want);
			if (got) {
				same_rows(&cu, got, want);
				same_lookups(&cu, got, lookups);
				units++;
			}
			dwarf_lines__delete(got);
			dwarf_lines__delete(want);
		}
		off = next;
	}
	dwarf_end(dw);
	close(fd);
	return units;
}

/* The debug file of an installed library, by its build-id */
static char *debug_file(const char *lib)
{
	int fd = open(lib, O_RDONLY);
	Elf *elf = fd >= 0 && elf_version(EV_CURRENT) != EV_NONE ?
		   elf_begin(fd, ELF_C_READ, NULL) : NULL;
	const unsigned char *id = NULL;
	char *path = NULL, hex[41];
	int len;

	len = elf ? dwelf_elf_gnu_build_id(elf, (const void **)&id) : -1;
	if (len == 20) {
		for (int i = 0; i < 20; i++)
			sprintf(hex + 2 * i, "%02x", id[i]);
		if (asprintf(&path, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2) < 0)
			path = NULL;
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	if (path && access(path, R_OK)) {
		free(path);
		path = NULL;
	}
	return path;
}

static void test_dwarf4_program(void **state)
{
	unsigned lookups = 0;

	assert_true(check_file(dwarf4_prog, &lookups) >= 1);
	assert_true(lookups > 30);
}

static void test_libc_debug_file(void **state)
{
	char *path = debug_file("/lib/x86_64-linux-gnu/libc.so.6");
	unsigned lookups = 0;

	if (!path)
		skip();
	assert_true(check_file(path, &lookups) > 100);
	free(path);
}

static void test_pcl_itself(void **state)
{
	unsigned lookups = 0;

	/* this test's own binary: gcc's DWARF 5 units, -O2 with inlining */
	assert_true(check_file("/proc/self/exe", &lookups) >= 2);
	assert_true(lookups > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dwarf4_program),
		cmocka_unit_test(test_libc_debug_file),
		cmocka_unit_test(test_pcl_itself),
	};

	return cmocka_run_group_tests(tests, build, clean);
}
