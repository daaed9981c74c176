/* ordered-events: the time-ordering queue (see the header for the rule). */
#include "core/data/ordered-events.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES	(1u << 20)
#define DEFAULT_MAX	(256u << 20)
#define PREFETCH_AHEAD	4	/* records */

struct oe_chunk {
	size_t used;
	size_t live;		/* queued records still in this chunk */
	struct oe_chunk *next;
	uint64_t data[];	/* u64 so records stay 8-aligned */
};

void ordered_events__init(struct ordered_events *oe, oe_deliver_fn deliver, void *arg)
{
	memset(oe, 0, sizeof(*oe));
	oe->max_bytes = DEFAULT_MAX;
	oe->deliver = deliver;
	oe->arg = arg;
}

static void free_chunks(struct oe_chunk *c)
{
	while (c) {
		struct oe_chunk *n = c->next;
		free(c);
		c = n;
	}
}

void ordered_events__exit(struct ordered_events *oe)
{
	/* chunks with live records are only reachable through pending */
	for (size_t i = 0; i < oe->nr; i++) {
		struct oe_chunk *c;

		if (oe->pending[i].ref & 1)
			continue;	/* by reference: in no chunk */
		c = ((struct oe_event *)oe->pending[i].ref)->chunk;
		if (c != oe->cur && --c->live == 0)
			free(c);
	}
	free(oe->pending);
	free(oe->scratch);
	free(oe->runs);
	free(oe->cur);
	free_chunks(oe->spare);
	memset(oe, 0, sizeof(*oe));
}

static struct oe_chunk *new_chunk(struct ordered_events *oe, size_t need)
{
	struct oe_chunk *c;
	size_t size = need > CHUNK_BYTES ? need : CHUNK_BYTES;

	if (oe->spare && size == CHUNK_BYTES) {
		c = oe->spare;
		oe->spare = c->next;
	} else {
		c = xmalloc(sizeof(*c) + size);
	}
	c->used = 0;
	c->live = 0;
	c->next = NULL;
	return c;
}

static void release(struct ordered_events *oe, struct oe_chunk *c)
{
	if (--c->live || c == oe->cur)
		return;
	/* keep one spare chunk to avoid malloc churn */
	if (!oe->spare) {
		c->next = NULL;
		oe->spare = c;
	} else {
		free(c);
	}
}

/* Stable: on equal timestamps the left (earlier) run's slot goes first. */
static void merge(const struct oe_slot *l, size_t nl, const struct oe_slot *r, size_t nr,
		  struct oe_slot *out)
{
	while (nl && nr) {
		if (r->timestamp < l->timestamp) {
			*out++ = *r++;
			nr--;
		} else {
			*out++ = *l++;
			nl--;
		}
	}
	memcpy(out, l, nl * sizeof(*l));
	memcpy(out + nl, r, nr * sizeof(*r));
}

/*
 * pending is a few ascending runs: what the last flush left, then each
 * CPU's stretch of the round.  Merging neighbouring runs until one is left
 * costs n log(runs) comparisons where a plain sort costs n log n.
 */
static void sort_pending(struct ordered_events *oe)
{
	struct oe_slot *src = oe->pending, *dst, *swap;
	size_t n = oe->nr, nr_runs = 0;

	if (oe->scratch_alloc < oe->alloc) {
		free(oe->scratch);
		oe->scratch = xmalloc(oe->alloc * sizeof(*oe->scratch));
		oe->scratch_alloc = oe->alloc;
	}
	/* runs[i] is where run i starts; runs[nr_runs] == n */
	for (size_t i = 0; i <= n; i++) {
		if (i && i < n && src[i - 1].timestamp <= src[i].timestamp)
			continue;
		if (nr_runs == oe->runs_alloc) {
			oe->runs_alloc = oe->runs_alloc ? oe->runs_alloc * 2 : 64;
			oe->runs = xrealloc(oe->runs, oe->runs_alloc * sizeof(*oe->runs));
		}
		oe->runs[nr_runs++] = i;
	}
	nr_runs--;
	dst = oe->scratch;
	while (nr_runs > 1) {
		size_t merged = 0;

		for (size_t i = 0; i < nr_runs; i += 2) {
			size_t lo = oe->runs[i], mid = oe->runs[i + 1];
			size_t hi = i + 1 < nr_runs ? oe->runs[i + 2] : mid;

			merge(src + lo, mid - lo, src + mid, hi - mid, dst + lo);
			oe->runs[merged++] = lo;
		}
		oe->runs[merged] = n;
		nr_runs = merged;
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != oe->pending) {
		size_t alloc = oe->alloc;

		oe->scratch = oe->pending;
		oe->pending = src;
		oe->alloc = oe->scratch_alloc;
		oe->scratch_alloc = alloc;
	}
}

struct perf_event_header *ordered_events__slot_rec(const struct oe_slot *slot)
{
	if (slot->ref & 1)
		return (struct perf_event_header *)(slot->ref & ~(uintptr_t)1);
	return ((struct oe_event *)slot->ref)->rec;
}

