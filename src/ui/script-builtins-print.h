/* script-builtins-print: the built-in scripts' output, in the layouts of
 * perf's Python and Perl scripts, with syscall and errno names where
 * Debian's perf prints numbers. */
#ifndef PCL_SCRIPT_BUILTINS_PRINT_H
#define PCL_SCRIPT_BUILTINS_PRINT_H

#include <stdio.h>

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

/* The -l listing. */
void script_builtins_print_list(FILE *fp);

#endif
