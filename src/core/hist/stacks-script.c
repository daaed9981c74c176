/* stacks-script: collapses the text of `perf script` (any perf version's
 * default output with callchains) into stacks, reading it the way
 * stackcollapse-perf.pl does:
 *
 *   comm  pid[/tid] [cpu] time: [period] event:      sample line
 *   \t    addr func+0xoff (module)                  frames, leaf first
 *   (blank line)                                    end of the sample
 *
 * The rules for each line are in stacks-fold.c.  Only samples of one
 * event are kept: the one asked for, else the first one a sample line
 * names at its end (lines that name none, as tracepoints', are all kept).
 * Lines starting with '#' are comments.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist/stacks.h"
#include "util/strbuf.h"
#include "util/util.h"

struct collapse_state {
	struct stacks *st;
	const struct script_text_opts *o;
	struct strbuf frames;	/* folded frames of the current sample */
	size_t *ends;		/* end offset in frames of each frame line */
	size_t nr_ends, ends_alloc;
	struct strbuf pname, path, scratch;
	bool in_sample;		/* a sample line of the wanted event was seen */
	uint64_t period;
	char *event;		/* the first event named, when none was asked */
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

/* Whether the sample line of an explicitly asked event names it: at its
 * end, or (a tracepoint's line ends with its fields) as " EVENT: ". */
static bool names_given_event(const char *event, const char *l, size_t len, bool named,
			      const char *ev, size_t ev_len)
{
	size_t n = strlen(event);
	char *word;
	bool found;

	if (named)
		return n == ev_len && !memcmp(event, ev, ev_len);
	word = xasprintf(" %s: ", event);
	found = memmem(l, len, word, n + 3) != NULL;
	free(word);
	return found;
}

static void sample_line(struct collapse_state *cs, const char *l, size_t len,
			const struct fold_head *h)
{
	const char *ev = NULL;
	size_t ev_len = 0;
	uint64_t period = 0;
	bool named = fold_parse_event(l, len, &ev, &ev_len, &period);

	cs->in_sample = cs->o->event_filter ?
		names_given_event(cs->o->event_filter, l, len, named, ev, ev_len) :
		fold_keep_event(&cs->event, named ? ev : NULL, ev_len);
	if (!cs->in_sample)
		return;
	cs->period = period ? period : 1;
	strbuf_reset(&cs->pname);
	fold_comm(&cs->pname, h, cs->o->include_pid, cs->o->include_tid);
}

static void frame_line(struct collapse_state *cs, const char *l, size_t len)
{
	struct fold_opts fo = {
		.java = cs->pname.len == 4 && !memcmp(cs->pname.buf, "java", 4),
		.annotate_kernel = cs->o->annotate_kernel,
	};
	strbuf_reset(&cs->scratch);
	if (fold_frame_line(&cs->scratch, l, len, &fo) < 0)
		return;
	if (cs->nr_ends == cs->ends_alloc) {
		cs->ends_alloc = cs->ends_alloc ? cs->ends_alloc * 2 : 64;
		cs->ends = xrealloc(cs->ends, cs->ends_alloc * sizeof(*cs->ends));
	}
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

	while ((got = getline(&line, &cap, in)) >= 0) {
		size_t len = (size_t)got;
		struct fold_head h;

		if (line[0] == '#')
			continue;
		if (len && line[len - 1] == '\n')
			len--;
		if (!len) {
			finish_sample(&cs);
			continue;
		}
		if (fold_parse_head(line, len, &h))
			sample_line(&cs, line, len, &h);
		else if (cs.in_sample)
			frame_line(&cs, line, len);
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
