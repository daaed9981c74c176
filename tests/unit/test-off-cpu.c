/* Unit tests for core/live/off-cpu: switches in and out of a thread become
 * one offcpu-time sample per sleep, laid out as the event's sample_type
 * says, whatever order the rings hand the switches over in. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/live/off-cpu.h"

/* What perf record's configuration gives offcpu-time with -g and another
 * event with the same fields. */
#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

static const uint64_t chain[] = {
	PERF_CONTEXT_KERNEL, 0xffffffff81000100, 0xffffffff81000200,
	PERF_CONTEXT_USER, 0x401000, 0x401100,
};

static uint64_t emitted[8][32];
static size_t nr_emitted;

static int collect(void *ctx, const struct perf_event_header *rec)
{
	(void)ctx;
	assert_true(nr_emitted < 8 && rec->size <= sizeof(emitted[0]));
	memcpy(emitted[nr_emitted++], rec, rec->size);
	return 0;
}

static int reset(void **state)
{
	(void)state;
	memset(emitted, 0, sizeof(emitted));
	nr_emitted = 0;
	return 0;
}

static void sleep_of(struct off_cpu *oc, uint32_t tid, uint64_t out, uint64_t in, uint32_t cpu)
{
	off_cpu__stack(oc, tid, chain, 6);
	off_cpu__switch_out(oc, 100, tid, out, false);
	off_cpu__switch_in(oc, 100, tid, in, cpu);
}

