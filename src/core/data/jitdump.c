/* jitdump: the jit-PID.dump reader (jitdump.h). */
#include "core/data/jitdump.h"

#include <byteswap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define HEADER_SIZE	40	/* magic .. flags, version 1 */
#define PREFIX_SIZE	16	/* id, total_size, timestamp */

/* A bounded reader of one record's bytes. */
struct cursor {
	const struct jitdump *jd;
	const uint8_t *p, *end;
	char **err;
};

static int fail(char **err, uint64_t offset, const char *reason)
{
	*err = xasprintf("offset %#llx: %s", (unsigned long long)offset, reason);
	return -1;
}

static uint64_t cursor_offset(const struct cursor *c)
{
	return (uint64_t)(c->p - c->jd->buf);
}

static bool take(struct cursor *c, void *out, size_t size, const char *what)
{
	char reason[96];

	if ((size_t)(c->end - c->p) < size) {
		snprintf(reason, sizeof(reason), "record too short for its %s", what);
		fail(c->err, cursor_offset(c), reason);
		return false;
	}
	memcpy(out, c->p, size);
	c->p += size;
	return true;
}

static bool take_u32(struct cursor *c, uint32_t *v, const char *what)
{
	if (!take(c, v, sizeof(*v), what))
		return false;
	if (c->jd->swapped)
		*v = bswap_32(*v);
	return true;
}

static bool take_u64(struct cursor *c, uint64_t *v, const char *what)
{
	if (!take(c, v, sizeof(*v), what))
		return false;
	if (c->jd->swapped)
		*v = bswap_64(*v);
	return true;
}

/* A NUL-terminated string inside the record. */
static bool take_string(struct cursor *c, const char **s, const char *what)
{
	const uint8_t *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
	char reason[96];

	if (!nul) {
		snprintf(reason, sizeof(reason), "%s not terminated inside the record", what);
		fail(c->err, cursor_offset(c), reason);
		return false;
	}
	*s = (const char *)c->p;
	c->p = nul + 1;
	return true;
}

int jitdump__open(struct jitdump *jd, const void *buf, size_t len, char **err)
{
	struct cursor c = { .jd = jd, .p = buf, .end = (const uint8_t *)buf + len, .err = err };
	uint32_t magic, total_size, pad;

	memset(jd, 0, sizeof(*jd));
	jd->buf = buf;
	jd->len = len;
	if (len < HEADER_SIZE)
		return fail(err, 0, "file too short for a jitdump header");
	memcpy(&magic, buf, sizeof(magic));
	if (magic == bswap_32(JITDUMP_MAGIC))
		jd->swapped = true;
	else if (magic != JITDUMP_MAGIC)
		return fail(err, 0, "bad magic, not a jitdump");
	c.p += sizeof(magic);
	if (!take_u32(&c, &jd->version, "header") || !take_u32(&c, &total_size, "header") ||
	    !take_u32(&c, &jd->elf_mach, "header") || !take_u32(&c, &pad, "header") ||
	    !take_u32(&c, &jd->pid, "header") || !take_u64(&c, &jd->timestamp, "header") ||
	    !take_u64(&c, &jd->flags, "header"))
		return -1;
	if (jd->version == 0 || jd->version > JITDUMP_VERSION) {
		*err = xasprintf("offset 0x4: version %u, only 1 is known", jd->version);
		return -1;
	}
	if (total_size < HEADER_SIZE || total_size > len)
		return fail(err, 8, "header size out of bounds");
	jd->pos = total_size;
	return 0;
}

static int read_load(struct cursor *c, struct jit_record *r)
{
	if (!take_u32(c, &r->load.pid, "pid") || !take_u32(c, &r->load.tid, "tid") ||
	    !take_u64(c, &r->load.vma, "vma") || !take_u64(c, &r->load.code_addr, "code address") ||
	    !take_u64(c, &r->load.code_size, "code size") ||
	    !take_u64(c, &r->load.code_index, "code index") ||
	    !take_string(c, &r->load.name, "function name"))
		return -1;
	if (r->load.code_size > (uint64_t)(c->end - c->p))
		return fail(c->err, cursor_offset(c), "code size runs past the record");
	/* the code is the record's last bytes (JITs may pad the name) */
	r->load.code = c->end - r->load.code_size;
	return 0;
}

