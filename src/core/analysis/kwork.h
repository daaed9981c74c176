/* kwork: perf kwork's accounting of the kernel's deferred work.
 *
 * Three classes of work are followed through their tracepoints: hard irqs
 * (irq_handler_entry/exit), softirqs (softirq_raise/entry/exit) and
 * workqueue items (workqueue_activate_work/execute_start/end).  A work is
 * one irq number, softirq vector or work item on one CPU.  Each event
 * leaves an "atom" (its time) on the work's list for its kind; the next
 * event of the pair takes the latest atom of the kind before it:
 *   report   entry..exit    the run time (total, maximum and where)
 *   latency  raise..entry   the delay (average, maximum and where)
 *   timehist entry..exit    one row per run, with the delay since its raise
 * Atoms never paired stay behind and count as perf's skipped events.
 */
#ifndef PCL_KWORK_H
#define PCL_KWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evsel;
struct machine;
struct perf_sample;
struct perf_session;
struct sample_filter;

enum kwork_class { KWORK_IRQ, KWORK_SOFTIRQ, KWORK_WORKQUEUE, KWORK_NR_CLASSES };
enum kwork_trace { KWORK_RAISE, KWORK_ENTRY, KWORK_EXIT, KWORK_NR_TRACES };
enum kwork_mode { KWORK_REPORT, KWORK_LATENCY, KWORK_TIMEHIST };

/* A class's name ("irq", "softirq", "workqueue") and its tracepoints, by
 * trace kind (NULL: the class has none of that kind). */
const char *kwork_class__name(enum kwork_class c);
const char *kwork_class__tracepoint(enum kwork_class c, enum kwork_trace t);

/* "irq,softirq": the classes in the order given, into order[] (at most
 * KWORK_NR_CLASSES); NULL or "" means all three.  Returns how many, or -1
 * with *bad the unknown token (caller frees). */
int kwork_classes__parse(const char *list, enum kwork_class *order, char **bad);

/* One decoded kwork event; name is the work's raw name (irq action,
 * softirq vector name, workqueue function), NULL when unknown. */
struct kwork_event {
	enum kwork_class class;
	enum kwork_trace trace;
	int cpu;
	uint64_t time, id;
	char *name;		/* owned by the event until kwork__event() */
};

/* Decodes a sample of the session's kwork tracepoints; false for other
 * events.  Workqueue functions are named through m's kernel symbols. */
bool kwork_event__decode(struct perf_session *s, struct machine *m, const struct evsel *evsel,
			 const struct perf_sample *sample, struct kwork_event *ev);
void kwork_event__exit(struct kwork_event *ev);

struct kwork_atom {
	uint64_t time;
	uint64_t prev_time;	/* the raise an entry took, 0 if none */
};

struct kwork_atoms {
	struct kwork_atom *v;
	size_t n, cap;
};

struct kwork_work {
	enum kwork_class class;
	int cpu;
	uint64_t id;
	char *name;
	struct kwork_atoms atoms[KWORK_NR_TRACES];
	uint64_t nr_atoms;
	uint64_t total_runtime, max_runtime, max_runtime_start, max_runtime_end;
	uint64_t total_latency, max_latency, max_latency_start, max_latency_end;
};

/* A finished run for timehist: from entry to exit, raised at raise (0: no
 * raise was seen). */
struct kwork_run {
	const struct kwork_work *work;
	uint64_t entry, exit, raise;
};

struct kwork_opts {
	enum kwork_mode mode;
	enum kwork_class classes[KWORK_NR_CLASSES];	/* in the -k order */
	int nr_classes;
	const char *name;			/* -n: the raw name, or NULL */
	const struct sample_filter *filter;	/* -C and --time, or NULL */
	bool summary;				/* -S: keep the time span */
	void (*emit)(const struct kwork_run *run, void *arg);	/* timehist */
	void *arg;
};

struct kwork;

struct kwork *kwork__new(const struct kwork_opts *o);
void kwork__delete(struct kwork *k);

/* Whether c is one of the classes followed (-k). */
bool kwork__selected(const struct kwork *k, enum kwork_class c);

/* Accounts ev (taking its name).  Returns true when a timehist entry was
 * kept: its sample's stack is the one perf shows at the next run. */
bool kwork__event(struct kwork *k, struct kwork_event *ev);

/* "runtime, max, count": the keys perf sorts by (id, max, count, runtime,
 * avg).  False with *bad the unknown key (caller frees). */
bool kwork__valid_sort(const char *keys, char **bad);

/* The works in perf's order: by keys, largest first; ties in class order
 * (-k), then by CPU and id, largest first.  Every work, with atoms or not
 * (caller frees the array). */
struct kwork_work **kwork__sorted(struct kwork *k, const char *keys, size_t *nr);

/* Atoms left unpaired, by trace kind, and their sum at [KWORK_NR_TRACES]. */
void kwork__skipped(struct kwork *k, uint64_t skipped[KWORK_NR_TRACES + 1]);

/* perf keeps atoms in pages of this many, taking the first free slot, and
 * says with -v how many pages it needed: enough for the most atoms alive
 * at once. */
#define KWORK_ATOMS_PER_PAGE 128
uint64_t kwork__atom_pages(const struct kwork *k);

/* The first and last matching event's time (with opts.summary). */
void kwork__time_span(const struct kwork *k, uint64_t *start, uint64_t *end);

#endif
