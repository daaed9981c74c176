/* pcl top: perf top --stdio, a live profile refreshed every few seconds.
 *
 * The events are opened as record opens them and drained by the shared
 * loop (core/live/drain); each round's records are put in time order, the
 * side-band ones fed to a machine (which keeps exited tasks, so their
 * symbols stay resolvable) and the samples folded into report's histograms
 * (core/hist).  On every refresh the table is printed as perf top --stdio
 * prints it (ui/report-stdio), then every entry loses an eighth of its
 * period (-z: every entry goes), as perf ages its entries.
 *
 * Keys are perf's, read only from a terminal and never waited for: the
 * rings are drained while its menu or a prompt is up.  With stdin not a
 * terminal, perf 6.1 takes every end of file for a key and floods its key
 * menu; pcl ignores stdin.  What removed entries and exited tasks held is
 * freed at every refresh, so a long system-wide run keeps its size.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>

#include "builtin.h"
#include "core/analysis/annotate.h"
#include "core/data/perf-record.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/data/trace-data-write.h"
#include "core/data/trace-data.h"
#include "core/events/cgroup.h"
#include "core/events/evsel.h"
#include "core/events/parse-events.h"
#include "core/hist/callchain.h"
#include "core/hist/hist.h"
#include "core/live/drain.h"
#include "core/live/record.h"
#include "core/live/synthesize.h"
#include "core/live/target.h"
#include "core/symbols/machine.h"
#include "ui/annotate-launch.h"
#include "ui/annotate-stdio.h"
#include "ui/hist-browser.h"
#include "ui/percent-color.h"
#include "ui/report-stdio.h"
#include "ui/tui.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/perfconfig.h"
#include "util/strset.h"
#include "util/util.h"

static const char *const top_usage[] = { "pcl top [<options>]", NULL };

/* perf's screen: clear, then the header; what the header takes of the rows */
#define CONSOLE_CLEAR "\033[H\033[2J"
#define HEADER_LINES 5

struct top_opts {
	const char *sort_order, *field_order, *call_graph, *percent_limit, *freq;
	const char *column_widths, *percentage;
	const char *comms, *dsos, *syms;	/* --comms, --dsos, --symbols */
	const char *vmlinux, *kallsyms;	/* -k, --kallsyms: the kernel's symbols */
	const char *sym_annotate;	/* --sym-annotate, the 's' key */
	int count_filter;		/* -f: perf 6.1 only shows it in the key menu */
	bool dump_symtab;		/* -D: the DSOs and their symbols when 'q' quits */
	bool hierarchy, group;
	int delay_secs;
	int entries;			/* -E: 0 from the terminal's rows */
	int max_stack;
	int realtime_prio;
	unsigned int mmap_pages;
	uint64_t count;
	int children;			/* -1: default (on with call graphs) */
	bool browser;			/* a terminal without --stdio */
	bool stdio, tui, zero, hide_kernel, hide_user, show_nr_samples, show_total_period;
	bool overwrite, namespaces, no_inherit, callgraph_fp, no_bpf_event, ignore_vmlinux;
	bool stitch_lbr;
	const char *timeout;		/* --timeout seconds (pcl's, for scripts) */
	struct target target;
};

struct top {
	struct top_opts *o;
	struct evlist evlist;			/* -e's events as they come, then top's */
	/* -G: the n-th name is the n-th event's cgroup (as record's -G) */
	char **cgroup_names;
	int nr_cgroup_names, nr_cgroup_slots;
	struct sample_filter filter;		/* --comms, --dsos, --symbols */
	struct record_session rs;
	struct record_opts ropts;
	struct drain_consumer consumer;		/* for the loop and --overwrite's reads */
	struct machine *machine;
	struct evsel *sym_evsel;		/* the event shown: the first */
	int nr_user_events;			/* without the tracking one */
	struct hist_opts hopts;
	struct strset strings;
	struct callchain_store *store;		/* renewed at every refresh */
	struct cc_resolver resolver;
	struct callchain_cursor cursor;
	struct hists **hists;			/* by event index, the tracking one left out */
	struct hist_opts view_opts;		/* --hierarchy: the levels shown */
	bool need_cursor;
	/* the trace key: the tracepoints' print formats, as a recording's */
	struct tep_handle *tep;
	struct trace_seq seq;
	struct record_round round;		/* a round's records, copied */
	uint64_t last_time;			/* newest sample time seen */
	/* the header's counts since the last refresh, and in all */
	uint64_t samples, kernel_samples, exact_samples;
	uint64_t user_samples, guest_kernel_samples, guest_user_samples;	/* pcl kvm top */
	uint64_t lost, lost_total, drop, drop_total;
	uint64_t lost_chunks, lost_chunks_warned;
	/* the clock of refreshes */
	struct timespec next_refresh;
	bool refreshed;
	/* the keys, from a terminal only */
	bool keys;
	struct termios saved_tty, raw_tty;
	enum { KEYS_IDLE, KEYS_MENU, KEYS_LINE } key_state;
	int prompt_key;				/* the key whose line is being read */
	int annotate_min_pcnt;			/* 'F' */
	char *sym_annotate_owned;		/* the 's' key's answer */
	struct annotate_samples annotated;	/* --sym-annotate's samples by address */
	/* the browser's: every symbol's samples by address ('a'), the
	 * --hierarchy view shown until the next refresh, 'f' */
	struct annotate_launcher *launcher;
	struct hists *view;
	bool events_off;
	struct hist_browser_opts *browser_opts;
	bool quit;
	FILE *out;
};

/* --- symbols perf top leaves out ------------------------------------------- */

/* The kernel's idle loops (perf skips their samples: an idle CPU is not a
 * hot spot); sorted for bsearch. */
static const char *const idle_symbols[] = {
	"acpi_idle_do_entry",
	"acpi_processor_ffh_cstate_enter",
	"arch_cpu_idle",
	"cpu_idle",
	"cpu_startup_entry",
	"default_idle",
	"enter_idle",
	"exit_idle",
	"idle_cpu",
	"intel_idle",
	"mwait_idle",
	"mwait_idle_with_hints",
	"mwait_idle_with_hints.constprop.0",
	"native_safe_halt",
	"poll_idle",
	"ppc64_runlatch_off",
	"pseries_dedicated_idle_sleep",
	"psw_idle",
	"psw_idle_exit",
};

static int name_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static bool idle_symbol(const struct addr_location *al)
{
	const char *name;

	/* perf marks the kernel's own symbols only, not the modules' */
	if (!al->sym || al->level != 'k' || !al->dso ||
	    strcmp(al->dso->long_name, "[kernel.kallsyms]"))
		return false;
	name = al->sym->name;
	if (*name == '.')
		name++;
	return bsearch(name, idle_symbols, ARRAY_SIZE(idle_symbols), sizeof(*idle_symbols),
		       name_cmp) != NULL;
}

/* --- records ----------------------------------------------------------------- */

static int collect(void *ctx, int cpu, const struct perf_event_header *rec)
{
	struct top *t = ctx;

	record_round__add(&t->round, rec);
	return 0;
}

/* A sample perf would have taken too late: older than a refresh behind the
 * newest one (perf top's "drop"). */
static bool too_late(struct top *t, uint64_t time)
{
	if (time > t->last_time)
		t->last_time = time;
	return time + (uint64_t)t->o->delay_secs * 1000000000ULL < t->last_time;
}

/* The thread of a sample, named from /proc when no COMM told its name (a
 * lost one, or a task started between the synthesis and the events). */
static struct thread *sample_thread(struct top *t, pid_t pid, pid_t tid)
{
	struct thread *thread = machine__findnew_thread(t->machine, pid, tid);
	char path[64], *comm;

	if (thread->comm_set || pid <= 0)
		return thread;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	comm = read_file_str(path);
	if (comm) {
		machine__process_comm(t->machine, pid, tid, strrtrim(comm), false);
		free(comm);
	}
	return thread;
}

/* The trace key of a tracepoint sample: its print format's text. */
static const char *trace_text(struct top *t, const struct evsel *evsel,
			      const struct perf_sample *sample)
{
	struct tep_event *format = tep_find_event(t->tep, (int)evsel->attr.config);
	struct tep_record rec = {
		.cpu = (int)sample->cpu,
		.size = (int)sample->raw_size,
		.data = (void *)sample->raw_data,
	};

	if (!format || !sample->raw_data)
		return strset_intern(&t->strings, "");
	trace_seq_reset(&t->seq);
	tep_print_event(t->tep, &t->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&t->seq);
	return strset_intern_len(&t->strings, t->seq.buffer, t->seq.len);
}

/* The tracepoints' formats, through the tracing data a recording would
 * hold, so that the trace key reads as report's on that recording. */
