/* c2c-print: perf c2c report --stats's three tables (Trace Event
 * Information, Global Shared Cache Line Event Information, c2c details). */
#ifndef PCL_C2C_PRINT_H
#define PCL_C2C_PRINT_H

#include <stdio.h>

#include "core/analysis/c2c.h"

struct evlist;

/* sort_on: what -d names ("Total HITMs", ...) */
void c2c_print_stats(FILE *fp, const struct c2c *c, const struct evlist *evlist,
		     const char *sort_on);

#endif
