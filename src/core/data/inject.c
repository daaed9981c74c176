/* inject: perf.data in, the same records plus build ids out (inject.h). */
#include "core/data/inject.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/data/guest-inject.h"
#include "core/data/header-features.h"
#include "core/data/jit-inject.h"
#include "core/data/perf-data-write.h"
#include "core/data/session.h"
#include "core/symbols/buildid-cache.h"
#include "core/symbols/buildid.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <traceevent/event-parse.h>

/* --known-build-ids: one pair */
struct known_build_id {
	char *path;
	uint8_t id[BUILD_ID_MAX];
	int size;
};

struct injector {
	struct perf_tool tool;
	const struct inject_opts *opts;
	struct perf_data_writer w;
	struct hit_dso *done;	/* DSOs given a HEADER_BUILD_ID record, in order */
	size_t nr_done;
	const char *unsupported;	/* why the input cannot be rewritten */
	struct jit_inject jit;		/* -j */
	struct known_build_id *known;	/* --known-build-ids */
	size_t nr_known;
	struct hashmap last_switch;	/* -s: tid -> its last sched_switch record */
	struct guest_inject *guest;	/* --guest-data */
	char *out_dir_data;		/* a guest directory: the output is a
					 * directory, its records in DIR/data */
	char *guest_err;		/* perf's words for why merging it failed */
	bool guest_err_said;		/* and they name the failing record already */
};

/* "BUILD-ID PATH": an even number (at most BUILD_ID_MAX * 2) of hex digits,
 * blanks, the path; false for anything else. */
static bool parse_known_pair(const char *pair, struct known_build_id *k)
{
	size_t digits = strspn(pair, "0123456789abcdefABCDEF");
	const char *path = pair + digits;

	if (!digits || digits % 2 || digits > 2 * BUILD_ID_MAX || !isblank((unsigned char)*path))
		return false;
	while (isblank((unsigned char)*path))
		path++;
	if (!*path)
		return false;
	for (size_t i = 0; i < digits / 2; i++) {
		char byte[3] = { pair[2 * i], pair[2 * i + 1], 0 };

		k->id[i] = (uint8_t)strtoul(byte, NULL, 16);
	}
	k->size = (int)digits / 2;
	k->path = xstrdup(path);
	return true;
}

/* The pairs of --known-build-ids (or of the file a file:// URL names, as
 * perf buildid-list prints them); -1 with *err naming a bad pair. */
static int load_known_build_ids(struct injector *in, char **err)
{
	const char *spec = in->opts->known_build_ids;
	char *text, *save = NULL;

	if (!strncmp(spec, "file://", 7)) {
		text = read_file_str(spec + 7);
		if (!text) {
			*err = xasprintf("--known-build-ids: cannot read %s: %s", spec + 7,
					 strerror(errno));
			return -1;
		}
	} else {
		text = xstrdup(spec);
	}
	for (char *pair = strtok_r(text, ",\n", &save); pair; pair = strtok_r(NULL, ",\n", &save)) {
		struct known_build_id k;

		if (!parse_known_pair(pair, &k)) {
			*err = xasprintf("--known-build-ids: '%s' is not a 'BUILD-ID PATH' pair "
					 "(an even number of hex digits, blanks, a path)", pair);
			free(text);
			return -1;
		}
		in->known = xrealloc(in->known, (in->nr_known + 1) * sizeof(*in->known));
		in->known[in->nr_known++] = k;
	}
	free(text);
	return 0;
}

static const struct known_build_id *known_build_id(const struct injector *in, const char *path)
{
	for (size_t i = 0; i < in->nr_known; i++)
		if (!strcmp(in->known[i].path, path))
			return &in->known[i];
	return NULL;
}

static bool already_done(const struct injector *in, const char *name)
{
	for (size_t i = 0; i < in->nr_done; i++)
		if (!strcmp(in->done[i].filename, name))
			return true;
	return false;
}

