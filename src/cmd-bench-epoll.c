/* pcl bench epoll wait|ctl: perf 6.1's epoll benchmarks.  wait: worker threads, each with
 * its own eventfds, sit in epoll_wait() while one writer thread writes to every fd of every
 * worker, round after round; a worker's operation is one event taken and its fd read.
 * ctl: every worker adds, modifies and deletes its eventfds in an epoll instance of its
 * own, counting each kind of call. */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cmd-bench.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

struct epoll_worker {
	pthread_t thread;
	int epollfd;
	int *fdmap;
	unsigned long ops[3];	/* wait: ops[0]; ctl: add, mod, del */
};

static atomic_bool epoll_done;
static unsigned int epoll_nfds = 64;
static bool epoll_verbose;

enum { EPOLL_MAX_NESTING = 4 };	/* perf's limit on -N */

/* perf's -v notes */
#define epoll_info(...)                        \
	do {                                   \
		if (epoll_verbose)             \
			printf(__VA_ARGS__);   \
	} while (0)

/* Room for every worker's eventfds and their epoll instances, as perf makes it. */
static void raise_fd_limit(unsigned int threads)
{
	struct rlimit limit;
	rlim_t wanted = (rlim_t)epoll_nfds * threads * 2 + 50;

	if (getrlimit(RLIMIT_NOFILE, &limit))
		return;
	epoll_info("Setting RLIMIT_NOFILE rlimit from %lu to: %lu\n",
		   (unsigned long)limit.rlim_cur, (unsigned long)wanted);
	limit.rlim_cur = limit.rlim_max = wanted;
	setrlimit(RLIMIT_NOFILE, &limit);
}

/* -N: a chain of nested (empty) epoll instances hung under epollfd, which every wake-up
 * then has to look through; the instances stay open for the run, as in perf. */
static void nest_epoll(int epollfd, unsigned int nested)
{
	struct epoll_event ev = { .events = EPOLLHUP };
	int below = -1;

	for (unsigned int i = 0; i < nested; i++) {
		int fd = epoll_create1(0);

		if (below >= 0)
			epoll_ctl(fd, EPOLL_CTL_ADD, below, &ev);
		below = fd;
	}
	if (below >= 0)
		epoll_ctl(epollfd, EPOLL_CTL_ADD, below, &ev);
}

static void open_fdmap(struct epoll_worker *w)
{
	w->fdmap = calloc(epoll_nfds, sizeof(*w->fdmap));
	if (!w->fdmap)
		exit(PCL_EXIT_ERROR);
	for (unsigned int i = 0; i < epoll_nfds; i++) {
		w->fdmap[i] = eventfd(0, EFD_NONBLOCK);
		if (w->fdmap[i] < 0) {
			fprintf(stderr, "eventfd: %s\n", strerror(errno));
			exit(PCL_EXIT_ERROR);
		}
	}
}

static void close_fdmap(struct epoll_worker *w)
{
	for (unsigned int i = 0; i < epoll_nfds; i++)
		close(w->fdmap[i]);
	free(w->fdmap);
}

static void print_fdmap(unsigned int i, const struct epoll_worker *w)
{
	printf("[thread %2u] fdmap: %p ... %p [ ", i, (void *)w->fdmap,
	       (void *)&w->fdmap[epoll_nfds - 1]);
}

struct wait_settings {
	bool edge, oneshot, nonblocking, randomize;
};

static struct wait_settings wait_settings;

static void *wait_work(void *arg)
{
	struct epoll_worker *w = arg;
	unsigned long ops = 0;

	while (!atomic_load(&epoll_done)) {
		struct epoll_event ev;
		uint64_t value;
		int n = epoll_wait(w->epollfd, &ev, 1, wait_settings.nonblocking ? 0 : -1);

		if (n <= 0)
			continue;
		while (read(ev.data.fd, &value, sizeof(value)) < 0 && errno == EAGAIN &&
		       !atomic_load(&epoll_done))
			;
		if (wait_settings.oneshot) {
			ev.events = EPOLLIN | EPOLLONESHOT | (wait_settings.edge ? EPOLLET : 0);
			epoll_ctl(w->epollfd, EPOLL_CTL_MOD, ev.data.fd, &ev);
		}
		ops++;
	}
	w->ops[0] = ops;
	return NULL;
}

struct writer_args {
	struct epoll_worker *workers;
	unsigned int nworkers;
	atomic_bool stop;
};

/* Fisher-Yates: -R writes each round's fds in a new random order. */
static void shuffle_fds(int *fds, unsigned int n)
{
	for (unsigned int i = n; i > 1; i--) {
		unsigned int j = (unsigned int)random() % i;
		int fd = fds[i - 1];

		fds[i - 1] = fds[j];
		fds[j] = fd;
	}
}

