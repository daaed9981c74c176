/* Unit tests for core/symbols/dwarf-aranges: the unit found for addresses
 * in, between, before and after the ranges of .debug_aranges is the one
 * libdwfl 0.188's dwfl_module_addrdie() finds, in this test's own DWARF
 * (the units of libpcl.a, gcc's DWARF 5) and libc's debug file when
 * installed (compressed sections, assembler units). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include <elfutils/libdwfl.h>

#include "core/symbols/dwarf-aranges.h"

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* Whether both lookups agree at DWARF address addr; counts the hits. */
static void same_unit(Dwfl_Module *mod, const struct dwarf_aranges *a, Dwarf_Addr bias,
		      Dwarf_Addr addr, size_t *found)
{
	Dwarf_Addr b;
	Dwarf_Die *want = dwfl_module_addrdie(mod, addr + bias, &b);
	Dwarf_Off got;
	bool hit = dwarf_aranges__find(a, addr, &got);

	if (hit != (want != NULL) || (hit && got != dwarf_dieoffset(want)))
		fail_msg("%#llx: libdwfl %s %#llx, dwarf-aranges %s %#llx",
			 (unsigned long long)addr, want ? "finds" : "finds no unit",
			 want ? (unsigned long long)dwarf_dieoffset(want) : 0ULL,
			 hit ? "finds" : "finds no unit", hit ? (unsigned long long)got : 0ULL);
	*found += hit;
}

/* Around every range of the file: both ends, the middle, the bytes
 * outside (a gap inside a unit's run, another unit, or nothing). */
static size_t check_file(const char *path)
{
	Dwfl *dwfl = dwfl_begin(&callbacks);
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	Dwarf_Aranges *ranges;
	size_t nr = 0, found = 0;
	struct dwarf_aranges *a;

	assert_non_null(dwfl);
	dwfl_report_begin(dwfl);
	mod = dwfl_report_offline(dwfl, "test", path, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	assert_non_null(mod);
	dw = dwfl_module_getdwarf(mod, &bias);
	assert_non_null(dw);
	a = dwarf_aranges__read(dw);
	assert_non_null(a);
	assert_int_equal(dwarf_getaranges(dw, &ranges, &nr), 0);
	assert_true(nr > 0);
	for (size_t i = 0; i < nr; i++) {
		Dwarf_Addr start, len;

		assert_int_equal(dwarf_getarangeinfo(dwarf_onearange(ranges, i), &start, &len,
						     NULL), 0);
		for (int d = -2; d <= 2; d++) {
			same_unit(mod, a, bias, start + (Dwarf_Addr)d, &found);
			same_unit(mod, a, bias, start + len + (Dwarf_Addr)d, &found);
		}
		same_unit(mod, a, bias, start + len / 2, &found);
	}
	same_unit(mod, a, bias, 0, &found);
	same_unit(mod, a, bias, (Dwarf_Addr)-1, &found);
	dwarf_aranges__delete(a);
	dwfl_end(dwfl);
	return found;
}

static void test_this_program(void **state)
{
	assert_true(check_file("/proc/self/exe") > 0);
}

static void test_libc_debug_file(void **state)
{
	Dwfl *dwfl = dwfl_begin(&callbacks);
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	const char *debug = NULL;

	assert_non_null(dwfl);
	dwfl_report_begin(dwfl);
	mod = dwfl_report_offline(dwfl, "libc", "/lib/x86_64-linux-gnu/libc.so.6", -1);
	dwfl_report_end(dwfl, NULL, NULL);
	if (mod && dwfl_module_getdwarf(mod, &bias))
		dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &debug);
	if (!debug || access(debug, R_OK)) {
		dwfl_end(dwfl);
		skip();
	}
	assert_true(check_file(debug) > 0);
	dwfl_end(dwfl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_this_program),
		cmocka_unit_test(test_libc_debug_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
