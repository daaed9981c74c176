/* tui: the full-screen terminal layer shared by the browsers of report, top
 * and annotate (ncurses).  It owns the terminal: start and stop, restoring it
 * on every exit path (normal exit, q, SIGINT/SIGTERM, a crash), perf's colours
 * by percentage, the title and status lines, pop-up menus, help and message
 * boxes, and key reading with a timeout (top redraws between keys). */
#ifndef PCL_TUI_H
#define PCL_TUI_H

#include <stdbool.h>
#include <stddef.h>

/* colour pairs, perf's default colour set */
enum tui_color {
	TUI_NORMAL = 1,  /* plain text */
	TUI_TOP,         /* percentages from 5%: red */
	TUI_MEDIUM,      /* percentages above 0.5%: green */
	TUI_SELECTED,    /* the cursor line: black on yellow */
	TUI_ROOT,        /* title and status lines: white on blue */
	TUI_JUMP_ARROWS, /* annotate's jump arrows: blue */
	TUI_ADDR,        /* annotate's addresses: magenta */
};

/* keys tui__getkey() returns besides ncurses' KEY_* and plain characters */
#define TUI_KEY_TIMEOUT (-1)
#define TUI_KEY_ESC 27
#define TUI_KEY_CTRL(c) ((c) & 0x1f)

/* Whether a browser can run: stdin and stdout are terminals and TERM names
 * one ncurses knows (not "dumb"). */
bool tui__usable(void);

/* Takes over the terminal; -1 (with a message on stderr) when it cannot. */
int tui__start(void);
/* Gives the terminal back; safe to call twice and from the exit paths. */
void tui__stop(void);

int tui__rows(void);
int tui__cols(void);

/* The colour pair for a percentage, as perf: TUI_TOP, TUI_MEDIUM or TUI_NORMAL. */
enum tui_color tui__percent_color(double pct);

/* Prints text at (row, col), cut at the screen's right edge, padding the
 * rest of the line with blanks when fill is set. */
void tui__write(int row, int col, enum tui_color color, bool fill, const char *text);

/* tui__write() of a text holding perf's percentage colour escapes
 * (ESC[31m red, ESC[32m green, ESC[m back to base): each part in its pair;
 * with base TUI_SELECTED the whole line in it. */
void tui__write_colored(int row, int col, enum tui_color base, bool fill, const char *text);

/* The top (title) and bottom (status) lines, in TUI_ROOT colours. */
void tui__title(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tui__status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A line-drawing or arrow glyph ("│", "└", "↓", "▒", ...) as the terminal
 * shows it: the UTF-8 text itself, or an ASCII stand-in when the locale's
 * characters are not UTF-8. */
const char *tui__glyph(const char *utf8);

/* perf's scroll bar in the last column: height rows from first_row,
 * the diamond where index is among nr rows. */
void tui__scroll_bar(int first_row, int height, size_t index, size_t nr);

/* Shows what was drawn since the last refresh. */
void tui__refresh(void);

/* Work to do every period_ms while any wait for a key lasts longer (top
 * reads its rings under a dialog); fn NULL: none. */
void tui__set_idle(void (*fn)(void *ctx), void *ctx, int period_ms);

/* The next key, waiting at most timeout_ms (negative: forever).  Returns
 * TUI_KEY_TIMEOUT when none came and KEY_RESIZE after the terminal changed
 * size (the caller redraws). */
int tui__getkey(int timeout_ms);

/* A centred pop-up list; returns the chosen index, or -1 when left with
 * ESC, q, Ctrl-C or the left arrow. */
int tui__menu(const char *title, const char *const *entries, int nr_entries);

/* A full-screen list under a title, with a status line, starting at the
 * selected index; returns the chosen index, or TUI_LIST_BACK (ESC, left
 * arrow) or TUI_LIST_QUIT (q, Ctrl-C). */
#define TUI_LIST_BACK (-1)
#define TUI_LIST_QUIT (-2)
int tui__list(const char *title, const char *const *entries, int nr_entries, const char *status,
	      int selected);

/* tui__list() with more: every period_ms without a key, update(ctx) may
 * rewrite the entries' texts in place (true: they are drawn again);
 * left_stays: the left arrow does nothing (perf's menu of events). */
struct tui_list_opts {
	int period_ms;
	bool (*update)(void *ctx);
	void *ctx;
	bool left_stays;
};
int tui__list_with(const char *title, const char *const *entries, int nr_entries,
		   const char *status, int selected, const struct tui_list_opts *o);

/* Asks a yes/no question in a box: true for Enter (or y). */
bool tui__confirm(const char *question);

/* A centred box with lines of text that stays until a key is pressed. */
void tui__message(const char *title, const char *const *text_lines, int nr_text_lines);

/* Asks for a line of text in a box; returns a malloc'ed string, or NULL
 * when cancelled with ESC. */
char *tui__input(const char *title, const char *prompt);

/* Runs a shell command on the terminal, the screen handed over to it
 * meanwhile and taken back after (cleared: the caller draws it again). */
void tui__shell(const char *command);

#endif
