/* sched-events: finds the scheduler tracepoints' fields once per event
 * and decodes samples through them. */
#include "core/analysis/sched-events.h"
#include "core/analysis/tp-fields.h"

#include <event-parse.h>
#include <stdlib.h>
#include <string.h>

#include "core/data/session.h"
#include "util/util.h"

enum sched_field {
	F_PREV_PID, F_PREV_STATE, F_NEXT_PID, F_PID, F_RUNTIME, F_ORIG_CPU, F_DEST_CPU,
	F_PARENT_PID, F_CHILD_PID, F_NEXT_COMM, F_PREV_COMM, F_COMM, NR_FIELDS
};

static const char *const field_names[NR_FIELDS] = {
	"prev_pid", "prev_state", "next_pid", "pid", "runtime", "orig_cpu", "dest_cpu",
	"parent_pid", "child_pid", "next_comm", "prev_comm", "comm",
};

/* The fields each kind needs, as bits of enum sched_field. */
static const unsigned kind_fields[] = {
	[SCHED_EV_SWITCH] = 1u << F_PREV_PID | 1u << F_PREV_STATE | 1u << F_NEXT_PID |
			 1u << F_NEXT_COMM | 1u << F_PREV_COMM,
	[SCHED_EV_RUNTIME] = 1u << F_PID | 1u << F_RUNTIME,
	[SCHED_EV_WAKEUP] = 1u << F_PID | 1u << F_COMM,
	[SCHED_EV_WAKEUP_NEW] = 1u << F_PID | 1u << F_COMM,
	[SCHED_EV_MIGRATE] = 1u << F_PID | 1u << F_ORIG_CPU | 1u << F_DEST_CPU,
	[SCHED_EV_FORK] = 1u << F_PARENT_PID | 1u << F_CHILD_PID,
};

/* Where a field is in the raw data, copied out of its tep_format_field:
 * decoding reads these, a cache line an event, not a field struct each. */
struct field_loc {
	uint16_t offset, size;
};

struct event_fields {
	bool known;
	bool waking;		/* sched_waking, not sched_wakeup */
	bool fast;		/* our byte order, fields where field_loc can say */
	enum sched_kind kind;
	uint32_t span;		/* raw data this long holds every field of the kind */
	struct field_loc loc[NR_FIELDS];
	struct tep_format_field *field[NR_FIELDS];
};

struct sched_decoder {
	struct perf_session *session;
	bool swap;		/* the file's byte order is not ours */
	struct event_fields *events;	/* by evsel->idx */
	int nr_events;
};

struct sched_decoder *sched_decoder__new(struct perf_session *s)
{
	struct sched_decoder *d = xcalloc(1, sizeof(*d));

	d->session = s;
	d->swap = tp_swapped(s->tep);
	return d;
}

void sched_decoder__delete(struct sched_decoder *d)
{
	if (!d)
		return;
	free(d->events);
	free(d);
}

static const struct { const char *name; enum sched_kind kind; } kinds[] = {
	{ "sched:sched_switch", SCHED_EV_SWITCH },
	{ "sched:sched_stat_runtime", SCHED_EV_RUNTIME },
	{ "sched:sched_wakeup", SCHED_EV_WAKEUP },
	{ "sched:sched_waking", SCHED_EV_WAKEUP },
	{ "sched:sched_wakeup_new", SCHED_EV_WAKEUP_NEW },
	{ "sched:sched_migrate_task", SCHED_EV_MIGRATE },
	{ "sched:sched_process_fork", SCHED_EV_FORK },
};

#define WAKING_KIND	3	/* kinds[] index of sched_waking */

/* The kinds[] entry of an event name, or -1. */
static int kind_index(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(name, kinds[i].name))
			return (int)i;
	return -1;
}

static struct event_fields *fields_of(struct sched_decoder *d, struct evsel *evsel)
{
	struct event_fields *ef;
	struct session_event *se;
	int k;

	ef = tp_event_slot(&d->events, &d->nr_events, evsel->idx, sizeof(*ef));
	if (ef->known)
		return ef;
	ef->known = true;
	k = evsel->attr.type == PERF_TYPE_TRACEPOINT ? kind_index(evsel->name) : -1;
	ef->kind = k < 0 ? SCHED_EV_OTHER : kinds[k].kind;
	ef->waking = k == WAKING_KIND;
	se = perf_session__event(d->session, evsel);
	if (ef->kind == SCHED_EV_OTHER || !se || !se->tp_format) {
		ef->kind = SCHED_EV_OTHER;
		return ef;
	}
	ef->fast = !d->swap;
	for (int f = 0; f < NR_FIELDS; f++) {
		const struct tep_format_field *field;

		if (!(kind_fields[ef->kind] & (1u << f)))
			continue;
		field = ef->field[f] = tep_find_field(se->tp_format, field_names[f]);
		if (!field) {
			ef->kind = SCHED_EV_OTHER;
			continue;
		}
		if (field->offset < 0 || field->size < 0 || field->offset > UINT16_MAX ||
		    field->size > UINT16_MAX) {
			ef->fast = false;
			continue;
		}
		ef->loc[f].offset = (uint16_t)field->offset;
		ef->loc[f].size = (uint16_t)field->size;
		if ((uint32_t)field->offset + (uint32_t)field->size > ef->span)
			ef->span = (uint32_t)field->offset + (uint32_t)field->size;
	}
	return ef;
}

