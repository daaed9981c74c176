/* guest-inject: a guest's side-band records merged into a host recording
 * (guest-inject.h). */
#include "core/data/guest-inject.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/data/header-features.h"
#include "core/data/session.h"
#include "util/strbuf.h"
#include "util/util.h"

bool guest_data_spec__parse(struct guest_data_spec *spec, const char *arg)
{
	char *copy, *rest, *tok;

	memset(spec, 0, sizeof(*spec));
	spec->time_scale = 1;
	if (!arg)
		return false;
	copy = xstrdup(arg);
	rest = copy;
	spec->path = xstrdup(strsep(&rest, ","));
	tok = strsep(&rest, ",");
	if (!tok || !(spec->machine_pid = (uint32_t)strtoul(tok, NULL, 0)))
		goto bad;
	tok = strsep(&rest, ",");
	if (tok) {
		spec->time_offset = strtoull(tok, NULL, 0);
		tok = strsep(&rest, ",");
		if (tok && !(spec->time_scale = strtod(tok, NULL)))
			goto bad;
	}
	free(copy);
	return true;
bad:
	free(copy);
	guest_data_spec__release(spec);
	return false;
}

void guest_data_spec__release(struct guest_data_spec *spec)
{
	free(spec->path);
	spec->path = NULL;
}

/* What a kept guest record's trailer said; in the spool, each record
 * follows its own. */
struct guest_rec_meta {
	uint64_t time, id;
	uint32_t pid, tid, cpu, pad;
};

/* The next guest record to merge, read back from the spool. */
struct guest_rec {
	struct guest_rec_meta meta;
	struct perf_event_header *rec;	/* in a buffer of the largest size */
};

/* A guest sample id and the host one it becomes. */
struct guest_id {
	uint64_t id, host_id;
	uint32_t vcpu;
};

struct guest_vcpu {
	uint32_t cpu, tid;
};

/* A guest event as the host's new one. */
struct guest_event {
	struct perf_event_attr attr;	/* IDENTIFIER added, exclude_host */
	uint64_t *host_ids;
	size_t nr_ids;
};

struct guest_inject {
	struct guest_data_spec spec;
	struct perf_session *s;		/* the guest file (header, events) */
	guest_emit_fn emit;
	void *ctx;

	FILE *spool;			/* the kept records in time order (an
					 * unlinked temporary file, as perf's) */
	struct guest_rec cur;
	bool have_cur;
	struct { uint64_t id; uint32_t cpu; } *index;	/* the guest's ID_INDEX */
	size_t nr_index;
	struct perf_rec_time_conv guest_tc, host_tc;

	struct guest_vcpu *vcpus;	/* grown as perf grows it: 64, 128, ... */
	size_t nr_vcpus;
	struct { uint32_t tid, vcpu; } *tids;
	size_t nr_tids;

	struct guest_id *ids;
	size_t nr_ids;
	struct guest_event *events;	/* one per guest event, after ready */
	size_t nr_events;
	uint64_t dflt_id;		/* the first id: for records with a zero one */
	size_t dflt_id_hdr_size;
	bool ready;
	uint8_t *buf;			/* the record being rewritten */
};

uint64_t guest_inject__header_room(const struct guest_inject *gi)
{
	return gi->s->header.file.data.offset;
}

bool guest_inject__is_ready(const struct guest_inject *gi)
{
	return gi->ready;
}

/* The records perf's guest tool hands on. */
static bool kept_type(const struct perf_event_header *rec)
{
	switch (rec->type) {
	case PERF_RECORD_MMAP: case PERF_RECORD_MMAP2: case PERF_RECORD_COMM:
	case PERF_RECORD_FORK: case PERF_RECORD_EXIT: case PERF_RECORD_LOST:
	case PERF_RECORD_SWITCH: case PERF_RECORD_SWITCH_CPU_WIDE: case PERF_RECORD_TEXT_POKE:
		return true;
	case PERF_RECORD_KSYMBOL:	/* out of line code only, no BPF */
		return ((const struct perf_rec_ksymbol *)rec)->ksym_type ==
		       PERF_RECORD_KSYMBOL_TYPE_OOL;
	default:
		return false;
	}
}

struct guest_tool {
	struct perf_tool tool;
	struct guest_inject *gi;
};

static int take_guest_record(struct perf_tool *tool, struct perf_session *s,
			     const struct perf_event_header *rec, struct perf_sample *sample,
			     struct evsel *evsel, uint64_t file_offset)
{
	struct guest_inject *gi = ((struct guest_tool *)tool)->gi;
	struct guest_rec_meta meta;

