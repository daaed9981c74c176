/* sched-map-print: a map line: a column per CPU ('*' marks the switching
 * one), then the time and, for a new or renamed task, its short name.
 * perf colours pids and CPUs only on a terminal; pcl prints plain text. */
#include "ui/sched-map-print.h"

#include <inttypes.h>

void sched_map__print_row(FILE *fp, const struct map_row *row)
{
	char stamp[32];

	fputs("  ", fp);
	for (int i = 0; i < row->nr_cells; i++) {
		const struct map_cell *cell = &row->cells[i];

		fputc(cell->cpu == row->cpu ? '*' : ' ', fp);
		if (cell->shortname)
			fprintf(fp, "%2s ", cell->shortname);
		else
			fputs("   ", fp);
	}
	if (row->shown) {
		snprintf(stamp, sizeof(stamp), "%" PRIu64 ".%06" PRIu64, row->time / 1000000000,
			 row->time % 1000000000 / 1000);
		fprintf(fp, "  %12s secs ", stamp);
		if (row->announce)
			fprintf(fp, "%s => %s:%d", row->shortname, row->comm, row->tid);
		if (row->new_cpu)
			fprintf(fp, " (CPU %d)", row->cpu);
	}
	fputc('\n', fp);
}
