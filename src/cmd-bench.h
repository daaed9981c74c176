/* The pieces pcl bench's benchmark files share: the collection table's shape, the common
 * options (-f format, -r repeat) and the small helpers for timing and statistics.  The
 * benchmarks live in src/cmd-bench-*.c: they are workloads, not engine code. */
#ifndef PCL_CMD_BENCH_H
#define PCL_CMD_BENCH_H

#include <stdbool.h>
#include <pthread.h>
#include <sys/time.h>

enum bench_format { BENCH_FORMAT_DEFAULT, BENCH_FORMAT_SIMPLE };

extern enum bench_format bench_format;
extern unsigned int bench_repeat;	/* runs of the benchmarks that repeat (futex wake) */

typedef int (*bench_fn)(int argc, const char **argv);

struct bench {
	const char *name;
	const char *summary;
	bench_fn fn;
};

int bench_sched_messaging(int argc, const char **argv);
int bench_sched_pipe(int argc, const char **argv);
int bench_syscall_basic(int argc, const char **argv);
int bench_mem_memcpy(int argc, const char **argv);
int bench_mem_memset(int argc, const char **argv);
int bench_futex_hash(int argc, const char **argv);
int bench_futex_wake(int argc, const char **argv);
int bench_futex_wake_parallel(int argc, const char **argv);
int bench_futex_requeue(int argc, const char **argv);
int bench_futex_lock_pi(int argc, const char **argv);
int bench_mem_find_bit(int argc, const char **argv);
int bench_epoll_wait(int argc, const char **argv);
int bench_epoll_ctl(int argc, const char **argv);
int bench_breakpoint_thread(int argc, const char **argv);
int bench_breakpoint_enable(int argc, const char **argv);
int bench_evlist_open_close(int argc, const char **argv);
int bench_synthesize(int argc, const char **argv);
int bench_inject_build_id(int argc, const char **argv);
int bench_numa_mem(int argc, const char **argv);

/* Microseconds between two gettimeofday() readings (perf's clock for these benchmarks). */
double bench_elapsed_usec(const struct timeval *start, const struct timeval *end);

/* "     Total time: 1.234 [sec]" (default) or "1.234" (simple) */
void bench_print_total_time(const struct timeval *start, const struct timeval *end);

/* Running mean and variance (Welford), and the relative standard deviation of the mean in
 * percent, the "+- x%" of the futex summaries. */
struct bench_stats {
	double n, mean, m2;
};

void bench_stats_add(struct bench_stats *s, double value);
double bench_stats_rel_stddev(const struct bench_stats *s);
double bench_stats_stddev(const struct bench_stats *s);	/* of the mean, absolute */

/* Whole seconds between two readings, as perf counts a timed run. */
long bench_whole_seconds(const struct timeval *start, const struct timeval *end);

/* The closing "Averaged N operations/sec" line of the timed runs (futex hash, lock-pi,
 * epoll wait), after a blank line when the per-thread lines were printed. */
void bench_print_averaged(const struct bench_stats *stats, bool silent, long secs);

/* Pins a new thread to CPU index modulo the online CPUs, as perf spreads its workers. */
void bench_start_thread(pthread_t *thread, unsigned int index, void *(*fn)(void *), void *arg);

/* Number of online CPUs: the default thread count of the futex benchmarks. */
int bench_online_cpus(void);


#endif
