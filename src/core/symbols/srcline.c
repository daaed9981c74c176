/* srcline: source lines and inlined-function chains for DSO addresses,
 * from the DWARF of the file the DSO's symbols came from, read in process
 * with libdw and cached per address.
 *
 * perf 6.1 asks binutils' addr2line ("-a -i -f") for these, so this file
 * reproduces its answers: the innermost function DWARF names (of equal
 * ranges, the last one), by linkage name, or DW_AT_name in C-family units;
 * for a function without either, or code DWARF names no function for, the
 * ELF symbol that starts there (which addr2line then keeps for that
 * function for the rest of the run); "??:0" when nothing covers the
 * address.  Two quirks of binutils 2.40 are kept: in DWARF 5 line tables
 * it starts each sequence with file entry 0 (the unit's own file) where
 * DWARF says file 1, so rows before the sequence's first file change name
 * the unit ("libc-start.c:74" for code from libc_start_call_main.h); and
 * code without line rows gets the ELF symbol's STT_FILE name and line 0
 * (":0" after the empty FILE symbol of linker-made locals).
 */
#include "core/symbols/dwarf-aranges.h"
#include "core/symbols/dwarf-lines.h"
#include "core/symbols/dwarf-scopes.h"
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_INLINE 64

struct elf_func {		/* the debug file's function symbols, bfd's view */
	uint64_t value, size;
	uint64_t section_end;	/* bfd never names an address outside its section */
	const char *name;	/* in the file's string table (see drop_read_input) */
	const char *file;	/* the STT_FILE bfd credits it to, or NULL */
};

struct a2l_func {
	const char *name;
	char *line;		/* a caller's: where it called the function inside it */
};

/* One per address looked up, sized to its functions: a profile asks
 * about thousands of addresses, nearly all inside one or two functions. */
struct a2l_record {
	int nr;			/* functions, innermost first; 0 = not found */
	char *srcline;		/* "file:line" of the address, NULL for "??:0" */
	char *file;		/* its file as addr2line names it (full), or NULL */
	unsigned line;
	struct inline_frame *frames;	/* perf's symbols for names (lazy) */
	struct symbol *fake;
	struct a2l_func funcs[];	/* [nr] */
};

struct srcline_cache {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	struct arena names;
	struct elf_func *funcs;
	size_t nr_funcs;
	struct hashmap renamed;	/* DIE offset -> ELF name addr2line switched to */
	struct hashmap twins;	/* function DIE offset -> that of its last twin */
	struct dwarf_scopes *scopes;	/* the units' scope trees */
	struct hashmap units;	/* CU DIE offset -> struct unit_lines* */
	struct cu_range *cu_ranges;	/* without .debug_aranges (clang): CUs by address */
	size_t nr_cu_ranges;
	bool cu_ranges_read;
	struct dwarf_aranges *aranges;	/* NULL: libdwfl's lookup answers */
	bool aranges_read;
	struct hashmap records;	/* addr -> struct a2l_record* */
	struct hashmap fallback;	/* addr -> "dso[vaddr]" */
	const struct symbols_config *config;	/* the dso's */
	bool failed;
};

/* Whether the file is there to read; frees path. */
static bool readable(char *path)
{
	bool found = access(path, R_OK) == 0;

	free(path);
	return found;
}

/* Whether libdwfl's standard search has a local file to find: the
 * build-id path or the debuglink (FILE.debug without one) in its default
 * places, the file's directory, its .debug/ and /usr/lib/debug/DIR/. */