static void load_formats(struct top *t, const struct evlist *evlist)
{
	struct strbuf sb = STRBUF_INIT;
	const char *err;
	size_t off;

	if (!t->hopts.layout.has_trace || !trace_data__needed(evlist))
		return;
	if (!trace_data__build(&sb, evlist, NULL))
		t->tep = trace_data__parse(sb.buf, sb.len, &err, &off);
	strbuf_release(&sb);
	trace_seq_init(&t->seq);
}

static void add_sample(struct top *t, struct evsel *evsel, const struct perf_sample *sample)
{
	struct addr_location al;
	struct thread *thread;
	struct hist_sample hs;

	if (sample->misc & PERF_RECORD_MISC_EXACT_IP)
		t->exact_samples++;
	thread = sample_thread(t, (pid_t)sample->pid, (pid_t)sample->tid);
	memset(&al, 0, sizeof(al));
	machine__resolve(t->machine, thread, sample->cpumode, sample->ip, &al);
	if (idle_symbol(&al) || evsel->idx >= t->nr_user_events)
		return;
	hs = hist_sample__resolved(thread, &al, sample, &t->strings);
	hs.filtered = (sample_filter__thread(&t->filter, thread) ? HIST_FILTER_THREAD : 0) |
		      (sample_filter__dso(&t->filter, &al) ? HIST_FILTER_DSO : 0) |
		      (sample_filter__symbol(&t->filter, &al) ? HIST_FILTER_SYMBOL : 0);
	hs.weight = sample->weight;
	hs.map_size = al.map ? al.map->end - al.map->start : 0;
	if (t->tep && evsel->attr.type == PERF_TYPE_TRACEPOINT)
		hs.trace = trace_text(t, evsel, sample);
	if (t->o->sym_annotate && al.sym && evsel == t->sym_evsel &&
	    !strcmp(al.sym->name, t->o->sym_annotate))
		annotate_samples__add(&t->annotated, al.dso, al.sym, 0, al.addr, sample->period);
	if (t->launcher && al.map && al.sym)
		annotate_samples__add(&t->launcher->samples, al.dso, al.sym, evsel->idx, al.addr,
				      sample->period);
	if (t->need_cursor && sample->callchain) {
		callchain_cursor__resolve(&t->cursor, &t->resolver, thread, &evsel->attr, sample);
		hs.cursor = &t->cursor;
	}
	hists__add_sample(t->hists[evsel->idx], &hs);
}

static void dispatch(struct top *t, const struct perf_event_header *rec)
{
	struct perf_sample sample;
	const char *err;
	struct evsel *evsel;

	switch (rec->type) {
	case PERF_RECORD_LOST: {
		uint64_t lost = ((const struct perf_rec_lost *)(const void *)rec)->lost;

		t->lost += lost;
		t->lost_total += lost;
		t->lost_chunks++;
		return;
	}
	case PERF_RECORD_LOST_SAMPLES: {
		uint64_t lost = ((const struct perf_rec_lost_samples *)(const void *)rec)->lost;

		t->lost += lost;
		t->lost_total += lost;
		return;
	}
	case PERF_RECORD_SAMPLE:
		break;
	default:
		/* perf skips the side-band of the side it hides */
		if ((t->o->hide_kernel && (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
					  PERF_RECORD_MISC_KERNEL) ||
		    (t->o->hide_user && (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
					PERF_RECORD_MISC_USER))
			return;
		machine__take_record(t->machine, rec);
		return;
	}
	if (perf_sample__parse(record_session__attr_of(&t->rs, rec), rec, &sample, &err))
		return;
	evsel = record_session__evsel_of_id(&t->rs, sample.id);
	if (!evsel)
		return;
	if ((evsel->attr.sample_type & PERF_SAMPLE_TIME) && too_late(t, sample.time)) {
		t->drop++;
		t->drop_total++;
		return;
	}
	t->samples++;
	switch (sample.cpumode) {
	case PERF_RECORD_MISC_USER:
		t->user_samples++;
		if (t->o->hide_user)
			return;
		break;
	case PERF_RECORD_MISC_KERNEL:
		t->kernel_samples++;
		if (t->o->hide_kernel)
			return;
		break;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		t->guest_kernel_samples++;
		return;
	case PERF_RECORD_MISC_GUEST_USER:
		t->guest_user_samples++;
		return;
	default:
		return;
	}
	/* guests' samples are only counted (pcl kvm top does not show them) */
	add_sample(t, evsel, &sample);
}

static int round_end(void *ctx, size_t bytes)
{
	struct top *t = ctx;

	record_round__sort(&t->round);
	for (size_t i = 0; i < t->round.nr; i++)
		dispatch(t, record_round__at(&t->round, i));
	record_round__reset(&t->round);
	return 0;
}

/* --- the screen -------------------------------------------------------------- */

/* perf's terminal size: $LINES and $COLUMNS, else stdout's, else 25x80. */
static void term_size(int *rows, int *cols)
{
	const char *lines = getenv("LINES"), *columns = getenv("COLUMNS");
	struct winsize ws;

	if (lines && columns && atoi(lines) > 0 && atoi(columns) > 0) {
		*rows = atoi(lines);
		*cols = atoi(columns);
		return;
	}
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
		return;
	}
	*rows = 25;
	*cols = 80;
}

/* A side's share of the samples as perf kvm top computes it: in single
 * precision, and NaN (printed -nan) when there were none. */
static double guest_share(float per_sec, uint64_t side, int delay_secs)
{
	float side_per_sec = (float)(side / (uint64_t)delay_secs);

	return 100.0 - (100.0 * ((per_sec - side_per_sec) / per_sec));
}

/* pcl kvm top's first line: each side's share, no lost or drop counts */
static void print_guest_counts(struct top *t, float per_sec, float exact_pct)
{
	int delay = t->o->delay_secs;

	fprintf(t->out, "   PerfTop:%8.0f irqs/sec  kernel:%4.1f%% us:%4.1f%% guest kernel:%4.1f%%"
		" guest us:%4.1f%% exact: %4.1f%% [", per_sec,
		guest_share(per_sec, t->kernel_samples, delay),
		guest_share(per_sec, t->user_samples, delay),
		guest_share(per_sec, t->guest_kernel_samples, delay),
		guest_share(per_sec, t->guest_user_samples, delay), exact_pct);
}

static void print_header(struct top *t)
{
	const struct target *tg = &t->ropts.target;
	/* perf's arithmetic: whole samples per second, single precision */
	float per_sec = 0, kernel_per_sec = 0, kernel_pct = 0, exact_pct = 0;
	int nr_cpus = t->rs.cpus ? t->rs.cpus->nr : 0;

	if (t->samples) {
		per_sec = (float)(t->samples / (uint64_t)t->o->delay_secs);
		kernel_per_sec = (float)(t->kernel_samples / (uint64_t)t->o->delay_secs);
		exact_pct = (float)(100.0 * t->exact_samples / t->samples);
		if (per_sec)
			kernel_pct = (float)(100.0 * kernel_per_sec / per_sec);
	}
	if (parse_events__guest)
		print_guest_counts(t, per_sec, exact_pct);
	else
		fprintf(t->out, "   PerfTop:%8.0f irqs/sec  kernel:%4.1f%%  exact: %4.1f%% lost: %"
			PRIu64 "/%" PRIu64 " drop: %" PRIu64 "/%" PRIu64 " [", per_sec, kernel_pct,
			exact_pct, t->lost, t->lost_total, t->drop, t->drop_total);
	if (t->nr_user_events == 1)
		fprintf(t->out, "%" PRIu64 "%s ", (uint64_t)t->sym_evsel->attr.sample_period,
			t->ropts.freq ? "Hz" : "");
	fprintf(t->out, "%s], ", t->sym_evsel->name);
	if (tg->pid)
		fprintf(t->out, " (target_pid: %s", tg->pid);
	else if (tg->tid)
		fprintf(t->out, " (target_tid: %s", tg->tid);
	else if (tg->uid_str)
		fprintf(t->out, " (uid: %s", tg->uid_str);
	else
		fputs(" (all", t->out);
	if (tg->cpu_list)
		fprintf(t->out, ", CPU%s: %s)\n", nr_cpus > 1 ? "s" : "", tg->cpu_list);
	else if (tg->tid || tg->pid)	/* perf profiles a process's threads alone */
		fputs(")\n", t->out);
	else
		fprintf(t->out, ", %d CPU%s)\n", nr_cpus, nr_cpus > 1 ? "s" : "");
	t->samples = t->kernel_samples = t->exact_samples = 0;
	t->user_samples = t->guest_kernel_samples = t->guest_user_samples = 0;
	t->lost = t->drop = 0;
}

/* --- what a long run frees ------------------------------------------------- */

/* The call graphs left after ageing move to a new store, their frames to a
 * new resolver: the nodes and frames only removed entries and decayed
 * stacks held go with the old ones (a system-wide run meets new
 * addresses with every new process). */
static void renew_callchains(struct top *t)
{
	struct callchain_store *store = xmalloc(sizeof(*store));
	struct cc_resolver resolver;

	callchain_store__init(store);
	cc_resolver__init_like(&resolver, &t->resolver);
	for (int i = 0; i < t->nr_user_events; i++)
		hists__move_callchains(t->hists[i], store, &resolver);
	callchain_store__exit(t->store);
	free(t->store);
	t->store = store;
	cc_resolver__exit(&t->resolver);
	t->resolver = resolver;
}

static void mark_thread(const struct hist_entry *he, void *arg)
{
	hashmap_u64_put(arg, (uintptr_t)he->thread, he->thread);
}

static bool thread_shown(const struct thread *thread, void *arg)
{
	return hashmap_u64_get(arg, (uintptr_t)thread) != NULL;
}

/* Tasks that exited and that no entry names any more go, with their maps. */
static void prune_threads(struct top *t)
{
	struct hashmap shown;

	hashmap_init(&shown, sizeof(void *));
	for (int i = 0; i < t->nr_user_events; i++)
		hists__for_each_entry(t->hists[i], mark_thread, &shown);
	machine__prune_threads(t->machine, thread_shown, &shown);
	hashmap_release(&shown);
}

struct symbol_search {
	const char *name;
	struct symbol *found;
};

static void match_symbol(const struct hist_entry *he, void *arg)
{
	struct symbol_search *ss = arg;

	if (!ss->found && he->sym && !strcmp(he->sym->name, ss->name))
		ss->found = he->sym;
}

/* The symbol of an entry of the event shown, by name, or NULL. */
static struct symbol *active_symbol(struct top *t, const char *name)
{
	struct symbol_search ss = { name, NULL };

	hists__for_each_entry(t->hists[t->sym_evsel->idx], match_symbol, &ss);
	return ss.found;
}

/* --sym-annotate (or the 's' key): the symbol's annotation instead of the
 * table, as perf's details view: its header, then the disassembly with
 * each instruction's share of the symbol's samples, cut to the entries
 * shown.  Returns false while the symbol has no entry (the table then). */
static bool show_details(struct top *t, int max_lines)
{
	struct hists *h = t->hists[t->sym_evsel->idx];
	struct symbol *sym = t->o->sym_annotate ? active_symbol(t, t->o->sym_annotate) : NULL;
	struct annotated_sym *as = sym ? annotate_samples__find(&t->annotated, sym) : NULL;
	struct annotate_print_opts popts = { .percent_type = PERCENT_PERIOD_LOCAL };
	struct annotate_printer p = { .opts = &popts };
	struct annotate_totals totals = { .period = h->stats.total_period };
	struct disasm_opts dis = { .raw = false };
	const char *path = as ? dso__image_path(as->dso) : NULL;
	struct disasm_file *f;
	struct annotation a;
	char *text = NULL, *err = NULL, *line, *next;
	size_t len = 0;
	int evidx = 0, shown = 0, more = 0;

	if (!path)
		return false;
	f = disasm_file__open(path, false, &err);
	if (!f && disasm_unavailable())	/* why, in place of the annotation */
		fprintf(t->out, "Couldn't annotate %s: %s\n", sym->name, err);
	free(err);
	if (!f)
		return disasm_unavailable() != NULL;
	fprintf(t->out, "Showing %s for %s\n", t->sym_evsel->name, sym->name);
	fprintf(t->out, "  Events  Pcnt (>=%d%%)\n", t->annotate_min_pcnt);
	annotation__build(&a, f, &dis, as, &evidx, 1, &totals);
	p.fp = open_memstream(&text, &len);
	annotate_stdio__print(&p, &a, as->dso->short_name, t->sym_evsel->name,
			      annotated_sym__hist(as, 0)->nr_samples);
	fclose(p.fp);
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (shown++ < max_lines)
			fwrite(line, 1, (size_t)(next - line), t->out);
		else
			more++;
	}
	if (more)
		fprintf(t->out, "%d lines not displayed, maybe increase display entries [e]\n",
			more);
	free(text);
	annotation__release(&a);
	disasm_file__close(f);
	return true;
}

