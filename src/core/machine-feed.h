/* machine-feed: applies a perf.data record (COMM, FORK, EXIT, MMAP, MMAP2,
 * HEADER_BUILD_ID) to the machine model.  Readers call it for every
 * record, in delivery order. */
#ifndef PCL_MACHINE_FEED_H
#define PCL_MACHINE_FEED_H

#include <stdbool.h>

#include "core/machine.h"
#include "core/perf-data.h"

/* Returns true when the record may change what an address resolves to
 * (a new map, an exec), so callers can drop their resolution caches. */
bool machine__feed(struct machine *m, const struct perf_event_header *rec);

/* The build ids of the file's header (so DSOs are known in perf's order). */
void machine__feed_build_ids(struct machine *m, const struct perf_header *h);

#endif