static void test_attr_is_perfs(void **state)
{
	struct perf_event_attr attr;

	(void)state;
	off_cpu__init_attr(&attr);
	assert_int_equal(attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(attr.config, PERF_COUNT_SW_BPF_OUTPUT);
	assert_int_equal(attr.size, sizeof(attr));
	assert_int_equal(attr.freq, 1);
	assert_int_equal(attr.sample_freq, 1);
	assert_int_equal(attr.sample_type, PERF_SAMPLE_CALLCHAIN);
}

static void test_sample_layout(void **state)
{
	struct off_cpu *oc = off_cpu__new(SAMPLE_TYPE, 77);
	const struct perf_event_header *h = (const void *)emitted[0];
	const uint64_t *f = emitted[0] + 1;

	(void)state;
	sleep_of(oc, 101, 1000, 301000, 1);
	assert_int_equal(off_cpu__finish(oc, collect, NULL), 0);
	assert_int_equal(nr_emitted, 1);
	assert_int_equal(h->type, PERF_RECORD_SAMPLE);
	assert_int_equal(h->misc, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(h->size, 8 + 8 * (6 + 1 + 6));
	assert_int_equal(f[0], 0xffffffff81000100);		/* ip: where it stopped */
	assert_int_equal(f[1], (uint64_t)101 << 32 | 100);	/* pid, tid */
	assert_int_equal(f[2], 301000);				/* woken up */
	assert_int_equal(f[3], 77);				/* id */
	assert_int_equal(f[4], 1);				/* cpu */
	assert_int_equal(f[5], 300000);				/* ns asleep */
	assert_int_equal(f[6], 6);
	assert_memory_equal(&f[7], chain, sizeof(chain));
	assert_int_equal(off_cpu__total_ns(oc), 300000);
	off_cpu__delete(oc);
}

static void test_identifier_and_cgroup(void **state)
{
	struct off_cpu *oc = off_cpu__new(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
					  PERF_SAMPLE_PERIOD | PERF_SAMPLE_CGROUP, 9);
	const uint64_t *f = emitted[0] + 1;

	(void)state;
	sleep_of(oc, 102, 10, 25, 0);
	off_cpu__finish(oc, collect, NULL);
	assert_int_equal(nr_emitted, 1);
	assert_int_equal(f[0], 9);
	assert_int_equal(f[1], (uint64_t)102 << 32 | 100);
	assert_int_equal(f[2], 15);
	assert_int_equal(f[3], 0);
	assert_int_equal(emitted[0][0] >> 48, 8 + 4 * 8);	/* the header's size */
	off_cpu__delete(oc);
}

/* perf's version cannot fill registers, stacks, addresses... nor can we. */
static void test_unsupported_fields(void **state)
{
	(void)state;
	assert_null(off_cpu__new(SAMPLE_TYPE | PERF_SAMPLE_REGS_USER, 1));
	assert_null(off_cpu__new(SAMPLE_TYPE | PERF_SAMPLE_ADDR, 1));
}

/* A preempted thread is runnable, not asleep: no sample, and its wake-up
 * does not pair with an older sleep. */
static void test_preemption_is_no_sleep(void **state)
{
	struct off_cpu *oc = off_cpu__new(SAMPLE_TYPE, 1);

	(void)state;
	off_cpu__stack(oc, 103, chain, 6);
	off_cpu__switch_out(oc, 100, 103, 100, true);
	off_cpu__switch_in(oc, 100, 103, 200, 0);
	off_cpu__finish(oc, collect, NULL);
	assert_int_equal(nr_emitted, 0);
	off_cpu__delete(oc);
}

/* A wake-up lost with a full ring: the thread ran again without one, and
 * the sleep before cannot be measured (it would count CPU time). */
static void test_lost_wake_up(void **state)
{
	struct off_cpu *oc = off_cpu__new(SAMPLE_TYPE, 1);

	(void)state;
	off_cpu__stack(oc, 108, chain, 6);
	off_cpu__switch_out(oc, 100, 108, 100, false);
	off_cpu__switch_out(oc, 100, 108, 300, true);	/* ran since: preempted */
	off_cpu__switch_in(oc, 100, 108, 350, 0);
	off_cpu__finish(oc, collect, NULL);
	assert_int_equal(nr_emitted, 0);
	off_cpu__delete(oc);
}

/* The wake-up's ring was read before the sleep's: the pair still holds. */
static void test_rings_out_of_order(void **state)
{
	struct off_cpu *oc = off_cpu__new(SAMPLE_TYPE, 1);

	(void)state;
	off_cpu__switch_in(oc, 100, 104, 900, 1);	/* CPU 1's ring, read first */
	off_cpu__switch_in(oc, 100, 104, 500, 0);	/* CPU 0's: */
	off_cpu__stack(oc, 104, chain, 6);
	off_cpu__switch_out(oc, 100, 104, 700, false);
	off_cpu__stack(oc, 104, chain, 6);
	off_cpu__switch_out(oc, 100, 104, 300, false);
	off_cpu__finish(oc, collect, NULL);
	assert_int_equal(nr_emitted, 2);
	assert_int_equal(emitted[0][3], 500);
	assert_int_equal(emitted[0][6], 200);
	assert_int_equal(emitted[1][3], 900);
	assert_int_equal(emitted[1][6], 200);
	off_cpu__delete(oc);
}

/* A round's end only pairs what is older than the round before it saw:
 * the rest may still have its other half in a ring not read yet. */
static void test_rounds_wait(void **state)
{
	struct off_cpu *oc = off_cpu__new(SAMPLE_TYPE, 1);

	(void)state;
	sleep_of(oc, 105, 100, 200, 0);
	assert_int_equal(off_cpu__round_end(oc, collect, NULL), 0);
	assert_int_equal(nr_emitted, 0);
	sleep_of(oc, 105, 300, 400, 0);
	off_cpu__round_end(oc, collect, NULL);
	assert_int_equal(nr_emitted, 1);
	assert_int_equal(emitted[0][3], 200);
	off_cpu__round_end(oc, collect, NULL);
	assert_int_equal(nr_emitted, 2);
	assert_int_equal(off_cpu__nr_samples(oc), 2);
	off_cpu__delete(oc);
}

/* perf's rounds flush up to the newest time of any record, not only of
 * switches: sleeps that ended before it go out with the next round, else
 * perf would find them out of order. */
static void test_other_records_move_the_limit(void **state)
{
	struct off_cpu *oc = off_cpu__new(SAMPLE_TYPE, 1);

	(void)state;
	sleep_of(oc, 107, 100, 200, 0);
	off_cpu__note_time(oc, 600);		/* a cpu-clock sample, say */
	off_cpu__round_end(oc, collect, NULL);
	sleep_of(oc, 107, 300, 400, 0);
	off_cpu__round_end(oc, collect, NULL);
	assert_int_equal(nr_emitted, 2);
	assert_int_equal(emitted[1][3], 400);
	off_cpu__delete(oc);
}

/* A thread still asleep when the recording ends has no sample. */
static void test_unfinished_sleep(void **state)
{
	struct off_cpu *oc = off_cpu__new(SAMPLE_TYPE, 1);

	(void)state;
	off_cpu__stack(oc, 106, chain, 6);
	off_cpu__switch_out(oc, 100, 106, 100, false);
	off_cpu__finish(oc, collect, NULL);
	assert_int_equal(nr_emitted, 0);
	off_cpu__delete(oc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_attr_is_perfs, reset),
		cmocka_unit_test_setup(test_sample_layout, reset),
		cmocka_unit_test_setup(test_identifier_and_cgroup, reset),
		cmocka_unit_test_setup(test_unsupported_fields, reset),
		cmocka_unit_test_setup(test_preemption_is_no_sleep, reset),
		cmocka_unit_test_setup(test_lost_wake_up, reset),
		cmocka_unit_test_setup(test_rings_out_of_order, reset),
		cmocka_unit_test_setup(test_rounds_wait, reset),
		cmocka_unit_test_setup(test_other_records_move_the_limit, reset),
		cmocka_unit_test_setup(test_unfinished_sleep, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
