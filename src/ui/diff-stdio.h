/* diff-stdio: perf diff's table: the value columns of each file (Baseline,
 * Delta, Ratio, Weighted diff, Formula, periods) before the sort keys'
 * columns, header and dotted rule included.
 */
#ifndef PCL_DIFF_STDIO_H
#define PCL_DIFF_STDIO_H

#include <stdbool.h>
#include <stdio.h>

#include "core/analysis/diff.h"

enum diff_column_kind {
	DIFF_COL_BASELINE,
	DIFF_COL_PERIOD,
	DIFF_COL_PERIOD_BASELINE,
	DIFF_COL_DELTA,
	DIFF_COL_RATIO,
	DIFF_COL_WDIFF,
	DIFF_COL_FORMULA,
	DIFF_COL_DELTA_ABS,
};

#define DIFF_MAX_COLUMNS 64

struct diff_columns {
	struct diff_column {
		enum diff_column_kind kind;
		int file;
		int width;
		char header[100];	/* right-aligned to width */
	} v[DIFF_MAX_COLUMNS];
	int nr;
};

/* perf's columns for cfg: per file its computation's (the baseline's for
 * file 0), then with show_formula its formula, with show_period its
 * period.  With more than two files each header says "/N". */
void diff_columns__init(struct diff_columns *c, const struct diff_config *cfg,
			bool show_period, bool show_formula);

/* The header lines (show_header) and a row per shown entry of de->base. */
void diff_stdio__print(FILE *fp, const struct diff_event *de, const struct diff_columns *c,
		       bool show_header);

#endif
