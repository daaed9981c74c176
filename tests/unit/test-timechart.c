/* Unit tests for core/analysis/timechart: tracepoint kinds, the run/block/
 * wait intervals a switch and wake-up sequence makes (fields read the way
 * perf 6.1 reads them: the common_* ones as 0), P-states closed at the
 * end, rows sorted and selected by run time, I/O calls stretched and
 * merged, call chains as text, and the -t CPU order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <event-parse.h>
#include <linux/perf_event.h>

#include "core/analysis/timechart.h"
#include "core/data/perf-data.h"
#include "core/data/perf-record.h"

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

static const char wakeup_format[] =
	"name: sched_wakeup\nID: 374\nformat:\n" COMMON_FIELDS
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

static const char enter_read_format[] =
	"name: sys_enter_read\nID: 842\nformat:\n" COMMON_FIELDS
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"fd: 0x%08lx\", ((unsigned long)(REC->fd))\n";

static const char exit_read_format[] =
	"name: sys_exit_read\nID: 841\nformat:\n" COMMON_FIELDS
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"0x%lx\", REC->ret\n";

static struct tep_handle *tep;
static struct tep_event *sw_tp, *wake_tp, *enter_tp, *exit_tp;
static struct timechart tc;
static uint8_t raw[64];
static struct perf_sample sample;

static int setup(void **state)
{
	(void)state;
	tep = tep_alloc();
	assert_int_equal(tep_parse_event(tep, switch_format, sizeof(switch_format) - 1,
					 "sched"), 0);
	assert_int_equal(tep_parse_event(tep, wakeup_format, sizeof(wakeup_format) - 1,
					 "sched"), 0);
	assert_int_equal(tep_parse_event(tep, enter_read_format, sizeof(enter_read_format) - 1,
					 "syscalls"), 0);
	assert_int_equal(tep_parse_event(tep, exit_read_format, sizeof(exit_read_format) - 1,
					 "syscalls"), 0);
	sw_tp = tep_find_event_by_name(tep, "sched", "sched_switch");
	wake_tp = tep_find_event_by_name(tep, "sched", "sched_wakeup");
	enter_tp = tep_find_event_by_name(tep, "syscalls", "sys_enter_read");
	exit_tp = tep_find_event_by_name(tep, "syscalls", "sys_exit_read");
	assert_non_null(sw_tp);
	timechart__init(&tc);
	tc.nr_cpus = 2;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	timechart__exit(&tc);
	tep_free(tep);
	return 0;
}

static void put(size_t offset, const void *v, size_t size)
{
	memcpy(raw + offset, v, size);
}

static void start_sample(uint64_t time, int cpu, int tid)
{
	memset(raw, 0, sizeof(raw));
	memset(&sample, 0, sizeof(sample));
	sample.time = time;
	sample.cpu = (uint32_t)cpu;
	sample.pid = sample.tid = (uint32_t)tid;
	sample.raw_data = raw;
	sample.raw_size = sizeof(raw);
}

static void sched_switch(uint64_t time, int cpu, int prev, int64_t prev_state, int next)
{
	start_sample(time, cpu, prev);
	put(24, &prev, 4);
	put(32, &prev_state, 8);
	put(56, &next, 4);
	assert_int_equal(timechart__sample(&tc, TC_EV_SWITCH, sw_tp, &sample, ""), 0);
}

static void wakeup(uint64_t time, int cpu, int waker, int wakee, uint8_t flags)
{
	start_sample(time, cpu, waker);
	put(2, &flags, 1);
	put(4, &waker, 4);
	put(24, &wakee, 4);
	assert_int_equal(timechart__sample(&tc, TC_EV_WAKEUP, wake_tp, &sample, ""), 0);
}

static void io_call(uint64_t enter, uint64_t leave, int tid, uint64_t fd, int64_t ret)
{
	start_sample(enter, 0, tid);
	put(16, &fd, 8);
	timechart__sample(&tc, TC_EV_IO_ENTER + TC_IO_READ, enter_tp, &sample, "");
	start_sample(leave, 0, tid);
	put(16, &ret, 8);
	timechart__sample(&tc, TC_EV_IO_EXIT + TC_IO_READ, exit_tp, &sample, "");
}

static struct tc_task *task(int pid)
{
	for (struct tc_task *t = tc.tasks; t; t = t->next)
		if (t->pid == pid)
			return t;
	return NULL;
}

static void test_event_kinds(void **state)
{
	(void)state;
	assert_int_equal(timechart__event_kind("sched:sched_switch"), TC_EV_SWITCH);
	assert_int_equal(timechart__event_kind("power:cpu_idle"), TC_EV_CPU_IDLE);
	assert_int_equal(timechart__event_kind("power:power_end"), TC_EV_POWER_END);
	assert_int_equal(timechart__event_kind("syscalls:sys_enter_pwritev"),
			 TC_EV_IO_ENTER + TC_IO_WRITE);
	assert_int_equal(timechart__event_kind("syscalls:sys_exit_recvmmsg"),
			 TC_EV_IO_EXIT + TC_IO_RX);
	assert_int_equal(timechart__event_kind("syscalls:sys_exit_ppoll"),
			 TC_EV_IO_EXIT + TC_IO_POLL);
	assert_int_equal(timechart__event_kind("syscalls:sys_enter_openat"), TC_EV_OTHER);
	assert_int_equal(timechart__event_kind("sched:sched_waking"), TC_EV_OTHER);
}

/* Task 10 runs 1-3 ms, blocks until woken at 5 ms, waits until 6 ms. */
static void test_run_block_wait(void **state)
{
	struct tc_interval *i;
	struct tc_comm *c;

	(void)state;
	timechart__comm(&tc, 10, "worker");
	sched_switch(1000000, 0, 0, 0, 10);
	sched_switch(3000000, 0, 10, 2, 0);
	wakeup(5000000, 1, 20, 10, 0x08);	/* from a hard irq, by task 20 */
	sched_switch(6000000, 1, 0, 0, 10);

	c = task(10)->current;
	assert_string_equal(c->comm, "worker");
	i = c->intervals;			/* newest first */
	assert_int_equal(i->type, TC_WAITING);
	assert_int_equal(i->start, 5000000);
	assert_int_equal(i->end, 6000000);
	assert_string_equal(i->backtrace, "");
	i = i->next;
	assert_int_equal(i->type, TC_BLOCKED);
	assert_int_equal(i->start, 3000000);
	assert_null(i->backtrace);		/* the wake-up takes none */
	i = i->next;
	assert_int_equal(i->type, TC_RUNNING);
	assert_int_equal(i->end - i->start, 2000000);
	assert_int_equal(c->total_time, 2000000);
	/* perf reads neither common_pid nor common_flags: waker 0, no irq */
	assert_int_equal(tc.wakeups->waker, 0);
	assert_int_equal(tc.wakeups->wakee, 10);
	assert_int_equal(tc.first_time, 1000000);
	assert_int_equal(tc.last_time, 6000000);
}

