/* sched-latency-print: perf sched latency's table. */
#ifndef PCL_SCHED_LATENCY_PRINT_H
#define PCL_SCHED_LATENCY_PRINT_H

#include <stdint.h>
#include <stdio.h>

#include "core/analysis/sched-latency.h"

/* What the INFO lines under the table need besides the analysis' counts. */
struct sched_lat_info {
	long nr_events, nr_lost_events, nr_lost_chunks;
};

void sched_latency__print(FILE *fp, struct sched_lat_task **rows, int nr,
			  const struct sched_lat_counts *counts, const struct sched_lat_info *info);

/* The INFO lines (unordered timestamps, lost events, context switch
 * bugs) that end perf's latency and map output. */
void sched_latency__print_info(FILE *fp, const struct sched_lat_counts *c,
			       const struct sched_lat_info *info);

#endif
