/* Unit tests for core/perf-data-write: the file layout perf reads, sizes
 * rewritten at the end, features after the data, compression as one zstd
 * stream cut into COMPRESSED records, sticky errors, mode 0600, and the
 * pipe format's records. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <cmocka.h>

#include "core/data/perf-data-write.h"

static char path[64];

static int setup(void **state)
{
	int fd;

	strcpy(path, "/tmp/pcl-pdw-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return 0;
}

static unsigned char *slurp(size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void make_record(unsigned char *buf, uint32_t type, uint16_t size, unsigned char fill)
{
	struct perf_event_header h = { type, 0, size };

	memset(buf, fill, size);
	memcpy(buf, &h, sizeof(h));
}

static void header_layout(void **state)
{
	struct perf_data_writer w;
	struct perf_event_attr a1 = { .type = PERF_TYPE_SOFTWARE, .config = 0, .sample_freq = 4000 };
	struct perf_event_attr a2 = { .type = PERF_TYPE_SOFTWARE, .config = 1 };
	uint64_t ids1[] = { 11, 12 }, ids2[] = { 21, 22 };
	struct perf_data_writer_attr attrs[] = { { &a1, ids1, 2 }, { &a2, ids2, 2 } };
	unsigned char rec[48], *file;
	struct perf_file_header h;
	struct perf_event_attr fattr;
	struct perf_file_section fids;
	struct perf_file_section sec[2];
	size_t len;
	uint64_t got[2];

	assert_int_equal(perf_data_writer__open(&w, path), 0);
	assert_int_equal(perf_data_writer__write_header(&w, attrs, 2), 0);
	make_record(rec, PERF_RECORD_SAMPLE, sizeof(rec), 0x42);
	assert_int_equal(perf_data_writer__write(&w, rec, sizeof(rec)), 0);
	assert_int_equal(perf_data_writer__flush(&w), 0);

	/* Before finish: a valid header with an empty data section. */
	file = slurp(&len);
	memcpy(&h, file, sizeof(h));
	assert_true(h.magic == PERF_MAGIC2);
	assert_int_equal(h.size, 104);
	assert_int_equal(h.attr_size, sizeof(struct perf_event_attr) + 16);
	assert_int_equal(h.data.size, 0);
	assert_int_equal(len, h.data.offset + sizeof(rec));
	free(file);

	perf_data_writer__set_feature(&w, HEADER_HOSTNAME, strdup("host"), 5);
	perf_data_writer__set_feature(&w, HEADER_ARCH, strdup("x86_64"), 7);
	assert_int_equal(perf_data_writer__finish(&w), 0);

	file = slurp(&len);
	memcpy(&h, file, sizeof(h));
	assert_int_equal(h.data.size, sizeof(rec));
	assert_int_equal(h.attrs.size, 2 * h.attr_size);
	assert_true(h.attrs.offset + h.attrs.size <= h.data.offset);
	for (int i = 0; i < 2; i++) {
		const unsigned char *e = file + h.attrs.offset + i * h.attr_size;

		memcpy(&fattr, e, sizeof(fattr));
		memcpy(&fids, e + sizeof(fattr), sizeof(fids));
		assert_int_equal(fattr.size, sizeof(struct perf_event_attr));
		assert_int_equal(fattr.config, (uint64_t)i);
		assert_int_equal(fids.size, 16);
		memcpy(got, file + fids.offset, 16);
		assert_int_equal(got[0], i ? 21 : 11);
		assert_int_equal(got[1], i ? 22 : 12);
	}
	assert_memory_equal(file + h.data.offset, rec, sizeof(rec));
	/* Feature bits and a section table right after the data, in bit order. */
	assert_true(h.adds_features[0] == ((1ULL << HEADER_HOSTNAME) | (1ULL << HEADER_ARCH)));
	memcpy(sec, file + h.data.offset + h.data.size, sizeof(sec));
	assert_string_equal((char *)file + sec[0].offset, "host");
	assert_int_equal(sec[0].size, 5);
	assert_string_equal((char *)file + sec[1].offset, "x86_64");
	assert_int_equal(len, sec[1].offset + sec[1].size);
	free(file);
}

