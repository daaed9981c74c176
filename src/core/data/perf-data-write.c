/* perf-data-write: the perf.data writer (see perf-data-write.h). */
#include "core/data/perf-data-write.h"
#include "core/data/perf-record.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

/* An entry of the attrs section: the attr, then where its ids are. */
struct perf_file_attr {
	struct perf_event_attr attr;
	struct perf_file_section ids;
};

_Static_assert(sizeof(struct perf_file_header) == 104, "perf.data header is 104 bytes");
_Static_assert(sizeof(struct perf_event_attr) >= PERF_ATTR_SIZE_VER7, "attr too old");

/* The largest payload of one COMPRESSED record (header.size is a u16). */
#define COMP_RECORD_MAX	(0xffff - sizeof(struct perf_event_header))

/* Writes to the data section, keeping its size and the sticky error. */
static int data_out(struct perf_data_writer *w, const void *buf, size_t len)
{
	int err;

	if (w->err)
		return w->err;
	err = write_full(w->fd, buf, len, -1);
	if (err)
		return w->err = err;
	w->data_size += len;
	return 0;
}

/* Whether name is one of the files of perf's directory format ("data",
 * "data.*"): the only entries perf removes with a FILE.old directory. */
static bool is_perf_data_entry(const char *name)
{
	return !strcmp(name, "data") || !strncmp(name, "data.", 5);
}

/* Removes FILE.old as perf does before moving FILE there.  Returns 0,
 * -errno, or -ENOTEMPTY for an entry perf would not remove. */
static int remove_old(const char *old)
{
	struct dirent *ent;
	struct stat st;
	int err = 0;
	DIR *dir;

	if (lstat(old, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(old) ? -errno : 0;
	dir = opendir(old);
	if (!dir)
		return -errno;
	while (!err && (ent = readdir(dir))) {
		char *entry;

		if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
			continue;
		if (!is_perf_data_entry(ent->d_name)) {
			err = -ENOTEMPTY;
			break;
		}
		entry = xasprintf("%s/%s", old, ent->d_name);
		if (unlink(entry))
			err = -errno;
		free(entry);
	}
	closedir(dir);
	if (!err && rmdir(old))
		err = -errno;
	return err;
}

int perf_data__keep_old(const char *path, char **why)
{
	struct stat st;
	char *old;
	int err;

	/* a directory (record --threads) goes too, as perf moves it */
	if (stat(path, &st) || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) || !st.st_size)
		return 0;
	old = xasprintf("%s.old", path);
	err = remove_old(old);
	if (err)
		*why = xasprintf("Can't remove old data: %s (%s)",
				 err == -ENOTEMPTY ? "Unknown file found" : strerror(-err), old);
	else if (rename(path, old)) {
		err = -errno;
		*why = xasprintf("Can't move data: %s (%s to %s)", strerror(-err), path, old);
	}
	free(old);
	return err;
}

int perf_data_writer__open(struct perf_data_writer *w, const char *path)
{
	struct stat st;

	memset(w, 0, sizeof(*w));
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		int err = -errno;

		w->fd = -1;
		return err;
	}
	/* An existing file keeps its mode through O_TRUNC: perf.data is private.
	 * (Never touch the mode of a device someone pointed -o at.) */
	if (fstat(w->fd, &st) == 0 && S_ISREG(st.st_mode) && fchmod(w->fd, 0600) < 0) {
		int err = -errno;

		close(w->fd);
		w->fd = -1;
		return err;
	}
	w->path = xstrdup(path);
	w->buf = xmalloc(PERF_DATA_WRITE_BUF);
	return 0;
}

void perf_data_writer__open_pipe(struct perf_data_writer *w, int fd)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->pipe = true;
	w->buf = xmalloc(PERF_DATA_WRITE_BUF);
}

/* Pipe mode: the short header, then each event as a HEADER_ATTR record
 * (the attr followed by its ids). */
