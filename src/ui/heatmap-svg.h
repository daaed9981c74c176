/* heatmap-svg: a latency heat map as SVG, the way trace2heatmap.pl draws
 * it: columns of --stepsec seconds, rows of latency (lowest at the
 * bottom), a colour per count (white: none), a tooltip per cell.  Each
 * drawn cell is a <rect class="cell"> carrying data-col, data-row and
 * data-count, which the HTML page and the tests read. */
#ifndef PCL_HEATMAP_SVG_H
#define PCL_HEATMAP_SVG_H

#include <stdio.h>

struct heatmap_events;
struct heatmap_grid;
struct strbuf;

struct heatmap_draw_opts {
	const char *title;
	const char *unitslat;		/* the latency unit's label: "us" */
	int boxsize;			/* pixels per cell side */
	int palette;			/* from heatmap_palette() */
	int cell_events;		/* HTML: events listed per cell at most */
};

/* The palette's number for a name, -1 if unknown; names for messages. */
int heatmap_palette(const char *name);
const char *heatmap_palette_names(void);

/* The <svg> element alone (for the HTML page).  The subtitle counts the
 * latencies drawn and what pairing left over (e's counters). */
void heatmap_svg_render(struct strbuf *sb, const struct heatmap_events *e,
			const struct heatmap_grid *g, const struct heatmap_draw_opts *o);
/* A standalone SVG file; 0, or -1 on a write error. */
int heatmap_svg_write(FILE *out, const struct heatmap_events *e, const struct heatmap_grid *g,
		      const struct heatmap_draw_opts *o);

#endif
