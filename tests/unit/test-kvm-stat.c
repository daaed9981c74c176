/* Unit tests for core/analysis/kvm-stat: event timing from begin to end
 * tracepoint per vCPU thread, perf's statistics and row order, the exit
 * names (perf 6.1 printed "avic_unaccelerated_" for SVM exit 0x402), and
 * the option parsers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/kvm-stat.h"

static uint64_t now = 1000;

static void feed(struct kvm_stat *k, enum kvm_tp tp, int tid, uint64_t after, uint64_t key,
		 uint64_t info)
{
	struct kvm_tp_sample s = { .tp = tp, .pid = 100, .tid = tid, .key = key, .info = info };
	struct kvm_slow_event slow;
	now += after;
	s.time = now;
	kvm_stat__sample(k, &s, &slow);
}

/* kvm_entry (vcpu), kvm_exit (reason) after 10 ns, kvm_entry after took */
static void exit_took(struct kvm_stat *k, int tid, int vcpu, uint64_t reason, uint64_t took)
{
	feed(k, KVM_TP_ENTRY, tid, 10, (uint64_t)vcpu, 0);
	feed(k, KVM_TP_EXIT, tid, 10, reason, 0);
	feed(k, KVM_TP_ENTRY, tid, took, (uint64_t)vcpu, 0);
}

static void exits_are_timed_per_thread(void **state)
{
	struct kvm_stat k;
	const struct kvm_event_stats *es;

	(void)state;
	kvm_stat__init(&k);
	feed(&k, KVM_TP_EXIT, 7, 10, 12, 0);	/* before the thread's first entry: ignored */
	exit_took(&k, 7, 0, 12, 1000);
	exit_took(&k, 8, 1, 12, 3000);
	exit_took(&k, 7, 0, 30, 500);
	kvm_stat__sort(&k);
	assert_int_equal(k.nr_rows, 2);
	assert_int_equal(k.rows[0]->key, 12);
	es = kvm_stat__stats(&k, k.rows[0]);
	assert_int_equal((uint64_t)es->stats.n, 2);
	assert_int_equal(es->time, 4000);
	assert_int_equal(es->stats.min, 1000);
	assert_int_equal(es->stats.max, 3000);
	/* stddev of the mean of {1000, 3000} is 1000: 50% of 2000 */
	assert_float_equal(kvm_stats__rel_stddev(&es->stats), 50.0, 1e-9);
	assert_int_equal(k.total_count, 3);
	assert_int_equal(k.total_time, 4500);
	kvm_stat__exit(&k);
}

static void one_vcpu_keeps_perfs_zero_min(void **state)
{
	struct kvm_stat k;
	const struct kvm_event_stats *es;

	(void)state;
	kvm_stat__init(&k);
	k.vcpu = 1;
	exit_took(&k, 7, 0, 12, 1000);
	exit_took(&k, 8, 1, 12, 3000);
	exit_took(&k, 8, 1, 12, 5000);
	kvm_stat__sort(&k);
	assert_int_equal(k.nr_rows, 1);
	es = kvm_stat__stats(&k, k.rows[0]);
	assert_int_equal((uint64_t)es->stats.n, 2);
	assert_int_equal(es->stats.min, 0);	/* perf zeroes a vCPU's slots */
	assert_int_equal(es->stats.max, 5000);
	kvm_stat__exit(&k);
}

/* live mode's next interval: the same events, statistics from scratch, and
 * now a vCPU's minimum is real (perf reinitialises what it zeroed before). */
static void clear_keeps_events_and_order(void **state)
{
	struct kvm_stat k;
	const struct kvm_event_stats *es;

	(void)state;
	kvm_stat__init(&k);
	k.vcpu = 0;
	exit_took(&k, 7, 0, 12, 1000);
	kvm_stat__clear(&k);
	kvm_stat__sort(&k);
	assert_int_equal(k.nr_rows, 0);
	exit_took(&k, 7, 0, 12, 700);
	kvm_stat__sort(&k);
	assert_int_equal(k.nr_rows, 1);
	es = kvm_stat__stats(&k, k.rows[0]);
	assert_int_equal(es->stats.min, 700);
	assert_int_equal(es->time, 700);
	kvm_stat__exit(&k);
}

