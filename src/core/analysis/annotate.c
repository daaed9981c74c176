/* annotate: per-instruction records of a symbol's samples (see annotate.h).
 *
 * perf 6.1 reads objdump's output line by line: it trims each line,
 * expands its tabs, and takes a line naming an absolute "/file:NN" for the
 * number of the lines that follow (counting up from NN, instructions
 * included); "ADDR:" lines inside the symbol are its instructions.  The
 * same cuts are made here on the text disasm.c produces.
 */
#include "core/analysis/annotate.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <ctype.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int annotate_percent__parse(const char *s, enum annotate_percent *out)
{
	static const struct {
		const char *name;
		enum annotate_percent p;
	} names[] = {
		{ "local-hits", PERCENT_HITS_LOCAL },	  { "hits-local", PERCENT_HITS_LOCAL },
		{ "global-hits", PERCENT_HITS_GLOBAL },	  { "hits-global", PERCENT_HITS_GLOBAL },
		{ "local-period", PERCENT_PERIOD_LOCAL }, { "period-local", PERCENT_PERIOD_LOCAL },
		{ "global-period", PERCENT_PERIOD_GLOBAL },
		{ "period-global", PERCENT_PERIOD_GLOBAL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i].name)) {
			*out = names[i].p;
			return 0;
		}
	return -1;
}

const char *annotate_percent__name(enum annotate_percent p)
{
	static const char *const names[] = { "local hits", "global hits", "local period",
					     "global period" };

	return names[p];
}

void annotate_samples__init(struct annotate_samples *as)
{
	hashmap_init(&as->syms, sizeof(void *));
}

static void annotated_sym_free(struct annotated_sym *s)
{
	for (int i = 0; i < s->nr_hists; i++) {
		free(s->hists[i].samples);
		free(s->hists[i].periods);
	}
	free(s->hists);
	free(s);
}

void annotate_samples__release(struct annotate_samples *as)
{
	for (void **v = NULL; (v = hashmap_next(&as->syms, v));)
		annotated_sym_free(*v);
	hashmap_release(&as->syms);
}

void annotate_samples__keep(struct annotate_samples *as,
			    bool (*keep)(const struct symbol *sym, void *arg), void *arg)
{
	struct hashmap kept;

	hashmap_init(&kept, sizeof(void *));
	for (void **v = NULL; (v = hashmap_next(&as->syms, v));) {
		struct annotated_sym *s = *v;

		if (keep(s->sym, arg))
			hashmap_u64_put(&kept, (uint64_t)(uintptr_t)s->sym, s);
		else
			annotated_sym_free(s);
	}
	hashmap_release(&as->syms);
	as->syms = kept;
}

struct annotated_sym *annotate_samples__find(const struct annotate_samples *as,
					     const struct symbol *sym)
{
	return hashmap_u64_get(&as->syms, (uint64_t)(uintptr_t)sym);
}

const struct sym_hist *annotated_sym__hist(const struct annotated_sym *s, int evidx)
{
	static const struct sym_hist empty;

	return evidx < s->nr_hists ? &s->hists[evidx] : &empty;
}

void annotate_samples__add(struct annotate_samples *as, struct dso *dso, struct symbol *sym,
			   int evidx, uint64_t addr, uint64_t period)
{
	struct annotated_sym *s = annotate_samples__find(as, sym);
	struct sym_hist *h;
	uint64_t size = sym->end - sym->start;

	if (addr < sym->start || addr >= sym->end || evidx < 0)
		return;
	if (!s) {
		s = xcalloc(1, sizeof(*s));
		s->dso = dso;
		s->sym = sym;
		hashmap_u64_put(&as->syms, (uint64_t)(uintptr_t)sym, s);
	}
	if (evidx >= s->nr_hists) {	/* a pipe announces its events as it goes */
		s->hists = xrealloc(s->hists, (size_t)(evidx + 1) * sizeof(*s->hists));
		memset(&s->hists[s->nr_hists], 0,
		       (size_t)(evidx + 1 - s->nr_hists) * sizeof(*s->hists));
		s->nr_hists = evidx + 1;
	}
	h = &s->hists[evidx];
	if (!h->samples) {
		h->samples = xcalloc(size, sizeof(*h->samples));
		h->periods = xcalloc(size, sizeof(*h->periods));
	}
	h->nr_samples++;
	h->period += period;
	h->samples[addr - sym->start]++;
	h->periods[addr - sym->start] += period;
}

/* perf's cleaning of an objdump line: surrounding blanks off, tabs to
 * the next multiple of 8. */
static void clean_line(struct strbuf *sb, const char *line, size_t len)
{
	while (len && isspace((unsigned char)*line)) {
		line++;
		len--;
	}
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	strbuf_reset(sb);
	for (size_t i = 0; i < len; i++) {
		if (line[i] != '\t') {
			strbuf_addch(sb, line[i]);
			continue;
		}
		do
			strbuf_addch(sb, ' ');
		while (sb->len % 8);
	}
	strbuf_addch(sb, '\0');
	sb->len--;
}

static struct annotate_line *new_line(struct annotation *a, size_t *alloc)
{
	if (a->nr_lines == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 64;
		a->lines = xrealloc(a->lines, *alloc * sizeof(*a->lines));
	}
	memset(&a->lines[a->nr_lines], 0, sizeof(a->lines[0]));
	return &a->lines[a->nr_lines++];
}

