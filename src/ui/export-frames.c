/* export-frames: stacks and source lines for the profile exporters. */
#include <stdlib.h>
#include <string.h>

#include "core/hist/callchain.h"
#include "ui/export-frames.h"
#include "util/util.h"

void export_stack__init(struct export_stack *st)
{
	st->max_stack = callchain_max_stack_default();
	st->alloc = st->max_stack * 4 + 16;	/* inlined functions add frames */
	st->frames = xcalloc((size_t)st->alloc, sizeof(*st->frames));
	st->nr = 0;
}

void export_stack__exit(struct export_stack *st)
{
	free(st->frames);
	st->frames = NULL;
}

int export_stack__resolve(struct export_stack *st, struct perf_session *s,
			  const struct evsel *evsel, const struct perf_sample *sample,
			  const struct addr_location *al)
{
	if (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) {
		st->nr = perf_session__resolve_callchain(s, evsel, sample, al->thread,
							 st->max_stack, st->frames, st->alloc);
	} else {
		st->frames[0] = (struct callchain_frame){ .ip = sample->ip, .al = *al };
		st->nr = 1;
	}
	return st->nr;
}

int export_stack__address_run(const struct export_stack *st, int i)
{
	int n = 1;

	/* an inlined frame's function was inlined into the next frame's */
	while (i + n < st->nr && st->frames[i + n - 1].inlined &&
	       st->frames[i + n].ip == st->frames[i].ip)
		n++;
	return n;
}

/* The line of a "file:line" srcline, with the file copied into buf ("" when
 * the srcline names none). */
static unsigned srcline_split(const char *srcline, char *buf, size_t size)
{
	const char *colon = strrchr(srcline, ':');
	size_t len;

	buf[0] = '\0';
	if (!colon || !strcmp(srcline, "??:0"))
		return 0;
	len = (size_t)(colon - srcline);
	if (len >= size)
		len = size - 1;
	memcpy(buf, srcline, len);
	buf[len] = '\0';
	return (unsigned)strtoul(colon + 1, NULL, 10);
}

void export_frame_source(const struct callchain_frame *f, struct frame_source *src,
			 char *buf, size_t size)
{
	const struct addr_location *al = &f->al;

	*src = (struct frame_source){ .name = al->sym ? al->sym->name : "[unknown]" };
	if (!al->sym || !al->dso)
		return;
	if (f->srcline)
		src->line = srcline_split(f->srcline, buf, size);
	else
		dso__srcfile(al->dso, al->addr, &src->line);
	if (f->inlined) {
		/* its symbol is the host function's: the file comes from the line */
		src->file = *buf ? buf : NULL;
		return;
	}
	src->file = dso__srcfile(al->dso, al->sym->start, &src->start_line);
	if (src->file && !*src->file)
		src->file = NULL;
}

static void choose_event(struct perf_session *s, struct export_summary *sum)
{
	if (sum->evsel || !s->evlist.first)
		return;
	sum->evsel = s->evlist.first;
	sum->event = sum->evsel->name;
}

void export_begin(struct perf_session *s, struct export_summary *sum, struct export_stack *st)
{
	*sum = (struct export_summary){ 0 };
	choose_event(s, sum);
	/* functions are named by their files, and files by their directories */
	machine__symbols_config(s->machine)->full_source_path = true;
	export_stack__init(st);
}

bool export_takes(struct perf_session *s, struct export_summary *sum, const struct evsel *evsel)
{
	choose_event(s, sum);
	if (evsel != sum->evsel) {
		sum->nr_skipped++;
		return false;
	}
	sum->nr_samples++;
	return true;
}

int export_end(struct perf_session *s, struct export_summary *sum, char **err)
{
	choose_event(s, sum);
	if (sum->evsel)
		return 0;
	*err = xstrdup("the file has no events");
	return -1;
}

const char *export_period_unit(const struct evsel *evsel)
{
	const struct perf_event_attr *attr = &evsel->attr;

	if (attr->type == PERF_TYPE_SOFTWARE &&
	    (attr->config == PERF_COUNT_SW_CPU_CLOCK || attr->config == PERF_COUNT_SW_TASK_CLOCK))
		return "nanoseconds";
	return "count";
}
