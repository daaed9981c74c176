/* symbols: the engine's private interfaces between machine, thread, map,
 * dso and the symbol loaders (ELF, kallsyms, perf maps).  Readers use
 * machine.h only.
 */
#ifndef PCL_SYMBOLS_H
#define PCL_SYMBOLS_H

#include "core/symbols/machine.h"
#include "util/arena.h"
#include "util/hashmap.h"

#include <stddef.h>
#include <stdio.h>

/* --- symbol table construction ------------------------------------------ */
struct sym_raw {
	uint64_t start, end;
	const char *name;	/* in the DSO's string pool */
	uint32_t seq;		/* insertion order: ties keep the earlier one */
	uint8_t bind;		/* STB_* */
	bool module_sym;	/* kallsyms "[module]" symbol */
	bool object;		/* STT_OBJECT (data) */
};

struct symtab_builder {
	struct sym_raw *v;
	size_t nr, alloc;
	struct arena *pool;
};

/* Of two symbols at one address, whether perf keeps a (it drops b). */
bool sym_raw__prefer_first(const struct sym_raw *a, const struct sym_raw *b);

/* Adds a symbol (name copied); size 0 = extends to the next one. */
struct sym_raw *symtab_add(struct symtab_builder *b, uint64_t start, uint64_t size,
			   uint8_t bind, const char *name, size_t name_len);
/* Appends a copy of s (a later seq than every symbol so far). */
void symtab_push(struct symtab_builder *b, const struct sym_raw *s);
/* Sorts, gives zero-size symbols an end and drops duplicates. */
void symtab_fixup(struct symtab_builder *b, bool kallsyms);
/* Sorts, gives zero-size symbols an end and drops duplicates (perf's
 * fixup_end then fixup_duplicate), then installs the table in dso; the
 * late symbols (PLT entries, may be NULL) are added after those fixups. */
void dso__install_symbols(struct dso *dso, struct symtab_builder *b,
			  struct symtab_builder *late, bool kallsyms);
/* The same without the fixups: the symbols are taken as they are. */
void dso__install_symbols_raw(struct dso *dso, struct symtab_builder *b,
			      struct symtab_builder *late);

/* --- dso internals ------------------------------------------------------ */
enum dso_kind {
	DSO_USER,	/* an ELF file by path */
	DSO_KERNEL,	/* [kernel.kallsyms] */
	DSO_MODULE,	/* [name] kernel module */
	DSO_VDSO,	/* [vdso] */
	DSO_PERF_MAP,	/* /tmp/perf-PID.map */
	DSO_NONE,	/* [heap], [stack], anon data: no symbols */
};

struct elf_load {	/* an executable PT_LOAD: file offset <-> vaddr */
	uint64_t offset, vaddr, filesz;
};

struct srcline_cache;

struct dso_priv {
	struct machine *machine;
	enum dso_kind kind;
	bool loaded, build_id_read;
	struct symbol *syms;
	struct symtree *symtree;	/* perf's tree, where symbols overlap (symtree.h) */
	size_t nr_syms;
	struct arena pool;
	struct hashmap addr_cache;	/* addr+1 -> symbol (or &no_symbol) */
	char *elf_path;		/* the runtime image found for this dso */
	char *debug_path;	/* the symbol table's file: srcline reads its DWARF */
	void *image;		/* in-memory ELF (the running vdso), or NULL */
	size_t image_size;
	uint64_t text_offset;	/* .text sh_addr - sh_offset: file offset -> vaddr */
	struct elf_load *loads;	/* PT_LOAD segments of the runtime image */
	size_t nr_loads;
	struct srcline_cache *srcline;
	struct hashmap *srcline_fallback;	/* addr -> "dso[vaddr]" */
	int data_fd;		/* elf_path opened for dso__read(), when data_open */
	bool data_open;
	struct dso *next_in_bucket;
};

static inline struct dso_priv *dso__priv(const struct dso *d)
{
	return (struct dso_priv *)d->priv;
}

struct dso *dso__new(struct machine *m, const char *long_name, enum dso_kind kind);
void dso__delete(struct dso *dso);
void dso__load(struct dso *dso);
void dso__set_build_id(struct dso *dso, const uint8_t *id, int size);
/* Reads up to len bytes of the DSO's image at file offset off (the
 * address map__map_ip() gives); returns the bytes read, or -1.  The kernel
 * and maps without a file have no image. */
long dso__read(struct dso *dso, uint64_t off, void *buf, size_t len);
/* Converts a DSO-relative (file offset) address to the ELF vaddr. */
uint64_t dso__addr_to_vaddr(struct dso *dso, uint64_t addr);
void dso__srcline_release(struct dso *dso);

/* The functions inlined at a DSO address, innermost first, ending with
 * the function they were inlined into (addr2line -i), named as perf
 * names them against sym; NULL / *nr = 0 when DWARF has nothing. */
