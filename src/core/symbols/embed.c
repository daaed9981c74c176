/* embed: a machine's symbol tables as one buffer, and DSOs loading their
 * symbols from one (see embed.h; the layout is in docs/pcl-archive.1).
 *
 * The tables are the loaded ones, after every fixup, so installing them as
 * they are gives the same lookups; only perf's tree for overlapping
 * symbols is not carried: the addresses looked up in such a DSO travel
 * with what they resolved to instead.
 */
#include "core/symbols/embed.h"
#include "core/symbols/symbols-int.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define EMBED_MAGIC	"PCLSYMS1"
#define EMBED_MAGIC_LEN	8
#define NO_SYMBOL	UINT32_MAX
#define EMBED_BUILD_ID	20	/* bytes kept for a build id, as struct dso */

enum embed_kind { EMBED_FILE, EMBED_KERNEL, EMBED_MODULE, EMBED_VDSO, EMBED_PERF_MAP };

struct embed_sym {	/* the layout of one symbol in the table */
	uint64_t start, end;
	uint32_t name_off;
	uint8_t binding, object, pad[2];
};

struct embed_resolution {
	uint64_t addr;
	uint32_t sym;	/* index in the DSO's table, NO_SYMBOL: none */
	uint32_t pad;
};

struct embed_dso {	/* one DSO of a table being read: pointers into its buffer */
	const char *name;
	uint32_t name_len, nr_syms, nr_resolved, strtab_size;
	uint8_t kind, build_id_size;
	const uint8_t *build_id;
	const struct embed_sym *syms;
	const char *strtab;
	const struct embed_resolution *resolved;
};

struct symbols_embedded {
	char *raw;	/* the inflated table */
	struct embed_dso *dsos;
	size_t nr_dsos;
};

static int embed_kind_of(enum dso_kind kind)
{
	switch (kind) {
	case DSO_USER:
		return EMBED_FILE;
	case DSO_KERNEL:
		return EMBED_KERNEL;
	case DSO_MODULE:
		return EMBED_MODULE;
	case DSO_VDSO:
		return EMBED_VDSO;
	case DSO_PERF_MAP:
		return EMBED_PERF_MAP;
	default:
		return -1;
	}
}

static void put_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

static void write_dso(struct strbuf *sb, struct dso *dso, int kind)
{
	struct dso_priv *p = dso__priv(dso);
	struct strbuf names = STRBUF_INIT;
	uint32_t nr_resolved = 0;
	uint8_t id[2 + EMBED_BUILD_ID] = { (uint8_t)kind, (uint8_t)dso->build_id_size };

	memcpy(id + 2, dso->build_id, sizeof(dso->build_id));
	put_u32(sb, (uint32_t)strlen(dso->long_name));
	strbuf_addstr(sb, dso->long_name);
	strbuf_add(sb, id, sizeof(id));
	if (p->symtree)
		nr_resolved = (uint32_t)p->addr_cache.used;
	put_u32(sb, (uint32_t)p->nr_syms);
	put_u32(sb, nr_resolved);
	for (size_t i = 0; i < p->nr_syms; i++) {
		const struct symbol *s = &p->syms[i];
		struct embed_sym e = {
			.start = s->start, .end = s->end, .name_off = (uint32_t)names.len,
			.binding = s->binding, .object = s->object,
		};

		strbuf_add(&names, s->name, strlen(s->name) + 1);
		strbuf_add(sb, &e, sizeof(e));
	}
	put_u32(sb, (uint32_t)names.len);
	strbuf_add(sb, names.buf, names.len);
	strbuf_release(&names);
	for (struct symbol **v = NULL; nr_resolved && (v = hashmap_next(&p->addr_cache, v));) {
		struct embed_resolution r = { .addr = hashmap_u64_key(v), .sym = NO_SYMBOL };
		size_t idx = (size_t)(*v - p->syms);

		if (*v >= p->syms && idx < p->nr_syms)
			r.sym = (uint32_t)idx;
		strbuf_add(sb, &r, sizeof(r));
	}
}

void *symbols_embed__write(struct machine *m, size_t *size, struct symbols_embed_stats *stats)
{
	struct strbuf raw = STRBUF_INIT;
	uint32_t nr = 0;
	size_t bound;
	char *out;

	memset(stats, 0, sizeof(*stats));
	put_u32(&raw, 0);	/* the DSO count, filled in below */
	for (size_t i = 0; i < m->nr_dsos; i++) {
		struct dso *dso = m->dsos[i];
		struct dso_priv *p = dso__priv(dso);
		int kind = embed_kind_of(p->kind);

		if (kind < 0 || !p->loaded || !p->nr_syms)
			continue;
		if (p->vmlinux_path) {
			stats->skipped_kernel = p->vmlinux_path;
			continue;
		}
		write_dso(&raw, dso, kind);
		nr++;
		stats->nr_syms += p->nr_syms;
	}
	stats->nr_dsos = nr;
	if (!nr) {
		strbuf_release(&raw);
		return NULL;
	}
	memcpy(raw.buf, &nr, sizeof(nr));
	bound = ZSTD_compressBound(raw.len);
	out = xmalloc(EMBED_MAGIC_LEN + sizeof(uint64_t) + bound);
	memcpy(out, EMBED_MAGIC, EMBED_MAGIC_LEN);
	memcpy(out + EMBED_MAGIC_LEN, &(uint64_t){ raw.len }, sizeof(uint64_t));
	bound = ZSTD_compress(out + EMBED_MAGIC_LEN + sizeof(uint64_t), bound, raw.buf, raw.len,
			      ZSTD_CLEVEL_DEFAULT);
	strbuf_release(&raw);
	if (ZSTD_isError(bound)) {
		free(out);
		return NULL;
	}
	*size = EMBED_MAGIC_LEN + sizeof(uint64_t) + bound;
	return out;
}

