/* annotate-browser: perf 6.1's annotate browser (see annotate-browser.h).
 *
 * The screen is perf's: the event's title on the first line, the symbol's
 * on the second, then the annotation's lines as --stdio2 prints them (a
 * column of percentages, a vertical bar, offsets of jump targets, arrows,
 * the instructions), and a help line at the bottom.  The list behaves as
 * perf's: the hottest line is put mid-screen at start with no cursor
 * drawn, the first move key only shows the cursor, TAB walks the hot
 * lines from the hottest down, and a jump under the cursor is drawn as a
 * line to its target. */
#include "ui/annotate-browser.h"

#include <curses.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/annotate-insn.h"
#include "ui/annotate-stdio.h"
#include "ui/annotate-stdio2.h"
#include "ui/tui.h"
#include "util/util.h"

#define HELP_LINE "Press 'h' for help on key bindings"
/* perf's thresholds for the browsers' colours */
#define MIN_GREEN 0.5
#define MIN_RED 5.0

struct annotate_browser {
	struct dso *dso;
	struct symbol *sym;
	const struct annotate_browser_source *src;
	struct annotate_browser_opts *o;
	struct annotation a;
	struct annotate_insns v;
	long *idx_asm;		/* per line: its number among instructions, or -1 */
	size_t *asm_lines;	/* the instructions' line numbers */
	size_t nr_asm;
	size_t *hot;		/* the lines with samples, coolest first (perf's order) */
	size_t nr_hot;
	long curr_hot;		/* in hot[]: where H goes and TAB starts from, -1: none */
	size_t top, index;	/* the first shown and the selected entry */
	bool navkeypressed;	/* the cursor is drawn (after a move key) */
	/* after a callee's browser closes, perf writes the symbol's title
	 * over the event's and leaves the callee's below it, until 'p' or 'b'
	 * redraw them */
	char callee_title[512];
	char search[128];
	bool search_backwards;
	char helpline[256];
	bool full_addr;		/* 'f': addresses where the map puts them */
};

void annotate_browser_opts__init(struct annotate_browser_opts *o)
{
	*o = (struct annotate_browser_opts){ .percent_type = PERCENT_PERIOD_LOCAL,
					     .use_offset = true, .jump_arrows = true,
					     .offset_level = 1 };
}

/* --- the list: entries are every line, or the instructions alone --- */

static size_t nr_entries(const struct annotate_browser *b)
{
	return b->o->hide_src_code ? b->nr_asm : b->a.nr_lines;
}

static size_t line_of(const struct annotate_browser *b, size_t entry)
{
	return b->o->hide_src_code ? b->asm_lines[entry] : entry;
}

/* The entry showing line (an instruction when source is hidden). */
static size_t entry_of(const struct annotate_browser *b, size_t line)
{
	return b->o->hide_src_code ? (size_t)b->idx_asm[line] : line;
}

static int list_rows(void)
{
	return tui__rows() - 3;	/* two title lines and the help line */
}

static void help(struct annotate_browser *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void help(struct annotate_browser *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->helpline, sizeof(b->helpline), fmt, ap);
	va_end(ap);
}

/* Puts entry mid-screen and selects it (perf's set_top). */
static void set_top(struct annotate_browser *b, size_t entry)
{
	size_t back = (size_t)(tui__rows() - 2) / 2;

	b->index = entry;
	b->top = entry > back ? entry - back : 0;
	b->navkeypressed = true;
}

/* --- the hot lines, in the order of perf's red-black tree --- */

/* Hot lines coolest first: by their percentages, event after event; of
 * equals, the earlier line first (perf's tree puts the later one right). */
static int hot_order(const void *pa, const void *pb, void *arg)
{
	const struct annotate_browser *b = arg;
	size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
	enum annotate_percent t = b->o->percent_type;

	for (int e = 0; e < b->a.nr_data; e++) {
		double px = b->a.lines[x].data[e].percent[t], py = b->a.lines[y].data[e].percent[t];

		if (px != py)
			return px < py ? -1 : 1;
	}
	return x < y ? -1 : x > y;
}

