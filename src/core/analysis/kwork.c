/* kwork: pairing of irq, softirq and workqueue events (see kwork.h). */
#include "core/analysis/kwork.h"

#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "core/analysis/tp-fields.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/symbols/machine.h"
#include "util/util.h"

static const char *const class_names[KWORK_NR_CLASSES] = { "irq", "softirq", "workqueue" };

static const char *const tracepoints[KWORK_NR_CLASSES][KWORK_NR_TRACES] = {
	[KWORK_IRQ] = { NULL, "irq:irq_handler_entry", "irq:irq_handler_exit" },
	[KWORK_SOFTIRQ] = { "irq:softirq_raise", "irq:softirq_entry", "irq:softirq_exit" },
	[KWORK_WORKQUEUE] = { "workqueue:workqueue_activate_work",
			      "workqueue:workqueue_execute_start",
			      "workqueue:workqueue_execute_end" },
};

const char *kwork_class__name(enum kwork_class c)
{
	return class_names[c];
}

const char *kwork_class__tracepoint(enum kwork_class c, enum kwork_trace t)
{
	return tracepoints[c][t];
}

int kwork_classes__parse(const char *list, enum kwork_class *order, char **bad)
{
	char *copy = xstrdup(list ? list : ""), *save = NULL;
	int n = 0;

	for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		int c;

		for (c = 0; c < KWORK_NR_CLASSES && strcmp(tok, class_names[c]); c++)
			;
		if (c == KWORK_NR_CLASSES) {
			*bad = xstrdup(tok);
			free(copy);
			return -1;
		}
		/* a class named twice keeps its first place */
		int i;

		for (i = 0; i < n && order[i] != (enum kwork_class)c; i++)
			;
		if (i == n)
			order[n++] = (enum kwork_class)c;
	}
	free(copy);
	for (int c = 0; n == 0 && c < KWORK_NR_CLASSES; c++)
		order[c] = (enum kwork_class)c;
	return n ? n : KWORK_NR_CLASSES;
}

/* Decoding ------------------------------------------------------------------ */

/* The softirq vector's name, from the print format's __print_symbolic()
 * table (the argument after REC->vec), as perf names it. */
static char *softirq_name(struct tep_event *tp, uint64_t vec)
{
	struct tep_print_arg *args = tp->print_fmt.args;

	if (!args || !args->next || args->next->type != TEP_PRINT_SYMBOL)
		return NULL;
	for (struct tep_print_flag_sym *sym = args->next->symbol.symbols; sym; sym = sym->next) {
		if (strtoull(sym->value, NULL, 0) == vec && sym->str[0])
			return xstrdup(sym->str);
	}
	return NULL;
}

static char *kernel_function_name(struct machine *m, uint64_t addr)
{
	struct addr_location al;

	if (!addr || !m || !machine__lookup(m, NULL, PERF_RECORD_MISC_KERNEL, addr, &al) ||
	    !al.sym)
		return NULL;
	return xstrdup(al.sym->name);
}

bool kwork_event__decode(struct perf_session *s, struct machine *m, const struct evsel *evsel,
			 const struct perf_sample *sample, struct kwork_event *ev)
{
	struct tep_event *tp = perf_session__event(s, evsel)->tp_format;
	int c, t;

	if (!evsel->name || !tp)
		return false;
	for (c = 0; c < KWORK_NR_CLASSES; c++) {
		for (t = 0; t < KWORK_NR_TRACES; t++) {
			if (tracepoints[c][t] && !strcmp(evsel->name, tracepoints[c][t]))
				goto found;
		}
	}
	return false;
found:
	*ev = (struct kwork_event){ .class = (enum kwork_class)c, .trace = (enum kwork_trace)t,
				    .cpu = (int)sample->cpu, .time = sample->time };
	switch (ev->class) {
	case KWORK_IRQ:
		ev->id = (uint64_t)tp_value(tp, sample, "irq");
		ev->name = tp_string(tp, sample, "name");
		break;
	case KWORK_SOFTIRQ:
		ev->id = (uint64_t)tp_value(tp, sample, "vec");
		ev->name = softirq_name(tp, ev->id);
		break;
	default:
		ev->id = (uint64_t)tp_value(tp, sample, "work");
		ev->name = kernel_function_name(m, (uint64_t)tp_value(tp, sample, "function"));
		break;
	}
	return true;
}

