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

/* the end of a timed run (hash, lock-pi) */
static atomic_bool run_done;

static void *hash_work(void *arg)
{
	struct hash_worker *w = arg;
	unsigned long ops = 0;

	gate_wait();
	do {
		/* the value never matches: every call hashes, locks the bucket, returns EAGAIN */
		for (unsigned int i = 0; i < w->nfutexes; i++, ops++)
			futex_op(&w->futexes[i], FUTEX_WAIT, 1234, w->shared);
	} while (!atomic_load(&run_done));
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
	atomic_store(&run_done, false);
	gate_close(p.threads);
	for (unsigned int i = 0; i < p.threads; i++) {
		workers[i].futexes = calloc(nfutexes, sizeof(*workers[i].futexes));
		workers[i].nfutexes = nfutexes;
		workers[i].shared = p.shared;
		bench_start_thread(&workers[i].thread, i, hash_work, &workers[i]);
	}
	gate_open_when_all_started();
	gettimeofday(&start, NULL);
	sleep(runtime);
	atomic_store(&run_done, true);
	gettimeofday(&end, NULL);
	secs = bench_whole_seconds(&start, &end);	/* zero reports zero rates, as perf */

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
	bench_print_averaged(&stats, p.silent, secs);
	for (unsigned int i = 0; i < p.threads; i++)
		free(workers[i].futexes);
	free(workers);
	return PCL_EXIT_OK;
}

static atomic_uint wake_futex;
static bool wake_shared;
static atomic_uint waiters_returned;

static void *wake_waiter(void *arg)
{
	(void)arg;
	gate_wait();
	/* a spurious return (signal, value change) must not leave the waker counting on us */
	while (futex_op(&wake_futex, FUTEX_WAIT, 0, wake_shared) && errno == EINTR)
		;
	atomic_fetch_add(&waiters_returned, 1);
	return NULL;
}

/* Starts threads blocked on a futex through fn and waits until they sleep there. */
static void block_threads(pthread_t *threads, unsigned int n, void *(*fn)(void *))
{
	atomic_store(&waiters_returned, 0);
	gate_close(n);
	for (unsigned int i = 0; i < n; i++)
		bench_start_thread(&threads[i], i, fn, NULL);
	gate_open_when_all_started();
	usleep(100000);	/* let every waiter reach the kernel, as perf does */
}

/* Wakes whoever the measured wake-ups missed (a waiter that was not asleep yet), then joins
 * them all: a run must not hang on one late thread. */
static void release_waiters(atomic_uint *futex, pthread_t *threads, unsigned int n)
{
	while (futex && atomic_load(&waiters_returned) < n) {
		futex_op(futex, FUTEX_WAKE, INT_MAX, wake_shared);
		usleep(1000);
	}
	for (unsigned int i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
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

		block_threads(waiters, p.threads, wake_waiter);

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
		release_waiters(&wake_futex, waiters, p.threads);
	}
	printf("Wokeup %u of %u threads in %.4f ms (+-%.2f%%)\n",
	       (unsigned int)woken_stats.mean, p.threads, time_stats.mean,
	       bench_stats_rel_stddev(&time_stats));
	free(waiters);
	return PCL_EXIT_OK;
}

struct parallel_waker {
	pthread_t thread;
	unsigned int nwakes, woken;
	double usec;
};

static void *parallel_wake(void *arg)
{
	struct parallel_waker *w = arg;
	struct timeval start, end;
	int n;

	gate_wait();
	gettimeofday(&start, NULL);
	n = futex_op(&wake_futex, FUTEX_WAKE, w->nwakes, wake_shared);
	gettimeofday(&end, NULL);
	w->woken = n > 0 ? (unsigned int)n : 0;
	w->usec = bench_elapsed_usec(&start, &end);
	return NULL;
}