/* The annotated symbol's samples age as its entry does. */
static void decay_details(struct top *t)
{
	struct symbol *sym = t->o->sym_annotate ? active_symbol(t, t->o->sym_annotate) : NULL;
	struct annotated_sym *as = sym ? annotate_samples__find(&t->annotated, sym) : NULL;
	struct sym_hist *sh = as && as->nr_hists ? &as->hists[0] : NULL;

	if (!sh || !sh->samples)
		return;
	sh->nr_samples = t->o->zero ? 0 : sh->nr_samples * 7 / 8;
	sh->period = t->o->zero ? 0 : sh->period * 7 / 8;
	for (uint64_t i = 0; i < sym->end - sym->start; i++) {
		sh->samples[i] = t->o->zero ? 0 : sh->samples[i] * 7 / 8;
		sh->periods[i] = t->o->zero ? 0 : sh->periods[i] * 7 / 8;
	}
}

/* -E, else what the terminal's rows leave (perf's print_entries). */
static int print_entries(const struct top *t)
{
	int rows, cols;

	if (t->o->entries)
		return t->o->entries;
	term_size(&rows, &cols);
	return rows - HEADER_LINES;
}

/* The histogram of the event shown, sorted for output: --group links the
 * members' entries to the leader's, --hierarchy shows a view of levels
 * (the caller deletes it) over the flat entries, which keep ageing. */
static struct hists *sort_hists(struct top *t)
{
	struct hists *h = t->hists[t->sym_evsel->idx], *view;

	if (t->hopts.event_group && h->nr_members > 1) {
		for (int i = 0; i < h->nr_members - 1; i++) {
			hists__collapse(h->members[i]);
			hists__output_resort(h->members[i]);
		}
		hists__collapse(h);
		for (int i = 0; i < h->nr_members - 1; i++)
			hists__link_group(h, h->members[i], i + 1);
	}
	if (!t->o->hierarchy) {
		hists__output_resort(h);
		return h;
	}
	view = hists__new(&t->view_opts, h->evsel, &t->strings, t->store);
	hists__hierarchy_view(view, h);
	hists__output_resort(view);
	return view;
}

/* What the next refresh shows: the samples to come and 7/8 of these (-z:
 * none); what only the entries that went held goes with them.  The
 * browser's -z entries left the tree when shown: the tree holds only
 * new samples. */
static void age(struct top *t, bool browsing)
{
	for (int i = 0; i < t->nr_user_events; i++) {
		if (!t->o->zero)
			hists__decay(t->hists[i], t->o->hide_user, t->o->hide_kernel);
		else if (!browsing)
			hists__delete_entries(t->hists[i]);
	}
	if (t->need_cursor)
		renew_callchains(t);
	prune_threads(t);
}

static struct report_stdio stdio_setup(const struct top *t)
{
	return (struct report_stdio){
		.socket_filter = -1,
		.skip_first_sym = t->o->sort_order && !strncmp(t->o->sort_order, "sym", 3),
	};
}

static void refresh(struct top *t)
{
	struct report_stdio rs = stdio_setup(t);
	int rows, cols, printed = 0;
	size_t max_rows;
	struct hists *shown;

	term_size(&rows, &cols);
	fputs(CONSOLE_CLEAR "\n", t->out);
	print_header(t);
	fprintf(t->out, "%.*s\n", cols - 1,
		"---------------------------------------------------------------------------------"
		"---------------------------------------------------------------------------------"
		"---------------------------------------------------------------------------------");
	if (!t->ropts.overwrite && t->lost_chunks != t->lost_chunks_warned) {
		t->lost_chunks_warned = t->lost_chunks;
		fprintf(t->out, "%sWARNING: LOST %" PRIu64 " chunks, Check IO/CPU overload%s",
			t->hopts.color ? "\033[31m" : "", t->lost_chunks,
			t->hopts.color ? "\033[m" : "");
		printed++;
	}
	max_rows = (size_t)(print_entries(t) - printed);
	shown = sort_hists(t);
	if ((int)max_rows > 0 && !t->o->hierarchy)	/* a view's widths are its levels' */
		hists__recalc_col_len(shown, max_rows);
	fputc('\n', t->out);
	rs.max_rows = (int)max_rows > 0 ? max_rows : 0;
	rs.max_width = cols - 2;
	if ((int)max_rows > 0 && !show_details(t, (int)max_rows))
		report_stdio__hists(t->out, shown, &rs, false);
	fflush(t->out);
	decay_details(t);
	if (shown != t->hists[t->sym_evsel->idx])
		hists__delete(shown);
	age(t, false);
}

