/* linebuf: a line of output put together in a fixed buffer and written
 * with one stdio call.
 *
 * For reports that print a line per record, a few characters at a time
 * (perf sched's timehist and map write millions of them): stdio's cost per
 * call, paid for every piece, is then paid once per line.  Longer output
 * than the buffer holds goes out in pieces, still in order.
 *
 *	struct linebuf lb = { .fp = stdout };
 *	linebuf_str(&lb, "  ");
 *	linebuf_spaces(&lb, width - len);
 *	linebuf_flush(&lb);
 */
#ifndef PCL_LINEBUF_H
#define PCL_LINEBUF_H

#include <stdio.h>
#include <string.h>

struct linebuf {
	FILE *fp;
	size_t n;
	char b[512];
};

static inline void linebuf_flush(struct linebuf *lb)
{
	fwrite_unlocked(lb->b, 1, lb->n, lb->fp);
	lb->n = 0;
}

static inline void linebuf_put(struct linebuf *lb, const char *s, size_t len)
{
	if (len > sizeof(lb->b) - lb->n) {
		linebuf_flush(lb);
		if (len > sizeof(lb->b)) {
			fwrite_unlocked(s, 1, len, lb->fp);
			return;
		}
	}
	if (len <= 16) {
		/* the usual piece: a few bytes, cheaper than a call to memcpy */
		for (size_t i = 0; i < len; i++)
			lb->b[lb->n + i] = s[i];
	} else {
		memcpy(lb->b + lb->n, s, len);
	}
	lb->n += len;
}

static inline void linebuf_str(struct linebuf *lb, const char *s)
{
	linebuf_put(lb, s, strlen(s));
}

static inline void linebuf_ch(struct linebuf *lb, char c)
{
	if (lb->n == sizeof(lb->b))
		linebuf_flush(lb);
	lb->b[lb->n++] = c;
}

/* n blanks (none when n <= 0) */
static inline void linebuf_spaces(struct linebuf *lb, int n)
{
	while (n-- > 0)
		linebuf_ch(lb, ' ');
}

#endif