static void file_mode_is_private(void **state)
{
	struct perf_data_writer w;
	struct stat st;

	chmod(path, 0644);
	assert_int_equal(perf_data_writer__open(&w, path), 0);
	assert_int_equal(perf_data_writer__write_header(&w, NULL, 0), 0);
	assert_int_equal(perf_data_writer__finish(&w), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
}

static void big_writes_keep_order(void **state)
{
	struct perf_data_writer w;
	unsigned char *big = malloc(3 * PERF_DATA_WRITE_BUF), *file;
	size_t off = 0, len, n = 0;
	struct perf_file_header h;

	/* Many records, larger than the buffer in total. */
	while (off + 1000 <= 3 * PERF_DATA_WRITE_BUF) {
		make_record(big + off, PERF_RECORD_SAMPLE, 1000, (unsigned char)n++);
		off += 1000;
	}
	assert_int_equal(perf_data_writer__open(&w, path), 0);
	assert_int_equal(perf_data_writer__write_header(&w, NULL, 0), 0);
	assert_int_equal(perf_data_writer__write(&w, big, 1000), 0);	/* buffered */
	assert_int_equal(perf_data_writer__write(&w, big + 1000, off - 1000), 0);	/* too big */
	assert_int_equal(perf_data_writer__finish(&w), 0);
	file = slurp(&len);
	memcpy(&h, file, sizeof(h));
	assert_int_equal(h.data.size, off);
	assert_memory_equal(file + h.data.offset, big, off);
	free(file);
	free(big);
}

static void compression_round_trip(void **state)
{
	struct perf_data_writer w;
	size_t total = 2 * PERF_DATA_WRITE_BUF + 12345, off = 0, len, n = 0;
	unsigned char *raw = malloc(total + 8), *file, *out = malloc(total + 8);
	struct perf_file_header h;
	ZSTD_DStream *ds = ZSTD_createDStream();
	size_t outpos = 0, pos, half;
	unsigned char round[8];

	while (off + 88 <= total) {
		make_record(raw + off, PERF_RECORD_SAMPLE, 88, (unsigned char)(n++ % 7));
		off += 88;
	}
	total = off;
	half = (n / 2) * 88;
	make_record(round, PERF_RECORD_FINISHED_ROUND, 8, 0);
	assert_int_equal(perf_data_writer__open(&w, path), 0);
	assert_int_equal(perf_data_writer__write_header(&w, NULL, 0), 0);
	assert_int_equal(perf_data_writer__set_compression(&w, 3), 0);
	assert_int_equal(perf_data_writer__write(&w, raw, half), 0);
	assert_int_equal(perf_data_writer__write_uncompressed(&w, round, 8), 0);
	assert_int_equal(perf_data_writer__write(&w, raw + half, total - half), 0);
	assert_true(w.raw_size == total + 8);
	assert_int_equal(perf_data_writer__finish(&w), 0);

	file = slurp(&len);
	memcpy(&h, file, sizeof(h));
	assert_true(h.data.size < total / 4);	/* repetitive data compresses */
	ZSTD_initDStream(ds);
	for (pos = h.data.offset; pos < h.data.offset + h.data.size;) {
		struct perf_event_header r;

		memcpy(&r, file + pos, sizeof(r));
		if (r.type == PERF_RECORD_FINISHED_ROUND) {
			/* It comes after the first half, uncompressed. */
			assert_int_equal(outpos, half);
			pos += r.size;
			continue;
		}
		assert_int_equal(r.type, PERF_RECORD_COMPRESSED);
		{
			ZSTD_inBuffer in = { file + pos + 8, r.size - 8u, 0 };
			size_t before = outpos;

			while (in.pos < in.size) {
				ZSTD_outBuffer o = { out, total + 8, outpos };

				assert_false(ZSTD_isError(ZSTD_decompressStream(ds, &o, &in)));
				outpos = o.pos;
			}
			assert_true(outpos - before <= perf_data_writer__comp_mmap_len());
		}
		pos += r.size;
	}
	assert_int_equal(outpos, total);
	assert_memory_equal(out, raw, total);
	ZSTD_freeDStream(ds);
	free(file);
	free(raw);
	free(out);
}

static void errors_are_sticky(void **state)
{
	struct perf_data_writer w;
	unsigned char rec[64];
	int full = open("/dev/full", O_WRONLY);

	if (full < 0)
		skip();
	assert_int_equal(perf_data_writer__open(&w, path), 0);
	assert_int_equal(perf_data_writer__write_header(&w, NULL, 0), 0);
	dup2(full, w.fd);
	close(full);
	make_record(rec, PERF_RECORD_SAMPLE, sizeof(rec), 1);
	assert_int_equal(perf_data_writer__write(&w, rec, sizeof(rec)), 0);	/* buffered */
	assert_int_equal(perf_data_writer__flush(&w), -ENOSPC);
	assert_int_equal(perf_data_writer__write(&w, rec, sizeof(rec)), -ENOSPC);
	assert_int_equal(perf_data_writer__finish(&w), -ENOSPC);
}

/* Pipe mode into a real pipe (which cannot seek): the short header, one
 * HEADER_ATTR per event, the features as records in feature order without
 * build ids or caches, the closing feature record, the tracing data record
 * (its size padded) followed by the data, then the records; finish adds
 * nothing. */
static void pipe_stream_layout(void **state)
{
	struct perf_data_writer w;
	struct perf_event_attr a1 = { .type = PERF_TYPE_SOFTWARE, .config = 0 };
	uint64_t ids[] = { 7, 8, 9 };
	struct perf_data_writer_attr attrs[] = { { &a1, ids, 3 } };
	unsigned char rec[24], buf[4096], *p = buf;
	char *tracing;
	struct perf_event_header h;
	struct perf_event_attr attr;
	uint64_t u64;
	uint32_t u32;
	int fds[2];
	ssize_t len;

	assert_int_equal(pipe(fds), 0);
	perf_data_writer__open_pipe(&w, fds[1]);
	assert_int_equal(perf_data_writer__write_header(&w, attrs, 1), 0);
	perf_data_writer__set_feature(&w, HEADER_ARCH, strdup("x86_64"), 7);
	perf_data_writer__set_feature(&w, HEADER_HOSTNAME, strdup("host"), 5);
	perf_data_writer__set_feature(&w, HEADER_BUILD_ID, strdup("bid"), 4);
	perf_data_writer__set_feature(&w, HEADER_CACHE, strdup("cache"), 6);
	tracing = calloc(1, 11);	/* not a multiple of 8: padded in the stream */
	strcpy(tracing, "tracing");
	perf_data_writer__set_feature(&w, HEADER_TRACING_DATA, tracing, 11);
	assert_int_equal(perf_data_writer__write_pipe_features(&w), 0);
	make_record(rec, PERF_RECORD_SAMPLE, sizeof(rec), 0x42);
	assert_int_equal(perf_data_writer__write(&w, rec, sizeof(rec)), 0);
	assert_int_equal(perf_data_writer__finish(&w), 0);	/* closes fds[1] */
	len = read(fds[0], buf, sizeof(buf));
	close(fds[0]);

	memcpy(&u64, p, 8);
	assert_true(u64 == PERF_MAGIC2);
	memcpy(&u64, p + 8, 8);
	assert_int_equal(u64, 16);
	p += 16;

	memcpy(&h, p, sizeof(h));
	assert_int_equal(h.type, PERF_RECORD_HEADER_ATTR);
	assert_int_equal(h.size, sizeof(h) + sizeof(attr) + sizeof(ids));
	memcpy(&attr, p + sizeof(h), sizeof(attr));
	assert_int_equal(attr.size, sizeof(attr));
	assert_memory_equal(p + sizeof(h) + sizeof(attr), ids, sizeof(ids));
	p += h.size;

	for (int i = 0; i < 3; i++) {
		static const int want_feat[] = { HEADER_HOSTNAME, HEADER_ARCH, HEADER_LAST_FEATURE };
		static const char *const want_data[] = { "host", "x86_64", NULL };

		memcpy(&h, p, sizeof(h));
		memcpy(&u64, p + sizeof(h), 8);
		assert_int_equal(h.type, PERF_RECORD_HEADER_FEATURE);
		assert_int_equal(u64, want_feat[i]);
		if (want_data[i]) {
			assert_int_equal(h.size, 16 + strlen(want_data[i]) + 1);
			assert_string_equal((char *)p + 16, want_data[i]);
		} else {
			assert_int_equal(h.size, 16);
		}
		p += h.size;
	}

	memcpy(&h, p, sizeof(h));
	memcpy(&u32, p + sizeof(h), 4);
	assert_int_equal(h.type, PERF_RECORD_HEADER_TRACING_DATA);
	assert_int_equal(h.size, 16);
	assert_int_equal(u32, 16);	/* 11 bytes, padded */
	assert_string_equal((char *)p + 16, "tracing");
	p += 16 + 16;

	assert_memory_equal(p, rec, sizeof(rec));
	p += sizeof(rec);
	assert_int_equal(len, p - buf);
}

/* The sections of the file at path: the header, the table's n entries. */
static unsigned char *sections(struct perf_file_header *h, struct perf_file_section *sec, int n)
{
	size_t len;
	unsigned char *file = slurp(&len);

	memcpy(h, file, sizeof(*h));
	memcpy(sec, file + h->data.offset + h->data.size, n * sizeof(*sec));
	assert_int_equal(len, sec[n - 1].offset + sec[n - 1].size);
	return file;
}

static void copy_adds_a_feature_after_the_others(void **state)
{
	struct perf_data_writer w;
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE };
	struct perf_data_writer_attr attrs[] = { { &a, NULL, 0 } };
	struct perf_file_header h;
	struct perf_file_section sec[3];
	unsigned char rec[24], *file;
	char copy[80];

	assert_int_equal(perf_data_writer__open(&w, path), 0);
	assert_int_equal(perf_data_writer__write_header(&w, attrs, 1), 0);
	make_record(rec, PERF_RECORD_SAMPLE, sizeof(rec), 0x17);
	assert_int_equal(perf_data_writer__write(&w, rec, sizeof(rec)), 0);
	perf_data_writer__set_feature(&w, HEADER_HOSTNAME, strdup("host"), 5);
	perf_data_writer__set_feature(&w, HEADER_ARCH, strdup("x86_64"), 7);
	assert_int_equal(perf_data_writer__finish(&w), 0);

	snprintf(copy, sizeof(copy), "%s.copy", path);
	assert_int_equal(perf_data__copy_with_feature(path, copy, 255, "tables", 7), 0);
	assert_int_equal(rename(copy, path), 0);
	file = sections(&h, sec, 3);
	assert_true(h.adds_features[0] == ((1ULL << HEADER_HOSTNAME) | (1ULL << HEADER_ARCH)));
	assert_true(h.adds_features[3] == 1ULL << 63);
	assert_memory_equal(file + h.data.offset, rec, sizeof(rec));
	assert_string_equal((char *)file + sec[0].offset, "host");
	assert_string_equal((char *)file + sec[1].offset, "x86_64");
	assert_string_equal((char *)file + sec[2].offset, "tables");
	free(file);

	/* again: the feature's payload is replaced, not added twice */
	assert_int_equal(perf_data__copy_with_feature(path, copy, 255, "new", 4), 0);
	assert_int_equal(rename(copy, path), 0);
	file = sections(&h, sec, 3);
	assert_string_equal((char *)file + sec[1].offset, "x86_64");
	assert_string_equal((char *)file + sec[2].offset, "new");
	free(file);
	assert_int_equal(perf_data__copy_with_feature("/nonexistent", copy, 255, "x", 1), -ENOENT);
	assert_int_equal(perf_data__copy_with_feature(path, path, 255, "x", 1), -EEXIST);
	file = sections(&h, sec, 3);	/* untouched */
	assert_string_equal((char *)file + sec[2].offset, "new");
	free(file);
}

static void open_fails_cleanly(void **state)
{
	struct perf_data_writer w;

	assert_int_equal(perf_data_writer__open(&w, "/nonexistent-dir/perf.data"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(header_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(file_mode_is_private, setup, teardown),
		cmocka_unit_test_setup_teardown(big_writes_keep_order, setup, teardown),
		cmocka_unit_test_setup_teardown(compression_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(errors_are_sticky, setup, teardown),
		cmocka_unit_test(pipe_stream_layout),
		cmocka_unit_test(open_fails_cleanly),
		cmocka_unit_test_setup_teardown(copy_adds_a_feature_after_the_others, setup,
						teardown),
	};
	return cmocka_run_group_tests_name("perf-data-write", tests, NULL, NULL);
}
