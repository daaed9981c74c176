/* unwind-dwarf: --call-graph dwarf samples unwound offline with libdw.
 *
 * A sample carries the user registers and a copy of the user stack from SP.
 * libdw's unwinder walks the CFI of the mapped ELF files; its memory reads
 * come from the stack copy, or, outside it, from the files themselves.  One
 * Dwfl per address space is kept while the maps do not change, with each
 * DSO reported to it the first time a frame lands in it (as perf does), so
 * CFI is parsed once per DSO.  Frames come out as perf prints them: the
 * first at IP, the callers at return address - 1, each expanded into its
 * inlined functions from DWARF.
 */
#include "core/symbols.h"
#include "util/util.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* perf's x86_64 register numbering in PERF_SAMPLE_REGS_USER */
enum {
	PERF_X86_AX, PERF_X86_BX, PERF_X86_CX, PERF_X86_DX, PERF_X86_SI, PERF_X86_DI,
	PERF_X86_BP, PERF_X86_SP, PERF_X86_IP, PERF_X86_FLAGS, PERF_X86_CS, PERF_X86_SS,
	PERF_X86_DS, PERF_X86_ES, PERF_X86_FS, PERF_X86_GS,
	PERF_X86_R8, PERF_X86_R9, PERF_X86_R10, PERF_X86_R11, PERF_X86_R12, PERF_X86_R13,
	PERF_X86_R14, PERF_X86_R15,
};

/* DWARF register order of x86_64 (0..16) in perf numbering. */
static const int dwarf_to_perf[17] = {
	PERF_X86_AX, PERF_X86_DX, PERF_X86_CX, PERF_X86_BX, PERF_X86_SI, PERF_X86_DI,
	PERF_X86_BP, PERF_X86_SP, PERF_X86_R8, PERF_X86_R9, PERF_X86_R10, PERF_X86_R11,
	PERF_X86_R12, PERF_X86_R13, PERF_X86_R14, PERF_X86_R15, PERF_X86_IP,
};

#define MAX_UNWIND 1024

struct unwind_space {
	Dwfl *dwfl;
	uint64_t generation;
	bool attached;
	struct u64map reported;		/* dso pointer -> dso */
	/* the sample being unwound */
	struct machine *machine;
	struct maps *maps;
	pid_t tid;
	uint64_t regs_mask;
	const uint64_t *regs;
	const uint8_t *stack;
	uint64_t stack_size, sp;
	uint64_t ips[MAX_UNWIND];
	int nr_ips, max_ips;
};

static bool sample_reg(const struct unwind_space *u, int idx, uint64_t *val)
{
	int pos;

	if (!(u->regs_mask & (1ULL << idx)))
		return false;
	pos = __builtin_popcountll(u->regs_mask & ((1ULL << idx) - 1));
	*val = u->regs[pos];
	return true;
}

static const Dwfl_Callbacks unwind_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
};

/* Reads a word of a mapped file: what the process saw at addr, as long as
 * the mapping was not written to. */
