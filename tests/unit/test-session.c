/* Unit tests for the session: FINISHED_ROUND time ordering, its memory
 * bound, pipe streams (attrs and features inside the stream),
 * zstd-compressed records, perf's directory format (record --threads),
 * the per-kind tool callbacks and the machine the session feeds before
 * them, and sample resolution. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <zstd.h>

#include "perf-data-builder.h"
#include "core/data/ordered-events.h"
#include "core/data/perf-data-write.h"
#include "core/data/session.h"
#include "core/symbols/machine.h"

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

	assert_int_equal(ordered_events__queue(oe, &h, ts, tag, NULL), 0);
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

/* A directory's files each in time order: older than every file's last
 * record is final, and goes out; the rest waits. */
static void flush_before_keeps_the_rest(void **state)
{
	struct ordered_events oe;
	struct delivered d = { .n = 0 };

	ordered_events__init(&oe, record_delivery, &d);
	queue(&oe, 30, 1);
	queue(&oe, 10, 2);
	queue(&oe, 20, 3);
	queue(&oe, 20, 4);
	assert_int_equal(ordered_events__flush_before(&oe, 20), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.ts[0], 10);
	assert_int_equal(ordered_events__flush_before(&oe, 0), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(ordered_events__flush_all(&oe), 0);
	assert_int_equal(d.n, 4);
	assert_int_equal(d.tag[1], 3);
	assert_int_equal(d.tag[2], 4);
	assert_int_equal(d.ts[3], 30);
	assert_int_equal(oe.nr_unordered, 0);
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

/* Three CPUs' ascending stretches of a round, with equal timestamps
 * across them: the merge gives time order, ties in arrival order. */
static void runs_merge_in_time_then_arrival_order(void **state)
{
	struct delivered d = { 0 };
	struct ordered_events oe;

	ordered_events__init(&oe, record_delivery, &d);
	for (uint64_t cpu = 0; cpu < 3; cpu++)
		for (uint64_t i = 0; i < 20; i++)
			queue(&oe, i * 2 + (cpu == 2), cpu * 100 + i);
	ordered_events__flush_all(&oe);
	assert_int_equal(d.n, 60);
	for (int k = 0; k < 60; k++) {
		uint64_t i = (uint64_t)k / 3, cpu = (uint64_t)k % 3;

		/* at 2i: cpu 0 then cpu 1 (arrival), then cpu 2's 2i+1 */
		assert_int_equal(d.ts[k], i * 2 + (cpu == 2));
		assert_int_equal(d.tag[k], cpu * 100 + i);
	}
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

			assert_int_equal(ordered_events__queue(&oe, &r.h, ts, 0, NULL), 0);
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
	s = perf_session__open(path, false, &err);
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
	s = perf_session__open(path, false, &err);
	assert_non_null(s);
	assert_int_equal(perf_session__process(s, &w.tool), 0);
	assert_int_equal(w.samples, 6);
	for (int i = 0; i < 6; i++)
		assert_int_equal(w.times[i], (uint64_t)(i + 1) * 10);
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
	s = perf_session__open(path, false, &err);
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
	s = perf_session__open(path, false, &err);
	assert_null(s);
	assert_non_null(err);
	free(err);
	unlink(path);
	free(path);
	free(b.p);
}

/* ---- perf's directory format ---- */

struct dir_seen {
	struct perf_tool tool;
	int n;
	uint64_t times[16];
	char labels[16][64];
};

static int collect_dir(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel, uint64_t off)
{
	struct dir_seen *w = (struct dir_seen *)tool;
	const char *slash = strrchr(s->label, '/');

	if (rec->type != PERF_RECORD_SAMPLE || w->n >= 16)
		return 0;
	w->times[w->n] = sample->time;
	snprintf(w->labels[w->n++], sizeof(w->labels[0]), "%s", slash ? slash + 1 : s->label);
	return 0;
}

static void write_file(const char *dir, const char *name, const struct buf *b)
{
	char *path;
	FILE *f;

	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	f = fopen(path, "w");
	assert_non_null(f);
	if (b->len)
		assert_int_equal(fwrite(b->p, 1, b->len, f), b->len);
	fclose(f);
	free(path);
}

/* One zstd stream of the records in b, as two COMPRESSED records split
 * inside a record (each data.N file is a stream of its own: one shared
 * decoder would take the second file's frame for the first one's rest). */
static void compress_into(struct buf *out, const struct buf *b)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	size_t bound = ZSTD_compressBound(b->len), half, n, r;
	uint8_t *z = malloc(bound);
	ZSTD_outBuffer zout = { z, bound, 0 };
	ZSTD_inBuffer in1 = { b->p, b->len / 2 + 3, 0 };
	ZSTD_inBuffer in2 = { b->p + b->len / 2 + 3, b->len - b->len / 2 - 3, 0 };

	ZSTD_initCStream(cs, 1);
	ZSTD_compressStream2(cs, &zout, &in1, ZSTD_e_flush);
	half = zout.pos;
	/* flushed, never ended, as perf leaves a file's stream */
	ZSTD_compressStream2(cs, &zout, &in2, ZSTD_e_flush);
	n = zout.pos;
	ZSTD_freeCStream(cs);
	r = rec_begin(out, PERF_RECORD_COMPRESSED, 0);
	b_bytes(out, z, half);
	rec_end(out, r);
	r = rec_begin(out, PERF_RECORD_COMPRESSED, 0);
	b_bytes(out, z + half, n - half);
	rec_end(out, r);
	free(z);
}

/*
 * DIR/data: the header (one event, id 100) and a sample at 25; data.0:
 * samples at 10, 30, 50; data.1: 20, 40; data.2 empty.  compressed: the
 * data.N files hold COMPRESSED records.
 */
static char *make_dir(bool compressed)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
					.sample_type = ST, .sample_id_all = 1 };
	uint64_t id = 100;
	struct perf_data_writer_attr wa = { &attr, &id, 1 };
	struct perf_data_writer w;
	struct buf main_recs = { 0 }, ring[3] = { { 0 } };
	char *dir = strdup("/tmp/pcl-test-dir-XXXXXX"), *data;

	assert_non_null(mkdtemp(dir));
	assert_true(asprintf(&data, "%s/data", dir) > 0);
	assert_int_equal(perf_data_writer__open(&w, data), 0);
	assert_int_equal(perf_data_writer__write_header(&w, &wa, 1), 0);
	sample(&main_recs, 25, 100);
	assert_int_equal(perf_data_writer__write(&w, main_recs.p, main_recs.len), 0);
	perf_data_writer__set_feature(&w, HEADER_DIR_FORMAT, calloc(1, 8), 8);
	*(uint64_t *)w.features[HEADER_DIR_FORMAT].data = 1;
	assert_int_equal(perf_data_writer__finish(&w), 0);
	for (uint64_t t = 10; t <= 50; t += 10)
		sample(&ring[(t / 10 + 1) % 2], t, 100);
	for (int i = 0; i < 3; i++) {
		char name[32];
		struct buf z = { 0 };

		snprintf(name, sizeof(name), "data.%d", i);
		if (compressed && ring[i].len)
			compress_into(&z, &ring[i]);
		write_file(dir, name, compressed ? &z : &ring[i]);
		free(z.p);
		free(ring[i].p);
	}
	free(main_recs.p);
	free(data);
	return dir;
}

