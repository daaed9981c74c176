/* pcl bench sched messaging|pipe and syscall basic: the scheduler/IPC and system-call
 * benchmarks, doing perf 6.1's work (groups of 20 senders and 20 receivers exchanging
 * 100-byte messages; one word ping-ponged through two pipes; getppid() in a loop). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd-bench.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

enum {
	MESSAGING_FDS_PER_GROUP = 20,	/* senders = receivers per group */
	MESSAGING_MESSAGE_SIZE = 100,
};

/* One messaging worker: a sender writes to every receiver of its group, a receiver reads
 * what all senders of its group send it. */
struct messaging_worker {
	bool sender;
	int loops;
	int in_fd;				/* receiver's end */
	int out_fds[MESSAGING_FDS_PER_GROUP];	/* sender's ends, one per receiver */
	int ready_fd, wakeup_fd;
};

static void die_errno(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
	exit(PCL_EXIT_ERROR);
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die_errno("write");
		buf += n;
		len -= (size_t)n;
	}
}

/* Tells the parent this worker is ready, then waits for the common start signal. */
static void messaging_wait_start(const struct messaging_worker *w)
{
	struct pollfd wakeup = { .fd = w->wakeup_fd, .events = POLLIN };

	write_all(w->ready_fd, "R", 1);
	while (poll(&wakeup, 1, -1) < 0)
		if (errno != EINTR)
			die_errno("poll");
}

static void *messaging_work(void *arg)
{
	const struct messaging_worker *w = arg;
	char data[MESSAGING_MESSAGE_SIZE] = { 0 };

	messaging_wait_start(w);
	if (w->sender) {
		for (int i = 0; i < w->loops; i++)
			for (int r = 0; r < MESSAGING_FDS_PER_GROUP; r++)
				write_all(w->out_fds[r], data, sizeof(data));
		return NULL;
	}
	for (size_t left = (size_t)w->loops * MESSAGING_FDS_PER_GROUP * sizeof(data); left;) {
		ssize_t n = read(w->in_fd, data, sizeof(data));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die_errno("read");
		left -= (size_t)n;
	}
	return NULL;
}

struct messaging_task {
	pid_t pid;
	pthread_t thread;
};

static void messaging_start(struct messaging_task *t, struct messaging_worker *w,
			    bool threads)
{
	if (threads) {
		pthread_attr_t attr;

		/* small stacks: hundreds of threads run at once */
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		if (pthread_create(&t->thread, &attr, messaging_work, w))
			die_errno("pthread_create");
		pthread_attr_destroy(&attr);
		return;
	}
	t->pid = fork();
	if (t->pid < 0)
		die_errno("fork");
	if (t->pid == 0) {
		messaging_work(w);
		_exit(0);
	}
}

