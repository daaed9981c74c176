/* pcl test: runs the self-tests of selftests.c, numbered, in perf test's layout (on stderr,
 * as perf writes it):
 * "  4: mmap interface tests      :" then "  4.1: ...  : Ok", each in a child process
 * (a crash is a failure, not the end of the run) unless -F. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "selftests.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

struct test_run {
	int verbose;
	bool dont_fork;
	const char *skip;	/* -s: comma-separated test numbers */
	int width;		/* the longest description: where the colon goes */
	bool color;
};

static int nr_subtests(const struct test_suite *t)
{
	int n = 0;

	while (t->subtests && t->subtests[n].desc)
		n++;
	return n;
}

static bool contains_nocase(const char *haystack, const char *needle)
{
	return strcasestr(haystack, needle) != NULL;
}

/* A number selects test N; other words select tests whose (sub-)descriptions hold them. */
static bool selected(const struct test_suite *t, int number, int argc, const char **argv)
{
	if (argc == 0)
		return true;
	for (int i = 0; i < argc; i++) {
		char *end;
		long n = strtol(argv[i], &end, 10);

		if (*argv[i] && !*end) {
			if (n == number)
				return true;
			continue;
		}
		if (contains_nocase(t->desc, argv[i]))
			return true;
		for (int s = 0; s < nr_subtests(t); s++)
			if (contains_nocase(t->subtests[s].desc, argv[i]))
				return true;
	}
	return false;
}

