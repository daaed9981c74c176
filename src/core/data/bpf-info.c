/* bpf-info: HEADER_BPF_PROG_INFO and HEADER_BPF_BTF (see bpf-info.h).
 *
 * A program is written as perf keeps it: u32 info_len, u32 data_len, u64
 * a mask of the arrays present, info_len bytes of the kernel's struct
 * bpf_prog_info, then data_len bytes of arrays, each array's field in the
 * info holding its offset into them.  A BTF is u32 id, u32 size, bytes.
 */
#include "core/data/bpf-info.h"
#include "core/data/data-cursor.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf's bits for the arrays of the mask */
enum { ARRAY_JITED_KSYMS = 3, ARRAY_FUNC_LENS = 4, ARRAY_FUNC_INFO = 5, ARRAY_PROG_TAGS = 8 };

/* An array of n items of size bytes at offset off of data, present in
 * the mask, or NULL. */
static const uint8_t *array_at(const uint8_t *data, uint32_t data_len, uint64_t mask, int bit,
			       uint64_t off, uint64_t n, size_t size)
{
	if (!(mask >> bit & 1) || off > data_len || n > (data_len - off) / size)
		return NULL;
	return data + off;
}

static void *copy_of(const uint8_t *from, size_t n)
{
	void *to = xmalloc(n ? n : 1);

	memcpy(to, from, n);
	return to;
}

static void prog_desc__read(struct bpf_prog_desc *p, const struct bpf_prog_info *info,
			    uint64_t mask, const uint8_t *data, uint32_t data_len)
{
	uint32_t n = info->nr_jited_ksyms;
	const uint8_t *addrs = array_at(data, data_len, mask, ARRAY_JITED_KSYMS, info->jited_ksyms,
					n, sizeof(uint64_t));
	const uint8_t *lens = array_at(data, data_len, mask, ARRAY_FUNC_LENS,
				       info->jited_func_lens, n, sizeof(uint32_t));
	const uint8_t *tags = array_at(data, data_len, mask, ARRAY_PROG_TAGS, info->prog_tags, n,
				       BPF_PROG_TAG_LEN);
	uint32_t rec = info->func_info_rec_size;
	const uint8_t *funcs = rec >= 2 * sizeof(uint32_t) && info->nr_func_info >= n ?
		array_at(data, data_len, mask, ARRAY_FUNC_INFO, info->func_info, n, rec) : NULL;

	p->id = info->id;
	p->btf_id = info->btf_id;
	memcpy(p->tag, info->tag, sizeof(p->tag));
	memcpy(p->name, info->name, sizeof(info->name));
	p->name[sizeof(info->name)] = '\0';
	if (!n || n != info->nr_prog_tags || n != info->nr_jited_func_lens || !addrs || !lens ||
	    !tags)
		return;
	p->nr_funcs = n;
	p->addrs = copy_of(addrs, n * sizeof(uint64_t));
	p->lens = copy_of(lens, n * sizeof(uint32_t));
	p->tags = copy_of(tags, (size_t)n * BPF_PROG_TAG_LEN);
	if (funcs) {
		p->func_types = xmalloc(n * sizeof(uint32_t));
		for (uint32_t i = 0; i < n; i++)	/* { insn_off, type_id } */
			memcpy(&p->func_types[i], funcs + (size_t)i * rec + sizeof(uint32_t),
			       sizeof(uint32_t));
	}
}

static int by_prog_id(const void *a, const void *b)
{
	uint32_t x = ((const struct bpf_prog_desc *)a)->id, y = ((const struct bpf_prog_desc *)b)->id;

	return x < y ? -1 : x > y;
}

static int by_btf_id(const void *a, const void *b)
{
	uint32_t x = ((const struct bpf_btf_desc *)a)->id, y = ((const struct bpf_btf_desc *)b)->id;

	return x < y ? -1 : x > y;
}

void bpf_prog_desc__release(struct bpf_prog_desc *p)
{
	free(p->addrs);
	free(p->lens);
	free(p->tags);
	free(p->func_types);
	p->addrs = NULL;
	p->lens = NULL;
	p->tags = NULL;
	p->func_types = NULL;
}

/* One program's entry at c into p; false (c bad) when it does not fit. */
static bool read_entry(struct data_cursor *c, struct bpf_prog_desc *p)
{
	struct bpf_prog_info info = { 0 };
	uint32_t info_len = data_cursor__u32(c), data_len = data_cursor__u32(c);
	uint64_t mask = data_cursor__u64(c);
	const void *raw = info_len <= sizeof(info) ? data_cursor__skip(c, info_len) : NULL;
	const uint8_t *data = raw ? data_cursor__skip(c, data_len) : NULL;

	memset(p, 0, sizeof(*p));
	if (!data) {
		c->bad = true;
		return false;
	}
	memcpy(&info, raw, info_len);
	prog_desc__read(p, &info, mask, data, data_len);
	return true;
}