static void remove_dir(char *dir)
{
	const char *names[] = { "data", "data.0", "data.1", "data.2" };

	for (size_t i = 0; i < 4; i++) {
		char *path;

		assert_true(asprintf(&path, "%s/%s", dir, names[i]) > 0);
		unlink(path);
		free(path);
	}
	rmdir(dir);
	free(dir);
}

static void check_dir(bool compressed)
{
	static const uint64_t want[] = { 10, 20, 25, 30, 40, 50 };
	static const char *const want_label[] = { "data.0", "data.1", "data", "data.0",
						  "data.1", "data.0" };
	char *dir = make_dir(compressed), *err = NULL;
	struct dir_seen w = { .tool = { .record = collect_dir, .ordered = true } };
	struct perf_session *s = perf_session__open(dir, false, &err);

	assert_non_null(s);
	assert_true(s->is_dir);
	assert_false(s->is_pipe);
	assert_int_equal(s->header.dir_format_version, 1);
	assert_int_equal(s->nr_dir_files, 3);
	assert_int_equal(perf_session__process(s, &w.tool), 0);
	assert_int_equal(w.n, 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(w.times[i], want[i]);
		assert_string_equal(w.labels[i], want_label[i]);
	}
	perf_session__delete(s);
	remove_dir(dir);
}

