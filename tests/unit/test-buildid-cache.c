/* Unit tests for core/buildid-cache: perf's ~/.debug layout. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/symbols/buildid-cache.h"
#include "core/symbols/buildid.h"
#include "util/util.h"

#define LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"

static char dir[64];

static int setup(void **state)
{
	strcpy(dir, "/tmp/pcl-bidc-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf %s", dir);

	assert_int_equal(system(cmd), 0);
	free(cmd);
	return 0;
}

static void adds_an_elf_file(void **state)
{
	uint8_t id[20];
	int n = elf_file__read_build_id(LIBC, id, sizeof(id));
	char hex[41], link[PATH_MAX], *path, *elf;
	struct stat a, b;
	ssize_t len;

	assert_int_equal(n, 20);
	build_id__hex(id, n, hex);
	assert_int_equal(build_id_cache__add(dir, LIBC, id, n), 0);
	elf = xasprintf("%s%s/%s/elf", dir, LIBC, hex);
	assert_int_equal(stat(elf, &a), 0);
	assert_int_equal(stat(LIBC, &b), 0);
	assert_int_equal(a.st_size, b.st_size);
	path = xasprintf("%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	len = readlink(path, link, sizeof(link) - 1);
	assert_true(len > 0);
	link[len] = 0;
	assert_true(str_starts_with(link, "../../usr/lib/x86_64-linux-gnu/libc.so.6/"));
	/* A second add is a no-op. */
	assert_int_equal(build_id_cache__add(dir, LIBC, id, n), 0);
	free(path);
	free(elf);
}

static void kernel_gets_kallsyms(void **state)
{
	uint8_t id[20] = { 0x12, 0x34 };
	char *k = xasprintf("%s/[kernel.kallsyms]/1234000000000000000000000000000000000000/kallsyms",
			    dir);
	struct stat st;

	assert_int_equal(build_id_cache__add(dir, "[kernel.kallsyms]", id, 20), 0);
	assert_int_equal(stat(k, &st), 0);
	assert_true(st.st_size > 0);
	free(k);
}

static void refuses_what_it_cannot_cache(void **state)
{
	uint8_t id[20] = { 1 };

	assert_int_equal(build_id_cache__add(dir, "//anon", id, 20), -EINVAL);
	assert_int_equal(build_id_cache__add(dir, LIBC, id, 0), -EINVAL);
	assert_int_equal(build_id_cache__add(dir, "/nonexistent/file", id, 20), -ENOENT);
}

static void dir_from_environment(void **state)
{
	char *d;

	setenv("PERF_BUILDID_DIR", "/x/y", 1);
	d = build_id_cache__dir();
	assert_string_equal(d, "/x/y");
	free(d);
	unsetenv("PERF_BUILDID_DIR");
	setenv("HOME", "/home/u", 1);
	d = build_id_cache__dir();
	assert_string_equal(d, "/home/u/.debug");
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(adds_an_elf_file, setup, teardown),
		cmocka_unit_test_setup_teardown(kernel_gets_kallsyms, setup, teardown),
		cmocka_unit_test_setup_teardown(refuses_what_it_cannot_cache, setup, teardown),
		cmocka_unit_test(dir_from_environment),
	};
	return cmocka_run_group_tests_name("buildid-cache", tests, NULL, NULL);
}
