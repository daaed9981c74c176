/* stacks-perf: builds stacks from a perf.data session.
 *
 * Each sample becomes what stackcollapse makes of the text perf script
 * prints for it by default: the pieces of that text that stackcollapse
 * reads (the process name and PID, the end of the sample line, each
 * frame line) are written as perf script writes them and read back with
 * the text reader's rules (stacks-fold.c), so both paths fold alike.
 * Frame names are computed once per (symbol, DSO) and cached, so a sample
 * costs one hash look-up per frame.  Without --event, samples are kept as
 * stackcollapse keeps them: those of the first event a sample line names
 * at its end, and every sample whose line names none (tracepoints), each
 * weighted by the period the line shows, else 1.  Samples without a
 * callchain contribute their ip as the only frame (perf script prints it
 * on the sample line, where stackcollapse would find no stack at all).
 *
 * Off-CPU mode: sched:sched_switch samples mark when a thread leaves the
 * CPU (the sample's thread, with the callchain where it blocked); the
 * thread is back when a sched_switch names it as next_pid, a
 * PERF_RECORD_SWITCH switches it in, or it is seen in a sample of another
 * event.  The stack is weighted by that time, in nanoseconds.
 */
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "core/symbols/machine.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/hist/hist.h"
#include "core/hist/stacks.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "util/util.h"

/* (symbol, DSO, flags) -> the frame's folded name ids */
struct name_entry {
	const void *sym, *dso;
	uint32_t flags;
	uint32_t first, count;	/* into name_ids */
};

enum {
	NF_KERNEL = 1,
	NF_INLINED = 2,
	NF_JAVA = 4,
	NF_BARE = 8,	/* the frame line shows the symbol alone */
};

/* How the sample line perf script prints for an event ends, as far as
 * stackcollapse reads it (see sample_line_event()) */
struct event_line {
	bool known;
	bool trace;		/* ends with the tracepoint's fields: read per sample */
	bool shows_period;
	bool bare_frames;	/* frames show the symbol alone: a tracepoint's in a pipe */
	char *event;		/* the event the line names at its end, or NULL */
};

/* thread off CPU since time, with its stack */
struct off_entry {
	bool pending;
	uint32_t node;
	uint64_t time;
};

struct stack_builder {
	struct perf_tool tool;
	struct stacks *st;
	const struct stacks_opts *o;
	struct stacks_stats *stats;
	struct perf_session *session;	/* resolves samples with its machine */
	struct evsel *event;		/* the event whose samples make stacks */
	struct callchain_frame *frames;
	int max_stack, nr_frames;
	struct strbuf sb, line;

	/* stackcollapse's event choice (no --event) */
	struct event_line *lines;	/* by evsel->idx */
	int nr_lines;
	char *first_named;		/* the first event a sample line named */
	struct trace_seq trace;		/* a tracepoint's fields as perf script prints them */

	/* the last sample's process frame: consecutive samples mostly share it */
	char *comm_seen;
	int comm_pid, comm_tid;
	uint32_t comm_node;
	bool comm_java;

	struct hashmap names;		/* struct name_entry */
	uint32_t *name_ids;
	uint32_t nr_name_ids, name_ids_alloc;

	char *err;			/* why processing stopped */

	/* off-CPU */
	struct tep_format_field *next_pid;
	bool off_cpu;
	struct hashmap off;		/* tid -> struct off_entry */
};

static bool name_entry_equal(const void *value, const void *key)
{
	const struct name_entry *a = value, *b = key;

	return a->sym == b->sym && a->dso == b->dso && a->flags == b->flags;
}

