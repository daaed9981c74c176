/* protobuf: the wire format of protocol buffers (see protobuf.h). */
#include <stdlib.h>
#include <string.h>

#include "util/protobuf.h"
#include "util/util.h"

enum { PB_VARINT = 0, PB_LEN = 2 };

static void pb_reserve(struct pb_buf *b, size_t more)
{
	if (b->len + more <= b->alloc)
		return;
	b->alloc = b->alloc ? b->alloc * 2 : 64;
	if (b->alloc < b->len + more)
		b->alloc = b->len + more;
	b->data = xrealloc(b->data, b->alloc);
}

void pb_varint(struct pb_buf *b, uint64_t v)
{
	pb_reserve(b, 10);
	while (v >= 0x80) {
		b->data[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->data[b->len++] = (uint8_t)v;
}

static void pb_tag(struct pb_buf *b, uint32_t field, unsigned wire_type)
{
	pb_varint(b, (uint64_t)field << 3 | wire_type);
}

void pb_uint(struct pb_buf *b, uint32_t field, uint64_t v)
{
	pb_tag(b, field, PB_VARINT);
	pb_varint(b, v);
}

void pb_bytes(struct pb_buf *b, uint32_t field, const void *data, size_t len)
{
	pb_tag(b, field, PB_LEN);
	pb_varint(b, len);
	pb_append(b, &(struct pb_buf){ .data = (uint8_t *)data, .len = len });
}

void pb_string(struct pb_buf *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

void pb_message(struct pb_buf *b, uint32_t field, const struct pb_buf *msg)
{
	pb_bytes(b, field, msg->data, msg->len);
}

static size_t varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void pb_packed(struct pb_buf *b, uint32_t field, const uint64_t *v, size_t n)
{
	size_t len = 0;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		len += varint_size(v[i]);
	pb_tag(b, field, PB_LEN);
	pb_varint(b, len);
	for (size_t i = 0; i < n; i++)
		pb_varint(b, v[i]);
}

void pb_append(struct pb_buf *b, const struct pb_buf *fields)
{
	pb_reserve(b, fields->len);
	if (fields->len)
		memcpy(b->data + b->len, fields->data, fields->len);
	b->len += fields->len;
}

void pb_reset(struct pb_buf *b)
{
	b->len = 0;
}

void pb_release(struct pb_buf *b)
{
	free(b->data);
	*b = (struct pb_buf){ 0 };
}
