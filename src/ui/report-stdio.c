/* report-stdio: perf report --stdio tables (see report-stdio.h). */
#include "ui/report-stdio.h"
#include "ui/percent-color.h"
#include "core/events/evsel.h"
#include "core/hist/branch.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

unsigned long convert_unit(unsigned long value, char *unit)
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

void report_stdio__totals(const struct hists *h, uint64_t *nr_samples, uint64_t *nr_events)
{
	bool rel = h->opts->filter_relative;

	*nr_samples = rel ? h->stats.nr_non_filtered_samples : h->stats.nr_samples;
	*nr_events = rel ? h->stats.total_non_filtered_period : h->stats.total_period;
	if (!group_shown(h))
		return;
	for (int i = 0; i < h->nr_members - 1; i++) {
		const struct hists *m = h->members[i];

		*nr_samples += rel ? m->stats.nr_non_filtered_samples : m->stats.nr_samples;
		*nr_events += rel ? m->stats.total_non_filtered_period : m->stats.total_period;
	}
}

void report_stdio__nr_samples(FILE *fp, const struct hists *h, const char *evname,
			      bool leads_group, const struct report_stdio *r)
{
	uint64_t nr_samples, nr_events;
	unsigned long shown;
	char unit;

	report_stdio__totals(h, &nr_samples, &nr_events);
	shown = convert_unit((unsigned long)nr_samples, &unit);
	fprintf(fp, "# Samples: %lu%c", shown, unit);
	if (evname)
		fprintf(fp, " of event%s '%s'", leads_group ? "s" : "", evname);
	if (r->time_str)
		fprintf(fp, " (time slices: %s)", r->time_str);
	if (r->mem_sort_order)
		fprintf(fp, "\n# Total weight : %" PRIu64 "\n# Sort order   : %s\n", nr_events,
			r->mem_sort_order);
	else
		fprintf(fp, "\n# Event count (approx.): %" PRIu64 "\n", nr_events);
	if (r->socket_filter >= 0)
		fprintf(fp, "# Processor Socket: %d\n", r->socket_filter);
	fputs("#\n", fp);
}

/* --- columns --------------------------------------------------------------- */

/* Whether a column is hidden: a filter of one value (--dsos, ...) or a
 * browser's zoom leaves it nothing to say. */
static bool column_hidden(const struct hists *h, const struct hist_column_cfg *c)
{
	return c->elide || (c->field->is_key && (h->hidden_cols >> c->field->col & 1));
}

static int field_width(const struct hists *h, const struct hist_column_cfg *c)
{
	const struct hist_field *f = c->field;
	int len;

	if (f->is_key) {
		size_t hl = strlen(hist_field__header(c));

		if (c->user_len)
			return c->user_len;
		if (h->exact_widths)
			return h->col_len[f->col];
		return h->col_len[f->col] > hl ? h->col_len[f->col] : (int)hl;
	}
	len = c->user_len ? c->user_len : f->len;
	if (h->opts->event_group && h->nr_members * f->len > len)
		len = h->nr_members * f->len;
	if (len < (int)strlen(hist_field__header(c)))
		len = (int)strlen(hist_field__header(c));
	return len;
}

int report_stdio__column_width(const struct hists *h, const struct hist_column_cfg *c)
{
	return field_width(h, c);
}

static void print_headers(FILE *fp, const struct hists *h)
{
	const struct hist_layout *l = &h->opts->layout;
	const char *sep = h->opts->field_sep;
	bool first = true;
	int skip = h->skip_cols;

	fputs("# ", fp);
	for (int i = 0; i < l->nr_fields; i++) {
		const struct hist_column_cfg *c = &l->fields[i];
		int w = field_width(h, c);

		if (column_hidden(h, c) || skip-- > 0)
			continue;
		if (!first)
			fputs(sep ? sep : "  ", fp);
		first = false;
		if (c->field->is_key) {
			int shown = w < PERF_SHORT_TEXT_MAX ? w : PERF_SHORT_TEXT_MAX;

			fprintf(fp, "%-*.*s", shown, shown, hist_field__header(c));
		} else {
			fprintf(fp, "%*s", w, hist_field__header(c));
		}
	}
	fputc('\n', fp);
	if (sep)
		return;
	first = true;
	fputs("# ", fp);
	for (int i = 0; i < l->nr_fields; i++) {
		const struct hist_column_cfg *c = &l->fields[i];

		if (column_hidden(h, c))
			continue;
		if (!first)
			fputs("  ", fp);
		first = false;
		for (int k = field_width(h, c); k > 0; k--)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);
}

