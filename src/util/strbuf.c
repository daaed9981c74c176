/* strbuf: a growable NUL-terminated string. */
#include "util/strbuf.h"
#include "util/util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->alloc)
		return;
	sb->alloc = sb->alloc ? sb->alloc : 64;
	while (sb->alloc < need)
		sb->alloc *= 2;
	sb->buf = xrealloc(sb->buf, sb->alloc);
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

/* Formats into the room there is, and again only when it was too small:
 * reports format a few values per line, tens of thousands of lines. */
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

/* Whether long double arithmetic keeps 64 significand bits here: not
 * where long double is double, nor under valgrind's x87 emulation. */
static bool long_double_exact(void)
{
	static int exact = -1;
	volatile double tenth = 0.1;	/* computed at run time, not folded */

	if (exact < 0)
		exact = (long double)tenth * 100.0L != 10.0L;
	return exact;
}

/*
 * v * 100 is exact in long double (53 + 7 bits of significand fit in 64),
 * and nearbyintl rounds it as printf rounds the exact decimal value of v:
 * to nearest, ties to even, in the default rounding mode.
 */
void strbuf_add_fixed2(struct strbuf *sb, int width, double v)
{
	char digits[24], *p = digits + sizeof(digits);
	uint64_t hundredths;
	int len;

	if (!(v >= 0 && v < 1e15) || signbit(v) || !long_double_exact()) {
		strbuf_addf(sb, "%*.2f", width, v);
		return;
	}
	hundredths = (uint64_t)nearbyintl((long double)v * 100.0L);
	*--p = (char)('0' + hundredths % 10);
	*--p = (char)('0' + hundredths / 10 % 10);
	*--p = '.';
	hundredths /= 100;
	do
		*--p = (char)('0' + hundredths % 10);
	while (hundredths /= 10);
	len = (int)(digits + sizeof(digits) - p);
	strbuf_grow(sb, (size_t)(width > len ? width : len));
	for (; width > len; width--)
		sb->buf[sb->len++] = ' ';
	strbuf_add(sb, p, (size_t)len);
}

void strbuf_add_column(struct strbuf *sb, const char *s, int width)
{
	size_t pad = width < 0 ? -(size_t)width : (size_t)width;
	size_t n = width < 0 ? strlen(s) : strnlen(s, (size_t)width);

	strbuf_add(sb, s, n);
	if (pad > n) {
		strbuf_grow(sb, pad - n);
		memset(sb->buf + sb->len, ' ', pad - n);
		sb->len += pad - n;
		sb->buf[sb->len] = '\0';
	}
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	sb->len = len;
	if (sb->buf)
		sb->buf[len] = '\0';
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return s;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}