static void find_hot_lines(struct annotate_browser *b)
{
	b->hot = xcalloc(b->a.nr_lines ? b->a.nr_lines : 1, sizeof(*b->hot));
	for (size_t i = 0; i < b->a.nr_lines; i++)
		if (b->a.lines[i].offset >= 0 &&
		    annotate_line__max_percent(&b->a, &b->a.lines[i], b->o->percent_type) >= 0.01)
			b->hot[b->nr_hot++] = i;
	qsort_r(b->hot, b->nr_hot, sizeof(*b->hot), hot_order, b);
	b->curr_hot = b->nr_hot ? (long)b->nr_hot - 1 : -1;
}

static void go_to_hot(struct annotate_browser *b, long pos)
{
	if (pos < 0)
		return;
	b->curr_hot = pos;
	set_top(b, entry_of(b, b->hot[pos]));
}

/* --- drawing --- */

static enum tui_color percent_color(const struct annotate_browser *b, double pct, bool current)
{
	if (current && b->navkeypressed)
		return TUI_SELECTED;
	if (pct >= MIN_RED)
		return TUI_TOP;
	if (pct >= MIN_GREEN)
		return TUI_MEDIUM;
	return TUI_NORMAL;
}

/* A row being written left to right, cut at its width. */
struct row {
	int y, x, width;
	enum tui_color color;
};

static void put(struct row *r, enum tui_color color, const char *text)
{
	int room = r->width - r->x, len = (int)strlen(text);
	char *cut;

	if (room <= 0)
		return;
	cut = xstrndup(text, (size_t)(len < room ? len : room));
	tui__write(r->y, r->x, color, false, cut);
	r->x += (int)strlen(cut);
	free(cut);
}

static void __attribute__((format(printf, 3, 4))) putf(struct row *r, enum tui_color color,
							const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(r, color, buf);
}

/* A glyph one column wide (UTF-8 when the terminal takes it). */
static void put_glyph(struct row *r, enum tui_color color, const char *glyph)
{
	if (r->x >= r->width)
		return;
	tui__write(r->y, r->x, color, false, glyph);
	r->x++;
}

static void pad(struct row *r)
{
	while (r->x < r->width)
		put(r, r->color, " ");
}

/* perf's column for 'J': the digits of the most jump sources a line has */
static int max_jump_sources(const struct annotate_browser *b)
{
	int max = 0;

	for (size_t i = 0; i < b->a.nr_lines; i++)
		if (b->v.jump_sources[i] > max)
			max = b->v.jump_sources[i];
	return max;
}

static int max_jump_width(const struct annotate_browser *b)
{
	int n = max_jump_sources(b);

	return n >= 100 ? 5 : n >= 10 ? 2 : 1;
}

static int pcnt_width(const struct annotate_browser *b)
{
	return (b->o->show_total_period ? 12 : 7) * b->a.nr_data;
}

/* The address of the symbol's start that 'o' shows: objdump's, or ('f')
 * where the sampled process's map put it. */
static uint64_t shown_start(const struct annotate_browser *b)
{
	return b->a.start + (b->full_addr ? b->src->unmap_shift : 0);
}

/* The address column: offsets by default, objdump's addresses after 'o'. */
static int addr_width(const struct annotate_browser *b)
{
	/* (perf gives full addresses a 64-bit address's width) */
	int w = b->o->use_offset ? b->v.addr_width : b->full_addr ? 16 :
		annotate_hex_width(b->a.start + (b->sym->end - b->sym->start));

	return w + (b->o->show_nr_jumps ? max_jump_width(b) + 1 : 0);
}

