/* branch: branch mode's entries and statistics (see branch.h). */
#include "core/hist/branch.h"
#include "core/data/perf-record.h"
#include "core/symbols/machine.h"
#include "util/util.h"

#include <string.h>

const char *hist_branch__type_name(uint64_t flags)
{
	static const char *const types[] = {
		"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
		"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
	};
	static const char *const new_types[] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4",
		"ARCH_5",
	};

	if (BRANCH_TYPE(flags) != BRANCH_TYPE_EXTEND_ABI)
		return types[BRANCH_TYPE(flags)];
	return BRANCH_NEW_TYPE(flags) < ARRAY_SIZE(new_types) ?
	       new_types[BRANCH_NEW_TYPE(flags)] : NULL;
}

/* perf's ip__resolve_ams: the modes tried in turn, as a branch may cross
 * from user space into the kernel; [H] when none has a map there */
static void resolve_end(struct hist_branch_end *e, struct machine *m, struct thread *thread,
			uint64_t addr)
{
	static const uint8_t modes[] = { PERF_RECORD_MISC_USER, PERF_RECORD_MISC_KERNEL };
	struct addr_location al;

	memset(e, 0, sizeof(*e));
	e->addr = e->al_addr = addr;
	e->level = 'H';
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		memset(&al, 0, sizeof(al));
		if (machine__lookup(m, thread, modes[i], addr, &al) && al.map) {
			e->dso = al.dso;
			e->sym = al.sym;
			e->al_addr = al.addr;
			e->level = al.level;
			return;
		}
	}
}

void hist_branch__resolve(struct hist_branch *b, struct machine *m, struct thread *thread,
			  const struct perf_sample *sample, uint64_t i)
{
	uint64_t e[3];	/* from, to, flags */

	memcpy(e, (const char *)sample->branch_entries + i * sizeof(e), sizeof(e));
	b->present = true;
	resolve_end(&b->from, m, thread, e[0]);
	resolve_end(&b->to, m, thread, e[1]);
	b->flags = e[2];
}

static bool cross_area(uint64_t a, uint64_t b, uint64_t size)
{
	return (a & ~(size - 1)) != (b & ~(size - 1));
}

/* apart: the extended types as perf 6.1 counts them for a call-graph
 * entry (see branch_type_stat__add_apart) */
static void type_stat_add(struct branch_type_stat *st, uint64_t flags, uint64_t from, uint64_t to,
			  bool apart)
{
	unsigned type = BRANCH_TYPE(flags);

	if (!type || !from)	/* unknown, or no source */
		return;
	if (!apart || type != BRANCH_TYPE_EXTEND_ABI) {
		st->counts[type]++;
	} else {
		/* perf's table of the 8 named new types is followed by these
		 * four counters, which higher new types land in */
		uint64_t *past[] = { &st->cond_fwd, &st->cond_bwd, &st->cross_4k, &st->cross_2m };
		unsigned new_type = BRANCH_NEW_TYPE(flags);

		if (new_type >= 8 && new_type < 8 + ARRAY_SIZE(past))
			(*past[new_type - 8])++;
	}
	if (type == 1)	/* PERF_BR_COND */
		to > from ? st->cond_fwd++ : st->cond_bwd++;
	if (cross_area(from, to, 2u << 20))
		st->cross_2m++;
	else if (cross_area(from, to, 4096))
		st->cross_4k++;
}

void branch_type_stat__add(struct branch_type_stat *st, uint64_t flags, uint64_t from,
			   uint64_t to)
{
	type_stat_add(st, flags, from, to, false);
}

void branch_type_stat__add_apart(struct branch_type_stat *st, uint64_t flags, uint64_t from,
				 uint64_t to)
{
	type_stat_add(st, flags, from, to, true);
}

void branch_type_stat__count(struct branch_type_stat *st, const struct hist_branch *b)
{
	branch_type_stat__add(st, b->flags, b->from.addr, b->to.addr);
}
