/* heatmap: pairs events into latencies and counts them per cell. */
#include "core/analysis/heatmap.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "core/analysis/tp-fields.h"
#include "core/data/session.h"
#include "core/events/evsel.h"
#include "core/symbols/dso.h"
#include "core/symbols/machine.h"
#include "core/symbols/thread.h"
#include "util/strbuf.h"
#include "util/util.h"

/* The most columns a grid may have: a wider picture means --stepsec is
 * far too small for the time span. */
#define MAX_COLUMNS 1000000
#define MAX_FRAMES 256

void heatmap_events__init(struct heatmap_events *e)
{
	memset(e, 0, sizeof(*e));
}

void heatmap_events__exit(struct heatmap_events *e)
{
	free(e->ev);
	strset_release(&e->strings);
	memset(e, 0, sizeof(*e));
}

void heatmap_events__add(struct heatmap_events *e, const struct heatmap_event *ev)
{
	if (e->nr == e->alloc) {
		e->alloc = e->alloc ? 2 * e->alloc : 1024;
		e->ev = xrealloc(e->ev, e->alloc * sizeof(*e->ev));
	}
	e->ev[e->nr++] = *ev;
	e->have_stacks |= ev->stack != NULL;
}

/* A start waiting for its end; the map cannot delete, so a matched start
 * stays as a slot that no longer waits. */
struct heatmap_start {
	struct hashmap_str key;
	bool waiting;
	uint64_t time_ns;
	int32_t pid, tid;
	const char *comm, *stack;
};

void heatmap_pairer__init(struct heatmap_pairer *p, struct heatmap_events *out,
			  double units_per_ns)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->units_per_ns = units_per_ns;
	hashmap_init(&p->pending, sizeof(struct heatmap_start));
}

void heatmap_pairer__exit(struct heatmap_pairer *p)
{
	struct heatmap_start *st = NULL;

	while ((st = hashmap_next(&p->pending, st)))
		p->out->nr_open += st->waiting;
	hashmap_release(&p->pending);
	arena_release(&p->keys);
}

void heatmap_pairer__start(struct heatmap_pairer *p, const char *key, size_t key_len,
			   uint64_t time_ns, int32_t pid, int32_t tid, const char *comm,
			   const char *stack)
{
	bool added;
	struct heatmap_start *st = hashmap_str_findnew(&p->pending, key, key_len, &p->keys,
						       &added);

	p->out->nr_restarted += !added && st->waiting;
	st->waiting = true;
	st->time_ns = time_ns;
	st->pid = pid;
	st->tid = tid;
	st->comm = comm;
	st->stack = stack;
}

bool heatmap_pairer__end(struct heatmap_pairer *p, const char *key, size_t key_len,
			 uint64_t time_ns)
{
	struct heatmap_start *st = hashmap_str_find(&p->pending, key, key_len);
	struct heatmap_event ev;

	if (!st || !st->waiting || time_ns < st->time_ns) {
		p->out->nr_unmatched_end++;
		return false;
	}
	st->waiting = false;
	ev = (struct heatmap_event){
		.time = (double)time_ns / 1e9,
		.latency = (double)(time_ns - st->time_ns) * p->units_per_ns,
		.pid = st->pid, .tid = st->tid, .comm = st->comm, .stack = st->stack,
	};
	heatmap_events__add(p->out, &ev);
	return true;
}

char *heatmap_default_end(const char *start)
{
	static const char enter[] = "syscalls:sys_enter_";

	if (!strcmp(start, "raw_syscalls:sys_enter"))
		return xstrdup("raw_syscalls:sys_exit");
	if (!strncmp(start, enter, strlen(enter)) && start[strlen(enter)])
		return xasprintf("syscalls:sys_exit_%s", start + strlen(enter));
	return NULL;
}

