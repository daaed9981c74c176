/* machine: the host's address spaces as perf.data records build them up —
 * the kernel's maps, one maps set per process, and the DSOs they share
 * (interned by path) — and the lookups readers make: an ip, a callchain.
 */
#include "core/symbols/buildid-cache.h"
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define KERNEL_MMAP_NAME "[kernel.kallsyms]"
#define GUEST_KERNEL_MMAP_NAME "[guest.kernel.kallsyms]"

struct machine *machine__new(void)
{
	struct machine *m = xcalloc(1, sizeof(*m));
	struct thread *idle;

	m->kmaps = maps__new();
	m->kernel_name = KERNEL_MMAP_NAME;
	hashmap_init(&m->cgroups, sizeof(char *));
	m->default_buildid_dir = build_id_cache__dir();
	m->config = (struct symbols_config){
		.buildid_dir = m->default_buildid_dir,
		.demangle = true,
		.inline_frames = true,
	};
	/* perf registers the idle task as "swapper". */
	idle = machine__findnew_thread(m, 0, 0);
	free(idle->comm);
	idle->comm = xstrdup("swapper");
	idle->comm_set = true;
	return m;
}

void machine__delete(struct machine *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_threads; i++)
		thread__delete(m->all_threads[i]);
	maps__put(m->kmaps);
	for (size_t i = 0; i < m->nr_maps; i++)
		free(m->all_maps[i]);
	for (size_t i = 0; i < m->nr_dsos; i++)
		dso__delete(m->dsos[i]);
	free(m->all_threads);
	free(m->all_maps);
	free(m->dsos);
	hashmap_release(&m->threads);
	hashmap_release(&m->dso_index);
	for (char **path = NULL; (path = hashmap_next(&m->cgroups, path));)
		free(*path);
	hashmap_release(&m->cgroups);
	free(m->default_buildid_dir);
	free(m->kernel_ref_sym);
	machine__drop_embedded_symbols(m);
	free(m);
}

struct machine *machine__new_guest(void)
{
	struct machine *m = machine__new();

	m->kernel_name = GUEST_KERNEL_MMAP_NAME;
	m->config.guest = true;
	return m;
}

struct symbols_config *machine__symbols_config(struct machine *m)
{
	return &m->config;
}

const char *symbols_config__symfs(const struct symbols_config *config)
{
	return config->symfs ? config->symfs : "";
}

uint64_t machine__maps_generation(const struct machine *m)
{
	return m->maps_generation;
}

void machine__maps_changed(struct machine *m)
{
	m->maps_generation++;
}

struct maps *machine__kmaps(struct machine *m)
{
	return m->kmaps;
}

struct dso *machine__kernel_dso(struct machine *m)
{
	return m->kernel;
}

bool machine__kernel_unplaced(struct machine *m, bool *has_symbols)
{
	const struct symbol *syms;
	bool loaded;

	*has_symbols = m->kernel_mapped && dso__loaded_symbols(m->kernel, &syms, &loaded) > 0;
	return !m->kernel_mapped || (m->kernel->hit && !m->kernel_ref_sym);
}

struct map *machine__new_map(struct machine *m)
{
	if (m->nr_maps == m->alloc_maps) {
		m->alloc_maps = m->alloc_maps ? m->alloc_maps * 2 : 64;
		m->all_maps = xrealloc(m->all_maps, m->alloc_maps * sizeof(*m->all_maps));
	}
	return m->all_maps[m->nr_maps++] = xcalloc(1, sizeof(struct map));
}

/* --- DSOs ---------------------------------------------------------------- */

static struct dso *machine__find_dso(struct machine *m, const char *name)
{
	for (struct dso *d = hashmap_u64_get(&m->dso_index, hash_string(name, strlen(name))); d;
	     d = dso__priv(d)->next_in_bucket)
		if (!strcmp(d->long_name, name))
			return d;
	return NULL;
}

bool str_ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/* What a path names: perf's conventions for special mappings. */
static enum dso_kind dso_kind_of(const struct machine *m, const char *name, bool kernel_space)
{
	if (!strcmp(name, m->kernel_name))
		return DSO_KERNEL;
	if (!strcmp(name, "[vdso]"))
		return DSO_VDSO;
	if (kernel_space)
		return DSO_MODULE;
	if (str_starts_with(name, "/tmp/perf-") && str_ends_with(name, ".map"))
		return DSO_PERF_MAP;
	if (name[0] == '[' || str_starts_with(name, "//anon") ||
	    str_starts_with(name, "/dev/zero") || str_starts_with(name, "/anon_hugepage") ||
	    str_starts_with(name, "/SYSV"))
		return DSO_NONE;
	return DSO_USER;
}

