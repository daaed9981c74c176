/* probe-kernel: kernel probe sites from kallsyms alone, as perf 6.1 places
 * them without a vmlinux: "_text+OFFSET" of each function symbol, checked
 * against the function's size and the kernel's text. */
#ifndef PCL_PROBE_KERNEL_H
#define PCL_PROBE_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/symbols/kernel-maps.h"

struct probe_msgs;

/* The running kernel as perf probe sees it.  Its text is [_text, _etext]
 * until the symbols are read, then the span of the symbols: perf's kernel
 * map, whose start itself counts as outside. */
struct probe_kernel {
	struct kallsyms_table syms;
	uint64_t text, start, end;	/* _text; the map's bounds now */
	bool loaded, have_text;
	bool spanned;		/* a function was looked up: the map spans the symbols */
	int nr_matched;		/* symbols the last lookup matched */
};

/* Reads _text and _etext of path (NULL: /proc/kallsyms). */
void probe_kernel__init(struct probe_kernel *k, const char *path);
void probe_kernel__exit(struct probe_kernel *k);

/* perf's words after "Failed to load symbols from /proc/kallsyms". */
extern const char probe_kallsyms_access_error[];

/* Whether addr is outside the kernel's text, perf's "out of .text" (where
 * kallsyms hides the addresses, nothing is). */
bool probe_kernel__out_of_text(const struct probe_kernel *k, uint64_t addr);

/* A site: its offset from _text and the symbol it is in. */
struct probe_kernel_site {
	uint64_t offset;
	const char *name;
};

/* The sites of the functions whose names match the glob pattern, offset
 * bytes into each, in address order, as perf finds them: an alias at an
 * address already found counts once, a function shorter than offset fails
 * the definition, one outside the text is skipped (with perf's warnings in
 * msgs).  Returns their count (*sites to free), or -errno after perf's
 * message: symbols unreadable, no such symbol, more than max_probes, none
 * left. */
int probe_kernel__function_sites(struct probe_kernel *k, const char *pattern,
				 unsigned long offset, int max_probes, struct probe_msgs *msgs,
				 struct probe_kernel_site **sites);

#endif
