/* annotate-stdio: perf 6.1's `annotate --stdio` text of an annotation. */
#ifndef PCL_ANNOTATE_STDIO_H
#define PCL_ANNOTATE_STDIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/analysis/annotate.h"

struct annotate_print_opts {
	enum annotate_percent percent_type;
	bool show_total_period;	/* the period instead of a percentage */
	bool show_nr_samples;	/* the samples instead of a percentage */
	bool color;		/* perf's percentage colours */
};

/* The last source line appended to an instruction (-l). */
struct annotate_printer {
	FILE *fp;
	const struct annotate_print_opts *opts;
	const char *last_srcline;
};

/* The header naming file (the DSO, as perf shortens it or not), event
 * and samples, then every line. */
void annotate_stdio__print(struct annotate_printer *p, const struct annotation *a,
			   const char *file, const char *event, uint64_t nr_samples);

/* -l: "Sorted summary for file ..." with the hottest source lines. */
void annotate_stdio__print_summary(struct annotate_printer *p, const struct annotate_summary *s,
				   size_t nr, int nr_data, const char *long_name);

#endif
