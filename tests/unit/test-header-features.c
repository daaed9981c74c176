/* Unit tests for core/header-features: the payload layouts perf 6.1 parses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/data/header-features.h"
#include "core/data/perf-record.h"
#include "core/data/perf-data-write.h"

static uint32_t get_u32(const struct strbuf *sb, size_t *off)
{
	uint32_t v;

	assert_true(*off + 4 <= sb->len);
	memcpy(&v, sb->buf + *off, 4);
	*off += 4;
	return v;
}

/* Reads a feature string: u32 aligned length, then the padded text. */
static const char *get_string(const struct strbuf *sb, size_t *off)
{
	uint32_t len = get_u32(sb, off);
	const char *s = sb->buf + *off;

	assert_int_equal(len % PERF_NAME_ALIGN, 0);
	assert_true(strlen(s) < len);
	for (uint32_t i = (uint32_t)strlen(s); i < len; i++)
		assert_int_equal(s[i], 0);
	*off += len;
	return s;
}

static void strings_are_padded(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t off = 0;
	char long_name[100];

	memset(long_name, 'x', 99);
	long_name[99] = 0;
	feat_string(&sb, "vm");
	feat_string(&sb, long_name);
	feat_string(&sb, "");
	assert_int_equal(sb.len, 4 + 64 + 4 + 128 + 4 + 64);
	assert_string_equal(get_string(&sb, &off), "vm");
	assert_string_equal(get_string(&sb, &off), long_name);
	assert_string_equal(get_string(&sb, &off), "");
	strbuf_release(&sb);
}

static void cmdline_starts_with_exe(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *argv[] = { "record", "-g", "./a.out" };
	size_t off = 0;

	feat_build_cmdline(&sb, 3, argv);
	assert_int_equal(get_u32(&sb, &off), 4);
	assert_true(get_string(&sb, &off)[0] == '/');	/* our absolute path */
	assert_string_equal(get_string(&sb, &off), "record");
	assert_string_equal(get_string(&sb, &off), "-g");
	assert_string_equal(get_string(&sb, &off), "./a.out");
	assert_int_equal(off, sb.len);
	strbuf_release(&sb);
}

/* Two events in a group and one alone, with two ids each. */
static void make_evlist(struct evlist *el)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE };
	const char *names[] = { "cpu-clock", "task-clock", "page-faults" };

	evlist__init(el);
	for (int i = 0; i < 3; i++) {
		struct evsel *e;

		a.config = (uint64_t)i;
		e = evsel__new(&a, names[i]);
		e->nr_cpus = 2;
		e->nr_threads = 1;
		e->ids = calloc(2, sizeof(uint64_t));
		e->ids[0] = 100 + 2 * (uint64_t)i;
		e->ids[1] = 101 + 2 * (uint64_t)i;
		evlist__add(el, e);
	}
	el->first->nr_members = 2;
	el->first->next->leader = el->first;
}

static void event_desc_layout(void **state)
{
	struct evlist el;
	struct strbuf sb = STRBUF_INIT;
	size_t off = 0;
	struct perf_event_attr attr;
	uint64_t ids[2];

	make_evlist(&el);
	feat_build_event_desc(&sb, &el);
	assert_int_equal(get_u32(&sb, &off), 3);
	assert_int_equal(get_u32(&sb, &off), sizeof(struct perf_event_attr));
	for (int i = 0; i < 3; i++) {
		memcpy(&attr, sb.buf + off, sizeof(attr));
		off += sizeof(attr);
		assert_int_equal(attr.config, (uint64_t)i);
		assert_int_equal(attr.size, sizeof(attr));
		assert_int_equal(get_u32(&sb, &off), 2);
		get_string(&sb, &off);
		memcpy(ids, sb.buf + off, sizeof(ids));
		off += sizeof(ids);
		assert_int_equal(ids[0], 100 + 2 * i);
	}
	assert_int_equal(off, sb.len);
	strbuf_release(&sb);
	evlist__exit(&el);
}

static void group_desc_only_real_groups(void **state)
{
	struct evlist el;
	struct strbuf sb = STRBUF_INIT;
	size_t off = 0;

	make_evlist(&el);
	assert_int_equal(feat_build_group_desc(&sb, &el), 1);
	assert_int_equal(get_u32(&sb, &off), 1);
	assert_string_equal(get_string(&sb, &off), "{anon_group}");
	assert_int_equal(get_u32(&sb, &off), 0);	/* leader idx */
	assert_int_equal(get_u32(&sb, &off), 2);	/* members */
	assert_int_equal(off, sb.len);
	strbuf_release(&sb);
	evlist__exit(&el);

	evlist__init(&el);
	evlist__add(&el, evsel__new(NULL, "cpu-clock"));
	assert_int_equal(feat_build_group_desc(&sb, &el), 0);
	assert_int_equal(sb.len, 0);
	evlist__exit(&el);
}

