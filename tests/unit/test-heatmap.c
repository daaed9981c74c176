/* Unit tests for core/analysis/heatmap: pairing starts with ends, the
 * text input, and counting latencies per cell (edges included). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/heatmap.h"

#define KEY(s) (s), strlen(s)

static void pairs_by_key(void **state)
{
	struct heatmap_events e;
	struct heatmap_pairer p;

	heatmap_events__init(&e);
	heatmap_pairer__init(&p, &e, 1e-3);	/* microseconds */
	heatmap_pairer__start(&p, KEY("8:0 100"), 1000000000, 10, 11, "dd", NULL);
	heatmap_pairer__start(&p, KEY("8:0 200"), 1000500000, 20, 21, "kworker", NULL);
	/* an end for the second request first: keys, not order, pair them */
	assert_true(heatmap_pairer__end(&p, KEY("8:0 200"), 1000700000));
	assert_true(heatmap_pairer__end(&p, KEY("8:0 100"), 1002000000));
	/* a second end of the same request has no start left */
	assert_false(heatmap_pairer__end(&p, KEY("8:0 100"), 1003000000));
	assert_false(heatmap_pairer__end(&p, KEY("8:0 300"), 1003000000));
	heatmap_pairer__exit(&p);

	assert_int_equal(e.nr, 2);
	assert_true(e.ev[0].time == 1.0007);
	assert_true(e.ev[0].latency == 200);
	assert_int_equal(e.ev[0].tid, 21);
	assert_string_equal(e.ev[0].comm, "kworker");
	assert_true(e.ev[1].latency == 2000);
	assert_int_equal(e.ev[1].pid, 10);
	assert_int_equal(e.nr_unmatched_end, 2);
	assert_int_equal(e.nr_open, 0);
	assert_false(e.have_stacks);
	heatmap_events__exit(&e);
}

static void restarts_and_open_starts(void **state)
{
	struct heatmap_events e;
	struct heatmap_pairer p;

	heatmap_events__init(&e);
	heatmap_pairer__init(&p, &e, 1);	/* nanoseconds */
	heatmap_pairer__start(&p, KEY("7"), 100, 7, 7, "a", NULL);
	/* the same thread starts again: the later start counts */
	heatmap_pairer__start(&p, KEY("7"), 150, 7, 7, "a", "main;f");
	heatmap_pairer__start(&p, KEY("8"), 160, 8, 8, "b", NULL);
	/* an end before its start is no latency */
	assert_false(heatmap_pairer__end(&p, KEY("7"), 120));
	assert_true(heatmap_pairer__end(&p, KEY("7"), 400));
	/* a new start after a matched one pairs again */
	heatmap_pairer__start(&p, KEY("7"), 500, 7, 7, "a", NULL);
	assert_true(heatmap_pairer__end(&p, KEY("7"), 510));
	heatmap_pairer__exit(&p);

	assert_int_equal(e.nr, 2);
	assert_true(e.ev[0].latency == 250);
	assert_string_equal(e.ev[0].stack, "main;f");
	assert_true(e.ev[1].latency == 10);
	assert_int_equal(e.nr_restarted, 1);
	assert_int_equal(e.nr_unmatched_end, 1);
	assert_int_equal(e.nr_open, 1);		/* thread 8 never returned */
	assert_true(e.have_stacks);
	heatmap_events__exit(&e);
}

static void default_ends(void **state)
{
	char *end = heatmap_default_end("syscalls:sys_enter_nanosleep");

	assert_string_equal(end, "syscalls:sys_exit_nanosleep");
	free(end);
	end = heatmap_default_end("raw_syscalls:sys_enter");
	assert_string_equal(end, "raw_syscalls:sys_exit");
	free(end);
	assert_null(heatmap_default_end("syscalls:sys_enter_"));
	assert_null(heatmap_default_end("block:block_rq_issue"));
	assert_null(heatmap_default_end("raw_syscalls:sys_exit"));
}

static void units(void **state)
{
	assert_true(heatmap_unit_seconds("s") == 1);
	assert_true(heatmap_unit_seconds("ms") == 1e-3);
	assert_true(heatmap_unit_seconds("us") == 1e-6);
	assert_true(heatmap_unit_seconds("ns") == 1e-9);
	assert_true(heatmap_unit_seconds("sec") == 0);
}

static int read_text(struct heatmap_events *e, const char *text, double unit, char **err)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int ret;

	assert_non_null(in);
	heatmap_events__init(e);
	ret = heatmap_events__read_text(e, in, unit, err);
	fclose(in);
	return ret;
}

