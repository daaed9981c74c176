/* session: streaming perf.data reader (see session.h). */
#include "core/data/session.h"
#include "core/data/session-int.h"
#include "core/data/trace-data.h"
#include "core/events/event-names.h"
#include "util/util.h"

#include <byteswap.h>
#include <errno.h>
#include <event-parse.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define READ_BUF	(256u << 10)	/* streaming window */
#define DIR_FILE_BUF	(256u << 10)	/* a data.N file's window: one per ring, and
					 * a big machine has hundreds */
#define MAX_RECORD	(1u << 16)
#define SESSION_DENSE_IDS	1024	/* widest span of ids in the dense table */
/* A mapped file's pages behind every queued record are dropped from the
 * mapping in steps of this many bytes, which bounds the resident set. */
#define MAP_RELEASE	(4u << 20)
/* Of a directory's files, each is read this many bytes in turn before the
 * next one, as perf reads them: which records tie in time is then ordered
 * the way perf orders them. */
#define DIR_TURN_BYTES	(2u << 20)

static int fail(struct perf_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct perf_session *s, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	free(s->err);
	/* in a directory, the file being read */
	s->err = xasprintf("%s: %s", s->is_pipe ? s->path : s->label, msg ? msg : "out of memory");
	free(msg);
	return -1;
}

/* ---- events and ids ---- */

/* The dense table anew, when the ids fit one. */
static void id_dense_update(struct perf_session *s, uint64_t id)
{
	if (s->id_hash.used == 1) {
		s->id_min = s->id_max = id;
	} else {
		s->id_min = id < s->id_min ? id : s->id_min;
		s->id_max = id > s->id_max ? id : s->id_max;
	}
	free(s->dense);
	s->dense = NULL;
	s->nr_dense = 0;
	if (s->id_max - s->id_min >= SESSION_DENSE_IDS)
		return;
	s->dense_base = s->id_min;
	s->nr_dense = s->id_max - s->id_min + 1;
	s->dense = xcalloc(s->nr_dense, sizeof(*s->dense));
	for (void **v = NULL; (v = hashmap_next(&s->id_hash, v));)
		s->dense[hashmap_u64_key(v) - s->dense_base] = *v;
}

static void id_hash_insert(struct perf_session *s, uint64_t id, struct evsel *evsel)
{
	uint32_t i;

	hashmap_u64_put(&s->id_hash, id, evsel);
	id_dense_update(s, id);
	for (i = 0; i < s->nr_few && s->few_ids[i] != id; i++)
		;
	if (i == ARRAY_SIZE(s->few_ids)) {
		s->many_ids = true;
		return;
	}
	s->few_ids[i] = id;
	s->few_evsels[i] = evsel;
	if (i == s->nr_few)
		s->nr_few++;
}

static struct evsel *id_hash_find(struct perf_session *s, uint64_t id)
{
	if (s->nr_dense)
		return id - s->dense_base < s->nr_dense ? s->dense[id - s->dense_base] : NULL;
	if (!s->many_ids) {
		for (uint32_t i = 0; i < s->nr_few; i++)
			if (s->few_ids[i] == id)
				return s->few_evsels[i];
		return NULL;
	}
	return hashmap_u64_get(&s->id_hash, id);
}

char *perf_session__attr_name(struct perf_session *s, const struct perf_event_attr *a)
{
	/* tracepoint ids are the recording machine's: look them up in the
	 * file's own tracing data when it has some */
	if (a->type == PERF_TYPE_TRACEPOINT && s && s->tep) {
		struct tep_event *ev = tep_find_event(s->tep, (int)a->config);

		if (ev)
			return xasprintf("%s:%s", ev->system, ev->name);
	}
	return event_name_for_attr(a);
}

static void recompute_id_pos(struct perf_session *s)
{
	struct evsel *first = s->evlist.first;

	s->id_pos = first ? perf_sample__id_pos(first->attr.sample_type) : -1;
	s->is_pos = first ? perf_sample__is_pos(first->attr.sample_type) : -1;
}

/* Where records of attr carry their time (record_time() reads it). */
static void time_positions(const struct perf_event_attr *attr, struct session_event *se)
{
	uint64_t st = attr->sample_type;

	se->sample_time_pos = se->trailer_time_back = 0;
	if (!(st & PERF_SAMPLE_TIME))
		return;
	se->sample_time_pos = (uint32_t)(sizeof(struct perf_event_header) +
		8 * (size_t)__builtin_popcountll(st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
						       PERF_SAMPLE_TID)));
	if (se->id_hdr_size)
		se->trailer_time_back = (uint32_t)(se->id_hdr_size - 8 * !!(st & PERF_SAMPLE_TID));
}

static struct evsel *add_event(struct perf_session *s, const struct perf_data_attr *da)
{
	char *name = da->name ? xstrdup(da->name) : perf_session__attr_name(s, &da->attr);
	struct evsel *evsel = evsel__new(&da->attr, name);
	struct session_event *se;

	free(name);
	evsel->attr.size = da->attr.size;
	evlist__add(&s->evlist, evsel);
	s->events = xrealloc(s->events, s->evlist.nr_entries * sizeof(*s->events));
	se = &s->events[evsel->idx];
	memset(se, 0, sizeof(*se));
	se->id_hdr_size = perf_sample__id_hdr_size(&evsel->attr);
	time_positions(&evsel->attr, se);
	for (uint32_t i = 0; i < da->nr_ids; i++)
		id_hash_insert(s, da->ids[i], evsel);
	recompute_id_pos(s);
	return evsel;
}