bool bpf_prog_desc__from_entry(const uint8_t *bytes, size_t len, struct bpf_prog_desc *p)
{
	struct data_cursor c;

	data_cursor__init(&c, bytes, len, false);
	return read_entry(&c, p);
}

bool bpf_prog_descs__parse(struct data_cursor *c, struct bpf_prog_desc **progs, uint32_t *nr)
{
	uint32_t n;
	struct bpf_prog_desc *v;

	*progs = NULL;
	*nr = 0;
	n = data_cursor__count(c, data_cursor__u32(c));
	if (c->bad || c->swap)
		return false;
	v = xcalloc(n ? n : 1, sizeof(*v));
	for (uint32_t i = 0; i < n; i++) {
		if (!read_entry(c, &v[i])) {	/* perf stops reading the feature there too */
			bpf_prog_descs__free(v, i);
			return false;
		}
	}
	/* by id, one of each (perf keeps them so; a file has no twins) */
	qsort(v, n, sizeof(*v), by_prog_id);
	for (uint32_t i = 0; i < n; i++) {
		if (*nr && v[*nr - 1].id == v[i].id)
			bpf_prog_desc__release(&v[i]);
		else
			v[(*nr)++] = v[i];
	}
	*progs = v;
	return true;
}

bool bpf_btf_descs__parse(struct data_cursor *c, struct bpf_btf_desc **btfs, uint32_t *nr)
{
	uint32_t n;
	struct bpf_btf_desc *v;

	*btfs = NULL;
	*nr = 0;
	n = data_cursor__count(c, data_cursor__u32(c));
	if (c->bad || c->swap)
		return false;
	v = xcalloc(n ? n : 1, sizeof(*v));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id = data_cursor__u32(c), size = data_cursor__u32(c);
		const uint8_t *data = data_cursor__skip(c, size);

		if (!data) {
			bpf_btf_descs__free(v, i);
			return false;
		}
		v[i].id = id;
		v[i].size = size;
		v[i].data = copy_of(data, size);
	}
	qsort(v, n, sizeof(*v), by_btf_id);
	for (uint32_t i = 0; i < n; i++) {
		if (*nr && v[*nr - 1].id == v[i].id)
			free(v[i].data);
		else
			v[(*nr)++] = v[i];
	}
	*btfs = v;
	return true;
}

void bpf_prog_descs__free(struct bpf_prog_desc *progs, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		bpf_prog_desc__release(&progs[i]);
	free(progs);
}

void bpf_btf_descs__free(struct bpf_btf_desc *btfs, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		free(btfs[i].data);
	free(btfs);
}

/* The index where id is, or belongs, in an array sorted by id whose ids
 * are at stride bytes from each other. */
