/* probe-dwarf: the debug-information side of pcl probe, through libdw:
 * functions and source lines to addresses (with perf 6.1's prologue
 * skipping and line checks), variables to tracefs fetch arguments, and
 * the -L and -V listings.  Errors come back as -errno, perf's words for
 * them in the messages. */
#ifndef PCL_PROBE_DWARF_H
#define PCL_PROBE_DWARF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/probe/probe-spec.h"
#include "util/strbuf.h"

struct probe_debug;

/* Where libdwfl puts a relocatable file (a module) it reads offline */
#define LIBDWFL_REL_BASE 0x10000

/* What the messages are: perf's notes and log lines (stderr), results. */
enum probe_out { PROBE_OUT_NOTE, PROBE_OUT_RESULT };

/* What perf prints along the way, in order: notes always, debug lines
 * (perf's pr_debug) only when verbose. */
struct probe_msgs {
	struct strbuf text;
	bool verbose;
	/* Where a caller that shows messages as they come (the definition
	 * loop, probe-add) has them go: out gets the text gathered so far
	 * at each flush (unless quiet), perf's notes said at once whatever
	 * quiet says, and results (-D's definitions).  NULL: they stay in
	 * text. */
	bool quiet;
	void (*out)(enum probe_out kind, const char *text, void *ctx);
	void *ctx;
};

void probe_msg(struct probe_msgs *msgs, bool debug, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Hands the text gathered to out (dropped when quiet), and empties it. */
void probe_msgs__flush(struct probe_msgs *msgs);
/* A note perf prints at once even with -q (its errors), and a result. */
void probe_say(struct probe_msgs *msgs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void probe_result(struct probe_msgs *msgs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One place to probe and its fetch arguments ("n=-20(%bp):s32"). */
struct probe_site {
	uint64_t addr;	/* virtual address in the binary */
	char *function;	/* the function holding it */
	uint64_t scope;	/* the DIE of that function or inlined instance */
	char **args;
	int nr_args;
	char *log;	/* -V: the messages said while finding it, NULL: none */
};

/* Opens the debug information of path: NULL when it has none. */
struct probe_debug *probe_debug__open(const char *path);
void probe_debug__close(struct probe_debug *dbg);
/* -s DIR: where -L reads the sources (kept, not copied). */
void probe_debug__set_source_prefix(struct probe_debug *dbg, const char *prefix);
/* What perf says when -V or -L fall back to the function's symbol (an
 * indirect function's warning); kept, not copied; NULL: nothing. */
void probe_debug__set_symbol_note(struct probe_debug *dbg, const char *note);
/* --no-inlines: functions with code only, not their inlined instances. */
void probe_debug__set_no_inlines(struct probe_debug *dbg, bool no_inlines);

/* The sites of a spec; returns their count (0: the point is not in the
 * debug information) or -errno. */
int probe_debug__find_sites(struct probe_debug *dbg, const struct probe_spec *spec,
			    struct probe_msgs *msgs, struct probe_site **sites);
void probe_sites__free(struct probe_site *sites, int nr);
/* The file the debug information is read from (a separate debug file's
 * path when it is one). */
const char *probe_debug__path(const struct probe_debug *dbg);
/* perf -v's notes as it opens the debug information of binary (as the
 * user names it) to look for a spec's sites, and as it has found nr of
 * them. */
void probe_debug__log_search(const struct probe_debug *dbg, const char *binary,
			     const struct probe_spec *spec, struct probe_msgs *msgs);
void probe_debug__log_found(int nr, struct probe_msgs *msgs);
/* The first of them: the file opened and the search begun (what perf
 * says before it makes room for the sites, then reads tracefs' README) */
void probe_debug__log_search_start(const struct probe_debug *dbg, const char *binary,
				   struct probe_msgs *msgs);
/* perf -v's note as it opens the debug information of path. */
void probe_debug__log_open(const char *path, struct probe_msgs *msgs);

/* The name the debug information gives the function holding addr, NULL
 * when none (after perf's words when it covers no code there). */
char *probe_debug__function_at(struct probe_debug *dbg, uint64_t addr, struct probe_msgs *msgs);

/* perf -v's line for -L's range as it parses the option ("Line range
 * is 2 to 4"), when lines are given. */
void probe_line_range__log(const char *range, struct probe_msgs *msgs);
/* -L: the source of FUNC[:RLN[+NUM|-RLN2]][@SRC] or SRC[:ALN[+NUM|-ALN2]] with
 * probe-able lines numbered, as perf shows it; symbol_addr as for -V. */
int probe_debug__show_lines(struct probe_debug *dbg, const char *range, uint64_t symbol_addr,
			    struct strbuf *out, struct probe_msgs *msgs);

/* -V: the variables available at each site of a spec (globals too with
 * externs, with the ranges of their locations with range) whose names pass
 * filter (perf's strfilter syntax; NULL: perf's default); symbol_addr
 * (0: none) is where the function's symbol is, for functions the debug
 * information names otherwise; a negative max_probes fails (-ENOMEM) as
 * perf's room for that many sites does. */
int probe_debug__show_vars(struct probe_debug *dbg, const struct probe_spec *spec, bool externs,
			   bool range, const char *filter, uint64_t symbol_addr, int max_probes,
			   struct strbuf *out, struct probe_msgs *msgs);

/* For -l: "work:2@/path/src.c" (or "work%return@...") of an address;
 * NULL when the debug information does not cover it. */
char *probe_debug__describe(struct probe_debug *dbg, uint64_t addr, bool retprobe);

/* A relocatable file's (a module's) function symbol holding addr, and
 * addr's offset in it; NULL for other files or no symbol.  Caller frees. */
char *probe_debug__symbol_at(struct probe_debug *dbg, uint64_t addr, uint64_t *offset);

#endif
