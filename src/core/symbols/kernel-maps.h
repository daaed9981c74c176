/* kernel-maps: where the running kernel's text and its modules lie, as
 * perf describes them (record's kernel MMAPs, buildid-list -m). */
#ifndef PCL_KERNEL_MAPS_H
#define PCL_KERNEL_MAPS_H

#include <stdint.h>

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

#endif