static int write_pipe_header(struct perf_data_writer *w,
			     const struct perf_data_writer_attr *attrs, size_t nr_attrs)
{
	struct perf_pipe_file_header ph = { .magic = PERF_MAGIC2, .size = sizeof(ph) };
	int err = data_out(w, &ph, sizeof(ph));

	for (size_t i = 0; i < nr_attrs && !err; i++) {
		size_t size = sizeof(struct perf_event_header) + sizeof(struct perf_event_attr) +
			      attrs[i].nr_ids * sizeof(uint64_t);
		struct perf_event_header *h = xcalloc(1, size);
		struct perf_event_attr *attr = (void *)(h + 1);

		if (size > UINT16_MAX) {
			free(h);
			return w->err = -E2BIG;
		}
		h->type = PERF_RECORD_HEADER_ATTR;
		h->size = (uint16_t)size;
		*attr = *attrs[i].attr;
		attr->size = sizeof(*attr);
		if (attrs[i].nr_ids)
			memcpy(attr + 1, attrs[i].ids, attrs[i].nr_ids * sizeof(uint64_t));
		err = data_out(w, h, size);
		free(h);
	}
	return err;
}

/* The id arrays then the attrs, right after the file header, as perf lays
 * them out; *end gets where they end. */
static int write_attrs(struct perf_data_writer *w, const struct perf_data_writer_attr *attrs,
		       size_t nr_attrs, uint64_t *end)
{
	struct perf_file_header *h = &w->header;
	struct perf_file_attr *fattrs = xcalloc(nr_attrs, sizeof(*fattrs));
	uint64_t off = sizeof(*h);
	int err = 0;

	for (size_t i = 0; i < nr_attrs && !err; i++) {
		size_t n = attrs[i].nr_ids * sizeof(uint64_t);

		fattrs[i].attr = *attrs[i].attr;
		fattrs[i].attr.size = sizeof(struct perf_event_attr);
		fattrs[i].ids.offset = off;
		fattrs[i].ids.size = n;
		if (n)
			err = write_full(w->fd, attrs[i].ids, n, (off_t)off);
		off += n;
	}
	h->attrs.offset = off;
	h->attrs.size = nr_attrs * sizeof(*fattrs);
	if (!err)
		err = write_full(w->fd, fattrs, h->attrs.size, (off_t)off);
	free(fattrs);
	*end = off + h->attrs.size;
	return err;
}

int perf_data_writer__write_header(struct perf_data_writer *w,
				   const struct perf_data_writer_attr *attrs, size_t nr_attrs)
{
	struct perf_file_header *h = &w->header;
	uint64_t off = 0;
	int err;

	if (w->pipe)
		return write_pipe_header(w, attrs, nr_attrs);
	memset(h, 0, sizeof(*h));
	h->magic = PERF_MAGIC2;
	h->size = sizeof(*h);
	h->attr_size = sizeof(struct perf_file_attr);

	/* Layout like perf: header, every event's ids, the attrs, the data. */
	err = write_full(w->fd, h, sizeof(*h), 0);
	if (!err)
		err = write_attrs(w, attrs, nr_attrs, &off);
	if (off < w->min_data_offset)
		off = w->min_data_offset;
	h->data.offset = off;
	h->data.size = 0;
	if (!err)
		err = write_full(w->fd, h, sizeof(*h), 0);
	if (!err && lseek(w->fd, (off_t)off, SEEK_SET) < 0)
		err = -errno;
	w->data_offset = off;
	w->data_size = 0;
	if (err)
		w->err = err;
	return err;
}

int perf_data_writer__rewrite_attrs(struct perf_data_writer *w,
				    const struct perf_data_writer_attr *attrs, size_t nr_attrs)
{
	uint64_t need = sizeof(struct perf_file_header);
	uint64_t end;
	int err;

	for (size_t i = 0; i < nr_attrs; i++)
		need += attrs[i].nr_ids * sizeof(uint64_t) + sizeof(struct perf_file_attr);
	if (w->pipe || need > w->data_offset)
		return -ENOSPC;
	err = write_attrs(w, attrs, nr_attrs, &end);
	if (err)
		w->err = err;
	return err;
}