static struct dso *machine__findnew_dso(struct machine *m, const char *name, bool kernel_space)
{
	struct dso *d = machine__find_dso(m, name);
	uint64_t h;

	if (d)
		return d;
	d = dso__new(m, name, dso_kind_of(m, name, kernel_space));
	h = hash_string(name, strlen(name));
	dso__priv(d)->next_in_bucket = hashmap_u64_get(&m->dso_index, h);
	hashmap_u64_put(&m->dso_index, h, d);
	if (m->nr_dsos == m->alloc_dsos) {
		m->alloc_dsos = m->alloc_dsos ? m->alloc_dsos * 2 : 32;
		m->dsos = xrealloc(m->dsos, m->alloc_dsos * sizeof(*m->dsos));
	}
	m->dsos[m->nr_dsos++] = d;
	if (dso__priv(d)->kind == DSO_KERNEL)
		m->kernel = d;
	return d;
}

struct dso *machine__new_kernel_section_dso(struct machine *m, const char *name)
{
	struct dso *dso = machine__findnew_dso(m, name, true);
	struct dso_priv *p = dso__priv(dso);

	p->kind = DSO_KERNEL_SECTION;
	p->loaded = true;
	return dso;
}

/* "/lib/modules/.../e1000e.ko.xz" or "[e1000e]" -> "[e1000e]" (dashes to
 * underscores, as the kernel names modules). */
static char *module_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;
	char *name;

	if (path[0] == '[')
		return xstrdup(path);
	base = base ? base + 1 : path;
	len = strcspn(base, ".");
	name = xasprintf("[%.*s]", (int)len, base);
	for (char *c = name; *c; c++)
		if (*c == '-')
			*c = '_';
	return name;
}

struct dso *machine__find_module_dso(struct machine *m, const char *name)
{
	for (size_t i = 0; i < m->nr_dsos; i++)
		if (dso__priv(m->dsos[i])->kind == DSO_MODULE &&
		    !strcmp(m->dsos[i]->short_name, name))
			return m->dsos[i];
	return NULL;
}

void machine__set_build_id(struct machine *m, const char *filename,
			   const uint8_t *build_id, int size)
{
	bool module = str_ends_with(filename, ".ko") || strstr(filename, ".ko.") ||
		      (filename[0] == '[' && strcmp(filename, KERNEL_MMAP_NAME) &&
		       strcmp(filename, "[vdso]") && !str_starts_with(filename, "[anon"));
	struct dso *d = machine__findnew_dso(m, filename, module);

	if (module && filename[0] != '[') {
		dso__set_short_name(d, module_name(filename));
	}
	dso__set_build_id(d, build_id, size);
}

void machine__for_each_dso(struct machine *m, void (*fn)(struct dso *dso, void *arg), void *arg)
{
	for (size_t i = 0; i < m->nr_dsos; i++)
		fn(m->dsos[i], arg);
}

void machine__for_each_thread(struct machine *m, void (*fn)(struct thread *t, void *arg),
			      void *arg)
{
	for (size_t i = 0; i < m->nr_threads; i++)
		fn(m->all_threads[i], arg);
}

/* --- MMAP ---------------------------------------------------------------- */

static int machine__process_kernel_mmap(struct machine *m, uint64_t start, uint64_t len,
					uint64_t pgoff, const char *filename,
					const uint8_t *build_id, int build_id_size)
{
	struct map *map = machine__new_map(m);
	struct dso *dso;

	if (str_starts_with(filename, m->kernel_name)) {
		/* pgoff is the address of the reference symbol (_text). */
		dso = machine__findnew_dso(m, m->kernel_name, true);
		map->identity = true;
		m->kernel_mapped = true;
		free(m->kernel_ref_sym);
		m->kernel_ref_sym = pgoff ? xstrdup(filename + strlen(m->kernel_name)) : NULL;
	} else {
		char *name = module_name(filename);

		dso = machine__find_module_dso(m, name);
		if (!dso) {
			dso = machine__findnew_dso(m, filename, true);
			dso__set_short_name(dso, xstrdup(name));
		}
		free(name);
		pgoff = 0;
	}
	map->start = start;
	map->end = start + len < start ? UINT64_MAX : start + len;
	map->pgoff = pgoff;
	map->prot = PROT_EXEC | PROT_READ;
	map->dso = dso;
	dso__set_build_id(dso, build_id, build_id_size);
	maps__insert(m->kmaps, map, m);
	return 0;
}

