/* Unit tests for core/analysis/diff: -c parsing with perf's messages,
 * pairing across files (symbols by name, whatever their addresses), the
 * empty baseline twins, the values and perf diff's output order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/perf_event.h>

#include "core/analysis/diff.h"

static void test_parse_compute(void **state)
{
	struct diff_config c = { 0 };
	char *err;

	assert_int_equal(diff_config__parse_compute(&c, "delta-abs", &err), 0);
	assert_int_equal(c.compute, DIFF_DELTA_ABS);
	assert_int_equal(diff_config__parse_compute(&c, "ratio", &err), 0);
	assert_int_equal(c.compute, DIFF_RATIO);
	assert_int_equal(diff_config__parse_compute(&c, "wdiff:2,-3", &err), 0);
	assert_int_equal(c.compute, DIFF_WDIFF);
	assert_int_equal(c.wdiff_w1, 2);
	assert_int_equal(c.wdiff_w2, -3);

	assert_int_equal(diff_config__parse_compute(&c, "wdiff:1", &err), -1);
	assert_string_equal(err, "Failed: wrong weight data, use 'wdiff:w1,w2'\n");
	free(err);
	assert_int_equal(diff_config__parse_compute(&c, "wdiff:0,4", &err), -1);
	free(err);
	assert_int_equal(diff_config__parse_compute(&c, "ratio:1", &err), -1);
	assert_string_equal(err, "Failed: extra option specified '1'");
	free(err);
	assert_int_equal(diff_config__parse_compute(&c, "delt", &err), -1);
	assert_string_equal(err, "Failed: 'delt' is not computation method "
			    "(use 'delta','ratio' or 'wdiff')\n");
	free(err);
}

/* Two recordings of one program from two builds: foo moved. */
struct world {
	struct thread t;
	struct dso exe_old, exe_new;
	struct symbol foo_old, bar_old, foo_new, baz_new, qux, zap;
	struct hist_opts opts;
	struct strset strings;
	struct callchain_store store;
	struct hists *files[3];
	struct diff_config cfg;
	struct diff_event de;
};

static void sample(struct world *w, int file, struct dso *dso, struct symbol *sym,
		   uint64_t period)
{
	struct hist_sample s = {
		.thread = &w->t,
		.comm = strset_intern(&w->strings, "prog"),
		.dso = dso,
		.sym = sym,
		.addr = sym->start + 4,
		.level = '.',
		.cpumode = PERF_RECORD_MISC_USER,
		.period = period,
	};

	hists__add_sample(w->files[file], &s);
	w->files[file]->stats.total_period += period;
	w->files[file]->stats.total_non_filtered_period += period;
}

/* nr_files empty histograms, sorting first on file sort_idx. */
static struct world *world_init(enum diff_compute compute, bool baseline_only,
				int nr_files, unsigned int sort_idx)
{
	struct world *w = calloc(1, sizeof(*w));
	struct sort_setup ss = { .diff = true };
	char *err = NULL;

	w->t = (struct thread){ .pid = 1, .tid = 1, .comm = "prog" };
	w->exe_old = (struct dso){ .long_name = "/bin/prog", .short_name = "prog" };
	w->exe_new = w->exe_old;
	w->foo_old = (struct symbol){ .start = 0x100, .end = 0x180, .name = "foo" };
	w->bar_old = (struct symbol){ .start = 0x180, .end = 0x200, .name = "bar" };
	w->foo_new = (struct symbol){ .start = 0x300, .end = 0x380, .name = "foo" };
	w->baz_new = (struct symbol){ .start = 0x380, .end = 0x400, .name = "baz" };
	w->qux = (struct symbol){ .start = 0x400, .end = 0x480, .name = "qux" };
	w->zap = (struct symbol){ .start = 0x480, .end = 0x500, .name = "zap" };
	assert_int_equal(hist_layout__setup(&w->opts.layout, &ss, &err), 0);
	assert_true(w->opts.layout.sym_by_name);
	callchain_store__init(&w->store);
	for (int i = 0; i < nr_files; i++)
		w->files[i] = hists__new(&w->opts, NULL, &w->strings, &w->store);
	w->files[0]->nr_members = nr_files;
	w->cfg = (struct diff_config){ .compute = compute, .sort_idx = sort_idx,
				       .nr_files = nr_files, .baseline_only = baseline_only,
				       .wdiff_w1 = 1, .wdiff_w2 = 2 };
	w->de = (struct diff_event){ .cfg = &w->cfg, .base = w->files[0], .files = w->files };
	return w;
}

/* Old and new builds of prog: foo moved, bar went, baz came. */
static struct world *world_new(enum diff_compute compute, bool baseline_only)
{
	struct world *w = world_init(compute, baseline_only, 2, 1);

