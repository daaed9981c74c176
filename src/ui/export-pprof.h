/* export-pprof: a perf.data file as a pprof profile (profile.proto, gzipped). */
#ifndef PCL_EXPORT_PPROF_H
#define PCL_EXPORT_PPROF_H

#include <stdio.h>

#include "ui/export-frames.h"

/* Writes the samples of the session's first event (the session must have
 * a machine) to out as a gzipped profile.proto message: sample types
 * samples/count and EVENT/UNIT, one sample per distinct stack and thread
 * with pid, tid and comm labels, locations leaf first with their inlined
 * functions as lines.  Returns 0, or -1 with *err set (caller frees). */
int pprof_write(FILE *out, struct perf_session *s, struct export_summary *sum, char **err);

#endif