void kwork_event__exit(struct kwork_event *ev)
{
	free(ev->name);
	ev->name = NULL;
}

/* Accounting ------------------------------------------------------------------ */

struct kwork {
	struct kwork_opts o;
	struct kwork_work **works;
	size_t nr_works, cap_works;
	uint64_t time_start, time_end;
	uint64_t live_atoms, peak_atoms;	/* perf's atom pages fill to the peak */
};

struct kwork *kwork__new(const struct kwork_opts *o)
{
	struct kwork *k = xcalloc(1, sizeof(*k));

	k->o = *o;
	return k;
}

void kwork__delete(struct kwork *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->nr_works; i++) {
		for (int t = 0; t < KWORK_NR_TRACES; t++)
			free(k->works[i]->atoms[t].v);
		free(k->works[i]->name);
		free(k->works[i]);
	}
	free(k->works);
	free(k);
}

bool kwork__selected(const struct kwork *k, enum kwork_class c)
{
	for (int i = 0; i < k->o.nr_classes; i++) {
		if (k->o.classes[i] == c)
			return true;
	}
	return false;
}

/* The work of ev's class, CPU and id, made when new; a work first met
 * without a name takes the first one an event brings. */
static struct kwork_work *work_findnew(struct kwork *k, struct kwork_event *ev)
{
	struct kwork_work *w;

	for (size_t i = 0; i < k->nr_works; i++) {
		w = k->works[i];
		if (w->class == ev->class && w->cpu == ev->cpu && w->id == ev->id) {
			if (!w->name) {
				w->name = ev->name;
				ev->name = NULL;
			}
			return w;
		}
	}
	if (k->nr_works == k->cap_works) {
		k->cap_works = k->cap_works ? 2 * k->cap_works : 64;
		k->works = xrealloc(k->works, k->cap_works * sizeof(*k->works));
	}
	w = xcalloc(1, sizeof(*w));
	w->class = ev->class;
	w->cpu = ev->cpu;
	w->id = ev->id;
	w->name = ev->name;
	ev->name = NULL;
	k->works[k->nr_works++] = w;
	return w;
}

/* -C, --time and -n, as perf applies them (-n to works with a name only) */
static bool event_matches(struct kwork *k, const struct kwork_work *w, uint64_t time)
{
	const struct sample_filter *f = k->o.filter;

	if (f && (sample_filter__skip_cpu(f, (uint32_t)w->cpu) || sample_filter__skip_time(f, time)))
		return false;
	if (k->o.name && w->name && strcmp(w->name, k->o.name))
		return false;
	if (k->o.summary) {
		if (!k->time_start || k->time_start > time)
			k->time_start = time;
		if (k->time_end < time)
			k->time_end = time;
	}
	return true;
}

static void atoms_live(struct kwork *k, int64_t delta)
{
	k->live_atoms += (uint64_t)delta;
	if (k->peak_atoms < k->live_atoms)
		k->peak_atoms = k->live_atoms;
}

static void atoms_push(struct kwork_atoms *a, struct kwork_atom atom)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 4;
		a->v = xrealloc(a->v, a->cap * sizeof(*a->v));
	}
	a->v[a->n++] = atom;
}

/* Leaves an atom of ev's kind; with take, the latest atom of kind take
 * becomes its raise time.  NULL when the event is filtered out. */
static struct kwork_work *push_atom(struct kwork *k, struct kwork_event *ev, int take)
{
	struct kwork_work *w = work_findnew(k, ev);
	struct kwork_atom atom = { .time = ev->time };

	/* perf takes the atom before it filters, and gives it back */
	atoms_live(k, 1);
	if (!event_matches(k, w, ev->time)) {
		atoms_live(k, -1);
		return NULL;
	}
	if (take >= 0 && w->atoms[take].n)
		atom.prev_time = w->atoms[take].v[--w->atoms[take].n].time;
	atoms_push(&w->atoms[ev->trace], atom);
	return w;
}

/* Takes the latest atom of kind from into *atom; without one the event
 * stays behind as an atom of its own kind. */
