/* probe-elf: the symbols and load segments of a probed ELF file.  perf
 * probe keeps aliases (several names at one address) and, unlike report,
 * labels of data sections, so it reads the table itself. */
#include "core/probe/probe-elf.h"

#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/symbols/buildid-cache.h"
#include "core/symbols/dso.h"
#include "util/glob.h"
#include "util/strbuf.h"
#include "util/util.h"

static void add_sym(struct probe_elf *pe, const char *name, uint64_t addr, uint64_t size,
		    int type)
{
	pe->syms = xrealloc(pe->syms, (pe->nr_syms + 1) * sizeof(*pe->syms));
	pe->syms[pe->nr_syms++] = (struct probe_sym){
		xstrdup(name), addr, size, type == STT_FUNC || type == STT_GNU_IFUNC,
		type == STT_GNU_IFUNC
	};
}

static Elf_Scn *section_of_type(Elf *elf, unsigned type)
{
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr shdr;

		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == type)
			return scn;
	}
	return NULL;
}

static Elf_Scn *section_named(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	size_t strndx;

	if (elf_getshdrstrndx(elf, &strndx))
		return NULL;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		const char *n;

		if (gelf_getshdr(scn, shdr) && (n = elf_strptr(elf, strndx, shdr->sh_name)) &&
		    !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* Whether perf keeps the symbol: functions and objects, and NOTYPE labels
 * in sections whose names say text or data. */
static bool sym_wanted(Elf *elf, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);
	GElf_Shdr shdr;
	size_t strndx;
	const char *secname;

	if (!sym->st_name || sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE ||
	    !gelf_getshdr(elf_getscn(elf, sym->st_shndx), &shdr) || !(shdr.sh_flags & SHF_ALLOC))
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return true;
	if (type != STT_NOTYPE || GELF_ST_VISIBILITY(sym->st_other) == STV_HIDDEN ||
	    GELF_ST_VISIBILITY(sym->st_other) == STV_INTERNAL || elf_getshdrstrndx(elf, &strndx))
		return false;
	secname = elf_strptr(elf, strndx, shdr.sh_name);
	return secname && (strstr(secname, "text") || strstr(secname, "data"));
}

static void read_symtab(struct probe_elf *pe, Elf *elf, Elf_Scn *scn)
{
	GElf_Shdr shdr;
	Elf_Data *data = elf_getdata(scn, NULL);

	if (!data || !gelf_getshdr(scn, &shdr) || !shdr.sh_entsize)
		return;
	for (size_t i = 0; i < shdr.sh_size / shdr.sh_entsize; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) || !sym_wanted(elf, &sym))
			continue;
		name = elf_strptr(elf, shdr.sh_link, sym.st_name);
		if (name)
			add_sym(pe, name, sym.st_value, sym.st_size, GELF_ST_TYPE(sym.st_info));
	}
}

/* "name@plt" for each PLT relocation, in slot order after the header. */
static void read_plt(struct probe_elf *pe)
{
	Elf *elf = pe->elf;
	GElf_Shdr plt, rel, dynshdr;
	Elf_Scn *relscn, *dynscn;
	Elf_Data *reldata, *dyndata;

	if (!section_named(elf, ".plt", &plt))
		return;
	relscn = section_named(elf, ".rela.plt", &rel);
	if (!relscn || !rel.sh_entsize || !(dynscn = elf_getscn(elf, rel.sh_link)) ||
	    !gelf_getshdr(dynscn, &dynshdr))
		return;
	reldata = elf_getdata(relscn, NULL);
	dyndata = elf_getdata(dynscn, NULL);
	if (!reldata || !dyndata)
		return;
	for (size_t i = 0; i < rel.sh_size / rel.sh_entsize; i++) {
		GElf_Rela rela;
		GElf_Sym sym;
		const char *name;

		if (!gelf_getrela(reldata, (int)i, &rela) ||
		    !gelf_getsym(dyndata, (int)GELF_R_SYM(rela.r_info), &sym) ||
		    !(name = elf_strptr(elf, dynshdr.sh_link, sym.st_name)))
			continue;
		char *full = xasprintf("%s@plt", name);

		add_sym(pe, full, plt.sh_addr + (i + 1) * plt.sh_entsize, plt.sh_entsize, STT_FUNC);
		free(full);
	}
}

