/* Unit tests for vmlinux.c: the kernel's symbols from a vmlinux image,
 * linked here with as and ld (tests run with binutils, as make check
 * installs it).  Which symbols count, where they land, relocation by the
 * recorded _text, the build-id check and the order of perf's sources.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <unistd.h>

#include "core/symbols/kernel-maps.h"
#include "core/symbols/symbols-int.h"

#define KERNEL PERF_RECORD_MISC_KERNEL
#define TEXT 0xffffffff81000000ULL
#define INIT 0xffffffff82000000ULL

static const uint8_t image_id[20] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23,
				      0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67 };
static const uint8_t other_id[20] = { 0xee };

/* .text: _text (a label), sized_fn (0x40 bytes), sizeless_fn (to the next
 * symbol), text_label (NOTYPE, kept in text), data_label (NOTYPE in .data:
 * dropped); .data: an object; .init.text: a section of its own. */
static const char image_asm[] =
	".section .text,\"ax\",@progbits\n"
	".globl _text\n_text:\n"
	".org 0x100\n.globl sized_fn\n.type sized_fn,@function\n.size sized_fn,0x40\nsized_fn:\n"
	".org 0x200\n.type sizeless_fn,@function\nsizeless_fn:\n"
	".org 0x300\ntext_label:\n"
	".org 0x400\n.type last_fn,@function\n.size last_fn,0x10\nlast_fn:\n.org 0x1000\n"
	".section .data,\"aw\",@progbits\n.type an_object,@object\n.size an_object,8\n"
	"an_object:\n.quad 0\ndata_label:\n.quad 0\n"
	".section .init.text,\"ax\",@progbits\n.type init_fn,@function\n.size init_fn,0x20\n"
	"init_fn:\n.zero 0x40\n";

static char dir[] = "/tmp/pcl-vmlinux-XXXXXX";
static char image[256], stripped[256], not_elf[256];

static int link_images(void **state)
{
	char cmd[2048];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(image, sizeof(image), "%s/vmlinux", dir);
	snprintf(stripped, sizeof(stripped), "%s/vmlinux-stripped", dir);
	snprintf(not_elf, sizeof(not_elf), "%s/kallsyms", dir);
	snprintf(cmd, sizeof(cmd), "%s/v.s", dir);
	f = fopen(cmd, "w");
	assert_non_null(f);
	fputs(image_asm, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "as -o %1$s/v.o %1$s/v.s && ld -o %2$s -e _text -Ttext=%3$#llx "
		 "--section-start=.init.text=%4$#llx --build-id=0x0123456789abcdef0123456789abcdef"
		 "01234567 %1$s/v.o && strip -o %5$s %2$s",
		 dir, image, TEXT, INIT, stripped);
	assert_int_equal(system(cmd), 0);
	/* kallsyms naming other symbols: shows which source was read */
	f = fopen(not_elf, "w");
	assert_non_null(f);
	fprintf(f, "%llx T _text\n%llx T from_kallsyms\n", TEXT, TEXT + 0x100);
	fclose(f);
	return 0;
}

static int remove_images(void **state)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

/* A machine that recorded the kernel at text (its _text there) with id. */
static struct machine *kernel_machine(uint64_t text, const uint8_t *id, const char *vmlinux)
{
	struct machine *m = machine__new();

	machine__symbols_config(m)->vmlinux = vmlinux;
	/* no build-id cache or vmlinux path of the machine running the tests */
	machine__symbols_config(m)->buildid_dir = dir;
	machine__process_mmap(m, -1, 0, text, 0x1000, text, "[kernel.kallsyms]_text", KERNEL,
			      id, id ? 20 : 0);
	return m;
}

static bool kresolve(struct machine *m, uint64_t ip, struct addr_location *al)
{
	return machine__resolve(m, machine__findnew_thread(m, 0, 0), KERNEL, ip, al) && al->sym;
}

static void check_layout(struct machine *m, uint64_t text)
{
	uint64_t init = INIT - TEXT + text;
	struct addr_location al;

	assert_true(kresolve(m, text + 0x110, &al));
	assert_string_equal(al.sym->name, "sized_fn");
	assert_int_equal(al.addr - al.sym->start, 0x10);
	assert_string_equal(al.dso->short_name, "[kernel.kallsyms]");
	/* past a sized symbol: nothing */
	assert_false(kresolve(m, text + 0x150, &al));
	/* a size-less symbol reaches the next one, a label counts in text */
	assert_true(kresolve(m, text + 0x2f0, &al));
	assert_string_equal(al.sym->name, "sizeless_fn");
	assert_true(kresolve(m, text + 0x308, &al));
	assert_string_equal(al.sym->name, "text_label");
	/* file offsets inside the DSO, the recorded address shown by report */
	assert_int_equal(dso__shown_addr(al.dso, al.addr), text + 0x308);
	assert_int_equal(dso__symtab_origin(al.dso), 'v');
	assert_string_equal(dso__shown_long_name(al.dso), image);
	/* .init.text: a map and DSO of its own, named after the section */
	assert_true(kresolve(m, init + 0x8, &al));
	assert_string_equal(al.sym->name, "init_fn");
	assert_string_equal(al.dso->short_name, "[kernel.kallsyms].init.text");
	assert_int_equal(al.addr - al.sym->start, 8);
}