void report_stdio__add_value(struct strbuf *sb, const struct hist_field *f, uint64_t v,
			     uint64_t total, int len, bool color)
{
	double pct = total ? 100.0 * v / total : 0.0;
	const char *c = color && f->percent ? percent_color(pct) : NULL;

	if (f->percent) {
		if (c)
			strbuf_addstr(sb, c);
		strbuf_addch(sb, ' ');
		strbuf_add_fixed(sb, len - 2, 2, pct);
		strbuf_addch(sb, '%');
		if (c)
			strbuf_addstr(sb, COLOR_RESET);
	} else
		strbuf_addf(sb, " %*" PRIu64, len - 1, v);
}

/* A value for the entry and, in a group, for each member's twin. */
static void print_value_field(struct strbuf *sb, const struct hist_entry *he,
			      const struct hist_column_cfg *c, bool color)
{
	const struct hist_field *f = c->field;
	const struct hists *h = he->hists;
	int len = h->opts->field_sep ? (f->percent ? 3 : 2) : c->user_len ? c->user_len : f->len;

	report_stdio__add_value(sb, f, hist_entry__value(he, f->value), hists__total_period(h), len,
				color);
	if (!group_shown(h))
		return;
	for (int i = 0; i < h->nr_members - 1; i++) {
		const struct hist_entry *pair = he->pairs[i];
		uint64_t total = hists__total_period(h->members[i]);

		report_stdio__add_value(sb, f, pair && total ? hist_entry__value(pair, f->value) : 0,
					pair && total ? total : 0, len, color);
	}
}

/* Appends a key's text; perf replaces the separator in it so columns
 * stay parseable. */
void report_stdio__key(struct strbuf *sb, const struct hist_field *f, const struct hist_entry *he,
		       int width, const char *sep)
{
	size_t start = sb->len;

	f->print(he, sb, (unsigned int)width);
	if (!sep || sb->len == start)
		return;
	for (char *p = sb->buf + start; (p = strchr(p, *sep));)
		*p = '.';
}

/* perf's hists__sort_list_width: the shown columns and their gaps. */
static int line_width(const struct hists *h)
{
	const struct hist_layout *l = &h->opts->layout;
	int w = 0, n = 0;
	bool sym = false;

	for (int i = 0; i < l->nr_fields; i++) {
		if (column_hidden(h, &l->fields[i]))
			continue;
		w += field_width(h, &l->fields[i]) + (n++ ? 2 : 0);
	}
	for (int i = 0; i < l->nr_keys; i++)
		sym |= l->keys[i]->col == HISTC_SYMBOL;
	if (h->opts->verbose && sym)
		w += 3 + UNRESOLVED_ADDR_WIDTH;	/* address and origin */
	return w;
}

/* An entry's columns; color: perf's percentage colours (never with -t). */
static void format_row(struct strbuf *sb, const struct hist_entry *he, bool color)
{
	const struct hists *h = he->hists;
	const struct hist_layout *l = &h->opts->layout;
	const char *sep = h->opts->field_sep;
	bool first = true;
	int skip = h->skip_cols;

	strbuf_reset(sb);
	for (int i = 0; i < l->nr_fields; i++) {
		const struct hist_column_cfg *c = &l->fields[i];
		int w = field_width(h, c);
		size_t start;

		if (column_hidden(h, c) || skip-- > 0)
			continue;
		if (!sep || !first)
			strbuf_addstr(sb, sep ? sep : "  ");
		first = false;
		start = sb->len;
		if (c->field->is_key)
			report_stdio__key(sb, c->field, he, w, sep);
		else
			print_value_field(sb, he, c, color && !sep);
		/* every column but the very last is padded to its width */
		if (i + 1 < l->nr_fields && sb->len - start < (size_t)w)
			strbuf_addf(sb, "%-*s", (int)(w - (sb->len - start)), " ");
	}
}

