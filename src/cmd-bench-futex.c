/* pcl bench futex hash|wake: the futex benchmarks of perf 6.1.  hash has every thread try
 * FUTEX_WAIT on its own futexes, whose value never matches, so each call only walks the
 * kernel's futex hash table; wake blocks threads on one futex and times waking them all. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cmd-bench.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

/* The options every futex benchmark has. */
struct futex_params {
	unsigned int threads;
	bool shared, silent, mlock_all;
};

static int futex_op(atomic_uint *uaddr, int op, unsigned int val, bool shared)
{
	return (int)syscall(SYS_futex, uaddr, op | (shared ? 0 : FUTEX_PRIVATE_FLAG), val,
			    NULL, NULL, 0);
}

static const char *futex_kind(bool shared)
{
	return shared ? "shared" : "private";
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

static void start_thread(pthread_t *thread, unsigned int index, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;

	pinned_attr(&attr, index);
	if (pthread_create(thread, &attr, fn, arg)) {
		fprintf(stderr, "pthread_create: %s\n", strerror(errno));
		exit(PCL_EXIT_ERROR);
	}
	pthread_attr_destroy(&attr);
}

static void lock_memory(const struct futex_params *p)
{
	if (p->mlock_all && mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "mlockall: %s\n", strerror(errno));
}

/* Workers of one round wait at this gate until the main thread has started them all. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t all_started, open;
	unsigned int starting;
	bool is_open;
} gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
	   0, false };

static void gate_close(unsigned int workers)
{
	pthread_mutex_lock(&gate.lock);
	gate.starting = workers;
	gate.is_open = false;
	pthread_mutex_unlock(&gate.lock);
}

static void gate_wait(void)
{
	pthread_mutex_lock(&gate.lock);
	if (--gate.starting == 0)
		pthread_cond_signal(&gate.all_started);
	while (!gate.is_open)
		pthread_cond_wait(&gate.open, &gate.lock);
	pthread_mutex_unlock(&gate.lock);
}

static void gate_open_when_all_started(void)
{
	pthread_mutex_lock(&gate.lock);
	while (gate.starting)
		pthread_cond_wait(&gate.all_started, &gate.lock);
	gate.is_open = true;
	pthread_cond_broadcast(&gate.open);
	pthread_mutex_unlock(&gate.lock);
}

struct hash_worker {
	pthread_t thread;
	atomic_uint *futexes;
	unsigned int nfutexes;
	bool shared;
	unsigned long ops;
};

static atomic_bool hash_done;

static void *hash_work(void *arg)
{
	struct hash_worker *w = arg;
	unsigned long ops = 0;

	gate_wait();
	do {
		/* the value never matches: every call hashes, locks the bucket, returns EAGAIN */
		for (unsigned int i = 0; i < w->nfutexes; i++, ops++)
			futex_op(&w->futexes[i], FUTEX_WAIT, 1234, w->shared);
	} while (!atomic_load(&hash_done));
	w->ops = ops;
	return NULL;
}

int bench_futex_hash(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench futex hash <options>", NULL };
	struct futex_params p = { .threads = (unsigned int)bench_online_cpus() };
	unsigned int nfutexes = 1024, runtime = 10;
	const struct option options[] = {
		OPT_UINTEGER('f', "futexes", &nfutexes, "Specify amount of futexes per threads"),
		OPT_BOOLEAN('m', "mlockall", &p.mlock_all, "Lock all current and future memory"),
		OPT_UINTEGER('r', "runtime", &runtime, "Specify runtime (in seconds)"),
		OPT_BOOLEAN('S', "shared", &p.shared, "Use shared futexes instead of private ones"),
		OPT_BOOLEAN('s', "silent", &p.silent, "Silent mode: do not display data/details"),
		OPT_UINTEGER('t', "threads", &p.threads, "Specify amount of threads"),
		OPT_END(),
	};
	struct hash_worker *workers;
	struct bench_stats stats = { 0 };
	struct timeval start, end;
	long secs;

	parse_options(argc, argv, options, usage, 0);
	if (!p.threads)
		p.threads = (unsigned int)bench_online_cpus();
	if (!nfutexes)
		nfutexes = 1;
	lock_memory(&p);
	printf("Run summary [PID %d]: %u threads, each operating on %u [%s] futexes for %u "
	       "secs.\n\n", getpid(), p.threads, nfutexes, futex_kind(p.shared), runtime);
	fflush(stdout);

	workers = calloc(p.threads, sizeof(*workers));
	if (!workers)
		return PCL_EXIT_ERROR;
	atomic_store(&hash_done, false);
	gate_close(p.threads);
	for (unsigned int i = 0; i < p.threads; i++) {
		workers[i].futexes = calloc(nfutexes, sizeof(*workers[i].futexes));
		workers[i].nfutexes = nfutexes;
		workers[i].shared = p.shared;
		start_thread(&workers[i].thread, i, hash_work, &workers[i]);
	}
	gate_open_when_all_started();
	gettimeofday(&start, NULL);
	sleep(runtime);
	atomic_store(&hash_done, true);
	gettimeofday(&end, NULL);
	/* whole seconds, as perf counts them: a zero runtime reports zero rates */
	secs = end.tv_sec - start.tv_sec - (end.tv_usec < start.tv_usec);

	for (unsigned int i = 0; i < p.threads; i++) {
		struct hash_worker *w = &workers[i];
		long per_sec;

		pthread_join(w->thread, NULL);
		per_sec = secs > 0 ? (long)(w->ops / (unsigned long)secs) : 0;
		bench_stats_add(&stats, (double)per_sec);
		if (p.silent)
			continue;
		if (nfutexes == 1)
			printf("[thread %2u] futex: %p [ %ld ops/sec ]\n", i, (void *)w->futexes,
			       per_sec);
		else
			printf("[thread %2u] futexes: %p ... %p [ %ld ops/sec ]\n", i,
			       (void *)w->futexes, (void *)&w->futexes[nfutexes - 1], per_sec);
	}
	if (!p.silent)
		printf("\n");
	printf("Averaged %ld operations/sec (+- %.2f%%), total secs = %ld\n", (long)stats.mean,
	       bench_stats_rel_stddev(&stats), secs);
	for (unsigned int i = 0; i < p.threads; i++)
		free(workers[i].futexes);
	free(workers);
	return PCL_EXIT_OK;
}