/* GROUP_DESC: leaders, members and group names. */
static void apply_group_desc(struct perf_session *s)
{
	for (uint32_t g = 0; g < s->header.nr_groups; g++) {
		const struct perf_group_desc *gd = &s->header.groups[g];
		struct evsel *leader = NULL;
		uint32_t n = 0;

		evlist__for_each(&s->evlist, pos) {
			if ((uint32_t)pos->idx == gd->leader_idx) {
				leader = pos;
				free(pos->group_name);
				pos->group_name = gd->name && strcmp(gd->name, "{anon_group}") ?
						  xstrdup(gd->name) : NULL;
				pos->nr_members = (int)gd->nr_members;
			}
			if (leader && n < gd->nr_members) {
				pos->leader = leader;
				n++;
			}
		}
	}
	s->evlist.nr_groups = (int)s->header.nr_groups;
}

struct session_event *perf_session__event(struct perf_session *s, const struct evsel *evsel)
{
	return &s->events[evsel->idx];
}

bool perf_session__print_trace(struct perf_session *s, const struct evsel *evsel,
			       const struct perf_sample *sample, struct trace_seq *seq)
{
	struct tep_event *format = perf_session__event(s, evsel)->tp_format;
	struct tep_record rec = {
		.cpu = (int)sample->cpu,
		.size = (int)sample->raw_size,
		.data = (void *)sample->raw_data,
	};

	if (!format || !sample->raw_data)
		return false;
	tep_print_event(format->tep, seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(seq);
	return true;
}

struct evsel *perf_session__evsel_by_id(struct perf_session *s, uint64_t id)
{
	if (s->evlist.nr_entries == 1)
		return s->evlist.first;
	return id_hash_find(s, id);
}

/* Reads the u64 at word index idx of the record body, in host order. */
static bool body_u64(const struct perf_event_header *rec, long idx, bool swap, uint64_t *v)
{
	long n = (long)(rec->size - sizeof(*rec)) / 8;

	if (idx < 0 || idx >= n)
		return false;
	memcpy(v, (const uint8_t *)(rec + 1) + idx * 8, 8);
	if (swap)
		*v = bswap_64(*v);
	return true;
}

/* Which event a kernel record belongs to (perf's rules: one event needs
 * no id; records without trailer and synthesized ones (id 0) go to the
 * first).  NULL when the id is unknown. */
static struct evsel *record_evsel(struct perf_session *s, const struct perf_event_header *rec,
				  bool swap)
{
	struct evsel *first = s->evlist.first;
	uint64_t id;

	if (!first)
		return NULL;
	if (s->evlist.nr_entries == 1)
		return first;
	if (rec->type != PERF_RECORD_SAMPLE && !first->attr.sample_id_all)
		return first;
	if (rec->type == PERF_RECORD_SAMPLE) {
		if (s->id_pos < 0 || !body_u64(rec, s->id_pos, swap, &id))
			return first;
	} else {
		long n = (long)(rec->size - sizeof(*rec)) / 8;

		if (s->is_pos < 0 || !body_u64(rec, n - s->is_pos, swap, &id))
			return first;
	}
	if (!id)
		return first;
	return id_hash_find(s, id);
}

/* ---- opening ---- */

static bool is_pipe_header(int fd)
{
	uint64_t h[2];

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return false;
	return (h[0] == PERF_MAGIC2 && h[1] == 16) ||
	       (h[0] == PERF_MAGIC2_SWAPPED && h[1] == bswap_64(16));
}

static int load_tracing_data(struct perf_session *s, const void *buf, size_t size,
			     uint64_t where)
{
	const char *why = NULL;
	size_t off = 0;

	if (s->tep)
		tep_free(s->tep);
	s->tep = trace_data__parse(buf, size, &why, &off);
	if (!s->tep)
		return fail(s, "bad tracing data at offset %#llx: %s",
			    (unsigned long long)(where + off), why);
	/* the tracepoint events are looked up by their id (attr.config) */
	evlist__for_each(&s->evlist, pos)
		if (pos->attr.type == PERF_TYPE_TRACEPOINT)
			s->events[pos->idx].tp_format = tep_find_event(s->tep, (int)pos->attr.config);
	return 0;
}

/* The data.N files of a directory, in readdir order as perf takes them
 * (their order breaks timestamp ties). */
static int open_dir_files(struct perf_session *s, char **err)
{
	DIR *dir = opendir(s->path);
	struct dirent *ent;

	if (!dir) {
		*err = xasprintf("%s: %s", s->path, strerror(errno));
		return -1;
	}
	while ((ent = readdir(dir))) {
		struct session_dir_file *f;
		struct stat st;
		char *path;
		int fd;

		if (strncmp(ent->d_name, "data.", 5))
			continue;
		path = xasprintf("%s/%s", s->path, ent->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
			if (fd >= 0)
				close(fd);
			free(path);
			continue;
		}
		s->dir_files = xrealloc(s->dir_files, (s->nr_dir_files + 1) * sizeof(*f));
		f = &s->dir_files[s->nr_dir_files++];
		f->path = path;
		f->fd = fd;
		f->size = (uint64_t)st.st_size;
	}
	closedir(dir);
	return 0;
}

struct perf_session *perf_session__open(const char *path, bool force, char **err)
{
	struct perf_session *s = xcalloc(1, sizeof(*s));
	struct stat st;
	char *herr = NULL;

	s->path = xstrdup(path);
	s->label = s->path;
	s->warn = stderr;
	s->fd = -1;
	evlist__init(&s->evlist);
	s->id_pos = s->is_pos = -1;
	if (!strcmp(path, "-")) {
		s->fd = STDIN_FILENO;
		s->is_pipe = true;
	} else {
		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			s->is_dir = true;
			s->data_path = xasprintf("%s/data", path);
			s->label = s->data_path;
			if (open_dir_files(s, err) < 0)
				goto fail;
		}
		s->fd = open(s->label, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0) {
			*err = xasprintf("%s: %s", s->label, strerror(errno));
			goto fail;
		}
	}
	if (fstat(s->fd, &st) < 0) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	/* as perf: someone else's recording is read only when asked to (-f) */
	if (S_ISREG(st.st_mode) && !force && st.st_uid != geteuid() && st.st_uid != 0) {
		*err = xasprintf("%s: not owned by current user or root (use -f to override)",
				 s->label);
		goto fail;
	}
	if (!S_ISREG(st.st_mode) && !s->is_dir)
		s->is_pipe = true;
	else if (is_pipe_header(s->fd))
		s->is_pipe = true;
	s->file_size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	if (s->is_pipe)
		s->label = "pipe";
	if (perf_header__read(&s->header, s->fd, s->is_pipe, s->file_size, &herr) < 0) {
		*err = xasprintf("%s: %s", path, herr);
		free(herr);
		goto fail;
	}
	for (uint32_t i = 0; i < s->header.nr_attrs; i++)
		add_event(s, &s->header.attrs[i]);
	apply_group_desc(s);
	if (!s->is_pipe) {
		const struct perf_file_header *f = &s->header.file;

		s->data_offset = f->data.offset;
		s->data_end = f->data.size ? f->data.offset + f->data.size : s->file_size;
		if (s->data_end > s->file_size || s->data_end < s->data_offset)
			s->data_end = s->file_size;
		if (s->header.tracing_data &&
		    load_tracing_data(s, s->header.tracing_data, s->header.tracing_data_size,
				      s->header.feat_sec[HEADER_TRACING_DATA].offset) < 0) {
			*err = s->err;
			s->err = NULL;
			goto fail;
		}
	}
	return s;
fail:
	perf_session__delete(s);
	return NULL;
}

