/* pcl trace: strace-like syscall tracing (perf trace), replaying a file
 * recorded with `trace record`; `pcl trace record` writes one. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "builtin.h"
#include "core/analysis/trace.h"
#include "core/data/evswitch.h"
#include "core/data/header-features.h"
#include "core/events/cgroup.h"
#include "core/data/session.h"
#include "core/events/parse-events.h"
#include "core/hist/callchain.h"
#include "core/live/augment.h"
#include "core/live/drain.h"
#include "core/live/record.h"
#include "core/live/synthesize.h"
#include "core/live/target.h"
#include "core/symbols/buildid-cache.h"
#include "core/symbols/buildid.h"
#include "core/symbols/kernel-maps.h"
#include "ui/session-warnings.h"
#include "ui/trace-summary.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/perfconfig.h"
#include "util/util.h"

static const char *const trace_usage[] = {
	"pcl trace [<options>] [<command>]",
	"pcl trace [<options>] -- <command> [<options>]",
	"pcl trace record [<options>] [<command>]",
	"pcl trace record [<options>] -- <command> [<options>]",
	NULL,
};

struct trace_opts {
	const char *input, *output;
	bool summary_only, with_summary, errno_summary, failure, full_time, force;
	const char *duration;
	const char *expr;		/* -e: syscalls and events to trace */
	const char *filter;		/* --filter for the tracepoint events */
	bool syscalls, comm, no_inherit;
	bool no_augment;		/* --no-augment: pathnames as pointers */
	bool sched;			/* --sched: sched_stat_runtime per thread */
	bool tool_stats, print_sample, tep_print;
	const char *filter_pids;	/* --filter-pids: left out in the kernel */
	const char *map_dump;		/* --map-dump: a BPF map, none here */
	const char *cgroup;		/* -G: every event in this cgroup only */
	const char *call_graph;		/* --call-graph fp|dwarf[,size] */
	struct record_opts call_graph_opts; /* record's defaults with it parsed */
	const char *pf;			/* -F: page faults, maj|min|all */
	bool kernel_syscall_graph;
	unsigned int max_stack, min_stack;
	int verbose;			/* -v: perf's notes on the file and the rings */
	bool sort_events;		/* pcl sorts every drained round anyway */
	bool syscalls_negated;		/* -e's syscall list began with '!' */
	unsigned int proc_map_timeout;	/* ms to read a process's /proc maps */
	unsigned int max_events;
	unsigned int mmap_pages;
	struct target target;
	struct evswitch evswitch;	/* --switch-on/--switch-off */
};

/* Where the fields of a raw_syscalls event are in its payload. */
struct syscall_tp {
	struct evsel *evsel;
	int id_off, data_off;		/* data: args (enter) or ret (exit) */
};

/* perf's default --max-stack for a file */
#define TRACE_MAX_STACK 127
/* the most user frames unwound, whatever --max-stack says */
#define TRACE_MAX_UNWIND 1024

/* How the exit lines' call chains are made. */
struct chain_ctx {
	struct machine *machine;
	int max_stack;			/* frames of each part of a chain */
	bool unwind;			/* recorded user stacks too */
	bool kernel_notes;		/* -v: perf's notes on the kernel's symbols, due
					 * when a chain first needs them */
	FILE *out;			/* where the lines go */
	const struct augment *augment;	/* pcl's own BPF programs, left out
					 * of the notes: perf has none */
	struct callchain_frame *frames;	/* a chain's frames, grown as needed */
	size_t nr_frames;
};

struct trace_replay {
	struct perf_tool tool;
	struct trace trace;
	struct syscall_tp enter, exit;
	const char *pids, *tids;	/* -p/-t: the only tasks shown */
	struct chain_ctx chains;	/* user stacks unwound as perf does with
					 * --min-stack or --max-stack */
};

/* --max-stack not given */
#define MAX_STACK_UNSET UINT_MAX

/* --max-stack as given, above the kernel's limit too (a dwarf chain is
 * unwound that deep); perf's default without it: 127 for a file, the
 * kernel's perf_event_max_stack live. */
static int max_stack(const struct trace_opts *o)
{
	if (o->max_stack == MAX_STACK_UNSET)
		return o->input ? TRACE_MAX_STACK : callchain_max_stack_default();
	return o->max_stack < INT_MAX ? (int)o->max_stack : INT_MAX;
}

/* Whether id is in a comma-separated list of numbers. */
static bool in_list(const char *list, int id)
{
	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (atoi(p) == id)
			return true;
	return false;
}

static bool syscall_tp__init(struct syscall_tp *tp, struct perf_session *s, const char *name,
			     const char *data_field)
{
	evlist__for_each(&s->evlist, pos) {
		struct tep_event *ev = perf_session__event(s, pos)->tp_format;
		struct tep_format_field *id, *data;

		if (pos->attr.type != PERF_TYPE_TRACEPOINT || !pos->name || strcmp(pos->name, name))
			continue;
		if (!ev || !(id = tep_find_field(ev, "id")) ||
		    !(data = tep_find_field(ev, data_field)))
			return false;
		tp->evsel = pos;
		tp->id_off = id->offset;
		tp->data_off = data->offset;
		return true;
	}
	return true;
}

static uint64_t raw_u64(const struct perf_sample *sample, int off)
{
	uint64_t v = 0;

	if (off >= 0 && (size_t)off + sizeof(v) <= sample->raw_size)
		memcpy(&v, (const char *)sample->raw_data + off, sizeof(v));
	return v;
}

/* A chain not resolved yet, and one perf refuses: its unwinder takes no
 * --max-stack 0, and fails the whole chain of a sample with a user stack. */
#define CHAIN_UNRESOLVED (-1)
#define CHAIN_REFUSED (-2)

/* A sys_exit's chain: the recorded one, then if asked the user stack of
 * --call-graph dwarf unwound; its frames.  As perf, each part has its own
 * --max-stack budget, and the unwinder's counts unwound frames, however
 * many inlined functions each of them adds. */
