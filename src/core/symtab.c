/* symtab: building a DSO's sorted symbol table the way perf shapes it,
 * plus the two small containers the symbol engine lives on (a string
 * pool and a u64-keyed hash map).
 */
#include "core/symbols.h"
#include "util/util.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/* --- string pool --------------------------------------------------------- */

struct strpool_chunk {
	struct strpool_chunk *next;
	size_t used, size;
	char data[];
};

const char *strpool_add(struct strpool *p, const char *s, size_t len)
{
	struct strpool_chunk *c = p->head;
	char *out;

	if (!c || c->size - c->used < len + 1) {
		size_t size = len + 1 > 65536 ? len + 1 : 65536;

		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->used = 0;
		c->next = p->head;
		p->head = c;
	}
	out = c->data + c->used;
	memcpy(out, s, len);
	out[len] = '\0';
	c->used += len + 1;
	return out;
}

void strpool_release(struct strpool *p)
{
	while (p->head) {
		struct strpool_chunk *next = p->head->next;

		free(p->head);
		p->head = next;
	}
}

/* --- u64 map ------------------------------------------------------------- */

/* Key 0 marks an empty slot, so keys are stored plus one. */
static size_t u64map_slot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void *u64map_get(const struct u64map *h, uint64_t key)
{
	if (!h->cap)
		return NULL;
	for (size_t i = u64map_slot(key + 1, h->cap);; i = (i + 1) & (h->cap - 1)) {
		if (h->keys[i] == key + 1)
			return h->vals[i];
		if (!h->keys[i])
			return NULL;
	}
}

static void u64map_grow(struct u64map *h)
{
	struct u64map n = { NULL, NULL, h->cap ? h->cap * 2 : 64, 0 };

	n.keys = xcalloc(n.cap, sizeof(*n.keys));
	n.vals = xcalloc(n.cap, sizeof(*n.vals));
	for (size_t i = 0; i < h->cap; i++)
		if (h->keys[i])
			u64map_put(&n, h->keys[i] - 1, h->vals[i]);
	u64map_release(h);
	*h = n;
}

void u64map_put(struct u64map *h, uint64_t key, void *val)
{
	size_t i;

	if ((h->used + 1) * 4 > h->cap * 3)
		u64map_grow(h);
	for (i = u64map_slot(key + 1, h->cap); h->keys[i]; i = (i + 1) & (h->cap - 1))
		if (h->keys[i] == key + 1) {
			h->vals[i] = val;
			return;
		}
	h->keys[i] = key + 1;
	h->vals[i] = val;
	h->used++;
}

void u64map_release(struct u64map *h)
{
	free(h->keys);
	free(h->vals);
	memset(h, 0, sizeof(*h));
}

/* --- symbol tables ------------------------------------------------------- */

static struct sym_raw *symtab_slot(struct symtab_builder *b)
{
	if (b->nr == b->alloc) {
		b->alloc = b->alloc ? b->alloc * 2 : 256;
		b->v = xrealloc(b->v, b->alloc * sizeof(*b->v));
	}
	return &b->v[b->nr];
}

void symtab_push(struct symtab_builder *b, const struct sym_raw *s)
{
	struct sym_raw *slot = symtab_slot(b);

	*slot = *s;
	slot->seq = (uint32_t)b->nr++;
}

struct sym_raw *symtab_add(struct symtab_builder *b, uint64_t start, uint64_t size,
			   uint8_t bind, const char *name, size_t name_len)
{
	struct sym_raw *s = symtab_slot(b);

	s->start = start;
	s->end = start + size;
	s->name = strpool_add(b->pool, name, name_len);
	s->seq = (uint32_t)b->nr++;
	s->bind = bind;
	s->module_sym = false;
	return s;
}

static int sym_raw_cmp(const void *a, const void *b)
{
	const struct sym_raw *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* kallsyms comes in address order (and a table once fixed up stays so):
 * checking first spares a full sort of 100K+ kernel symbols. */
static void sym_raw_sort(struct sym_raw *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (sym_raw_cmp(&v[i - 1], &v[i]) > 0) {
			qsort(v, n, sizeof(*v), sym_raw_cmp);
			return;
		}
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Of two symbols at one address, is a the one to keep? perf's order of
 * preference: has a size, not weak, global, fewer leading underscores,
 * longer name, then the first seen. */
static bool sym_prefer_first(const struct sym_raw *a, const struct sym_raw *b)
{
	bool a_sized = a->end > a->start, b_sized = b->end > b->start;
	size_t ua, ub, la, lb;

	if (a_sized != b_sized)
		return a_sized;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	ua = leading_underscores(a->name);
	ub = leading_underscores(b->name);
	if (ua != ub)
		return ua < ub;
	la = strlen(a->name);
	lb = strlen(b->name);
	if (la != lb)
		return la > lb;
	return true;
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

void symtab_fixup(struct symtab_builder *b, bool kallsyms)
{
	size_t n = 0;

	sym_raw_sort(b->v, b->nr);

	/* Zero-size symbols end where the next one starts; in kallsyms the
	 * kernel/module boundary instead ends them on the next page. */
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

	/* One symbol per address. */
	for (size_t i = 0; i < b->nr; i++) {
		if (n && b->v[n - 1].start == b->v[i].start) {
			if (!sym_prefer_first(&b->v[n - 1], &b->v[i]))
				b->v[n - 1] = b->v[i];
			continue;
		}
		b->v[n++] = b->v[i];
	}
	b->nr = n;
}

void dso__install_symbols(struct dso *dso, struct symtab_builder *b,
			  struct symtab_builder *late, bool kallsyms)
{
	symtab_fixup(b, kallsyms);
	dso__install_symbols_raw(dso, b, late);
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
	n = b->nr;
	sym_raw_sort(b->v, n);

	free(p->syms);
	p->syms = xcalloc(n ? n : 1, sizeof(*p->syms));
	for (size_t i = 0; i < n; i++) {
		p->syms[i].start = b->v[i].start;
		p->syms[i].end = b->v[i].end;
		p->syms[i].name = b->v[i].name;
	}
	p->nr_syms = n;
	u64map_release(&p->addr_cache);
	symtab_release(b);
}
