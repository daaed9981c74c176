/* sched-migration-html: SVG rectangles, merged where nothing changes. */
#include <inttypes.h>
#include <string.h>

#include "ui/markup.h"
#include "ui/sched-migration-html.h"
#include "util/strbuf.h"

#define WIDTH 1600.0	/* px of the time axis */
#define LABEL 70.0	/* px of the CPU labels */
#define ROW 36		/* px per CPU */
#define BAR 28		/* px of a rectangle */
#define BAND 6		/* px of the event band */

static void markup_escape(FILE *fp, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	xml_escape(&sb, s);
	fwrite(sb.buf, 1, sb.len, fp);
	strbuf_release(&sb);
}

/* the colours of perf's script */
static const char *event_color(enum rq_event e)
{
	switch (e) {
	case RQ_SLEEP:
		return "#0000ff";
	case RQ_WAKEUP:
		return "#ffff00";
	case RQ_FORK:
		return "#00ff00";
	case RQ_MIGRATE_IN:
		return "#00f0ff";
	case RQ_MIGRATE_OUT:
		return "#ff00ff";
	default:
		return NULL;
	}
}

static const char *event_text(enum rq_event e)
{
	static const char *const text[] = { "unknown", "%s gone to sleep", "%s woke up",
					    "new forked task %s", "task migrated in %s",
					    "task migrated out %s" };

	return text[e];
}

static int red_of(const struct time_slice *ts, const struct rq_snapshot *rq)
{
	double rate = ts->total_load ? (double)(rq->nr - 1) / (double)ts->total_load : 0;

	return (int)(0xff - 0xff * rate);
}

static bool is_event_cpu(const struct time_slice *ts, uint32_t cpu)
{
	for (int i = 0; i < ts->nr_event_cpus; i++)
		if (ts->event_cpus[i] == (int)cpu)
			return true;
	return false;
}

/* the script's summary of a CPU in a slice, as the tooltip */
static void print_summary(FILE *fp, const struct sched_migration *sm,
			  const struct time_slice *ts, uint64_t end, uint32_t cpu)
{
	const struct rq_snapshot *rq = time_slice__rq(ts, cpu);
	char name[64], event[128];

	if (rq->event == RQ_UNKNOWN)
		snprintf(event, sizeof(event), "unknown");
	else
		snprintf(event, sizeof(event), event_text(rq->event),
			 sched_migration__task_name(sm, rq->event_pid, name, sizeof(name)));
	fprintf(fp, "<title>CPU: %u\nLast event : ", cpu);
	markup_escape(fp, event);
	fprintf(fp, "\nTimestamp : %" PRIu64 ".%06" PRIu64 "\nDuration : %6" PRIu64 " us\n"
		"Load = %u\n", ts->start / 1000000000, ts->start % 1000000000 / 1000,
		(end - ts->start) / 1000, rq->nr - 1);
	for (uint32_t i = 0; i < rq->nr; i++) {
		markup_escape(fp, sched_migration__task_name(sm, rq->tasks[i], name, sizeof(name)));
		fputs(" \n", fp);
	}
	fputs("</title>", fp);
}

static double x_of(uint64_t t, uint64_t t0, uint64_t span)
{
	return LABEL + WIDTH * (double)(t - t0) / (double)span;
}

size_t sched_migration_write_html(FILE *fp, const struct sched_migration *sm,
				  const char *title)
{
	uint64_t t0 = sm->nr ? sm->slices[0].start : 0;
	uint64_t t1 = sm->nr ? sm->slices[sm->nr - 1].end : 0, span = t1 > t0 ? t1 - t0 : 1;
	double height = ROW * (double)sm->nr_cpus + 30;
	size_t rects = 0;

	fprintf(fp, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
	markup_escape(fp, title);
	fprintf(fp, "</title>\n<style>body{font:13px sans-serif;margin:12px}"
		"rect:hover{stroke:#000;stroke-width:1}</style></head><body>\n<h3>");
	markup_escape(fp, title);
	fprintf(fp, "</h3>\n<p>%zu time slices, %u CPUs, %.6f s. Red: the CPU's share of the "
		"queued tasks; top band: sleep (blue), wake-up (yellow), fork (green), "
		"migration in (cyan) and out (magenta). Hover for the runqueue.</p>\n",
		sm->nr, sm->nr_cpus, (double)(t1 - t0) / 1e9);
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\">\n",
		LABEL + WIDTH + 10, height);
	for (uint32_t cpu = 0; cpu < sm->nr_cpus; cpu++) {
		double y = ROW * (double)cpu + 10;

		fprintf(fp, "<text x=\"4\" y=\"%.0f\">CPU %u</text>\n", y + BAR / 2 + 4, cpu);
		for (size_t i = 0; i < sm->nr; i++) {
			const struct time_slice *ts = &sm->slices[i];
			const struct rq_snapshot *rq = time_slice__rq(ts, cpu);
			const char *band = is_event_cpu(ts, cpu) ? event_color(rq->event) : NULL;
			int red = red_of(ts, rq);
			size_t last = i;
			uint64_t end;

			/* one rectangle for the slices after it that change nothing here */
			while (last + 1 < sm->nr && time_slice__rq(&sm->slices[last + 1], cpu) == rq &&
			       red_of(&sm->slices[last + 1], rq) == red &&
			       !is_event_cpu(&sm->slices[last + 1], cpu))
				last++;
			end = sm->slices[last].end;
			i = last;
			if (red == 0xff && !band)
				continue;	/* an idle CPU: the page's white */
			fprintf(fp, "<g><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
				"fill=\"#ff%02x%02x\"/>", x_of(ts->start, t0, span), y,
				x_of(end, t0, span) - x_of(ts->start, t0, span), BAR, red, red);
			if (band)
				fprintf(fp, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
					"fill=\"%s\"/>", x_of(ts->start, t0, span), y,
					x_of(end, t0, span) - x_of(ts->start, t0, span), BAND, band);
			print_summary(fp, sm, ts, end, cpu);
			fputs("</g>\n", fp);
			rects++;
		}
	}
	fprintf(fp, "</svg>\n</body></html>\n");
	return rects;
}
