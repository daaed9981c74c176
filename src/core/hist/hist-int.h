/* hist-int: what hist.c shares with hist-hierarchy.c; not for users of
 * histograms (they include core/hist/hist.h). */
#ifndef PCL_HIST_INT_H
#define PCL_HIST_INT_H

#include <stddef.h>

#include "core/hist/hist.h"

static inline struct hist_entry *node_entry(const struct rb_node *n, size_t off)
{
	return (struct hist_entry *)(void *)((char *)n - off);
}

/* The tree new samples go to (before or after the collapse) and its node's offset. */
struct rb_root *hists__entry_tree(struct hists *h, size_t *off);

/* perf's hists__apply_filters: --symbol-filter, --socket-filter. */
void hists__apply_ui_filters(const struct hists *h, struct hist_entry *he);

void he_stat__merge(struct he_stat *into, const struct he_stat *st);

/* perf's hists__calc_col_len for one entry shown. */
void hists__calc_col_len(struct hists *h, const struct hist_entry *he);

/* v[0..n), in identity order, into output order (perf's tree insertion);
 * with widths, each entry not filtered sizes its columns once inserted. */
void hist_entries__sort_output(struct hist_entry **v, size_t n, struct hists *widths);

/* hists__output_resort's --hierarchy half (hist-hierarchy.c). */
void hists__hierarchy_output_resort(struct hists *h);
void hists__hierarchy_link(struct hists *leader, struct hists *member, int slot);
void hists__hierarchy_free(struct hists *h);	/* the children arrays */

#endif
