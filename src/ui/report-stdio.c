/* report-stdio: perf report --stdio tables (see report-stdio.h). */
#include "ui/report-stdio.h"
#include "core/evsel.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* perf's convert_unit: 1234 -> 1K (integer division, strictly above 1000). */
static unsigned long convert_unit(unsigned long value, char *unit)
{
	*unit = ' ';
	if (value > 1000) {
		value /= 1000;
		*unit = 'K';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'M';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'G';
	}
	return value;
}

static bool group_shown(const struct hists *h)
{
	return h->opts->event_group && h->nr_members > 1;
}

void report_stdio__nr_samples(FILE *fp, const struct hists *h, const char *evname,
			      bool leads_group, const struct report_stdio *r)
{
	bool rel = h->opts->filter_relative;
	uint64_t nr_samples = rel ? h->stats.nr_non_filtered_samples : h->stats.nr_samples;
	uint64_t nr_events = rel ? h->stats.total_non_filtered_period : h->stats.total_period;
	unsigned long shown;
	char unit;

	if (group_shown(h)) {
		for (int i = 0; i < h->nr_members - 1; i++) {
			const struct hists *m = h->members[i];

			nr_samples += rel ? m->stats.nr_non_filtered_samples : m->stats.nr_samples;
			nr_events += rel ? m->stats.total_non_filtered_period : m->stats.total_period;
		}
	}
	shown = convert_unit((unsigned long)nr_samples, &unit);
	fprintf(fp, "# Samples: %lu%c", shown, unit);
	if (evname)
		fprintf(fp, " of event%s '%s'", leads_group ? "s" : "", evname);
	if (r->time_str)
		fprintf(fp, " (time slices: %s)", r->time_str);
	fprintf(fp, "\n# Event count (approx.): %" PRIu64 "\n#\n", nr_events);
}

/* --- columns --------------------------------------------------------------- */

static int field_width(const struct hists *h, const struct hist_column_cfg *c)
{
	const struct hist_field *f = c->field;
	int len;

	if (f->is_key) {
		size_t hl = strlen(hist_field__header(c));

		return h->col_len[f->col] > hl ? h->col_len[f->col] : (int)hl;
	}
	len = f->len;
	if (h->opts->event_group && h->nr_members * f->len > len)
		len = h->nr_members * f->len;
	if (len < (int)strlen(hist_field__header(c)))
		len = (int)strlen(hist_field__header(c));
	return len;
}

static void print_headers(FILE *fp, const struct hists *h)
{
	const struct hist_layout *l = &h->opts->layout;
	const char *sep = h->opts->field_sep;
	bool first = true;

	fputs("# ", fp);
	for (int i = 0; i < l->nr_fields; i++) {
		const struct hist_column_cfg *c = &l->fields[i];
		int w = field_width(h, c);

		if (c->elide)
			continue;
		if (!first)
			fputs(sep ? sep : "  ", fp);
		first = false;
		if (c->field->is_key)
			fprintf(fp, "%-*.*s", w, w, hist_field__header(c));
		else
			fprintf(fp, "%*s", w, hist_field__header(c));
	}
	fputc('\n', fp);
	if (sep)
		return;
	first = true;
	fputs("# ", fp);
	for (int i = 0; i < l->nr_fields; i++) {
		const struct hist_column_cfg *c = &l->fields[i];

		if (c->elide)
			continue;
		if (!first)
			fputs("  ", fp);
		first = false;
		for (int k = field_width(h, c); k > 0; k--)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);
}

static void add_value(struct strbuf *sb, const struct hist_field *f, uint64_t v, uint64_t total,
		      int len)
{
	if (f->percent)
		strbuf_addf(sb, " %*.2f%%", len - 2, total ? 100.0 * v / total : 0.0);
	else
		strbuf_addf(sb, " %*" PRIu64, len - 1, v);
}

/* A value for the entry and, in a group, for each member's twin. */
static void print_value_field(struct strbuf *sb, const struct hist_entry *he,
			      const struct hist_field *f)
{
	const struct hists *h = he->hists;
	int len = h->opts->field_sep ? (f->percent ? 3 : 2) : f->len;

	add_value(sb, f, hist_entry__value(he, f->value), hists__total_period(h), len);
	if (!group_shown(h))
		return;
	for (int i = 0; i < h->nr_members - 1; i++) {
		const struct hist_entry *pair = he->pairs[i];
		uint64_t total = hists__total_period(h->members[i]);

		add_value(sb, f, pair && total ? hist_entry__value(pair, f->value) : 0,
			  pair && total ? total : 0, len);
	}
}

/* perf replaces the separator in keys' text so columns stay parseable. */
static void replace_sep(char *s, const char *sep)
{
	if (!sep)
		return;
	for (char *p = strchr(s, *sep); p; p = strchr(p, *sep))
		*p = '.';
}

static void print_row(FILE *fp, const struct hist_entry *he, struct strbuf *sb)
{
	const struct hists *h = he->hists;
	const struct hist_layout *l = &h->opts->layout;
	const char *sep = h->opts->field_sep;
	bool first = true;

	strbuf_reset(sb);
	for (int i = 0; i < l->nr_fields; i++) {
		const struct hist_column_cfg *c = &l->fields[i];
		int w = field_width(h, c);
		size_t start;

		if (c->elide)
			continue;
		if (!sep || !first)
			strbuf_addstr(sb, sep ? sep : "  ");
		first = false;
		start = sb->len;
		if (c->field->is_key) {
			char buf[4096];

			c->field->print(he, buf, sizeof(buf), (unsigned int)w);
			replace_sep(buf, sep);
			strbuf_addstr(sb, buf);
		} else {
			print_value_field(sb, he, c->field);
		}
		/* every column but the very last is padded to its width */
		if (i + 1 < l->nr_fields && sb->len - start < (size_t)w)
			strbuf_addf(sb, "%-*s", (int)(w - (sb->len - start)), " ");
	}
	fprintf(fp, "%s\n", strbuf_str(sb));
}

void report_stdio__hists(FILE *fp, const struct hists *h, const struct report_stdio *r,
			 bool show_header)
{
	const struct hist_opts *o = h->opts;
	uint64_t cc_total = o->filter_relative ? h->stats.callchain_non_filtered_period :
			    h->stats.callchain_period;
	struct callchain_print cp = {
		.param = &o->cc,
		.min_hit = (uint64_t)(cc_total * (o->cc.min_percent / 100.0)),
		.field_sep = o->field_sep,
		.skip_first_sym = r->skip_first_sym,
	};
	struct strbuf sb = STRBUF_INIT;

	if (show_header)
		print_headers(fp, h);
	for (size_t i = 0; i < h->nr_sorted; i++) {
		const struct hist_entry *he = h->sorted[i];

		if (he->filtered)
			continue;
		if (hist_entry__percent_limit(he) < o->percent_limit)
			continue;
		print_row(fp, he, &sb);
		if (o->use_callchain)
			callchain_print_entry(fp, he, h->stats.total_period, &cp);
	}
	strbuf_release(&sb);
}
