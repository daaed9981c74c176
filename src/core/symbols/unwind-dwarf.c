/* unwind-dwarf: --call-graph dwarf samples unwound offline, as perf 6.1
 * (Debian's, built with libunwind) unwinds them, on libdw's CFI.
 *
 * A sample carries the user registers and a copy of the user stack from SP.
 * Each step finds the CFI of the mapped ELF file with libdw and applies it
 * the way libunwind does (see "perf's unwinder, step by step" below); its
 * memory reads come from the stack copy, or, outside it, from the mapped
 * files, with perf's rules.  One Dwfl per address space is kept while the
 * maps do not change, with each DSO reported to it the first time a frame
 * lands in it, so CFI is parsed once per DSO.  Frames come out as perf
 * prints them: the first at IP, the callers at return address - 1, each
 * expanded into its inlined functions from DWARF (unless --no-inline).
 */
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
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
	Dwfl *dwfl;		/* NULL while evicted (see live_spaces) */
	uint64_t generation;
	uint64_t last_use;
	struct hashmap reported;		/* load bias + 1 -> dso reported there */
	struct hashmap perf_bias;	/* dso pointer -> perf's bias for it + 1 */
	struct dso_elf_info *elf_infos;	/* per DSO met, read once */
	size_t nr_elf_infos, alloc_elf_infos;
	/* the sample being unwound */
	struct machine *machine;
	struct maps *maps;
	uint64_t regs_mask;
	const uint64_t *regs;
	const uint8_t *stack;
	uint64_t stack_size, sp;
	uint64_t ips[MAX_UNWIND];
	int nr_ips, max_ips;
};