static int resolve_callchain(struct chain_ctx *cc, struct thread *thread,
			     const struct perf_sample *sample)
{
	bool user_stack = cc->unwind && sample->user_regs.regs && sample->user_stack.dyn_size;
	size_t kernel = sample->callchain_nr, user = 0;
	int max_stack = cc->max_stack, n;

	if (user_stack && !max_stack)
		return CHAIN_REFUSED;
	if (kernel > (size_t)max_stack)
		kernel = max_stack;
	if (user_stack) {	/* room for inlined functions too, more than 1 a frame */
		user = max_stack < TRACE_MAX_UNWIND ? max_stack : TRACE_MAX_UNWIND;
		user = 2 * (user > TRACE_MAX_STACK ? user : TRACE_MAX_STACK);
	}
	if (kernel + user > cc->nr_frames) {
		cc->nr_frames = kernel + user;
		cc->frames = xrealloc(cc->frames, cc->nr_frames * sizeof(*cc->frames));
	}
	n = machine__resolve_callchain(cc->machine, thread, sample->callchain,
				       sample->callchain_nr, false, cc->frames, (int)kernel);
	if (n < 0)
		n = 0;	/* a corrupt chain: nothing of it, as perf */
	if (user_stack)
		n += machine__unwind(cc->machine, thread, sample->user_regs.mask,
				     sample->user_regs.regs, sample->user_stack.data,
				     sample->user_stack.dyn_size, max_stack, cc->frames + n,
				     (int)user);
	return n;
}

/* The lines formatted so far, to out. */
static void write_lines(struct trace *t, FILE *out)
{
	if (t->out.len) {
		fwrite(t->out.buf, 1, t->out.len, out);
		strbuf_reset(&t->out);
	}
}


/* perf's -v notes as it loads the kernel's symbols: its vmlinux path
 * (seven places and the build-id cache, whose kallsyms copy it tries as an
 * ELF file), then where the symbols came from. */
static void print_kernel_notes(struct dso *kernel, const struct augment *own)
{
	uint64_t own_ksyms[16];
	size_t nr_own;

	if (dso__symtab_origin(kernel) == 'v') {
		fprintf(stderr, "Looking at the vmlinux_path (8 entries long)\n"
				"Using %s for symbols\n", dso__shown_long_name(kernel));
		return;
	}
	if (kernel->build_id_size || dso__read_build_id(kernel))
		session_warnings__vmlinux_path(kernel->build_id, kernel->build_id_size);
	else
		session_warnings__vmlinux_path(NULL, 0);
	nr_own = augment__ksyms(own, own_ksyms, ARRAY_SIZE(own_ksyms));
	session_warnings__kallsyms_modules(own_ksyms, nr_own);
	fprintf(stderr, "Using /proc/kallsyms for symbols\n");
}

/* The notes, the first time a chain is resolved: perf looks the sample's
 * own address up first, in the kernel's symbols for a syscall exit. */
static void kernel_notes(struct chain_ctx *cc, struct thread *thread,
			 const struct perf_sample *sample)
{
	struct addr_location al = { 0 };

	if (machine__lookup(cc->machine, thread, sample->cpumode, sample->ip, &al) &&
	    al.map && al.map->dso && al.map->dso->kernel) {
		print_kernel_notes(al.map->dso, cc->augment);
		cc->kernel_notes = false;
	}
}

/* A raw_syscalls sample of thread, to the analysis, with an exit line's
 * call chain under it.  With --min-stack (or notes due) the chain is
 * resolved first: perf shows no exit whose chain is shorter (nor checks a
 * refused one), and resolves chains before it filters lines. */
static void syscall_sample(struct trace *t, const struct syscall_tp *tp, struct thread *thread,
			   const struct perf_sample *sample, bool enter, struct chain_ctx *cc)
{
	long id = (long)raw_u64(sample, tp->id_off);
	uint64_t args[SYSCALL_MAX_ARGS];
	bool chain = sample->callchain || (cc->unwind && sample->user_stack.size);
	int depth = CHAIN_UNRESOLVED;

	if (t->cfg.print_sample)	/* --print-sample: each raw sample, in ms */
		strbuf_addf(&t->out, "%22s %10.3f %s %d/%d [%d]\n", tp->evsel->name,
			    (double)sample->time / 1e6, thread->comm, sample->pid, sample->tid,
			    (int)sample->cpu);

	if (enter) {
		for (int i = 0; i < SYSCALL_MAX_ARGS; i++)
			args[i] = raw_u64(sample, tp->data_off + 8 * i);
		trace__sys_enter(t, thread, sample->time, id, args);
		return;
	}
	if (sample->callchain && cc->kernel_notes)
		kernel_notes(cc, thread, sample);
	if (chain && t->cfg.min_stack)
		depth = resolve_callchain(cc, thread, sample);
	if (!trace__sys_exit(t, thread, sample->time, id, (long)raw_u64(sample, tp->data_off),
			     depth < 0 ? -1 : depth) || !chain)
		return;
	if (depth == CHAIN_UNRESOLVED)
		depth = resolve_callchain(cc, thread, sample);
	if (depth == CHAIN_REFUSED) {	/* perf's complaint, after the line */
		write_lines(t, cc->out);
		fprintf(stderr, "Problem processing %s callchain, skipping...\n", tp->evsel->name);
		return;
	}
	trace__callchain(t, cc->frames, depth);
}

static int replay_sample(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel)
{
	struct trace_replay *r = (struct trace_replay *)tool;
	struct trace *t = &r->trace;
	bool enter = evsel == r->enter.evsel, exit = evsel == r->exit.evsel;
	struct thread *thread = machine__findnew_thread(s->machine, sample->pid, sample->tid);

	/* perf's -p keeps a process's main thread only, -t any thread */
	if ((r->pids && (thread->pid != thread->tid || !in_list(r->pids, thread->tid))) ||
	    (r->tids && !in_list(r->tids, thread->tid)))
		return 0;
	trace__account(t, sample->time, evsel->attr.sample_type & PERF_SAMPLE_TIME,
		       enter || exit);
	if (!enter && !exit)
		return 0;
	syscall_sample(t, enter ? &r->enter : &r->exit, thread, sample, enter, &r->chains);
	write_lines(t, r->chains.out);
	return 0;	/* perf replays the whole file whatever --max-events says */
}

/* The machine only follows the records a tool takes. */
static int take_record(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	return 0;
}

/* perf's -v notes on a file's header, written as it reads it */
static void print_header_notes(const struct perf_header *h)
{
	for (uint32_t i = 0; i < h->nr_build_ids; i++) {
		const struct perf_build_id_entry *b = &h->build_ids[i];
		char hex[2 * BUILD_ID_MAX + 1];

		build_id__hex(b->build_id, b->size, hex);
		fprintf(stderr, "build id event received for %s: %s [%d]\n", b->filename, hex,
			b->size);
	}
	if (perf_header__has_feat(h, HEADER_PMU_CAPS) && !h->nr_pmu_caps)
		fprintf(stderr, "pmu capabilities not available\n");
}