/* One write to every fd of every worker, a 500 ns pause, again (perf's writer). */
static void *wait_writer(void *arg)
{
	struct writer_args *a = arg;
	const struct timespec pause = { .tv_nsec = 500 };
	uint64_t one = 1;
	unsigned long rounds = 0;

	epoll_info("starting writer-thread: doing %s writes ...\n",
		   wait_settings.randomize ? "random" : "lineal");
	for (; !atomic_load(&a->stop); rounds++) {
		for (unsigned int i = 0; i < a->nworkers; i++) {
			int *fds = a->workers[i].fdmap;

			if (wait_settings.randomize)
				shuffle_fds(fds, epoll_nfds);
			for (unsigned int j = 0; j < epoll_nfds; j++)
				while (write(fds[j], &one, sizeof(one)) < 0 && errno == EAGAIN &&
				       !atomic_load(&a->stop))
					;
		}
		nanosleep(&pause, NULL);
	}
	epoll_info("exiting writer-thread (total full-loops: %lu)\n", rounds);
	return NULL;
}

int bench_epoll_wait(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench epoll wait <options>", NULL };
	unsigned int threads = 0, runtime = 8, nested = 0;
	bool multiq = false, noaffinity = false;
	const struct option options[] = {
		OPT_BOOLEAN('B', "nonblocking", &wait_settings.nonblocking,
			    "Nonblocking epoll_wait(2) behaviour"),
		OPT_BOOLEAN('E', "edge", &wait_settings.edge,
			    "Use Edge-triggered interface (default is LT)"),
		OPT_UINTEGER('f', "nfds", &epoll_nfds,
			     "Specify amount of file descriptors to monitor for each thread"),
		OPT_BOOLEAN('m', "multiq", &multiq,
			    "Use multiple epoll instances (one per thread)"),
		OPT_UINTEGER('N', "nested", &nested,
			     "Nesting level epoll hierarchy (default is 0, no nesting)"),
		OPT_BOOLEAN('n', "noaffinity", &noaffinity, "Disables CPU affinity"),
		OPT_BOOLEAN('R', "randomize", &wait_settings.randomize,
			    "Enable random write behaviour (default is lineal)"),
		OPT_UINTEGER('r', "runtime", &runtime, "Specify runtime (in seconds)"),
		OPT_BOOLEAN('S', "oneshot", &wait_settings.oneshot, "Use EPOLLONESHOT semantics"),
		OPT_UINTEGER('t', "threads", &threads, "Specify amount of threads"),
		OPT_BOOLEAN('v', "verbose", &epoll_verbose, "Verbose mode"),
		OPT_END(),
	};
	struct writer_args writer = { 0 };
	struct bench_stats stats = { 0 };
	struct timeval start, end;
	pthread_t writer_thread;
	int shared_epollfd = -1;
	long secs;

	parse_options(argc, argv, options, usage, 0);
	/* one CPU stays for the writer, as in perf */
	if (!threads)
		threads = bench_online_cpus() > 1 ? (unsigned int)bench_online_cpus() - 1 : 1;
	if (!epoll_nfds)
		epoll_nfds = 64;
	if (nested > EPOLL_MAX_NESTING)
		nested = EPOLL_MAX_NESTING;
	writer.workers = calloc(threads, sizeof(*writer.workers));
	writer.nworkers = threads;
	if (!writer.workers)
		return PCL_EXIT_ERROR;
	epoll_info("Using %s queue model\n", multiq ? "multi" : "single");
	epoll_info("Nesting level(s): %u\n", nested);
	raise_fd_limit(threads);
	printf("Run summary [PID %d]: %u threads monitoring%s on %u file-descriptors for %u "
	       "secs.\n\n", getpid(), threads, wait_settings.oneshot ? " (EPOLLONESHOT semantics)" :
	       "", epoll_nfds, runtime);
	fflush(stdout);
	if (!multiq) {
		shared_epollfd = epoll_create1(0);
		nest_epoll(shared_epollfd, nested);
	}
	epoll_info("starting worker/consumer %sthreads%s\n", noaffinity ? "" : "CPU affinity ",
		   wait_settings.nonblocking ? " (nonblocking)" : "");
	atomic_store(&epoll_done, false);
	for (unsigned int i = 0; i < threads; i++) {
		struct epoll_worker *w = &writer.workers[i];

		open_fdmap(w);
		w->epollfd = shared_epollfd;
		if (multiq) {
			w->epollfd = epoll_create1(0);
			nest_epoll(w->epollfd, nested);
		}
		for (unsigned int j = 0; j < epoll_nfds; j++) {
			struct epoll_event ev = {
				.events = EPOLLIN | (wait_settings.edge ? EPOLLET : 0) |
					  (wait_settings.oneshot ? EPOLLONESHOT : 0),
				.data.fd = w->fdmap[j],
			};

			epoll_ctl(w->epollfd, EPOLL_CTL_ADD, w->fdmap[j], &ev);
		}
		if (noaffinity)
			pthread_create(&w->thread, NULL, wait_work, w);
		else
			bench_start_thread(&w->thread, i, wait_work, w);
	}
	gettimeofday(&start, NULL);
	/* the writer goes where the scheduler puts it, as perf's */
	pthread_create(&writer_thread, NULL, wait_writer, &writer);
	sleep(runtime);
	atomic_store(&epoll_done, true);
	gettimeofday(&end, NULL);
	epoll_info("main thread: toggling done\n");
	/* the writer keeps writing until every worker has seen that the run is over */
	for (unsigned int i = 0; i < threads; i++)
		pthread_join(writer.workers[i].thread, NULL);
	atomic_store(&writer.stop, true);
	pthread_join(writer_thread, NULL);

	secs = bench_whole_seconds(&start, &end);
	for (unsigned int i = 0; i < threads; i++) {
		struct epoll_worker *w = &writer.workers[i];
		long per_sec = secs > 0 ? (long)(w->ops[0] / (unsigned long)secs) : 0;

		bench_stats_add(&stats, (double)per_sec);
		print_fdmap(i, w);
		printf("%04ld ops/sec ]\n", per_sec);
		if (multiq)
			close(w->epollfd);
		close_fdmap(w);
	}
	bench_print_averaged(&stats, false, secs);
	if (!multiq)
		close(shared_epollfd);
	free(writer.workers);
	return PCL_EXIT_OK;
}

