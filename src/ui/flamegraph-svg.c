/* flamegraph-svg: lays out the stack trie as rectangles and writes them
 * with the interaction script (see flamegraph-svg.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist/stacks.h"
#include "ui/flame-colors.h"
#include "ui/flamegraph-svg.h"
#include "ui/markup.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char svg_script[] =
#include "flamegraph-svg.js.inc"
	;

#define XPAD 10.0
#define FRAMEPAD 1.0

void flamegraph_opts__init(struct flamegraph_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->width = 1200;
	o->frame_height = 16;
	o->minwidth = 0.1;
	o->fonttype = "Verdana";
	o->fontsize = 12;
	o->fontwidth = 0.59;
	o->countname = "samples";
	o->nametype = "Function:";
}

const char *flamegraph_opts__title(const struct flamegraph_opts *o, bool diff)
{
	if (o->title)
		return o->title;
	if (o->flamechart)
		return "Flame Chart";
	if (diff)
		return o->inverted ? "Differential Icicle Graph" : "Differential Flame Graph";
	return o->inverted ? "Icicle Graph" : "Flame Graph";
}

/* "1,234,567" */
static void add_count(struct strbuf *sb, uint64_t v)
{
	char digits[32];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64, v);

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			strbuf_addch(sb, ',');
		strbuf_addch(sb, digits[i]);
	}
}

/* The label that fits w pixels: the name, or its start and "..", or "". */
static void fit_label(struct strbuf *sb, const char *name, double w,
		      const struct flamegraph_opts *o)
{
	double glyph = o->fontsize * o->fontwidth;
	size_t fit = w > 0 ? (size_t)((w - 3) / glyph) : 0, chars = 0, cut = 0;
	const unsigned char *s = (const unsigned char *)name;

	if (fit < 3)
		return;
	for (size_t i = 0; s[i]; chars++) {
		/* count characters: skip UTF-8 continuation bytes */
		i++;
		while ((s[i] & 0xc0) == 0x80)
			i++;
		if (chars + 1 == fit - 2)
			cut = i;
		if (chars + 1 > fit) {
			char *part = xstrndup(name, cut);

			xml_escape(sb, part);
			strbuf_addstr(sb, "..");
			free(part);
			return;
		}
	}
	xml_escape(sb, name);
}

struct svg_layout {
	const struct stacks *st;
	const struct stack_tree *t;
	const struct flamegraph_opts *o;
	double per_unit;	/* px per unit of weight */
	uint64_t min_total;	/* frames lighter than this are not drawn */
	double height, ypad1, ypad2;
	uint32_t max_depth;
	double max_delta;
	uint64_t rand;
};

static double next_random(struct svg_layout *l)
{
	/* xorshift64*: the same picture every run */
	l->rand ^= l->rand >> 12;
	l->rand ^= l->rand << 25;
	l->rand ^= l->rand >> 27;
	return (double)((l->rand * 0x2545f4914f6cdd1dULL) >> 11) / 9007199254740992.0;
}

static int64_t delta(const struct stack_tree *t, uint32_t node)
{
	return (int64_t)t->total[node] - (int64_t)t->total_base[node];
}

/* Calls fn for every drawn node with its x offset (in weight units),
 * parents before children. */
static void walk(struct svg_layout *l, void (*fn)(struct svg_layout *, uint32_t, uint64_t,
						   void *), void *arg)
{
	struct item { uint32_t node; uint64_t x; } *stack;
	size_t n = 0, alloc = 64;

	stack = xmalloc(alloc * sizeof(*stack));
	stack[n++] = (struct item){ 0, 0 };
	while (n) {
		struct item it = stack[--n];
		uint32_t a = l->t->first_child[it.node], b = l->t->first_child[it.node + 1];
		uint64_t x = it.x;

		fn(l, it.node, it.x, arg);
		if (n + (b - a) > alloc) {
			alloc = (n + (b - a)) * 2;
			stack = xrealloc(stack, alloc * sizeof(*stack));
		}
		/* pushed in reverse so that they come out in order */
		for (uint32_t i = a; i < b; i++)
			x += l->t->total[l->t->children[i]];
		for (uint32_t i = b; i-- > a;) {
			uint32_t c = l->t->children[i];

			x -= l->t->total[c];
			if (l->t->total[c] >= l->min_total && l->t->total[c])
				stack[n++] = (struct item){ c, x };
		}
	}
	free(stack);
}