static int trace_replay(const struct trace_opts *o, const struct trace_config *cfg, FILE *out)
{
	struct trace_replay r = {
		.tool = { .sample = replay_sample, .comm = take_record, .fork = take_record,
			  .exit = take_record, .mmap = take_record, .mmap2 = take_record,
			  .ordered = true },
		.pids = o->target.pid,
		.tids = o->target.tid,
		.chains = { .max_stack = max_stack(o),
			    .unwind = o->call_graph_opts.call_graph == CALLGRAPH_DWARF,
			    .kernel_notes = o->verbose, .out = out },
	};
	char *err = NULL;
	struct perf_session *s = perf_session__open(o->input, o->force, &err);
	int ret;

	if (!s) {
		session_warnings__open_failed(o->input, err);	/* perf's words and status */
		free(err);
		return PCL_EXIT_ERROR;
	}
	if (o->verbose)
		print_header_notes(&s->header);
	r.chains.machine = perf_session__new_machine(s, NULL, NULL, o->force);
	trace__init(&r.trace, cfg, r.chains.machine);
	if (!syscall_tp__init(&r.enter, s, "raw_syscalls:sys_enter", "args") ||
	    !syscall_tp__init(&r.exit, s, "raw_syscalls:sys_exit", "ret")) {
		fprintf(stderr, "Error during initialize raw_syscalls:sys_enter event\n");
		trace__exit(&r.trace);
		perf_session__delete(s);
		return PCL_EXIT_FAILURE;
	}
	ret = perf_session__process(s, &r.tool);
	if (ret < 0)
		fprintf(out, "Failed to process events, error %d", ret);
	else if (cfg->summary)
		trace_summary__print(out, &r.trace);
	trace__exit(&r.trace);
	free(r.chains.frames);
	perf_session__delete(s);
	return ret < 0 ? PCL_EXIT_FAILURE : 0;
}

/* Live tracing: raw_syscalls on the drain loop, each round's records put in
 * time order (rings of several CPUs interleave) and fed to the analysis. */
struct trace_live {
	struct trace trace;
	struct record_session rs;
	struct machine *machine;
	struct syscall_tp enter, exit;
	struct tep_event **formats;		/* by evsel->idx: other tracepoints */
	struct chain_ctx chains;		/* of --call-graph */
	struct record_round round;		/* the records of a round */
	struct evswitch *evswitch;
	struct evsel *sched_runtime;		/* --sched: sched_stat_runtime */
	bool workload;				/* a command's tasks are traced */
	struct augment *augment;		/* pathnames' strings, or NULL */
	FILE *out;
};

/* How late at most a live line shows after its record was written */
#define TRACE_LIVE_BEAT_MS 50

static int live_collect(void *ctx, int cpu, const struct perf_event_header *rec)
{
	struct trace_live *l = ctx;

	record_round__add(&l->round, rec);
	return 0;
}

/* The thread of a sample, named from /proc when no COMM told its name,
 * as perf names the tasks it was given from theirs; a workload's tasks
 * that ran before tracing began (-D) stay ":tid", as in perf. */
static struct thread *live_thread(struct trace_live *l, pid_t pid, pid_t tid)
{
	struct thread *thread = machine__findnew_thread(l->machine, pid, tid);
	char path[64], *comm;

	if (thread->comm_set || l->workload)
		return thread;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	comm = read_file_str(path);
	if (comm) {
		machine__process_comm(l->machine, pid, tid, strrtrim(comm), false);
		free(comm);
	}
	return thread;
}

/* -F: a fault's ip and data address, resolved as perf resolves them */
static void live_pgfault(struct trace_live *l, const struct evsel *evsel,
			 const struct perf_sample *sample)
{
	struct thread *thread = live_thread(l, sample->pid, sample->tid);
	struct addr_location ip = { 0 }, data = { 0 };

	machine__lookup(l->machine, thread, sample->cpumode, sample->ip, &ip);
	machine__lookup(l->machine, thread, sample->cpumode, sample->addr, &data);
	trace__pgfault(&l->trace, thread, sample->time,
		       evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MAJ, &ip, &data,
		       sample->addr);
}

static void live_dispatch(struct trace_live *l, const struct perf_event_header *rec)
{
	struct perf_sample sample;
	const char *err;
	struct evsel *evsel;

	/* perf's live total (the summary's percentages) counts every record */
	if (rec->type != PERF_RECORD_SAMPLE)
		l->trace.nr_events++;
	switch (rec->type) {
	case PERF_RECORD_LOST:
		strbuf_addf(&l->trace.out, "LOST %llu events!\n",
			    (unsigned long long)((const struct perf_rec_lost *)rec)->lost);
		return;
	case PERF_RECORD_SAMPLE:
		break;
	default:
		machine__take_record(l->machine, rec);
		return;
	}
	if (perf_sample__parse(record_session__attr_of(&l->rs, rec), rec, &sample, &err))
		return;
	evsel = record_session__evsel_of_id(&l->rs, sample.id);
	trace__account(&l->trace, sample.time, true, true);
	if (!evsel || evswitch__discard(l->evswitch, evsel))
		return;
	if (evsel == l->sched_runtime) {
		unsigned long long runtime = 0;
		struct tep_format_field *field = l->formats[evsel->idx] ?
			tep_find_field(l->formats[evsel->idx], "runtime") : NULL;

		if (field)
			tep_read_number_field(field, sample.raw_data, &runtime);
		trace__sched_runtime(&l->trace, live_thread(l, sample.pid, sample.tid), runtime);
	} else if (evsel == l->enter.evsel || evsel == l->exit.evsel) {
		struct thread *thread = live_thread(l, sample.pid, sample.tid);

		syscall_sample(&l->trace, evsel == l->enter.evsel ? &l->enter : &l->exit, thread,
			       &sample, evsel == l->enter.evsel, &l->chains);
	} else if (evsel->attr.type == PERF_TYPE_SOFTWARE) {
		live_pgfault(l, evsel, &sample);
	} else
		trace__tp_event(&l->trace, live_thread(l, sample.pid, sample.tid), sample.time,
				evsel->name, l->formats[evsel->idx], sample.raw_data,
				sample.raw_size);
}

