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

/*
 * printf's "%.Nf" rounds the exact decimal value of v to nearest, ties to
 * even.  The double product v * 10^N is within half a unit in its last
 * place of the exact one, so its rounding is printf's unless its fraction
 * lies about that close to a half: those cases, and the values too large
 * for a fraction to mean anything, are left to printf.
 */
static bool fixed_digits(double v, int prec, uint64_t *scaled)
{
	static const double powers[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	double p, frac;
	uint64_t whole;

	if (prec < 0 || prec > 9 || !(v >= 0 && v < 1e15))
		return false;
	p = v * powers[prec];
	if (p >= 0x1p52)
		return false;
	whole = (uint64_t)p;
	frac = p - (double)whole;
	if (fabs(frac - 0.5) <= p * 0x1p-51)
		return false;
	*scaled = whole + (frac > 0.5);
	return true;
}

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

void strbuf_add_fixed(struct strbuf *sb, int width, int prec, double v)
{
	char digits[40], *p = digits + sizeof(digits);
	bool negative = signbit(v);
	uint64_t scaled;
	int len;

	if (!fixed_digits(negative ? -v : v, prec, &scaled)) {
		strbuf_addf(sb, "%*.*f", width, prec, v);
		return;
	}
	if (prec) {
		/* the fraction's digits in 32-bit arithmetic, cheaper than 64 */
		static const uint32_t tens[] = {
			1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
		};
		uint32_t fraction = (uint32_t)(scaled % tens[prec]);
		int left = prec;

		scaled /= tens[prec];
		/* two digits a division */
		for (; left >= 2; left -= 2, fraction /= 100) {
			p -= 2;
			memcpy(p, digit_pairs + 2 * (fraction % 100), 2);
		}
		if (left)
			*--p = (char)('0' + fraction % 10);
		*--p = '.';
	}
	p = decimal_digits(p, scaled, 1);
	if (negative)
		*--p = '-';
	len = (int)(digits + sizeof(digits) - p);
	strbuf_grow(sb, (size_t)(width > len ? width : len));
	for (; width > len; width--)
		sb->buf[sb->len++] = ' ';
	strbuf_add(sb, p, (size_t)len);
}

static void add_decimal(struct strbuf *sb, uint64_t v)
{
	char digits[20], *end = digits + sizeof(digits), *p = decimal_digits(end, v, 1);

	strbuf_add(sb, p, (size_t)(end - p));
}

/*
 * "%[-][#][width][l](d|i|u|x)" (spec, len bytes) of the next argument,
 * padded with spaces, without printf; false, the argument left, for any
 * other conversion.
 */
static bool add_integer(struct strbuf *sb, const char *spec, size_t len, va_list *ap)
{
	char conv = spec[len - 1], digits[24], *p = digits + sizeof(digits);
	bool left = false, alt = false, is_long = false, negative = false;
	size_t i = 1, n, width = 0;
	uint64_t v;

	for (; spec[i] == '-' || spec[i] == '#'; i++)
		*(spec[i] == '-' ? &left : &alt) = true;
	if (spec[i] == '0')
		return false;	/* zero padding */
	for (; spec[i] >= '0' && spec[i] <= '9'; i++)
		width = width * 10 + (size_t)(spec[i] - '0');
	if (spec[i] == 'l')
		is_long = true, i++;
	if (i != len - 1 || (conv != 'u' && conv != 'd' && conv != 'i' && conv != 'x') ||
	    (alt && conv != 'x'))
		return false;
	if (conv == 'd' || conv == 'i') {
		long sv = is_long ? va_arg(*ap, long) : va_arg(*ap, int);

		negative = sv < 0;
		v = negative ? -(uint64_t)sv : (uint64_t)sv;
	} else {
		v = is_long ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned int);
	}
	if (conv == 'x') {
		do
			*--p = "0123456789abcdef"[v & 15];
		while (v >>= 4);
		if (alt && !(p[0] == '0' && p + 1 == digits + sizeof(digits)))
			*--p = 'x', *--p = '0';
	} else {
		do
			*--p = (char)('0' + v % 10);
		while (v /= 10);
		if (negative)
			*--p = '-';
	}
	n = (size_t)(digits + sizeof(digits) - p);
	strbuf_grow(sb, width > n ? width : n);
	if (!left)
		for (; width > n; width--)
			sb->buf[sb->len++] = ' ';
	memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	for (; width > n; width--)
		sb->buf[sb->len++] = ' ';
	sb->buf[sb->len] = '\0';
	return true;
}