/* What perf's unwinder takes from a DSO's ELF headers. */
struct dso_elf_info {
	struct dso *dso;
	bool has_eh_frame_hdr;
	uint64_t eh_frame_hdr;		/* its address in the file's vaddrs */
	uint64_t elf_base;		/* first program header's vaddr, page down */
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

/* Reads a word of the file mapped at addr: what the process saw there, as
 * long as the mapping was not written to.  False when the file cannot be
 * read at that offset (no file behind the map, or past its end). */
static bool read_from_map(struct map *map, uint64_t addr, uint64_t *out)
{
	return !map->identity && dso__read(map->dso, map__map_ip(map, addr), out, 8) == 8;
}

/*
 * A word of the sampled process's memory, as perf 6.1's unwinder reads it
 * (these rules decide where its stacks end):
 *  - from the stack copy, except its last word: the copy is used only when
 *    the whole word ends before the copy's last byte;
 *  - else from the file of the map holding addr; addr in no map at all is
 *    a failed read (the unwinding stops there);
 *  - a map whose file cannot be read there ([stack] beyond the copy, heap,
 *    anonymous memory, past the file's end) reads as 0, successfully: a
 *    return address found so ends the stack with a frame at 0 - 1.
 */
static bool memory_read(struct unwind_space *u, uint64_t addr, uint64_t *result)
{
	struct map *map;
	uint64_t v;

	if (addr + 8 < addr)
		return false;
	if (addr >= u->sp && addr + 8 < u->sp + u->stack_size) {
		memcpy(&v, u->stack + (addr - u->sp), 8);
		*result = v;
		return true;
	}
	map = maps__find(u->maps, addr);
	if (!map)
		return false;
	if (!read_from_map(map, addr, &v))
		v = 0;
	*result = v;
	return true;
}

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

/* Tells libdw about the DSO mapped at pc, once per load address. */
static void report_module(struct unwind_space *u, uint64_t pc)
{
	struct map *map;
	const char *path;
	int fd;

	if (dwfl_addrmodule(u->dwfl, pc))
		return;
	map = maps__find(u->maps, pc);
	if (!map || map->identity || hashmap_u64_get(&u->reported, map->start - map->pgoff + 1))
		return;
	hashmap_u64_put(&u->reported, map->start - map->pgoff + 1, map->dso);
	fd = dso__unwind_file(map->dso, &path);
	if (fd < 0)
		return;
	dwfl_report_begin_add(u->dwfl);
	/* libdw owns fd from here, failure or not. */
	dwfl_report_elf(u->dwfl, map->dso->short_name, path, fd, map->start - map->pgoff, false);
	dwfl_report_end(u->dwfl, NULL, NULL);
}

/* --- perf 6.1's unwinder, step by step ------------------------------------
 *
 * Debian's perf 6.1 unwinds with libunwind.  Its answers are reproduced
 * here with libdw's CFI, following the rules that decide its frames:
 *  - a register's whereabouts: undefined, a sampled register, a word in
 *    memory, or a value; SP is always the CFA of the frame below; one the
 *    CFI does not mention stays where it was (libdw's defaults differ);
 *  - CFI is looked up at the return address - 1, except for the first
 *    frame and the one interrupted by a signal;
 *  - perf finds a DSO's .eh_frame_hdr at a load address it computes once
 *    per DSO from the lowest map of that file in the thread: a file mapped
 *    twice (a process that exec'd keeps its parent's maps in perf) gets the
 *    wrong one when the older mapping is lower, and its CFI is not found;
 *  - where no CFI is found, an old-style PLT entry is stepped over, else
 *    the frame pointer is followed if it points at most 16 KB above the
 *    CFA, else the stack ends;
 *  - a step whose return address reads as 0 still makes a frame (-1).
 */
#define X86_RBP 6
#define X86_RSP 7
#define X86_RA 16
#define NR_DWARF_REGS 17
#define UNW_ENOINFO 10		/* libunwind's "no unwind info" */

enum loc_kind { LOC_NULL, LOC_REG, LOC_MEM, LOC_VAL };

struct loc {
	enum loc_kind kind;
	uint64_t v;		/* register number, address or value */
};

struct cursor {
	uint64_t ip, cfa;
	struct loc loc[NR_DWARF_REGS];
	bool use_prev_instr;
	bool signal;		/* the last step went through a signal frame */
};

/* A sampled register, by DWARF number. */
static bool dwarf_reg(const struct unwind_space *u, uint64_t regno, uint64_t *val)
{
	return regno < NR_DWARF_REGS && sample_reg(u, dwarf_to_perf[regno], val);
}

static bool loc_get(struct unwind_space *u, struct loc l, uint64_t *val)
{
	switch (l.kind) {
	case LOC_REG:
		return dwarf_reg(u, l.v, val);
	case LOC_MEM:
		return memory_read(u, l.v, val);
	case LOC_VAL:
		*val = l.v;
		return true;
	default:
		return false;
	}
}

/* A register of the frame the cursor is at: SP is its CFA, IP its ip. */
static bool cursor_reg(struct unwind_space *u, const struct cursor *c, uint64_t regno,
		       uint64_t *val)
{
	if (regno == X86_RSP) {
		*val = c->cfa;
		return true;
	}
	if (regno == X86_RA) {
		*val = c->ip;
		return true;
	}
	return regno < NR_DWARF_REGS && loc_get(u, c->loc[regno], val);
}

/* Evaluates a CFI expression in the frame of c; cfa is the caller's CFA
 * (DW_OP_call_frame_cfa).  *is_value: it ended with DW_OP_stack_value. */
static bool eval_ops(struct unwind_space *u, const struct cursor *c, uint64_t cfa,
		     const Dwarf_Op *ops, size_t nops, uint64_t *out, bool *is_value)
{
	uint64_t st[64], a, b;
	int sp = 0, steps = 0;

	*is_value = false;
#define PUSH(x) do { uint64_t v_ = (x); if (sp >= 64) return false; st[sp++] = v_; } while (0)
#define NEED(k) do { if (sp < (k)) return false; } while (0)
	for (size_t i = 0; i < nops; i++) {
		const Dwarf_Op *op = &ops[i];
		uint8_t atom = op->atom;

		if (++steps > 1000)
			return false;
		if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) {
			PUSH(atom - DW_OP_lit0);
			continue;
		}
		if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
			if (!cursor_reg(u, c, atom - DW_OP_breg0, &a))
				return false;
			PUSH(a + op->number);
			continue;
		}
		switch (atom) {
		case DW_OP_call_frame_cfa:
			PUSH(cfa);
			break;
		case DW_OP_bregx:
			if (!cursor_reg(u, c, op->number, &a))
				return false;
			PUSH(a + op->number2);
			break;
		case DW_OP_addr: case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u:
		case DW_OP_const2s: case DW_OP_const4u: case DW_OP_const4s: case DW_OP_const8u:
		case DW_OP_const8s: case DW_OP_constu: case DW_OP_consts:
			PUSH(op->number);
			break;
		case DW_OP_dup:
			NEED(1);
			PUSH(st[sp - 1]);
			break;
		case DW_OP_drop:
			NEED(1);
			sp--;
			break;
		case DW_OP_over:
			NEED(2);
			PUSH(st[sp - 2]);
			break;
		case DW_OP_pick:
			if (op->number >= (uint64_t)sp)
				return false;
			PUSH(st[sp - 1 - op->number]);
			break;
		case DW_OP_swap:
			NEED(2);
			a = st[sp - 1], st[sp - 1] = st[sp - 2], st[sp - 2] = a;
			break;
		case DW_OP_rot:
			NEED(3);
			a = st[sp - 1], st[sp - 1] = st[sp - 2], st[sp - 2] = st[sp - 3], st[sp - 3] = a;
			break;
		case DW_OP_deref:
			NEED(1);
			if (!memory_read(u, st[sp - 1], &st[sp - 1]))
				return false;
			break;
		case DW_OP_deref_size:
			NEED(1);
			if (!memory_read(u, st[sp - 1], &st[sp - 1]))
				return false;
			if (op->number < 8)
				st[sp - 1] &= (1ULL << (op->number * 8)) - 1;
			break;
		case DW_OP_plus_uconst:
			NEED(1);
			st[sp - 1] += op->number;
			break;
		case DW_OP_neg:
			NEED(1);
			st[sp - 1] = -st[sp - 1];
			break;
		case DW_OP_not:
			NEED(1);
			st[sp - 1] = ~st[sp - 1];
			break;
		case DW_OP_abs:
			NEED(1);
			if ((int64_t)st[sp - 1] < 0)
				st[sp - 1] = -st[sp - 1];
			break;
		case DW_OP_plus: case DW_OP_minus: case DW_OP_mul: case DW_OP_and:
		case DW_OP_or: case DW_OP_xor: case DW_OP_shl: case DW_OP_shr: case DW_OP_shra:
		case DW_OP_div: case DW_OP_mod: case DW_OP_eq: case DW_OP_ne: case DW_OP_lt:
		case DW_OP_le: case DW_OP_gt: case DW_OP_ge:
			NEED(2);
			b = st[--sp];
			a = st[sp - 1];
			switch (atom) {
			case DW_OP_plus: a += b; break;
			case DW_OP_minus: a -= b; break;
			case DW_OP_mul: a *= b; break;
			case DW_OP_and: a &= b; break;
			case DW_OP_or: a |= b; break;
			case DW_OP_xor: a ^= b; break;
			case DW_OP_shl: a = b < 64 ? a << b : 0; break;
			case DW_OP_shr: a = b < 64 ? a >> b : 0; break;
			case DW_OP_shra: a = (uint64_t)((int64_t)a >> (b < 64 ? b : 63)); break;
			case DW_OP_div:
				if (!b)
					return false;
				a = (uint64_t)((int64_t)a / (int64_t)b);
				break;
			case DW_OP_mod:
				if (!b)
					return false;
				a %= b;
				break;
			case DW_OP_eq: a = a == b; break;
			case DW_OP_ne: a = a != b; break;
			case DW_OP_lt: a = (int64_t)a < (int64_t)b; break;
			case DW_OP_le: a = (int64_t)a <= (int64_t)b; break;
			case DW_OP_gt: a = (int64_t)a > (int64_t)b; break;
			default: a = (int64_t)a >= (int64_t)b; break;
			}
			st[sp - 1] = a;
			break;
		case DW_OP_skip: case DW_OP_bra: {
			uint64_t target;
			size_t k;

			if (atom == DW_OP_bra) {
				NEED(1);
				if (!st[--sp])
					break;
			}
			target = op->offset + 3 + (uint64_t)(int64_t)(int16_t)op->number;
			for (k = 0; k < nops && ops[k].offset != target; k++)
				;
			if (k == nops)
				return false;
			i = k - 1;
			break;
		}
		case DW_OP_nop:
			break;
		case DW_OP_stack_value:
			*is_value = true;
			i = nops;
			break;
		default:
			return false;
		}
	}
