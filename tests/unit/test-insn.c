/* Unit tests for core/insn: x86 instruction lengths (checked against
 * objdump on libc, libm, python and LLVM: same lengths). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/symbols/insn.h"

struct case_ {
	const char *hex;	/* the instruction, then bytes that follow it */
	int len;
};

static int decode(const char *hex, bool mode64)
{
	uint8_t buf[32];
	size_t n = 0;
	unsigned v;
	int off;

	while (n < sizeof(buf) && sscanf(hex, "%2x%n", &v, &off) == 1) {
		buf[n++] = (uint8_t)v;
		hex += off;
		while (*hex == ' ')
			hex++;
	}
	return x86_insn_len(buf, n, mode64);
}

static void check(const struct case_ *c, size_t nr, bool mode64)
{
	for (size_t i = 0; i < nr; i++) {
		int got = decode(c[i].hex, mode64);

		if (got != c[i].len)
			fail_msg("%s: length %d, want %d", c[i].hex, got, c[i].len);
	}
}

static void legacy_64(void **state)
{
	static const struct case_ cases[] = {
		{ "90 90", 1 },				/* nop */
		{ "c3 90", 1 },				/* ret */
		{ "55 48", 1 },				/* push %rbp */
		{ "48 89 e5 90", 3 },			/* mov %rsp,%rbp */
		{ "05 5f f3 6e 3c 83", 5 },		/* add $imm32,%eax */
		{ "83 c2 01 90", 3 },			/* add $1,%edx */
		{ "81 fe bb 00 00 00 90", 6 },		/* cmp $imm32,%esi */
		{ "66 90 90", 2 },			/* xchg %ax,%ax */
		{ "0f 8e 7d 01 00 00 90", 6 },		/* jle rel32 */
		{ "66 0f 1f 44 00 00 90", 6 },		/* nopw 0(%rax,%rax,1) */
		{ "48 b8 01 02 03 04 05 06 07 08 90", 10 },	/* movabs $imm64,%rax */
		{ "b8 01 02 03 04 90", 5 },		/* mov $imm32,%eax */
		{ "66 b8 01 02 90", 4 },		/* mov $imm16,%ax */
		{ "48 8b 05 10 20 30 40 90", 7 },	/* mov rip-relative */
		{ "8b 44 24 08 90", 4 },		/* mov 8(%rsp),%eax (SIB, disp8) */
		{ "8b 04 25 00 10 00 00 90", 7 },	/* SIB without base: disp32 */
		{ "f6 c2 01 90", 3 },			/* test $1,%dl */
		{ "f7 c2 01 00 00 00 90", 6 },		/* test $imm32,%edx */
		{ "f7 d8 90", 2 },			/* neg %eax: no immediate */
		{ "c8 10 00 01 90", 4 },		/* enter */
		{ "e8 00 00 00 00 90", 5 },		/* call rel32 */
		{ "66 e8 00 00 00 00 90", 6 },		/* 64-bit: rel32 despite 66 */
		{ "f3 0f 1e fa 90", 4 },		/* endbr64 */
		{ "f3 48 a5 90", 3 },			/* rep movsq */
		{ "a1 01 02 03 04 05 06 07 08 90", 9 },	/* movabs moffs64,%eax */
		{ "0f a4 c2 04 90", 4 },		/* shld $4 */
		{ "66 0f 3a 0f c1 08 90", 6 },		/* palignr $8 */
		{ "66 0f 38 00 c1 90", 5 },		/* pshufb */
		{ "0f 05 90", 2 },			/* syscall */
		{ "0f 28 c1 90", 3 },			/* movaps %xmm1,%xmm0 */
		{ "0f 31 90", 2 },			/* rdtsc */
		{ "9b df e0", 1 },			/* fwait, on its own */
		{ "9a 01 02 03 04 05 06", 1 },		/* invalid in 64-bit: perf says 1 */
	};

	(void)state;
	check(cases, sizeof(cases) / sizeof(cases[0]), true);
}

static void vex_evex_64(void **state)
{
	static const struct case_ cases[] = {
		{ "c5 f8 77 90", 3 },			/* vzeroupper */
		{ "c5 fb 93 c0 90", 4 },		/* kmovd %k0,%eax */
		{ "c5 fd 6f 0e 90", 4 },		/* vmovdqa (%rsi),%ymm1 */
		{ "c4 e3 7d 18 c1 01 90", 6 },		/* vinsertf128 $1 */
		{ "c4 e2 7d 00 c1 90", 5 },		/* vpshufb */
		{ "62 b2 75 20 26 d1 90", 6 },		/* vptestnmb %ymm17,%ymm17,%k2 */
		{ "62 f3 75 22 3f 0e 00 90", 7 },	/* vpcmpub $0,(%rsi),%ymm17,%k1{%k2} */
		{ "62 e1 fe 28 6f 4e 01 90", 7 },	/* vmovdqu64 0x20(%rsi),%ymm17 */
	};

	(void)state;
	check(cases, sizeof(cases) / sizeof(cases[0]), true);
}

static void mode_32(void **state)
{
	static const struct case_ cases[] = {
		{ "48 90", 1 },				/* dec %eax, not REX */
		{ "a1 01 02 03 04 90", 5 },		/* mov moffs32,%eax */
		{ "67 8b 46 08 90", 4 },		/* 16-bit addressing: disp8 */
		{ "67 8b 06 34 12 90", 5 },		/* 16-bit addressing: disp16 */
		{ "66 e8 00 00 90", 4 },		/* call rel16 */
		{ "c5 f8 77 90", 3 },			/* VEX: mod bits set */
		{ "c5 06 90", 2 },			/* lds: not VEX */
		{ "9a 01 02 03 04 05 06 90", 7 },	/* lcall ptr16:32 */
	};

	(void)state;
	check(cases, sizeof(cases) / sizeof(cases[0]), false);
}

static void short_buffers(void **state)
{
	(void)state;
	assert_int_equal(decode("", true), 0);
	assert_int_equal(decode("48", true), 0);
	assert_int_equal(decode("e8 00 00", true), 0);
	assert_int_equal(decode("8b 04", true), 0);
	assert_int_equal(decode("62 b2 75", true), 0);
	assert_int_equal(decode("66 66 66 66 66 66 66 66 66 66 66 66 66 66 66 90", true), 0);
}

static void branches(void **state)
{
	static const struct {
		const char *hex;
		bool branch;
	} cases[] = {
		{ "e8 00 00 00 00", true }, { "c3", true }, { "75 fe", true },
		{ "0f 85 00 01 00 00", true }, { "ff 25 00 00 00 00", true },	/* jmp *rip */
		{ "ff d0", true }, { "ff c0", false },				/* call *%rax, inc */
		{ "0f 05", true }, { "cc", true }, { "e2 fe", true },
		{ "48 89 e5", false }, { "90", false }, { "0f 1f 00", false },
		{ "c5 f8 77", false },						/* vzeroupper */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t buf[16];
		size_t n = 0;
		unsigned v;
		int off;

		for (const char *h = cases[i].hex; sscanf(h, "%2x%n", &v, &off) == 1; h += off)
			buf[n++] = (uint8_t)v;
		if (x86_insn_is_branch(buf, n, true) != cases[i].branch)
			fail_msg("%s: branch %d", cases[i].hex, !cases[i].branch);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(legacy_64),
		cmocka_unit_test(vex_evex_64),
		cmocka_unit_test(mode_32),
		cmocka_unit_test(short_buffers),
		cmocka_unit_test(branches),
	};
	return cmocka_run_group_tests_name("insn", tests, NULL, NULL);
}