static void print_row(FILE *fp, const struct hist_entry *he, struct strbuf *sb, int max_width)
{
	const struct hists *h = he->hists;
	int width;

	format_row(sb, he, h->opts->color);
	/* with -t, perf's line buffer holds the columns' widths and 3 more
	 * (what -w makes narrower than a symbol is cut there) */
	width = h->opts->field_sep ? line_width(h) + 3 : (int)sb->len;
	if (max_width > 0 && width > max_width)
		width = max_width;
	fprintf(fp, "%.*s\n", width, strbuf_str(sb));
}

uint64_t report_stdio__callchain_min_hit(const struct hists *h, double min_percent)
{
	uint64_t cc_total = h->opts->filter_relative ? h->stats.callchain_non_filtered_period :
			    h->stats.callchain_period;

	return (uint64_t)(cc_total * (min_percent / 100.0));
}

static struct callchain_print callchain_setup(const struct hists *h, const struct report_stdio *r,
					      bool color, struct strbuf *names)
{
	const struct hist_opts *o = h->opts;

	return (struct callchain_print){
		.param = &o->cc,
		.min_hit = report_stdio__callchain_min_hit(h, o->cc.min_percent),
		.field_sep = o->field_sep,
		.skip_first_sym = r->skip_first_sym,
		.color = color,
		.branch_counts = o->branch_counts,
		.names = names,
	};
}

/* The total an entry's call graph percentages are of, as each layout prints them. */
static uint64_t callchain_total(const struct hists *h)
{
	return h->opts->layout.hierarchy ? hists__total_period(h) : h->stats.total_period;
}

/* --- --hierarchy ----------------------------------------------------------- */

/* perf 6.1 draws the hierarchy header's dots from a string this long:
 * wider columns get no more. */
static const char dots[] =
	"................................................................................"
	"................................................................................"
	"...............................................";

/* perf's levels: the value columns' node, then one per key level. */
static int hierarchy_nodes(const struct hists *h)
{
	return 1 + h->opts->layout.nr_levels;
}

/* Room for the deepest level's indent, before the value columns. */
static int hierarchy_indent(const struct hists *h, int nodes)
{
	if (h->opts->field_sep || nodes < 2)
		return 0;
	return (nodes - 2) * REPORT_HIERARCHY_INDENT;
}

static void put_dots(FILE *fp, int n)
{
	fprintf(fp, "%.*s", n < (int)sizeof(dots) - 1 ? n : (int)sizeof(dots) - 1, dots);
}

/* The value columns, in perf's order of its sort list. */
static int value_columns(const struct hist_layout *l, const struct hist_column_cfg **v)
{
	int n = 0;

	for (int i = 0; i < l->nr_sorts; i++) {
		if (l->sorts[i]->is_key)
			continue;
		for (int k = 0; k < l->nr_fields; k++)
			if (l->fields[k].field == l->sorts[i])
				v[n++] = &l->fields[k];
	}
	return n;
}

static int key_width(const struct hists *h, const struct hist_field *f)
{
	struct hist_column_cfg c = { .field = f };

	return field_width(h, &c);
}