#undef PUSH
#undef NEED
	if (!sp)
		return false;
	*out = st[sp - 1];
	return true;
}

/* What perf reads from a DSO's ELF headers for its unwinder. */
static const struct dso_elf_info *dso_elf_info(struct unwind_space *u, struct dso *dso,
					       Dwfl_Module *mod)
{
	struct dso_elf_info *di;
	Dwarf_Addr bias;
	Elf *elf;
	size_t shstrndx;
	GElf_Phdr phdr;

	for (size_t i = 0; i < u->nr_elf_infos; i++)
		if (u->elf_infos[i].dso == dso)
			return &u->elf_infos[i];
	if (u->nr_elf_infos == u->alloc_elf_infos) {
		u->alloc_elf_infos = u->alloc_elf_infos ? 2 * u->alloc_elf_infos : 16;
		u->elf_infos = xrealloc(u->elf_infos, u->alloc_elf_infos * sizeof(*u->elf_infos));
	}
	di = &u->elf_infos[u->nr_elf_infos++];
	*di = (struct dso_elf_info){ .dso = dso };
	elf = dwfl_module_getelf(mod, &bias);
	if (!elf)
		return di;
	if (gelf_getphdr(elf, 0, &phdr))
		di->elf_base = phdr.p_vaddr & ~(uint64_t)(getpagesize() - 1);
	if (elf_getshdrstrndx(elf, &shstrndx))
		return di;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr) || !(name = elf_strptr(elf, shstrndx, shdr.sh_name)))
			continue;
		if (!strcmp(name, ".eh_frame_hdr")) {
			di->has_eh_frame_hdr = shdr.sh_offset != 0;
			di->eh_frame_hdr = shdr.sh_addr;
		}
	}
	return di;
}