static bool due(const struct timespec *now, const struct timespec *at)
{
	return now->tv_sec > at->tv_sec || (now->tv_sec == at->tv_sec && now->tv_nsec >= at->tv_nsec);
}

/* -D, when 'q' quits: every DSO and the symbols it loaded, in perf's words. */
static void dump_dso(struct dso *dso, void *arg)
{
	FILE *fp = arg;
	const struct symbol *syms;
	bool loaded;
	size_t nr = dso__loaded_symbols(dso, &syms, &loaded);

	fprintf(fp, "dso: %s (", dso->short_name);
	if (strcmp(dso->short_name, dso->long_name))
		fprintf(fp, "%s, ", dso->long_name);
	fprintf(fp, "%sloaded, ", loaded ? "" : "NOT ");
	for (int i = 0; i < dso->build_id_size; i++)
		fprintf(fp, "%02x", dso->build_id[i]);
	fputs(")\n", fp);
	for (size_t i = 0; i < nr; i++)
		fprintf(fp, " %" PRIx64 "-%" PRIx64 " %c %s\n", syms[i].start, syms[i].end,
			syms[i].binding == STB_GLOBAL ? 'g' :
			syms[i].binding == STB_LOCAL ? 'l' : 'w', syms[i].name);
}

static void dump_symtab(struct top *t)
{
	machine__for_each_dso(t->machine, dump_dso, stderr);
}

/* --- keys (perf top --stdio's, from a terminal only) --------------------------- */

static bool key_mapped(const struct top *t, int c)
{
	if (c == 'E')
		return t->nr_user_events > 1;
	return c > 0 && strchr("defzqQKUFsS", c) != NULL;
}

static void print_mapped_keys(struct top *t)
{
	FILE *out = t->out;

	fputs("\nMapped keys:\n", out);
	fprintf(out, "\t[d]     display refresh delay.             \t(%d)\n", t->o->delay_secs);
	fprintf(out, "\t[e]     display entries (lines).           \t(%d)\n", print_entries(t));
	if (t->nr_user_events > 1)
		fprintf(out, "\t[E]     active event counter.              \t(%s)\n",
			t->sym_evsel->name);
	fprintf(out, "\t[f]     profile display filter (count).    \t(%d)\n", t->o->count_filter);
	fprintf(out, "\t[F]     annotate display filter (percent). \t(%d%%)\n",
		t->annotate_min_pcnt);
	fprintf(out, "\t[s]     annotate symbol.                   \t(%s)\n",
		t->o->sym_annotate ? t->o->sym_annotate : "NULL");
	fputs("\t[S]     stop annotation.\n", out);
	fprintf(out, "\t[K]     hide kernel symbols.             \t(%s)\n",
		t->o->hide_kernel ? "yes" : "no");
	fprintf(out, "\t[U]     hide user symbols.               \t(%s)\n",
		t->o->hide_user ? "yes" : "no");
	fprintf(out, "\t[z]     toggle sample zeroing.             \t(%d)\n", t->o->zero ? 1 : 0);
	fputs("\t[qQ]    quit.\n", out);
}

/* A prompt's answer is read as a line, echoed, as perf reads it.  The
 * terminal reads lines before the prompt shows: an answer typed as soon
 * as it shows, and a key typed after it, would else come in raw mode and
 * read as one line, the key lost in the answer. */
static void prompt(struct top *t, int key, const char *msg)
{
	tcsetattr(STDIN_FILENO, TCSANOW, &t->saved_tty);
	fprintf(t->out, "\n%s: ", msg);
	fflush(t->out);
	t->key_state = KEYS_LINE;
	t->prompt_key = key;
}

/* perf's integers: digits only, else nothing changes. */
static bool parse_digits(const char *line, int *v)
{
	if (!*line || strspn(line, "0123456789") != strlen(line))
		return false;
	*v = (int)strtoul(line, NULL, 10);
	return true;
}

static void answer(struct top *t, char *line)
{
	int v;

	line[strcspn(line, "\n")] = '\0';
	switch (t->prompt_key) {
	case 'd':
		if (parse_digits(line, &v))
			t->o->delay_secs = v < 1 ? 1 : v;
		break;
	case 'e':
		if (parse_digits(line, &v))
			t->o->entries = v;
		break;
	case 'f':
		if (parse_digits(line, &v))
			t->o->count_filter = v;
		break;
	case 'F':
		if (parse_digits(line, &v) && v <= 100)
			t->annotate_min_pcnt = v;
		break;
	case 'E':
		v = 0;
		parse_digits(line, &v);
		if (v >= t->nr_user_events) {
			t->sym_evsel = t->rs.evlist->first;
			fprintf(stderr, "Sorry, no such event, using %s.\n", t->sym_evsel->name);
			break;
		}
		evlist__for_each(t->rs.evlist, e)
			if (e->idx == v)
				t->sym_evsel = e;
		break;
	case 's':
		if (!active_symbol(t, line)) {
			fprintf(stderr, "Sorry, %s is not active.\n", line);
			break;
		}
		free(t->sym_annotate_owned);
		t->o->sym_annotate = t->sym_annotate_owned = xstrdup(line);
		break;
	}
}

/* A mapped key's action; the ones asking for a number or a name prompt. */
static void handle_key(struct top *t, int c)
{
	switch (c) {
	case 'd':
		prompt(t, c, "Enter display delay");
		break;
	case 'e':
		prompt(t, c, "Enter display entries (lines)");
		break;
	case 'E':
		fputs("\nAvailable events:", stderr);
		evlist__for_each(t->rs.evlist, e)
			if (e->idx < t->nr_user_events)
				fprintf(stderr, "\n\t%d %s", e->idx, e->name);
		prompt(t, c, "Enter details event counter");
		break;
	case 'f':
		prompt(t, c, "Enter display event count filter");
		break;
	case 'F':
		prompt(t, c, "Enter details display event filter (percent)");
		break;
	case 's':
		prompt(t, c, "Enter details symbol");
		break;
	case 'S':
		t->o->sym_annotate = NULL;
		break;
	case 'K':
		t->o->hide_kernel = !t->o->hide_kernel;
		break;
	case 'U':
		t->o->hide_user = !t->o->hide_user;
		break;
	case 'z':
		t->o->zero = !t->o->zero;
		break;
	case 'q':
	case 'Q':
		fputs("exiting.\n", t->out);
		if (t->o->dump_symtab)
			dump_symtab(t);
		t->quit = true;
		break;
	}
}

/* Reads what the terminal has without waiting.  Another key than perf's
 * opens its menu, which waits for a selection: meanwhile the rings are
 * still drained but the screen stays.  Returns true when the screen is
 * to be drawn again now (perf redraws after every key). */
static bool read_keys(struct top *t)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	bool redraw = false;

	while (!t->quit && poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN)) {
		if (t->key_state == KEYS_LINE) {
			char line[256];
			ssize_t n = read(STDIN_FILENO, line, sizeof(line) - 1);

			tcsetattr(STDIN_FILENO, TCSANOW, &t->raw_tty);
			t->key_state = KEYS_IDLE;
			if (n <= 0)
				break;
			line[n] = '\0';
			answer(t, line);
			redraw = true;
			continue;
		}
		unsigned char c;

		if (read(STDIN_FILENO, &c, 1) != 1)
			break;
		if (key_mapped(t, c)) {
			t->key_state = KEYS_IDLE;
			handle_key(t, c);
		} else if (t->key_state == KEYS_MENU) {
			t->key_state = KEYS_IDLE;	/* an unmapped key: back to the table */
		} else {
			print_mapped_keys(t);
			fputs("\nEnter selection, or unmapped key to continue: ", t->out);
			fflush(t->out);
			t->key_state = KEYS_MENU;
			continue;
		}
		redraw = t->key_state == KEYS_IDLE;
	}
	return redraw;
}

static int tick(void *ctx, bool stopping)
{
	struct top *t = ctx;
	struct timespec now;

	bool redraw = false;

	if (stopping)
		return 1;
	if (t->keys)
		redraw = read_keys(t);
	if (t->quit)
		return 1;
	if (t->key_state != KEYS_IDLE)	/* the menu or a prompt is on the screen */
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (t->refreshed && !redraw && !due(&now, &t->next_refresh))
		return 0;
	/* --overwrite: the rings keep the newest records; read them now */
	if (t->ropts.overwrite && t->refreshed)
		drain__round(&t->rs.drain, &t->consumer);
	refresh(t);
	t->refreshed = true;
	t->next_refresh = now;
	t->next_refresh.tv_sec += t->o->delay_secs;
	return 0;
}

/* --- the browser (a terminal, without --stdio) --------------------------------- */

/* Under the browser's dialogs and the annotate browser: the rings are read
 * (the samples go into the histograms, no entry goes). */
