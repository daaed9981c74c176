/* kwork-print: perf kwork's report and latency tables and timehist rows. */
#ifndef PCL_KWORK_PRINT_H
#define PCL_KWORK_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/analysis/kwork.h"
#include "core/symbols/machine.h"

/* What the lines under a report's table say. */
struct kwork_report_info {
	bool summary;			/* -S */
	uint64_t time_start, time_end;	/* the summary's span */
	uint64_t nr_events;		/* every record read */
	uint64_t nr_lost_events, nr_lost_chunks;
	uint64_t skipped[KWORK_NR_TRACES + 1];
	bool verbose;			/* -v: say how many atom pages there were */
	uint64_t atom_pages;
};

/* report (KWORK_REPORT) or latency (KWORK_LATENCY): the works with atoms,
 * in the given order, and the lines under them. */
void kwork_print_table(FILE *fp, enum kwork_mode mode, struct kwork_work *const *works,
		       size_t nr, const struct kwork_report_info *info);

void kwork_print_timehist_header(FILE *fp);
/* One run; with frames (-g), the stack perf kept last, on the same line. */
void kwork_print_run(FILE *fp, const struct kwork_run *run, bool callchain,
		     const struct callchain_frame *frames, int nr_frames);

#endif