void machine__process_ksymbol(struct machine *m, uint64_t addr, uint32_t len, bool unregister,
			      const char *name)
{
	struct map *map = maps__find(m->kmaps, addr);
	struct symtab_builder b = { 0 };
	struct dso_priv *p;

	if (unregister) {
		if (map && map->ksymbol)
			maps__remove(m->kmaps, map);
		return;
	}
	if (map || !len || addr + len < addr)
		return;
	map = machine__new_map(m);
	map->start = addr;
	map->end = addr + len;
	map->prot = PROT_EXEC | PROT_READ;
	map->ksymbol = true;
	map->dso = machine__findnew_dso(m, name, true);
	p = dso__priv(map->dso);
	p->kind = DSO_NONE;	/* its symbol is the record's, nothing to read */
	if (!p->loaded) {
		p->loaded = true;
		b.pool = &p->pool;
		symtab_add(&b, 0, len, STB_GLOBAL, name, strlen(name));
		dso__install_symbols_raw(map->dso, &b, NULL);
	}
	maps__insert(m->kmaps, map, m);
}

int machine__process_mmap2(struct machine *m, pid_t pid, pid_t tid, uint64_t start,
			   uint64_t len, uint64_t pgoff, const char *filename,
			   uint8_t cpumode, const uint8_t *build_id, int build_id_size,
			   uint32_t prot, uint32_t flags)
{
	struct thread *t;
	struct map *map;
	char *jit_name = NULL;
	bool anon, no_dso;

	if (!filename)
		return -1;
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    pid == -1)
		return machine__process_kernel_mmap(m, start, len, pgoff, filename,
						    build_id, build_id_size);
	t = machine__findnew_thread(m, pid, tid);
	anon = !strcmp(filename, "//anon") || str_starts_with(filename, "/dev/zero") ||
	       str_starts_with(filename, "/anon_hugepage") || (flags & MAP_HUGETLB);
	no_dso = str_starts_with(filename, "[stack") || str_starts_with(filename, "/SYSV") ||
		 !strcmp(filename, "[heap]");
	/* Executable anonymous memory is JIT code: perf looks for perf-PID.map. */
	if ((anon || no_dso) && (prot & PROT_EXEC))
		filename = jit_name = xasprintf("/tmp/perf-%d.map", (int)t->pid);

	map = machine__new_map(m);
	map->start = start;
	map->end = start + len;
	map->pgoff = pgoff;
	map->prot = prot;
	map->flags = flags;
	map->identity = anon || no_dso;
	map->dso = machine__findnew_dso(m, filename, false);
	if (dso__priv(map->dso)->kind == DSO_VDSO)
		map->pgoff = 0;
	dso__set_build_id(map->dso, build_id, build_id_size);
	maps__insert(thread__maps(t), map, m);
	free(jit_name);
	return 0;
}

int machine__process_mmap(struct machine *m, pid_t pid, pid_t tid, uint64_t start,
			  uint64_t len, uint64_t pgoff, const char *filename,
			  uint8_t cpumode, const uint8_t *build_id, int build_id_size)
{
	return machine__process_mmap2(m, pid, tid, start, len, pgoff, filename, cpumode,
				      build_id, build_id_size, PROT_EXEC | PROT_READ, 0);
}

/* --- resolving ----------------------------------------------------------- */

/* The map covering ip for cpumode, without loading the DSO's symbols. */
static bool machine__find_map(struct machine *m, struct thread *thread, uint8_t cpumode,
			      uint64_t ip, struct addr_location *al)
{
	struct maps *maps = NULL;

	memset(al, 0, sizeof(*al));
	al->thread = thread;
	al->addr = ip;
	al->cpumode = cpumode;
	/* a guest's sample outside a guest's machine has no map, as the
	 * hypervisor's */
	switch (m->config.guest || (cpumode != PERF_RECORD_MISC_GUEST_KERNEL &&
				    cpumode != PERF_RECORD_MISC_GUEST_USER) ?
		cpumode : PERF_RECORD_MISC_HYPERVISOR) {
	case PERF_RECORD_MISC_KERNEL:
		al->level = 'k';
		maps = m->kmaps;
		break;
	case PERF_RECORD_MISC_USER:
		al->level = '.';
		maps = thread ? thread__maps(thread) : NULL;
		break;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		al->level = 'g';
		maps = m->kmaps;
		break;
	case PERF_RECORD_MISC_GUEST_USER:
		al->level = 'u';
		maps = thread ? thread__maps(thread) : NULL;
		break;
	default:	/* hypervisor: no map */
		al->level = 'H';
		return false;
	}
	al->map = maps ? maps__find(maps, ip) : NULL;
	/* Loading kallsyms may stretch the kernel map over init text. */
	if (!al->map && maps == m->kmaps && m->kernel && !dso__priv(m->kernel)->loaded) {
		dso__load(m->kernel);
		al->map = maps__find(maps, ip);
	}
	if (!al->map)
		return false;
	/* As perf's map__load: reading a vmlinux moves the kernel map. */
	if (maps == m->kmaps)
		dso__load(al->map->dso);
	al->dso = al->map->dso;
	al->addr = map__map_ip(al->map, ip);
	return true;
}