int perf_data_writer__set_compression(struct perf_data_writer *w, int level)
{
	int err = perf_data_writer__flush(w);

	if (err)
		return err;
	if (!w->zstd) {
		w->zstd = ZSTD_createCCtx();
		if (!w->zstd)
			return w->err = -ENOMEM;
		w->zbuf = xmalloc(sizeof(struct perf_event_header) + COMP_RECORD_MAX);
	}
	if (ZSTD_isError(ZSTD_CCtx_setParameter(w->zstd, ZSTD_c_compressionLevel, level)))
		return -EINVAL;
	w->comp_level = level;
	return 0;
}

uint32_t perf_data_writer__comp_mmap_len(void)
{
	return PERF_DATA_WRITE_BUF + 2 * 65536;
}

/* Compresses the buffer into COMPRESSED records, flushing the zstd stream at
 * the end so each record decompresses to whole-or-carried-over records. */
static int compress_out(struct perf_data_writer *w)
{
	ZSTD_inBuffer in = { w->buf, w->buf_len, 0 };
	struct perf_event_header *hdr = (struct perf_event_header *)w->zbuf;
	size_t rem;

	do {
		ZSTD_outBuffer out = { w->zbuf + sizeof(*hdr), COMP_RECORD_MAX, 0 };
		int err;

		rem = ZSTD_compressStream2(w->zstd, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(rem))
			return w->err = -EIO;
		if (!out.pos)
			continue;
		hdr->type = PERF_RECORD_COMPRESSED;
		hdr->misc = 0;
		hdr->size = (uint16_t)(sizeof(*hdr) + out.pos);
		err = data_out(w, w->zbuf, hdr->size);
		if (err)
			return err;
	} while (rem || in.pos < in.size);
	return 0;
}

int perf_data_writer__flush(struct perf_data_writer *w)
{
	int err;

	if (w->err)
		return w->err;
	if (!w->buf_len)
		return 0;
	err = w->zstd ? compress_out(w) : data_out(w, w->buf, w->buf_len);
	w->buf_len = 0;
	return err;
}

int perf_data_writer__write(struct perf_data_writer *w, const void *data, size_t len)
{
	int err;

	if (w->err)
		return w->err;
	w->raw_size += len;
	if (w->buf_len + len > PERF_DATA_WRITE_BUF) {
		err = perf_data_writer__flush(w);
		if (err)
			return err;
		/* Too big to buffer (only possible uncompressed): straight out. */
		if (len > PERF_DATA_WRITE_BUF && !w->zstd)
			return data_out(w, data, len);
	}
	while (len > PERF_DATA_WRITE_BUF) {
		/* Compressed: feed big inputs in whole-record slices. */
		const struct perf_event_header *h = data;
		size_t n = 0;

		while (n + h->size <= PERF_DATA_WRITE_BUF && h->size) {
			n += h->size;
			h = (const void *)((const char *)data + n);
		}
		if (!n)
			return w->err = -EINVAL;
		memcpy(w->buf, data, n);
		w->buf_len = n;
		err = perf_data_writer__flush(w);
		if (err)
			return err;
		data = (const char *)data + n;
		len -= n;
	}
	memcpy(w->buf + w->buf_len, data, len);
	w->buf_len += len;
	return 0;
}

int perf_data_writer__write_uncompressed(struct perf_data_writer *w, const void *data,
					 size_t len)
{
	int err;

	if (!w->zstd)
		return perf_data_writer__write(w, data, len);
	err = perf_data_writer__flush(w);
	if (err)
		return err;
	w->raw_size += len;
	return data_out(w, data, len);
}

void perf_data_writer__set_feature(struct perf_data_writer *w, int feat, void *data,
				   size_t size)
{
	if (feat <= HEADER_RESERVED || feat >= HEADER_LAST_FEATURE) {
		free(data);
		return;
	}
	free(w->features[feat].data);
	w->features[feat].data = data;
	w->features[feat].size = size;
}