/* --duration: events longer than it are told, halts aside. */
static void slow_events(void **state)
{
	struct kvm_stat k;
	struct kvm_slow_event slow;
	struct kvm_tp_sample s = { .tp = KVM_TP_ENTRY, .pid = 9, .tid = 10, .key = 3 };

	(void)state;
	kvm_stat__init(&k);
	kvm_stat__set_isa(&k, "GenuineIntel,6,85,7");
	k.duration = 5000;
	s.time = 100;
	assert_false(kvm_stat__sample(&k, &s, &slow));
	s = (struct kvm_tp_sample){ .tp = KVM_TP_EXIT, .pid = 9, .tid = 10, .key = 30,
				    .time = 200 };
	assert_false(kvm_stat__sample(&k, &s, &slow));
	s = (struct kvm_tp_sample){ .tp = KVM_TP_ENTRY, .pid = 9, .tid = 10, .key = 3,
				    .time = 9200 };
	assert_true(kvm_stat__sample(&k, &s, &slow));
	assert_int_equal(slow.took, 9000);
	assert_int_equal(slow.vcpu, 3);
	assert_int_equal(slow.pid, 9);
	assert_int_equal(slow.event->key, 30);
	s = (struct kvm_tp_sample){ .tp = KVM_TP_EXIT, .pid = 9, .tid = 10, .key = 12,
				    .time = 9300 };
	assert_false(kvm_stat__sample(&k, &s, &slow));
	s = (struct kvm_tp_sample){ .tp = KVM_TP_ENTRY, .pid = 9, .tid = 10, .key = 3,
				    .time = 99300 };
	assert_false(kvm_stat__sample(&k, &s, &slow));	/* HLT */
	kvm_stat__exit(&k);
}

/* Ties keep perf's walk: buckets by key & 4095, newest first in one. */
static void ties_in_bucket_order(void **state)
{
	static const uint64_t keys[] = { 1, 4097, 0, 2 };
	static const uint64_t order[] = { 0, 4097, 1, 2 };
	struct kvm_stat k;

	(void)state;
	kvm_stat__init(&k);
	for (size_t i = 0; i < 4; i++)
		exit_took(&k, 7, 0, keys[i], 100 * (i + 1));
	exit_took(&k, 7, 0, 2, 100);
	kvm_stat__sort(&k);
	assert_int_equal(k.nr_rows, 4);
	assert_int_equal(k.rows[0]->key, 2);	/* two samples */
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(k.rows[i + 1]->key, order[i]);
	/* by mean: 300 (key 0), 250 (2), 200 (4097), 100 (1) */
	k.sort = KVM_SORT_TIME;
	kvm_stat__sort(&k);
	assert_int_equal(k.rows[0]->key, 0);
	assert_int_equal(k.rows[1]->key, 2);
	assert_int_equal(k.rows[3]->key, 1);
	kvm_stat__exit(&k);
}

static void mmio_reads_and_writes(void **state)
{
	struct kvm_stat k;
	char name[KVM_DECODE_LEN];

	(void)state;
	kvm_stat__init(&k);
	k.report = KVM_REPORT_MMIO;
	feed(&k, KVM_TP_ENTRY, 7, 10, 0, 0);
	feed(&k, KVM_TP_EXIT, 7, 10, 49, 0);		/* a read begins at the exit */
	feed(&k, KVM_TP_MMIO, 7, 700, 0xfee00000, 1);	/* ... and ends at its kvm_mmio */
	feed(&k, KVM_TP_ENTRY, 7, 50, 0, 0);
	feed(&k, KVM_TP_EXIT, 7, 10, 49, 0);
	feed(&k, KVM_TP_MMIO, 7, 20, 0xfec00000, 2);	/* a write begins at its kvm_mmio */
	feed(&k, KVM_TP_ENTRY, 7, 900, 0, 0);
	feed(&k, KVM_TP_EXIT, 7, 10, 1, 0);
	feed(&k, KVM_TP_ENTRY, 7, 30, 0, 0);		/* no access: nothing, still begun */
	feed(&k, KVM_TP_MMIO, 7, 40, 0xfee00000, 1);
	kvm_stat__sort(&k);
	assert_int_equal(k.nr_rows, 2);
	assert_int_equal(k.rows[0]->key, 0xfee00000);	/* two reads */
	assert_int_equal(k.rows[0]->total.time, 770);
	assert_true(kvm_stat__decode(&k, k.rows[0], name));
	assert_string_equal(name, "0xfee00000:R");
	assert_true(kvm_stat__decode(&k, k.rows[1], name));
	assert_string_equal(name, "0xfec00000:W");
	assert_int_equal(k.rows[1]->total.time, 900);
	kvm_stat__exit(&k);
}