void perf_session__delete(struct perf_session *s)
{
	if (!s)
		return;
	if (s->fd > STDIN_FILENO)
		close(s->fd);
	for (uint32_t i = 0; i < s->nr_dir_files; i++) {
		close(s->dir_files[i].fd);
		free(s->dir_files[i].path);
	}
	free(s->dir_files);
	free(s->data_path);
	ordered_events__exit(&s->oe);
	evlist__exit(&s->evlist);
	perf_header__exit(&s->header);
	/* before the host's machine: their maps are copies of its maps */
	for (size_t i = 0; i < s->nr_code_guests; i++)
		machine__delete(s->code_guests[i].m);
	free(s->code_guests);
	if (s->machine)
		machine__delete(s->machine);
	machine__delete(s->guest);
	free(s->events);
	hashmap_release(&s->id_hash);
	free(s->dense);
	if (s->tep)
		tep_free(s->tep);
	free(s->err);
	free(s->path);
	free(s);
}

/* ---- streaming input ---- */

struct input {
	uint8_t *buf;
	size_t size;		/* of buf */
	size_t start, end;	/* unread bytes are buf[start..end) */
	uint64_t pos;		/* file offset of buf[start] */
	uint64_t limit;		/* end of data (files); UINT64_MAX for pipes */
	bool eof;
	uint64_t *scratch;	/* aligned copy of a record */
	int fd;
	bool is_pipe;
	bool killed;		/* the header's data size is 0: read to the end */
	const char *label;	/* the file's name in messages and -D */
	uint32_t source;	/* 0: the file (a directory's data), i: data.N file i-1 */
	uint64_t turn;		/* bytes read since this file's turn began */
	uint64_t last_time;	/* of the last record it queued */
	bool done;
	struct session_inflate inflate;
	/* A regular file in our byte order is mapped whole: buf points into
	 * the mapping, where records are queued without a copy. */
	uint8_t *map;
	size_t map_len;
	uint8_t *released;	/* the mapping below it is dropped */
	uint8_t *release_at;	/* look for pages to drop when reading here */
};

static int input_fill(struct perf_session *s, struct input *in, size_t want)
{
	if (in->end - in->start >= want || in->map)
		return 0;
	if (in->start) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->start = 0;
	}
	while (!in->eof && in->end < want) {
		size_t room = in->size - in->end;
		uint64_t file_pos = in->pos + in->end;
		ssize_t n;

		if (!in->is_pipe) {
			if (file_pos >= in->limit) {
				in->eof = true;
				break;
			}
			if (room > in->limit - file_pos)
				room = in->limit - file_pos;
			n = pread(in->fd, in->buf + in->end, room, (off_t)file_pos);
		} else {
			n = read(in->fd, in->buf + in->end, room);
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(s, "read error at offset %#llx: %s",
				    (unsigned long long)file_pos, strerror(errno));
		if (n == 0)
			in->eof = true;
		in->end += (size_t)n;
	}
	return 0;
}

/* Skips n payload bytes that follow a record (AUXTRACE, TRACING_DATA). */
static int input_skip(struct perf_session *s, struct input *in, uint64_t n)
{
	while (n) {
		size_t have;

		if (input_fill(s, in, 1) < 0)
			return -1;
		have = in->end - in->start;
		if (!have)
			return 1;	/* torn */
		if (have > n)
			have = (size_t)n;
		in->start += have;
		in->pos += have;
		n -= have;
	}
	return 0;
}

/* ---- delivery ---- */

