/* Unit tests for core/analysis/kwork: perf kwork 6.1's pairing of events
 * (the latest atom of the kind before taken, the rest skipped), its
 * filters, its sort keys and the order of ties (checked against perf's
 * tables in tests/e2e/test_kwork.py). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/kwork.h"
#include "core/data/sample-filter.h"
#include "util/util.h"

static const enum kwork_class all_classes[] = { KWORK_IRQ, KWORK_SOFTIRQ, KWORK_WORKQUEUE };

static struct kwork *new_kwork(enum kwork_mode mode, const struct kwork_opts *extra)
{
	struct kwork_opts o = extra ? *extra : (struct kwork_opts){ 0 };

	o.mode = mode;
	if (!o.nr_classes) {
		memcpy(o.classes, all_classes, sizeof(all_classes));
		o.nr_classes = KWORK_NR_CLASSES;
	}
	return kwork__new(&o);
}

static bool feed(struct kwork *k, enum kwork_class c, enum kwork_trace t, int cpu, uint64_t id,
		 const char *name, uint64_t time)
{
	struct kwork_event ev = { .class = c, .trace = t, .cpu = cpu, .id = id, .time = time,
				  .name = name ? xstrdup(name) : NULL };
	bool kept = kwork__event(k, &ev);

	kwork_event__exit(&ev);
	return kept;
}

static struct kwork_work *only_work(struct kwork *k, const char *keys)
{
	size_t nr;
	struct kwork_work **v = kwork__sorted(k, keys, &nr), *w;

	assert_int_equal(nr, 1);
	w = v[0];
	free(v);
	return w;
}

static void report_pairs_latest_entry(void **state)
{
	struct kwork *k = new_kwork(KWORK_REPORT, NULL);
	uint64_t skipped[KWORK_NR_TRACES + 1];
	struct kwork_work *w;

	(void)state;
	/* an exit with nothing to pair stays as a skipped exit */
	feed(k, KWORK_IRQ, KWORK_EXIT, 1, 36, "virtio1-req.0", 500);
	feed(k, KWORK_IRQ, KWORK_ENTRY, 1, 36, "virtio1-req.0", 1000);
	feed(k, KWORK_IRQ, KWORK_EXIT, 1, 36, NULL, 1500);
	/* two entries, one exit: the later entry pairs, the first is skipped */
	feed(k, KWORK_IRQ, KWORK_ENTRY, 1, 36, "virtio1-req.0", 2000);
	feed(k, KWORK_IRQ, KWORK_ENTRY, 1, 36, "virtio1-req.0", 3000);
	feed(k, KWORK_IRQ, KWORK_EXIT, 1, 36, NULL, 5000);
	w = only_work(k, "runtime, max, count");
	assert_string_equal(w->name, "virtio1-req.0");
	assert_int_equal(w->nr_atoms, 2);
	assert_int_equal(w->total_runtime, 2500);
	assert_int_equal(w->max_runtime, 2000);
	assert_int_equal(w->max_runtime_start, 3000);
	assert_int_equal(w->max_runtime_end, 5000);
	kwork__skipped(k, skipped);
	assert_int_equal(skipped[KWORK_RAISE], 0);
	assert_int_equal(skipped[KWORK_ENTRY], 1);
	assert_int_equal(skipped[KWORK_EXIT], 1);
	assert_int_equal(skipped[KWORK_NR_TRACES], 2);
	kwork__delete(k);
}

static void latency_pairs_raise_with_entry(void **state)
{
	struct kwork *k = new_kwork(KWORK_LATENCY, NULL);
	uint64_t skipped[KWORK_NR_TRACES + 1];
	struct kwork_work *w;
	size_t nr;
	struct kwork_work **v;

	(void)state;
	feed(k, KWORK_SOFTIRQ, KWORK_RAISE, 0, 9, "RCU", 100);
	feed(k, KWORK_SOFTIRQ, KWORK_ENTRY, 0, 9, "RCU", 400);
	feed(k, KWORK_SOFTIRQ, KWORK_EXIT, 0, 9, "RCU", 900);	/* latency ignores exits */
	feed(k, KWORK_SOFTIRQ, KWORK_RAISE, 0, 9, "RCU", 1000);
	feed(k, KWORK_SOFTIRQ, KWORK_ENTRY, 0, 9, "RCU", 1100);
	/* hard irqs are never raised: each entry is skipped */
	feed(k, KWORK_IRQ, KWORK_ENTRY, 0, 1, "timer", 1200);
	v = kwork__sorted(k, "avg, max, count", &nr);
	assert_int_equal(nr, 2);
	w = v[0];
	assert_int_equal(w->class, KWORK_SOFTIRQ);
	assert_int_equal(w->nr_atoms, 2);
	assert_int_equal(w->total_latency, 400);
	assert_int_equal(w->max_latency, 300);
	assert_int_equal(w->max_latency_start, 100);
	assert_int_equal(v[1]->nr_atoms, 0);
	free(v);
	kwork__skipped(k, skipped);
	assert_int_equal(skipped[KWORK_ENTRY], 1);
	assert_int_equal(skipped[KWORK_NR_TRACES], 1);
	kwork__delete(k);
}

