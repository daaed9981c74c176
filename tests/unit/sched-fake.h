/* sched-fake.h: scheduler events made by hand for the sched analyses'
 * unit tests (what sched-events decodes from a recording). */
#ifndef PCL_TEST_SCHED_FAKE_H
#define PCL_TEST_SCHED_FAKE_H

#include <string.h>

#include "core/analysis/sched-events.h"
#include "core/data/perf-record.h"

static inline struct perf_sample fake_sample(uint64_t time, int cpu, int pid, int tid)
{
	struct perf_sample s;

	memset(&s, 0, sizeof(s));
	s.time = time;
	s.cpu = (uint32_t)cpu;
	s.pid = (uint32_t)pid;
	s.tid = (uint32_t)tid;
	return s;
}

static inline struct sched_event fake_switch(uint32_t prev, uint64_t prev_state, uint32_t next)
{
	struct sched_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = SCHED_EV_SWITCH;
	ev.name = "sched:sched_switch";
	ev.prev_pid = prev;
	ev.prev_state = prev_state;
	ev.next_pid = next;
	strcpy(ev.next_comm, "next");
	strcpy(ev.prev_comm, "prev");
	return ev;
}

/* name: "sched:sched_wakeup", "sched:sched_waking", ... */
static inline struct sched_event fake_wakeup(const char *name, uint32_t pid)
{
	struct sched_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = strcmp(name, "sched:sched_wakeup_new") ? SCHED_EV_WAKEUP : SCHED_EV_WAKEUP_NEW;
	ev.name = name;
	ev.waking = !strcmp(name, "sched:sched_waking");	/* as the decoder says */
	ev.pid = pid;
	strcpy(ev.comm, "woken");
	return ev;
}

static inline struct sched_event fake_runtime(uint32_t pid, uint64_t runtime)
{
	struct sched_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = SCHED_EV_RUNTIME;
	ev.name = "sched:sched_stat_runtime";
	ev.pid = pid;
	ev.runtime = runtime;
	return ev;
}

#endif
