/* sched-migration-html: the runqueues of core/analysis/sched-migration as
 * one self-contained HTML page: a row per CPU, a rectangle per stretch of
 * time whose red is the CPU's share of the queued tasks, a band on top
 * coloured by what changed (perf's script's colours), a tooltip with the
 * script's summary (CPU, last event, time, duration, load, tasks). */
#ifndef PCL_SCHED_MIGRATION_HTML_H
#define PCL_SCHED_MIGRATION_HTML_H

#include <stdio.h>

#include "core/analysis/sched-migration.h"

/* Writes the page; returns the number of rectangles drawn. */
size_t sched_migration_write_html(FILE *fp, const struct sched_migration *sm,
				  const char *title);

#endif
