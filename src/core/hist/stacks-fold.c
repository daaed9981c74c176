/* stacks-fold: the naming rules stackcollapse-perf.pl applies by default
 * to perf script frames and process names (see fold_frame() in stacks.h).
 * Both the perf.data reader and the perf script text reader use these,
 * so that both give the same folded stacks. */
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

void fold_comm(struct strbuf *out, const char *comm, int pid, int tid, bool include_pid,
	       bool include_tid)
{
	size_t start = out->len;

	strbuf_addstr(out, comm);
	if (include_tid)
		strbuf_addf(out, "-%d/%d", pid, tid);
	else if (include_pid)
		strbuf_addf(out, "-%d", pid);
	for (size_t i = start; i < out->len; i++)
		if (out->buf[i] == ' ')
			out->buf[i] = '_';
}