	(void)s;
	(void)evsel;
	(void)file_offset;
	if (rec->type == PERF_RECORD_TIME_CONV) {
		memset(&gi->guest_tc, 0, sizeof(gi->guest_tc));
		memcpy(&gi->guest_tc, rec, rec->size < sizeof(gi->guest_tc) ?
		       rec->size : sizeof(gi->guest_tc));
		return 0;
	}
	if (rec->type == PERF_RECORD_ID_INDEX) {
		const struct perf_rec_id_index *ix = (const void *)rec;

		for (uint64_t i = 0; i < ix->nr; i++) {
			gi->index = xrealloc(gi->index, (gi->nr_index + 1) * sizeof(*gi->index));
			gi->index[gi->nr_index].id = ix->entries[i].id;
			gi->index[gi->nr_index++].cpu = (uint32_t)ix->entries[i].cpu;
		}
		return 0;
	}
	if (rec->type >= PERF_RECORD_MAX || !kept_type(rec))
		return 0;
	meta = (struct guest_rec_meta){
		.time = sample->time, .id = sample->id,
		.pid = sample->pid, .tid = sample->tid, .cpu = sample->cpu,
	};
	if (fwrite(&meta, sizeof(meta), 1, gi->spool) != 1 ||
	    fwrite(rec, rec->size, 1, gi->spool) != 1)
		return -errno;
	return 0;
}

/* The next record of the spool into gi->cur; false at its end.  (The
 * spool was written whole before: a short read is its end.) */
static bool fetch(struct guest_inject *gi)
{
	struct perf_event_header *rec = gi->cur.rec;

	gi->have_cur = fread(&gi->cur.meta, sizeof(gi->cur.meta), 1, gi->spool) == 1 &&
		       fread(rec, sizeof(*rec), 1, gi->spool) == 1 &&
		       rec->size >= sizeof(*rec) &&
		       fread(rec + 1, rec->size - sizeof(*rec), 1, gi->spool) ==
		       (rec->size > sizeof(*rec));
	return gi->have_cur;
}

struct guest_inject *guest_inject__open(const struct guest_data_spec *spec, bool force,
					guest_emit_fn emit, void *ctx, int *ret, char **err)
{
	struct guest_tool t = {
		.tool = { .record = take_guest_record, .ordered = true },
	};
	struct guest_inject *gi;
	int fd = open(spec->path, O_RDONLY);
	char *why = NULL;

	*ret = -1;
	if (fd < 0) {
		*err = xasprintf("failed to open %s: %s\nFailed to process %s, error -1\n",
				 spec->path, strerror(errno), spec->path);
		return NULL;
	}
	close(fd);
	gi = xcalloc(1, sizeof(*gi));
	gi->spec = *spec;
	gi->spec.path = xstrdup(spec->path);
	gi->emit = emit;
	gi->ctx = ctx;
	t.gi = gi;
	gi->spool = tmpfile();
	if (!gi->spool) {
		*err = xasprintf("failed to create a temporary file for the guest events: %s\n"
				 "Failed to process %s, error -1\n", strerror(errno), spec->path);
		guest_inject__delete(gi);
		return NULL;
	}
	gi->s = perf_session__open(spec->path, force, &why);
	if (!gi->s) {
		*err = xasprintf("%s\nFailed to process %s, error -1\n", why, spec->path);
		free(why);
		guest_inject__delete(gi);
		return NULL;
	}
	for (uint32_t i = 0; i < gi->s->header.nr_attrs && !gi->dflt_id; i++)
		if (gi->s->header.attrs[i].nr_ids)
			gi->dflt_id = gi->s->header.attrs[i].ids[0];
	if (gi->s->header.nr_attrs)
		gi->dflt_id_hdr_size = perf_sample__id_hdr_size(&gi->s->header.attrs[0].attr);
	if (!gi->dflt_id) {
		*err = xasprintf("Guest data has no sample IDsFailed to process %s, error %d\n",
				 spec->path, -EINVAL);
		*ret = -EINVAL;
		guest_inject__delete(gi);
		return NULL;
	}
	if (perf_session__process(gi->s, &t.tool) || fflush(gi->spool) ||
	    fseeko(gi->spool, 0, SEEK_SET)) {
		*err = xasprintf("%s\nFailed to process %s, error -1\n",
				 gi->s->err ? gi->s->err : "cannot spool the guest data", spec->path);
		guest_inject__delete(gi);
		return NULL;
	}
	gi->buf = xmalloc(65536 + 64);
	gi->cur.rec = xmalloc(65536 + 64);
	fetch(gi);
	return gi;
}