static void directory_merges_its_files_in_time_order(void **state) { check_dir(false); }
static void directory_files_are_zstd_streams_of_their_own(void **state) { check_dir(true); }

/* Unordered (-D's raw order): DIR/data first, then each file's records in
 * its own order. */
static void directory_in_file_order(void **state)
{
	char *dir = make_dir(false), *err = NULL;
	struct dir_seen w = { .tool = { .record = collect_dir, .ordered = false } };
	struct perf_session *s = perf_session__open(dir, false, &err);
	uint64_t last[2] = { 0, 0 };

	assert_non_null(s);
	assert_int_equal(perf_session__process(s, &w.tool), 0);
	assert_int_equal(w.n, 6);
	assert_int_equal(w.times[0], 25);
	assert_string_equal(w.labels[0], "data");
	for (int i = 1; i < 6; i++) {
		int f = w.labels[i][5] - '0';

		assert_true(f == 0 || f == 1);
		assert_true(w.times[i] > last[f]);
		last[f] = w.times[i];
	}
	perf_session__delete(s);
	remove_dir(dir);
}

struct monotonic {
	struct perf_tool tool;
	uint64_t last, n, backwards;
};

static int check_monotonic(struct perf_tool *tool, struct perf_session *s,
			   const struct perf_event_header *rec, struct perf_sample *sample,
			   struct evsel *evsel)
{
	struct monotonic *m = (struct monotonic *)tool;

	m->backwards += sample->time < m->last;
	m->last = sample->time;
	m->n++;
	return 0;
}

/* Files longer than a turn (2 MB) are read in turns, and what is final
 * delivered between them: the merge stays in time order. */
static void directory_read_in_turns(void **state)
{
	char *dir = make_dir(false), *err = NULL;
	struct monotonic m = { .tool = { .sample = check_monotonic, .ordered = true } };
	struct buf ring[2] = { { 0 }, { 0 } };
	const uint64_t n = 200000;	/* 40-byte samples: 8 MB in all */
	struct perf_session *s;

	for (uint64_t t = 100; t < 100 + n; t++)
		sample(&ring[t % 2], t, 100);
	write_file(dir, "data.0", &ring[0]);
	write_file(dir, "data.1", &ring[1]);
	s = perf_session__open(dir, false, &err);
	assert_non_null(s);
	assert_int_equal(perf_session__process(s, &m.tool), 0);
	assert_int_equal(m.n, n + 1);	/* and DIR/data's one */
	assert_int_equal(m.backwards, 0);
	assert_int_equal(s->stats.nr_unordered, 0);
	perf_session__delete(s);
	remove_dir(dir);
	free(ring[0].p);
	free(ring[1].p);
}

/* A directory without its data file is no recording. */
static void directory_without_data_fails(void **state)
{
	char *dir = strdup("/tmp/pcl-test-dir-XXXXXX"), *err = NULL;

	assert_non_null(mkdtemp(dir));
	assert_null(perf_session__open(dir, false, &err));
	assert_non_null(strstr(err, "/data: No such file or directory"));
	free(err);
	rmdir(dir);
	free(dir);
}

/* ---- per-kind callbacks and the machine ---- */

/* samples with a callchain; side records carry the same trailer */
#define ST_CC (ST | PERF_SAMPLE_CALLCHAIN)
#define WORKER 5
#define MAP_START 0x400000ULL

