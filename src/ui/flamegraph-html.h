/* flamegraph-html: one self-contained HTML page (no network) with a
 * canvas-drawn flame graph (search, zoom, tooltips), a top-functions table
 * and, when sample times are known, a subsecond-offset heat map: columns
 * are seconds, rows 20 ms slices, colour the weight sampled there;
 * selecting a range of cells redraws the flame graph for that time range.
 *
 * The page carries the stack trie (parent, name per node), the names and
 * the samples (time delta, stack node, weight) as compact JSON; the script
 * (src/ui/assets/flamegraph-html.js) aggregates and draws in the browser.
 */
#ifndef PCL_FLAMEGRAPH_HTML_H
#define PCL_FLAMEGRAPH_HTML_H

#include <stdio.h>

#include "ui/flamegraph-svg.h"

struct stacks;

/* Returns 0, or -1 on a write error. */
int flamegraph_html_write(FILE *out, const struct stacks *st, const struct flamegraph_opts *o);

#endif
