/* pcl bench: perf bench's collections of micro-benchmarks (scheduler and IPC, system calls,
 * memory, futexes).  This file holds the collection table, the common options and the
 * dispatch; each benchmark does the same work as perf 6.1's (same message sizes, loops and
 * thread counts) and prints perf's layout, so the two tools' numbers compare directly. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "cmd-bench.h"
#include "core/symbols/kernel-maps.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

enum bench_format bench_format = BENCH_FORMAT_DEFAULT;
unsigned int bench_repeat = 10;

struct bench_collection {
	const char *name;
	const char *summary;
	const struct bench *benches;
	const char *all_summary;	/* the collection's "all" line; NULL: none */
};

static const struct bench sched_benches[] = {
	{ "messaging", "Benchmark for scheduling and IPC", bench_sched_messaging },
	{ "pipe", "Benchmark for pipe() between two processes", bench_sched_pipe },
	{ NULL, NULL, NULL },
};

static const struct bench syscall_benches[] = {
	{ "basic", "Benchmark for basic getppid(2) calls", bench_syscall_basic },
	{ NULL, NULL, NULL },
};

static const struct bench mem_benches[] = {
	{ "memcpy", "Benchmark for memcpy() functions", bench_mem_memcpy },
	{ "memset", "Benchmark for memset() functions", bench_mem_memset },
	{ "find_bit", "Benchmark for find_bit() functions", bench_mem_find_bit },
	{ NULL, NULL, NULL },
};

static const struct bench futex_benches[] = {
	{ "hash", "Benchmark for futex hash table", bench_futex_hash },
	{ "wake", "Benchmark for futex wake calls", bench_futex_wake },
	{ "wake-parallel", "Benchmark for parallel futex wake calls", bench_futex_wake_parallel },
	{ "requeue", "Benchmark for futex requeue calls", bench_futex_requeue },
	{ "lock-pi", "Benchmark for futex lock_pi calls", bench_futex_lock_pi },
	{ NULL, NULL, NULL },
};

static const struct bench numa_benches[] = {
	{ "mem", "Benchmark for NUMA workloads", bench_numa_mem },
	{ NULL, NULL, NULL },
};

static const struct bench epoll_benches[] = {
	{ "wait", "Benchmark epoll concurrent epoll_waits", bench_epoll_wait },
	{ "ctl", "Benchmark epoll concurrent epoll_ctls", bench_epoll_ctl },
	{ NULL, NULL, NULL },
};

static int bench_kallsyms_parse(int argc, const char **argv);

static const struct bench internals_benches[] = {
	{ "synthesize", "Benchmark perf event synthesis", bench_synthesize },
	{ "kallsyms-parse", "Benchmark kallsyms parsing", bench_kallsyms_parse },
	{ "inject-build-id", "Benchmark build-id injection", bench_inject_build_id },
	{ "evlist-open-close", "Benchmark evlist open and close", bench_evlist_open_close },
	{ NULL, NULL, NULL },
};

static const struct bench breakpoint_benches[] = {
	{ "thread", "Benchmark thread start/finish with breakpoints", bench_breakpoint_thread },
	{ "enable", "Benchmark breakpoint enable/disable", bench_breakpoint_enable },
	{ NULL, NULL, NULL },
};

static const struct bench_collection collections[] = {
	{ "sched", "Scheduler and IPC benchmarks", sched_benches, "Run all scheduler benchmarks" },
	{ "syscall", "System call benchmarks", syscall_benches, "Run all syscall benchmarks" },
	{ "mem", "Memory access benchmarks", mem_benches, "Run all memory access benchmarks" },
	{ "numa", "NUMA scheduling and MM benchmarks", numa_benches, "Run all NUMA benchmarks" },
	{ "futex", "Futex stressing benchmarks", futex_benches, "Run all futex benchmarks" },
	/* perf's epoll "all" line does say futex */
	{ "epoll", "Epoll stressing benchmarks", epoll_benches, "Run all futex benchmarks" },
	{ "internals", "Perf-internals benchmarks", internals_benches, NULL },
	{ "breakpoint", "Breakpoint benchmarks", breakpoint_benches,
	  "Run all breakpoint benchmarks" },
	{ "all", "All benchmarks", NULL, NULL },
	{ NULL, NULL, NULL, NULL },
};