struct kinds {
	struct perf_tool tool;
	int order[32];			/* record types as the kind callbacks saw them */
	int nr;
	int raw[32];			/* ... as the raw callback saw them */
	int nr_raw;
	uint64_t sample_times[8];
	int nr_samples;
	bool comm_known_in_comm, comm_known_in_raw;
	bool map_known_in_mmap;
	bool dead_in_exit;
	struct addr_location sample_al;	/* its pointers die with the session */
	char sample_comm[16], sample_dso[64];
	int nr_frames;
	struct callchain_frame frames[8];
	int max_stack;
	struct session_stats stats;	/* the session's, once read */
};

static struct kinds *kinds_of(struct perf_tool *tool)
{
	return (struct kinds *)tool;
}

static void trailer(struct buf *b, uint64_t time)
{
	b_u32(b, WORKER);
	b_u32(b, WORKER);
	b_u64(b, time);
	b_u64(b, 100);
}

/* a record's string: NUL-terminated, zero-padded to 8 bytes */
static void rec_str(struct buf *b, const char *str)
{
	size_t n = strlen(str) + 1;

	b_bytes(b, str, n);
	b_zero(b, ((n + 7) & ~(size_t)7) - n);
}

static void comm_record(struct buf *b, const char *comm, uint64_t time)
{
	size_t r = rec_begin(b, PERF_RECORD_COMM, 0);

	b_u32(b, WORKER);
	b_u32(b, WORKER);
	rec_str(b, comm);
	trailer(b, time);
	rec_end(b, r);
}

static void mmap_record(struct buf *b, uint64_t time)
{
	size_t r = rec_begin(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);

	b_u32(b, WORKER);
	b_u32(b, WORKER);
	b_u64(b, MAP_START);
	b_u64(b, 0x1000);
	b_u64(b, 0);
	rec_str(b, "/nonexistent/pcl-test-worker");
	trailer(b, time);
	rec_end(b, r);
}

static void exit_record(struct buf *b, uint64_t time)
{
	size_t r = rec_begin(b, PERF_RECORD_EXIT, 0);

	b_u32(b, WORKER);
	b_u32(b, 1);
	b_u32(b, WORKER);
	b_u32(b, 1);
	b_u64(b, time);
	trailer(b, time);
	rec_end(b, r);
}

/* a sample in the worker's map, called from two frames above it */
static void chain_sample(struct buf *b, uint64_t time)
{
	size_t r = rec_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);

	b_u64(b, MAP_START + time);
	b_u32(b, WORKER);
	b_u32(b, WORKER);
	b_u64(b, time);
	b_u64(b, 100);
	b_u64(b, 4);
	b_u64(b, PERF_CONTEXT_USER);
	b_u64(b, MAP_START + time);
	b_u64(b, MAP_START + 0x800);
	b_u64(b, 0x7fff0000);	/* no map there */
	rec_end(b, r);
}

/* COMM, MMAP and samples out of time order in one round, then EXIT */
static char *worker_stream(void)
{
	struct buf b = { 0 };
	struct t_attr a = { PERF_TYPE_SOFTWARE, 0, 1, ST_CC, 0, 1ULL << 18 };
	size_t r;
	char *path;

	pipe_header(&b);
	r = rec_begin(&b, PERF_RECORD_HEADER_ATTR, 0);
	b_attr(&b, &a);
	b_u64(&b, 100);
	rec_end(&b, r);
	comm_record(&b, "worker", 1);
	mmap_record(&b, 2);
	chain_sample(&b, 30);
	chain_sample(&b, 10);
	round_end(&b);
	exit_record(&b, 40);
	round_end(&b);
	path = b_to_file(&b);
	free(b.p);
	return path;
}

static bool worker_named(struct perf_session *s)
{
	struct thread *t = s->machine ? machine__find_thread(s->machine, WORKER, WORKER) : NULL;

	return t && !strcmp(t->comm, "worker");
}

static void note(struct kinds *k, const struct perf_event_header *rec)
{
	if (k->nr < 32)
		k->order[k->nr++] = (int)rec->type;
}

static int on_raw(struct perf_tool *tool, struct perf_session *s,
		  const struct perf_event_header *rec, struct perf_sample *sample,
		  struct evsel *evsel, uint64_t off)
{
	struct kinds *k = kinds_of(tool);

