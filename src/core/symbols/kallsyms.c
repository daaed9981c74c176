/* kallsyms: the kernel's symbols from /proc/kallsyms (or --kallsyms FILE,
 * or the copy perf record left in the build-id cache).  Text and data
 * symbols are kept (types T W D B, either case); a symbol ends where the
 * next begins.  "name\t[module]" symbols go to the module's DSO, relative
 * to its map.  When the kernel was relocated (KASLR) since the recording,
 * the _text address in the kernel MMAP record gives the shift.
 */
#include "core/symbols/kernel-maps.h"
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <elf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Does every module symbol of the kallsyms text buf lie in that module as
 * /proc/modules places it now, and is every loaded module there?  bpf
 * programs and ftrace trampolines ("[bpf]", "[__builtin__...]") come and go
 * but belong to no mapped module: readers drop them anyway. */
static bool kallsyms_modules_current(const char *buf)
{
	char *mods = read_file_str("/proc/modules");
	size_t nr_loaded = 0, nr_seen = 0;
	struct loaded { char name[64]; uint64_t start, end; bool seen; } *loaded = NULL;
	bool ok = true;

	for (char *line = mods; line && *line; ) {
		char *eol = strchrnul(line, '\n');
		unsigned long long size, addr;
		char name[64];

		if (sscanf(line, "%63s %llu %*s %*s %*s %llx", name, &size, &addr) == 3) {
			loaded = xrealloc(loaded, (nr_loaded + 1) * sizeof(*loaded));
			snprintf(loaded[nr_loaded].name, sizeof(loaded->name), "%s", name);
			loaded[nr_loaded].start = addr;
			loaded[nr_loaded].end = addr + size;
			loaded[nr_loaded++].seen = false;
		}
		line = *eol ? eol + 1 : eol;
	}
	free(mods);
	for (const char *tab = strstr(buf, "\t["); ok && tab; tab = strstr(tab + 2, "\t[")) {
		const char *bol = tab, *name = tab + 2, *close = strchr(name, ']');
		size_t len = close ? (size_t)(close - name) : 0;
		uint64_t addr;
		size_t i;

		while (bol > buf && bol[-1] != '\n')
			bol--;
		addr = strtoull(bol, NULL, 16);
		if ((len == 3 && !memcmp(name, "bpf", 3)) || !strncmp(name, "__builtin__", 11))
			continue;
		for (i = 0; i < nr_loaded; i++)
			if (strlen(loaded[i].name) == len && !memcmp(loaded[i].name, name, len))
				break;
		ok = i < nr_loaded && addr >= loaded[i].start && addr < loaded[i].end;
		if (ok && !loaded[i].seen) {
			loaded[i].seen = true;
			nr_seen++;
		}
	}
	free(loaded);
	return ok && nr_seen == nr_loaded;
}

/*
 * Which kallsyms file describes the recorded kernel: perf's choice, except
 * that when the running kernel is the recorded one, the copy perf record
 * left in the build-id cache is read instead of /proc/kallsyms as long as
 * its modules still sit where they are loaded now.  That copy holds the
 * same symbols, and reading it takes a few ms where the kernel spends ~70
 * ms formatting /proc/kallsyms.
 */
static char *kallsyms_for(struct dso *kernel, const struct symbols_config *config,
			  bool *running_copy)
{
	const char *forced = config->kallsyms;
	uint8_t running[20];
	int n;
	char hex[41], *cached;

	*running_copy = false;
	if (forced && *forced)
		return xstrdup(forced);
	n = sysfs__read_kernel_build_id(running, sizeof(running));
	if (!kernel->build_id_size)
		return xstrdup("/proc/kallsyms");
	build_id__hex(kernel->build_id, kernel->build_id_size, hex);
	cached = xasprintf("%s/[kernel.kallsyms]/%s/kallsyms", config->buildid_dir, hex);
	if (n == kernel->build_id_size && !memcmp(running, kernel->build_id, (size_t)n)) {
		if (access(cached, R_OK)) {
			free(cached);
			return xstrdup("/proc/kallsyms");
		}
		*running_copy = true;
	}
	return cached;
}

