/* stacks-script: collapses the text of `perf script` (any perf version's
 * default output with callchains) into stacks, reading it the way
 * stackcollapse-perf.pl does:
 *
 *   comm  pid[/tid] [cpu] time: [period] event:      sample line
 *   \t    addr func+0xoff (module)                  frames, leaf first
 *   (blank line)                                    end of the sample
 *
 * The process name is the text before the first "  <digits>[/<digits>] "
 * (at least two characters), the period the number before the event name
 * at the end of the sample line (1 when absent), and only samples of one
 * event are kept: the one asked for, else the first one seen.  Lines
 * starting with '#' are comments.  Frame names go through fold_frame().
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist/stacks.h"
#include "util/strbuf.h"
#include "util/util.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' || c == '\n';
}

static bool is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

struct sample_head {
	size_t comm_len;
	const char *pid, *tid;	/* digits in the line; pid NULL when not shown */
	size_t pid_len, tid_len;
};

/* The sample line: "COMM  PID[/TID] ..." with COMM starting with a
 * non-space and at least two characters long (the shortest COMM for which
 * whitespace, digits, optional '/' and digits, and whitespace follow). */
static bool parse_head(const char *l, size_t len, struct sample_head *h)
{
	if (!len || is_space(l[0]))
		return false;
	for (size_t e = 2; e < len; e++) {
		size_t i = e, d1, d2, s;

		if (!is_space(l[e]))
			continue;
		while (i < len && is_space(l[i]))
			i++;
		d1 = i;
		while (i < len && isdigit((unsigned char)l[i]))
			i++;
		if (i == d1)
			continue;
		s = i;
		while (i < len && l[i] == '/')
			i++;
		d2 = i;
		while (i < len && isdigit((unsigned char)l[i]))
			i++;
		if (i >= len || !is_space(l[i]))
			continue;
		h->comm_len = e;
		if (i > d2) {
			h->pid = l + d1;
			h->pid_len = s - d1;
			h->tid = l + d2;
			h->tid_len = i - d2;
		} else {
			h->pid = NULL;
			h->pid_len = 0;
			h->tid = l + d1;
			h->tid_len = s - d1;
		}
		return true;
	}
	return false;
}

/* The end of a sample line: ": [PERIOD] EVENT:" and trailing blanks.
 * Returns false when the line does not end so. */
static bool parse_event(const char *l, size_t len, const char **ev, size_t *ev_len,
			uint64_t *period)
{
	size_t e = len, tok, i, d;

	while (e > 0 && is_space(l[e - 1]))
		e--;
	if (e < 2 || l[e - 1] != ':')
		return false;
	tok = e - 1;
	while (tok > 0 && !is_space(l[tok - 1]))
		tok--;
	if (tok == e - 1 || tok == 0)
		return false;
	i = tok;
	while (i > 0 && is_space(l[i - 1]))
		i--;
	d = i;
	while (d > 0 && isdigit((unsigned char)l[d - 1]))
		d--;
	*period = 0;
	if (d < i) {
		size_t w = d;

		while (w > 0 && is_space(l[w - 1]))
			w--;
		if (w > 0 && l[w - 1] == ':') {
			*period = strtoull(l + d, NULL, 10);
		} else {
			/* no period: ':' must precede the blanks directly */
			return false;
		}
	} else if (!(i > 0 && l[i - 1] == ':')) {
		return false;
	}
	*ev = l + tok;
	*ev_len = e - 1 - tok;
	return true;
}

/* A frame line "  ADDR FUNC (MOD)": FUNC runs to the last " (" that opens
 * a blank-free run containing ')', MOD to the last ')' of that run.  When
 * that " (" comes right after ADDR, FUNC is the character before it (what
 * the backtracking regular expression of stackcollapse yields). */
static bool parse_frame(const char *l, size_t len, const char **func, size_t *flen,
			const char **mod, size_t *mlen)
{
	size_t i = 0, w, q0, p;

	while (i < len && is_space(l[i]))
		i++;
	w = i;
	while (i < len && is_word(l[i]))
		i++;
	if (i == w)
		return false;
	while (i < len && is_space(l[i]))
		i++;
	q0 = i;
	for (p = len; p-- > w + 1;) {
		size_t r, close = 0;

		if (l[p] != ' ' || p + 1 >= len || l[p + 1] != '(')
			continue;
		for (r = p + 2; r < len && !is_space(l[r]); r++)
			if (l[r] == ')')
				close = r;
		if (!close)
			continue;
		if (q0 > p - 1)
			q0 = p - 1;
		*func = l + q0;
		*flen = p - q0;
		*mod = l + p + 2;
		*mlen = close - (p + 2);
		return true;
	}
	return false;
}

