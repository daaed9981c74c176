/* jit-inject: jitdump files merged into a perf.data stream (jit-inject.h). */
#include "core/data/jit-inject.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "core/data/jitdump.h"
#include "core/data/session.h"
#include "core/symbols/buildid.h"
#include "core/symbols/jit-elf.h"
#include "util/util.h"

/* One dump being merged. */
struct dump_reader {
	struct jit_inject *ji;
	const char *path;
	char *dir;
	pid_t pid;		/* of the map, as the recording knows the process */
	/* the JIT's own pid (jit-PID.dump), which names the images; another
	 * than pid when the JIT runs in a PID namespace, whose records then go
	 * to pid's process and thread as perf's do */
	pid_t dump_pid;
	struct jitdump jd;
	/* what the next CODE_LOAD's image gets */
	struct jit_debug_entry *lines;
	size_t nr_lines;
	uint8_t *unwind;
	uint64_t unwind_size, eh_frame_hdr_size, unwind_mapped_size;
};

void jit_inject__init(struct jit_inject *ji, struct perf_session *s, jit_emit_fn emit,
		      void *ctx, FILE *warn)
{
	memset(ji, 0, sizeof(*ji));
	ji->session = s;
	ji->emit = emit;
	ji->ctx = ctx;
	ji->warn = warn;
}

void jit_inject__exit(struct jit_inject *ji)
{
	for (size_t i = 0; i < ji->nr_images; i++)
		free((char *)ji->images[i].filename);
	free(ji->images);
	free(ji->pids);
	free(ji->err);
	ji->images = NULL;
	ji->pids = NULL;
	ji->err = NULL;
}

static bool dump_was_read(const struct jit_inject *ji, pid_t pid)
{
	for (size_t i = 0; i < ji->nr_pids; i++)
		if (ji->pids[i] == pid)
			return true;
	return false;
}

/* The PID of ".../jit-PID.dump", or -1 for another file. */
static pid_t dump_file_pid(const char *filename)
{
	const char *base = strrchr(filename, '/');
	char *end;
	long n;

	if (!base || strncmp(base, "/jit-", 5) || !isdigit((unsigned char)base[5]))
		return -1;
	n = strtol(base + 5, &end, 10);
	return strcmp(end, ".dump") || n > INT_MAX ? -1 : (pid_t)n;
}

/* The pid process pid has in its own PID namespace (the last NStgid of
 * /proc/PID/status): what a JIT inside a container calls itself.  pid
 * itself when it runs in ours or is gone (perf looks the same up). */
static pid_t pidns_pid(pid_t pid)
{
	char path[64], *status, *line, *last;
	long n = pid;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	status = read_file_str(path);
	line = status ? strstr(status, "\nNStgid:") : NULL;
	if (line) {
		line[strcspn(line + 1, "\n") + 1] = 0;
		last = strrchr(line, '\t');
		if (last && isdigit((unsigned char)last[1]))
			n = strtol(last + 1, NULL, 10);
	}
	free(status);
	return (pid_t)n;
}

/* Where a JIT keeps its code: memory not backed by a file. */
static bool is_anon_map(const char *filename)
{
	return !strncmp(filename, "//anon", 6) || !strncmp(filename, "[anon:", 6) ||
	       !strncmp(filename, "/memfd:", 7);
}

static uint64_t record_time(const struct dump_reader *r, uint64_t timestamp)
{
	if (!(r->jd.flags & JITDUMP_FLAGS_ARCH_TIMESTAMP))
		return timestamp;
	return time_conv__to_perf(&r->ji->time_conv, timestamp);
}

/*
 * The MMAP2 of image path at start..start+len, for pid/tid at time.  The
 * odd fields are perf 6.1's: prot holds the image's st_mode, flags
 * MAP_SHARED, ino_generation 1.  The sample_id_all trailer gets the pid,
 * tid and time where the first event's sample_type puts them.
 */