/* The kernel takes ~70 ms to format /proc/kallsyms: a reader that will
 * need the kernel's symbols starts that read on another thread while it
 * goes through the events.  One prefetch per process. */
static struct {
	pthread_t thread;
	char *path, *buf;
	bool running;
} prefetch;

static void *prefetch_main(void *arg)
{
	prefetch.buf = read_file_str(prefetch.path);
	return NULL;
}

void machine__prefetch_kallsyms(struct machine *m)
{
	struct dso *kernel = NULL;
	bool running_copy;

	for (size_t i = 0; i < m->nr_dsos && !kernel; i++)
		if (!strcmp(m->dsos[i]->long_name, "[kernel.kallsyms]"))
			kernel = m->dsos[i];
	/* the file's build-id table names the kernel only when it was hit;
	 * tables the file carries may name it too */
	if (prefetch.running || !kernel || !kernel->build_id_size || m->embedded)
		return;
	prefetch.path = kallsyms_for(kernel, &m->config, &running_copy);
	prefetch.buf = NULL;
	prefetch.running = !pthread_create(&prefetch.thread, NULL, prefetch_main, NULL);
	if (!prefetch.running) {
		free(prefetch.path);
		prefetch.path = NULL;
	}
}

/* The prefetched text of path, or NULL (then read it now). */
static char *prefetched(const char *path)
{
	char *buf;

	if (!prefetch.running)
		return NULL;
	pthread_join(prefetch.thread, NULL);
	prefetch.running = false;
	buf = prefetch.buf;
	if (strcmp(prefetch.path, path)) {
		free(buf);
		buf = NULL;
	}
	free(prefetch.path);
	prefetch.path = NULL;
	prefetch.buf = NULL;
	return buf;
}

void kallsyms_prefetch_end(void)
{
	free(prefetched(""));
}

static bool kallsyms_type_wanted(char type)
{
	type = (char)(type & ~0x20);	/* upper case, for letters */
	return type == 'T' || type == 'W' || type == 'D' || type == 'B';
}

static uint8_t kallsyms_bind(char type)
{
	if (type == 'W' || type == 'w')
		return STB_WEAK;
	return type >= 'A' && type <= 'Z' ? STB_GLOBAL : STB_LOCAL;
}

/* A hex digit's value plus one; 0 for every other byte. */
static const uint8_t hex_value1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* Parses kallsyms lines into b; sets *text to the _text address (0 if
 * absent); objects: data symbols (D, B) are marked so.  Returns the number
 * of symbols or -1 when unreadable.  The file is read whole and parsed in
 * place: /proc/kallsyms has 100K+ lines, so the names stay in the buffer
 * (cut at their line ends), which b's pool then owns. */
static int kallsyms__parse(const char *path, bool running_copy, bool objects,
			   struct symtab_builder *b, uint64_t *text)
{
	char *buf = prefetched(path), *line, *next, *end;
	int n = 0;

	*text = 0;
	if (!buf)
		buf = read_file_str(path);
	if (!buf)
		return -1;
	if (running_copy && !kallsyms_modules_current(buf)) {
		free(buf);
		return kallsyms__parse("/proc/kallsyms", false, objects, b, text);
	}
	end = buf + strlen(buf);
	/* a line is at least "0 T x\n" and 64-bit addresses make it 21+ */
	symtab_reserve(b, (size_t)(end - buf) / 20 + 16);
	for (line = buf; line < end; line = next) {
		char *p = line, *name, *eol = memchr(line, '\n', (size_t)(end - line));
		uint64_t addr = 0;
		size_t len;
		char type;
		int d;

		next = eol ? eol + 1 : end;
		if (!eol)
			eol = end;
		while (eol > line && eol[-1] == '\r')
			eol--;
		while ((d = hex_value1[(unsigned char)*p])) {
			addr = addr << 4 | (uint64_t)(d - 1);
			p++;
		}
		if (p == line || p + 3 >= eol || p[0] != ' ' || p[2] != ' ')
			continue;
		type = p[1];
		name = p + 3;
		len = (size_t)(eol - name);
		if (!*text && len == 5 && !memcmp(name, "_text", 5))
			*text = addr;
		if (!kallsyms_type_wanted(type) || len >= 512)
			continue;
		*eol = '\0';
		struct sym_raw *s = symtab_add_ref(b, addr, 0, kallsyms_bind(type), name);

		s->module_sym = memchr(name, '[', len) != NULL;
		s->object = objects && strchr("DdBb", type);
		n++;
	}
	arena_own(b->pool, buf);
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