static void parse_lines(struct annotation *a, const char *text, uint64_t size)
{
	static regex_t file_line;
	static bool compiled;
	struct strbuf clean = { 0 };
	size_t alloc = 0;
	int line_nr = 0;

	if (!compiled) {
		regcomp(&file_line, "^/[^:]+:([0-9]+)", REG_EXTENDED);
		compiled = true;
	}
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		struct annotate_line *l;
		regmatch_t m[2];
		char *end;
		uint64_t ip;
		const char *body;

		clean_line(&clean, p, len);
		p += len + (nl != NULL);
		body = clean.buf;
		if (!regexec(&file_line, body, 2, m, 0)) {
			line_nr = atoi(body + m[1].rm_so);
			a->filelocs = xrealloc(a->filelocs,
					       (size_t)(a->nr_filelocs + 1) * sizeof(*a->filelocs));
			a->filelocs[a->nr_filelocs++] = xstrdup(body);
			continue;
		}
		l = new_line(a, &alloc);
		l->fileloc = a->nr_filelocs - 1;
		l->offset = -1;
		l->line_nr = line_nr++;
		ip = strtoull(body, &end, 16);
		if (*end == ':' && end != body && end[1] && ip >= a->start && ip - a->start < size) {
			l->offset = (int64_t)(ip - a->start);
			body = end + 1;
		}
		l->text = xstrdup(body);
	}
	strbuf_release(&clean);
}

static void calc_data(struct annotate_data *d, const struct sym_hist *h,
		      const struct annotate_totals *t, int64_t from, int64_t to)
{
	memset(d, 0, sizeof(*d));
	for (int64_t i = from; h->samples && i < to; i++) {
		d->nr_samples += h->samples[i];
		d->period += h->periods[i];
	}
	if (h->nr_samples)
		d->percent[PERCENT_HITS_LOCAL] = 100.0 * (double)d->nr_samples / (double)h->nr_samples;
	if (t->nr_samples)
		d->percent[PERCENT_HITS_GLOBAL] = 100.0 * (double)d->nr_samples / (double)t->nr_samples;
	if (h->period)
		d->percent[PERCENT_PERIOD_LOCAL] = 100.0 * (double)d->period / (double)h->period;
	if (t->period)
		d->percent[PERCENT_PERIOD_GLOBAL] = 100.0 * (double)d->period / (double)t->period;
}

void annotation__build(struct annotation *a, struct disasm_file *f, const struct disasm_opts *o,
		       const struct annotated_sym *as, const int *evidx, int nr,
		       const struct annotate_totals *totals)
{
	struct strbuf text = { 0 };
	uint64_t size = as->sym->end - as->sym->start;
	struct annotate_line *last = NULL;

	memset(a, 0, sizeof(*a));
	a->start = dso__addr_to_vaddr(as->dso, as->sym->start);
	a->nr_data = nr;
	disasm_file__dump(f, o, a->start, a->start + size, &text);
	parse_lines(a, text.len ? text.buf : "", size);
	strbuf_release(&text);
	/* an instruction's share: from its address to the next one's */
	for (size_t i = a->nr_lines; i-- > 0;) {
		struct annotate_line *l = &a->lines[i];
		int64_t to = last ? last->offset : (int64_t)size;

		if (l->offset < 0)
			continue;
		l->data = xcalloc((size_t)nr, sizeof(*l->data));
		for (int e = 0; e < nr; e++)
			calc_data(&l->data[e], annotated_sym__hist(as, evidx[e]), &totals[evidx[e]],
				  l->offset, to);
		if (!last) {
			char digits[24];

			a->addr_width = snprintf(digits, sizeof(digits), "%" PRIx64,
						 a->start + (uint64_t)l->offset);
		}
		last = l;
	}
}

void annotation__release(struct annotation *a)
{
	for (size_t i = 0; i < a->nr_lines; i++) {
		free(a->lines[i].text);
		free(a->lines[i].data);
	}
	free(a->lines);
	for (int i = 0; i < a->nr_filelocs; i++)
		free(a->filelocs[i]);
	free(a->filelocs);
	memset(a, 0, sizeof(*a));
}

/* Hottest first; of equals, the later source line name first (perf's
 * trees give that order).  arg: the number of percentages. */
static int summary_order(const void *pa, const void *pb, void *arg)
{
	const struct annotate_summary *a = pa, *b = pb;
	int nr = *(const int *)arg;

	for (int i = 0; i < nr; i++)
		if (a->percent[i] != b->percent[i])
			return a->percent[i] > b->percent[i] ? -1 : 1;
	return strcmp(b->srcline, a->srcline);
}

struct annotate_summary *annotation__summary(struct annotation *a, const struct annotated_sym *as,
					     enum annotate_percent p, size_t *nr)
{
	struct annotate_summary *s = NULL;

	*nr = 0;
	for (size_t i = 0; i < a->nr_lines; i++) {
		struct annotate_line *l = &a->lines[i];
		double max = 0;
		size_t k;

		if (l->offset < 0)
			continue;
		for (int e = 0; e < a->nr_data; e++)
			if (l->data[e].percent[p] > max)
				max = l->data[e].percent[p];
		if (max <= 0.5)
			continue;
		l->srcline = dso__srcline(as->dso, as->sym->start + (uint64_t)l->offset);
		if (!l->srcline)
			l->srcline = "??:0";
		for (k = 0; k < *nr && strcmp(s[k].srcline, l->srcline); k++)
			;
		if (k == *nr) {
			s = xrealloc(s, (*nr + 1) * sizeof(*s));
			s[k].srcline = l->srcline;
			s[k].percent = xcalloc((size_t)a->nr_data, sizeof(double));
			(*nr)++;
		}
		for (int e = 0; e < a->nr_data; e++)
			s[k].percent[e] += l->data[e].percent[p];
	}
	if (*nr)
		qsort_r(s, *nr, sizeof(*s), summary_order, &a->nr_data);
	return s;
}

void annotation__free_summary(struct annotate_summary *s, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(s[i].percent);
	free(s);
}
