/* session-warnings: perf's end-of-run warnings of the commands that read
 * perf.data (script, report): lost chunks and samples, unknown records,
 * samples of no known event, undecodable and out-of-order records. */
#ifndef PCL_SESSION_WARNINGS_H
#define PCL_SESSION_WARNINGS_H

#include <stdbool.h>
#include <stdio.h>

#include "core/data/session.h"

/* Prints to fp the warnings perf prints for st; lost_shown: the LOST
 * records were printed as they came (script --show-lost-events), so the
 * lost-chunks warning is not repeated. */
void session_warnings__print(FILE *fp, const struct session_stats *st, bool lost_shown);

#endif