int bench_futex_wake_parallel(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench futex wake-parallel <options>", NULL };
	struct futex_params p = { .threads = (unsigned int)bench_online_cpus() };
	unsigned int nwakers = 1;
	const struct option options[] = {
		OPT_BOOLEAN('m', "mlockall", &p.mlock_all, "Lock all current and future memory"),
		OPT_BOOLEAN('S', "shared", &p.shared, "Use shared futexes instead of private ones"),
		OPT_BOOLEAN('s', "silent", &p.silent, "Silent mode: do not display data/details"),
		OPT_UINTEGER('t', "threads", &p.threads, "Specify amount of threads"),
		OPT_UINTEGER('w', "nwakers", &nwakers, "Specify amount of waking threads"),
		OPT_END(),
	};
	struct bench_stats all_woken = { 0 }, all_usec = { 0 };
	struct parallel_waker *wakers;
	pthread_t *waiters;
	unsigned int per_waker;

	parse_options(argc, argv, options, usage, 0);
	if (!p.threads)
		p.threads = (unsigned int)bench_online_cpus();
	if (!nwakers || nwakers > p.threads || p.threads % nwakers) {
		fflush(stdout);
		fprintf(stderr, "pcl: Must be perfectly divisible\n");
		return PCL_EXIT_FAILURE;
	}
	per_waker = p.threads / nwakers;
	wake_shared = p.shared;
	lock_memory(&p);
	waiters = calloc(p.threads, sizeof(*waiters));
	wakers = calloc(nwakers, sizeof(*wakers));
	if (!waiters || !wakers)
		return PCL_EXIT_ERROR;
	printf("Run summary [PID %d]: blocking on %u threads (at [%s] futex %p), %u threads "
	       "waking up %u at a time.\n\n", getpid(), p.threads, futex_kind(p.shared),
	       (void *)&wake_futex, nwakers, per_waker);

	for (unsigned int run = 1; run <= bench_repeat; run++) {
		struct bench_stats woken = { 0 }, usec = { 0 };

		block_threads(waiters, p.threads, wake_waiter);
		gate_close(nwakers);
		for (unsigned int i = 0; i < nwakers; i++) {
			wakers[i].nwakes = per_waker;
			bench_start_thread(&wakers[i].thread, i, parallel_wake, &wakers[i]);
		}
		gate_open_when_all_started();
		for (unsigned int i = 0; i < nwakers; i++) {
			pthread_join(wakers[i].thread, NULL);
			bench_stats_add(&woken, wakers[i].woken);
			bench_stats_add(&usec, wakers[i].usec);
			bench_stats_add(&all_woken, wakers[i].woken);
			bench_stats_add(&all_usec, wakers[i].usec);
		}
		release_waiters(&wake_futex, waiters, p.threads);
		if (!p.silent)
			printf("[Run %u]: Avg per-thread latency (waking %u/%u threads) in %.4f ms "
			       "(+-%.2f%%)\n", run, (unsigned int)woken.mean, p.threads,
			       usec.mean / 1e3, bench_stats_rel_stddev(&usec));
	}
	printf("Avg per-thread latency (waking %u/%u threads) in %.4f ms (+-%.2f%%)\n",
	       (unsigned int)all_woken.mean, p.threads, all_usec.mean / 1e3,
	       bench_stats_rel_stddev(&all_usec));
	free(waiters);
	free(wakers);
	return PCL_EXIT_OK;
}

/* requeue: waiters sleep on requeue_from; the measured calls move them to requeue_to. */
static atomic_uint requeue_futexes[2];
#define requeue_to (&requeue_futexes[0])
#define requeue_from (&requeue_futexes[1])

static void *requeue_pi_waiter(void *arg)
{
	(void)arg;
	gate_wait();
	/* woken owning requeue_to: hand it on to the next requeued waiter */
	if (!syscall(SYS_futex, requeue_from, FUTEX_WAIT_REQUEUE_PI |
		     (wake_shared ? 0 : FUTEX_PRIVATE_FLAG), 0, NULL, requeue_to, 0))
		futex_op(requeue_to, FUTEX_UNLOCK_PI, 0, wake_shared);
	atomic_fetch_add(&waiters_returned, 1);
	return NULL;
}

