/* Unit tests for core/analysis/annotate: --percent-type names and the
 * per-offset sample counts (what perf keeps and what it drops). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/annotate.h"

static void percent_types(void **state)
{
	static const struct {
		const char *arg, *header;
	} cases[] = {
		{ "local-period", "local period" },   { "period-local", "local period" },
		{ "global-period", "global period" }, { "local-hits", "local hits" },
		{ "hits-global", "global hits" },
	};
	enum annotate_percent p;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(annotate_percent__parse(cases[i].arg, &p), 0);
		assert_string_equal(annotate_percent__name(p), cases[i].header);
	}
	assert_int_equal(annotate_percent__parse("period", &p), -1);
	assert_int_equal(annotate_percent__parse("local-samples", &p), -1);
}

static void samples_per_offset(void **state)
{
	struct symbol sym = { .start = 0x1000, .end = 0x1010, .name = "f" };
	struct dso *dso = (struct dso *)&sym;	/* only kept, never read */
	struct annotate_samples as;
	struct annotated_sym *s;

	annotate_samples__init(&as);
	assert_null(annotate_samples__find(&as, &sym));
	annotate_samples__add(&as, dso, &sym, 0, 0x1004, 10);
	annotate_samples__add(&as, dso, &sym, 0, 0x1004, 30);
	annotate_samples__add(&as, dso, &sym, 1, 0x100f, 5);
	/* outside the symbol: dropped */
	annotate_samples__add(&as, dso, &sym, 0, 0x1010, 7);
	annotate_samples__add(&as, dso, &sym, 0, 0xfff, 7);
	s = annotate_samples__find(&as, &sym);
	assert_non_null(s);
	assert_ptr_equal(s->dso, dso);
	assert_int_equal(s->hists[0].nr_samples, 2);
	assert_int_equal(s->hists[0].period, 40);
	assert_int_equal(s->hists[0].samples[4], 2);
	assert_int_equal(s->hists[0].periods[4], 40);
	assert_int_equal(s->hists[0].samples[5], 0);
	assert_int_equal(s->hists[1].nr_samples, 1);
	assert_int_equal(s->hists[1].periods[15], 5);
	/* events with no samples in the symbol read as empty */
	assert_int_equal(s->nr_hists, 2);
	assert_int_equal(annotated_sym__hist(s, 5)->nr_samples, 0);
	annotate_samples__release(&as);
}

static bool is_kept(const struct symbol *sym, void *arg)
{
	return sym == arg;
}

/* perf top's pruning: the symbols refused go, the others keep their samples. */
static void samples_kept(void **state)
{
	struct symbol kept = { .start = 0x1000, .end = 0x1010, .name = "kept" };
	struct symbol gone = { .start = 0x2000, .end = 0x2010, .name = "gone" };
	struct dso *dso = (struct dso *)&kept;	/* only kept, never read */
	struct annotate_samples as;

	annotate_samples__init(&as);
	annotate_samples__add(&as, dso, &kept, 0, 0x1004, 10);
	annotate_samples__add(&as, dso, &gone, 0, 0x2004, 10);
	annotate_samples__keep(&as, is_kept, &kept);
	assert_null(annotate_samples__find(&as, &gone));
	assert_non_null(annotate_samples__find(&as, &kept));
	assert_int_equal(annotate_samples__find(&as, &kept)->hists[0].periods[4], 10);
	annotate_samples__release(&as);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(percent_types),
		cmocka_unit_test(samples_per_offset),
		cmocka_unit_test(samples_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
