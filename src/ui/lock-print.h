/* lock-print: perf lock's tables (report, contention, info). */
#ifndef PCL_LOCK_PRINT_H
#define PCL_LOCK_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/analysis/lock.h"
#include "core/symbols/machine.h"

/* A column: the -k/-F name, its header and width. */
struct lock_column {
	const char *name, *header;
	int len;
	enum lock_key key;
};

/* The columns of report or of contention, in perf's order, and their count. */
const struct lock_column *lock_columns(bool contention, int *nr);

struct lock_print_opts {
	const struct lock_column *const *cols;	/* what -F (and -k) chose */
	int nr_cols;
	bool quiet, verbose;
	bool threads;		/* -t: rows are tasks */
	int entries;		/* -E: at most this many rows */
	struct machine *machine;	/* -v: names the frames of each chain */
};

void lock_print_report(FILE *fp, struct lock_analysis *la, struct lock_stat **rows, size_t nr,
		       const struct lock_print_opts *o);
void lock_print_contention(FILE *fp, struct lock_analysis *la, struct lock_stat **rows,
			   size_t nr, const struct lock_print_opts *o);
/* info -t: the tasks that contended; info -m: lock addresses and names. */
void lock_print_threads(FILE *fp, struct lock_analysis *la);
void lock_print_map(FILE *fp, struct lock_analysis *la);

#endif