static bool local_debuginfo_exists(Dwfl_Module *mod, const char *file_name,
				   const char *debuglink)
{
	const unsigned char *id;
	GElf_Addr id_vaddr;
	int id_len = dwfl_module_build_id(mod, &id, &id_vaddr);
	const char *slash = file_name ? strrchr(file_name, '/') : NULL;
	char *dir, *link;
	bool found;

	if (id_len > 1) {
		char hex[2 * 64 + 1];

		for (int i = 0; i < id_len && i < 64; i++)
			sprintf(hex + 2 * i, "%02x", id[i]);
		if (readable(xasprintf("/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2)))
			return true;
	}
	if (!file_name)
		return false;
	dir = slash ? xasprintf("%.*s", (int)(slash - file_name), file_name) : xstrdup(".");
	link = debuglink ? xstrdup(debuglink) : xasprintf("%s.debug", slash ? slash + 1 : file_name);
	found = readable(xasprintf("%s/%s", dir, link)) ||
		readable(xasprintf("%s/.debug/%s", dir, link)) ||
		readable(xasprintf("/usr/lib/debug/%s/%s", dir, link));
	free(dir);
	free(link);
	return found;
}

/* libdwfl's standard search ends by asking debuginfod, and loading its
 * client maps libcurl and the TLS libraries (2.4 MB of a report's peak
 * memory) even when no server is configured: only local files are
 * looked for, as addr2line does for perf. */
static int find_local_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
				GElf_Addr base, const char *file_name, const char *debuglink,
				GElf_Word crc, char **debuginfo_file_name)
{
	if (!local_debuginfo_exists(mod, file_name, debuglink))
		return -1;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink,
					    crc, debuginfo_file_name);
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_local_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static int elf_func_cmp(const void *a, const void *b)
{
	const struct elf_func *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

/* bfd's symbols: .symtab, or .dynsym in a stripped file. */
static Elf_Scn *next_symbol_table(Elf *elf, Elf_Scn *scn)
{
	Elf_Scn *dynsym = NULL;
	GElf_Shdr shdr;

	if (scn)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) && gelf_getshdr(scn, &shdr)) {
		if (shdr.sh_type == SHT_SYMTAB)
			return scn;
		if (shdr.sh_type == SHT_DYNSYM && !dynsym)
			dynsym = scn;
	}
	return dynsym;
}

/* FUNC and NOTYPE symbols in table order (qsort is not stable: ties are
 * resolved when the table is built).  Their names stay in the mapped
 * string table, whose pages are then handed back: only the few names
 * looked up are read again. */
static void read_elf_funcs(struct srcline_cache *c)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(c->mod, &bias);
	Elf_Scn *scn = NULL;
	size_t alloc = 0;
	const char *file = NULL;
	/* bfd stops crediting globals to a FILE symbol that follows others */
	bool sym_seen = false, file_after_sym = false;

	while (elf && (scn = next_symbol_table(elf, scn))) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || !shdr.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < shdr.sh_size / shdr.sh_entsize; i++) {
			GElf_Sym sym;
			GElf_Shdr secshdr;
			Elf_Scn *sec;
			const char *name;
			int type;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			type = GELF_ST_TYPE(sym.st_info);
			if (!i)
				continue;
			if (type == STT_FILE) {
				name = elf_strptr(elf, shdr.sh_link, sym.st_name);
				file = name;
				file_after_sym = sym_seen;
				continue;
			}
			sym_seen = true;
			if ((type != STT_FUNC && type != STT_NOTYPE) || sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= SHN_LORESERVE || !sym.st_name)
				continue;
			name = elf_strptr(elf, shdr.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			sec = elf_getscn(elf, sym.st_shndx);
			if (!sec || !gelf_getshdr(sec, &secshdr))
				continue;
			if (c->nr_funcs == alloc) {
				alloc = alloc ? alloc * 2 : 256;
				c->funcs = xrealloc(c->funcs, alloc * sizeof(*c->funcs));
			}
			c->funcs[c->nr_funcs].value = sym.st_value;
			c->funcs[c->nr_funcs].size = sym.st_size;
			c->funcs[c->nr_funcs].section_end = secshdr.sh_addr + secshdr.sh_size;
			c->funcs[c->nr_funcs].name = name;
			c->funcs[c->nr_funcs].file =
				GELF_ST_BIND(sym.st_info) == STB_LOCAL || !file_after_sym ? file : NULL;
			c->nr_funcs++;
		}
		break;
	}
	if (!c->nr_funcs)
		return;
	/* Keep, per address, the first symbol unless a later one is bigger. */
	for (size_t i = 0; i < c->nr_funcs; i++)
		c->funcs[i].size = (c->funcs[i].size << 20) | (0xfffff - (i & 0xfffff));
	qsort(c->funcs, c->nr_funcs, sizeof(*c->funcs), elf_func_cmp);
	{
		size_t n = 0;

		for (size_t i = 0; i < c->nr_funcs; i++) {
			if (n && c->funcs[n - 1].value == c->funcs[i].value) {
				if (c->funcs[i].size > c->funcs[n - 1].size)
					c->funcs[n - 1] = c->funcs[i];
				continue;
			}
			c->funcs[n++] = c->funcs[i];
		}
		c->nr_funcs = n;
	}
	for (size_t i = 0; i < c->nr_funcs; i++)
		c->funcs[i].size >>= 20;
	c->funcs = xrealloc(c->funcs, c->nr_funcs * sizeof(*c->funcs));
}