static void draw_instruction(struct annotate_browser *b, struct row *r, size_t i, bool current)
{
	const struct annotate_line *l = &b->a.lines[i];
	const struct annotate_insn *in = &b->v.insns[i];
	const struct annotate_browser_opts *o = b->o;
	bool addr_colored = !o->hide_src_code && (!current || !b->navkeypressed);
	enum tui_color addr_color = addr_colored ? TUI_ADDR : r->color;
	int width = b->v.addr_width;
	char text[2 * INSN_TEXT_MAX];
	const char *arrow;

	if (!o->use_offset) {
		putf(r, addr_color, "%" PRIx64 ": ", shown_start(b) + (uint64_t)l->offset);
	} else if ((b->v.jump_sources[i] && o->offset_level >= 1) ||
		   (in->kind == INSN_CALL && o->offset_level >= 2) || o->offset_level >= 3) {
		int nr = b->v.jump_sources[i];

		/* perf counts the jumps to targets only, calls go without */
		if (o->show_nr_jumps && nr)
			putf(r, current && b->navkeypressed ? TUI_SELECTED :
				nr == max_jump_sources(b) ? TUI_TOP :
				nr > 1 ? TUI_MEDIUM : TUI_NORMAL,
			     "%*d ", max_jump_width(b), nr);
		putf(r, addr_color, "%*" PRIx64 ": ", width, (uint64_t)l->offset);
	} else {
		putf(r, addr_color, "%-*s  ", addr_width(b), " ");
	}
	arrow = annotate_insn__arrow(in, l->offset);
	if (strcmp(arrow, "  ")) {
		char glyph[8];

		snprintf(glyph, sizeof(glyph), "%.*s", (int)strcspn(arrow, " "), arrow);
		put_glyph(r, r->color, tui__glyph(glyph));
		put(r, r->color, " ");
	} else {
		put(r, r->color, "  ");
	}
	if (o->use_offset)
		snprintf(text, sizeof(text), "%s", in->text);
	else
		snprintf(text, sizeof(text), "%-*s %s", b->v.max_name, in->name, in->raw);
	put(r, r->color, text);
}

static void draw_line(struct annotate_browser *b, int row, size_t entry)
{
	size_t i = line_of(b, entry);
	const struct annotate_line *l = &b->a.lines[i];
	bool current = entry == b->index;
	double max = annotate_line__max_percent(&b->a, l, b->o->percent_type);
	struct row r = { .y = row + 2, .width = tui__cols() - (b->navkeypressed ? 1 : 0) };

	if (l->offset >= 0 && max != 0) {
		for (int e = 0; e < b->a.nr_data; e++) {
			const struct annotate_data *d = &l->data[e];
			double pct = d->percent[b->o->percent_type];

			r.color = percent_color(b, pct, current);
			if (b->o->show_total_period)
				putf(&r, r.color, "%11" PRIu64 " ", d->period);
			else if (b->o->show_nr_samples)
				putf(&r, r.color, "%6" PRIu64 " ", d->nr_samples);
			else
				putf(&r, r.color, "%6.2f ", pct);
		}
	} else {
		r.color = percent_color(b, 0, current);
		putf(&r, r.color, "%-*s", pcnt_width(b),
		     row ? " " : b->o->show_total_period ? "Period" :
		     b->o->show_nr_samples ? "Samples" : "Percent");
	}
	put(&r, r.color, " ");
	if (l->offset >= 0)
		draw_instruction(b, &r, i, current);
	else if (l->text[0] && l->line_nr && b->o->show_linenr)
		putf(&r, r.color, "%-*d %s", addr_width(b) + 1, l->line_nr, l->text);
	else if (l->text[0])
		putf(&r, r.color, "%-*s  %s", addr_width(b), " ", l->text);
	pad(&r);
}

static void draw_vline(int col, int from_row, int to_row, enum tui_color color)
{
	for (int y = from_row; y <= to_row; y++)
		tui__write(y + 2, col, color, false, tui__glyph("│"));
}

/* Whether the recording's CPU runs insn and a following jump as one
 * (macro-fusion), by perf's rules for AMD and Intel x86. */