static struct kwork_work *pop_atom(struct kwork *k, struct kwork_event *ev, int from,
				   struct kwork_atom *atom, bool *found)
{
	struct kwork_work *w = work_findnew(k, ev);

	*found = false;
	if (!event_matches(k, w, ev->time))
		return NULL;
	if (w->atoms[from].n) {
		*atom = w->atoms[from].v[--w->atoms[from].n];
		*found = true;
		/* the atom goes, with the raise it took */
		atoms_live(k, atom->prev_time ? -2 : -1);
	} else {
		atoms_push(&w->atoms[ev->trace], (struct kwork_atom){ .time = ev->time });
		atoms_live(k, 1);
	}
	return w;
}

static void account_runtime(struct kwork_work *w, uint64_t entry, uint64_t exit)
{
	uint64_t delta;

	if (!entry || exit < entry)
		return;
	delta = exit - entry;
	if (delta > w->max_runtime || !w->max_runtime) {
		w->max_runtime = delta;
		w->max_runtime_start = entry;
		w->max_runtime_end = exit;
	}
	w->total_runtime += delta;
	w->nr_atoms++;
}

static void account_latency(struct kwork_work *w, uint64_t raise, uint64_t entry)
{
	uint64_t delta;

	if (!raise || entry < raise)
		return;
	delta = entry - raise;
	if (delta > w->max_latency || !w->max_latency) {
		w->max_latency = delta;
		w->max_latency_start = raise;
		w->max_latency_end = entry;
	}
	w->total_latency += delta;
	w->nr_atoms++;
}

bool kwork__event(struct kwork *k, struct kwork_event *ev)
{
	struct kwork_atom atom;
	struct kwork_work *w;
	bool found;

	if (!kwork__selected(k, ev->class))
		return false;
	switch (k->o.mode) {
	case KWORK_REPORT:
		if (ev->trace == KWORK_ENTRY) {
			push_atom(k, ev, -1);
		} else if (ev->trace == KWORK_EXIT) {
			w = pop_atom(k, ev, KWORK_ENTRY, &atom, &found);
			if (found)
				account_runtime(w, atom.time, ev->time);
		}
		return false;
	case KWORK_LATENCY:
		if (ev->trace == KWORK_RAISE) {
			push_atom(k, ev, -1);
		} else if (ev->trace == KWORK_ENTRY) {
			w = pop_atom(k, ev, KWORK_RAISE, &atom, &found);
			if (found)
				account_latency(w, atom.time, ev->time);
		}
		return false;
	case KWORK_TIMEHIST:
		if (ev->trace == KWORK_RAISE) {
			push_atom(k, ev, -1);
			return false;
		}
		if (ev->trace == KWORK_ENTRY)
			return push_atom(k, ev, KWORK_RAISE) != NULL;
		w = pop_atom(k, ev, KWORK_ENTRY, &atom, &found);
		if (found) {
			struct kwork_run run = { w, atom.time, ev->time, atom.prev_time };

			w->nr_atoms++;
			k->o.emit(&run, k->o.arg);
		}
		return false;
	}
	return false;
}

/* Sorting ---------------------------------------------------------------------- */

typedef int (*work_cmp_fn)(const struct kwork_work *l, const struct kwork_work *r);

#define CMP(a, b) ((a) > (b) ? 1 : (a) < (b) ? -1 : 0)

static int cmp_id(const struct kwork_work *l, const struct kwork_work *r)
{
	return l->cpu != r->cpu ? CMP(l->cpu, r->cpu) : CMP(l->id, r->id);
}

static int cmp_count(const struct kwork_work *l, const struct kwork_work *r)
{
	return CMP(l->nr_atoms, r->nr_atoms);
}

static int cmp_runtime(const struct kwork_work *l, const struct kwork_work *r)
{
	return CMP(l->total_runtime, r->total_runtime);
}

static int cmp_max_runtime(const struct kwork_work *l, const struct kwork_work *r)
{
	return CMP(l->max_runtime, r->max_runtime);
}

static int cmp_max_latency(const struct kwork_work *l, const struct kwork_work *r)
{
	return CMP(l->max_latency, r->max_latency);
}

/* the average in whole nanoseconds, as perf compares it */
static int cmp_avg_latency(const struct kwork_work *l, const struct kwork_work *r)
{
	if (!r->nr_atoms)
		return 1;
	if (!l->nr_atoms)
		return -1;
	return CMP(l->total_latency / l->nr_atoms, r->total_latency / r->nr_atoms);
}

