/* heatmap-html: writes the page (see heatmap-html.h). */
#include "ui/heatmap-html.h"

#include <inttypes.h>
#include <stdlib.h>

#include "core/analysis/heatmap.h"
#include "ui/heatmap-svg.h"
#include "ui/markup.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char html_script[] =
#include "heatmap-html.js.inc"
	;

static const char html_style[] =
#include "heatmap-html.css.inc"
	;

/* Numbers the distinct strings (comms, stacks; interned, so one pointer
 * each) in first-seen order and lists them as a JSON array. */
struct string_table {
	struct hashmap index;		/* interned pointer -> number + 1 */
	struct strbuf json;
	uint32_t nr;
};

static uint32_t string_number(struct string_table *t, const char *s)
{
	bool added;
	uint64_t *n = hashmap_u64_findnew(&t->index, (uint64_t)(uintptr_t)s, &added);

	if (added) {
		*n = ++t->nr;
		strbuf_addstr(&t->json, t->nr > 1 ? "," : "[");
		json_string(&t->json, s);
	}
	return (uint32_t)*n - 1;
}

static void add_table(struct strbuf *sb, const char *key, struct string_table *t)
{
	strbuf_addf(sb, "\"%s\":%s]", key, t->nr ? t->json.buf : "[");
}

/* How many events of one cell have one stack (-1: none), in first-seen
 * order: the flame graph counts every event, listed or not. */
struct cell_stack {
	int32_t cell, stack;
	uint64_t count;
};

struct cell_stacks {
	struct hashmap index;		/* cell << 32 | stack -> number in list */
	struct cell_stack *list;
	size_t nr, alloc;
};

static void cell_stacks__count(struct cell_stacks *cs, int32_t cell, int32_t stack)
{
	bool added;
	uint64_t *at = hashmap_u64_findnew(&cs->index, (uint64_t)(uint32_t)cell << 32 |
					   (uint32_t)stack, &added);

	if (added) {
		if (cs->nr == cs->alloc) {
			cs->alloc = cs->alloc ? 2 * cs->alloc : 256;
			cs->list = xrealloc(cs->list, cs->alloc * sizeof(*cs->list));
		}
		cs->list[cs->nr] = (struct cell_stack){ .cell = cell, .stack = stack };
		*at = cs->nr++;
	}
	cs->list[*at].count++;
}

static void cell_stacks__add_json(struct strbuf *sb, const struct cell_stacks *cs)
{
	strbuf_addstr(sb, "\"cellstacks\":[");
	for (size_t i = 0; i < cs->nr; i++)
		strbuf_addf(sb, "%s%d,%d,%" PRIu64, i ? "," : "", cs->list[i].cell,
			    cs->list[i].stack, cs->list[i].count);
	strbuf_addstr(sb, "],\n");
}

/* The events listed per cell, in time order (the first cell_events of
 * each): seconds from the map's start, latency, tid, comm and stack
 * numbers, and the cell. */
static void add_events(struct strbuf *sb, const struct heatmap_events *e,
		       const struct heatmap_grid *g, int cell_events)
{
	struct string_table comms = { .json = STRBUF_INIT }, stacks = { .json = STRBUF_INIT };
	struct strbuf t = STRBUF_INIT, lat = STRBUF_INIT, tid = STRBUF_INIT, comm = STRBUF_INIT,
		      stack = STRBUF_INIT, cell = STRBUF_INIT;
	struct cell_stacks cs = { 0 };
	uint32_t *listed = xcalloc((size_t)g->cols * (size_t)g->rows, sizeof(*listed));
	const char *sep = "";

	hashmap_init(&comms.index, sizeof(uint64_t));
	hashmap_init(&stacks.index, sizeof(uint64_t));
	hashmap_init(&cs.index, sizeof(uint64_t));
	for (size_t i = 0; i < e->nr; i++) {
		const struct heatmap_event *ev = &e->ev[i];
		int32_t stack_nr;

		if (g->cell[i] < 0)
			continue;
		stack_nr = ev->stack ? (int32_t)string_number(&stacks, ev->stack) : -1;
		cell_stacks__count(&cs, g->cell[i], stack_nr);
		if (listed[g->cell[i]] >= (uint32_t)cell_events)
			continue;
		listed[g->cell[i]]++;
		strbuf_addf(&t, "%s%.9f", sep, ev->time - g->t0);
		strbuf_addf(&lat, "%s%.9g", sep, ev->latency);
		strbuf_addf(&tid, "%s%d", sep, ev->tid);
		strbuf_addf(&comm, "%s%d", sep, ev->comm ? (int)string_number(&comms, ev->comm) : -1);
		strbuf_addf(&stack, "%s%d", sep, stack_nr);
		strbuf_addf(&cell, "%s%d", sep, g->cell[i]);
		sep = ",";
	}
	strbuf_addf(sb, "\"t\":[%s],\n\"lat\":[%s],\n\"tid\":[%s],\n\"comm\":[%s],\n"
		    "\"stack\":[%s],\n\"cell\":[%s],\n", t.buf ? t.buf : "", lat.buf ? lat.buf : "",
		    tid.buf ? tid.buf : "", comm.buf ? comm.buf : "", stack.buf ? stack.buf : "",
		    cell.buf ? cell.buf : "");
	cell_stacks__add_json(sb, &cs);
	add_table(sb, "comms", &comms);
	strbuf_addstr(sb, ",\n");
	add_table(sb, "stacks", &stacks);
	strbuf_addstr(sb, ",\n");
	free(listed);
	free(cs.list);
	hashmap_release(&cs.index);
	strbuf_release(&t);
	strbuf_release(&lat);
	strbuf_release(&tid);
	strbuf_release(&comm);
	strbuf_release(&stack);
	strbuf_release(&cell);
	hashmap_release(&comms.index);
	hashmap_release(&stacks.index);
	strbuf_release(&comms.json);
	strbuf_release(&stacks.json);
}

int heatmap_html_write(FILE *out, const struct heatmap_events *e, const struct heatmap_grid *g,
		       const struct heatmap_draw_opts *o)
{
	struct strbuf sb = STRBUF_INIT;

	html_page__start(&sb, "pcl heatmap", o->title, html_style);
	strbuf_addstr(&sb, "<div id=\"map\">\n");
	heatmap_svg_render(&sb, e, g, o);
	strbuf_addstr(&sb, "</div>\n<p id=\"hint\">Click a cell to list its events (shift-click: "
		      "more cells).</p>\n<div id=\"flame\"></div>\n<div id=\"listing\"></div>\n"
		      "<script id=\"pcl-data\" type=\"application/json\">{");
	strbuf_addf(&sb, "\"rows\":%d,\"stepsec\":%.9g,\"minlat\":%.9g,\"rowsize\":%.9g,"
		    "\"unit\":", g->rows, g->stepsec, g->minlat, g->rowsize);
	json_string(&sb, o->unitslat);
	strbuf_addstr(&sb, ",\n");
	add_events(&sb, e, g, o->cell_events);
	strbuf_addstr(&sb, "\"end\":true}");
	return html_page__finish(&sb, html_script, out);
}