/* The tool's callback for a record type, or NULL. */
static perf_tool_fn kind_callback(const struct perf_tool *t, uint32_t type)
{
	switch (type) {
	case PERF_RECORD_SAMPLE:		return t->sample;
	case PERF_RECORD_MMAP:			return t->mmap;
	case PERF_RECORD_MMAP2:			return t->mmap2;
	case PERF_RECORD_COMM:			return t->comm;
	case PERF_RECORD_FORK:			return t->fork;
	case PERF_RECORD_EXIT:			return t->exit;
	case PERF_RECORD_LOST:			return t->lost;
	case PERF_RECORD_LOST_SAMPLES:		return t->lost_samples;
	case PERF_RECORD_THROTTLE:		return t->throttle;
	case PERF_RECORD_UNTHROTTLE:		return t->unthrottle;
	case PERF_RECORD_READ:			return t->read;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:	return t->context_switch;
	case PERF_RECORD_NAMESPACES:		return t->namespaces;
	case PERF_RECORD_CGROUP:		return t->cgroup;
	case PERF_RECORD_KSYMBOL:		return t->ksymbol;
	case PERF_RECORD_BPF_EVENT:		return t->bpf_event;
	case PERF_RECORD_TEXT_POKE:		return t->text_poke;
	case PERF_RECORD_AUX:			return t->aux;
	case PERF_RECORD_ITRACE_START:		return t->itrace_start;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:	return t->aux_output_hw_id;
	case PERF_RECORD_HEADER_BUILD_ID:	return t->build_id;
	case PERF_RECORD_FINISHED_ROUND:	return t->finished_round;
	case PERF_RECORD_FINISHED_INIT:		return t->finished_init;
	case PERF_RECORD_EVENT_UPDATE:		return t->event_update;
	case PERF_RECORD_HEADER_TRACING_DATA:	return t->tracing_data;
	case PERF_RECORD_ID_INDEX:		return t->id_index;
	case PERF_RECORD_STAT:			return t->stat;
	case PERF_RECORD_STAT_ROUND:		return t->stat_round;
	case PERF_RECORD_STAT_CONFIG:		return t->stat_config;
	case PERF_RECORD_TIME_CONV:		return t->time_conv;
	case PERF_RECORD_THREAD_MAP:		return t->thread_map;
	case PERF_RECORD_CPU_MAP:		return t->cpu_map;
	case PERF_RECORD_HEADER_FEATURE:	return t->feature;
	case PERF_RECORD_AUXTRACE_INFO:		return t->auxtrace_info;
	case PERF_RECORD_AUXTRACE:		return t->auxtrace;
	case PERF_RECORD_AUXTRACE_ERROR:	return t->auxtrace_error;
	default:				return NULL;
	}
}

/* The process whose machine takes the record: an MMAP's own pid, else the
 * sample's (perf's choice of a guest's machine). */
static pid_t record_pid(const struct perf_event_header *rec, const struct perf_sample *sample)
{
	if (rec->type == PERF_RECORD_MMAP || rec->type == PERF_RECORD_MMAP2)
		return (pid_t)((const struct perf_rec_mmap *)(const void *)rec)->pid;
	return (pid_t)sample->pid;
}

/* --guest-code: a guest's sample needs its hypervisor process (perf gives
 * up on the file without it). */
static bool guest_code_found(struct perf_session *s, const struct perf_sample *sample)
{
	struct machine *m;

	if (!perf_session__guests()->in_hypervisor || !s->machine)
		return true;
	m = perf_session__machine_of(s, sample->cpumode, (pid_t)sample->pid);
	return m == s->machine ||
	       machine__findnew_guest_code(m, s->machine, (pid_t)sample->pid) != NULL;
}

/* The raw view, the machine and the kind's callback, in the order session.h
 * promises. */
static int dispatch(struct perf_session *s, const struct perf_event_header *rec,
		    struct perf_sample *sample, struct evsel *evsel, uint64_t file_offset)
{
	struct perf_tool *t = s->tool;
	perf_tool_fn fn = kind_callback(t, rec->type);
	bool early = t->before_machine[rec->type];
	int ret;

	if (t->record && (ret = t->record(t, s, rec, sample, evsel, file_offset)))
		return ret;
	if (rec->type == PERF_RECORD_SAMPLE && !evsel)
		fn = NULL;	/* a pipe's sample before any event */
	if (fn && rec->type == PERF_RECORD_SAMPLE && !guest_code_found(s, sample))
		return fail(s, "failed to process sample: its guest code is the process %d's, "
			    "which the recording never showed", (int)sample->pid);
	if (fn && early && (ret = fn(t, s, rec, sample, evsel)))
		return ret;
	if (s->machine && !t->machine_ignores[rec->type]) {
		struct machine *m = perf_session__machine_of(s, rec->misc &
							     PERF_RECORD_MISC_CPUMODE_MASK,
							     record_pid(rec, sample));
		struct thread_ids stale = { -1, -1 };

		/* a guest's first sample makes its machine; else samples
		 * tell the machine nothing */
		if (rec->type != PERF_RECORD_SAMPLE)
			session_machine__take(m, rec, t->stale_parent ? &stale : NULL);
		if (stale.tid != -1)
			t->stale_parent(t, s, stale.pid, stale.tid);
	}
	return fn && !early ? fn(t, s, rec, sample, evsel) : 0;
}

/* evsel: the record's event when the queue already looked it up, or NULL. */
static int deliver(struct perf_session *s, const struct perf_event_header *rec,
		   uint64_t file_offset, struct evsel *evsel)
{
	struct perf_sample sample;
	const char *why = NULL;

	if (rec->type < PERF_RECORD_USER_TYPE_START) {
		if (!evsel)
			evsel = record_evsel(s, rec, false);
		if (!evsel && s->evlist.nr_entries) {
			s->stats.nr_unknown_id++;
			return 0;
		}
		if (evsel && perf_sample__parse(&evsel->attr, rec, &sample, &why) < 0) {
			/* the first one is described, the rest only counted */
			if (!s->stats.nr_bad_samples++)
				fprintf(s->warn, "Warning: %s: skipping a %s record at offset %#llx: "
					"%s\n", s->path, perf_record_name(rec->type),
					(unsigned long long)file_offset, why);
			return 0;
		}
		if (!evsel) {
			struct perf_event_attr none = { 0 };

			perf_sample__parse(&none, rec, &sample, &why);
		}
		if (rec->type == PERF_RECORD_LOST_SAMPLES)
			s->stats.total_lost_samples +=
				((const struct perf_rec_lost_samples *)(const void *)rec)->lost;
	} else {
		struct perf_event_attr none = { 0 };

		perf_sample__parse(&none, rec, &sample, &why);
		sample.time = 0;	/* what perf shows for tool records */
		sample.cpu = 0;
	}
	return dispatch(s, rec, &sample, evsel, file_offset);
}

