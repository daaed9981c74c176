/* flamegraph-html: writes the page: styles, the data as one JSON block,
 * and the script that draws it (see flamegraph-html.h). */
#include <inttypes.h>
#include <string.h>

#include "core/hist/stacks.h"
#include "ui/flame-colors.h"
#include "ui/flamegraph-html.h"
#include "ui/markup.h"
#include "util/strbuf.h"

static const char html_script[] =
#include "flamegraph-html.js.inc"
	;

static const char html_style[] =
#include "flamegraph-html.css.inc"
	;

static void json_field(struct strbuf *sb, const char *key, const char *value)
{
	strbuf_addf(sb, "\"%s\":", key);
	if (value)
		json_string(sb, value);
	else
		strbuf_addstr(sb, "null");
	strbuf_addch(sb, ',');
}

static void write_names(struct strbuf *sb, const struct stacks *st,
			const struct flamegraph_opts *o)
{
	strbuf_addstr(sb, "\"names\":[");
	for (uint32_t i = 0; i < st->nr_names; i++) {
		if (i)
			strbuf_addch(sb, ',');
		json_string(sb, st->names[i]);
	}
	/* colours are stable per name: the page has no per-frame randomness */
	strbuf_addstr(sb, "],\n\"colors\":[");
	for (uint32_t i = 0; i < st->nr_names; i++) {
		struct rgb c = flame_color(o->palette, st->names[i], st->name_kind[i],
					   flame_name_hash(st->names[i]));

		strbuf_addf(sb, "%s%u", i ? "," : "", (unsigned)c.r << 16 | c.g << 8 | c.b);
	}
	strbuf_addstr(sb, "],\n");
}

static void write_nodes(struct strbuf *sb, const struct stacks *st, bool with_self)
{
	strbuf_addstr(sb, "\"parent\":[");
	for (uint32_t i = 0; i < st->nr_nodes; i++)
		strbuf_addf(sb, "%s%u", i ? "," : "", st->nodes[i].parent);
	strbuf_addstr(sb, "],\n\"name\":[");
	for (uint32_t i = 0; i < st->nr_nodes; i++)
		strbuf_addf(sb, "%s%u", i ? "," : "", st->nodes[i].name);
	strbuf_addstr(sb, "],\n");
	if (with_self) {
		strbuf_addstr(sb, "\"self\":[");
		for (uint32_t i = 0; i < st->nr_nodes; i++)
			strbuf_addf(sb, "%s%" PRIu64, i ? "," : "", st->nodes[i].self);
		strbuf_addstr(sb, "],\n");
	}
	if (st->diff) {
		strbuf_addstr(sb, "\"base\":[");
		for (uint32_t i = 0; i < st->nr_nodes; i++)
			strbuf_addf(sb, "%s%" PRIu64, i ? "," : "", st->nodes[i].self_base);
		strbuf_addstr(sb, "],\n");
	}
}

/* Samples in time order: microsecond deltas, stack nodes, weights (one
 * number when all are equal, as with a fixed sampling period). */
static void write_samples(struct strbuf *sb, const struct stacks *st)
{
	uint64_t t0 = st->nr_samples ? st->samples[0].time : 0, prev = 0;
	bool same = true;

	for (size_t i = 1; i < st->nr_samples; i++)
		same &= st->samples[i].weight == st->samples[0].weight;
	strbuf_addf(sb, "\"t0\":\"%" PRIu64 "\",\n\"dt\":[", t0);
	for (size_t i = 0; i < st->nr_samples; i++) {
		uint64_t us = (st->samples[i].time - t0) / 1000;

		strbuf_addf(sb, "%s%" PRIu64, i ? "," : "", us - prev);
		prev = us;
	}
	strbuf_addstr(sb, "],\n\"node\":[");
	for (size_t i = 0; i < st->nr_samples; i++)
		strbuf_addf(sb, "%s%u", i ? "," : "", st->samples[i].node);
	strbuf_addstr(sb, "],\n");
	if (same) {
		strbuf_addf(sb, "\"wc\":%" PRIu64 ",\n",
			    st->nr_samples ? st->samples[0].weight : 0);
		return;
	}
	strbuf_addstr(sb, "\"w\":[");
	for (size_t i = 0; i < st->nr_samples; i++)
		strbuf_addf(sb, "%s%" PRIu64, i ? "," : "", st->samples[i].weight);
	strbuf_addstr(sb, "],\n");
}

static void write_data(struct strbuf *sb, const struct stacks *st,
		       const struct flamegraph_opts *o)
{
	bool timed = st->timed && st->keep_samples && st->nr_samples;

	strbuf_addstr(sb, "{");
	json_field(sb, "title", flamegraph_opts__title(o, st->diff));
	json_field(sb, "subtitle", o->subtitle);
	json_field(sb, "countname", o->countname);
	json_field(sb, "nametype", o->nametype);
	json_field(sb, "fonttype", o->fonttype);
	json_field(sb, "search", o->search);
	strbuf_addf(sb, "\"fontsize\":%.2f,\"fontwidth\":%.3f,\"frameheight\":%d,"
		    "\"minwidth\":%.3f,\"minwidthPercent\":%s,\"inverted\":%s,\"chart\":%s,"
		    "\"diff\":%s,\"negate\":%s,\"timed\":%s,\n", o->fontsize, o->fontwidth,
		    o->frame_height, o->minwidth, o->minwidth_percent ? "true" : "false",
		    o->inverted ? "true" : "false", o->flamechart ? "true" : "false",
		    st->diff ? "true" : "false", o->negate ? "true" : "false",
		    timed ? "true" : "false");
	write_names(sb, st, o);
	write_nodes(sb, st, !timed);
	if (timed)
		write_samples(sb, st);
	strbuf_addstr(sb, "\"end\":true}");
}

int flamegraph_html_write(FILE *out, const struct stacks *st, const struct flamegraph_opts *o)
{
	struct strbuf sb = STRBUF_INIT;

	html_page__start(&sb, "pcl flamegraph", flamegraph_opts__title(o, st->diff), html_style);
	if (o->notes)
		xml_comment(&sb, "NOTES: ", o->notes);
	strbuf_addstr(&sb, "<script id=\"pcl-data\" type=\"application/json\">");
	write_data(&sb, st, o);
	return html_page__finish(&sb, html_script, out);
}
