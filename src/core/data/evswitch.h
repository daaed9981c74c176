/* evswitch: --switch-on/--switch-off: samples count only between an "on"
 * event's sample and an "off" event's one (perf's rules, quirks included:
 * without an on event, only the first off sample is dropped). */
#ifndef PCL_EVSWITCH_H
#define PCL_EVSWITCH_H

#include <stdbool.h>
#include <stdio.h>

#include "core/events/evlist.h"

struct evswitch {
	const char *on_name, *off_name;	/* the options' event names */
	bool show_on_off_events;	/* the on/off samples themselves are kept */
	struct evsel *on, *off;
	bool discarding;
};

/* Finds the named events.  Prints perf's ERROR/HINT lines to fp and
 * returns -1 when one is not in the file. */
int evswitch__init(struct evswitch *sw, struct evlist *evlist, FILE *fp);

/* Whether a sample of evsel is dropped (updates the on/off state). */
bool evswitch__discard(struct evswitch *sw, const struct evsel *evsel);

#endif
