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

static int sites_of(struct probe_kernel *k, const char *pattern, unsigned long offset,
		    struct probe_kernel_site **sites, struct probe_msgs *msgs)
{
	strbuf_reset(&msgs->text);
	return probe_kernel__function_sites(k, pattern, offset, 128, msgs, sites);
}

static void test_sites(void **state)
{
	struct probe_msgs msgs = { STRBUF_INIT, true };
	struct probe_kernel k;
	struct probe_kernel_site *sites;

	(void)state;
	write_kallsyms(kallsyms);
	probe_kernel__init(&k, path);
	assert_int_equal(sites_of(&k, "vfs_read", 0, &sites, &msgs), 1);
	assert_int_equal(sites[0].offset, 7166832);
	free(sites);
	/* every function of the name, in address order, at the offset */
	assert_int_equal(sites_of(&k, "PageHuge", 0x10, &sites, &msgs), 2);
	assert_int_equal(sites[0].offset, 6251888 + 0x10);
	assert_int_equal(sites[1].offset, 6873536 + 0x10);
	free(sites);
	/* a glob, each site named by its symbol */
	assert_int_equal(sites_of(&k, "vfs_*", 0, &sites, &msgs), 1);
	assert_string_equal(sites[0].name, "vfs_read");
	free(sites);
	/* data is no function, and perf says nothing of it */
	assert_int_equal(sites_of(&k, "vfs_write", 0, &sites, &msgs), -ENOENT);
	assert_string_equal(strbuf_str(&msgs.text), "");
	assert_int_equal(sites_of(&k, "nosuch", 0, &sites, &msgs), -ENOENT);
	assert_string_equal(strbuf_str(&msgs.text), "Failed to find symbol nosuch in kernel\n");
	probe_kernel__exit(&k);
	unlink(path);
}

static void test_sizes(void **state)
{
	struct probe_msgs msgs = { STRBUF_INIT, true };
	struct probe_kernel k;
	struct probe_kernel_site *sites;

	(void)state;
	write_kallsyms(kallsyms);
	probe_kernel__init(&k, path);
	/* a symbol ends where the next kept one starts (a read-only one is
	 * not kept): the second PageHuge is 0x40 long, and the offset of the
	 * whole definition checked against each */
	assert_int_equal(sites_of(&k, "PageHuge", 0x40, &sites, &msgs), 2);
	free(sites);
	assert_int_equal(sites_of(&k, "PageHuge", 0x41, &sites, &msgs), -ENOENT);
	assert_string_equal(strbuf_str(&msgs.text),
			    "Offset 65 is bigger than the size of PageHuge\n");
	assert_int_equal(sites_of(&k, "next", 0x70500, &sites, &msgs), 1);
	free(sites);
	/* an alias followed by another at its address has no size */
	assert_int_equal(sites_of(&k, "irq_entries_start", 1, &sites, &msgs), -ENOENT);
	assert_int_equal(sites_of(&k, "__irqentry_text_start", 0x660, &sites, &msgs), 1);
	free(sites);
	/* the map's first address is out of the text; a later alias there
	 * counts once */
	assert_int_equal(sites_of(&k, "_text", 0, &sites, &msgs), -ENOENT);
	assert_string_equal(strbuf_str(&msgs.text), "_text is out of .text, skip it.\n");
	assert_int_equal(sites_of(&k, "*", 0, &sites, &msgs), 9);
	assert_non_null(strstr(strbuf_str(&msgs.text),
			       "Found duplicated symbol first_alias @ ffffffff81000000\n"));
	free(sites);
	probe_kernel__exit(&k);
	strbuf_release(&msgs.text);
	unlink(path);
}

static void test_text(void **state)
{
	struct probe_msgs msgs = { STRBUF_INIT, true };
	struct probe_kernel k;
	struct probe_kernel_site *sites;

	(void)state;
	write_kallsyms(kallsyms);
	probe_kernel__init(&k, path);
	/* before any symbol is looked up: (_text, _etext] */
	assert_true(probe_kernel__out_of_text(&k, 0xffffffff81000000));
	assert_false(probe_kernel__out_of_text(&k, 0xffffffff81000001));
	assert_false(probe_kernel__out_of_text(&k, 0xffffffff82000000));
	assert_true(probe_kernel__out_of_text(&k, 0xffffffff82000001));
	/* then the symbols' span, up to the page after the last one's */
	assert_int_equal(sites_of(&k, "late_fn", 0, &sites, &msgs), 1);
	free(sites);
	assert_false(probe_kernel__out_of_text(&k, 0xffffffff83001000));
	assert_true(probe_kernel__out_of_text(&k, 0xffffffff83002001));
	probe_kernel__exit(&k);
	strbuf_release(&msgs.text);
	unlink(path);
}

static void test_unreadable(void **state)
{
	struct probe_msgs msgs = { STRBUF_INIT, true };
	struct probe_kernel k;
	struct probe_kernel_site *sites;

	(void)state;
	probe_kernel__init(&k, "/nonexistent");
	assert_true(probe_kernel__out_of_text(&k, 0xffffffff81000001));
	assert_int_equal(sites_of(&k, "vfs_read", 0, &sites, &msgs), -ENOENT);
	assert_null(sites);
	probe_kernel__exit(&k);
	strbuf_release(&msgs.text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sites),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
