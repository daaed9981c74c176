/* ordered-events: puts kernel records from several per-CPU ring buffers back
 * into time order.
 *
 * perf record drains every buffer once per pass and then writes a
 * FINISHED_ROUND.  A record of round N+1 may be older than one of round N,
 * but never older than anything seen before round N started.  So at each
 * FINISHED_ROUND we deliver everything up to the newest timestamp of the
 * previous round, and keep the rest.  Records are copied into reference-
 * counted chunks (or, from a mapped file, referred to where they are,
 * from the sorted slot itself);
 * memory is bounded by max_bytes (beyond it the oldest half is delivered
 * early, with a count of what may come out of order).
 */
#ifndef PCL_ORDERED_EVENTS_H
#define PCL_ORDERED_EVENTS_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct oe_chunk;

/* A queued record: kept in a chunk, in front of its copy (or, queued by
 * reference, pointing to where the caller keeps it). */
struct oe_event {
	uint64_t timestamp;
	uint64_t file_offset;
	struct perf_event_header *rec;
	void *owner;		/* the queuer's note (the record's event) */
	uint32_t source;	/* the input it came from (oe->source when queued) */
	struct oe_chunk *chunk;
};

/* What the queue sorts: small, so that merging moves little.  Equal
 * timestamps keep their arrival order (the merges are stable).  ref is
 * the struct oe_event *, or, with its low bit set, the record queued by
 * reference (which then needs no description: see queue_ref). */
struct oe_slot {
	uint64_t timestamp;
	uintptr_t ref;
};

struct ordered_events;
typedef int (*oe_deliver_fn)(struct ordered_events *oe, const struct oe_event *ev, void *arg);

struct ordered_events {
	struct oe_slot *pending;
	size_t nr, alloc;
	size_t sorted;		/* pending[0..sorted) is in order */
	struct oe_slot *scratch;	/* the merges' other buffer */
	size_t scratch_alloc;
	size_t *runs, runs_alloc;	/* where each ascending run starts */
	struct oe_chunk *cur, *spare;
	size_t bytes;		/* record bytes held */
	size_t max_bytes;
	uint64_t max_timestamp;	/* newest queued so far */
	uint64_t next_flush;	/* a round flush delivers up to here */
	uint64_t last_flush;	/* newest delivered */
	uint64_t nr_unordered;	/* arrived older than last_flush */
	uint32_t source;	/* stamped on what is queued next: which of several
				 * inputs (a directory's files) it is read from */
	/* records queued by reference are delivered with file_offset
	 * ref_offset + (rec - ref_base), source ref_source, owner NULL */
	const uint8_t *ref_base;
	uint64_t ref_offset;
	uint32_t ref_source;
	oe_deliver_fn deliver;
	void *arg;
};

void ordered_events__init(struct ordered_events *oe, oe_deliver_fn deliver, void *arg);
void ordered_events__exit(struct ordered_events *oe);

/* Queues a copy of rec, with owner for its delivery.  May deliver early
 * when over max_bytes.  Returns what a delivery returned (non-zero stops). */
int ordered_events__queue(struct ordered_events *oe, const struct perf_event_header *rec,
			  uint64_t timestamp, uint64_t file_offset, void *owner);

/* The same without the copy or a description: rec itself (8-aligned, in
 * the block at ref_base) is delivered, and must stay valid and unchanged
 * until then. */
int ordered_events__queue_ref(struct ordered_events *oe, struct perf_event_header *rec,
			      uint64_t timestamp);
/* The record of a pending slot. */
struct perf_event_header *ordered_events__slot_rec(const struct oe_slot *slot);
/* FINISHED_ROUND: delivers up to the previous round's newest timestamp. */
int ordered_events__flush_round(struct ordered_events *oe);
/* Delivers everything older than timestamp (inputs each in time order,
 * none of which can still bring anything older). */
int ordered_events__flush_before(struct ordered_events *oe, uint64_t timestamp);
/* End of input: delivers everything. */
int ordered_events__flush_all(struct ordered_events *oe);

#endif