/* Rows come by ppid then pid; every CPU up to nr_cpus gets its last
 * P-state; run time over the threshold picks the rows. */
static void test_finish_and_select(void **state)
{
	struct tc_power *p;
	int nr = 0;

	(void)state;
	timechart__comm(&tc, 30, "long");
	timechart__fork(&tc, 31, 30, 0);
	timechart__comm(&tc, 31, "short");
	sched_switch(1000000, 0, 0, 0, 30);
	sched_switch(13000000, 0, 30, 1, 31);	/* 12 ms */
	sched_switch(15000000, 0, 31, 1, 0);	/* 2 ms */
	timechart__finish(&tc);

	assert_int_equal(tc.tasks->pid, 0);
	assert_int_equal(tc.tasks->next->pid, 30);
	assert_int_equal(tc.tasks->next->next->pid, 31);	/* ppid 30 */
	for (p = tc.power; p; p = p->next, nr++)
		assert_int_equal(p->type, TC_PSTATE);
	assert_int_equal(nr, 3);

	assert_int_equal(timechart__select(&tc, 1), 1);	/* 10 ms is enough */
	assert_true(task(30)->current->display);
	assert_false(task(31)->current->display);
	assert_int_equal(timechart__select(&tc, 2), 2);	/* down to 1 ms */
	assert_true(task(31)->current->display);
	assert_int_equal(task(31)->current->end, 15000000);	/* ran to the end */

	timechart__add_filter(&tc, "short");
	assert_int_equal(timechart__select(&tc, 15), 1);
	assert_false(task(30)->current->display);
}

