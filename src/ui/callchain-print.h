/* callchain-print: a hist entry's call graph as perf report --stdio draws
 * it: graph/fractal trees with "|--NN.NN%--" branches, "---" for a single
 * chain and "[...]" for what the threshold hid, flat lists, folded lines.
 */
#ifndef PCL_CALLCHAIN_PRINT_H
#define PCL_CALLCHAIN_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/hist/hist.h"

/* perf 6.1 formats a column's header and a call-graph frame's name in
 * 1024-byte buffers: longer ones show this many characters (entries'
 * rows are whole). */
#define PERF_SHORT_TEXT_MAX 1023

struct callchain_print {
	const struct callchain_param *param;
	uint64_t min_hit;		/* graph (absolute), flat, folded */
	const char *field_sep;		/* folded: between frames (";" if NULL) */
	bool skip_first_sym;		/* -s starting with "sym": the entry is the frame */
	bool color;			/* percentages coloured (perf's terminal colours) */
	/* --branch-history on a file recorded with -b: each graph frame
	 * followed by what its branches add up to, or "(calltrace)" */
	bool branch_counts;
	struct strbuf *names;		/* scratch for frames' names, reused by all entries */
	/* flat, folded without --children: the lines of perf's report
	 * browser (the value only where it tells chains apart, indented as
	 * the browser draws them) */
	bool browser;
};

/* The smallest period of n's children a graph shows: min_hit, or in
 * relative mode min_percent of their total (perf's threshold, which
 * report's browser changes with its percent limit). */
uint64_t callchain_graph__min_hit(const struct callchain_param *param, double min_percent,
				  uint64_t min_hit, const struct callchain_node *n);

/* perf formats --branch-history's notes in a buffer of 64 bytes for a
 * graph's branch lines, of 256 for the lines of a lone chain */
#define NOTES_MAX_BRANCH	63
#define NOTES_MAX_CHAIN		255

/* Appends perf's notes on the branches call-graph node n stands for to sb
 * (" (cycles:5 iter:1 avg_cycles:6)", " (calltrace)" where none reached
 * it), at most max characters. */
void callchain_print__branch_notes(struct strbuf *sb, const struct callchain_node *n,
				   size_t max);

/* Prints he's call graph; total is the event's total period. */
void callchain_print_entry(FILE *fp, const struct hist_entry *he, uint64_t total,
			   const struct callchain_print *p);

#endif