/* Writes the HEADER_BUILD_ID record of name (once); nothing without an id. */
static int inject_build_id(struct injector *in, const char *name, bool kernel,
			   const uint8_t *id, int size)
{
	struct hit_dso *d;
	struct perf_rec_build_id *rec;
	struct strbuf sb = STRBUF_INIT;
	int err;

	in->done = xrealloc(in->done, (in->nr_done + 1) * sizeof(*in->done));
	d = &in->done[in->nr_done++];
	memset(d, 0, sizeof(*d));
	d->filename = xstrdup(name);
	d->kernel = kernel;
	if (size <= 0)
		return 0;
	memcpy(d->build_id, id, (size_t)size);
	d->build_id_size = size;
	/* a feature entry made a record: perf 6.1's injected ones carry no size */
	feat_build_build_ids(&sb, d, 1);
	rec = (struct perf_rec_build_id *)sb.buf;
	rec->header.type = PERF_RECORD_HEADER_BUILD_ID;
	rec->header.misc &= (uint16_t)~PERF_RECORD_MISC_BUILD_ID_SIZE;
	rec->build_id[BUILD_ID_MAX] = 0;
	err = perf_data_writer__write(&in->w, sb.buf, sb.len);
	if (in->opts->verbose) {
		char hex[41];

		build_id__hex(id, size, hex);
		fprintf(in->opts->verbose, "injecting build id %s for %s\n", hex, name);
	}
	strbuf_release(&sb);
	return err;
}

/* The name a DSO's build id goes under: its own, but for a kernel the input
 * knows no build id for, which perf names after -k's image. */
static const char *injected_name(const struct injector *in, const struct dso *dso)
{
	if (in->opts->vmlinux && !in->opts->ignore_vmlinux && dso->kernel &&
	    !dso->build_id_size && !strcmp(dso->long_name, "[kernel.kallsyms]"))
		return in->opts->vmlinux;
	return dso->long_name;
}

/* -b: the DSO of a sample's ip, the first time one lands in it.  The kernel's
 * build id is only known from the input's header (perf reads no file for
 * it) or from -k's image. */
static int inject_sample_dso(struct injector *in, struct perf_session *s,
			     const struct perf_sample *sample)
{
	struct addr_location al;
	const char *name;
	struct dso *dso;

	if (!perf_session__resolve_sample(s, sample, &al) || !al.dso)
		return 0;
	dso = al.dso;
	name = injected_name(in, dso);
	if (already_done(in, name))
		return 0;
	const struct known_build_id *k = known_build_id(in, name);

	if (k)
		return inject_build_id(in, name, dso->kernel, k->id, k->size);
	if (name != dso->long_name) {
		uint8_t id[BUILD_ID_MAX];

		return inject_build_id(in, name, true, id,
				       elf_file__read_build_id(name, id, sizeof(id)));
	}
	if (!dso->kernel)
		dso__read_build_id(dso);
	return inject_build_id(in, name, dso->kernel, dso->build_id, dso->build_id_size);
}

/* --buildid-all: every mapped file, before its map record. */
static int inject_mapped_file(struct injector *in, const struct perf_event_header *rec)
{
	const char *name = rec->type == PERF_RECORD_MMAP ?
		((const struct perf_rec_mmap *)rec)->filename :
		((const struct perf_rec_mmap2 *)rec)->filename;
	bool kernel = (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	uint8_t id[BUILD_ID_MAX];
	int size = 0;

	if (already_done(in, name))
		return 0;
	if (name[0] == '/' && !kernel)	/* perf finds no file for [vdso] here */
		size = elf_file__read_build_id(name, id, sizeof(id));
	return inject_build_id(in, name, kernel, id, size);
}

/* Where a fixed-size field of a sample lies, before the first variable one. */
static size_t sample_field_offset(uint64_t sample_type, uint64_t field)
{
	static const uint64_t order[] = {
		PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
		PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
		PERF_SAMPLE_PERIOD,
	};
	size_t off = sizeof(struct perf_event_header);

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && order[i] != field; i++)
		if (sample_type & order[i])
			off += sizeof(uint64_t);
	return off;
}

static bool is_event(const struct evsel *evsel, const char *name)
{
	return evsel && evsel->name && !strcmp(evsel->name, name);
}

/* -s: keeps switches, forgets exited tasks, turns stats into the switch of
 * the task they name.  1: the record was taken, 0: it goes on as it is. */