static int live_round(void *ctx, size_t bytes)
{
	struct trace_live *l = ctx;

	/* the round's pathname records were written before its samples */
	if (l->augment)
		augment__drain(l->augment);
	record_round__sort(&l->round);
	for (size_t i = 0; i < l->round.nr && !l->trace.done; i++)
		live_dispatch(l, record_round__at(&l->round, i));
	if (l->augment)
		augment__prune(l->augment);
	record_round__reset(&l->round);
	write_lines(&l->trace, l->out);
	fflush(l->out);
	return 0;
}

static int live_tick(void *ctx, bool stopping)
{
	struct trace_live *l = ctx;

	/* every task's pathname calls fill the BPF ring, quiet rings or not */
	if (l->augment) {
		augment__drain(l->augment);
		augment__prune(l->augment);
	}

	return l->trace.done ? 1 : 0;
}

static int live_take(void *ctx, const struct perf_event_header *rec)
{
	machine__take_record(ctx, rec);
	return 0;
}

/* What call chains resolve against: the kernel, its modules and, for
 * tasks already running, their maps (a workload's come as it execs),
 * each process's read for at most map_timeout_ms. */
static void live_synthesize(struct trace_live *l, const struct target *target,
			    const struct thread_map *threads, const struct evsel *first,
			    bool data_maps, unsigned int map_timeout_ms)
{
	struct synth s;

	synth__init(&s, &first->attr, data_maps, live_take, l->machine);
	s.map_timeout_ns = (int64_t)map_timeout_ms * 1000000;
	s.timed_out = session_warnings__map_timeout;
	synth__kernel_mmap(&s, NULL);
	synth__modules(&s);
	if (target->system_wide || target->cpu_list)
		synth__all_threads(&s, true);
	else if (!target__none(target))
		for (int i = 0; i < threads->nr; i++)
			synth__thread(&s, threads->map[i].pid, true);
	synth__exit(&s);
}

/* The names of the tasks of -p/-t as tracing begins, as perf learns them:
 * a task that is gone by the time its lines are made keeps its name. */
static void live_name_tasks(struct trace_live *l, const struct thread_map *threads,
			    const struct evsel *first)
{
	struct synth s;

	synth__init(&s, &first->attr, false, live_take, l->machine);
	for (int i = 0; i < threads->nr; i++)
		if (threads->map[i].pid > 0)
			synth__thread(&s, threads->map[i].pid, false);
	synth__exit(&s);
}

/* perf shows each line's comm/tid only when more than one task may be
 * traced: system wide, several tasks given, or the children of those
 * inheriting the events. */
static bool live_one_task(const struct thread_map *threads, bool inherit)
{
	return threads && threads->nr == 1 && threads->map[0].pid != -1 && !inherit;
}

/* perf's -v notes as a live trace sets up: the CPU, and module maps it
 * cannot make without /proc/modules. */
static void print_setup_notes(void)
{
	char *cpuid = cpuinfo_cpuid('-');

	if (cpuid)
		fprintf(stderr, "Using CPUID %s\n", cpuid);
	free(cpuid);
	if (access("/proc/modules", R_OK))
		fprintf(stderr, "Problems creating module maps, continuing anyway...\n");
}

static bool live_user_strings(void *priv, pid_t tid, long id,
			      const uint64_t args[SYSCALL_MAX_ARGS], bool at_exit,
			      const char *strs[SYSCALL_MAX_ARGS])
{
	return augment__take(priv, tid, id, args, at_exit, strs);
}

/* The BPF reader of pathname arguments, for the syscalls traced (on: NULL
 * for all) that have some, attached to enter's tracepoint; NULL when none
 * has, or with -v's note why it could not load (pathnames then show as
 * pointers, as perf's do without its augmenter). */
static struct augment *live_augment(struct syscall_table *table, const bool *on,
				    const struct evsel *enter, const struct evsel *exit,
				    bool verbose)
{
	int nr = syscall__max_nr() + 1, err;
	uint32_t *specs = xcalloc((size_t)nr, sizeof(*specs));
	struct augment *a = NULL;
	bool any = false;
	char why[512] = "";

	for (int i = 0; i < nr; i++) {
		const struct syscall *sc;
		int arg[2] = { -1, -1 }, n = 0;

		if ((on && !on[i]) || !syscall__name(i) || !(sc = syscall_table__get(table, i)))
			continue;
		for (int j = 0; j < sc->nr_args && n < 2; j++)
			if (sc->args[j].kind == SCA_FILENAME)
				arg[n++] = j;
		if (n)
			specs[i] = augment__spec(arg[0], arg[1]);
		/* a sockaddr's length is the argument after it */
		for (int j = 0; !n && j + 1 < sc->nr_args; j++)
			if (sc->args[j].kind == SCA_SOCKADDR) {
				specs[i] = augment__spec(j, j + 1) | AUGMENT_SPEC_SOCKADDR;
				n = 1;
			}
		/* after an exec the pointer is the new program's */
		if (n && (i == syscall__id("execve") || i == syscall__id("execveat")))
			specs[i] |= AUGMENT_SPEC_NO_LATE;
		any = any || n;
	}
	if (!any) {	/* none of the calls traced has a pathname */
		free(specs);
		return NULL;
	}
	a = augment__new(specs, nr, getpid(), why, sizeof(why));
	if (a && (err = augment__attach(a, enter->attr.config, exit->attr.config))) {
		snprintf(why, sizeof(why), "attaching the BPF program: %s", strerror(-err));
		augment__delete(a);
		a = NULL;
	}
	if (!a && verbose)
		fprintf(stderr, "pathnames shown as pointers: %s\n", why);
	free(specs);
	return a;
}

/* perf's -v note on its syscall filter: the ids of -e, or those it left
 * out when its list began with '!' (perf's filter; pcl's own differs). */
static void print_qualifier_note(const bool *on, bool negated)
{
	const char *sep = "";

	fprintf(stderr, "event qualifier tracepoint filter: ");
	for (int nr = 0; nr <= syscall__max_nr(); nr++) {
		if (!syscall__name(nr) || on[nr] == negated)
			continue;
		fprintf(stderr, "%sid %s %d", sep, negated ? "!=" : "==", nr);
		sep = negated ? " && " : " || ";
	}
	fputc('\n', stderr);
}

/* The tracepoint filter: the syscalls of -e, in the kernel, never our own
 * (nor --filter-pids'):
 * the shorter of "id == a || ..." and "id != x && ...". */
