/* header-print: the "# ..." header lines of perf script/report --header
 * (perf 6.1 layout): file offsets, then one block per feature section. */
#ifndef PCL_HEADER_PRINT_H
#define PCL_HEADER_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/data/session.h"

/* The whole header block, "# ========" to "#".  full: -I (topologies,
 * caches, memory).  A pipe's features come later, one by one. */
void header_print(FILE *fp, struct perf_session *s, bool full);

/* One feature's lines (as parsed into s->header). */
void header_print_feature(FILE *fp, struct perf_session *s, int feat, bool full);

#endif