static int emit_map(struct dump_reader *r, const char *path, uint64_t start, uint64_t len,
		    uint32_t pid, uint32_t tid, uint64_t time)
{
	struct perf_session *s = r->ji->session;
	const struct perf_event_attr *attr = &s->evlist.first->attr;
	size_t id_hdr_size = perf_sample__id_hdr_size(attr);
	size_t name_size = (strlen(path) + 1 + 7) & ~(size_t)7;
	size_t size = offsetof(struct perf_rec_mmap2, filename) + name_size + id_hdr_size;
	struct perf_rec_mmap2 *m = xcalloc(1, size);
	uint64_t *trailer = (uint64_t *)(void *)((char *)m + size - id_hdr_size);
	struct stat st;
	int rc;

	if (stat(path, &st))
		memset(&st, 0, sizeof(st));
	m->header.type = PERF_RECORD_MMAP2;
	m->header.misc = PERF_RECORD_MISC_USER;
	m->header.size = (uint16_t)size;
	m->pid = pid;
	m->tid = tid;
	m->start = start;
	m->len = len;
	m->pgoff = JIT_ELF_TEXT_OFFSET;
	m->maj = major(st.st_dev);
	m->min = minor(st.st_dev);
	m->ino = st.st_ino;
	m->ino_generation = 1;
	m->prot = st.st_mode;
	m->flags = MAP_SHARED;
	memcpy(m->filename, path, strlen(path));
	if (id_hdr_size && (attr->sample_type & PERF_SAMPLE_TID)) {
		uint32_t ids[2] = { pid, tid };

		memcpy(trailer++, ids, sizeof(ids));
	}
	if (id_hdr_size && (attr->sample_type & PERF_SAMPLE_TIME))
		*trailer = time;
	rc = r->ji->emit(r->ji->ctx, &m->header);
	free(m);
	return rc;
}

/* A record's pid and tid as the recording knows them: a namespaced JIT's
 * are its own view, so its maps go to the process that mapped the dump. */
static uint32_t map_pid(const struct dump_reader *r, uint32_t pid)
{
	return r->dump_pid != r->pid ? (uint32_t)r->pid : pid;
}

static uint32_t map_tid(const struct dump_reader *r, uint32_t tid)
{
	return r->dump_pid != r->pid ? (uint32_t)r->pid : tid;
}

static char *image_path(const struct dump_reader *r, uint64_t index)
{
	return xasprintf("%s/jitted-%d-%llu.so", r->dir, (int)r->dump_pid,
			 (unsigned long long)index);
}

static void forget_pending(struct dump_reader *r)
{
	free(r->lines);
	free(r->unwind);
	r->lines = NULL;
	r->nr_lines = 0;
	r->unwind = NULL;
	r->unwind_size = r->eh_frame_hdr_size = r->unwind_mapped_size = 0;
}

static int code_load(struct dump_reader *r, const struct jit_record *rec)
{
	struct jit_inject *ji = r->ji;
	struct jit_function f = {
		.name = rec->load.name, .machine = (uint16_t)r->jd.elf_mach,
		.addr = rec->load.code_addr, .code = rec->load.code, .size = rec->load.code_size,
		.lines = r->lines, .nr_lines = r->nr_lines,
		.unwind = r->unwind, .unwind_size = r->unwind_size,
		.eh_frame_hdr_size = r->eh_frame_hdr_size,
	};
	char *path = image_path(r, rec->load.code_index);
	uint64_t len = rec->load.code_size;
	struct hit_dso *image;
	int rc;

	if (r->unwind_mapped_size)
		len = ((len + 7) & ~7ull) + r->unwind_mapped_size;
	rc = jit_elf__write(path, &f, &ji->err);
	forget_pending(r);
	if (!rc)
		rc = emit_map(r, path, rec->load.code_addr, len, map_pid(r, rec->load.pid),
			      map_tid(r, rec->load.tid), record_time(r, rec->timestamp));
	if (rc) {
		free(path);
		return rc;
	}
	ji->images = xrealloc(ji->images, (ji->nr_images + 1) * sizeof(*ji->images));
	image = &ji->images[ji->nr_images++];
	memset(image, 0, sizeof(*image));
	image->filename = path;
	image->build_id_size = elf_file__read_build_id(path, image->build_id,
							sizeof(image->build_id));
	if (image->build_id_size < 0)
		image->build_id_size = 0;
	return 0;
}

static int code_move(struct dump_reader *r, const struct jit_record *rec)
{
	char *path = image_path(r, rec->move.code_index);
	int rc = emit_map(r, path, rec->move.new_code_addr, rec->move.code_size,
			  map_pid(r, rec->move.pid), map_tid(r, rec->move.tid),
			  record_time(r, rec->timestamp));

	free(path);
	return rc;
}

/* DEBUG_INFO and UNWINDING_INFO describe the next loaded function: kept
 * (copied, the reader reuses its buffers) until its CODE_LOAD. */
static void keep_for_next_load(struct dump_reader *r, const struct jit_record *rec)
{
	if (rec->id == JIT_CODE_DEBUG_INFO) {
		free(r->lines);
		r->nr_lines = rec->debug.nr_entries;
		r->lines = xcalloc(r->nr_lines + 1, sizeof(*r->lines));
		memcpy(r->lines, rec->debug.entries, r->nr_lines * sizeof(*r->lines));
		return;
	}
	free(r->unwind);
	r->unwind_size = rec->unwind.unwinding_size;
	r->eh_frame_hdr_size = rec->unwind.eh_frame_hdr_size;
	r->unwind_mapped_size = rec->unwind.mapped_size;
	r->unwind = xmalloc(r->unwind_size + 1);
	memcpy(r->unwind, rec->unwind.data, r->unwind_size);
}