static uint32_t slot_of(const void *v, uint32_t n, size_t stride, uint32_t id)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, at;

		memcpy(&at, (const char *)v + mid * stride, sizeof(at));
		if (at < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool bpf_env__has_prog(const struct bpf_env *env, uint32_t id)
{
	uint32_t i = slot_of(env->progs, env->nr_progs, sizeof(*env->progs), id);

	return i < env->nr_progs && env->progs[i].id == id;
}

bool bpf_env__has_btf(const struct bpf_env *env, uint32_t id)
{
	uint32_t i = slot_of(env->btfs, env->nr_btfs, sizeof(*env->btfs), id);

	return i < env->nr_btfs && env->btfs[i].id == id;
}

/* Room for id in a vector sorted by id (items of stride bytes, the id
 * their first u32): the new item, zeroed, or NULL when id is there. */
static void *sorted_insert(void *vec, uint32_t *n, size_t stride, uint32_t id)
{
	void **v = vec;
	uint32_t i = slot_of(*v, *n, stride, id), at;
	char *base;

	if (i < *n) {
		memcpy(&at, (char *)*v + i * stride, sizeof(at));
		if (at == id)
			return NULL;
	}
	*v = xrealloc(*v, (*n + 1) * stride);
	base = *v;
	memmove(base + (i + 1) * stride, base + i * stride, (*n - i) * stride);
	memset(base + i * stride, 0, stride);
	(*n)++;
	return base + i * stride;
}

void bpf_env__add_prog(struct bpf_env *env, uint32_t id, uint8_t *bytes, uint32_t len)
{
	struct bpf_prog_entry *e = sorted_insert(&env->progs, &env->nr_progs, sizeof(*e), id);

	if (!e) {
		free(bytes);
		return;
	}
	*e = (struct bpf_prog_entry){ .id = id, .len = len, .bytes = bytes };
}

void bpf_env__add_btf(struct bpf_env *env, uint32_t id, uint8_t *data, uint32_t size)
{
	struct bpf_btf_desc *b = sorted_insert(&env->btfs, &env->nr_btfs, sizeof(*b), id);

	if (!b) {
		free(data);
		return;
	}
	*b = (struct bpf_btf_desc){ .id = id, .size = size, .data = data };
}

void bpf_env__write_progs(const struct bpf_env *env, struct strbuf *sb)
{
	uint32_t n = env ? env->nr_progs : 0;

	strbuf_add(sb, &n, sizeof(n));
	for (uint32_t i = 0; i < n; i++)
		strbuf_add(sb, env->progs[i].bytes, env->progs[i].len);
}

void bpf_env__write_btfs(const struct bpf_env *env, struct strbuf *sb)
{
	uint32_t n = env ? env->nr_btfs : 0;

	strbuf_add(sb, &n, sizeof(n));
	for (uint32_t i = 0; i < n; i++) {
		strbuf_add(sb, &env->btfs[i].id, sizeof(env->btfs[i].id));
		strbuf_add(sb, &env->btfs[i].size, sizeof(env->btfs[i].size));
		strbuf_add(sb, env->btfs[i].data, env->btfs[i].size);
	}
}

void bpf_env__free(struct bpf_env *env)
{
	for (uint32_t i = 0; i < env->nr_progs; i++)
		free(env->progs[i].bytes);
	free(env->progs);
	bpf_btf_descs__free(env->btfs, env->nr_btfs);
	memset(env, 0, sizeof(*env));
}

static uint32_t le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Bytes of a BTF type's record after its 12-byte head, by kind, or -1. */
static long btf_type_tail(uint32_t info)
{
	uint32_t vlen = info & 0xffff;

	switch ((info >> 24) & 0x1f) {
	case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return 12;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_DATASEC: case BTF_KIND_ENUM64:
		return 12L * vlen;
	case BTF_KIND_ENUM: case BTF_KIND_FUNC_PROTO:
		return 8L * vlen;
	default:
		return -1;
	}
}

const char *btf__type_name(const uint8_t *data, size_t size, uint32_t id)
{
	uint32_t hdr_len, type_off, type_len, str_off, str_len, name_off = 0;
	const uint8_t *t, *end;

	if (size < 24 || data[0] != 0x9f || data[1] != 0xeb || !id)
		return NULL;	/* (little-endian BTF only: 0xeB9F) */
	hdr_len = le32(data + 4);
	type_off = le32(data + 8);
	type_len = le32(data + 12);
	str_off = le32(data + 16);
	str_len = le32(data + 20);
	if (hdr_len > size || type_off > size - hdr_len || type_len > size - hdr_len - type_off ||
	    str_off > size - hdr_len || str_len > size - hdr_len - str_off || !str_len)
		return NULL;
	t = data + hdr_len + type_off;
	end = t + type_len;
	for (uint32_t i = 1; i <= id; i++) {
		long tail;

		if (end - t < 12 || (tail = btf_type_tail(le32(t + 4))) < 0 || end - t - 12 < tail)
			return NULL;
		name_off = le32(t);
		t += 12 + tail;
	}
	if (name_off >= str_len || data[hdr_len + str_off + str_len - 1] != '\0')
		return NULL;
	return (const char *)data + hdr_len + str_off + name_off;
}

void bpf_prog_desc__func_name(const struct bpf_prog_desc *p, uint32_t i,
			      const struct bpf_btf_desc *btfs, uint32_t nr_btfs,
			      char *buf, size_t size)
{
	const struct bpf_btf_desc *btf = NULL;
	const char *short_name = NULL;
	size_t len = (size_t)snprintf(buf, size, "bpf_prog_");

	for (uint32_t j = 0; j < BPF_PROG_TAG_LEN && len < size; j++)
		len += (size_t)snprintf(buf + len, size - len, "%02x", p->tags[i][j]);
	for (uint32_t j = 0; p->btf_id && j < nr_btfs && !btf; j++)
		if (btfs[j].id == p->btf_id)
			btf = &btfs[j];
	if (btf && p->func_types)
		short_name = btf__type_name(btf->data, btf->size, p->func_types[i]);
	else if (i == 0 && p->nr_funcs == 1)
		short_name = p->name[0] ? p->name : NULL;
	else
		short_name = "F";
	if (short_name && len < size)
		snprintf(buf + len, size - len, "_%s", short_name);
}
