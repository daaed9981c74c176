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
 * Keys are read only from a terminal: with stdin not one, perf 6.1 takes
 * every end of file for a key and floods its key menu; pcl ignores stdin.
 */
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
#include "core/data/perf-record.h"
#include "core/data/session.h"
#include "core/data/trace-data-write.h"
#include "core/data/trace-data.h"
#include "core/events/evsel.h"
#include "core/events/parse-events.h"
#include "core/hist/callchain.h"
#include "core/hist/hist.h"
#include "core/live/drain.h"
#include "core/live/record.h"
#include "core/live/synthesize.h"
#include "core/live/target.h"
#include "core/symbols/machine.h"
#include "ui/percent-color.h"
#include "ui/report-stdio.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/strset.h"
#include "util/util.h"

static const char *const top_usage[] = { "pcl top [<options>]", NULL };

/* perf's screen: clear, then the header; what the header takes of the rows */
#define CONSOLE_CLEAR "\033[H\033[2J"
#define HEADER_LINES 5

struct top_opts {
	const char *events, *sort_order, *field_order, *call_graph, *percent_limit, *freq;
	const char *column_widths, *percentage, *vmlinux, *kallsyms;
	int delay_secs;
	int entries;			/* -E: 0 from the terminal's rows */
	int max_stack;
	int realtime_prio;
	unsigned int mmap_pages;
	uint64_t count;
	int children;			/* -1: default (on with call graphs) */
	bool stdio, tui, zero, hide_kernel, hide_user, show_nr_samples, show_total_period;
	bool overwrite, namespaces, no_inherit, callgraph_fp, no_bpf_event, ignore_vmlinux;
	const char *timeout;		/* --timeout seconds (pcl's, for scripts) */
	struct target target;
};

/* A drained record waiting for its round to be put in time order. */
struct pending {
	uint64_t time;
	size_t seq, off;
};

struct top {
	struct top_opts *o;
	struct record_session rs;
	struct record_opts ropts;
	struct drain_consumer consumer;		/* for the loop and --overwrite's reads */
	struct machine *machine;
	const struct perf_event_attr *attr;	/* the events' common layout */
	struct evsel *sym_evsel;		/* the event shown: the first */
	int nr_user_events;			/* without the tracking one */
	struct hist_opts hopts;
	struct strset strings;
	struct callchain_store store;
	struct cc_resolver resolver;
	struct callchain_cursor cursor;
	struct hists *hists;
	bool need_cursor;
	/* the trace key: the tracepoints' print formats, as a recording's */
	struct tep_handle *tep;
	struct trace_seq seq;
	/* a round's records, copied */
	unsigned char *buf;
	size_t buf_len, buf_alloc;
	struct pending *pending;
	size_t nr_pending, alloc_pending;
	uint64_t last_time;			/* newest sample time seen */
	/* the header's counts since the last refresh, and in all */
	uint64_t samples, kernel_samples, exact_samples;
	uint64_t lost, lost_total, drop, drop_total;
	uint64_t lost_chunks, lost_chunks_warned;
	/* the clock of refreshes */
	struct timespec next_refresh;
	bool refreshed;
	/* the keys, from a terminal only */
	bool keys;
	struct termios saved_tty;
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

static struct evsel *sample_evsel(struct top *t, uint64_t id)
{
	if (!(t->attr->sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)))
		return t->rs.evlist->first;
	for (size_t i = 0; i < t->rs.nr_ids; i++)
		if (t->rs.id_map[i].id == id)
			return t->rs.id_map[i].evsel;
	return NULL;
}

/* A sample's layout is its event's (several layouts carry the identifier
 * first); the other records' trailers are alike. */
static const struct perf_event_attr *record_attr(struct top *t, const struct perf_event_header *rec)
{
	struct evsel *evsel;
	uint64_t id;

	if (rec->type != PERF_RECORD_SAMPLE || !(t->attr->sample_type & PERF_SAMPLE_IDENTIFIER) ||
	    rec->size < sizeof(*rec) + sizeof(id))
		return t->attr;
	memcpy(&id, rec + 1, sizeof(id));
	evsel = sample_evsel(t, id);
	return evsel ? &evsel->attr : t->attr;
}

static int collect(void *ctx, int cpu, const struct perf_event_header *rec)
{
	struct top *t = ctx;
	struct perf_sample sample;
	const char *err;
	struct pending *p;

	if (t->nr_pending == t->alloc_pending) {
		t->alloc_pending = t->alloc_pending ? 2 * t->alloc_pending : 4096;
		t->pending = xrealloc(t->pending, t->alloc_pending * sizeof(*t->pending));
	}
	if (t->buf_len + rec->size > t->buf_alloc) {
		t->buf_alloc = t->buf_alloc ? 2 * t->buf_alloc : 1 << 20;
		while (t->buf_len + rec->size > t->buf_alloc)
			t->buf_alloc *= 2;
		t->buf = xrealloc(t->buf, t->buf_alloc);
	}
	p = &t->pending[t->nr_pending];
	p->time = perf_sample__parse(record_attr(t, rec), rec, &sample, &err) ? 0 : sample.time;
	p->seq = t->nr_pending++;
	p->off = t->buf_len;
	memcpy(t->buf + t->buf_len, rec, rec->size);
	t->buf_len += rec->size;
	return 0;
}

