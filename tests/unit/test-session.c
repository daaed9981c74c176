/* Unit tests for the session: FINISHED_ROUND time ordering, its memory
 * bound, pipe streams (attrs and features inside the stream) and
 * zstd-compressed records. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <zstd.h>

#include "perf-data-builder.h"
#include "core/data/ordered-events.h"
#include "core/data/session.h"

/* ---- ordered-events in isolation ---- */

struct delivered {
	uint64_t ts[64];
	uint64_t tag[64];
	int n;
};

static int record_delivery(struct ordered_events *oe, const struct oe_event *ev, void *arg)
{
	struct delivered *d = arg;

	d->ts[d->n] = ev->timestamp;
	d->tag[d->n++] = ev->file_offset;
	return 0;
}

static void queue(struct ordered_events *oe, uint64_t ts, uint64_t tag)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 8 };

	assert_int_equal(ordered_events__queue(oe, &h, ts, tag), 0);
}

static void rounds_deliver_previous_round(void **state)
{
	struct delivered d = { 0 };
	struct ordered_events oe;

	ordered_events__init(&oe, record_delivery, &d);
	/* round 1: two CPUs drained one after the other */
	queue(&oe, 10, 1);
	queue(&oe, 30, 2);
	queue(&oe, 20, 3);
	queue(&oe, 40, 4);
	ordered_events__flush_round(&oe);
	assert_int_equal(d.n, 0);	/* round 2 may still hold older records */
	/* round 2 */
	queue(&oe, 35, 5);
	queue(&oe, 50, 6);
	ordered_events__flush_round(&oe);
	assert_int_equal(d.n, 5);	/* everything up to round 1's newest (40) */
	assert_int_equal(d.ts[0], 10);
	assert_int_equal(d.ts[1], 20);
	assert_int_equal(d.ts[2], 30);
	assert_int_equal(d.ts[3], 35);
	assert_int_equal(d.ts[4], 40);
	ordered_events__flush_all(&oe);
	assert_int_equal(d.n, 6);
	assert_int_equal(d.ts[5], 50);
	assert_int_equal(oe.nr_unordered, 0);
	ordered_events__exit(&oe);
}

static void equal_timestamps_keep_arrival_order(void **state)
{
	struct delivered d = { 0 };
	struct ordered_events oe;

	ordered_events__init(&oe, record_delivery, &d);
	queue(&oe, 7, 1);
	queue(&oe, 5, 2);
	queue(&oe, 7, 3);
	queue(&oe, 7, 4);
	ordered_events__flush_all(&oe);
	assert_int_equal(d.n, 4);
	assert_int_equal(d.tag[0], 2);
	assert_int_equal(d.tag[1], 1);
	assert_int_equal(d.tag[2], 3);
	assert_int_equal(d.tag[3], 4);
	ordered_events__exit(&oe);
}

static void memory_bound_flushes_oldest_half(void **state)
{
	struct delivered d = { 0 };
	struct ordered_events oe;

	ordered_events__init(&oe, record_delivery, &d);
	oe.max_bytes = 8 * 8;	/* eight 8-byte records */
	for (uint64_t i = 0; i < 9; i++)
		queue(&oe, 100 - i, i);
	assert_int_equal(d.n, 4);	/* half of nine, the oldest */
	assert_int_equal(d.ts[0], 92);
	queue(&oe, 1, 99);		/* older than what was already delivered */
	assert_int_equal(oe.nr_unordered, 1);
	ordered_events__flush_all(&oe);
	assert_int_equal(d.n, 10);
	ordered_events__exit(&oe);
}

struct order_check {
	uint64_t last;
	bool sorted;
	int n;
};

static int check_order(struct ordered_events *oe, const struct oe_event *ev, void *arg)
{
	struct order_check *c = arg;

	if (ev->timestamp < c->last)
		c->sorted = false;
	c->last = ev->timestamp;
	c->n++;
	return ev->rec->size == 24 ? 0 : -1;
}

