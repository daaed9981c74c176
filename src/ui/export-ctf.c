/*
 * export-ctf: perf.data as a CTF trace, written with babeltrace 1's CTF
 * writer (libbabeltrace-ctf), the library perf 6.1 writes its traces with:
 * the same library lays out the metadata and the packets the same way, so
 * babeltrace prints both traces alike once the classes, fields, streams
 * and flushes are the same.
 *
 * The trace: one stream class "perf_stream" on clock "perf_clock" (ns);
 * an event class per perf event, named as perf names the event, whose
 * fields are the sample's (perf_ip, perf_tid, ...) then, for tracepoints,
 * the format's fields; with --all five more classes for the COMM, EXIT,
 * FORK, MMAP and MMAP2 records.  A sample goes to the stream of its CPU
 * (made at its first event, with cpu_id in the packet context), the other
 * records to CPU 0's.  A stream is flushed into a packet every
 * FLUSH_EVERY events and at the end.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <babeltrace/ctf-writer/writer.h>
#include <babeltrace/ctf-writer/clock.h>
#include <babeltrace/ctf-writer/stream.h>
#include <babeltrace/ctf-writer/event.h>
#include <babeltrace/ctf-writer/event-types.h>
#include <babeltrace/ctf-writer/event-fields.h>
#include <traceevent/event-parse.h>

#include "core/data/session.h"
#include "ui/export-ctf.h"
#include "util/util.h"

/* libbabeltrace-ctf (and glib with it) is opened on the first conversion,
 * not linked: every other command mapped, relocated and initialised them
 * (0.9 MB of memory). */
#define BABELTRACE_FUNCTIONS(X) X(bt_ctf_clock_create) X(bt_ctf_clock_put) \
	X(bt_ctf_clock_set_description) X(bt_ctf_clock_set_frequency) X(bt_ctf_clock_set_is_absolute) \
	X(bt_ctf_clock_set_offset) X(bt_ctf_clock_set_offset_s) X(bt_ctf_clock_set_precision) \
	X(bt_ctf_clock_set_time) X(bt_ctf_event_class_add_field) X(bt_ctf_event_class_create) \
	X(bt_ctf_event_class_get_field_by_name) X(bt_ctf_event_class_put) X(bt_ctf_event_create) \
	X(bt_ctf_event_put) X(bt_ctf_event_set_payload) X(bt_ctf_field_array_get_field) \
	X(bt_ctf_field_create) X(bt_ctf_field_put) X(bt_ctf_field_sequence_get_field) \
	X(bt_ctf_field_sequence_set_length) X(bt_ctf_field_signed_integer_set_value) \
	X(bt_ctf_field_string_set_value) X(bt_ctf_field_structure_get_field) \
	X(bt_ctf_field_type_array_create) X(bt_ctf_field_type_integer_create) \
	X(bt_ctf_field_type_integer_set_base) X(bt_ctf_field_type_integer_set_signed) \
	X(bt_ctf_field_type_put) X(bt_ctf_field_type_sequence_create) \
	X(bt_ctf_field_type_set_byte_order) X(bt_ctf_field_type_string_create) \
	X(bt_ctf_field_type_string_set_encoding) X(bt_ctf_field_type_structure_add_field) \
	X(bt_ctf_field_unsigned_integer_set_value) X(bt_ctf_stream_append_event) \
	X(bt_ctf_stream_class_add_event_class) X(bt_ctf_stream_class_create) \
	X(bt_ctf_stream_class_get_packet_context_type) X(bt_ctf_stream_class_put) \
	X(bt_ctf_stream_class_set_clock) X(bt_ctf_stream_flush) X(bt_ctf_stream_get_packet_context) \
	X(bt_ctf_stream_put) X(bt_ctf_writer_add_clock) X(bt_ctf_writer_add_environment_field) \
	X(bt_ctf_writer_create) X(bt_ctf_writer_create_stream) X(bt_ctf_writer_put)
#define BABELTRACE_POINTER(name) __typeof__(name) *name;

static struct {
	BABELTRACE_FUNCTIONS(BABELTRACE_POINTER)
} bt;

static int load_babeltrace(void)
{
#define BABELTRACE_NAME(name) #name,
#define BABELTRACE_SLOT(name) (void **)&bt.name,
	static const char *const names[] = { BABELTRACE_FUNCTIONS(BABELTRACE_NAME) };
	void **const slots[] = { BABELTRACE_FUNCTIONS(BABELTRACE_SLOT) };
	static void *lib;
	char *err = dl_load_symbols("libbabeltrace-ctf.so.1", "libbabeltrace-ctf (the CTF "
				    "writer; Debian package libbabeltrace1)",
				    names, slots, ARRAY_SIZE(names), &lib);

	if (!err)
		return 0;
	fprintf(stderr, "%s\n", err);
	free(err);
	return -1;
}

