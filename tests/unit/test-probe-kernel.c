/* Unit tests for core/probe/probe-kernel: kprobe sites from a kallsyms
 * file, as "_text+N" offsets (perf 6.1's placement without a vmlinux),
 * checked against each function's size and the kernel's text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/probe/probe-dwarf.h"
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

/* addresses from this machine: vfs_read is _text+7166832 for perf */
static const char kallsyms[] = "ffffffff81000000 T _text\n"
			       "ffffffff81000000 T first_alias\n"
			       "ffffffff81000300 T irq_entries_start\n"
			       "ffffffff81000300 T __irqentry_text_start\n"
			       "ffffffff81000960 t spurious\n"
			       "ffffffff815f6570 t PageHuge\n"
			       "ffffffff815f6600 r ro_data\n"
			       "ffffffff815f6670 t next\n"
			       "ffffffff816d5b70 T vfs_read\n"
			       "ffffffff816d5c00 D vfs_read_data\n"
			       "ffffffff8168e1c0 t PageHuge\n"
			       "ffffffff8168e200 t after\n"
			       "ffffffff82000000 T _etext\n"
			       "ffffffff82000000 d vfs_write\n"
			       "ffffffff83000000 T late_fn\n"
			       "ffffffffc0203000 t tramp\t[__builtin__ftrace]\n";

struct fixture {
	struct probe_msgs msgs;
	struct probe_kernel k;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	write_kallsyms(kallsyms);
	f->msgs = (struct probe_msgs){ .text = STRBUF_INIT, .verbose = true };
	probe_kernel__init(&f->k, path);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	probe_kernel__exit(&f->k);
	strbuf_release(&f->msgs.text);
	free(f);
	unlink(path);
	return 0;
}

/* The sites of pattern+offset, the messages afresh in f->msgs. */
static int sites_of(struct fixture *f, const char *pattern, unsigned long offset,
		    struct probe_kernel_site **sites)
{
	strbuf_reset(&f->msgs.text);
	return probe_kernel__function_sites(&f->k, pattern, offset, 128, &f->msgs, sites);
}

static const char *msgs_of(struct fixture *f)
{
	return strbuf_str(&f->msgs.text);
}

static void test_sites(void **state)
{
	struct fixture *f = *state;
	struct probe_kernel_site *sites;

	assert_int_equal(sites_of(f, "vfs_read", 0, &sites), 1);
	assert_int_equal(sites[0].offset, 7166832);
	free(sites);
	/* every function of the name, in address order, at the offset */
	assert_int_equal(sites_of(f, "PageHuge", 0x10, &sites), 2);
	assert_int_equal(sites[0].offset, 6251888 + 0x10);
	assert_int_equal(sites[1].offset, 6873536 + 0x10);
	free(sites);
	/* a glob, each site named by its symbol */
	assert_int_equal(sites_of(f, "vfs_*", 0, &sites), 1);
	assert_string_equal(sites[0].name, "vfs_read");
	free(sites);
	/* data is no function, and perf says nothing of it */
	assert_int_equal(sites_of(f, "vfs_write", 0, &sites), -ENOENT);
	assert_string_equal(msgs_of(f), "");
	assert_int_equal(sites_of(f, "nosuch", 0, &sites), -ENOENT);
	assert_string_equal(msgs_of(f), "Failed to find symbol nosuch in kernel\n");
}

static void test_sizes(void **state)
{
	struct fixture *f = *state;
	struct probe_kernel_site *sites;

	/* a symbol ends where the next kept one starts (a read-only one is
	 * not kept): the second PageHuge is 0x40 long, and the offset of the
	 * whole definition checked against each */
	assert_int_equal(sites_of(f, "PageHuge", 0x40, &sites), 2);
	free(sites);
	assert_int_equal(sites_of(f, "PageHuge", 0x41, &sites), -ENOENT);
	assert_string_equal(msgs_of(f), "Offset 65 is bigger than the size of PageHuge\n");
	assert_int_equal(sites_of(f, "next", 0x70500, &sites), 1);
	free(sites);
	/* an alias followed by another at its address has no size */
	assert_int_equal(sites_of(f, "irq_entries_start", 1, &sites), -ENOENT);
	assert_int_equal(sites_of(f, "__irqentry_text_start", 0x660, &sites), 1);
	free(sites);
	/* the map's first address is out of the text; a later alias there
	 * counts once */
	assert_int_equal(sites_of(f, "_text", 0, &sites), -ENOENT);
	assert_string_equal(msgs_of(f), "_text is out of .text, skip it.\n");
	assert_int_equal(sites_of(f, "*", 0, &sites), 9);
	assert_non_null(strstr(msgs_of(f),
			       "Found duplicated symbol first_alias @ ffffffff81000000\n"));
	free(sites);
}

static void test_text(void **state)
{
	struct fixture *f = *state;
	struct probe_kernel_site *sites;

	/* before any symbol is looked up: (_text, _etext] */
	assert_true(probe_kernel__out_of_text(&f->k, 0xffffffff81000000));
	assert_false(probe_kernel__out_of_text(&f->k, 0xffffffff81000001));
	assert_false(probe_kernel__out_of_text(&f->k, 0xffffffff82000000));
	assert_true(probe_kernel__out_of_text(&f->k, 0xffffffff82000001));
	/* then the symbols' span, up to the page after the last one's */
	assert_int_equal(sites_of(f, "late_fn", 0, &sites), 1);
	free(sites);
	assert_false(probe_kernel__out_of_text(&f->k, 0xffffffff83001000));
	assert_true(probe_kernel__out_of_text(&f->k, 0xffffffff83002001));
}

static void test_unreadable(void **state)
{
	struct fixture f;
	struct probe_kernel_site *sites;

	(void)state;
	f.msgs = (struct probe_msgs){ .text = STRBUF_INIT, .verbose = true };
	/* perf's map then covers every address, and no symbol is found */
	probe_kernel__init(&f.k, "/nonexistent");
	assert_false(probe_kernel__out_of_text(&f.k, 0x1000));
	assert_int_equal(sites_of(&f, "vfs_read", 0, &sites), -ENOENT);
	assert_null(sites);
	assert_non_null(strstr(msgs_of(&f), "Failed to load symbols from /proc/kallsyms\n"));
	probe_kernel__exit(&f.k);
	strbuf_release(&f.msgs.text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sites, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text, setup, teardown),
		cmocka_unit_test(test_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
