/* Unit tests for DWARF unwinding: the test captures its own registers and
 * stack the way the kernel does for PERF_SAMPLE_REGS_USER/STACK_USER, in
 * a known call chain, describes its own mappings from /proc/self/maps,
 * and expects the chain back from machine__unwind().
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/symbols/machine.h"

/* perf register numbers kept: AX..IP (0-8) and R8..R15 (16-23) */
#define REGS_MASK 0xff01ffULL
#define NREGS 17

struct capture {
	uint64_t regs[NREGS];	/* packed in bit order of REGS_MASK */
	uint8_t stack[32768];
	uint64_t stack_size;
};

static struct capture cap;

static uint64_t stack_end(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long start, end = 0;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &start, &end) == 2)
			break;
	if (f)
		fclose(f);
	return end;
}

/* Registers at the capture point, then the stack above SP, as the kernel
 * copies them for a sample (byte by byte: ASan must not see this read
 * across other frames' redzones). */
static __attribute__((noinline, no_sanitize("address"))) void capture_here(void)
{
	uint64_t raw[24], sp, top;
	int k = 0;

	__asm__ volatile(
		"mov %%rax, 0(%0)\n\t"
		"mov %%rbx, 8(%0)\n\t"
		"mov %%rcx, 16(%0)\n\t"
		"mov %%rdx, 24(%0)\n\t"
		"mov %%rsi, 32(%0)\n\t"
		"mov %%rdi, 40(%0)\n\t"
		"mov %%rbp, 48(%0)\n\t"
		"mov %%rsp, 56(%0)\n\t"
		"lea 0(%%rip), %%rax\n\t"
		"mov %%rax, 64(%0)\n\t"
		"mov %%r8, 128(%0)\n\t"
		"mov %%r9, 136(%0)\n\t"
		"mov %%r10, 144(%0)\n\t"
		"mov %%r11, 152(%0)\n\t"
		"mov %%r12, 160(%0)\n\t"
		"mov %%r13, 168(%0)\n\t"
		"mov %%r14, 176(%0)\n\t"
		"mov %%r15, 184(%0)\n\t"
		: : "r"(raw) : "rax", "memory");
	for (int i = 0; i < 24; i++)
		if (REGS_MASK & (1ULL << i))
			cap.regs[k++] = raw[i];
	sp = raw[7];
	top = stack_end();
	cap.stack_size = top > sp && top - sp < sizeof(cap.stack) ? top - sp : sizeof(cap.stack);
	for (uint64_t i = 0; i < cap.stack_size; i++)
		cap.stack[i] = ((const volatile uint8_t *)sp)[i];
}

static __attribute__((noinline)) int unwind_c(int x)
{
	capture_here();
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static __attribute__((noinline)) int unwind_b(int x)
{
	int r = unwind_c(x + 1);

	__asm__ volatile("" ::: "memory");
	return r * 2;
}

static __attribute__((noinline)) int unwind_a(int x)
{
	int r = unwind_b(x + 2);

	__asm__ volatile("" ::: "memory");
	return r * 3;
}

/* This process's file mappings as the loader made them, read once before
 * anything is unwound: libdw (and the DSO reads) map the files they open
 * into this very process, so a later /proc/self/maps also lists, say,
 * libc.so.6 or libcmocka read-only at pgoff 0 below where they were
 * loaded.  perf's unwinder takes the lowest map of a file as its base
 * (see test_unwind_lower_stale_mapping_hides_cfi) and would rightly find
 * no CFI there; a recorded process has no such maps. */
static struct self_map {
	unsigned long start, end, pgoff;
	bool exec;
	char path[512];
} self_maps[512];
static int nr_self_maps;

static void snapshot_self_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];

	while (f && fgets(line, sizeof(line), f) && nr_self_maps < 512) {
		struct self_map *sm = &self_maps[nr_self_maps];
		char perms[8];

		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %511s", &sm->start, &sm->end, perms,
			   &sm->pgoff, sm->path) < 5 || sm->path[0] != '/')
			continue;
		sm->exec = perms[2] == 'x';
		nr_self_maps++;
	}
	if (f)
		fclose(f);
}

/* This process's file mappings, as the MMAP2 records of a --call-graph
 * dwarf recording give them (perf's unwinder needs the whole file's). */
static struct machine *self_machine(struct thread **t)
{
	struct machine *m = machine__new();
	pid_t pid = getpid();

