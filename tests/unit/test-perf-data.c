/* Unit tests for the perf.data decoder: header, attrs, features, records
 * and samples, in both byte orders, and what happens with torn, killed
 * and malformed files.  Inputs are synthesised byte by byte. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "perf-data-builder.h"
#include "core/data/perf-record.h"
#include "core/data/session.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)
#define FLAG_DISABLED (1ULL << 0)
#define FLAG_SAMPLE_ID_ALL (1ULL << 18)

enum variant { NORMAL, KILLED, BAD_RECORD_SIZE, BAD_ATTRS, UNKNOWN_TYPES };

static void comm_record(struct buf *b, uint32_t pid, const char *comm, uint64_t time,
			uint64_t id, uint32_t cpu)
{
	size_t r = rec_begin(b, PERF_RECORD_COMM, 0);
	char name[16] = { 0 };

	b_u32(b, pid);
	b_u32(b, pid);
	strncpy(name, comm, sizeof(name) - 1);
	b_bytes(b, name, 16);
	/* trailer: TID, TIME, ID, CPU */
	b_u32(b, pid);
	b_u32(b, pid);
	b_u64(b, time);
	b_u64(b, id);
	b_u32(b, cpu);
	b_u32(b, 0);
	rec_end(b, r);
}

static void sample_record(struct buf *b, uint64_t ip, uint32_t pid, uint64_t time, uint64_t id,
			  uint32_t cpu, uint64_t period)
{
	size_t r = rec_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);

	b_u64(b, ip);
	b_u32(b, pid);
	b_u32(b, pid + 1);
	b_u64(b, time);
	b_u64(b, id);
	b_u32(b, cpu);
	b_u32(b, 0);
	b_u64(b, period);
	b_u64(b, 3);			/* callchain: marker, ip, caller */
	b_u64(b, PERF_CONTEXT_USER);
	b_u64(b, ip);
	b_u64(b, ip + 0x100);
	rec_end(b, r);
}

/* A two-event file: ids 11,12 -> event 0, 21,22 -> event 1. */
static struct buf build(bool be, enum variant v)
{
	struct buf b = { .be = be };
	struct t_attr a0 = { PERF_TYPE_SOFTWARE, 0, 4000, ST, PERF_FORMAT_ID,
			     FLAG_DISABLED | FLAG_SAMPLE_ID_ALL };
	struct t_attr a1 = { PERF_TYPE_SOFTWARE, 9, 1, ST, PERF_FORMAT_ID, FLAG_SAMPLE_ID_ALL };
	size_t ids_off, attrs_off, data_off, data_end, table, payload;
	uint64_t ids[2][2] = { { 11, 12 }, { 21, 22 } };
	const int feats[] = { HEADER_HOSTNAME, HEADER_NRCPUS, HEADER_CMDLINE, HEADER_EVENT_DESC };

	b_u64(&b, 0x32454c4946524550ULL);	/* "PERFILE2" in the writer's order */
	b_u64(&b, 104);
	b_u64(&b, T_ATTR_SIZE + 16);
	b_zero(&b, 104 - 24);			/* sections and bitmap patched below */

	ids_off = b.len;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			b_u64(&b, ids[i][j]);
	attrs_off = b.len;
	b_attr(&b, &a0);
	b_u64(&b, ids_off);
	b_u64(&b, 16);
	b_attr(&b, &a1);
	b_u64(&b, v == BAD_ATTRS ? 1ULL << 40 : ids_off + 16);
	b_u64(&b, 16);

	data_off = b.len;
	comm_record(&b, 42, "worker", 0, 11, 0);
	sample_record(&b, 0x401000, 42, 300, 11, 0, 4000);
	sample_record(&b, 0x402000, 42, 100, 21, 1, 1);
	if (v == UNKNOWN_TYPES) {
		size_t r = rec_begin(&b, 50, 0);	/* a kernel type from the future */
		b_u64(&b, 7);
		rec_end(&b, r);
		r = rec_begin(&b, 90, 0);		/* a tool type from the future */
		rec_end(&b, r);
	}
	if (v == BAD_RECORD_SIZE) {
		b_u32(&b, PERF_RECORD_SAMPLE);
		b_u16(&b, 0);
		b_u16(&b, 4);
	}
	{
		size_t r = rec_begin(&b, PERF_RECORD_FINISHED_ROUND, 0);
		rec_end(&b, r);
	}
	sample_record(&b, 0x403000, 42, 200, 12, 0, 4000);
	data_end = b.len;

