/* probe-dwarf: the debug-information side of pcl probe, through libdw:
 * functions and source lines to addresses (with perf 6.1's prologue
 * skipping and line checks), variables to tracefs fetch arguments, and
 * the -L and -V listings.  Texts perf prints along the way are appended
 * to a notes buffer (always shown) or a debug buffer (shown with -v);
 * errors come back as -errno with perf's message in err. */
#ifndef PCL_PROBE_DWARF_H
#define PCL_PROBE_DWARF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/probe/probe-spec.h"
#include "util/strbuf.h"

struct probe_debug;

struct probe_msgs {
	struct strbuf notes;	/* perf's pr_info/pr_warning texts */
	struct strbuf debug;	/* perf's pr_debug texts (-v) */
};

/* One place to probe and its fetch arguments ("n=-20(%bp):s32"). */
struct probe_site {
	uint64_t addr;		/* virtual address in the binary */
	char *function;		/* the function holding it */
	char **args;
	int nr_args;
};

/* Opens the debug information of path: NULL when it has none. */
struct probe_debug *probe_debug__open(const char *path);
void probe_debug__close(struct probe_debug *dbg);

/* The sites of a spec; returns their count or -errno. */
int probe_debug__find_sites(struct probe_debug *dbg, const struct probe_spec *spec,
			    struct probe_msgs *msgs, struct probe_site **sites);
void probe_sites__free(struct probe_site *sites, int nr);

/* -L: the source of FUNC[:RLN[+NUM|-RLN2]][@SRC] or SRC[:ALN[+NUM|-ALN2]] with
 * probe-able lines numbered, as perf shows it. */
int probe_debug__show_lines(struct probe_debug *dbg, const char *range, struct strbuf *out,
			    struct probe_msgs *msgs);

/* -V: the variables available at each site of a spec. */
int probe_debug__show_vars(struct probe_debug *dbg, const struct probe_spec *spec, bool externs,
			   struct strbuf *out, struct probe_msgs *msgs);

/* For -l: "work:2@/path/src.c" (or "work%return@...") of an address;
 * NULL when the debug information does not cover it. */
char *probe_debug__describe(struct probe_debug *dbg, uint64_t addr, bool retprobe);

#endif
