/* symtab: building a DSO's sorted symbol table the way perf shapes it. */
#include "core/symbols/symbols-int.h"
#include "core/symbols/symtree.h"
#include "util/util.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/* --- symbol tables ------------------------------------------------------- */

static struct sym_raw *symtab_slot(struct symtab_builder *b)
{
	if (b->nr == b->alloc) {
		b->alloc = b->alloc ? b->alloc * 2 : 256;
		b->v = xrealloc(b->v, b->alloc * sizeof(*b->v));
	}
	return &b->v[b->nr];
}

void symtab_reserve(struct symtab_builder *b, size_t n)
{
	if (n > b->alloc) {
		b->alloc = n;
		b->v = xrealloc(b->v, b->alloc * sizeof(*b->v));
	}
}

void symtab_push(struct symtab_builder *b, const struct sym_raw *s)
{
	struct sym_raw *slot = symtab_slot(b);

	*slot = *s;
	slot->seq = (uint32_t)b->nr++;
}

struct sym_raw *symtab_add_ref(struct symtab_builder *b, uint64_t start, uint64_t size,
			       uint8_t bind, const char *name)
{
	struct sym_raw *s = symtab_slot(b);

	s->start = start;
	s->end = start + size;
	s->name = name;
	s->seq = (uint32_t)b->nr++;
	s->bind = bind;
	s->module_sym = false;
	s->object = false;
	s->mangled = false;
	return s;
}

struct sym_raw *symtab_add(struct symtab_builder *b, uint64_t start, uint64_t size,
			   uint8_t bind, const char *name, size_t name_len)
{
	return symtab_add_ref(b, start, size, bind, arena_strndup(b->pool, name, name_len));
}

#define RADIX_BITS	11
#define RADIX		(1u << RADIX_BITS)

struct sort_key {
	uint64_t start;
	uint32_t pos;	/* in the table before sorting */
};

/* Sorts by address, then insertion order: a stable LSD radix sort of the
 * addresses, 11 bits at a time over the bits that differ (3 passes for a
 * DSO or kallsyms), since seq order is array order among equal addresses.
 * ELF symbol tables come in thousands of runs (each unit's locals, then
 * hash-ordered globals), where comparison sorts took a tenth of a report. */
