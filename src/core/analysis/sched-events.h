/* sched-events: the scheduler tracepoints perf sched records, decoded.
 *
 * Every sched analysis (latency, map, timehist, replay) reads the same
 * few fields of the same few events; this module finds the fields once per
 * event and turns a sample into a struct sched_event.
 */
#ifndef PCL_SCHED_EVENTS_H
#define PCL_SCHED_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

struct perf_session;
struct evsel;
struct perf_sample;

enum sched_kind {
	SCHED_EV_OTHER,		/* not a scheduler event the analyses read */
	SCHED_EV_SWITCH,
	SCHED_EV_RUNTIME,		/* sched_stat_runtime */
	SCHED_EV_WAKEUP,		/* sched_wakeup and sched_waking */
	SCHED_EV_WAKEUP_NEW,
	SCHED_EV_MIGRATE,
	SCHED_EV_FORK,		/* sched_process_fork */
};

struct sched_event {
	enum sched_kind kind;
	const char *name;	/* the event's name ("sched:sched_waking") */
	bool waking;		/* the event is sched_waking (not sched_wakeup) */
	uint32_t prev_pid, next_pid;	/* switch */
	uint64_t prev_state;		/* switch */
	char next_comm[17];		/* switch */
	char prev_comm[17];		/* switch */
	char comm[17];			/* wake-ups, runtime, migrate */
	uint32_t pid;			/* runtime, wake-ups, migrate: the task */
	uint64_t runtime;		/* runtime */
	int orig_cpu, dest_cpu;		/* migrate */
	uint32_t parent_pid, child_pid;	/* fork */
};

struct sched_decoder;

struct sched_decoder *sched_decoder__new(struct perf_session *s);
void sched_decoder__delete(struct sched_decoder *d);

/* The kind of evsel's samples (SCHED_EV_OTHER when the file lacks a field
 * the kind needs); *waking says it is sched_waking. */
enum sched_kind sched_decoder__kind(struct sched_decoder *d, struct evsel *evsel, bool *waking);

/* Decodes sample of evsel into *ev; false (kind SCHED_EV_OTHER) for other
 * events, or when the file lacks a field the kind needs. */
bool sched_decoder__decode(struct sched_decoder *d, struct evsel *evsel,
			   const struct perf_sample *sample, struct sched_event *ev);

#endif
