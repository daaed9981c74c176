/* tasks-print: perf report --tasks: the threads as a tree of who forked
 * whom ("pid tid ppid |comm", indented by depth), and with --mmaps each
 * one's memory maps under it. */
#ifndef PCL_TASKS_PRINT_H
#define PCL_TASKS_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/symbols/machine.h"

/* -1 (nothing printed) when a thread's parent is not known, as perf. */
int tasks_print(FILE *fp, struct machine *m, bool maps);

#endif