uint64_t perf_data_writer__size(const struct perf_data_writer *w)
{
	return w->data_offset + w->data_size;
}

static int write_features(struct perf_data_writer *w)
{
	struct perf_file_section sec[HEADER_LAST_FEATURE];
	uint64_t table = w->data_offset + w->data_size, off;
	int nr = 0, err;

	for (int f = 1; f < HEADER_LAST_FEATURE; f++)
		if (w->features[f].data)
			nr++;
	off = table + nr * sizeof(struct perf_file_section);
	nr = 0;
	for (int f = 1; f < HEADER_LAST_FEATURE; f++) {
		if (!w->features[f].data)
			continue;
		sec[nr].offset = off;
		sec[nr].size = w->features[f].size;
		err = write_full(w->fd, w->features[f].data, w->features[f].size, (off_t)off);
		if (err)
			return err;
		off += w->features[f].size;
		w->header.adds_features[f / 64] |= 1ULL << (f % 64);
		nr++;
	}
	return write_full(w->fd, sec, nr * sizeof(sec[0]), (off_t)table);
}

/* The tracing data travels after its record, padded to 8 bytes; the
 * record's size counts the padding, as perf's reader checks. */
static int write_tracing_data_record(struct perf_data_writer *w)
{
	static const char zeros[8];
	const struct perf_data_feature *f = &w->features[HEADER_TRACING_DATA];
	struct perf_rec_tracing_data rec = {
		.header = { .type = PERF_RECORD_HEADER_TRACING_DATA, .size = sizeof(rec) },
		.size = (uint32_t)((f->size + 7) & ~(size_t)7),
	};
	int err = data_out(w, &rec, sizeof(rec));

	if (!err)
		err = data_out(w, f->data, f->size);
	if (!err && f->size % 8)
		err = data_out(w, zeros, 8 - f->size % 8);
	return err;
}

int perf_data_writer__write_pipe_features(struct perf_data_writer *w)
{
	struct perf_event_header h = { .type = PERF_RECORD_HEADER_FEATURE };
	int err = 0;

	for (uint64_t f = 1; f <= HEADER_LAST_FEATURE && !err; f++) {
		const struct perf_data_feature *feat = f < HEADER_LAST_FEATURE ? &w->features[f]
									   : NULL;
		size_t size = sizeof(h) + sizeof(f) + (feat ? feat->size : 0);

		/* Build ids are only known at the end, which a pipe never
		 * revisits; the tracing data has a record of its own; perf
		 * 6.1 does not put the caches in a pipe. */
		if (f == HEADER_BUILD_ID || f == HEADER_TRACING_DATA || f == HEADER_CACHE ||
		    (feat && !feat->data))
			continue;
		if (size > UINT16_MAX)
			return w->err = -E2BIG;
		h.size = (uint16_t)size;
		err = data_out(w, &h, sizeof(h));
		if (!err)
			err = data_out(w, &f, sizeof(f));
		/* A record with the id HEADER_LAST_FEATURE closes the list. */
		if (!err && feat)
			err = data_out(w, feat->data, feat->size);
	}
	if (!err && w->features[HEADER_TRACING_DATA].data)
		err = write_tracing_data_record(w);
	for (int f = 0; f < HEADER_LAST_FEATURE; f++) {
		free(w->features[f].data);
		w->features[f].data = NULL;
	}
	return err;
}

static void writer_release(struct perf_data_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	free(w->path);
	w->path = NULL;
	free(w->buf);
	w->buf = NULL;
	free(w->zbuf);
	w->zbuf = NULL;
	ZSTD_freeCCtx(w->zstd);
	w->zstd = NULL;
	for (int f = 0; f < HEADER_LAST_FEATURE; f++) {
		free(w->features[f].data);
		w->features[f].data = NULL;
	}
}