static void *requeue_waiter(void *arg)
{
	(void)arg;
	gate_wait();
	while (futex_op(requeue_from, FUTEX_WAIT, 0, wake_shared) && errno == EINTR)
		;
	atomic_fetch_add(&waiters_returned, 1);
	return NULL;
}

/* FUTEX_CMP_REQUEUE(_PI): wake nr_wake of the waiters on from, move up to nr_requeue */
static int futex_requeue(bool pi, int nr_wake, unsigned int nr_requeue)
{
	return (int)syscall(SYS_futex, requeue_from, (pi ? FUTEX_CMP_REQUEUE_PI :
			    FUTEX_CMP_REQUEUE) | (wake_shared ? 0 : FUTEX_PRIVATE_FLAG), nr_wake,
			    (unsigned long)nr_requeue, requeue_to, 0);
}

int bench_futex_requeue(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench futex requeue <options>", NULL };
	struct futex_params p = { .threads = (unsigned int)bench_online_cpus() };
	unsigned int nrequeue = 1;
	bool broadcast = false, pi = false;
	const struct option options[] = {
		OPT_BOOLEAN('B', "broadcast", &broadcast, "Requeue all threads at once"),
		OPT_BOOLEAN('m', "mlockall", &p.mlock_all, "Lock all current and future memory"),
		OPT_BOOLEAN('p', "pi", &pi, "Use PI-aware variants of FUTEX_CMP_REQUEUE"),
		OPT_UINTEGER('q', "nrequeue", &nrequeue,
			     "Specify amount of threads to requeue at once"),
		OPT_BOOLEAN('S', "shared", &p.shared, "Use shared futexes instead of private ones"),
		OPT_BOOLEAN('s', "silent", &p.silent, "Silent mode: do not display data/details"),
		OPT_UINTEGER('t', "threads", &p.threads, "Specify amount of threads"),
		OPT_END(),
	};
	struct bench_stats requeued_stats = { 0 }, msec_stats = { 0 };
	pthread_t *waiters;

	parse_options(argc, argv, options, usage, 0);
	if (!p.threads)
		p.threads = (unsigned int)bench_online_cpus();
	if (broadcast || nrequeue > p.threads)
		nrequeue = p.threads;
	wake_shared = p.shared;
	lock_memory(&p);
	waiters = calloc(p.threads, sizeof(*waiters));
	if (!waiters)
		return PCL_EXIT_ERROR;
	printf("Run summary [PID %d]: Requeuing %u threads (from [%s] %p to %s%p), %u at a "
	       "time.\n\n", getpid(), p.threads, futex_kind(p.shared), (void *)requeue_from,
	       pi ? "PI " : "", (void *)requeue_to, nrequeue);

	for (unsigned int run = 1; run <= bench_repeat; run++) {
		unsigned int moved = 0, wakeups = 0;
		struct timeval start, end;
		double msec;

		atomic_store(requeue_to, 0);
		block_threads(waiters, p.threads, pi ? requeue_pi_waiter : requeue_waiter);
		gettimeofday(&start, NULL);
		while (moved < p.threads) {
			/* the PI variant must wake one: it takes requeue_to for that waiter */
			int n = futex_requeue(pi, pi ? 1 : 0, nrequeue);

			if (n > 0)
				moved += (unsigned int)n;
			if (pi && n > 0)
				wakeups++;
		}
		gettimeofday(&end, NULL);
		msec = bench_elapsed_usec(&start, &end) / 1e3;
		bench_stats_add(&requeued_stats, moved);
		bench_stats_add(&msec_stats, msec);
		if (!p.silent && pi)
			printf("[Run %u]: Awoke and Requeued (%u+%u) of %u threads in %.4f ms\n",
			       run, wakeups, moved - wakeups, p.threads, msec);
		else if (!p.silent)
			printf("[Run %u]: Requeued %u of %u threads in %.4f ms\n", run, moved,
			       p.threads, msec);
		/* PI waiters hand requeue_to on to each other; the others need waking */
		release_waiters(pi ? NULL : requeue_to, waiters, p.threads);
	}
	printf("Requeued %u of %u threads in %.4f ms (+-%.2f%%)\n",
	       (unsigned int)requeued_stats.mean, p.threads, msec_stats.mean,
	       bench_stats_rel_stddev(&msec_stats));
	free(waiters);
	return PCL_EXIT_OK;
}