/* Every record of the dump; a damaged one ends it with a warning (a JIT
 * killed while writing leaves a torn last record), the rest stays. */
static int merge_records(struct dump_reader *r)
{
	struct jit_record rec;
	char *why = NULL;
	int rc = 0;

	while (!rc && jitdump__next(&r->jd, &rec, &why) > 0) {
		if (rec.id == JIT_CODE_LOAD)
			rc = code_load(r, &rec);
		else if (rec.id == JIT_CODE_MOVE)
			rc = code_move(r, &rec);
		else if (rec.id == JIT_CODE_DEBUG_INFO || rec.id == JIT_CODE_UNWINDING_INFO)
			keep_for_next_load(r, &rec);
	}
	if (!rc && why && r->ji->warn)
		fprintf(r->ji->warn, "Warning: %s: %s, the rest of the dump is skipped\n",
			r->path, why);
	free(why);
	forget_pending(r);
	/* jit_elf__write said why; the output's errno otherwise */
	if (rc && !r->ji->err)
		r->ji->err = xasprintf("%s: cannot write its maps: %s", r->path, strerror(-rc));
	return rc ? -1 : 0;
}

/* jitdump timestamps are CLOCK_MONOTONIC or TSC ticks; anything else
 * would put the maps at meaningless times. */
static const char *clock_mismatch(const struct jit_inject *ji, const struct jitdump *jd)
{
	if (jd->flags & JITDUMP_FLAGS_ARCH_TIMESTAMP)
		return ji->has_time_conv ? NULL :
			"its timestamps are TSC ticks and the recording has no TIME_CONV";
	evlist__for_each(&ji->session->evlist, evsel)
		if (!evsel->attr.use_clockid || evsel->attr.clockid != CLOCK_MONOTONIC)
			return "jitted code must be recorded with -k mono (CLOCK_MONOTONIC)";
	return NULL;
}

static int merge_dump(struct jit_inject *ji, const char *path, pid_t pid, pid_t dump_pid)
{
	struct dump_reader r = { .ji = ji, .path = path, .pid = pid, .dump_pid = dump_pid };
	const char *mismatch;
	struct stat st;
	void *buf = NULL;
	char *why = NULL;
	int fd, rc = -1;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		ji->err = xasprintf("%s: %s", path, strerror(errno));
		goto out;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	if (read(fd, buf, (size_t)st.st_size) != (ssize_t)st.st_size) {
		ji->err = xasprintf("%s: short read", path);
		goto out;
	}
	if (jitdump__open(&r.jd, buf, (size_t)st.st_size, &why)) {
		ji->err = xasprintf("%s: %s", path, why);
		goto out;
	}
	mismatch = clock_mismatch(ji, &r.jd);
	if (mismatch) {
		ji->err = xasprintf("%s: %s", path, mismatch);
		goto out;
	}
	r.dir = xstrdup(path);
	*strrchr(r.dir, '/') = 0;
	rc = merge_records(&r);
out:
	jitdump__exit(&r.jd);
	free(r.dir);
	free(why);
	free(buf);
	if (fd >= 0)
		close(fd);
	return rc;
}

static int take_map(struct jit_inject *ji, const char *filename, pid_t pid)
{
	pid_t dump_pid = dump_file_pid(filename);

	/* a dump of this process, by our pid or its own in a PID namespace (a
	 * pid reused by a process that maps an old dump does not count) */
	if (dump_pid >= 0 && (dump_pid == pid || dump_pid == pidns_pid(pid))) {
		if (dump_was_read(ji, pid))
			return 1;
		if (merge_dump(ji, filename, pid, dump_pid))
			return -1;
		ji->pids = xrealloc(ji->pids, (ji->nr_pids + 1) * sizeof(*ji->pids));
		ji->pids[ji->nr_pids++] = pid;
		return 1;
	}
	return is_anon_map(filename) && dump_was_read(ji, pid);
}

int jit_inject__record(struct jit_inject *ji, const struct perf_event_header *rec)
{
	switch (rec->type) {
	case PERF_RECORD_MMAP: {
		const struct perf_rec_mmap *m = (const void *)rec;

		return take_map(ji, m->filename, (pid_t)m->pid);
	}
	case PERF_RECORD_MMAP2: {
		const struct perf_rec_mmap2 *m = (const void *)rec;

		return take_map(ji, m->filename, (pid_t)m->pid);
	}
	case PERF_RECORD_TIME_CONV:
		memcpy(&ji->time_conv, rec, rec->size < sizeof(ji->time_conv) ?
		       rec->size : sizeof(ji->time_conv));
		ji->has_time_conv = true;
		return 0;
	case PERF_RECORD_FINISHED_ROUND:
		return 1;
	default:
		return 0;
	}
}