enum sched_kind sched_decoder__kind(struct sched_decoder *d, struct evsel *evsel, bool *waking)
{
	const struct event_fields *ef = fields_of(d, evsel);

	*waking = ef->waking;
	return ef->kind;
}

/*
 * fast: the sample holds every field of its kind (raw_size >= span) in
 * our byte order, read through ef->loc without a check each; else through
 * the tep field, a torn sample's missing fields reading as zeros.
 */
static inline uint64_t read_field(const struct event_fields *ef, bool fast, enum sched_field f,
				  const struct perf_sample *sample)
{
	const struct tep_format_field *field = ef->field[f];
	unsigned long long v = 0;

	if (fast)
		return tp_load_number((const uint8_t *)sample->raw_data + ef->loc[f].offset,
				   ef->loc[f].size);
	if (!field || (uint64_t)field->offset + (uint64_t)field->size > sample->raw_size)
		return 0;
	if (ef->fast)
		return tp_load_number((const uint8_t *)sample->raw_data + field->offset,
				   (unsigned)field->size);
	tep_read_number_field((struct tep_format_field *)field, sample->raw_data, &v);
	return v;
}

/* A char[] field into buf of COMM_SIZE, NUL-terminated (left empty when
 * absent). */
#define COMM_SIZE 17

static inline void read_string(const struct event_fields *ef, bool fast, enum sched_field f,
			       const struct perf_sample *sample, char *buf)
{
	const struct tep_format_field *field = ef->field[f];
	size_t len;

	if (fast && ef->loc[f].size >= COMM_SIZE - 1) {
		/* the usual char[16]: one fixed copy */
		memcpy(buf, (const char *)sample->raw_data + ef->loc[f].offset, COMM_SIZE - 1);
		return;
	}
	if (!field)
		return;
	len = (size_t)field->size < COMM_SIZE - 1 ? (size_t)field->size : COMM_SIZE - 1;
	if ((uint64_t)field->offset + len <= sample->raw_size)
		memcpy(buf, (const char *)sample->raw_data + field->offset, len);
}

bool sched_decoder__decode(struct sched_decoder *d, struct evsel *evsel,
			   const struct perf_sample *sample, struct sched_event *ev)
{
	const struct event_fields *ef = evsel->idx < d->nr_events && d->events[evsel->idx].known ?
					&d->events[evsel->idx] : fields_of(d, evsel);
	bool fast;

	memset(ev, 0, sizeof(*ev));
	ev->kind = ef->kind;
	ev->name = evsel->name;
	ev->waking = ef->waking;
	if (ef->kind == SCHED_EV_OTHER || !sample->raw_data)
		return false;
	fast = ef->fast && sample->raw_size >= ef->span;
	/* only the fields of the kind (kind_fields): the others stay 0 */
	switch (ef->kind) {
	case SCHED_EV_SWITCH:
		ev->prev_pid = (uint32_t)read_field(ef, fast, F_PREV_PID, sample);
		ev->prev_state = read_field(ef, fast, F_PREV_STATE, sample);
		ev->next_pid = (uint32_t)read_field(ef, fast, F_NEXT_PID, sample);
		read_string(ef, fast, F_NEXT_COMM, sample, ev->next_comm);
		read_string(ef, fast, F_PREV_COMM, sample, ev->prev_comm);
		break;
	case SCHED_EV_RUNTIME:
		ev->pid = (uint32_t)read_field(ef, fast, F_PID, sample);
		ev->runtime = read_field(ef, fast, F_RUNTIME, sample);
		break;
	case SCHED_EV_WAKEUP:
	case SCHED_EV_WAKEUP_NEW:
		ev->pid = (uint32_t)read_field(ef, fast, F_PID, sample);
		read_string(ef, fast, F_COMM, sample, ev->comm);
		break;
	case SCHED_EV_MIGRATE:
		ev->pid = (uint32_t)read_field(ef, fast, F_PID, sample);
		ev->orig_cpu = (int)read_field(ef, fast, F_ORIG_CPU, sample);
		ev->dest_cpu = (int)read_field(ef, fast, F_DEST_CPU, sample);
		break;
	case SCHED_EV_FORK:
		ev->parent_pid = (uint32_t)read_field(ef, fast, F_PARENT_PID, sample);
		ev->child_pid = (uint32_t)read_field(ef, fast, F_CHILD_PID, sample);
		break;
	default:
		break;
	}
	return true;
}