/* browser: the first line only, the indent after the values (perf's browser). */
static void hierarchy_headers(FILE *fp, const struct hists *h, bool browser)
{
	const struct hist_layout *l = &h->opts->layout;
	const char *sep = h->opts->field_sep;
	const struct hist_column_cfg *vals[HIST_MAX_FIELDS];
	int nr_vals = value_columns(l, vals), indent = hierarchy_indent(h, hierarchy_nodes(h));
	int header_width = 0;

	if (browser && h->skip_cols)	/* scrolled sideways: as hierarchy_row() */
		nr_vals = indent = 0;
	if (!browser)
		fprintf(fp, "# %*s", indent, "");
	for (int i = 0; i < nr_vals; i++)
		fprintf(fp, "%*s%s", field_width(h, vals[i]), hist_field__header(vals[i]),
			sep ? sep : "  ");
	if (browser)
		fprintf(fp, "%*s", indent, "");
	for (int i = 0; i < l->nr_levels; i++) {
		const struct hist_level *lv = &l->levels[i];

		if (i)
			header_width += fprintf(fp, " / ");
		for (int k = 0; k < lv->nr_keys; k++) {
			const char *hdr = lv->keys[k]->header;
			size_t len;

			while (*hdr == ' ')
				hdr++;
			for (len = strlen(hdr); len && hdr[len - 1] == ' '; len--)
				;
			/* (perf's browser after a zoom: cut to the rows' width) */
			if (browser && h->exact_widths && len > h->col_len[lv->keys[k]->col])
				len = h->col_len[lv->keys[k]->col];
			header_width += fprintf(fp, "%s%.*s", k ? "+" : "", (int)len, hdr);
		}
	}
	fputs(browser ? "\n" : "\n# ", fp);
	if (browser)
		return;
	put_dots(fp, indent);
	for (int i = 0; i < nr_vals; i++) {
		if (i)
			fputs(sep ? sep : "..", fp);
		put_dots(fp, field_width(h, vals[i]));
	}
	for (int i = 0; i < l->nr_levels; i++) {
		const struct hist_level *lv = &l->levels[i];
		int w = i * REPORT_HIERARCHY_INDENT + lv->nr_keys - 1;

		for (int k = 0; k < lv->nr_keys; k++)
			w += key_width(h, lv->keys[k]);
		if (w > header_width)
			header_width = w;
	}
	fputs(sep ? sep : "  ", fp);
	put_dots(fp, header_width);
	fputs("\n#\n", fp);
}

static void hierarchy_row(struct strbuf *sb, const struct hist_entry *he, bool color)
{
	const struct hists *h = he->hists;
	const struct hist_layout *l = &h->opts->layout;
	const struct hist_level *lv = &l->levels[he->depth];
	const char *sep = h->opts->field_sep;
	const struct hist_column_cfg *vals[HIST_MAX_FIELDS];
	/* (a browser scrolled sideways: perf's leaves the values and the
	 * indent after them out, the keys stay) */
	int nr_vals = h->skip_cols ? 0 : value_columns(l, vals);

	strbuf_reset(sb);
	strbuf_addf(sb, "%*s", he->depth * REPORT_HIERARCHY_INDENT, "");
	for (int i = 0; i < nr_vals; i++) {
		size_t start;
		int w = field_width(h, vals[i]);

		if (!sep || i)
			strbuf_addstr(sb, sep ? sep : "  ");
		start = sb->len;
		print_value_field(sb, he, vals[i], color && !sep);
		if (sb->len - start < (size_t)w)
			strbuf_addf(sb, "%-*s", (int)(w - (sb->len - start)), " ");
	}
	if (!sep && !h->skip_cols)
		strbuf_addf(sb, "%*s", hierarchy_indent(h, hierarchy_nodes(h)), "");
	for (int k = 0; k < lv->nr_keys; k++) {
		size_t start, blanks = 0;

		strbuf_addstr(sb, sep ? sep : "  ");
		start = sb->len;
		report_stdio__key(sb, lv->keys[k], he, key_width(h, lv->keys[k]), sep);
		/* without the padding in front */
		while (start + blanks < sb->len && sb->buf[start + blanks] == ' ')
			blanks++;
		memmove(sb->buf + start, sb->buf + start + blanks, sb->len - start - blanks + 1);
		sb->len -= blanks;
	}
}

/* Whether the first shown child of he passes the limit (perf). */
static bool hierarchy_has_children(const struct hist_entry *he, double limit)
{
	for (uint32_t i = 0; i < he->nr_children; i++)
		if (!he->children[i]->filtered)
			return hist_entry__percent_limit(he->children[i]) >= limit;
	return false;
}

static void hierarchy_entries(FILE *fp, const struct hists *h, const struct callchain_print *cp,
			      const struct report_stdio *r)
{
	size_t rows = 0;
	const struct hist_opts *o = h->opts;
	const struct hist_column_cfg *vals[HIST_MAX_FIELDS];
	int nr_vals = value_columns(&o->layout, vals), overhead_width = 0;
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < nr_vals; i++)
		overhead_width += field_width(h, vals[i]) + (i ? 2 : 0);
	for (const struct hist_entry *he = h->nr_sorted ? h->sorted[0] : NULL; he;
	     he = hist_entry__hierarchy_next(he)) {
		if (!report_stdio__entry_shown(he))
			continue;
		if (r->max_rows && rows++ == r->max_rows)
			break;
		hierarchy_row(&sb, he, o->color);
		fprintf(fp, "%.*s\n", r->max_width > 0 ? r->max_width : (int)sb.len, strbuf_str(&sb));
		if (he->leaf && o->use_callchain)
			callchain_print_entry(fp, he, callchain_total(h), cp);
		if (!he->leaf && !hierarchy_has_children(he, o->percent_limit))
			fprintf(fp, "%*s%*sno entry >= %.2f%%\n",
				hierarchy_indent(h, hierarchy_nodes(h) + he->depth + 1), "",
				overhead_width + 4, "", o->percent_limit);
	}
	strbuf_release(&sb);
}

