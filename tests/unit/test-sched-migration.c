/* Unit tests for core/analysis/sched-migration (and tp-fields, which it
 * reads through): perf's sched-migration runqueue model on a few events of
 * hand-written formats. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <traceevent/event-parse.h>

#include "core/analysis/sched-migration.h"
#include "core/analysis/tp-fields.h"
#include "core/data/perf-record.h"

#define COMMON "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char switch_format[] = "name: sched_switch\nID: 1\nformat:\n" COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:int prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:int next_pid;\toffset:56;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%d\", REC->prev_pid\n";
static const char wakeup_format[] = "name: sched_wakeup\nID: 2\nformat:\n" COMMON
	"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%d\", REC->pid\n";
static const char migrate_format[] = "name: sched_migrate_task\nID: 3\nformat:\n" COMMON
	"\tfield:int pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%d\", REC->pid\n";

static struct tep_handle *tep;
static struct tep_event *ev_switch, *ev_wakeup, *ev_migrate;
static unsigned char raw[128];
static struct perf_sample sample;

static struct tep_event *parse(const char *format)
{
	struct tep_event *event = NULL;

	assert_int_equal(tep_parse_format(tep, &event, format, strlen(format), "sched"), 0);
	return event;
}

static int setup(void **state)
{
	tep = tep_alloc();
	tep_set_long_size(tep, 8);
	ev_switch = parse(switch_format);
	ev_wakeup = parse(wakeup_format);
	ev_migrate = parse(migrate_format);
	return 0;
}

static int teardown(void **state)
{
	tep_free(tep);
	return 0;
}

static void put32(size_t off, int32_t v)
{
	memcpy(raw + off, &v, 4);
}

static void at(uint64_t time, uint32_t cpu)
{
	memset(raw, 0, sizeof(raw));
	sample = (struct perf_sample){ .time = time, .cpu = cpu, .raw_data = raw,
				       .raw_size = sizeof(raw) };
}

static void do_switch(struct sched_migration *sm, uint64_t t, uint32_t cpu, const char *prev,
		      int32_t prev_pid, int64_t state, const char *next, int32_t next_pid)
{
	at(t, cpu);
	strcpy((char *)raw + 8, prev);
	put32(24, prev_pid);
	memcpy(raw + 32, &state, 8);
	strcpy((char *)raw + 40, next);
	put32(56, next_pid);
	sched_migration__event(sm, ev_switch, &sample);
}

static void fill_wakeup(uint64_t t, int32_t pid, int32_t cpu)
{
	at(t, 0);
	put32(8, 64 | 5 << 16);		/* __data_loc: "comm" at 64, 5 bytes */
	strcpy((char *)raw + 64, "task");
	put32(12, pid);
	put32(16, cpu);
}

static void do_wakeup(struct sched_migration *sm, uint64_t t, int32_t pid, int32_t cpu)
{
	fill_wakeup(t, pid, cpu);
	sched_migration__event(sm, ev_wakeup, &sample);
}

static void assert_rq(const struct sched_migration *sm, size_t slice, uint32_t cpu,
		      const int32_t *tasks, uint32_t nr, enum rq_event event)
{
	const struct rq_snapshot *rq = time_slice__rq(&sm->slices[slice], cpu);

	assert_int_equal(rq->nr, nr);
	for (uint32_t i = 0; i < nr; i++)
		assert_int_equal(rq->tasks[i], tasks[i]);
	assert_int_equal(rq->event, event);
}

static void fields(void **state)
{
	char *comm;

	fill_wakeup(1, 7, 0);
	assert_int_equal(tp_value(ev_wakeup, &sample, "pid"), 7);
	put32(16, -1);
	assert_int_equal(tp_value(ev_wakeup, &sample, "target_cpu"), -1);
	assert_int_equal(tp_value(ev_wakeup, &sample, "no_such_field"), 0);
	comm = tp_string(ev_wakeup, &sample, "comm");
	assert_string_equal(comm, "task");
	free(comm);
	comm = tp_string(ev_wakeup, &sample, "no_such_field");
	assert_string_equal(comm, "");
	free(comm);
}

static void runqueues(void **state)
{
	struct sched_migration sm;
	char name[64];

	sched_migration__init(&sm);
	do_switch(&sm, 100, 0, "swapper/0", 0, 0, "app", 10);
	do_wakeup(&sm, 200, 20, 1);
	at(300, 1);
	put32(8, 20);
	put32(12, 1);
	put32(16, 0);
	sched_migration__event(&sm, ev_migrate, &sample);
	do_switch(&sm, 400, 0, "app", 10, 1, "task", 20);	/* app sleeps */
	do_switch(&sm, 500, 0, "task", 20, 0, "task", 20);	/* changes nothing */

	assert_int_equal(sm.nr, 4);
	assert_int_equal(sm.nr_cpus, 2);
	assert_rq(&sm, 0, 0, (int32_t[]){ 0, 10 }, 2, RQ_UNKNOWN);
	assert_rq(&sm, 0, 1, (int32_t[]){ 0 }, 1, RQ_UNKNOWN);
	assert_int_equal(sm.slices[0].total_load, 1);
	assert_int_equal(sm.slices[0].end, 200);
	assert_rq(&sm, 1, 1, (int32_t[]){ 0, 20 }, 2, RQ_WAKEUP);
	assert_int_equal(sm.slices[1].total_load, 2);
	assert_rq(&sm, 2, 1, (int32_t[]){ 0 }, 1, RQ_MIGRATE_OUT);
	assert_rq(&sm, 2, 0, (int32_t[]){ 0, 10, 20 }, 3, RQ_MIGRATE_IN);
	assert_int_equal(sm.slices[2].nr_event_cpus, 2);
	assert_int_equal(sm.slices[2].event_cpus[0], 1);
	assert_int_equal(sm.slices[2].event_cpus[1], 0);
	assert_rq(&sm, 3, 0, (int32_t[]){ 0, 20 }, 2, RQ_SLEEP);
	assert_int_equal(sm.slices[3].total_load, 1);
	/* the last slice ends at the event that changed nothing */
	assert_int_equal(sm.slices[3].start, 400);
	assert_int_equal(sm.slices[3].end, 500);
	assert_string_equal(sched_migration__task_name(&sm, 10, name, sizeof(name)), "app:10");
	assert_int_equal(sm.rejected, 0);
	do_switch(&sm, 600, 0, "x", 99, 0, "task", 20);	/* 20 was on cpu 0, not 99 */
	assert_int_equal(sm.rejected, 1);
	sched_migration__exit(&sm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields),
		cmocka_unit_test(runqueues),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
