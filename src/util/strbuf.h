/* strbuf: a growable NUL-terminated string (the git model). */
#ifndef PCL_STRBUF_H
#define PCL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;	/* always NUL-terminated once anything was added */
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* printf's "%*.*f" of v with precision prec, byte for byte, without
 * printf's cost for the usual case (a finite |v| < 1e15, prec <= 9):
 * reports print one per column, charts one per coordinate. */
void strbuf_add_fixed(struct strbuf *sb, int width, int prec, double v);
/* The decimal digits of v written backwards so that they end at end, at
 * least min_digits of them (zero-padded): printf's "%0*lu" without
 * printf, for writers of a number per line.  Returns where they start. */
static inline char *decimal_digits(char *end, unsigned long long v, int min_digits)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
		min_digits--;
	} while (v || min_digits > 0);
	return end;
}
/* strbuf_addf for formats whose conversions are d i u x X f s c with
 * flags, widths, precisions and the l or z modifier (PRIu64 and the like;
 * no '*'): the same text, with each "%.Nf" by strbuf_add_fixed.  For
 * writers of many numbers with few digits: SVG coordinates. */
void strbuf_addf_fast(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf_fast(struct strbuf *sb, const char *fmt, va_list ap);
/* printf's "%-*.*s" of s with width and precision both width: s cut at
 * width bytes, padded to it (a negative width: s whole, padded to -width). */
void strbuf_add_column(struct strbuf *sb, const char *s, int width);
void strbuf_reset(struct strbuf *sb);
/* Cuts the string back to its first len bytes (len <= sb->len). */
void strbuf_setlen(struct strbuf *sb, size_t len);
/* Returns the string (never NULL) and leaves sb empty; caller frees. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* The current string, "" when empty. */
const char *strbuf_str(const struct strbuf *sb);

#endif