static void many_records_span_chunks(void **state)
{
	struct order_check chk = { 0, true, 0 };
	struct ordered_events oe;

	/* 300k records of 24 bytes cross many 1 MB chunks; each round holds
	 * at most two rounds' worth */
	ordered_events__init(&oe, check_order, &chk);
	for (int round = 0; round < 30; round++) {
		for (int i = 0; i < 10000; i++) {
			struct { struct perf_event_header h; uint64_t v[2]; } r = {
				{ PERF_RECORD_SAMPLE, 0, 24 }, { (uint64_t)i, 0 } };
			uint64_t ts = (uint64_t)round * 10000 + (uint64_t)((i * 7919) % 10000) + 1;

			assert_int_equal(ordered_events__queue(&oe, &r.h, ts, 0), 0);
		}
		assert_int_equal(ordered_events__flush_round(&oe), 0);
		assert_true(oe.bytes <= 2 * 10000 * 24);
	}
	assert_int_equal(ordered_events__flush_all(&oe), 0);
	assert_true(chk.sorted);
	assert_int_equal(chk.n, 300000);
	ordered_events__exit(&oe);
}

/* ---- sessions over pipe streams ---- */

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID)

struct seen {
	struct perf_tool tool;
	int samples, attrs_cb;
	uint64_t times[16];
	const char *names[16];
	int types[64];
	int nr_types;
};

static int collect(struct perf_tool *tool, struct perf_session *s,
		   const struct perf_event_header *rec, struct perf_sample *sample,
		   struct evsel *evsel, uint64_t off)
{
	struct seen *w = (struct seen *)tool;

	if (w->nr_types < 64)
		w->types[w->nr_types++] = (int)rec->type;
	if (rec->type == PERF_RECORD_SAMPLE && w->samples < 16) {
		w->times[w->samples] = sample->time;
		w->names[w->samples++] = evsel ? evsel->name : NULL;
	}
	return 0;
}

static int on_attr(struct perf_tool *tool, struct perf_session *s, struct evsel *evsel)
{
	((struct seen *)tool)->attrs_cb++;
	return 0;
}

static void attr_record(struct buf *b, uint64_t config, uint64_t id)
{
	struct t_attr a = { PERF_TYPE_SOFTWARE, config, 1, ST, 0, 1ULL << 18 };
	size_t r = rec_begin(b, PERF_RECORD_HEADER_ATTR, 0);

	b_attr(b, &a);
	b_u64(b, id);
	rec_end(b, r);
}

static void sample(struct buf *b, uint64_t time, uint64_t id)
{
	size_t r = rec_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);

	b_u64(b, 0x1000 + time);
	b_u32(b, 5);
	b_u32(b, 5);
	b_u64(b, time);
	b_u64(b, id);
	rec_end(b, r);
}

static void round_end(struct buf *b)
{
	rec_end(b, rec_begin(b, PERF_RECORD_FINISHED_ROUND, 0));
}

static void pipe_header(struct buf *b)
{
	b_u64(b, 0x32454c4946524550ULL);
	b_u64(b, 16);
}

static void check_pipe(bool be)
{
	struct buf b = { .be = be };
	struct seen w = { .tool = { .record = collect, .attr = on_attr, .ordered = true } };
	struct perf_session *s;
	char *path, *err = NULL;
	size_t r;

	pipe_header(&b);
	attr_record(&b, 0, 100);
	attr_record(&b, 9, 200);
	r = rec_begin(&b, PERF_RECORD_HEADER_FEATURE, 0);	/* odd size, like perf */
	b_u64(&b, HEADER_HOSTNAME);
	b_str(&b, "pipehost");
	b_u32(&b, 0);
	rec_end(&b, r);
	sample(&b, 30, 100);
	sample(&b, 10, 200);
	round_end(&b);
	sample(&b, 20, 100);
	round_end(&b);

	path = b_to_file(&b);
	s = perf_session__open(path, &err);
	assert_non_null(s);
	assert_true(s->is_pipe);
	assert_string_equal(s->label, "pipe");
	assert_int_equal(s->evlist.nr_entries, 0);
	assert_int_equal(perf_session__process(s, &w.tool), 0);
	assert_int_equal(w.attrs_cb, 2);
	assert_int_equal(s->evlist.nr_entries, 2);
	assert_string_equal(s->header.hostname, "pipehost");
	assert_int_equal(w.samples, 3);
	assert_int_equal(w.times[0], 10);
	assert_int_equal(w.times[1], 20);
	assert_int_equal(w.times[2], 30);
	assert_string_equal(w.names[0], "dummy:HG");
	assert_string_equal(w.names[1], "cpu-clock:HG");
	/* the ATTR record reaches the tool before its event exists */
	assert_int_equal(w.types[0], PERF_RECORD_HEADER_ATTR);
	perf_session__delete(s);
	unlink(path);
	free(path);
	free(b.p);
}

