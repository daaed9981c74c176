/* ordered-events: the time-ordering queue (see the header for the rule). */
#include "core/data/ordered-events.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES	(1u << 20)
#define DEFAULT_MAX	(256u << 20)

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
		struct oe_chunk *c = oe->pending[i].chunk;

		if (c != oe->cur && --c->live == 0)
			free(c);
	}
	free(oe->pending);
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

static int cmp_event(const void *a, const void *b)
{
	const struct oe_event *x = a, *y = b;

	if (x->timestamp != y->timestamp)
		return x->timestamp < y->timestamp ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Delivers pending events with timestamp <= limit, in order. */
static int flush_upto(struct ordered_events *oe, uint64_t limit, size_t max_count)
{
	size_t n = 0;
	int ret = 0;

	if (oe->sorted < oe->nr)
		qsort(oe->pending, oe->nr, sizeof(*oe->pending), cmp_event);
	oe->sorted = oe->nr;
	while (n < oe->nr && n < max_count && oe->pending[n].timestamp <= limit) {
		struct oe_event *ev = &oe->pending[n++];

		oe->last_flush = ev->timestamp;
		if (!ret)
			ret = oe->deliver(oe, ev, oe->arg);
		oe->bytes -= ev->rec->size;
		release(oe, ev->chunk);
	}
	if (n && n < oe->nr)
		memmove(oe->pending, oe->pending + n, (oe->nr - n) * sizeof(*oe->pending));
	oe->nr -= n;
	oe->sorted = oe->nr;
	return ret;
}

int ordered_events__queue(struct ordered_events *oe, const struct perf_event_header *rec,
			  uint64_t timestamp, uint64_t file_offset)
{
	size_t size = (rec->size + 7u) & ~7u;
	struct oe_event *ev;
	struct oe_chunk *c = oe->cur;

	if (timestamp < oe->last_flush)
		oe->nr_unordered++;
	if (!c || CHUNK_BYTES - c->used < size) {
		if (c && !c->live) {
			c->used = 0;	/* everything in it was delivered */
		} else {
			/* the old chunk is freed by its last release() */
			c = new_chunk(oe, size);
			oe->cur = c;
		}
	}
	if (oe->nr == oe->alloc) {
		oe->alloc = oe->alloc ? oe->alloc * 2 : 1024;
		oe->pending = xrealloc(oe->pending, oe->alloc * sizeof(*oe->pending));
	}
	ev = &oe->pending[oe->nr];
	ev->rec = (struct perf_event_header *)(void *)((char *)c->data + c->used);
	memcpy(ev->rec, rec, rec->size);
	c->used += size;
	c->live++;
	ev->chunk = c;
	ev->timestamp = timestamp;
	ev->seq = oe->seq++;
	ev->file_offset = file_offset;
	/* appending in order keeps the sorted prefix */
	if (oe->sorted == oe->nr && (!oe->nr || cmp_event(&oe->pending[oe->nr - 1], ev) <= 0))
		oe->sorted++;
	oe->nr++;
	oe->bytes += rec->size;
	if (timestamp > oe->max_timestamp)
		oe->max_timestamp = timestamp;
	if (oe->bytes > oe->max_bytes)
		return flush_upto(oe, ~0ULL, oe->nr / 2);
	return 0;
}

int ordered_events__flush_round(struct ordered_events *oe)
{
	int ret = flush_upto(oe, oe->next_flush, (size_t)-1);

	oe->next_flush = oe->max_timestamp;
	return ret;
}

int ordered_events__flush_all(struct ordered_events *oe)
{
	return flush_upto(oe, ~0ULL, (size_t)-1);
}
