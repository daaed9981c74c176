/* drain: the loop every live command runs over an evlist's ring buffers
 * (record and the recorders built on it, trace, kvm stat live, top).
 *
 * After opening its evlist a command:
 *
 *   drain__mmap()   maps one ring per CPU (per thread when there are no CPUs)
 *                   and redirects every other event fd of that CPU into it;
 *                   events opened with attr.write_backward (record
 *                   --overwrite, the overwrite term, top) get a second,
 *                   overwrite ring per CPU, which keeps only the newest records
 *                   and is read when the loop stops or on drain__round()
 *   drain__catch_signals()  after forking its workload, before the loop
 *   drain__run()    the loop: enable the events (a forked workload's start at
 *                   its exec through enable_on_exec), start the workload, then
 *                   drain every ring and sleep in poll until the kernel's
 *                   wake-up (a ring past its watermark, half of it by default),
 *                   round after round, until a stop condition; on stopping
 *                   disable the events (not a workload's: they end with it)
 *                   and drain until the rings are empty
 *   drain__round()  one pass over every ring, for a last drain or a loop of
 *                   one's own
 *   drain__unmap()
 *
 * Stop conditions: SIGINT or SIGTERM, SIGCHLD (the workload ended), every
 * event fd hung up (the tasks watched are gone), the timeout, the end of the
 * last span the target's -D ranges give, or the consumer's tick asking for it.
 *
 * Each ring's new bytes are copied out and the ring handed back to the kernel
 * before the consumer sees them: under a storm the kernel gets its space back
 * as soon as possible, however long the consumer takes, and the consumer sees
 * whole records, one contiguous chunk per ring, even across the wrap point.
 *
 * The engine prints nothing: what a user should hear about goes to the
 * consumer's note callback, counts stay in struct drain_stats.
 */
#ifndef PCL_DRAIN_H
#define PCL_DRAIN_H

#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/events/cpumap.h"
#include "core/events/evlist.h"
#include "core/live/ringbuf.h"
#include "core/live/target.h"

/* What happened, for the consumer to tell the user. */
enum drain_note {
	DRAIN_EVENTS_DISABLED,	/* a start delay holds the events back, or a -D span ended */
	DRAIN_EVENTS_ENABLED,	/* the delay is over, or a -D span began */
};

enum drain_stop {
	DRAIN_RUNNING = 0,
	DRAIN_STOP_SIGNAL,	/* SIGINT or SIGTERM */
	DRAIN_STOP_CHILD,	/* SIGCHLD: the workload ended */
	DRAIN_STOP_HUNG_UP,	/* every event fd hung up */
	DRAIN_STOP_TIMEOUT,
	DRAIN_STOP_CONSUMER,	/* the tick asked for it */
	DRAIN_STOP_SPANS_DONE,	/* the last -D span ended */
};

struct drain_consumer {
	void *ctx;
	/* Optional: a ring's new records, whole and contiguous (cpu -1 for a
	 * per-thread ring).  A forward ring's come oldest first, an overwrite
	 * ring's newest first.  Returns 0 or -errno (stops the loop). */
	int (*chunk)(void *ctx, int cpu, const void *data, size_t len);
	/* Optional: the same records one by one, after chunk. */
	int (*record)(void *ctx, int cpu, const struct perf_event_header *rec);
	/* Optional: a round drained bytes (> 0) from the rings. */
	int (*round_end)(void *ctx, size_t bytes);
	/* Optional: after every round and every wake-up; stopping tells the
	 * loop is on its way out.  Returns 0 to go on, 1 to stop, or -errno. */
	int (*tick)(void *ctx, bool stopping);
	/* Optional: see enum drain_note. */
	void (*note)(void *ctx, enum drain_note note);
};

struct drain_stats {
	uint64_t wakeups;	/* poll returned: data, a hang-up or a signal */
	uint64_t rounds;	/* rounds that drained anything */
	uint64_t bytes;
	uint64_t records;
	uint64_t samples;	/* PERF_RECORD_SAMPLE records */
	uint64_t lost_records;	/* PERF_RECORD_LOST: the kernel found a ring full */
	uint64_t lost_events;	/* the records those said were dropped */
	uint64_t max_round;	/* most bytes in one round */
	uint64_t busy_ns;	/* time spent draining, consumer included */
};

struct drain_opts {
	size_t mmap_pages;	/* data pages per ring (a power of two) */
	const struct target *target;	/* for drain__run: when to enable, start delay */
	struct workload *workload;	/* for drain__run: started after enabling; or NULL */
	int timeout_ms;		/* for drain__run: stop after this long; <= 0 never */
	int tick_ms;		/* for drain__run: wake (and tick) at least this
				 * often, on a fixed beat; <= 0 on data only */
};

struct drain {
	struct drain_opts opts;
	struct evlist *evlist;
	struct ringbuf *rbs;	/* per CPU (or per thread without CPUs): the
				 * forward ring, then the overwrite one (unused
				 * slots unmapped) */
	size_t nr_rbs;
	struct pollfd *pollfds;	/* every event fd: POLLHUP tells a task ended */
	size_t nr_pollfds;
	size_t nr_other_pollfds;	/* the last ones: drain__poll_fd()'s */
	unsigned char *stage;	/* one ring's worth, copied out */
	struct drain_stats stats;
	enum drain_stop stop;
};

/* Maps the rings of an opened evlist on cpus x threads.  Returns 0 or
 * -errno (-EPERM or -ENOMEM: over the locked-memory limit). */
int drain__mmap(struct drain *d, struct evlist *evlist, const struct cpu_map *cpus,
		const struct thread_map *threads, const struct drain_opts *opts);
void drain__unmap(struct drain *d);
/* Also wakes the loop when fd has input (a control fifo, another
 * evlist's ring): the consumer's tick looks at it.  Such fds do not count
 * for the hang-up of the tasks watched. */
void drain__poll_fd(struct drain *d, int fd);

/*
 * Installs the handlers: SIGINT, SIGTERM and SIGCHLD stop the loop, and each
 * of the nr_extra signals in extra (e.g. SIGUSR2 for record's
 * --switch-output) is only noted, for drain__take_signal().  Install after
 * forking the workload, so that the child never runs them.  Signals are
 * process-wide: the state lives until the next call.
 */
void drain__catch_signals(const int *extra, size_t nr_extra);
/* The stop signal (SIGINT or SIGTERM) that arrived since
 * drain__catch_signals(), or 0. */
int drain__stop_signal(void);
/* Whether sig (one of the extra ones) arrived since the last call. */
bool drain__take_signal(int sig);

/* One pass over every ring.  Returns the bytes drained, or the consumer's
 * -errno. */
long drain__round(struct drain *d, const struct drain_consumer *c);

/* The loop (see the top of this file).  Returns 0 with d->stop saying why
 * it stopped, or the consumer's -errno. */
int drain__run(struct drain *d, const struct drain_consumer *c);

#endif