/* The load bias perf uses for dso's .eh_frame_hdr: the lowest start of
 * the file's maps in the thread, less the first program header's page. */
static uint64_t perf_bias(struct unwind_space *u, struct dso *dso, const struct dso_elf_info *du)
{
	uint64_t low = UINT64_MAX;
	void *got = hashmap_u64_get(&u->perf_bias, (uintptr_t)dso);

	if (got)
		return (uint64_t)(uintptr_t)got - 1;
	for (size_t i = 0; i < u->maps->nr; i++)
		if (u->maps->v[i]->dso == dso && u->maps->v[i]->start < low)
			low = u->maps->v[i]->start;
	low -= du->elf_base;
	hashmap_u64_put(&u->perf_bias, (uintptr_t)dso, (void *)(uintptr_t)(low + 1));
	return low;
}

/* One step through the CFI: 1 with the caller in c, -UNW_ENOINFO where
 * perf finds no CFI for c->ip, another negative value on failure. */
static int dwarf_step(struct unwind_space *u, struct cursor *c)
{
	uint64_t pc = c->ip - (c->use_prev_instr ? 1 : 0), cfa, ra, val;
	struct loc loc[NR_DWARF_REGS];
	struct map *map = maps__find(u->maps, pc);
	const struct dso_elf_info *du;
	Dwfl_Module *mod;
	Dwarf_CFI *cfi;
	Dwarf_Addr bias, start, end;
	Dwarf_Frame *frame;
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	bool signal, is_value;
	int ra_col;

	if (!map || map->identity)
		return -1;
	report_module(u, pc);
	mod = dwfl_addrmodule(u->dwfl, pc);
	cfi = mod ? dwfl_module_eh_cfi(mod, &bias) : NULL;
	if (!cfi)
		return -1;
	du = dso_elf_info(u, map->dso, mod);
	if (!du->has_eh_frame_hdr)
		return -1;
	if (perf_bias(u, map->dso, du) != bias) {
		/* perf searches the table where this mapping does not have it */
		struct map *hdr = maps__find(u->maps, perf_bias(u, map->dso, du) + du->eh_frame_hdr);

		return hdr && hdr->dso == map->dso ? -UNW_ENOINFO : -1;
	}
	if (dwarf_cfi_addrframe(cfi, pc - bias, &frame))
		return -UNW_ENOINFO;
	ra_col = dwarf_frame_info(frame, &start, &end, &signal);
	if (ra_col < 0 || ra_col >= NR_DWARF_REGS ||
	    dwarf_frame_cfa(frame, &ops, &nops) || !nops ||
	    !eval_ops(u, c, 0, ops, nops, &cfa, &is_value)) {
		free(frame);
		return -1;
	}
	memcpy(loc, c->loc, sizeof(loc));
	for (int r = 0; r < NR_DWARF_REGS; r++) {
		if (dwarf_frame_register(frame, r, ops_mem, &ops, &nops)) {
			free(frame);
			return -1;
		}
		/* No rule, or "same value": libunwind keeps where the register
		 * was.  libdw also says "undefined" for registers the CFI does
		 * not mention outside its ABI list (which has rbx as rax), so
		 * only the return address is taken as really undefined. */
		if (!nops) {
			if (ops == ops_mem && r == ra_col)
				loc[r] = (struct loc){ LOC_NULL, 0 };
			continue;
		}
		/* "in register N": libunwind reads N as sampled */
		if (nops == 1 && (ops[0].atom == DW_OP_regx ||
				  (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31))) {
			loc[r] = (struct loc){ LOC_REG, ops[0].atom == DW_OP_regx ?
						       ops[0].number : (uint64_t)(ops[0].atom - DW_OP_reg0) };
			continue;
		}
		if (nops == 2 && ops[0].atom == DW_OP_bregx && !ops[0].number2 &&
		    ops[1].atom == DW_OP_stack_value) {
			loc[r] = (struct loc){ LOC_REG, ops[0].number };
			continue;
		}
		if (!eval_ops(u, c, cfa, ops, nops, &val, &is_value)) {
			free(frame);
			return -1;
		}
		loc[r] = (struct loc){ is_value ? LOC_VAL : LOC_MEM, val };
	}
	free(frame);
	if (!loc_get(u, loc[ra_col], &ra))
		return -1;
	if (ra == c->ip && cfa == c->cfa)
		return -1;
	memcpy(c->loc, loc, sizeof(loc));
	c->cfa = cfa;
	c->ip = ra;
	c->use_prev_instr = !signal;
	c->signal = signal;
	return 1;
}

