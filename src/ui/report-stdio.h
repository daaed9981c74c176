/* report-stdio: perf report --stdio's text for one event's histogram:
 * the "# Samples" lines, the column header and dotted rule, one row per
 * entry and its call graph.
 */
#ifndef PCL_REPORT_STDIO_H
#define PCL_REPORT_STDIO_H

#include <stdbool.h>
#include <stdio.h>

#include "core/hist/hist.h"
#include "util/strbuf.h"
#include "ui/callchain-print.h"

/* --hierarchy: the blanks a level's rows go in by. */
#define REPORT_HIERARCHY_INDENT 3

struct report_stdio {
	bool skip_first_sym;		/* -s given and starting with "sym" */
	const char *time_str;		/* --time, shown after the event name */
	int socket_filter;		/* --socket-filter, or -1 */
	/* --mem-mode: the sort order, shown with the total weight */
	const char *mem_sort_order;
	size_t max_rows;		/* perf top: entries shown at most; 0 all */
	int max_width;			/* perf top: rows cut to this; 0 never */
};

/* The samples and event count the Samples lines show (a group's summed). */
void report_stdio__totals(const struct hists *h, uint64_t *nr_samples, uint64_t *nr_events);

/* "# Samples: 1K of event 'cycles'" and "# Event count (approx.): N"
 * (--mem-mode: "# Total weight : N" and "# Sort order   : ...");
 * evname is the event's (or group's) name, "events" when it leads a group
 * (shown together or not). */
/* perf's convert_unit: 1234 -> 1K (integer division, strictly above 1000). */
unsigned long convert_unit(unsigned long value, char *unit);

void report_stdio__nr_samples(FILE *fp, const struct hists *h, const char *evname,
			      bool leads_group, const struct report_stdio *r);

/* The column header and rule (show_header), then every row with its
 * call graph. */
void report_stdio__hists(FILE *fp, const struct hists *h, const struct report_stdio *r,
			 bool show_header);

struct branch_type_stat;

/* Branch mode's "# Branch Statistics:", each kind's share of the typed
 * branches (nothing when none had a type); no newline after the last. */
void report_stdio__branch_stats(FILE *fp, const struct branch_type_stat *st);

/* A column's width as perf sizes it (keys: their entries' widest). */
int report_stdio__column_width(const struct hists *h, const struct hist_column_cfg *c);

/* A value field's cell: a percentage of total, or the number. */
void report_stdio__add_value(struct strbuf *sb, const struct hist_field *f, uint64_t v,
			     uint64_t total, int len, bool color);

/* A key's cell; with -t (sep) the separator in the text becomes '.'. */
void report_stdio__key(struct strbuf *sb, const struct hist_field *f, const struct hist_entry *he,
		       int width, const char *sep);

/* One entry at a time, as report_stdio__hists prints them (the browsers):
 * whether it is shown (filters, --percent-limit); the column header (its
 * first line "# ..."; --hierarchy: perf browser's line, the indent after
 * the values); its row in sb (reset first; color: perf's escapes around
 * percentages); its call graph. */
bool report_stdio__entry_shown(const struct hist_entry *he);
void report_stdio__browser_header(FILE *fp, const struct hists *h);
void report_stdio__row(struct strbuf *sb, const struct hist_entry *he, bool color);
/* The smallest period of a call graph node shown at threshold min_percent. */
uint64_t report_stdio__callchain_min_hit(const struct hists *h, double min_percent);
/* The lines report's browser shows of an entry's call graph (flat and
 * folded without --children: perf's browser's; else --stdio's). */
void report_stdio__callchain(FILE *fp, const struct hist_entry *he, const struct report_stdio *r,
			     bool color);

#endif
