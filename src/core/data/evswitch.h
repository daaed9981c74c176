/* evswitch: --switch-on/--switch-off: samples count only between an "on"
 * event's sample and an "off" event's one (perf's rules, quirks included:
 * without an on event, only the first off sample is dropped). */
#ifndef PCL_EVSWITCH_H
#define PCL_EVSWITCH_H

#include <stdbool.h>
#include <stdio.h>

#include "core/events/evlist.h"
#include "util/parse-options.h"

struct evswitch {
	const char *on_name, *off_name;	/* the options' event names */
	bool show_on_off_events;	/* the on/off samples themselves are kept */
	struct evsel *on, *off;
	bool discarding;
};

/* The three options that set sw, in perf's words (for option tables). */
#define OPTS_EVSWITCH(sw)							\
	OPT_STRING(0, "switch-on", &(sw)->on_name, "event",			\
		   "Consider events after the ocurrence of this event"),	\
	OPT_STRING(0, "switch-off", &(sw)->off_name, "event",			\
		   "Stop considering events after the ocurrence of this event"),	\
	OPT_BOOLEAN(0, "show-on-off-events", &(sw)->show_on_off_events,		\
		    "Show the on/off switch events, used with --switch-on and --switch-off")

/* Finds the named events.  Prints perf's ERROR/HINT lines to fp and
 * returns -1 when one is not in the file. */
int evswitch__init(struct evswitch *sw, struct evlist *evlist, FILE *fp);

/* Whether a sample of evsel is dropped (updates the on/off state). */
bool evswitch__discard(struct evswitch *sw, const struct evsel *evsel);

#endif