static bool read_code(struct unwind_space *u, uint64_t addr, uint64_t *w0, uint64_t *w1)
{
	return memory_read(u, addr, w0) && memory_read(u, addr + 8, w1);
}

/* An old-style PLT entry: jmp *x(%rip); push $n; jmp PLT0 */
static bool is_plt_entry(struct unwind_space *u, uint64_t ip)
{
	uint64_t w0, w1;

	return read_code(u, ip, &w0, &w1) && (w0 & 0xffff) == 0x25ff &&
	       ((w0 >> 48) & 0xff) == 0x68 && ((w1 >> 24) & 0xff) == 0xe9;
}

/* One step as perf's unwinder takes it: > 0 with a frame in c (its ip may
 * be 0), 0 at the end of the stack, < 0 on failure (also the end). */
static int unwind_step(struct unwind_space *u, struct cursor *c)
{
	uint64_t prev_ip = c->ip, prev_cfa = c->cfa, rbp, word;
	int ret;

	c->signal = false;
	ret = dwarf_step(u, c);


	if (ret < 0 && ret != -UNW_ENOINFO)
		return ret;
	if (ret >= 0)
		return c->loc[X86_RBP].kind == LOC_NULL ? 0 : ret;
	/* No CFI: guess. */
	if (is_plt_entry(u, c->ip)) {
		c->loc[X86_RA] = (struct loc){ LOC_MEM, c->cfa };
		c->cfa += 8;
	} else if (c->loc[X86_RBP].kind == LOC_NULL) {
		return 0;
	} else {
		struct loc rbp_loc = { LOC_NULL, 0 }, ra_loc = { LOC_NULL, 0 };

		if (!loc_get(u, c->loc[X86_RBP], &rbp))
			return -1;
		if (rbp) {
			rbp_loc = (struct loc){ LOC_MEM, rbp };
			ra_loc = (struct loc){ LOC_MEM, rbp + 8 };
			/* a frame pointer at most 16 KB above the CFA */
			if (!memory_read(u, rbp, &word) || rbp < c->cfa || rbp - c->cfa > 0x4000)
				rbp_loc = ra_loc = (struct loc){ LOC_NULL, 0 };
			c->cfa += 16;
		}
		for (int r = 0; r < NR_DWARF_REGS; r++)
			c->loc[r] = (struct loc){ LOC_NULL, 0 };
		c->loc[X86_RBP] = rbp_loc;
		c->loc[X86_RA] = ra_loc;
		c->use_prev_instr = true;
	}
	if (c->loc[X86_RBP].kind == LOC_NULL)
		return 0;
	if (c->loc[X86_RA].kind == LOC_NULL)
		return -1;
	if (!loc_get(u, c->loc[X86_RA], &c->ip))
		return -1;
	if (c->ip == prev_ip && c->cfa == prev_cfa)
		return -1;
	return 1;
}

