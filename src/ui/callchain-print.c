/* callchain-print: perf's stdio call graphs (see callchain-print.h). */
#include "ui/callchain-print.h"
#include "ui/percent-color.h"
#include "core/hist/branch.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


struct graph {
	FILE *fp;
	const struct callchain_print *p;
};

static void left_margin(FILE *fp, int margin)
{
	fprintf(fp, "%*s", 12 + margin, "");
}

/* perf keeps the open branch columns in an int shifted by the depth; on
 * x86 the shift count wraps at 32, and so do deep graphs' columns. */
static uint32_t bit(int i)
{
	return 1u << (i & 31);
}

static bool mask_bit(uint32_t mask, int i)
{
	return mask & bit(i);
}

static void print_value(FILE *fp, const struct callchain_print *p, uint64_t period,
			uint32_t count, uint64_t total)
{
	double pct = total ? period * 100.0 / total : 0.0;
	const char *color = p->color ? percent_color(pct) : NULL;

	switch (p->param->value) {
	case CCVAL_PERIOD:
		fprintf(fp, "%" PRIu64, period);
		break;
	case CCVAL_COUNT:
		fprintf(fp, "%u", count);
		break;
	default:
		fprintf(fp, "%s%.2f%%%s", color ? color : "", pct, color ? COLOR_RESET : "");
		break;
	}
}

static void node_value(FILE *fp, const struct callchain_print *p,
		       const struct callchain_node *n, uint64_t total)
{
	if (p->param->mode == CHAIN_FOLDED)
		print_value(fp, p, n->hit, n->count, total);
	else
		print_value(fp, p, callchain_node__cumul_hits(n),
			    callchain_node__cumul_counts(n), total);
}

static const char *frame_name(struct graph *g, const struct cc_frame *f)
{
	struct strbuf *name = g->p->names;

	cc_frame__name(f, g->p->param->key, name);
	if (name->len > PERF_SHORT_TEXT_MAX) {
		name->len = PERF_SHORT_TEXT_MAX;
		name->buf[name->len] = '\0';
	}
	return name->buf;
}

/* One note of a frame's branch counts: " (" opens the first. */
static void note(struct strbuf *sb, int *nr, const char *text)
{
	strbuf_addf(sb, "%s%s", (*nr)++ ? " " : " (", text);
}

static void note_percent(struct strbuf *sb, int *nr, const char *what, uint64_t part,
			 uint64_t whole, float threshold)
{
	/* perf computes these in single precision, and skips one below the
	 * threshold though it counts it as a note */
	float pct = (float)(part * 100.0 / whole);

	if (threshold != 0.0f && pct < threshold) {
		(*nr)++;
		return;
	}
	strbuf_addf(sb, "%s%s:%.1f%%", (*nr)++ ? " " : " (", what, pct);
}

static void note_count(struct strbuf *sb, int *nr, const char *what, uint64_t value)
{
	strbuf_addf(sb, "%s%s:%" PRId64, (*nr)++ ? " " : " (", what, (int64_t)value);
}

/* A branch target: its types, how often predicted, how often aborted. */
static void target_notes(struct strbuf *sb, const struct cc_branch_counts *c)
{
	const struct branch_type_stat *t = &c->types;
	uint64_t typed = 0;
	int nr = 0;

	/* perf 6.1 keeps the extended types apart and names none of them */
	for (int i = 0; i < BRANCH_TYPE_EXTEND_ABI; i++)
		typed += t->counts[i];
	if (typed) {
		if (t->cond_fwd)
			note(sb, &nr, "COND_FWD");
		if (t->cond_bwd)
			note(sb, &nr, "COND_BWD");
		for (unsigned i = 0; i < BRANCH_TYPE_EXTEND_ABI; i++) {
			const char *name = hist_branch__type_name((uint64_t)i << 20);

			if (i != 1 && t->counts[i])	/* COND: by direction above */
				note(sb, &nr, name ? name : "");
		}
		if (t->cross_4k)
			note(sb, &nr, "CROSS_4K");
		if (t->cross_2m)
			note(sb, &nr, "CROSS_2M");
	}
	if (c->predicted_count < c->branch_count)
		note_percent(sb, &nr, "predicted", c->predicted_count, c->branch_count, 0.0f);
	if (c->abort_count)
		note_percent(sb, &nr, "abort", c->abort_count, c->branch_count, 0.1f);
	if (nr)
		strbuf_addstr(sb, ")");
}

/* A branch source: its average cycles, and of the loops folded into it
 * how many on average and their cycles. */
static void source_notes(struct strbuf *sb, const struct cc_branch_counts *c)
{
	uint64_t cycles = c->cycles_count / c->branch_count;
	int nr = 0;

	if (cycles)
		note_count(sb, &nr, "cycles", cycles);
	if (c->iter_count && c->from_count && c->iter_count / c->from_count) {
		note_count(sb, &nr, "iter", c->iter_count / c->from_count);
		note_count(sb, &nr, "avg_cycles", c->iter_cycles / c->iter_count);
	}
	if (nr)
		strbuf_addstr(sb, ")");
}