	/* header sections */
	b_put_u64(&b, 24, attrs_off);
	b_put_u64(&b, 32, 2 * (T_ATTR_SIZE + 16));
	b_put_u64(&b, 40, data_off);
	b_put_u64(&b, 48, v == KILLED ? 0 : data_end - data_off);
	if (v == KILLED)
		return b;

	{
		uint64_t bits = 0;

		for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
			bits |= 1ULL << feats[i];
		b_put_u64(&b, 72, bits);
	}
	table = b.len;
	b_zero(&b, 16 * 4);
	for (size_t i = 0; i < 4; i++) {
		payload = b.len;
		switch (feats[i]) {
		case HEADER_HOSTNAME:
			b_str(&b, "testhost");
			break;
		case HEADER_NRCPUS:
			b_u32(&b, 4);
			b_u32(&b, 2);
			break;
		case HEADER_CMDLINE:
			b_u32(&b, 2);
			b_str(&b, "perf");
			b_str(&b, "record");
			break;
		case HEADER_EVENT_DESC:
			b_u32(&b, 2);
			b_u32(&b, T_ATTR_SIZE);
			b_attr(&b, &a0);
			b_u32(&b, 2);
			b_str(&b, "cpu-clock:u");
			b_u64(&b, 11);
			b_u64(&b, 12);
			b_attr(&b, &a1);
			b_u32(&b, 2);
			b_str(&b, "dummy:HG");
			b_u64(&b, 21);
			b_u64(&b, 22);
			break;
		}
		b_put_u64(&b, table + 16 * i, payload);
		b_put_u64(&b, table + 16 * i + 8, b.len - payload);
	}
	return b;
}

/* Collected by the test tool. */
struct seen {
	struct perf_tool tool;
	int nr_samples, nr_comms, nr_rounds;
	uint64_t times[16], ips[16], chain_last[16];
	uint32_t pids[16], tids[16], cpus[16];
	const char *events[16];
	char comm[16];
};

static int collect(struct perf_tool *tool, struct perf_session *s,
		   const struct perf_event_header *rec, struct perf_sample *sample,
		   struct evsel *evsel, uint64_t off)
{
	struct seen *w = (struct seen *)tool;

	if (rec->type == PERF_RECORD_SAMPLE && w->nr_samples < 16) {
		int i = w->nr_samples++;

		w->times[i] = sample->time;
		w->ips[i] = sample->ip;
		w->pids[i] = sample->pid;
		w->tids[i] = sample->tid;
		w->cpus[i] = sample->cpu;
		w->events[i] = evsel ? evsel->name : NULL;
		w->chain_last[i] = sample->callchain_nr ? sample->callchain[sample->callchain_nr - 1] : 0;
	} else if (rec->type == PERF_RECORD_COMM) {
		const struct perf_rec_comm *c = (const void *)rec;

		w->nr_comms++;
		snprintf(w->comm, sizeof(w->comm), "%s", c->comm);
	} else if (rec->type == PERF_RECORD_FINISHED_ROUND) {
		w->nr_rounds++;
	}
	return 0;
}

static struct perf_session *open_buf(const struct buf *b, char **path, char **err)
{
	struct perf_session *s;

	*path = b_to_file(b);
	s = perf_session__open(*path, false, err);
	return s;
}

static void close_all(struct perf_session *s, char *path, struct buf *b)
{
	perf_session__delete(s);
	unlink(path);
	free(path);
	free(b->p);
}