static void measure(struct svg_layout *l, uint32_t node, uint64_t x, void *arg)
{
	uint32_t depth = l->st->nodes[node].depth;
	double d = fabs((double)delta(l->t, node));

	if (depth > l->max_depth)
		l->max_depth = depth;
	if (d > l->max_delta)
		l->max_delta = d;
}

static void frame_title(struct strbuf *sb, struct svg_layout *l, uint32_t node)
{
	const struct stacks *st = l->st;
	uint64_t total = l->t->total[node];

	xml_escape(sb, st->names[st->nodes[node].name]);
	strbuf_addstr(sb, " (");
	add_count(sb, total);
	strbuf_addch(sb, ' ');
	xml_escape(sb, l->o->countname);
	strbuf_addf(sb, ", %.2f%%", st->total ? 100.0 * (double)total / (double)st->total : 0);
	if (st->diff) {
		int64_t d = delta(l->t, node);

		strbuf_addf(sb, "; %s", d < 0 ? "-" : "+");
		add_count(sb, (uint64_t)(d < 0 ? -d : d));
		strbuf_addf(sb, " %s%.2f%%", d < 0 ? "-" : "+",
			    st->total_base ? 100.0 * fabs((double)d) / (double)st->total_base : 0);
	}
	strbuf_addch(sb, ')');
}

static void draw(struct svg_layout *l, uint32_t node, uint64_t x, void *arg)
{
	struct strbuf *sb = arg;
	const struct stacks *st = l->st;
	const struct flamegraph_opts *o = l->o;
	const char *name = st->names[st->nodes[node].name];
	uint32_t depth = st->nodes[node].depth;
	double x1 = XPAD + (double)x * l->per_unit, w = (double)l->t->total[node] * l->per_unit;
	double y = o->inverted ? l->ypad1 + depth * o->frame_height :
		   l->height - l->ypad2 - (depth + 1) * o->frame_height + FRAMEPAD;
	struct rgb c;

	if (st->diff)
		c = flame_diff_color(l->max_delta ? (double)delta(l->t, node) / l->max_delta : 0,
				     o->negate);
	else
		c = flame_color(o->palette, name, st->name_kind[st->nodes[node].name],
				o->hash ? flame_name_hash(name) : next_random(l));
	strbuf_addstr(sb, "<g><title>");
	frame_title(sb, l, node);
	strbuf_addf(sb, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "fill=\"rgb(%u,%u,%u)\" rx=\"2\" ry=\"2\"/><text x=\"%.2f\" y=\"%.1f\">",
		    x1, y, w, o->frame_height - FRAMEPAD, c.r, c.g, c.b, x1 + 3,
		    y + o->frame_height / 2.0 + o->fontsize / 3.0 + 1);
	fit_label(sb, name, w, o);
	strbuf_addstr(sb, "</text></g>\n");
}

static void header(struct strbuf *sb, struct svg_layout *l, double width)
{
	const struct flamegraph_opts *o = l->o;
	double h = l->height;

	strbuf_addf(sb, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		    "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
		    "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
		    "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		    "xmlns=\"http://www.w3.org/2000/svg\" "
		    "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
		    "<!-- Flame graph written by pcl. -->\n", width, h, width, h);
	if (o->notes)
		xml_comment(sb, "NOTES: ", o->notes);
	strbuf_addf(sb, "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
		    "<stop stop-color=\"%s\" offset=\"5%%\"/><stop stop-color=\"%s\" "
		    "offset=\"95%%\"/></linearGradient></defs>\n",
		    l->st->diff ? "#fafafa" : "#eeeeee", l->st->diff ? "#f0f0f0" : "#eeeeb0");
	strbuf_addstr(sb, "<style type=\"text/css\">\n");
	strbuf_addstr(sb, "text { font-family:");
	xml_escape(sb, o->fonttype);
	strbuf_addf(sb, "; font-size:%.1fpx; fill:rgb(0,0,0); }\n"
		    "#title { text-anchor:middle; font-size:%.1fpx; }\n"
		    "#subtitle { text-anchor:middle; fill:rgb(100,100,100); }\n"
		    "#search, #ignorecase, #unzoom { cursor:pointer; opacity:0.6; }\n"
		    "#search:hover, #ignorecase:hover, #unzoom:hover { opacity:1; }\n"
		    "#search.active, #ignorecase.active { fill:rgb(180,0,180); opacity:1; }\n"
		    "#matched { text-anchor:end; }\n"
		    ".hide { display:none; }\n"
		    "#frames > g { cursor:pointer; }\n"
		    "#frames > g:hover > rect { stroke:rgb(0,0,0); stroke-width:0.5; }\n"
		    "#frames > g.parent > rect { opacity:0.5; }\n"
		    "#frames text { pointer-events:none; }\n"
		    "</style>\n", o->fontsize, o->fontsize + 5);
}