void guest_inject__delete(struct guest_inject *gi)
{
	if (!gi)
		return;
	if (gi->spool)
		fclose(gi->spool);
	free(gi->cur.rec);
	free(gi->index);
	free(gi->vcpus);
	free(gi->tids);
	free(gi->ids);
	for (size_t i = 0; i < gi->nr_events; i++)
		free(gi->events[i].host_ids);
	free(gi->events);
	free(gi->buf);
	if (gi->s)
		perf_session__delete(gi->s);
	free(gi->spec.path);
	free(gi);
}

void guest_inject__host_time_conv(struct guest_inject *gi, const struct perf_event_header *rec)
{
	memset(&gi->host_tc, 0, sizeof(gi->host_tc));
	memcpy(&gi->host_tc, rec, rec->size < sizeof(gi->host_tc) ? rec->size : sizeof(gi->host_tc));
}

int guest_inject__host_comm(struct guest_inject *gi, const struct perf_rec_comm *comm,
			    char **err)
{
	unsigned int vcpu;
	size_t n;

	if (comm->pid != gi->spec.machine_pid || sscanf(comm->comm, "CPU %u/KVM", &vcpu) <= 0)
		return 0;
	if (vcpu > INT_MAX) {
		*err = xasprintf("Invalid VCPU %u\n", vcpu);
		return -EINVAL;
	}
	/* perf's array of VCPUs starts with 64 and doubles: what is past the
	 * last named one still counts as a VCPU (running on CPU 0) */
	for (n = gi->nr_vcpus ? gi->nr_vcpus : 64; vcpu >= n; n *= 2)
		;
	if (n != gi->nr_vcpus) {
		gi->vcpus = xrealloc(gi->vcpus, n * sizeof(*gi->vcpus));
		memset(gi->vcpus + gi->nr_vcpus, 0, (n - gi->nr_vcpus) * sizeof(*gi->vcpus));
		gi->nr_vcpus = n;
	}
	if (gi->vcpus[vcpu].tid && gi->vcpus[vcpu].tid != comm->tid) {
		*err = xstrdup("Fatal error: Two threads found with the same VCPU\n");
		return -EINVAL;
	}
	gi->vcpus[vcpu].tid = comm->tid;
	gi->tids = xrealloc(gi->tids, (gi->nr_tids + 1) * sizeof(*gi->tids));
	gi->tids[gi->nr_tids].tid = comm->tid;
	gi->tids[gi->nr_tids++].vcpu = vcpu;
	return 0;
}

/* The VCPU of a host thread (the latest naming wins, as perf's list). */
static bool tid_vcpu(const struct guest_inject *gi, uint32_t tid, uint32_t *vcpu)
{
	for (size_t i = gi->nr_tids; i-- > 0;)
		if (gi->tids[i].tid == tid) {
			*vcpu = gi->tids[i].vcpu;
			return true;
		}
	return false;
}

/* The CPU the guest's ID_INDEX gives id, -1 when none. */
static uint32_t guest_id_cpu(const struct guest_inject *gi, uint64_t id)
{
	for (size_t i = gi->nr_index; i-- > 0;)
		if (gi->index[i].id == id)
			return gi->index[i].cpu;
	return (uint32_t)-1;
}

static const struct guest_id *lookup_id(const struct guest_inject *gi, uint64_t id)
{
	for (size_t i = gi->nr_ids; i-- > 0;)
		if (gi->ids[i].id == id)
			return &gi->ids[i];
	return NULL;
}

static bool host_id_used(struct perf_session *host, uint64_t id)
{
	for (uint32_t i = 0; i < host->header.nr_attrs; i++)
		for (uint32_t j = 0; j < host->header.attrs[i].nr_ids; j++)
			if (host->header.attrs[i].ids[j] == id)
				return true;
	return false;
}