static int read_move(struct cursor *c, struct jit_record *r)
{
	if (!take_u32(c, &r->move.pid, "pid") || !take_u32(c, &r->move.tid, "tid") ||
	    !take_u64(c, &r->move.vma, "vma") ||
	    !take_u64(c, &r->move.old_code_addr, "old code address") ||
	    !take_u64(c, &r->move.new_code_addr, "new code address") ||
	    !take_u64(c, &r->move.code_size, "code size") ||
	    !take_u64(c, &r->move.code_index, "code index"))
		return -1;
	return 0;
}

static int read_debug_info(struct cursor *c, struct jit_record *r)
{
	struct jitdump *jd = (struct jitdump *)c->jd;
	uint64_t nr;

	if (!take_u64(c, &r->debug.code_addr, "code address") ||
	    !take_u64(c, &nr, "entry count"))
		return -1;
	/* each entry takes at least 17 bytes: never trust the count alone */
	if (nr > (uint64_t)(c->end - c->p) / 17)
		return fail(c->err, cursor_offset(c) - 8, "more entries than the record holds");
	if (nr > jd->entries_alloc) {
		jd->entries = xrealloc(jd->entries, (size_t)nr * sizeof(*jd->entries));
		jd->entries_alloc = (size_t)nr;
	}
	for (size_t i = 0; i < nr; i++) {
		struct jit_debug_entry *e = &jd->entries[i];

		if (!take_u64(c, &e->addr, "entry address") ||
		    !take_u32(c, &e->line, "entry line") ||
		    !take_u32(c, &e->discrim, "entry discriminator") ||
		    !take_string(c, &e->file, "entry file name"))
			return -1;
	}
	r->debug.nr_entries = (size_t)nr;
	r->debug.entries = jd->entries;
	return 0;
}

static int read_unwinding_info(struct cursor *c, struct jit_record *r)
{
	if (!take_u64(c, &r->unwind.unwinding_size, "unwinding size") ||
	    !take_u64(c, &r->unwind.eh_frame_hdr_size, "eh_frame_hdr size") ||
	    !take_u64(c, &r->unwind.mapped_size, "mapped size"))
		return -1;
	if (r->unwind.unwinding_size > (uint64_t)(c->end - c->p))
		return fail(c->err, cursor_offset(c), "unwinding data runs past the record");
	if (r->unwind.eh_frame_hdr_size > r->unwind.unwinding_size)
		return fail(c->err, cursor_offset(c) - 16,
			    "eh_frame_hdr larger than the unwinding data");
	r->unwind.data = c->p;
	return 0;
}

int jitdump__next(struct jitdump *jd, struct jit_record *rec, char **err)
{
	struct cursor c = {
		.jd = jd, .p = jd->buf + jd->pos, .end = jd->buf + jd->len, .err = err,
	};
	uint32_t total_size;
	int rc = 0;

	if (jd->pos == jd->len)
		return 0;
	memset(rec, 0, sizeof(*rec));
	rec->offset = jd->pos;
	if (jd->len - jd->pos < PREFIX_SIZE)
		return fail(err, jd->pos, "truncated record prefix");
	if (!take_u32(&c, &rec->id, "id") || !take_u32(&c, &total_size, "size") ||
	    !take_u64(&c, &rec->timestamp, "timestamp"))
		return -1;
	if (total_size < PREFIX_SIZE)
		return fail(err, jd->pos + 4, "record size smaller than its prefix");
	if (total_size > jd->len - jd->pos)
		return fail(err, jd->pos + 4, "record runs past the end of the file");
	c.end = jd->buf + jd->pos + total_size;
	switch (rec->id) {
	case JIT_CODE_LOAD:		rc = read_load(&c, rec); break;
	case JIT_CODE_MOVE:		rc = read_move(&c, rec); break;
	case JIT_CODE_DEBUG_INFO:	rc = read_debug_info(&c, rec); break;
	case JIT_CODE_UNWINDING_INFO:	rc = read_unwinding_info(&c, rec); break;
	default:			break;	/* CLOSE, and ids newer than us */
	}
	if (rc)
		return -1;
	jd->pos += total_size;
	return 1;
}

void jitdump__exit(struct jitdump *jd)
{
	free(jd->entries);
	jd->entries = NULL;
	jd->entries_alloc = 0;
}