/* What perf script prints for the frame, folded: cached name ids. */
static const struct name_entry *frame_names(struct stack_builder *b,
					    const struct callchain_frame *f, bool java, bool bare)
{
	const struct addr_location *al = &f->al;
	const struct dso *dso = al->map ? al->map->dso : NULL;
	bool kernel = al->cpumode == PERF_RECORD_MISC_KERNEL ||
		      al->cpumode == PERF_RECORD_MISC_GUEST_KERNEL || (dso && dso->kernel);
	uint32_t flags = (kernel ? NF_KERNEL : 0) | (f->inlined ? NF_INLINED : 0) |
			 (java ? NF_JAVA : 0) | (bare ? NF_BARE : 0);
	struct name_entry key = { .sym = al->sym, .dso = al->sym ? NULL : dso, .flags = flags };
	struct name_entry *e;
	bool added;
	struct fold_opts fo = { .java = java, .annotate_kernel = b->o->annotate_kernel };
	unsigned kind = (kernel ? FRAME_KERNEL : 0) | (f->inlined ? FRAME_INLINED : 0);
	const char *p;

	/* one of sym and dso is NULL, the other 8-aligned: the tag is the key */
	e = hashmap_findnew(&b->names, (uintptr_t)key.sym ^ (uintptr_t)key.dso ^ flags,
			    name_entry_equal, &key, &added);
	if (!added)
		return e;
	*e = key;
	e->first = b->nr_name_ids;
	/* the frame line perf script prints (address and offset change no name);
	 * inlined entries show "(inlined)" in place of the DSO */
	strbuf_reset(&b->line);
	strbuf_addf(&b->line, "0 %s", al->sym ? al->sym->name : "[unknown]");
	if (!bare)
		strbuf_addf(&b->line, "%s (%s)", al->sym ? "+0x0" : "",
			    f->inlined ? "inlined" : dso ? dso->long_name : "[unknown]");
	strbuf_reset(&b->sb);
	fold_frame_line(&b->sb, b->line.buf, b->line.len, &fo);
	p = strbuf_str(&b->sb);
	for (;;) {
		const char *semi = strchr(p, ';');
		size_t len = semi ? (size_t)(semi - p) : strlen(p);

		if (!b->sb.len)
			break;
		if (b->nr_name_ids == b->name_ids_alloc) {
			b->name_ids_alloc = b->name_ids_alloc ? b->name_ids_alloc * 2 : 1024;
			b->name_ids = xrealloc(b->name_ids, b->name_ids_alloc * sizeof(*b->name_ids));
		}
		b->name_ids[b->nr_name_ids++] = stacks__name(b->st, p, len, kind);
		e->count++;
		if (!semi)
			break;
		p = semi + 1;
	}
	return e;
}

static struct off_entry *off_slot(struct stack_builder *b, uint32_t tid)
{
	return hashmap_u64_findnew(&b->off, tid, NULL);
}

/* The thread is running at time: close its off-CPU period. */
static void switched_in(struct stack_builder *b, uint32_t tid, uint64_t time)
{
	struct off_entry *e;

	if (!b->off_cpu)
		return;
	e = off_slot(b, tid);
	if (!e->pending)
		return;
	e->pending = false;
	if (time >= e->time) {
		stacks__add(b->st, e->node, time - e->time, e->time);
		b->stats->nr_samples++;
	}
}

static bool event_matches(const struct evsel *evsel, const char *want)
{
	size_t n = strlen(want);

	if (!evsel->name)
		return false;
	if (!strcmp(evsel->name, want))
		return true;
	/* "cpu-clock" picks "cpu-clock:ppp": only modifier letters may follow */
	if (strncmp(evsel->name, want, n) || evsel->name[n] != ':')
		return false;
	return strspn(evsel->name + n + 1, "ukhpGHSDIW") == strlen(evsel->name + n + 1);
}