/* New ids for the guest's per-CPU ones, above every host id. */
static void map_ids(struct guest_inject *gi, struct perf_session *host)
{
	uint64_t highest = 1;

	for (uint32_t i = 0; i < host->header.nr_attrs; i++)
		for (uint32_t j = 0; j < host->header.attrs[i].nr_ids; j++)
			if (host->header.attrs[i].ids[j] > highest)
				highest = host->header.attrs[i].ids[j];
	for (uint32_t i = 0; i < gi->s->header.nr_attrs; i++) {
		const struct perf_data_attr *a = &gi->s->header.attrs[i];

		for (uint32_t j = 0; j < a->nr_ids; j++) {
			uint32_t cpu = guest_id_cpu(gi, a->ids[j]);

			if (cpu == (uint32_t)-1)
				continue;
			do
				highest++;
			while (!highest || host_id_used(host, highest));
			gi->ids = xrealloc(gi->ids, (gi->nr_ids + 1) * sizeof(*gi->ids));
			gi->ids[gi->nr_ids++] = (struct guest_id){ a->ids[j], highest, cpu };
		}
	}
}

/* The guest's events as host ones: their new ids, IDENTIFIER, guest only. */
static int add_events(struct guest_inject *gi, char **err)
{
	gi->nr_events = gi->s->header.nr_attrs;
	gi->events = xcalloc(gi->nr_events, sizeof(*gi->events));
	for (size_t i = 0; i < gi->nr_events; i++) {
		const struct perf_data_attr *a = &gi->s->header.attrs[i];
		struct guest_event *e = &gi->events[i];

		e->attr = a->attr;
		e->attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		e->attr.exclude_host = 1;
		e->attr.exclude_guest = 0;
		e->host_ids = xcalloc(a->nr_ids + 1, sizeof(uint64_t));
		e->nr_ids = a->nr_ids;
		for (uint32_t j = 0; j < a->nr_ids; j++) {
			const struct guest_id *g = lookup_id(gi, a->ids[j]);

			if (!g) {
				*err = xasprintf("Failed to find guest id %" PRIu64 "\n", a->ids[j]);
				return -EINVAL;
			}
			e->host_ids[j] = g->host_id;
		}
	}
	return 0;
}

/* The ID_INDEX of the new ids: per-thread from the host's view (the VCPU's
 * thread), with the machine pid and VCPU of each. */
static int emit_id_index(struct guest_inject *gi)
{
	size_t nr = 0, size;
	struct perf_rec_id_index *ix;
	uint64_t *e2;
	int ret;

	for (size_t i = 0; i < gi->nr_events; i++)
		nr += gi->events[i].nr_ids;
	if (!nr)
		return 0;
	size = sizeof(*ix) + nr * (sizeof(ix->entries[0]) + 2 * sizeof(uint64_t));
	ix = xcalloc(1, size);
	ix->header.type = PERF_RECORD_ID_INDEX;
	ix->header.size = (uint16_t)size;
	ix->nr = nr;
	e2 = (uint64_t *)(void *)&ix->entries[nr];	/* then machine pid, VCPU of each */
	nr = 0;
	for (size_t i = 0; i < gi->nr_events; i++)
		for (size_t j = 0; j < gi->events[i].nr_ids; j++, nr++) {
			const struct guest_id *g = lookup_id(gi, gi->s->header.attrs[i].ids[j]);

			ix->entries[nr].id = gi->events[i].host_ids[j];
			ix->entries[nr].cpu = (uint64_t)-1;
			ix->entries[nr].tid = g->vcpu < gi->nr_vcpus ? gi->vcpus[g->vcpu].tid : 0;
			e2[2 * nr] = gi->spec.machine_pid;
			e2[2 * nr + 1] = g->vcpu;
		}
	ret = gi->emit(gi->ctx, &ix->header);
	free(ix);
	return ret;
}

int guest_inject__ready(struct guest_inject *gi, struct perf_session *host, char **err)
{
	int ret;

	if (!gi->nr_vcpus) {
		*err = xasprintf("No VCPU threads found for pid %u\n", gi->spec.machine_pid);
		return -EINVAL;
	}
	map_ids(gi, host);
	ret = add_events(gi, err);
	if (!ret)
		ret = emit_id_index(gi);
	if (ret)
		return ret;
	gi->ready = true;
	return guest_inject__until(gi, 0, err);
}

int guest_inject__host_switch(struct guest_inject *gi, const struct perf_event_header *rec,
			      const struct perf_sample *sample, char **err)
{
	const struct perf_rec_switch *sw = (const void *)rec;
	uint32_t vcpu;

	if ((rec->misc & PERF_RECORD_MISC_SWITCH_OUT) || rec->size < sizeof(*sw) ||
	    sw->next_prev_pid != gi->spec.machine_pid || !tid_vcpu(gi, sw->next_prev_tid, &vcpu))
		return 0;
	if (sample->cpu == (uint32_t)-1) {
		*err = xstrdup("Switch event does not have CPU\n");
		return -EINVAL;
	}
	if (vcpu >= gi->nr_vcpus)
		return -EINVAL;
	gi->vcpus[vcpu].cpu = sample->cpu;
	return 0;
}

