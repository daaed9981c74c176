/* Unit tests for core/symbols/sdt-notes: SDT argument strings in tracefs's
 * words, as perf 6.1 writes them into the probes file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "core/symbols/sdt-notes.h"

static void assert_fetch(const char *arg, const char *fetch)
{
	char *s = sdt_notes__fetch_arg(arg);

	if (!fetch) {
		assert_null(s);
		return;
	}
	assert_non_null(s);
	assert_string_equal(s, fetch);
	free(s);
}

static void test_registers(void **state)
{
	assert_fetch("8@%rbx", "%bx:u64");
	assert_fetch("-8@%r12", "%r12:s64");
	assert_fetch("-4@%ebp", "%bp:s32");
	assert_fetch("-4@%eax", "%ax:s32");
	assert_fetch("8@%rsp", "%sp:u64");
	assert_fetch("4@%r8d", "%r8:u32");
	assert_fetch("2@%r10w", "%r10:u16");
}

static void test_memory(void **state)
{
	assert_fetch("-4@112(%rsp)", "+112(%sp):s32");
	assert_fetch("8@-80(%rbx)", "-80(%bx):u64");
	assert_fetch("8@(%rax)", "+0(%ax):u64");
}

static void test_skipped(void **state)
{
	assert_fetch("-4@$-1", NULL);
	assert_fetch("%rax", NULL);
	assert_fetch("8@foo(%rip)", NULL);
}

static void test_no_markers(void **state)
{
	assert_null(sdt_notes__probes_text("/nonexistent"));
	assert_null(sdt_notes__probes_text("/proc/self/exe"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registers),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_skipped),
		cmocka_unit_test(test_no_markers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
