/* sched-map-print: one line of perf sched map. */
#ifndef PCL_SCHED_MAP_PRINT_H
#define PCL_SCHED_MAP_PRINT_H

#include <stdio.h>

#include "core/analysis/sched-map.h"

void sched_map__print_row(FILE *fp, const struct map_row *row);

#endif