	for (int i = 0; i < nr_self_maps; i++) {
		const struct self_map *sm = &self_maps[i];

		machine__process_mmap2(m, pid, pid, sm->start, sm->end - sm->start, sm->pgoff,
				       sm->path, PERF_RECORD_MISC_USER, NULL, 0,
				       PROT_READ | (sm->exec ? PROT_EXEC : 0), MAP_PRIVATE);
	}
	*t = machine__findnew_thread(m, pid, pid);
	return m;
}

static void test_unwind_own_stack(void **state)
{
	static struct callchain_frame frames[256];
	const char *want[] = { "capture_here", "unwind_c", "unwind_b", "unwind_a",
			       "test_unwind_own_stack" };
	struct thread *t;
	struct machine *m;
	int n;

	assert_int_equal(unwind_a(1), 30);
	m = self_machine(&t);
	n = machine__unwind(m, t, REGS_MASK, cap.regs, cap.stack, cap.stack_size, 127,
			    frames, 256);
	assert_true(n >= 5);
	for (int i = 0; i < 5; i++) {
		assert_non_null(frames[i].al.sym);
		struct symbol *elf = dso__find_symbol(frames[i].al.dso, frames[i].al.addr);

		assert_string_equal(frames[i].al.sym->name, want[i]);
		/* gcc may clone (unwind_c.constprop.0): perf then shows the
		 * DWARF name, marked inlined. */
		assert_int_equal(frames[i].inlined, strcmp(elf->name, want[i]) != 0);
	}
	/* The first frame is the IP itself, callers are return address - 1. */
	assert_int_equal(frames[0].ip, cap.regs[8]);
	assert_true(frames[1].al.addr > frames[1].al.sym->start);
	assert_true(frames[1].al.addr < frames[1].al.sym->end);

	/* max_stack bounds the frames unwound; the Dwfl is reused. */
	assert_int_equal(machine__unwind(m, t, REGS_MASK, cap.regs, cap.stack, cap.stack_size,
					 2, frames, 256), 2);
	assert_string_equal(frames[1].al.sym->name, "unwind_c");

	/* Nothing to unwind without a stack. */
	assert_int_equal(machine__unwind(m, t, REGS_MASK, cap.regs, cap.stack, 0, 127,
					 frames, 256), 0);
	machine__delete(m);
}

static bool captured_in_compare;

static int compare_and_capture(const void *a, const void *b)
{
	if (!captured_in_compare) {
		captured_in_compare = true;
		capture_here();
	}
	return *(const int *)a - *(const int *)b;
}

/* Frames in another DSO (libc's qsort, built without frame pointers, or
 * ASan's interceptor of it) are unwound through its CFI back into ours. */
static void test_unwind_through_libc(void **state)
{
	static struct callchain_frame frames[256];
	int values[] = { 3, 1, 2 };
	struct thread *t;
	struct machine *m;
	int n, dso_frames = 0, caller = -1;

	captured_in_compare = false;
	qsort(values, 3, sizeof(values[0]), compare_and_capture);
	assert_true(captured_in_compare);
	m = self_machine(&t);
	n = machine__unwind(m, t, REGS_MASK, cap.regs, cap.stack, cap.stack_size, 127,
			    frames, 256);
	assert_true(n >= 4);
	assert_string_equal(frames[1].al.sym->name, "compare_and_capture");
	for (int i = 2; i < n && caller < 0; i++) {
		assert_non_null(frames[i].al.dso);
		if (frames[i].al.dso != frames[1].al.dso)
			dso_frames++;
		else if (frames[i].al.sym && !strcmp(frames[i].al.sym->name, "test_unwind_through_libc"))
			caller = i;
	}
	/* libc's qsort, or ASan's interceptor of it */
	assert_true(dso_frames > 0);
	assert_int_equal(caller, 2 + dso_frames);
	machine__delete(m);
}

/* Where in the stack copy the return address of frame i lies, or -1. */
static long ra_offset(const struct callchain_frame *frames, int i)
{
	uint64_t ra = frames[i].ip + 1;

	for (uint64_t off = 0; off + 8 <= cap.stack_size; off += 8)
		if (!memcmp(cap.stack + off, &ra, 8))
			return (long)off;
	return -1;
}

static int count_real_frames(const struct callchain_frame *frames, int n, uint64_t ip)
{
	int k = 0;

	while (k < n && frames[k].ip != ip)
		k++;
	return k;
}

