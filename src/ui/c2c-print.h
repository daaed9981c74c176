/* c2c-print: perf c2c report --stats's three tables (Trace Event
 * Information, Global Shared Cache Line Event Information, c2c details),
 * and the cache line tables of the full report. */
#ifndef PCL_C2C_PRINT_H
#define PCL_C2C_PRINT_H

#include <stdio.h>

#include "core/analysis/c2c.h"

struct evlist;

/* sort_on: what -d names ("Total HITMs", ...) */
void c2c_print_stats(FILE *fp, const struct c2c *c, const struct evlist *evlist,
		     const char *sort_on);

struct c2c_print_opts {
	unsigned node_info;	/* -N: 0 the nodes, 1 their shares, 2 their CPUs */
	bool full_symbols;	/* symbols and source lines not cut to 30 columns */
	bool no_source;		/* no Source:Line column */
	bool stdio;		/* --stdio's Pareto, not the TUI's one */
	bool verbose;		/* perf c2c -v: symbols' addresses, objects' paths */
	const struct callchain_param *cc;	/* how call graphs are drawn */
};

/* The two tables after the statistics (c is finished). */
void c2c_print_report(FILE *fp, const struct c2c *c, const struct c2c_print_opts *o);

#endif
