/* kmem-print: perf kmem stat's tables and summaries. */
#ifndef PCL_KMEM_PRINT_H
#define PCL_KMEM_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/analysis/kmem.h"
#include "core/symbols/machine.h"

struct kmem_print_opts {
	bool caller, alloc;		/* the per-call-site and per-allocation tables */
	int caller_lines, alloc_lines;	/* -1: all */
	bool raw_ip;
};

/* The slab part then the page part, as k's settings ask. */
void kmem_print(FILE *fp, const struct kmem *k, struct machine *machine,
		const struct kmem_print_opts *o);

#endif