void report_stdio__hists(FILE *fp, const struct hists *h, const struct report_stdio *r,
			 bool show_header)
{
	const struct hist_opts *o = h->opts;
	struct strbuf sb = STRBUF_INIT, names = STRBUF_INIT;
	struct callchain_print cp = callchain_setup(h, r, o->color, &names);

	if (o->layout.hierarchy) {
		if (show_header)
			hierarchy_headers(fp, h, false);
		hierarchy_entries(fp, h, &cp, r);
		strbuf_release(&names);
		return;
	}
	if (show_header)
		print_headers(fp, h);
	for (size_t i = 0, rows = 0; i < h->nr_sorted; i++) {
		const struct hist_entry *he = h->sorted[i];

		if (!report_stdio__entry_shown(he))
			continue;
		if (r->max_rows && rows++ == r->max_rows)
			break;
		print_row(fp, he, &sb, r->max_width);
		if (o->use_callchain)
			callchain_print_entry(fp, he, callchain_total(h), &cp);
	}
	strbuf_release(&names);
	strbuf_release(&sb);
}

/* --- one entry at a time, for the browsers --------------------------------- */

bool report_stdio__entry_shown(const struct hist_entry *he)
{
	return !he->filtered && hist_entry__percent_limit(he) >= he->hists->opts->percent_limit;
}

void report_stdio__browser_header(FILE *fp, const struct hists *h)
{
	if (h->opts->layout.hierarchy)
		hierarchy_headers(fp, h, true);
	else
		print_headers(fp, h);
}

void report_stdio__row(struct strbuf *sb, const struct hist_entry *he, bool color)
{
	strbuf_reset(sb);
	if (he->hists->opts->layout.hierarchy)
		hierarchy_row(sb, he, color);
	else
		format_row(sb, he, color);
}

void report_stdio__callchain(FILE *fp, const struct hist_entry *he, const struct report_stdio *r,
			     bool color)
{
	const struct hists *h = he->hists;
	struct strbuf names = STRBUF_INIT;
	struct callchain_print cp = callchain_setup(h, r, color, &names);

	/* (with --children perf's browser folds each chain on its own:
	 * --stdio's lines there still) */
	cp.browser = !h->opts->cumulate;
	if (h->opts->use_callchain && (!h->opts->layout.hierarchy || he->leaf))
		callchain_print_entry(fp, he, callchain_total(h), &cp);
	strbuf_release(&names);
}

static void branch_stat_line(FILE *fp, const char *name, uint64_t n, uint64_t total)
{
	if (n)
		fprintf(fp, "\n%8s: %5.1f%%", name, 100.0 * (double)n / (double)total);
}

void report_stdio__branch_stats(FILE *fp, const struct branch_type_stat *st)
{
	uint64_t total = 0;

	for (int i = 0; i < BRANCH_TYPE_MAX; i++)
		total += st->counts[i];
	if (!total)
		return;
	fputs("\n#\n# Branch Statistics:\n#", fp);
	branch_stat_line(fp, "COND_FWD", st->cond_fwd, total);
	branch_stat_line(fp, "COND_BWD", st->cond_bwd, total);
	branch_stat_line(fp, "CROSS_4K", st->cross_4k, total);
	branch_stat_line(fp, "CROSS_2M", st->cross_2m, total);
	for (unsigned i = 1; i < BRANCH_TYPE_MAX; i++) {
		const char *name = hist_branch__type_name((uint64_t)i << 20);

		branch_stat_line(fp, name ? name : "", st->counts[i], total);
	}
}