static int sched_stat_record(struct injector *in, struct perf_session *s,
			     const struct perf_event_header *rec, const struct perf_sample *sample,
			     struct evsel *evsel)
{
	const uint64_t type = evsel ? evsel->attr.sample_type : 0;
	struct perf_event_header *sw;

	if (is_event(evsel, "sched:sched_switch") || is_event(evsel, "sched:sched_process_exit")) {
		free(hashmap_u64_get(&in->last_switch, sample->tid));
		sw = NULL;
		if (is_event(evsel, "sched:sched_switch"))
			sw = memcpy(xmalloc(rec->size), rec, rec->size);
		hashmap_u64_put(&in->last_switch, sample->tid, sw);
		return 1;
	}
	if (!evsel || !evsel->name || strncmp(evsel->name, "sched:sched_stat_", 17))
		return 0;
	struct session_event *se = perf_session__event(s, evsel);
	struct tep_format_field *field = se && se->tp_format ?
		tep_find_field(se->tp_format, "pid") : NULL;
	unsigned long long pid;

	if (!field || !sample->raw_data ||
	    tep_read_number_field(field, sample->raw_data, &pid) ||
	    !(sw = hashmap_u64_get(&in->last_switch, pid)))
		return 1;
	if (type & PERF_SAMPLE_TIME)
		memcpy((char *)sw + sample_field_offset(type, PERF_SAMPLE_TIME), &sample->time,
		       sizeof(sample->time));
	if (type & PERF_SAMPLE_PERIOD)
		memcpy((char *)sw + sample_field_offset(type, PERF_SAMPLE_PERIOD), &sample->period,
		       sizeof(sample->period));
	return perf_data_writer__write(&in->w, sw, sw->size) ? -1 : 1;
}

struct comm_peek {
	struct perf_tool tool;
	struct guest_inject *gi;
	int fd;
	char *err;
	bool after_init;	/* FINISHED_INIT seen */
	struct perf_event_header first;	/* the first kernel record after it */
	uint64_t first_offset;
};

static int peek_comm(struct perf_tool *tool, struct perf_session *s,
		     const struct perf_event_header *rec, struct perf_sample *sample,
		     struct evsel *evsel, uint64_t file_offset)
{
	struct comm_peek *p = (struct comm_peek *)tool;
	struct perf_event_header h;

	(void)s;
	(void)sample;
	(void)evsel;
	if (rec->type == PERF_RECORD_FINISHED_INIT)
		p->after_init = true;
	else if (p->after_init && !p->first.size && rec->type < PERF_RECORD_USER_TYPE_START) {
		p->first = *rec;
		p->first_offset = file_offset;
	}
	/* perf peeks at the records as they are in the file: not inside
	 * COMPRESSED ones */
	if (rec->type != PERF_RECORD_COMM ||
	    pread(p->fd, &h, sizeof(h), (off_t)file_offset) != sizeof(h) || h.type != rec->type)
		return 0;
	return guest_inject__host_comm(p->gi, (const struct perf_rec_comm *)rec, &p->err);
}

/* Whether perf can still tell the host's records' events apart once the
 * guest's are added: its first event's samples and trailers must carry an
 * id (else perf reads one from a wrong place, finds no event and fails
 * with -EFAULT on the first such record it reads after FINISHED_INIT). */