/* perf's list of addresses: the sampled IP, then each frame's ip - 1
 * (exact when the step went through a signal frame's CFI: the frame the
 * signal interrupted), up to max_ips. */
static void unwind_ips(struct unwind_space *u, uint64_t ip, uint64_t sp)
{
	struct cursor c = { .ip = ip, .cfa = sp };

	for (int r = 0; r < NR_DWARF_REGS; r++)
		c.loc[r] = (struct loc){ LOC_REG, (uint64_t)r };
	u->ips[u->nr_ips++] = ip;
	while (u->nr_ips < u->max_ips && unwind_step(u, &c) > 0)
		u->ips[u->nr_ips++] = c.signal ? c.ip : c.ip - 1;
}

/*
 * Each space's Dwfl maps the files of its DSOs again, and the CFI pages
 * it reads stay resident: a workload of many short processes (shells,
 * forks) made 8.6 MB of libc and bash mappings.  Only the spaces unwound
 * in most recently keep theirs; another is given a fresh Dwfl when it is
 * next unwound in.  Unwinding runs on the reading thread only.
 */
#define LIVE_SPACES 8
static struct unwind_space *live_spaces[LIVE_SPACES];
static uint64_t unwind_clock;

static void unwind_space__free(void *space)
{
	struct unwind_space *u = space;

	for (size_t i = 0; i < LIVE_SPACES; i++)
		if (live_spaces[i] == u)
			live_spaces[i] = NULL;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	hashmap_release(&u->reported);
	hashmap_release(&u->perf_bias);
	free(u->elf_infos);
	free(u);
}

/* One per address space unwound in, until its maps change. */
static const struct cache_kind unwind_space_kind = { "unwind", unwind_space__free };

static void unwind_space__evict(struct unwind_space *u)
{
	dwfl_end(u->dwfl);
	u->dwfl = NULL;
	hashmap_release(&u->reported);
}

static void unwind_space__use(struct unwind_space *u)
{
	size_t slot = 0;

	u->last_use = ++unwind_clock;
	if (u->dwfl)
		return;
	for (size_t i = 0; i < LIVE_SPACES; i++) {
		if (!live_spaces[i]) {
			slot = i;
			break;
		}
		if (live_spaces[i]->last_use < live_spaces[slot]->last_use)
			slot = i;
	}
	u->dwfl = dwfl_begin(&unwind_callbacks);
	if (!u->dwfl)
		return;
	if (live_spaces[slot])
		unwind_space__evict(live_spaces[slot]);
	live_spaces[slot] = u;
}

static struct unwind_space *maps__unwind_space(struct maps *maps)
{
	struct unwind_space *u = maps__cache(maps, &unwind_space_kind);

	if (!u || u->generation != maps->generation) {
		u = xcalloc(1, sizeof(*u));
		maps__set_cache(maps, &unwind_space_kind, u);	/* frees the stale one */
		u->generation = maps->generation;
		u->maps = maps;
	}
	unwind_space__use(u);
	return u;
}

/* Appends the frame for ip, expanded into its inlined functions unless
 * --no-inline. */
static int add_user_frame(struct machine *m, struct thread *thread, uint64_t ip,
			  struct callchain_frame *frames, int n, int max_frames)
{
	struct addr_location al;
	const struct inline_frame *inl = NULL;
	int nr_inl = 0;

	machine__lookup(m, thread, PERF_RECORD_MISC_USER, ip, &al);
	if (al.sym && m->config.inline_frames)
		inl = dso__inlines(al.dso, al.addr, al.sym, &nr_inl);
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
	u->regs_mask = regs_mask;
	u->regs = regs;
	u->stack = stack;
	u->stack_size = stack_size;
	u->nr_ips = 0;
	u->max_ips = max_stack < MAX_UNWIND ? max_stack : MAX_UNWIND;
	if (!sample_reg(u, PERF_X86_IP, &ip) || !sample_reg(u, PERF_X86_SP, &sp))
		return 0;
	u->sp = sp;
	if (u->dwfl)
		unwind_ips(u, ip, sp);
	/* The sampled IP is a frame even when nothing could be unwound. */
	if (!u->nr_ips)
		u->ips[u->nr_ips++] = ip;
	/* perf stops at a 0 */
	for (int i = 0; i < u->nr_ips && u->ips[i]; i++)
		n = add_user_frame(m, thread, u->ips[i], frames, n, max_frames);
	return n;
}