/* The name of input source in messages and -D ("pipe", the file, DIR/data.N). */
static const char *source_label(const struct perf_session *s, uint32_t source)
{
	if (source)
		return s->dir_files[source - 1].path;
	return s->is_pipe ? "pipe" : s->is_dir ? s->data_path : s->path;
}

static int deliver_queued(struct ordered_events *oe, const struct oe_event *ev, void *arg)
{
	struct perf_session *s = arg;

	s->label = source_label(s, ev->source);
	return deliver(s, ev->rec, ev->file_offset, ev->owner);
}

static int handle_user_record(struct perf_session *s, struct perf_event_header *rec,
			      uint64_t off, struct input *in);

/* Drops the pages of a mapped input that nothing refers to any more: below
 * the next record and every record queued from the mapping. */
static void input_release(struct perf_session *s, struct input *in)
{
	uint8_t *low = in->buf + in->start;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	in->release_at = low + MAP_RELEASE;
	for (size_t i = 0; i < s->oe.nr; i++) {
		uint8_t *rec = (uint8_t *)ordered_events__slot_rec(&s->oe.pending[i]);

		if (rec >= in->map && rec < low)
			low = rec;
	}
	low = in->map + ((size_t)(low - in->map) & ~(page - 1));
	if (low - in->released < (ptrdiff_t)MAP_RELEASE)
		return;
	madvise(in->released, (size_t)(low - in->released), MADV_DONTNEED);
	in->released = low;
}

/* The timestamp a record is ordered by (~0 when it has none), read without
 * decoding the whole sample: the queue needs only that, delivery decodes. */
static uint64_t record_time(const struct session_event *se, const struct perf_event_header *rec)
{
	uint64_t time;
	size_t pos;

	if (rec->type == PERF_RECORD_SAMPLE) {
		pos = se->sample_time_pos;
		if (!pos)
			return ~0ULL;
	} else {
		if (!se->trailer_time_back || rec->size < sizeof(*rec) + se->id_hdr_size)
			return ~0ULL;
		pos = rec->size - se->trailer_time_back;
	}
	if (pos + 8 > rec->size)
		return ~0ULL;
	memcpy(&time, (const char *)rec + pos, sizeof(time));
	return time;
}

/* Whether the tool said it ignores evsel's samples (asking it once). */
static bool samples_ignored(struct perf_session *s, struct evsel *evsel)
{
	struct session_event *se = &s->events[evsel->idx];

	if (se->samples == SAMPLES_UNASKED)
		se->samples = s->tool->ignores_samples && !s->tool->record &&
			      s->tool->ignores_samples(s->tool, s, evsel) ? SAMPLES_IGNORED
									: SAMPLES_WANTED;
	return se->samples == SAMPLES_IGNORED;
}

/* A chart's time range takes in samples it does not otherwise read. */
static void note_ignored_time(struct perf_session *s, uint64_t time)
{
	if (!time || time == ~0ULL)
		return;
	if (!s->stats.ignored_first_time || time < s->stats.ignored_first_time)
		s->stats.ignored_first_time = time;
	if (time > s->stats.ignored_last_time)
		s->stats.ignored_last_time = time;
}

/* Takes a host-order record; routes it.  swap says the body still needs
 * swapping.  Returns 0, a tool's return, or -1 on a malformed record. */
static int process_record(struct perf_session *s, struct perf_event_header *rec, uint64_t off,
			  struct input *in)
{
	struct evsel *evsel = NULL;
	const char *why;

	s->stats.nr_events++;
	if (rec->type < PERF_RECORD_MAX)
		s->stats.nr_records[rec->type]++;
	if (rec->type >= PERF_RECORD_USER_TYPE_START) {
		if (rec->type >= PERF_RECORD_HEADER_MAX) {
			s->stats.nr_unknown++;
			return 0;
		}
		s->stats.nr_records[rec->type]++;
		if (s->header.needs_swap && (why = perf_record__swap(rec, NULL)))
			return fail(s, "%s record at offset %#llx: %s", perf_record_name(rec->type),
				    (unsigned long long)off, why);
		if ((why = perf_record__check(rec, 0)))
			return fail(s, "%s record at offset %#llx: %s", perf_record_name(rec->type),
				    (unsigned long long)off, why);
		return handle_user_record(s, rec, off, in);
	}
	if (rec->type >= PERF_RECORD_MAX) {
		s->stats.nr_unknown++;
		return 0;
	}
	evsel = record_evsel(s, rec, s->header.needs_swap);
	if (s->header.needs_swap && (why = perf_record__swap(rec, evsel ? &evsel->attr : NULL))) {
		if (!evsel) {
			s->stats.nr_unknown_id++;
			return 0;
		}
		return fail(s, "%s record at offset %#llx: %s", perf_record_name(rec->type),
			    (unsigned long long)off, why);
	}
	if ((why = perf_record__check(rec, evsel ? s->events[evsel->idx].id_hdr_size : 0)))
		return fail(s, "%s record at offset %#llx: %s", perf_record_name(rec->type),
			    (unsigned long long)off, why);
	if (rec->type == PERF_RECORD_SAMPLE && evsel && samples_ignored(s, evsel)) {
		note_ignored_time(s, record_time(&s->events[evsel->idx], rec));
		return 0;
	}
	if (s->tool->ordered && evsel) {
		uint64_t time = record_time(&s->events[evsel->idx], rec);

		if (time && time != ~0ULL) {
			s->last_queued = time;
			/* in a mapped file (not its scratch copy) it stays put */
			if (in && in->map && rec != (void *)in->scratch)
				return ordered_events__queue_ref(&s->oe, rec, time);
			return ordered_events__queue(&s->oe, rec, time, off, evsel);
		}
	}
	return deliver(s, rec, off, evsel);
}

