/* trace-summary: perf trace's "Summary of events" (-s, -S). */
#ifndef PCL_TRACE_SUMMARY_H
#define PCL_TRACE_SUMMARY_H

#include <stdio.h>

#include "core/analysis/trace.h"

/* Per thread "comm (tid), N events, P%" and its syscalls' calls, errors
 * and durations, sorted as perf sorts them. */
void trace_summary__print(FILE *fp, struct trace *t);

/* --tool_stats: how many fd paths were found where, perf's "Stats:" block. */
void trace_summary__print_tool_stats(FILE *fp, const struct trace *t);

#endif
