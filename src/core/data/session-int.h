/* session-int: what the session's own files share, no command's business. */
#ifndef PCL_SESSION_INT_H
#define PCL_SESSION_INT_H

#include "core/data/perf-record.h"

struct machine;
struct thread_ids;

/* Feeds a COMM/FORK/EXIT/MMAP/MMAP2/HEADER_BUILD_ID record into the
 * address-space model (others are ignored), and tells the machine when
 * its address spaces changed.  stale (may be NULL): a FORK's forgotten
 * parent (machine__process_fork()), left alone otherwise. */
void session_machine__take(struct machine *m, const struct perf_event_header *rec,
			   struct thread_ids *stale);

#endif