/* Delivers pending events with timestamp <= limit, in order. */
static int flush_upto(struct ordered_events *oe, uint64_t limit, size_t max_count)
{
	size_t n = 0;
	int ret = 0;

	if (oe->sorted < oe->nr)
		sort_pending(oe);
	oe->sorted = oe->nr;
	while (n < oe->nr && n < max_count && oe->pending[n].timestamp <= limit) {
		const struct oe_slot *slot = &oe->pending[n++];
		struct oe_event by_ref;
		const struct oe_event *ev = (const struct oe_event *)slot->ref;

		/* records come out in time order, not memory order: ask for
		 * one a few ahead (the record, or its description and the
		 * start of its sample) while this one is delivered */
		if (n + PREFETCH_AHEAD < oe->nr) {
			uintptr_t ahead = oe->pending[n + PREFETCH_AHEAD].ref & ~(uintptr_t)1;

			__builtin_prefetch((const char *)ahead);
			__builtin_prefetch((const char *)ahead + 64);
			__builtin_prefetch((const char *)ahead + 128);
		}
		if (slot->ref & 1) {
			by_ref.timestamp = slot->timestamp;
			by_ref.rec = ordered_events__slot_rec(slot);
			by_ref.file_offset = oe->ref_offset +
					     (uint64_t)((const uint8_t *)by_ref.rec - oe->ref_base);
			by_ref.owner = NULL;
			by_ref.source = oe->ref_source;
			by_ref.chunk = NULL;
			ev = &by_ref;
		}
		oe->last_flush = slot->timestamp;
		if (!ret)
			ret = oe->deliver(oe, ev, oe->arg);
		oe->bytes -= ev->rec->size;
		if (ev->chunk)
			release(oe, ev->chunk);
	}
	if (n && n < oe->nr)
		memmove(oe->pending, oe->pending + n, (oe->nr - n) * sizeof(*oe->pending));
	oe->nr -= n;
	oe->sorted = oe->nr;
	return ret;
}

/* A description of size bytes (with room for a copy of the record) in the
 * current chunk, counted live there. */
static struct oe_event *append(struct ordered_events *oe, size_t size)
{
	struct oe_event *ev;
	struct oe_chunk *c = oe->cur;

	if (!c || CHUNK_BYTES - c->used < size) {
		if (c && !c->live) {
			c->used = 0;	/* everything in it was delivered */
		} else {
			/* the old chunk is freed by its last release() */
			c = new_chunk(oe, size);
			oe->cur = c;
		}
	}
	ev = (struct oe_event *)(void *)((char *)c->data + c->used);
	c->used += size;
	c->live++;
	ev->chunk = c;
	return ev;
}

/* Makes ref (a slot's) pending, with size bytes of record. */
static int push(struct ordered_events *oe, uint64_t timestamp, uintptr_t ref, size_t size)
{
	if (timestamp < oe->last_flush)
		oe->nr_unordered++;
	if (oe->nr == oe->alloc) {
		oe->alloc = oe->alloc ? oe->alloc * 2 : 1024;
		oe->pending = xrealloc(oe->pending, oe->alloc * sizeof(*oe->pending));
	}
	/* appending in order keeps the sorted prefix */
	if (oe->sorted == oe->nr && (!oe->nr || oe->pending[oe->nr - 1].timestamp <= timestamp))
		oe->sorted++;
	oe->pending[oe->nr].timestamp = timestamp;
	oe->pending[oe->nr].ref = ref;
	oe->nr++;
	oe->bytes += size;
	if (timestamp > oe->max_timestamp)
		oe->max_timestamp = timestamp;
	if (oe->bytes > oe->max_bytes)
		return flush_upto(oe, ~0ULL, oe->nr / 2);
	return 0;
}

int ordered_events__queue(struct ordered_events *oe, const struct perf_event_header *rec,
			  uint64_t timestamp, uint64_t file_offset, void *owner)
{
	struct oe_event *ev = append(oe, sizeof(*ev) + ((rec->size + 7u) & ~7u));

	ev->rec = (struct perf_event_header *)(ev + 1);
	memcpy(ev->rec, rec, rec->size);
	ev->timestamp = timestamp;
	ev->file_offset = file_offset;
	ev->owner = owner;
	ev->source = oe->source;
	return push(oe, timestamp, (uintptr_t)ev, rec->size);
}

int ordered_events__queue_ref(struct ordered_events *oe, struct perf_event_header *rec,
			      uint64_t timestamp)
{
	return push(oe, timestamp, (uintptr_t)rec | 1, rec->size);
}

int ordered_events__flush_round(struct ordered_events *oe)
{
	int ret = flush_upto(oe, oe->next_flush, (size_t)-1);

	oe->next_flush = oe->max_timestamp;
	return ret;
}

int ordered_events__flush_before(struct ordered_events *oe, uint64_t timestamp)
{
	return timestamp ? flush_upto(oe, timestamp - 1, (size_t)-1) : 0;
}

int ordered_events__flush_all(struct ordered_events *oe)
{
	return flush_upto(oe, ~0ULL, (size_t)-1);
}
