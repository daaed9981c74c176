/* parse-events: the one event grammar every command uses (-e strings). */
#ifndef PCL_PARSE_EVENTS_H
#define PCL_PARSE_EVENTS_H

#include "core/evsel.h"

struct parse_events_error {
	int idx;	/* byte offset into the string of the bad token, -1 if none */
	char *str;	/* what is wrong, e.g. "event syntax error: 'foo'" details */
	char *help;	/* an optional hint ("Run 'pcl list' for a list of valid events") */
};

/*
 * Parses an event string ("cycles:u,{a,b}:k,sched:*,mem:0x1000:rw") and
 * appends the events to evlist.  Returns 0, or -1 with err filled.
 */
int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err);

/* Prints an error as perf 6.1 does: the string, a caret under the bad token,
 * the reason, and the pointer at `pcl list`. */
void parse_events_error__print(const struct parse_events_error *err, const char *str);
void parse_events_error__exit(struct parse_events_error *err);

/* Attaches a --filter to the last event, which must be a tracepoint. */
int parse_events_filter(struct evlist *evlist, const char *filter);

#endif
