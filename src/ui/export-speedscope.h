/* export-speedscope: a perf.data file in speedscope's JSON file format. */
#ifndef PCL_EXPORT_SPEEDSCOPE_H
#define PCL_EXPORT_SPEEDSCOPE_H

#include <stdio.h>

#include "ui/export-frames.h"

/* Writes the samples of the session's first event (the session must have
 * a machine) to out as a speedscope document: frames shared by all
 * profiles (function name, source file, first line), one "sampled"
 * profile per thread named "COMM TID", stacks root first weighted by
 * their periods.  Returns 0, or -1 with *err set (caller frees). */
int speedscope_write(FILE *out, struct perf_session *s, struct export_summary *sum, char **err);

#endif