static void test_symbols_where_perf_puts_them(void **state)
{
	struct machine *m = kernel_machine(TEXT, image_id, image);

	check_layout(m, TEXT);
	machine__delete(m);
}

/* Recorded at another KASLR offset: _text in the record moves every map. */
static void test_relocated_by_recorded_text(void **state)
{
	struct machine *m = kernel_machine(TEXT + 0x3000000, image_id, image);

	check_layout(m, TEXT + 0x3000000);
	machine__delete(m);
}

static void test_symbols_kept(void **state)
{
	struct machine *m = kernel_machine(TEXT, NULL, image);
	const struct symbol *syms;
	bool seen_object = false;
	size_t nr;

	dso__load(machine__kernel_dso(m));
	nr = dso__symbols(machine__kernel_dso(m), &syms);
	/* _text, sized_fn, sizeless_fn, text_label, last_fn; the object and
	 * init_fn went to their sections' DSOs, data_label to none */
	assert_int_equal(nr, 5);
	for (size_t i = 0; i < nr; i++)
		seen_object |= !strcmp(syms[i].name, "an_object");
	assert_false(seen_object);
	machine__delete(m);
}

/* An image of another build id, or none usable: -k means that file only,
 * so the kernel's samples stay unresolved. */
static void test_refused_images(void **state)
{
	const char *const refused[] = { image, stripped, not_elf };
	struct addr_location al;

	for (size_t i = 0; i < 3; i++) {
		struct machine *m = kernel_machine(TEXT, i ? image_id : other_id, refused[i]);

		assert_false(kresolve(m, TEXT + 0x110, &al));
		assert_int_equal(dso__symtab_origin(machine__kernel_dso(m)), 'k');
		assert_true(dso__load_vmlinux(machine__kernel_dso(m), refused[i],
					      machine__symbols_config(m)) < 0);
		machine__delete(m);
	}
}

static void test_kallsyms_and_ignore_vmlinux_win(void **state)
{
	char cmd[1024];
	struct addr_location al;
	struct machine *m = kernel_machine(TEXT, image_id, image);

	machine__symbols_config(m)->kallsyms = not_elf;
	assert_true(kresolve(m, TEXT + 0x110, &al));
	assert_string_equal(al.sym->name, "from_kallsyms");
	machine__delete(m);

	/* --ignore-vmlinux: -k is passed over for the recorded kallsyms copy */
	snprintf(cmd, sizeof(cmd), "mkdir -p '%1$s/[kernel.kallsyms]/0123456789abcdef0123456789abcdef"
		 "01234567' && cp %2$s '%1$s/[kernel.kallsyms]/0123456789abcdef0123456789abcdef"
		 "01234567/kallsyms'", dir, not_elf);
	assert_int_equal(system(cmd), 0);
	m = kernel_machine(TEXT, image_id, image);
	machine__symbols_config(m)->ignore_vmlinux = true;
	assert_true(kresolve(m, TEXT + 0x110, &al));
	assert_string_equal(al.sym->name, "from_kallsyms");
	machine__delete(m);
	m = kernel_machine(TEXT, image_id, image);
	assert_true(kresolve(m, TEXT + 0x110, &al));
	assert_string_equal(al.sym->name, "sized_fn");
	machine__delete(m);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/[kernel.kallsyms]'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Without -k the build-id cache's image of the recorded kernel comes first. */
static void test_build_id_cache_image(void **state)
{
	char cmd[1024];
	struct addr_location al;
	struct machine *m = kernel_machine(TEXT, image_id, NULL);

	snprintf(cmd, sizeof(cmd), "mkdir -p %1$s/.build-id/01/23456789abcdef0123456789abcdef01234567"
		 " && cp %2$s %1$s/.build-id/01/23456789abcdef0123456789abcdef01234567/elf",
		 dir, image);
	assert_int_equal(system(cmd), 0);
	assert_true(kresolve(m, TEXT + 0x110, &al));
	assert_string_equal(al.sym->name, "sized_fn");
	assert_int_equal(dso__symtab_origin(al.dso), 'v');
	machine__delete(m);
	snprintf(cmd, sizeof(cmd), "rm -rf %s/.build-id", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_record_names_kernel_after_vmlinux(void **state)
{
	char *name = running_kernel__vmlinux("some/vmlinux");

	assert_string_equal(name, "some/vmlinux");
	free(name);
}

static void test_unreadable_files(void **state)
{
	assert_null(symbol_files__unreadable(image, not_elf));
	assert_null(symbol_files__unreadable(NULL, NULL));
	assert_string_equal(symbol_files__unreadable("/no/such/vmlinux", not_elf),
			    "/no/such/vmlinux");
	assert_string_equal(symbol_files__unreadable(image, "/no/such/kallsyms"),
			    "/no/such/kallsyms");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbols_where_perf_puts_them),
		cmocka_unit_test(test_relocated_by_recorded_text),
		cmocka_unit_test(test_symbols_kept),
		cmocka_unit_test(test_refused_images),
		cmocka_unit_test(test_kallsyms_and_ignore_vmlinux_win),
		cmocka_unit_test(test_build_id_cache_image),
		cmocka_unit_test(test_record_names_kernel_after_vmlinux),
		cmocka_unit_test(test_unreadable_files),
	};

	return cmocka_run_group_tests(tests, link_images, remove_images);
}
