/* probe-elf: what pcl probe needs of an ELF file without its debug
 * information: the symbol names perf 6.1 offers to -F (functions, data
 * objects, labels of text and data sections, PLT slots) and the file
 * offset a uprobe is placed at. */
#ifndef PCL_PROBE_ELF_H
#define PCL_PROBE_ELF_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

struct probe_sym {
	char *name;
	uint64_t addr;	/* st_value, a virtual address */
	uint64_t size;
	bool function;
	bool ifunc;	/* STT_GNU_IFUNC: a resolver, not the function */
};

struct probe_elf {
	char *path;
	int fd;
	void *elf; /* Elf * */
	struct probe_sym *syms;
	int nr_syms;
	int nr_table_syms;	/* those of .symtab or .dynsym (PLT slots aside) */
};

/* Opens path and reads its symbols; -errno on failure. */
int probe_elf__open(struct probe_elf *pe, const char *path);
void probe_elf__close(struct probe_elf *pe);

/* The sorted names -F shows, demangled (C++ and Rust, perf's default) or
 * not: filter is perf's strfilter syntax (globs joined by '&' and '|',
 * negated by '!') on the shown names, NULL for perf's default
 * "!_* & !*@plt".  Returns the count; the caller frees *names and each
 * of them. */
int probe_elf__filtered_names(const struct probe_elf *pe, const char *filter, bool demangle,
			      char ***names);

/* The separate debug file of path by its build id: the distribution's
 * (/usr/lib/debug/.build-id/xx/yyyy.debug), else the build-id cache's
 * debug copy, and for symbols (!dwarf) its elf copy; NULL when there is
 * none.  Caller frees. */
char *probe_elf__debug_path(const char *path, bool dwarf);

/* The function symbol named name, or NULL. */
const struct probe_sym *probe_elf__find_function(const struct probe_elf *pe, const char *name);

/* The symbol of data (or a label) named name, or NULL. */
const struct probe_sym *probe_elf__find_data(const struct probe_elf *pe, const char *name);

/* The function symbol whose code holds addr, or NULL. */
const struct probe_sym *probe_elf__function_at(const struct probe_elf *pe, uint64_t addr);

/* The file offset of a virtual address (through the PT_LOAD holding it). */
uint64_t probe_elf__file_offset(const struct probe_elf *pe, uint64_t addr);

/* Where perf places a symbol's virtual address in the file: through the
 * loadable segment whose memory holds it (.bss too, which has no bytes in
 * the file), else through its section. */
uint64_t probe_elf__section_offset(const struct probe_elf *pe, uint64_t addr);

/* A relocatable file's (a module's) object symbol: its section's offset
 * in the file plus its value, as perf's symbol map places it; 0 when the
 * file is not relocatable or has no such symbol. */
uint64_t probe_elf__rel_data_offset(const struct probe_elf *pe, const char *name);

/* The first symbol of an Elf's (an Elf *'s) .symtab that match takes:
 * its name, the symbol in *found; NULL when none. */
const char *probe_elf__symtab_find(void *elf,
				   bool (*match)(const GElf_Sym *sym, const char *name, void *arg),
				   void *arg, GElf_Sym *found);

/* The virtual address of a file offset (the inverse of the above). */
uint64_t probe_elf__vaddr(const struct probe_elf *pe, uint64_t offset);

/* A kernel module's name, from its struct module (.gnu.linkonce.this_module),
 * NULL when the file has none.  Caller frees. */
char *probe_elf__module_name(const struct probe_elf *pe);

/* Whether a strfilter expression matches s. */
bool probe_strfilter_match(const char *filter, const char *s);

#endif
