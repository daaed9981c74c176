/* sched-events: finds the scheduler tracepoints' fields once per event
 * and decodes samples through them. */
#include "core/analysis/sched-events.h"

#include <event-parse.h>
#include <stdlib.h>
#include <string.h>

#include "core/data/session.h"
#include "util/util.h"

enum sched_field {
	F_PREV_PID, F_PREV_STATE, F_NEXT_PID, F_PID, F_RUNTIME, F_ORIG_CPU, F_DEST_CPU,
	F_PARENT_PID, F_CHILD_PID, F_NEXT_COMM, NR_FIELDS
};

static const char *const field_names[NR_FIELDS] = {
	"prev_pid", "prev_state", "next_pid", "pid", "runtime", "orig_cpu", "dest_cpu",
	"parent_pid", "child_pid", "next_comm",
};

/* The fields each kind needs, as bits of enum sched_field. */
static const unsigned kind_fields[] = {
	[SCHED_SWITCH] = 1u << F_PREV_PID | 1u << F_PREV_STATE | 1u << F_NEXT_PID |
			 1u << F_NEXT_COMM,
	[SCHED_RUNTIME] = 1u << F_PID | 1u << F_RUNTIME,
	[SCHED_WAKEUP] = 1u << F_PID,
	[SCHED_WAKEUP_NEW] = 1u << F_PID,
	[SCHED_MIGRATE] = 1u << F_PID | 1u << F_ORIG_CPU | 1u << F_DEST_CPU,
	[SCHED_FORK] = 1u << F_PARENT_PID | 1u << F_CHILD_PID,
};

struct event_fields {
	bool known;
	enum sched_kind kind;
	struct tep_format_field *field[NR_FIELDS];
};

struct sched_decoder {
	struct perf_session *session;
	struct event_fields *events;	/* by evsel->idx */
	int nr_events;
};

struct sched_decoder *sched_decoder__new(struct perf_session *s)
{
	struct sched_decoder *d = xcalloc(1, sizeof(*d));

	d->session = s;
	return d;
}

void sched_decoder__delete(struct sched_decoder *d)
{
	if (!d)
		return;
	free(d->events);
	free(d);
}

static enum sched_kind kind_of(const char *name)
{
	static const struct { const char *name; enum sched_kind kind; } kinds[] = {
		{ "sched:sched_switch", SCHED_SWITCH },
		{ "sched:sched_stat_runtime", SCHED_RUNTIME },
		{ "sched:sched_wakeup", SCHED_WAKEUP },
		{ "sched:sched_waking", SCHED_WAKEUP },
		{ "sched:sched_wakeup_new", SCHED_WAKEUP_NEW },
		{ "sched:sched_migrate_task", SCHED_MIGRATE },
		{ "sched:sched_process_fork", SCHED_FORK },
	};

	for (size_t i = 0; name && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(name, kinds[i].name))
			return kinds[i].kind;
	return SCHED_OTHER;
}

static struct event_fields *fields_of(struct sched_decoder *d, struct evsel *evsel)
{
	struct event_fields *ef;
	struct session_event *se;

	if (evsel->idx >= d->nr_events) {
		int n = evsel->idx + 8;

		d->events = xrealloc(d->events, (size_t)n * sizeof(*d->events));
		memset(d->events + d->nr_events, 0, (size_t)(n - d->nr_events) * sizeof(*d->events));
		d->nr_events = n;
	}
	ef = &d->events[evsel->idx];
	if (ef->known)
		return ef;
	ef->known = true;
	ef->kind = evsel->attr.type == PERF_TYPE_TRACEPOINT ? kind_of(evsel->name) : SCHED_OTHER;
	se = perf_session__event(d->session, evsel);
	if (ef->kind == SCHED_OTHER || !se || !se->tp_format) {
		ef->kind = SCHED_OTHER;
		return ef;
	}
	for (int f = 0; f < NR_FIELDS; f++) {
		if (!(kind_fields[ef->kind] & (1u << f)))
			continue;
		ef->field[f] = tep_find_field(se->tp_format, field_names[f]);
		if (!ef->field[f])
			ef->kind = SCHED_OTHER;
	}
	return ef;
}

static uint64_t read_field(const struct event_fields *ef, enum sched_field f,
			   const struct perf_sample *sample)
{
	unsigned long long v = 0;

	if (ef->field[f])
		tep_read_number_field(ef->field[f], sample->raw_data, &v);
	return v;
}

bool sched_decoder__decode(struct sched_decoder *d, struct evsel *evsel,
			   const struct perf_sample *sample, struct sched_event *ev)
{
	const struct event_fields *ef = fields_of(d, evsel);

	memset(ev, 0, sizeof(*ev));
	ev->kind = ef->kind;
	ev->name = evsel->name;
	if (ef->kind == SCHED_OTHER || !sample->raw_data)
		return false;
	ev->prev_pid = (uint32_t)read_field(ef, F_PREV_PID, sample);
	ev->prev_state = read_field(ef, F_PREV_STATE, sample);
	ev->next_pid = (uint32_t)read_field(ef, F_NEXT_PID, sample);
	ev->pid = (uint32_t)read_field(ef, F_PID, sample);
	ev->runtime = read_field(ef, F_RUNTIME, sample);
	ev->orig_cpu = (int)read_field(ef, F_ORIG_CPU, sample);
	ev->dest_cpu = (int)read_field(ef, F_DEST_CPU, sample);
	ev->parent_pid = (uint32_t)read_field(ef, F_PARENT_PID, sample);
	ev->child_pid = (uint32_t)read_field(ef, F_CHILD_PID, sample);
	if (ef->field[F_NEXT_COMM]) {
		const struct tep_format_field *f = ef->field[F_NEXT_COMM];
		size_t len = f->size < (int)sizeof(ev->next_comm) - 1 ? (size_t)f->size
								      : sizeof(ev->next_comm) - 1;

		if (f->offset + len <= sample->raw_size)
			memcpy(ev->next_comm, (const char *)sample->raw_data + f->offset, len);
	}
	return true;
}
