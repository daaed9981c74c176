/* drain: the live commands' ring-buffer loop (see drain.h). */
#include "core/live/drain.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* Signal numbers the extra-signal flags can hold (1..64 on Linux). */
#define SIGNAL_SLOTS	65

static volatile sig_atomic_t stop_requested, child_exited;
static volatile sig_atomic_t noted[SIGNAL_SLOTS];
static int extra_signals[8];
static size_t nr_extra_signals;

static void on_stop(int sig)
{
	stop_requested = sig;
}

static void on_child(int sig)
{
	(void)sig;
	child_exited = 1;
}

static void on_extra(int sig)
{
	if (sig > 0 && sig < SIGNAL_SLOTS)
		noted[sig] = 1;
}

void drain__catch_signals(const int *extra, size_t nr_extra)
{
	struct sigaction sa;

	stop_requested = child_exited = 0;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_flags = 0;
	sa.sa_handler = on_extra;
	nr_extra_signals = 0;
	for (size_t i = 0; i < nr_extra && i < ARRAY_SIZE(extra_signals); i++) {
		if (extra[i] <= 0 || extra[i] >= SIGNAL_SLOTS)
			continue;
		noted[extra[i]] = 0;
		extra_signals[nr_extra_signals++] = extra[i];
		sigaction(extra[i], &sa, NULL);
	}
}

int drain__stop_signal(void)
{
	return stop_requested;
}

bool drain__take_signal(int sig)
{
	if (sig <= 0 || sig >= SIGNAL_SLOTS || !noted[sig])
		return false;
	noted[sig] = 0;
	return true;
}

/* --- the rings --- */

int drain__mmap(struct drain *d, struct evlist *evlist, const struct cpu_map *cpus,
		const struct thread_map *threads, const struct drain_opts *opts)
{
	bool per_cpu = !cpu_map__is_any(cpus);
	size_t nr = per_cpu ? (size_t)cpus->nr : (size_t)threads->nr;

	memset(d, 0, sizeof(*d));
	d->opts = *opts;
	d->evlist = evlist;
	/* two slots per CPU (or thread): the forward ring, the backward one */
	d->rbs = xcalloc(2 * nr, sizeof(*d->rbs));
	for (size_t i = 0; i < 2 * nr; i++)
		d->rbs[i].fd = -1;
	d->nr_rbs = 2 * nr;
	d->pollfds = xcalloc((size_t)evlist->nr_entries * (size_t)cpus->nr *
			     (size_t)threads->nr + 1, sizeof(*d->pollfds));
	d->stage = xmalloc(opts->mmap_pages * (size_t)sysconf(_SC_PAGESIZE));
	/* The first fd opened on a CPU owns its ring; every other event and
	 * thread on that CPU writing in the same direction redirects its
	 * records there (SET_OUTPUT). */
	for (int c = 0; c < cpus->nr; c++) {
		for (int t = 0; t < threads->nr; t++) {
			evlist__for_each(evlist, e) {
				bool backward = e->attr.write_backward;
				struct ringbuf *rb = &d->rbs[2 * (per_cpu ? c : t) + backward];
				int fd = evsel__fd(e, c, t), err;

				if (fd < 0)
					continue;
				if (rb->fd < 0) {
					err = ringbuf__mmap(rb, fd, per_cpu ? cpus->map[c] : -1,
							    opts->mmap_pages, backward);
					if (err)
						return err;
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, rb->fd) < 0) {
					return -errno;
				}
				/* a backward ring is read when asked, not when it
				 * fills: its fds only tell of hang-ups */
				d->pollfds[d->nr_pollfds].fd = fd;
				d->pollfds[d->nr_pollfds].events = backward ? 0 : POLLIN;
				d->nr_pollfds++;
			}
		}
	}
	return 0;
}

void drain__poll_fd(struct drain *d, int fd)
{
	d->pollfds = xrealloc(d->pollfds, (d->nr_pollfds + 1) * sizeof(*d->pollfds));
	d->pollfds[d->nr_pollfds].fd = fd;
	d->pollfds[d->nr_pollfds].events = POLLIN;
	d->pollfds[d->nr_pollfds].revents = 0;
	d->nr_pollfds++;
	d->nr_other_pollfds++;
}

void drain__unmap(struct drain *d)
{
	for (size_t i = 0; i < d->nr_rbs; i++)
		ringbuf__munmap(&d->rbs[i]);
	free(d->rbs);
	free(d->pollfds);
	free(d->stage);
	d->rbs = NULL;
	d->pollfds = NULL;
	d->stage = NULL;
	d->nr_rbs = d->nr_pollfds = d->nr_other_pollfds = 0;
}

/* --- one round --- */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Counts a chunk's records (ringbuf__take hands out whole ones only) and
 * hands them to the record callback. */
