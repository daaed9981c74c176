/* diff-stdio: perf diff's table (see diff-stdio.h). */
#include "ui/diff-stdio.h"
#include "ui/callchain-print.h"
#include "ui/report-stdio.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <string.h>

#define FORMULA_WIDTH 70

static const struct {
	const char *name;
	int width;
} column_kinds[] = {
	[DIFF_COL_BASELINE] = { "Baseline", 0 },
	[DIFF_COL_PERIOD] = { "Period", 14 },
	[DIFF_COL_PERIOD_BASELINE] = { "Base period", 14 },
	[DIFF_COL_DELTA] = { "Delta", 7 },
	[DIFF_COL_RATIO] = { "Ratio", 14 },
	[DIFF_COL_WDIFF] = { "Weighted diff", 14 },
	[DIFF_COL_FORMULA] = { "Formula", FORMULA_WIDTH },
	[DIFF_COL_DELTA_ABS] = { "Delta Abs", 7 },
};

static void add_column(struct diff_columns *c, enum diff_column_kind kind, int file, int nr_files)
{
	struct diff_column *col = &c->v[c->nr++];
	char name[100];
	int len;

	col->kind = kind;
	col->file = file;
	if (nr_files > 2)
		snprintf(name, sizeof(name), "%s/%d", column_kinds[kind].name, file);
	else
		snprintf(name, sizeof(name), "%s", column_kinds[kind].name);
	len = (int)strlen(name);
	col->width = column_kinds[kind].width > len ? column_kinds[kind].width : len;
	snprintf(col->header, sizeof(col->header), "%*s", col->width, name);
}

void diff_columns__init(struct diff_columns *c, const struct diff_config *cfg,
			bool show_period, bool show_formula)
{
	static const enum diff_column_kind of_compute[] = {
		[DIFF_DELTA] = DIFF_COL_DELTA,
		[DIFF_RATIO] = DIFF_COL_RATIO,
		[DIFF_WDIFF] = DIFF_COL_WDIFF,
		[DIFF_DELTA_ABS] = DIFF_COL_DELTA_ABS,
	};

	c->nr = 0;
	for (int i = 0; i < cfg->nr_files && c->nr + 3 <= DIFF_MAX_COLUMNS; i++) {
		add_column(c, i ? of_compute[cfg->compute] : DIFF_COL_BASELINE, i, cfg->nr_files);
		if (show_formula && i)
			add_column(c, DIFF_COL_FORMULA, i, cfg->nr_files);
		if (show_period)
			add_column(c, i ? DIFF_COL_PERIOD : DIFF_COL_PERIOD_BASELINE, i,
				   cfg->nr_files);
	}
}

/* The formula of a pair's value, with the totals perf shows. */
static void add_formula(struct strbuf *sb, const struct diff_event *de,
			const struct hist_entry *he, const struct hist_entry *pair, int i)
{
	uint64_t old_period = he->stat.period, new_period = pair->stat.period;
	const struct hists *base = de->base;

	switch (de->cfg->compute) {
	case DIFF_DELTA:
	case DIFF_DELTA_ABS: {
		/* the baseline's total as shown now, the file's as sampled */
		uint64_t base_total = base->opts->filter_relative ?
				      base->stats.total_non_filtered_period :
				      base->stats.total_period;

		strbuf_addf(sb, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %"
			    PRIu64 ")", new_period, diff_event__total(de, i), old_period,
			    base_total);
		break;
	}
	case DIFF_RATIO:
		strbuf_addf(sb, "%.0F / %.0F", (double)new_period, (double)old_period);
		break;
	case DIFF_WDIFF:
		strbuf_addf(sb, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
			    new_period, de->cfg->wdiff_w2, old_period, de->cfg->wdiff_w1);
		break;
	case DIFF_CYCLES:
		break;
	}
}

/* One value cell's text (perf leaves a blank where there is nothing).
 * perf prints these through its colour functions, or with -t through
 * plain ones that differ in details. */
static void add_cell(struct strbuf *sb, const struct diff_event *de, const struct hist_entry *he,
		     const struct diff_column *col)
{
	const struct hist_entry *pair = diff_event__pair(de, he, col->file);
	bool dummy = diff_entry__is_dummy(he);
	uint64_t total = hists__total_period(de->base);
	const char *sep = de->base->opts->field_sep;
	int64_t wdiff;
	double ratio;

	switch (col->kind) {
	case DIFF_COL_BASELINE:
		if (!dummy)
			strbuf_addf(sb, de->base->opts->field_sep ? "%.2f" : "%6.2f%%",
				    100.0 * he->stat.period / total);
		return;
	case DIFF_COL_PERIOD_BASELINE:
		strbuf_addf(sb, "%" PRIu64, he->stat.period);
		return;
	default:
		break;
	}
	if (!pair)
		return;
	switch (col->kind) {
	case DIFF_COL_DELTA:
	case DIFF_COL_DELTA_ABS:
		/* perf's two paths differ on an empty file's nan: "-nan", "-NAN" */
		strbuf_addf(sb, sep ? "%+4.2F%%" : "%+4.2f%%", diff_event__delta(de, he, col->file));
		break;
	case DIFF_COL_RATIO:
		if (dummy) {
			strbuf_addstr(sb, "N/A");
			break;
		}
		ratio = diff_event__ratio(de, he, col->file);
		if (!sep || ratio > 0.0)
			strbuf_addf(sb, "%14.6f", ratio);
		break;
	case DIFF_COL_WDIFF:
		if (dummy) {
			strbuf_addstr(sb, "N/A");
			break;
		}
		wdiff = diff_event__wdiff(de, he, col->file);
		/* perf's -t path leaves a zero out */
		if (!sep || wdiff)
			strbuf_addf(sb, "%14" PRId64, wdiff);
		break;
	case DIFF_COL_FORMULA:
		add_formula(sb, de, he, pair, col->file);
		break;
	case DIFF_COL_PERIOD:
		strbuf_addf(sb, "%" PRIu64, pair->stat.period);
		break;
	default:
		break;
	}
}