/* Only the address spaces unwound in last keep their Dwfl (and its file
 * mappings): one unwound in again after a dozen others gets a new one and
 * the same frames; spaces are freed with their machines, live or not. */
static void test_unwind_in_many_spaces(void **state)
{
	static struct callchain_frame first[256], again[256];
	struct machine *m[12];
	struct thread *t[12];
	int values[] = { 3, 1, 2 };
	int n = 0;

	captured_in_compare = false;
	qsort(values, 3, sizeof(values[0]), compare_and_capture);
	assert_true(captured_in_compare);
	for (int i = 0; i < 12; i++) {
		m[i] = self_machine(&t[i]);
		if (!i)
			n = machine__unwind(m[i], t[i], REGS_MASK, cap.regs, cap.stack,
					    cap.stack_size, 127, first, 256);
		else
			assert_int_equal(machine__unwind(m[i], t[i], REGS_MASK, cap.regs,
							 cap.stack, cap.stack_size, 127, again,
							 256), n);
	}
	assert_true(n >= 4);
	assert_int_equal(machine__unwind(m[0], t[0], REGS_MASK, cap.regs, cap.stack,
					 cap.stack_size, 127, again, 256), n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(again[i].ip, first[i].ip);
		assert_ptr_equal(again[i].al.sym, first[i].al.sym);
	}
	for (int i = 0; i < 12; i++)
		machine__delete(m[(i * 5) % 12]);
}

/* perf 6.1's unwinder reads memory its own way, which decides where its
 * stacks end: the stack copy's last word is not taken from the copy, a
 * word of a map with no data behind it ([stack] beyond the copy) reads as
 * 0, which as a return address is one last frame at -1, and a word in no
 * map at all is a failed read that ends the stack. */
static void test_unwind_ends_like_perf(void **state)
{
	static struct callchain_frame frames[256];
	struct thread *t;
	struct machine *m;
	long off;
	int n, c;

	assert_int_equal(unwind_a(1), 30);
	m = self_machine(&t);
	n = machine__unwind(m, t, REGS_MASK, cap.regs, cap.stack, cap.stack_size, 127,
			    frames, 256);
	/* unwind_c (maybe expanded into inlined frames) returns into unwind_b */
	c = 1;
	while (c < n && frames[c].ip == frames[1].ip)
		c++;
	assert_true(c < n);
	off = ra_offset(frames, c);
	assert_true(off >= 0);

	/* The return address is the copy's last word, no map holds it: the
	 * read fails, the stack ends at unwind_c. */
	n = machine__unwind(m, t, REGS_MASK, cap.regs, cap.stack, (uint64_t)off + 8, 127,
			    frames, 256);
	assert_int_equal(n, c);

	/* With the stack's mapping known, the same word reads as 0: a last
	 * frame at -1 follows. */
	machine__process_mmap2(m, getpid(), getpid(), cap.regs[7] & ~4095ULL, 1 << 20, 0,
			       "[stack]", PERF_RECORD_MISC_USER, NULL, 0,
			       PROT_READ | PROT_WRITE, MAP_PRIVATE);
	n = machine__unwind(m, t, REGS_MASK, cap.regs, cap.stack, (uint64_t)off + 8, 127,
			    frames, 256);
	assert_int_equal(n, c + 1);
	assert_true(frames[c].ip == UINT64_MAX);
	assert_null(frames[c].al.sym);

	/* A byte more and the copy holds it: unwind_b is there, and its own
	 * return address beyond the copy reads as 0 again. */
	n = machine__unwind(m, t, REGS_MASK, cap.regs, cap.stack, (uint64_t)off + 9, 127,
			    frames, 256);
	assert_true(n > c + 1);
	assert_string_equal(frames[c].al.sym->name, "unwind_b");
	assert_int_equal(count_real_frames(frames, n, UINT64_MAX), n - 1);
	machine__delete(m);
}

/* The path of the file mapped at addr in this process. */
static bool mapped_path(uint64_t addr, char *path, size_t size)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024], p[512];
	unsigned long start, end;
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %511s", &start, &end, p) == 3 &&
		    addr >= start && addr < end) {
			snprintf(path, size, "%s", p);
			found = true;
		}
	if (f)
		fclose(f);
	return found;
}

/* perf looks for a DSO's .eh_frame_hdr at the lowest of its maps in the
 * thread (a process that exec'd keeps its parent's in perf): an older
 * mapping of the same file below the live one hides the CFI. */