/* The ELF symbol bfd names the function at vaddr with: the closest one
 * starting at or below it in the same section (so PLT entries are not
 * taken for _init), however small it is. */
static const struct elf_func *elf_func_at(const struct srcline_cache *c, uint64_t vaddr)
{
	size_t lo = 0, hi = c->nr_funcs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->funcs[mid].value <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (vaddr >= c->funcs[lo - 1].section_end)
		return NULL;
	return &c->funcs[lo - 1];
}

/* Hands the whole pages of file bytes [lo, hi) of the mapped image back
 * to the kernel: the mapping is private and never written, so a later
 * read just faults them in again from the file. */
static void drop_file_pages(char *image, uint64_t lo, uint64_t hi)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)image + lo + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)image + hi) & ~(page - 1);

	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
}

/*
 * Once read, some of the file's bytes stay resident for nothing, through
 * libelf's private mapping of the file (a file libelf read into memory
 * instead, its image not page-aligned, is left alone):
 * - libdw inflates every compressed debug section when it opens the
 *   DWARF (10 MB out of 4 MB for libc's), and the compressed bytes are
 *   not read again: only whole pages inside a compressed section's
 *   contents (never headers, which libelf rewrites);
 * - read_elf_funcs() has read the symbol table and its strings (0.3 MB
 *   of libc's debug file, 0.8 MB of libstdc++; the names of the
 *   functions looked up come back later, a page each).
 */
static void drop_read_input(struct srcline_cache *c)
{
	GElf_Addr bias;
	Dwarf_Addr dwbias;
	Elf *elf = dwfl_module_getelf(c->mod, &bias);
	Elf_Scn *scn = NULL, *symtab;
	size_t file_size, nr = 0, page = (size_t)sysconf(_SC_PAGESIZE);
	char *image = elf ? elf_rawfile(elf, &file_size) : NULL;
	uint64_t (*spans)[2] = NULL;
	GElf_Shdr shdr;

	if (!image || elf_kind(elf) != ELF_K_ELF || (uintptr_t)image % page)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_COMPRESSED) ||
		    shdr.sh_type == SHT_NOBITS || shdr.sh_offset + shdr.sh_size > file_size)
			continue;
		spans = xrealloc(spans, (nr + 1) * sizeof(*spans));
		spans[nr][0] = shdr.sh_offset;
		spans[nr++][1] = shdr.sh_offset + shdr.sh_size;
	}
	/* the same Elf holds the DWARF (the debug file was reported): inflate now */
	if (nr && dwfl_module_getdwarf(c->mod, &dwbias) &&
	    dwarf_getelf(dwfl_module_getdwarf(c->mod, &dwbias)) == elf) {
		for (size_t i = 0; i < nr; i++)
			drop_file_pages(image, spans[i][0], spans[i][1]);
	}
	free(spans);
	symtab = next_symbol_table(elf, NULL);
	for (int i = 0; symtab && i < 2 && gelf_getshdr(symtab, &shdr); i++) {
		if (shdr.sh_type != SHT_NOBITS && !(shdr.sh_flags & SHF_COMPRESSED) &&
		    shdr.sh_offset + shdr.sh_size <= file_size)
			drop_file_pages(image, shdr.sh_offset, shdr.sh_offset + shdr.sh_size);
		symtab = elf_getscn(elf, shdr.sh_link);	/* then its strings */
	}
}

/* Debug sections libdw would inflate when it opens the DWARF but no
 * source-line lookup reads: location and macro lists, call frames and
 * the name indexes (1.4 MB of libc's 10 MB are its .debug_loclists). */
static bool section_unread(const char *name)
{
	static const char *const unread[] = {
		"debug_loc", "debug_loclists", "debug_macro", "debug_macinfo",
		"debug_frame", "debug_pubnames", "debug_pubtypes", "debug_gnu_pubnames",
		"debug_gnu_pubtypes", "debug_names", "debug_cu_index", "debug_tu_index",
	};

	if (!strncmp(name, ".zdebug_", 8))
		name += 2;	/* the old GNU compression, inflated alike */
	else if (!strncmp(name, ".debug_", 7))
		name += 1;
	else
		return false;
	for (size_t i = 0; i < sizeof(unread) / sizeof(*unread); i++)
		if (!strcmp(name, unread[i]))
			return true;
	return false;
}

/*
 * Hide those sections from libdw before it opens the DWARF: libdw skips
 * SHT_NOBITS sections, and libelf keeps its own copy of the section
 * headers, so marking them so changes nothing in the file or the map.
 */