static atomic_uint wake_futex;
static bool wake_shared;

static void *wake_waiter(void *arg)
{
	(void)arg;
	gate_wait();
	/* a spurious return (signal, value change) must not leave the waker counting on us */
	while (futex_op(&wake_futex, FUTEX_WAIT, 0, wake_shared) && errno == EINTR)
		;
	return NULL;
}

int bench_futex_wake(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench futex wake <options>", NULL };
	struct futex_params p = { .threads = (unsigned int)bench_online_cpus() };
	unsigned int nwakes = 1;
	const struct option options[] = {
		OPT_BOOLEAN('m', "mlockall", &p.mlock_all, "Lock all current and future memory"),
		OPT_BOOLEAN('S', "shared", &p.shared, "Use shared futexes instead of private ones"),
		OPT_BOOLEAN('s', "silent", &p.silent, "Silent mode: do not display data/details"),
		OPT_UINTEGER('t', "threads", &p.threads, "Specify amount of threads"),
		OPT_UINTEGER('w', "nwakes", &nwakes, "Specify amount of threads to wake at once"),
		OPT_END(),
	};
	struct bench_stats woken_stats = { 0 }, time_stats = { 0 };
	pthread_t *waiters;

	parse_options(argc, argv, options, usage, 0);
	if (!p.threads)
		p.threads = (unsigned int)bench_online_cpus();
	wake_shared = p.shared;
	lock_memory(&p);
	waiters = calloc(p.threads, sizeof(*waiters));
	if (!waiters)
		return PCL_EXIT_ERROR;
	printf("Run summary [PID %d]: blocking on %u threads (at [%s] futex %p), waking up %u "
	       "at a time.\n\n", getpid(), p.threads, futex_kind(p.shared), (void *)&wake_futex,
	       nwakes);

	for (unsigned int run = 1; run <= bench_repeat; run++) {
		struct timeval start, end;
		unsigned int woken = 0;
		double msec;

		gate_close(p.threads);
		for (unsigned int i = 0; i < p.threads; i++)
			start_thread(&waiters[i], i, wake_waiter, NULL);
		gate_open_when_all_started();
		usleep(100000);	/* let every waiter reach FUTEX_WAIT, as perf does */

		gettimeofday(&start, NULL);
		while (woken != p.threads) {
			int n = futex_op(&wake_futex, FUTEX_WAKE, nwakes, p.shared);

			if (n > 0)
				woken += (unsigned int)n;
		}
		gettimeofday(&end, NULL);
		msec = bench_elapsed_usec(&start, &end) / 1e3;
		bench_stats_add(&woken_stats, woken);
		bench_stats_add(&time_stats, msec);
		if (!p.silent)
			printf("[Run %u]: Wokeup %u of %u threads in %.4f ms\n", run, woken,
			       p.threads, msec);
		for (unsigned int i = 0; i < p.threads; i++)
			pthread_join(waiters[i], NULL);
	}
	printf("Wokeup %u of %u threads in %.4f ms (+-%.2f%%)\n",
	       (unsigned int)woken_stats.mean, p.threads, time_stats.mean,
	       bench_stats_rel_stddev(&time_stats));
	free(waiters);
	return PCL_EXIT_OK;
}