static char *live_filter(const bool *on, const char *filter_pids)
{
	struct strbuf sb = STRBUF_INIT;
	int nr_on = 0, nr_calls = syscall__max_nr() + 1;
	bool list_on;
	const char *sep = "";

	strbuf_addf(&sb, "common_pid != %d", (int)getpid());
	if (filter_pids) {	/* --filter-pids: the kernel leaves these out too */
		char *copy = xstrdup(filter_pids), *save = NULL;

		for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
			strbuf_addf(&sb, " && common_pid != %d", atoi(p));
		free(copy);
	}
	if (!on)
		return strbuf_detach(&sb);
	for (int nr = 0; nr < nr_calls; nr++)
		nr_on += on[nr];
	list_on = nr_on <= nr_calls / 2;
	strbuf_addstr(&sb, " && (");
	for (int nr = 0; nr < nr_calls; nr++) {
		if (on[nr] != list_on)
			continue;
		strbuf_addf(&sb, "%sid %s %d", sep, list_on ? "==" : "!=", nr);
		sep = list_on ? " || " : " && ";
	}
	if (!*sep)
		strbuf_addstr(&sb, list_on ? "id == -1" : "id != -1");
	strbuf_addch(&sb, ')');
	return strbuf_detach(&sb);
}

static int live_maps(struct target *t, struct cpu_map **cpus, struct thread_map **threads)
{
	if (target__create_maps(t, cpus, threads) != TARGET_MAPS_OK) {
		fprintf(stderr, "Couldn't create thread/CPU maps: %s\n", strerror(ESRCH));
		return -ESRCH;
	}
	if (cpu_map__is_any(*cpus) && !target__has_per_thread(t)) {
		cpu_map__delete(*cpus);
		*cpus = cpu_map__new_online();
	}
	return *cpus ? 0 : -ENOENT;
}

static int trace_live(struct trace_opts *o, const struct trace_config *cfg, FILE *out,
		      const bool *on, const char *events, const char **cmd_argv, int cmd_argc)
{
	struct trace_live l = { .out = out, .evswitch = &o->evswitch, .round.rs = &l.rs,
				.workload = cmd_argc > 0 };
	struct record_opts ropts;
	struct evlist evlist;
	struct workload wl = { .pid = -1 };
	struct cpu_map *cpus = NULL;
	struct thread_map *threads = NULL;
	struct parse_events_error perr = { .idx = -1 };
	struct drain_consumer c = { .ctx = &l, .record = live_collect, .round_end = live_round,
				    .tick = live_tick };
	struct evsel *failed = NULL;
	bool filter_failed = false, switch_missing = false;
	char *filter = live_filter(on, o->filter_pids);
	int err;

	ropts = o->call_graph_opts;
	ropts.target = o->target;
	ropts.raw_samples = true;
	/* before -D's delay, perf trace learns nothing of the tasks */
	ropts.no_tracking_dummy = true;
	/* perf follows no task that those of -p, -t or -u start */
	ropts.no_inherit = o->no_inherit || target__has_task(&o->target);
	/* the faults' data addresses and maps (dwarf chains ask for them too) */
	ropts.sample_address = ropts.sample_address || o->pf != NULL;
	ropts.freq = 0;
	ropts.interval = 1;
	ropts.user_interval = true;
	ropts.mmap_pages = o->mmap_pages ? o->mmap_pages : 1024;
	evlist__init(&evlist);
	/* -e's tracepoints come first, as in perf: opened before the syscalls'
	 * they fire first, a syscalls:sys_enter_* one before the call's entry */
	if (events && parse_events(&evlist, events, &perr)) {
		parse_events_error__print(&perr, events);
		err = -EINVAL;
		goto out;
	}
	if (!cfg->no_syscalls) {
		if (parse_events(&evlist, "raw_syscalls:sys_enter,raw_syscalls:sys_exit", &perr)) {
			parse_events_error__print(&perr, "raw_syscalls:sys_enter");
			err = -ENOENT;
			goto out;
		}
		evlist__for_each(&evlist, e)
			if (!strncmp(e->name, "raw_syscalls:", 13))
				e->filter = xstrdup(filter);
	}
	if (o->pf && parse_events(&evlist, !strcmp(o->pf, "maj") ? "major-faults" :
				  !strcmp(o->pf, "min") ? "minor-faults" :
				  "major-faults,minor-faults", &perr)) {
		parse_events_error__print(&perr, o->pf);
		err = -EINVAL;
		goto out;
	}
	if (o->sched && parse_events(&evlist, "sched:sched_stat_runtime", &perr)) {
		parse_events_error__print(&perr, "sched:sched_stat_runtime");
		err = -EINVAL;
		goto out;
	}
	if (o->cgroup) {
		char *bad_path;

		if (evlist__attach_cgroups(&evlist, (char *const *)&o->cgroup, 1, &bad_path)) {
			/* perf's words; its status stays 0 */
			fprintf(stderr, "no access to cgroup %s\n", bad_path);
			free(bad_path);
			err = 0;
			goto out;
		}
	}
	if (evswitch__init(&o->evswitch, &evlist, stderr)) {
		err = -ENOENT;
		switch_missing = true;
		goto out;
	}
	if (o->filter) {
		evlist__for_each(&evlist, e)
			if (!e->filter)
				e->filter = xstrdup(o->filter);
	}
	err = live_maps(&ropts.target, &cpus, &threads);
	if (err)
		goto out;
	if (cmd_argc) {
		err = workload__prepare(&wl, cmd_argv);
		if (err) {
			fprintf(stderr, "Couldn't run the workload!\n");
			goto out;
		}
		if (target__none(&ropts.target)) {
			thread_map__delete(threads);
			threads = thread_map__new_pid(wl.pid);
		}
	}
	drain__catch_signals(NULL, 0);
	if (o->verbose)
		print_setup_notes();
	record__config(&evlist, &ropts);
	/* the kernel's part of a syscall's chain is its exit path: left out
	 * unless asked for, as perf does */
	evlist__for_each(&evlist, e)
		if (o->call_graph && !o->kernel_syscall_graph &&
		    !strncmp(e->name, "raw_syscalls:", 13))
			e->attr.exclude_callchain_kernel = 1;
	err = record_session__open(&l.rs, &evlist, cpus, threads, &ropts, &failed,
				   &filter_failed);
	if (err) {
		char msg[512];

		if (filter_failed)
			fprintf(stderr, "failed to set filter \"%s\" on event %s with %d (%s)\n",
				failed->filter, failed->name, -err, strerror(-err));
		else if (failed) {
			evsel__open_strerror(failed, -err, ropts.target.cpu_list != NULL, msg,
					     sizeof(msg));
			fprintf(stderr, "Error:\n%s\n", msg);
		} else {
			fprintf(stderr, "failed to mmap with %d (%s)\n", -err, strerror(-err));
		}
		if (wl.pid > 0)
			workload__kill(&wl, SIGTERM);
		goto out_close;
	}
	if (o->verbose) {
		if (on && !cfg->no_syscalls)
			print_qualifier_note(on, o->syscalls_negated);
		/* each ring: its pages and the header page */
		fprintf(stderr, "mmap size %luB\n",
			(ropts.mmap_pages + 1UL) * (unsigned long)sysconf(_SC_PAGESIZE));
	}
	l.machine = machine__new();
	l.chains = (struct chain_ctx){ .machine = l.machine, .max_stack = max_stack(o),
				       .unwind = true, .kernel_notes = o->verbose, .out = out };
	trace__init(&l.trace, cfg, l.machine);
	l.trace.cfg.hide_thread = live_one_task(threads, !ropts.no_inherit);
	if (o->call_graph || o->pf)
		live_synthesize(&l, &ropts.target, threads, evlist.first, o->pf != NULL,
				o->proc_map_timeout);
	else if (ropts.target.pid || ropts.target.tid)
		live_name_tasks(&l, threads, evlist.first);
	l.formats = xcalloc(evlist.nr_entries, sizeof(*l.formats));
	evlist__for_each(&evlist, e) {
		struct syscall_tp *tp = !strcmp(e->name, "raw_syscalls:sys_enter") ? &l.enter :
					!strcmp(e->name, "raw_syscalls:sys_exit") ? &l.exit : NULL;
		char *sys = xstrdup(e->name), *name = strchr(sys, ':');

		if (tp) {
			tp->evsel = e;
			tp->id_off = 8;		/* raw_syscalls' "long id" */
			tp->data_off = 16;	/* "args[6]" / "long ret" */
		} else if (name) {
			*name++ = '\0';
			l.formats[e->idx] = syscall_table__tp_format(l.trace.table, sys, name);
			if (o->sched && !strcmp(e->name, "sched:sched_stat_runtime"))
				l.sched_runtime = e;
		}
		free(sys);
	}
	/* -s formats no call's arguments: no strings to read */
	if (!o->no_augment && l.enter.evsel && l.exit.evsel &&
	    (!cfg->summary_only || cfg->tp_events)) {
		l.augment = live_augment(l.trace.table, on, l.enter.evsel, l.exit.evsel,
					 o->verbose);
		l.trace.user_strings = l.augment ? live_user_strings : NULL;
		l.trace.user_strings_priv = l.augment;
		l.chains.augment = l.augment;
	}
	l.rs.drain.opts.workload = wl.pid > 0 ? &wl : NULL;
	/* perf trace asks the kernel for a wake-up per record, so a line shows
	 * as soon as its call returns, and pays a wake-up per syscall under a
	 * storm (ten times pcl's cost on bench/trace.sh).  Waking on a short
	 * beat as well as at the rings' watermark shows a quiet task's calls
	 * as promptly to a reader and costs nothing under a storm. */
	l.rs.drain.opts.tick_ms = TRACE_LIVE_BEAT_MS;
	err = drain__run(&l.rs.drain, &c);
	live_round(&l, 0);
	if (wl.pid > 0) {
		if (!workload__poll_exit(&wl))
			kill(wl.pid, SIGTERM);
		workload__wait(&wl);
		if (wl.exec_errno)	/* perf's words; its status stays 0 */
			fprintf(stderr, "%s: %s\n", cmd_argv[0], strerror(wl.exec_errno));
	}
	if (!err && cfg->summary)
		trace_summary__print(out, &l.trace);
	if (!err && o->tool_stats)
		trace_summary__print_tool_stats(out, &l.trace);
	trace__exit(&l.trace);
	augment__delete(l.augment);
	free(l.chains.frames);
	machine__delete(l.machine);
	record_round__exit(&l.round);
	free(l.formats);
out_close:
	record_session__close(&l.rs);
out:
	workload__close(&wl);
	thread_map__delete(threads);
	cpu_map__delete(cpus);
	evlist__release_cgroups(&evlist);
	evlist__exit(&evlist);
	free(filter);
	parse_events_error__exit(&perr);
	if (err)
		return err == -EINVAL ? PCL_EXIT_USAGE : switch_missing ? PCL_EXIT_ENOENT :
		       PCL_EXIT_FAILURE;
	return 0;
}

