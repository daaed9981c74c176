/* selftests: the checks `pcl test` runs on this machine (event parsing, opening
 * tracepoints, ring buffers, symbols, record -> report, perf.data for the installed perf).
 * Each test returns TEST_OK, TEST_FAIL or test_skip(ctx, "reason"). */
#ifndef PCL_SELFTESTS_H
#define PCL_SELFTESTS_H

enum test_result {
	TEST_OK = 0,
	TEST_FAIL = -1,
	TEST_SKIP = -2,
};

struct test_ctx {
	int verbose;			/* -v: say what is checked and what went wrong */
	char skip_reason[96];		/* filled by test_skip() */
};

typedef int (*test_fn)(struct test_ctx *ctx);

struct test_case {
	const char *desc;
	test_fn fn;
};

/* A numbered test: one function, or sub-tests (NULL-terminated) numbered N.1, N.2 ... */
struct test_suite {
	const char *desc;
	test_fn fn;
	const struct test_case *subtests;
};

/* NULL-terminated, in the order (and so with the numbers) pcl test shows them */
extern const struct test_suite selftests[];

/* Skips with a reason, shown as "Skip (reason)". */
int test_skip(struct test_ctx *ctx, const char *reason);

/* `pcl test -w NAME [ARG]`: the workloads the tests record.  Returns the exit status,
 * or -1 for an unknown workload. */
int selftest_workload(const char *name, const char *arg);

#endif