static bool host_ids_readable(const struct perf_session *host, const struct perf_event_header *rec)
{
	const struct perf_event_attr *first = &host->header.attrs[0].attr;

	if (first->sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		return true;
	return rec->type != PERF_RECORD_SAMPLE && !first->sample_id_all;
}

/* The host's VCPU threads: every COMM of the file, in the file's order, as
 * perf peeks at them when its FINISHED_INIT comes. */
static int peek_vcpus(struct injector *in, struct perf_session *host)
{
	struct comm_peek p = { .tool = { .record = peek_comm }, .gi = in->guest };
	struct perf_session *s;
	char *why = NULL;
	int ret;

	if (host->is_pipe) {	/* perf cannot peek into a pipe: it just fails */
		in->guest_err = xstrdup("");
		return -EINVAL;
	}
	s = perf_session__open(host->path, true, &why);
	if (!s) {
		in->guest_err = xasprintf("%s\n", why);
		free(why);
		return -EIO;
	}
	p.fd = s->fd;
	ret = perf_session__process(s, &p.tool);
	if (p.err)
		in->guest_err = p.err;
	perf_session__delete(s);
	if (ret)
		return ret;
	ret = guest_inject__ready(in->guest, host, &in->guest_err);
	if (!ret && host->header.nr_attrs && p.first.size && !host_ids_readable(host, &p.first)) {
		in->guest_err = xasprintf("%#llx [%#x]: failed to process type: %u [%s]\n",
					  (unsigned long long)p.first_offset, p.first.size,
					  p.first.type, strerror(EFAULT));
		in->guest_err_said = true;
		ret = -EFAULT;
	}
	return ret;
}

/* --guest-data: the guest's records go in before the host's side-band ones
 * (and FINISHED_ROUNDs) that are not older, as perf's host tool puts them;
 * FINISHED_INIT sets the merge up. */
static int guest_record(struct injector *in, struct perf_session *s,
			const struct perf_event_header *rec, const struct perf_sample *sample)
{
	struct guest_inject *gi = in->guest;
	uint64_t until;

	switch (rec->type) {
	case PERF_RECORD_FINISHED_INIT:
		return peek_vcpus(in, s);
	case PERF_RECORD_FINISHED_ROUND:
		until = s->oe.last_flush;
		break;
	case PERF_RECORD_TIME_CONV:
		guest_inject__host_time_conv(gi, rec);
		return 0;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		int ret = guest_inject__host_switch(gi, rec, sample, &in->guest_err);

		if (ret)
			return ret;
	}
		/* fall through */
	case PERF_RECORD_MMAP: case PERF_RECORD_MMAP2: case PERF_RECORD_COMM:
	case PERF_RECORD_FORK: case PERF_RECORD_EXIT: case PERF_RECORD_LOST:
	case PERF_RECORD_KSYMBOL: case PERF_RECORD_TEXT_POKE:
		until = sample->time;
		break;
	default:
		return 0;
	}
	return guest_inject__until(gi, until, &in->guest_err);
}

static int repipe(struct perf_tool *tool, struct perf_session *s,
		  const struct perf_event_header *rec, struct perf_sample *sample,
		  struct evsel *evsel, uint64_t file_offset)
{
	struct injector *in = (struct injector *)tool;
	int err = 0;

	(void)evsel;
	(void)file_offset;
	/* their payloads follow the record in the stream and are not handed on */
	if (rec->type == PERF_RECORD_AUXTRACE || rec->type == PERF_RECORD_HEADER_TRACING_DATA) {
		in->unsupported = rec->type == PERF_RECORD_AUXTRACE ?
			"AUX area traces are not supported yet" :
			"tracing data in a pipe stream is not supported yet";
		return -ENOTSUP;
	}
	if (in->guest && (err = guest_record(in, s, rec, sample)))
		return err;
	if (in->opts->jit) {
		int taken = jit_inject__record(&in->jit, rec);

		if (taken)
			return taken < 0 ? -1 : 0;
	}
	if (in->opts->itrace && (rec->type == PERF_RECORD_ID_INDEX ||
				 (in->opts->strip && rec->type == PERF_RECORD_SAMPLE)))
		return 0;
	if (in->opts->sched_stat && rec->type == PERF_RECORD_SAMPLE) {
		int taken = sched_stat_record(in, s, rec, sample, evsel);

		if (taken)
			return taken < 0 ? -1 : 0;
	}
	if (rec->type == PERF_RECORD_SAMPLE && in->opts->build_ids && !in->opts->buildid_all)
		err = inject_sample_dso(in, s, sample);
	else if ((rec->type == PERF_RECORD_MMAP || rec->type == PERF_RECORD_MMAP2) &&
		 in->opts->buildid_all)
		err = inject_mapped_file(in, rec);
	if (!err)
		err = perf_data_writer__write(&in->w, rec, rec->size);
	return err;
}

/* The input file's feature sections, as they are, but for the command line,
 * the build ids (ours, -b; -j alone adds to the input's), the compression
 * (the output is inflated) and the directory format (a directory's files
 * become one). */
