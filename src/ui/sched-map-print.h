/* sched-map-print: the lines of perf sched map. */
#ifndef PCL_SCHED_MAP_PRINT_H
#define PCL_SCHED_MAP_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/analysis/sched-map.h"
#include "core/events/cpumap.h"
#include "util/linebuf.h"

/*
 * On a terminal perf colours every task's name blue (6.1 marks them all)
 * and the '*' of the --color-cpus CPUs red.  Rows gather in out and go to
 * out.fp a buffer at a time, unless each_row: then every row is written
 * as it is made (a terminal, or -D's dump between the rows).
 */
struct map_printer {
	bool colors;
	const struct cpu_map *color_cpus;	/* --color-cpus (NULL: none) */
	bool each_row;
	struct linebuf out;
};

void sched_map__print_row(struct map_printer *p, const struct map_row *row);
/* Writes the rows still held (before anything else goes to out.fp). */
void sched_map__print_flush(struct map_printer *p);

#endif
