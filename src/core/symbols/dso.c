/* dso: one loaded object (ELF file, kernel, module, vdso, JIT map) with its
 * symbol table, loaded once on first use and searched by address through
 * a per-DSO cache so each distinct address is resolved once.
 */
#include "core/symbols/symbols-int.h"
#include "core/symbols/symtree.h"
#include "util/hashmap.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static struct symbol no_symbol;	/* cache value for "looked up, none" */

struct dso *dso__new(struct machine *m, const char *long_name, enum dso_kind kind)
{
	struct dso *dso = xcalloc(1, sizeof(*dso));
	struct dso_priv *p = xcalloc(1, sizeof(*p));
	const char *slash = strrchr(long_name, '/');

	dso->priv = p;
	p->machine = m;
	p->config = &m->config;
	p->kind = kind;
	dso->long_name = xstrdup(long_name);
	/* perf keeps "[vdso]", "[kernel.kallsyms]" and "[module]" whole, and
	 * calls a JIT's /tmp/perf-PID.map "[JIT] tid PID". */
	if (kind == DSO_PERF_MAP)
		dso__set_short_name(dso, xasprintf("[JIT] tid %d",
						   atoi(long_name + strlen("/tmp/perf-"))));
	else
		dso__set_short_name(dso, xstrdup(slash && long_name[0] != '[' ? slash + 1 :
									       long_name));
	dso->kernel = kind == DSO_KERNEL || kind == DSO_MODULE || kind == DSO_KERNEL_SECTION;
	return dso;
}

void dso__delete(struct dso *dso)
{
	struct dso_priv *p;

	if (!dso)
		return;
	p = dso__priv(dso);
	cache_slots__release(&p->caches);
	free(p->syms);
	symtree__delete(p->symtree);
	arena_release(&p->pool);
	for (size_t i = 0; i < p->nr_strtabs; i++)
		munmap(p->strtabs[i].base, p->strtabs[i].len);
	free(p->strtabs);
	hashmap_release(&p->addr_cache);
	free(p->elf_path);
	free(p->debug_path);
	free(p->vmlinux_path);
	free(p->loads);
	free(p->image);
	if (p->data_open && p->data_fd >= 0)
		close(p->data_fd);
	free(p);
	free(dso->long_name);
	free(dso->short_name);
	free(dso);
}