static bool fuses_with_jump(const char *cpuid, const char *insn)
{
	unsigned int family = 0, model = 0;
	char vendor[32] = "";

	if (!cpuid || sscanf(cpuid, "%31[^,],%u,%u", vendor, &family, &model) != 3)
		return false;
	if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) {
		static const char *const alu[] = { "add", "sub", "and", "inc", "dec", "or", "xor" };

		if (family >= 0x15 && (!strncmp(insn, "test", 4) ||
				       (!strncmp(insn, "cmp", 3) && !strstr(insn, "xchg"))))
			return true;
		for (size_t i = 0; family >= 0x19 && i < ARRAY_SIZE(alu); i++)
			if (!strncmp(insn, alu[i], strlen(alu[i])))
				return true;
		return false;
	}
	if (family != 6 || model < 0x1e)
		return false;
	if ((strstr(insn, "cmp") && !strstr(insn, "xchg")) || strstr(insn, "test"))
		return true;
	return model > 0x1e && (strstr(insn, "add") || strstr(insn, "sub") ||
				strstr(insn, "and") || strstr(insn, "inc") || strstr(insn, "dec"));
}

/* perf marks the instruction fused with the jump under the cursor: a tee
 * on the jump's line, joined to a corner on the fused one. */
static void draw_fused(struct annotate_browser *b, size_t cursor, int col, long from, long to)
{
	const struct annotate_insn *in = &b->v.insns[cursor], *prev;
	char locked[64];
	const char *name;
	long diff = 1, row, end_row, top = (long)b->top;
	size_t i = cursor;

	if (strstr(in->name, "jmp"))
		return;
	while (i > 0 && b->a.lines[i - 1].offset < 0) {
		i--;
		diff += !b->o->hide_src_code;
	}
	if (i-- == 0)
		return;
	prev = &b->v.insns[i];
	name = prev->name;
	if (prev->kind == INSN_LOCK) {
		snprintf(locked, sizeof(locked), "%.*s", (int)strcspn(prev->raw, " \t"), prev->raw);
		name = locked;
	}
	if (!fuses_with_jump(b->src->cpuid, name))
		return;
	row = from - diff;
	if (to > from) {
		if (row + diff <= top)
			return;
		end_row = row + diff - top;
		tui__write((int)end_row + 2, col, TUI_JUMP_ARROWS, false, tui__glyph("├"));
		while (--end_row >= 0 && end_row > row - top)
			draw_vline(col, (int)end_row, (int)end_row, TUI_JUMP_ARROWS);
		end_row = row - top;
		if (end_row < 0)
			return;
		tui__write((int)end_row + 2, col, TUI_JUMP_ARROWS, false, tui__glyph("┌"));
	} else {
		end_row = row - top;
		if (end_row < 0)
			return;
		tui__write((int)end_row + 2, col, TUI_JUMP_ARROWS, false, tui__glyph("├"));
	}
	tui__write((int)end_row + 2, col + 1, TUI_JUMP_ARROWS, false, tui__glyph("──"));
}

/* perf's line from a jump under the cursor to its target. */
static void draw_jump(struct annotate_browser *b)
{
	size_t cursor = line_of(b, b->index), target = SIZE_MAX;
	const struct annotate_insn *in = &b->v.insns[cursor];
	int col = pcnt_width(b) + 2 + addr_width(b), rows = list_rows();
	long from, to, top = (long)b->top, row, end_row;

	if (strstr(b->sym->name, "@plt") || b->a.lines[cursor].offset < 0 ||
	    !annotate_insn__local_jump(in, b->sym))
		return;
	for (size_t i = 0; i < b->a.nr_lines; i++)
		if (b->a.lines[i].offset == in->target_offset) {
			target = i;
			break;
		}
	if (target == SIZE_MAX) {
		help(b, "WARN: jump target inconsistency, press 'o', notes->offsets[%#" PRIx64
			"] = NULL", (uint64_t)in->target_offset);
		return;
	}
	from = (long)entry_of(b, cursor);
	to = (long)entry_of(b, target);
	if (from > to) {	/* up: from the jump's row to the target above */
		if (from < top + rows) {
			row = from - top;
			tui__write((int)row + 2, col, TUI_JUMP_ARROWS, false, tui__glyph("└"));
			tui__write((int)row + 2, col + 1, TUI_JUMP_ARROWS, false, tui__glyph("──"));
			row--;
		} else {
			row = rows - 1;
		}
		if (row < 0)
			goto fused;
		end_row = to > top ? to - top : 0;
		draw_vline(col, (int)end_row, (int)row, TUI_JUMP_ARROWS);
		if (to >= top) {
			tui__write((int)end_row + 2, col, TUI_JUMP_ARROWS, false, tui__glyph("┌"));
			tui__write((int)end_row + 2, col + 1, TUI_JUMP_ARROWS, false, tui__glyph("─→"));
		}
	} else {
		if (from >= top) {
			row = from - top;
			tui__write((int)row + 2, col, TUI_JUMP_ARROWS, false, tui__glyph("┌"));
			tui__write((int)row + 2, col + 1, TUI_JUMP_ARROWS, false, tui__glyph("──"));
			row++;
		} else {
			row = 0;
		}
		end_row = to >= top + rows ? rows - 1 : to - top;
		draw_vline(col, (int)row, (int)end_row, TUI_JUMP_ARROWS);
		if (to < top + rows) {
			tui__write((int)end_row + 2, col, TUI_JUMP_ARROWS, false, tui__glyph("└"));
			tui__write((int)end_row + 2, col + 1, TUI_JUMP_ARROWS, false, tui__glyph("─→"));
		}
	}
fused:
	draw_fused(b, cursor, col, from, to);
}

