/* sched-map-print: a map line: a column per CPU ('*' marks the switching
 * one), then the time and, for a new or renamed task, its short name.
 * Colours only on a terminal, as perf.  Cells go out a few characters at a
 * time: the _unlocked stdio calls skip a lock per call. */
#include "ui/sched-map-print.h"

#include <inttypes.h>

#define COLOR_TASK "\033[34m"
#define COLOR_CPU "\033[41m"
#define COLOR_RESET "\033[m"

void sched_map__print_row(FILE *fp, const struct map_row *row, const struct map_colors *colors)
{
	const char *task_on = colors->on ? COLOR_TASK : "", *off = colors->on ? COLOR_RESET : "";
	char stamp[32];

	fputs_unlocked("  ", fp);
	for (int i = 0; i < row->nr_cells; i++) {
		const struct map_cell *cell = &row->cells[i];

		if (cell->cpu != row->cpu)
			putc_unlocked(' ', fp);
		else if (colors->on && colors->cpus && cpu_map__idx(colors->cpus, cell->cpu) >= 0)
			fputs_unlocked(COLOR_CPU "*" COLOR_RESET, fp);
		else
			putc_unlocked('*', fp);
		if (cell->shortname) {
			/* short names are two characters: "%2s " */
			fputs_unlocked(task_on, fp);
			fputs_unlocked(cell->shortname, fp);
			putc_unlocked(' ', fp);
			fputs_unlocked(off, fp);
		} else {
			fputs_unlocked("   ", fp);
		}
	}
	if (row->shown) {
		char *end = stamp + sizeof(stamp), *p = end;
		uint64_t usec = row->time % 1000000000 / 1000, sec = row->time / 1000000000;

		/* "  %12s secs " of sec.usec, without printf: a line per switch */
		for (int i = 0; i < 6; i++, usec /= 10)
			*--p = (char)('0' + usec % 10);
		*--p = '.';
		do {
			*--p = (char)('0' + sec % 10);
			sec /= 10;
		} while (sec);
		fputs_unlocked("  ", fp);
		for (long i = end - p; i < 12; i++)
			putc_unlocked(' ', fp);
		fwrite_unlocked(p, 1, (size_t)(end - p), fp);
		fputs_unlocked(" secs ", fp);
		if (row->announce)
			fprintf(fp, "%s%s => %s:%d%s", task_on, row->shortname, row->comm, row->tid,
				off);
		if (row->new_cpu)
			fprintf(fp, " (CPU %d)", row->cpu);
	}
	putc_unlocked('\n', fp);
}