double heatmap_unit_seconds(const char *unit)
{
	static const struct { const char *name; double seconds; } units[] = {
		{ "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(unit, units[i].name))
			return units[i].seconds;
	return 0;
}

/* --- perf.data ------------------------------------------------------- */

enum role { ROLE_UNSEEN, ROLE_NONE, ROLE_START, ROLE_END };

struct reader {
	struct heatmap_events *out;
	const struct heatmap_source *src;
	const char *end;
	struct heatmap_pairer pairer;
	char **keys;			/* the --key fields, NULL: by thread */
	int nr_keys;
	enum role *roles;		/* by evsel->idx */
	int nr_roles;
	struct strbuf key;
	struct callchain_frame *frames;
	char *err;
};

static enum role role_of(struct reader *r, struct perf_session *s, struct evsel *evsel)
{
	struct session_event *se;
	enum role *role;

	if (evsel->idx >= r->nr_roles) {	/* a pipe's events come as they are read */
		int n = evsel->idx + 8;

		r->roles = xrealloc(r->roles, (size_t)n * sizeof(*r->roles));
		memset(r->roles + r->nr_roles, 0, (size_t)(n - r->nr_roles) * sizeof(*r->roles));
		r->nr_roles = n;
	}
	role = &r->roles[evsel->idx];
	if (*role != ROLE_UNSEEN)
		return *role;
	*role = !strcmp(evsel->name, r->src->start) ? ROLE_START :
		r->end && !strcmp(evsel->name, r->end) ? ROLE_END : ROLE_NONE;
	se = perf_session__event(s, evsel);
	if (*role == ROLE_NONE || (se && se->tp_format))
		return *role;
	if (r->keys || r->src->latency_field) {
		r->err = xasprintf("%s: the file has no tracepoint format for it", evsel->name);
		*role = ROLE_NONE;
	}
	return *role;
}

/* The sample's key: the --key fields' values, or its thread. */
static int make_key(struct reader *r, struct tep_event *tp, const struct evsel *evsel,
		    const struct perf_sample *sample)
{
	strbuf_reset(&r->key);
	if (!r->keys) {
		strbuf_addf(&r->key, "%u", sample->tid);
		return 0;
	}
	for (int i = 0; i < r->nr_keys; i++) {
		struct tep_format_field *f = tp ? tep_find_any_field(tp, r->keys[i]) : NULL;
		int64_t v;

		if (!f) {
			r->err = xasprintf("%s has no field '%s' (--key)", evsel->name, r->keys[i]);
			return -1;
		}
		if (f->flags & TEP_FIELD_IS_STRING) {
			char *str = tp_string(tp, sample, r->keys[i]);

			strbuf_addstr(&r->key, str);
			free(str);
		} else if (tp_field(tp, sample, r->keys[i], &v)) {
			strbuf_addf(&r->key, "%" PRId64, v);
		}
		strbuf_addch(&r->key, '\x1f');
	}
	return 0;
}

/* The start's stack, outermost first, as flame graphs name frames. */
static const char *stack_of(struct reader *r, struct perf_session *s, const struct evsel *evsel,
			    const struct perf_sample *sample, struct thread *thread)
{
	struct strbuf sb = STRBUF_INIT;
	const char *stack;
	int n;

	if (!r->src->stacks || !sample->callchain_nr)
		return NULL;
	n = perf_session__resolve_callchain(s, evsel, sample, thread, r->src->max_stack,
					    r->frames, MAX_FRAMES);
	if (n <= 0)
		return NULL;
	for (int i = n - 1; i >= 0; i--) {
		const struct addr_location *al = &r->frames[i].al;

		if (sb.len)
			strbuf_addch(&sb, ';');
		if (al->sym)
			strbuf_addstr(&sb, al->sym->name);
		else
			strbuf_addstr(&sb, "[unknown]");
	}
	stack = strset_intern(&r->out->strings, sb.buf);
	strbuf_release(&sb);
	return stack;
}

static bool is_number(struct tep_event *tp, const char *name)
{
	struct tep_format_field *f = tp ? tep_find_any_field(tp, name) : NULL;

	return f && !(f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_ARRAY));
}

static int on_sample(struct perf_tool *tool, struct perf_session *s,
		     const struct perf_event_header *rec, struct perf_sample *sample,
		     struct evsel *evsel)
{
	struct reader *r = *(struct reader **)(tool + 1);
	enum role role = role_of(r, s, evsel);
	struct session_event *se = perf_session__event(s, evsel);
	struct tep_event *tp = se ? se->tp_format : NULL;
	struct thread *thread;
	int64_t duration;

	(void)rec;
	if (r->err)
		return -1;
	if (role == ROLE_NONE)
		return 0;
	if (r->src->latency_field) {
		struct heatmap_event ev = { .time = (double)sample->time / 1e9,
					    .pid = (int32_t)sample->pid,
					    .tid = (int32_t)sample->tid };

		if (!is_number(tp, r->src->latency_field) ||
		    !tp_field(tp, sample, r->src->latency_field, &duration)) {
			r->err = xasprintf("%s has no numeric field '%s' (--latency-field)",
					   evsel->name, r->src->latency_field);
			return -1;
		}
		thread = machine__findnew_thread(s->machine, (pid_t)sample->pid,
						 (pid_t)sample->tid);
		ev.latency = (double)duration * r->src->field_ns * r->src->units_per_ns;
		ev.comm = strset_intern(&r->out->strings, thread->comm);
		ev.stack = stack_of(r, s, evsel, sample, thread);
		heatmap_events__add(r->out, &ev);
		return 0;
	}
	if (make_key(r, tp, evsel, sample) < 0)
		return -1;
	if (role == ROLE_END) {
		heatmap_pairer__end(&r->pairer, r->key.buf, r->key.len, sample->time);
		return 0;
	}
	thread = machine__findnew_thread(s->machine, (pid_t)sample->pid, (pid_t)sample->tid);
	heatmap_pairer__start(&r->pairer, r->key.buf, r->key.len, sample->time,
			      (int32_t)sample->pid, (int32_t)sample->tid,
			      strset_intern(&r->out->strings, thread->comm),
			      stack_of(r, s, evsel, sample, thread));
	return 0;
}

/* Both events are in the file (a pipe's only once it is read). */
static int check_events(struct perf_session *s, const struct reader *r, char **err)
{
	for (const char *name = r->src->start; name; name = name == r->src->start ? r->end : NULL) {
		bool found = false;

		evlist__for_each(&s->evlist, evsel)
			found |= evsel->name && !strcmp(evsel->name, name);
		if (!found) {
			*err = xasprintf("event %s is not in %s", name, s->path);
			return -1;
		}
	}
	return 0;
}

static void split_keys(struct reader *r, const char *keys)
{
	char *copy = xstrdup(keys), *save = NULL;

	for (char *k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		r->keys = xrealloc(r->keys, (size_t)(r->nr_keys + 1) * sizeof(*r->keys));
		r->keys[r->nr_keys++] = xstrdup(k);
	}
	free(copy);
}

int heatmap_events__from_session(struct heatmap_events *e, struct perf_session *s,
				 const struct heatmap_source *src, char **err)
{
	struct {
		struct perf_tool tool;
		struct reader *r;
	} t = { .tool = { .sample = on_sample, .ordered = true } };
	struct reader r = { .out = e, .src = src, .key = STRBUF_INIT };
	char *implied = src->end || src->latency_field ? NULL : heatmap_default_end(src->start);
	int ret = -1;

	r.end = src->end ? src->end : implied;
	if (!r.end && !src->latency_field) {
		*err = xasprintf("%s: give --end (or --latency-field for events that carry "
				 "their duration)", src->start);
		return -1;
	}
	if (!s->is_pipe && check_events(s, &r, err) < 0) {
		free(implied);
		return -1;
	}
	if (src->keys && *src->keys)
		split_keys(&r, src->keys);
	if (src->stacks)
		r.frames = xcalloc(MAX_FRAMES, sizeof(*r.frames));
	if (!s->machine)
		perf_session__new_machine(s, NULL, NULL, false);
	heatmap_pairer__init(&r.pairer, e, src->units_per_ns);
	t.r = &r;
	if (perf_session__process(s, &t.tool) != 0)
		*err = r.err ? r.err : xstrdup(s->err ? s->err : "cannot read the file");
	else
		ret = s->is_pipe ? check_events(s, &r, err) : 0;
	if (ret == 0 || *err != r.err)
		free(r.err);
	heatmap_pairer__exit(&r.pairer);
	for (int i = 0; i < r.nr_keys; i++)
		free(r.keys[i]);
	free(r.keys);
	free(r.roles);
	free(r.frames);
	strbuf_release(&r.key);
	free(implied);
	return ret;
}

/* --- text ------------------------------------------------------------ */

int heatmap_events__read_text(struct heatmap_events *e, FILE *in, double seconds_per_unit,
			      char **err)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	int ret = 0;

	while (getline(&line, &cap, in) > 0) {
		char *p = line, *end;
		struct heatmap_event ev = { .pid = -1, .tid = -1 };

		lineno++;
		p += strspn(p, " \t");
		if (!*p || *p == '\n' || *p == '#')
			continue;
		errno = 0;
		ev.time = strtod(p, &end) * seconds_per_unit;
		if (end != p) {
			p = end;
			ev.latency = strtod(p, &end);
		}
		if (end == p || errno || !isfinite(ev.time) || !isfinite(ev.latency) ||
		    end[strspn(end, " \t\r\n")]) {
			*err = xasprintf("line %lu: expected 'time latency'", lineno);
			ret = -1;
			break;
		}
		heatmap_events__add(e, &ev);
	}
	free(line);
	return ret;
}

