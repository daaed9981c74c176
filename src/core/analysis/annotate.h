/* annotate: where inside its functions the samples of a profile fall, as
 * perf 6.1's annotate computes it.
 *
 * Samples are counted per symbol, event and byte offset.  A symbol's
 * annotation is objdump's text of it (core/symbols/disasm.h) cut into the
 * lines perf keeps: trimmed, tabs expanded, "/file:line" markers taken as
 * the line number of what follows, each instruction with the hits and
 * period from its address up to the next instruction's.  The engine makes
 * the records; src/ui/annotate-stdio.c prints them.
 */
#ifndef PCL_ANNOTATE_H
#define PCL_ANNOTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/symbols/disasm.h"
#include "core/symbols/dso.h"
#include "util/hashmap.h"

/* --percent-type: what an instruction's percentage is of */
enum annotate_percent {
	PERCENT_HITS_LOCAL,	/* samples, of the symbol's */
	PERCENT_HITS_GLOBAL,	/* samples, of the event's */
	PERCENT_PERIOD_LOCAL,	/* period, of the symbol's (perf's default) */
	PERCENT_PERIOD_GLOBAL,	/* period, of the event's */
};

/* "local-period", "period-local", "global-hits", ...: 0, or -1 when bad. */
int annotate_percent__parse(const char *s, enum annotate_percent *out);
/* "local period", as the header says it */
const char *annotate_percent__name(enum annotate_percent p);

/* One event's samples in one symbol, per byte offset. */
struct sym_hist {
	uint64_t nr_samples, period;
	uint64_t *samples, *periods;	/* [symbol size] */
};

struct annotated_sym {
	struct dso *dso;
	struct symbol *sym;
	struct sym_hist *hists;	/* [nr_hists], by evsel index */
	int nr_hists;
	int shown_for;		/* 1 + the event it was printed for: later entries skip it */
};

/* Every sampled symbol's histograms. */
struct annotate_samples {
	struct hashmap syms;	/* symbol* -> struct annotated_sym* */
};

void annotate_samples__init(struct annotate_samples *as);
void annotate_samples__release(struct annotate_samples *as);
/* Counts a sample at the DSO-relative addr of sym; addresses outside the
 * symbol are dropped as perf drops them. */
void annotate_samples__add(struct annotate_samples *as, struct dso *dso, struct symbol *sym,
			   int evidx, uint64_t addr, uint64_t period);
/* perf top: the symbols keep() refuses lose their samples (no entry names
 * them any more), so that a long run holds only what it can show. */
void annotate_samples__keep(struct annotate_samples *as,
			    bool (*keep)(const struct symbol *sym, void *arg), void *arg);
struct annotated_sym *annotate_samples__find(const struct annotate_samples *as,
					     const struct symbol *sym);
/* One event's histogram of the symbol (empty when it has no samples). */
const struct sym_hist *annotated_sym__hist(const struct annotated_sym *s, int evidx);

/* One event's share of an instruction. */
struct annotate_data {
	uint64_t nr_samples, period;
	double percent[4];	/* by enum annotate_percent */
};

struct annotate_line {
	int64_t offset;		/* from the symbol's start; -1: not an instruction */
	int line_nr;		/* perf's count (see annotate.c) */
	char *text;		/* after the address for instructions */
	struct annotate_data *data;	/* [nr_data] for instructions */
	const char *srcline;	/* -l: "file.c:12" of hot instructions, or NULL */
	int fileloc;		/* the "/file.c:12" line above it (a->filelocs), or -1 */
};

struct annotation {
	uint64_t start;		/* the symbol's address as objdump knows it */
	int addr_width;		/* hex digits of the last instruction's address */
	struct annotate_line *lines;
	size_t nr_lines;
	int nr_data;
	char **filelocs;	/* the disassembly's "/file.c:12" lines, not shown */
	int nr_filelocs;
};

/* Totals percentages "global" are taken of, per event. */
struct annotate_totals {
	uint64_t nr_samples, period;
};

/* Builds the annotation of as's symbol from its file f, for the events
 * evidx[0..nr) (a group's members, or one event). */
void annotation__build(struct annotation *a, struct disasm_file *f, const struct disasm_opts *o,
		       const struct annotated_sym *as, const int *evidx, int nr,
		       const struct annotate_totals *totals);
void annotation__release(struct annotation *a);

/* -l: sets the srcline of instructions above 0.5% (by type p) and returns
 * the summary perf prints: lines of one source line merged, hottest
 * first (*nr entries; free with annotation__free_summary()). */
struct annotate_summary {
	const char *srcline;
	double *percent;	/* [nr_data] */
};
struct annotate_summary *annotation__summary(struct annotation *a, const struct annotated_sym *as,
					     enum annotate_percent p, size_t *nr);
void annotation__free_summary(struct annotate_summary *s, size_t nr);

#endif