struct runs {
	struct kwork_run v[8];
	int n;
};

static void collect(const struct kwork_run *run, void *arg)
{
	struct runs *r = arg;

	r->v[r->n++] = *run;
}

static void timehist_emits_runs_with_their_raise(void **state)
{
	struct runs runs = { .n = 0 };
	struct kwork_opts o = { .emit = collect, .arg = &runs };
	struct kwork *k = new_kwork(KWORK_TIMEHIST, &o);

	(void)state;
	feed(k, KWORK_WORKQUEUE, KWORK_RAISE, 1, 0xffff1000, "vmstat_update", 10);
	assert_true(feed(k, KWORK_WORKQUEUE, KWORK_ENTRY, 1, 0xffff1000, "vmstat_update", 30));
	feed(k, KWORK_WORKQUEUE, KWORK_EXIT, 1, 0xffff1000, NULL, 35);
	/* an entry without a raise has no delay */
	feed(k, KWORK_WORKQUEUE, KWORK_ENTRY, 1, 0xffff1000, "vmstat_update", 50);
	feed(k, KWORK_WORKQUEUE, KWORK_EXIT, 1, 0xffff1000, NULL, 70);
	assert_int_equal(runs.n, 2);
	assert_int_equal(runs.v[0].raise, 10);
	assert_int_equal(runs.v[0].entry, 30);
	assert_int_equal(runs.v[0].exit, 35);
	assert_int_equal(runs.v[1].raise, 0);
	assert_int_equal(runs.v[1].entry, 50);
	assert_string_equal(runs.v[1].work->name, "vmstat_update");
	kwork__delete(k);
}

/* -n compares the raw name of works that have one; -C the work's CPU */
static void filters_by_name_and_cpu(void **state)
{
	struct sample_filter f = { 0 };
	struct kwork_opts o = { .name = "RCU", .filter = &f };
	struct kwork *k;
	size_t nr;
	struct kwork_work **v;

	(void)state;
	assert_int_equal(sample_filter__set_cpus(&f, "1"), 0);
	k = new_kwork(KWORK_REPORT, &o);
	feed(k, KWORK_SOFTIRQ, KWORK_ENTRY, 1, 9, "RCU", 10);
	feed(k, KWORK_SOFTIRQ, KWORK_EXIT, 1, 9, "RCU", 20);
	feed(k, KWORK_SOFTIRQ, KWORK_ENTRY, 0, 9, "RCU", 10);
	feed(k, KWORK_SOFTIRQ, KWORK_EXIT, 0, 9, "RCU", 20);
	feed(k, KWORK_SOFTIRQ, KWORK_ENTRY, 1, 1, "TIMER", 10);
	feed(k, KWORK_SOFTIRQ, KWORK_EXIT, 1, 1, "TIMER", 20);
	/* a workqueue item whose function had no symbol passes -n */
	feed(k, KWORK_WORKQUEUE, KWORK_ENTRY, 1, 0x40, NULL, 10);
	feed(k, KWORK_WORKQUEUE, KWORK_EXIT, 1, 0x40, NULL, 30);
	v = kwork__sorted(k, "runtime", &nr);
	/* every work is made, filtered or not; only two have atoms */
	assert_int_equal(nr, 4);
	assert_int_equal(v[0]->class, KWORK_WORKQUEUE);
	assert_int_equal(v[0]->nr_atoms, 1);
	assert_string_equal(v[1]->name, "RCU");
	assert_int_equal(v[1]->cpu, 1);
	assert_int_equal(v[1]->nr_atoms, 1);
	assert_int_equal(v[2]->nr_atoms + v[3]->nr_atoms, 0);
	free(v);
	kwork__delete(k);
	sample_filter__exit(&f);
}

/* Equal keys keep perf's tree order: the classes in -k order, each
 * class's works by CPU then id, largest first. */
