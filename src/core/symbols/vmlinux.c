/* vmlinux: the kernel's symbols from a vmlinux ELF image, found where perf
 * looks (-k FILE, the build-id cache, perf's vmlinux path), before falling
 * back to kallsyms.
 *
 * perf's rules: the image must carry the recorded kernel's build id (when
 * the recording names one) and a .symtab; functions, data objects and
 * labels in text sections count.  Symbols sit at file offsets (st_value
 * moved by their section's sh_addr - sh_offset); .text becomes the kernel
 * map [sh_addr, +sh_size) with pgoff sh_offset, each other section with
 * symbols a map and DSO "[kernel.kallsyms]<section>" of its own.  When the
 * recorded kernel was relocated (KASLR), the reference symbol of its MMAP
 * record (_text) gives the shift between the image and the recording.
 */
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The symbols of one DSO the image fills (the kernel, or one section's). */
struct vmlinux_part {
	struct dso *dso;
	struct symtab_builder b;
};

struct vmlinux_load {
	struct machine *machine;
	const char *path;	/* as given: report -v shows it */
	struct dso *kernel;
	struct map *kmap;
	Elf *elf;
	size_t shstrndx;
	uint64_t reloc;		/* recorded address - image address */
	bool adjust;		/* symbols to file offsets, maps with pgoff */
	bool kernel_remapped;
	struct vmlinux_part *parts;	/* [0]: the kernel */
	size_t nr_parts;
	struct map **unsized;	/* section maps awaiting an end (perf's fixup_end) */
	size_t nr_unsized;
};

static bool build_id_ok(const struct dso *kernel, Elf *elf)
{
	uint8_t id[20];
	size_t size;
	char *raw;
	int n;

	if (!kernel->build_id_size)
		return true;
	raw = elf_rawfile(elf, &size);
	n = raw ? elf_buf__read_build_id(raw, size, id, sizeof(id)) : 0;
	return n == kernel->build_id_size && !memcmp(id, kernel->build_id, (size_t)n);
}

/* The symbol table section and its header, or NULL (a stripped image). */
static Elf_Scn *find_symtab(Elf *elf, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, shdr) && shdr->sh_type == SHT_SYMTAB)
			return scn;
	return NULL;
}

/* The shift KASLR gave the recorded kernel: the reference symbol's
 * recorded address (the kernel map's pgoff) less its value here. */
static uint64_t reference_reloc(const struct vmlinux_load *l, Elf_Data *syms, size_t nr,
				size_t strndx)
{
	const char *ref = l->machine->kernel_ref_sym;

	if (!l->kmap || !l->kmap->pgoff || !ref)
		return 0;
	for (size_t i = 0; i < nr; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(syms, (int)i, &sym))
			break;
		name = elf_strptr(l->elf, strndx, sym.st_name);
		if (name && !strcmp(name, ref))
			return sym.st_value ? l->kmap->pgoff - sym.st_value : 0;
	}
	return 0;
}

static struct vmlinux_part *part_of(struct vmlinux_load *l, struct dso *dso)
{
	for (size_t i = 0; i < l->nr_parts; i++)
		if (l->parts[i].dso == dso)
			return &l->parts[i];
	l->parts = xrealloc(l->parts, (l->nr_parts + 1) * sizeof(*l->parts));
	l->parts[l->nr_parts] = (struct vmlinux_part){
		.dso = dso, .b = { .pool = &dso__priv(dso)->pool } };
	return &l->parts[l->nr_parts++];
}

/* .text: the recorded kernel map now maps the image's .text. */
static void remap_kernel(struct vmlinux_load *l, const GElf_Shdr *text)
{
	struct maps *kmaps = machine__kmaps(l->machine);

	if (!l->kmap)
		return;
	maps__remove(kmaps, l->kmap);
	l->kmap->start = text->sh_addr + l->reloc;
	l->kmap->end = l->kmap->start + text->sh_size;
	l->kmap->pgoff = text->sh_offset;
	l->kmap->identity = false;
	maps__insert(kmaps, l->kmap, l->machine);
}

/* The DSO of a section other than .text: "[kernel.kallsyms]<section>",
 * made with its map at its first symbol. */