	if (k->nr_raw < 32)
		k->raw[k->nr_raw++] = (int)rec->type;
	if (rec->type == PERF_RECORD_COMM)
		k->comm_known_in_raw = worker_named(s);
	return 0;
}

static int on_comm(struct perf_tool *tool, struct perf_session *s,
		   const struct perf_event_header *rec, struct perf_sample *sample,
		   struct evsel *evsel)
{
	note(kinds_of(tool), rec);
	kinds_of(tool)->comm_known_in_comm = worker_named(s);
	return 0;
}

static int on_mmap(struct perf_tool *tool, struct perf_session *s,
		   const struct perf_event_header *rec, struct perf_sample *sample,
		   struct evsel *evsel)
{
	struct perf_sample at = { .pid = WORKER, .tid = WORKER, .ip = MAP_START + 8,
				  .cpumode = PERF_RECORD_MISC_USER };
	struct addr_location al;

	note(kinds_of(tool), rec);
	kinds_of(tool)->map_known_in_mmap = perf_session__resolve_sample(s, &at, &al) &&
					    al.map && al.map->start == MAP_START;
	return 0;
}

static int on_exit_record(struct perf_tool *tool, struct perf_session *s,
		   const struct perf_event_header *rec, struct perf_sample *sample,
		   struct evsel *evsel)
{
	struct thread *t = machine__find_thread(s->machine, WORKER, WORKER);

	note(kinds_of(tool), rec);
	kinds_of(tool)->dead_in_exit = t && t->dead;
	return 0;
}

static int on_sample(struct perf_tool *tool, struct perf_session *s,
		     const struct perf_event_header *rec, struct perf_sample *sample,
		     struct evsel *evsel)
{
	struct kinds *k = kinds_of(tool);

	note(k, rec);
	assert_non_null(evsel);
	if (k->nr_samples < 8)
		k->sample_times[k->nr_samples++] = sample->time;
	perf_session__resolve_sample(s, sample, &k->sample_al);
	snprintf(k->sample_comm, sizeof(k->sample_comm), "%s", k->sample_al.thread->comm);
	snprintf(k->sample_dso, sizeof(k->sample_dso), "%s",
		 k->sample_al.dso ? k->sample_al.dso->long_name : "");
	k->nr_frames = perf_session__resolve_callchain(s, evsel, sample, k->sample_al.thread,
						       k->max_stack, k->frames, 8);
	return 0;
}

static void run_worker(struct kinds *k, bool with_machine)
{
	char *path = worker_stream(), *err = NULL;
	struct perf_session *s = perf_session__open(path, false, &err);

	assert_non_null(s);
	if (with_machine)
		assert_non_null(perf_session__new_machine(s, NULL, NULL, false));
	assert_int_equal(perf_session__process(s, &k->tool), 0);
	k->stats = s->stats;
	perf_session__delete(s);
	unlink(path);
	free(path);
}

static struct kinds worker_tool(void)
{
	return (struct kinds){ .tool = { .comm = on_comm, .mmap = on_mmap, .exit = on_exit_record,
					 .sample = on_sample, .ordered = true },
			       .max_stack = 127 };
}

static void kind_callbacks_see_their_records(void **state)
{
	struct kinds k = worker_tool();

	run_worker(&k, true);
	assert_int_equal(k.nr, 5);
	assert_int_equal(k.order[0], PERF_RECORD_COMM);
	assert_int_equal(k.order[1], PERF_RECORD_MMAP);
	assert_int_equal(k.order[2], PERF_RECORD_SAMPLE);
	assert_int_equal(k.order[3], PERF_RECORD_SAMPLE);
	assert_int_equal(k.order[4], PERF_RECORD_EXIT);
	assert_int_equal(k.nr_samples, 2);
	assert_int_equal(k.sample_times[0], 10);	/* put back in time order */
	assert_int_equal(k.sample_times[1], 30);
}