static int walk_records(struct drain *d, const struct drain_consumer *c, int cpu,
			const unsigned char *data, size_t len, bool deliver)
{
	struct drain_stats *st = &d->stats;

	for (size_t pos = 0; pos < len;) {
		const struct perf_event_header *h = (const void *)(data + pos);
		int err;

		st->records++;
		if (h->type == PERF_RECORD_SAMPLE) {
			st->samples++;
		} else if (h->type == PERF_RECORD_LOST && h->size >= sizeof(*h) + 16) {
			uint64_t lost;

			memcpy(&lost, data + pos + sizeof(*h) + 8, sizeof(lost));
			st->lost_records++;
			st->lost_events += lost;
		}
		if (deliver && (err = c->record(c->ctx, cpu, h)))
			return err;
		pos += h->size;
	}
	return 0;
}

/* One pass over the forward rings, and the backward ones too if asked. */
static long drain_rings(struct drain *d, const struct drain_consumer *c, bool backward)
{
	int64_t start = now_ns();
	size_t total = 0;
	int err = 0;

	for (size_t i = 0; i < d->nr_rbs; i++) {
		struct ringbuf *rb = &d->rbs[i];
		size_t len = rb->overwrite && !backward ? 0 : ringbuf__take(rb, d->stage);

		if (!len)
			continue;
		total += len;
		/* After an error the rings are still emptied, so the kernel
		 * does not stall, but nothing more is delivered. */
		if (!err && c->chunk)
			err = c->chunk(c->ctx, rb->cpu, d->stage, len);
		if (err)
			walk_records(d, c, rb->cpu, d->stage, len, false);
		else
			err = walk_records(d, c, rb->cpu, d->stage, len, c->record != NULL);
	}
	if (total) {
		d->stats.rounds++;
		d->stats.bytes += total;
		if (total > d->stats.max_round)
			d->stats.max_round = total;
		if (!err && c->round_end)
			err = c->round_end(c->ctx, total);
	}
	d->stats.busy_ns += (uint64_t)(now_ns() - start);
	return err ? err : (long)total;
}

long drain__round(struct drain *d, const struct drain_consumer *c)
{
	return drain_rings(d, c, true);
}

/* --- the loop --- */

static int64_t now_ms(void)
{
	return now_ns() / 1000000;
}

/* Waits for data, a signal, or the deadline (< 0: none).  Returns false when
 * every event fd hung up (all the tasks watched are gone). */
static bool wait_for_data(struct drain *d, const sigset_t *unblocked, int64_t deadline)
{
	struct timespec ts, *tsp = NULL;
	size_t alive = 0;
	int n;

	if (deadline >= 0) {
		int64_t left = deadline - now_ms();

		if (left < 0)
			left = 0;
		ts.tv_sec = left / 1000;
		ts.tv_nsec = (left % 1000) * 1000000;
		tsp = &ts;
	}
	n = ppoll(d->pollfds, d->nr_pollfds, tsp, unblocked);
	if (n != 0)
		d->stats.wakeups++;
	if (n <= 0)
		return true;
	/* With data ready at once ppoll puts the mask back before delivering a
	 * pending signal: a consumer that never catches up would never see ^C.
	 * Let a pending SIGINT or SIGTERM in here (only those: the others keep
	 * their time, the loop's stopping rules depend on it). */
	{
		sigset_t pending, saved, stop_only = *unblocked;

		if (!sigpending(&pending) &&
		    (sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM))) {
			sigaddset(&stop_only, SIGCHLD);
			for (size_t i = 0; i < nr_extra_signals; i++)
				sigaddset(&stop_only, extra_signals[i]);
			sigprocmask(SIG_SETMASK, &stop_only, &saved);
			sigprocmask(SIG_SETMASK, &saved, NULL);
		}
	}
	for (size_t i = 0; i < d->nr_pollfds; i++) {
		if (d->pollfds[i].revents & (POLLHUP | POLLERR))
			d->pollfds[i].fd = -1;	/* ppoll skips negative fds */
		if (d->pollfds[i].fd >= 0 && i < d->nr_pollfds - d->nr_other_pollfds)
			alive++;
	}
	return alive > 0;
}