static void sym_title(const struct annotate_browser *b, const struct symbol *sym, char *buf,
		      size_t size)
{
	snprintf(buf, size, "%s  %s [Percent: %s]", sym->name, b->dso->long_name,
		 annotate_percent__name(b->o->percent_type));
}

static void draw(struct annotate_browser *b)
{
	int rows = list_rows(), height = tui__rows() - 2, shown = 0;
	size_t n = nr_entries(b);
	char title[1024];

	sym_title(b, b->sym, title, sizeof(title));
	tui__title("%s", b->callee_title[0] ? title : b->src->title);
	tui__write(1, 0, TUI_ROOT, true, b->callee_title[0] ? b->callee_title : title);
	for (int row = 0; row < rows && b->top + (size_t)row < n; row++, shown++)
		draw_line(b, row, b->top + (size_t)row);
	if (b->o->jump_arrows && b->index < n)
		draw_jump(b);
	draw_vline(pcnt_width(b), 0, rows - 1, TUI_NORMAL);
	/* rows past the end are cleared, the bar with them, as perf does */
	for (int row = shown; row < rows; row++) {
		struct row r = { .y = row + 2, .width = tui__cols() - (b->navkeypressed ? 1 : 0),
				 .color = TUI_NORMAL };

		pad(&r);
	}
	tui__status("%s", b->helpline);
	if (b->navkeypressed) {
		/* perf's scroll bar runs one row into the help line */
		int mark = n > 1 ? (int)(b->index * (size_t)(height - 1) / (n - 1)) : 0;

		for (int h = 0; h < height; h++)
			tui__write(h + 2, tui__cols() - 1, TUI_NORMAL, false,
				   tui__glyph(h == mark ? "◆" : "▒"));
	}
	tui__refresh();
}

/* --- keys --- */

static void move_cursor(struct annotate_browser *b, int key)
{
	size_t n = nr_entries(b), rows = (size_t)list_rows(), step;

	if (!n)
		return;
	switch (key) {
	case KEY_DOWN:
		if (b->index + 1 >= n)
			break;
		if (++b->index == b->top + rows)
			b->top++;
		break;
	case KEY_UP:
		if (!b->index)
			break;
		if (--b->index < b->top)
			b->top--;
		break;
	case KEY_NPAGE:
	case ' ':
		if (b->top + rows > n - 1)
			break;
		step = b->index + rows > n - 1 ? n - 1 - b->index : rows;
		b->index += step;
		b->top += step;
		break;
	case KEY_PPAGE:
		if (!b->top)
			break;
		step = b->top < rows ? b->top : rows;
		b->index -= step;
		b->top -= step;
		break;
	case KEY_HOME:
		b->index = b->top = 0;
		break;
	case KEY_END:
		step = rows - 1 >= n ? n - 1 : rows - 1;
		b->index = n - 1;
		b->top = b->index - step;
		break;
	}
}

