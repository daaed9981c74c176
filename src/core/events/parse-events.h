/* parse-events: the one event grammar every command uses (-e strings).
 *
 * Forms: hardware/software/tool symbols and their aliases, hardware cache
 * events (L1-dcache-load-misses ...), raw rNNNN, TYPE:CONFIG numbers,
 * PMU/term=val,.../ from sysfs, sysfs PMU event names (tsc), tracepoints
 * SYS:EVENT with globs, breakpoints mem:ADDR[/LEN][:rwx], modifiers
 * (:ukhGHpppPSDIWeb), per-event terms (cpu-clock/period=N,name=x/), comma
 * lists and {a,b}:mod groups.  The token boundaries, error positions and
 * messages follow perf 6.1, so `pcl` points at the same character perf does.
 */
#ifndef PCL_PARSE_EVENTS_H
#define PCL_PARSE_EVENTS_H

#include "core/events/evsel.h"

/*
 * What went wrong.  Like perf, a second error keeps the first one as the
 * "Initial error" (a PMU event retried over matching PMUs fails twice).
 */
struct parse_events_error {
	int num_errors;
	int idx;	/* byte offset into the string of the bad token; -1 if none */
	char *str;	/* what is wrong: "parser error", "unknown tracepoint", ... */
	char *help;	/* an optional hint ("valid terms: ...") or NULL */
	int first_idx;
	char *first_str, *first_help;
	bool found_nothing;	/* no error, but no event either (globs) */
	bool empty_group;	/* a warning, also on success: a group of nothing */
};

/*
 * Parses an event string ("cycles:u,{a,b}:k,sched:*,mem:0x1000:rw") and
 * appends the events to evlist.  Returns 0, or -1 with err filled (err is
 * reset first; release it with parse_events_error__exit).  On error nothing
 * is added to evlist.  The last event added is marked
 * cmdline_group_boundary (--filter applies back to there).
 */
int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err);

/* perf's perf_host and perf_guest: whether new events count the host and
 * the guests (attr.exclude_host / exclude_guest clear).  The host only,
 * unless pcl kvm says otherwise. */
extern bool parse_events__host, parse_events__guest;

/*
 * perf stat accepts only the terms config, config1, config2, name, period,
 * percore and metric-id; `pcl stat` turns this on before parsing.
 */
void parse_events__stat_terms(bool only_stat_terms);

/* Prints an error to stderr as perf 6.1 does: the string (cut to the
 * terminal width), a caret under the bad token, the reason, the hint, and
 * the pointer at `pcl list`. */
void parse_events_error__print(const struct parse_events_error *err, const char *str);
/* The same without the closing hint to run 'pcl list'. */
void parse_events_error__print_error(const struct parse_events_error *err, const char *str);
void parse_events_error__exit(struct parse_events_error *err);
/* What parse_events() warns about even when it succeeds (perf's texts). */
void parse_events_error__print_warnings(const struct parse_events_error *err);

/*
 * Attaches a --filter to the events of the last -e (back to the previous
 * cmdline_group_boundary); they must be tracepoints.  An existing filter is
 * combined as "(old) && (new)".  Returns 0 or one of the errors below.
 */
enum {
	FILTER_ERR_NO_EVENT = -1,	/* nothing parsed yet */
	FILTER_ERR_NOT_TRACEPOINT = -2,
};
int parse_events_filter(struct evlist *evlist, const char *filter);
/* Adds filter to the tracepoints of the last -e, passing over its other
 * events (record's --exclude-perf). */
void parse_events_filter_tracepoints(struct evlist *evlist, const char *filter);
/* perf's message for a parse_events_filter() error. */
const char *parse_events_filter_strerror(int err);

#endif
