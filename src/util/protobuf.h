/* protobuf: the wire format of protocol buffers, enough to write messages
 * of a known .proto (pprof's profile.proto) without generated code.
 *
 * A message is a run of fields, each a tag (field number << 3 | wire
 * type) and a value: a base-128 varint (wire type 0) or a varint length
 * and that many bytes (type 2: strings, bytes, nested messages, packed
 * repeated numbers).  A nested message is written into its own buffer
 * first, then added to its parent with pb_bytes() (its length must be
 * known before its bytes).
 */
#ifndef PCL_PROTOBUF_H
#define PCL_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

struct pb_buf {
	uint8_t *data;
	size_t len, alloc;
};

/* A bare varint (no tag). */
void pb_varint(struct pb_buf *b, uint64_t v);
/* A varint field; int64 fields take negative numbers as their two's
 * complement (ten bytes), which this is with a cast. */
void pb_uint(struct pb_buf *b, uint32_t field, uint64_t v);
/* A length-delimited field: bytes, a string or an encoded message. */
void pb_bytes(struct pb_buf *b, uint32_t field, const void *data, size_t len);
void pb_string(struct pb_buf *b, uint32_t field, const char *s);
void pb_message(struct pb_buf *b, uint32_t field, const struct pb_buf *msg);
/* A packed repeated varint field (nothing when n is 0, as protobuf's own
 * writers do for empty repeated fields). */
void pb_packed(struct pb_buf *b, uint32_t field, const uint64_t *v, size_t n);

/* Appends fields encoded elsewhere (a message's repeated part). */
void pb_append(struct pb_buf *b, const struct pb_buf *fields);

/* Empties b, keeping its memory; pb_release() frees it. */
void pb_reset(struct pb_buf *b);
void pb_release(struct pb_buf *b);

#endif
