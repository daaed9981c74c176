/* sched-map-print: a map line: a column per CPU ('*' marks the switching
 * one), then the time and, for a new or renamed task, its short name.
 * Colours only on a terminal, as perf.  A line per switch: put together in
 * the printer's linebuf, which is written when full, not once a line. */
#include "ui/sched-map-print.h"

#include <inttypes.h>

#include "util/strbuf.h"

#define COLOR_TASK "\033[34m"
#define COLOR_CPU "\033[41m"
#define COLOR_RESET "\033[m"

void sched_map__print_flush(struct map_printer *p)
{
	linebuf_flush(&p->out);
}

void sched_map__print_row(struct map_printer *p, const struct map_row *row)
{
	const char *task_on = p->colors ? COLOR_TASK : "", *off = p->colors ? COLOR_RESET : "";
	struct linebuf *lb = &p->out;
	char stamp[32];

	linebuf_put(lb, "  ", 2);
	for (int i = 0; i < row->nr_cells; i++) {
		const struct map_cell *cell = &row->cells[i];

		if (cell->cpu != row->cpu)
			linebuf_ch(lb, ' ');
		else if (p->colors && p->color_cpus && cpu_map__idx(p->color_cpus, cell->cpu) >= 0)
			linebuf_str(lb, COLOR_CPU "*" COLOR_RESET);
		else
			linebuf_ch(lb, '*');
		if (cell->shortname) {
			/* short names are two characters: "%2s " */
			if (p->colors)
				linebuf_str(lb, task_on);
			linebuf_put(lb, cell->shortname, 2);
			linebuf_ch(lb, ' ');
			if (p->colors)
				linebuf_str(lb, off);
		} else {
			linebuf_put(lb, "   ", 3);
		}
	}
	if (row->shown) {
		char *end = stamp + sizeof(stamp), *s = end;
		uint64_t usec = row->time % 1000000000 / 1000, sec = row->time / 1000000000;

		/* "  %12s secs " of sec.usec, without printf: a line per switch */
		s = decimal_digits(s, usec, 6);
		*--s = '.';
		s = decimal_digits(s, sec, 1);
		linebuf_put(lb, "  ", 2);
		linebuf_spaces(lb, 12 - (int)(end - s));
		linebuf_put(lb, s, (size_t)(end - s));
		linebuf_put(lb, " secs ", 6);
		if (row->announce || row->new_cpu)
			linebuf_flush(lb);	/* the rare parts: printf's */
		if (row->announce)
			fprintf(lb->fp, "%s%s => %s:%d%s", task_on, row->shortname, row->comm,
				row->tid, off);
		if (row->new_cpu)
			fprintf(lb->fp, " (CPU %d)", row->cpu);
	}
	linebuf_ch(lb, '\n');
	if (p->each_row)
		linebuf_flush(lb);
}
