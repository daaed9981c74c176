/* annotate-browser: perf 6.1's full-screen annotate browser on the tui
 * layer (ui/tui.h): one symbol's annotation (the lines --stdio2 prints),
 * the hottest instruction selected, jump arrows, and perf's keys to move
 * through it, toggle its views and follow jumps and calls.
 *
 * pcl annotate opens it per symbol; report's and top's browsers open it
 * on their selected entry ('a').  The caller starts the terminal
 * (tui__start()) and stops it when done. */
#ifndef PCL_ANNOTATE_BROWSER_H
#define PCL_ANNOTATE_BROWSER_H

#include <stdbool.h>

#include "core/analysis/annotate.h"
#include "core/symbols/disasm.h"
#include "core/symbols/dso.h"
#include "ui/script-menu.h"

/* How the user left the browser. */
enum annotate_browser_exit {
	ANNOTATE_BROWSER_ERROR = -1,	/* nothing to show: no file to disassemble */
	ANNOTATE_BROWSER_QUIT,		/* q, ESC, Ctrl-C, or Enter on a return */
	ANNOTATE_BROWSER_BACK,		/* left arrow: perf annotate goes to the previous symbol */
	ANNOTATE_BROWSER_NEXT,		/* right arrow on a return: to the next symbol */
};

/* The view, as perf's annotate.* settings and the keys change it; kept
 * from one symbol to the next (pass the same struct). */
struct annotate_browser_opts {
	enum annotate_percent percent_type;
	bool show_total_period;	/* 't' cycles period, samples, percent */
	bool show_nr_samples;
	bool hide_src_code;	/* 's' */
	bool use_offset;	/* 'o': offsets (true) or addresses and objdump's text */
	bool jump_arrows;	/* 'j' */
	bool show_linenr;	/* 'k' */
	bool show_nr_jumps;	/* 'J' */
	int offset_level;	/* 'O': 1 jump targets, 2 and calls, 3 every instruction */
};

/* perf's defaults (annotate.use_offset, jump_arrows, offset_level). */
void annotate_browser_opts__init(struct annotate_browser_opts *o);

/* Where the annotations come from: every sampled symbol's histograms (a
 * callee is annotated from them too), the file of the symbol's DSO, the
 * events shown side by side (a group's members, or one) and the totals
 * global percentages take, by event index. */
struct annotate_browser_source {
	const struct annotate_samples *samples;
	struct disasm_file *file;
	const struct disasm_opts *dis;
	const int *evidx;
	int nr_events;
	const struct annotate_totals *totals;
	const char *title;	/* "Samples: 1K of event 'cycles', 4000 Hz, Event count ..." */
	const char *event_name;	/* for 'P' (the event, or the group's description) */
	const char *cpuid;	/* the recording's "vendor,family,model,...": which
				 * instructions fuse with a jump (or NULL) */
	const struct script_menu *scripts;	/* 'r': perf's menu of scripts, or NULL */
	uint64_t unmap_shift;	/* 'f': what the sampled map adds to objdump's addresses */
};

/* Opens the browser on sym of dso until the user leaves it. */
enum annotate_browser_exit annotate_browser__run(struct dso *dso, struct symbol *sym,
						 const struct annotate_browser_source *src,
						 struct annotate_browser_opts *opts);

#endif
