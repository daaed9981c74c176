/* Unit tests for inject: a synthesized pipe stream goes through perf_inject()
 * and comes out with a HEADER_BUILD_ID record before the first sample in a
 * mapped file, naming the file's build id, and every input record kept. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>

#include "perf-data-builder.h"
#include "core/data/inject.h"
#include "core/data/session.h"
#include "core/symbols/buildid.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID)
#define PID 42
#define MAP_START 0x400000ULL

static char exe[PATH_MAX];	/* this test's binary: a file with a build id */

static void stream(struct buf *b, int nr_samples)
{
	struct t_attr a = { PERF_TYPE_SOFTWARE, 0, 1, ST, 0, 0 };
	size_t r;

	b_u64(b, 0x32454c4946524550ULL);	/* the pipe header */
	b_u64(b, 16);
	r = rec_begin(b, PERF_RECORD_HEADER_ATTR, 0);
	b_attr(b, &a);
	b_u64(b, 1);
	rec_end(b, r);
	r = rec_begin(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	b_u32(b, PID);
	b_u32(b, PID);
	b_u64(b, MAP_START);
	b_u64(b, 0x10000);
	b_u64(b, 0);
	b_bytes(b, exe, strlen(exe) + 1);
	b_zero(b, (8 - b->len % 8) % 8);
	rec_end(b, r);
	for (int i = 0; i < nr_samples; i++) {
		r = rec_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		b_u64(b, MAP_START + 0x100 + (uint64_t)i);
		b_u32(b, PID);
		b_u32(b, PID);
		rec_end(b, r);
	}
}

struct seen {
	struct perf_tool tool;
	uint32_t types[16];
	int n;
	uint8_t id[BUILD_ID_MAX];
	char name[PATH_MAX];
};

static int note(struct perf_tool *tool, struct perf_session *s,
		const struct perf_event_header *rec, struct perf_sample *sample,
		struct evsel *evsel, uint64_t file_offset)
{
	struct seen *seen = (struct seen *)tool;

	(void)s, (void)sample, (void)evsel, (void)file_offset;
	if (seen->n < 16)
		seen->types[seen->n++] = rec->type;
	if (rec->type == PERF_RECORD_HEADER_BUILD_ID) {
		const struct perf_rec_build_id *b = (const void *)rec;

		memcpy(seen->id, b->build_id, BUILD_ID_MAX);
		snprintf(seen->name, sizeof(seen->name), "%s", b->filename);
	}
	return 0;
}

static void build_id_before_first_sample(void **state)
{
	struct buf b = { 0 };
	char *in, out[] = "/tmp/pcl-test-inject-XXXXXX";
	struct inject_opts o = { .build_ids = true };
	struct seen seen = { .tool = { .record = note } };
	uint8_t want[BUILD_ID_MAX];
	struct perf_session *s;
	char *err = NULL;

	(void)state;
	assert_int_equal(elf_file__read_build_id(exe, want, sizeof(want)), BUILD_ID_MAX);
	stream(&b, 3);
	in = b_to_file(&b);
	close(mkstemp(out));
	o.input = in;
	o.output = out;
	assert_int_equal(perf_inject(&o, &err), 0);

	s = perf_session__open(out, false, &err);
	assert_non_null(s);
	assert_int_equal(perf_session__process(s, &seen.tool), 0);
	perf_session__delete(s);
	/* attr, mmap, the build id, then the three samples: one record per DSO */
	assert_int_equal(seen.n, 6);
	assert_int_equal(seen.types[0], PERF_RECORD_HEADER_ATTR);
	assert_int_equal(seen.types[1], PERF_RECORD_MMAP);
	assert_int_equal(seen.types[2], PERF_RECORD_HEADER_BUILD_ID);
	for (int i = 3; i < 6; i++)
		assert_int_equal(seen.types[i], PERF_RECORD_SAMPLE);
	assert_memory_equal(seen.id, want, BUILD_ID_MAX);
	assert_string_equal(seen.name, exe);
	unlink(in);
	unlink(out);
	free(in);
	free(b.p);
}

static void no_option_copies_the_stream(void **state)
{
	struct buf b = { 0 };
	char *in, out[] = "/tmp/pcl-test-inject-XXXXXX";
	struct inject_opts o = { 0 };
	struct seen seen = { .tool = { .record = note } };
	struct perf_session *s;
	char *err = NULL;

	(void)state;
	stream(&b, 2);
	in = b_to_file(&b);
	close(mkstemp(out));
	o.input = in;
	o.output = out;
	assert_int_equal(perf_inject(&o, &err), 0);
	s = perf_session__open(out, false, &err);
	assert_non_null(s);
	assert_int_equal(perf_session__process(s, &seen.tool), 0);
	perf_session__delete(s);
	assert_int_equal(seen.n, 4);
	assert_int_equal(seen.types[2], PERF_RECORD_SAMPLE);
	unlink(in);
	unlink(out);
	free(in);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(build_id_before_first_sample),
		cmocka_unit_test(no_option_copies_the_stream),
	};
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = 0;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