static void print_headers(FILE *fp, const struct hists *h, const struct diff_columns *c)
{
	const struct hist_layout *l = &h->opts->layout;
	const char *sep = h->opts->field_sep ? h->opts->field_sep : "  ";

	fputs("# ", fp);
	for (int i = 0; i < c->nr; i++)
		fprintf(fp, "%s%s", i ? sep : "", c->v[i].header);
	for (int i = 0; i < l->nr_fields; i++) {
		int w = report_stdio__column_width(h, &l->fields[i]);
		int shown = w < PERF_SHORT_TEXT_MAX ? w : PERF_SHORT_TEXT_MAX;

		if (l->fields[i].elide)
			continue;
		if (l->fields[i].field->is_key)
			fprintf(fp, "%s%-*.*s", sep, shown, shown, hist_field__header(&l->fields[i]));
		else
			fprintf(fp, "%s%*s", sep, w, hist_field__header(&l->fields[i]));
	}
	fputc('\n', fp);
	if (h->opts->field_sep)
		return;
	fputs("# ", fp);
	for (int i = 0; i < c->nr; i++)
		fprintf(fp, "%s%.*s", i ? "  " : "", c->v[i].width,
			"......................................................................");
	for (int i = 0; i < l->nr_fields; i++) {
		if (l->fields[i].elide)
			continue;
		fputs("  ", fp);
		for (int k = report_stdio__column_width(h, &l->fields[i]); k > 0; k--)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);
}

/* perf's line buffer with -t: the columns' widths, their gaps and 3 more
 * (what does not fit is cut) */
static int line_width(const struct hists *h, const struct diff_columns *c)
{
	const struct hist_layout *l = &h->opts->layout;
	int w = 0, n = 0;
	bool sym = false;

	for (int i = 0; i < c->nr; i++)
		w += c->v[i].width + (n++ ? 2 : 0);
	for (int i = 0; i < l->nr_fields; i++)
		if (!l->fields[i].elide)
			w += report_stdio__column_width(h, &l->fields[i]) + (n++ ? 2 : 0);
	for (int i = 0; i < l->nr_keys; i++)
		sym |= l->keys[i]->col == HISTC_SYMBOL;
	if (h->opts->verbose && sym)
		w += 3 + UNRESOLVED_ADDR_WIDTH;
	return w + 3;
}

static void print_row(FILE *fp, const struct diff_event *de, const struct hist_entry *he,
		      const struct diff_columns *c, struct strbuf *sb, struct strbuf *cell)
{
	const struct hists *h = de->base;
	const struct hist_layout *l = &h->opts->layout;
	const char *sep = h->opts->field_sep;

	strbuf_reset(sb);
	if (!sep)
		strbuf_addstr(sb, "  ");
	for (int i = 0; i < c->nr; i++) {
		strbuf_reset(cell);
		add_cell(cell, de, he, &c->v[i]);
		if (i)
			strbuf_addstr(sb, sep ? sep : "  ");
		/* with -t the cell is left-aligned, still padded to its width */
		strbuf_addf(sb, sep ? "%-*s" : "%*s", c->v[i].width,
			    cell->len ? strbuf_str(cell) : " ");
	}
	for (int i = 0; i < l->nr_fields; i++) {
		const struct hist_column_cfg *col = &l->fields[i];
		const struct hist_field *f = col->field;
		int w = report_stdio__column_width(h, col);
		size_t start;

		if (col->elide)
			continue;
		strbuf_addstr(sb, sep ? sep : "  ");
		start = sb->len;
		if (f->is_key)
			report_stdio__key(sb, f, he, w, sep);
		else	/* -s overhead and the like: the baseline's value */
			report_stdio__add_value(sb, f, hist_entry__value(he, f->value),
						hists__total_period(h),
						sep ? (f->percent ? 3 : 2) : f->len, false);
		/* every column but the very last is padded to its width */
		if (i + 1 < l->nr_fields && sb->len - start < (size_t)w)
			strbuf_addf(sb, "%-*s", (int)(w - (sb->len - start)), " ");
	}
	fprintf(fp, "%.*s\n", sep ? line_width(h, c) : (int)sb->len, strbuf_str(sb));
}

void diff_stdio__print(FILE *fp, const struct diff_event *de, const struct diff_columns *c,
		       bool show_header)
{
	struct strbuf sb = STRBUF_INIT, cell = STRBUF_INIT;

	if (show_header)
		print_headers(fp, de->base, c);
	for (size_t i = 0; i < de->base->nr_sorted; i++) {
		const struct hist_entry *he = de->base->sorted[i];

		if (!he->filtered)
			print_row(fp, de, he, c, &sb, &cell);
	}
	strbuf_release(&sb);
	strbuf_release(&cell);
}