static void hide_unread_sections(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS ||
		    !(name = elf_strptr(elf, shstrndx, shdr.sh_name)) || !section_unread(name))
			continue;
		shdr.sh_type = SHT_NOBITS;
		gelf_update_shdr(scn, &shdr);
	}
}

static void srcline_cache__free(void *cache);

/* Attached to each DSO looked up; the DSO frees it with itself. */
static const struct cache_kind srcline_cache_kind = { "srcline", srcline_cache__free };

static struct srcline_cache *dso__srcline_cache(struct dso *dso)
{
	struct dso_priv *p = dso__priv(dso);
	struct srcline_cache *c = xcalloc(1, sizeof(*c));

	c->config = p->config;
	hashmap_init(&c->twins, sizeof(Dwarf_Off));
	c->scopes = dwarf_scopes__new();
	dso__set_cache(dso, &srcline_cache_kind, c);
	dso__load(dso);
	/* perf has no source lines for the kernel, vdso or JIT code. */
	if (!p->debug_path || p->kind == DSO_KERNEL || p->kind == DSO_PERF_MAP ||
	    dso->long_name[0] == '[') {
		c->failed = true;
		return c;
	}
	c->dwfl = dwfl_begin(&offline_callbacks);
	if (c->dwfl) {
		dwfl_report_begin(c->dwfl);
		c->mod = dwfl_report_offline(c->dwfl, dso->short_name, p->debug_path, -1);
		dwfl_report_end(c->dwfl, NULL, NULL);
	}
	if (!c->mod || !dwfl_module_getelf(c->mod, &c->bias)) {
		c->failed = true;
		return c;
	}
	read_elf_funcs(c);
	hide_unread_sections(dwfl_module_getelf(c->mod, &c->bias));
	drop_read_input(c);
	return c;
}

/* Languages whose names are not mangled: bfd takes DW_AT_name as the
 * linkage name there. */
static bool lang_unmangled(Dwarf_Die *cu)
{
	switch (dwarf_srclang(cu)) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_Ada83: case DW_LANG_Cobol74:
	case DW_LANG_Cobol85: case DW_LANG_Fortran77: case DW_LANG_Pascal83:
	case DW_LANG_C99: case DW_LANG_Ada95: case DW_LANG_PLI: case DW_LANG_UPC:
	case DW_LANG_C11: case DW_LANG_Mips_Assembler:
		return true;
	default:
		return false;
	}
}

/* The name addr2line gives a DIE: its linkage name when it has one. */
static const char *die_name(Dwarf_Die *die, bool unmangled, bool *linkage)
{
	Dwarf_Attribute attr;
	const char *name;

	*linkage = true;
	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	if (name)
		return name;
	*linkage = unmangled;
	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
}

static bool die_low_pc(Dwarf_Die *die, Dwarf_Addr *low)
{
	Dwarf_Addr base, end;
	ptrdiff_t off;

	if (!dwarf_lowpc(die, low))
		return true;
	off = dwarf_ranges(die, 0, &base, low, &end);
	return off > 0;
}

static bool same_range(Dwarf_Die *a, Dwarf_Die *b)
{
	Dwarf_Addr la, ha, lb, hb;

	return !dwarf_lowpc(a, &la) && !dwarf_highpc(a, &ha) && !dwarf_lowpc(b, &lb) &&
	       !dwarf_highpc(b, &hb) && la == lb && ha == hb;
}

/* Of sibling functions with the same range (gas describes each alias of
 * an assembler function), bfd picks the last.  Remembered per DIE: the
 * search runs over all the siblings that follow. */
static void last_twin(struct srcline_cache *c, Dwarf_Die *die)
{
	Dwarf_Off self = dwarf_dieoffset(die), *twin = hashmap_u64_find(&c->twins, self);
	Dwarf_Die next = *die;

	if (twin) {
		dwarf_offdie(dwarf_cu_getdwarf(die->cu), *twin, die);
		return;
	}
	while (dwarf_siblingof(&next, &next) == 0)
		if (dwarf_tag(&next) == dwarf_tag(die) && same_range(&next, die))
			*die = next;
	twin = hashmap_u64_findnew(&c->twins, self, NULL);
	*twin = dwarf_dieoffset(die);
}

/* binutils 2.40 takes a DW_FORM_rnglistx range list index (clang's DWARF
 * 5) for an offset: it never finds such a function, so addr2line names
 * no inlined function with scattered ranges in clang builds. */
