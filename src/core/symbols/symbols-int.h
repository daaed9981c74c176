/* symbols-int: the symbol engine's private interfaces between machine,
 * thread, map, dso and the symbol loaders (ELF, kallsyms, perf maps,
 * build-id cache, demangling).
 *
 * Private: only files in src/core/symbols/ include it (unit tests may).
 * Everyone else uses the public headers: machine.h, dso.h, map.h,
 * thread.h, buildid.h; add an accessor there rather than include this.
 */
#ifndef PCL_SYMBOLS_INT_H
#define PCL_SYMBOLS_INT_H

#include "core/symbols/buildid.h"
#include "core/symbols/machine.h"
#include "util/arena.h"
#include "util/hashmap.h"

#include <gelf.h>
#include <stddef.h>
#include <stdio.h>

/* --- caches other modules attach to a dso or maps (dso.h) --------------- */
struct cache_slot {
	const struct cache_kind *kind;
	void *cache;
	struct cache_slot *next;
};
void *cache_slots__get(const struct cache_slot *slots, const struct cache_kind *kind);
void cache_slots__set(struct cache_slot **slots, const struct cache_kind *kind, void *cache);
/* Releases every cache, each once, and forgets them. */
void cache_slots__release(struct cache_slot **slots);

/* --- symbol table construction ------------------------------------------ */
struct sym_raw {
	uint64_t start, end;
	const char *name;	/* in the DSO's string pool */
	uint32_t seq;		/* insertion order: ties keep the earlier one */
	uint8_t bind;		/* STB_* */
	bool module_sym;	/* kallsyms "[module]" symbol */
	bool object;		/* STT_OBJECT (data) */
	bool mangled;		/* name still to be demangled (symbol__demangle) */
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
/* The same with name kept as it is (it outlives the table). */
struct sym_raw *symtab_add_ref(struct symtab_builder *b, uint64_t start, uint64_t size,
			       uint8_t bind, const char *name);
/* Room for at least n symbols in all (a big table's one allocation). */
void symtab_reserve(struct symtab_builder *b, size_t n);
/* Appends a copy of s (a later seq than every symbol so far). */
void symtab_push(struct symtab_builder *b, const struct sym_raw *s);
/* Sorts and gives zero-size symbols an end. */
void symtab_fix_ends(struct symtab_builder *b, bool kallsyms);
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

/* The running vdso's copy symbols_config.vdso_copy made, or NULL. */
const char *vdso__copy_path(void);

/* --- dso internals ------------------------------------------------------ */
enum dso_kind {
	DSO_USER,	/* an ELF file by path */
	DSO_KERNEL,	/* [kernel.kallsyms] */
	DSO_MODULE,	/* [name] kernel module */
	DSO_VDSO,	/* [vdso] */
	DSO_PERF_MAP,	/* /tmp/perf-PID.map */
	DSO_NONE,	/* [heap], [stack], anon data: no symbols */
	/* [kernel.kallsyms].init.text...: a vmlinux section other than .text,
	 * filled when the kernel's symbols are read from the image */
	DSO_KERNEL_SECTION,
};

struct elf_load {	/* an executable PT_LOAD: file offset <-> vaddr */
	uint64_t offset, vaddr, filesz;
};

struct dso_priv {
	struct machine *machine;
	const struct symbols_config *config;	/* the machine's */
	enum dso_kind kind;
	bool loaded, build_id_read;
	struct symbol *syms;
	struct symtree *symtree;	/* perf's tree, where symbols overlap (symtree.h) */
	size_t nr_syms;
	struct arena pool;
	/* string tables mapped from the symbol files: ELF symbol names point
	 * into them (copying and measuring every name cost more than loading
	 * the rest of a big DSO's table) */
	struct mapped_strtab { void *base; size_t len; } *strtabs;
	size_t nr_strtabs;
	struct hashmap addr_cache;	/* addr+1 -> symbol (or &no_symbol) */
	char *elf_path;		/* the runtime image found for this dso */
	char *debug_path;	/* the symbol table's file: srcline reads its DWARF */
	void *image;		/* in-memory ELF (the running vdso), or NULL */
	size_t image_size;
	uint64_t text_offset;	/* .text sh_addr - sh_offset: file offset -> vaddr */
	struct elf_load *loads;	/* PT_LOAD segments of the runtime image */
	size_t nr_loads;
	struct cache_slot *caches;	/* other modules' (srcline's) */
	char *vmlinux_path;	/* the vmlinux the kernel's symbols came from */
	uint64_t vmlinux_shift;	/* its map's start - pgoff: DSO address -> kernel's */
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
/* Remembers that addr resolves to sym (NULL: to none), as a lookup would. */
void dso__cache_resolution(struct dso *dso, uint64_t addr, struct symbol *sym);
/* The symbols of the machine's embedded tables (embed.h) for dso; false
 * when they name no such DSO. */
bool dso__load_embedded(struct dso *dso);
void machine__drop_embedded_symbols(struct machine *m);
/* Stretches the kernel's map over its last symbol, as loading kallsyms does. */
void kernel_map__cover_symbols(struct dso *kernel);

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
	const char *kernel_name;	/* "[kernel.kallsyms]", or a guest's */
	char *kernel_ref_sym;	/* its MMAP's reference symbol (_text), when placed */
	bool kernel_mapped;	/* the file had the kernel's MMAP */
	struct symbols_config config;	/* what the loaders are handed */
	char *default_buildid_dir;	/* config.buildid_dir's default (owned) */
	uint64_t maps_generation;	/* see machine__maps_generation() */
	struct hashmap cgroups;		/* cgroup id -> path (owned) */
	struct symbols_embedded *embedded;	/* tables a perf.data carried (embed.h) */
};

void thread__delete(struct thread *t);

/* --- machine internals used by the loaders ------------------------------ */
struct dso *machine__find_module_dso(struct machine *m, const char *name);
struct dso *machine__kernel_dso(struct machine *m);
/* Maps of the kernel address space (kernel + modules). */
struct maps *machine__kmaps(struct machine *m);
/* A new DSO for a vmlinux section's symbols, named name, loaded. */
struct dso *machine__new_kernel_section_dso(struct machine *m, const char *name);

/* --- maps --------------------------------------------------------------- */
struct maps {
	struct map **v;		/* sorted by start, non-overlapping */
	size_t nr, alloc;
	int refcnt;
	uint64_t generation;	/* bumped on every change (unwind caches) */
	struct cache_slot *caches;	/* other modules' (the unwinder's) */
};

struct maps *maps__new(void);
struct maps *maps__get(struct maps *maps);
void maps__put(struct maps *maps);
/* Inserts, splitting or replacing overlapped maps like the kernel does;
 * the pieces are new maps registered through keep(). */
void maps__insert(struct maps *maps, struct map *map, struct machine *m);
/* Takes map out of maps (to move it: maps__insert() it again). */
void maps__remove(struct maps *maps, struct map *map);
/* Copies every map of from into to (FORK of a new process). */
void maps__clone(struct maps *to, const struct maps *from, struct machine *m);
/* Releases the attached caches now (an exec: they describe the old image). */
void maps__release_caches(struct maps *maps);
struct map *machine__new_map(struct machine *m);

/* --- thread internals --------------------------------------------------- */
struct thread_priv {
	struct maps *maps;
	bool gone_seen;		/* dead or unreachable at the last prune */
};

/* --- loaders: each is handed the settings it reads ----------------------- */
/* ELF: .symtab/.dynsym (+ MiniDebugInfo) of the best file for dso;
 * returns 0 when a symbol table was installed. */
int dso__load_elf(struct dso *dso, const struct symbols_config *config);
/* perf's choice of symbols for the kernel: --kallsyms FILE, else -k FILE
 * (and nothing else), else a vmlinux of the recorded build id from the
 * build-id cache or perf's vmlinux path, else kallsyms. */
int dso__load_kernel(struct dso *kernel, const struct symbols_config *config);
/* The kernel's symbols from the vmlinux at path (relative: under --symfs);
 * how many, 0 for none, -1 when it is no usable image of that kernel. */
int dso__load_vmlinux(struct dso *kernel, const char *path, const struct symbols_config *config);
/* ELF symbols perf keeps: functions and objects, and labels (NOTYPE) that
 * text sections hold. */
bool elf_sym__is_wanted(const GElf_Sym *sym);
bool elf_sym__is_label(const GElf_Sym *sym);
/* The kallsyms file (config->kallsyms, else the one that describes the
 * recorded kernel) into the kernel dso (module symbols to modules). */
int dso__load_kallsyms(struct dso *kernel, const struct symbols_config *config);
/* Parses "START SIZE name" lines of a perf map file (no ownership check). */
int perf_map__parse(FILE *f, struct symtab_builder *b);
/* Loads /tmp/perf-PID.map into dso, refusing files another user owns
 * unless config->force. */
int dso__load_perf_map(struct dso *dso, const struct symbols_config *config);
/* perf's ownership rule for perf-PID.map: owned by us or by root. */
bool perf_map__owner_ok(const char *path, uid_t uid);

/* The same when config asks for demangled names (NULL otherwise). */
char *sym_demangle_as(const struct symbols_config *config, const char *name);
/* Whether name looks mangled: sym_demangle() returns NULL for the rest. */
bool sym_maybe_mangled(const char *name);
/* Symbol tables keep mangled names until one is shown: sym's demangled
 * name (copied into pool) replaces the mangled one, once. */
void symbol__demangle(struct symbol *sym, struct arena *pool);
/* Every symbol of dso demangled, for those who read the whole table. */
void dso__demangle_all(struct dso *dso);

/* config's --symfs prefix, "" for none. */
const char *symbols_config__symfs(const struct symbols_config *config);
/* BUILDID_DIR/.build-id/xx/rest[/basename] for this id, or NULL. */
char *build_id__cache_path(const struct symbols_config *config, const uint8_t *id, int size,
			   const char *basename);
bool file__is_regular(const char *path);
bool str_ends_with(const char *s, const char *suffix);

#endif
