/* script-brstack: perf script's brstack, brstacksym and brstackoff fields,
 * one " from/to/flags" group per branch stack entry (perf 6.1's layout). */
#include "ui/script-print.h"
#include "core/symbols.h"
#include "util/util.h"

#include <inttypes.h>
#include <string.h>

/* The flags word after from and to (struct perf_branch_entry). */
#define BR_MISPRED(f)	((f) & 1)
#define BR_PREDICTED(f)	((f) >> 1 & 1)
#define BR_IN_TX(f)	((f) >> 2 & 1)
#define BR_ABORT(f)	((f) >> 3 & 1)
#define BR_CYCLES(f)	((unsigned)((f) >> 4 & 0xffff))
#define BR_TYPE(f)	((unsigned)((f) >> 20 & 0xf))
#define BR_NEW_TYPE(f)	((unsigned)((f) >> 26 & 0xf))
#define BR_EXTEND_ABI	15

struct br_entry {
	uint64_t from, to, flags;
};

static const char *branch_type(uint64_t flags)
{
	static const char *const types[] = {
		"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
		"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
	};
	static const char *const new_types[] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4",
		"ARCH_5",
	};

	if (BR_TYPE(flags) != BR_EXTEND_ABI)
		return types[BR_TYPE(flags)];
	/* perf passes the NULL of an unnamed one to printf */
	return BR_NEW_TYPE(flags) < ARRAY_SIZE(new_types) ? new_types[BR_NEW_TYPE(flags)] :
							      "(null)";
}

static void print_flags(FILE *fp, uint64_t f)
{
	char pred = BR_PREDICTED(f) ? 'P' : BR_MISPRED(f) ? 'M' : '-';

	fprintf(fp, "/%c/%c/%c/%u/%s ", pred, BR_IN_TX(f) ? 'X' : '-', BR_ABORT(f) ? 'A' : '-',
		BR_CYCLES(f), branch_type(f));
}

static void print_dso(FILE *fp, const struct addr_location *al)
{
	fputc('(', fp);
	script_print_dso_name(fp, al->map);
	fputc(')', fp);
}

/* brstackoff's address: the kernel's counts from its map, a user DSO's is
 * its file offset until perf has read its ELF symbols, the address after. */
static uint64_t branch_offset(const struct addr_location *al, uint64_t addr)
{
	const struct dso_priv *p;

	if (!al->map)
		return addr;
	if (al->map->dso->kernel)
		return addr - al->map->start;
	p = dso__priv(al->map->dso);
	if (p->loaded && (p->elf_path || p->image))
		return addr;
	return map__map_ip(al->map, addr);
}

void script_print_brstack(FILE *fp, uint64_t fields, struct machine *m,
			  const struct perf_sample *sample, struct thread *thread)
{
	bool dso = fields & SF_DSO;

	for (uint64_t i = 0; sample->branch_entries && i < sample->branch_nr; i++) {
		struct addr_location alf, alt;
		struct br_entry e;

		memcpy(&e, (const char *)sample->branch_entries + i * sizeof(e), sizeof(e));
		memset(&alf, 0, sizeof(alf));
		memset(&alt, 0, sizeof(alt));
		if (fields & SF_BRSTACK) {
			if (dso) {
				machine__find_map_fb(m, thread, sample->cpumode, e.from, &alf);
				machine__find_map_fb(m, thread, sample->cpumode, e.to, &alt);
			}
			fprintf(fp, " 0x%" PRIx64, e.from);
			if (dso)
				print_dso(fp, &alf);
			fprintf(fp, "/0x%" PRIx64, e.to);
			if (dso)
				print_dso(fp, &alt);
		} else if (fields & SF_BRSTACKSYM) {
			machine__find_symbol_fb(m, thread, sample->cpumode, e.from, &alf);
			machine__find_symbol_fb(m, thread, sample->cpumode, e.to, &alt);
			script_print_symname(fp, alf.sym, alf.map, alf.addr, true);
			if (dso)
				print_dso(fp, &alf);
			fputc('/', fp);
			script_print_symname(fp, alt.sym, alt.map, alt.addr, true);
			if (dso)
				print_dso(fp, &alt);
		} else {
			uint64_t from = machine__find_map_fb(m, thread, sample->cpumode, e.from, &alf) ?
					branch_offset(&alf, e.from) : e.from;
			uint64_t to = machine__find_map_fb(m, thread, sample->cpumode, e.to, &alt) ?
				      branch_offset(&alt, e.to) : e.to;

			fprintf(fp, " 0x%" PRIx64, from);
			if (dso)
				print_dso(fp, &alf);
			fprintf(fp, "/0x%" PRIx64, to);
			if (dso)
				print_dso(fp, &alt);
		}
		print_flags(fp, e.flags);
	}
}
