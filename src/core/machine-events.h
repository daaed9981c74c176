/* machine-events: feeds the records of a perf.data stream that build the
 * address-space model (COMM, FORK, EXIT, MMAP, MMAP2, HEADER_BUILD_ID)
 * into a machine.  Any reader that resolves samples calls this for every
 * record, in delivery (time) order, before looking at samples.
 */
#ifndef PCL_MACHINE_EVENTS_H
#define PCL_MACHINE_EVENTS_H

#include <linux/perf_event.h>

struct machine;
struct perf_session;

/* Records of other types are ignored. */
void machine__process_record(struct machine *m, const struct perf_event_header *rec);

/* The session header's build ids (HEADER_BUILD_ID feature). */
void machine__add_session_build_ids(struct machine *m, const struct perf_session *s);

#endif