static void build_id_entries(void **state)
{
	struct hit_dso dsos[3] = {
		{ "[kernel.kallsyms]", true, { 0xab, 0xcd }, 20 },
		{ "/usr/lib/x86_64-linux-gnu/libc.so.6", false, { 1, 2, 3 }, 20 },
		{ "/no/build/id", false, { 0 }, 0 },
	};
	struct strbuf sb = STRBUF_INIT;
	struct perf_rec_build_id b;
	size_t off = 0;

	feat_build_build_ids(&sb, dsos, 3);
	memcpy(&b, sb.buf, sizeof(b));
	assert_int_equal(sizeof(b), 36);
	assert_int_equal(b.header.misc, PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_BUILD_ID_SIZE);
	assert_int_equal(b.header.size, 36 + 64);
	assert_int_equal(b.pid, -1);
	assert_int_equal(b.build_id[20], 20);
	assert_int_equal(b.build_id[0], 0xab);
	assert_string_equal(sb.buf + 36, "[kernel.kallsyms]");
	off = b.header.size;
	memcpy(&b, sb.buf + off, sizeof(b));
	assert_int_equal(b.header.misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE);
	assert_string_equal(sb.buf + off + 36, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	off += b.header.size;
	assert_int_equal(off, sb.len);	/* the DSO without a build id is left out */
	strbuf_release(&sb);
}

static void only_vdso_entries_kept(void **state)
{
	static const struct hit_dso dsos[] = {
		{ .filename = "[kernel.kallsyms]", .kernel = true, .build_id = { 1 },
		  .build_id_size = 20 },
		{ .filename = "[vdso]", .build_id = { 2 }, .build_id_size = 20 },
		{ .filename = "/usr/lib/libc.so.6", .build_id = { 3 }, .build_id_size = 20 },
		{ .filename = "[vdso32]", .build_id = { 4 }, .build_id_size = 20 },
	};
	struct strbuf all = STRBUF_INIT, kept = STRBUF_INIT, want = STRBUF_INIT;

	(void)state;
	feat_build_build_ids(&all, dsos, 4);
	feat_build_build_ids(&want, &dsos[1], 1);
	feat_build_build_ids(&want, &dsos[3], 1);
	feat_keep_vdso_build_ids(&kept, all.buf, all.len);
	assert_int_equal(kept.len, want.len);
	assert_memory_equal(kept.buf, want.buf, want.len);
	strbuf_reset(&kept);
	feat_keep_vdso_build_ids(&kept, all.buf, all.len - 1);	/* a torn last entry */
	assert_true(kept.len < want.len);
	strbuf_reset(&kept);
	feat_keep_vdso_build_ids(&kept, NULL, 0);
	assert_int_equal(kept.len, 0);
	strbuf_release(&all);
	strbuf_release(&kept);
	strbuf_release(&want);
}

static void all_features_written(void **state)
{
	struct evlist el;
	struct perf_data_writer w;
	char path[] = "/tmp/pcl-hf-XXXXXX";
	int fd = mkstemp(path);
	const char *argv[] = { "record", "true" };
	struct header_env env = {
		.version = "0.1.0", .argc = 2, .argv = argv,
		.have_sample_time = true, .first_sample_time = 5, .last_sample_time = 9,
		.compressed = true, .comp_level = 1, .comp_ratio = 3, .comp_mmap_len = 4096,
	};

	assert_true(fd >= 0);
	close(fd);
	make_evlist(&el);
	env.evlist = &el;
	assert_int_equal(perf_data_writer__open(&w, path), 0);
	assert_int_equal(header_features__write(&w, &env), 0);
	for (int f = HEADER_HOSTNAME; f <= HEADER_EVENT_DESC; f++)
		assert_non_null(w.features[f].data);
	assert_non_null(w.features[HEADER_GROUP_DESC].data);
	assert_non_null(w.features[HEADER_PMU_MAPPINGS].data);
	assert_non_null(w.features[HEADER_SAMPLE_TIME].data);
	assert_int_equal(w.features[HEADER_SAMPLE_TIME].size, 16);
	assert_int_equal(w.features[HEADER_COMPRESSED].size, 20);
	assert_int_equal(w.features[HEADER_NRCPUS].size, 8);
	assert_null(w.features[HEADER_TRACING_DATA].data);	/* no tracepoints */
	assert_null(w.features[HEADER_CLOCKID].data);		/* no -k */
	perf_data_writer__close(&w);
	unlink(path);
	evlist__exit(&el);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strings_are_padded),
		cmocka_unit_test(cmdline_starts_with_exe),
		cmocka_unit_test(event_desc_layout),
		cmocka_unit_test(group_desc_only_real_groups),
		cmocka_unit_test(build_id_entries),
		cmocka_unit_test(only_vdso_entries_kept),
		cmocka_unit_test(all_features_written),
	};
	return cmocka_run_group_tests_name("header-features", tests, NULL, NULL);
}
