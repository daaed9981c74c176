/* stacks-perf: builds stacks from a perf.data session.
 *
 * Each sample of the chosen event becomes the stack perf script would
 * print for it, folded with stackcollapse's rules (fold_frame()) and
 * weighted by its period: the process name, then the callchain from the
 * outermost caller to the leaf.  Frame names are computed once per
 * (symbol, DSO) and cached, so a sample costs one hash look-up per frame.
 * Samples without a callchain contribute their ip as the only frame.
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
	struct perf_session *session;
	struct machine *machine;
	struct evsel *event;		/* the event whose samples make stacks */
	struct callchain_frame *frames;
	int max_stack, nr_frames;
	struct strbuf sb;

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
					    const struct callchain_frame *f, bool java)
{
	const struct addr_location *al = &f->al;
	const struct dso *dso = al->map ? al->map->dso : NULL;
	bool kernel = al->cpumode == PERF_RECORD_MISC_KERNEL ||
		      al->cpumode == PERF_RECORD_MISC_GUEST_KERNEL || (dso && dso->kernel);
	uint32_t flags = (kernel ? NF_KERNEL : 0) | (f->inlined ? NF_INLINED : 0) |
			 (java ? NF_JAVA : 0);
	struct name_entry key = { .sym = al->sym, .dso = al->sym ? NULL : dso, .flags = flags };
	struct name_entry *e;
	bool added;
	struct fold_opts fo = { .java = java, .annotate_kernel = b->o->annotate_kernel };
	const char *func = al->sym ? al->sym->name : "[unknown]";
	/* perf script shows "(inlined)" in place of the DSO of inlined entries */
	const char *mod = f->inlined ? "inlined" : dso ? dso->long_name : "[unknown]";
	unsigned kind = (kernel ? FRAME_KERNEL : 0) | (f->inlined ? FRAME_INLINED : 0);
	const char *p;

	/* one of sym and dso is NULL, the other 8-aligned: the tag is the key */
	e = hashmap_findnew(&b->names, (uintptr_t)key.sym ^ (uintptr_t)key.dso ^ flags,
			    name_entry_equal, &key, &added);
	if (!added)
		return e;
	*e = key;
	e->first = b->nr_name_ids;
	strbuf_reset(&b->sb);
	fold_frame(&b->sb, func, strlen(func), mod, strlen(mod), &fo);
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
			 const struct perf_sample *sample, struct thread *thread,
			 const struct addr_location *al)
{
	uint64_t st = evsel->attr.sample_type;
	int n;

	if (!(st & PERF_SAMPLE_CALLCHAIN)) {
		b->frames[0] = (struct callchain_frame){ .ip = sample->ip, .al = *al };
		return 1;
	}
	n = machine__resolve_callchain(b->machine, thread, sample->callchain,
				       sample->callchain_nr, b->frames, b->max_stack);
	/* --call-graph dwarf: the user part is unwound from registers + stack */
	if ((st & PERF_SAMPLE_REGS_USER) && (st & PERF_SAMPLE_STACK_USER) &&
	    sample->user_regs.regs && sample->user_stack.size)
		n += machine__unwind(b->machine, thread, sample->user_regs.mask,
				     sample->user_regs.regs, sample->user_stack.data,
				     sample->user_stack.dyn_size, b->max_stack, b->frames + n,
				     b->nr_frames - n);
	return n;
}

/* The node of the process frame (comm, maybe with pid/tid) of thread. */
static uint32_t comm_node(struct stack_builder *b, const struct thread *thread)
{
	const struct stacks_opts *o = b->o;

	if (b->comm_seen && thread->pid == b->comm_pid && thread->tid == b->comm_tid &&
	    !strcmp(thread->comm, b->comm_seen))
		return b->comm_node;
	strbuf_reset(&b->sb);
	fold_comm(&b->sb, thread->comm, thread->pid, thread->tid, o->include_pid,
		  o->include_tid);
	free(b->comm_seen);
	b->comm_seen = xstrdup(thread->comm);
	b->comm_pid = thread->pid;
	b->comm_tid = thread->tid;
	b->comm_java = !strcmp(strbuf_str(&b->sb), "java");
	b->comm_node = stacks__child(b->st, 0,
				     stacks__name(b->st, b->sb.buf, b->sb.len, FRAME_COMM));
	return b->comm_node;
}

