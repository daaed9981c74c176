/* Unit tests for core/live/ftrace: tracefs's control files written in perf ftrace's order,
 * on a directory of plain files standing in for tracefs, and put back afterwards. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <cmocka.h>

#include "core/events/cpumap.h"
#include "core/live/ftrace.h"
#include "fake-fs.h"

static char root[] = "/tmp/pcl-ftrace-XXXXXX";

static int make_tracefs(void **state)
{
	(void)state;
	strcpy(root, "/tmp/pcl-ftrace-XXXXXX");
	fake_fs_create(root);
	fake_fs_put(root, "tracing_on", "1\n");
	fake_fs_put(root, "current_tracer", "nop\n");
	fake_fs_put(root, "available_tracers", "blk function_graph function nop\n");
	fake_fs_put(root, "set_ftrace_pid", "no pid\n");
	fake_fs_put(root, "set_ftrace_filter", "");
	fake_fs_put(root, "set_ftrace_notrace", "");
	fake_fs_put(root, "set_graph_function", "");
	fake_fs_put(root, "set_graph_notrace", "");
	fake_fs_put(root, "tracing_cpumask", "3\n");
	fake_fs_put(root, "tracing_thresh", "0\n");
	fake_fs_put(root, "max_graph_depth", "0\n");
	fake_fs_put(root, "buffer_size_kb", "7 (expanded: 1408)\n");
	fake_fs_put(root, "options/function-fork", "0\n");
	fake_fs_put(root, "options/func_stack_trace", "0\n");
	fake_fs_put(root, "options/sleep-time", "1\n");
	fake_fs_put(root, "options/irq-info", "1\n");
	ftrace__use_tracefs_dir(root);
	return 0;
}

static int remove_tracefs(void **state)
{
	(void)state;
	fake_fs_remove(root);
	return 0;
}

static void assert_file(const char *file, const char *want)
{
	char *text;

	assert_int_equal(ftrace__read_file(file, &text, NULL), 0);
	assert_string_equal(text, want);
	free(text);
}

static void cpumask_as_perf(void **state)
{
	static const int one[] = { 1 }, two[] = { 0, 1 }, far[] = { 35 };
	int all[64];
	struct cpu_map *maps[4];
	static const char *const want[] = { "2", "3", "8,00000000", "ffffffff,ffffffff" };

	(void)state;
	for (int i = 0; i < 64; i++)
		all[i] = i;
	maps[0] = cpu_map__new_from(one, 1);
	maps[1] = cpu_map__new_from(two, 2);
	maps[2] = cpu_map__new_from(far, 1);
	maps[3] = cpu_map__new_from(all, 64);
	for (int i = 0; i < 4; i++) {
		char *mask = ftrace__cpumask(maps[i]);

		assert_string_equal(mask, want[i]);
		free(mask);
		cpu_map__delete(maps[i]);
	}
}

static void tracers_by_word(void **state)
{
	(void)state;
	assert_true(ftrace__has_tracer("blk function nop\n", "function"));
	assert_false(ftrace__has_tracer("blk function nop\n", "function_graph"));
	assert_true(ftrace__has_tracer("function_graph function\n", "function_graph"));
	assert_false(ftrace__has_tracer("", "nop"));
}

static void reset_apply_restore(void **state)
{
	struct ftrace_config c = { .tracer = "function_graph",
				   .graph_depth = 3,
				   .buffer_size = 4 << 20,
				   .inherit = true,
				   .func_stack_trace = true };
	struct ftrace_failure f;
	const int pids[] = { 12, 34 };
	const char *what = NULL;
	char *mask, *line;
	struct cpu_map *online = cpu_map__new_online();

	(void)state;
	ftrace_strlist__add(&c.filters, "vfs_read");
	ftrace_strlist__add(&c.filters, "vfs_write");
	ftrace__save_state();
	assert_int_equal(ftrace__reset(&f), 0);
	assert_file("tracing_on", "0\n");
	assert_file("current_tracer", "nop\n");
	assert_file("set_ftrace_pid", " \n");
	assert_file("options/sleep-time", "1\n");
	assert_file("options/irq-info", "0\n");
	mask = ftrace__cpumask(online);
	line = xasprintf("%s\n", mask);
	assert_file("tracing_cpumask", line);
	free(line);
	free(mask);

	assert_int_equal(ftrace__apply(&c, pids, 2, NULL, &what, &f), 0);
	assert_file("set_ftrace_pid", " \n12\n34\n");
	assert_file("set_ftrace_filter", " \nvfs_read\nvfs_write\n");
	assert_file("max_graph_depth", "3\n");
	assert_file("buffer_size_kb", "4096\n");
	assert_file("options/function-fork", "1\n");
	assert_file("options/func_stack_trace", "1\n");

	/* perf's final reset, then the values found come back: tracing on, the buffer */
	assert_int_equal(ftrace__reset(&f), 0);
	ftrace__restore();
	assert_file("tracing_on", "1\n");
	assert_file("buffer_size_kb", "1408\n");
	assert_file("options/irq-info", "1\n");
	assert_file("max_graph_depth", "0\n");
	ftrace_strlist__free(&c.filters);
	cpu_map__delete(online);
}

static void failures_name_the_file(void **state)
{
	struct ftrace_config c = { .tracer = "function" };
	struct ftrace_failure f;
	const char *what = NULL;
	char *path;

	(void)state;
	/* a kernel without function_graph has no max_graph_depth: nothing to reset there */
	path = xasprintf("%s/max_graph_depth", root);
	unlink(path);
	free(path);
	assert_int_equal(ftrace__reset(&f), 0);

	/* a file that cannot be opened for writing stops the reset, named */
	path = xasprintf("%s/set_ftrace_pid", root);
	unlink(path);
	assert_int_equal(mkdir(path, 0700), 0);
	free(path);
	assert_int_equal(ftrace__reset(&f), -EISDIR);
	assert_string_equal(f.file, "set_ftrace_pid");
	assert_string_equal(f.op, "open");
	assert_string_equal(f.value, " ");
	assert_int_equal(f.err, EISDIR);

	path = xasprintf("%s/set_ftrace_notrace", root);
	unlink(path);
	free(path);
	ftrace_strlist__add(&c.notrace, "schedule");
	assert_int_equal(ftrace__apply(&c, NULL, 0, NULL, &what, &f), -ENOENT);
	assert_string_equal(what, "failed to set tracing filters");
	assert_string_equal(f.file, "set_ftrace_notrace");
	assert_string_equal(f.value, "schedule");
	ftrace_strlist__free(&c.notrace);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpumask_as_perf),
		cmocka_unit_test(tracers_by_word),
		cmocka_unit_test_setup_teardown(reset_apply_restore, make_tracefs, remove_tracefs),
		cmocka_unit_test_setup_teardown(failures_name_the_file, make_tracefs,
						remove_tracefs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
