/* probe-add: pcl probe's definition loop (-a, -D), in perf 6.1's order:
 * every definition parsed first (perf -v's log of each), then the probe
 * points of all of them found, then all written to tracefs (or, for -D,
 * given as results).  Uprobes on -x's binary from its debug information
 * or symbols, SDT markers and --cache's entries from the build-id cache,
 * kprobes from kallsyms or a module file.  perf's words travel through
 * probe_msgs as they are said; the command shows them. */
#ifndef PCL_PROBE_ADD_H
#define PCL_PROBE_ADD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/probe/probe-dwarf.h"
#include "core/probe/probe-spec.h"

struct probe_add_opts {
	const char *const *defs;	/* the definitions, as written */
	/* per definition: whether perf -v logs its parsing (a -v before it
	 * on the command line); NULL: all */
	const bool *logged;
	int nr_defs;
	const char *exec;	/* -x's binary by its real path; NULL: the kernel */
	const char *read_exec;	/* where its bytes are read (through --target-ns) */
	const char *module;	/* -m: a module's name, or a module file's real path */
	bool dry_run, force, quiet, definition, cache, bootconfig, no_inlines;
	int verbose, max_probes;
	/* perf -v's notes as it looks for the kernel's image (kallsyms
	 * false), or as it settles for kallsyms' symbols (true): the
	 * command's, called when verbose and not quiet */
	void (*kernel_notes)(bool kallsyms);
};

/* An event added (or, with -n, that would be): what perf's summary lists. */
struct probe_added {
	char *group, *event, *point, *with, *binary;
};

struct probe_add_result {
	struct probe_added *added;
	int nr_added;
	/* a definition refused: the option whose usage perf shows ("a"),
	 * NULL when none was */
	const char *semantic_error;
	bool reported;	/* the failure's own words were said: no more */
};

/* Adds the definitions (uprobes, SDT markers, kprobes); 0 or -errno with
 * perf's words said through msgs.  res lists the events added. */
int probe_add(const struct probe_add_opts *o, struct probe_msgs *msgs,
	      struct probe_add_result *res);
void probe_add_result__exit(struct probe_add_result *res);

/* Whether every definition names a cached event (%EVENT, sdt_...): no
 * kprobes then, even without -x. */
bool probe_defs__all_cached(const char *const *defs, int nr);

/* perf -v's lines for the definitions it parses (those logged, as above),
 * up to the first it refuses (what it logs before it refuses -v with -q). */
void probe_defs__log(const char *const *defs, const bool *logged, int nr,
		     struct probe_msgs *msgs);

/* perf's words for a file without debug information; caller frees. */
char *probe_no_debug_info_text(const char *path);

/* Where the function named at the start of text ("malloc:3") has its
 * symbol in the binary read at path, 0 when it has none; *note (caller
 * frees) is perf's warning for a GNU indirect function, also given to
 * dbg. */
uint64_t probe_symbol_address(const char *path, const char *text, struct probe_debug *dbg,
			      char **note);

#endif