static int sample_frames(struct stack_builder *b, const struct evsel *evsel,
			 const struct perf_sample *sample, const struct addr_location *al)
{
	if (!(evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
		b->frames[0] = (struct callchain_frame){ .ip = sample->ip, .al = *al };
		return 1;
	}
	return perf_session__resolve_callchain(b->session, evsel, sample, al->thread,
					       b->max_stack, b->frames, b->nr_frames);
}

/* The node of the process frame (comm, maybe with pid/tid) of thread, as
 * stackcollapse reads it from perf script's "COMM PID/TID " (a COMM such
 * as "worker 3" loses its " 3"); 0 when it reads none. */
static uint32_t comm_node(struct stack_builder *b, const struct thread *thread)
{
	const struct stacks_opts *o = b->o;
	struct fold_head h;

	if (b->comm_seen && thread->pid == b->comm_pid && thread->tid == b->comm_tid &&
	    !strcmp(thread->comm, b->comm_seen))
		return b->comm_node;
	free(b->comm_seen);
	b->comm_seen = xstrdup(thread->comm);
	b->comm_pid = thread->pid;
	b->comm_tid = thread->tid;
	b->comm_node = 0;
	strbuf_reset(&b->line);
	strbuf_addf(&b->line, "%s %d/%d ", thread->comm, thread->pid, thread->tid);
	if (!fold_parse_head(b->line.buf, b->line.len, &h))
		return 0;
	strbuf_reset(&b->sb);
	fold_comm(&b->sb, &h, o->include_pid, o->include_tid);
	b->comm_java = !strcmp(strbuf_str(&b->sb), "java");
	b->comm_node = stacks__child(b->st, 0,
				     stacks__name(b->st, b->sb.buf, b->sb.len, FRAME_COMM));
	return b->comm_node;
}

static uint32_t stack_of(struct stack_builder *b, struct thread *thread, int n, bool bare)
{
	uint32_t node = comm_node(b, thread);

	if (!node)
		return 0;
	for (int i = n; i-- > 0;) {
		const struct name_entry *e = frame_names(b, &b->frames[i], b->comm_java, bare);

		for (uint32_t k = 0; k < e->count; k++)
			node = stacks__child(b->st, node, b->name_ids[e->first + k]);
	}
	return node;
}

/* The fields perf script prints after a raw event's name when the samples
 * have them (the line then ends with a number, naming no event). */
#define RAW_LINE_FIELDS (PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT | \
			 PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_PHYS_ADDR | \
			 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)
/* the attr type of samples perf synthesises from AUX data */
#define PERF_TYPE_SYNTH (1U << 31)

/* The end of perf script's default sample line for evsel, read once:
 * "PERIOD EVENT: " for most events, "EVENT: " for raw and synthesised
 * ones, "EVENT: FIELDS" for tracepoints (read per sample). */
static const struct event_line *event_line(struct stack_builder *b, const struct evsel *evsel)
{
	uint32_t type = evsel->attr.type;
	struct event_line *l;
	const char *ev;
	size_t ev_len;
	uint64_t period;

	if (evsel->idx >= b->nr_lines) {
		int n = evsel->idx + 8;

		b->lines = xrealloc(b->lines, (size_t)n * sizeof(*b->lines));
		memset(b->lines + b->nr_lines, 0, (size_t)(n - b->nr_lines) * sizeof(*b->lines));
		b->nr_lines = n;
	}
	l = &b->lines[evsel->idx];
	if (l->known)
		return l;
	l->known = true;
	l->trace = type == PERF_TYPE_TRACEPOINT;
	l->shows_period = !l->trace && type != PERF_TYPE_RAW && type != PERF_TYPE_SYNTH;
	/* perf script adds a tracepoint's frames as the events of a pipe come */
	l->bare_frames = l->trace && b->session->is_pipe;
	if (l->trace)
		return l;
	strbuf_reset(&b->line);
	strbuf_addf(&b->line, ": %s%s: ", l->shows_period ? "1 " : "", evsel->name);
	if (type == PERF_TYPE_RAW && (evsel->attr.sample_type & RAW_LINE_FIELDS))
		strbuf_addch(&b->line, '0');
	if (fold_parse_event(b->line.buf, b->line.len, &ev, &ev_len, &period))
		l->event = xstrndup(ev, ev_len);
	return l;
}

/* What stackcollapse reads at the end of the sample line perf script
 * prints for sample: the event it names (*ev, NULL when none; valid until
 * the next line is built) and the sample's weight, the period shown or 1. */
static uint64_t sample_line_event(struct stack_builder *b, const struct evsel *evsel,
				  const struct perf_sample *sample, const char **ev,
				  size_t *ev_len)
{
	const struct event_line *l = event_line(b, evsel);
	uint64_t period = 0;

	*ev = l->event;
	*ev_len = l->event ? strlen(l->event) : 0;
	if (l->event && l->shows_period)
		period = sample->period;
	if (!l->trace)
		return period ? period : 1;
	strbuf_reset(&b->line);
	strbuf_addf(&b->line, ": %s: ", evsel->name);
	trace_seq_reset(&b->trace);
	if (perf_session__print_trace(b->session, evsel, sample, &b->trace))
		strbuf_add(&b->line, b->trace.buffer, b->trace.len);
	if (!fold_parse_event(b->line.buf, b->line.len, ev, ev_len, &period))
		*ev = NULL;
	return period ? period : 1;
}