/* Conflicting targets and -u's user, checked as perf trace checks them
 * (a replay too): its words, without a newline, on the trace's output and
 * its status (its error number's low byte); 0 when all is well. */
static int check_target(struct target *t, FILE *out)
{
	struct target copy = *t;	/* validating drops the overridden ones */
	enum target_conflict conflict = target__validate(&copy);
	int err;

	if (conflict != TARGET_OK) {
		fprintf(out, "%s", target__conflict_str(conflict));
		return 239 + (int)conflict;
	}
	err = target__parse_uid(t);
	if (err == -1) {
		fprintf(out, "Invalid User: %s", t->uid_str);
		return 250;
	}
	if (err) {
		fprintf(out, "Problems obtaining information for user %s", t->uid_str);
		return 251;
	}
	return 0;
}

/* -e's entries: "sys:event" ones are tracepoints, the others syscalls. */
static void split_expr(const char *expr, char **syscalls, char **events)
{
	struct strbuf sc = STRBUF_INIT, ev = STRBUF_INIT;
	char *copy = xstrdup(expr), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct strbuf *sb = strchr(tok, ':') ? &ev : &sc;

		if (sb->len)
			strbuf_addch(sb, ',');
		strbuf_addstr(sb, tok);
	}
	free(copy);
	*syscalls = sc.len ? strbuf_detach(&sc) : NULL;
	*events = ev.len ? strbuf_detach(&ev) : NULL;
}

/* A BPF scriptlet in -e (perf's augmented_raw_syscalls.c, or a .o): perf
 * 6.1 compiles and loads it; pcl loads no BPF program.  Says so and
 * returns true for the first one. */
static bool refuse_bpf_scriptlet(const char *expr)
{
	char *copy = xstrdup(expr), *save = NULL;
	bool found = false;

	for (char *tok = strtok_r(copy, ",", &save); tok && !found;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(tok);

		if (len < 3 || tok[len - 2] != '.' || (tok[len - 1] != 'c' && tok[len - 1] != 'o'))
			continue;
		fprintf(stderr, "pcl trace: '%s' is a BPF program: pcl loads none, so pointer "
			"arguments (pathnames...) stay addresses; see pcl-trace(1)\n", tok);
		found = true;
	}
	free(copy);
	return found;
}

