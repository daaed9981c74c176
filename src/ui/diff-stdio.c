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

/* One value cell's text (perf leaves a blank where there is nothing). */
static void add_cell(struct strbuf *sb, const struct diff_event *de, const struct hist_entry *he,
		     const struct diff_column *col)
{
	const struct hist_entry *pair = diff_event__pair(de, he, col->file);
	bool dummy = diff_entry__is_dummy(he);
	uint64_t total = hists__total_period(de->base);
	double ratio;

	switch (col->kind) {
	case DIFF_COL_BASELINE:
		if (!dummy)
			strbuf_addf(sb, "%6.2f%%", 100.0 * he->stat.period / total);
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
		strbuf_addf(sb, "%+4.2F%%", diff_event__delta(de, he, col->file));
		break;
	case DIFF_COL_RATIO:
		if (dummy) {
			strbuf_addstr(sb, "N/A");
			break;
		}
		ratio = diff_event__ratio(de, he, col->file);
		if (ratio > 0.0)
			strbuf_addf(sb, "%14.6F", ratio);
		break;
	case DIFF_COL_WDIFF:
		if (dummy) {
			strbuf_addstr(sb, "N/A");
			break;
		}
		strbuf_addf(sb, "%14" PRId64, diff_event__wdiff(de, he, col->file));
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

	fputs("# ", fp);
	for (int i = 0; i < c->nr; i++)
		fprintf(fp, "%s%s", i ? "  " : "", c->v[i].header);
	for (int i = 0; i < l->nr_fields; i++) {
		int w = report_stdio__column_width(h, &l->fields[i]);
		int shown = w < PERF_SHORT_TEXT_MAX ? w : PERF_SHORT_TEXT_MAX;

		if (l->fields[i].elide)
			continue;
		if (l->fields[i].field->is_key)
			fprintf(fp, "  %-*.*s", shown, shown, hist_field__header(&l->fields[i]));
		else
			fprintf(fp, "  %*s", w, hist_field__header(&l->fields[i]));
	}
	fputs("\n# ", fp);
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

static void print_row(FILE *fp, const struct diff_event *de, const struct hist_entry *he,
		      const struct diff_columns *c, struct strbuf *sb, struct strbuf *cell)
{
	const struct hists *h = de->base;
	const struct hist_layout *l = &h->opts->layout;

	strbuf_reset(sb);
	strbuf_addstr(sb, "  ");
	for (int i = 0; i < c->nr; i++) {
		strbuf_reset(cell);
		add_cell(cell, de, he, &c->v[i]);
		strbuf_addf(sb, "%s%*s", i ? "  " : "", c->v[i].width,
			    cell->len ? strbuf_str(cell) : " ");
	}
	for (int i = 0; i < l->nr_fields; i++) {
		const struct hist_column_cfg *col = &l->fields[i];
		int w = report_stdio__column_width(h, col);
		size_t start;

		if (col->elide)
			continue;
		strbuf_addstr(sb, "  ");
		start = sb->len;
		if (col->field->is_key)
			col->field->print(he, sb, (unsigned int)w);
		else	/* -s overhead and the like: the baseline's value */
			report_stdio__add_value(sb, col->field, hist_entry__value(he, col->field->value),
						hists__total_period(h), col->field->len, false);
		/* every column but the very last is padded to its width */
		if (i + 1 < l->nr_fields && sb->len - start < (size_t)w)
			strbuf_addf(sb, "%-*s", (int)(w - (sb->len - start)), " ");
	}
	fprintf(fp, "%s\n", strbuf_str(sb));
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