/* The event whose samples make stacks: by name (--event, or
 * sched:sched_switch for off-CPU), else the first sample's. */
static const char *wanted_event(const struct stacks_opts *o)
{
	return o->event ? o->event : o->off_cpu ? "sched:sched_switch" : NULL;
}

static int use_event(struct stack_builder *b, struct evsel *evsel)
{
	b->event = evsel;
	b->stats->event_name = xstrdup(evsel->name ? evsel->name : "");
	if (!b->o->off_cpu)
		return 0;
	if (!(evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
		b->err = xasprintf("%s has no callchains: record with -g", b->stats->event_name);
		return -1;
	}
	{
		struct session_event *se = perf_session__event(b->session, evsel);

		if (se && se->tp_format)
			b->next_pid = tep_find_field(se->tp_format, "next_pid");
	}
	b->off_cpu = true;
	return 0;
}

static int process_sample(struct stack_builder *b, struct evsel *evsel,
			  const struct perf_sample *sample)
{
	const struct stacks_opts *o = b->o;
	const char *want = wanted_event(o);
	struct addr_location al;
	struct thread *thread;
	const char *ev;
	size_t ev_len;
	uint64_t weight = 0;	/* off-CPU stacks weigh their time */
	uint32_t node;
	int n;

	/* a pipe announces its events as it goes: choose at the first sample */
	if (!b->event && want && event_matches(evsel, want) && use_event(b, evsel) < 0)
		return -1;
	if (b->off_cpu) {
		unsigned long long next;

		/* any sample shows its thread running; a switch names the next */
		if (evsel != b->event) {
			switched_in(b, sample->tid, sample->time);
		} else if (b->next_pid &&
			   !tep_read_number_field(b->next_pid, sample->raw_data, &next)) {
			switched_in(b, (uint32_t)next, sample->time);
		}
	}
	if (want && evsel != b->event) {
		b->stats->nr_other_event++;
		return 0;
	}
	if (!o->off_cpu) {
		weight = sample_line_event(b, evsel, sample, &ev, &ev_len);
		if (!want && !fold_keep_event(&b->first_named, ev, ev_len)) {
			b->stats->nr_other_event++;
			return 0;
		}
	}
	perf_session__resolve_sample(b->session, sample, &al);
	thread = al.thread;
	/* perf script does not print a guest's samples (hist_filter__host_guest) */
	if (hist_filter__host_guest(sample->cpumode) ||
	    (o->filter && (sample_filter__skip_time(o->filter, sample->time) ||
			  sample_filter__skip_cpu(o->filter, sample->cpu) ||
			  sample_filter__thread(o->filter, thread) ||
			  sample_filter__dso(o->filter, &al)))) {
		b->stats->nr_filtered++;
		return 0;
	}
	n = sample_frames(b, evsel, sample, &al);
	node = stack_of(b, thread, n, event_line(b, evsel)->bare_frames);
	if (!node) {
		b->stats->nr_filtered++;
		return 0;
	}
	if (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
		b->stats->has_callchain = true;
	if (b->off_cpu) {
		struct off_entry *e = off_slot(b, sample->tid);

		if (e->pending)
			b->stats->nr_no_switch_in++;
		e->pending = true;
		e->node = node;
		e->time = sample->time;
		return 0;
	}
	stacks__add(b->st, node, weight, sample->time);
	b->stats->nr_samples++;
	return 0;
}

static struct stack_builder *builder_of(struct perf_tool *tool)
{
	return (struct stack_builder *)tool;
}

static int builder_sample(struct perf_tool *tool, struct perf_session *s,
			  const struct perf_event_header *rec, struct perf_sample *sample,
			  struct evsel *evsel)
{
	return process_sample(builder_of(tool), evsel, sample) < 0 ? -2 : 0;
}

/* off-CPU: a switch in ends the time its thread was off */
static int builder_switch(struct perf_tool *tool, struct perf_session *s,
			  const struct perf_event_header *rec, struct perf_sample *sample,
			  struct evsel *evsel)
{
	struct stack_builder *b = builder_of(tool);

	if (b->off_cpu && !(rec->misc & PERF_RECORD_MISC_SWITCH_OUT))
		switched_in(b, sample->tid, sample->time);
	return 0;
}

static char *event_not_found(struct stack_builder *b)
{
	struct strbuf names = STRBUF_INIT;
	char *msg;

	evlist__for_each(&b->session->evlist, pos)
		strbuf_addf(&names, "%s%s", names.len ? ", " : "", pos->name ? pos->name : "?");
	if (b->o->off_cpu && !b->o->event)
		msg = xasprintf("no sched:sched_switch event in the file (events: %s); record "
				"with: perf record -e sched:sched_switch -g --switch-events ...",
				strbuf_str(&names));
	else
		msg = xasprintf("event '%s' not found in the file (events: %s)", b->o->event,
				strbuf_str(&names));
	strbuf_release(&names);
	return msg;
}

/* Checks what can be checked before reading: a file lists its events in
 * the header (a pipe's come later). */
static int check_events(struct stack_builder *b)
{
	const char *want = wanted_event(b->o);

	if (b->o->filter && b->o->filter->cpu_filter) {
		evlist__for_each(&b->session->evlist, pos) {
			if (!(pos->attr.sample_type & PERF_SAMPLE_CPU)) {
				b->err = xstrdup("File does not contain CPU events. Remove -C option "
						 "to proceed.");
				return -1;
			}
		}
	}
	if (!want || !b->session->evlist.nr_entries)
		return 0;
	evlist__for_each(&b->session->evlist, pos)
		if (event_matches(pos, want))
			return use_event(b, pos);
	b->err = event_not_found(b);
	return -1;
}

int stacks__add_session(struct stacks *st, struct perf_session *s,
			const struct stacks_opts *o, struct stacks_stats *stats, char **err)
{
	struct stack_builder b = {
		.st = st, .o = o, .stats = stats, .session = s,
		.max_stack = o->max_stack > 0 ? o->max_stack : 127,
	};
	int ret;

	memset(stats, 0, sizeof(*stats));
	st->timed = st->keep_samples;
	b.nr_frames = b.max_stack * 4 + 16;	/* inlined entries add frames */
	b.frames = xcalloc((size_t)b.nr_frames, sizeof(*b.frames));
	trace_seq_init(&b.trace);
	perf_session__new_machine(s, o->kallsyms, o->symfs, o->force);
	hashmap_init(&b.names, sizeof(struct name_entry));
	hashmap_init(&b.off, sizeof(struct off_entry));
	ret = check_events(&b);
	if (!ret) {
		b.tool.sample = builder_sample;
		b.tool.context_switch = builder_switch;
		b.tool.ordered = true;
		ret = perf_session__process(s, &b.tool);
		if (ret == -1 && !b.err)
			b.err = xstrdup(s->err ? s->err : "cannot read the file");
	}
	if (!ret && !b.event && wanted_event(o)) {
		b.err = event_not_found(&b);
		ret = -1;
	}
	if (ret)
		*err = b.err;
	if (!b.event && b.first_named) {
		stats->event_name = b.first_named;
		b.first_named = NULL;
	}
	for (struct off_entry *e = NULL; (e = hashmap_next(&b.off, e));)
		stats->nr_no_switch_in += e->pending;
	if (o->off_cpu)
		stacks__sort_samples(st);
	free(b.frames);
	hashmap_release(&b.names);
	free(b.name_ids);
	hashmap_release(&b.off);
	free(b.comm_seen);
	for (int i = 0; i < b.nr_lines; i++)
		free(b.lines[i].event);
	free(b.lines);
	free(b.first_named);
	trace_seq_destroy(&b.trace);
	strbuf_release(&b.sb);
	strbuf_release(&b.line);
	return ret ? -1 : 0;
}
