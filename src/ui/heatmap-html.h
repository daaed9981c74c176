/* heatmap-html: one offline HTML page holding the heat map's SVG, the
 * events behind its cells as JSON and the script (assets/heatmap-html.js)
 * that lists a clicked cell's events (shift-click adds cells): time,
 * latency, comm/tid and, when the file had callchains, each event's stack,
 * with a flame graph of the selection's stacks.  The page stays bounded:
 * it lists the first cell_events events of each cell, and counts every
 * event's stack per cell for the flame graph. */
#ifndef PCL_HEATMAP_HTML_H
#define PCL_HEATMAP_HTML_H

#include <stdio.h>

struct heatmap_events;
struct heatmap_grid;
struct heatmap_draw_opts;

/* Returns 0, or -1 on a write error. */
int heatmap_html_write(FILE *out, const struct heatmap_events *e, const struct heatmap_grid *g,
		       const struct heatmap_draw_opts *o);

#endif
