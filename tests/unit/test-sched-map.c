/* Unit tests for core/analysis/sched-map: perf's short names (A0..Z0,
 * A1.., '.' for idle), announcements of new and renamed tasks, and the
 * columns: CPU 0 up to the highest-1, or --compact's order of appearance. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/sched-map.h"
#include "core/events/cpumap.h"
#include "core/symbols/machine.h"
#include "core/symbols/thread.h"
#include "sched-fake.h"

static struct machine *m;
static char lines[32][128];
static int nr_lines;

/* a row as "cells|announcement", cells as "*A0 B0 -- " */
static void collect(const struct map_row *row, void *arg)
{
	char *p = lines[nr_lines++];

	for (int i = 0; i < row->nr_cells; i++)
		p += sprintf(p, "%c%s ", row->cells[i].cpu == row->cpu ? '*' : ' ',
			     row->cells[i].shortname ? row->cells[i].shortname : "--");
	if (row->announce)
		sprintf(p, "|%s=%s:%d", row->shortname, row->comm, row->tid);
	if (row->new_cpu && row->shown)
		strcat(p, "|new");
}

static int setup(void **state)
{
	m = machine__new();
	for (int tid = 1; tid <= 30; tid++) {
		char comm[16];

		snprintf(comm, sizeof(comm), "t%d", tid);
		machine__process_comm(m, tid, tid, comm, false);
	}
	nr_lines = 0;
	return 0;
}

static int teardown(void **state)
{
	machine__delete(m);
	return 0;
}

static void sw(struct sched_map *map, uint64_t time, int cpu, uint32_t prev, uint32_t next)
{
	struct sched_event ev = fake_switch(prev, 0, next);
	struct perf_sample s = fake_sample(time, cpu, 0, 0);

	assert_int_equal(sched_map__switch(map, m, &ev, &s), 0);
}

static void names_and_columns(void **state)
{
	struct map_opts o = { .nr_cpus_conf = 2, .emit = collect };
	struct sched_map *map = sched_map__new(&o);

	sw(map, 1000, 1, 0, 1);
	sw(map, 2000, 0, 0, 2);
	sw(map, 3000, 1, 1, 0);
	sw(map, 4000, 1, 0, 1);
	sw(map, 5000, 2, 0, 3);		/* a CPU beyond: its own column is left out */
	assert_string_equal(lines[0], " -- *A0 |A0=t1:1");
	assert_string_equal(lines[1], "*B0  A0 |B0=t2:2");
	assert_string_equal(lines[2], " B0 *.  |. =swapper:0");
	assert_string_equal(lines[3], " B0 *A0 ");
	assert_string_equal(lines[4], " B0  A0 |C0=t3:3");
	sched_map__delete(map);
}

static void rename_is_announced(void **state)
{
	struct map_opts o = { .nr_cpus_conf = 1, .emit = collect };
	struct sched_map *map = sched_map__new(&o);

	sw(map, 1000, 0, 0, 1);
	sw(map, 2000, 0, 1, 0);
	machine__process_comm(m, 1, 1, "renamed", true);
	sched_map__comm(map, machine__find_thread(m, 1, 1));
	sw(map, 3000, 0, 0, 1);
	assert_string_equal(lines[1], "*.  |. =swapper:0");
	assert_string_equal(lines[2], "*A0 |A0=renamed:1");
	sched_map__delete(map);
}

static void names_wrap_after_z(void **state)
{
	struct map_opts o = { .nr_cpus_conf = 1, .emit = collect, .compact = true };
	struct sched_map *map = sched_map__new(&o);

	for (uint32_t tid = 1; tid <= 27; tid++)
		sw(map, 1000 * tid, 0, 0, tid);
	assert_string_equal(lines[0], "*A0 |A0=t1:1|new");
	nr_lines = 0;
	sw(map, 1000000, 0, 27, 28);
	assert_string_equal(lines[0], "*B1 |B1=t28:28");
	sched_map__delete(map);
}

static void compact_and_cpu_list(void **state)
{
	struct cpu_map *cpus = cpu_map__parse("2");
	struct map_opts o = { .nr_cpus_conf = 4, .emit = collect, .compact = true, .cpus = cpus };
	struct sched_map *map = sched_map__new(&o);

	sw(map, 1000, 2, 0, 1);
	sw(map, 2000, 0, 0, 2);
	assert_string_equal(lines[0], "*A0 |A0=t1:1|new");
	assert_string_equal(lines[1], " A0 ");	/* CPU 0 hidden: no time, no names */
	sched_map__delete(map);
	cpu_map__delete(cpus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(names_and_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(rename_is_announced, setup, teardown),
		cmocka_unit_test_setup_teardown(names_wrap_after_z, setup, teardown),
		cmocka_unit_test_setup_teardown(compact_and_cpu_list, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
