/* timechart-svg: perf's timechart SVG (see timechart-svg.h). */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/timechart.h"
#include "ui/markup.h"
#include "ui/timechart-svg.h"
#include "util/strbuf.h"

#define ROW 30.0		/* a row's pitch */
#define BAR 25.0		/* a bar's height in its row */
#define HALF_BAR (BAR / 2)
#define MIN_TEXT 0.01		/* smaller text is left out */

static const char html_script[] =
#include "timechart-html.js.inc"
	;

struct svg {
	FILE *f;
	struct strbuf buf;	/* output not yet written to f */
	struct strbuf duration;	/* duration_text's */
	uint64_t first, last;	/* the time range, its start down to 100 ms */
	int width;
	uint64_t height;
	const int *cpu_position;
	uint64_t max_freq, turbo_freq;
	const struct timechart_svg_opts *o;
};

/* A chart has a few numbers per element and up to millions of elements:
 * they are formatted without printf's cost and written in large blocks. */
static void flush_output(struct svg *s)
{
	fwrite_unlocked(s->buf.buf, 1, s->buf.len, s->f);
	strbuf_reset(&s->buf);
}

static void out(struct svg *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(struct svg *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf_fast(&s->buf, fmt, ap);
	va_end(ap);
	if (s->buf.len >= 65536)
		flush_output(s);
}

static void out_str(struct svg *s, const char *text)
{
	out(s, "%s", text);
}

static double px(const struct svg *s, uint64_t t)
{
	/* unsigned differences, as perf computes them (a time before the
	 * range lands far to the right) */
	return 1.0 * s->width * (double)(t - s->first) / (double)(s->last - s->first);
}

static double cpu_y(const struct svg *s, int cpu)
{
	int slot = s->cpu_position ? s->cpu_position[cpu] : cpu;

	return (2 * slot + 1) * ROW;
}

/* Text sizes come in halvings of 10pt, so viewers render few fonts. */
static double round_text_size(double size)
{
	double step = 10.0;

	if (size >= 10.0)
		return size;
	for (int i = 0; i < 100; i++, step /= 2.0)
		if (size >= step)
			return step;
	return size;
}

/* "1.5 ms", "3.0 us" or "" for an interval; valid until the next call */
static const char *duration_text(struct svg *s, uint64_t ns)
{
	strbuf_reset(&s->duration);
	if (ns >= 1000000) {
		strbuf_add_fixed(&s->duration, 0, 1, ns / 1000000.0);
		strbuf_addstr(&s->duration, " ms");
	} else if (ns >= 1000) {
		strbuf_add_fixed(&s->duration, 0, 1, ns / 1000.0);
		strbuf_addstr(&s->duration, " us");
	}
	return strbuf_str(&s->duration);
}

static void header(struct svg *s, int cpus, int rows)
{
	static const char *const styles[] = {
		"rect          { stroke-width: 1; }\n",
		"rect.process  { fill:rgb(180,180,180); fill-opacity:0.9; "
			"stroke-width:1;   stroke:rgb(  0,  0,  0); } \n",
		"rect.process2 { fill:rgb(180,180,180); fill-opacity:0.9; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.process3 { fill:rgb(180,180,180); fill-opacity:0.5; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.sample   { fill:rgb(  0,  0,255); fill-opacity:0.8; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.sample_hi{ fill:rgb(255,128,  0); fill-opacity:0.8; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.error    { fill:rgb(255,  0,  0); fill-opacity:0.5; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.net      { fill:rgb(  0,128,  0); fill-opacity:0.5; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.disk     { fill:rgb(  0,  0,255); fill-opacity:0.5; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.sync     { fill:rgb(128,128,  0); fill-opacity:0.5; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.poll     { fill:rgb(  0,128,128); fill-opacity:0.2; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.blocked  { fill:rgb(255,  0,  0); fill-opacity:0.5; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.waiting  { fill:rgb(224,214,  0); fill-opacity:0.8; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.WAITING  { fill:rgb(255,214, 48); fill-opacity:0.6; "
			"stroke-width:0;   stroke:rgb(  0,  0,  0); } \n",
		"rect.cpu      { fill:rgb(192,192,192); fill-opacity:0.2; "
			"stroke-width:0.5; stroke:rgb(128,128,128); } \n",
		"rect.pstate   { fill:rgb(128,128,128); fill-opacity:0.8; stroke-width:0; } \n",
		"rect.c1       { fill:rgb(255,214,214); fill-opacity:0.5; stroke-width:0; } \n",
		"rect.c2       { fill:rgb(255,172,172); fill-opacity:0.5; stroke-width:0; } \n",
		"rect.c3       { fill:rgb(255,130,130); fill-opacity:0.5; stroke-width:0; } \n",
		"rect.c4       { fill:rgb(255, 88, 88); fill-opacity:0.5; stroke-width:0; } \n",
		"rect.c5       { fill:rgb(255, 44, 44); fill-opacity:0.5; stroke-width:0; } \n",
		"rect.c6       { fill:rgb(255,  0,  0); fill-opacity:0.5; stroke-width:0; } \n",
		"line.pstate   { stroke:rgb(255,255,  0); stroke-opacity:0.8; stroke-width:2; } \n",
	};
	/* at least 200 units per second of a long recording */
	int wide = (int)((s->last - s->first) / 5000000);

	if (wide > s->width)
		s->width = wide;
	s->height = (uint64_t)((1 + rows + (2 * cpus + 1)) * ROW);
	out_str(s, "<?xml version=\"1.0\" standalone=\"no\"?> \n"
	      "<!DOCTYPE svg SYSTEM \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n");
	out(s, "<svg width=\"%i\" height=\"%" PRIu64 "\" version=\"1.1\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", s->width, s->height);
	out_str(s, "<defs>\n  <style type=\"text/css\">\n    <![CDATA[\n");
	for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
		out(s, "      %s", styles[i]);
	out_str(s, "    ]]>\n   </style>\n</defs>\n");
}

/* A line every 10 ms, stronger each 100 ms and each second. */
static void time_grid(struct svg *s, double min_thickness)
{
	for (uint64_t t = s->first; t < s->last; t += 10000000) {
		int grey = 220;
		double thickness = 0.075;

		if (t % 100000000 == 0) {
			thickness = 0.5;
			grey = 192;
		}
		if (t % 1000000000 == 0) {
			thickness = 2.0;
			grey = 128;
		}
		if (thickness < min_thickness)
			continue;
		out(s, "<line x1=\"%.8f\" y1=\"%.2f\" x2=\"%.8f\" y2=\"%" PRIu64 "\" "
			"style=\"stroke:rgb(%i,%i,%i);stroke-width:%.3f\"/>\n",
			px(s, t), ROW / 2, px(s, t), s->height, grey, grey, grey, thickness);
	}
}

static void legend(struct svg *s, const int *x, const char *const *text,
		   const char *const *style, size_t n)
{
	double box = BAR / 2;

	out_str(s, "<g>\n");
	for (size_t i = 0; i < n; i++) {
		out(s, "<rect x=\"%i\" width=\"%.8f\" y=\"0\" height=\"%.1f\" "
			"class=\"%s\"/>\n", x[i], box, box, style[i]);
		out(s, "<text transform=\"translate(%.8f, %.8f)\" "
			"font-size=\"%.8fpt\">%s</text>\n",
			x[i] + box + 5, box, 0.8 * box, text[i]);
	}
	out_str(s, "</g>\n");
}

static void box(struct svg *s, int row, uint64_t start, uint64_t end, const char *style)
{
	out(s, "<rect x=\"%.8f\" width=\"%.8f\" y=\"%.1f\" height=\"%.1f\" class=\"%s\"/>\n",
		px(s, start), px(s, end) - px(s, start), row * ROW, BAR, style);
}

static void row_text(struct svg *s, int row, uint64_t start, const char *text)
{
	out(s, "<text x=\"%.8f\" y=\"%.8f\">%s</text>\n", px(s, start), row * ROW + BAR / 2,
		text);
}

static void cpu_box(struct svg *s, int cpu)
{
	out_str(s, "<g>\n");
	out(s, "<rect x=\"%.8f\" width=\"%.8f\" y=\"%.1f\" height=\"%.1f\" "
		"class=\"cpu\"/>\n", px(s, s->first), px(s, s->last) - px(s, s->first),
		cpu_y(s, cpu), ROW + BAR);
	out(s, "<text x=\"%.8f\" y=\"%.8f\">CPU %i</text>\n", 10 + px(s, s->first),
		cpu_y(s, cpu) + BAR / 2, cpu);
	out(s, "<text transform=\"translate(%.8f,%.8f)\" font-size=\"1.25pt\">%s</text>\n",
		10 + px(s, s->first), cpu_y(s, cpu) + ROW + BAR - 4, s->o->cpu_model);
	out_str(s, "</g>\n");
}

/* A task's run in its CPU's box. */
static void cpu_run(struct svg *s, const struct tc_interval *i, int pid, const char *name)
{
	const struct timechart_svg_opts *o = s->o;
	const char *style = "sample";
	double w = px(s, i->end) - px(s, i->start), size;
	if ((o->highlight_ns && i->end - i->start >= o->highlight_ns) ||
	    (o->highlight_name && name && strstr(name, o->highlight_name)))
		style = "sample_hi";
	if (!name)
		name = "(null)";
	out(s, "<g transform=\"translate(%.8f,%.8f)\">\n", px(s, i->start),
		cpu_y(s, i->cpu));
	out(s, "<title>%d %s running %s</title>\n", pid, name,
		duration_text(s, i->end - i->start));
	if (i->backtrace)
		out(s, "<desc>Switched because:\n%s</desc>\n", i->backtrace);
	out(s, "<rect x=\"0\" width=\"%.8f\" y=\"0\" height=\"%.1f\" class=\"%s\"/>\n", w,
		ROW + BAR, style);
	size = round_text_size(w > 6 ? 6 : w);
	if (size > MIN_TEXT)
		out(s, "<text transform=\"rotate(90)\" font-size=\"%.8fpt\">%s</text>\n",
			size, name);
	out_str(s, "</g>\n");
}

static void task_running(struct svg *s, int row, const struct tc_interval *i)
{
	double size = px(s, i->end) - px(s, i->start);
	out_str(s, "<g>\n");
	out(s, "<title>#%d running %s</title>\n", i->cpu,
		duration_text(s, i->end - i->start));
	if (i->backtrace)
		out(s, "<desc>Switched because:\n%s</desc>\n", i->backtrace);
	box(s, row, i->start, i->end,
	    s->o->highlight_ns && i->end - i->start > s->o->highlight_ns ? "sample_hi" : "sample");
	if (i->cpu > 9)		/* two digits */
		size /= 2;
	size = round_text_size(size > 1.25 ? 1.25 : size);
	if (size > MIN_TEXT)
		out(s, "<text x=\"%.8f\" y=\"%.8f\" font-size=\"%.8fpt\">%i</text>\n",
			px(s, i->start), row * ROW + BAR - 1, size, i->cpu + 1);
	out_str(s, "</g>\n");
}

static void task_blocked(struct svg *s, int row, const struct tc_interval *i)
{
	out_str(s, "<g>\n");
	out(s, "<title>#%d blocked %s</title>\n", i->cpu,
		duration_text(s, i->end - i->start));
	if (i->backtrace)
		out(s, "<desc>Blocked on:\n%s</desc>\n", i->backtrace);
	box(s, row, i->start, i->end, "blocked");
	out_str(s, "</g>\n");
}

static void task_waiting(struct svg *s, int row, const struct tc_interval *i)
{
	double w = px(s, i->end) - px(s, i->start);
	double size = round_text_size(w > 3 ? 3 : w);
	const char *duration = duration_text(s, i->end - i->start);
	out(s, "<g transform=\"translate(%.8f,%.8f)\">\n", px(s, i->start), row * ROW);
	out(s, "<title>#%d waiting %s</title>\n", i->cpu, duration);
	if (i->backtrace)
		out(s, "<desc>Waiting on:\n%s</desc>\n", i->backtrace);
	out(s, "<rect x=\"0\" width=\"%.8f\" y=\"0\" height=\"%.1f\" class=\"%s\"/>\n",
		w, BAR, i->end - i->start > 10000000 ? "WAITING" : "waiting");
	if (size > MIN_TEXT)
		out(s, "<text transform=\"rotate(90)\" font-size=\"%.8fpt\"> %s</text>\n",
			size, duration);
	out_str(s, "</g>\n");
}

static void cstate(struct svg *s, const struct tc_power *p)
{
	int type = p->state > 6 ? 6 : p->state;
	double w = px(s, p->end) - px(s, p->start);
	double size = round_text_size(w / 2.0 > 6 ? 6 : w / 2.0);

	out_str(s, "<g>\n");
	out(s, "<rect class=\"c%i\" x=\"%.8f\" width=\"%.8f\" y=\"%.1f\" "
		"height=\"%.1f\"/>\n", type, px(s, p->start), w, cpu_y(s, p->cpu), ROW + BAR);
	if (size > MIN_TEXT)
		out(s, "<text x=\"%.8f\" y=\"%.8f\" font-size=\"%.8fpt\">C%i</text>\n",
			px(s, p->start), cpu_y(s, p->cpu) + size, size, type);
	out_str(s, "</g>\n");
}

static void pstate(struct svg *s, const struct tc_power *p, uint64_t freq)
{
	double y = 0;
	char text[64];

	if (s->max_freq)
		y = freq * 1.0 / s->max_freq * (BAR + ROW);
	y = 1 + cpu_y(s, p->cpu) + ROW + BAR - y;
	if (freq == s->turbo_freq)
		snprintf(text, sizeof(text), "Turbo");
	else if (freq > 1500000)
		snprintf(text, sizeof(text), " %6.2f Ghz", (freq + 5000.0) / 1000000);
	else if (freq > 1000)
		snprintf(text, sizeof(text), " %6lli Mhz", (long long)((freq + 500) / 1000));
	else
		snprintf(text, sizeof(text), "%9lli", (long long)freq);
	out_str(s, "<g>\n");
	out(s, "<line x1=\"%.8f\" x2=\"%.8f\" y1=\"%.1f\" y2=\"%.1f\" class=\"pstate\"/>\n",
		px(s, p->start), px(s, p->end), y, y);
	out(s, "<text x=\"%.8f\" y=\"%.8f\" font-size=\"0.25pt\">%s</text>\n",
		px(s, p->start), y + 0.9, text);
	out_str(s, "</g>\n");
}

static void wake_line(struct svg *s, double x, double y1, double y2)
{
	out(s, "<line x1=\"%.8f\" y1=\"%.2f\" x2=\"%.8f\" y2=\"%.2f\" "
		"style=\"stroke:rgb(32,255,32);stroke-width:0.009\"/>\n", x, y1, x, y2);
}

static void wake_label(struct svg *s, double x, double y, const char *name, const char *arrow)
{
	out(s, "<g transform=\"translate(%.8f,%.8f)\"><text transform=\"rotate(90)\" "
		"font-size=\"0.02pt\">%s %s</text></g>\n", x, y, name, arrow);
}

static void wake_dot(struct svg *s, double x, double y, const char *rgb)
{
	out(s, "<circle  cx=\"%.8f\" cy=\"%.2f\" r = \"0.01\"  style=\"fill:rgb(%s)\"/>\n",
		x, y, rgb);
}

/* A wake-up between rows not next to each other: stubs with the names. */
static void partial_wakeline(struct svg *s, const struct tc_wakeup *w, int from,
			     const char *from_name, int to, const char *to_name)
{
	double x = px(s, w->time), y = from * ROW;

	out_str(s, "<g>\n");
	out(s, "<title>%s wakes up %s</title>\n", from_name, to_name);
	if (w->backtrace)
		out(s, "<desc>%s</desc>\n", w->backtrace);
	if (from < to) {
		if (from) {
			wake_line(s, x, from * ROW + BAR, from * ROW + BAR + ROW / 32);
			wake_label(s, x, from * ROW + BAR + BAR / 48, to_name, "&gt;");
		}
		if (to) {
			wake_line(s, x, to * ROW - ROW / 32, to * ROW);
			wake_label(s, x, to * ROW - ROW / 32, from_name, "&gt;");
		}
	} else {
		if (to) {
			wake_line(s, x, to * ROW + BAR, to * ROW + BAR + ROW / 32);
			wake_label(s, x, to * ROW + BAR + ROW / 48, from_name, "&lt;");
		}
		if (from) {
			wake_line(s, x, from * ROW - ROW / 32, from * ROW);
			wake_label(s, x, from * ROW - BAR / 32, to_name, "&lt;");
		}
	}
	if (to > from)
		y += BAR;
	if (from)
		wake_dot(s, x, y, "32,255,32");
	out_str(s, "</g>\n");
}

static void wakeline(struct svg *s, const struct tc_wakeup *w, int from, int to)
{
	double x = px(s, w->time), y = from * ROW;

	out_str(s, "<g>\n");
	if (w->backtrace)
		out(s, "<desc>%s</desc>\n", w->backtrace);
	if (from < to)
		wake_line(s, x, from * ROW + BAR, to * ROW);
	else
		wake_line(s, x, to * ROW + BAR, from * ROW);
	if (to > from)
		y += BAR;
	wake_dot(s, x, y, "32,255,32");
	out_str(s, "</g>\n");
}

static void interrupt(struct svg *s, const struct tc_wakeup *w, int row)
{
	out_str(s, "<g>\n");
	out_str(s, "<title>Wakeup from interrupt</title>\n");
	if (w->backtrace)
		out(s, "<desc>%s</desc>\n", w->backtrace);
	wake_dot(s, px(s, w->time), row * ROW, "255,128,128");
	wake_dot(s, px(s, w->time), row * ROW + BAR, "255,128,128");
	out_str(s, "</g>\n");
}

/* The row of pid at time: a name drawn then, else any of its names. */
static void find_row(const struct tc_task *t, uint64_t time, int *row, const char **name)
{
	for (const struct tc_comm *c = t->comms; c && !*row; c = c->next) {
		if (c->row && c->start <= time && c->end >= time) {
			*row = c->row;
			*name = c->comm;
		}
	}
	for (const struct tc_comm *c = t->comms; c && !*row; c = c->next) {
		*row = c->row;
		*name = c->comm;
	}
}

static void draw_wakeups(struct svg *s, const struct timechart *tc)
{
	for (const struct tc_wakeup *w = tc->wakeups; w; w = w->next) {
		int from = 0, to = 0;
		const char *from_name = NULL, *to_name = NULL;
		char from_buf[40], to_buf[40];

		const struct tc_task *waker = timechart__task(tc, w->waker);
		const struct tc_task *wakee = timechart__task(tc, w->wakee);

		if (waker)
			find_row(waker, w->time, &from, &from_name);
		if (wakee)
			find_row(wakee, w->time, &to, &to_name);
		if (!from_name) {
			snprintf(from_buf, sizeof(from_buf), "[%i]", w->waker);
			from_name = from_buf;
		}
		if (!to_name) {
			snprintf(to_buf, sizeof(to_buf), "[%i]", w->wakee);
			to_name = to_buf;
		}
		if (w->waker == -1)
			interrupt(s, w, to);
		else if (from && to && abs(from - to) == 1)
			wakeline(s, w, from, to);
		else
			partial_wakeline(s, w, from, from_name, to, to_name);
	}
}

static void draw_task_rows(struct svg *s, struct timechart *tc)
{
	int row = 2 * (int)tc->nr_cpus + 2;

	for (struct tc_task *t = tc->tasks; t; t = t->next) {
		for (struct tc_comm *c = t->comms; c; c = c->next) {
			if (!c->display) {
				c->row = 0;
				continue;
			}
			box(s, row, c->start, c->end, "process");
			for (const struct tc_interval *i = c->intervals; i; i = i->next) {
				if (i->type == TC_RUNNING)
					task_running(s, row, i);
				else if (i->type == TC_BLOCKED)
					task_blocked(s, row, i);
				else if (i->type == TC_WAITING)
					task_waiting(s, row, i);
			}
			if (c->comm) {
				char label[256];

				if (c->total_time > 5000000000ULL)
					snprintf(label, sizeof(label), "%s:%i (%2.2fs)", c->comm,
						 t->pid, c->total_time / 1e9);
				else
					snprintf(label, sizeof(label), "%s:%i (%3.1fms)", c->comm,
						 t->pid, c->total_time / 1e6);
				row_text(s, row, c->start, label);
			}
			c->row = row++;
		}
	}
}

/* A box in the upper half (reads, receives), lower half (writes, sends)
 * or full height (sync, poll), as tall as its share of the biggest. */
static void io_box(struct svg *s, int row, const struct tc_io *io, double share,
		   const char *style)
{
	double h = share < 0.25 ? 0.25 : share < 0.50 ? 0.50 : share < 0.75 ? 0.75 : 0.100;
	double y, height;

	switch (io->type) {
	case TC_IO_READ:
	case TC_IO_RX:
		y = row * ROW;
		height = HALF_BAR * h;
		break;
	case TC_IO_WRITE:
	case TC_IO_TX:
		y = row * ROW + BAR - HALF_BAR * h;
		height = HALF_BAR * h;
		break;
	default:
		y = row * ROW + BAR - BAR * h;
		height = BAR * h;
		break;
	}
	out_str(s, "<g>\n");
	out(s, "<title>fd=%d error=%d merges=%d</title>\n", io->fd, io->err, io->merges);
	out(s, "<rect x=\"%.8f\" width=\"%.8f\" y=\"%.1f\" height=\"%.1f\" class=\"%s\"/>\n",
		px(s, io->start), px(s, io->end) - px(s, io->start), y, height, style);
	out_str(s, "</g>\n");
}

static void draw_io_rows(struct svg *s, struct timechart *tc)
{
	static const char *const styles[] = {
		[TC_IO_READ] = "disk", [TC_IO_WRITE] = "disk", [TC_IO_SYNC] = "sync",
		[TC_IO_TX] = "net", [TC_IO_RX] = "net", [TC_IO_POLL] = "poll",
	};
	int row = 1;

	for (struct tc_task *t = tc->tasks; t; t = t->next) {
		for (struct tc_comm *c = t->comms; c; c = c->next) {
			static const char *const units[] = { "", "K", "M", "G" };
			double bytes = (double)c->total_bytes;
			char label[256];
			int unit = 0;

			if (!c->display) {
				c->row = 0;
				continue;
			}
			box(s, row, c->start, c->end, "process3");
			for (const struct tc_io *io = c->io; io; io = io->next) {
				double share = (double)io->bytes / (double)c->max_bytes;

				if (s->o->skip_eagain && io->err == -EAGAIN)
					continue;
				if (io->type == TC_IO_SYNC || io->type == TC_IO_POLL || io->err)
					share = 1;
				io_box(s, row, io, share, io->err ? "error" : styles[io->type]);
			}
			while (unit < 3 && bytes > 1024) {
				bytes /= 1024;
				unit++;
			}
			snprintf(label, sizeof(label), "%s:%i (%3.1f %sbytes)",
				 c->comm ? c->comm : "", t->pid, bytes, units[unit]);
			row_text(s, row, c->start, label);
			c->row = row++;
		}
	}
}

static void draw_chart(struct svg *s, struct timechart *tc)
{
	static const int x[] = { 0, 100, 200, 350, 550, 650, 800 };
	static const char *const text[] = {
		"Running", "Idle", "Deeper Idle", "Deepest Idle", "Sleeping", "Waiting for cpu",
		"Blocked on IO",
	};
	static const char *const style[] = {
		"sample", "c1", "c3", "c6", "process2", "waiting", "blocked",
	};
	static const int io_x[] = { 0, 100, 200, 300, 400 };
	static const char *const io_text[] = { "Disk", "Network", "Sync", "Poll", "Error" };
	static const char *const io_style[] = { "disk", "net", "sync", "poll", "error" };
	const struct timechart_svg_opts *o = s->o;

	if (tc->io_events) {
		header(s, 0, o->rows);
		time_grid(s, 0.5);
		legend(s, io_x, io_text, io_style, 5);
		draw_io_rows(s, tc);
		out_str(s, "</svg>\n");
		return;
	}
	header(s, (int)tc->nr_cpus, o->rows);
	time_grid(s, 0);
	legend(s, x, text, style, 7);
	if (tc->nr_cpus) {
		/* the file's highest frequency, or the machine's if higher */
		s->max_freq = tc->max_freq > o->sysfs_max_freq ? tc->max_freq : o->sysfs_max_freq;
		s->turbo_freq = tc->turbo_freq;
	}
	for (unsigned int cpu = 0; cpu < tc->nr_cpus; cpu++)
		cpu_box(s, (int)cpu);
	for (const struct tc_task *t = tc->tasks; t; t = t->next)
		for (const struct tc_comm *c = t->comms; c; c = c->next)
			for (const struct tc_interval *i = c->intervals; i; i = i->next)
				if (i->type == TC_RUNNING)
					cpu_run(s, i, t->pid, c->comm);
	if (o->draw_tasks)
		draw_task_rows(s, tc);
	if (!o->tasks_only) {
		/* two passes: the P-state lines over the C-state boxes */
		for (const struct tc_power *p = tc->power; p; p = p->next)
			if (p->type == TC_CSTATE)
				cstate(s, p);
		for (struct tc_power *p = tc->power; p; p = p->next) {
			if (p->type != TC_PSTATE)
				continue;
			if (!p->state)
				p->state = (int)tc->min_freq;
			pstate(s, p, (uint64_t)(int64_t)p->state);
		}
	}
	if (o->draw_tasks)
		draw_wakeups(s, tc);
	out_str(s, "</svg>\n");
}

void timechart_svg__write(FILE *f, struct timechart *tc, const struct timechart_svg_opts *o)
{
	struct svg s = {
		.f = f, .buf = STRBUF_INIT, .duration = STRBUF_INIT,
		.first = tc->first_time / 100000000 * 100000000, .last = tc->last_time,
		.width = o->width, .cpu_position = o->cpu_position, .o = o,
	};

	draw_chart(&s, tc);
	flush_output(&s);
	strbuf_release(&s.buf);
	strbuf_release(&s.duration);
}

void timechart_svg__write_html(FILE *f, struct timechart *tc, const struct timechart_svg_opts *o,
			       const char *title)
{
	struct strbuf escaped = STRBUF_INIT;
	char *svg = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&svg, &len);
	const char *body;

	if (!mem)
		return;
	timechart_svg__write(mem, tc, o);
	fclose(mem);
	/* inline SVG goes without its XML declaration and DOCTYPE */
	body = strstr(svg, "<svg ");
	xml_escape(&escaped, title);
	fprintf(f, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>%s</title>\n<style>\n"
		"body { margin: 0; font-family: sans-serif; }\n"
		"#bar { padding: 4px 8px; background: #eee; border-bottom: 1px solid #ccc; }\n"
		"#bar button { margin-right: 4px; }\n"
		"#chart { position: absolute; top: 34px; bottom: 0; left: 0; right: 0; "
		"overflow: auto; cursor: grab; }\n"
		"</style>\n</head>\n<body>\n<div id=\"bar\">%s "
		"<button id=\"zoom-out\">&minus;</button><button id=\"zoom-in\">+</button>"
		"<button id=\"zoom-reset\">1:1</button><button id=\"zoom-fit\">fit width</button>"
		"<span id=\"zoom\"></span> &middot; Ctrl+wheel zooms, dragging scrolls, "
		"hovering tells</div>\n<div id=\"chart\">\n",
		strbuf_str(&escaped), strbuf_str(&escaped));
	fputs(body ? body : "", f);
	fprintf(f, "</div>\n<script>\n%s</script>\n</body>\n</html>\n", html_script);
	strbuf_release(&escaped);
	free(svg);
}