void callchain_print__branch_notes(struct strbuf *sb, const struct callchain_node *n, size_t max)
{
	size_t len = sb->len;

	if (!n->branch || !n->branch->branch_count)
		strbuf_addstr(sb, " (calltrace)");
	else if (n->branch->branch_to)
		target_notes(sb, n->branch);
	else
		source_notes(sb, n->branch);
	if (sb->len - len > max) {
		sb->len = len + max;
		sb->buf[sb->len] = '\0';
	}
}

/* A graph frame's name, and with branch counts on, perf's notes on them
 * cut to max. */
static const char *node_name(struct graph *g, const struct callchain_node *n, size_t max)
{
	const char *name = frame_name(g, n->frame);

	if (!g->p->branch_counts)
		return name;
	callchain_print__branch_notes(g->p->names, n, max);
	return strbuf_str(g->p->names);
}

static void graph_line(struct graph *g, int depth, uint32_t mask, int margin)
{
	left_margin(g->fp, margin);
	for (int i = 0; i < depth; i++)
		fputs(mask_bit(mask, i) ? "|          " : "           ", g->fp);
	fputc('\n', g->fp);
}

/* One frame line; the first of a node carries its value. */
static void graph_frame(struct graph *g, const char *name, int depth, uint32_t mask, bool first,
			uint64_t period, uint32_t count, uint64_t total, int margin)
{
	left_margin(g->fp, margin);
	for (int i = 0; i < depth; i++) {
		fputc(mask_bit(mask, i) ? '|' : ' ', g->fp);
		if (first && i == depth - 1) {
			fputs("--", g->fp);
			print_value(g->fp, g->p, period, count, total);
			fputs("--", g->fp);
		} else {
			fputs("          ", g->fp);
		}
	}
	fputs(name, g->fp);
	fputc('\n', g->fp);
}

uint64_t callchain_graph__min_hit(const struct callchain_param *param, double min_percent,
				  uint64_t min_hit, const struct callchain_node *n)
{
	if (param->mode == CHAIN_GRAPH_REL)
		return (uint64_t)ceil(n->children_hit * (min_percent / 100.0));
	return min_hit;
}

static uint64_t children_min_hit(const struct callchain_print *p, const struct callchain_node *n)
{
	return callchain_graph__min_hit(p->param, p->param->min_percent, p->min_hit, n);
}

/* The children of the compressed node ending at parent (perf's
 * __callchain__fprintf_graph).  Returns whether it printed anything. */
static bool graph_level(struct graph *g, const struct callchain_node *parent, uint64_t total,
			int depth, uint32_t depth_mask, int margin)
{
	const struct callchain_param *param = g->p->param;
	const struct callchain_node **kids;
	uint32_t nr = callchain_node__sorted_children(parent, children_min_hit(g->p, parent), &kids);
	uint32_t new_mask = depth_mask, printed = 0;
	uint64_t remaining = total;
	int64_t cumul_count = 0;
	bool any = nr > 0;

	for (uint32_t k = 0; k < nr; k++) {
		const struct callchain_node *child = kids[k];
		const struct callchain_node *end = callchain_node__run_end(child);
		uint64_t cumul = callchain_node__cumul_hits(child);
		bool first = true;

		remaining -= cumul;
		cumul_count += callchain_node__cumul_counts(child);
		/* the last child closes its column, unless "[...]" follows */
		if (k + 1 == nr && (param->mode != CHAIN_GRAPH_REL || !remaining))
			new_mask &= ~bit(depth - 1);
		graph_line(g, depth, depth_mask, margin);
		for (const struct callchain_node *n = child;; n = n->child) {
			graph_frame(g, node_name(g, n, NOTES_MAX_BRANCH), depth, new_mask, first,
				    cumul,
				    callchain_node__cumul_counts(child), total, margin);
			first = false;
			if (n == end)
				break;
		}
		graph_level(g, end, param->mode == CHAIN_GRAPH_REL ? end->children_hit : total,
			    depth + 1, new_mask | bit(depth), margin);
		if (++printed == param->print_limit)
			break;
	}
	if (param->mode == CHAIN_GRAPH_REL && remaining && remaining != total) {
		int64_t count = 0;

		if (param->value == CCVAL_COUNT && nr) {
			count = (int64_t)parent->children_count - cumul_count;
			if (count <= 0) {
				free(kids);
				return any;
			}
		}
		new_mask &= ~bit(depth - 1);
		/* with branch counts, a frame none reached */
		graph_frame(g, g->p->branch_counts ? "[...] (calltrace)" : "[...]", depth, new_mask,
			    true, remaining, (uint32_t)count, total, margin);
		any = true;
	}
	free(kids);
	return any;
}