static void machine_takes_records_before_the_callback(void **state)
{
	struct kinds k = worker_tool();

	k.tool.record = on_raw;
	run_worker(&k, true);
	assert_false(k.comm_known_in_raw);	/* the raw view comes first */
	assert_true(k.comm_known_in_comm);
	assert_true(k.map_known_in_mmap);
	assert_true(k.dead_in_exit);

	/* a tool may ask to see a kind before the machine takes it */
	k = worker_tool();
	k.tool.before_machine[PERF_RECORD_EXIT] = true;
	k.tool.before_machine[PERF_RECORD_COMM] = true;
	run_worker(&k, true);
	assert_false(k.dead_in_exit);
	assert_false(k.comm_known_in_comm);
	assert_true(k.map_known_in_mmap);
}

static int count_sample(struct perf_tool *tool, struct perf_session *s,
			const struct perf_event_header *rec, struct perf_sample *sample,
			struct evsel *evsel)
{
	struct kinds *k = kinds_of(tool);

	if (k->nr_samples < 8)
		k->sample_times[k->nr_samples++] = sample->time;
	return 0;
}

static void raw_callback_sees_every_record_in_file_order(void **state)
{
	const int file_order[] = {
		PERF_RECORD_HEADER_ATTR, PERF_RECORD_COMM, PERF_RECORD_MMAP, PERF_RECORD_SAMPLE,
		PERF_RECORD_SAMPLE, PERF_RECORD_FINISHED_ROUND, PERF_RECORD_EXIT,
		PERF_RECORD_FINISHED_ROUND,
	};
	struct kinds k = { .tool = { .record = on_raw, .sample = count_sample,
				     .ordered = false } };

	run_worker(&k, false);	/* no machine: nothing is fed, samples still come */
	assert_int_equal(k.nr_raw, 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(k.raw[i], file_order[i]);
	assert_int_equal(k.nr_samples, 2);
}

static void unordered_mode_keeps_the_file_order(void **state)
{
	struct kinds k = { .tool = { .sample = count_sample, .ordered = false } };

	run_worker(&k, false);
	assert_int_equal(k.nr_samples, 2);
	assert_int_equal(k.sample_times[0], 30);
	assert_int_equal(k.sample_times[1], 10);
}

static bool ignore_all(struct perf_tool *tool, struct perf_session *s, struct evsel *evsel)
{
	return true;
}

/* Ignored samples are counted, not delivered, and their times noted. */
static void ignored_samples_leave_their_time_range(void **state)
{
	struct kinds k = { .tool = { .sample = count_sample, .ignores_samples = ignore_all,
				     .ordered = true } };

	run_worker(&k, false);
	assert_int_equal(k.nr_samples, 0);
	assert_int_equal(k.stats.nr_records[PERF_RECORD_SAMPLE], 2);
	assert_int_equal(k.stats.ignored_first_time, 10);
	assert_int_equal(k.stats.ignored_last_time, 30);

	k = (struct kinds){ .tool = { .sample = count_sample, .ordered = true } };
	run_worker(&k, false);
	assert_int_equal(k.nr_samples, 2);
	assert_int_equal(k.stats.ignored_first_time, 0);
	assert_int_equal(k.stats.ignored_last_time, 0);
}

static void resolve_sample_and_callchain(void **state)
{
	struct kinds k = worker_tool();

	run_worker(&k, true);
	/* the last sample (time 30): its thread, map and DSO-relative address */
	assert_non_null(k.sample_al.thread);
	assert_string_equal(k.sample_comm, "worker");
	assert_non_null(k.sample_al.map);
	assert_string_equal(k.sample_dso, "/nonexistent/pcl-test-worker");
	assert_int_equal(k.sample_al.addr, 30);
	assert_null(k.sample_al.sym);
	assert_int_equal(k.sample_al.cpumode, PERF_RECORD_MISC_USER);
	/* the context marker is no frame; an address without a map still is */
	assert_int_equal(k.nr_frames, 3);
	assert_int_equal(k.frames[0].ip, MAP_START + 30);
	assert_int_equal(k.frames[1].ip, MAP_START + 0x800);
	assert_int_equal(k.frames[1].al.addr, 0x800);
	assert_int_equal(k.frames[2].ip, 0x7fff0000);
	assert_null(k.frames[2].al.map);

	k = worker_tool();
	k.max_stack = 2;
	run_worker(&k, true);
	assert_int_equal(k.nr_frames, 2);
}

/* An LBR call stack gives the chain's user part: where the last branch
 * went, then where each branch came from, after the kernel part; other
 * branch stacks leave the frame-pointer chain alone. */
static void lbr_call_stack_chain(void **state)
{
	struct machine *m = machine__new();
	struct thread *t;
	const uint64_t chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010, PERF_CONTEXT_USER,
				   0x401010, 0x402020 };
	const struct perf_branch_entry lbr[] = {
		{ .from = 0x402000, .to = 0x401000 }, { .from = 0x403000, .to = 0x402000 },
	};
	struct perf_sample sample = {
		.callchain = chain, .callchain_nr = 5, .branch_nr = 2, .branch_entries = lbr,
	};
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK,
	};
	struct callchain_request req = { .max_stack = 127 };
	struct callchain_frame frames[8];
	int n;

	(void)state;
	machine__process_mmap(m, 10, 10, 0x400000, 0x10000, 0, "/nonexistent/lbr", 2, NULL, 0);
	t = machine__findnew_thread(m, 10, 10);
	n = perf_sample__resolve_callchain(&sample, &attr, m, t, &req, frames, 8);
	assert_int_equal(n, 4);
	assert_int_equal(frames[0].ip, 0xffffffff81000010);
	assert_int_equal(frames[1].ip, 0x401000);
	assert_int_equal(frames[2].ip, 0x402000);
	assert_int_equal(frames[3].ip, 0x403000);
	assert_non_null(frames[3].al.map);
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	n = perf_sample__resolve_callchain(&sample, &attr, m, t, &req, frames, 8);
	assert_int_equal(n, 3);
	assert_int_equal(frames[1].ip, 0x401010);
	assert_int_equal(frames[2].ip, 0x402020);
	machine__delete(m);
}

