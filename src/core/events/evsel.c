/* evsel / evlist: construction and teardown of the event list. */
#include "core/events/evsel.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

void evlist__init(struct evlist *evlist)
{
	memset(evlist, 0, sizeof(*evlist));
}

void evlist__add(struct evlist *evlist, struct evsel *evsel)
{
	evsel->idx = evlist->nr_entries++;
	evsel->next = NULL;
	if (evlist->last)
		evlist->last->next = evsel;
	else
		evlist->first = evsel;
	evlist->last = evsel;
}

void evlist__exit(struct evlist *evlist)
{
	struct evsel *pos = evlist->first;

	while (pos) {
		struct evsel *next = pos->next;
		evsel__delete(pos);
		pos = next;
	}
	evlist__init(evlist);
}

struct evsel *evsel__new(const struct perf_event_attr *attr, const char *name)
{
	struct evsel *e = xcalloc(1, sizeof(*e));

	if (attr)
		e->attr = *attr;
	e->attr.size = sizeof(e->attr);
	e->name = xstrdup(name ? name : "");
	e->leader = e;
	e->nr_members = 1;
	e->max_stack = -1;
	e->stack_size = -1;
	e->inherit = -1;
	e->overwrite = -1;
	e->sample_time = -1;
	e->max_events = -1;
	e->scale = 1.0;
	e->supported = true;
	return e;
}

static char *strdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct evsel *evsel__clone(const struct evsel *orig)
{
	struct evsel *e = xmalloc(sizeof(*e));

	*e = *orig;
	e->name = xstrdup(orig->name);
	e->pmu_name = strdup_or_null(orig->pmu_name);
	e->filter = strdup_or_null(orig->filter);
	e->group_name = strdup_or_null(orig->group_name);
	e->call_graph = strdup_or_null(orig->call_graph);
	e->unit = strdup_or_null(orig->unit);
	e->leader = e;
	e->fds = NULL;
	e->ids = NULL;
	e->nr_cpus = e->nr_threads = 0;
	e->cpus = NULL;
	e->threads = NULL;
	e->cgrp = NULL;
	e->next = NULL;
	return e;
}

void evsel__delete(struct evsel *evsel)
{
	if (!evsel)
		return;
	free(evsel->name);
	free(evsel->pmu_name);
	free(evsel->filter);
	free(evsel->group_name);
	free(evsel->call_graph);
	free(evsel->unit);
	free(evsel->fds);
	free(evsel->ids);
	free(evsel);
}
