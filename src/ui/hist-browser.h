/* hist-browser: perf report's full-screen browser of histograms.  The rows
 * are report --stdio's (ui/report-stdio), one line per entry; call graphs
 * unfold under their entries level by level in perf's browser layout; keys
 * move, fold, zoom into a thread, DSO or socket, filter by symbol name or
 * percent, show the header, switch files and print the rows to
 * perf.hist.N.  Several events: perf's menu of events first.  Runs on the
 * terminal layer of ui/tui.
 */
#ifndef PCL_HIST_BROWSER_H
#define PCL_HIST_BROWSER_H

#include <stdbool.h>
#include <stdio.h>

#include "core/hist/hist.h"
#include "ui/report-stdio.h"
#include "ui/script-menu.h"
#include "util/strbuf.h"

/* Histograms that keep changing (top): while waiting for keys the browser
 * asks every interval_ms whether a refresh is due; resort() then ages
 * every histogram and sorts the event's again, which may free entries, so
 * the browser lets go of every entry first and takes them again from the
 * hists resort() returns (the event's, or a view of them); unfolded call
 * graphs and the cursor stay on the entries that survived. */
struct hist_browser_live {
	void *ctx;
	int interval_ms;
	bool (*due)(void *ctx);		/* reads what came meanwhile */
	struct hists *(*resort)(void *ctx, struct hists *event);
	/* after the title's event count: top's " lost: 0/0 drop: 0/0" */
	void (*title_tail)(void *ctx, struct strbuf *sb);
	/* a key the browser has no use for (top's z and f) */
	void (*key)(void *ctx, int key);
	/* a digit changed the group member the entries sort by: perf top
	 * starts its browser again with its samples zeroed from then on */
	void (*sort_changed)(void *ctx);
	/* the help lines of those keys */
	const char *const *help;
	int nr_help;
};

/* One event's histogram as the browser offers it. */
struct hist_browser_event {
	struct hists *hists;
	const char *name;		/* the event's, or its group's description */
	bool leads_group;		/* "of events" */
	/* a group's member after its leader: not in the menu of events, TAB
	 * reaches it (shown alone), as perf's */
	bool member;
};

struct hist_browser_opts {
	const struct report_stdio *stdio;	/* how --stdio would print the rows */
	const char *helpline;		/* the bottom line (a tip) */
	bool show_headers;		/* the column header line (ui.show-headers) */
	/* 'a' and the menu's annotate: opens the annotate browser on the
	 * entry's symbol and returns NULL, or says why it cannot; NULL: no
	 * annotation offered */
	const char *(*annotate)(void *ctx, const struct hist_entry *he);
	void *annotate_ctx;
	/* whether a symbol has samples to annotate (a call graph's frame may
	 * have none: perf's warning then); NULL: annotate() says */
	bool (*has_samples)(void *ctx, const struct symbol *sym);
	const struct hist_browser_live *live;	/* NULL: a report's, fixed */
	/* 'i': writes the file's header lines as report --header-only; NULL:
	 * none offered */
	void (*header)(void *ctx, FILE *fp);
	void *header_ctx;
	/* 'F': the setting of every histogram's percentages (--percentage
	 * relative) it toggles; NULL: not offered */
	bool *filter_relative;
	/* '0'-'9': the group member the entries sort by (--group-sort-idx)
	 * the digit sets; NULL: not offered */
	int *group_sort_idx;
	/* 'V': the setting of every histogram's verbose rows (-v: DSO paths,
	 * addresses) it turns on from level 1; NULL: the rows stay */
	bool *verbose;
	/* 'r': perf's menu of scripts on the report's file; NULL: not offered */
	const struct script_menu *scripts;
	/* 's': where the perf.data file chosen in the current directory goes
	 * (malloc'ed; the browser leaves then); NULL: no switching offered */
	char **switch_input;
};

/* Browses the events until the user leaves; 0, or -1 when the terminal
 * could not be taken over (the caller prints --stdio instead). */
int hist_browser__run(const struct hist_browser_event *events, int nr_events,
		      const struct hist_browser_opts *opts);

#endif
