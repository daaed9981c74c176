/* kallsyms: the kernel's symbols from /proc/kallsyms (or --kallsyms FILE,
 * or the copy perf record left in the build-id cache).  Text and data
 * symbols are kept (types T W D B, either case); a symbol ends where the
 * next begins.  "name\t[module]" symbols go to the module's DSO, relative
 * to its map.  When the kernel was relocated (KASLR) since the recording,
 * the _text address in the kernel MMAP record gives the shift.
 */
#include "core/symbols.h"
#include "util/util.h"

#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which kallsyms file describes the recorded kernel: perf's choice. */
static char *kallsyms_for(struct dso *kernel)
{
	struct machine *m = dso__priv(kernel)->machine;
	const char *forced = machine__kallsyms_path(m);
	uint8_t running[20];
	int n;
	char hex[41];

	if (forced)
		return xstrdup(forced);
	n = sysfs__read_kernel_build_id(running, sizeof(running));
	if (!kernel->build_id_size ||
	    (n == kernel->build_id_size && !memcmp(running, kernel->build_id, (size_t)n)))
		return xstrdup("/proc/kallsyms");
	build_id__hex(kernel->build_id, kernel->build_id_size, hex);
	return xasprintf("%s/[kernel.kallsyms]/%s/kallsyms", machine__buildid_dir(m), hex);
}

static bool kallsyms_type_wanted(char type)
{
	type = (char)toupper((unsigned char)type);
	return type == 'T' || type == 'W' || type == 'D' || type == 'B';
}

static uint8_t kallsyms_bind(char type)
{
	if (type == 'W' || type == 'w')
		return STB_WEAK;
	return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}

/* Parses kallsyms lines into b; sets *text to the _text address (0 if
 * absent). Returns the number of symbols or -1 when unreadable. */
static int kallsyms__parse(const char *path, struct symtab_builder *b, uint64_t *text)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int n = 0;

	*text = 0;
	if (!f)
		return -1;
	while ((len = getline(&line, &cap, f)) > 0) {
		char *end, *name;
		uint64_t addr = strtoull(line, &end, 16);
		char type;
		struct sym_raw *s;

		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (end == line || *end != ' ' || !end[1] || end[2] != ' ' || !end[3])
			continue;
		type = end[1];
		name = end + 3;
		if (!*text && !strcmp(name, "_text"))
			*text = addr;
		if (!kallsyms_type_wanted(type) || strlen(name) >= 512)
			continue;
		s = symtab_add(b, addr, 0, kallsyms_bind(type), name, strlen(name));
		s->module_sym = strchr(name, '[') != NULL;
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

static struct map *kmaps__find_dso(struct maps *kmaps, const struct dso *dso)
{
	for (size_t i = 0; i < kmaps->nr; i++)
		if (kmaps->v[i]->dso == dso)
			return kmaps->v[i];
	return NULL;
}

/* The kernel MMAP record's length stops at _etext, yet samples land in
 * init text too: like perf, stretch the kernel map over its last symbol,
 * short of the next map. */
static void kmap__cover_symbols(struct maps *kmaps, struct map *kmap,
				const struct dso_priv *p)
{
	uint64_t end;

	if (!p->nr_syms || (end = p->syms[p->nr_syms - 1].end) <= kmap->end)
		return;
	for (size_t i = 0; i < kmaps->nr; i++)
		if (kmaps->v[i]->start >= kmap->end && kmaps->v[i]->start < end)
			end = kmaps->v[i]->start;
	kmap->end = end;
	kmaps->generation++;
}

struct module_syms {
	struct dso *dso;
	struct map *map;
	struct symtab_builder b;
};

int dso__load_kallsyms(struct dso *kernel, const char *path_override)
{
	struct dso_priv *p = dso__priv(kernel);
	struct machine *m = p->machine;
	struct maps *kmaps = machine__kmaps(m);
	struct symtab_builder all = { .pool = &p->pool }, ksyms = { .pool = &p->pool };
	struct module_syms *mods = NULL;
	size_t nmods = 0;
	struct map *kmap = kmaps__find_dso(kmaps, kernel);
	char *path = path_override ? xstrdup(path_override) : kallsyms_for(kernel);
	uint64_t text, delta = 0;

	if (kallsyms__parse(path, &all, &text) < 0) {
		free(path);
		return -1;
	}
	free(path);
	/* The recorded _text (the kernel map's pgoff) vs this file's. */
	if (kmap && kmap->pgoff && text)
		delta = text - kmap->pgoff;
	symtab_fixup(&all, true);

	for (size_t i = 0; i < all.nr; i++) {
		struct sym_raw s = all.v[i];
		char *tab = strchr(s.name, '\t');
		struct module_syms *ms = NULL;
		char modname[256];

		if (!tab) {
			s.start -= delta;
			s.end -= delta;
			symtab_push(&ksyms, &s);
			continue;
		}
		/* "name\t[module]": the pool string is ours to cut. */
		*tab = '\0';
		snprintf(modname, sizeof(modname), "%s", tab + 1 + strspn(tab + 1, " \t"));
		for (size_t j = 0; j < nmods && !ms; j++)
			if (!strcmp(mods[j].dso->short_name, modname))
				ms = &mods[j];
		if (!ms) {
			struct dso *mod = machine__find_module_dso(m, modname);
			struct map *map = mod ? kmaps__find_dso(kmaps, mod) : NULL;

			if (!map)
				continue;	/* no such module mapped: perf drops it */
			mods = xrealloc(mods, (nmods + 1) * sizeof(*mods));
			ms = &mods[nmods++];
			ms->dso = mod;
			ms->map = map;
			ms->b = (struct symtab_builder){ .pool = &p->pool };
		}
		if (s.end > ms->map->end)
			s.end = ms->map->end;
		s.start = map__map_ip(ms->map, s.start);
		s.end = map__map_ip(ms->map, s.end);
		symtab_push(&ms->b, &s);
	}
	for (size_t j = 0; j < nmods; j++) {
		dso__priv(mods[j].dso)->loaded = true;
		dso__install_symbols(mods[j].dso, &mods[j].b, NULL, true);
	}
	free(mods);
	free(all.v);
	dso__install_symbols(kernel, &ksyms, NULL, true);
	if (kmap)
		kmap__cover_symbols(kmaps, kmap, p);
	return 0;
}