static int process_compressed(struct perf_session *s, const struct perf_event_header *rec,
			      uint64_t off)
{
	ZSTD_inBuffer zin = { rec + 1, rec->size - sizeof(*rec), 0 };
	struct session_inflate *z = s->inflate;
	size_t done = 0;
	int ret = 0;

	if (!z->zstd) {
		z->zstd = ZSTD_createDStream();
		if (!z->zstd || ZSTD_isError(ZSTD_initDStream(z->zstd)))
			return fail(s, "cannot set up zstd decompression");
	}
	while (zin.pos < zin.size) {
		ZSTD_outBuffer zout;
		size_t r;

		if (z->alloc - z->len < (1u << 16)) {
			z->alloc = z->alloc ? z->alloc * 2 : (1u << 20);
			z->buf = xrealloc(z->buf, z->alloc);
		}
		zout.dst = z->buf + z->len;
		zout.size = z->alloc - z->len;
		zout.pos = 0;
		r = ZSTD_decompressStream(z->zstd, &zout, &zin);
		if (ZSTD_isError(r))
			return fail(s, "COMPRESSED record at offset %#llx: %s",
				    (unsigned long long)off, ZSTD_getErrorName(r));
		z->len += zout.pos;
		if (!zout.pos && zin.pos < zin.size && zout.size)
			return fail(s, "COMPRESSED record at offset %#llx: no progress",
				    (unsigned long long)off);
	}
	/* every complete record inside carries the COMPRESSED record's offset */
	while (!ret && z->len - done >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		uint64_t aligned[MAX_RECORD / 8];

		memcpy(&h, z->buf + done, sizeof(h));
		if (s->header.needs_swap) {
			h.type = bswap_32(h.type);
			h.misc = bswap_16(h.misc);
			h.size = bswap_16(h.size);
		}
		if (h.size < sizeof(h))
			return fail(s, "record of size %u inside the COMPRESSED record at offset %#llx",
				    h.size, (unsigned long long)off);
		if (z->len - done < h.size)
			break;
		if (h.type == PERF_RECORD_COMPRESSED)
			return fail(s, "nested COMPRESSED record at offset %#llx",
				    (unsigned long long)off);
		memcpy(aligned, z->buf + done, h.size);
		memcpy(aligned, &h, sizeof(h));
		done += h.size;
		ret = process_record(s, (struct perf_event_header *)aligned, off, NULL);
	}
	if (done && done < z->len)
		memmove(z->buf, z->buf + done, z->len - done);
	z->len -= done;
	return ret;
}

