/* annotate-stdio2: perf 6.1's --stdio2 layout (see annotate-stdio2.h).
 *
 * perf writes its browser's lines with no width to fill: each padding
 * width comes out negative, which printf takes as left alignment, so the
 * texts are padded to the width of the columns before them.  Instructions
 * are shown as annotate-insn.c reads them. */
#include "ui/annotate-stdio2.h"

#include <inttypes.h>

#include "ui/annotate-insn.h"

void annotate_stdio2__print_lines(FILE *fp, const struct annotate_print_opts *o,
				  const struct annotation *a, struct dso *dso,
				  const struct symbol *sym)
{
	int pcnt_width = (o->show_total_period ? 12 : 7) * a->nr_data;
	struct annotate_insns v;

	annotate_insns__parse(&v, a, dso, sym);
	for (size_t i = 0; i < a->nr_lines; i++) {
		const struct annotate_line *l = &a->lines[i];
		const struct annotate_insn *in = &v.insns[i];
		double max = annotate_line__max_percent(a, l, o->percent_type);
		int printed;

		if (l->offset >= 0 && max != 0) {
			for (int e = 0; e < a->nr_data; e++) {
				const struct annotate_data *d = &l->data[e];

				if (o->show_total_period)
					fprintf(fp, "%11" PRIu64 " ", d->period);
				else if (o->show_nr_samples)
					fprintf(fp, "%6" PRIu64 " ", d->nr_samples);
				else
					fprintf(fp, "%6.2f ", d->percent[o->percent_type]);
			}
		} else {
			/* the first line heads the column */
			fprintf(fp, "%-*s", pcnt_width,
				i ? " " : o->show_total_period ? "Period" :
				o->show_nr_samples ? "Samples" : "Percent");
		}
		fputc(' ', fp);
		if (!l->text[0]) {
			fprintf(fp, "%-*s\n", pcnt_width, " ");
		} else if (l->offset < 0) {
			printed = fprintf(fp, "%-*s  ", v.addr_width, " ");
			fprintf(fp, "%-*s\n", printed + pcnt_width - 1, l->text);
		} else {
			if (v.jump_sources[i])
				printed = fprintf(fp, "%*" PRIx64 ": ", v.addr_width,
						  (uint64_t)l->offset);
			else
				printed = fprintf(fp, "%-*s  ", v.addr_width, " ");
			fputs(annotate_insn__arrow(in, l->offset), fp);
			fprintf(fp, "%-*s\n", pcnt_width + 3 + printed, in->text);
		}
	}
	annotate_insns__release(&v);
}

void annotate_stdio2__print(struct annotate_printer *p, const struct annotation *a,
			    struct dso *dso, const struct symbol *sym, const char *title)
{
	fprintf(p->fp, "%s, [percent: %s]\n%s() %s\n", title,
		annotate_percent__name(p->opts->percent_type), sym->name,
		dso__shown_long_name(dso));
	annotate_stdio2__print_lines(p->fp, p->opts, a, dso, sym);
}