static bool is_move_key(int key)
{
	return key == KEY_DOWN || key == KEY_UP || key == KEY_NPAGE || key == KEY_PPAGE ||
	       key == KEY_HOME || key == KEY_END || key == ' ';
}

/* 's': the selected line keeps its row when it can (perf's toggle). */
static void toggle_source(struct annotate_browser *b)
{
	size_t line = line_of(b, b->index), row = b->index - b->top;

	if (b->o->hide_src_code) {
		if ((size_t)b->idx_asm[line] < row)
			row = line;
		b->o->hide_src_code = false;
		b->top = line - row;
		b->index = line;
		help(b, HELP_LINE);
		return;
	}
	/* on a source line, the instruction after it */
	while (line < b->a.nr_lines && b->idx_asm[line] < 0)
		line++;
	if (line == b->a.nr_lines) {
		help(b, "Only available for assembly lines.");
		return;
	}
	if ((size_t)b->idx_asm[line] < row)
		row = (size_t)b->idx_asm[line];
	b->o->hide_src_code = true;
	b->top = (size_t)b->idx_asm[line] - row;
	b->index = (size_t)b->idx_asm[line];
	help(b, HELP_LINE);
}

/* The next entry after (or before) the cursor whose text holds the
 * search string. */
static bool search_next(struct annotate_browser *b)
{
	size_t n = nr_entries(b);

	for (size_t e = b->index; b->search_backwards ? e-- > 0 : ++e < n;)
		if (strstr(b->a.lines[line_of(b, e)].text, b->search)) {
			set_top(b, e);
			help(b, HELP_LINE);
			return true;
		}
	help(b, "String not found!");
	return false;
}

static void search(struct annotate_browser *b, bool backwards)
{
	char *s = tui__input("Search", "String: ");

	if (s && *s) {
		snprintf(b->search, sizeof(b->search), "%s", s);
		b->search_backwards = backwards;
		search_next(b);
	}
	free(s);
}

/* perf's help, its lines for the keys pcl has ('r' where offered). */
static void show_help(const struct annotate_browser *b)
{
	static const char *const keys[] = {
		"UP/DOWN/PGUP",
		"PGDN/SPACE    Navigate",
		"q/ESC/CTRL+C  Exit",
		"",
		"ENTER         Go to target",
		"ESC           Exit",
		"H             Go to hottest instruction",
		"TAB/shift+TAB Cycle thru hottest instructions",
		"j             Toggle showing jump to target arrows",
		"J             Toggle showing number of jump sources on targets",
		"n             Search next string",
		"o             Toggle disassembler output/simplified view",
		"O             Bump offset level (jump targets -> +call -> all -> cycle thru)",
		"s             Toggle source code view",
		"t             Circulate percent, total period, samples view",
		"c             Show min/max cycle",
		"/             Search string",
		"k             Toggle line numbers",
		"l             Show full source file location",
		"P             Print to [symbol_name].annotation file.",
		"r             Run available scripts",
		"p             Toggle percent type [local/global]",
		"b             Toggle percent base [period/hits]",
		"?             Search string backwards",
		"f             Toggle showing offsets to full address",
		"",
		"",
		"Press any key...",
	};
	const char *text[ARRAY_SIZE(keys)];
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (keys[i][0] != 'r' || b->src->scripts)
			text[n++] = keys[i];
	tui__message("Help", text, n);
}

/* 'l': where the selected source line comes from, on the help line. */
static void show_location(struct annotate_browser *b)
{
	const struct annotate_line *l = &b->a.lines[line_of(b, b->index)];

	if (l->offset >= 0)
		help(b, "Only available for source code lines.");
	else if (l->fileloc < 0)
		help(b, "No source file location.");
	else
		help(b, "Source file location: %s", b->a.filelocs[l->fileloc]);
}