/* perf's complaint about a name that is no syscall: an event syntax error */
static void bad_syscall(const char *name)
{
	struct evlist evlist;
	struct parse_events_error err = { .idx = -1 };

	evlist__init(&evlist);
	if (parse_events(&evlist, name, &err))
		parse_events_error__print(&err, name);
	else
		fprintf(stderr, "pcl trace: '%s' is no syscall\n", name);
	parse_events_error__exit(&err);
	evlist__exit(&evlist);
}

/* perf trace record: perf record with trace's event set, leaving out the
 * recorder's own syscalls. */
static int trace_record(int argc, const char **argv)
{
	const char **rec_argv = xcalloc(argc + 12, sizeof(*rec_argv));
	char *filter = xasprintf("common_pid != %d", (int)getpid());
	int n = 0, ret;

	rec_argv[n++] = "record";
	rec_argv[n++] = "-R";
	rec_argv[n++] = "-m";
	rec_argv[n++] = "1024";
	rec_argv[n++] = "-c";
	rec_argv[n++] = "1";
	rec_argv[n++] = "-e";
	rec_argv[n++] = "raw_syscalls:sys_enter,raw_syscalls:sys_exit";
	rec_argv[n++] = "--filter";
	rec_argv[n++] = filter;
	ret = cmd_record_then(rec_argv, n, argc, argv);
	free(filter);
	free(rec_argv);
	return ret;
}

/* --call-graph into o->call_graph_opts, with perf's -v notes on it (when
 * -v came first: perf gives them as it parses the option); returns -1
 * after perf's complaint. */
static int parse_call_graph(struct trace_opts *o, const char *mode)
{
	struct record_opts *cg = &o->call_graph_opts;
	char buf[256];
	const char *msg;

	o->call_graph = mode;
	record_opts__init(cg);
	if (record_opts__parse_callgraph(cg, mode, buf, sizeof(buf), &msg)) {
		fprintf(stderr, "%s\n", msg);
		return -1;
	}
	if (!o->verbose)
		return 0;
	if (cg->call_graph == CALLGRAPH_DWARF)
		fprintf(stderr, "callchain: type DWARF\ncallchain: stack dump size %u\n",
			cg->stack_size);
	else
		fprintf(stderr, "callchain: type %s\n",
			cg->call_graph == CALLGRAPH_LBR ? "LBR" : "FP");
	return 0;
}

static int call_graph_option(const struct option *opt, const char *arg, bool unset)
{
	return unset ? 0 : parse_call_graph(opt->value, arg);
}

/* perfconfig's trace.* display keys, trace.no_inherit and
 * core.proc-map-timeout: defaults under the command line. */
static void read_config(struct trace_opts *o, struct trace_config *cfg)
{
	const char *value = perfconfig__default("trace.args_alignment");

	cfg->args_alignment = value ? atoi(value) : TRACE_ARGS_ALIGNMENT;
	cfg->hide_timestamp = !perfconfig__default_bool("trace.show_timestamp", true);
	cfg->hide_duration = !perfconfig__default_bool("trace.show_duration", true);
	/* values without their names would be ambiguous without the zeros */
	cfg->hide_arg_names = !perfconfig__default_bool("trace.show_arg_names", true);
	cfg->show_zeros = perfconfig__default_bool("trace.show_zeros", false) ||
			  cfg->hide_arg_names;
	cfg->show_prefix = perfconfig__default_bool("trace.show_prefix", false);
	o->no_inherit = perfconfig__default_bool("trace.no_inherit", false);
	value = perfconfig__default("trace.tracepoint_beautifiers");
	o->tep_print = value && !strcmp(value, "libtraceevent");
	if ((value = perfconfig__default("core.proc-map-timeout")))
		o->proc_map_timeout = (unsigned int)strtoul(value, NULL, 0);
}