static void ties_follow_class_order_then_cpu_and_id(void **state)
{
	struct kwork_opts o = { .classes = { KWORK_WORKQUEUE, KWORK_SOFTIRQ }, .nr_classes = 2 };
	struct kwork *k = new_kwork(KWORK_REPORT, &o);
	struct kwork_work **v;
	size_t nr;

	(void)state;
	feed(k, KWORK_SOFTIRQ, KWORK_ENTRY, 0, 1, "TIMER", 1);
	feed(k, KWORK_SOFTIRQ, KWORK_EXIT, 0, 1, "TIMER", 6);
	feed(k, KWORK_SOFTIRQ, KWORK_ENTRY, 1, 1, "TIMER", 1);
	feed(k, KWORK_SOFTIRQ, KWORK_EXIT, 1, 1, "TIMER", 6);
	feed(k, KWORK_SOFTIRQ, KWORK_ENTRY, 0, 9, "RCU", 1);
	feed(k, KWORK_SOFTIRQ, KWORK_EXIT, 0, 9, "RCU", 8);
	feed(k, KWORK_WORKQUEUE, KWORK_ENTRY, 0, 0x10, "a_fn", 1);
	feed(k, KWORK_WORKQUEUE, KWORK_EXIT, 0, 0x10, NULL, 6);
	feed(k, KWORK_IRQ, KWORK_ENTRY, 0, 36, "virtio", 1);	/* not a chosen class */
	v = kwork__sorted(k, "count", &nr);
	assert_int_equal(nr, 4);
	assert_int_equal(v[0]->class, KWORK_WORKQUEUE);
	assert_int_equal(v[1]->cpu, 1);
	assert_int_equal(v[2]->id, 9);
	assert_int_equal(v[3]->id, 1);
	assert_int_equal(v[3]->cpu, 0);
	free(v);
	/* "max, count": RCU's longer run comes first */
	v = kwork__sorted(k, "max, count", &nr);
	assert_string_equal(v[0]->name, "RCU");
	free(v);
	kwork__delete(k);
}

static void parses_classes_and_sort_keys(void **state)
{
	enum kwork_class order[KWORK_NR_CLASSES];
	char *bad = NULL;

	(void)state;
	assert_int_equal(kwork_classes__parse(NULL, order, &bad), 3);
	assert_int_equal(order[0], KWORK_IRQ);
	assert_int_equal(order[2], KWORK_WORKQUEUE);
	assert_int_equal(kwork_classes__parse("workqueue, irq,workqueue", order, &bad), 2);
	assert_int_equal(order[0], KWORK_WORKQUEUE);
	assert_int_equal(order[1], KWORK_IRQ);
	assert_int_equal(kwork_classes__parse("irq,hrtimer", order, &bad), -1);
	assert_string_equal(bad, "hrtimer");
	free(bad);
	assert_true(kwork__valid_sort("runtime, max, count", NULL));
	assert_true(kwork__valid_sort("avg,id", NULL));
	assert_false(kwork__valid_sort("count,latency", &bad));
	assert_string_equal(bad, "latency");
	free(bad);
	assert_string_equal(kwork_class__tracepoint(KWORK_SOFTIRQ, KWORK_RAISE),
			    "irq:softirq_raise");
	assert_null(kwork_class__tracepoint(KWORK_IRQ, KWORK_RAISE));
}

/* A work met first without a name takes the first name an event brings. */
static void unnamed_work_takes_a_later_name(void **state)
{
	struct kwork *k = new_kwork(KWORK_REPORT, NULL);
	struct kwork_work *w;

	(void)state;
	feed(k, KWORK_WORKQUEUE, KWORK_EXIT, 0, 0x20, NULL, 5);
	feed(k, KWORK_WORKQUEUE, KWORK_ENTRY, 0, 0x20, "first_fn", 10);
	feed(k, KWORK_WORKQUEUE, KWORK_ENTRY, 0, 0x20, "second_fn", 20);
	w = only_work(k, "runtime");
	assert_string_equal(w->name, "first_fn");
	kwork__delete(k);
}

/* perf's -v count of atom pages: 128 atoms alive at once fill one page,
 * the 129th needs another; paired atoms give their slots back. */
static void atom_pages_follow_the_peak(void **state)
{
	struct kwork *k = new_kwork(KWORK_LATENCY, NULL);

	(void)state;
	assert_int_equal(kwork__atom_pages(k), 0);
	/* irq entries in latency never pair: 127 stay */
	for (uint64_t t = 1; t <= 127; t++)
		feed(k, KWORK_IRQ, KWORK_ENTRY, 0, 1, "timer", t);
	assert_int_equal(kwork__atom_pages(k), 1);
	/* each raise is the 128th atom until its entry takes it */
	for (uint64_t t = 200; t < 300; t++) {
		feed(k, KWORK_SOFTIRQ, KWORK_RAISE, 0, 1, "TIMER", t);
		feed(k, KWORK_SOFTIRQ, KWORK_ENTRY, 0, 1, "TIMER", t);
	}
	assert_int_equal(kwork__atom_pages(k), 1);
	feed(k, KWORK_IRQ, KWORK_ENTRY, 0, 1, "timer", 400);
	assert_int_equal(kwork__atom_pages(k), 1);
	feed(k, KWORK_IRQ, KWORK_ENTRY, 0, 1, "timer", 401);
	assert_int_equal(kwork__atom_pages(k), 2);
	kwork__delete(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_pairs_latest_entry),
		cmocka_unit_test(latency_pairs_raise_with_entry),
		cmocka_unit_test(timehist_emits_runs_with_their_raise),
		cmocka_unit_test(filters_by_name_and_cpu),
		cmocka_unit_test(ties_follow_class_order_then_cpu_and_id),
		cmocka_unit_test(parses_classes_and_sort_keys),
		cmocka_unit_test(unnamed_work_takes_a_later_name),
		cmocka_unit_test(atom_pages_follow_the_peak),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
