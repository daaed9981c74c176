/* script-builtins-print: the built-in scripts' output, in the layouts of
 * perf's Python and Perl scripts, with syscall and errno names where
 * Debian's perf prints numbers. */
#ifndef PCL_SCRIPT_BUILTINS_PRINT_H
#define PCL_SCRIPT_BUILTINS_PRINT_H

#include <stdio.h>

struct tep_event;
struct perf_sample;

#include "core/analysis/script-builtins.h"

/* What the script prints before the events (trace_begin). */
void script_builtin_print_begin(FILE *fp, const struct script_builtin_run *run);

/* What it prints at the end (trace_end); net_dropmonitor resolves its
 * locations in ksyms. */
void script_builtin_print_end(FILE *fp, const struct script_builtin_run *run,
			      const struct ksym_table *ksyms);

/* rwtop, sctop: one screen of totals, after clearing the terminal. */
void script_builtin_print_screen(FILE *fp, const struct script_builtin_run *run);

/* compaction-times -h */
void script_builtin_print_compaction_help(FILE *fp);

/* event_analyzing_sample's trace_unhandled: a tracepoint sample's
 * common_* values and fields, "name=value" sorted by name, values as
 * perf's Python gives them (str, int, bytearray).  comm is its thread's. */
void script_builtin_print_fields(FILE *fp, struct tep_event *tp,
				 const struct perf_sample *sample, const char *comm);

/* The -l listing. */
void script_builtins_print_list(FILE *fp);

#endif
