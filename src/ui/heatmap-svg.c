/* heatmap-svg: draws the grid (see heatmap-svg.h). */
#include "ui/heatmap-svg.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "core/analysis/heatmap.h"
#include "ui/markup.h"
#include "util/strbuf.h"
#include "util/util.h"

#define MARGIN_LEFT 90
#define MARGIN_RIGHT 30
#define MARGIN_TOP 50
#define MARGIN_BOTTOM 50
#define MIN_WIDTH 400
#define LABEL_GAP 70		/* pixels at least between two time labels */
#define FONT "font-family=\"Verdana\" font-size=\"12\""

/* Each palette runs from its colour for one event to its colour for the
 * most events; empty cells stay white. */
static const struct palette {
	const char *name;
	unsigned char low[3], high[3];
} palettes[] = {
	{ "reds", { 255, 224, 192 }, { 170, 0, 0 } },
	{ "blues", { 214, 232, 255 }, { 0, 40, 150 } },
	{ "greens", { 214, 245, 214 }, { 0, 100, 20 } },
	{ "greys", { 225, 225, 225 }, { 20, 20, 20 } },
};

int heatmap_palette(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(palettes); i++)
		if (!strcmp(name, palettes[i].name))
			return (int)i;
	return -1;
}

const char *heatmap_palette_names(void)
{
	return "reds (default), blues, greens, greys";
}

static void add_color(struct strbuf *sb, int palette, uint64_t count, uint64_t max)
{
	const struct palette *p = &palettes[palette];
	/* a single event must show: the ramp starts at low, not at white */
	double f = max > 1 ? (double)(count - 1) / (double)(max - 1) : 1;

	strbuf_addf(sb, "rgb(%d,%d,%d)", (int)lround(p->low[0] + f * (p->high[0] - p->low[0])),
		    (int)lround(p->low[1] + f * (p->high[1] - p->low[1])),
		    (int)lround(p->low[2] + f * (p->high[2] - p->low[2])));
}

static void add_cells(struct strbuf *sb, const struct heatmap_grid *g,
		      const struct heatmap_draw_opts *o)
{
	strbuf_addstr(sb, "<g id=\"cells\">\n");
	for (int c = 0; c < g->cols; c++) {
		for (int r = 0; r < g->rows; r++) {
			uint64_t n = g->counts[(size_t)c * (size_t)g->rows + (size_t)r];
			double t = c * g->stepsec, lat = g->minlat + r * g->rowsize;

			if (!n)
				continue;
			strbuf_addf(sb, "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" "
				    "height=\"%d\" fill=\"", MARGIN_LEFT + c * o->boxsize,
				    MARGIN_TOP + (g->rows - 1 - r) * o->boxsize, o->boxsize,
				    o->boxsize);
			add_color(sb, o->palette, n, g->max_count);
			strbuf_addf(sb, "\" data-col=\"%d\" data-row=\"%d\" data-count=\"%" PRIu64
				    "\"><title>%.6g-%.6g s, %.6g-%.6g ", c, r, n, t, t + g->stepsec,
				    lat, lat + g->rowsize);
			xml_escape(sb, o->unitslat);
			strbuf_addf(sb, ": %" PRIu64 " event%s</title></rect>\n", n,
				    n == 1 ? "" : "s");
		}
	}
	strbuf_addstr(sb, "</g>\n");
}

static void add_axes(struct strbuf *sb, const struct heatmap_grid *g,
		     const struct heatmap_draw_opts *o)
{
	int bottom = MARGIN_TOP + g->rows * o->boxsize;
	int every = (LABEL_GAP + o->boxsize - 1) / o->boxsize;
	int row_every = (20 + o->boxsize - 1) / o->boxsize;

	strbuf_addf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		    "stroke=\"#999\"/>\n", MARGIN_LEFT, MARGIN_TOP, g->cols * o->boxsize,
		    g->rows * o->boxsize);
	strbuf_addstr(sb, "<g id=\"time-labels\" " FONT " text-anchor=\"middle\">\n");
	for (int c = 0; c <= g->cols; c += every)
		strbuf_addf(sb, "<text x=\"%d\" y=\"%d\">%.6g</text>\n",
			    MARGIN_LEFT + c * o->boxsize, bottom + 16, c * g->stepsec);
	strbuf_addf(sb, "<text x=\"%d\" y=\"%d\">time (s)</text>\n</g>\n",
		    MARGIN_LEFT + g->cols * o->boxsize / 2, bottom + 38);
	strbuf_addstr(sb, "<g id=\"latency-labels\" " FONT " text-anchor=\"end\">\n");
	for (int r = 0; r <= g->rows; r += row_every)
		strbuf_addf(sb, "<text x=\"%d\" y=\"%d\">%.4g</text>\n", MARGIN_LEFT - 6,
			    bottom - r * o->boxsize + 4, g->minlat + r * g->rowsize);
	strbuf_addf(sb, "<text transform=\"translate(16,%d) rotate(-90)\" text-anchor=\"middle\">"
		    "latency (", MARGIN_TOP + g->rows * o->boxsize / 2);
	xml_escape(sb, o->unitslat);
	strbuf_addstr(sb, ")</text>\n</g>\n");
}

/* "; N WHAT" (or WHATS for several) when N is not 0. */
static void add_count(struct strbuf *sb, uint64_t n, const char *what, const char *whats)
{
	if (n)
		strbuf_addf(sb, "; %" PRIu64 " %s", n, n == 1 ? what : whats);
}

void heatmap_svg_render(struct strbuf *sb, const struct heatmap_events *e,
			const struct heatmap_grid *g, const struct heatmap_draw_opts *o)
{
	int width = MARGIN_LEFT + g->cols * o->boxsize + MARGIN_RIGHT;

	if (width < MIN_WIDTH)	/* room for the title however few the columns */
		width = MIN_WIDTH;
	int height = MARGIN_TOP + g->rows * o->boxsize + MARGIN_BOTTOM;

	strbuf_addf(sb, "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		    "xmlns=\"http://www.w3.org/2000/svg\">\n", width, height, width, height);
	strbuf_addf(sb, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
		    width, height);
	strbuf_addf(sb, "<text id=\"title\" x=\"%d\" y=\"24\" font-family=\"Verdana\" "
		    "font-size=\"17\" text-anchor=\"middle\">", width / 2);
	xml_escape(sb, o->title);
	strbuf_addf(sb, "</text>\n<text id=\"summary\" x=\"%d\" y=\"42\" " FONT
		    " text-anchor=\"middle\" fill=\"#555\">%" PRIu64 " events, at most %" PRIu64
		    " per cell", width / 2, g->nr_in, g->max_count);
	add_count(sb, g->nr_out, "outside the latency range", "outside the latency range");
	add_count(sb, e->nr_unmatched_end, "end without a start", "ends without a start");
	add_count(sb, e->nr_open, "start without an end", "starts without an end");
	add_count(sb, e->nr_restarted, "start replaced by a later one",
		  "starts replaced by later ones");
	strbuf_addstr(sb, "</text>\n");
	add_cells(sb, g, o);
	add_axes(sb, g, o);
	strbuf_addstr(sb, "</svg>\n");
}

int heatmap_svg_write(FILE *out, const struct heatmap_events *e, const struct heatmap_grid *g,
		      const struct heatmap_draw_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	strbuf_addstr(&sb, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	heatmap_svg_render(&sb, e, g, o);
	if (fwrite(sb.buf, 1, sb.len, out) != sb.len || fflush(out))
		ret = -1;
	strbuf_release(&sb);
	return ret;
}
