/* flamegraph-svg: an interactive SVG flame graph (the flamegraph.pl kind):
 * x is the population (children sorted by name, or time for a flame
 * chart), y the stack depth; click to zoom, search with the matched
 * percentage, tooltips with counts and percentages.  The embedded script
 * is ours (src/ui/assets/flamegraph-svg.js).
 */
#ifndef PCL_FLAMEGRAPH_SVG_H
#define PCL_FLAMEGRAPH_SVG_H

#include <stdbool.h>
#include <stdio.h>

struct stacks;

/* Options shared by the SVG and HTML views. */
struct flamegraph_opts {
	const char *title;	/* NULL: "Flame Graph" / "Icicle Graph" / "Flame Chart" */
	const char *subtitle;
	int width;		/* image width, px */
	int frame_height;	/* px per frame (--height) */
	double minwidth;	/* omit frames narrower than this: px, or percent */
	bool minwidth_percent;
	const char *fonttype;
	double fontsize;
	double fontwidth;	/* average glyph width / font size */
	const char *countname;	/* "samples" */
	const char *nametype;	/* "Function:" */
	int palette;		/* flame_palette() */
	bool hash;		/* colours from names instead of pseudo-random */
	bool inverted;		/* icicle: root at the top */
	bool flamechart;	/* x is time: siblings in creation order */
	bool negate;		/* differential: swap red and blue */
	const char *notes;	/* embedded as a comment */
	const char *search;	/* preset search term */
};

void flamegraph_opts__init(struct flamegraph_opts *o);
/* The title used when none is given. */
const char *flamegraph_opts__title(const struct flamegraph_opts *o, bool diff);

/* Writes the SVG; returns 0, or -1 on a write error. */
int flamegraph_svg_write(FILE *out, const struct stacks *st, const struct flamegraph_opts *o);

#endif