int perf_data_writer__finish(struct perf_data_writer *w)
{
	int err = perf_data_writer__flush(w);

	if (!err && !w->pipe)
		err = write_features(w);
	if (!err && !w->pipe) {
		w->header.data.size = w->data_size;
		err = write_full(w->fd, &w->header, sizeof(w->header), 0);
	}
	if (!err && close(w->fd) < 0)
		err = -errno;
	w->fd = -1;
	writer_release(w);
	if (err)
		w->err = err;
	return err;
}

void perf_data_writer__close(struct perf_data_writer *w)
{
	perf_data_writer__flush(w);
	writer_release(w);
}

/* Copies len bytes at from in in to at in out. */
static int copy_range(int in, uint64_t from, int out, uint64_t at, uint64_t len)
{
	enum { CHUNK = 1 << 20 };
	char *buf = xmalloc(CHUNK);
	int err = 0;

	while (len && !err) {
		size_t n = len < CHUNK ? (size_t)len : CHUNK;

		err = read_full(in, buf, n, (off_t)from);
		if (!err)
			err = write_full(out, buf, n, (off_t)at);
		from += n;
		at += n;
		len -= n;
	}
	free(buf);
	return err;
}

static bool has_feature_bit(const uint64_t *bits, int feat)
{
	return (bits[feat / 64] >> (feat % 64)) & 1;
}

static int copy_with_feature(int in, int out, int feat, const void *data, size_t size)
{
	struct perf_file_header h;
	struct perf_file_section old[HEADER_FEAT_BITS], sec[HEADER_FEAT_BITS];
	uint64_t old_bits[HEADER_FEAT_BITS / 64], table, off;
	int nr_old = 0, nr = 0, err;

	if (read_full(in, &h, sizeof(h), 0) < 0 || h.magic != PERF_MAGIC2 || h.size != sizeof(h))
		return -EINVAL;
	memcpy(old_bits, h.adds_features, sizeof(old_bits));
	h.adds_features[feat / 64] |= 1ULL << (feat % 64);
	for (int f = 1; f < HEADER_FEAT_BITS; f++) {
		nr_old += has_feature_bit(old_bits, f);
		nr += has_feature_bit(h.adds_features, f);
	}
	table = h.data.offset + h.data.size;
	if (nr_old && read_full(in, old, nr_old * sizeof(old[0]), (off_t)table) < 0)
		return -EINVAL;
	err = copy_range(in, 0, out, 0, table);
	/* the payloads after the new table, in feature order; feat's replaced */
	off = table + nr * sizeof(sec[0]);
	for (int f = 1, i = 0, n = 0; f < HEADER_FEAT_BITS && !err; f++) {
		const struct perf_file_section *o = has_feature_bit(old_bits, f) ? &old[i++] : NULL;

		if (f == feat) {
			sec[n] = (struct perf_file_section){ off, size };
			err = write_full(out, data, size, (off_t)off);
		} else if (o) {
			sec[n] = (struct perf_file_section){ off, o->size };
			err = copy_range(in, o->offset, out, off, o->size);
		} else {
			continue;
		}
		off += sec[n++].size;
	}
	if (!err)
		err = write_full(out, sec, nr * sizeof(sec[0]), (off_t)table);
	return err ? err : write_full(out, &h, sizeof(h), 0);
}

int perf_data__copy_with_feature(const char *input, const char *output, int feat,
				 const void *data, size_t size)
{
	int in = open(input, O_RDONLY | O_CLOEXEC), out, err;
	struct stat in_st, out_st;

	if (in < 0)
		return -errno;
	/* the copy must not truncate its own input */
	if (!fstat(in, &in_st) && !stat(output, &out_st) && in_st.st_dev == out_st.st_dev &&
	    in_st.st_ino == out_st.st_ino) {
		close(in);
		return -EEXIST;
	}
	out = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	err = copy_with_feature(in, out, feat, data, size);
	close(in);
	if (close(out) && !err)
		err = -errno;
	return err;
}