static bool need_percent(const struct callchain_node *const *kids, uint32_t nr,
			 uint64_t parent_samples)
{
	return nr > 1 || callchain_node__cumul_hits(kids[0]) != parent_samples;
}

static void print_graph(FILE *fp, const struct hist_entry *he, uint64_t total,
			const struct callchain_print *p)
{
	struct graph g = { fp, p };
	const struct callchain_node *root = &he->callchain->node;
	const struct callchain_node **kids;
	uint64_t parent_samples = he->hists->opts->cumulate ? he->stat_acc.period : he->stat.period;
	uint32_t nr = callchain_node__sorted_children(root, children_min_hit(p, root), &kids);
	bool printed_any = false;
	int margin = 0;

	if (nr && !need_percent(kids, nr, parent_samples)) {
		const struct callchain_node *end = callchain_node__run_end(kids[0]);
		bool printed = false;
		uint32_t entries = 0;
		int i = 0;

		for (const struct callchain_node *n = kids[0];; n = n->child) {
			if (!(i++ == 0 && p->skip_first_sym)) {
				if (!printed) {
					left_margin(fp, margin);
					fputs("|\n", fp);
					left_margin(fp, margin);
					fputs("---", fp);
					margin += 3;
					printed = true;
				} else {
					left_margin(fp, margin);
				}
				fprintf(fp, "%s\n", node_name(&g, n, NOTES_MAX_CHAIN));
				printed_any = true;
				if (++entries == p->param->print_limit)
					break;
			}
			if (n == end)
				break;
		}
		root = end;
	}
	if (p->param->mode == CHAIN_GRAPH_REL)
		total = parent_samples;
	/* perf adds the blank line only when the graph printed something */
	if (graph_level(&g, root, total, 1, 1, margin) || printed_any)
		fputc('\n', fp);
	free(kids);
}

/* The frames from the root down to n, in order. */
static uint32_t path_of(const struct callchain_node *n, const struct cc_frame ***out)
{
	uint32_t depth = 0, i;
	const struct cc_frame **v;

	for (const struct callchain_node *k = n; k->frame; k = k->parent)
		depth++;
	v = malloc((depth ? depth : 1) * sizeof(*v));
	i = depth;
	for (const struct callchain_node *k = n; k->frame; k = k->parent)
		v[--i] = k->frame;
	*out = v;
	return depth;
}

static void print_flat(FILE *fp, const struct hist_entry *he, uint64_t total,
		       const struct callchain_print *p, bool folded)
{
	const struct callchain_node **nodes;
	uint32_t nr = callchain_root__flat(he->callchain, p->min_hit, &nodes);
	const char *sep = p->field_sep ? p->field_sep : ";";
	struct graph g = { fp, p };
	/* perf's browser shows the values when there are several chains or
	 * one that is not the whole entry */
	bool values = nr > 1 || (nr && callchain_node__cumul_hits(nodes[0]) != he->stat.period);

	for (uint32_t k = 0; k < nr; k++) {
		const struct cc_frame **path;
		uint32_t depth = path_of(nodes[k], &path);

		if (p->browser) {
			/* an offset of 3, a fold sign and a graph column; the
			 * frames after a value line 3 further in */
			fputs("     ", fp);
			if (values) {
				node_value(fp, p, nodes[k], total);
				fputc(' ', fp);
			}
			for (uint32_t i = 0; i < depth; i++) {
				if (!folded && i)
					fprintf(fp, "\n%s", values ? "        " : "     ");
				fprintf(fp, "%s%s", folded && i ? sep : "", frame_name(&g, path[i]));
			}
			fputc('\n', fp);
		} else if (!folded) {
			fputs("           ", fp);
			node_value(fp, p, nodes[k], total);
			fputc('\n', fp);
			for (uint32_t i = 0; i < depth; i++)
				fprintf(fp, "                %s\n", frame_name(&g, path[i]));
			fputc('\n', fp);
		} else {
			node_value(fp, p, nodes[k], total);
			fputc(' ', fp);
			for (uint32_t i = 0; i < depth; i++)
				fprintf(fp, "%s%s", i ? sep : "", frame_name(&g, path[i]));
			fputc('\n', fp);
		}
		free(path);
		if (k + 1 == p->param->print_limit)
			break;
	}
	free(nodes);
}

void callchain_print_entry(FILE *fp, const struct hist_entry *he, uint64_t total,
			   const struct callchain_print *p)
{
	if (!he->callchain)
		return;
	switch (p->param->mode) {
	case CHAIN_GRAPH_ABS:
	case CHAIN_GRAPH_REL:
		print_graph(fp, he, total, p);
		break;
	case CHAIN_FLAT:
		print_flat(fp, he, total, p, false);
		break;
	case CHAIN_FOLDED:
		print_flat(fp, he, total, p, true);
		break;
	default:
		break;
	}
}
