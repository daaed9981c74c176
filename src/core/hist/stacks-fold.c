/* stacks-fold: stackcollapse-perf.pl's default rules, the one place they
 * live: how it reads the lines of perf script (the sample line's process
 * name, event and period; a frame line's function and module) and the
 * names it makes of them.  The perf script text reader applies them to
 * the text; the perf.data reader to the text perf script would print, so
 * that both give the same folded stacks. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist/stacks.h"
#include "util/strbuf.h"
#include "util/util.h"

static bool is_lower_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* Length of func without a trailing "+0x<lowercase hex>". */
static size_t strip_offset(const char *func, size_t len)
{
	size_t i = len;

	while (i > 0 && is_lower_hex(func[i - 1]))
		i--;
	if (i < len && i >= 3 && !memcmp(func + i - 3, "+0x", 3))
		return i - 3;
	return len;
}

/* A Go method name ("net/http.(*Client).Do"): ".(" with ")." after it. */
static bool looks_like_go_method(const char *s, size_t len)
{
	const char *open = NULL;

	for (size_t i = 0; i + 1 < len; i++) {
		if (!open && s[i] == '.' && s[i + 1] == '(')
			open = s + i;
		else if (open && s + i >= open + 2 && s[i] == ')' && s[i + 1] == '.')
			return true;
	}
	return false;
}

static bool mod_is_kernel(const char *mod, size_t mlen)
{
	static const char vmlinux[] = "vmlinux";

	if (memmem(mod, mlen, "kernel.", 7))
		return true;
	return mlen >= sizeof(vmlinux) - 1 &&
	       !memcmp(mod + mlen - (sizeof(vmlinux) - 1), vmlinux, sizeof(vmlinux) - 1);
}

/* Appends one tidied name (part of a frame) to out. */
static void tidy_part(struct strbuf *out, const char *s, size_t len, const char *mod,
		      size_t mlen, const struct fold_opts *o)
{
	char small[256], *tmp = NULL;
	size_t cut = len;
	bool slash = false;

	if (len == 9 && !memcmp(s, "[unknown]", 9) &&
	    !(mlen == 9 && !memcmp(mod, "[unknown]", 9))) {
		/* "[basename of the module]" */
		const char *base = mod;
		size_t blen;

		for (size_t i = 0; i < mlen; i++)
			if (mod[i] == '/')
				base = mod + i + 1;
		blen = mlen - (size_t)(base - mod);
		tmp = blen + 2 <= sizeof(small) ? small : xmalloc(blen + 2);
		tmp[0] = '[';
		memcpy(tmp + 1, base, blen);
		tmp[blen + 1] = ']';
		s = tmp;
		len = cut = blen + 2;
	}
	if (!looks_like_go_method(s, len)) {
		/* argument lists go; "(anonymous namespace)" stays */
		static const char anon[] = "anonymous namespace)";

		for (size_t i = 0; i < len; i++) {
			if (s[i] == '(' && !(len - i - 1 >= sizeof(anon) - 1 &&
					     !memcmp(s + i + 1, anon, sizeof(anon) - 1))) {
				cut = i;
				break;
			}
		}
	}
	for (size_t i = 0; i < cut; i++)
		slash |= s[i] == '/';
	strbuf_grow(out, cut);
	for (size_t i = 0; i < cut; i++) {
		char c = s[i];

		if (c == '"' || c == '\'')
			continue;
		if (i == 0 && c == 'L' && o->java && slash)
			continue;
		out->buf[out->len++] = c == ';' ? ':' : c;
	}
	out->buf[out->len] = 0;
	if (o->annotate_kernel && mod_is_kernel(mod, mlen))
		strbuf_addstr(out, "_[k]");
	if (tmp != small)
		free(tmp);
}

int fold_frame(struct strbuf *out, const char *func, size_t flen, const char *mod,
	       size_t mlen, const struct fold_opts *o)
{
	const char *p = func, *end;
	int nparts = 0;

	flen = strip_offset(func, flen);
	if (flen && func[0] == '(')
		return 0;
	/* split at "->"; like Perl's split, trailing empty parts vanish */
	while (flen >= 2 && !memcmp(func + flen - 2, "->", 2))
		flen -= 2;
	if (!flen)
		return 0;
	end = func + flen;
	for (;;) {
		const char *arrow = memmem(p, (size_t)(end - p), "->", 2);
		size_t len = arrow ? (size_t)(arrow - p) : (size_t)(end - p);

		if (out->len)
			strbuf_addch(out, ';');
		tidy_part(out, p, len, mod, mlen, o);
		if (nparts++)
			strbuf_addstr(out, "_[i]");
		if (!arrow)
			return nparts;
		p = arrow + 2;
	}
}

void fold_comm(struct strbuf *out, const struct fold_head *h, bool include_pid, bool include_tid)
{
	size_t start = out->len;

	strbuf_add(out, h->comm, h->comm_len);
	if (include_pid || include_tid) {
		strbuf_addch(out, '-');
		if (h->pid)
			strbuf_add(out, h->pid, h->pid_len);
		else
			strbuf_addch(out, '?');
	}
	if (include_tid) {
		strbuf_addch(out, '/');
		strbuf_add(out, h->tid, h->tid_len);
	}
	for (size_t i = start; i < out->len; i++)
		if (out->buf[i] == ' ')
			out->buf[i] = '_';
}

bool fold_keep_event(char **filter, const char *ev, size_t ev_len)
{
	if (!ev)
		return true;
	if (!*filter)
		*filter = xstrndup(ev, ev_len);
	return strlen(*filter) == ev_len && !memcmp(*filter, ev, ev_len);
}

/* Reading perf script's lines ------------------------------------------ */

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' || c == '\n';
}

static bool is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* COMM is the shortest run of at least two characters, the first not a
 * blank, that whitespace, digits, optional '/' and digits, and whitespace
 * follow. */
bool fold_parse_head(const char *l, size_t len, struct fold_head *h)
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
		h->comm = l;
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

/* The end of a sample line: ": [PERIOD] EVENT:" and trailing blanks. */
bool fold_parse_event(const char *l, size_t len, const char **ev, size_t *ev_len,
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
static bool parse_frame_line(const char *l, size_t len, const char **func, size_t *flen,
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

int fold_frame_line(struct strbuf *out, const char *line, size_t len, const struct fold_opts *o)
{
	const char *func, *mod;
	size_t flen, mlen;

	if (!parse_frame_line(line, len, &func, &flen, &mod, &mlen))
		return -1;
	return fold_frame(out, func, flen, mod, mlen, o);
}
