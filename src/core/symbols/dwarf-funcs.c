/* dwarf-funcs: bfd's choice among equally small function ranges, made by
 * DIE order (see dwarf-funcs.h).  Each compilation unit's functions are
 * read once, the first time an address in it is asked about, into pieces
 * sorted by start address.
 */
#include "core/symbols/dwarf-funcs.h"
#include "util/util.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct func_piece {
	uint64_t low, high;
	size_t order;		/* the function's place in DIE order */
	const char *name;	/* as bfd names the function */
};

struct unit_funcs {
	Dwarf_Off cu;
	struct func_piece *pieces;	/* by low address */
	uint64_t *max_high;		/* the highest end of pieces[0..i] */
	size_t nr;
};

struct dwarf_funcs {
	int fd;
	Dwarf *dw;
	struct unit_funcs *units;
	size_t nr_units;
};

struct dwarf_funcs *dwarf_funcs__open(const char *path)
{
	struct dwarf_funcs *df;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Dwarf *dw;

	if (fd < 0)
		return NULL;
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		close(fd);
		return NULL;
	}
	df = xcalloc(1, sizeof(*df));
	df->fd = fd;
	df->dw = dw;
	return df;
}

void dwarf_funcs__close(struct dwarf_funcs *df)
{
	if (!df)
		return;
	for (size_t i = 0; i < df->nr_units; i++) {
		free(df->units[i].pieces);
		free(df->units[i].max_high);
	}
	free(df->units);
	dwarf_end(df->dw);
	close(df->fd);
	free(df);
}

/* bfd's name of a function DIE: the linkage name, else DW_AT_name, from
 * the DIE or the abstract instance or declaration it completes. */
static const char *bfd_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;

	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	return name;
}

struct piece_list {
	struct func_piece *v;
	size_t nr, alloc;
};

/* A function's ranges as bfd keeps them: an empty range is dropped, one
 * that touches an earlier piece of the same function extends it. */
static void add_range(struct piece_list *l, size_t first, uint64_t low, uint64_t high,
		      size_t order, const char *name)
{
	if (low >= high)
		return;
	for (size_t i = first; i < l->nr; i++) {
		if (low == l->v[i].high) {
			l->v[i].high = high;
			return;
		}
		if (high == l->v[i].low) {
			l->v[i].low = low;
			return;
		}
	}
	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 64;
		l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
	}
	l->v[l->nr++] = (struct func_piece){ low, high, order, name };
}

/* binutils 2.40 reads a DW_FORM_rnglistx index as an offset and so never
 * finds functions described that way (clang's DWARF 5). */
static bool bfd_reads_ranges(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	return !dwarf_attr(die, DW_AT_ranges, &attr) || dwarf_whatform(&attr) != DW_FORM_rnglistx;
}

static void collect(Dwarf_Die *die, struct piece_list *l, size_t *order)
{
	Dwarf_Die child;

	do {
		int tag = dwarf_tag(die);

		if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		     tag == DW_TAG_entry_point) && bfd_reads_ranges(die)) {
			const char *name = bfd_name(die);
			size_t first = l->nr;
			Dwarf_Addr base, low, high;
			ptrdiff_t off = 0;

			while ((off = dwarf_ranges(die, off, &base, &low, &high)) > 0)
				add_range(l, first, low, high, *order, name);
			(*order)++;
		}
		if (dwarf_child(die, &child) == 0)
			collect(&child, l, order);
	} while (dwarf_siblingof(die, die) == 0);
}

static int piece_cmp(const void *pa, const void *pb)
{
	const struct func_piece *a = pa, *b = pb;

	if (a->low != b->low)
		return a->low < b->low ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static struct unit_funcs *unit_funcs(struct dwarf_funcs *df, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	struct piece_list l = { 0 };
	struct unit_funcs *u;
	Dwarf_Die child;
	size_t order = 0;
	uint64_t max = 0;

	for (size_t i = 0; i < df->nr_units; i++)
		if (df->units[i].cu == off)
			return &df->units[i];
	if (dwarf_child(cu, &child) == 0)
		collect(&child, &l, &order);
	if (l.nr)	/* units of assembler or JIT code name no function */
		qsort(l.v, l.nr, sizeof(*l.v), piece_cmp);
	df->units = xrealloc(df->units, (df->nr_units + 1) * sizeof(*df->units));
	u = &df->units[df->nr_units++];
	*u = (struct unit_funcs){ .cu = off, .pieces = l.v, .nr = l.nr };
	u->max_high = xmalloc((l.nr ? l.nr : 1) * sizeof(*u->max_high));
	for (size_t i = 0; i < l.nr; i++) {
		if (l.v[i].high > max)
			max = l.v[i].high;
		u->max_high[i] = max;
	}
	return u;
}

/* The unit covering addr: by .debug_aranges, else (clang) by each unit's
 * own ranges. */
static bool unit_at(Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t header;

	if (dwarf_addrdie(dw, addr, cu))
		return true;
	while (dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + header, cu) && dwarf_haspc(cu, addr) == 1)
			return true;
		off = next;
	}
	return false;
}

const char *dwarf_funcs__resolve_tie(struct dwarf_funcs *df, uint64_t addr,
				     const char *bfd_choice)
{
	const struct func_piece *best = NULL;
	bool chosen_ties = false;
	struct unit_funcs *u;
	size_t lo = 0, hi;
	Dwarf_Die cu;

	if (!df || !bfd_choice || !unit_at(df->dw, addr, &cu))
		return bfd_choice;
	u = unit_funcs(df, &cu);
	hi = u->nr;
	while (lo < hi) {		/* the pieces starting at or before addr: [0, lo) */
		size_t mid = lo + (hi - lo) / 2;

		if (u->pieces[mid].low <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && u->max_high[i] > addr;) {
		const struct func_piece *p = &u->pieces[i];

		if (p->high <= addr)
			continue;
		if (!best || p->high - p->low < best->high - best->low ||
		    (p->high - p->low == best->high - best->low && p->order > best->order))
			best = p;
	}
	if (!best || !best->name)
		return bfd_choice;
	for (size_t i = lo; i-- > 0 && u->max_high[i] > addr;) {
		const struct func_piece *p = &u->pieces[i];

		if (p->high > addr && p->high - p->low == best->high - best->low && p->name &&
		    !strcmp(p->name, bfd_choice))
			chosen_ties = true;
	}
	return chosen_ties ? best->name : bfd_choice;
}
