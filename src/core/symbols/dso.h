/* dso: one object samples land in (an ELF file, the kernel or a module, the
 * vdso, a JIT's perf-PID.map) and its symbols, loaded once on first use.
 *
 * Public: what readers, the UI, hist/ and the commands may use of a DSO.
 * How symbol tables are built and loaded (dso internals, the loaders)
 * lives in symbols-int.h, which only src/core/symbols/ and unit tests
 * include.
 */
#ifndef PCL_DSO_H
#define PCL_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct symbol {
	/* DSO-relative, [start, end): for ELF files the address space of
	 * map__map_ip() (file offsets, as perf 6.1: st_value moved by the
	 * p_vaddr - p_offset of its PT_LOAD); kallsyms addresses for the
	 * kernel, absolute addresses for JIT maps (perf-PID.map). */
	uint64_t start, end;
	const char *name;	/* demangled as perf shows it */
	bool object;		/* data (STT_OBJECT): report shows name+0xoffset */
	/* name not demangled yet (maybe not mangled at all): the dso asks
	 * the demangler before handing the symbol out (most of a big DSO's
	 * names are never shown, so never read) */
	bool mangled;
	uint8_t binding;	/* STB_LOCAL, STB_GLOBAL or STB_WEAK */
	/* of name, for the hist keys that hash it (0: not computed yet);
	 * kept in what was padding */
	uint32_t name_hash;
};

struct dso {
	char *long_name;	/* path as in the MMAP record, or "[kernel.kallsyms]" */
	char *short_name;	/* basename, what perf prints in (dso): set by
				 * dso__set_short_name() */
	uint64_t short_name_hash;	/* hash_string() of short_name */
	uint8_t build_id[20];
	int build_id_size;	/* 0 when unknown */
	bool kernel;		/* kernel or module */
	bool hit;		/* a sample resolved into it (buildid-list) */
	/* symbol table, loaded lazily by dso__find_symbol() */
	void *priv;
};

/* Symbol covering a DSO-relative address, or NULL. */
struct symbol *dso__find_symbol(struct dso *dso, uint64_t addr);

/* The symbols loaded so far, by address (none before a lookup loaded
 * them); *loaded tells whether a load was tried (perf's dso__loaded). */
size_t dso__loaded_symbols(struct dso *dso, const struct symbol **syms, bool *loaded);
/* The DSO's symbols (loaded now), by address; their count. */
size_t dso__symbols(struct dso *dso, const struct symbol **syms);

/* Converts a DSO-relative (file offset) address to the ELF vaddr (the
 * address objdump shows). */
uint64_t dso__addr_to_vaddr(struct dso *dso, uint64_t addr);

/* Reads up to len bytes of the DSO's image at file offset off (the
 * address map__map_ip() gives); returns the bytes read, or -1.  The kernel
 * and maps without a file have no image. */
long dso__read(struct dso *dso, uint64_t off, void *buf, size_t len);

/* Whether the DSO's symbols were loaded from an ELF image (its file, a
 * copy of it, or the running vdso); false before they are loaded. */
bool dso__has_elf_image(const struct dso *dso);

/* The ELF file the DSO's symbols came from (its runtime image: the file,
 * a build-id cache copy, ...), NULL when none was found. */
const char *dso__image_path(struct dso *dso);

/* The name report -v shows: the vmlinux the kernel's symbols came from
 * (as it was given), else long_name. */
const char *dso__shown_long_name(const struct dso *dso);

/* The address report -v shows for a DSO-relative one: where the kernel
 * maps it when its symbols came from a vmlinux, else addr. */
uint64_t dso__shown_addr(const struct dso *dso, uint64_t addr);

/* The letter report -v shows before "[.]" for where the DSO's symbols
 * were read: k kallsyms, K a module, j a perf map, B/D the build-id
 * cache's binary/debug file, b, f, u /usr/lib/debug by build id,
 * path.debug or path, l a debuglink, d the file itself, v a vmlinux,
 * ! none. */
char dso__symtab_origin(const struct dso *dso);

/* Takes name (malloced) as dso's short name, freeing the old one. */
void dso__set_short_name(struct dso *dso, char *name);

/* Fills dso->build_id from the DSO's file (ELF note, or /sys/kernel/notes
 * for the kernel) when unknown; returns build_id_size (0: none found). */
int dso__read_build_id(struct dso *dso);

/* Demangles C++ and Rust symbols the way perf 6.1 shows them (no
 * parameter lists); NULL when name is not mangled. Caller frees. */
char *sym_demangle(const char *name);

/* What perf 6.1 shows as the srcline of a DSO-relative address (libdw,
 * cached): "file.c:123", "<dso short name>[<vaddr>]" when nothing is
 * known about the address, or NULL when perf prints nothing (its "??:0").
 */
const char *dso__srcline(struct dso *dso, uint64_t addr);
/* The source file of a DSO-relative address with its directories, as
 * addr2line names it, and its line; "??" (line 0) for a function with
 * neither line rows nor STT_FILE, NULL when unknown. */
const char *dso__srcfile(struct dso *dso, uint64_t addr, unsigned *line);

/* Caches other modules keep per DSO or per address space (srcline's
 * DWARF, the unwinder's state).  The object holds them and, when it goes
 * away, releases each one once through its kind; it knows nothing else of
 * them.  A module names its cache by the address of one static kind. */
struct cache_kind {
	const char *name;
	void (*release)(void *cache);
};

/* The cache of that kind attached to dso, or NULL. */
void *dso__cache(const struct dso *dso, const struct cache_kind *kind);
/* Attaches cache (NULL: none), releasing the one of that kind it replaces. */
void dso__set_cache(struct dso *dso, const struct cache_kind *kind, void *cache);

#endif