/* events a stream holds before it is flushed into a packet, as perf */
#define FLUSH_EVERY 100000

struct ctf_types {
	struct bt_ctf_field_type *u32, *s32, *u64, *s64, *u64_hex, *string;
};

struct ctf_stream {
	struct bt_ctf_stream *stream;
	uint64_t count;		/* events since the last flush */
};

/* the records --all adds, by kind */
enum ctf_record_class { REC_COMM, REC_EXIT, REC_FORK, REC_MMAP, REC_MMAP2, NR_REC_CLASSES };

struct ctf_export {
	struct perf_tool tool;	/* first: the callbacks get it back */
	struct bt_ctf_writer *writer;
	struct bt_ctf_clock *clock;
	struct bt_ctf_stream_class *stream_class;
	struct ctf_types t;
	struct bt_ctf_event_class **classes;	/* by evsel idx */
	int nr_classes;
	struct bt_ctf_event_class *records[NR_REC_CLASSES];
	struct ctf_stream *streams;		/* by CPU */
	unsigned int nr_streams;
	bool flush_failed;
	const char *dir;
	bool tod;
	bool started;		/* start() ran (writer NULL: it failed) */
	struct ctf_summary *sum;
};

static const char *const ctf_keywords[] = {
	"align", "callsite", "const", "char", "clock", "double", "enum", "env", "event",
	"floating_point", "float", "integer", "int", "long", "short", "signed", "stream",
	"string", "struct", "trace", "typealias", "typedef", "unsigned", "variant", "void",
	"_Bool", "_Complex", "_Imaginary",
};

const char *ctf_field_name(const char *name, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(ctf_keywords) / sizeof(ctf_keywords[0]); i++) {
		if (!strcmp(name, ctf_keywords[i])) {
			snprintf(buf, size, "_%s", name);
			return buf;
		}
	}
	return name;
}

static struct bt_ctf_field_type *int_type(unsigned int bits, bool is_signed, bool hex)
{
	struct bt_ctf_field_type *t = bt.bt_ctf_field_type_integer_create(bits);

	if (!t)
		return NULL;
	if ((is_signed && bt.bt_ctf_field_type_integer_set_signed(t, 1)) ||
	    (hex && bt.bt_ctf_field_type_integer_set_base(t, BT_CTF_INTEGER_BASE_HEXADECIMAL)) ||
	    bt.bt_ctf_field_type_set_byte_order(t, BT_CTF_BYTE_ORDER_LITTLE_ENDIAN)) {
		bt.bt_ctf_field_type_put(t);
		return NULL;
	}
	return t;
}

static int make_types(struct ctf_types *t)
{
	t->u32 = int_type(32, false, false);
	t->s32 = int_type(32, true, false);
	t->u64 = int_type(64, false, false);
	t->s64 = int_type(64, true, false);
	t->u64_hex = int_type(64, false, true);
	t->string = bt.bt_ctf_field_type_string_create();
	if (t->string && bt.bt_ctf_field_type_string_set_encoding(t->string,
							       CTF_STRING_UTF8))
		return -1;
	return t->u32 && t->s32 && t->u64 && t->s64 && t->u64_hex && t->string ? 0 : -1;
}

static void put_types(struct ctf_types *t)
{
	struct bt_ctf_field_type *all[] = { t->u32, t->s32, t->u64, t->s64, t->u64_hex, t->string };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (all[i])
			bt.bt_ctf_field_type_put(all[i]);
}

/* The type perf gives a tracepoint field (an array's elements for arrays):
 * strings, unsigned longs and pointers in hex (mostly addresses), the
 * other integers 64 bits wide when the field is 8 bytes, else 32. */
static struct bt_ctf_field_type *tp_field_type(const struct ctf_types *t,
					       const struct tep_format_field *f)
{
	if (f->flags & TEP_FIELD_IS_STRING)
		return t->string;
	if (!(f->flags & TEP_FIELD_IS_SIGNED) &&
	    (f->flags & (TEP_FIELD_IS_LONG | TEP_FIELD_IS_POINTER)))
		return t->u64_hex;
	if (f->flags & TEP_FIELD_IS_SIGNED)
		return f->size == 8 ? t->s64 : t->s32;
	return f->size == 8 ? t->u64 : t->u32;
}

/* Char arrays are strings, not arrays. */
static bool tp_field_is_array(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_ARRAY) && !(f->flags & TEP_FIELD_IS_STRING);
}

