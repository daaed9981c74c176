/* Unit tests for core/live/drain: rings of a fake kernel (memfds, see
 * fake-ring.h) drained through the loop's consumer callbacks; stats, LOST
 * accounting, overwrite rings and every stop condition.  No timing. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/live/drain.h"
#include "fake-ring.h"

#define NR_RINGS 2

static struct fake_ring rings[NR_RINGS];
static struct target no_target;	/* a workload target: the loop enables nothing */
static struct drain d;

/* What the consumer saw. */
static struct {
	unsigned char data[2 * 65536];
	size_t len;
	int chunks, records, rounds, ticks, cpus_seen;
	int stop_after_records;		/* tick stops the loop after this many (0: never) */
	int raise_at_tick;		/* tick raises this signal once */
	int stop_at_tick;		/* tick stops the loop at this one (0: never) */
	int chunk_error;
	int records_at_first_tick;	/* -1 until the first tick */
} seen;

static int on_chunk(void *ctx, int cpu, const void *data, size_t len)
{
	assert_ptr_equal(ctx, &seen);
	if (seen.chunk_error)
		return seen.chunk_error;
	assert_true(seen.len + len <= sizeof(seen.data));
	memcpy(seen.data + seen.len, data, len);
	seen.len += len;
	seen.chunks++;
	seen.cpus_seen |= 1 << cpu;
	return 0;
}

static int on_record(void *ctx, int cpu, const struct perf_event_header *rec)
{
	seen.records++;
	return 0;
}

static int on_round(void *ctx, size_t bytes)
{
	seen.rounds++;
	return 0;
}

static int on_tick(void *ctx, bool stopping)
{
	if (!seen.ticks++)
		seen.records_at_first_tick = seen.records;
	if (seen.raise_at_tick) {
		/* Blocked until the loop sleeps in ppoll. */
		raise(seen.raise_at_tick);
		seen.raise_at_tick = 0;
	}
	if (seen.stop_at_tick && seen.ticks >= seen.stop_at_tick)
		return 1;
	return seen.stop_after_records && seen.records >= seen.stop_after_records;
}

static const struct drain_consumer consumer = {
	.ctx = &seen, .chunk = on_chunk, .record = on_record, .round_end = on_round,
	.tick = on_tick,
};

/* drain__mmap without perf events: the rings are the fake ones. */
static void map_fake_rings(bool overwrite)
{
	memset(&d, 0, sizeof(d));
	d.opts.mmap_pages = 1;
	d.opts.target = &no_target;
	d.rbs = calloc(NR_RINGS, sizeof(*d.rbs));
	d.nr_rbs = NR_RINGS;
	for (int i = 0; i < NR_RINGS; i++)
		assert_int_equal(ringbuf__mmap(&d.rbs[i], rings[i].fd, i, 1, overwrite), 0);
	d.pollfds = calloc(1, sizeof(*d.pollfds));
	d.stage = malloc(rings[0].data_size);
}

static int setup(void **state)
{
	for (int i = 0; i < NR_RINGS; i++)
		fake_ring__create(&rings[i]);
	memset(&seen, 0, sizeof(seen));
	drain__catch_signals(NULL, 0);
	return 0;
}

static int teardown(void **state)
{
	drain__unmap(&d);
	for (int i = 0; i < NR_RINGS; i++)
		fake_ring__destroy(&rings[i]);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	return 0;
}

static void round_drains_every_ring(void **state)
{
	size_t pos = 0;

	map_fake_rings(false);
	assert_int_equal(drain__round(&d, &consumer), 0);
	assert_int_equal(seen.rounds, 0);
	fake_ring__write(&rings[0], PERF_RECORD_SAMPLE, 40, 1);
	fake_ring__write(&rings[1], PERF_RECORD_COMM, 48, 2);
	fake_ring__write(&rings[1], PERF_RECORD_SAMPLE, 56, 3);
	assert_int_equal(drain__round(&d, &consumer), 144);
	assert_int_equal(seen.chunks, 2);
	assert_int_equal(seen.cpus_seen, 3);
	assert_int_equal(seen.records, 3);
	assert_int_equal(seen.rounds, 1);
	fake_ring__check(seen.data, &pos, PERF_RECORD_SAMPLE, 40, 1);
	fake_ring__check(seen.data, &pos, PERF_RECORD_COMM, 48, 2);
	fake_ring__check(seen.data, &pos, PERF_RECORD_SAMPLE, 56, 3);
	assert_int_equal(d.stats.records, 3);
	assert_int_equal(d.stats.samples, 2);
	assert_int_equal(d.stats.bytes, 144);
	assert_int_equal(d.stats.max_round, 144);
	assert_int_equal(d.stats.rounds, 1);
	/* The rings are handed back. */
	assert_int_equal(fake_ring__control(&rings[1])->data_tail, 104);
	assert_int_equal(drain__round(&d, &consumer), 0);
}

