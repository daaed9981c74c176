/* kernel-maps: the running kernel's text and modules (see kernel-maps.h). */
#include "core/symbols/kernel-maps.h"
#include "core/symbols/machine.h"
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

int kallsyms__for_each(const char *path, kallsyms_fn fn, void *arg)
{
	FILE *f = fopen(path ? path : "/proc/kallsyms", "r");
	char line[512];
	int ret = 0;

	if (!f)
		return -1;
	while (!ret && fgets(line, sizeof(line), f)) {
		char sym[256], type;
		unsigned long long a;

		if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3)
			ret = fn(a, type, sym, arg);
	}
	fclose(f);
	return ret;
}

struct symbol_lookup {
	const char *name;
	uint64_t *addr;
};

static int match_name(uint64_t addr, char type, const char *name, void *arg)
{
	struct symbol_lookup *l = arg;

	if (strcmp(name, l->name))
		return 0;
	*l->addr = addr;
	return 1;
}

int kallsyms__symbol_addr(const char *path, const char *name, uint64_t *addr)
{
	struct symbol_lookup l = { name, addr };

	return kallsyms__for_each(path, match_name, &l) == 1 ? 0 : -1;
}

int kernel_text__range(const char *kallsyms, uint64_t *start, uint64_t *end)
{
	if (kallsyms__symbol_addr(kallsyms, "_text", start) &&
	    kallsyms__symbol_addr(kallsyms, "_stext", start))
		return -1;
	/* Without _etext the kernel map runs to the top of the address space. */
	if (kallsyms__symbol_addr(kallsyms, "_etext", end) || *end <= *start)
		*end = ~0ULL;
	return 0;
}

/* Finds a module's file under /lib/modules/<release> through modules.dep
 * ("kernel/fs/xfs/xfs.ko: deps..."), treating '-' and '_' as equal.
 * Returns a malloc'ed path or NULL. */
static char *module_path(const char *name)
{
	struct utsname u;
	char *dep, *path = NULL;
	FILE *f;
	char line[4096];

	if (uname(&u))
		return NULL;
	dep = xasprintf("/lib/modules/%s/modules.dep", u.release);
	f = fopen(dep, "r");
	free(dep);
	if (!f)
		return NULL;
	while (!path && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *base, *dot;
		size_t i;

		if (!colon)
			continue;
		*colon = 0;
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		dot = strstr(base, ".ko");
		if (!dot || (size_t)(dot - base) != strlen(name))
			continue;
		for (i = 0; name[i]; i++) {
			char a = base[i] == '-' ? '_' : base[i];
			char b = name[i] == '-' ? '_' : name[i];

			if (a != b)
				break;
		}
		if (!name[i])
			path = line[0] == '/' ? xstrdup(line) :
			       xasprintf("/lib/modules/%s/%s", u.release, line);
	}
	fclose(f);
	return path;
}

int running_modules__for_each(module_fn cb, void *arg)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[1024];
	int err = 0;

	if (!f)
		return 0;	/* no modules (or no module support) */
	while (!err && fgets(line, sizeof(line), f)) {
		char name[256], *sect, *txt, *path;
		unsigned long long size, addr = 0;

		if (sscanf(line, "%255s %llu %*s %*s %*s %llx", name, &size, &addr) < 2)
			continue;
		sect = xasprintf("/sys/module/%s/sections/.text", name);
		txt = read_file_str(sect);
		free(sect);
		if (txt) {
			unsigned long long t = strtoull(txt, NULL, 16);

			if (t)
				addr = t;
			free(txt);
		}
		if (!addr)
			continue;	/* addresses hidden (kptr_restrict) */
		path = module_path(name);
		err = cb(name, path, addr, size, arg);
		free(path);
	}
	fclose(f);
	return err;
}

static int add_module_map(const char *name, const char *path, uint64_t start, uint64_t size,
			  void *arg)
{
	char *label = path ? NULL : xasprintf("[%s]", name);

	machine__process_mmap(arg, -1, 0, start, size, 0, path ? path : label,
			      PERF_RECORD_MISC_KERNEL, NULL, 0);
	free(label);
	return 0;
}

int machine__add_running_kernel_maps(struct machine *m, bool *no_modules)
{
	struct map *kmap;
	uint64_t start, end;

	if (kernel_text__range(NULL, &start, &end) < 0)
		return -1;
	/* pgoff is the _text address, as in perf record's kernel MMAP */
	machine__process_mmap(m, -1, 0, start, end - start, start, "[kernel.kallsyms]_text",
			      PERF_RECORD_MISC_KERNEL, NULL, 0);
	*no_modules = access("/proc/modules", R_OK) != 0;
	running_modules__for_each(add_module_map, m);
	/* Loading kallsyms stretches the kernel map over init text, as a
	 * recorded kernel map is; perf's map of the running kernel stays
	 * [_text, _etext): its symbols past _etext are not found. */
	dso__load(machine__kernel_dso(m));
	kmap = maps__find(machine__kmaps(m), start);
	if (kmap && kmap->identity)	/* kallsyms': a vmlinux's is its .text */
		kmap->end = end;
	return 0;
}

/* The lowest-addressed symbol called name (perf's by-name tree keeps
 * equal names in address order and answers with the first). */
static struct symbol *dso__first_symbol_named(struct dso *dso, const char *name)
{
	struct dso_priv *p = dso__priv(dso);

	dso__load(dso);
	dso__demangle_all(dso);
	for (size_t i = 0; i < p->nr_syms; i++)
		if (!strcmp(p->syms[i].name, name))
			return &p->syms[i];
	return NULL;
}

struct symbol *machine__find_kernel_symbol_by_name(struct machine *m, const char *name,
						   struct map **map)
{
	struct maps *kmaps = machine__kmaps(m);

	for (size_t i = 0; i < kmaps->nr; i++) {
		struct map *pos = kmaps->v[i];
		struct symbol *sym = dso__first_symbol_named(pos->dso, name);
		uint64_t ip;

		if (!sym)
			continue;
		ip = map__unmap_ip(pos, sym->start);
		if (ip >= pos->start && ip < pos->end) {
			if (map)
				*map = pos;
			return sym;
		}
	}
	return NULL;
}