/* Guest perf time to host perf time; 0 stays 0. */
static uint64_t host_time(const struct guest_inject *gi, uint64_t guest_time)
{
	uint64_t tsc;

	if (!guest_time)
		return 0;
	tsc = gi->guest_tc.cap_user_time_zero ? time_conv__to_tsc(&gi->guest_tc, guest_time)
					      : guest_time;
	tsc -= gi->spec.time_offset;
	tsc = (uint64_t)((double)tsc / gi->spec.time_scale);
	return gi->host_tc.cap_user_time_zero ? time_conv__to_perf(&gi->host_tc, tsc) : tsc;
}

static const struct guest_event *event_of_host_id(const struct guest_inject *gi, uint64_t id)
{
	for (size_t i = 0; i < gi->nr_events; i++)
		for (size_t j = 0; j < gi->events[i].nr_ids; j++)
			if (gi->events[i].host_ids[j] == id)
				return &gi->events[i];
	return NULL;
}

static size_t guest_id_hdr_size(const struct guest_inject *gi, uint64_t id)
{
	for (uint32_t i = 0; i < gi->s->header.nr_attrs; i++)
		for (uint32_t j = 0; j < gi->s->header.attrs[i].nr_ids; j++)
			if (gi->s->header.attrs[i].ids[j] == id)
				return perf_sample__id_hdr_size(&gi->s->header.attrs[i].attr);
	return SIZE_MAX;
}

/* The sample_id_all trailer of sample_type: TID, TIME, ID, STREAM_ID, CPU,
 * IDENTIFIER, as the kernel lays it out. */
static size_t write_trailer(uint64_t *out, uint64_t sample_type, uint32_t pid, uint32_t tid,
			    uint64_t time, uint64_t id, uint32_t cpu)
{
	uint64_t *p = out;

	if (sample_type & PERF_SAMPLE_TID)
		*p++ = (uint64_t)pid | (uint64_t)tid << 32;
	if (sample_type & PERF_SAMPLE_TIME)
		*p++ = time;
	if (sample_type & PERF_SAMPLE_ID)
		*p++ = id;
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		*p++ = id;
	if (sample_type & PERF_SAMPLE_CPU)
		*p++ = cpu;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		*p++ = id;
	return (size_t)(p - out) * sizeof(*p);
}

/* One guest record rewritten for the host and emitted. */
static int emit_guest_record(struct guest_inject *gi, const struct guest_rec *g, uint64_t time,
			     char **err)
{
	struct perf_event_header *rec = (void *)gi->buf;
	uint64_t id = g->meta.id;
	size_t id_hdr_size;
	uint32_t cpu = g->meta.cpu;
	const struct guest_id *map;
	const struct guest_event *e;
	uint16_t mode;

	memcpy(rec, g->rec, g->rec->size);
	mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	rec->misc = (uint16_t)((rec->misc & ~PERF_RECORD_MISC_CPUMODE_MASK) |
			       (mode & PERF_RECORD_MISC_USER ? PERF_RECORD_MISC_GUEST_USER
							     : PERF_RECORD_MISC_GUEST_KERNEL));
	if (!id) {
		id = gi->dflt_id;
		id_hdr_size = gi->dflt_id_hdr_size;
	} else {
		id_hdr_size = guest_id_hdr_size(gi, id);
		if (id_hdr_size == SIZE_MAX) {
			*err = xasprintf("Guest event with unknown id %llu\n", (unsigned long long)id);
			return -EINVAL;
		}
	}
	if (id_hdr_size & 7) {
		*err = xasprintf("Bad id_hdr_size %zu\n", id_hdr_size);
		return -EINVAL;
	}
	if (rec->size & 7) {
		*err = xasprintf("Bad event size %u\n", rec->size);
		return -EINVAL;
	}
	rec->size = (uint16_t)(rec->size - id_hdr_size);
	if (rec->size & 7) {
		*err = xasprintf("Bad raw event size %u\n", rec->size);
		return -EINVAL;
	}
	map = lookup_id(gi, id);
	if (!map) {
		*err = xasprintf("Guest event with unknown id %llu\n", (unsigned long long)id);
		return -EINVAL;
	}
	if (cpu != (uint32_t)-1) {
		if (cpu >= gi->nr_vcpus) {
			*err = xasprintf("Guest event with unknown VCPU %u\n", cpu);
			return -EINVAL;
		}
		cpu = gi->vcpus[cpu].cpu;
	}
	e = event_of_host_id(gi, map->host_id);
	rec->size = (uint16_t)(rec->size +
			       write_trailer((uint64_t *)(void *)((char *)rec + rec->size),
					     e->attr.sample_type, g->meta.pid, g->meta.tid, time,
					     map->host_id, cpu));
	return gi->emit(gi->ctx, rec);
}