static void check_header(bool be)
{
	struct buf b = build(be, NORMAL);
	char *path, *err = NULL;
	struct perf_session *s = open_buf(&b, &path, &err);
	struct perf_header *h;

	assert_non_null(s);
	h = &s->header;
	assert_int_equal(h->needs_swap, be);
	assert_int_equal(h->nr_attrs, 2);
	assert_int_equal(h->attrs[0].attr.sample_type, ST);
	assert_int_equal(h->attrs[0].attr.sample_period, 4000);
	assert_true(h->attrs[0].attr.sample_id_all);
	assert_true(h->attrs[0].attr.disabled);
	assert_false(h->attrs[1].attr.disabled);
	assert_int_equal(h->attrs[1].nr_ids, 2);
	assert_int_equal(h->attrs[1].ids[1], 22);
	assert_string_equal(h->hostname, "testhost");
	assert_int_equal(h->nr_cpus_avail, 4);
	assert_int_equal(h->nr_cpus_online, 2);
	assert_int_equal(h->nr_cmdline, 2);
	assert_string_equal(h->cmdline[1], "record");
	assert_true(perf_header__has_feat(h, HEADER_EVENT_DESC));
	assert_false(perf_header__has_feat(h, HEADER_BUILD_ID));
	assert_string_equal(s->evlist.first->name, "cpu-clock:u");
	assert_string_equal(s->evlist.last->name, "dummy:HG");
	assert_ptr_equal(perf_session__evsel_by_id(s, 22), s->evlist.last);
	assert_ptr_equal(perf_session__evsel_by_id(s, 11), s->evlist.first);
	assert_null(perf_session__evsel_by_id(s, 99));
	close_all(s, path, &b);
}

static void header_native(void **state) { check_header(false); }
static void header_swapped(void **state) { check_header(true); }

static void check_records(bool be)
{
	struct buf b = build(be, NORMAL);
	char *path, *err = NULL;
	struct perf_session *s = open_buf(&b, &path, &err);
	struct seen w = { .tool = { .record = collect, .ordered = true } };

	assert_non_null(s);
	assert_int_equal(perf_session__process(s, &w.tool), 0);
	assert_int_equal(w.nr_comms, 1);
	assert_string_equal(w.comm, "worker");
	assert_int_equal(w.nr_rounds, 1);
	assert_int_equal(w.nr_samples, 3);
	/* time order across CPUs: 100 (cpu 1), 200 (next round), 300 */
	assert_int_equal(w.times[0], 100);
	assert_int_equal(w.times[1], 200);
	assert_int_equal(w.times[2], 300);
	assert_int_equal(w.ips[0], 0x402000);
	assert_int_equal(w.cpus[0], 1);
	assert_int_equal(w.pids[2], 42);
	assert_int_equal(w.tids[2], 43);
	assert_int_equal(w.chain_last[2], 0x401100);
	assert_string_equal(w.events[0], "dummy:HG");
	assert_string_equal(w.events[1], "cpu-clock:u");
	assert_false(s->truncated);
	close_all(s, path, &b);
}

static void records_native(void **state) { check_records(false); }
static void records_swapped(void **state) { check_records(true); }

static void torn_last_record(void **state)
{
	struct buf b = build(false, KILLED);
	char *path, *err = NULL;
	struct perf_session *s;
	struct seen w = { .tool = { .record = collect, .ordered = true } };
	FILE *warn = tmpfile();
	char msg[512] = "";

	b.len -= 12;		/* the last sample loses its tail */
	s = open_buf(&b, &path, &err);
	assert_non_null(s);
	s->warn = warn;
	assert_int_equal(perf_session__process(s, &w.tool), 0);
	assert_true(s->truncated);
	assert_int_equal(w.nr_samples, 2);
	rewind(warn);
	assert_true(fread(msg, 1, sizeof(msg) - 1, warn) > 0);
	assert_non_null(strstr(msg, "data size in the header is 0"));
	assert_non_null(strstr(msg, "torn last record"));
	fclose(warn);
	close_all(s, path, &b);
}

static void killed_recording(void **state)
{
	struct buf b = build(true, KILLED);
	char *path, *err = NULL;
	struct perf_session *s = open_buf(&b, &path, &err);
	struct seen w = { .tool = { .record = collect, .ordered = true } };

	assert_non_null(s);
	s->warn = fopen("/dev/null", "w");
	assert_int_equal(perf_session__process(s, &w.tool), 0);
	assert_int_equal(w.nr_samples, 3);	/* all of them, no feature table needed */
	assert_false(s->truncated);
	fclose(s->warn);
	close_all(s, path, &b);
}