static void wrapped_record_reaches_consumer_whole(void **state)
{
	size_t pos = 0;
	int n = 0;

	map_fake_rings(false);
	while (rings[0].head + 200 < rings[0].data_size)
		fake_ring__write(&rings[0], PERF_RECORD_SAMPLE, 200, (unsigned char)n++);
	assert_int_equal(drain__round(&d, &consumer), n * 200);
	fake_ring__write(&rings[0], PERF_RECORD_MMAP2, 256, 0x5c);	/* crosses the end */
	seen.len = 0;
	assert_int_equal(drain__round(&d, &consumer), 256);
	fake_ring__check(seen.data, &pos, PERF_RECORD_MMAP2, 256, 0x5c);
}

static void lost_records_are_counted(void **state)
{
	map_fake_rings(false);
	fake_ring__write(&rings[0], PERF_RECORD_SAMPLE, 40, 1);
	fake_ring__write_lost(&rings[0], 17);
	fake_ring__write_lost(&rings[1], 5);
	assert_int_equal(drain__round(&d, &consumer), 88);
	assert_int_equal(d.stats.lost_records, 2);
	assert_int_equal(d.stats.lost_events, 22);
	assert_int_equal(d.stats.samples, 1);
	/* LOST records travel on to the consumer like the others. */
	assert_int_equal(seen.records, 3);
}

static void overwrite_rings_give_newest_first(void **state)
{
	size_t pos = 0;

	map_fake_rings(true);
	fake_ring__write_backward(&rings[1], PERF_RECORD_SAMPLE, 40, 1);
	fake_ring__write_backward(&rings[1], PERF_RECORD_SAMPLE, 48, 2);
	assert_int_equal(drain__round(&d, &consumer), 88);
	fake_ring__check(seen.data, &pos, PERF_RECORD_SAMPLE, 48, 2);
	fake_ring__check(seen.data, &pos, PERF_RECORD_SAMPLE, 40, 1);
	assert_int_equal(seen.cpus_seen, 2);
}

/* A flight recorder: the loop reads overwrite rings only once stopping. */
static void overwrite_rings_wait_for_the_stop(void **state)
{
	map_fake_rings(true);
	fake_ring__write_backward(&rings[1], PERF_RECORD_SAMPLE, 40, 1);
	seen.raise_at_tick = SIGINT;
	assert_int_equal(drain__run(&d, &consumer), 0);
	assert_int_equal(d.stop, DRAIN_STOP_SIGNAL);
	assert_int_equal(seen.records_at_first_tick, 0);
	assert_int_equal(seen.records, 1);
}

static void consumer_error_stops_but_rings_empty(void **state)
{
	map_fake_rings(false);
	fake_ring__write(&rings[0], PERF_RECORD_SAMPLE, 40, 1);
	fake_ring__write(&rings[1], PERF_RECORD_SAMPLE, 40, 2);
	seen.chunk_error = -EIO;
	assert_int_equal(drain__run(&d, &consumer), -EIO);
	assert_int_equal(seen.records, 0);
	assert_int_equal(seen.rounds, 0);
	assert_int_equal(fake_ring__control(&rings[1])->data_tail, 40);
	assert_int_equal(d.stats.samples, 2);
}

static void tick_stops_after_draining_all(void **state)
{
	map_fake_rings(false);
	fake_ring__write(&rings[0], PERF_RECORD_SAMPLE, 40, 1);
	fake_ring__write(&rings[1], PERF_RECORD_SAMPLE, 40, 2);
	seen.stop_after_records = 1;
	assert_int_equal(drain__run(&d, &consumer), 0);
	assert_int_equal(d.stop, DRAIN_STOP_CONSUMER);
	assert_int_equal(seen.records, 2);
	/* It asked once; the loop said it was stopping afterwards. */
	assert_true(seen.ticks >= 2);
}