static int copy_features(struct injector *in, struct perf_session *s)
{
	const struct perf_header *h = &s->header;
	bool keep_build_ids = in->opts->jit && !in->opts->build_ids;

	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++) {
		const struct perf_file_section *sec = &h->feat_sec[feat];
		void *buf;

		if (!perf_header__has_feat(h, feat) || feat == HEADER_CMDLINE ||
		    (feat == HEADER_BUILD_ID && !keep_build_ids) ||
		    feat == HEADER_COMPRESSED || feat == HEADER_DIR_FORMAT || !sec->size)
			continue;
		buf = xmalloc(sec->size);
		if (pread(s->fd, buf, sec->size, (off_t)sec->offset) != (ssize_t)sec->size) {
			free(buf);
			return -EIO;
		}
		perf_data_writer__set_feature(&in->w, feat, buf, sec->size);
	}
	return 0;
}

static void set_feature(struct injector *in, int feat, struct strbuf *sb)
{
	if (!sb->len) {
		strbuf_release(sb);
		return;
	}
	size_t len = sb->len;

	perf_data_writer__set_feature(&in->w, feat, strbuf_detach(sb), len);
}

struct feature_order {
	const struct injector *in;
	struct hit_dso *v;
	size_t n;
};

/* The DSOs that got a record, and the vdso, hit or not, as perf lists it. */
static void add_if_injected(struct dso *dso, void *arg)
{
	struct feature_order *o = arg;

	if (!strcmp(dso->long_name, "[vdso]")) {
		if (dso__read_build_id(dso) > 0) {
			struct hit_dso *d = &o->v[o->n++];

			memset(d, 0, sizeof(*d));
			d->filename = dso->long_name;
			memcpy(d->build_id, dso->build_id, (size_t)dso->build_id_size);
			d->build_id_size = dso->build_id_size;
		}
		return;
	}
	for (size_t i = 0; i < o->in->nr_done; i++)
		if (o->in->done[i].build_id_size > 0 &&
		    !strcmp(o->in->done[i].filename, injected_name(o->in, dso)))
			o->v[o->n++] = o->in->done[i];
}

/* -b into a file: the hit DSOs' build ids as a feature, in the order the
 * DSOs were made (as perf's table), and into the cache. */
static void add_build_id_feature(struct injector *in, struct perf_session *s)
{
	struct feature_order o = { .in = in, .v = xcalloc(in->nr_done + 2, sizeof(*o.v)) };
	struct strbuf sb = STRBUF_INIT;
	char *dir;

	if (!in->opts->build_ids || in->opts->buildid_all) {
		free(o.v);
		return;
	}
	machine__for_each_dso(s->machine, add_if_injected, &o);
	feat_build_build_ids(&sb, o.v, o.n);
	set_feature(in, HEADER_BUILD_ID, &sb);
	dir = build_id_cache__dir();
	for (size_t i = 0; i < o.n; i++)
		build_id_cache__add(dir, o.v[i].filename, o.v[i].build_id, o.v[i].build_id_size);
	free(dir);
	free(o.v);
}

static int emit_record(void *ctx, const struct perf_event_header *rec)
{
	struct injector *in = ctx;

	return perf_data_writer__write(&in->w, rec, rec->size);
}

/* -j into a file: the images' build ids after the input's (or -b's) ones,
 * and the images into the cache, as perf marks them hit. */
static void add_jit_build_ids(struct injector *in)
{
	struct perf_data_feature *f = &in->w.features[HEADER_BUILD_ID];
	struct strbuf sb = STRBUF_INIT;
	char *dir;

	if (!in->jit.nr_images)
		return;
	if (f->data)
		strbuf_add(&sb, f->data, f->size);
	feat_build_build_ids(&sb, in->jit.images, in->jit.nr_images);
	set_feature(in, HEADER_BUILD_ID, &sb);
	dir = build_id_cache__dir();
	for (size_t i = 0; i < in->jit.nr_images; i++)
		build_id_cache__add(dir, in->jit.images[i].filename, in->jit.images[i].build_id,
				    in->jit.images[i].build_id_size);
	free(dir);
}

static void *read_feature(struct perf_session *s, int feat, size_t *size)
{
	const struct perf_file_section *sec = &s->header.feat_sec[feat];
	void *buf;

	*size = 0;
	if (!perf_header__has_feat(&s->header, feat) || !sec->size)
		return NULL;
	buf = xmalloc(sec->size);
	if (pread(s->fd, buf, sec->size, (off_t)sec->offset) != (ssize_t)sec->size) {
		free(buf);
		return NULL;
	}
	*size = sec->size;
	return buf;
}