static struct dso *section_dso(struct vmlinux_load *l, const char *secname,
			       const GElf_Shdr *shdr, uint64_t value)
{
	struct maps *kmaps = machine__kmaps(l->machine);
	char *name = xasprintf("%s%s", l->kernel->short_name, secname);
	struct dso *dso;
	struct map *map;

	for (size_t i = 0; i < kmaps->nr; i++)
		if (!strcmp(kmaps->v[i]->dso->short_name, name)) {
			free(name);
			return kmaps->v[i]->dso;
		}
	for (size_t i = 0; i < l->nr_unsized; i++)
		if (!strcmp(l->unsized[i]->dso->short_name, name)) {
			free(name);
			return l->unsized[i]->dso;
		}
	dso = machine__new_kernel_section_dso(l->machine, name);
	free(name);
	map = machine__new_map(l->machine);
	map->dso = dso;
	map->prot = PROT_EXEC | PROT_READ;
	if (l->adjust) {
		map->start = shdr->sh_addr + l->reloc;
		map->end = map->start + shdr->sh_size;
		map->pgoff = shdr->sh_offset;
		maps__insert(kmaps, map, l->machine);
	} else {
		map->start = value;
		map->identity = true;
		l->unsized = xrealloc(l->unsized, (l->nr_unsized + 1) * sizeof(*l->unsized));
		l->unsized[l->nr_unsized++] = map;
	}
	return dso;
}

/* perf's maps__fixup_end for the section maps made without a size: each
 * ends where the next map starts, the last at the top. */
static void insert_unsized(struct vmlinux_load *l)
{
	struct maps *kmaps = machine__kmaps(l->machine);

	for (size_t i = 0; i < l->nr_unsized; i++) {
		struct map *map = l->unsized[i];
		uint64_t end = UINT64_MAX;

		for (size_t j = 0; j < kmaps->nr; j++)
			if (kmaps->v[j]->start > map->start && kmaps->v[j]->start < end)
				end = kmaps->v[j]->start;
		for (size_t j = 0; j < l->nr_unsized; j++)
			if (l->unsized[j]->start > map->start && l->unsized[j]->start < end)
				end = l->unsized[j]->start;
		map->end = end;
	}
	for (size_t i = 0; i < l->nr_unsized; i++)
		maps__insert(kmaps, l->unsized[i], l->machine);
}

/* Reads the symbols; their count, or -1 when the table is unusable. */
static int read_symbols(struct vmlinux_load *l, Elf_Scn *symscn, const GElf_Shdr *symshdr)
{
	Elf_Data *syms = elf_getdata(symscn, NULL);
	size_t nr = symshdr->sh_entsize ? symshdr->sh_size / symshdr->sh_entsize : 0;
	struct dso *curr = l->kernel;
	const char *curr_section = NULL;
	int count = 0;

	if (!syms || !nr)
		return -1;
	l->reloc = reference_reloc(l, syms, nr, symshdr->sh_link);
	l->adjust = l->adjust || l->reloc;
	for (size_t i = 0; i < nr; i++) {
		GElf_Sym sym;
		GElf_Shdr shdr;
		Elf_Scn *sec;
		const char *name, *secname;
		bool label;

		if (!gelf_getsym(syms, (int)i, &sym))
			return -1;
		label = elf_sym__is_label(&sym);
		if (!label && !elf_sym__is_wanted(&sym))
			continue;
		/* perf gives up on a symbol of a section it cannot find */
		sec = elf_getscn(l->elf, sym.st_shndx);
		if (!sec || !gelf_getshdr(sec, &shdr))
			return -1;
		if (!(shdr.sh_flags & SHF_ALLOC))
			continue;
		secname = elf_strptr(l->elf, l->shstrndx, shdr.sh_name);
		if (!secname)
			secname = "";
		if (label && !strstr(secname, "text"))
			continue;
		if (l->adjust)
			sym.st_value -= shdr.sh_addr - shdr.sh_offset;
		if (!curr_section || strcmp(secname, curr_section)) {
			if (!strcmp(secname, ".text")) {
				if (!l->kernel_remapped) {
					l->kernel_remapped = true;
					remap_kernel(l, &shdr);
				}
				curr = l->kernel;
			} else {
				curr = section_dso(l, secname, &shdr, sym.st_value);
			}
			curr_section = secname;
		}
		name = elf_strptr(l->elf, symshdr->sh_link, sym.st_name);
		if (!name)
			continue;
		symtab_add(&part_of(l, curr)->b, sym.st_value, sym.st_size,
			   GELF_ST_BIND(sym.st_info), name, strlen(name))->object =
			GELF_ST_TYPE(sym.st_info) == STT_OBJECT;
		count++;
	}
	return count;
}

