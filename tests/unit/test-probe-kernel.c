/* Unit tests for core/probe/probe-kernel: kprobe sites from a kallsyms
 * file, as "_text+N" offsets (perf 6.1's placement without a vmlinux). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/probe/probe-kernel.h"

static char path[64];

static void write_kallsyms(const char *text)
{
	snprintf(path, sizeof(path), "/tmp/test-probe-kernel-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs(text, f);
	fclose(f);
}

static void test_offsets(void **state)
{
	uint64_t *offsets;

	(void)state;
	/* addresses from this machine: vfs_read is _text+7166832 for perf */
	write_kallsyms("ffffffff81000000 T _text\n"
		       "ffffffff815f6570 t PageHuge\n"
		       "ffffffff816d5b70 T vfs_read\n"
		       "ffffffff816d5c00 D vfs_read_data\n"
		       "ffffffff8168e1c0 t PageHuge\n"
		       "ffffffff82000000 d vfs_write\n");
	assert_int_equal(probe_kallsyms__offsets(path, "vfs_read", &offsets), 1);
	assert_int_equal(offsets[0], 7166832);
	free(offsets);
	/* every text symbol of the name, in the file's order */
	assert_int_equal(probe_kallsyms__offsets(path, "PageHuge", &offsets), 2);
	assert_int_equal(offsets[0], 6251888);
	assert_int_equal(offsets[1], 6873536);
	free(offsets);
	/* data is no function */
	assert_int_equal(probe_kallsyms__offsets(path, "vfs_write", &offsets), 0);
	free(offsets);
	unlink(path);
}

static void test_without_text(void **state)
{
	uint64_t *offsets;

	(void)state;
	write_kallsyms("ffffffff816d5b70 T vfs_read\n");
	assert_int_equal(probe_kallsyms__offsets(path, "vfs_read", &offsets), -1);
	assert_null(offsets);
	unlink(path);
	assert_int_equal(probe_kallsyms__offsets("/nonexistent", "vfs_read", &offsets), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_without_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
