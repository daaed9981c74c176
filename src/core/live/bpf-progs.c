/* bpf-progs: loaded BPF programs through bpf(2) (see bpf-progs.h). */
#include "core/live/bpf-progs.h"
#include "util/util.h"

#include <errno.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	long ret = syscall(__NR_bpf, cmd, attr, sizeof(*attr));

	return ret < 0 ? -errno : (int)ret;
}

int bpf_progs__next_id(uint32_t id, uint32_t *next)
{
	union bpf_attr attr;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = id;
	err = sys_bpf(BPF_PROG_GET_NEXT_ID, &attr);
	if (!err)
		*next = attr.next_id;
	return err;
}

static int info_by_fd(int fd, void *info, uint32_t *len)
{
	union bpf_attr attr;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = *len;
	attr.info.info = (uint64_t)(uintptr_t)info;
	err = sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr);
	if (!err)
		*len = attr.info.info_len;
	return err;
}

/* The arrays of a program's info perf asks for, by its bit numbers (the
 * mask of an entry): where each one's count, item size and address are. */
#define F(field) offsetof(struct bpf_prog_info, field)
static const struct prog_array {
	size_t count, size, addr;	/* addr 0: not asked for */
	uint32_t fixed;			/* the item size when there is no size field */
} prog_arrays[] = {
	[0] = { F(jited_prog_len), 0, F(jited_prog_insns), 1 },
	[3] = { F(nr_jited_ksyms), 0, F(jited_ksyms), 8 },
	[4] = { F(nr_jited_func_lens), 0, F(jited_func_lens), 4 },
	[5] = { F(nr_func_info), F(func_info_rec_size), F(func_info), 0 },
	[6] = { F(nr_line_info), F(line_info_rec_size), F(line_info), 0 },
	[7] = { F(nr_jited_line_info), F(jited_line_info_rec_size), F(jited_line_info), 0 },
	[8] = { F(nr_prog_tags), 0, F(prog_tags), 8 },
};
#undef F
#define NR_PROG_ARRAYS (sizeof(prog_arrays) / sizeof(prog_arrays[0]))

static uint32_t info_u32(const struct bpf_prog_info *info, size_t off)
{
	uint32_t v;

	memcpy(&v, (const char *)info + off, sizeof(v));
	return v;
}

static void info_set_u32(struct bpf_prog_info *info, size_t off, uint32_t v)
{
	memcpy((char *)info + off, &v, sizeof(v));
}

static void info_set_u64(struct bpf_prog_info *info, size_t off, uint64_t v)
{
	memcpy((char *)info + off, &v, sizeof(v));
}

static uint32_t item_size(const struct bpf_prog_info *info, const struct prog_array *a)
{
	return a->fixed ? a->fixed : info_u32(info, a->size);
}

/* The bytes an array takes: each starts 8-byte aligned, as perf lays them. */
static uint64_t array_bytes(const struct bpf_prog_info *info, const struct prog_array *a)
{
	return ((uint64_t)info_u32(info, a->count) * item_size(info, a) + 7) & ~7ULL;
}

/* The entry of the program open as fd, in perf's layout: u32 info_len,
 * u32 data_len, u64 mask, the info, then the arrays one after the other
 * (each padded to 8 bytes), the info's array fields holding their offsets.  Its info in *out. */