static void symtab_sort(struct symtab_builder *b)
{
	size_t n = b->nr;
	uint64_t lo = UINT64_MAX, hi = 0;
	bool sorted = true;
	struct sort_key *key, *tmp;
	struct sym_raw *v;

	for (size_t i = 0; i < n; i++) {
		uint64_t start = b->v[i].start;

		sorted &= !i || start >= b->v[i - 1].start;
		lo = start < lo ? start : lo;
		hi = start > hi ? start : hi;
	}
	if (sorted)
		return;
	key = xmalloc(2 * n * sizeof(*key));
	tmp = key + n;
	for (size_t i = 0; i < n; i++)
		key[i] = (struct sort_key){ b->v[i].start - lo, (uint32_t)i };
	for (unsigned shift = 0; shift < 64 && (hi - lo) >> shift; shift += RADIX_BITS) {
		size_t count[RADIX + 1] = { 0 };
		struct sort_key *swap;

		for (size_t i = 0; i < n; i++)
			count[((key[i].start >> shift) & (RADIX - 1)) + 1]++;
		for (size_t d = 1; d <= RADIX; d++)
			count[d] += count[d - 1];
		for (size_t i = 0; i < n; i++)
			tmp[count[(key[i].start >> shift) & (RADIX - 1)]++] = key[i];
		swap = key;
		key = tmp;
		tmp = swap;
	}
	v = xmalloc(b->alloc * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = b->v[key[i].pos];
	free(key < tmp ? key : tmp);
	free(b->v);
	b->v = v;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* The name perf compares: the demangled one (malloced in *demangled). */
static const char *shown_name(const struct sym_raw *s, char **demangled)
{
	*demangled = s->mangled ? sym_demangle(s->name) : NULL;
	return *demangled ? *demangled : s->name;
}

/* Of two symbols at one address, is a the one to keep? perf's order of
 * preference: has a size, not weak, global, fewer leading underscores,
 * longer name, then the first seen. */
bool sym_raw__prefer_first(const struct sym_raw *a, const struct sym_raw *b)
{
	bool a_sized = a->end > a->start, b_sized = b->end > b->start, prefer_a = true;
	size_t ua, ub, la, lb;
	char *a_demangled, *b_demangled;
	const char *a_name, *b_name;

	if (a_sized != b_sized)
		return a_sized;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	a_name = shown_name(a, &a_demangled);
	b_name = shown_name(b, &b_demangled);
	ua = leading_underscores(a_name);
	ub = leading_underscores(b_name);
	la = strlen(a_name);
	lb = strlen(b_name);
	if (ua != ub)
		prefer_a = ua < ub;
	else if (la != lb)
		prefer_a = la > lb;
	free(a_demangled);
	free(b_demangled);
	return prefer_a;
}

static uint64_t page_roundup(uint64_t x)
{
	return (x + 4095) & ~4095ULL;
}

static void symtab_release(struct symtab_builder *b)
{
	free(b->v);
	b->v = NULL;
	b->nr = b->alloc = 0;
}

/* Zero-size symbols end where the next one starts; in kallsyms the
 * kernel/module boundary instead ends them on the next page. */
void symtab_fix_ends(struct symtab_builder *b, bool kallsyms)
{
	symtab_sort(b);
	for (size_t i = 0; i + 1 < b->nr; i++) {
		struct sym_raw *prev = &b->v[i], *curr = &b->v[i + 1];

		if (prev->end != prev->start)
			continue;
		if (kallsyms && prev->module_sym != curr->module_sym)
			prev->end = page_roundup(prev->end + 4096);
		else
			prev->end = curr->start;
	}
	if (b->nr && b->v[b->nr - 1].end == b->v[b->nr - 1].start)
		b->v[b->nr - 1].end = page_roundup(b->v[b->nr - 1].start) + 4096;
}

/* One symbol per address (perf's duplicate pass, after it fixed ends). */
static void symtab_dedupe(struct symtab_builder *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nr; i++) {
		if (n && b->v[n - 1].start == b->v[i].start) {
			if (!sym_raw__prefer_first(&b->v[n - 1], &b->v[i]))
				b->v[n - 1] = b->v[i];
			continue;
		}
		b->v[n++] = b->v[i];
	}
	b->nr = n;
}

void symtab_fixup(struct symtab_builder *b, bool kallsyms)
{
	symtab_fix_ends(b, kallsyms);
	symtab_dedupe(b);
}

static int sym_raw_seq_cmp(const void *a, const void *b)
{
	const struct sym_raw *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* dst: the n symbols of src back in insertion order.  Seqs are unique, so
 * when all are below n they number the slots (a table built by add/push):
 * a linear scatter, where sorting a big table took longer than reading it. */
static void unsort(struct sym_raw *dst, const struct sym_raw *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (src[i].seq >= n) {
			memcpy(dst, src, n * sizeof(*dst));
			qsort(dst, n, sizeof(*dst), sym_raw_seq_cmp);
			return;
		}
	for (size_t i = 0; i < n; i++)
		dst[src[i].seq] = src[i];
}

/* Whether some symbol reaches into the next one. */
static bool symbols_overlap(const struct symbol *syms, size_t nr)
{
	for (size_t i = 0; i + 1 < nr; i++)
		if (syms[i].end > syms[i + 1].start)
			return true;
	return false;
}

void dso__install_symbols(struct dso *dso, struct symtab_builder *b,
			  struct symtab_builder *late, bool kallsyms)
{
	struct dso_priv *p = dso__priv(dso);
	size_t nr_pre = b->nr, nr_late = late ? late->nr : 0;
	struct sym_raw *pre = NULL, *plt = NULL;

	symtab_fix_ends(b, kallsyms);
	if (!kallsyms) {
		/* perf's tree gets the table in its order, ends fixed as when it
		 * chooses among duplicates */
		pre = xmalloc((nr_pre + 1) * sizeof(*pre));
		if (nr_pre)	/* a table without functions has no array */
			unsort(pre, b->v, nr_pre);
		plt = xmalloc((nr_late + 1) * sizeof(*plt));
		if (nr_late)
			memcpy(plt, late->v, nr_late * sizeof(*plt));
	}
	symtab_dedupe(b);
	dso__install_symbols_raw(dso, b, late);
	/* perf's tree decides where symbols overlap (a size-less _init over .plt) */
	if (pre && symbols_overlap(p->syms, p->nr_syms))
		p->symtree = symtree__new(pre, nr_pre, plt, nr_late, p->syms, p->nr_syms);
	free(pre);
	free(plt);
}

void dso__install_symbols_raw(struct dso *dso, struct symtab_builder *b,
			      struct symtab_builder *late)
{
	struct dso_priv *p = dso__priv(dso);
	size_t n = b->nr;

	if (late && late->nr) {
		for (size_t i = 0; i < late->nr; i++)
			symtab_push(b, &late->v[i]);
		symtab_release(late);
	}
	symtab_sort(b);
	n = b->nr;

	free(p->syms);
	symtree__delete(p->symtree);
	p->symtree = NULL;
	/* the symbols take the builder's array over, slot by slot (kallsyms'
	 * is megabytes: a second one cost its page faults) */
	_Static_assert(sizeof(struct symbol) == sizeof(struct sym_raw), "one array for both");
	if (!b->v)
		b->v = xmalloc(sizeof(*b->v));
	for (size_t i = 0; i < n; i++) {
		struct sym_raw r;
		struct symbol sym;

		memcpy(&r, &b->v[i], sizeof(r));
		sym = (struct symbol){ .start = r.start, .end = r.end, .name = r.name,
				       .object = r.object, .mangled = r.mangled,
				       .binding = r.bind };
		memcpy((char *)b->v + i * sizeof(sym), &sym, sizeof(sym));
	}
	p->syms = (struct symbol *)(void *)b->v;
	p->nr_syms = n;
	hashmap_release(&p->addr_cache);
	b->v = NULL;
	b->nr = b->alloc = 0;
}