static void test_unwind_lower_stale_mapping_hides_cfi(void **state)
{
	static struct callchain_frame frames[256];
	static uint8_t stack[32768];
	uint64_t regs[NREGS], ra;
	char path[512];
	struct thread *t;
	struct machine *m;
	int n;

	assert_int_equal(unwind_a(1), 30);
	m = self_machine(&t);
	n = machine__unwind(m, t, REGS_MASK, cap.regs, cap.stack, cap.stack_size, 127,
			    frames, 256);
	assert_true(n >= 5);
	ra = frames[3].ip + 1;		/* into unwind_a */
	assert_true(mapped_path(cap.regs[8], path, sizeof(path)));

	/* a stale page of the file, too small to hold the table: the lookup
	 * fails and the stack ends at the sampled IP */
	machine__process_mmap2(m, getpid(), getpid(), 0x100000, 0x1000, 0, path,
			       PERF_RECORD_MISC_USER, NULL, 0, PROT_READ, MAP_PRIVATE);
	n = machine__unwind(m, t, REGS_MASK, cap.regs, cap.stack, cap.stack_size, 127,
			    frames, 256);
	assert_int_equal(count_real_frames(frames, n, UINT64_MAX), 1);
	assert_int_equal(frames[0].ip, cap.regs[8]);

	/* a stale mapping of the whole file: no CFI found, so the frame
	 * pointer is followed: RBP 64 bytes above SP, saved RBP 0 there and
	 * the return address into unwind_a next to it; unwind_a then has no
	 * CFI either and its RBP (0) ends the stack */
	machine__process_mmap2(m, getpid(), getpid(), 0x100000, 64 << 20, 0, path,
			       PERF_RECORD_MISC_USER, NULL, 0, PROT_READ, MAP_PRIVATE);
	memcpy(regs, cap.regs, sizeof(regs));
	memset(stack, 0, sizeof(stack));
	regs[6] = regs[7] + 64;
	memcpy(stack + 72, &ra, 8);
	n = machine__unwind(m, t, REGS_MASK, regs, stack, 4096, 127, frames, 256);
	assert_int_equal(count_real_frames(frames, n, UINT64_MAX), n);
	assert_true(n >= 2);
	assert_int_equal(frames[0].ip, regs[8]);
	assert_int_equal(frames[n - 1].ip, ra - 1);
	assert_string_equal(frames[n - 1].al.sym->name, "unwind_a");

	/* a frame pointer below the CFA (SP) is not followed */
	regs[6] = regs[7] - 64;
	n = machine__unwind(m, t, REGS_MASK, regs, stack, 4096, 127, frames, 256);
	assert_int_equal(n, 1);
	/* nor one more than 16 KB above it */
	regs[6] = regs[7] + 0x4008;
	n = machine__unwind(m, t, REGS_MASK, regs, stack, 32768, 127, frames, 256);
	assert_int_equal(n, 1);
	machine__delete(m);
}

static uint64_t interrupted_ip;