static int pending_cmp(const void *pa, const void *pb)
{
	const struct pending *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
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
	if (idle_symbol(&al) || evsel != t->sym_evsel)
		return;
	hs = hist_sample__resolved(thread, &al, sample, &t->strings);
	hs.weight = sample->weight;
	hs.map_size = al.map ? al.map->end - al.map->start : 0;
	if (t->tep && evsel->attr.type == PERF_TYPE_TRACEPOINT)
		hs.trace = trace_text(t, evsel, sample);
	if (t->need_cursor && sample->callchain) {
		callchain_cursor__resolve(&t->cursor, &t->resolver, thread, &evsel->attr, sample);
		hs.cursor = &t->cursor;
	}
	hists__add_sample(t->hists, &hs);
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
	if (perf_sample__parse(record_attr(t, rec), rec, &sample, &err))
		return;
	evsel = sample_evsel(t, sample.id);
	if (!evsel)
		return;
	if ((t->attr->sample_type & PERF_SAMPLE_TIME) && too_late(t, sample.time)) {
		t->drop++;
		t->drop_total++;
		return;
	}
	t->samples++;
	switch (sample.cpumode) {
	case PERF_RECORD_MISC_USER:
		if (t->o->hide_user)
			return;
		break;
	case PERF_RECORD_MISC_KERNEL:
		t->kernel_samples++;
		if (t->o->hide_kernel)
			return;
		break;
	default:
		/* guests' samples are only counted, as perf does without --guest */
		return;
	}
	add_sample(t, evsel, &sample);
}

static int round_end(void *ctx, size_t bytes)
{
	struct top *t = ctx;

	qsort(t->pending, t->nr_pending, sizeof(*t->pending), pending_cmp);
	for (size_t i = 0; i < t->nr_pending; i++)
		dispatch(t, (const struct perf_event_header *)(const void *)(t->buf +
									    t->pending[i].off));
	t->nr_pending = 0;
	t->buf_len = 0;
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
	fprintf(t->out, "   PerfTop:%8.0f irqs/sec  kernel:%4.1f%%  exact: %4.1f%% lost: %" PRIu64
		"/%" PRIu64 " drop: %" PRIu64 "/%" PRIu64 " [", per_sec, kernel_pct, exact_pct,
		t->lost, t->lost_total, t->drop, t->drop_total);
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
	t->lost = t->drop = 0;
}

static void refresh(struct top *t)
{
	struct report_stdio rs = {
		.socket_filter = -1,
		.skip_first_sym = t->o->sort_order && !strncmp(t->o->sort_order, "sym", 3),
	};
	int rows, cols, printed = 0;
	size_t max_rows;

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
	max_rows = (size_t)((t->o->entries ? t->o->entries : rows - HEADER_LINES) - printed);
	hists__output_resort(t->hists);
	if ((int)max_rows > 0)
		hists__recalc_col_len(t->hists, max_rows);
	fputc('\n', t->out);
	rs.max_rows = (int)max_rows > 0 ? max_rows : 0;
	rs.max_width = cols - 2;
	if ((int)max_rows > 0)
		report_stdio__hists(t->out, t->hists, &rs, false);
	fflush(t->out);
	/* what the next refresh shows: the samples to come and 7/8 of these */
	if (t->o->zero)
		hists__delete_entries(t->hists);
	else
		hists__decay(t->hists, t->o->hide_user, t->o->hide_kernel);
}

static bool due(const struct timespec *now, const struct timespec *at)
{
	return now->tv_sec > at->tv_sec || (now->tv_sec == at->tv_sec && now->tv_nsec >= at->tv_nsec);
}

/* perf top's keys that make sense in a stream of text: q quits, z zeroes,
 * K and U hide the kernel's or user space's entries; the others are
 * ignored. */
static void read_keys(struct top *t)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	unsigned char c;

	while (poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN) && read(STDIN_FILENO, &c, 1) == 1) {
		switch (c) {
		case 'q':
		case 'Q':
			t->quit = true;
			break;
		case 'z':
			t->o->zero = !t->o->zero;
			break;
		case 'K':
			t->o->hide_kernel = !t->o->hide_kernel;
			break;
		case 'U':
			t->o->hide_user = !t->o->hide_user;
			break;
		default:
			break;
		}
	}
}

static int tick(void *ctx, bool stopping)
{
	struct top *t = ctx;
	struct timespec now;

	if (stopping)
		return 1;
	if (t->keys)
		read_keys(t);
	if (t->quit)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (t->refreshed && !due(&now, &t->next_refresh))
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
		free(dso->short_name);
		dso->short_name = xstrdup("[kernel]");
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
	t->keys = !tcsetattr(STDIN_FILENO, TCSANOW, &raw);
}

