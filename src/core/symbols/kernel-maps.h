/* kernel-maps: where the running kernel's text and its modules lie, as
 * perf describes them (record's kernel MMAPs, buildid-list -m). */
#ifndef PCL_KERNEL_MAPS_H
#define PCL_KERNEL_MAPS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/arena.h"

struct machine;
struct map;
struct symbol;

/* Calls fn with each "address type name" line of a kallsyms-format file
 * (path NULL: /proc/kallsyms) until fn returns nonzero.  Returns -1 when
 * the file cannot be read, else what fn returned last (0: every line). */
typedef int (*kallsyms_fn)(uint64_t addr, char type, const char *name, void *arg);
int kallsyms__for_each(const char *path, kallsyms_fn fn, void *arg);

/* The kernel's own symbols of a kallsyms-format file as perf probe holds
 * them: text and data (types T W D B, either case) in address order,
 * aliases kept; each ends where the next one starts (so an alias followed
 * by another at its address has no size), the last before the modules' on
 * the page after the next.  Module symbols are left out. */
struct kallsyms_entry {
	uint64_t start, end;
	const char *name;
	bool function;		/* text (T, W), not data */
};

struct kallsyms_table {
	struct kallsyms_entry *v;
	size_t nr;
	struct arena pool;	/* the names; zeroed before the first load */
};

/* Loads path (NULL: /proc/kallsyms) into t; 0, or -1 when unreadable. */
int kallsyms_table__load(struct kallsyms_table *t, const char *path);
void kallsyms_table__exit(struct kallsyms_table *t);

/* Looks up a symbol's address in a kallsyms-format file (path NULL:
 * /proc/kallsyms); 0 and *addr set, or -1. */
int kallsyms__symbol_addr(const char *path, const char *name, uint64_t *addr);

/* The kernel text: _text (or _stext) up to _etext (the top of the address
 * space without it), from kallsyms (path NULL: /proc/kallsyms); -1 when
 * neither start symbol is there. */
int kernel_text__range(const char *kallsyms, uint64_t *start, uint64_t *end);

/* Each loaded module of /proc/modules whose address is visible: its name,
 * its file under /lib/modules/<release> (NULL when modules.dep does not
 * list it), its .text address and size.  A non-zero return of cb stops
 * the walk and is returned. */
typedef int (*module_fn)(const char *name, const char *path, uint64_t start, uint64_t size,
			 void *arg);
int running_modules__for_each(module_fn cb, void *arg);

/* Gives a machine the running kernel's maps, as perf does without a
 * perf.data: the kernel text [_text, _etext) and each loaded module.
 * Returns -1 when kallsyms hides the kernel's addresses; *no_modules is
 * set when the module list could not be read. */
int machine__add_running_kernel_maps(struct machine *m, bool *no_modules);

/* The kernel's (or a module's) symbol called name, perf's way: maps in
 * address order, in each the lowest symbol of that name, kept only when
 * it lies inside its map.  *map (when map is not NULL) is set to its map.
 * NULL: not found. */
struct symbol *machine__find_kernel_symbol_by_name(struct machine *m, const char *name,
						   struct map **map);

/* The name perf record gives the kernel in its build-id table: vmlinux
 * (--vmlinux) as given, else the vmlinux it takes the kernel's symbols from
 * when it marks the DSOs hit: the first ELF image with symbols on perf's
 * vmlinux path (no build id checked: perf's kernel has none yet then);
 * NULL: none ("[kernel.kallsyms]").  Malloc'ed. */
char *running_kernel__vmlinux(const char *vmlinux);

#endif