/* Where annotate finds the kernel's code: the image, its .text moved by
 * sh_addr - sh_offset from the symbols' file offsets. */
static void text_layout(struct dso *kernel, Elf *elf, size_t shstrndx, const char *file)
{
	struct dso_priv *p = dso__priv(kernel);
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (name && !strcmp(name, ".text")) {
			p->text_offset = shdr.sh_addr - shdr.sh_offset;
			break;
		}
	}
	free(p->elf_path);
	p->elf_path = xstrdup(file);
}

/* The kernel map holding dso (the kernel's, or a section's). */
static struct map *dso_map(struct machine *m, const struct dso *dso)
{
	struct maps *kmaps = machine__kmaps(m);

	for (size_t i = 0; i < kmaps->nr; i++)
		if (kmaps->v[i]->dso == dso)
			return kmaps->v[i];
	return NULL;
}

static void install(struct vmlinux_load *l, const struct symbols_config *config)
{
	part_of(l, l->kernel);	/* the kernel gets a table, even an empty one */
	insert_unsized(l);
	for (size_t i = 0; i < l->nr_parts; i++) {
		struct vmlinux_part *part = &l->parts[i];
		struct dso_priv *dp = dso__priv(part->dso);
		struct map *map;

		dp->loaded = true;
		free(dp->vmlinux_path);
		dp->vmlinux_path = xstrdup(l->path);
		map = dso_map(l->machine, part->dso);
		dp->vmlinux_shift = map && !map->identity ? map->start - map->pgoff : 0;
		/* perf fixes ends and duplicates in the kernel's table only */
		if (part->dso == l->kernel && config->allow_aliases) {
			symtab_fix_ends(&part->b, false);
			dso__install_symbols_raw(part->dso, &part->b, NULL);
		} else if (part->dso == l->kernel) {
			dso__install_symbols(part->dso, &part->b, NULL, false);
		} else {
			dso__install_symbols_raw(part->dso, &part->b, NULL);
		}
	}
}

int dso__load_vmlinux(struct dso *kernel, const char *path, const struct symbols_config *config)
{
	const char *symfs = symbols_config__symfs(config);
	/* perf puts --symfs before relative names only */
	char *file = path[0] == '/' ? xstrdup(path) :
		     xasprintf("%s%s%s", symfs, *symfs ? "/" : "", path);
	struct vmlinux_load l = { .machine = dso__priv(kernel)->machine, .kernel = kernel, .path = path };
	GElf_Ehdr ehdr;
	GElf_Shdr symshdr;
	Elf_Scn *symscn;
	int fd = open(file, O_RDONLY | O_CLOEXEC), count = -1;

	if (fd < 0) {
		free(file);
		return -1;
	}
	elf_version(EV_CURRENT);
	l.elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!l.elf || elf_kind(l.elf) != ELF_K_ELF || !gelf_getehdr(l.elf, &ehdr) ||
	    elf_getshdrstrndx(l.elf, &l.shstrndx) || !build_id_ok(kernel, l.elf))
		goto out;
	symscn = find_symtab(l.elf, &symshdr);
	if (!symscn)
		goto out;	/* stripped: kallsyms serves better */
	l.kmap = dso_map(l.machine, kernel);
	l.adjust = ehdr.e_type == ET_EXEC || ehdr.e_type == ET_REL;
	count = read_symbols(&l, symscn, &symshdr);
	if (count > 0) {
		install(&l, config);
		text_layout(kernel, l.elf, l.shstrndx, file);
	}
out:
	for (size_t i = 0; i < l.nr_parts; i++)
		free(l.parts[i].b.v);
	free(l.parts);
	free(l.unsized);
	elf_end(l.elf);
	close(fd);
	free(file);
	return count;
}