int cmd_trace(int argc, const char **argv)
{
	struct trace_opts o = { .comm = true, .max_stack = MAX_STACK_UNSET,
				.proc_map_timeout = 500 };
	const struct option opts[] = {
		OPT_STRING('e', "event", &o.expr, "event",
			   "event/syscall selector. use 'perf list' to list available events"),
		OPT_STRING(0, "filter", &o.filter, "filter", "event filter"),
		OPT_BOOLEAN(0, "comm", &o.comm, "show the thread COMM next to its id"),
		OPT_BOOLEAN(0, "tool_stats", &o.tool_stats, "show tool stats"),
		OPT_STRING(0, "expr", &o.expr, "expr", "list of syscalls/events to trace"),
		OPT_STRING('o', "output", &o.output, "file", "output file name"),
		OPT_STRING('i', "input", &o.input, "file", "Analyze events in file"),
		OPT_STRING('p', "pid", &o.target.pid, "pid", "trace events on existing process id"),
		OPT_STRING('t', "tid", &o.target.tid, "tid", "trace events on existing thread id"),
		OPT_STRING(0, "filter-pids", &o.filter_pids, "CSV list of pids",
			   "pids to filter (by the kernel)"),
		OPT_BOOLEAN('a', "all-cpus", &o.target.system_wide,
			    "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &o.target.cpu_list, "cpu", "list of cpus to monitor"),
		OPT_BOOLEAN(0, "no-inherit", &o.no_inherit, "child tasks do not inherit counters"),
		/* pcl's own: out of -h, whose text stays perf's */
		{ .type = OPT_BOOL_T, .long_name = "no-augment", .value = &o.no_augment,
		  .help = "show pathname arguments as pointers", .flags = OPTF_HIDDEN },
		{ .type = OPT_UINT_T, .short_name = 'm', .long_name = "mmap-pages",
		  .value = &o.mmap_pages, .argh = "pages", .help = "number of mmap data pages" },
		OPT_STRING('u', "uid", &o.target.uid_str, "user", "user to profile"),
		OPT_STRING(0, "duration", &o.duration, "float",
			   "show only events with duration > N.M ms"),
		OPT_STRING(0, "map-dump", &o.map_dump, "BPF map", "BPF map to periodically dump"),
		OPT_BOOLEAN(0, "sched", &o.sched, "show blocking scheduler events"),
		OPT_INCR('v', "verbose", &o.verbose, "be more verbose"),
		OPT_BOOLEAN('T', "time", &o.full_time,
			    "Show full timestamp, not time relative to first start"),
		OPT_BOOLEAN(0, "failure", &o.failure, "Show only syscalls that failed"),
		OPT_BOOLEAN('s', "summary", &o.summary_only,
			    "Show only syscall summary with statistics"),
		OPT_BOOLEAN('S', "with-summary", &o.with_summary,
			    "Show all syscalls and summary with statistics"),
		OPT_BOOLEAN(0, "errno-summary", &o.errno_summary,
			    "Show errno stats per syscall, use with -s or -S"),
		OPT_STRING('F', "pf", &o.pf, "all|maj|min", "Trace pagefaults"),
		OPT_BOOLEAN(0, "syscalls", &o.syscalls, "Trace syscalls"),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_CALLBACK(0, "call-graph", &o, "record_mode[,record_size]",
			     RECORD_CALL_GRAPH_HELP, call_graph_option),
		OPT_BOOLEAN(0, "libtraceevent_print", &o.tep_print,
			    "Use libtraceevent to print the tracepoint arguments."),
		OPT_BOOLEAN(0, "kernel-syscall-graph", &o.kernel_syscall_graph,
			    "Show the kernel callchains on the syscall exit path"),
		OPT_UINTEGER(0, "max-events", &o.max_events,
			     "Set the maximum number of events to print, "
			     "exit after that is reached. "),
		OPT_UINTEGER(0, "min-stack", &o.min_stack,
			     "Set the minimum stack depth when parsing the callchain, "
			     "anything below the specified depth will be ignored."),
		OPT_UINTEGER(0, "max-stack", &o.max_stack,
			     "Set the maximum stack depth when parsing the callchain, "
			     "anything beyond the specified depth will be ignored. "
			     "Default: kernel.perf_event_max_stack or 127"),
		OPT_BOOLEAN(0, "sort-events", &o.sort_events,
			    "Sort batch of events before processing, use if getting out of "
			    "order events"),
		OPT_BOOLEAN(0, "print-sample", &o.print_sample,
			    "print the PERF_RECORD_SAMPLE PERF_SAMPLE_ info, for debugging"),
		OPT_UINTEGER(0, "proc-map-timeout", &o.proc_map_timeout,
			     "per thread proc mmap processing timeout in ms"),
		OPT_STRING('G', "cgroup", &o.cgroup, "name", "monitor event in cgroup name only"),
		OPT_INTEGER('D', "delay", &o.target.initial_delay,
			    "ms to wait before starting measurement after program start"),
		OPTS_EVSWITCH(&o.evswitch),
		OPT_END(),
	};
	struct trace_config cfg = { 0 };
	FILE *out = stderr;
	bool *on = NULL;
	char *tp_events = NULL;
	const char *added;
	int ret;

	read_config(&o, &cfg);
	record_opts__init(&o.call_graph_opts);
	argc = parse_options(argc, argv, opts, trace_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (o.cgroup && !o.target.system_wide) {
		fprintf(stderr, "  Error: cgroup monitoring only available in system-wide mode\n");
		usage_with_options_msg(trace_usage, opts);
		return PCL_EXIT_USAGE;
	}
	if (o.map_dump) {	/* pcl loads no BPF program: no map is there */
		fprintf(stderr, "ERROR: BPF map \"%s\" not found\n", o.map_dump);
		return PCL_EXIT_ERROR;
	}
	if (argc >= 1 && !strcmp(argv[0], "record"))
		return trace_record(argc - 1, argv + 1);
	cfg.summary = o.summary_only || o.with_summary;
	cfg.summary_only = o.summary_only;
	cfg.errno_summary = o.errno_summary;
	cfg.failure_only = o.failure;
	cfg.full_time = o.full_time;
	cfg.max_events = o.max_events;
	cfg.min_stack = o.min_stack;
	/* perf takes DWARF call chains when a stack option asks for them:
	 * traced live, unwound in a replay */
	if (!o.call_graph && (o.min_stack || o.max_stack != MAX_STACK_UNSET))
		parse_call_graph(&o, "dwarf");
	cfg.live = !o.input;
	if (o.duration)
		cfg.duration_ms = atof(o.duration);
	if (o.expr && refuse_bpf_scriptlet(o.expr))
		return PCL_EXIT_USAGE;	/* perf's status when it cannot build one */
	if (o.expr) {
		char *syscalls = NULL, *events = NULL, *bad;

		split_expr(o.expr, &syscalls, &events);
		o.syscalls_negated = syscalls && *syscalls == '!';
		if (syscalls) {
			on = syscall_filter__parse(syscalls, &bad);
			free(syscalls);
			if (!on) {
				bad_syscall(bad);
				free(bad);
				free(events);
				usage_with_options_msg(trace_usage, opts);
				return PCL_EXIT_USAGE;
			}
		}
		tp_events = events;
	}
	if (o.pf && strcmp(o.pf, "all") && strcmp(o.pf, "maj") && strcmp(o.pf, "min"))
		usage_error(trace_usage, opts, "Invalid pagefault option: %s", o.pf);
	/* perf traces syscalls when asked (--syscalls, syscall names in -e)
	 * and when nothing else is: tracepoints or -F alone leave them out,
	 * --no-syscalls alone does not */
	cfg.no_syscalls = !(o.syscalls || on || (!tp_events && !o.pf));
	/* trace.add_events: traced besides the command line's events, which
	 * alone decide whether syscalls are */
	if ((added = perfconfig__default("trace.add_events")) && refuse_bpf_scriptlet(added)) {
		free(on);
		free(tp_events);
		return PCL_EXIT_USAGE;
	}
	if (added) {
		char *all = tp_events ? xasprintf("%s,%s", tp_events, added) : xstrdup(added);

		free(tp_events);
		tp_events = all;
	}
	cfg.sched = o.sched;
	cfg.tp_events = tp_events != NULL;
	cfg.print_sample = o.print_sample;
	cfg.tep_print = o.tep_print;
	cfg.hide_comm = !o.comm;
	if (!o.input && !argc && target__none(&o.target))
		o.target.system_wide = true;	/* perf trace alone watches everything */
	if (o.output) {
		out = fopen(o.output, "w");
		if (!out) {
			fprintf(stderr, "pcl trace: %s: %m\n", o.output);
			free(on);
			return PCL_EXIT_FAILURE;
		}
	}
	ret = check_target(&o.target, out);
	if (!ret && o.input)
		ret = trace_replay(&o, &cfg, out);
	else if (!ret)
		ret = trace_live(&o, &cfg, out, on, tp_events, argv, argc);
	if (out != stderr)
		fclose(out);
	free(on);
	free(tp_events);
	return ret;
}