struct inline_frame {
	struct symbol *sym;
	bool inlined;
	const char *srcline;	/* its line: the address's, then call sites */
};
const struct inline_frame *dso__inlines(struct dso *dso, uint64_t addr,
					struct symbol *sym, int *nr);

/* --- machine ------------------------------------------------------------ */
struct machine {
	struct hashmap threads;		/* tid -> live thread */
	struct thread **all_threads;	/* every thread ever made (owned) */
	size_t nr_threads, alloc_threads;
	struct map **all_maps;		/* every map ever made (owned) */
	size_t nr_maps, alloc_maps;
	struct dso **dsos;		/* in creation order */
	size_t nr_dsos, alloc_dsos;
	struct hashmap dso_index;	/* name hash -> bucket of dsos */
	struct maps *kmaps;		/* kernel and modules */
	struct dso *kernel;
	char *kallsyms, *symfs, *buildid_dir;
	bool force;
	bool no_inline;		/* --no-inline: unwound frames not expanded */
};

void thread__delete(struct thread *t);

/* --- machine internals used by the loaders ------------------------------ */
const char *machine__symfs(const struct machine *m);
const char *machine__kallsyms_path(const struct machine *m);
const char *machine__buildid_dir(const struct machine *m);
bool machine__force(const struct machine *m);
struct dso *machine__find_module_dso(struct machine *m, const char *name);
struct dso *machine__kernel_dso(struct machine *m);
/* Maps of the kernel address space (kernel + modules). */
struct maps *machine__kmaps(struct machine *m);

/* Fills al for ip without marking the DSO hit (callchain entries). */
bool machine__lookup(struct machine *m, struct thread *thread, uint8_t cpumode,
		     uint64_t ip, struct addr_location *al);

/* --- maps --------------------------------------------------------------- */
struct maps {
	struct map **v;		/* sorted by start, non-overlapping */
	size_t nr, alloc;
	int refcnt;
	uint64_t generation;	/* bumped on every change (unwind caches) */
	void *unwind;		/* cached unwinder state for this address space */
};

struct maps *maps__new(void);
struct maps *maps__get(struct maps *maps);
void maps__put(struct maps *maps);
/* Inserts, splitting or replacing overlapped maps like the kernel does;
 * the pieces are new maps registered through keep(). */
void maps__insert(struct maps *maps, struct map *map, struct machine *m);
struct map *maps__find(const struct maps *maps, uint64_t addr);
/* Copies every map of from into to (FORK of a new process). */
void maps__clone(struct maps *to, const struct maps *from, struct machine *m);
struct map *machine__new_map(struct machine *m);

/* --- thread internals --------------------------------------------------- */
struct thread_priv {
	struct maps *maps;
};
struct maps *thread__maps(const struct thread *t);

/* --- loaders ------------------------------------------------------------ */
/* ELF: .symtab/.dynsym (+ MiniDebugInfo) of the best file for dso;
 * returns 0 when a symbol table was installed. */
int dso__load_elf(struct dso *dso);
/* Reads an ELF file's build-id note; returns its size or 0. */
int elf_file__read_build_id(const char *path, uint8_t *id, size_t max);
int elf_buf__read_build_id(const void *buf, size_t size, uint8_t *id, size_t max);
/* kallsyms-format file into the kernel dso (module symbols to modules). */
int dso__load_kallsyms(struct dso *kernel, const char *path);
/* Parses "START SIZE name" lines of a perf map file (no ownership check). */
int perf_map__parse(FILE *f, struct symtab_builder *b);
/* Loads /tmp/perf-PID.map into dso, refusing files another user owns. */
int dso__load_perf_map(struct dso *dso);
/* perf's ownership rule for perf-PID.map: owned by us or by root. */
bool perf_map__owner_ok(const char *path, uid_t uid);

/* Demangles C++ and Rust symbols the way perf 6.1 shows them (no
 * parameter lists); NULL when name is not mangled. Caller frees. */
char *sym_demangle(const char *name);
/* --no-demangle: sym_demangle() returns NULL for every name from now on
 * (set before any symbol table is loaded). */
void sym_demangle_enable(bool on);

/* Process-wide, like perf's symbol_conf: set before symbols are loaded.
 * --no-demangle keeps names as the symbol tables spell them. */
void sym_demangle_enable(bool on);

/* Build-id helpers */
void build_id__hex(const uint8_t *id, int size, char *out);	/* out: 41 bytes */
/* ~/.debug/.build-id/xx/rest[/basename] for this id, or NULL. */
char *build_id__cache_path(struct machine *m, const uint8_t *id, int size,
			   const char *basename);
bool file__is_regular(const char *path);

/* The running kernel's build id from /sys/kernel/notes (0 if none). */
int sysfs__read_kernel_build_id(uint8_t *id, size_t max);
/* The build id in a sysfs note file (/sys/module/M/notes/.note.gnu.build-id). */
int sysfs__read_build_id(const char *path, uint8_t *id, size_t max);

void maps__unwind_release(struct maps *maps);

#endif