int guest_inject__until(struct guest_inject *gi, uint64_t time, char **err)
{
	if (!gi->ready)
		return 0;
	while (gi->have_cur) {
		uint64_t t = host_time(gi, gi->cur.meta.time);
		int ret;

		if (t > time)
			return 0;
		ret = emit_guest_record(gi, &gi->cur, t, err);
		if (ret)
			return ret;
		fetch(gi);
	}
	return 0;
}

size_t guest_inject__nr_events(const struct guest_inject *gi)
{
	return gi->ready ? gi->nr_events : 0;
}

const struct perf_event_attr *guest_inject__attr(const struct guest_inject *gi, size_t i,
						 const uint64_t **ids, size_t *nr_ids)
{
	*ids = gi->events[i].host_ids;
	*nr_ids = gi->events[i].nr_ids;
	return &gi->events[i].attr;
}

void guest_inject__event_desc(const struct guest_inject *gi, struct perf_session *host,
			      const void *desc, size_t size, struct strbuf *out)
{
	uint32_t nr, attr_size;

	if (size < 8)
		return;
	memcpy(&nr, desc, 4);
	memcpy(&attr_size, (const char *)desc + 4, 4);
	nr += (uint32_t)guest_inject__nr_events(gi);
	strbuf_add(out, &nr, 4);
	strbuf_add(out, (const char *)desc + 4, size - 4);
	for (size_t i = 0; i < guest_inject__nr_events(gi); i++) {
		const struct guest_event *e = &gi->events[i];
		struct perf_event_attr attr = e->attr;
		char *name = perf_session__attr_name(host, &attr);
		uint32_t n = (uint32_t)e->nr_ids;
		size_t at = out->len;

		attr.size = attr_size;
		strbuf_grow(out, attr_size);
		memset(out->buf + at, 0, attr_size);
		memcpy(out->buf + at, &attr,
		       attr_size < sizeof(attr) ? attr_size : sizeof(attr));
		strbuf_setlen(out, at + attr_size);
		strbuf_add(out, &n, 4);
		feat_string(out, name);
		strbuf_add(out, e->host_ids, e->nr_ids * sizeof(uint64_t));
		free(name);
	}
}

/* Whether an earlier entry names the same file: the guest's machine has
 * one DSO per name (an inject -b'd guest lists its vdso again from the
 * BUILD_ID records in its data). */
static bool seen_before(const struct perf_header *h, uint32_t i)
{
	for (uint32_t j = 0; j < i; j++)
		if (h->build_ids[j].pid == h->build_ids[i].pid &&
		    !strcmp(h->build_ids[j].filename, h->build_ids[i].filename))
			return true;
	return false;
}

void guest_inject__build_ids(const struct guest_inject *gi, const void *host_feat, size_t size,
			     struct strbuf *out)
{
	const struct perf_header *gh = &gi->s->header;

	feat_keep_vdso_build_ids(out, host_feat, size);
	if (!gi->ready)
		return;
	for (uint32_t i = 0; i < gh->nr_build_ids; i++) {
		const struct perf_build_id_entry *e = &gh->build_ids[i];
		struct hit_dso d = { .filename = e->filename, .build_id_size = e->size };
		struct perf_rec_build_id *b;
		size_t at = out->len;

		if (e->pid != -1 || !build_id_is_vdso(e->filename) || e->size <= 0 ||
		    seen_before(gh, i))
			continue;
		memcpy(d.build_id, e->build_id, (size_t)e->size);
		feat_build_build_ids(out, &d, 1);
		/* in the guest's machine, as perf's table of it */
		b = (struct perf_rec_build_id *)(void *)(out->buf + at);
		b->header.misc = PERF_RECORD_MISC_GUEST_USER | PERF_RECORD_MISC_BUILD_ID_SIZE;
		b->pid = (int32_t)gi->spec.machine_pid;
	}
}
