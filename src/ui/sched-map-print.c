/* sched-map-print: a map line: a column per CPU ('*' marks the switching
 * one), then the time and, for a new or renamed task, its short name.
 * Colours only on a terminal, as perf. */
#include "ui/sched-map-print.h"

#include <inttypes.h>

#define COLOR_TASK "\033[34m"
#define COLOR_CPU "\033[41m"
#define COLOR_RESET "\033[m"

void sched_map__print_row(FILE *fp, const struct map_row *row, const struct map_colors *colors)
{
	const char *task_on = colors->on ? COLOR_TASK : "", *off = colors->on ? COLOR_RESET : "";
	char stamp[32];

	fputs("  ", fp);
	for (int i = 0; i < row->nr_cells; i++) {
		const struct map_cell *cell = &row->cells[i];

		if (cell->cpu != row->cpu)
			fputc(' ', fp);
		else if (colors->on && colors->cpus && cell->cpu < colors->nr_cpus &&
			 colors->cpus[cell->cpu])
			fputs(COLOR_CPU "*" COLOR_RESET, fp);
		else
			fputc('*', fp);
		if (cell->shortname)
			fprintf(fp, "%s%2s %s", task_on, cell->shortname, off);
		else
			fputs("   ", fp);
	}
	if (row->shown) {
		snprintf(stamp, sizeof(stamp), "%" PRIu64 ".%06" PRIu64, row->time / 1000000000,
			 row->time % 1000000000 / 1000);
		fprintf(fp, "  %12s secs ", stamp);
		if (row->announce)
			fprintf(fp, "%s%s => %s:%d%s", task_on, row->shortname, row->comm, row->tid,
				off);
		if (row->new_cpu)
			fprintf(fp, " (CPU %d)", row->cpu);
	}
	fputc('\n', fp);
}
