/* evsel / evlist: the events a command measures, as the event grammar
 * produced them (attr, name, group, terms), plus the runtime state of an
 * opened event (one fd per cpu x thread).
 *
 * Ownership: parse-events fills the description part; evlist.c opens,
 * enables, reads and closes.  Fields may be added; keep this file the one
 * place the data model lives.
 */
#ifndef PCL_EVSEL_H
#define PCL_EVSEL_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

struct cpu_map;
struct thread_map;
struct cgroup;

/* Tool events are measured by pcl itself, not the kernel (perf's "Tool event"). */
enum tool_event {
	TOOL_NONE = 0,
	TOOL_DURATION_TIME,
	TOOL_USER_TIME,
	TOOL_SYSTEM_TIME,
};

/*
 * parse-events fills type/config/config1/config2/bp_*, the exclude_* bits,
 * precise_ip, pinned, exclusive and the per-event term values below; the
 * commands add sample/read fields.  As in perf, tracepoints come with
 * sample_period 1 and sample_type RAW|TIME|CPU|PERIOD, breakpoints with
 * sample_period 1, and a period=/freq= term sets sample_period (freq 0) or
 * sample_freq (freq 1): commands keep those and OR their sample bits in.
 */
struct evsel {
	struct perf_event_attr attr;
	char *name;		/* as perf prints it: "cycles:u", "sched:sched_switch" */
	char *pmu_name;		/* the PMU of a pmu/.../ event ("msr", "cpu"), else NULL */
	char *filter;		/* --filter text for tracepoints, or NULL */
	enum tool_event tool;
	char *unit;		/* sysfs ALIAS.unit of a PMU event, or NULL */
	double scale;		/* sysfs ALIAS.scale, 1.0 by default */

	/* groups: leader points to itself when the event is alone */
	struct evsel *leader;
	int nr_members;		/* on a leader: events in its group (1 if alone) */
	char *group_name;	/* "{a,b}" groups may be named; NULL if none */
	int idx;		/* position in the evlist */

	/* per-event terms (-1 / NULL when not given) */
	int max_stack;
	char *call_graph;	/* call-graph=fp|dwarf|lbr|no */
	int stack_size;		/* stack-size=N */
	bool period_set, freq_set;	/* period=/freq= terms given */
	int inherit;		/* inherit=/no-inherit: -1, 0 or 1 */
	int overwrite;		/* overwrite/no-overwrite: -1, 0 or 1 */
	int sample_time;	/* time=0|1, -1 when not given */
	int max_events;		/* nr=N, -1 when not given */
	bool percore, aux_output;

	/* modifiers that live outside the attr */
	bool sample_read;	/* S */
	bool precise_max;	/* P: the highest precise_ip the kernel takes */
	bool weak_group;	/* W: on failure open the group's events alone */
	bool exclude_GH;	/* G or H was given */

	bool cmdline_group_boundary;	/* last event of one -e string */

	/* runtime: fds[cpu_idx * nr_threads + thread_idx], -1 when not open */
	int *fds;
	uint64_t *ids;
	int nr_cpus, nr_threads;
	bool supported;		/* false when the kernel refused it (<not supported>) */
	const struct cpu_map *cpus;		/* what the fds were opened on (borrowed) */
	const struct thread_map *threads;
	struct cgroup *cgrp;	/* -G: count only inside this cgroup, or NULL */

	struct evsel *next;
};

struct evlist {
	struct evsel *first, *last;
	int nr_entries;
	int nr_groups;
};

void evlist__init(struct evlist *evlist);
/* Appends evsel and sets its idx. */
void evlist__add(struct evlist *evlist, struct evsel *evsel);
/* Frees every evsel (and its runtime state). */
void evlist__exit(struct evlist *evlist);

struct evsel *evsel__new(const struct perf_event_attr *attr, const char *name);
/* A copy of an event as parsed (terms, names, modifiers), not opened, alone
 * (its own leader) and in no cgroup. */
struct evsel *evsel__clone(const struct evsel *orig);
void evsel__delete(struct evsel *evsel);

#define evlist__for_each(evlist, pos) \
	for (struct evsel *pos = (evlist)->first; pos; pos = pos->next)

#endif