	sample(w, 0, &w->exe_old, &w->foo_old, 60);
	sample(w, 0, &w->exe_old, &w->bar_old, 40);
	sample(w, 1, &w->exe_new, &w->foo_new, 30);
	sample(w, 1, &w->exe_new, &w->baz_new, 70);
	diff_event__process(&w->de);
	return w;
}

static void world_free(struct world *w)
{
	for (int i = 0; i < w->cfg.nr_files; i++)
		hists__delete(w->files[i]);
	callchain_store__exit(&w->store);
	strset_release(&w->strings);
	free(w);
}

static const char *name_at(const struct world *w, size_t i)
{
	return w->de.base->sorted[i]->sym->name;
}

static void test_pairs_by_name_and_sorts_by_delta(void **state)
{
	struct world *w = world_new(DIFF_DELTA_ABS, false);
	const struct hist_entry *baz, *foo, *bar;

	/* paired first, by |delta|: baz (+70, only new), foo (-30); bar last */
	assert_int_equal(w->de.base->nr_sorted, 3);
	assert_string_equal(name_at(w, 0), "baz");
	assert_string_equal(name_at(w, 1), "foo");
	assert_string_equal(name_at(w, 2), "bar");
	baz = w->de.base->sorted[0];
	foo = w->de.base->sorted[1];
	bar = w->de.base->sorted[2];
	assert_true(diff_entry__is_dummy(baz));
	assert_false(diff_entry__is_dummy(foo));
	assert_ptr_equal(diff_event__pair(&w->de, foo, 1)->sym, &w->foo_new);
	assert_null(diff_event__pair(&w->de, bar, 1));
	assert_true(diff_event__delta(&w->de, foo, 1) == -30.0);
	assert_true(diff_event__delta(&w->de, baz, 1) == 70.0);
	assert_true(diff_event__ratio(&w->de, foo, 1) == 0.5);
	assert_int_equal(diff_event__wdiff(&w->de, foo, 1), 30 * 2 - 60 * 1);
	assert_int_equal(diff_event__total(&w->de, 0), 100);
	world_free(w);
}

static void test_signed_delta_and_ratio_orders(void **state)
{
	struct world *w = world_new(DIFF_DELTA, false);

	/* signed: +70 before -30 */
	assert_string_equal(name_at(w, 0), "baz");
	assert_string_equal(name_at(w, 1), "foo");
	world_free(w);

	/* ratio: an empty twin's value means nothing, real entries first */
	w = world_new(DIFF_RATIO, false);
	assert_string_equal(name_at(w, 0), "foo");
	assert_string_equal(name_at(w, 1), "baz");
	assert_string_equal(name_at(w, 2), "bar");
	world_free(w);
}

static void test_baseline_only(void **state)
{
	struct world *w = world_new(DIFF_DELTA_ABS, true);

	/* no twins, no unpaired baseline entries; the values keep the
	 * baseline's whole total, the shown total is what is left */
	assert_int_equal(w->de.base->nr_sorted, 1);
	assert_string_equal(name_at(w, 0), "foo");
	assert_true(diff_event__delta(&w->de, w->de.base->sorted[0], 1) == -30.0);
	assert_int_equal(w->de.base->stats.total_period, 60);
	world_free(w);
}

/* -o 2 -c ratio: entries only files 1 and 2 have are empty twins in the
 * baseline; between two twins the -o column decides nothing (a ratio
 * against nothing means nothing), so file 1's column orders them: the one
 * it has comes first, whatever file 2's values say. */
static void test_sort_idx_ratio_leaves_twins_to_other_columns(void **state)
{
	struct world *w = world_init(DIFF_RATIO, false, 3, 2);

	sample(w, 0, &w->exe_old, &w->foo_old, 100);
	sample(w, 1, &w->exe_old, &w->foo_old, 100);
	sample(w, 1, &w->exe_old, &w->qux, 10);
	sample(w, 2, &w->exe_old, &w->foo_old, 100);
	sample(w, 2, &w->exe_old, &w->qux, 5);
	sample(w, 2, &w->exe_old, &w->zap, 50);
	diff_event__process(&w->de);

	assert_int_equal(w->de.base->nr_sorted, 3);
	assert_string_equal(name_at(w, 0), "foo");
	assert_string_equal(name_at(w, 1), "qux");
	assert_string_equal(name_at(w, 2), "zap");
	world_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_compute),
		cmocka_unit_test(test_pairs_by_name_and_sorts_by_delta),
		cmocka_unit_test(test_signed_delta_and_ratio_orders),
		cmocka_unit_test(test_baseline_only),
		cmocka_unit_test(test_sort_idx_ratio_leaves_twins_to_other_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