/* perf's vmlinux path: the working directory's vmlinux, /boot's, then the
 * recorded release's in the usual places (not under --symfs). */
static size_t vmlinux_search_path(const struct symbols_config *config, char **out)
{
	static const char *const by_release[] = {
		"/boot/vmlinux-%s",
		"/usr/lib/debug/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/usr/lib/debug/boot/vmlinux-%s.debug",
	};
	const char *release = config->os_release;
	struct utsname u;
	size_t n = 0;

	out[n++] = xstrdup("vmlinux");
	out[n++] = xstrdup("/boot/vmlinux");
	if (config->symfs && *config->symfs)
		return n;
	if (!release) {
		if (uname(&u))
			return n;
		release = u.release;
	}
	for (size_t i = 0; i < sizeof(by_release) / sizeof(*by_release); i++)
		out[n++] = xasprintf(by_release[i], release);
	return n;
}

/* Tries perf's candidates for the kernel's image in its order (the
 * build-id cache's, then the vmlinux path) until try_one says yes; the
 * path it took (malloc'ed), or NULL. */
static char *find_vmlinux(const struct symbols_config *config, const uint8_t *id, int id_size,
			  bool (*try_one)(const char *path, void *arg), void *arg)
{
	char *paths[8], *found = NULL, *cached;
	size_t nr;

	cached = build_id__cache_path(config, id, id_size, "elf");
	if (cached && try_one(cached, arg))
		return cached;
	free(cached);
	if (config->ignore_vmlinux)
		return NULL;
	nr = vmlinux_search_path(config, paths);
	for (size_t i = 0; i < nr; i++) {
		if (!found && try_one(paths[i], arg))
			found = paths[i];
		else
			free(paths[i]);
	}
	return found;
}

struct kernel_try {
	struct dso *kernel;
	const struct symbols_config *config;
};

static bool try_load(const char *path, void *arg)
{
	struct kernel_try *t = arg;

	return dso__load_vmlinux(t->kernel, path, t->config) > 0;
}

int dso__load_kernel(struct dso *kernel, const struct symbols_config *config)
{
	struct kernel_try t = { kernel, config };
	char *found;

	if (config->kallsyms)
		return dso__load_kallsyms(kernel, config);
	if (config->vmlinux && !config->ignore_vmlinux)
		return dso__load_vmlinux(kernel, config->vmlinux, config);
	if (config->guest)	/* perf looks nowhere else for a guest's symbols */
		return -1;
	found = find_vmlinux(config, kernel->build_id, kernel->build_id_size, try_load, &t);
	if (found) {
		free(found);
		return 0;
	}
	/* perf takes no local kallsyms for a kernel under another root */
	if (config->symfs && *config->symfs && strcmp(config->symfs, "/"))
		return -1;
	return dso__load_kallsyms(kernel, config);
}

/* Whether path is an image perf would take for a kernel whose build id
 * it does not know: an ELF file with a symbol table. */
static bool image_of(const char *path, void *unknown_kernel)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf *elf;
	bool ok;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	ok = elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &ehdr) &&
	     find_symtab(elf, &shdr);
	elf_end(elf);
	close(fd);
	return ok;
}

char *running_kernel__vmlinux(const char *vmlinux)
{
	/* perf record's kernel has no build id yet when it reads the image:
	 * none is checked, and the cache (found by build id) is not asked */
	const struct symbols_config config = { 0 };

	if (vmlinux)	/* perf names its kernel after it from the start */
		return xstrdup(vmlinux);
	return find_vmlinux(&config, NULL, 0, image_of, NULL);
}

const char *dso__shown_long_name(const struct dso *dso)
{
	const struct dso_priv *p = dso__priv(dso);

	if (p->vmlinux_path)
		return p->vmlinux_path;
	/* perf top's [vdso] is its copy of the running one */
	if (p->kind == DSO_VDSO && p->config->vdso_copy && vdso__copy_path())
		return vdso__copy_path();
	return dso->long_name;
}

const char *symbol_files__unreadable(const char *vmlinux, const char *kallsyms)
{
	if (vmlinux && access(vmlinux, R_OK))
		return vmlinux;
	if (kallsyms && access(kallsyms, R_OK))
		return kallsyms;
	return NULL;
}