/* 'P': the lines as --stdio2 prints them, in SYMBOL.annotation. */
static void dump(struct annotate_browser *b)
{
	struct annotate_print_opts po = { .percent_type = b->o->percent_type,
					  .show_total_period = b->o->show_total_period,
					  .show_nr_samples = b->o->show_nr_samples };
	char *path = xasprintf("%s.annotation", b->sym->name);
	FILE *fp = fopen(path, "w");

	if (fp) {
		fprintf(fp, "%s() %s\nEvent: %s\n\n", b->sym->name, b->dso->long_name,
			b->src->event_name);
		annotate_stdio2__print_lines(fp, &po, &b->a, b->dso, b->sym);
		fclose(fp);
	}
	free(path);
}

/* perf's 'p' (local/global) and 'b' (period/hits) */
static void switch_percent_type(struct annotate_browser_opts *o, bool base)
{
	static const enum annotate_percent local_global[] = {
		[PERCENT_HITS_LOCAL] = PERCENT_HITS_GLOBAL,
		[PERCENT_HITS_GLOBAL] = PERCENT_HITS_LOCAL,
		[PERCENT_PERIOD_LOCAL] = PERCENT_PERIOD_GLOBAL,
		[PERCENT_PERIOD_GLOBAL] = PERCENT_PERIOD_LOCAL,
	};
	static const enum annotate_percent period_hits[] = {
		[PERCENT_HITS_LOCAL] = PERCENT_PERIOD_LOCAL,
		[PERCENT_HITS_GLOBAL] = PERCENT_PERIOD_GLOBAL,
		[PERCENT_PERIOD_LOCAL] = PERCENT_HITS_LOCAL,
		[PERCENT_PERIOD_GLOBAL] = PERCENT_HITS_GLOBAL,
	};

	o->percent_type = base ? period_hits[o->percent_type] : local_global[o->percent_type];
}

/* A call's (or an outward jump's) function, in a browser of its own. */
static void annotate_callee(struct annotate_browser *b, const struct annotate_insn *in)
{
	struct symbol *target = annotate_insn__target_symbol(in, &b->a, b->dso, b->sym);

	if (!target) {
		help(b, "The called function was not found.");
		return;
	}
	annotate_browser__run(b->dso, target, b->src, b->o);
	sym_title(b, target, b->callee_title, sizeof(b->callee_title));
}

/* Enter or the right arrow; true when the browser is to close (on a
 * return instruction). */
static bool act(struct annotate_browser *b)
{
	size_t line = line_of(b, b->index);
	const struct annotate_line *l = &b->a.lines[line];
	const struct annotate_insn *in = &b->v.insns[line];

	if (l->offset < 0) {
		help(b, "Actions are only available for assembly lines.");
		return false;
	}
	if (in->kind == INSN_RET)
		return true;
	if (in->kind == INSN_JUMP && in->outside) {
		annotate_callee(b, in);
	} else if (in->kind == INSN_JUMP) {
		for (size_t i = 0; i < b->a.nr_lines; i++)
			if (b->a.lines[i].offset == in->target_offset) {
				set_top(b, entry_of(b, i));
				return false;
			}
		help(b, "Invalid jump offset: %" PRIx64, (uint64_t)in->target_offset);
	} else if (in->kind == INSN_OTHER) {
		help(b, "Actions are only available for function call/return & "
			"jump/branch instructions.");
	} else {
		/* perf looks for a called function behind every other
		 * instruction it parses, and finds one for calls only */
		annotate_callee(b, in);
	}
	return false;
}