static int handle_user_record(struct perf_session *s, struct perf_event_header *rec,
			      uint64_t off, struct input *in)
{
	struct evsel *evsel;
	char *herr = NULL;
	int ret;

	switch (rec->type) {
	case PERF_RECORD_HEADER_ATTR: {
		struct perf_rec_header_attr *a = (void *)rec;
		uint32_t asz = a->attr.size;
		size_t body = rec->size - sizeof(*rec);
		struct perf_event_attr attr;
		struct perf_data_attr *da;

		if (asz < PERF_ATTR_SIZE_VER0 || asz > body)
			return fail(s, "ATTR record at offset %#llx: bad attr size %u",
				    (unsigned long long)off, asz);
		perf_event_attr__from_disk(&attr, &a->attr, asz);
		{
			uint32_t nr = (uint32_t)((body - asz) / 8);
			uint64_t *ids = xcalloc(nr ? nr : 1, 8);

			memcpy(ids, (uint8_t *)&a->attr + asz, nr * 8);
			da = perf_header__add_attr(&s->header, &attr, ids, nr);
			free(ids);
		}
		ret = deliver(s, rec, off, NULL);
		if (ret)
			return ret;
		evsel = add_event(s, da);
		ret = s->tool->attr ? s->tool->attr(s->tool, s, evsel) : 0;
		if (ret < 0)	/* perf's words when a tool refuses a pipe's event */
			fprintf(s->warn, "%#llx [%#x]: failed to process type: %u\n",
				(unsigned long long)off, rec->size, rec->type);
		return ret;
	}
	case PERF_RECORD_HEADER_FEATURE: {
		struct perf_rec_feature *f = (void *)rec;

		if (f->feat_id < HEADER_LAST_FEATURE &&
		    perf_header__parse_feature(&s->header, (int)f->feat_id, f->data,
					       rec->size - sizeof(*f), &herr) < 0) {
			ret = fail(s, "FEATURE record at offset %#llx: %s", (unsigned long long)off,
				   herr);
			free(herr);
			return ret;
		}
		if (f->feat_id == HEADER_GROUP_DESC)
			apply_group_desc(s);
		/* names may arrive after the attrs */
		if (f->feat_id == HEADER_EVENT_DESC)
			evlist__for_each(&s->evlist, pos)
				if (pos->idx < (int)s->header.nr_attrs &&
				    s->header.attrs[pos->idx].name) {
					free(pos->name);
					pos->name = xstrdup(s->header.attrs[pos->idx].name);
				}
		break;
	}
	case PERF_RECORD_EVENT_UPDATE: {
		struct perf_rec_event_update *u = (void *)rec;
		struct evsel *target = id_hash_find(s, u->id);

		if (!target && s->evlist.nr_entries == 1)
			target = s->evlist.first;
		if (target && u->type == 2) {	/* NAME */
			size_t n = rec->size - sizeof(*u);

			free(target->name);
			target->name = xstrndup((const char *)u->data, n);
		}
		break;
	}
	case PERF_RECORD_HEADER_BUILD_ID: {
		struct perf_rec_build_id *b = (void *)rec;
		struct perf_header *h = &s->header;
		struct perf_build_id_entry *e;

		h->build_ids = xrealloc(h->build_ids, (h->nr_build_ids + 1) * sizeof(*e));
		e = &h->build_ids[h->nr_build_ids++];
		memset(e, 0, sizeof(*e));
		e->pid = b->pid;
		e->misc = b->header.misc;
		e->size = perf_rec_build_id__size(b);
		memcpy(e->build_id, b->build_id, BUILD_ID_MAX);
		e->filename = xstrdup(b->filename);
		break;
	}
	case PERF_RECORD_HEADER_TRACING_DATA: {
		uint32_t size = ((struct perf_rec_tracing_data *)(void *)rec)->size;
		uint64_t padded = ((uint64_t)size + 7) & ~7ULL;
		uint64_t where = off + rec->size;
		void *blob;

		if (!in)
			return fail(s, "TRACING_DATA record inside a COMPRESSED one at %#llx",
				    (unsigned long long)off);
		if (padded > (256u << 20))
			return fail(s, "TRACING_DATA record at offset %#llx: size %u too big",
				    (unsigned long long)off, size);
		/* the record is delivered before its payload is consumed */
		ret = deliver(s, rec, off, NULL);
		if (ret)
			return ret;
		if (input_fill(s, in, padded) < 0)
			return -1;
		if (in->end - in->start < padded)
			return fail(s, "tracing data at offset %#llx is truncated",
				    (unsigned long long)where);
		blob = in->buf + in->start;
		ret = load_tracing_data(s, blob, size, where);
		in->start += padded;
		in->pos += padded;
		return ret;
	}
	case PERF_RECORD_AUXTRACE: {
		uint64_t size = ((struct perf_rec_auxtrace *)(void *)rec)->size;

		ret = deliver(s, rec, off, NULL);
		if (ret)
			return ret;
		if (!in)
			return fail(s, "AUXTRACE record inside a COMPRESSED one at %#llx",
				    (unsigned long long)off);
		ret = input_skip(s, in, size);
		if (ret > 0) {
			s->truncated = true;
			fprintf(s->warn, "Warning: %s: AUX trace data at offset %#llx is truncated\n",
				s->path, (unsigned long long)(off + rec->size));
			return 0;
		}
		return ret;
	}
	case PERF_RECORD_COMPRESSED:
		return process_compressed(s, rec, off);
	case PERF_RECORD_FINISHED_ROUND:
		if (s->tool->ordered && s->tool->round_after_flush) {
			ret = ordered_events__flush_round(&s->oe);
			return ret ? ret : deliver(s, rec, off, NULL);
		}
		ret = deliver(s, rec, off, NULL);
		if (ret)
			return ret;
		return s->tool->ordered ? ordered_events__flush_round(&s->oe) : 0;
	default:
		break;
	}
	return deliver(s, rec, off, NULL);
}

static void warn_truncated(struct perf_session *s, uint64_t off, const char *why)
{
	s->truncated = true;
	fprintf(s->warn, "Warning: %s: %s at offset %#llx; reading up to the last whole record.\n",
		s->is_pipe ? s->path : s->label, why, (unsigned long long)off);
}

/* Reads and processes in's next record; *end says there is none left.
 * Returns 0, a tool's non-zero return, or -1 with s->err set. */
static int input_next(struct perf_session *s, struct input *in, bool *end)
{
	struct perf_event_header h, *rec;
	uint64_t off = in->pos;
	int ret;

	*end = true;
	s->label = in->label;
	s->oe.source = in->source;
	s->inflate = &in->inflate;
	/* the window holds most records whole: no call for those */
	if (in->end - in->start < sizeof(h) && (ret = input_fill(s, in, sizeof(h))) < 0)
		return ret;
	if (in->end - in->start == 0)
		return 0;
	if (in->end - in->start < sizeof(h)) {
		warn_truncated(s, off, "torn record header");
		return 0;
	}
	memcpy(&h, in->buf + in->start, sizeof(h));
	if (s->header.needs_swap) {
		h.type = bswap_32(h.type);
		h.misc = bswap_16(h.misc);
		h.size = bswap_16(h.size);
	}
	if (h.size < sizeof(h)) {
		if (in->killed || s->truncated) {
			warn_truncated(s, off, "zero-sized record (end of a killed recording?)");
			return 0;
		}
		return fail(s, "record at offset %#llx has an invalid size %u (type %u)",
			    (unsigned long long)off, h.size, h.type);
	}
	if (in->end - in->start < h.size && (ret = input_fill(s, in, h.size)) < 0)
		return ret;
	if (in->end - in->start < h.size) {
		warn_truncated(s, off, "torn last record");
		return 0;
	}
	*end = false;
	/* records are handed out 8-aligned and writable (swapping) */
	rec = (struct perf_event_header *)(void *)(in->buf + in->start);
	if ((uintptr_t)rec % 8) {
		memcpy(in->scratch, rec, h.size);
		rec = (struct perf_event_header *)(void *)in->scratch;
	}
	if (s->header.needs_swap)
		memcpy(rec, &h, sizeof(h));	/* the header in our byte order */
	in->start += h.size;
	in->pos += h.size;
	in->turn += h.size;
	s->last_queued = in->last_time;
	if (in->map && (uint8_t *)rec >= in->release_at)
		input_release(s, in);
	ret = process_record(s, rec, off, in);
	in->last_time = s->last_queued;
	if (ret && !s->err) {
		s->failed_rec = h;
		s->failed_offset = off;
	}
	return ret;
}