static work_cmp_fn sort_key(const char *name, enum kwork_mode mode)
{
	if (!strcmp(name, "id"))
		return cmp_id;
	if (!strcmp(name, "max"))
		return mode == KWORK_LATENCY ? cmp_max_latency : cmp_max_runtime;
	if (!strcmp(name, "count"))
		return cmp_count;
	if (!strcmp(name, "runtime"))
		return cmp_runtime;
	if (!strcmp(name, "avg"))
		return cmp_avg_latency;
	return NULL;
}

#define MAX_SORT_KEYS 16

static int parse_keys(const char *keys, enum kwork_mode mode, work_cmp_fn *fns, char **bad)
{
	char *copy = xstrdup(keys), *save = NULL;
	int n = 0;

	for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		work_cmp_fn fn = sort_key(tok, mode);

		if (!fn) {
			if (bad)
				*bad = xstrdup(tok);
			n = -1;
			break;
		}
		if (n < MAX_SORT_KEYS)
			fns[n++] = fn;
	}
	free(copy);
	return n;
}

bool kwork__valid_sort(const char *keys, char **bad)
{
	work_cmp_fn fns[MAX_SORT_KEYS];

	return parse_keys(keys, KWORK_REPORT, fns, bad) >= 0;
}

struct sort_ctx {
	work_cmp_fn fns[MAX_SORT_KEYS];
	int nr;
};

static int compare(const struct sort_ctx *ctx, const struct kwork_work *l,
		   const struct kwork_work *r)
{
	for (int i = 0; i < ctx->nr; i++) {
		int c = ctx->fns[i](l, r);

		if (c)
			return c;
	}
	return 0;
}

/* A stable insertion into the sorted run, largest first: equal works keep
 * their arrival order, as perf's tree puts an equal key to the right. */
static void insert_sorted(const struct sort_ctx *ctx, struct kwork_work **v, size_t n,
			  struct kwork_work *w)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (compare(ctx, w, v[mid]) > 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	memmove(&v[lo + 1], &v[lo], (n - lo) * sizeof(*v));
	v[lo] = w;
}

struct kwork_work **kwork__sorted(struct kwork *k, const char *keys, size_t *nr)
{
	struct kwork_work **out = xcalloc(k->nr_works + 1, sizeof(*out));
	struct sort_ctx by_id = { { cmp_id }, 1 }, ctx;
	size_t n = 0;

	ctx.nr = parse_keys(keys, k->o.mode, ctx.fns, NULL);
	if (ctx.nr < 0)
		ctx.nr = 0;
	/* perf moves each class's works (largest CPU and id first) into the
	 * sorted tree, class after class */
	for (int i = 0; i < k->o.nr_classes; i++) {
		struct kwork_work **cls = xcalloc(k->nr_works + 1, sizeof(*cls));
		size_t nc = 0;

		for (size_t j = 0; j < k->nr_works; j++) {
			if (k->works[j]->class == k->o.classes[i])
				insert_sorted(&by_id, cls, nc++, k->works[j]);
		}
		for (size_t j = 0; j < nc; j++)
			insert_sorted(&ctx, out, n++, cls[j]);
		free(cls);
	}
	*nr = n;
	return out;
}

void kwork__skipped(struct kwork *k, uint64_t skipped[KWORK_NR_TRACES + 1])
{
	memset(skipped, 0, (KWORK_NR_TRACES + 1) * sizeof(*skipped));
	for (size_t i = 0; i < k->nr_works; i++) {
		for (int t = 0; t < KWORK_NR_TRACES; t++) {
			skipped[t] += k->works[i]->atoms[t].n;
			skipped[KWORK_NR_TRACES] += k->works[i]->atoms[t].n;
		}
	}
}

uint64_t kwork__atom_pages(const struct kwork *k)
{
	return (k->peak_atoms + KWORK_ATOMS_PER_PAGE - 1) / KWORK_ATOMS_PER_PAGE;
}

void kwork__time_span(const struct kwork *k, uint64_t *start, uint64_t *end)
{
	*start = k->time_start;
	*end = k->time_end;
}