/* Call i of the stitching tests' stacks: from 0x401000 + 0x100 * i. */
static struct perf_branch_entry call_entry(int i)
{
	return (struct perf_branch_entry){ .from = 0x401000 + 0x100 * (uint64_t)i,
					   .to = 0x401080 + 0x100 * (uint64_t)i };
}

/* An LBR stack of calls first..last (newest first), its hardware index
 * last's ring slot, resolved with --stitch-lbr for a ring of depth 4. */
static int stitch_sample(struct machine *m, struct thread *t, int first, int last,
			 uint64_t hw_idx, struct callchain_frame *frames)
{
	const uint64_t chain[] = { PERF_CONTEXT_USER, 0x409000 };
	struct perf_branch_entry lbr[8];
	struct perf_sample sample = {
		.callchain = chain, .callchain_nr = 2, .branch_nr = (uint64_t)(last - first + 1),
		.branch_entries = lbr, .branch_hw_idx = hw_idx, .branch_has_hw_idx = true,
	};
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
				      PERF_SAMPLE_BRANCH_HW_INDEX,
	};
	struct callchain_request req = { .max_stack = 127, .lbr_depth = 4 };

	for (int i = last; i >= first; i--)
		lbr[last - i] = call_entry(i);
	return perf_sample__resolve_callchain(&sample, &attr, m, t, &req, frames, 16);
}

/* --stitch-lbr: a stack cut at the LBR depth that goes on from its
 * thread's last one gets the frames that one held below it, and keeps
 * them while the stacks go on; another thread's stacks are its own; a
 * stack that does not go on (perf's sums say so) drops them. */