struct collapse_state {
	struct stacks *st;
	const struct script_text_opts *o;
	struct strbuf frames;	/* folded frames of the current sample */
	size_t *ends;		/* end offset in frames of each frame line */
	size_t nr_ends, ends_alloc;
	struct strbuf pname, path, scratch;
	bool in_sample;		/* a sample line of the wanted event was seen */
	uint64_t period;
	char *event;		/* the event kept */
	uint64_t nr;
};

static void finish_sample(struct collapse_state *cs)
{
	struct strbuf *path = &cs->path;

	if (!cs->in_sample)
		goto reset;
	strbuf_reset(path);
	strbuf_add(path, cs->pname.buf, cs->pname.len);
	/* frame lines come leaf first: emit them in reverse */
	for (size_t k = cs->nr_ends; k > 0; k--) {
		size_t start = k > 1 ? cs->ends[k - 2] : 0, end = cs->ends[k - 1];

		if (end == start)
			continue;
		strbuf_addch(path, ';');
		strbuf_add(path, cs->frames.buf + start, end - start);
	}
	stacks__add(cs->st, stacks__add_path(cs->st, path->buf, path->len), cs->period, cs->nr++);
reset:
	cs->in_sample = false;
	cs->nr_ends = 0;
	strbuf_reset(&cs->frames);
}

static void sample_line(struct collapse_state *cs, const char *l, size_t len,
			const struct sample_head *h)
{
	const char *ev;
	size_t ev_len;
	uint64_t period = 0;

	if (parse_event(l, len, &ev, &ev_len, &period)) {
		if (!cs->event)
			cs->event = xstrndup(ev, ev_len);
		if (strlen(cs->event) != ev_len || memcmp(cs->event, ev, ev_len)) {
			cs->in_sample = false;
			return;
		}
	}
	cs->period = period ? period : 1;
	cs->in_sample = true;
	strbuf_reset(&cs->pname);
	strbuf_add(&cs->pname, l, h->comm_len);
	if (cs->o->include_tid) {
		strbuf_addch(&cs->pname, '-');
		if (h->pid)
			strbuf_add(&cs->pname, h->pid, h->pid_len);
		else
			strbuf_addch(&cs->pname, '?');
		strbuf_addch(&cs->pname, '/');
		strbuf_add(&cs->pname, h->tid, h->tid_len);
	} else if (cs->o->include_pid) {
		strbuf_addch(&cs->pname, '-');
		if (h->pid)
			strbuf_add(&cs->pname, h->pid, h->pid_len);
		else
			strbuf_addch(&cs->pname, '?');
	}
	for (size_t i = 0; i < cs->pname.len; i++)
		if (cs->pname.buf[i] == ' ')
			cs->pname.buf[i] = '_';
}

static void frame_line(struct collapse_state *cs, const char *func, size_t flen,
		       const char *mod, size_t mlen)
{
	struct fold_opts fo = {
		.java = cs->pname.len == 4 && !memcmp(cs->pname.buf, "java", 4),
		.annotate_kernel = cs->o->annotate_kernel,
	};
	if (cs->nr_ends == cs->ends_alloc) {
		cs->ends_alloc = cs->ends_alloc ? cs->ends_alloc * 2 : 64;
		cs->ends = xrealloc(cs->ends, cs->ends_alloc * sizeof(*cs->ends));
	}
	strbuf_reset(&cs->scratch);
	fold_frame(&cs->scratch, func, flen, mod, mlen, &fo);
	strbuf_add(&cs->frames, strbuf_str(&cs->scratch), cs->scratch.len);
	cs->ends[cs->nr_ends++] = cs->frames.len;
}

int stacks__read_perf_script(struct stacks *st, FILE *in, const struct script_text_opts *o,
			     char **err)
{
	struct collapse_state cs = { .st = st, .o = o };
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;

	if (o->event_filter)
		cs.event = xstrdup(o->event_filter);
	while ((got = getline(&line, &cap, in)) >= 0) {
		size_t len = (size_t)got;
		struct sample_head h;
		const char *func, *mod;
		size_t flen, mlen;

		if (line[0] == '#')
			continue;
		if (len && line[len - 1] == '\n')
			len--;
		if (!len) {
			finish_sample(&cs);
			continue;
		}
		if (parse_head(line, len, &h))
			sample_line(&cs, line, len, &h);
		else if (parse_frame(line, len, &func, &flen, &mod, &mlen) && cs.in_sample)
			frame_line(&cs, func, flen, mod, mlen);
	}
	free(line);
	free(cs.event);
	free(cs.ends);
	strbuf_release(&cs.frames);
	strbuf_release(&cs.pname);
	strbuf_release(&cs.path);
	strbuf_release(&cs.scratch);
	if (ferror(in)) {
		*err = xasprintf("read error: %s", strerror(errno));
		return -1;
	}
	return 0;
}
