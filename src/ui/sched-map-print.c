/* sched-map-print: a map line: a column per CPU ('*' marks the switching
 * one), then the time and, for a new or renamed task, its short name.
 * Colours only on a terminal, as perf.  A line per switch: put together in
 * a linebuf and written with one call. */
#include "ui/sched-map-print.h"

#include <inttypes.h>

#include "util/linebuf.h"

#define COLOR_TASK "\033[34m"
#define COLOR_CPU "\033[41m"
#define COLOR_RESET "\033[m"

void sched_map__print_row(FILE *fp, const struct map_row *row, const struct map_colors *colors)
{
	const char *task_on = colors->on ? COLOR_TASK : "", *off = colors->on ? COLOR_RESET : "";
	struct linebuf lb = { .fp = fp };
	char stamp[32];

	linebuf_put(&lb, "  ", 2);
	for (int i = 0; i < row->nr_cells; i++) {
		const struct map_cell *cell = &row->cells[i];

		if (cell->cpu != row->cpu)
			linebuf_ch(&lb, ' ');
		else if (colors->on && colors->cpus && cpu_map__idx(colors->cpus, cell->cpu) >= 0)
			linebuf_str(&lb, COLOR_CPU "*" COLOR_RESET);
		else
			linebuf_ch(&lb, '*');
		if (cell->shortname) {
			/* short names are two characters: "%2s " */
			if (colors->on)
				linebuf_str(&lb, task_on);
			linebuf_str(&lb, cell->shortname);
			linebuf_ch(&lb, ' ');
			if (colors->on)
				linebuf_str(&lb, off);
		} else {
			linebuf_put(&lb, "   ", 3);
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
		linebuf_put(&lb, "  ", 2);
		linebuf_spaces(&lb, 12 - (int)(end - p));
		linebuf_put(&lb, p, (size_t)(end - p));
		linebuf_put(&lb, " secs ", 6);
		if (row->announce || row->new_cpu)
			linebuf_flush(&lb);	/* the rare parts: printf's */
		if (row->announce)
			fprintf(fp, "%s%s => %s:%d%s", task_on, row->shortname, row->comm, row->tid,
				off);
		if (row->new_cpu)
			fprintf(fp, " (CPU %d)", row->cpu);
	}
	linebuf_ch(&lb, '\n');
	linebuf_flush(&lb);
}