/* --- the grid -------------------------------------------------------- */

int heatmap_grid__build(struct heatmap_grid *g, const struct heatmap_events *e,
			const struct heatmap_grid_opts *o, char **err)
{
	double tmax = 0, maxlat = o->maxlat;

	memset(g, 0, sizeof(*g));
	if (!(o->stepsec > 0) || o->rows <= 0 || (maxlat >= 0 && maxlat < o->minlat)) {
		*err = xstrdup("--stepsec and --rows must be > 0, and --maxlat >= --minlat");
		return -1;
	}
	g->t0 = e->nr ? e->ev[0].time : 0;
	for (size_t i = 0; i < e->nr; i++) {
		g->t0 = fmin(g->t0, e->ev[i].time);
		tmax = fmax(tmax, e->ev[i].time);
	}
	if (maxlat < 0) {
		maxlat = o->minlat;
		for (size_t i = 0; i < e->nr; i++)
			maxlat = fmax(maxlat, e->ev[i].latency);
	}
	if (e->nr && (tmax - g->t0) / o->stepsec >= MAX_COLUMNS) {
		*err = xasprintf("%.9g s in steps of %g s is more than %d columns: "
				 "raise --stepsec", tmax - g->t0, o->stepsec, MAX_COLUMNS);
		return -1;
	}
	g->cols = e->nr ? (int)floor((tmax - g->t0) / o->stepsec) + 1 : 1;
	g->rows = o->rows;
	g->stepsec = o->stepsec;
	g->minlat = o->minlat;
	g->maxlat = maxlat;
	/* all latencies equal: rows of one unit rather than of nothing */
	g->rowsize = maxlat > o->minlat ? (maxlat - o->minlat) / o->rows : 1;
	g->counts = xcalloc((size_t)g->cols * (size_t)g->rows, sizeof(*g->counts));
	g->cell = xmalloc((e->nr ? e->nr : 1) * sizeof(*g->cell));
	for (size_t i = 0; i < e->nr; i++) {
		const struct heatmap_event *ev = &e->ev[i];
		int col = (int)floor((ev->time - g->t0) / g->stepsec);
		int row = (int)floor((ev->latency - g->minlat) / g->rowsize);
		uint64_t *count;

		if (ev->latency < g->minlat || ev->latency > g->maxlat) {
			g->cell[i] = -1;
			g->nr_out++;
			continue;
		}
		if (row >= g->rows)	/* the top edge belongs to the top row */
			row = g->rows - 1;
		g->cell[i] = col * g->rows + row;
		count = &g->counts[g->cell[i]];
		if (++*count > g->max_count)
			g->max_count = *count;
		g->nr_in++;
	}
	return 0;
}

void heatmap_grid__exit(struct heatmap_grid *g)
{
	free(g->counts);
	free(g->cell);
	memset(g, 0, sizeof(*g));
}