/* Opening b fails with an error saying why; frees b. */
static void expect_open_error(struct buf *b, const char *why)
{
	char *path, *err = NULL;
	struct perf_session *s = open_buf(b, &path, &err);

	assert_null(s);
	assert_non_null(strstr(err, why));
	free(err);
	unlink(path);
	free(path);
	free(b->p);
}

static void garbage_file(void **state)
{
	struct buf b = { 0 };

	for (int i = 0; i < 500; i++)
		b_u32(&b, (uint32_t)i * 2654435761u);
	expect_open_error(&b, "bad magic at offset 0");
}

static void tiny_file(void **state)
{
	struct buf b = { 0 };

	b_u64(&b, 0x32454c4946524550ULL);
	expect_open_error(&b, "too small");
}

static void bad_attr_ids(void **state)
{
	struct buf b = build(false, BAD_ATTRS);

	expect_open_error(&b, "bad ids section of attr 1 at offset");
}

static void bad_record_size(void **state)
{
	struct buf b = build(false, BAD_RECORD_SIZE);
	char *path, *err = NULL;
	struct perf_session *s = open_buf(&b, &path, &err);
	struct seen w = { .tool = { .record = collect, .ordered = true } };

	assert_non_null(s);
	assert_int_equal(perf_session__process(s, &w.tool), -1);
	assert_non_null(strstr(s->err, "invalid size 4"));
	assert_non_null(strstr(s->err, "offset 0x"));
	close_all(s, path, &b);
}

static void unknown_types_skipped(void **state)
{
	struct buf b = build(false, UNKNOWN_TYPES);
	char *path, *err = NULL;
	struct perf_session *s = open_buf(&b, &path, &err);
	struct seen w = { .tool = { .record = collect, .ordered = true } };

	assert_non_null(s);
	assert_int_equal(perf_session__process(s, &w.tool), 0);
	assert_int_equal(s->stats.nr_unknown, 2);
	assert_int_equal(w.nr_samples, 3);
	close_all(s, path, &b);
}

/* ---- samples and records in isolation ---- */

static struct perf_event_header *mk(struct buf *b, size_t r)
{
	rec_end(b, r);
	return (struct perf_event_header *)(void *)b->p;
}

static void sample_read_group_regs_stack(void **state)
{
	struct perf_event_attr a = { 0 };
	struct buf b = { 0 };
	struct perf_sample s;
	const char *why = NULL;
	size_t r;
	uint64_t *al;

	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_READ | PERF_SAMPLE_REGS_USER |
			PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	a.sample_regs_user = 0x3;	/* AX, BX */
	r = rec_begin(&b, PERF_RECORD_SAMPLE, 0);
	b_u64(&b, 77);			/* identifier */
	b_u64(&b, 2);			/* group nr */
	b_u64(&b, 1000);		/* time enabled */
	b_u64(&b, 5);			/* value, id */
	b_u64(&b, 77);
	b_u64(&b, 6);
	b_u64(&b, 78);
	b_u64(&b, 2);			/* regs abi 64 */
	b_u64(&b, 0xaa);
	b_u64(&b, 0xbb);
	b_u64(&b, 16);			/* stack size, data, dyn size */
	b_u64(&b, 0x1111);
	b_u64(&b, 0x2222);
	b_u64(&b, 8);
	b_u64(&b, 0x0003000200000001ULL);	/* weight struct */
	b_u64(&b, 0x42);
	/* 8-aligned copy for the decoder */
	al = malloc(b.len);
	memcpy(al, mk(&b, r), b.len);
	assert_int_equal(perf_sample__parse(&a, (void *)al, &s, &why), 0);
	assert_int_equal(s.id, 77);
	assert_int_equal(s.read.nr, 2);
	assert_int_equal(s.read.time_enabled, 1000);
	assert_int_equal(s.read.values[s.read.stride], 6);
	assert_int_equal(s.user_regs.abi, 2);
	assert_int_equal(s.user_regs.regs[1], 0xbb);
	assert_int_equal(s.user_stack.size, 16);
	assert_int_equal(s.user_stack.dyn_size, 8);
	assert_int_equal(s.weight, 1);
	assert_int_equal(s.ins_lat, 2);
	assert_int_equal(s.p_stage_cyc, 3);
	assert_int_equal(s.data_src, 0x42);
	/* cut short: an error, not a read past the end */
	((struct perf_event_header *)(void *)al)->size = 40;
	assert_int_equal(perf_sample__parse(&a, (void *)al, &s, &why), -1);
	assert_non_null(strstr(why, "past the end"));
	free(al);
	free(b.p);
}