static void text_input(void **state)
{
	struct heatmap_events e;
	char *err = NULL;

	assert_int_equal(read_text(&e, "# time latency\n17442020318913 8026\n\n"
				   "  17442020325950\t6798  \n17442021325950 0.5\r\n", 1e-6, &err), 0);
	assert_int_equal(e.nr, 3);
	assert_true(e.ev[0].time == 17442020318913 * 1e-6);
	assert_true(e.ev[0].latency == 8026);
	assert_true(e.ev[2].latency == 0.5);
	assert_int_equal(e.ev[1].tid, -1);
	assert_null(e.ev[1].comm);
	heatmap_events__exit(&e);

	static const char *const bad[] = { "1 2\n3\n", "1 2 3\n", "x 2\n", "1 nan\n" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(read_text(&e, bad[i], 1, &err), -1);
		assert_non_null(strstr(err, i ? "line 1:" : "line 2:"));
		free(err);
		heatmap_events__exit(&e);
	}
}

static void add(struct heatmap_events *e, double time, double latency)
{
	struct heatmap_event ev = { .time = time, .latency = latency, .pid = -1, .tid = -1 };

	heatmap_events__add(e, &ev);
}

static uint64_t count_at(const struct heatmap_grid *g, int col, int row)
{
	return g->counts[col * g->rows + row];
}

static void grid_cells(void **state)
{
	struct heatmap_events e;
	struct heatmap_grid g;
	struct heatmap_grid_opts o = { .stepsec = 0.5, .rows = 4, .minlat = 0, .maxlat = -1 };
	char *err = NULL;

	heatmap_events__init(&e);
	add(&e, 10.2, 0);	/* t0 = 10.0: the earliest, whatever the order */
	add(&e, 10.0, 99);
	add(&e, 10.49, 100);	/* the largest latency: the top row's top edge */
	add(&e, 10.5, 25);	/* a row's lower edge belongs to that row */
	add(&e, 11.7, 24.9);
	add(&e, 11.71, 24.9);
	assert_int_equal(heatmap_grid__build(&g, &e, &o, &err), 0);
	assert_int_equal(g.cols, 4);
	assert_int_equal(g.rows, 4);
	assert_true(g.t0 == 10.0);
	assert_true(g.maxlat == 100 && g.rowsize == 25);
	assert_int_equal(count_at(&g, 0, 0), 1);
	assert_int_equal(count_at(&g, 0, 3), 2);
	assert_int_equal(count_at(&g, 1, 1), 1);
	assert_int_equal(count_at(&g, 3, 0), 2);
	assert_int_equal(g.max_count, 2);
	assert_int_equal(g.nr_in, 6);
	assert_int_equal(g.nr_out, 0);
	assert_int_equal(g.cell[1], 3);
	assert_int_equal(g.cell[3], 1 * 4 + 1);
	heatmap_grid__exit(&g);

	/* a latency range: the rest is counted outside, columns still span all */
	o.minlat = 10;
	o.maxlat = 50;
	assert_int_equal(heatmap_grid__build(&g, &e, &o, &err), 0);
	assert_true(g.rowsize == 10);
	assert_int_equal(g.nr_out, 3);
	assert_int_equal(g.cell[0], -1);
	assert_int_equal(count_at(&g, 3, 1), 2);	/* 24.9 in [20, 30) */
	assert_int_equal(count_at(&g, 1, 1), 1);	/* 25 */
	assert_int_equal(g.cols, 4);
	heatmap_grid__exit(&g);
	heatmap_events__exit(&e);
}

static void grid_edge_cases(void **state)
{
	struct heatmap_events e;
	struct heatmap_grid g;
	struct heatmap_grid_opts o = { .stepsec = 1, .rows = 10, .minlat = 7, .maxlat = -1 };
	char *err = NULL;

	heatmap_events__init(&e);
	add(&e, 5, 7);
	add(&e, 5.5, 7);
	/* every latency at minlat: rows of one unit rather than of nothing */
	assert_int_equal(heatmap_grid__build(&g, &e, &o, &err), 0);
	assert_true(g.rowsize == 1);
	assert_int_equal(g.cols, 1);
	assert_int_equal(count_at(&g, 0, 0), 2);
	heatmap_grid__exit(&g);

	o.stepsec = 0;
	assert_int_equal(heatmap_grid__build(&g, &e, &o, &err), -1);
	free(err);
	o.stepsec = 1e-9;
	add(&e, 100, 1);
	assert_int_equal(heatmap_grid__build(&g, &e, &o, &err), -1);
	assert_non_null(strstr(err, "--stepsec"));
	free(err);
	o.stepsec = 1;
	o.maxlat = 4;
	assert_int_equal(heatmap_grid__build(&g, &e, &o, &err), -1);
	free(err);
	heatmap_events__exit(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pairs_by_key),
		cmocka_unit_test(restarts_and_open_starts),
		cmocka_unit_test(default_ends),
		cmocka_unit_test(units),
		cmocka_unit_test(text_input),
		cmocka_unit_test(grid_cells),
		cmocka_unit_test(grid_edge_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
