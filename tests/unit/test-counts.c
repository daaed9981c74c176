/* Unit tests for core/counts: -r statistics, multiplexing scaling,
 * aggregation units from a topology, interval deltas and unit sums. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "core/hist/counts.h"

static void statistics(void **state)
{
	struct stats s;
	double vals[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	stats__init(&s);
	assert_true(stats__stddev(&s) == 0.0);
	stats__update(&s, 10);
	assert_true(stats__avg(&s) == 10.0);
	assert_true(stats__stddev(&s) == 0.0);	/* one sample: no spread */

	stats__init(&s);
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		stats__update(&s, vals[i]);
	assert_true(fabs(stats__avg(&s) - 5.0) < 1e-12);
	/* sample variance 32/7, stddev of the mean sqrt(32/7/8) */
	assert_true(fabs(stats__stddev(&s) - sqrt(32.0 / 7.0 / 8.0)) < 1e-12);
	assert_true(fabs(stats__rel_stddev(0.5, 10.0) - 5.0) < 1e-12);
	assert_true(stats__rel_stddev(0.5, 0.0) == 0.0);
}

static void scaling(void **state)
{
	struct counts_values v = { 1000, 200, 100 };

	/* ran half the time it was enabled: doubled */
	assert_int_equal(counts_values__scale(&v, true), 1);
	assert_int_equal(v.val, 2000);
	v = (struct counts_values){ 1000, 200, 200 };
	assert_int_equal(counts_values__scale(&v, true), 0);
	assert_int_equal(v.val, 1000);
	v = (struct counts_values){ 1000, 200, 0 };
	assert_int_equal(counts_values__scale(&v, true), -1);	/* never ran */
	assert_int_equal(v.val, 0);
	v = (struct counts_values){ 1000, 200, 100 };
	assert_int_equal(counts_values__scale(&v, false), 0);	/* --no-scale */
	assert_int_equal(v.val, 1000);
}

/* Two sockets, two cores each, two threads per core: cpu = s*4 + c*2 + t. */
static void fake_topology(int cpu, struct cpu_topology *t)
{
	t->socket = cpu / 4;
	t->die = 0;
	t->core = (cpu / 2) % 2;
	t->node = cpu / 4;
}