/*
 * A directory has no rounds, but each of its files is in time order: what
 * is older than every unfinished file's last record can come no more, and
 * is delivered (in the order perf gives it: nothing can come between).  So
 * memory holds about a turn of each file, not the whole recording.
 */
static int flush_read_inputs(struct perf_session *s, const struct input *inputs, uint32_t nr)
{
	uint64_t oldest = ~0ULL;

	if (!s->tool->ordered)
		return 0;
	for (uint32_t k = 0; k < nr; k++)
		if (!inputs[k].done && inputs[k].last_time < oldest)
			oldest = inputs[k].last_time;
	return oldest == ~0ULL ? 0 : ordered_events__flush_before(&s->oe, oldest);
}

/* Takes turns over the inputs (one unless a directory): each is read for
 * DIR_TURN_BYTES, then the next, until all are at their ends. */
static int read_inputs(struct perf_session *s, struct input *inputs, uint32_t nr)
{
	uint32_t left = 0, i = 0;

	for (uint32_t k = 0; k < nr; k++)
		left += !inputs[k].done;
	while (left) {
		struct input *in = &inputs[i];
		bool end;
		int ret;

		if (in->done) {
			i = (i + 1) % nr;
			continue;
		}
		ret = input_next(s, in, &end);
		if (ret)
			return ret;
		if (end) {
			in->done = true;
			left--;
		} else if (in->turn >= DIR_TURN_BYTES) {
			in->turn = 0;
			i = (i + 1) % nr;
		} else {
			continue;
		}
		if (nr > 1 && (ret = flush_read_inputs(s, inputs, nr)))
			return ret;
	}
	return 0;
}

/* Maps a regular file's data section [pos, limit) as in's buffer; false
 * when it cannot be mapped. */
static bool input_map(struct input *in, int fd, uint64_t pos, uint64_t limit)
{
	uint64_t base = pos & ~((uint64_t)sysconf(_SC_PAGESIZE) - 1);
	void *map;

	if (limit <= pos || limit - base > SIZE_MAX)
		return false;
	map = mmap(NULL, (size_t)(limit - base), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
		   (off_t)base);
	if (map == MAP_FAILED)
		return false;
	in->fd = fd;
	in->map = in->released = map;
	in->release_at = in->map + MAP_RELEASE;
	in->map_len = (size_t)(limit - base);
	in->buf = in->map + (pos - base);
	in->size = in->end = (size_t)(limit - pos);
	in->eof = true;
	in->scratch = xmalloc(MAX_RECORD);
	in->pos = pos;
	in->limit = limit;
	return true;
}

static void input_init(struct input *in, int fd, size_t size, uint64_t pos, uint64_t limit)
{
	in->fd = fd;
	in->size = size;
	in->buf = xmalloc(size);
	in->scratch = xmalloc(MAX_RECORD);
	in->pos = pos;
	in->limit = limit;
}

int perf_session__process(struct perf_session *s, struct perf_tool *tool)
{
	uint32_t nr = 1 + s->nr_dir_files;
	struct input *inputs = xcalloc(nr, sizeof(*inputs));
	struct input *in = &inputs[0];
	bool killed = !s->is_pipe && s->header.file.data.size == 0;
	int ret = 0;

	s->tool = tool;
	for (int i = 0; i < s->evlist.nr_entries; i++)
		s->events[i].samples = SAMPLES_UNASKED;	/* a new tool: ask again */
	ordered_events__init(&s->oe, deliver_queued, s);
	if (s->is_pipe || s->is_dir || s->header.needs_swap ||
	    !input_map(in, s->fd, s->data_offset, s->data_end))
		input_init(in, s->fd, READ_BUF, s->is_pipe ? 0 : s->data_offset,
			   s->is_pipe ? UINT64_MAX : s->data_end);
	if (in->map) {
		/* queued by reference: delivered with offsets in the file */
		s->oe.ref_base = in->buf;
		s->oe.ref_offset = in->pos;
		s->oe.ref_source = in->source;
	}
	in->is_pipe = s->is_pipe;
	in->killed = killed;
	in->label = source_label(s, 0);
	s->label = in->label;
	for (uint32_t i = 1; i < nr; i++) {
		const struct session_dir_file *f = &s->dir_files[i - 1];

		in = &inputs[i];
		in->source = i;
		in->label = f->path;
		in->killed = killed;
		in->done = !f->size;
		if (f->size)
			input_init(in, f->fd, DIR_FILE_BUF, 0, f->size);
	}
	if (killed)
		fprintf(s->warn, "Warning: %s: the data size in the header is 0: was the recording "
			"killed? Reading the records up to the end of the file.\n",
			s->is_dir ? s->data_path : s->path);
	else if (!s->is_pipe && s->header.file.data.offset + s->header.file.data.size > s->file_size)
		warn_truncated(s, s->file_size, "the file is shorter than its header says");

	ret = read_inputs(s, inputs, nr);
	if (ret == 0 && tool->ordered)
		ret = ordered_events__flush_all(&s->oe);
	s->stats.nr_unordered = s->oe.nr_unordered;
	for (uint32_t i = 0; i < nr; i++) {
		struct session_inflate *z = &inputs[i].inflate;

		if (ret == 0 && z->len)
			fprintf(s->warn, "Warning: %s: %zu bytes of compressed data end in a torn "
				"record\n", s->is_pipe ? s->path : inputs[i].label, z->len);
		if (z->zstd)
			ZSTD_freeDStream(z->zstd);
		free(z->buf);
		if (inputs[i].map)
			munmap(inputs[i].map, inputs[i].map_len);
		else
			free(inputs[i].buf);
		free(inputs[i].scratch);
	}
	s->inflate = NULL;
	free(inputs);
	return ret;
}
