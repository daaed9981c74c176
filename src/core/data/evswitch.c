/* evswitch: see evswitch.h. */
#include <string.h>

#include "core/data/evswitch.h"

static struct evsel *find_by_name(struct evlist *evlist, const char *name)
{
	evlist__for_each(evlist, pos)
		if (!strcmp(pos->name, name))
			return pos;
	return NULL;
}

static int not_found(FILE *fp, const char *which, const char *name)
{
	fprintf(fp, "ERROR: switch-%s event not found (%s)\n", which, name);
	fprintf(fp, "HINT:  use 'perf evlist' to see the available event names\n");
	return -1;
}

int evswitch__init(struct evswitch *sw, struct evlist *evlist, FILE *fp)
{
	if (sw->on_name) {
		if (!(sw->on = find_by_name(evlist, sw->on_name)))
			return not_found(fp, "on", sw->on_name);
		sw->discarding = true;	/* nothing counts before the first "on" */
	}
	if (sw->off_name && !(sw->off = find_by_name(evlist, sw->off_name)))
		return not_found(fp, "off", sw->off_name);
	return 0;
}

bool evswitch__discard(struct evswitch *sw, const struct evsel *evsel)
{
	if (sw->discarding && sw->on) {
		if (evsel != sw->on)
			return true;
		sw->discarding = false;
		return !sw->show_on_off_events;
	}
	if (!sw->discarding && sw->off && evsel == sw->off) {
		sw->discarding = true;
		return !sw->show_on_off_events;
	}
	return false;
}