static int add_field(struct bt_ctf_event_class *cls, struct bt_ctf_field_type *type,
		     const char *name)
{
	return bt.bt_ctf_event_class_add_field(cls, type, name);
}

static int add_tp_fields(struct ctf_export *w, struct bt_ctf_event_class *cls,
			 struct tep_format_field **fields)
{
	char buf[128];
	int ret = 0;

	for (int i = 0; fields && fields[i] && !ret; i++) {
		const struct tep_format_field *f = fields[i];
		struct bt_ctf_field_type *type = tp_field_type(&w->t, f);
		const char *name = ctf_field_name(f->name, buf, sizeof(buf));

		if (tp_field_is_array(f)) {
			type = bt.bt_ctf_field_type_array_create(type, f->arraylen);
			ret = type ? add_field(cls, type, name) : -1;
			if (type)
				bt.bt_ctf_field_type_put(type);
		} else {
			ret = add_field(cls, type, name);
		}
	}
	free(fields);
	return ret;
}

static int add_sample_fields(struct ctf_export *w, struct bt_ctf_event_class *cls,
			     uint64_t type)
{
	struct bt_ctf_field_type *chain;
	int ret = 0;

	if (type & PERF_SAMPLE_IP)
		ret |= add_field(cls, w->t.u64_hex, "perf_ip");
	if (type & PERF_SAMPLE_TID) {
		ret |= add_field(cls, w->t.s32, "perf_tid");
		ret |= add_field(cls, w->t.s32, "perf_pid");
	}
	if (type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		ret |= add_field(cls, w->t.u64, "perf_id");
	if (type & PERF_SAMPLE_STREAM_ID)
		ret |= add_field(cls, w->t.u64, "perf_stream_id");
	if (type & PERF_SAMPLE_PERIOD)
		ret |= add_field(cls, w->t.u64, "perf_period");
	if (type & PERF_SAMPLE_WEIGHT)
		ret |= add_field(cls, w->t.u64, "perf_weight");
	if (type & PERF_SAMPLE_DATA_SRC)
		ret |= add_field(cls, w->t.u64, "perf_data_src");
	if (type & PERF_SAMPLE_TRANSACTION)
		ret |= add_field(cls, w->t.u64, "perf_transaction");
	if (type & PERF_SAMPLE_CALLCHAIN) {
		ret |= add_field(cls, w->t.u32, "perf_callchain_size");
		chain = bt.bt_ctf_field_type_sequence_create(w->t.u64_hex, "perf_callchain_size");
		ret |= chain ? add_field(cls, chain, "perf_callchain") : -1;
		if (chain)
			bt.bt_ctf_field_type_put(chain);
	}
	return ret;
}

static struct bt_ctf_event_class *new_class(const char *name)
{
	struct bt_ctf_event_class *cls = bt.bt_ctf_event_class_create(name);

	if (!cls)
		fprintf(stderr, "Failed to create event class.\n");
	return cls;
}

static int add_event_classes(struct ctf_export *w, struct perf_session *s)
{
	w->classes = calloc(s->evlist.nr_entries ? s->evlist.nr_entries : 1,
			    sizeof(*w->classes));
	if (!w->classes)
		return -1;
	w->nr_classes = s->evlist.nr_entries;
	for (struct evsel *e = s->evlist.first; e; e = e->next) {
		struct session_event *se = perf_session__event(s, e);
		struct bt_ctf_event_class *cls = new_class(e->name);
		int ret;

		if (!cls)
			return -1;
		w->classes[e->idx] = cls;
		ret = add_sample_fields(w, cls, e->attr.sample_type);
		if (!ret && e->attr.type == PERF_TYPE_TRACEPOINT && se && se->tp_format) {
			ret = add_tp_fields(w, cls, tep_event_common_fields(se->tp_format));
			if (!ret)
				ret = add_tp_fields(w, cls, tep_event_fields(se->tp_format));
		}
		if (ret || bt.bt_ctf_stream_class_add_event_class(w->stream_class, cls)) {
			fprintf(stderr, "Failed to add event class into stream.\n");
			return -1;
		}
	}
	return 0;
}

/* The classes of the records --all converts, with their fields as perf's. */
static int add_record_classes(struct ctf_export *w)
{
	static const char *const names[NR_REC_CLASSES] = {
		"perf_comm", "perf_exit", "perf_fork", "perf_mmap", "perf_mmap2",
	};
	const struct ctf_types *t = &w->t;

	for (int i = 0; i < NR_REC_CLASSES; i++) {
		struct bt_ctf_event_class *cls = new_class(names[i]);
		int ret;

		if (!cls)
			return -1;
		w->records[i] = cls;
		ret = add_field(cls, t->u32, "pid");
		switch (i) {
		case REC_COMM:
			ret |= add_field(cls, t->u32, "tid");
			ret |= add_field(cls, t->string, "comm");
			break;
		case REC_EXIT:
		case REC_FORK:
			ret |= add_field(cls, t->u32, "ppid");
			ret |= add_field(cls, t->u32, "tid");
			ret |= add_field(cls, t->u32, "ptid");
			ret |= add_field(cls, t->u64, "time");
			break;
		default:	/* the MMAPs */
			ret |= add_field(cls, t->u32, "tid");
			ret |= add_field(cls, t->u64_hex, "start");
			ret |= add_field(cls, t->string, "filename");
			break;
		}
		if (ret || bt.bt_ctf_stream_class_add_event_class(w->stream_class, cls)) {
			fprintf(stderr, "Failed to add event class into stream.\n");
			return -1;
		}
	}
	return 0;
}

/* perf's names of the clocks record -k takes */
static const char *clock_name(uint32_t clockid)
{
	switch (clockid) {
	case 0: return "realtime";
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

static int setup_clock(struct ctf_export *w, const struct perf_header *h, bool tod)
{
	const char *what = "perf clock";
	int64_t offset = 0;

	if (tod) {
		if (!h->clock_version) {
			fprintf(stderr, "Can't provide --tod time, missing clock data. "
				"Please record with -k/--clockid option.\n");
			return -1;
		}
		what = clock_name(h->clockid);
		offset = (int64_t)(h->clock_tod_ns - h->clock_clockid_ns);
	}
	if (bt.bt_ctf_clock_set_description(w->clock, what) ||
	    bt.bt_ctf_clock_set_frequency(w->clock, 1000000000) ||
	    bt.bt_ctf_clock_set_offset_s(w->clock, 0) ||
	    bt.bt_ctf_clock_set_offset(w->clock, offset) ||
	    bt.bt_ctf_clock_set_precision(w->clock, 10) ||
	    bt.bt_ctf_clock_set_is_absolute(w->clock, 0)) {
		fprintf(stderr, "Failed to setup CTF clock.\n");
		return -1;
	}
	return 0;
}

/* The trace's env from the header; a file without the host's features
 * (perf inject's of a pipe) fails here, as it fails in perf. */
static int setup_env(struct ctf_export *w, const struct perf_header *h)
{
	const char *env[][2] = {
		{ "host", h->hostname }, { "sysname", "Linux" },
		{ "release", h->osrelease }, { "version", h->version },
		{ "machine", h->arch }, { "domain", "kernel" },
		{ "tracer_name", "perf" },
	};

	for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++)
		if (!env[i][1] ||
		    bt.bt_ctf_writer_add_environment_field(w->writer, env[i][0], env[i][1]))
			return -1;
	return 0;
}

static int setup_writer(struct ctf_export *w, const char *dir, struct perf_session *s, bool tod)
{
	struct bt_ctf_field_type *pkt;
	int ret;

	w->writer = bt.bt_ctf_writer_create(dir);
	if (!w->writer)
		return -1;
	w->clock = bt.bt_ctf_clock_create("perf_clock");
	if (!w->clock) {
		fprintf(stderr, "Failed to create CTF clock.\n");
		return -1;
	}
	if (setup_clock(w, &s->header, tod))
		return -1;
	w->stream_class = bt.bt_ctf_stream_class_create("perf_stream");
	if (!w->stream_class || bt.bt_ctf_stream_class_set_clock(w->stream_class, w->clock) ||
	    make_types(&w->t))
		return -1;
	/* the CPU of a stream's events, in each of its packets */
	pkt = bt.bt_ctf_stream_class_get_packet_context_type(w->stream_class);
	if (!pkt)
		return -1;
	ret = bt.bt_ctf_field_type_structure_add_field(pkt, w->t.u32, "cpu_id");
	bt.bt_ctf_field_type_put(pkt);
	if (ret || bt.bt_ctf_writer_add_clock(w->writer, w->clock))
		return -1;
	w->nr_streams = s->header.nr_cpus_avail;
	w->streams = calloc(w->nr_streams + 1, sizeof(*w->streams));
	return w->streams ? 0 : -1;
}

static struct ctf_stream *stream_of(struct ctf_export *w, unsigned int cpu)
{
	struct ctf_stream *cs;
	struct bt_ctf_field *ctx, *cpu_id;
	int ret;

	if (cpu > w->nr_streams) {
		fprintf(stderr, "Event was recorded for CPU %u, limit is at %u.\n", cpu,
			w->nr_streams);
		cpu = 0;
	}
	cs = &w->streams[cpu];
	if (cs->stream)
		return cs;
	cs->stream = bt.bt_ctf_writer_create_stream(w->writer, w->stream_class);
	if (!cs->stream) {
		fprintf(stderr, "Failed to create CTF stream\n");
		return NULL;
	}
	ctx = bt.bt_ctf_stream_get_packet_context(cs->stream);
	cpu_id = ctx ? bt.bt_ctf_field_structure_get_field(ctx, "cpu_id") : NULL;
	ret = cpu_id ? bt.bt_ctf_field_unsigned_integer_set_value(cpu_id, cpu) : -1;
	if (cpu_id)
		bt.bt_ctf_field_put(cpu_id);
	if (ctx)
		bt.bt_ctf_field_put(ctx);
	if (ret) {
		fprintf(stderr, "Failed to update CPU number\n");
		bt.bt_ctf_stream_put(cs->stream);
		cs->stream = NULL;
		return NULL;
	}
	return cs;
}

/* A stream's events so far into a packet; a failure is told and the
 * conversion goes on, as in perf, but fails in the end. */
static int flush(struct ctf_export *w, unsigned int cpu)
{
	struct ctf_stream *cs = &w->streams[cpu];

	cs->count = 0;
	if (!bt.bt_ctf_stream_flush(cs->stream))
		return 0;
	fprintf(stderr, "CTF stream %u flush failed\n", cpu);
	w->flush_failed = true;
	return -1;
}

static int append(struct ctf_export *w, unsigned int cpu, struct bt_ctf_event *event)
{
	struct ctf_stream *cs = stream_of(w, cpu);

	if (!cs)
		return 0;	/* perf drops the event and goes on */
	if (cs->count >= FLUSH_EVERY)
		flush(w, (unsigned int)(cs - w->streams));
	cs->count++;
	return bt.bt_ctf_stream_append_event(cs->stream, event);
}

/* Sets event's integer field name to value, of type's signedness. */
static int set_int(struct bt_ctf_event *event, struct bt_ctf_field_type *type, const char *name,
		   uint64_t value, bool is_signed)
{
	struct bt_ctf_field *f = bt.bt_ctf_field_create(type);
	int ret;

	if (!f)
		return -1;
	ret = is_signed ? bt.bt_ctf_field_signed_integer_set_value(f, (int64_t)value)
			: bt.bt_ctf_field_unsigned_integer_set_value(f, value);
	ret = ret ? ret : bt.bt_ctf_event_set_payload(event, name, f);
	bt.bt_ctf_field_put(f);
	return ret;
}

size_t ctf_printable(char *dst, const char *str, size_t max)
{
	size_t len = strnlen(str, max);
	char *p = dst;

	for (size_t i = 0; i < len; i++) {
		if (isprint((unsigned char)str[i]))
			*p++ = str[i];
		else
			p += sprintf(p, "\\x%02x", (unsigned char)str[i]);
	}
	*p = '\0';
	return (size_t)(p - dst);
}

static int set_string_value(struct bt_ctf_field *f, const char *str, size_t max)
{
	char *buf = malloc(strnlen(str, max) * 4 + 1);
	int ret;

	if (!buf)
		return -1;
	ctf_printable(buf, str, max);
	ret = bt.bt_ctf_field_string_set_value(f, buf);
	free(buf);
	return ret;
}

static int set_string(struct bt_ctf_event *event, struct bt_ctf_field_type *type,
		      const char *name, const char *str, size_t max)
{
	struct bt_ctf_field *f = bt.bt_ctf_field_create(type);
	int ret;

	if (!f)
		return -1;
	ret = set_string_value(f, str, max);
	ret = ret ? ret : bt.bt_ctf_event_set_payload(event, name, f);
	bt.bt_ctf_field_put(f);
	return ret;
}

static int set_callchain(struct ctf_export *w, struct bt_ctf_event *event,
			 struct bt_ctf_event_class *cls, const struct perf_sample *sample)
{
	struct bt_ctf_field_type *type = bt.bt_ctf_event_class_get_field_by_name(cls,
									      "perf_callchain");
	struct bt_ctf_field *len = bt.bt_ctf_field_create(w->t.u32);
	struct bt_ctf_field *seq = type ? bt.bt_ctf_field_create(type) : NULL;
	int ret = -1;

	if (!len || !seq || bt.bt_ctf_field_unsigned_integer_set_value(len, sample->callchain_nr) ||
	    bt.bt_ctf_field_sequence_set_length(seq, len))
		goto out;
	ret = 0;
	for (uint64_t i = 0; i < sample->callchain_nr && !ret; i++) {
		struct bt_ctf_field *elem = bt.bt_ctf_field_sequence_get_field(seq, i);

		ret = elem ? bt.bt_ctf_field_unsigned_integer_set_value(elem, sample->callchain[i])
			   : -1;
		if (elem)
			bt.bt_ctf_field_put(elem);
	}
	ret = ret ? ret : bt.bt_ctf_event_set_payload(event, "perf_callchain_size", len);
	ret = ret ? ret : bt.bt_ctf_event_set_payload(event, "perf_callchain", seq);
out:
	if (len)
		bt.bt_ctf_field_put(len);
	if (seq)
		bt.bt_ctf_field_put(seq);
	if (type)
		bt.bt_ctf_field_type_put(type);
	return ret;
}

static int set_sample_fields(struct ctf_export *w, struct bt_ctf_event *event,
			     struct bt_ctf_event_class *cls, uint64_t type,
			     const struct perf_sample *sample)
{
	int ret = 0;

	if (type & PERF_SAMPLE_IP)
		ret |= set_int(event, w->t.u64_hex, "perf_ip", sample->ip, false);
	if (type & PERF_SAMPLE_TID) {
		ret |= set_int(event, w->t.s32, "perf_tid", (uint64_t)(int32_t)sample->tid, true);
		ret |= set_int(event, w->t.s32, "perf_pid", (uint64_t)(int32_t)sample->pid, true);
	}
	if (type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		ret |= set_int(event, w->t.u64, "perf_id", sample->id, false);
	if (type & PERF_SAMPLE_STREAM_ID)
		ret |= set_int(event, w->t.u64, "perf_stream_id", sample->stream_id, false);
	if (type & PERF_SAMPLE_PERIOD)
		ret |= set_int(event, w->t.u64, "perf_period", sample->period, false);
	if (type & PERF_SAMPLE_WEIGHT)
		ret |= set_int(event, w->t.u64, "perf_weight", sample->weight, false);
	if (type & PERF_SAMPLE_DATA_SRC)
		ret |= set_int(event, w->t.u64, "perf_data_src", sample->data_src, false);
	if (type & PERF_SAMPLE_TRANSACTION)
		ret |= set_int(event, w->t.u64, "perf_transaction", sample->transaction, false);
	if (type & PERF_SAMPLE_CALLCHAIN)
		ret |= set_callchain(w, event, cls, sample);
	return ret;
}

uint64_t ctf_read_number(struct tep_handle *tep, const void *p, unsigned int len,
			 bool is_signed)
{
	uint64_t v = tep_read_number(tep, p, (int)len);

	if (is_signed && (len == 1 || len == 2 || len == 4) && (v >> (len * 8 - 1)) & 1)
		v |= ~0ULL << (len * 8);
	return v;
}

/* One tracepoint field's value (or element i of an array) into f. */
static int set_tp_value(struct bt_ctf_field *f, const struct tep_format_field *tf,
			const uint8_t *raw, uint32_t raw_size, unsigned int offset,
			unsigned int len)
{
	if (offset >= raw_size)
		return -1;
	if (len > raw_size - offset)
		len = raw_size - offset;
	if (tf->flags & TEP_FIELD_IS_STRING)
		return set_string_value(f, (const char *)raw + offset, len);
	if (tf->flags & TEP_FIELD_IS_SIGNED)
		return bt.bt_ctf_field_signed_integer_set_value(f,
			(int64_t)ctf_read_number(tf->event->tep, raw + offset, len, true));
	return bt.bt_ctf_field_unsigned_integer_set_value(f,
		ctf_read_number(tf->event->tep, raw + offset, len, false));
}

static int set_tp_field(struct ctf_export *w, struct bt_ctf_event *event,
			struct bt_ctf_event_class *cls, const struct tep_format_field *tf,
			const struct perf_sample *sample)
{
	const uint8_t *raw = sample->raw_data;
	unsigned int offset = tf->offset, len = tf->size;
	struct bt_ctf_field_type *type;
	struct bt_ctf_field *f;
	char buf[128];
	const char *name = ctf_field_name(tf->name, buf, sizeof(buf));
	int ret = 0;

	if (tf->flags & TEP_FIELD_IS_DYNAMIC) {
		/* __data_loc: the length and offset of the data, in one u32 */
		uint32_t loc;

		if ((uint32_t)tf->offset + 4 > sample->raw_size)
			return -1;
		loc = (uint32_t)ctf_read_number(tf->event->tep, raw + tf->offset, 4, false);

		offset = loc & 0xffff;
		len = loc >> 16;
		if (tf->flags & TEP_FIELD_IS_RELATIVE)
			offset += tf->offset + tf->size;
	}
	if (!tp_field_is_array(tf)) {
		f = bt.bt_ctf_field_create(tp_field_type(&w->t, tf));
		ret = f ? set_tp_value(f, tf, raw, sample->raw_size, offset, len) : -1;
	} else {
		type = bt.bt_ctf_event_class_get_field_by_name(cls, name);
		f = type ? bt.bt_ctf_field_create(type) : NULL;
		if (type)
			bt.bt_ctf_field_type_put(type);
		len = tf->arraylen ? tf->size / tf->arraylen : 0;
		for (unsigned int i = 0; f && i < tf->arraylen && !ret; i++) {
			struct bt_ctf_field *elem = bt.bt_ctf_field_array_get_field(f, i);

			ret = elem ? set_tp_value(elem, tf, raw, sample->raw_size,
						  offset + i * len, len) : -1;
			if (elem)
				bt.bt_ctf_field_put(elem);
		}
		ret = f ? ret : -1;
	}
	ret = ret ? ret : bt.bt_ctf_event_set_payload(event, name, f);
	if (f)
		bt.bt_ctf_field_put(f);
	return ret;
}

static int set_tp_fields(struct ctf_export *w, struct bt_ctf_event *event,
			 struct bt_ctf_event_class *cls, struct tep_format_field **fields,
			 const struct perf_sample *sample)
{
	int ret = 0;

	for (int i = 0; fields && fields[i] && !ret; i++)
		ret = set_tp_field(w, event, cls, fields[i], sample);
	free(fields);
	return ret;
}

/* The writer, its clock, streams and classes: for a file at once, for a
 * pipe at its first event, when its attrs, tracing data and header
 * features have come. */
static int start(struct ctf_export *w, struct perf_session *s)
{
	if (w->started)
		return w->writer ? 0 : -1;
	w->started = true;
	if (setup_writer(w, w->dir, s, w->tod)) {
		fprintf(stderr, "Failed to setup CTF writer.\n");
		goto fail;
	}
	if (setup_env(w, &s->header) || add_event_classes(w, s) ||
	    (w->tool.comm && add_record_classes(w)))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "Error during conversion setup.\n");
	if (w->writer)
		bt.bt_ctf_writer_put(w->writer);
	w->writer = NULL;
	return -1;
}

static int ctf_sample(struct perf_tool *tool, struct perf_session *s,
		      const struct perf_event_header *rec, struct perf_sample *sample,
		      struct evsel *evsel)
{
	struct ctf_export *w = (struct ctf_export *)tool;
	struct session_event *se = perf_session__event(s, evsel);
	uint64_t type = evsel->attr.sample_type;
	struct bt_ctf_event_class *cls;
	struct bt_ctf_event *event;
	int ret;

	if (start(w, s))
		return -1;
	if (evsel->idx >= w->nr_classes)
		return 0;	/* an event that came after the trace's classes */
	cls = w->classes[evsel->idx];
	w->sum->nr_samples++;
	w->sum->bytes += rec->size;
	event = bt.bt_ctf_event_create(cls);
	if (!event) {
		fprintf(stderr, "Failed to create an CTF event\n");
		return -1;
	}
	bt.bt_ctf_clock_set_time(w->clock, (int64_t)sample->time);
	ret = set_sample_fields(w, event, cls, type, sample);
	if (!ret && evsel->attr.type == PERF_TYPE_TRACEPOINT && se && se->tp_format &&
	    sample->raw_data) {
		ret = set_tp_fields(w, event, cls, tep_event_common_fields(se->tp_format), sample);
		if (!ret)
			ret = set_tp_fields(w, event, cls, tep_event_fields(se->tp_format),
					    sample);
	}
	if (!ret)
		ret = append(w, type & PERF_SAMPLE_CPU ? sample->cpu : 0, event);
	bt.bt_ctf_event_put(event);
	return ret ? -1 : 0;
}

/* An MMAP's or MMAP2's fields (the same four in both). */
static int set_mmap_fields(const struct ctf_types *t, struct bt_ctf_event *event, uint32_t pid,
			   uint32_t tid, uint64_t start, const char *filename, size_t max)
{
	return set_int(event, t->u32, "pid", pid, false) |
	       set_int(event, t->u32, "tid", tid, false) |
	       set_int(event, t->u64_hex, "start", start, false) |
	       set_string(event, t->string, "filename", filename, max);
}

static enum ctf_record_class record_class(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_COMM: return REC_COMM;
	case PERF_RECORD_EXIT: return REC_EXIT;
	case PERF_RECORD_FORK: return REC_FORK;
	case PERF_RECORD_MMAP: return REC_MMAP;
	default: return REC_MMAP2;
	}
}

/* One of the records --all converts, into CPU 0's stream as perf does. */
static int ctf_record(struct perf_tool *tool, struct perf_session *s,
		      const struct perf_event_header *rec, struct perf_sample *sample,
		      struct evsel *evsel)
{
	struct ctf_export *w = (struct ctf_export *)tool;
	enum ctf_record_class kind = record_class(rec->type);
	const struct ctf_types *t = &w->t;
	struct bt_ctf_event *event;
	int ret;

	(void)evsel;
	if (start(w, s))
		return -1;
	w->sum->nr_non_samples++;
	w->sum->bytes += rec->size;
	event = bt.bt_ctf_event_create(w->records[kind]);
	if (!event) {
		fprintf(stderr, "Failed to create an CTF event\n");
		return -1;
	}
	bt.bt_ctf_clock_set_time(w->clock, (int64_t)sample->time);
	if (kind == REC_COMM) {
		const struct perf_rec_comm *c = (const void *)rec;

		ret = set_int(event, t->u32, "pid", c->pid, false) |
		      set_int(event, t->u32, "tid", c->tid, false) |
		      set_string(event, t->string, "comm", c->comm, rec->size - sizeof(*c));
	} else if (kind == REC_EXIT || kind == REC_FORK) {
		const struct perf_rec_fork *f = (const void *)rec;

		ret = set_int(event, t->u32, "pid", f->pid, false) |
		      set_int(event, t->u32, "ppid", f->ppid, false) |
		      set_int(event, t->u32, "tid", f->tid, false) |
		      set_int(event, t->u32, "ptid", f->ptid, false) |
		      set_int(event, t->u64, "time", f->time, false);
	} else if (kind == REC_MMAP) {
		const struct perf_rec_mmap *m = (const void *)rec;

		ret = set_mmap_fields(t, event, m->pid, m->tid, m->start, m->filename,
				      rec->size - sizeof(*m));
	} else {
		const struct perf_rec_mmap2 *m = (const void *)rec;

		ret = set_mmap_fields(t, event, m->pid, m->tid, m->start, m->filename,
				      rec->size - sizeof(*m));
	}
	if (!ret)
		ret = append(w, 0, event);
	bt.bt_ctf_event_put(event);
	return ret ? -1 : 0;
}

static void ctf_export_exit(struct ctf_export *w)
{
	for (unsigned int i = 0; w->streams && i <= w->nr_streams; i++)
		if (w->streams[i].stream)
			bt.bt_ctf_stream_put(w->streams[i].stream);
	free(w->streams);
	for (int i = 0; i < NR_REC_CLASSES; i++)
		if (w->records[i])
			bt.bt_ctf_event_class_put(w->records[i]);
	for (int i = 0; w->classes && i < w->nr_classes; i++)
		if (w->classes[i])
			bt.bt_ctf_event_class_put(w->classes[i]);
	free(w->classes);
	put_types(&w->t);
	if (w->stream_class)
		bt.bt_ctf_stream_class_put(w->stream_class);
	if (w->clock)
		bt.bt_ctf_clock_put(w->clock);
	if (w->writer)
		bt.bt_ctf_writer_put(w->writer);
}

int ctf_write(const char *dir, struct perf_session *s, const struct ctf_opts *o,
	      struct ctf_summary *sum)
{
	struct ctf_export w = {
		.tool = { .sample = ctf_sample, .ordered = true },
		.dir = dir,
		.tod = o->tod,
		.sum = sum,
	};
	int ret;

	if (load_babeltrace())
		return -1;
	if (o->all) {
		w.tool.comm = w.tool.exit = w.tool.fork = ctf_record;
		w.tool.mmap = w.tool.mmap2 = ctf_record;
	}
	if (!s->is_pipe && start(&w, s)) {
		ctf_export_exit(&w);
		return -1;
	}
	ret = perf_session__process(s, &w.tool);
	if (ret && s->err)
		fprintf(stderr, "%s\n", s->err);
	if (!ret && start(&w, s))	/* a pipe without events: an empty trace */
		ret = -1;
	else if (ret)
		fprintf(stderr, "Error during conversion.\n");
	for (unsigned int i = 0; w.writer && i <= w.nr_streams; i++)
		if (w.streams[i].stream)
			flush(&w, i);
	ctf_export_exit(&w);
	return ret ? -1 : w.flush_failed;
}