/* Short reads are drawn 1 ms long; close ones on one fd merge. */
static void test_io(void **state)
{
	struct tc_comm *c;

	(void)state;
	timechart__comm(&tc, 40, "reader");
	io_call(10000000, 10000100, 40, 3, 100);
	io_call(11000500, 11000600, 40, 3, 300);	/* 500 ns after the last end */
	io_call(20000000, 20000100, 40, 4, -11);
	c = task(40)->current;
	assert_int_equal(tc.io_events, 3);
	assert_int_equal(c->io->err, -11);
	assert_int_equal(c->io->end - c->io->start, 1000000);
	assert_int_equal(c->io->next->merges, 1);
	assert_int_equal(c->io->next->bytes, 400);
	assert_int_equal(c->io->next->start, 10000000);
	assert_int_equal(c->max_bytes, 400);
	assert_int_equal(c->total_bytes, 400);
	/* an exit without its enter */
	start_sample(30000000, 0, 40);
	assert_int_equal(timechart__sample(&tc, TC_EV_IO_EXIT + TC_IO_READ, exit_tp, &sample,
					   ""), 0);
	assert_int_equal(tc.io_invalid, 1);
	/* ... in a task never seen: perf stops there */
	start_sample(30000000, 0, 41);
	assert_int_equal(timechart__sample(&tc, TC_EV_IO_EXIT + TC_IO_READ, exit_tp, &sample,
					   ""), -1);
}

static void test_backtrace(void **state)
{
	uint64_t chain[] = {
		PERF_CONTEXT_KERNEL, 0xffffffff81000130ULL, PERF_CONTEXT_USER, 0x401000,
	};
	uint64_t bad[] = { PERF_CONTEXT_GUEST, 0x401000 };
	struct perf_sample s = { 0 };
	char *text;

	(void)state;
	text = timechart__backtrace(&s);
	assert_string_equal(text, "");
	free(text);
	s.callchain = chain;
	s.callchain_nr = 4;
	text = timechart__backtrace(&s);
	assert_string_equal(text, "..... ffffffff81000130\n..... 0000000000401000\n");
	free(text);
	s.callchain = bad;
	s.callchain_nr = 2;
	assert_null(timechart__backtrace(&s));
}

/* Core by core, each CPU's thread siblings take the next places. */
static void test_topology(void **state)
{
	char *cores[] = { "0-1", "2-3" }, *threads[] = { "0,2", "1,3" };
	struct perf_header h = {
		.nr_cpus_online = 4, .sibling_cores = cores, .nr_sibling_cores = 2,
		.sibling_threads = threads, .nr_sibling_threads = 2,
	};
	int *pos;

	(void)state;
	pos = timechart__topology(&h);
	assert_non_null(pos);
	assert_int_equal(pos[0], 0);
	assert_int_equal(pos[2], 1);
	assert_int_equal(pos[1], 2);
	assert_int_equal(pos[3], 3);
	free(pos);
	threads[1] = "1,7";			/* beyond the online CPUs */
	assert_null(timechart__topology(&h));
	h.nr_sibling_cores = h.nr_sibling_threads = 0;	/* no CPU_TOPOLOGY */
	assert_null(timechart__topology(&h));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_kinds),
		cmocka_unit_test_setup_teardown(test_run_block_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_finish_and_select, setup, teardown),
		cmocka_unit_test_setup_teardown(test_io, setup, teardown),
		cmocka_unit_test(test_backtrace),
		cmocka_unit_test(test_topology),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