static void make_channel(int fds[2], bool use_pipe)
{
	if (use_pipe ? pipe(fds) : socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
		die_errno(use_pipe ? "pipe" : "socketpair");
}

/* Closes a group's channels in the parent: the write ends the senders share (the first
 * sender's copy), and the receivers' ends when read_ends. */
static void close_channels(const struct messaging_worker *group, bool read_ends)
{
	for (int r = 0; r < MESSAGING_FDS_PER_GROUP; r++) {
		if (read_ends)
			close(group[r].in_fd);
		close(group[MESSAGING_FDS_PER_GROUP].out_fds[r]);
	}
}

int bench_sched_messaging(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench sched messaging <options>", NULL };
	bool use_pipe = false, threads = false;
	int groups = 10, loops = 100;
	const struct option options[] = {
		OPT_INTEGER('g', "group", &groups, "Specify number of groups"),
		OPT_INTEGER('l', "nr_loops", &loops,
			    "Specify the number of loops to run (default: 100)"),
		OPT_BOOLEAN('p', "pipe", &use_pipe, "Use pipe() instead of socketpair()"),
		OPT_BOOLEAN('t', "thread", &threads, "Be multi thread instead of multi process"),
		OPT_END(),
	};
	int ready[2], wakeup[2], nr_tasks;
	struct messaging_worker *workers;
	struct messaging_task *tasks;
	struct timeval start, end;
	const char *kind;

	parse_options(argc, argv, options, usage, 0);
	if (groups < 0)
		groups = 0;
	nr_tasks = groups * MESSAGING_FDS_PER_GROUP * 2;
	workers = calloc((size_t)nr_tasks + 1, sizeof(*workers));
	tasks = calloc((size_t)nr_tasks + 1, sizeof(*tasks));
	if (!workers || !tasks || pipe(ready) || pipe(wakeup))
		die_errno("messaging setup");
	for (int g = 0; g < groups; g++) {
		struct messaging_worker *receivers = workers + g * MESSAGING_FDS_PER_GROUP * 2;
		struct messaging_worker *senders = receivers + MESSAGING_FDS_PER_GROUP;

		for (int r = 0; r < MESSAGING_FDS_PER_GROUP; r++) {
			int channel[2];

			make_channel(channel, use_pipe);
			receivers[r] = (struct messaging_worker){ .loops = loops,
				.in_fd = channel[0], .ready_fd = ready[1], .wakeup_fd = wakeup[0] };
			for (int s = 0; s < MESSAGING_FDS_PER_GROUP; s++)
				senders[s].out_fds[r] = channel[1];
			messaging_start(&tasks[g * MESSAGING_FDS_PER_GROUP * 2 + r], &receivers[r],
					threads);
			/* the receiver process has its end: later forks need not inherit it */
			if (!threads)
				close(channel[0]);
		}
		for (int s = 0; s < MESSAGING_FDS_PER_GROUP; s++) {
			senders[s].sender = true;
			senders[s].loops = loops;
			senders[s].ready_fd = ready[1];
			senders[s].wakeup_fd = wakeup[0];
			messaging_start(&tasks[g * MESSAGING_FDS_PER_GROUP * 2 +
					       MESSAGING_FDS_PER_GROUP + s], &senders[s], threads);
		}
		if (!threads)
			close_channels(receivers, false);
	}
	for (int i = 0; i < nr_tasks; i++) {
		char c;

		while (read(ready[0], &c, 1) != 1)
			if (errno != EINTR)
				die_errno("read");
	}
	gettimeofday(&start, NULL);
	write_all(wakeup[1], "W", 1);
	for (int i = 0; i < nr_tasks; i++) {
		if (threads)
			pthread_join(tasks[i].thread, NULL);
		else
			waitpid(tasks[i].pid, NULL, 0);
	}
	gettimeofday(&end, NULL);

	kind = threads ? "threads" : "processes";
	if (bench_format == BENCH_FORMAT_DEFAULT) {
		printf("# %d sender and receiver %s per group\n", MESSAGING_FDS_PER_GROUP, kind);
		printf("# %d groups == %d %s run\n\n", groups, nr_tasks, kind);
	}
	bench_print_total_time(&start, &end);
	for (int g = 0; threads && g < groups; g++)
		close_channels(workers + g * MESSAGING_FDS_PER_GROUP * 2, true);
	for (int i = 0; i < 2; i++) {
		close(ready[i]);
		close(wakeup[i]);
	}
	free(workers);
	free(tasks);
	return PCL_EXIT_OK;
}

/* The per-operation lines of sched pipe and syscall basic. */
static void print_op_rates(const struct timeval *start, const struct timeval *end, int loops)
{
	double usec = bench_elapsed_usec(start, end);

	if (bench_format != BENCH_FORMAT_DEFAULT)
		return;
	printf(" %14lf usecs/op\n", usec / loops);
	printf(" %14d ops/sec\n", (int)((double)loops / (usec / 1e6)));
}

struct pipe_end {
	int read_fd, write_fd, loops;
	bool writes_first;
};

static void *pipe_work(void *arg)
{
	const struct pipe_end *p = arg;
	int word = 0;

	for (int i = 0; i < p->loops; i++) {
		if (p->writes_first && write(p->write_fd, &word, sizeof(word)) != sizeof(word))
			die_errno("write");
		if (read(p->read_fd, &word, sizeof(word)) != sizeof(word))
			die_errno("read");
		if (!p->writes_first && write(p->write_fd, &word, sizeof(word)) != sizeof(word))
			die_errno("write");
	}
	return NULL;
}

int bench_sched_pipe(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench sched pipe <options>", NULL };
	bool threads = false;
	int loops = 1000000;
	const struct option options[] = {
		OPT_INTEGER('l', "loop", &loops, "Specify number of loops"),
		OPT_BOOLEAN('T', "threaded", &threads, "Specify threads/process based task setup"),
		OPT_END(),
	};
	int there[2], back[2];
	struct pipe_end ends[2];
	struct timeval start, end;

	parse_options(argc, argv, options, usage, 0);
	if (pipe(there) || pipe(back))
		die_errno("pipe");
	ends[0] = (struct pipe_end){ back[0], there[1], loops, true };
	ends[1] = (struct pipe_end){ there[0], back[1], loops, false };
	gettimeofday(&start, NULL);
	if (threads) {
		pthread_t peer[2];

		for (int i = 0; i < 2; i++)
			if (pthread_create(&peer[i], NULL, pipe_work, &ends[i]))
				die_errno("pthread_create");
		for (int i = 0; i < 2; i++)
			pthread_join(peer[i], NULL);
	} else {
		pid_t peer[2];

		for (int i = 0; i < 2; i++) {
			peer[i] = fork();
			if (peer[i] < 0)
				die_errno("fork");
			if (peer[i] == 0) {
				pipe_work(&ends[i]);
				_exit(0);
			}
		}
		for (int i = 0; i < 2; i++)
			waitpid(peer[i], NULL, 0);
	}
	gettimeofday(&end, NULL);
	for (int i = 0; i < 2; i++) {
		close(there[i]);
		close(back[i]);
	}
	if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("# Executed %d pipe operations between two %s\n\n", loops,
		       threads ? "threads" : "processes");
	bench_print_total_time(&start, &end);
	if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("\n");
	print_op_rates(&start, &end, loops);
	return PCL_EXIT_OK;
}

int bench_syscall_basic(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench syscall <options>", NULL };
	int loops = 10000000;
	const struct option options[] = {
		OPT_INTEGER('l', "loop", &loops, "Specify number of loops"),
		OPT_END(),
	};
	struct timeval start, end;

	parse_options(argc, argv, options, usage, 0);
	gettimeofday(&start, NULL);
	for (int i = 0; i < loops; i++)
		syscall(SYS_getppid);
	gettimeofday(&end, NULL);
	if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("# Executed %d getppid() calls\n", loops);
	bench_print_total_time(&start, &end);
	if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("\n");
	print_op_rates(&start, &end, loops);
	return PCL_EXIT_OK;
}
