/* ftrace-print: perf ftrace latency's histogram table. */
#ifndef PCL_FTRACE_PRINT_H
#define PCL_FTRACE_PRINT_H

#include <stdio.h>

struct ftrace_latency;

/* The table perf prints (a 46-column bar per bucket), or "No data found". */
void ftrace_latency__print(FILE *fp, const struct ftrace_latency *lat);

#endif