/* Nothing but a copy (no -b, --buildid-all, -j, -s, --itrace): perf marks
 * no DSO hit, so of the input's build ids only the vdso's stay. */
static void add_plain_build_ids(struct injector *in, struct perf_session *s)
{
	const struct inject_opts *o = in->opts;
	struct strbuf sb = STRBUF_INIT;
	size_t size;
	void *feat;

	if (o->build_ids || o->buildid_all || o->jit || o->sched_stat || o->itrace || in->guest)
		return;
	feat = read_feature(s, HEADER_BUILD_ID, &size);
	feat_keep_vdso_build_ids(&sb, feat, size);
	set_feature(in, HEADER_BUILD_ID, &sb);
	free(feat);
}

/* --guest-data into a file: the guest's events join the host's in the
 * attrs and EVENT_DESC, and the build ids are what perf writes (the vdsos
 * of both machines: nothing else is marked hit). */
static int add_guest_header(struct injector *in, struct perf_session *s)
{
	const struct perf_header *h = &s->header;
	size_t nr = guest_inject__nr_events(in->guest), size;
	struct perf_data_writer_attr *attrs = xcalloc(h->nr_attrs + nr + 1, sizeof(*attrs));
	struct strbuf sb = STRBUF_INIT;
	void *feat;
	int err;

	for (uint32_t i = 0; i < h->nr_attrs; i++) {
		attrs[i].attr = &h->attrs[i].attr;
		attrs[i].ids = h->attrs[i].ids;
		attrs[i].nr_ids = h->attrs[i].nr_ids;
	}
	for (size_t i = 0; i < nr; i++)
		attrs[h->nr_attrs + i].attr = guest_inject__attr(in->guest, i,
								 &attrs[h->nr_attrs + i].ids,
								 &attrs[h->nr_attrs + i].nr_ids);
	err = perf_data_writer__rewrite_attrs(&in->w, attrs, h->nr_attrs + nr);
	free(attrs);
	if ((feat = read_feature(s, HEADER_EVENT_DESC, &size))) {
		guest_inject__event_desc(in->guest, s, feat, size, &sb);
		set_feature(in, HEADER_EVENT_DESC, &sb);
		free(feat);
	}
	feat = read_feature(s, HEADER_BUILD_ID, &size);
	guest_inject__build_ids(in->guest, feat, size, &sb);
	set_feature(in, HEADER_BUILD_ID, &sb);
	free(feat);
	return err;
}

/* Where perf starts the data with --guest-data: after room for the host's
 * events and the guest's header, at a page boundary. */
static uint64_t guest_data_offset(const struct injector *in, const struct perf_session *s)
{
	uint64_t off = sizeof(struct perf_file_header);

	for (uint32_t i = 0; i < s->header.nr_attrs; i++)
		off += s->header.attrs[i].nr_ids * sizeof(uint64_t) +
		       sizeof(struct perf_event_attr) + sizeof(struct perf_file_section);
	off += guest_inject__header_room(in->guest);
	return (off + 4095) / 4096 * 4096;
}

/* A guest recorded with --kcore is a directory; perf's test for one takes
 * any directory (it looks for an entry not named kcore_dir*: "." is one).
 * The output then is a directory too, its records in DIR/data. */