/* A format strbuf_addf_fast was not made for: a bug in its caller. */
static _Noreturn void bad_format(const char *at)
{
	fprintf(stderr, "pcl: internal error: strbuf_addf_fast cannot format \"%s\"\n", at);
	abort();
}

/*
 * One conversion of a strbuf_addf_fast format, spec its text ("%-8lu"):
 * the argument taken with the type its length modifier and conversion
 * name, then formatted by printf, or by strbuf_add_fixed for a "%.Nf".
 */
static void add_conversion(struct strbuf *sb, const char *spec, size_t len, va_list *ap)
{
	char conv = spec[len - 1], mod = len > 2 ? spec[len - 2] : 0;
	char fmt[32];

	if (len == 4 && conv == 'f' && spec[1] == '.' && spec[2] >= '0' && spec[2] <= '9') {
		strbuf_add_fixed(sb, 0, spec[2] - '0', va_arg(*ap, double));
		return;
	}
	if (len == 2 && conv == 's') {
		strbuf_addstr(sb, va_arg(*ap, const char *));
		return;
	}
	if (len == 2 && (conv == 'd' || conv == 'i')) {
		int v = va_arg(*ap, int);

		if (v < 0)
			strbuf_addch(sb, '-');
		add_decimal(sb, v < 0 ? -(uint64_t)v : (uint64_t)v);
		return;
	}
	if (len == 3 && mod == 'l' && conv == 'u') {
		add_decimal(sb, va_arg(*ap, unsigned long));
		return;
	}
	if (add_integer(sb, spec, len, ap))
		return;
	if (len >= sizeof(fmt))
		bad_format(spec);
	memcpy(fmt, spec, len);
	fmt[len] = '\0';
	switch (conv) {
	case 'd': case 'i':
		if (mod == 'l')
			strbuf_addf(sb, fmt, va_arg(*ap, long));
		else if (mod == 'z')
			strbuf_addf(sb, fmt, va_arg(*ap, ssize_t));
		else
			strbuf_addf(sb, fmt, va_arg(*ap, int));
		break;
	case 'u': case 'x': case 'X':
		if (mod == 'l')
			strbuf_addf(sb, fmt, va_arg(*ap, unsigned long));
		else if (mod == 'z')
			strbuf_addf(sb, fmt, va_arg(*ap, size_t));
		else
			strbuf_addf(sb, fmt, va_arg(*ap, unsigned int));
		break;
	case 'f':
		strbuf_addf(sb, fmt, va_arg(*ap, double));
		break;
	case 's':
		strbuf_addf(sb, fmt, va_arg(*ap, const char *));
		break;
	case 'c':
		strbuf_addf(sb, fmt, va_arg(*ap, int));
		break;
	default:
		bad_format(fmt);
	}
}

/* flags, width, precision and length modifiers: what comes between a
 * conversion's '%' and its letter */
static bool is_spec_char(char c)
{
	return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == ' ' ||
	       c == '#' || c == 'l' || c == 'z';
}

void strbuf_addf_fast(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf_fast(sb, fmt, ap);
	va_end(ap);
}

void strbuf_vaddf_fast(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;

	va_copy(cp, ap);
	while (*fmt) {
		const char *pct = strchr(fmt, '%');
		size_t len;

		if (!pct) {
			strbuf_addstr(sb, fmt);
			break;
		}
		strbuf_add(sb, fmt, (size_t)(pct - fmt));
		if (pct[1] == '%') {
			strbuf_addch(sb, '%');
			fmt = pct + 2;
			continue;
		}
		len = 1;
		while (is_spec_char(pct[len]))
			len++;
		if (!pct[len])
			bad_format(pct);
		add_conversion(sb, pct, len + 1, &cp);
		fmt = pct + len + 1;
	}
	va_end(cp);
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