struct lock_pi_worker {
	pthread_t thread;
	atomic_uint *futex;
	bool shared;
	unsigned long ops;
};

static void *lock_pi_work(void *arg)
{
	struct lock_pi_worker *w = arg;
	unsigned long ops = 0;

	gate_wait();
	while (!atomic_load(&run_done)) {
		if (futex_op(w->futex, FUTEX_LOCK_PI, 0, w->shared))
			continue;
		usleep(1);	/* hold the lock a moment, as perf's workers do */
		futex_op(w->futex, FUTEX_UNLOCK_PI, 0, w->shared);
		ops++;
	}
	w->ops = ops;
	return NULL;
}

int bench_futex_lock_pi(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench futex lock-pi <options>", NULL };
	struct futex_params p = { .threads = (unsigned int)bench_online_cpus() };
	unsigned int runtime = 10;
	bool multi = false;
	const struct option options[] = {
		OPT_BOOLEAN('m', "mlockall", &p.mlock_all, "Lock all current and future memory"),
		OPT_BOOLEAN('M', "multi", &multi, "Use multiple futexes"),
		OPT_UINTEGER('r', "runtime", &runtime, "Specify runtime (in seconds)"),
		OPT_BOOLEAN('S', "shared", &p.shared, "Use shared futexes instead of private ones"),
		OPT_BOOLEAN('s', "silent", &p.silent, "Silent mode: do not display data/details"),
		OPT_UINTEGER('t', "threads", &p.threads, "Specify amount of threads"),
		OPT_END(),
	};
	static atomic_uint global_futex;
	struct lock_pi_worker *workers;
	struct bench_stats stats = { 0 };
	struct timeval start, end;
	long secs;

	parse_options(argc, argv, options, usage, 0);
	if (!p.threads)
		p.threads = (unsigned int)bench_online_cpus();
	lock_memory(&p);
	workers = calloc(p.threads, sizeof(*workers));
	if (!workers)
		return PCL_EXIT_ERROR;
	printf("Run summary [PID %d]: %u threads doing pi lock/unlock pairing for %u secs.\n\n",
	       getpid(), p.threads, runtime);
	fflush(stdout);
	atomic_store(&run_done, false);
	gate_close(p.threads);
	for (unsigned int i = 0; i < p.threads; i++) {
		workers[i].futex = multi ? calloc(1, sizeof(atomic_uint)) : &global_futex;
		workers[i].shared = p.shared;
		bench_start_thread(&workers[i].thread, i, lock_pi_work, &workers[i]);
	}
	gate_open_when_all_started();
	gettimeofday(&start, NULL);
	sleep(runtime);
	atomic_store(&run_done, true);
	gettimeofday(&end, NULL);
	secs = bench_whole_seconds(&start, &end);
	for (unsigned int i = 0; i < p.threads; i++) {
		struct lock_pi_worker *w = &workers[i];
		long per_sec;

		pthread_join(w->thread, NULL);
		per_sec = secs > 0 ? (long)(w->ops / (unsigned long)secs) : 0;
		bench_stats_add(&stats, (double)per_sec);
		if (!p.silent)
			printf("[thread %3u] futex: %p [ %ld ops/sec ]\n", i, (void *)w->futex,
			       per_sec);
		if (multi)
			free(w->futex);
	}
	bench_print_averaged(&stats, p.silent, secs);
	free(workers);
	return PCL_EXIT_OK;
}