static void sample_raw_alignment(void **state)
{
	struct perf_event_attr a = { .sample_type = PERF_SAMPLE_RAW };
	struct buf b = { 0 };
	struct perf_sample s;
	const char *why = NULL;
	size_t r = rec_begin(&b, PERF_RECORD_SAMPLE, 0);
	uint64_t al[4];

	b_u32(&b, 6);			/* 4 + 6 is not a multiple of 8 */
	b_zero(&b, 12);
	memcpy(al, mk(&b, r), b.len);
	assert_int_equal(perf_sample__parse(&a, (void *)al, &s, &why), -1);
	assert_non_null(strstr(why, "raw data size"));
	free(b.p);
}

static void trailer_and_ids(void **state)
{
	struct perf_event_attr a = { .sample_id_all = 1,
				     .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
						    PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER };
	struct buf b = { 0 };
	struct perf_sample s;
	const char *why = NULL;
	size_t r = rec_begin(&b, PERF_RECORD_EXIT, 0);
	uint64_t al[8];

	b_u32(&b, 1);
	b_u32(&b, 0);
	b_u32(&b, 1);
	b_u32(&b, 0);
	b_u64(&b, 5);
	b_u32(&b, 9);			/* trailer: pid/tid, time, cpu, id */
	b_u32(&b, 10);
	b_u64(&b, 12345);
	b_u32(&b, 3);
	b_u32(&b, 0);
	b_u64(&b, 99);
	memcpy(al, mk(&b, r), b.len);
	assert_int_equal(perf_sample__id_hdr_size(&a), 32);
	assert_int_equal(perf_sample__is_pos(a.sample_type), 1);
	assert_int_equal(perf_sample__id_pos(a.sample_type), 0);
	assert_int_equal(perf_sample__id_pos(PERF_SAMPLE_IP | PERF_SAMPLE_TIME | PERF_SAMPLE_ID), 2);
	assert_int_equal(perf_sample__parse(&a, (void *)al, &s, &why), 0);
	assert_int_equal(s.pid, 9);
	assert_int_equal(s.tid, 10);
	assert_int_equal(s.time, 12345);
	assert_int_equal(s.cpu, 3);
	assert_int_equal(s.id, 99);
	assert_null(perf_record__check((void *)al, 32));
	free(b.p);
}

static void record_checks(void **state)
{
	struct buf b = { 0 };
	size_t r = rec_begin(&b, PERF_RECORD_COMM, 0);
	uint64_t al[4];

	b_u32(&b, 1);
	b_u32(&b, 1);
	b_bytes(&b, "abcdefgh", 8);	/* no NUL */
	memcpy(al, mk(&b, r), b.len);
	assert_non_null(perf_record__check((void *)al, 0));
	{
		struct perf_event_header h;

		memcpy(&h, al, sizeof(h));
		h.size = 6;
		memcpy(al, &h, sizeof(h));
	}
	assert_non_null(perf_record__check((void *)al, 0));
	assert_string_equal(perf_record_name(PERF_RECORD_MMAP2), "MMAP2");
	assert_string_equal(perf_record_name(PERF_RECORD_FINISHED_ROUND), "FINISHED_ROUND");
	assert_string_equal(perf_record_name(40), "UNKNOWN");
	assert_string_equal(perf_record_name(1000), "INVALID");
	free(b.p);
}