static int read_entry(int fd, struct bpf_prog_info *out, uint8_t **bytes, uint32_t *len)
{
	struct bpf_prog_info sizes = { 0 }, info = { 0 };
	uint32_t info_len = sizeof(sizes);
	uint64_t data_len = 0;
	uint64_t mask = 0, off = 0;
	uint8_t *buf, *data;
	size_t head;
	int err;

	/* first the arrays' sizes, then the arrays */
	err = info_by_fd(fd, &sizes, &info_len);
	if (err)
		return err;
	for (size_t i = 0; i < NR_PROG_ARRAYS; i++) {
		const struct prog_array *a = &prog_arrays[i];

		if (!a->addr || info_len < a->addr + sizeof(uint64_t))
			continue;
		mask |= 1ULL << i;
		data_len += array_bytes(&sizes, a);
	}
	if (data_len > UINT32_MAX / 2)
		return -E2BIG;
	head = 2 * sizeof(uint32_t) + sizeof(uint64_t) + info_len;
	buf = xcalloc(1, head + data_len + 1);
	data = buf + head;
	for (size_t i = 0; i < NR_PROG_ARRAYS; i++) {
		const struct prog_array *a = &prog_arrays[i];

		if (!(mask >> i & 1))
			continue;
		info_set_u32(&info, a->count, info_u32(&sizes, a->count));
		if (!a->fixed)
			info_set_u32(&info, a->size, item_size(&sizes, a));
		info_set_u64(&info, a->addr, (uint64_t)(uintptr_t)(data + off));
		off += array_bytes(&sizes, a);
	}
	err = info_by_fd(fd, &info, &info_len);
	for (size_t i = 0; !err && i < NR_PROG_ARRAYS; i++) {
		const struct prog_array *a = &prog_arrays[i];

		if (!(mask >> i & 1))
			continue;
		/* a program does not change, but its id may now be another's */
		if (info_u32(&info, a->count) != info_u32(&sizes, a->count) ||
		    item_size(&info, a) != item_size(&sizes, a))
			err = -EAGAIN;
	}
	if (err) {
		free(buf);
		return err;
	}
	/* addresses become offsets into the arrays */
	off = 0;
	for (size_t i = 0; i < NR_PROG_ARRAYS; i++) {
		const struct prog_array *a = &prog_arrays[i];

		if (!(mask >> i & 1))
			continue;
		info_set_u64(&info, a->addr, off);
		off += array_bytes(&info, a);
	}
	memcpy(buf, &info_len, sizeof(info_len));
	memcpy(buf + 4, &(uint32_t){ (uint32_t)data_len }, sizeof(uint32_t));
	memcpy(buf + 8, &mask, sizeof(mask));
	memcpy(buf + 16, &info, info_len);
	*out = info;
	*bytes = buf;
	*len = (uint32_t)(head + data_len);
	return 0;
}

/* The raw BTF of id (header, types, strings) added to env. */
static int fetch_btf(struct bpf_env *env, uint32_t id)
{
	struct bpf_btf_info info = { 0 };
	uint32_t len = sizeof(info);
	union bpf_attr attr;
	uint8_t *data;
	int fd, err;

	if (bpf_env__has_btf(env, id))
		return 0;
	memset(&attr, 0, sizeof(attr));
	attr.btf_id = id;
	fd = sys_bpf(BPF_BTF_GET_FD_BY_ID, &attr);
	if (fd < 0)
		return fd;
	err = info_by_fd(fd, &info, &len);
	if (!err) {
		uint32_t size = info.btf_size;

		data = xmalloc(size ? size : 1);
		memset(&info, 0, sizeof(info));
		info.btf = (uint64_t)(uintptr_t)data;
		info.btf_size = size;
		len = sizeof(info);
		err = info_by_fd(fd, &info, &len);
		if (!err && info.btf_size != size)
			err = -EAGAIN;
		if (!err)
			bpf_env__add_btf(env, id, data, size);
		else
			free(data);
	}
	close(fd);
	return err;
}

static int prog_fd(uint32_t id)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_id = id;
	return sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr);
}

int bpf_progs__read(struct bpf_env *env, uint32_t id, bool keep, struct bpf_prog_desc *p)
{
	struct bpf_prog_info info;
	uint8_t *bytes = NULL;
	uint32_t len, n;
	int fd = prog_fd(id), err;

	memset(p, 0, sizeof(*p));
	if (fd < 0)
		return fd;
	err = read_entry(fd, &info, &bytes, &len);
	close(fd);
	if (err)
		return err;
	/* as perf: one address, length and tag per function, and as many
	 * BTF function records when there are any */
	n = info.nr_jited_ksyms;
	if (n != info.nr_prog_tags || n != info.nr_jited_func_lens)
		err = -EINVAL;
	else if (info.btf_id && info.nr_func_info && info.func_info_rec_size &&
		 (n != info.nr_func_info || fetch_btf(env, info.btf_id)))
		err = -EINVAL;
	else if (!bpf_prog_desc__from_entry(bytes, len, p))
		err = -EINVAL;
	if (!err && keep)
		bpf_env__add_prog(env, id, bytes, len);
	else
		free(bytes);
	return err;
}

void bpf_progs__note_load(struct bpf_env *env, uint32_t id)
{
	struct bpf_prog_info info;
	uint8_t *bytes;
	uint32_t len;
	int fd;

	if (bpf_env__has_prog(env, id) || (fd = prog_fd(id)) < 0)
		return;
	if (!read_entry(fd, &info, &bytes, &len)) {
		bpf_env__add_prog(env, id, bytes, len);
		if (info.btf_id)
			fetch_btf(env, info.btf_id);
	}
	close(fd);
}
