/* annotate-stdio: the --stdio layout of perf 6.1's annotate: a header,
 * then each line of the annotation, instructions with their percentage
 * (or samples, or period) and address, other lines with perf's count. */
#include "ui/annotate-stdio.h"
#include "ui/percent-color.h"

#include <inttypes.h>
#include <string.h>

/* below this, the summary has nothing to show (perf's lowest colour) */
#define SUMMARY_MIN_PERCENT 0.5

static int value_width(const struct annotate_print_opts *o)
{
	return o->show_total_period ? 12 : 8;
}

/* The escape starting pct's colour ("" when plain or colours are off). */
static const char *color_of(const struct annotate_printer *p, double pct)
{
	const char *c = p->opts->color ? percent_color(pct) : NULL;

	return c ? c : "";
}

static const char *reset_of(const char *color)
{
	return *color ? COLOR_RESET : "";
}

static void print_instruction(struct annotate_printer *p, const struct annotation *a,
			      const struct annotate_line *l)
{
	const struct annotate_print_opts *o = p->opts;
	double max = 0;
	const char *c;

	for (int e = 0; e < a->nr_data; e++) {
		const struct annotate_data *d = &l->data[e];
		double pct = d->percent[o->percent_type];

		c = color_of(p, pct);
		if (pct > max)
			max = pct;
		if (o->show_total_period)
			fprintf(p->fp, "%s %11" PRIu64 "%s", c, d->period, reset_of(c));
		else if (o->show_nr_samples)
			fprintf(p->fp, "%s %7" PRIu64 "%s", c, d->nr_samples, reset_of(c));
		else
			fprintf(p->fp, "%s %7.2f%s", c, pct, reset_of(c));
	}
	/* perf colours addresses and instructions by branch coverage, which
	 * plain samples do not have: magenta and blue */
	if (o->color)
		fprintf(p->fp, " : \033[35m  %*" PRIx64 ":" COLOR_RESET "\033[34m%s" COLOR_RESET,
			a->addr_width, a->start + (uint64_t)l->offset, l->text);
	else
		fprintf(p->fp, " :   %*" PRIx64 ":%s", a->addr_width,
			a->start + (uint64_t)l->offset, l->text);
	/* an instruction's source line once, until another one comes */
	if (l->srcline && (!p->last_srcline || strcmp(p->last_srcline, l->srcline))) {
		c = color_of(p, max);
		fprintf(p->fp, "%s // %s%s", c, l->srcline, reset_of(c));
		p->last_srcline = l->srcline;
	}
	fputc('\n', p->fp);
}

void annotate_stdio__print(struct annotate_printer *p, const struct annotation *a,
			   const char *file, const char *event, uint64_t nr_samples)
{
	const struct annotate_print_opts *o = p->opts;
	int width = value_width(o) * a->nr_data;
	const char *label = o->show_total_period ? "Period" :
			    o->show_nr_samples	 ? "Samples" : "Percent";
	int len;

	/* perf compares with the previous function's last source line after
	 * freeing it: mostly that no longer matches, so a function's first
	 * one shows */
	p->last_srcline = NULL;

	len = fprintf(p->fp, " %-*.*s|\tSource code & Disassembly of %s for %s (%" PRIu64
		      " samples, percent: %s)\n", width, width, label, file, event, nr_samples,
		      annotate_percent__name(o->percent_type));
	for (int i = 0; i < len + 4; i++)
		fputc('-', p->fp);
	fputc('\n', p->fp);
	for (size_t i = 0; i < a->nr_lines; i++) {
		const struct annotate_line *l = &a->lines[i];

		if (l->offset >= 0)
			print_instruction(p, a, l);
		else if (!l->text[0])
			fprintf(p->fp, " %*s:\n", width, " ");
		else
			fprintf(p->fp, " %*s: %-*d %s\n", width, " ", a->addr_width, l->line_nr,
				l->text);
	}
}

void annotate_stdio__print_summary(struct annotate_printer *p, const struct annotate_summary *s,
				   size_t nr, int nr_data, const char *long_name)
{
	fprintf(p->fp, "\nSorted summary for file %s\n", long_name);
	fputs("----------------------------------------------\n\n", p->fp);
	if (!nr) {
		fprintf(p->fp, " Nothing higher than %1.1f%%\n", SUMMARY_MIN_PERCENT);
		return;
	}
	for (size_t i = 0; i < nr; i++) {
		double max = 0;
		const char *c;

		for (int e = 0; e < nr_data; e++) {
			c = color_of(p, s[i].percent[e]);
			fprintf(p->fp, "%s %7.2f%s", c, s[i].percent[e], reset_of(c));
			if (s[i].percent[e] > max)
				max = s[i].percent[e];
		}
		c = color_of(p, max);
		fprintf(p->fp, "%s %s\n%s", c, s[i].srcline, reset_of(c));
	}
}