static void capture_in_handler(int sig, siginfo_t *si, void *ctx)
{
	interrupted_ip = (uint64_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
	capture_here();
}

/* Through a signal frame: perf gives the return address into the signal
 * trampoline less 1, like any caller, but the interrupted frame's address
 * exactly (its CFI is looked up there too). */
static void test_unwind_through_signal_frame(void **state)
{
	static struct callchain_frame frames[256];
	struct sigaction sa = { .sa_sigaction = capture_in_handler, .sa_flags = SA_SIGINFO };
	struct sigaction old;
	struct thread *t;
	struct machine *m;
	int n, k;

	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
	raise(SIGUSR1);
	assert_int_equal(sigaction(SIGUSR1, NULL, &old), 0);
	signal(SIGUSR1, SIG_DFL);
	m = self_machine(&t);
	n = machine__unwind(m, t, REGS_MASK, cap.regs, cap.stack, cap.stack_size, 127,
			    frames, 256);
	for (k = 0; k < n && frames[k].ip + 1 != (uint64_t)(uintptr_t)old.sa_restorer; k++)
		;
	assert_true(k + 1 < n);
	assert_int_equal(frames[k + 1].ip, interrupted_ip);
	machine__delete(m);
}

/* A capture in assembly whose CFI mentions nothing but the CFA, called
 * from a frame whose CFA is %rbx-based (like glibc's lazy binding
 * trampoline): regs in perf's order AX..R15 and IP, 4 KB of stack. */
__attribute__((visibility("hidden"))) uint64_t asm_regs[24];
__attribute__((visibility("hidden"))) uint8_t asm_stack[4096];
void asm_capture(void);
void rbx_frame(void);
__asm__(".text\n"
	".globl asm_capture\n"
	".type asm_capture, @function\n"
	"asm_capture:\n"
	"\t.cfi_startproc\n"
	"\tmovq %rax, asm_regs+0(%rip)\n"
	"\tmovq %rbx, asm_regs+8(%rip)\n"
	"\tmovq %rcx, asm_regs+16(%rip)\n"
	"\tmovq %rdx, asm_regs+24(%rip)\n"
	"\tmovq %rsi, asm_regs+32(%rip)\n"
	"\tmovq %rdi, asm_regs+40(%rip)\n"
	"\tmovq %rbp, asm_regs+48(%rip)\n"
	"\tmovq %rsp, asm_regs+56(%rip)\n"
	"\tleaq asm_capture(%rip), %rax\n"
	"\tmovq %rax, asm_regs+64(%rip)\n"
	"\tmovq %r8, asm_regs+128(%rip)\n"
	"\tmovq %r9, asm_regs+136(%rip)\n"
	"\tmovq %r10, asm_regs+144(%rip)\n"
	"\tmovq %r11, asm_regs+152(%rip)\n"
	"\tmovq %r12, asm_regs+160(%rip)\n"
	"\tmovq %r13, asm_regs+168(%rip)\n"
	"\tmovq %r14, asm_regs+176(%rip)\n"
	"\tmovq %r15, asm_regs+184(%rip)\n"
	"\tmovq %rsp, %rsi\n"
	"\tleaq asm_stack(%rip), %rdi\n"
	"\tmovl $4096, %ecx\n"
	"\trep movsb\n"
	"\tret\n"
	"\t.cfi_endproc\n"
	".size asm_capture, .-asm_capture\n"
	".globl rbx_frame\n"
	".type rbx_frame, @function\n"
	"rbx_frame:\n"
	"\t.cfi_startproc\n"
	"\tpushq %rbx\n"
	"\t.cfi_adjust_cfa_offset 8\n"
	"\t.cfi_rel_offset %rbx, 0\n"
	"\tmovq %rsp, %rbx\n"
	"\t.cfi_def_cfa_register %rbx\n"
	"\tandq $-64, %rsp\n"
	"\tcall asm_capture\n"
	"\tmovq %rbx, %rsp\n"
	"\t.cfi_def_cfa_register %rsp\n"
	"\tpopq %rbx\n"
	"\t.cfi_adjust_cfa_offset -8\n"
	"\t.cfi_restore %rbx\n"
	"\tret\n"
	"\t.cfi_endproc\n"
	".size rbx_frame, .-rbx_frame\n");

/* A register the CFI does not mention keeps its value in the caller, as
 * libunwind has it (libdw's x86_64 defaults take %rbx as undefined). */
static __attribute__((noinline)) void test_unwind_unmentioned_register_is_kept(void **state)
{
	static struct callchain_frame frames[256];
	uint64_t regs[NREGS];
	struct thread *t;
	struct machine *m;
	int n, k = 0;

	rbx_frame();
	__asm__ volatile("" ::: "memory");
	for (int i = 0; i < 24; i++)
		if (REGS_MASK & (1ULL << i))
			regs[k++] = asm_regs[i];
	m = self_machine(&t);
	n = machine__unwind(m, t, REGS_MASK, regs, asm_stack, sizeof(asm_stack), 127,
			    frames, 256);
	assert_true(n >= 3);
	assert_string_equal(frames[0].al.sym->name, "asm_capture");
	assert_string_equal(frames[1].al.sym->name, "rbx_frame");
	assert_string_equal(frames[2].al.sym->name, "test_unwind_unmentioned_register_is_kept");
	machine__delete(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unwind_own_stack),
		cmocka_unit_test(test_unwind_through_libc),
		cmocka_unit_test(test_unwind_in_many_spaces),
		cmocka_unit_test(test_unwind_ends_like_perf),
		cmocka_unit_test(test_unwind_lower_stale_mapping_hides_cfi),
		cmocka_unit_test(test_unwind_through_signal_frame),
		cmocka_unit_test(test_unwind_unmentioned_register_is_kept),
	};

	snapshot_self_maps();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