/* Reading: a cursor that refuses to run past the end. */
struct reader {
	const char *p, *end;
	bool bad;
};

static const void *take(struct reader *r, uint64_t len)
{
	const char *at = r->p;

	if (r->bad || len > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		return NULL;
	}
	r->p += len;
	return at;
}

static uint32_t take_u32(struct reader *r)
{
	const void *v = take(r, sizeof(uint32_t));
	uint32_t x = 0;

	if (v)
		memcpy(&x, v, sizeof(x));
	return x;
}

static bool read_dso(struct reader *r, struct embed_dso *d)
{
	const uint8_t *id;

	d->name_len = take_u32(r);
	d->name = take(r, d->name_len);
	id = take(r, 2 + EMBED_BUILD_ID);
	d->nr_syms = take_u32(r);
	d->nr_resolved = take_u32(r);
	d->syms = take(r, (uint64_t)d->nr_syms * sizeof(struct embed_sym));
	d->strtab_size = take_u32(r);
	d->strtab = take(r, d->strtab_size);
	d->resolved = take(r, (uint64_t)d->nr_resolved * sizeof(struct embed_resolution));
	if (r->bad || (d->strtab_size && d->strtab[d->strtab_size - 1]))
		return false;
	d->kind = id[0];
	d->build_id_size = id[1] > EMBED_BUILD_ID ? EMBED_BUILD_ID : id[1];
	d->build_id = id + 2;
	/* the records follow names of any length: copied out, never cast */
	for (uint32_t i = 0; i < d->nr_syms; i++) {
		struct embed_sym s;

		memcpy(&s, &d->syms[i], sizeof(s));
		if (s.name_off >= d->strtab_size)
			return false;
	}
	for (uint32_t i = 0; i < d->nr_resolved; i++) {
		struct embed_resolution res;

		memcpy(&res, &d->resolved[i], sizeof(res));
		if (res.sym != NO_SYMBOL && res.sym >= d->nr_syms)
			return false;
	}
	return true;
}

static void embedded__free(struct symbols_embedded *e)
{
	if (!e)
		return;
	free(e->raw);
	free(e->dsos);
	free(e);
}

int machine__use_embedded_symbols(struct machine *m, const void *buf, size_t size)
{
	const size_t head = EMBED_MAGIC_LEN + sizeof(uint64_t);	/* magic, inflated size */
	struct symbols_embedded *e;
	struct reader r;
	uint64_t raw_size;
	uint32_t nr;

	if (size < head || memcmp(buf, EMBED_MAGIC, EMBED_MAGIC_LEN))
		return -1;
	memcpy(&raw_size, (const char *)buf + EMBED_MAGIC_LEN, sizeof(raw_size));
	if (raw_size > (1ULL << 32))
		return -1;
	e = xcalloc(1, sizeof(*e));
	e->raw = xmalloc(raw_size ? raw_size : 1);
	if (ZSTD_decompress(e->raw, raw_size, (const char *)buf + head, size - head) != raw_size)
		goto bad;
	r = (struct reader){ e->raw, e->raw + raw_size, false };
	nr = take_u32(&r);
	if (r.bad || nr > raw_size)
		goto bad;
	e->dsos = xcalloc(nr ? nr : 1, sizeof(*e->dsos));
	for (e->nr_dsos = 0; e->nr_dsos < nr; e->nr_dsos++)
		if (!read_dso(&r, &e->dsos[e->nr_dsos]))
			goto bad;
	embedded__free(m->embedded);
	m->embedded = e;
	return 0;
bad:
	embedded__free(e);
	return -1;
}

void machine__drop_embedded_symbols(struct machine *m)
{
	embedded__free(m->embedded);
	m->embedded = NULL;
}

/* The table of dso: the same name and kind, and the same build id when
 * both know one. */
static const struct embed_dso *embedded__find(const struct symbols_embedded *e,
					      const struct dso *dso, int kind)
{
	size_t len = strlen(dso->long_name);

	for (size_t i = 0; i < e->nr_dsos; i++) {
		const struct embed_dso *d = &e->dsos[i];

		if (d->kind != kind || d->name_len != len || memcmp(d->name, dso->long_name, len))
			continue;
		if (d->build_id_size && dso->build_id_size &&
		    (d->build_id_size != dso->build_id_size ||
		     memcmp(d->build_id, dso->build_id, (size_t)d->build_id_size)))
			continue;
		return d;
	}
	return NULL;
}

bool dso__load_embedded(struct dso *dso)
{
	struct dso_priv *p = dso__priv(dso);
	const struct symbols_embedded *e = p->machine->embedded;
	struct symtab_builder b = { .pool = &p->pool };
	int kind = embed_kind_of(p->kind);
	const struct embed_dso *d = e && kind >= 0 ? embedded__find(e, dso, kind) : NULL;

	if (!d)
		return false;
	for (uint32_t i = 0; i < d->nr_syms; i++) {
		struct embed_sym s;
		const char *name;

		memcpy(&s, &d->syms[i], sizeof(s));
		name = d->strtab + s.name_off;
		symtab_add(&b, s.start, s.end - s.start, s.binding, name, strlen(name))->object =
			s.object;
	}
	dso__install_symbols_raw(dso, &b, NULL);
	for (uint32_t i = 0; i < d->nr_resolved; i++) {
		struct embed_resolution r;

		memcpy(&r, &d->resolved[i], sizeof(r));
		dso__cache_resolution(dso, r.addr, r.sym == NO_SYMBOL ? NULL : &p->syms[r.sym]);
	}
	if (p->kind == DSO_KERNEL)
		kernel_map__cover_symbols(dso);
	return true;
}
