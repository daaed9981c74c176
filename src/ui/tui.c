/* tui: ncurses screen shared by the browsers (see tui.h). */
#include "ui/tui.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

static bool tui_active;
static struct termios saved_termios;
/* terminfo strings that undo the full-screen mode, fetched at start so a
 * signal handler can write them without calling into ncurses */
static char restore_seq[128];
static size_t restore_len;
/* tui__set_idle()'s */
static void (*idle_fn)(void *ctx);
static void *idle_ctx;
static int idle_period_ms;

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGSEGV, SIGBUS,
				     SIGABRT, SIGFPE };

bool tui__usable(void)
{
	const char *term = getenv("TERM");

	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term && *term &&
	       strcmp(term, "dumb") != 0;
}

static void append_restore(const char *capname)
{
	const char *seq = tigetstr(capname);
	size_t len;

	if (!seq || seq == (char *)-1)
		return;
	len = strlen(seq);
	if (restore_len + len < sizeof(restore_seq)) {
		memcpy(restore_seq + restore_len, seq, len);
		restore_len += len;
	}
}

/* Async-signal-safe: the saved terminal modes and the reset sequences only. */
static void restore_terminal_raw(void)
{
	ssize_t unused;

	tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
	unused = write(STDOUT_FILENO, restore_seq, restore_len);
	(void)unused;
}

