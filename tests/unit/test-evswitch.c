/* Unit tests for core/evswitch: --switch-on/--switch-off windows, the
 * on/off samples with and without --show-on-off-events, perf's quirk of
 * an off event alone, and the message for an unknown event. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/data/evswitch.h"

static struct evlist evlist;
static struct evsel *a, *on, *off;

static int setup(void **state)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE };

	evlist__init(&evlist);
	evlist__add(&evlist, a = evsel__new(&attr, "cpu-clock"));
	evlist__add(&evlist, on = evsel__new(&attr, "on-ev"));
	evlist__add(&evlist, off = evsel__new(&attr, "off-ev"));
	return 0;
}

static int teardown(void **state)
{
	evlist__exit(&evlist);
	return 0;
}

/* The kept samples of a sequence, as a string of the events' first letters. */
static void run(struct evswitch *sw, const char *seq, const char *want)
{
	char got[64] = "";
	size_t n = 0;

	assert_int_equal(evswitch__init(sw, &evlist, stderr), 0);
	for (const char *p = seq; *p; p++) {
		struct evsel *e = *p == 'a' ? a : *p == 'n' ? on : off;

		if (!evswitch__discard(sw, e))
			got[n++] = *p;
	}
	got[n] = 0;
	assert_string_equal(got, want);
}

static void window(void **state)
{
	struct evswitch sw = { .on_name = "on-ev", .off_name = "off-ev" };

	run(&sw, "aanaafaanaf", "aaa");
}

static void window_shows_switches(void **state)
{
	struct evswitch sw = { .on_name = "on-ev", .off_name = "off-ev",
			       .show_on_off_events = true };

	run(&sw, "aanaafaanaf", "naafnaf");
}

static void on_only(void **state)
{
	struct evswitch sw = { .on_name = "on-ev" };

	run(&sw, "aanafa", "afa");
}

static void off_only_drops_the_first_off(void **state)
{
	struct evswitch sw = { .off_name = "off-ev" };

	run(&sw, "aafaafa", "aaaafa");
}

static void none(void **state)
{
	struct evswitch sw = { 0 };

	run(&sw, "anf", "anf");
}

static void unknown_event(void **state)
{
	struct evswitch sw = { .off_name = "nosuch" };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_int_equal(evswitch__init(&sw, &evlist, fp), -1);
	fclose(fp);
	assert_string_equal(buf, "ERROR: switch-off event not found (nosuch)\n"
			    "HINT:  use 'perf evlist' to see the available event names\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(window),
		cmocka_unit_test(window_shows_switches),
		cmocka_unit_test(on_only),
		cmocka_unit_test(off_only_drops_the_first_off),
		cmocka_unit_test(none),
		cmocka_unit_test(unknown_event),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