char *probe_elf__debug_path(const char *path, bool dwarf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	const unsigned char *id;
	ssize_t len;
	char *debug = NULL;

	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	len = elf ? dwelf_elf_gnu_build_id(elf, (const void **)&id) : -1;
	if (len > 1) {
		struct strbuf hex = STRBUF_INIT;
		char *cache = build_id_cache__dir();

		for (ssize_t i = 0; i < len; i++)
			strbuf_addf(&hex, "%02x", id[i]);
		/* the distribution's debug file, else the build-id cache's copies,
		 * as perf looks for them */
		char *candidates[] = {
			xasprintf("/usr/lib/debug/.build-id/%.2s/%s.debug", hex.buf, hex.buf + 2),
			xasprintf("%s/.build-id/%.2s/%s/debug", cache, hex.buf, hex.buf + 2),
			xasprintf("%s/.build-id/%.2s/%s/elf", cache, hex.buf, hex.buf + 2),
		};
		/* perf reads symbols from the cached copy, never DWARF */
		size_t nr = sizeof(candidates) / sizeof(*candidates) - (dwarf ? 1 : 0);

		if (dwarf)
			free(candidates[nr]);
		for (size_t i = 0; i < nr; i++) {
			if (!debug && !access(candidates[i], R_OK))
				debug = candidates[i];
			else
				free(candidates[i]);
		}
		free(cache);
		strbuf_release(&hex);
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return debug;
}

/* Symbols from the separate debug file when the binary has no .symtab. */
static void read_debug_symtab(struct probe_elf *pe)
{
	char *debug = probe_elf__debug_path(pe->path, false);
	int fd = debug ? open(debug, O_RDONLY | O_CLOEXEC) : -1;
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	Elf_Scn *symtab = elf ? section_of_type(elf, SHT_SYMTAB) : NULL;

	read_symtab(pe, symtab ? elf : pe->elf,
		    symtab ? symtab : section_of_type(pe->elf, SHT_DYNSYM));
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	free(debug);
}

int probe_elf__open(struct probe_elf *pe, const char *path)
{
	Elf_Scn *symtab;

	memset(pe, 0, sizeof(*pe));
	elf_version(EV_CURRENT);
	pe->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (pe->fd < 0)
		return -errno;
	pe->elf = elf_begin(pe->fd, ELF_C_READ_MMAP, NULL);
	if (!pe->elf || elf_kind(pe->elf) != ELF_K_ELF) {
		probe_elf__close(pe);
		return -EINVAL;
	}
	pe->path = xstrdup(path);
	symtab = section_of_type(pe->elf, SHT_SYMTAB);
	if (symtab)
		read_symtab(pe, pe->elf, symtab);
	else
		read_debug_symtab(pe);
	pe->nr_table_syms = pe->nr_syms;
	read_plt(pe);
	return 0;
}

void probe_elf__close(struct probe_elf *pe)
{
	for (int i = 0; i < pe->nr_syms; i++)
		free(pe->syms[i].name);
	free(pe->syms);
	if (pe->elf)
		elf_end(pe->elf);
	if (pe->fd >= 0)
		close(pe->fd);
	free(pe->path);
	memset(pe, 0, sizeof(*pe));
	pe->fd = -1;
}

/* One "!glob" or "glob" term, spaces around it ignored. */
static bool term_match(const char *term, size_t len, const char *s)
{
	bool negate = false;

	while (len && *term == ' ')
		term++, len--;
	while (len && term[len - 1] == ' ')
		len--;
	if (len && *term == '!') {
		negate = true;
		term++, len--;
	}
	char *glob = xstrndup(term, len);
	bool match = glob_match(glob, s);

	free(glob);
	return match != negate;
}

bool probe_strfilter_match(const char *filter, const char *s)
{
	/* alternatives of '|', each a conjunction of '&' terms */
	for (const char *alt = filter; alt;) {
		const char *bar = strchr(alt, '|');
		const char *alt_end = bar ? bar : alt + strlen(alt);
		bool all = true;

		for (const char *t = alt; all && t < alt_end;) {
			const char *amp = memchr(t, '&', alt_end - t);
			const char *t_end = amp ? amp : alt_end;

			all = term_match(t, t_end - t, s);
			t = t_end + 1;
		}
		if (all)
			return true;
		alt = bar ? bar + 1 : NULL;
	}
	return false;
}

/* The name -F shows: demangled, a PLT entry's "@plt" kept after it */
static char *shown_name(const char *name, bool demangle)
{
	size_t len = strlen(name);
	bool plt = len > 4 && !strcmp(name + len - 4, "@plt");
	char *base = plt ? xstrndup(name, len - 4) : NULL;
	char *demangled = demangle ? sym_demangle(plt ? base : name) : NULL;
	char *shown;

	if (!demangled)
		shown = xstrdup(name);
	else if (plt)
		shown = xasprintf("%s@plt", demangled);
	else
		return demangled;
	free(demangled);
	free(base);
	return shown;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int probe_elf__filtered_names(const struct probe_elf *pe, const char *filter, bool demangle,
			      char ***names)
{
	char **out = xcalloc(pe->nr_syms + 1, sizeof(*out));
	int n = 0;

	if (!filter)
		filter = "!_* & !*@plt";
	for (int i = 0; i < pe->nr_syms; i++) {
		char *shown = shown_name(pe->syms[i].name, demangle);

		if (probe_strfilter_match(filter, shown))
			out[n++] = shown;
		else
			free(shown);
	}
	/* perf lists every symbol, aliases and repeated names included */
	qsort(out, n, sizeof(*out), cmp_names);
	*names = out;
	return n;
}

static const struct probe_sym *find_symbol(const struct probe_elf *pe, const char *name,
					   bool function)
{
	size_t len = strlen(name);

	/* versioned names ("fopen@@GLIBC_2.2.5") answer to their base */
	for (int i = 0; i < pe->nr_syms; i++)
		if (pe->syms[i].function == function && !strncmp(pe->syms[i].name, name, len) &&
		    (!pe->syms[i].name[len] ||
		     (pe->syms[i].name[len] == '@' && strcmp(pe->syms[i].name + len, "@plt"))))
			return &pe->syms[i];
	return NULL;
}

const struct probe_sym *probe_elf__find_function(const struct probe_elf *pe, const char *name)
{
	return find_symbol(pe, name, true);
}

const struct probe_sym *probe_elf__find_data(const struct probe_elf *pe, const char *name)
{
	return find_symbol(pe, name, false);
}

const struct probe_sym *probe_elf__function_at(const struct probe_elf *pe, uint64_t addr)
{
	for (int i = 0; i < pe->nr_table_syms; i++) {
		const struct probe_sym *sym = &pe->syms[i];

		if (sym->function && addr >= sym->addr &&
		    addr < sym->addr + (sym->size ? sym->size : 1))
			return sym;
	}
	return NULL;
}

/* Moves a between the address spaces of the executable PT_LOAD holding it:
 * to file offsets (to_file) or back to virtual addresses. */
static uint64_t through_load(const struct probe_elf *pe, uint64_t a, bool to_file)
{
	size_t nphdr;

	if (!elf_getphdrnum(pe->elf, &nphdr))
		for (size_t i = 0; i < nphdr; i++) {
			GElf_Phdr ph;
			uint64_t start;

			if (!gelf_getphdr(pe->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    !(ph.p_flags & PF_X))
				continue;
			start = to_file ? ph.p_vaddr : ph.p_offset;
			if (a >= start && a < start + ph.p_filesz)
				return to_file ? a - ph.p_vaddr + ph.p_offset
					       : a - ph.p_offset + ph.p_vaddr;
		}
	return a;
}

uint64_t probe_elf__file_offset(const struct probe_elf *pe, uint64_t addr)
{
	return through_load(pe, addr, true);
}

uint64_t probe_elf__vaddr(const struct probe_elf *pe, uint64_t offset)
{
	return through_load(pe, offset, false);
}

char *probe_elf__module_name(const struct probe_elf *pe)
{
	Elf *elf = pe->elf;
	GElf_Shdr shdr;
	Elf_Scn *scn = elf ? section_named(elf, ".gnu.linkonce.this_module", &shdr) : NULL;
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	/* where struct module keeps its name, as perf reads it */
	size_t at = gelf_getclass(elf) == ELFCLASS32 ? 12 : 24;

	if (!data || !data->d_buf || data->d_size <= at)
		return NULL;
	return xstrndup((const char *)data->d_buf + at, data->d_size - at);
}

uint64_t probe_elf__section_offset(const struct probe_elf *pe, uint64_t addr)
{
	Elf *elf = pe->elf;
	size_t nphdr;

	/* perf places a symbol by the loadable segment holding it (memory
	 * size: .bss too), by its section only when none does */
	if (elf && !elf_getphdrnum(elf, &nphdr))
		for (size_t i = 0; i < nphdr; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_memsz)
				return addr - ph.p_vaddr + ph.p_offset;
		}

	for (Elf_Scn *scn = elf ? elf_nextscn(elf, NULL) : NULL; scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr shdr;

		if (gelf_getshdr(scn, &shdr) && (shdr.sh_flags & SHF_ALLOC) &&
		    addr >= shdr.sh_addr && addr < shdr.sh_addr + shdr.sh_size)
			return addr - shdr.sh_addr + shdr.sh_offset;
	}
	return addr;
}

const char *probe_elf__symtab_find(void *elf_handle,
				   bool (*match)(const GElf_Sym *sym, const char *name, void *arg),
				   void *arg, GElf_Sym *found)
{
	Elf *elf = elf_handle;

	for (Elf_Scn *scn = elf ? elf_nextscn(elf, NULL) : NULL; scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB || !shdr.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < shdr.sh_size / shdr.sh_entsize; i++) {
			const char *name;

			if (gelf_getsym(data, (int)i, found) &&
			    (name = elf_strptr(elf, shdr.sh_link, found->st_name)) &&
			    match(found, name, arg))
				return name;
		}
	}
	return NULL;
}

static bool object_named(const GElf_Sym *sym, const char *name, void *wanted)
{
	return GELF_ST_TYPE(sym->st_info) == STT_OBJECT && sym->st_shndx != SHN_UNDEF &&
	       sym->st_shndx < SHN_LORESERVE && !strcmp(name, wanted);
}

uint64_t probe_elf__rel_data_offset(const struct probe_elf *pe, const char *name)
{
	Elf *elf = pe->elf;
	GElf_Ehdr ehdr;
	GElf_Shdr home;
	GElf_Sym sym;

	if (!elf || !gelf_getehdr(elf, &ehdr) || ehdr.e_type != ET_REL ||
	    !probe_elf__symtab_find(elf, object_named, (void *)name, &sym) ||
	    !gelf_getshdr(elf_getscn(elf, sym.st_shndx), &home))
		return 0;
	return home.sh_offset + sym.st_value;
}