double bench_elapsed_usec(const struct timeval *start, const struct timeval *end)
{
	return (double)(end->tv_sec - start->tv_sec) * 1e6 +
	       (double)(end->tv_usec - start->tv_usec);
}

void bench_print_total_time(const struct timeval *start, const struct timeval *end)
{
	struct timeval diff;

	timersub(end, start, &diff);
	if (bench_format == BENCH_FORMAT_SIMPLE)
		printf("%lu.%03lu\n", (unsigned long)diff.tv_sec,
		       (unsigned long)diff.tv_usec / 1000);
	else
		printf("     Total time: %lu.%03lu [sec]\n", (unsigned long)diff.tv_sec,
		       (unsigned long)diff.tv_usec / 1000);
}

void bench_stats_add(struct bench_stats *s, double value)
{
	double delta = value - s->mean;

	s->n += 1;
	s->mean += delta / s->n;
	s->m2 += delta * (value - s->mean);
}

double bench_stats_stddev(const struct bench_stats *s)
{
	return s->n < 2 ? 0 : sqrt(s->m2 / (s->n - 1) / s->n);
}

double bench_stats_rel_stddev(const struct bench_stats *s)
{
	return s->mean == 0 ? 0 : 100.0 * bench_stats_stddev(s) / s->mean;
}

long bench_whole_seconds(const struct timeval *start, const struct timeval *end)
{
	return end->tv_sec - start->tv_sec - (end->tv_usec < start->tv_usec);
}

void bench_print_averaged(const struct bench_stats *stats, bool silent, long secs)
{
	if (!silent)
		printf("\n");
	printf("Averaged %ld operations/sec (+- %.2f%%), total secs = %ld\n", (long)stats->mean,
	       bench_stats_rel_stddev(stats), secs);
}

int bench_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* A thread attribute pinning the thread to one CPU, as perf spreads its workers. */
static void pinned_attr(pthread_attr_t *attr, unsigned int index)
{
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(index % (unsigned int)bench_online_cpus(), &cpus);
	pthread_attr_init(attr);
	pthread_attr_setaffinity_np(attr, sizeof(cpus), &cpus);
}

void bench_start_thread(pthread_t *thread, unsigned int index, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;

	pinned_attr(&attr, index);
	if (pthread_create(thread, &attr, fn, arg)) {
		fprintf(stderr, "pthread_create: %s\n", strerror(errno));
		exit(PCL_EXIT_ERROR);
	}
	pthread_attr_destroy(&attr);
}

static void print_collections(void)
{
	printf("Usage: \n\tpcl bench [<common options>] <collection> <benchmark> [<options>]\n\n");
	printf("        # List of all available benchmark collections:\n\n");
	for (const struct bench_collection *c = collections; c->name; c++)
		printf("%14s: %s\n", c->name, c->summary);
	printf("\n");
}

static void print_benches(const struct bench_collection *c)
{
	printf("\n        # List of available benchmarks for collection '%s':\n\n", c->name);
	for (const struct bench *b = c->benches; b->name; b++)
		printf("%14s: %s\n", b->name, b->summary);
	if (c->all_summary)
		printf("%14s: %s\n", "all", c->all_summary);
	printf("\n");
}

/* A benchmark runs under the name "collection-benchmark", its argv[0] as in perf (numa mem
 * prints it). */
static int call_bench(const struct bench_collection *c, const struct bench *b, int argc,
		      const char **argv)
{
	char name[64];

	snprintf(name, sizeof(name), "%s-%s", c->name, b->name);
	argv[0] = name;
	return b->fn(argc, argv);
}