static int make_output_dir(struct injector *in)
{
	struct stat st;

	if (stat(in->opts->guest_data->path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	if (mkdir(in->opts->output, 0700) && errno != EEXIST)
		return -errno;
	in->out_dir_data = xasprintf("%s/data", in->opts->output);
	return 0;
}

/* perf copies the guest's kcore_dir beside the data as kcore_dir__PID
 * (cp -r -n, quietly); when that fails it says so, and its status is the
 * low byte of cp's wait status (0 for a plain failure). */
static int copy_guest_kcore(struct injector *in, char **err)
{
	char *from = xasprintf("%s/kcore_dir", in->opts->guest_data->path);
	char *to = xasprintf("%s/kcore_dir__%u", in->opts->output,
			     in->opts->guest_data->machine_pid);
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execlp("cp", "cp", "-r", "-n", from, to, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		status = -1;
	free(from);
	free(to);
	if (!status)
		return 0;
	*err = xstrdup("Failed to copy guest kcore\n");
	return status;
}

/* Opens the output and writes the input's events into its header. */
static int open_output(struct injector *in, struct perf_session *s, bool pipe_out)
{
	const struct perf_header *h = &s->header;
	struct perf_data_writer_attr *attrs;
	int fd, err;

	if (!pipe_out) {
		err = perf_data_writer__open(&in->w, in->out_dir_data ? in->out_dir_data
									  : in->opts->output);
		if (err)
			return err;
		if (in->guest)
			in->w.min_data_offset = guest_data_offset(in, s);
	} else {
		fd = strcmp(in->opts->output, "-") ?
			open(in->opts->output, O_WRONLY | O_CREAT | O_TRUNC, 0600) : 1;
		if (fd < 0)
			return -errno;
		perf_data_writer__open_pipe(&in->w, fd);
		if (s->is_pipe)	/* the input's HEADER_ATTR records follow */
			return perf_data_writer__write_header(&in->w, NULL, 0);
	}
	attrs = xcalloc(h->nr_attrs + 1, sizeof(*attrs));
	for (uint32_t i = 0; i < h->nr_attrs; i++) {
		attrs[i].attr = &h->attrs[i].attr;
		attrs[i].ids = h->attrs[i].ids;
		attrs[i].nr_ids = h->attrs[i].nr_ids;
	}
	err = perf_data_writer__write_header(&in->w, attrs, h->nr_attrs);
	free(attrs);
	return err;
}

static void free_injector(struct injector *in)
{
	for (size_t i = 0; i < in->nr_done; i++)
		free((char *)in->done[i].filename);
	free(in->done);
	for (size_t i = 0; i < in->nr_known; i++)
		free(in->known[i].path);
	free(in->known);
	for (void **v = hashmap_next(&in->last_switch, NULL); v; v = hashmap_next(&in->last_switch, v))
		free(*v);
	hashmap_release(&in->last_switch);
	guest_inject__delete(in->guest);
	free(in->guest_err);
	free(in->out_dir_data);
}

/* perf opens its output before it reads the input: an existing one is
 * kept as FILE.old first (perf_data__keep_old()), and the file is created
 * (left empty when the input then proves unreadable).  A guest directory
 * (--guest-data of a --kcore recording) makes the output a directory later
 * instead.  0, or -1 with *err perf's lines. */
static int open_output_first(const struct inject_opts *opts, char **err)
{
	struct stat st;
	char *why = NULL;
	int ret, fd;

	if (!strcmp(opts->output, "-"))
		return 0;
	ret = perf_data__keep_old(opts->output, &why);
	if (ret) {
		/* perf's perror() then shows the errno its removal left behind */
		*err = xasprintf("%s\nfailed to create output file: %s\n", why,
				 strerror(ret == -ENOTEMPTY ? ENOTDIR : -ret));
		free(why);
		return -1;
	}
	if (opts->guest_data && !stat(opts->guest_data->path, &st) && S_ISDIR(st.st_mode))
		return 0;
	fd = open(opts->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = errno;
		*err = xasprintf("failed to open %s : %s\nfailed to create output file: %s\n",
				 opts->output, strerror(ret), strerror(ret));
		return -1;
	}
	close(fd);
	return 0;
}

int perf_inject(const struct inject_opts *opts, char **err)
{
	/* -b sees the samples in time order, as perf's inject does */
	struct injector in = {
		.tool = { .record = repipe,
			  .ordered = (opts->build_ids && !opts->buildid_all) || opts->jit ||
				     opts->sched_stat },
		.opts = opts,
	};
	struct perf_session *s;
	bool pipe_out, guest_failed = false;
	int rc;

	hashmap_init(&in.last_switch, sizeof(void *));
	/* (pcl refuses bad pairs before it writes anything) */
	if ((opts->known_build_ids && load_known_build_ids(&in, err)) ||
	    open_output_first(opts, err)) {
		free_injector(&in);
		return -1;
	}
	s = perf_session__open(opts->input, opts->force, err);
	if (!s) {
		char *why = *err;

		/* perf's line, as every reader's (a line of its own: as is) */
		*err = xasprintf("failed to open %s\n", why);
		free(why);
		free_injector(&in);
		return -1;
	}
	/* perf merges a guest only when inject has nothing else to do */
	if (opts->guest_data && !opts->build_ids && !opts->buildid_all && !opts->sched_stat &&
	    !opts->itrace) {
		in.guest = guest_inject__open(opts->guest_data, opts->force, emit_record, &in, &rc,
					      err);
		if (!in.guest) {
			free_injector(&in);
			perf_session__delete(s);
			return rc;
		}
		in.tool.ordered = in.tool.round_after_flush = true;
	}
	pipe_out = s->is_pipe || !strcmp(opts->output, "-");
	if (in.guest && !pipe_out && (rc = make_output_dir(&in))) {
		*err = xasprintf("%s: %s", opts->output, strerror(-rc));
		free_injector(&in);
		perf_session__delete(s);
		return -1;
	}
	perf_session__new_machine(s, opts->kallsyms, NULL, opts->force);
	jit_inject__init(&in.jit, s, emit_record, &in, stderr);
	rc = open_output(&in, s, pipe_out);
	if (!rc && !s->is_pipe)
		rc = copy_features(&in, s);
	if (!rc && !s->is_pipe) {
		struct strbuf sb = STRBUF_INIT;

		/* perf rewrites the features the input has: a file without a
		 * command line gets none */
		if (perf_header__has_feat(&s->header, HEADER_CMDLINE))
			feat_build_cmdline(&sb, opts->argc, opts->argv);
		set_feature(&in, HEADER_CMDLINE, &sb);
		if (pipe_out)
			rc = perf_data_writer__write_pipe_features(&in.w);
	}
	if (rc) {
		*err = xasprintf("%s: %s", opts->output, strerror(-rc));
		perf_session__delete(s);
		return -1;
	}
	rc = perf_session__process(s, &in.tool);
	if (!rc && in.guest && guest_inject__until(in.guest, ~0ULL, &in.guest_err)) {
		*err = xasprintf("%sFailed to flush guest events\n", in.guest_err);
		rc = -EINVAL;
		guest_failed = true;
	} else if (rc < 0 && in.guest_err && s->is_pipe) {
		/* perf's pipe reader names no reason, and fails with -EINVAL */
		*err = xasprintf("%s%#llx [%#x]: failed to process type: %u\n", in.guest_err,
				 (unsigned long long)s->failed_offset, s->failed_rec.size,
				 s->failed_rec.type);
		rc = -EINVAL;
		guest_failed = true;
	} else if (rc < 0 && in.guest_err_said) {
		*err = xstrdup(in.guest_err);
		guest_failed = true;
	} else if (rc < 0 && in.guest_err) {
		*err = s->failed_rec.size ?
			xasprintf("%s%#llx [%#x]: failed to process type: %u [%s]\n", in.guest_err,
				  (unsigned long long)s->failed_offset, s->failed_rec.size,
				  s->failed_rec.type, strerror(-rc)) : xstrdup(in.guest_err);
		guest_failed = true;
	} else if (in.unsupported)
		*err = xasprintf("%s: %s", opts->input, in.unsupported);
	else if (in.jit.err)
		*err = xstrdup(in.jit.err);
	else if (rc < 0 && s->err)
		*err = xstrdup(s->err);
	if (!rc && !pipe_out) {
		add_build_id_feature(&in, s);
		add_jit_build_ids(&in);
		add_plain_build_ids(&in, s);
		if (in.guest)
			rc = add_guest_header(&in, s);
	}
	if (!rc)
		rc = perf_data_writer__finish(&in.w);
	else
		perf_data_writer__close(&in.w);
	if (!rc && in.out_dir_data && (rc = copy_guest_kcore(&in, err)))
		guest_failed = true;
	if (rc && !*err)
		*err = xasprintf("%s: %s", opts->output, rc < 0 ? strerror(-rc) : "failed");
	free_injector(&in);
	jit_inject__exit(&in.jit);
	perf_session__delete(s);
	if (guest_failed)
		return rc;
	return rc ? -1 : 0;
}
