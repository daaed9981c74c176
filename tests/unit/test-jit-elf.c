/* Unit tests for jit-elf: the image of a jitted function, mapped at the
 * code's address with page offset JIT_ELF_TEXT_OFFSET as inject -j maps it,
 * resolves to the function's symbol and source lines; its build id is the
 * same for the same function and differs for another; the unwinding tables
 * land right after the code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <gelf.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/symbols/buildid.h"
#include "core/symbols/jit-elf.h"
#include "core/symbols/machine.h"
#include "core/symbols/dso.h"

#define USER PERF_RECORD_MISC_USER
#define CODE_ADDR 0x7f0000001000ull

static const uint8_t code[16] = { 0xb9, 1, 0, 0, 0, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };
static const struct jit_debug_entry lines[] = {
	{ CODE_ADDR, 10, 0, "f.js" }, { CODE_ADDR + 5, 11, 0, "f.js" },
	{ CODE_ADDR + 7, 20, 0, "g.js" }, { CODE_ADDR + 9, 21, 0, "g.js" },
};

static char *write_image(const struct jit_function *f)
{
	char *path = strdup("/tmp/pcl-jit-elf-XXXXXX");
	char *err = NULL;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(jit_elf__write(path, f, &err), 0);
	assert_null(err);
	return path;
}

static void test_symbol_and_lines(void **state)
{
	struct jit_function f = {
		.name = "LazyCompile:*hot f.js:10", .machine = EM_X86_64, .addr = CODE_ADDR,
		.code = code, .size = sizeof(code), .lines = lines, .nr_lines = 4,
	};
	char *path = write_image(&f);
	struct machine *m = machine__new();
	struct addr_location al;
	struct thread *t;
	const char *srcline;	/* the DSO's cache keeps it */

	(void)state;
	machine__process_mmap2(m, 77, 77, CODE_ADDR, sizeof(code), JIT_ELF_TEXT_OFFSET, path,
			       USER, NULL, 0, PROT_READ | PROT_EXEC, MAP_SHARED);
	t = machine__findnew_thread(m, 77, 77);
	assert_true(machine__resolve(m, t, USER, CODE_ADDR + 7, &al));
	assert_non_null(al.sym);
	assert_string_equal(al.sym->name, "LazyCompile:*hot f.js:10");
	assert_int_equal(al.addr - al.sym->start, 7);
	srcline = dso__srcline(al.dso, al.addr);
	assert_string_equal(srcline, "g.js:20");
	assert_true(machine__resolve(m, t, USER, CODE_ADDR + 5, &al));
	srcline = dso__srcline(al.dso, al.addr);
	assert_string_equal(srcline, "f.js:11");
	/* the last entry ends the sequence and so covers nothing, as in perf's */
	assert_true(machine__resolve(m, t, USER, CODE_ADDR + 9, &al));
	assert_string_equal(dso__srcline(al.dso, al.addr), "??:0");
	machine__delete(m);
	unlink(path);
	free(path);
}

static void test_build_ids(void **state)
{
	struct jit_function f = {
		.name = "one", .machine = EM_X86_64, .addr = CODE_ADDR, .code = code,
		.size = sizeof(code),
	};
	uint8_t a[20], b[20], c[20];
	char *p1 = write_image(&f), *p2 = write_image(&f), *p3;

	(void)state;
	f.name = "two";
	p3 = write_image(&f);
	assert_int_equal(elf_file__read_build_id(p1, a, sizeof(a)), 20);
	assert_int_equal(elf_file__read_build_id(p2, b, sizeof(b)), 20);
	assert_int_equal(elf_file__read_build_id(p3, c, sizeof(c)), 20);
	assert_memory_equal(a, b, 20);
	assert_memory_not_equal(a, c, 20);
	unlink(p1);
	unlink(p2);
	unlink(p3);
	free(p1);
	free(p2);
	free(p3);
}

/* .eh_frame at the code's end rounded to 8, .eh_frame_hdr after it, both
 * inside the loaded segment, as the JIT had them after the code. */
static void test_unwinding_tables(void **state)
{
	static const uint8_t unwind[24] = { [0] = 0xaa, [19] = 0xbb, [20] = 0xcc, [23] = 0xdd };
	struct jit_function f = {
		.name = "fn", .machine = EM_X86_64, .addr = CODE_ADDR, .code = code, .size = 10,
		.unwind = unwind, .unwind_size = sizeof(unwind), .eh_frame_hdr_size = 4,
	};
	char *path = write_image(&f);
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Phdr ph;
	size_t shstrndx;
	int found = 0;

	(void)state;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(e);
	assert_int_equal(elf_getshdrstrndx(e, &shstrndx), 0);
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		gelf_getshdr(scn, &sh);
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!strcmp(name, ".eh_frame")) {
			assert_int_equal(sh.sh_addr, JIT_ELF_TEXT_OFFSET + 16);
			assert_int_equal(sh.sh_size, 20);
			found++;
		} else if (!strcmp(name, ".eh_frame_hdr")) {
			assert_int_equal(sh.sh_addr, JIT_ELF_TEXT_OFFSET + 36);
			assert_int_equal(sh.sh_size, 4);
			assert_int_equal(((uint8_t *)elf_getdata(scn, NULL)->d_buf)[0], 0xcc);
			found++;
		}
	}
	assert_int_equal(found, 2);
	assert_non_null(gelf_getphdr(e, 0, &ph));
	assert_int_equal(ph.p_vaddr, JIT_ELF_TEXT_OFFSET);
	assert_int_equal(ph.p_memsz, 16 + 24);
	elf_end(e);
	close(fd);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbol_and_lines),
		cmocka_unit_test(test_build_ids),
		cmocka_unit_test(test_unwinding_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