static bool read_from_dso(struct unwind_space *u, uint64_t addr, uint64_t *out)
{
	struct map *map = maps__find(u->maps, addr);

	return map && !map->identity && dso__read(map->dso, map__map_ip(map, addr), out, 8) == 8;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwind_space *u = arg;
	uint64_t v;

	if (addr + 8 < addr)
		return false;
	if (addr >= u->sp && addr + 8 <= u->sp + u->stack_size) {
		memcpy(&v, u->stack + (addr - u->sp), 8);
		*result = v;
		return true;
	}
	if (!read_from_dso(u, addr, &v))
		return false;
	*result = v;
	return true;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwind_space *u = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	struct unwind_space *u = arg;

	*thread_argp = u;
	return tid == u->tid;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwind_space *u = arg;
	Dwarf_Word regs[17];

	for (int i = 0; i < 17; i++) {
		uint64_t v = 0;

		sample_reg(u, dwarf_to_perf[i], &v);
		regs[i] = v;
	}
	return dwfl_thread_state_registers(thread, 0, 17, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* A file libdw can open for dso: its runtime image, or for the running
 * vdso a memfd holding the copy. */
static int dso__unwind_file(struct dso *dso, const char **path)
{
	struct dso_priv *p = dso__priv(dso);
	int fd;

	dso__load(dso);
	*path = p->elf_path;
	if (p->elf_path)
		return open(p->elf_path, O_RDONLY | O_CLOEXEC);
	if (!p->image)
		return -1;
	fd = memfd_create("pcl-vdso", MFD_CLOEXEC);
	if (fd >= 0 && write(fd, p->image, p->image_size) != (ssize_t)p->image_size) {
		close(fd);
		return -1;
	}
	*path = dso->long_name;
	return fd;
}

/* Tells libdw about the DSO mapped at pc, once. */
static void report_module(struct unwind_space *u, uint64_t pc)
{
	struct map *map;
	const char *path;
	int fd;

	if (dwfl_addrmodule(u->dwfl, pc))
		return;
	map = maps__find(u->maps, pc);
	if (!map || map->identity || u64map_get(&u->reported, (uintptr_t)map->dso))
		return;
	u64map_put(&u->reported, (uintptr_t)map->dso, map->dso);
	fd = dso__unwind_file(map->dso, &path);
	if (fd < 0)
		return;
	dwfl_report_begin_add(u->dwfl);
	/* libdw owns fd from here, failure or not. */
	dwfl_report_elf(u->dwfl, map->dso->short_name, path, fd, map->start - map->pgoff, false);
	dwfl_report_end(u->dwfl, NULL, NULL);
}

static int frame_callback(Dwfl_Frame *state, void *arg)
{
	struct unwind_space *u = arg;
	Dwarf_Addr pc;
	bool activation;

	/* Asking for activation unwinds this frame, which needs its module's
	 * CFI: report the module first or libdw falls back to frame pointers. */
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	report_module(u, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	u->ips[u->nr_ips++] = pc;
	return u->nr_ips >= u->max_ips ? DWARF_CB_ABORT : DWARF_CB_OK;
}

static void unwind_space__free(struct unwind_space *u)
{
	if (!u)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	u64map_release(&u->reported);
	free(u);
}

void maps__unwind_release(struct maps *maps)
{
	if (!maps)
		return;
	unwind_space__free(maps->unwind);
	maps->unwind = NULL;
}

static struct unwind_space *maps__unwind_space(struct maps *maps)
{
	struct unwind_space *u = maps->unwind;

	if (u && u->generation == maps->generation)
		return u;
	unwind_space__free(u);
	u = maps->unwind = xcalloc(1, sizeof(*u));
	u->generation = maps->generation;
	u->maps = maps;
	u->dwfl = dwfl_begin(&unwind_callbacks);
	return u;
}

/* Appends the frame for ip, expanded into its inlined functions. */
static int add_user_frame(struct machine *m, struct thread *thread, uint64_t ip,
			  struct callchain_frame *frames, int n, int max_frames)
{
	struct addr_location al;
	const struct inline_frame *inl;
	int nr_inl = 0;

	machine__lookup(m, thread, PERF_RECORD_MISC_USER, ip, &al);
	inl = al.sym ? dso__inlines(al.dso, al.addr, al.sym, &nr_inl) : NULL;
	if (!nr_inl) {
		if (n < max_frames) {
			frames[n].ip = ip;
			frames[n].al = al;
			frames[n].inlined = false;
			frames[n].srcline = NULL;
			n++;
		}
		return n;
	}
	for (int i = 0; i < nr_inl && n < max_frames; i++, n++) {
		frames[n].ip = ip;
		frames[n].al = al;
		frames[n].al.sym = inl[i].sym;
		frames[n].inlined = inl[i].inlined;
		frames[n].srcline = inl[i].srcline;
	}
	return n;
}

int machine__unwind(struct machine *m, struct thread *thread,
		    uint64_t regs_mask, const uint64_t *regs,
		    const uint8_t *stack, uint64_t stack_size, int max_stack,
		    struct callchain_frame *frames, int max_frames)
{
	struct maps *maps = thread ? thread__maps(thread) : NULL;
	struct unwind_space *u;
	uint64_t ip, sp;
	int n = 0;

	if (!maps || !regs || !stack_size || max_stack <= 0)
		return 0;
	u = maps__unwind_space(maps);
	u->machine = m;
	u->tid = thread->tid > 0 ? thread->tid : 1;
	u->regs_mask = regs_mask;
	u->regs = regs;
	u->stack = stack;
	u->stack_size = stack_size;
	u->nr_ips = 0;
	u->max_ips = max_stack < MAX_UNWIND ? max_stack : MAX_UNWIND;
	if (!sample_reg(u, PERF_X86_IP, &ip) || !sample_reg(u, PERF_X86_SP, &sp))
		return 0;
	u->sp = sp;
	if (u->dwfl) {
		report_module(u, ip);
		if (!u->attached)
			u->attached = dwfl_attach_state(u->dwfl, NULL, u->tid, &thread_callbacks, u);
		if (u->attached)
			dwfl_getthread_frames(u->dwfl, u->tid, frame_callback, u);
	}
	/* The sampled IP is a frame even when nothing could be unwound. */
	if (!u->nr_ips)
		u->ips[u->nr_ips++] = ip;
	for (int i = 0; i < u->nr_ips; i++)
		if (u->ips[i])
			n = add_user_frame(m, thread, u->ips[i], frames, n, max_frames);
	return n;
}
