/* pcl bench breakpoint thread|enable: the cost hardware breakpoints add, as perf 6.1 measures
 * it.  thread: with breakpoints inherited by every new thread, create and join threads (in
 * -p parallel groups of -t); enable: switch one inherited breakpoint off and on while -p
 * threads sleep and -a threads spin.  Both repeat -r times (perf's default 10). */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cmd-bench.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

/* A read/write breakpoint on *watched, inherited by the threads created after it. */
static int open_breakpoint(void *watched)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(attr),
		.inherit = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.bp_type = HW_BREAKPOINT_RW,
		.bp_addr = (unsigned long)watched,
		.bp_len = HW_BREAKPOINT_LEN_4,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0)
		fprintf(stderr, "Failed to open breakpoint: %s\n", strerror(errno));
	return fd;
}

static void *do_nothing(void *arg)
{
	return arg;
}

static unsigned int threads_per_group = 10;

/* One parallel group: create and join its threads. */
static void *thread_group(void *arg)
{
	pthread_t *threads = calloc(threads_per_group, sizeof(*threads));

	if (!threads)
		return NULL;
	for (unsigned int i = 0; i < threads_per_group; i++)
		if (pthread_create(&threads[i], NULL, do_nothing, NULL))
			threads[i] = 0;
	for (unsigned int i = 0; i < threads_per_group; i++)
		if (threads[i])
			pthread_join(threads[i], NULL);
	free(threads);
	return arg;
}

static void print_per_op(const struct timeval *start, const struct timeval *end, double ops,
			 double per_cpu_factor)
{
	double usec = bench_elapsed_usec(start, end);

	bench_print_total_time(start, end);
	if (bench_format != BENCH_FORMAT_DEFAULT)
		return;
	printf("\n %14lf usecs/op\n", usec / ops);
	if (per_cpu_factor > 0)
		printf(" %14lf usecs/op/cpu\n", usec / ops * per_cpu_factor);
}

int bench_breakpoint_thread(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench breakpoint thread <options>", NULL };
	unsigned int nbreakpoints = 1, nparallel = 1;
	const struct option options[] = {
		OPT_UINTEGER('b', "breakpoints", &nbreakpoints, "Specify amount of breakpoints"),
		OPT_UINTEGER('p', "parallelism", &nparallel, "Specify amount of parallelism"),
		OPT_UINTEGER('t', "threads", &threads_per_group, "Specify amount of threads"),
		OPT_END(),
	};
	struct timeval start, end;
	pthread_t *groups;
	int *watched, *fds;
	int ret = PCL_EXIT_OK;

	parse_options(argc, argv, options, usage, 0);
	watched = calloc(nbreakpoints + 1, sizeof(*watched));
	fds = calloc(nbreakpoints + 1, sizeof(*fds));
	groups = calloc(nparallel + 1, sizeof(*groups));
	if (!watched || !fds || !groups)
		return PCL_EXIT_ERROR;
	for (unsigned int i = 0; i < nbreakpoints; i++) {
		fds[i] = open_breakpoint(&watched[i]);
		if (fds[i] < 0) {
			nbreakpoints = i;
			ret = PCL_EXIT_ERROR;
			goto out;
		}
	}
	gettimeofday(&start, NULL);
	for (unsigned int r = 0; r < bench_repeat; r++) {
		for (unsigned int g = 0; g < nparallel; g++)
			pthread_create(&groups[g], NULL, thread_group, NULL);
		for (unsigned int g = 0; g < nparallel; g++)
			pthread_join(groups[g], NULL);
	}
	gettimeofday(&end, NULL);
	if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("# Created/joined %u threads with %u breakpoints and %u parallelism\n",
		       bench_repeat, nbreakpoints, nparallel);
	print_per_op(&start, &end, (double)bench_repeat * threads_per_group, nparallel);
out:
	for (unsigned int i = 0; i < nbreakpoints; i++)
		close(fds[i]);
	free(watched);
	free(fds);
	free(groups);
	return ret;
}

static atomic_bool enable_done;

static void *spin(void *arg)
{
	while (!atomic_load(&enable_done))
		;
	return arg;
}

static void *sleep_until_done(void *arg)
{
	while (!atomic_load(&enable_done))
		usleep(1000);
	return arg;
}

int bench_breakpoint_enable(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench breakpoint enable <options>", NULL };
	unsigned int nactive = 0, npassive = 0;
	const struct option options[] = {
		OPT_UINTEGER('a', "active", &nactive, "Specify amount of active threads"),
		OPT_UINTEGER('p', "passive", &npassive, "Specify amount of passive threads"),
		OPT_END(),
	};
	struct timeval start, end;
	pthread_t *threads;
	int watched = 0, fd;

	parse_options(argc, argv, options, usage, 0);
	fd = open_breakpoint(&watched);
	if (fd < 0)
		return PCL_EXIT_ERROR;
	threads = calloc(nactive + npassive + 1, sizeof(*threads));
	if (!threads)
		return PCL_EXIT_ERROR;
	atomic_store(&enable_done, false);
	for (unsigned int i = 0; i < npassive + nactive; i++)
		pthread_create(&threads[i], NULL, i < npassive ? sleep_until_done : spin, NULL);
	gettimeofday(&start, NULL);
	for (unsigned int r = 0; r < bench_repeat; r++) {
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	}
	gettimeofday(&end, NULL);
	atomic_store(&enable_done, true);
	for (unsigned int i = 0; i < npassive + nactive; i++)
		pthread_join(threads[i], NULL);
	close(fd);
	free(threads);
	if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("# Enabled/disabled breakpoint %u time with %u passive and %u active "
		       "threads\n", bench_repeat, npassive, nactive);
	print_per_op(&start, &end, bench_repeat, 0);
	return PCL_EXIT_OK;
}