static void browser_read(void *ctx)
{
	struct top *t = ctx;

	if (!t->events_off)
		drain__round(&t->rs.drain, &t->consumer);
}

/* While the browser waits for keys: the rings are read, and a refresh is
 * due every -d seconds unless 'f' stopped the events. */
static bool browser_due(void *ctx)
{
	struct top *t = ctx;
	struct timespec now;

	if (t->events_off)
		return false;
	browser_read(t);
	clock_gettime(CLOCK_MONOTONIC, &now);
	return due(&now, &t->next_refresh);
}

static void mark_symbol(const struct hist_entry *he, void *arg)
{
	if (he->sym)
		hashmap_u64_put(arg, (uintptr_t)he->sym, he->sym);
}

static bool symbol_shown(const struct symbol *sym, void *arg)
{
	return hashmap_u64_get(arg, (uintptr_t)sym) != NULL;
}

/* The samples by address of symbols no entry names any more go. */
static void prune_annotations(struct top *t)
{
	struct hashmap shown;

	hashmap_init(&shown, sizeof(void *));
	for (int i = 0; i < t->nr_user_events; i++)
		hists__for_each_entry(t->hists[i], mark_symbol, &shown);
	annotate_samples__keep(&t->launcher->samples, symbol_shown, &shown);
	hashmap_release(&shown);
}

/* perf top's browser ages the entries, then sorts them: the browser has
 * let go of them, so the ones that go can go at once. */
static struct hists *browser_resort(void *ctx, struct hists *event)
{
	struct top *t = ctx;
	struct hists *shown, *old_view = t->view;

	t->view = NULL;
	for (int i = 0; i < t->nr_user_events; i++)
		hists__release_retired(t->hists[i]);
	age(t, true);
	prune_annotations(t);
	t->sym_evsel = event->evsel;
	shown = sort_hists(t);
	if (shown != t->hists[t->sym_evsel->idx]) {
		const struct hists_stats *flat = &t->hists[t->sym_evsel->idx]->stats;

		/* the title counts the samples taken, which the view never saw */
		shown->stats.nr_samples = flat->nr_samples;
		shown->stats.nr_non_filtered_samples = flat->nr_non_filtered_samples;
		t->view = shown;
		/* the browser marked the old view's entries (unfolded, cursor) */
		if (old_view)
			hists__hierarchy_carry_marks(shown, old_view);
	}
	if (old_view)
		hists__delete(old_view);
	/* -z: the entries shown leave the tree to the samples to come */
	for (int i = 0; t->o->zero && i < t->nr_user_events; i++)
		hists__retire_entries(t->hists[i]);
	t->samples = t->kernel_samples = t->exact_samples = 0;
	t->lost = t->drop = 0;
	clock_gettime(CLOCK_MONOTONIC, &t->next_refresh);
	t->next_refresh.tv_sec += t->o->delay_secs;
	return shown;
}

static void browser_title_tail(void *ctx, struct strbuf *sb)
{
	struct top *t = ctx;

	strbuf_addf(sb, " lost: %" PRIu64 "/%" PRIu64 " drop: %" PRIu64 "/%" PRIu64, t->lost,
		    t->lost_total, t->drop, t->drop_total);
	if (t->o->zero)
		strbuf_addstr(sb, " [z]");
}

static void browser_key(void *ctx, int key)
{
	struct top *t = ctx;

	switch (key) {
	case 'z':
		t->o->zero = !t->o->zero;
		break;
	case 'f':
		/* stopped events leave the screen as it is: nothing comes to show */
		t->events_off = !t->events_off;
		if (t->events_off)
			evlist__disable(t->rs.evlist);
		else
			evlist__enable(t->rs.evlist);
		t->browser_opts->helpline = t->events_off ?
			"Press 'f' again to re-enable the events" :
			"Press 'f' to disable the events or 'h' to see other hotkeys";
		break;
	}
}

/* A digit sorting a group by another member: perf top leaves its browser
 * to open it again, and zeroes the samples from then on (its " [z]"). */
static void browser_sort_changed(void *ctx)
{
	struct top *t = ctx;

	t->o->zero = true;
}

static const char *browse_annotation(void *launcher, const struct hist_entry *he)
{
	return annotate_launcher__browse(launcher, he);
}

/* perf top's full-screen browser: report's, on histograms that refresh
 * every -d seconds.  Returns -1 when the terminal could not be taken over
 * (nothing happened yet: the caller prints --stdio instead). */
static int browse(struct top *t)
{
	static const char *const help[] = {
		"z             Toggle zeroing of samples",
		"f             Enable/Disable events",
	};
	struct report_stdio rs = stdio_setup(t);
	struct annotate_launcher launcher;
	struct hist_browser_live live = {
		.ctx = t, .interval_ms = 100, .due = browser_due, .resort = browser_resort,
		.title_tail = browser_title_tail, .key = browser_key,
		.sort_changed = browser_sort_changed, .help = help, .nr_help = ARRAY_SIZE(help),
	};
	/* groups: each leader's entries, with its members' columns */
	int nr_events = 0;
	struct hist_browser_event *events = xcalloc((size_t)t->nr_user_events, sizeof(*events));
	char **groups = xcalloc((size_t)t->nr_user_events, sizeof(*groups));
	struct hist_browser_opts bo = {
		.stdio = &rs, .show_headers = true,
		.helpline = "For a higher level overview, try: pcl top --sort comm,dso",
		.annotate = browse_annotation, .annotate_ctx = &launcher, .live = &live,
		.has_samples = annotate_launcher__has_samples,
		.filter_relative = &t->hopts.filter_relative,
		.group_sort_idx = &t->hopts.group_sort_idx,
		.verbose = &t->hopts.verbose,
	};
	int ret;

	annotate_launcher__init(&launcher, NULL);
	t->launcher = &launcher;
	t->browser_opts = &bo;
	t->consumer = (struct drain_consumer){ .ctx = t, .record = collect,
					       .round_end = round_end };
	clock_gettime(CLOCK_MONOTONIC, &t->next_refresh);
	t->next_refresh.tv_sec += t->o->delay_secs;
	evlist__enable(t->rs.evlist);
	tui__set_idle(browser_read, t, live.interval_ms);
	/* a group's members too, after it: TAB reaches them, as perf top's */
	for (int i = 0; i < t->nr_user_events; i++) {
		struct hists *h = t->hists[i];

		events[nr_events] = (struct hist_browser_event){ .hists = h,
			.name = h->evsel->name, .member = t->hopts.event_group && h->leader != h };
		if (h->nr_members > 1) {
			events[nr_events].name = groups[i] = hists__group_desc(h, true);
			events[nr_events].leads_group = true;
		}
		nr_events++;
	}
	ret = hist_browser__run(events, nr_events, &bo);
	for (int i = 0; i < t->nr_user_events; i++)
		free(groups[i]);
	free(groups);
	free(events);
	tui__set_idle(NULL, NULL, 0);
	evlist__disable(t->rs.evlist);
	if (t->view)
		hists__delete(t->view);
	t->view = NULL;
	t->launcher = NULL;
	t->browser_opts = NULL;
	annotate_launcher__exit(&launcher);
	if (!ret && t->o->dump_symtab)
		dump_symtab(t);
	return ret;
}

/* --- setup ------------------------------------------------------------------- */

static int take(void *ctx, const struct perf_event_header *rec)
{
	machine__take_record(ctx, rec);
	return 0;
}

/* perf top builds its kernel map itself, naming it "[kernel]" where a
 * recording's MMAP record says "[kernel.kallsyms]".  Its symbols load now,
 * before the events start: loading them at the first kernel sample would
 * leave the rings unread meanwhile, and they would overflow. */
static void name_kernel(struct dso *dso, void *arg)
{
	if (dso->kernel && !strcmp(dso->short_name, "[kernel.kallsyms]")) {
		dso__set_short_name(dso, xstrdup("[kernel]"));
		dso__find_symbol(dso, 0);
	}
}

/* What samples resolve against: the kernel, its modules and the tasks
 * already running (the new ones come as records). */
static void synthesize(struct top *t, const struct thread_map *threads)
{
	const struct target *tg = &t->ropts.target;
	struct synth s;

	synth__init(&s, &t->rs.evlist->first->attr, false, take, t->machine);
	synth__kernel_mmap(&s, NULL);
	synth__modules(&s);
	if (tg->system_wide || tg->cpu_list || tg->uid_str)
		synth__all_threads(&s, true);
	else
		for (int i = 0; i < threads->nr; i++)
			synth__thread(&s, threads->map[i].pid, true);
	synth__exit(&s);
	machine__for_each_dso(t->machine, name_kernel, NULL);
}

