/* Unit tests for core/sdt-events: SDT markers found in a build-id cache. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/symbols/sdt-events.h"
#include "fake-fs.h"

static char cache[] = "/tmp/pcl-buildid-XXXXXX";
static char self[PATH_MAX], other[PATH_MAX], gone[PATH_MAX];
static char *self_id, *other_id, *gone_id;

static char *build_id_of(const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	const unsigned char *id;
	ssize_t len;
	char *hex = NULL;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	len = dwelf_elf_gnu_build_id(elf, (const void **)&id);
	if (len > 0) {
		hex = calloc(1, (size_t)len * 2 + 1);
		for (ssize_t i = 0; i < len; i++)
			sprintf(hex + 2 * i, "%02x", id[i]);
	}
	elf_end(elf);
	close(fd);
	return hex;
}

/* Enters path into the fake cache under build id bid with a probes file. */
static void cache_add(const char *path, const char *bid, const char *probes)
{
	char *link = xasprintf(".build-id/%.2s/%s", bid, bid + 2);
	char *target = xasprintf("../..%s/%s", path, bid);
	char *file = xasprintf("%s/%s/probes", path + 1, bid);

	fake_fs_link(cache, link, target);
	fake_fs_put(cache, file, probes);
	free(link);
	free(target);
	free(file);
}

static int setup(void **state)
{
	char *link_only, *target;

	assert_non_null(realpath("/proc/self/exe", self));
	assert_non_null(realpath("/bin/true", other));
	assert_non_null(realpath("/bin/sh", gone));
	self_id = build_id_of(self);
	other_id = build_id_of(other);
	gone_id = build_id_of(gone);
	if (!self_id || !other_id || !gone_id)
		return -1;
	fake_fs_create(cache);
	cache_add(self, self_id,
		  "%sdt_test:mark1=mark1\n"
		  "p:sdt_test/mark1 /x:0x10 arg1=%di:u64\n"
		  "%sdt_test:other=other\n"
		  "p:sdt_test/other /x:0x20\n"
		  "#probe:plain=main\n"
		  "p:probe/plain /x:0x30\n");
	cache_add(other, other_id, "%sdt_test:mark1=mark1\np:sdt_test/mark1 /y:0x1\n");
	/* a cached id the file no longer has, and a kernel entry: both ignored */
	cache_add(other, "00112233445566778899aabbccddeeff00112233", "%sdt_stale:gone=gone\n");
	fake_fs_put(cache, "[vdso]/aabbccddeeff00112233445566778899aabbccdd/probes",
		    "%sdt_vdso:x=x\n");
	fake_fs_link(cache, ".build-id/aa/bbccddeeff00112233445566778899aabbccdd",
		     "../../[vdso]/aabbccddeeff00112233445566778899aabbccdd");
	/* a valid build id link whose cache directory was removed */
	link_only = xasprintf(".build-id/%.2s/%s", gone_id, gone_id + 2);
	target = xasprintf("../..%s/%s", gone, gone_id);
	fake_fs_link(cache, link_only, target);
	free(link_only);
	free(target);
	setenv("PERF_BUILDID_DIR", cache, 1);
	return 0;
}

static int teardown(void **state)
{
	unsetenv("PERF_BUILDID_DIR");
	fake_fs_remove(cache);
	free(self_id);
	free(other_id);
	free(gone_id);
	return 0;
}

static void test_list_all(void **state)
{
	struct sdt_event *evs;
	int n = sdt_events__list(NULL, NULL, &evs);
	bool self_first = strcmp(self_id, other_id) < 0;

	assert_int_equal(n, 3);
	assert_string_equal(evs[0].name, "sdt_test:mark1");
	assert_string_equal(evs[1].name, "sdt_test:mark1");
	assert_string_equal(evs[2].name, "sdt_test:other");
	/* the same marker in two binaries: ordered by build id */
	assert_string_equal(evs[0].build_id, self_first ? self_id : other_id);
	assert_string_equal(evs[0].path, self_first ? self : other);
	assert_string_equal(evs[2].path, self);
	sdt_events__free(evs, n);
}

static void test_globs(void **state)
{
	struct sdt_event *evs;
	int n = sdt_events__list("sdt_*", "oth*", &evs);

	assert_int_equal(n, 1);
	assert_string_equal(evs[0].name, "sdt_test:other");
	sdt_events__free(evs, n);
	n = sdt_events__list("nosuch", NULL, &evs);
	assert_int_equal(n, 0);
	sdt_events__free(evs, n);
}

/* -a's order: binary by binary (build id order), each binary's markers in
 * its file's order. */
static void test_by_binary(void **state)
{
	struct sdt_event *evs;
	int n = sdt_events__by_binary(NULL, NULL, &evs);
	bool self_first = strcmp(self_id, other_id) < 0;
	int s = self_first ? 0 : 1;

	assert_int_equal(n, 3);
	assert_string_equal(evs[s].name, "sdt_test:mark1");
	assert_string_equal(evs[s + 1].name, "sdt_test:other");
	assert_string_equal(evs[s].build_id, self_id);
	assert_string_equal(evs[s + 1].build_id, self_id);
	assert_string_equal(evs[self_first ? 2 : 0].build_id, other_id);
	sdt_events__free(evs, n);
}

/* perf's load order: binaries by build id, each probes file's entries in
 * order, SDT markers and cached probe definitions alike. */
static void test_cache_files(void **state)
{
	struct probe_cache_list all;
	const struct probe_cache_file *mine, *theirs;

	probe_cache__files(&all);
	assert_int_equal(all.n, 3);
	for (size_t i = 1; i < all.n; i++)
		assert_true(strcmp(all.v[i - 1].build_id, all.v[i].build_id) < 0);
	mine = theirs = NULL;
	for (size_t i = 0; i < all.n; i++) {
		if (!strcmp(all.v[i].build_id, self_id))
			mine = &all.v[i];
		else if (!strcmp(all.v[i].build_id, other_id))
			theirs = &all.v[i];
		else
			assert_true(all.v[i].missing && !all.v[i].nr_lines);
	}
	assert_non_null(mine);
	assert_non_null(theirs);
	assert_string_equal(mine->build_id, self_id);
	assert_false(mine->missing);
	assert_int_equal(mine->nr_lines, 3);
	assert_string_equal(mine->lines[0], "%sdt_test:mark1=mark1");
	assert_string_equal(mine->lines[1], "%sdt_test:other=other");
	assert_string_equal(mine->lines[2], "#probe:plain=main");
	assert_int_equal(theirs->nr_lines, 1);
	probe_cache_list__exit(&all);
}

static void test_no_cache(void **state)
{
	struct sdt_event *evs;

	setenv("PERF_BUILDID_DIR", "/nonexistent/pcl", 1);
	assert_int_equal(sdt_events__list(NULL, NULL, &evs), 0);
	sdt_events__free(evs, 0);
	setenv("PERF_BUILDID_DIR", cache, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_all),
		cmocka_unit_test(test_globs),
		cmocka_unit_test(test_by_binary),
		cmocka_unit_test(test_cache_files),
		cmocka_unit_test(test_no_cache),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
