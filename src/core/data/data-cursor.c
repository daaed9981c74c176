/* data-cursor: bounds-checked reads in file byte order (see data-cursor.h). */
#include "core/data/data-cursor.h"
#include "util/util.h"

#include <byteswap.h>
#include <stdlib.h>
#include <string.h>

void data_cursor__init(struct data_cursor *c, const void *buf, size_t size, bool swap)
{
	c->p = buf ? buf : (const void *)"";	/* an empty payload may come as NULL */
	c->end = c->p + size;
	c->swap = swap;
	c->bad = false;
}

size_t data_cursor__left(const struct data_cursor *c)
{
	return c->bad ? 0 : (size_t)(c->end - c->p);
}

/* Copies n bytes out, or zeroes v when they are not there. */
static void read_raw(struct data_cursor *c, void *v, size_t n)
{
	const void *p = data_cursor__skip(c, n);

	if (p)
		memcpy(v, p, n);
	else
		memset(v, 0, n);
}

uint16_t data_cursor__u16(struct data_cursor *c)
{
	uint16_t v;

	read_raw(c, &v, sizeof(v));
	return c->swap ? bswap_16(v) : v;
}

uint32_t data_cursor__count(struct data_cursor *c, uint64_t n)
{
	if (n > DATA_CURSOR_MAX_ITEMS)
		c->bad = true;
	return c->bad ? 0 : (uint32_t)n;
}

char *data_cursor__str(struct data_cursor *c)
{
	uint32_t len = data_cursor__u32(c);
	const char *s = data_cursor__skip(c, len);

	return s ? xstrndup(s, len) : NULL;
}

char **data_cursor__str_list(struct data_cursor *c, uint32_t *nr)
{
	uint32_t n = data_cursor__count(c, data_cursor__u32(c));
	char **v = xcalloc(n ? n : 1, sizeof(*v));

	for (uint32_t i = 0; i < n && !c->bad; i++)
		v[i] = data_cursor__str(c);
	*nr = n;
	return v;
}

void str_list__free(char **v, uint32_t nr)
{
	if (!v)
		return;
	for (uint32_t i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

void swap_in_place(void *p, size_t width)
{
	uint8_t *b = p;

	for (size_t i = 0; i < width / 2; i++) {
		uint8_t t = b[i];

		b[i] = b[width - 1 - i];
		b[width - 1 - i] = t;
	}
}