long dso__read(struct dso *dso, uint64_t off, void *buf, size_t len)
{
	struct dso_priv *p = dso__priv(dso);
	ssize_t n;

	if (p->kind != DSO_USER && p->kind != DSO_VDSO)
		return -1;
	dso__load(dso);
	if (p->image) {
		if (off >= p->image_size)
			return -1;
		if (len > p->image_size - off)
			len = (size_t)(p->image_size - off);
		memcpy(buf, (char *)p->image + off, len);
		return (long)len;
	}
	if (!p->data_open) {
		p->data_open = true;
		p->data_fd = p->elf_path ? open(p->elf_path, O_RDONLY | O_CLOEXEC) : -1;
	}
	if (p->data_fd < 0)
		return -1;
	do
		n = pread(p->data_fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -1 : (long)n;
}

bool dso__has_elf_image(const struct dso *dso)
{
	const struct dso_priv *p = dso__priv(dso);

	return p->loaded && (p->elf_path || p->image);
}

const char *dso__image_path(struct dso *dso)
{
	dso__load(dso);
	return dso__priv(dso)->elf_path;
}

char dso__symtab_origin(const struct dso *dso)
{
	const struct dso_priv *p = dso__priv(dso);
	const char *path = p->debug_path;
	const char *cache = p->config->buildid_dir;

	if (p->vmlinux_path)
		return 'v';
	switch (p->kind) {
	case DSO_KERNEL:
		if (p->config->guest)	/* a guest's kallsyms, if it had one */
			return p->nr_syms ? 'g' : '!';
		return 'k';
	case DSO_PERF_MAP:
		return 'j';
	case DSO_MODULE:
		return 'K';
	default:
		break;
	}
	if (!path)
		return '!';
	if (!strcmp(path, dso__shown_long_name(dso)))	/* top's copy of the vdso */
		return 'd';
	if (cache && *cache && !strncmp(path, cache, strlen(cache)))
		return str_ends_with(path, "/debug") ? 'D' : 'B';
	if (!strncmp(path, "/usr/lib/debug/.build-id/", 25))
		return 'b';
	if (!strncmp(path, "/usr/lib/debug/", 15))
		return str_ends_with(path, ".debug") ? 'f' : 'u';
	return str_ends_with(path, dso->long_name) ? 'd' : 'l';
}

uint64_t dso__shown_addr(const struct dso *dso, uint64_t addr)
{
	return addr + dso__priv(dso)->vmlinux_shift;
}

void *dso__cache(const struct dso *dso, const struct cache_kind *kind)
{
	return cache_slots__get(dso__priv(dso)->caches, kind);
}

void dso__set_cache(struct dso *dso, const struct cache_kind *kind, void *cache)
{
	cache_slots__set(&dso__priv(dso)->caches, kind, cache);
}

void dso__set_short_name(struct dso *dso, char *name)
{
	free(dso->short_name);
	dso->short_name = name;
	dso->short_name_hash = hash_string(name, strlen(name));
}

void dso__set_build_id(struct dso *dso, const uint8_t *id, int size)
{
	if (size <= 0)
		return;
	if (size > (int)sizeof(dso->build_id))
		size = sizeof(dso->build_id);
	memcpy(dso->build_id, id, (size_t)size);
	dso->build_id_size = size;
	dso__priv(dso)->build_id_read = true;
}

void dso__cache_resolution(struct dso *dso, uint64_t addr, struct symbol *sym)
{
	hashmap_u64_put(&dso__priv(dso)->addr_cache, addr, sym ? sym : &no_symbol);
}

void dso__load(struct dso *dso)
{
	struct dso_priv *p = dso__priv(dso);
	struct dso *kernel;

	if (p->loaded)
		return;
	p->loaded = true;
	if (p->machine->embedded && dso__load_embedded(dso))
		return;
	switch (p->kind) {
	case DSO_KERNEL:
		dso__load_kernel(dso, p->config);
		break;
	case DSO_MODULE:
		/* Module symbols come with the kernel's kallsyms. */
		kernel = machine__kernel_dso(p->machine);
		if (kernel)
			dso__load(kernel);
		break;
	case DSO_PERF_MAP:
		dso__load_perf_map(dso, p->config);
		break;
	case DSO_USER:
	case DSO_VDSO:
		dso__load_elf(dso, p->config);
		break;
	case DSO_NONE:
	case DSO_KERNEL_SECTION:	/* filled with the kernel's */
		break;
	}
}

static struct symbol *symbols__search(struct symbol *syms, size_t nr, uint64_t addr)
{
	size_t lo = 0, hi = nr;

	/* Last symbol starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Symbols can nest (a sized symbol covering later ones): look back a
	 * little for one that contains addr. */
	for (size_t i = lo, seen = 0; i > 0 && seen < 16; i--, seen++) {
		struct symbol *s = &syms[i - 1];

		if (addr < s->end || (addr == s->start && s->end == s->start))
			return s;
	}
	return NULL;
}

size_t dso__loaded_symbols(struct dso *dso, const struct symbol **syms, bool *loaded)
{
	const struct dso_priv *p = dso__priv(dso);

	*loaded = p->loaded;
	dso__demangle_all(dso);
	*syms = p->syms;
	return p->loaded ? p->nr_syms : 0;
}

size_t dso__symbols(struct dso *dso, const struct symbol **syms)
{
	struct dso_priv *p = dso__priv(dso);

	dso__load(dso);
	dso__demangle_all(dso);
	*syms = p->syms;
	return p->nr_syms;
}

struct symbol *dso__find_symbol(struct dso *dso, uint64_t addr)
{
	struct dso_priv *p;
	struct symbol *s;

	if (!dso)
		return NULL;
	p = dso__priv(dso);
	dso__load(dso);
	if (!p->nr_syms)
		return NULL;
	s = hashmap_u64_get(&p->addr_cache, addr);
	if (!s) {
		s = p->symtree ? symtree__find(p->symtree, addr) :
				 symbols__search(p->syms, p->nr_syms, addr);
		hashmap_u64_put(&p->addr_cache, addr, s ? s : &no_symbol);
		if (s)
			symbol__demangle(s, &p->pool);
	}
	return s == &no_symbol ? NULL : s;
}