static void lbr_stitching(void **state)
{
	struct machine *m = machine__new();
	struct thread *t, *u;
	struct callchain_frame f[16];
	int n;

	(void)state;
	machine__process_mmap(m, 10, 10, 0x400000, 0x10000, 0, "/nonexistent/lbr", 2, NULL, 0);
	t = machine__findnew_thread(m, 10, 10);
	u = machine__findnew_thread(m, 10, 11);
	/* calls 1-4 fill the ring: slots 0-3 */
	assert_int_equal(stitch_sample(m, t, 1, 4, 3, f), 5);
	/* another thread in between, a stack of its own */
	assert_int_equal(stitch_sample(m, u, 1, 2, 1, f), 3);
	/* calls 1-6: 5 and 6 took the slots of 1 and 2, which come back */
	n = stitch_sample(m, t, 3, 6, 1, f);
	assert_int_equal(n, 7);
	assert_int_equal(f[0].ip, call_entry(6).to);
	for (int i = 1; i < n; i++)
		assert_int_equal(f[i].ip, call_entry(7 - i).from);
	assert_non_null(f[6].al.map);
	/* calls 1-8: 3 and 4 from the last stack, 1 and 2 kept */
	n = stitch_sample(m, t, 5, 8, 3, f);
	assert_int_equal(n, 9);
	for (int i = 1; i < n; i++)
		assert_int_equal(f[i].ip, call_entry(9 - i).from);
	/* u's stack went on from its own: nothing of t's */
	assert_int_equal(stitch_sample(m, u, 1, 3, 2, f), 4);
	/* calls 5-8 returned, then 9-12 made, in the same slots: nothing
	 * the same where the last stack had it, nothing stitched */
	assert_int_equal(stitch_sample(m, t, 9, 12, 3, f), 5);
	/* calls 9-11 of that (stitched, nothing to add), then 12-14 over
	 * them: the stack's oldest is the last one's newest (11, slot 2),
	 * just above its own newest (14, slot 1), which perf's sums take for
	 * a whole ring away: not stitched */
	assert_int_equal(stitch_sample(m, t, 9, 11, 2, f), 4);
	assert_int_equal(stitch_sample(m, t, 11, 14, 1, f), 5);
	machine__delete(m);
}

/* perf reads someone else's recording only with -f (force). */
static void another_users_file_needs_force(void **state)
{
	struct buf b = { 0 };
	struct perf_session *s;
	char *path, *err = NULL;

	(void)state;
	if (geteuid() != 0)
		skip();		/* only root can give a file away */
	pipe_header(&b);
	attr_record(&b, 0, 100);
	round_end(&b);
	path = b_to_file(&b);
	assert_int_equal(chown(path, 1, 1), 0);
	assert_null(perf_session__open(path, false, &err));
	assert_non_null(strstr(err, "not owned by current user or root (use -f to override)"));
	free(err);
	s = perf_session__open(path, true, &err);
	assert_non_null(s);
	perf_session__delete(s);
	assert_int_equal(chown(path, 0, 0), 0);
	s = perf_session__open(path, false, &err);
	assert_non_null(s);
	perf_session__delete(s);
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
		cmocka_unit_test(flush_before_keeps_the_rest),
		cmocka_unit_test(runs_merge_in_time_then_arrival_order),
		cmocka_unit_test(many_records_span_chunks),
		cmocka_unit_test(pipe_native),
		cmocka_unit_test(pipe_swapped),
		cmocka_unit_test(compressed_records),
		cmocka_unit_test(corrupt_compressed),
		cmocka_unit_test(empty_pipe),
		cmocka_unit_test(directory_merges_its_files_in_time_order),
		cmocka_unit_test(directory_files_are_zstd_streams_of_their_own),
		cmocka_unit_test(directory_in_file_order),
		cmocka_unit_test(directory_read_in_turns),
		cmocka_unit_test(directory_without_data_fails),
		cmocka_unit_test(kind_callbacks_see_their_records),
		cmocka_unit_test(machine_takes_records_before_the_callback),
		cmocka_unit_test(raw_callback_sees_every_record_in_file_order),
		cmocka_unit_test(unordered_mode_keeps_the_file_order),
		cmocka_unit_test(ignored_samples_leave_their_time_range),
		cmocka_unit_test(resolve_sample_and_callchain),
		cmocka_unit_test(lbr_call_stack_chain),
		cmocka_unit_test(lbr_stitching),
		cmocka_unit_test(another_users_file_needs_force),
	};
	return cmocka_run_group_tests_name("session", tests, NULL, NULL);
}
