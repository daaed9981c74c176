/* annotate-launch: what opens the annotate browser on a symbol, shared by
 * pcl annotate and the hist browsers of report (and later top): the
 * disassembled files opened once per DSO, perf's annotate.* view settings,
 * the title line, and report's whole launch from one of its entries. */
#ifndef PCL_ANNOTATE_LAUNCH_H
#define PCL_ANNOTATE_LAUNCH_H

#include <stdint.h>

#include "core/analysis/annotate.h"
#include "core/hist/hist.h"
#include "core/symbols/disasm.h"
#include "ui/annotate-browser.h"
#include "ui/script-menu.h"
#include "util/hashmap.h"

/* The file a DSO's symbols are disassembled from, opened on first use and
 * kept in files (dso* -> struct disasm_file*, NULL when unreadable);
 * disasm_files__close() closes them all. */
struct disasm_file *disasm_files__get(struct hashmap *files, struct dso *dso, bool source);
void disasm_files__close(struct hashmap *files);

/* perf's annotate.* view settings (hide_src_code, use_offset, jump_arrows,
 * show_linenr, show_nr_jumps, offset_level) over o's values. */
void annotate_browser_opts__config(struct annotate_browser_opts *o);

/* "Samples: 1K of event 'cpu-clock', 4000 Hz, Event count (approx.): N"
 * (events: nr_events > 1, named by name); caller frees. */
char *annotate_title(unsigned long nr_samples, uint64_t period, int nr_events, const char *name,
		     uint64_t freq);

/* The annotate browser behind a hist browser: the samples per symbol its
 * command collects (annotate_samples__add() as samples arrive), the files
 * and the view kept from one symbol to the next. */
struct annotate_launcher {
	struct annotate_samples samples;
	struct hashmap files;
	struct disasm_opts dis;
	struct annotate_browser_opts opts;
	const char *cpuid;		/* the recording's, for fused instructions */
	const struct script_menu *scripts;	/* the browser's 'r', or NULL */
};

void annotate_launcher__init(struct annotate_launcher *l, const char *cpuid);
void annotate_launcher__exit(struct annotate_launcher *l);
/* Whether sym has samples of its own to annotate (perf offers no
 * annotation of a symbol that only shows in call chains). */
bool annotate_launcher__has_samples(void *launcher, const struct symbol *sym);
/* Browses he's symbol (the terminal already taken over); NULL, or perf's
 * reason why it cannot be annotated. */
const char *annotate_launcher__browse(struct annotate_launcher *l, const struct hist_entry *he);

#endif