static void keys_stop(struct top *t)
{
	if (t->keys)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &t->saved_tty);
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
	t->attr = &evlist->first->attr;
	t->sym_evsel = evlist->first;
	t->machine = machine__new();
	machine__symbols_config(t->machine)->vmlinux = o->vmlinux;
	machine__symbols_config(t->machine)->ignore_vmlinux = o->ignore_vmlinux;
	machine__symbols_config(t->machine)->kallsyms = o->kallsyms;
	cc_resolver__init(&t->resolver, t->machine, &t->hopts.cc, &t->strings);
	t->resolver.max_stack = o->max_stack;
	t->hists = hists__new(&t->hopts, t->sym_evsel, &t->strings, &t->store);
	synthesize(t, threads);
	keys_start(t);
	/* perf's first screen comes at once, empty */
	tick(t, false);
	t->rs.drain.opts.tick_ms = t->keys ? 100 : o->delay_secs * 1000;
	t->rs.drain.opts.timeout_ms = o->timeout ? (int)(atof(o->timeout) * 1000) : 0;
	t->consumer = (struct drain_consumer){ .ctx = t, .record = collect, .round_end = round_end,
					       .tick = tick };
	err = drain__run(&t->rs.drain, &t->consumer);
	keys_stop(t);
	err = err ? PCL_EXIT_FAILURE : 0;
	hists__delete(t->hists);
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

int cmd_top(int argc, const char **argv)
{
	struct top_opts o = { .delay_secs = 2, .children = -1,
			      .max_stack = callchain_max_stack_default() };
	struct top t = { .o = &o, .out = stdout };
	const struct option opts[] = {
		OPT_STRING('e', "event", &o.events, "event",
			   "event to sample (see pcl list); cycles by default"),
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
		OPT_SET_INT(0, "children", &o.children,
			    "add the callees' periods to their callers (Children column)", 1),
		OPT_INTEGER(0, "max-stack", &o.max_stack, "frames of a call graph kept at most"),
		OPT_STRING(0, "percent-limit", &o.percent_limit, "percent",
			   "hide entries under this percentage"),
		OPT_BOOLEAN(0, "overwrite", &o.overwrite,
			    "sample into overwrite rings, read at each refresh"),
		OPT_BOOLEAN(0, "namespaces", &o.namespaces, "record namespace events"),
		OPT_BOOLEAN(0, "no-bpf-event", &o.no_bpf_event, "accepted: pcl has no BPF events"),
		OPT_BOOLEAN(0, "stdio", &o.stdio, "print text (the only interface for now)"),
		OPT_BOOLEAN(0, "tui", &o.tui, "the full-screen browser (for now text too)"),
		OPT_STRING(0, "timeout", &o.timeout, "seconds",
			   "stop after this long (pcl's own: perf stops on ^C)"),
		OPT_END(),
	};
	struct evlist evlist;
	struct parse_events_error perr = { .idx = -1 };
	struct sort_setup ss = { 0 };
	char *err_msg = NULL;
	const char *bad_file;
	bool tracepoints_only = true;
	int ret = PCL_EXIT_USAGE;

	argc = parse_options(argc, argv, opts, top_usage, 0);
	if (argc)
		usage_with_options(top_usage, opts);
	if ((bad_file = symbol_files__unreadable(o.vmlinux, o.kallsyms))) {
		fprintf(stderr, "Invalid file: %s\n", bad_file);
		return PCL_EXIT_EINVAL;
	}
	if (o.delay_secs < 1)	/* perf's floor */
		o.delay_secs = 1;
	record_opts__init(&t.ropts);
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
		goto out_opts;
	}
	if (parse_freq(&o, &t.ropts) < 0) {
		fprintf(stderr, "invalid frequency: %s\n", o.freq);
		goto out_opts;
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
	if (o.callgraph_fp)
		t.ropts.call_graph = CALLGRAPH_FP;
	if (o.call_graph && parse_call_graph(&t, o.call_graph) < 0)
		goto out_opts;
	if (t.ropts.call_graph != CALLGRAPH_NONE && t.hopts.cc.mode != CHAIN_NONE)
		t.hopts.use_callchain = true;
	if (o.percent_limit) {
		char *end;

		t.hopts.percent_limit = strtod(o.percent_limit, &end);
		if (*end) {
			usage_with_options(top_usage, opts);
			goto out_opts;
		}
	}

	evlist__init(&evlist);
	if (parse_events(&evlist, o.events ? o.events : "cycles:P", &perr)) {
		parse_events_error__print(&perr, o.events ? o.events : "cycles:P");
		goto out_events;
	}
	t.nr_user_events = evlist.nr_entries;
	evlist__for_each(&evlist, e)
		if (e->attr.type != PERF_TYPE_TRACEPOINT)
			tracepoints_only = false;

	/* the histogram: report's, with top's default keys and no headers */
	t.hopts.color = percent_color_mode(NULL);
	t.hopts.cumulate = o.children != 0 && t.hopts.use_callchain;
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
	callchain_store__init(&t.store);
	ret = run(&t, &evlist);
	callchain_store__exit(&t.store);
	strset_release(&t.strings);
	kallsyms_prefetch_end();
	free(t.buf);
	free(t.pending);
out_events:
	evlist__exit(&evlist);
	parse_events_error__exit(&perr);
out_opts:
	return ret;
}