static void ports_and_pids(void **state)
{
	struct kvm_stat k;
	char name[KVM_DECODE_LEN];
	int *pids;
	size_t nr;

	(void)state;
	kvm_stat__init(&k);
	k.report = KVM_REPORT_IOPORT;
	assert_int_equal(kvm_stat__parse_pids("5,100", &pids, &nr), 0);
	k.pids = pids;
	k.nr_pids = nr;
	feed(&k, KVM_TP_ENTRY, 7, 10, 0, 0);
	feed(&k, KVM_TP_PIO, 7, 10, 0x3f8, 1);
	feed(&k, KVM_TP_ENTRY, 7, 10, 0, 0);
	kvm_stat__sort(&k);
	assert_int_equal(k.nr_rows, 1);
	assert_true(kvm_stat__decode(&k, k.rows[0], name));
	assert_string_equal(name, "0x3f8:POUT");
	kvm_stat__exit(&k);
	free(pids);

	assert_int_equal(kvm_stat__parse_pids("1,1", &pids, &nr), -1);
	assert_int_equal(kvm_stat__parse_pids("1,x", &pids, &nr), -1);
	assert_int_equal(kvm_stat__parse_pids("7", &pids, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(pids[0], 7);
	free(pids);
}

static void exit_names(void **state)
{
	struct kvm_stat k;
	struct kvm_event e = { .key = 0x402 };
	char name[KVM_DECODE_LEN];

	(void)state;
	kvm_stat__init(&k);
	assert_int_equal(kvm_stat__set_isa(&k, "CentaurHauls,7,1,0"), -1);
	assert_int_equal(kvm_stat__set_isa(&k, "HygonGenuine,24,0,1"), 0);
	assert_string_equal(k.isa, "SVM");
	assert_true(kvm_stat__decode(&k, &e, name));
	assert_string_equal(name, "avic_unaccelerated_");
	e.key = 0xa5;	/* buslock: newer than perf 6.1's table */
	assert_false(kvm_stat__decode(&k, &e, name));
	assert_string_equal(name, "UNKNOWN");
	assert_int_equal(kvm_stat__set_isa(&k, "GenuineIntel,6,85,7"), 0);
	e.key = 43;
	assert_true(kvm_stat__decode(&k, &e, name));
	assert_string_equal(name, "TPR_BELOW_THRESHOLD");
	e.key = 77;	/* TDCALL: newer too */
	assert_false(kvm_stat__decode(&k, &e, name));
	kvm_stat__exit(&k);
}

static void option_names(void **state)
{
	enum kvm_report_event ev;
	enum kvm_sort_key key;

	(void)state;
	assert_int_equal(kvm_stat__parse_event("ioport", &ev), 0);
	assert_int_equal(ev, KVM_REPORT_IOPORT);
	assert_int_equal(kvm_stat__parse_event("msr", &ev), 0);
	assert_int_equal(kvm_stat__parse_event("vmexits", &ev), -1);
	assert_int_equal(kvm_stat__parse_key("time", &key), 0);
	assert_int_equal(key, KVM_SORT_TIME);
	assert_int_equal(kvm_stat__parse_key("avg", &key), -1);
	assert_string_equal(kvm_stat__event_title(KVM_REPORT_MSR), "MSR Access");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exits_are_timed_per_thread),
		cmocka_unit_test(one_vcpu_keeps_perfs_zero_min),
		cmocka_unit_test(clear_keeps_events_and_order),
		cmocka_unit_test(slow_events),
		cmocka_unit_test(ties_in_bucket_order),
		cmocka_unit_test(mmio_reads_and_writes),
		cmocka_unit_test(ports_and_pids),
		cmocka_unit_test(exit_names),
		cmocka_unit_test(option_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