static void controls(struct strbuf *sb, struct svg_layout *l, double width)
{
	const struct flamegraph_opts *o = l->o;
	const char *title = flamegraph_opts__title(o, l->st->diff);

	strbuf_addf(sb, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
		    "fill=\"url(#background)\"/>\n<text id=\"title\" x=\"%.1f\" y=\"%.1f\">",
		    width, l->height, width / 2, o->fontsize * 2);
	xml_escape(sb, title);
	strbuf_addstr(sb, "</text>\n");
	if (o->subtitle) {
		strbuf_addf(sb, "<text id=\"subtitle\" x=\"%.1f\" y=\"%.1f\">", width / 2,
			    o->fontsize * 4);
		xml_escape(sb, o->subtitle);
		strbuf_addstr(sb, "</text>\n");
	}
	strbuf_addf(sb, "<text id=\"details\" x=\"%.1f\" y=\"%.1f\"> </text>\n"
		    "<text id=\"unzoom\" class=\"hide\" x=\"%.1f\" y=\"%.1f\">Reset Zoom</text>\n"
		    "<text id=\"search\" x=\"%.1f\" y=\"%.1f\">Search</text>\n"
		    "<text id=\"ignorecase\" x=\"%.1f\" y=\"%.1f\">ic</text>\n"
		    "<text id=\"matched\" x=\"%.1f\" y=\"%.1f\"> </text>\n",
		    XPAD, l->height - l->ypad2 / 2, XPAD, o->fontsize * 2,
		    width - XPAD - 100, o->fontsize * 2, width - XPAD - 16, o->fontsize * 2,
		    width - XPAD, l->height - l->ypad2 / 2);
}

static void script(struct strbuf *sb, struct svg_layout *l, double width)
{
	const struct flamegraph_opts *o = l->o;

	strbuf_addf(sb, "<script type=\"text/ecmascript\"><![CDATA[\n"
		    "var fgConf = { xpad: %.1f, width: %.1f, fontsize: %.2f, fontwidth: %.3f, "
		    "inverted: %s, nametype: ", XPAD, width, o->fontsize, o->fontwidth,
		    o->inverted ? "true" : "false");
	json_string(sb, o->nametype);
	strbuf_addstr(sb, ", search: ");
	json_string(sb, o->search ? o->search : "");
	strbuf_addstr(sb, " };\n");
	strbuf_addstr(sb, svg_script);
	strbuf_addstr(sb, "]]></script>\n");
}

int flamegraph_svg_write(FILE *out, const struct stacks *st, const struct flamegraph_opts *o)
{
	struct stack_tree t;
	struct svg_layout l = { .st = st, .t = &t, .o = o, .rand = 0x9e3779b97f4a7c15ULL };
	struct strbuf sb = STRBUF_INIT;
	double width = o->width > 2 * XPAD + 1 ? o->width : 2 * XPAD + 1;
	int ret = 0;

	stack_tree__build(&t, st, !o->flamechart);
	l.per_unit = t.total[0] ? (width - 2 * XPAD) / (double)t.total[0] : 0;
	if (o->minwidth_percent)
		l.min_total = (uint64_t)ceil((double)t.total[0] * o->minwidth / 100);
	else
		l.min_total = l.per_unit > 0 ? (uint64_t)ceil(o->minwidth / l.per_unit) : 1;
	walk(&l, measure, NULL);
	l.ypad1 = o->fontsize * (o->subtitle ? 5 : 3);
	l.ypad2 = o->fontsize * 2 + 10;
	l.height = (l.max_depth + 1) * o->frame_height + l.ypad1 + l.ypad2;
	header(&sb, &l, width);
	script(&sb, &l, width);
	controls(&sb, &l, width);
	strbuf_addstr(&sb, "<g id=\"frames\">\n");
	if (t.total[0]) {
		walk(&l, draw, &sb);
	} else {
		strbuf_addf(&sb, "</g>\n<text x=\"%.1f\" y=\"%.1f\">No stack counts found</text>\n"
			    "<g>\n", width / 2 - 80, l.ypad1 + o->frame_height);
	}
	strbuf_addstr(&sb, "</g>\n</svg>\n");
	if (fwrite(sb.buf, 1, sb.len, out) != sb.len || fflush(out))
		ret = -1;
	strbuf_release(&sb);
	stack_tree__exit(&t);
	return ret;
}