static uint32_t stack_of(struct stack_builder *b, struct thread *thread, int n)
{
	uint32_t node = comm_node(b, thread);

	for (int i = n; i-- > 0;) {
		const struct name_entry *e = frame_names(b, &b->frames[i], b->comm_java);

		for (uint32_t k = 0; k < e->count; k++)
			node = stacks__child(b->st, node, b->name_ids[e->first + k]);
	}
	return node;
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
	uint32_t node;
	int n;

	/* a pipe announces its events as it goes: choose at the first sample */
	if (!b->event && (!want || event_matches(evsel, want)) && use_event(b, evsel) < 0)
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
	if (evsel != b->event) {
		b->stats->nr_other_event++;
		return 0;
	}
	thread = machine__findnew_thread(b->machine, (pid_t)sample->pid, (pid_t)sample->tid);
	memset(&al, 0, sizeof(al));
	machine__resolve(b->machine, thread, sample->cpumode, sample->ip, &al);
	al.thread = thread;
	if (o->filter && (sample_filter__skip_time(o->filter, sample->time) ||
			  sample_filter__skip_cpu(o->filter, sample->cpu) ||
			  sample_filter__thread(o->filter, thread) ||
			  sample_filter__dso(o->filter, &al))) {
		b->stats->nr_filtered++;
		return 0;
	}
	n = sample_frames(b, evsel, sample, thread, &al);
	node = stack_of(b, thread, n);
	if (b->off_cpu) {
		struct off_entry *e = off_slot(b, sample->tid);

		if (e->pending)
			b->stats->nr_no_switch_in++;
		e->pending = true;
		e->node = node;
		e->time = sample->time;
		return 0;
	}
	stacks__add(b->st, node, sample->period ? sample->period : 1, sample->time);
	b->stats->nr_samples++;
	return 0;
}

static int builder_record(struct perf_tool *tool, struct perf_session *s,
			  const struct perf_event_header *rec, struct perf_sample *sample,
			  struct evsel *evsel, uint64_t off)
{
	struct stack_builder *b = (struct stack_builder *)tool;

	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		if (evsel && process_sample(b, evsel, sample) < 0)
			return -2;
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (b->off_cpu && !(rec->misc & PERF_RECORD_MISC_SWITCH_OUT))
			switched_in(b, sample->tid, sample->time);
		break;
	default:
		perf_session__feed_machine(b->machine, rec);
		break;
	}
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
	hashmap_init(&b.names, sizeof(struct name_entry));
	hashmap_init(&b.off, sizeof(struct off_entry));
	b.machine = machine__new();
	if (o->kallsyms)
		machine__set_kallsyms(b.machine, o->kallsyms);
	if (o->symfs)
		machine__set_symfs(b.machine, o->symfs);
	machine__set_force(b.machine, o->force);
	perf_session__machine_build_ids(s, b.machine);
	ret = check_events(&b);
	if (!ret) {
		b.tool.record = builder_record;
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
	if (b.event)
		stats->has_callchain = b.event->attr.sample_type & PERF_SAMPLE_CALLCHAIN;
	for (struct off_entry *e = NULL; (e = hashmap_next(&b.off, e));)
		stats->nr_no_switch_in += e->pending;
	if (o->off_cpu)
		stacks__sort_samples(st);
	machine__delete(b.machine);
	free(b.frames);
	hashmap_release(&b.names);
	free(b.name_ids);
	hashmap_release(&b.off);
	free(b.comm_seen);
	strbuf_release(&b.sb);
	return ret ? -1 : 0;
}
