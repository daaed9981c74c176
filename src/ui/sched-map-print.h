/* sched-map-print: one line of perf sched map. */
#ifndef PCL_SCHED_MAP_PRINT_H
#define PCL_SCHED_MAP_PRINT_H

#include <stdio.h>

#include "core/analysis/sched-map.h"
#include "core/events/cpumap.h"

#include <stdbool.h>

/* On a terminal perf colours every task's name blue (6.1 marks them all)
 * and the '*' of the --color-cpus CPUs red. */
struct map_colors {
	bool on;
	const struct cpu_map *cpus;	/* --color-cpus (NULL: none) */
};

void sched_map__print_row(FILE *fp, const struct map_row *row, const struct map_colors *colors);

#endif
