/* sched-timehist-print: perf sched timehist's header, rows and summary. */
#ifndef PCL_SCHED_TIMEHIST_PRINT_H
#define PCL_SCHED_TIMEHIST_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/analysis/sched-timehist.h"
#include "core/data/sample-filter.h"
#include "core/symbols/machine.h"
#include "util/strbuf.h"

struct th_printer {
	FILE *fp;
	bool cpu_visual, state, next, wakeups, idle_hist;
	int comm_width;		/* grows with the longest name printed, as perf's */
	int max_cpu;		/* for the -V columns (kept current by the caller) */
	bool callchain;		/* -g: the stack after a task's row */
	const struct callchain_frame *frames;	/* the last stack resolved */
	int nr_frames;
};

void th_printer__init(struct th_printer *p, FILE *fp);
void th_print_header(struct th_printer *p);
/* -I: a stack as perf folds it for the idle summary, "a;b;c" callee
 * first, the scheduler's frames included. */
void th_fold_stack(struct strbuf *sb, const struct callchain_frame *frames, int nr);
void th_print_row(struct th_printer *p, const struct th_row *row);
void th_print_summary(struct th_printer *p, const struct th_summary *s,
		      const struct sched_timehist *th, const struct sample_filter *filter);

#endif