static void timeout_stops(void **state)
{
	map_fake_rings(false);
	d.opts.timeout_ms = 1;
	assert_int_equal(drain__run(&d, &consumer), 0);
	assert_int_equal(d.stop, DRAIN_STOP_TIMEOUT);
}

static void sigint_stops(void **state)
{
	map_fake_rings(false);
	seen.raise_at_tick = SIGINT;
	assert_int_equal(drain__run(&d, &consumer), 0);
	assert_int_equal(d.stop, DRAIN_STOP_SIGNAL);
	assert_true(d.stats.wakeups >= 1);
}

/* top's refreshes: with tick_ms the loop wakes on its beat without data
 * (without it, only the safety timeout would end this one). */
static void beat_ticks_without_data(void **state)
{
	map_fake_rings(false);
	d.nr_pollfds = 0;
	d.opts.tick_ms = 5;
	d.opts.timeout_ms = 10000;
	seen.stop_at_tick = 4;
	assert_int_equal(drain__run(&d, &consumer), 0);
	assert_int_equal(d.stop, DRAIN_STOP_CONSUMER);
}

/* A consumer that never catches up: ppoll finds data at once every time,
 * and SIGINT must still get in (the safety timeout says it did not). */
static void sigint_stops_while_data_stays_ready(void **state)
{
	int pipefd[2];

	map_fake_rings(false);
	assert_int_equal(pipe(pipefd), 0);
	assert_int_equal(write(pipefd[1], "x", 1), 1);	/* readable until the end */
	d.pollfds[0].fd = pipefd[0];
	d.pollfds[0].events = POLLIN;
	d.nr_pollfds = 1;
	d.opts.timeout_ms = 2000;
	seen.raise_at_tick = SIGINT;
	assert_int_equal(drain__run(&d, &consumer), 0);
	assert_int_equal(d.stop, DRAIN_STOP_SIGNAL);
	close(pipefd[0]);
	close(pipefd[1]);
}

static void sigchld_stops(void **state)
{
	map_fake_rings(false);
	seen.raise_at_tick = SIGCHLD;
	assert_int_equal(drain__run(&d, &consumer), 0);
	assert_int_equal(d.stop, DRAIN_STOP_CHILD);
}

static void hang_up_stops(void **state)
{
	int pipefd[2];

	map_fake_rings(false);
	/* A pipe with its writer closed polls as hung up, as an event fd
	 * whose task is gone. */
	assert_int_equal(pipe(pipefd), 0);
	close(pipefd[1]);
	d.pollfds[0].fd = pipefd[0];
	d.pollfds[0].events = POLLIN;
	d.nr_pollfds = 1;
	assert_int_equal(drain__run(&d, &consumer), 0);
	assert_int_equal(d.stop, DRAIN_STOP_HUNG_UP);
	close(pipefd[0]);
}

static void extra_signals_are_noted(void **state)
{
	int extra[] = { SIGUSR2 };
	sigset_t none;

	map_fake_rings(false);
	drain__catch_signals(extra, 1);
	assert_false(drain__take_signal(SIGUSR2));
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	raise(SIGUSR2);
	assert_true(drain__take_signal(SIGUSR2));
	assert_false(drain__take_signal(SIGUSR2));
	/* Not one of the extra ones. */
	assert_false(drain__take_signal(SIGUSR1));
	signal(SIGUSR2, SIG_DFL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(round_drains_every_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(wrapped_record_reaches_consumer_whole, setup,
						teardown),
		cmocka_unit_test_setup_teardown(lost_records_are_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(overwrite_rings_give_newest_first, setup, teardown),
		cmocka_unit_test_setup_teardown(overwrite_rings_wait_for_the_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(consumer_error_stops_but_rings_empty, setup,
						teardown),
		cmocka_unit_test_setup_teardown(tick_stops_after_draining_all, setup, teardown),
		cmocka_unit_test_setup_teardown(beat_ticks_without_data, setup, teardown),
		cmocka_unit_test_setup_teardown(sigint_stops_while_data_stays_ready, setup,
						teardown),
		cmocka_unit_test_setup_teardown(timeout_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(sigint_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(sigchld_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(hang_up_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(extra_signals_are_noted, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