static int run_bench(const struct bench_collection *c, const struct bench *b, int argc,
		     const char **argv)
{
	if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("# Running '%s/%s' benchmark:\n", c->name, b->name);
	fflush(stdout);
	return call_bench(c, b, argc, argv);
}

/* "all": every benchmark with its defaults, each under perf's "Running ..." line */
static void run_collection(const struct bench_collection *c)
{
	for (const struct bench *b = c->benches; b->name; b++) {
		const char *argv[] = { b->name, NULL };

		printf("# Running %s/%s benchmark...\n", c->name, b->name);
		fflush(stdout);
		call_bench(c, b, 1, argv);
		printf("\n");
	}
}

int cmd_bench(int argc, const char **argv)
{
	static const char *const bench_usage[] = {
		"pcl bench [<common options>] <collection> <benchmark> [<options>]", NULL
	};
	const char *format = "default";
	int repeat = 10;
	const struct option options[] = {
		OPT_STRING('f', "format", &format, "default|simple",
			   "Specify the output formatting style"),
		OPT_INTEGER('r', "repeat", &repeat, "Specify amount of times to repeat the run"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, options, bench_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!strcmp(format, "simple")) {
		bench_format = BENCH_FORMAT_SIMPLE;
	} else if (strcmp(format, "default")) {
		printf("Unknown format descriptor: '%s'\n", format);
		return PCL_EXIT_OK;
	}
	if (repeat <= 0) {
		printf("Invalid repeat option: Must specify a positive value\n");
		return PCL_EXIT_OK;
	}
	bench_repeat = (unsigned int)repeat;
	if (argc < 1) {
		print_collections();
		return PCL_EXIT_OK;
	}
	if (!strcmp(argv[0], "all")) {
		for (const struct bench_collection *c = collections; c->benches; c++)
			run_collection(c);
		return PCL_EXIT_OK;
	}
	for (const struct bench_collection *c = collections; c->name; c++) {
		if (strcmp(c->name, argv[0]) || !c->benches)
			continue;
		if (argc < 2) {
			print_benches(c);
			return PCL_EXIT_OK;
		}
		if (!strcmp(argv[1], "all")) {
			run_collection(c);
			return PCL_EXIT_OK;
		}
		for (const struct bench *b = c->benches; b->name; b++)
			if (!strcmp(b->name, argv[1]))
				return run_bench(c, b, argc - 1, argv + 1);
		printf("Unknown benchmark: '%s' for collection '%s'\n", argv[1], argv[0]);
		return PCL_EXIT_FAILURE;
	}
	printf("Unknown collection: '%s'\n", argv[0]);
	return PCL_EXIT_FAILURE;
}

/* internals kallsyms-parse: pcl's own kallsyms reader over /proc/kallsyms, every line
 * parsed (the name looked up is never there), timed -i times as perf times its parser */
static int bench_kallsyms_parse(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench internals kallsyms-parse <options>", NULL };
	unsigned int iterations = 100;
	const struct option options[] = {
		OPT_UINTEGER('i', "iterations", &iterations,
			     "Number of iterations used to compute average"),
		OPT_END(),
	};
	struct bench_stats stats = { 0 };

	if (parse_options(argc, argv, options, usage, 0))
		usage_with_options(usage, options);
	for (unsigned int i = 0; i < iterations; i++) {
		struct timeval start, end;
		uint64_t addr;

		gettimeofday(&start, NULL);
		kallsyms__symbol_addr(NULL, "pcl bench: no such symbol", &addr);
		gettimeofday(&end, NULL);
		bench_stats_add(&stats, bench_elapsed_usec(&start, &end));
	}
	printf("  Average kallsyms__parse took: %.3f ms (+- %.3f ms)\n", stats.mean / 1e3,
	       bench_stats_stddev(&stats) / 1e3);
	return PCL_EXIT_OK;
}