	/* a guest's kernel map is its symbols' span exactly (perf's
	 * map__fixup_start/end) */
	if (p->config->guest && p->nr_syms) {
		kmap->start = p->syms[0].start;
		kmap->end = p->syms[p->nr_syms - 1].end;
		kmaps->generation++;
		return;
	}
	if (!p->nr_syms || (end = p->syms[p->nr_syms - 1].end) <= kmap->end)
		return;
	for (size_t i = 0; i < kmaps->nr; i++)
		if (kmaps->v[i]->start >= kmap->end && kmaps->v[i]->start < end)
			end = kmaps->v[i]->start;
	kmap->end = end;
	kmaps->generation++;
}

void kernel_map__cover_symbols(struct dso *kernel)
{
	struct dso_priv *p = dso__priv(kernel);
	struct maps *kmaps = machine__kmaps(p->machine);
	struct map *kmap = kmaps__find_dso(kmaps, kernel);

	if (kmap)
		kmap__cover_symbols(kmaps, kmap, p);
}

struct module_syms {
	struct dso *dso;
	struct map *map;
	struct symtab_builder b;
};

int dso__load_kallsyms(struct dso *kernel, const struct symbols_config *config)
{
	struct dso_priv *p = dso__priv(kernel);
	struct machine *m = p->machine;
	struct maps *kmaps = machine__kmaps(m);
	struct symtab_builder all = { .pool = &p->pool };
	struct module_syms *mods = NULL;
	size_t nmods = 0;
	struct map *kmap = kmaps__find_dso(kmaps, kernel);
	bool running_copy = false;
	char *path = kallsyms_for(kernel, config, &running_copy);
	uint64_t text, delta = 0;

	if (kallsyms__parse(path, running_copy, false, &all, &text) < 0) {
		free(path);
		return -1;
	}
	free(path);
	/* The recorded _text (the kernel map's pgoff) vs this file's. */
	if (kmap && kmap->pgoff && text)
		delta = text - kmap->pgoff;
	symtab_fixup(&all, true);

	/* the kernel's symbols stay in all, moved down over the modules' */
	size_t nr_kernel = 0;

	for (size_t i = 0; i < all.nr; i++) {
		struct sym_raw s = all.v[i];
		char *tab = s.module_sym ? strchr(s.name, '\t') : NULL;
		struct module_syms *ms = NULL;
		char modname[256];

		if (!tab) {
			s.start -= delta;
			s.end -= delta;
			s.seq = (uint32_t)nr_kernel;
			all.v[nr_kernel++] = s;
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
	all.nr = nr_kernel;
	dso__install_symbols(kernel, &all, NULL, true);
	if (kmap)
		kmap__cover_symbols(kmaps, kmap, p);
	return 0;
}

int kallsyms_table__load(struct kallsyms_table *t, const char *path)
{
	struct symtab_builder b = { .pool = &t->pool };
	uint64_t text;

	t->v = NULL;
	t->nr = 0;
	if (kallsyms__parse(path ? path : "/proc/kallsyms", false, true, &b, &text) < 0)
		return -1;
	/* perf probe keeps aliases: only the ends are fixed */
	symtab_fix_ends(&b, true);
	t->v = xmalloc((b.nr + 1) * sizeof(*t->v));
	for (size_t i = 0; i < b.nr; i++)
		if (!b.v[i].module_sym)
			t->v[t->nr++] = (struct kallsyms_entry){ b.v[i].start, b.v[i].end,
								 b.v[i].name, !b.v[i].object };
	free(b.v);
	return 0;
}

void kallsyms_table__exit(struct kallsyms_table *t)
{
	free(t->v);
	t->v = NULL;
	t->nr = 0;
	arena_release(&t->pool);
}
