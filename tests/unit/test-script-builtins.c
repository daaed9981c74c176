/* Unit tests for core/analysis/script-builtins: the catalogue, tallies in
 * first-seen order, the argument rules, /proc/kallsyms and /proc/iomem
 * look-ups as perf's scripts do them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/analysis/script-builtins.h"

static void catalogue(void **state)
{
	size_t nr;
	const struct script_builtin *sb = script_builtins(&nr);

	assert_int_equal(nr, SB_NR);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(sb[i].id, i);
		assert_ptr_equal(script_builtin__find(sb[i].name), &sb[i]);
	}
	assert_string_equal(sb[0].name, "rwtop");	/* perf's list order */
	assert_null(script_builtin__find("syscall-counts.py"));
	assert_string_equal(script_builtin__find("futex-contention")->record_args[1],
			    "syscalls:sys_enter_futex");
}

static int by_count_desc(const struct sb_row *a, const struct sb_row *b)
{
	return (a->count < b->count) - (a->count > b->count);
}

static void tallies_keep_first_seen_order(void **state)
{
	struct script_builtin_run run;
	size_t *order;

	assert_int_equal(script_builtin_run__init(&run, script_builtin__find("syscall-counts"), 0,
						  NULL), 0);
	for (int i = 0; i < 1000; i++)
		sb_tally__get(&run.counts, i % 3 ? "b" : "a", i % 5, 0, 0)->count++;
	assert_int_equal(run.counts.nr, 10);
	assert_string_equal(run.counts.rows[0].str, "a");
	assert_int_equal(run.counts.rows[1].key[0], 1);
	assert_null(sb_tally__find(&run.counts, "a", 7, 0, 0));
	assert_int_equal(sb_tally__find(&run.counts, "b", 4, 0, 0)->count, 133);
	order = sb_tally__sorted(&run.counts, by_count_desc);
	for (size_t i = 1; i < run.counts.nr; i++)	/* stable: ties keep their order */
		assert_true(run.counts.rows[order[i - 1]].count > run.counts.rows[order[i]].count ||
			    order[i - 1] < order[i]);
	free(order);
	script_builtin_run__exit(&run);
}

static void arguments(void **state)
{
	struct script_builtin_run run;
	const char *pid[] = { "42" }, *comm[] = { "app" }, *two[] = { "app", "5" };

	assert_int_equal(script_builtin_run__init(&run, script_builtin__find(
		"syscall-counts-by-pid"), 1, pid), 0);
	assert_int_equal(run.for_pid, 42);
	assert_null(run.for_comm);
	script_builtin_run__exit(&run);
	assert_int_equal(script_builtin_run__init(&run, script_builtin__find("syscall-counts"), 1,
						  pid), 0);
	assert_string_equal(run.for_comm, "42");	/* a comm for syscall-counts */
	script_builtin_run__exit(&run);
	assert_int_equal(script_builtin_run__init(&run, script_builtin__find("syscall-counts"), 2,
						  two), -1);
	script_builtin_run__exit(&run);
	assert_int_equal(script_builtin_run__init(&run, script_builtin__find("rw-by-file"), 0,
						  NULL), -1);
	script_builtin_run__exit(&run);
	assert_int_equal(script_builtin_run__init(&run, script_builtin__find("sctop"), 2, two), 0);
	assert_string_equal(run.for_comm, "app");
	assert_int_equal(run.interval_ns, 5000000000ULL);
	script_builtin_run__exit(&run);
	assert_int_equal(script_builtin_run__init(&run, script_builtin__find("sctop"), 1, comm), 0);
	assert_int_equal(run.interval_ns, 3000000000ULL);
	script_builtin_run__exit(&run);
}

static void screens(void **state)
{
	struct script_builtin_run run;
	const char *one[] = { "1" };

	assert_int_equal(script_builtin_run__init(&run, script_builtin__find("sctop"), 1, one), 0);
	assert_false(script_builtin_run__screen_due(&run, 10000000000ULL));
	assert_false(script_builtin_run__screen_due(&run, 10900000000ULL));
	assert_true(script_builtin_run__screen_due(&run, 11000000000ULL));
	assert_false(script_builtin_run__screen_due(&run, 11500000000ULL));
	assert_true(script_builtin_run__screen_due(&run, 15000000000ULL));	/* gaps: one */
	assert_false(script_builtin_run__screen_due(&run, 15100000000ULL));
	script_builtin_run__exit(&run);
}

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/pcl-sbi-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void kallsyms_lookup(void **state)
{
	char *path = write_tmp("ffffffff81000200 T b_func\nffffffff81000100 T a_func\n"
			       "ffffffff81000200 t a_alias\nffffffffc0000000 t mod_fn\t[mod]\n");
	struct ksym_table t;

	ksym_table__load(&t, path);
	assert_int_equal(t.nr, 4);
	assert_null(ksym_table__find(&t, 0xffffffff81000000ULL));
	assert_string_equal(ksym_table__find(&t, 0xffffffff81000150ULL)->name, "a_func");
	/* equal addresses sort by name: the script takes the last */
	assert_string_equal(ksym_table__find(&t, 0xffffffff81000200ULL)->name, "b_func");
	assert_string_equal(ksym_table__find(&t, 0xffffffffc0000010ULL)->name, "mod_fn");
	ksym_table__exit(&t);
	unlink(path);
	free(path);
}

static void iomem_types(void **state)
{
	char *path = write_tmp("00000000-00000fff : Reserved\n"
			       "00001000-0009ffff : System RAM\n"
			       "000a0000-000fffff : PCI Bus 0000:00\n"
			       "00100000-3fffffff : System RAM\n"
			       "  01000000-01ffffff : Kernel code\n"
			       "40000000-4fffffff : Persistent Memory\n");
	struct iomem_table t;

	iomem_table__load(&t, path);
	assert_string_equal(iomem_table__type(&t, 0), "N/A");
	assert_string_equal(iomem_table__type(&t, 0x500), " Reserved\n");	/* as the script */
	assert_string_equal(iomem_table__type(&t, 0x2000), "System RAM");
	assert_string_equal(iomem_table__type(&t, 0x1800000), "System RAM");
	assert_string_equal(iomem_table__type(&t, 0xa0000), " PCI Bus 0000:00\n");
	assert_string_equal(iomem_table__type(&t, 0x40000000), "Persistent Memory");
	assert_string_equal(iomem_table__type(&t, 0x90000000), "N/A");
	iomem_table__exit(&t);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(catalogue),
		cmocka_unit_test(tallies_keep_first_seen_order),
		cmocka_unit_test(arguments),
		cmocka_unit_test(screens),
		cmocka_unit_test(kallsyms_lookup),
		cmocka_unit_test(iomem_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