static bool bfd_reads_ranges(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	return !dwarf_attr(die, DW_AT_ranges, &attr) || dwarf_whatform(&attr) != DW_FORM_rnglistx;
}

/* The DIEs around pc, innermost first (physical nesting), as libdw's
 * dwarf_getscopes() and dwarf_getscopes_die() find them: from the unit's
 * index, or from libdw where the index leaves the unit to it.  Returns
 * how many (0: none); the caller frees *owned, libdw's array or NULL. */
static int scope_chain(struct srcline_cache *c, Dwarf_Die *cu, Dwarf_Addr pc,
		       const Dwarf_Die **chain, Dwarf_Die **owned)
{
	Dwarf_Die *scopes = NULL, inner;
	int n = dwarf_scopes__chain(c->scopes, cu, pc, chain);

	*owned = NULL;
	if (n >= 0)
		return n;
	n = dwarf_getscopes(cu, pc, &scopes);
	if (n <= 0 || !dwarf_offdie(dwarf_cu_getdwarf(cu->cu), dwarf_dieoffset(&scopes[0]), &inner)) {
		free(scopes);
		return 0;
	}
	free(scopes);
	n = dwarf_getscopes_die(&inner, owned);
	*chain = *owned;
	return n > 0 ? n : 0;
}

/* The functions around vaddr, innermost first, as DIEs (physical nesting). */
static int function_dies(struct srcline_cache *c, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *out,
			 int max)
{
	const Dwarf_Die *chain;
	Dwarf_Die *owned;
	int n = scope_chain(c, cu, pc, &chain, &owned), nr = 0;

	for (int i = 0; i < n && nr < max; i++) {
		Dwarf_Die die = chain[i];
		int tag = dwarf_tag(&die);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		if (!bfd_reads_ranges(&die)) {
			if (tag == DW_TAG_subprogram)
				break;
			continue;
		}
		out[nr] = die;
		if (!nr)
			last_twin(c, &out[0]);
		nr++;
		if (tag == DW_TAG_subprogram)
			break;
	}
	free(owned);
	return nr;
}

/* --full-source-path: "dir/file.c:12" as addr2line names the file: a
 * relative name (libdw joined any relative include directory) is under
 * the CU's compilation directory. */
static char *full_path(Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute attr;
	const char *dir = file[0] != '/' && cu ?
			  dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr)) : NULL;

	return dir ? xasprintf("%s/%s", dir, file) : xstrdup(file);
}

static char *srcline_full(Dwarf_Die *cu, const char *file, unsigned lineno)
{
	char *path = full_path(cu, file), *s = xasprintf("%s:%u", path, lineno);

	free(path);
	return s;
}

static const char *file_base(const struct dwarf_lines *lines, size_t idx)
{
	const char *name = dwarf_lines__file(lines, idx), *base;

	base = name ? strrchr(name, '/') : NULL;
	return base ? base + 1 : name;
}

/* A unit's line table, and for DWARF 5 the addresses [lo, hi) whose rows
 * come before their sequence's first change of file: bfd names them by
 * file entry 0. */
struct unit_lines {
	struct dwarf_lines *table;	/* NULL: the unit has none */
	size_t nr_starts;
	Dwarf_Addr (*starts)[2];
};

static void find_unit_starts(struct unit_lines *u)
{
	const struct dwarf_lines *dl = u->table;
	size_t alloc = 0;
	bool at_start = true;

	for (size_t i = 0; i + 1 < dl->nr_rows; i++) {
		const struct dwarf_line_row *row = &dl->rows[i], *next = &dl->rows[i + 1];

		if (row->end_sequence) {
			at_start = true;
			continue;
		}
		if (row->file != 1)
			at_start = false;
		if (!at_start || next->addr <= row->addr)
			continue;
		if (u->nr_starts && u->starts[u->nr_starts - 1][1] == row->addr) {
			u->starts[u->nr_starts - 1][1] = next->addr;
			continue;
		}
		if (u->nr_starts == alloc) {
			alloc = alloc ? alloc * 2 : 16;
			u->starts = xrealloc(u->starts, alloc * sizeof(*u->starts));
		}
		u->starts[u->nr_starts][0] = row->addr;
		u->starts[u->nr_starts++][1] = next->addr;
	}
}

/* The unit's lines, read on its first lookup. */
static struct unit_lines *unit_lines(struct srcline_cache *c, Dwarf_Die *cu)
{
	struct unit_lines *u = hashmap_u64_get(&c->units, dwarf_dieoffset(cu));
	Dwarf_Half version = 0;