bool machine__lookup(struct machine *m, struct thread *thread, uint8_t cpumode,
		     uint64_t ip, struct addr_location *al)
{
	if (!machine__find_map(m, thread, cpumode, ip, al))
		return false;
	al->sym = dso__find_symbol(al->dso, al->addr);
	return true;
}

/* perf's "fb" lookups: an address the sample's mode has no map for is
 * looked up in the mode its value belongs to (kernel or user). */
static uint8_t addr_cpumode(uint8_t cpumode, uint64_t addr)
{
	if (cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_USER)
		return cpumode;
	return addr >= (1ULL << 63) ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
}

bool machine__find_map_fb(struct machine *m, struct thread *thread, uint8_t cpumode,
			  uint64_t addr, struct addr_location *al)
{
	uint8_t mode = addr_cpumode(cpumode, addr);

	return machine__find_map(m, thread, cpumode, addr, al) ||
	       (mode != cpumode && machine__find_map(m, thread, mode, addr, al));
}

bool machine__find_symbol_fb(struct machine *m, struct thread *thread, uint8_t cpumode,
			     uint64_t addr, struct addr_location *al)
{
	if (!machine__find_map_fb(m, thread, cpumode, addr, al))
		return false;
	al->sym = dso__find_symbol(al->dso, al->addr);
	return true;
}

bool machine__resolve(struct machine *m, struct thread *thread, uint8_t cpumode,
		      uint64_t ip, struct addr_location *al)
{
	bool found = machine__lookup(m, thread, cpumode, ip, al);

	if (found)
		al->dso->hit = true;
	return found;
}

bool perf_context__cpumode(uint64_t marker, uint8_t *cpumode)
{
	switch (marker) {
	case PERF_CONTEXT_HV:
		*cpumode = PERF_RECORD_MISC_HYPERVISOR;
		return true;
	case PERF_CONTEXT_KERNEL:
		*cpumode = PERF_RECORD_MISC_KERNEL;
		return true;
	case PERF_CONTEXT_USER:
		*cpumode = PERF_RECORD_MISC_USER;
		return true;
	default:
		return false;
	}
}

/*
 * Where a walk keeping the outermost max entries of ips starts: at the
 * context marker governing the first kept entry, as perf's backward walk
 * never looks further.  *skip: the entries between it and that entry.
 */
static uint64_t outermost_start(const uint64_t *ips, uint64_t nr, int max, uint64_t *skip)
{
	uint64_t entries = 0, first, begin;

	*skip = 0;
	for (uint64_t i = 0; i < nr; i++)
		entries += ips[i] < PERF_CONTEXT_MAX;
	if (entries <= (uint64_t)max)
		return 0;
	entries -= (uint64_t)max;	/* now: the entries left out */
	for (first = 0;; first++)
		if (ips[first] < PERF_CONTEXT_MAX && !entries--)
			break;
	for (begin = first; begin > 0 && ips[begin - 1] < PERF_CONTEXT_MAX; begin--)
		;
	*skip = first - begin;
	if (begin > 0) {
		begin--;	/* the marker itself */
	}
	return begin;
}

void machine__process_cgroup(struct machine *m, uint64_t id, const char *path)
{
	char **slot = hashmap_u64_findnew(&m->cgroups, id, NULL);

	free(*slot);
	*slot = xstrdup(path);
}

const char *machine__cgroup_path(const struct machine *m, uint64_t id)
{
	return hashmap_u64_get(&m->cgroups, id);
}

void machine__process_cgroup_ns(struct machine *m, pid_t pid, pid_t tid, uint64_t dev,
				uint64_t ino)
{
	struct thread *t = machine__findnew_thread(m, pid, tid);

	t->cgroup_ns_dev = dev;
	t->cgroup_ns_ino = ino;
}

int machine__resolve_callchain(struct machine *m, struct thread *thread,
			       const uint64_t *ips, uint64_t nr, bool keep_outermost,
			       struct callchain_frame *frames, int max_frames)
{
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	uint64_t skip = 0, i = keep_outermost ? outermost_start(ips, nr, max_frames, &skip) : 0;
	int n = 0;

	for (; i < nr && n < max_frames; i++) {
		uint64_t ip = ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			if (!perf_context__cpumode(ip, &cpumode))
				return -1;	/* corrupted chain: perf drops it all */
			continue;
		}
		if (skip) {
			skip--;
			continue;
		}
		frames[n].ip = ip;
		frames[n].inlined = false;
		frames[n].srcline = NULL;
		machine__lookup(m, thread, cpumode, ip, &frames[n].al);
		n++;
	}
	return n;
}