static int parse_freq(struct top_opts *o, struct record_opts *r)
{
	char *end;
	unsigned long v;

	if (!o->freq)
		return 0;
	if (!strcmp(o->freq, "max")) {
		char *s = read_file_str("/proc/sys/kernel/perf_event_max_sample_rate");

		v = s ? strtoul(s, NULL, 10) : 0;
		free(s);
	} else {
		v = strtoul(o->freq, &end, 10);
		if (*end)
			return -1;
	}
	if (!v)
		return -1;
	r->freq = (unsigned int)v;
	r->user_freq = true;
	return 0;
}

/* --call-graph: the recording mode first (fp, dwarf[,size], lbr), then
 * report's display settings. */
static int parse_call_graph(struct top *t, const char *arg)
{
	char *copy = xstrdup(arg), *rest = copy, *mode;
	char buf[256];
	const char *msg;
	int ret = 0;

	mode = strsep(&rest, ",");
	if (!strcmp(mode, "dwarf") && rest && *rest >= '0' && *rest <= '9') {
		char *size = strsep(&rest, ",");

		mode = xasprintf("dwarf,%s", size);
	} else {
		mode = xstrdup(mode);
	}
	if (record_opts__parse_callgraph(&t->ropts, mode, buf, sizeof(buf), &msg)) {
		fprintf(stderr, "%s\n", msg);
		ret = -1;
	} else if (rest && *rest &&
		   callchain_param__parse(&t->hopts.cc, rest, &t->hopts.use_callchain) < 0) {
		fprintf(stderr, "Invalid call graph option: %s\n", arg);
		ret = -1;
	}
	free(mode);
	free(copy);
	return ret;
}

static int open_error(struct top *t, int err, struct evsel *failed, bool filter_failed)
{
	char msg[512];

	if (filter_failed)
		fprintf(stderr, "failed to set filter \"%s\" on event %s with %d (%s)\n",
			failed->filter, failed->name, -err, strerror(-err));
	else if (failed) {
		evsel__open_strerror(failed, -err, t->ropts.target.cpu_list != NULL, msg,
				     sizeof(msg));
		fprintf(stderr, "Error:\n%s\n", msg);
	} else {
		fprintf(stderr, "failed to mmap with %d (%s)\n", -err, strerror(-err));
	}
	return PCL_EXIT_FAILURE;
}

static void keys_start(struct top *t)
{
	struct termios raw;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &t->saved_tty))
		return;
	raw = t->saved_tty;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	t->raw_tty = raw;
	t->keys = !tcsetattr(STDIN_FILENO, TCSANOW, &raw);
}

static void keys_stop(struct top *t)
{
	if (t->keys)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &t->saved_tty);
}

/* The histogram leading an event's group: its {...} group's leader's, or
 * with --group and no {...} groups the first event's. */
static struct hists *group_leader(const struct top *t, const struct evlist *evlist,
				  const struct evsel *e)
{
	return t->hists[evlist->nr_groups ? e->leader->idx : 0];
}

/* Groups: the other events' histograms are their leader's members, so
 * that its entries have room for their pairs from the start. */
static void link_members(struct top *t, struct evlist *evlist)
{
	evlist__for_each(evlist, e) {
		struct hists *leader;

		if (e->idx >= t->nr_user_events || (leader = group_leader(t, evlist, e)) == t->hists[e->idx])
			continue;
		leader->members = xrealloc(leader->members,
					   (size_t)leader->nr_members * sizeof(*leader->members));
		leader->members[leader->nr_members - 1] = t->hists[e->idx];
		leader->nr_members++;
		t->hists[e->idx]->leader = leader;
	}
}

static int run(struct top *t, struct evlist *evlist)
{
	struct top_opts *o = t->o;
	struct cpu_map *cpus = NULL;
	struct thread_map *threads = NULL;
	struct evsel *failed = NULL;
	bool filter_failed = false;
	int err;

	if (target__create_maps(&t->ropts.target, &cpus, &threads) != TARGET_MAPS_OK) {
		fprintf(stderr, "Couldn't create thread/CPU maps: %s\n", strerror(ESRCH));
		return PCL_EXIT_FAILURE;
	}
	if (cpu_map__is_any(cpus) && !target__has_per_thread(&t->ropts.target)) {
		cpu_map__delete(cpus);
		cpus = cpu_map__new_online();
	}
	/* before the handlers: parsing the formats forks (and reaps) a child */
	load_formats(t, evlist);
	drain__catch_signals(NULL, 0);
	record__config(evlist, &t->ropts);
	err = record_session__open(&t->rs, evlist, cpus, threads, &t->ropts, &failed,
				   &filter_failed);
	if (err) {
		err = open_error(t, err, failed, filter_failed);
		goto out;
	}
	if (o->realtime_prio) {
		struct sched_param param = { .sched_priority = o->realtime_prio };

		if (sched_setscheduler(0, SCHED_FIFO, &param)) {
			fprintf(stderr, "Could not set realtime priority.\n");
			err = PCL_EXIT_FAILURE;
			goto out_close;
		}
	}
	t->sym_evsel = evlist->first;
	t->machine = machine__new();
	machine__symbols_config(t->machine)->vmlinux = o->vmlinux;
	machine__symbols_config(t->machine)->ignore_vmlinux = o->ignore_vmlinux;
	machine__symbols_config(t->machine)->kallsyms = o->kallsyms;
	machine__symbols_config(t->machine)->vdso_copy = true;
	cc_resolver__init(&t->resolver, t->machine, &t->hopts.cc, &t->strings);
	t->resolver.max_stack = o->max_stack;
	t->hists = xcalloc((size_t)t->nr_user_events, sizeof(*t->hists));
	evlist__for_each(evlist, e)
		if (e->idx < t->nr_user_events)
			t->hists[e->idx] = hists__new(&t->hopts, e, &t->strings, t->store);
	if (t->hopts.event_group)
		link_members(t, evlist);
	synthesize(t, threads);
	if (o->browser && !browse(t)) {
		err = 0;
	} else {
		keys_start(t);
		/* perf's first screen comes at once, empty */
		tick(t, false);
		t->rs.drain.opts.tick_ms = t->keys ? 100 : o->delay_secs * 1000;
		t->rs.drain.opts.timeout_ms = o->timeout ? (int)(atof(o->timeout) * 1000) : 0;
		t->consumer = (struct drain_consumer){ .ctx = t, .record = collect,
						       .round_end = round_end, .tick = tick };
		err = drain__run(&t->rs.drain, &t->consumer);
		keys_stop(t);
		err = err ? PCL_EXIT_FAILURE : 0;
	}
	for (int i = 0; i < t->nr_user_events; i++)
		hists__delete(t->hists[i]);
	free(t->hists);
	callchain_cursor__exit(&t->cursor);
	cc_resolver__exit(&t->resolver);
	machine__delete(t->machine);
out_close:
	record_session__close(&t->rs);
out:
	if (t->tep) {
		trace_seq_destroy(&t->seq);
		tep_free(t->tep);
	}
	thread_map__delete(threads);
	cpu_map__delete(cpus);
	return err;
}

/* --- options that act as they come ------------------------------------------- */

static const struct option *top_options;	/* for the callbacks' usage messages */

static void option_usage(const char *name, bool is_short)
{
	parse_options_usage(top_usage, top_options, name, is_short);
	exit(PCL_EXIT_USAGE);
}

/* -e: parsed at once, so that -G knows the events before it */
static int event_opt(const struct option *opt, const char *arg, bool unset)
{
	struct top *t = opt->value;
	struct parse_events_error perr = { .idx = -1 };

	if (parse_events(&t->evlist, arg, &perr)) {
		parse_events_error__print(&perr, arg);
		parse_events_error__exit(&perr);
		exit(PCL_EXIT_USAGE);
	}
	parse_events_error__exit(&perr);
	return 0;
}

/* -G: the n-th name given (over every -G) is the n-th event's cgroup; the
 * first name alone goes to every event defined so far. */
static int cgroup_opt(const struct option *opt, const char *arg, bool unset)
{
	struct top *t = opt->value;
	int nr_events = t->evlist.nr_entries;
	const char *p = arg;

	if (!nr_events) {
		fprintf(stderr, "must define events before cgroups\n");
		option_usage("G", true);
	}
	t->cgroup_names = xrealloc(t->cgroup_names, (size_t)nr_events * sizeof(char *));
	for (int i = t->nr_cgroup_slots; i < nr_events; i++)
		t->cgroup_names[i] = NULL;
	t->nr_cgroup_slots = nr_events;
	for (;;) {
		const char *end = strchrnul(p, ',');

		if (t->nr_cgroup_names == nr_events)	/* more names than events */
			option_usage("G", true);
		free(t->cgroup_names[t->nr_cgroup_names]);
		t->cgroup_names[t->nr_cgroup_names++] = xstrndup(p, (size_t)(end - p));
		if (!*end)
			break;
		p = end + 1;
	}
	for (int i = 1; t->nr_cgroup_names == 1 && i < nr_events; i++) {
		free(t->cgroup_names[i]);
		t->cgroup_names[i] = xstrdup(t->cgroup_names[0]);
	}
	return 0;
}