	if (u)
		return u;
	u = xcalloc(1, sizeof(*u));
	hashmap_u64_put(&c->units, dwarf_dieoffset(cu), u);
	u->table = dwarf_lines__read(cu);
	if (u->table && !dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) &&
	    version >= 5)
		find_unit_starts(u);
	return u;
}

static bool at_unit_start(const struct unit_lines *u, Dwarf_Addr pc)
{
	for (size_t i = 0; i < u->nr_starts; i++)
		if (pc >= u->starts[i][0] && pc < u->starts[i][1])
			return true;
	return false;
}

/* A range of a unit's addresses (DWARF addresses, no bias). */
struct cu_range {
	Dwarf_Addr lo, hi;
	Dwarf_Off cu;
};

static int cu_range_cmp(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every unit's ranges, sorted: libdw finds units through .debug_aranges
 * only, which clang does not write (binutils reads the units' ranges).
 * Read through a second handle on the DWARF, dropped after: libdw keeps
 * a record and the abbreviations of each unit it reads (1.5 MB for
 * libc's), and the sections, inflated already, are shared. */
static void read_cu_ranges(struct srcline_cache *c)
{
	Dwarf_Addr dwbias;
	Dwarf *mod_dw = dwfl_module_getdwarf(c->mod, &dwbias);
	Dwarf *dw = mod_dw ? dwarf_begin_elf(dwarf_getelf(mod_dw), DWARF_C_READ, NULL) : NULL;
	Dwarf_Off off = 0, next;
	size_t hsize, alloc = 0;

	c->cu_ranges_read = true;
	if (!dw)
		dw = mod_dw;	/* cannot happen: libdw opened it once */
	while (dw && !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t it = 0;

		if (dwarf_offdie(dw, off + hsize, &cu)) {
			while ((it = dwarf_ranges(&cu, it, &base, &lo, &hi)) > 0) {
				if (hi <= lo)
					continue;
				if (c->nr_cu_ranges == alloc) {
					alloc = alloc ? alloc * 2 : 64;
					c->cu_ranges = xrealloc(c->cu_ranges,
								alloc * sizeof(*c->cu_ranges));
				}
				c->cu_ranges[c->nr_cu_ranges++] =
					(struct cu_range){ lo, hi, dwarf_dieoffset(&cu) };
			}
		}
		off = next;
	}
	if (dw != mod_dw)
		dwarf_end(dw);
	if (c->nr_cu_ranges)
		qsort(c->cu_ranges, c->nr_cu_ranges, sizeof(*c->cu_ranges), cu_range_cmp);
}

/* The unit DIE covering pc (a module address) and its bias. */
static Dwarf_Die *unit_at(struct srcline_cache *c, Dwarf_Addr pc, Dwarf_Die *buf,
			  Dwarf_Addr *bias)
{
	Dwarf_Die *cu = NULL;
	Dwarf *dw = dwfl_module_getdwarf(c->mod, bias);
	size_t lo = 0, hi;

	if (!dw)
		return NULL;
	if (!c->aranges_read) {
		c->aranges = dwarf_aranges__read(dw);
		c->aranges_read = true;
	}
	if (!c->aranges) {
		cu = dwfl_module_addrdie(c->mod, pc, bias);
	} else {
		Dwarf_Off die;

		cu = dwarf_aranges__find(c->aranges, pc - *bias, &die) ?
		     dwarf_offdie(dw, die, buf) : NULL;
	}
	if (cu)
		return cu;
	if (!c->cu_ranges_read)
		read_cu_ranges(c);
	hi = c->nr_cu_ranges;
	while (lo < hi) {	/* the last range starting at or below pc */
		size_t mid = lo + (hi - lo) / 2;

		if (c->cu_ranges[mid].lo <= pc - *bias)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ranges of units may nest (a unit's whole span around others' code) */
	for (size_t i = lo; i-- > 0;) {
		const struct cu_range *r = &c->cu_ranges[i];

		if (pc - *bias < r->hi)
			return dwarf_offdie(dw, r->cu, buf);
	}
	return NULL;
}

/* Whether the unit's ranges hold pc; a unit without them (described by
 * its line table alone) is taken at its word. */
static bool unit_covers(Dwarf_Die *cu, Dwarf_Addr pc)
{
	if (!dwarf_hasattr(cu, DW_AT_ranges) && !dwarf_hasattr(cu, DW_AT_high_pc))
		return true;
	return dwarf_haspc(cu, pc) == 1;
}

static struct a2l_record *a2l_record__new(const struct a2l_record *head,
					  const struct a2l_func *funcs)
{
	struct a2l_record *r = xmalloc(sizeof(*r) + (size_t)head->nr * sizeof(*funcs));

	*r = *head;
	if (head->nr)
		memcpy(r->funcs, funcs, (size_t)head->nr * sizeof(*funcs));
	return r;
}

static struct a2l_record *a2l_lookup(struct srcline_cache *c, uint64_t vaddr)
{
	struct a2l_record head = { 0 }, *r = &head;
	struct a2l_func funcs[MAX_INLINE] = { { 0 } };
	Dwarf_Addr pc = vaddr + c->bias, cu_bias;
	Dwarf_Die cu_buf, *cu = unit_at(c, pc, &cu_buf, &cu_bias);
	const struct unit_lines *lines = cu ? unit_lines(c, cu) : NULL;
	const struct dwarf_line_row *line = lines && lines->table ?
					    dwarf_lines__find(lines->table, pc - cu_bias) : NULL;
	Dwarf_Die dies[MAX_INLINE];
	int nr = cu ? function_dies(c, cu, pc - cu_bias, dies, MAX_INLINE) : 0;
	const struct elf_func *ef = elf_func_at(c, vaddr);
	bool unmangled = cu && lang_unmangled(cu);

	/* libdw sorts a row at its sequence's end (gcc's last .loc after a
	 * noreturn call) after the end_sequence marker, so it seems to cover
	 * the code after the unit (a CRT's _start): bfd's sequences end there. */
	if (line && cu && !unit_covers(cu, pc - cu_bias))
		line = NULL;
	for (int i = 0; i < nr; i++) {
		bool linkage;
		const char *renamed = hashmap_u64_get(&c->renamed, dwarf_dieoffset(&dies[i]));

		funcs[i].name = renamed ? renamed : die_name(&dies[i], unmangled, &linkage);
		/* bfd prefers the symbol table's name for a plain function
		 * starting where a symbol does, and keeps it. */
		if (i == 0 && !renamed && !linkage && ef &&
		    dwarf_tag(&dies[0]) == DW_TAG_subprogram) {
			Dwarf_Addr low;

			if (die_low_pc(&dies[0], &low) && low + cu_bias - c->bias == ef->value) {
				funcs[0].name = ef->name;
				hashmap_u64_put(&c->renamed, dwarf_dieoffset(&dies[0]),
						(void *)ef->name);
			}
		}
	}
	if (!nr && ef)
		funcs[nr++].name = ef->name;
	if (!nr && !line)
		return a2l_record__new(r, funcs);	/* "??:0": not found */
	if (!nr)
		funcs[nr++].name = "??";
	r->nr = nr;
	/* Each caller's line is where it called the function inside it. */
	for (int i = 1; i < nr; i++) {
		Dwarf_Attribute attr;
		Dwarf_Word file = 0, lineno = 0;
		const char *name = NULL;

		if (dwarf_formudata(dwarf_attr(&dies[i - 1], DW_AT_call_file, &attr), &file) ||
		    dwarf_formudata(dwarf_attr(&dies[i - 1], DW_AT_call_line, &attr), &lineno) ||
		    !lines->table || !(name = file_base(lines->table, file)))
			continue;
		if (c->config->full_source_path)
			funcs[i].line = srcline_full(cu, dwarf_lines__file(lines->table, file),
						   (unsigned)lineno);
		else
			funcs[i].line = xasprintf("%s:%u", name, (unsigned)lineno);
	}
	if (line) {
		int lineno = line->line;
		const char *file = dwarf_lines__file(lines->table, line->file);
		const char *base = file ? strrchr(file, '/') : NULL;
		const char *full = file;	/* as the line table names it */

		file = base ? base + 1 : file;
		if (line->file == 1 && at_unit_start(lines, pc - cu_bias)) {
			file = file_base(lines->table, 0);
			full = dwarf_lines__file(lines->table, 0);
		}
		if (full) {
			r->file = full_path(cu, full);
			r->line = (unsigned)lineno;
		}
		if (c->config->full_source_path && full)
			r->srcline = xasprintf("%s:%d", r->file, lineno);
		else
			r->srcline = xasprintf("%s:%d", file ? file : "??", lineno);
	} else if (ef && ef->file) {
		const char *base = c->config->full_source_path ? NULL : strrchr(ef->file, '/');

		r->file = xstrdup(ef->file);	/* addr2line's file: the symbol's STT_FILE */
		r->srcline = xasprintf("%s:0", base ? base + 1 : ef->file);
	} else {
		r->srcline = xstrdup("??:0");
	}
	return a2l_record__new(r, funcs);
}

static struct a2l_record *dso__a2l(struct dso *dso, uint64_t addr, struct srcline_cache **cp)
{
	struct srcline_cache *c = dso__cache(dso, &srcline_cache_kind);
	struct a2l_record *r;

	if (!c)
		c = dso__srcline_cache(dso);
	*cp = c;
	if (c->failed)
		return NULL;
	r = hashmap_u64_get(&c->records, addr);
	if (!r) {
		r = a2l_lookup(c, dso__addr_to_vaddr(dso, addr));
		hashmap_u64_put(&c->records, addr, r);
	}
	return r;
}

const char *dso__srcfile(struct dso *dso, uint64_t addr, unsigned *line)
{
	struct srcline_cache *c;
	struct a2l_record *r = dso ? dso__a2l(dso, addr, &c) : NULL;

	*line = r && r->file ? r->line : 0;
	if (!r || !r->nr)
		return NULL;
	/* a function without a line row: addr2line prints "??:?" */
	return r->file ? r->file : "??";
}

const char *dso__srcline(struct dso *dso, uint64_t addr)
{
	struct srcline_cache *c;
	struct a2l_record *r;

	if (!dso)
		return NULL;
	r = dso__a2l(dso, addr, &c);
	if (r && r->nr)
		return r->srcline;	/* "??:0" when a function but no line was found */
	/* Not found: perf shows "dso[address]" (the address addr2line got). */
	if (!hashmap_u64_get(&c->fallback, addr))
		hashmap_u64_put(&c->fallback, addr,
				xasprintf("%s[%" PRIx64 "]", dso->short_name,
					  dso__addr_to_vaddr(dso, addr)));
	return hashmap_u64_get(&c->fallback, addr);
}

const struct inline_frame *dso__inlines(struct dso *dso, uint64_t addr,
					struct symbol *sym, int *nr)
{
	struct srcline_cache *c;
	struct a2l_record *r;

	*nr = 0;
	if (!dso || !sym || !(r = dso__a2l(dso, addr, &c)) || !r->nr)
		return NULL;
	if (!r->frames) {
		int nfake = 0;

		r->frames = xcalloc((size_t)r->nr, sizeof(*r->frames));
		r->fake = xcalloc((size_t)r->nr, sizeof(*r->fake));
		for (int i = 0; i < r->nr; i++) {
			const char *dwarf_name = r->funcs[i].name ? r->funcs[i].name : "??";
			char *demangled = sym_demangle_as(c->config, dwarf_name);
			const char *name = demangled ? demangled : dwarf_name;

			/* perf reuses the ELF symbol when the names agree. */
			if (!strcmp(name, sym->name)) {
				r->frames[i].sym = sym;
			} else {
				struct symbol *f = &r->fake[nfake++];

				f->start = sym->start;
				f->end = sym->end;
				f->binding = sym->binding;
				f->name = arena_strndup(&c->names, name, strlen(name));
				r->frames[i].sym = f;
				r->frames[i].inlined = true;
			}
			r->frames[i].srcline = i ? r->funcs[i].line : r->srcline;
			free(demangled);
		}
	}
	*nr = r->nr;
	return r->frames;
}

static void srcline_cache__free(void *cache)
{
	struct srcline_cache *c = cache;

	for (void **v = NULL; (v = hashmap_next(&c->fallback, v));)
		free(*v);
	hashmap_release(&c->fallback);
	for (void **v = NULL; (v = hashmap_next(&c->records, v));) {
		struct a2l_record *r = *v;

		if (r) {
			for (int k = 0; k < r->nr; k++)
				free(r->funcs[k].line);
			free(r->srcline);
			free(r->file);
			free(r->frames);
			free(r->fake);
			free(r);
		}
	}
	hashmap_release(&c->records);
	hashmap_release(&c->renamed);
	hashmap_release(&c->twins);
	dwarf_scopes__delete(c->scopes);
	for (void **v = NULL; (v = hashmap_next(&c->units, v));) {
		struct unit_lines *u = *v;

		if (u) {
			dwarf_lines__delete(u->table);
			free(u->starts);
			free(u);
		}
	}
	hashmap_release(&c->units);
	free(c->cu_ranges);
	dwarf_aranges__delete(c->aranges);
	arena_release(&c->names);
	free(c->funcs);
	if (c->dwfl)
		dwfl_end(c->dwfl);
	free(c);
}