static bool ctl_randomize;

static void *ctl_work(void *arg)
{
	static const int ops[] = { EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL };
	struct epoll_worker *w = arg;

	while (!atomic_load(&epoll_done)) {
		for (unsigned int k = 0; k < 3; k++) {
			for (unsigned int i = 0; i < epoll_nfds; i++) {
				unsigned int op = ctl_randomize ? (unsigned int)random() % 3 : k;
				unsigned int slot = ctl_randomize ?
						    (unsigned int)random() % epoll_nfds : i;
				int fd = w->fdmap[slot];
				struct epoll_event ev = { .events = op == 1 ? EPOLLOUT : EPOLLIN,
							  .data.fd = fd };

				epoll_ctl(w->epollfd, ops[op], fd, &ev);
				w->ops[op]++;
			}
		}
	}
	return NULL;
}

int bench_epoll_ctl(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench epoll ctl <options>", NULL };
	static const char *const op_names[] = { "ADD", "MOD", "DEL" };
	unsigned int threads = 0, runtime = 8, nested = 0;
	bool noaffinity = false;
	const struct option options[] = {
		OPT_UINTEGER('f', "nfds", &epoll_nfds,
			     "Specify amount of file descriptors to monitor for each thread"),
		OPT_UINTEGER('N', "nested", &nested,
			     "Nesting level epoll hierarchy (default is 0, no nesting)"),
		OPT_BOOLEAN('n', "noaffinity", &noaffinity, "Disables CPU affinity"),
		OPT_BOOLEAN('R', "randomize", &ctl_randomize,
			    "Perform random operations on random fds"),
		OPT_UINTEGER('r', "runtime", &runtime, "Specify runtime (in seconds)"),
		OPT_UINTEGER('t', "threads", &threads, "Specify amount of threads"),
		OPT_BOOLEAN('v', "verbose", &epoll_verbose, "Verbose mode"),
		OPT_END(),
	};
	struct bench_stats stats[3] = { { 0 } };
	struct epoll_worker *workers;

	parse_options(argc, argv, options, usage, 0);
	if (!threads)
		threads = (unsigned int)bench_online_cpus();
	if (!epoll_nfds)
		epoll_nfds = 64;
	if (nested > EPOLL_MAX_NESTING)
		nested = EPOLL_MAX_NESTING;
	workers = calloc(threads, sizeof(*workers));
	if (!workers)
		return PCL_EXIT_ERROR;
	if (nested)
		epoll_info("Nesting level(s): %u\n", nested);
	raise_fd_limit(threads);
	printf("Run summary [PID %d]: %u threads doing epoll_ctl ops %u file-descriptors for %u "
	       "secs.\n\n", getpid(), threads, epoll_nfds, runtime);
	fflush(stdout);
	atomic_store(&epoll_done, false);
	for (unsigned int i = 0; i < threads; i++) {
		open_fdmap(&workers[i]);
		workers[i].epollfd = epoll_create1(0);
		nest_epoll(workers[i].epollfd, nested);
		if (noaffinity)
			pthread_create(&workers[i].thread, NULL, ctl_work, &workers[i]);
		else
			bench_start_thread(&workers[i].thread, i, ctl_work, &workers[i]);
	}
	sleep(runtime);
	atomic_store(&epoll_done, true);
	epoll_info("main thread: toggling done\n");
	for (unsigned int i = 0; i < threads; i++) {
		struct epoll_worker *w = &workers[i];

		pthread_join(w->thread, NULL);
		print_fdmap(i, w);
		printf("add: %04lu ops; mod: %04lu ops; del: %04lu ops ]\n", w->ops[0], w->ops[1],
		       w->ops[2]);
		for (unsigned int k = 0; k < 3; k++)
			bench_stats_add(&stats[k], (double)w->ops[k]);
		close(w->epollfd);
		close_fdmap(w);
	}
	printf("\n");
	for (unsigned int k = 0; k < 3; k++)
		printf("Averaged %ld %s operations (+- %.2f%%)\n", (long)stats[k].mean, op_names[k],
		       bench_stats_rel_stddev(&stats[k]));
	free(workers);
	return PCL_EXIT_OK;
}