/* A sample written big endian decodes like its native twin once swapped. */
static void swap_sample_matches_native(void **state)
{
	struct perf_event_attr a = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						    PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN |
						    PERF_SAMPLE_RAW };
	struct buf le = { 0 }, be = { .be = true };
	struct buf *both[2] = { &le, &be };
	struct perf_sample s[2];
	uint64_t al[2][16];

	for (int i = 0; i < 2; i++) {
		struct buf *b = both[i];
		size_t r = rec_begin(b, PERF_RECORD_SAMPLE, 0);
		const char *why = NULL;
		struct perf_event_header *h;

		b_u64(b, 0xffffffff81000010ULL);
		b_u32(b, 100);
		b_u32(b, 101);
		b_u32(b, 7);
		b_u32(b, 0);
		b_u64(b, 2);
		b_u64(b, PERF_CONTEXT_KERNEL);
		b_u64(b, 0xffffffff81000010ULL);
		b_u32(b, 4);
		b_bytes(b, "\x01\x02\x03\x04", 4);
		rec_end(b, r);
		memcpy(al[i], b->p, b->len);
		h = (void *)al[i];
		if (i) {
			h->type = __builtin_bswap32(h->type);
			h->size = __builtin_bswap16(h->size);
			assert_null(perf_record__swap(h, &a));
		}
		assert_int_equal(perf_sample__parse(&a, h, &s[i], &why), 0);
	}
	assert_int_equal(s[0].ip, s[1].ip);
	assert_int_equal(s[1].pid, 100);
	assert_int_equal(s[1].tid, 101);
	assert_int_equal(s[1].cpu, 7);
	assert_int_equal(s[1].callchain_nr, 2);
	assert_int_equal(s[1].callchain[0], PERF_CONTEXT_KERNEL);
	assert_int_equal(s[1].raw_size, 4);
	/* tracepoint payloads keep the file's order (libtraceevent swaps) */
	assert_memory_equal(s[1].raw_data, "\x01\x02\x03\x04", 4);
	free(le.p);
	free(be.p);
}

static void attr_swap_roundtrip(void **state)
{
	struct perf_event_attr a = { .type = 2, .size = 128, .config = 0x174,
				     .sample_type = ST, .disabled = 1, .sample_id_all = 1,
				     .precise_ip = 2, .sample_regs_user = 0xff0fff,
				     .sample_stack_user = 8192, .sample_max_stack = 5 };
	struct perf_event_attr b = a;

	perf_event_attr__swap(&b, sizeof(b));
	assert_int_not_equal(b.config, a.config);
	perf_event_attr__swap(&b, sizeof(b));
	assert_memory_equal(&a, &b, sizeof(a));
}

/* The LBR depth is the CPU PMU's last "branches" capability, read as
 * atoi reads it; none without one. */
static void lbr_depth_from_pmu_caps(void **state)
{
	char *caps[] = { "max_precise=3", "branches=16", "pmu_name=skylake", "branches=32" };
	char *bad[] = { "branches_x=8", "branches=deep" };
	struct perf_header h = { .cpu_pmu_caps = caps, .nr_cpu_pmu_caps = 3 };

	(void)state;
	assert_int_equal(perf_header__lbr_depth(&h), 16);
	h.nr_cpu_pmu_caps = 4;
	assert_int_equal(perf_header__lbr_depth(&h), 32);
	h.cpu_pmu_caps = bad;
	h.nr_cpu_pmu_caps = 2;
	assert_int_equal(perf_header__lbr_depth(&h), 0);
	h.nr_cpu_pmu_caps = 0;
	assert_int_equal(perf_header__lbr_depth(&h), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_native),
		cmocka_unit_test(header_swapped),
		cmocka_unit_test(records_native),
		cmocka_unit_test(records_swapped),
		cmocka_unit_test(torn_last_record),
		cmocka_unit_test(killed_recording),
		cmocka_unit_test(garbage_file),
		cmocka_unit_test(tiny_file),
		cmocka_unit_test(bad_attr_ids),
		cmocka_unit_test(bad_record_size),
		cmocka_unit_test(unknown_types_skipped),
		cmocka_unit_test(sample_read_group_regs_stack),
		cmocka_unit_test(sample_raw_alignment),
		cmocka_unit_test(trailer_and_ids),
		cmocka_unit_test(record_checks),
		cmocka_unit_test(swap_sample_matches_native),
		cmocka_unit_test(attr_swap_roundtrip),
		cmocka_unit_test(lbr_depth_from_pmu_caps),
	};
	return cmocka_run_group_tests_name("perf-data", tests, NULL, NULL);
}