static void units(void **state)
{
	int list[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct cpu_map *cpus = cpu_map__new_from(list, 8);
	struct aggr_map *m;

	m = aggr_map__new(AGGR_CORE, cpus, NULL, fake_topology);
	assert_int_equal(m->nr, 4);
	assert_int_equal(m->ids[1].socket, 0);
	assert_int_equal(m->ids[1].core, 1);
	assert_int_equal(m->ids[2].socket, 1);
	assert_int_equal(aggr_map__unit_of_cpu(m, 5), 2);
	assert_int_equal(aggr_map__unit_of_cpu(m, 7), 3);
	assert_int_equal(aggr_map__unit_of_cpu(m, 9), -1);
	aggr_map__delete(m);

	m = aggr_map__new(AGGR_SOCKET, cpus, NULL, fake_topology);
	assert_int_equal(m->nr, 2);
	assert_int_equal(aggr_map__unit_of_cpu(m, 3), 0);
	assert_int_equal(aggr_map__unit_of_cpu(m, 4), 1);
	aggr_map__delete(m);

	m = aggr_map__new(AGGR_NONE, cpus, NULL, fake_topology);
	assert_int_equal(m->nr, 8);
	assert_int_equal(m->ids[6].cpu, 6);
	assert_int_equal(m->ids[6].core, 1);
	aggr_map__delete(m);

	m = aggr_map__new(AGGR_GLOBAL, cpus, NULL, fake_topology);
	assert_int_equal(m->nr, 1);
	assert_int_equal(aggr_map__unit_of_cpu(m, 6), 0);
	aggr_map__delete(m);
	cpu_map__delete(cpus);
}

static void unsorted_units(void **state)
{
	int list[] = { 4, 0 };
	struct cpu_map *cpus = cpu_map__new_from(list, 2);
	struct aggr_map *m = aggr_map__new(AGGR_SOCKET, cpus, NULL, fake_topology);

	/* units come out sorted whatever the CPU order */
	assert_int_equal(m->ids[0].socket, 0);
	assert_int_equal(aggr_map__unit_of_cpu(m, 4), 1);
	aggr_map__delete(m);
	cpu_map__delete(cpus);
}

static void thread_units(void **state)
{
	struct thread_map *t = thread_map__new_by_tid_str("10,11,12");
	struct cpu_map *any = cpu_map__new_any();
	struct aggr_map *m = aggr_map__new(AGGR_THREAD, any, t, fake_topology);

	assert_int_equal(m->nr, 3);
	assert_int_equal(m->ids[2].thread, 2);
	aggr_map__delete(m);
	cpu_map__delete(any);
	thread_map__delete(t);
}

static void global_with_intervals(void **state)
{
	struct evsel_counts c;
	struct aggr_value v;

	evsel_counts__init(&c, 2, 1);
	*evsel_counts__at(&c, 0, 0) = (struct counts_values){ 100, 10, 10 };
	*evsel_counts__at(&c, 1, 0) = (struct counts_values){ 50, 10, 5 };
	evsel_counts__aggr_global(&c, false, true, &v);
	/* sums 150, 20, 15 then scales: 150 * 20 / 15 */
	assert_true(v.val == 200.0);
	assert_int_equal(v.ena, 20);
	assert_int_equal(v.run, 15);
	assert_true(v.counted);

	/* intervals: the first delta is everything, the next only the growth */
	evsel_counts__aggr_global(&c, true, true, &v);
	assert_true(v.val == 200.0);
	*evsel_counts__at(&c, 0, 0) = (struct counts_values){ 130, 20, 20 };
	*evsel_counts__at(&c, 1, 0) = (struct counts_values){ 50, 20, 15 };
	evsel_counts__aggr_global(&c, true, true, &v);
	assert_true(v.val == 30.0);
	assert_int_equal(v.ena, 20);
	assert_int_equal(v.run, 20);

	/* nothing ran in the interval: not counted */
	evsel_counts__aggr_global(&c, true, true, &v);
	assert_false(v.counted);
	evsel_counts__exit(&c);
}

static void per_unit_sums(void **state)
{
	int list[] = { 0, 1, 2, 3 };
	struct cpu_map *cpus = cpu_map__new_from(list, 4);
	struct aggr_map *m = aggr_map__new(AGGR_CORE, cpus, NULL, fake_topology);
	struct evsel evsel = { .cpus = cpus };
	struct evsel_counts c;
	struct aggr_value v[2];

	evsel_counts__init(&c, 4, 1);
	*evsel_counts__at(&c, 0, 0) = (struct counts_values){ 10, 100, 100 };
	*evsel_counts__at(&c, 1, 0) = (struct counts_values){ 20, 100, 50 };
	*evsel_counts__at(&c, 2, 0) = (struct counts_values){ 30, 100, 100 };
	*evsel_counts__at(&c, 3, 0) = (struct counts_values){ 40, 100, 0 };
	evsel_counts__aggr_units(&c, &evsel, m, false, true, v);
	/* core 0: 10 + 20 * 100/50 */
	assert_true(v[0].val == 50.0);
	assert_int_equal(v[0].nr, 2);
	assert_int_equal(v[0].ena, 200);
	assert_true(v[0].counted);
	/* core 1: a CPU that never ran makes the whole unit not counted */
	assert_false(v[1].counted);
	assert_int_equal(v[1].nr, 2);

	c.failed = true;
	evsel_counts__aggr_units(&c, &evsel, m, false, true, v);
	assert_false(v[0].counted);
	evsel_counts__exit(&c);
	aggr_map__delete(m);
	cpu_map__delete(cpus);
}

static void unsupported_reads_fail(void **state)
{
	struct evsel a = { .supported = true }, b = { .supported = false };
	struct evsel_counts c;

	/* a group whose member did not open cannot be read at all */
	a.leader = &a;
	a.nr_members = 2;
	a.next = &b;
	b.leader = &a;
	evsel_counts__init(&c, 1, 1);
	assert_int_equal(evsel_counts__read(&c, &a), -1);
	assert_true(c.failed);
	assert_int_equal(evsel_counts__read(&c, &b), -1);
	evsel_counts__exit(&c);
}

/* --percore-show-thread: each CPU shows the sum of its core's two threads. */
static void core_sibling_sums(void **state)
{
	int list[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct cpu_map *cpus = cpu_map__new_from(list, 8);
	struct aggr_map *m = aggr_map__new(AGGR_NONE, cpus, NULL, fake_topology);
	struct aggr_value v[8];

	for (int u = 0; u < 8; u++)
		v[u] = (struct aggr_value){ .val = 1 << u, .ena = 10, .run = 5, .nr = 1,
					    .counted = u != 3 };
	aggr_values__sum_core_siblings(m, v);
	assert_true(v[0].val == 3.0 && v[1].val == 3.0);	/* cpus 0 and 1: core 0 */
	assert_true(v[6].val == 192.0 && v[7].val == 192.0);	/* socket 1, core 1 */
	assert_int_equal(v[2].ena, 20);
	assert_int_equal(v[2].run, 10);
	assert_int_equal(v[2].nr, 1);
	assert_false(v[3].counted);	/* each row keeps its own state */
	assert_true(v[2].counted);
	aggr_map__delete(m);
	cpu_map__delete(cpus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(statistics),
		cmocka_unit_test(scaling),
		cmocka_unit_test(units),
		cmocka_unit_test(unsorted_units),
		cmocka_unit_test(thread_units),
		cmocka_unit_test(global_with_intervals),
		cmocka_unit_test(per_unit_sums),
		cmocka_unit_test(unsupported_reads_fail),
		cmocka_unit_test(core_sibling_sums),
	};
	return cmocka_run_group_tests_name("counts", tests, NULL, NULL);
}