static int branch_any_opt(const struct option *opt, const char *arg, bool unset)
{
	struct top *t = opt->value;

	t->ropts.branch_sample_type = unset ? 0 : PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

static int branch_filter_opt(const struct option *opt, const char *arg, bool unset)
{
	struct top *t = opt->value;
	char buf[128];
	const char *msg;

	if (unset) {
		t->ropts.branch_sample_type = 0;
		return 0;
	}
	if (!record_opts__parse_branch_filter(&t->ropts, arg, buf, sizeof(buf), &msg))
		return 0;
	fprintf(stderr, "%s\n", msg);
	option_usage("j", true);
	return -1;
}

/* -G's names on the events, as record attaches them.  Returns 0, or
 * perf's status after its complaint. */
static int attach_cgroups(struct top *t)
{
	char *bad_path;

	if (!t->nr_cgroup_names)
		return 0;
	if (!t->ropts.target.system_wide && !t->ropts.target.cpu_list) {
		fprintf(stderr, "  Error: cgroup monitoring only available in system-wide mode\n");
		usage_with_options_msg(top_usage, top_options);
		return PCL_EXIT_USAGE;
	}
	/* events defined after the last -G get none */
	t->cgroup_names = xrealloc(t->cgroup_names, (size_t)t->evlist.nr_entries * sizeof(char *));
	for (int i = t->nr_cgroup_slots; i < t->evlist.nr_entries; i++)
		t->cgroup_names[i] = NULL;
	t->nr_cgroup_slots = t->evlist.nr_entries;
	if (evlist__attach_cgroups(&t->evlist, t->cgroup_names, t->nr_cgroup_slots, &bad_path)) {
		fprintf(stderr, "no access to cgroup %s\n", bad_path);
		free(bad_path);
		parse_options_usage(top_usage, top_options, "G", true);
		return PCL_EXIT_USAGE;
	}
	return 0;
}

/* perf's keys for top, read before the command line overrides them:
 * top.children, and the call graph -g samples (top.call-graph over
 * call-graph.record-mode and dump-size). */
static int read_config(struct top_opts *o, struct record_opts *cg, bool *cg_set)
{
	struct perfconfig pc = { 0 };
	struct config_error err = { .why = NULL };
	const char *v;
	bool b;
	int found;

	perfconfig__load(&pc);
	if ((v = perfconfig__get(&pc, "top.children")) && perfconfig__bool(v, &b))
		o->children = b;
	found = record_opts__config_callgraph(cg, &pc, "top.call-graph", &err);
	*cg_set = found > 0;
	if (found < 0) {
		if (err.why)
			fprintf(stderr, "%s\n", err.why);
		fprintf(stderr, "Error in the given config file: wrong config key-value pair "
			"%s=%s\n", err.key, err.value);
	}
	perfconfig__release(&pc);
	return found < 0;
}

int cmd_top(int argc, const char **argv)
{
	struct top_opts o = { .delay_secs = 2, .children = -1, .count_filter = 5,
			      .max_stack = callchain_max_stack_default() };
	struct top t = { .o = &o, .out = stdout, .round.rs = &t.rs, .annotate_min_pcnt = 5 };
	const struct option opts[] = {
		OPT_CALLBACK('e', "event", &t, "event",
			     "event to sample (see pcl list); cycles by default", event_opt),
		OPT_U64('c', "count", &o.count, "sample every n events"),
		OPT_STRING('F', "freq", &o.freq, "freq or 'max'", "sample at this frequency"),
		OPT_STRING('p', "pid", &o.target.pid, "pid", "profile these processes"),
		OPT_STRING('t', "tid", &o.target.tid, "tid", "profile these threads"),
		OPT_STRING('u', "uid", &o.target.uid_str, "user", "profile this user's tasks"),
		OPT_BOOLEAN('a', "all-cpus", &o.target.system_wide,
			    "profile the whole system (the default)"),
		OPT_STRING('C', "cpu", &o.target.cpu_list, "cpu", "profile these CPUs only"),
		OPT_BOOLEAN('i', "no-inherit", &o.no_inherit, "leave the tasks' children out"),
		OPT_UINTEGER('m', "mmap-pages", &o.mmap_pages, "data pages of each ring buffer"),
		OPT_INTEGER('r', "realtime", &o.realtime_prio,
			    "run with this SCHED_FIFO priority"),
		OPT_INTEGER('d', "delay", &o.delay_secs, "seconds between refreshes"),
		OPT_INTEGER('E', "entries", &o.entries, "show this many entries"),
		OPT_BOOLEAN('z', "zero", &o.zero, "start every refresh from zero"),
		OPT_BOOLEAN('K', "hide_kernel_symbols", &o.hide_kernel, "leave the kernel out"),
		OPT_STRING('k', "vmlinux", &o.vmlinux, "file", "vmlinux pathname"),
		OPT_BOOLEAN(0, "ignore-vmlinux", &o.ignore_vmlinux, "don't load vmlinux even if found"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_BOOLEAN('U', "hide_user_symbols", &o.hide_user, "leave user space out"),
		OPT_STRING('s', "sort", &o.sort_order, "key[,key2...]",
			   "sort by these keys (as pcl report)"),
		OPT_STRING(0, "fields", &o.field_order, "key[,keys...]",
			   "output fields: overhead, period, sample and the sort keys"),
		OPT_STRING('w', "column-widths", &o.column_widths, "width[,width...]",
			   "fixed column widths instead of fitting them"),
		OPT_STRING(0, "percentage", &o.percentage, "relative|absolute",
			   "percentages of what is shown, or of everything"),
		OPT_BOOLEAN('n', "show-nr-samples", &o.show_nr_samples,
			    "show a column with the number of samples"),
		OPT_BOOLEAN(0, "show-total-period", &o.show_total_period,
			    "show a column with the sum of periods"),
		OPT_BOOLEAN('g', NULL, &o.callgraph_fp, "sample call graphs (frame pointers)"),
		OPT_STRING(0, "call-graph", &o.call_graph,
			   "record_mode[,record_size],print_type,threshold[,print_limit],order,sort_key",
			   "sample call graphs this way and show them so"),
		OPT_BOOLEAN(0, "stitch-lbr", &o.stitch_lbr, "Enable LBR callgraph stitching approach"),
		OPT_SET_INT(0, "children", &o.children,
			    "add the callees' periods to their callers (Children column)", 1),
		OPT_INTEGER(0, "max-stack", &o.max_stack, "frames of a call graph kept at most"),
		OPT_STRING(0, "percent-limit", &o.percent_limit, "percent",
			   "hide entries under this percentage"),
		OPT_BOOLEAN(0, "overwrite", &o.overwrite,
			    "sample into overwrite rings, read at each refresh"),
		OPT_BOOLEAN(0, "namespaces", &o.namespaces, "record namespace events"),
		OPT_BOOLEAN(0, "no-bpf-event", &o.no_bpf_event, "accepted: pcl has no BPF events"),
		OPT_BOOLEAN(0, "stdio", &o.stdio, "print text refreshed in place"),
		OPT_BOOLEAN(0, "tui", &o.tui, "the full-screen browser (default on a terminal)"),
		OPT_STRING(0, "comms", &o.comms, "comm[,comm...]",
			   "only consider symbols in these comms"),
		OPT_STRING(0, "dsos", &o.dsos, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_STRING(0, "symbols", &o.syms, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_INTEGER('f', "count-filter", &o.count_filter,
			    "only display functions with more events than this"),
		OPT_BOOLEAN(0, "hierarchy", &o.hierarchy, "Show entries in a hierarchy"),
		OPT_BOOLEAN(0, "group", &o.group, "put the counters into a counter group"),
		OPT_CALLBACK('G', "cgroup", &t, "name", "monitor event in cgroup name only",
			     cgroup_opt),
		OPT_CALLBACK_NOOPT('b', "branch-any", &t, "sample any taken branches",
				   branch_any_opt),
		OPT_CALLBACK('j', "branch-filter", &t, "branch filter mask",
			     "branch stack filter modes", branch_filter_opt),
		OPT_BOOLEAN('D', "dump-symtab", &o.dump_symtab,
			    "dump the symbol table used for profiling"),
		OPT_STRING(0, "sym-annotate", &o.sym_annotate, "symbol name",
			   "Annotate this symbol"),
		OPT_STRING(0, "timeout", &o.timeout, "seconds",
			   "stop after this long (pcl's own: perf stops on ^C)"),
		OPT_END(),
	};
	struct parse_events_error perr = { .idx = -1 };
	struct sort_setup ss = { 0 };
	const char *only[HISTC_NR_COLS] = { NULL };
	char *err_msg = NULL;
	const char *bad_file;
	bool tracepoints_only = true;
	int ret = PCL_EXIT_USAGE;
	struct record_opts config_cg;
	bool config_callgraph;
	const char *cc_why, *cc_key, *cc_value;
	char cc_msg[256];

	top_options = opts;
	evlist__init(&t.evlist);
	record_opts__init(&t.ropts);
	if (read_config(&o, &config_cg, &config_callgraph))
		return PCL_EXIT_ERROR;
	argc = parse_options(argc, argv, opts, top_usage, 0);
	if (argc)
		usage_with_options(top_usage, opts);
	if (o.delay_secs < 1)	/* perf's floor */
		o.delay_secs = 1;
	o.browser = !o.stdio && tui__usable();
	if ((bad_file = symbol_files__unreadable(o.vmlinux, o.kallsyms))) {
		fprintf(stderr, "Invalid file: %s\n", bad_file);
		ret = PCL_EXIT_EINVAL;
		goto out_events;
	}
	t.ropts.target = o.target;
	if (!o.target.pid && !o.target.tid && !o.target.uid_str && !o.target.cpu_list)
		t.ropts.target.system_wide = true;
	{
		enum target_conflict conflict = target__validate(&t.ropts.target);

		if (conflict != TARGET_OK)
			fprintf(stderr, "Warning:\n%s\n", target__conflict_str(conflict));
	}
	if (t.ropts.target.uid_str && target__parse_uid(&t.ropts.target) < 0) {
		fprintf(stderr, "Invalid User: %s", t.ropts.target.uid_str);
		ret = PCL_EXIT_FAILURE;
		goto out_events;
	}
	if (parse_freq(&o, &t.ropts) < 0) {
		fprintf(stderr, "invalid frequency: %s\n", o.freq);
		goto out_events;
	}
	if (o.count) {
		t.ropts.interval = o.count;
		t.ropts.user_interval = true;
		t.ropts.freq = 0;
	}
	if (o.mmap_pages)
		t.ropts.mmap_pages = o.mmap_pages;
	t.ropts.no_inherit = o.no_inherit;
	t.ropts.overwrite = o.overwrite;
	t.ropts.record_namespaces = o.namespaces;
	t.ropts.sample_time = true;
	callchain_param__init(&t.hopts.cc);
	if (callchain_param__read_config(&t.hopts.cc, cc_msg, sizeof(cc_msg), &cc_why, &cc_key,
					 &cc_value)) {
		fprintf(stderr, "%s\nError in the given config file: wrong config key-value pair "
			"%s=%s\n", cc_why, cc_key, cc_value);
		ret = PCL_EXIT_ERROR;
		goto out_events;
	}
	if (o.callgraph_fp && config_callgraph) {
		t.ropts.call_graph = config_cg.call_graph;
		t.ropts.stack_size = config_cg.stack_size;
		t.ropts.callchain_max_stack = config_cg.callchain_max_stack;
	} else if (o.callgraph_fp) {
		t.ropts.call_graph = CALLGRAPH_FP;
	}
	if (o.call_graph && parse_call_graph(&t, o.call_graph) < 0)
		goto out_events;
	/* perf's refusal, with its exit code 0; live LBR stacks (which this
	 * machine cannot sample) are not stitched */
	if (o.stitch_lbr && t.ropts.call_graph != CALLGRAPH_LBR) {
		fputs("Error: --stitch-lbr must be used with --call-graph lbr\n", stderr);
		ret = 0;
		goto out_events;
	}
	if (t.ropts.call_graph != CALLGRAPH_NONE && t.hopts.cc.mode != CHAIN_NONE)
		t.hopts.use_callchain = true;
	if (o.percent_limit) {
		char *end;

		t.hopts.percent_limit = strtod(o.percent_limit, &end);
		if (*end) {
			usage_with_options(top_usage, opts);
			goto out_events;
		}
	}

	if (!t.evlist.nr_entries) {
		if (parse_events(&t.evlist, "cycles:P", &perr)) {
			parse_events_error__print(&perr, "cycles:P");
			goto out_events;
		}
		/* perf's default event keeps kvm top's side: the guests only */
		t.evlist.first->attr.exclude_host = !parse_events__host;
	}
	ret = attach_cgroups(&t);
	if (ret)
		goto out_events;
	ret = PCL_EXIT_USAGE;
	t.ropts.group = o.group;
	t.nr_user_events = t.evlist.nr_entries;
	evlist__for_each(&t.evlist, e)
		if (e->attr.type != PERF_TYPE_TRACEPOINT)
			tracepoints_only = false;

	/* the histogram: report's, with top's default keys and no headers */
	t.hopts.color = percent_color_mode(NULL);
	if (o.hierarchy && o.field_order) {
		fputs("Error: --hierarchy and --fields options cannot be used together\n", stderr);
		parse_options_usage(NULL, opts, "hierarchy", false);
		goto out_events;
	}
	t.hopts.cumulate = o.children != 0 && t.hopts.use_callchain && !o.hierarchy;
	if (t.hopts.cumulate && !t.hopts.cc.order_set)
		t.hopts.cc.order = ORDER_CALLER;
	/* --fields alone sorts by its own keys, as report's does */
	ss.sort_order = o.sort_order || o.field_order ? o.sort_order :
			tracepoints_only ? sort_default_order(true) : "dso,sym";
	ss.field_order = o.field_order;
	ss.tracepoints_only = tracepoints_only;
	ss.cumulate = t.hopts.cumulate;
	ss.show_nr_samples = o.show_nr_samples;
	ss.show_total_period = o.show_total_period;
	if (hist_layout__setup(&t.hopts.layout, &ss, &err_msg) < 0) {
		fprintf(stderr, "%s\n", err_msg);
		free(err_msg);
		goto out_events;
	}
	if (!t.hopts.cumulate && !(o.field_order && o.field_order[0] != '+'))
		hist_layout__cancel_cumulate(&t.hopts.layout);
	if (o.column_widths) {
		hist_layout__set_user_widths(&t.hopts.layout, o.column_widths);
		t.hopts.user_widths = true;
	}
	if (o.percentage) {
		if (!strcmp(o.percentage, "relative"))
			t.hopts.filter_relative = true;
		else if (strcmp(o.percentage, "absolute"))
			usage_with_options(top_usage, opts);
	}
	t.need_cursor = t.hopts.use_callchain || t.hopts.cumulate || t.hopts.layout.has_parent;
	t.store = xmalloc(sizeof(*t.store));
	callchain_store__init(t.store);
	annotate_samples__init(&t.annotated);
	sample_filter__add_names(&t.filter, &(struct sample_filter_names){
		o.comms, o.dsos, o.syms, NULL, NULL });
	t.hopts.dso_filter = t.filter.dsos.n > 0;
	t.hopts.thread_filter = t.filter.comms.n > 0;
	t.hopts.sym_filter = t.filter.syms.n > 0;
	/* a filter of one name leaves its column nothing to say (perf's elide) */
	only[HISTC_SYMBOL] = t.filter.syms.n == 1 ? t.filter.syms.v[0] : NULL;
	only[HISTC_DSO] = t.filter.dsos.n == 1 ? t.filter.dsos.v[0] : NULL;
	only[HISTC_COMM] = t.filter.comms.n == 1 ? t.filter.comms.v[0] : NULL;
	if (!o.hierarchy)
		hist_layout__elide(&t.hopts.layout, only);
	/* --group, or {...} groups: perf top shows each group as one */
	t.hopts.event_group = t.nr_user_events > 1 && (o.group || t.evlist.nr_groups);
	if (o.hierarchy) {
		/* the entries stay flat; each refresh shows a view of them by level */
		t.view_opts = t.hopts;
		memset(&t.view_opts.layout, 0, sizeof(t.view_opts.layout));
		ss.hierarchy = true;
		if (hist_layout__setup(&t.view_opts.layout, &ss, &err_msg) < 0) {
			fprintf(stderr, "%s\n", err_msg);
			free(err_msg);
			goto out_events;
		}
		hist_layout__cancel_cumulate(&t.view_opts.layout);
	}
	ret = run(&t, &t.evlist);
	callchain_store__exit(t.store);
	free(t.store);
	strset_release(&t.strings);
	kallsyms_prefetch_end();
	record_round__exit(&t.round);
	sample_filter__exit(&t.filter);
	free(t.sym_annotate_owned);
	annotate_samples__release(&t.annotated);
out_events:
	evlist__release_cgroups(&t.evlist);
	evlist__exit(&t.evlist);
	parse_events_error__exit(&perr);
	for (int i = 0; i < t.nr_cgroup_slots; i++)
		free(t.cgroup_names[i]);
	free(t.cgroup_names);
	return ret;
}
