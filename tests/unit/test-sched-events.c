/* Unit tests for core/analysis/sched-events: the scheduler tracepoints'
 * fields found by name in their formats and read from samples (numbers
 * and comm strings), torn samples read as zeros, other events ignored. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <event-parse.h>

#include "core/analysis/sched-events.h"
#include "core/data/session.h"

#define COMMON_FIELDS									\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"	\
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"	\
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char switch_format[] =
	"name: sched_switch\nID: 372\nformat:\n" COMMON_FIELDS
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_pid=%d next_pid=%d\", REC->prev_pid, REC->next_pid\n";

/* a wake-up event without its comm field */
static const char waking_format[] =
	"name: sched_waking\nID: 375\nformat:\n" COMMON_FIELDS
	"\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

static struct perf_session session;
static struct session_event events[3];
static struct evsel *sw, *waking, *clock_ev;

static int setup(void **state)
{
	struct perf_event_attr tp = { .type = PERF_TYPE_TRACEPOINT };
	struct perf_event_attr sw_attr = { .type = PERF_TYPE_SOFTWARE };

	session.tep = tep_alloc();
	assert_int_equal(tep_parse_event(session.tep, switch_format, sizeof(switch_format) - 1,
					 "sched"), 0);
	assert_int_equal(tep_parse_event(session.tep, waking_format, sizeof(waking_format) - 1,
					 "sched"), 0);
	events[0].tp_format = tep_find_event_by_name(session.tep, "sched", "sched_switch");
	events[1].tp_format = tep_find_event_by_name(session.tep, "sched", "sched_waking");
	session.events = events;
	sw = evsel__new(&tp, "sched:sched_switch");
	waking = evsel__new(&tp, "sched:sched_waking");
	clock_ev = evsel__new(&sw_attr, "cpu-clock");
	sw->idx = 0;
	waking->idx = 1;
	clock_ev->idx = 2;
	return 0;
}

static int teardown(void **state)
{
	evsel__delete(sw);
	evsel__delete(waking);
	evsel__delete(clock_ev);
	tep_free(session.tep);
	return 0;
}

static void put(uint8_t *raw, size_t off, const void *v, size_t n)
{
	memcpy(raw + off, v, n);
}

static void switch_fields(void **state)
{
	struct sched_decoder *d = sched_decoder__new(&session);
	uint8_t raw[64] = { 0 };
	int32_t prev = 4242, next = 7;
	int64_t prev_state = 0x100;
	struct perf_sample s = { .raw_data = raw, .raw_size = sizeof(raw) };
	struct sched_event ev;

	put(raw, 8, "longer-than-16-chars", 16);
	put(raw, 24, &prev, 4);
	put(raw, 32, &prev_state, 8);
	put(raw, 40, "pong", 5);
	put(raw, 56, &next, 4);
	assert_true(sched_decoder__decode(d, sw, &s, &ev));
	assert_int_equal(ev.kind, SCHED_EV_SWITCH);
	assert_int_equal(ev.prev_pid, 4242);
	assert_int_equal(ev.prev_state, 0x100);
	assert_int_equal(ev.next_pid, 7);
	assert_string_equal(ev.next_comm, "pong");
	assert_string_equal(ev.prev_comm, "longer-than-16-c");
	sched_decoder__delete(d);
}

static void torn_sample_reads_zeros(void **state)
{
	struct sched_decoder *d = sched_decoder__new(&session);
	uint8_t raw[64];
	struct perf_sample s = { .raw_data = raw, .raw_size = 30 };
	struct sched_event ev;

	memset(raw, 0xff, sizeof(raw));
	assert_true(sched_decoder__decode(d, sw, &s, &ev));
	assert_int_equal(ev.prev_pid, 0xffffffff);	/* inside the 30 bytes */
	assert_int_equal(ev.prev_state, 0);		/* past them */
	assert_int_equal(ev.next_pid, 0);
	assert_string_equal(ev.next_comm, "");
	sched_decoder__delete(d);
}

static void events_missing_fields_or_not_sched(void **state)
{
	struct sched_decoder *d = sched_decoder__new(&session);
	uint8_t raw[16] = { 0 };
	struct perf_sample s = { .raw_data = raw, .raw_size = sizeof(raw) };
	struct sched_event ev;

	assert_false(sched_decoder__decode(d, waking, &s, &ev));	/* no comm field */
	assert_int_equal(ev.kind, SCHED_EV_OTHER);
	assert_false(sched_decoder__decode(d, clock_ev, &s, &ev));
	assert_int_equal(ev.kind, SCHED_EV_OTHER);
	sched_decoder__delete(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(switch_fields),
		cmocka_unit_test(torn_sample_reads_zeros),
		cmocka_unit_test(events_missing_fields_or_not_sched),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
