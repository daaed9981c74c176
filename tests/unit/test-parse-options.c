/* Unit tests for util/parse-options: perf's option habits. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/parse-options.h"

static const char *const usage[] = { "pcl test [<options>]", NULL };

static bool all_cpus, no_inherit_unset;
static int verbose, freq;
static const char *output, *callgraph, *graph_mode;
static const char *events[8];
static int nevents;
static bool inherit = true;

static int add_event(const struct option *opt, const char *arg, bool unset)
{
	events[nevents++] = arg;
	return 0;
}

static int set_inherit(const struct option *opt, const char *arg, bool unset)
{
	inherit = unset;	/* option is --no-inherit: plain use disables */
	no_inherit_unset = unset;
	return 0;
}

static const struct option opts[] = {
	OPT_BOOLEAN('a', "all-cpus", &all_cpus, "system-wide"),
	OPT_INCR('v', "verbose", &verbose, "more output"),
	OPT_INTEGER('F', "freq", &freq, "frequency"),
	OPT_STRING('o', "output", &output, "file", "output file"),
	OPT_CALLBACK('e', "event", NULL, "event", "event selector", add_event),
	OPT_STRING_OPTARG('g', "call-graph", &callgraph, "mode", "call graph", "fp"),
	OPT_CALLBACK_NOOPT('i', "no-inherit", NULL, "no inherit", set_inherit),
	{ .type = OPT_STRING_T, .short_name = 'G', .long_name = "graph", .value = &graph_mode,
	  .flags = OPTF_OPTARG | OPTF_LASTARG_DEFAULT, .defstr = "graph,caller", .argh = "mode",
	  .help = "perf report's -g" },
	OPT_END(),
};

static int reset(void **state)
{
	all_cpus = false;
	verbose = freq = nevents = 0;
	output = callgraph = graph_mode = NULL;
	inherit = true;
	return 0;
}

static int parse(int argc, const char **argv, int flags)
{
	return parse_options(argc, argv, opts, usage, flags);
}

static void bundled_short(void **state)
{
	const char *argv[] = { "t", "-avv", "-F99", "-o", "x.data", NULL };
	assert_int_equal(parse(5, argv, 0), 0);
	assert_true(all_cpus);
	assert_int_equal(verbose, 2);
	assert_int_equal(freq, 99);
	assert_string_equal(output, "x.data");
}

static void long_forms(void **state)
{
	const char *argv[] = { "t", "--freq=7", "--output", "f", "--all", NULL };
	assert_int_equal(parse(5, argv, 0), 0);
	assert_int_equal(freq, 7);
	assert_string_equal(output, "f");
	assert_true(all_cpus);	/* unique prefix */
}

static void repeatable(void **state)
{
	const char *argv[] = { "t", "-e", "a", "--event=b", "-ec", NULL };
	assert_int_equal(parse(5, argv, 0), 0);
	assert_int_equal(nevents, 3);
	assert_string_equal(events[0], "a");
	assert_string_equal(events[1], "b");
	assert_string_equal(events[2], "c");
}

static void optional_argument(void **state)
{
	const char *argv1[] = { "t", "-g", "ls", NULL };
	const char *argv2[] = { "t", "--call-graph=dwarf", NULL };
	assert_int_equal(parse(3, argv1, PARSE_OPT_STOP_AT_NON_OPTION), 1);
	assert_string_equal(callgraph, "fp");	/* "ls" is the workload */
	assert_string_equal(argv1[0], "ls");
	reset(NULL);
	assert_int_equal(parse(2, argv2, 0), 0);
	assert_string_equal(callgraph, "dwarf");
}

/* perf's "last argument default": the next argument is the value, unless
 * there is none or it is an option */
static void last_argument_default(void **state)
{
	const char *value[] = { "t", "-G", "fractal", NULL };
	const char *option[] = { "t", "-G", "-o", "f", NULL };
	const char *long_option[] = { "t", "--graph", "-a", NULL };
	const char *last[] = { "t", "--graph", NULL };

	assert_int_equal(parse(3, value, 0), 0);
	assert_string_equal(graph_mode, "fractal");
	reset(NULL);
	assert_int_equal(parse(4, option, 0), 0);
	assert_string_equal(graph_mode, "graph,caller");
	assert_string_equal(output, "f");
	reset(NULL);
	assert_int_equal(parse(3, long_option, 0), 0);
	assert_string_equal(graph_mode, "graph,caller");
	assert_true(all_cpus);
	reset(NULL);
	assert_int_equal(parse(2, last, 0), 0);
	assert_string_equal(graph_mode, "graph,caller");
}

static void negation(void **state)
{
	const char *argv1[] = { "t", "-a", "--no-all-cpus", NULL };
	const char *argv2[] = { "t", "--no-inherit", NULL };
	const char *argv3[] = { "t", "--inherit", NULL };
	assert_int_equal(parse(3, argv1, 0), 0);
	assert_false(all_cpus);
	assert_int_equal(parse(2, argv2, 0), 0);
	assert_false(inherit);
	assert_int_equal(parse(2, argv3, 0), 0);
	assert_true(inherit);
}

static void workload_split(void **state)
{
	const char *argv1[] = { "t", "-a", "sleep", "-a", "1", NULL };
	const char *argv2[] = { "t", "-a", "--", "-x", NULL };
	assert_int_equal(parse(5, argv1, PARSE_OPT_STOP_AT_NON_OPTION), 3);
	assert_string_equal(argv1[0], "sleep");
	assert_string_equal(argv1[1], "-a");
	assert_int_equal(parse(4, argv2, PARSE_OPT_STOP_AT_NON_OPTION), 1);
	assert_string_equal(argv2[0], "-x");
}

static bool samples_column, period_column;

static const struct option exclusive_opts[] = {
	{ .type = OPT_BOOL_T, .short_name = 'n', .long_name = "show-nr-samples",
	  .value = &samples_column, .flags = OPTF_EXCLUSIVE, .help = "samples" },
	{ .type = OPT_BOOL_T, .long_name = "show-total-period", .value = &period_column,
	  .flags = OPTF_EXCLUSIVE, .help = "periods" },
	OPT_END(),
};

/* The exit status of parsing argv in a child (0 when it parsed). */
static int parse_status(int argc, const char **argv)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		/* perf's complaint goes to stderr: not wanted in the test log */
		if (!freopen("/dev/null", "w", stderr))
			_exit(2);
		parse_options(argc, argv, exclusive_opts, usage, 0);
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void exclusive(void **state)
{
	const char *one[] = { "test", "-n", "-n", NULL };
	const char *both[] = { "test", "--show-total-period", "-n", NULL };
	const char *negated[] = { "test", "-n", "--no-show-total-period", NULL };

	assert_int_equal(parse_status(3, one), 0);	/* the same one again is fine */
	assert_int_equal(parse_status(3, both), 129);
	assert_int_equal(parse_status(3, negated), 129);	/* perf refuses --no-X too */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(bundled_short, reset),
		cmocka_unit_test_setup(long_forms, reset),
		cmocka_unit_test_setup(repeatable, reset),
		cmocka_unit_test_setup(optional_argument, reset),
		cmocka_unit_test_setup(last_argument_default, reset),
		cmocka_unit_test_setup(negation, reset),
		cmocka_unit_test_setup(workload_split, reset),
		cmocka_unit_test(exclusive),
	};
	return cmocka_run_group_tests_name("parse-options", tests, NULL, NULL);
}