static enum annotate_browser_exit run(struct annotate_browser *b)
{
	for (;;) {
		int key;

		draw(b);
		key = tui__getkey(-1);
		if (key == KEY_RESIZE || key == TUI_KEY_TIMEOUT || !nr_entries(b))
			continue;
		/* the first move only shows the cursor, where it is */
		if (is_move_key(key)) {
			if (b->navkeypressed)
				move_cursor(b, key);
			b->navkeypressed = true;
			continue;
		}
		switch (key) {
		case '\t':	/* the next cooler hot line, round to the hottest */
			if (b->curr_hot >= 0)
				go_to_hot(b, b->curr_hot ? b->curr_hot - 1 : (long)b->nr_hot - 1);
			break;
		case KEY_BTAB:
			if (b->curr_hot >= 0)
				go_to_hot(b, b->curr_hot + 1 < (long)b->nr_hot ? b->curr_hot + 1 : 0);
			break;
		case 'H':
			go_to_hot(b, b->curr_hot);
			break;
		case KEY_F(1):
		case 'h':
			show_help(b);
			break;
		case 'c':
			/* perf toggles its min/max cycle columns, shown from
			 * branch stacks' cycles, which pcl never has */
			help(b, "No min/max cycles: pcl's annotations have no branch cycles data");
			break;
		case 'f':
			b->full_addr = !b->full_addr;
			break;
		case 'r':
			if (b->src->scripts)
				script_menu__run(b->src->scripts, NULL, NULL);
			break;
		case 'k':
			b->o->show_linenr = !b->o->show_linenr;
			break;
		case 'l':
			show_location(b);
			break;
		case 's':
			toggle_source(b);
			break;
		case 'o':
			b->o->use_offset = !b->o->use_offset;
			break;
		case 'O':
			b->o->offset_level = b->o->offset_level >= 3 ? 1 : b->o->offset_level + 1;
			break;
		case 'j':
			b->o->jump_arrows = !b->o->jump_arrows;
			break;
		case 'J':
			b->o->show_nr_jumps = !b->o->show_nr_jumps;
			break;
		case '/':
			search(b, false);
			break;
		case '?':
			search(b, true);
			break;
		case 'n':
			if (b->search[0])
				search_next(b);
			else
				search(b, false);
			break;
		case 't':
			if (b->o->show_total_period) {
				b->o->show_total_period = false;
				b->o->show_nr_samples = true;
			} else if (b->o->show_nr_samples) {
				b->o->show_nr_samples = false;
			} else {
				b->o->show_total_period = true;
			}
			break;
		case 'p':
		case 'b':
			switch_percent_type(b->o, key == 'b');
			b->callee_title[0] = '\0';
			help(b, HELP_LINE);
			break;
		case 'P':
			dump(b);
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
		case KEY_RIGHT:
			if (act(b))
				return key == KEY_RIGHT ? ANNOTATE_BROWSER_NEXT : ANNOTATE_BROWSER_QUIT;
			break;
		case KEY_LEFT:
			return ANNOTATE_BROWSER_BACK;
		case TUI_KEY_ESC:
		case 'q':
		case TUI_KEY_CTRL('c'):
			return ANNOTATE_BROWSER_QUIT;
		}
	}
}

enum annotate_browser_exit annotate_browser__run(struct dso *dso, struct symbol *sym,
						 const struct annotate_browser_source *src,
						 struct annotate_browser_opts *opts)
{
	struct annotate_browser b = { .dso = dso, .sym = sym, .src = src, .o = opts };
	const struct annotated_sym *as = annotate_samples__find(src->samples, sym);
	struct annotated_sym none = { .dso = dso, .sym = sym };
	enum annotate_browser_exit ret;

	if (!src->file || tui__start() < 0)
		return ANNOTATE_BROWSER_ERROR;
	annotation__build(&b.a, src->file, src->dis, as ? as : &none, src->evidx,
			  src->nr_events, src->totals);
	annotate_insns__parse(&b.v, &b.a, dso, sym);
	b.idx_asm = xcalloc(b.a.nr_lines ? b.a.nr_lines : 1, sizeof(*b.idx_asm));
	b.asm_lines = xcalloc(b.a.nr_lines ? b.a.nr_lines : 1, sizeof(*b.asm_lines));
	for (size_t i = 0; i < b.a.nr_lines; i++) {
		b.idx_asm[i] = b.a.lines[i].offset < 0 ? -1 : (long)b.nr_asm;
		if (b.a.lines[i].offset >= 0)
			b.asm_lines[b.nr_asm++] = i;
	}
	snprintf(b.helpline, sizeof(b.helpline), HELP_LINE);
	find_hot_lines(&b);
	go_to_hot(&b, b.curr_hot);
	b.navkeypressed = false;
	ret = run(&b);
	free(b.hot);
	free(b.asm_lines);
	free(b.idx_asm);
	annotate_insns__release(&b.v);
	annotation__release(&b.a);
	return ret;
}