static int64_t earliest(int64_t a, int64_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

static void note(const struct drain_consumer *c, enum drain_note what)
{
	if (c->note)
		c->note(c->ctx, what);
}

/* The signals and the clock's stop conditions. */
static enum drain_stop why_stop(int64_t stop_at)
{
	if (stop_requested)
		return DRAIN_STOP_SIGNAL;
	if (child_exited)
		return DRAIN_STOP_CHILD;
	if (stop_at >= 0 && now_ms() >= stop_at)
		return DRAIN_STOP_TIMEOUT;
	return DRAIN_RUNNING;
}

/* The times the events go on and off: -D's spans, or a start delay as one
 * span that never ends.  Edge 2i is span i's start, 2i+1 its end. */
struct toggles {
	const struct delay_range *spans;
	struct delay_range delay;
	size_t next_edge, nr_edges;
	int64_t origin;
};

static void toggles__init(struct toggles *tg, const struct target *t)
{
	*tg = (struct toggles){ .spans = t->delay_ranges, .origin = now_ms() };
	if (t->nr_delay_ranges) {
		tg->nr_edges = 2 * t->nr_delay_ranges;
		/* a span from 0 is on from the start, as without -D */
		tg->next_edge = tg->spans[0].start_ms == 0;
	} else if (t->initial_delay > 0) {
		tg->delay = (struct delay_range){ t->initial_delay, -1 };
		tg->spans = &tg->delay;
		tg->nr_edges = 1;
	}
}

/* When the next edge is due, or -1 when none is left. */
static int64_t toggles__next(const struct toggles *tg)
{
	const struct delay_range *span;

	if (tg->next_edge >= tg->nr_edges)
		return -1;
	span = &tg->spans[tg->next_edge / 2];
	return tg->origin + (tg->next_edge % 2 ? span->end_ms : span->start_ms);
}

/* Turns the events on or off at every edge now due; true once the last
 * span ended. */
static bool toggles__run(struct toggles *tg, struct drain *d, const struct drain_consumer *c)
{
	int64_t at;

	while ((at = toggles__next(tg)) >= 0 && now_ms() >= at) {
		if (tg->next_edge++ % 2) {
			evlist__disable(d->evlist);
			note(c, DRAIN_EVENTS_DISABLED);
			if (tg->next_edge == tg->nr_edges)
				return true;
		} else {
			evlist__enable(d->evlist);
			note(c, DRAIN_EVENTS_ENABLED);
		}
	}
	return false;
}

int drain__run(struct drain *d, const struct drain_consumer *c)
{
	const struct target *t = d->opts.target;
	sigset_t block, orig;
	int64_t stop_at = -1, tick_at = -1;
	struct toggles toggles;
	bool hung_up = false, disabled = false;
	int err = 0;

	/* Signals arrive only inside ppoll: none is lost between a check and
	 * the sleep. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	for (size_t i = 0; i < nr_extra_signals; i++)
		sigaddset(&block, extra_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &orig);

	d->stop = DRAIN_RUNNING;
	toggles__init(&toggles, t);
	if (t->initial_delay) {
		note(c, DRAIN_EVENTS_DISABLED);
	} else if (!target__none(t)) {
		evlist__enable(d->evlist);
	}
	/* A workload's events start at its exec (enable_on_exec). */
	if (d->opts.workload)
		workload__start(d->opts.workload);
	if (d->opts.timeout_ms > 0)
		stop_at = now_ms() + d->opts.timeout_ms;
	if (d->opts.tick_ms > 0)
		tick_at = now_ms() + d->opts.tick_ms;

	for (;;) {
		/* overwrite rings keep the newest records until the end */
		bool stopping = d->stop != DRAIN_RUNNING || hung_up;
		long n = drain_rings(d, c, stopping);

		if (n < 0) {
			err = (int)n;
			break;
		}
		if (d->stop == DRAIN_RUNNING)
			d->stop = why_stop(stop_at);
		if (c->tick) {
			int r = c->tick(c->ctx, d->stop != DRAIN_RUNNING);

			if (r < 0) {
				err = r;
				break;
			}
			if (r > 0 && d->stop == DRAIN_RUNNING)
				d->stop = DRAIN_STOP_CONSUMER;
		}
		if (d->stop == DRAIN_RUNNING && toggles__run(&toggles, d, c)) {
			d->stop = DRAIN_STOP_SPANS_DONE;
			disabled = true;
		}
		/* Stopping: drain until the rings are empty.  Running: sleep
		 * after every round, even one that found records.  Draining again
		 * at once spins on the few records written meanwhile, a write
		 * each, and a task that spins loses the scheduler's favour to
		 * the workload when the rings fill; poll wakes us at the
		 * watermark (half a ring) with data worth a round. */
		if (d->stop != DRAIN_RUNNING || hung_up) {
			if (n == 0 && stopping)
				break;
		} else {
			/* the beat: the next multiple of tick_ms not yet passed */
			while (tick_at >= 0 && tick_at <= now_ms())
				tick_at += d->opts.tick_ms;
			hung_up = !wait_for_data(d, &orig,
						 earliest(earliest(toggles__next(&toggles), stop_at),
							  tick_at));
		}
		/* Stop the events (not a workload's: they end with it) and drain
		 * what they wrote before leaving. */
		if (d->stop != DRAIN_RUNNING && !disabled && !target__none(t)) {
			evlist__disable(d->evlist);
			disabled = true;
		}
	}
	if (d->stop == DRAIN_RUNNING && hung_up)
		d->stop = DRAIN_STOP_HUNG_UP;
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return err;
}