static bool skipped_by_user(const struct test_run *run, int number)
{
	for (const char *p = run->skip; p && *p;) {
		char *end;
		long n = strtol(p, &end, 10);

		if (end != p && n == number)
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

static void print_result(const struct test_run *run, int result, const char *reason)
{
	const char *color = "", *text;

	switch (result) {
	case TEST_OK:
		text = "Ok";
		color = "\033[32m";
		break;
	case TEST_SKIP:
		text = "Skip";
		color = "\033[33m";
		break;
	default:
		text = "FAILED!";
		color = "\033[31m";
		break;
	}
	if (run->color)
		fprintf(stderr, " %s%s\033[m", color, text);
	else
		fprintf(stderr, " %s", text);
	if (result == TEST_SKIP && reason && *reason)
		fprintf(stderr, " (%s)", reason);
	fputc('\n', stderr);
}

/* Runs fn, in a child unless -F; a child's skip reason comes back through a pipe. */
static int run_one(const struct test_run *run, test_fn fn, struct test_ctx *ctx)
{
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if (run->dont_fork)
		return fn(ctx);
	if (pipe(pipefd))
		return TEST_FAIL;
	pid = fork();
	if (pid < 0)
		return TEST_FAIL;
	if (pid == 0) {
		int result;

		close(pipefd[0]);
		if (!run->verbose && !freopen("/dev/null", "w", stderr))
			_exit(1);
		result = fn(ctx);
		if (write(pipefd[1], ctx->skip_reason, sizeof(ctx->skip_reason)) < 0)
			_exit(1);
		_exit(result == TEST_OK ? 0 : result == TEST_SKIP ? 2 : 1);
	}
	close(pipefd[1]);
	if (run->verbose)
		fprintf(stderr, "test child forked, pid %d\n", pid);
	n = read(pipefd[0], ctx->skip_reason, sizeof(ctx->skip_reason));
	close(pipefd[0]);
	if (n != (ssize_t)sizeof(ctx->skip_reason))
		ctx->skip_reason[0] = '\0';
	ctx->skip_reason[sizeof(ctx->skip_reason) - 1] = '\0';
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return TEST_FAIL;	/* killed: a crash is a failure */
	if (run->verbose)
		fprintf(stderr, "test child finished with %d\n", WEXITSTATUS(status));
	return WEXITSTATUS(status) == 0 ? TEST_OK :
	       WEXITSTATUS(status) == 2 ? TEST_SKIP : TEST_FAIL;
}

/* "  N: desc   :" or "  N.M: desc :" then the result; -v frames the test's own notes. */
static void run_and_report(const struct test_run *run, const char *prefix, int width,
			   const char *desc, test_fn fn)
{
	struct test_ctx ctx = { .verbose = run->verbose };
	int result;

	fprintf(stderr, "%s %-*s:", prefix, width, desc);
	if (run->verbose)
		fprintf(stderr, "\n--- start ---\n");
	result = run_one(run, fn, &ctx);
	if (run->verbose)
		fprintf(stderr, "---- end ----\n%s:", desc);
	print_result(run, result, ctx.skip_reason);
}

/* Every selected test, in order; failures show in the output only (perf's exit status) */
static void run_tests(struct test_run *run, int argc, const char **argv)
{
	for (int i = 0; selftests[i].desc; i++) {
		const struct test_suite *t = &selftests[i];
		char prefix[32];

		if (!selected(t, i + 1, argc, argv))
			continue;
		snprintf(prefix, sizeof(prefix), "%3d:", i + 1);
		if (skipped_by_user(run, i + 1)) {
			fprintf(stderr, "%s %-*s:", prefix, run->width, t->desc);
			print_result(run, TEST_SKIP, "user override");
			continue;
		}
		if (!t->subtests) {
			run_and_report(run, prefix, run->width, t->desc, t->fn);
			continue;
		}
		fprintf(stderr, "%s %-*s:\n", prefix, run->width, t->desc);
		for (int s = 0; s < nr_subtests(t); s++) {
			snprintf(prefix, sizeof(prefix), "%3d.%1d:", i + 1, s + 1);
			run_and_report(run, prefix, run->width - 2, t->subtests[s].desc,
				       t->subtests[s].fn);
		}
	}
}

static void list_tests(int argc, const char **argv)
{
	for (int i = 0; selftests[i].desc; i++) {
		const struct test_suite *t = &selftests[i];

		if (!selected(t, i + 1, argc, argv))
			continue;
		fprintf(stderr, "%3d: %s\n", i + 1, t->desc);
		for (int s = 0; s < nr_subtests(t); s++)
			fprintf(stderr, "%3d:%1d: %s\n", i + 1, s + 1, t->subtests[s].desc);
	}
}

/* perf's rule: the colon goes after the longest test description (sub-tests, two
 * characters further in, are padded to two less) */
static int description_width(void)
{
	int width = 0;

	for (int i = 0; selftests[i].desc; i++) {
		int len = (int)strlen(selftests[i].desc);

		width = len > width ? len : width;
	}
	return width;
}

int cmd_test(int argc, const char **argv)
{
	static const char *const usage[] = {
		"pcl test [<options>] [{list <test-name-fragment>|[<test-name-fragments>|"
		"<test-numbers>]}]",
		NULL
	};
	const char *workload = NULL;
	struct test_run run = { 0 };
	const struct option opts[] = {
		OPT_STRING('s', "skip", &run.skip, "tests", "tests to skip"),
		OPT_INCR('v', "verbose", &run.verbose, "be more verbose (show symbol address, etc)"),
		OPT_BOOLEAN('F', "dont-fork", &run.dont_fork, "Do not fork for testcase"),
		OPT_STRING('w', "workload", &workload, "work", "workload to run for testing"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, usage, 0);
	if (workload) {
		int ret = selftest_workload(workload, argc > 0 ? argv[0] : NULL);

		if (ret < 0)
			fprintf(stderr, "No workload found: %s\n", workload);
		return ret < 0 ? PCL_EXIT_ERROR : ret;
	}
	if (argc > 0 && !strcmp(argv[0], "list")) {
		list_tests(argc - 1, argv + 1);
		return 0;
	}
	run.width = description_width();
	run.color = isatty(STDERR_FILENO);
	run_tests(&run, argc, argv);
	return 0;
}