static void on_fatal_signal(int sig)
{
	if (tui_active)
		restore_terminal_raw();
	tui_active = false;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void init_colors(void)
{
	if (!has_colors())
		return;
	start_color();
	use_default_colors();
	init_pair(TUI_NORMAL, -1, -1);
	init_pair(TUI_TOP, COLOR_RED, -1);
	init_pair(TUI_MEDIUM, COLOR_GREEN, -1);
	init_pair(TUI_SELECTED, COLOR_BLACK, COLOR_YELLOW);
	init_pair(TUI_ROOT, COLOR_WHITE, COLOR_BLUE);
	init_pair(TUI_JUMP_ARROWS, COLOR_BLUE, -1);
	init_pair(TUI_ADDR, COLOR_MAGENTA, -1);
}

static const struct {
	const char *seq;
	int key;
} ansi_keys[] = {
	{ "\033[A", KEY_UP },   { "\033[B", KEY_DOWN }, { "\033[C", KEY_RIGHT },
	{ "\033[D", KEY_LEFT }, { "\033[H", KEY_HOME }, { "\033[F", KEY_END },
	{ "\033OA", KEY_UP },   { "\033OB", KEY_DOWN }, { "\033OC", KEY_RIGHT },
	{ "\033OD", KEY_LEFT }, { "\033OH", KEY_HOME }, { "\033OF", KEY_END },
	{ "\033[5~", KEY_PPAGE }, { "\033[6~", KEY_NPAGE }, { "\033[Z", KEY_BTAB },
	{ "\033OP", KEY_F(1) },
};

int tui__start(void)
{
	if (tui_active)
		return 0;
	setlocale(LC_CTYPE, "");	/* ncursesw writes UTF-8 glyphs only so */
	if (tcgetattr(STDIN_FILENO, &saved_termios) < 0 || !initscr()) {
		fprintf(stderr, "cannot start the full-screen interface on this terminal; use --stdio\n");
		return -1;
	}
	restore_len = 0;
	append_restore("cnorm");
	append_restore("sgr0");
	append_restore("rmcup");
	tui_active = true;
	atexit(tui__stop);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		signal(fatal_signals[i], on_fatal_signal);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	/* the cursor keys as terminals send them outside keypad mode too
	 * (terminfo knows one form only) */
	for (size_t i = 0; i < sizeof(ansi_keys) / sizeof(ansi_keys[0]); i++)
		define_key(ansi_keys[i].seq, ansi_keys[i].key);
	set_escdelay(25);
	curs_set(0);
	init_colors();
	erase();
	return 0;
}

void tui__stop(void)
{
	if (!tui_active)
		return;
	tui_active = false;
	endwin();
	fflush(stdout);
}

void tui__shell(const char *command)
{
	int status;

	def_prog_mode();
	endwin();
	fflush(stdout);
	status = system(command);
	(void)status;	/* what it said is on the screen it had */
	reset_prog_mode();
	clear();
	refresh();
}

int tui__rows(void)
{
	return LINES;
}

int tui__cols(void)
{
	return COLS;
}

enum tui_color tui__percent_color(double pct)
{
	if (pct >= 5.0)
		return TUI_TOP;
	if (pct > 0.5)
		return TUI_MEDIUM;
	return TUI_NORMAL;
}

/* Writes text cut at room columns: counted in characters, so that UTF-8
 * glyphs are not cut in their middle. */
static void write_cut(int row, int col, const char *text, int room)
{
	size_t len = strlen(text) + 1;
	wchar_t *wide = malloc(len * sizeof(*wide));

	if (wide && mbstowcs(wide, text, len) != (size_t)-1)
		mvaddnwstr(row, col, wide, room);
	else
		mvaddnstr(row, col, text, room);
	free(wide);
}

void tui__write(int row, int col, enum tui_color color, bool fill, const char *text)
{
	int room = COLS - col;

	if (row < 0 || row >= LINES || room <= 0)
		return;
	attron(COLOR_PAIR(color));
	write_cut(row, col, text, room);
	if (fill) {
		int y, x;

		getyx(stdscr, y, x);
		if (y == row)
			for (; x < COLS; x++)
				addch(' ');
	}
	attroff(COLOR_PAIR(color));
}

static void vline_at(int row, const char *fmt, va_list ap)
{
	char *text;

	if (vasprintf(&text, fmt, ap) < 0)
		return;
	tui__write(row, 0, TUI_ROOT, true, text);
	free(text);
}

void tui__title(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline_at(0, fmt, ap);
	va_end(ap);
}

void tui__status(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline_at(LINES - 1, fmt, ap);
	va_end(ap);
}

const char *tui__glyph(const char *utf8)
{
	static const struct {
		const char *utf8, *ascii;
	} stand_ins[] = {
		{ "│", "|" }, { "─", "-" }, { "──", "--" }, { "─→", "->" }, { "┌", "+" },
		{ "└", "+" }, { "├", "+" }, { "↓", "v" },   { "↑", "^" },   { "→", ">" },
		{ "←", "<" }, { "▒", "#" }, { "◆", "*" },
	};

	if (!strcmp(nl_langinfo(CODESET), "UTF-8"))
		return utf8;
	for (size_t i = 0; i < sizeof(stand_ins) / sizeof(stand_ins[0]); i++)
		if (!strcmp(utf8, stand_ins[i].utf8))
			return stand_ins[i].ascii;
	return "?";
}

void tui__refresh(void)
{
	refresh();
}

void tui__set_idle(void (*fn)(void *ctx), void *ctx, int period_ms)
{
	idle_fn = fn;
	idle_ctx = ctx;
	idle_period_ms = period_ms;
}

int tui__getkey(int timeout_ms)
{
	int key;

	for (;;) {
		/* a longer wait is cut into idle periods, the idle work between */
		bool idle = idle_fn && (timeout_ms < 0 || timeout_ms > idle_period_ms);

		timeout(idle ? idle_period_ms : timeout_ms);
		key = getch();
		if (key != ERR || !idle)
			break;
		idle_fn(idle_ctx);
		if (timeout_ms > 0)
			timeout_ms -= idle_period_ms;
	}
	if (key == ERR)
		return TUI_KEY_TIMEOUT;
	/* terminals keep different parts of a resized screen: repaint it all */
	if (key == KEY_RESIZE)
		clearok(curscr, TRUE);
	return key;
}

/* A frame of line-drawing glyphs (perf's, whatever the terminal's
 * alternate character set) in win. */
static void draw_frame(WINDOW *win, int y, int x, int height, int width)
{
	for (int col = x + 1; col < x + width - 1; col++) {
		mvwaddstr(win, y, col, tui__glyph("─"));
		mvwaddstr(win, y + height - 1, col, tui__glyph("─"));
	}
	for (int row = y + 1; row < y + height - 1; row++) {
		mvwaddstr(win, row, x, tui__glyph("│"));
		mvwaddstr(win, row, x + width - 1, tui__glyph("│"));
	}
	mvwaddstr(win, y, x, tui__glyph("┌"));
	mvwaddstr(win, y, x + width - 1, tui__glyph("┐"));
	mvwaddstr(win, y + height - 1, x, tui__glyph("└"));
	mvwaddstr(win, y + height - 1, x + width - 1, tui__glyph("┘"));
}

/* A box of height rows and width columns centred on the screen as perf
 * places its boxes, the title after the top left corner. */
static WINDOW *centred_box(int height, int width, const char *title)
{
	WINDOW *win;

	if (width > COLS)
		width = COLS;
	if (height > LINES)
		height = LINES;
	win = newwin(height, width, LINES / 2 - height / 2, COLS / 2 - width / 2);
	if (!win)
		return NULL;
	keypad(win, TRUE);
	draw_frame(win, 0, 0, height, width);
	if (title)
		mvwaddnstr(win, 0, 2, title, width - 3);
	return win;
}

/* perf's box width: its widest text line between the borders. */
static int widest(const char *title, const char *const *text_lines, int nr)
{
	int width = title ? (int)strlen(title) + 4 : 0;

	for (int i = 0; i < nr; i++)
		if ((int)strlen(text_lines[i]) + 2 > width)
			width = (int)strlen(text_lines[i]) + 2;
	return width;
}

static void close_box(WINDOW *win)
{
	delwin(win);
	touchwin(stdscr);
	refresh();
}

/* Up, down (both wrapping), Home and End in a list: true when key moved
 * *selected. */
static bool list_move(int key, int *selected, int nr_entries)
{
	switch (key) {
	case KEY_UP:
		*selected = *selected > 0 ? *selected - 1 : nr_entries - 1;
		return true;
	case KEY_DOWN:
		*selected = *selected + 1 < nr_entries ? *selected + 1 : 0;
		return true;
	case KEY_HOME:
		*selected = 0;
		return true;
	case KEY_END:
		*selected = nr_entries - 1;
		return true;
	}
	return false;
}

int tui__menu(const char *title, const char *const *entries, int nr_entries)
{
	int height = nr_entries + 2, selected = 0, top = 0;
	WINDOW *win = centred_box(height, widest(title, entries, nr_entries), title);

	if (!win)
		return -1;
	for (;;) {
		int visible, width, key;

		getmaxyx(win, visible, width);
		visible -= 2;
		if (selected < top)
			top = selected;
		if (selected >= top + visible)
			top = selected - visible + 1;
		for (int i = 0; i < visible && top + i < nr_entries; i++) {
			int pair = top + i == selected ? TUI_SELECTED : TUI_NORMAL;

			wattron(win, COLOR_PAIR(pair));
			mvwprintw(win, i + 1, 1, " %-*.*s", width - 3, width - 3, entries[top + i]);
			wattroff(win, COLOR_PAIR(pair));
		}
		wrefresh(win);
		key = wgetch(win);
		if (list_move(key, &selected, nr_entries))
			continue;
		switch (key) {
		case '\n':
		case '\r':
		case KEY_ENTER:
		case KEY_RIGHT:
			close_box(win);
			return selected;
		case TUI_KEY_ESC:
		case 'q':
		case KEY_LEFT:
		case TUI_KEY_CTRL('c'):
			close_box(win);
			return -1;
		}
	}
}

void tui__message(const char *title, const char *const *text_lines, int nr_text_lines)
{
	WINDOW *win = centred_box(nr_text_lines + 2, widest(title, text_lines, nr_text_lines), title);

	if (!win)
		return;
	for (int i = 0; i < nr_text_lines; i++)
		mvwaddnstr(win, i + 1, 1, text_lines[i], COLS - 2);
	wrefresh(win);
	wgetch(win);
	close_box(win);
}

char *tui__input(const char *title, const char *prompt)
{
	/* perf's layout: the prompt's lines, a framed field, the keys */
	enum { MIN_TEXT = 60, FIELD_ROW = 3 };
	const char *keys = "ENTER: OK, ESC: Cancel";
	int nr_lines = 1, text = MIN_TEXT, width, field;
	char buf[256] = "";
	size_t len = 0;
	WINDOW *win;

	for (const char *p = prompt, *nl; p; p = nl ? nl + 1 : NULL, nr_lines += !!nl) {
		nl = strchr(p, '\n');
		if ((int)(nl ? (size_t)(nl - p) : strlen(p)) > text)
			text = (int)(nl ? (size_t)(nl - p) : strlen(p));
	}
	width = text + 2;
	if (!(win = centred_box(nr_lines + 8, width, title)))
		return NULL;
	for (int i = 0, at = 0; i < nr_lines; i++) {
		int n = (int)strcspn(prompt + at, "\n");

		mvwaddnstr(win, i + 1, 1, prompt + at, n < width - 2 ? n : width - 2);
		at += n + 1;
	}
	draw_frame(win, nr_lines + 2, 2, 3, width - 4);
	mvwaddnstr(win, nr_lines + 6, 1, keys, width - 2);
	field = width - 6;
	curs_set(1);
	for (;;) {
		int key;

		mvwprintw(win, nr_lines + FIELD_ROW, 3, "%-*.*s", field, field,
			  len > (size_t)field - 1 ? buf + len - (size_t)(field - 1) : buf);
		wmove(win, nr_lines + FIELD_ROW, 3 + (int)(len < (size_t)field ? len : (size_t)field - 1));
		wrefresh(win);
		key = wgetch(win);
		if (key == TUI_KEY_ESC || key == TUI_KEY_CTRL('c')) {
			curs_set(0);
			close_box(win);
			return NULL;
		}
		if (key == '\n' || key == '\r' || key == KEY_ENTER)
			break;
		if ((key == KEY_BACKSPACE || key == 127 || key == '\b') && len > 0)
			buf[--len] = '\0';
		else if (key >= ' ' && key < 127 && len + 1 < sizeof(buf))
			buf[len++] = (char)key, buf[len] = '\0';
	}
	curs_set(0);
	close_box(win);
	return strdup(buf);
}

/* Colour pair of an SGR code in a text: perf's percentage colours. */
static enum tui_color sgr_color(const char *params, enum tui_color base)
{
	int code = atoi(params);

	if (base == TUI_SELECTED)
		return base;
	return code == 31 ? TUI_TOP : code == 32 ? TUI_MEDIUM : base;
}

void tui__write_colored(int row, int col, enum tui_color base, bool fill, const char *text)
{
	enum tui_color color = base;
	int x = col;

	while (*text && x < COLS) {
		size_t plain = strcspn(text, "\033");
		char *chunk;

		if (!plain) {
			const char *end = text + 1;

			if (*end == '[')
				while (*++end && *end != 'm')
					;
			if (text[1] == '[')
				color = sgr_color(text + 2, base);
			text = *end ? end + 1 : end;
			continue;
		}
		chunk = strndup(text, plain);
		if (chunk)
			tui__write(row, x, color, false, chunk);
		free(chunk);
		x += (int)plain;
		text += plain;
	}
	if (fill && x < COLS)
		tui__write(row, x, base, true, "");
}

void tui__scroll_bar(int first_row, int height, size_t index, size_t nr)
{
	size_t mark = nr > 1 && height > 0 ? index * (size_t)(height - 1) / (nr - 1) : 0;

	for (int h = 0; h < height; h++)
		tui__write(first_row + h, COLS - 1, TUI_NORMAL, false,
			   tui__glyph((size_t)h == mark ? "◆" : "▒"));
}

int tui__list(const char *title, const char *const *entries, int nr_entries, const char *status,
	      int selected)
{
	static const struct tui_list_opts plain;

	return tui__list_with(title, entries, nr_entries, status, selected, &plain);
}

int tui__list_with(const char *title, const char *const *entries, int nr_entries,
		   const char *status, int selected, const struct tui_list_opts *o)
{
	int top = 0;
	bool draw = true;

	if (selected < 0 || selected >= nr_entries)
		selected = 0;
	for (;;) {
		int visible = LINES - 2, key;

		if (selected < top)
			top = selected;
		if (visible > 0 && selected >= top + visible)
			top = selected - visible + 1;
		if (draw) {
			erase();
			tui__title("%s", title ? title : "");
			for (int i = 0; i < visible && top + i < nr_entries; i++)
				tui__write(i + 1, 0, top + i == selected ? TUI_SELECTED : TUI_NORMAL,
					   true, entries[top + i]);
			tui__status("%s", status ? status : "");
			tui__scroll_bar(1, visible, (size_t)selected, (size_t)nr_entries);
			refresh();
		}
		draw = true;
		key = tui__getkey(o->update ? o->period_ms : -1);
		if (key == TUI_KEY_TIMEOUT) {
			draw = o->update(o->ctx);
			continue;
		}
		if (key == KEY_LEFT && o->left_stays)
			continue;
		if (list_move(key, &selected, nr_entries))
			continue;
		switch (key) {
		case KEY_NPAGE:		/* a page, screen and cursor, none past the end */
		case ' ':
			if (top + visible < nr_entries) {
				int step = selected + visible >= nr_entries ?
					   nr_entries - 1 - selected : visible;

				selected += step;
				top += step;
			}
			break;
		case KEY_PPAGE:
			if (top > 0) {
				int step = top < visible ? top : visible;

				selected -= step;
				top -= step;
			}
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
		case KEY_RIGHT:
			return selected;
		case TUI_KEY_ESC:
		case KEY_LEFT:
			return TUI_LIST_BACK;
		case 'q':
		case TUI_KEY_CTRL('c'):
			return TUI_LIST_QUIT;
		}
	}
}

bool tui__confirm(const char *question)
{
	const char *text[] = { question, "", "Enter: Yes, ESC: No" };
	WINDOW *win = centred_box(5, widest(NULL, text, 3), NULL);
	int key;

	if (!win)
		return false;
	for (int i = 0; i < 3; i++)
		mvwaddnstr(win, i + 1, 1, text[i], COLS - 2);
	wrefresh(win);
	do
		key = wgetch(win);
	while (key != '\n' && key != '\r' && key != KEY_ENTER && key != 'y' && key != 'Y' &&
	       key != TUI_KEY_ESC && key != 'n' && key != 'N' && key != 'q' && key != ERR);
	close_box(win);
	return key == '\n' || key == '\r' || key == KEY_ENTER || key == 'y' || key == 'Y';
}
