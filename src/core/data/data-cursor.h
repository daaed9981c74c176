/* data-cursor: a bounds-checked reader over a byte buffer in a file's byte
 * order (perf.data feature payloads and the like).
 *
 * Reads never leave the buffer: a read that does not fit marks the cursor
 * bad, returns 0/NULL and every later read fails too, so a parser can read
 * a whole layout and check `bad` once at the end.
 */
#ifndef PCL_DATA_CURSOR_H
#define PCL_DATA_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Guards against absurd counts in a corrupt file before allocating. */
#define DATA_CURSOR_MAX_ITEMS	(1u << 20)

struct data_cursor {
	const uint8_t *p, *end;
	bool swap;		/* the data is of the other byte order */
	bool bad;
};

void data_cursor__init(struct data_cursor *c, const void *buf, size_t size, bool swap);

/* True when n more bytes are there; else marks the cursor bad.  Inline,
 * as skip, u32 and u64: parsing every sample calls them a dozen times. */
static inline bool data_cursor__need(struct data_cursor *c, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return false;
	}
	return true;
}

/* Bytes left (0 once bad). */
size_t data_cursor__left(const struct data_cursor *c);

uint16_t data_cursor__u16(struct data_cursor *c);

/* The next n bytes, as they are, or NULL; the cursor moves past them. */
static inline const void *data_cursor__skip(struct data_cursor *c, size_t n)
{
	const void *p = c->p;

	if (!data_cursor__need(c, n))
		return NULL;
	c->p += n;
	return p;
}

/* The next u32 / u64, in our byte order (0 when not there). */
static inline uint32_t data_cursor__u32(struct data_cursor *c)
{
	const void *p = data_cursor__skip(c, 4);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return c->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t data_cursor__u64(struct data_cursor *c)
{
	const void *p = data_cursor__skip(c, 8);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, 8);
	return c->swap ? __builtin_bswap64(v) : v;
}

/* n as a count of items: marks the cursor bad (and gives 0) when it is
 * absurd (more than DATA_CURSOR_MAX_ITEMS) or the cursor is already bad. */
uint32_t data_cursor__count(struct data_cursor *c, uint64_t n);

/* A perf string: u32 padded length, then the NUL-padded text.  A malloc'ed
 * copy (NUL-terminated even when the file's is not), or NULL. */
char *data_cursor__str(struct data_cursor *c);

/* A perf string list: u32 count, then that many strings.  Always returns
 * an array (free with str_list__free); *nr is the count read. */
char **data_cursor__str_list(struct data_cursor *c, uint32_t *nr);

void str_list__free(char **v, uint32_t nr);

/* Reverses the byte order of the width-byte (2, 4 or 8) word at p, in place
 * and with no alignment needed. */
void swap_in_place(void *p, size_t width);

#endif