static void pipe_native(void **state) { check_pipe(false); }
static void pipe_swapped(void **state) { check_pipe(true); }

static void compressed_records(void **state)
{
	struct buf b = { 0 }, inner = { 0 };
	struct seen w = { .tool = { .record = collect, .ordered = true } };
	struct perf_session *s;
	char *path, *err = NULL;
	size_t r, bound, n, half;
	uint8_t *z;
	ZSTD_CStream *cs = ZSTD_createCStream();

	for (uint64_t t = 1; t <= 6; t++)
		sample(&inner, t * 10, 100);
	/* one zstd stream split over two COMPRESSED records, the split
	 * falling inside a record, as perf's ring-buffer chunks may */
	bound = ZSTD_compressBound(inner.len);
	z = malloc(bound);
	ZSTD_initCStream(cs, 1);
	{
		ZSTD_outBuffer out = { z, bound, 0 };
		ZSTD_inBuffer in1 = { inner.p, inner.len / 2 + 3, 0 };
		ZSTD_inBuffer in2 = { inner.p + inner.len / 2 + 3, inner.len - inner.len / 2 - 3, 0 };

		ZSTD_compressStream2(cs, &out, &in1, ZSTD_e_flush);
		half = out.pos;
		ZSTD_compressStream2(cs, &out, &in2, ZSTD_e_end);
		n = out.pos;
	}
	ZSTD_freeCStream(cs);

	pipe_header(&b);
	attr_record(&b, 0, 100);
	r = rec_begin(&b, PERF_RECORD_COMPRESSED, 0);
	b_bytes(&b, z, half);
	rec_end(&b, r);
	r = rec_begin(&b, PERF_RECORD_COMPRESSED, 0);
	b_bytes(&b, z + half, n - half);
	rec_end(&b, r);
	round_end(&b);

	path = b_to_file(&b);
	s = perf_session__open(path, &err);
	assert_non_null(s);
	assert_int_equal(perf_session__process(s, &w.tool), 0);
	assert_int_equal(w.samples, 6);
	for (int i = 0; i < 6; i++)
		assert_int_equal(w.times[i], (uint64_t)(i + 1) * 10);
	assert_int_equal(s->decomp_len, 0);
	perf_session__delete(s);
	unlink(path);
	free(path);
	free(z);
	free(b.p);
	free(inner.p);
}

static void corrupt_compressed(void **state)
{
	struct buf b = { 0 };
	struct seen w = { .tool = { .record = collect, .ordered = true } };
	struct perf_session *s;
	char *path, *err = NULL;
	size_t r;

	pipe_header(&b);
	attr_record(&b, 0, 100);
	r = rec_begin(&b, PERF_RECORD_COMPRESSED, 0);
	b_bytes(&b, "not zstd at all!", 16);
	rec_end(&b, r);
	path = b_to_file(&b);
	s = perf_session__open(path, &err);
	assert_non_null(s);
	assert_int_equal(perf_session__process(s, &w.tool), -1);
	assert_non_null(strstr(s->err, "COMPRESSED record at offset 0x"));
	perf_session__delete(s);
	unlink(path);
	free(path);
	free(b.p);
}

static void empty_pipe(void **state)
{
	struct buf b = { 0 };
	char *path, *err = NULL;
	struct perf_session *s;

	path = b_to_file(&b);
	s = perf_session__open(path, &err);
	assert_null(s);
	assert_non_null(err);
	free(err);
	unlink(path);
	free(path);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rounds_deliver_previous_round),
		cmocka_unit_test(equal_timestamps_keep_arrival_order),
		cmocka_unit_test(memory_bound_flushes_oldest_half),
		cmocka_unit_test(many_records_span_chunks),
		cmocka_unit_test(pipe_native),
		cmocka_unit_test(pipe_swapped),
		cmocka_unit_test(compressed_records),
		cmocka_unit_test(corrupt_compressed),
		cmocka_unit_test(empty_pipe),
	};
	return cmocka_run_group_tests_name("session", tests, NULL, NULL);
}
