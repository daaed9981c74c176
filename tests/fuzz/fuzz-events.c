/* libFuzzer target for the event grammar and the --filter grammar: the
 * input up to its first newline is an -e string, the rest a --filter for
 * the events it added (parsed and checked, never applied to a kernel). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/events/evsel.h"
#include "core/events/parse-events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evlist evlist;
	struct parse_events_error err;
	char *events = strndup((const char *)data, size);
	char *filter = strchr(events, '\n');

	if (filter)
		*filter++ = '\0';
	evlist__init(&evlist);
	memset(&err, 0, sizeof(err));
	if (!parse_events(&evlist, events, &err) && filter)
		parse_events_filter(&evlist, filter);
	parse_events_error__exit(&err);
	evlist__exit(&evlist);
	free(events);
	return 0;
}
