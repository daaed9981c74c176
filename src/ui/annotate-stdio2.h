/* annotate-stdio2: perf 6.1's `annotate --stdio2` text: its annotate
 * browser's lines written to a file (offsets instead of addresses,
 * arrows for jumps, calls and returns, operands with symbol names). */
#ifndef PCL_ANNOTATE_STDIO2_H
#define PCL_ANNOTATE_STDIO2_H

#include "core/symbols/dso.h"
#include "ui/annotate-stdio.h"

/* title: perf's "Samples: 1K of event 'cpu-clock', 4000 Hz, Event count
 * (approx.): N" of the event (or group); dso and sym name call and
 * jump targets. */
void annotate_stdio2__print(struct annotate_printer *p, const struct annotation *a,
			    struct dso *dso, const struct symbol *sym, const char *title);

/* The lines alone, as perf's browser writes them to SYMBOL.annotation ('P'). */
void annotate_stdio2__print_lines(FILE *fp, const struct annotate_print_opts *o,
				  const struct annotation *a, struct dso *dso,
				  const struct symbol *sym);

#endif
