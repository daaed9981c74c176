/* pcl sched: scheduler analyses of a sched recording (perf sched).
 *
 * `record` records perf's scheduler events system-wide through cmd_record;
 * `latency`, `map`, `timehist` and `replay` read them through the session,
 * decode them (core/analysis/sched-events), hand them to their analysis
 * (core/analysis/sched-*) and print with ui/sched-*; `script` is pcl
 * script.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "core/analysis/sched-events.h"
#include "core/analysis/sched-latency.h"
#include "core/analysis/sched-map.h"
#include "core/analysis/sched-replay.h"
#include "core/analysis/sched-timehist.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/events/cpumap.h"
#include "core/events/tracepoint.h"
#include "ui/raw-dump.h"
#include "ui/sched-latency-print.h"
#include "ui/sched-map-print.h"
#include "ui/sched-timehist-print.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char *const sched_usage[] = {
	"pcl sched [<options>] {record|latency|map|replay|script|timehist}", NULL
};
static const char *const latency_usage[] = { "pcl sched latency [<options>]", NULL };
static const char *const replay_usage[] = { "pcl sched replay [<options>]", NULL };
static const char *const map_usage[] = { "pcl sched map [<options>]", NULL };
static const char *const timehist_usage[] = { "pcl sched timehist [<options>]", NULL };

#define DEFAULT_SORT "avg, max, switch, runtime"
#define TH_MAX_FRAMES 256

struct sched_cmd {
	struct perf_tool tool;
	/* top-level options */
	const char *input;
	bool force, dump;
	int verbose;
	/* latency */
	const char *sort;
	int profile_cpu;
	bool per_pid;

	struct perf_session *session;
	struct sched_decoder *decoder;
	struct sched_latency *lat;
	long nr_lost_events;
	/* timehist */
	struct sched_timehist *th;
	struct th_printer printer;
	bool callchain;
	int max_stack;
	struct callchain_frame frames[TH_MAX_FRAMES];
	struct strbuf folded;		/* -I: the stack as "a;b;c" */
	/* map */
	struct sched_map *map;
	/* replay */
	struct sched_replay *replay;
};

#define SCHED_COMMON_OPTIONS(c)							\
	OPT_STRING('i', "input", &(c)->input, "file", "input file name"),	\
	OPT_INCR('v', "verbose", &(c)->verbose, "be more verbose (show symbol address, etc)"), \
	OPT_BOOLEAN('D', "dump-raw-trace", &(c)->dump, "dump raw trace in ASCII"),	\
	OPT_BOOLEAN('f', "force", &(c)->force, "don't complain, do it")

/* perf sched record: perf's event set, every CPU, one sample per event. */
static int sched_record(int argc, const char **argv)
{
	static const char *const fixed[] = {
		"record", "-a", "-R", "-m", "1024", "-c", "1",
		"-e", "sched:sched_switch", "-e", "sched:sched_stat_runtime",
		"-e", "sched:sched_process_fork", "-e", "sched:sched_wakeup_new",
		"-e", "sched:sched_migrate_task",
	};
	static const char *const stat_events[] = {
		"sched:sched_stat_wait", "sched:sched_stat_sleep", "sched:sched_stat_iowait",
	};
	size_t nr_fixed = ARRAY_SIZE(fixed);
	const char **rec_argv = xcalloc(nr_fixed + 10 + (size_t)argc, sizeof(*rec_argv));
	int n = 0, ret;
	char enabled = '0';
	FILE *fp;

	for (size_t i = 0; i < nr_fixed; i++)
		rec_argv[n++] = fixed[i];
	/* the sched_stat_* events only count with schedstats on */
	fp = fopen("/proc/sys/kernel/sched_schedstats", "r");
	if (fp) {
		if (fread(&enabled, 1, 1, fp) != 1)
			enabled = '0';
		fclose(fp);
	}
	for (size_t i = 0; enabled == '1' && i < ARRAY_SIZE(stat_events); i++) {
		if (tracepoint__id("sched", stat_events[i] + strlen("sched:")) >= 0) {
			rec_argv[n++] = "-e";
			rec_argv[n++] = stat_events[i];
		}
	}
	/* sched_waking tells when a wake-up began; older kernels lack it */
	rec_argv[n++] = "-e";
	rec_argv[n++] = tracepoint__id("sched", "sched_waking") >= 0 ? "sched:sched_waking"
								       : "sched:sched_wakeup";
	ret = cmd_record_then(rec_argv, n, argc - 1, argv + 1);
	free(rec_argv);
	return ret;
}

static int lost_event(struct perf_tool *tool, struct perf_session *s,
		      const struct perf_event_header *rec, struct perf_sample *sample,
		      struct evsel *evsel)
{
	struct sched_cmd *c = (struct sched_cmd *)tool;

	c->nr_lost_events += (long)((const struct perf_rec_lost *)rec)->lost;
	/* timehist says so in its stream of lines, -s or not */
	if (c->th) {
		char stamp[32];

		snprintf(stamp, sizeof(stamp), "%" PRIu64 ".%06" PRIu64, sample->time / 1000000000,
			 sample->time % 1000000000 / 1000);
		printf("%15s lost %" PRIu64 " events on cpu %d\n", stamp,
		       (uint64_t)((const struct perf_rec_lost *)rec)->lost, (int)sample->cpu);
	}
	return 0;
}

static int latency_sample(struct perf_tool *tool, struct perf_session *s,
			  const struct perf_event_header *rec, struct perf_sample *sample,
			  struct evsel *evsel)
{
	struct sched_cmd *c = (struct sched_cmd *)tool;
	struct sched_event ev;

	if (!sched_decoder__decode(c->decoder, evsel, sample, &ev))
		return 0;
	return sched_latency__event(c->lat, s->machine, &ev, sample);
}

/* Samples latency never reads, left in the file: sched_waking (perf 6.1's
 * latency reads sched_wakeup only), forks, other events, and migrations
 * unless one CPU is profiled. */
static bool latency_ignores(struct perf_tool *tool, struct perf_session *s, struct evsel *evsel)
{
	struct sched_cmd *c = (struct sched_cmd *)tool;
	bool waking;

	switch (sched_decoder__kind(c->decoder, evsel, &waking)) {
	case SCHED_EV_SWITCH:
	case SCHED_EV_RUNTIME:
	case SCHED_EV_WAKEUP_NEW:
		return false;
	case SCHED_EV_WAKEUP:
		return waking;
	case SCHED_EV_MIGRATE:
		return c->profile_cpu == -1;
	default:
		return true;
	}
}

/* Opens the input with a machine and the decoder. */
static int open_input(struct sched_cmd *c)
{
	const char *input = c->input ? c->input : perf_data__default_path(false);
	char *err = NULL;

	c->session = perf_session__open(input, c->force, &err);
	if (!c->session) {
		session_warnings__open_failed(input, err);
		free(err);
		return -1;
	}
	perf_session__new_machine(c->session, NULL, NULL, c->force);
	c->decoder = sched_decoder__new(c->session);
	return 0;
}

static void close_input(struct sched_cmd *c)
{
	sched_decoder__delete(c->decoder);
	perf_session__delete(c->session);
}

/* Under -D, perf's stubs say ": unhandled!" instead of a record's details.
 * Its sched tools handle samples, COMM, FORK and LOST (latency and map
 * also namespaces, timehist also MMAP and EXIT); perf's defaults handle
 * the other kernel records but these, and ID_INDEX. */
static bool unhandled_record(const struct sched_cmd *c, uint32_t type)
{
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_EXIT:
		return !c->th;
	case PERF_RECORD_NAMESPACES:
		return c->th;
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_READ:
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_ID_INDEX:
		return true;
	default:
		return false;
	}
}

/* -D: every record dumped as it is delivered, between the command's lines */
static int dump_record(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel, uint64_t off)
{
	enum raw_dump_end end = RAW_DUMP_HANDLED;

	/* timehist's LOST handler prints its own line, not the details */
	if (((struct sched_cmd *)tool)->th && rec->type == PERF_RECORD_LOST) {
		raw_dump_record_head(stdout, s, rec, sample, off);
		return 0;
	}
	if (unhandled_record((struct sched_cmd *)tool, rec->type))
		end = RAW_DUMP_STUB;
	else if (rec->type == PERF_RECORD_THREAD_MAP || rec->type == PERF_RECORD_CPU_MAP)
		end = RAW_DUMP_STUB_AFTER_DETAILS;
	raw_dump_record_as(stdout, s, rec, sample, evsel, off, end);
	return 0;
}

/* perf reads nothing from a file without tracepoints, saying why */
static bool has_tracepoints(struct sched_cmd *c)
{
	evlist__for_each(&c->session->evlist, pos) {
		if (pos->attr.type == PERF_TYPE_TRACEPOINT)
			return true;
	}
	fprintf(stderr, "No trace sample to read. Did you call 'perf record -R'?\n");
	return false;
}

static bool has_switch_event(struct sched_cmd *c)
{
	evlist__for_each(&c->session->evlist, pos) {
		if (pos->name && !strcmp(pos->name, "sched:sched_switch"))
			return true;
	}
	return false;
}

static int process(struct sched_cmd *c)
{
	c->tool.ordered = true;
	c->tool.lost = lost_event;
	if (c->dump)
		c->tool.record = dump_record;
	if (perf_session__process(c->session, &c->tool) < 0) {
		fprintf(stderr, "pcl sched: %s\n", c->session->err ? c->session->err : "failed");
		return -1;
	}
	return 0;
}

/* What perf's INFO line about lost events needs */
static struct sched_lat_info lost_info(const struct sched_cmd *c)
{
	return (struct sched_lat_info){
		.nr_events = (long)c->session->stats.nr_events,
		.nr_lost_events = c->nr_lost_events,
		.nr_lost_chunks = (long)c->session->stats.nr_records[PERF_RECORD_LOST],
	};
}

static int sched_latency(struct sched_cmd *c, int argc, const char **argv)
{
	const struct option opts[] = {
		OPT_STRING('s', "sort", &c->sort, "key[,key2...]",
			   "sort by key(s): runtime, switch, avg, max"),
		OPT_INTEGER('C', "CPU", &c->profile_cpu, "CPU to profile on"),
		OPT_BOOLEAN('p', "pids", &c->per_pid, "latency stats per pid instead of per comm"),
		SCHED_COMMON_OPTIONS(c),
		OPT_END(),
	};
	struct sched_lat_task **rows;
	char *bad = NULL;
	int nr, ret = PCL_EXIT_OK;

	if (parse_options(argc, argv, opts, latency_usage, 0))
		usage_with_options(latency_usage, opts);
	if (!sched_latency__valid_sort(c->sort, &bad)) {
		fprintf(stderr, "  Error: Unknown --sort key: `%s'\n", bad);
		free(bad);
		usage_with_options(latency_usage, opts);
	}
	if (open_input(c))
		return PCL_EXIT_ERROR;
	c->lat = sched_latency__new(c->profile_cpu);
	c->tool.sample = latency_sample;
	c->tool.ignores_samples = latency_ignores;
	if (has_tracepoints(c) && process(c)) {
		ret = PCL_EXIT_ERROR;
	} else {
		struct sched_lat_info info = lost_info(c);

		rows = sched_latency__rows(c->lat, c->sort, c->per_pid, &nr);
		sched_latency__print(stdout, rows, nr, sched_latency__counts(c->lat), &info);
	}
	sched_latency__delete(c->lat);
	close_input(c);
	return ret;
}

static int timehist_sample(struct perf_tool *tool, struct perf_session *s,
			   const struct perf_event_header *rec, struct perf_sample *sample,
			   struct evsel *evsel)
{
	struct sched_cmd *c = (struct sched_cmd *)tool;
	const char *stack = NULL;
	struct sched_event ev;

	sched_decoder__decode(c->decoder, evsel, sample, &ev);
	if (c->dump && ev.kind == SCHED_EV_SWITCH) {
		struct addr_location al;

		/* perf resolves each switch: -D shows its thread and DSO */
		perf_session__resolve_sample(s, sample, &al);
		raw_dump_sample_location(stdout, al.thread, &al);
	}
	/* the stack of a task leaving its CPU, resolved through its process
	 * leader; kept until the next one, as perf keeps its cursor */
	if (c->callchain && ev.kind == SCHED_EV_SWITCH && ev.prev_pid && sample->callchain) {
		struct thread *leader = machine__findnew_thread(s->machine, (pid_t)sample->pid,
								(pid_t)sample->pid);
		int max = c->max_stack + 2 < TH_MAX_FRAMES ? c->max_stack + 2 : TH_MAX_FRAMES;

		c->printer.nr_frames =
			perf_session__resolve_callchain(s, evsel, sample, leader, max, c->frames, max);
		c->printer.frames = c->frames;
		if (c->printer.idle_hist) {
			th_fold_stack(&c->folded, c->frames, c->printer.nr_frames);
			stack = strbuf_str(&c->folded);
		}
	}
	sched_timehist__set_stack(c->th, stack);
	sched_timehist__sample(c->th, s->machine, &ev, sample);
	c->printer.max_cpu = sched_timehist__max_cpu(c->th);
	return 0;
}

/* -D: perf says when a FORK's parent is a thread it had made up (timehist
 * makes woken tasks it has not met with pid 0) and replaces it */
static int timehist_fork(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel)
{
	const struct perf_rec_fork *f = (const void *)rec;
	struct thread *parent = machine__find_thread(s->machine, (pid_t)f->ppid, (pid_t)f->ptid);

	if (parent && parent->pid != -1 && parent->pid != (pid_t)f->ppid)
		printf("removing erroneous parent thread %d/%d\n", parent->pid, parent->tid);
	return 0;
}

static void timehist_emit(const struct th_row *row, void *arg)
{
	th_print_row(arg, row);
}

/* map and timehist write a line per switch: into a pipe or a file in 64 KB
 * writes rather than stdio's 4 KB ones (a terminal still gets its lines) */
static void buffer_rows(void)
{
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
}

static int sched_timehist(struct sched_cmd *c, int argc, const char **argv)
{
	bool with_summary = false;
	const char *pids = NULL, *tids = NULL, *cpu_list = NULL, *time_span = NULL;
	struct sample_filter filter = { 0 };
	struct th_opts o = { .emit = timehist_emit, .filter = &filter };
	struct th_printer *p = &c->printer;
	const struct option opts[] = {
		OPT_BOOLEAN('g', "call-graph", &c->callchain,
			    "Display call chains if present (default on)"),
		OPT_INTEGER(0, "max-stack", &c->max_stack,
			    "Maximum number of functions to display backtrace."),
		OPT_BOOLEAN('s', "summary", &o.summary_only,
			    "Show only syscall summary with statistics"),
		OPT_BOOLEAN('S', "with-summary", &with_summary,
			    "Show all syscalls and summary with statistics"),
		OPT_BOOLEAN('w', "wakeups", &p->wakeups, "Show wakeup events"),
		OPT_BOOLEAN('n', "next", &p->next, "Show next task"),
		OPT_BOOLEAN('M', "migrations", &o.migrations, "Show migration events"),
		OPT_BOOLEAN('V', "cpu-visual", &p->cpu_visual, "Add CPU visual"),
		OPT_BOOLEAN('I', "idle-hist", &o.idle_hist, "Show idle events only"),
		OPT_STRING(0, "time", &time_span, "str", "Time span for analysis (start,stop)"),
		OPT_BOOLEAN(0, "state", &p->state, "Show task state when sched-out"),
		OPT_STRING('p', "pid", &pids, "pid[,pid...]",
			   "analyze events only for given process id(s)"),
		OPT_STRING('t', "tid", &tids, "tid[,tid...]",
			   "analyze events only for given thread id(s)"),
		OPT_STRING('C', "cpu", &cpu_list, "cpu", "list of cpus to profile"),
		SCHED_COMMON_OPTIONS(c),
		OPT_END(),
	};
	struct th_summary summary;
	int ret = PCL_EXIT_OK;

	th_printer__init(p, stdout);
	c->callchain = true;
	c->max_stack = 5;
	if (parse_options(argc, argv, opts, timehist_usage, 0))
		usage_with_options(timehist_usage, opts);
	buffer_rows();
	if ((p->wakeups || p->next) && o.summary_only) {
		fprintf(stderr, " Error: -s and -[n|w] are mutually exclusive.\n");
		usage_with_options(timehist_usage, opts);
	}
	/* one start,stop range, as perf's timehist takes ("start" alone: onwards) */
	if (time_span) {
		char *span = xasprintf("%s%s", time_span, strchr(time_span, ',') ? "" : ",");
		bool bad = sample_filter__set_time(&filter, span) || filter.nr_ranges != 1;

		free(span);
		if (bad) {
			fprintf(stderr, "Invalid time string\n");
			sample_filter__exit(&filter);
			return PCL_EXIT_EINVAL;
		}
	}
	if (cpu_list && sample_filter__set_cpus(&filter, cpu_list)) {
		fprintf(stderr, "Invalid cpu_list\n");
		sample_filter__exit(&filter);
		return PCL_EXIT_ERROR;
	}
	if (pids)
		name_list__add(&filter.pids, pids);
	if (tids)
		name_list__add(&filter.tids, tids);
	o.wakeups = p->wakeups;
	p->idle_hist = o.idle_hist;
	if (open_input(c)) {
		sample_filter__exit(&filter);
		return PCL_EXIT_ERROR;
	}
	evlist__for_each(&c->session->evlist, pos) {
		if (c->callchain && !(pos->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
			fprintf(stderr, "Samples do not have callchains.\n");
			c->callchain = false;
		}
	}
	p->callchain = c->callchain;
	if (!has_switch_event(c)) {
		fputs("No sched_switch events found. Have you run 'perf sched record'?\n", stderr);
		close_input(c);
		sample_filter__exit(&filter);
		return PCL_EXIT_ERROR;
	}
	o.nr_cpus_online = (int)c->session->header.nr_cpus_online;
	o.arg = p;
	c->th = sched_timehist__new(&o);
	p->max_cpu = sched_timehist__max_cpu(c->th);
	if (!o.summary_only)
		th_print_header(p);
	c->tool.sample = timehist_sample;
	if (c->dump) {
		c->tool.fork = timehist_fork;
		c->tool.before_machine[PERF_RECORD_FORK] = true;
	}
	if (process(c)) {
		ret = PCL_EXIT_ERROR;
	} else if (o.summary_only || with_summary) {
		sched_timehist__summary(c->th, &summary);
		th_print_summary(p, &summary, c->th, &filter);
		sched_timehist__summary_free(&summary);
	}
	sched_timehist__delete(c->th);
	strbuf_release(&c->folded);
	close_input(c);
	sample_filter__exit(&filter);
	return ret;
}

static int map_sample(struct perf_tool *tool, struct perf_session *s,
		      const struct perf_event_header *rec, struct perf_sample *sample,
		      struct evsel *evsel)
{
	struct sched_cmd *c = (struct sched_cmd *)tool;
	struct sched_event ev;

	if (!sched_decoder__decode(c->decoder, evsel, sample, &ev) || ev.kind != SCHED_EV_SWITCH)
		return 0;
	return sched_map__switch(c->map, s->machine, &ev, sample);
}

/* map draws switches only */
static bool map_ignores(struct perf_tool *tool, struct perf_session *s, struct evsel *evsel)
{
	bool waking;

	return sched_decoder__kind(((struct sched_cmd *)tool)->decoder, evsel, &waking) !=
	       SCHED_EV_SWITCH;
}

/* perf marks the COMM's task (by the record's sample id) to be named again */
static int map_comm(struct perf_tool *tool, struct perf_session *s,
		    const struct perf_event_header *rec, struct perf_sample *sample,
		    struct evsel *evsel)
{
	struct sched_cmd *c = (struct sched_cmd *)tool;
	struct thread *t = machine__find_thread(s->machine, (pid_t)sample->pid, (pid_t)sample->tid);

	if (t)
		sched_map__comm(c->map, t);
	return 0;
}

static void map_emit(const struct map_row *row, void *arg)
{
	sched_map__print_row(arg, row);
}

static int sched_map(struct sched_cmd *c, int argc, const char **argv)
{
	/* --color-pids changes nothing: perf 6.1 colours every task already */
	const char *cpus = NULL, *color_pids = NULL, *color_cpus = NULL;
	struct map_opts o = { .emit = map_emit };
	struct map_printer printer = { .colors = isatty(STDOUT_FILENO), .out.fp = stdout };
	const struct option opts[] = {
		OPT_BOOLEAN(0, "compact", &o.compact, "map output in compact mode"),
		OPT_STRING(0, "color-pids", &color_pids, "pids", "highlight given pids in map"),
		OPT_STRING(0, "color-cpus", &color_cpus, "cpus", "highlight given CPUs in map"),
		OPT_STRING(0, "cpus", &cpus, "cpus", "display given CPUs in map"),
		SCHED_COMMON_OPTIONS(c),
		OPT_END(),
	};
	const struct sched_lat_counts none = { 0 };
	int ret = PCL_EXIT_OK;
	bool failed;

	if (parse_options(argc, argv, opts, map_usage, 0))
		usage_with_options(map_usage, opts);
	buffer_rows();
	if ((cpus && !(o.cpus = cpu_map__parse(cpus))) ||
	    (color_cpus && !(printer.color_cpus = cpu_map__parse(color_cpus)))) {
		fprintf(stderr, "Invalid cpu_list\n");
		ret = PCL_EXIT_ERROR;
		goto out_cpus;
	}
	printer.each_row = printer.colors || c->dump;
	o.arg = &printer;
	o.verbose = c->verbose;
	o.nr_cpus_conf = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (open_input(c)) {
		ret = PCL_EXIT_ERROR;
		goto out_cpus;
	}
	c->map = sched_map__new(&o);
	c->tool.sample = map_sample;
	c->tool.ignores_samples = map_ignores;
	c->tool.comm = map_comm;
	failed = has_tracepoints(c) && process(c);
	sched_map__print_flush(&printer);
	if (failed) {
		ret = PCL_EXIT_ERROR;
	} else {
		struct sched_lat_info info = lost_info(c);

		sched_latency__print_info(stdout, &none, &info);
	}
	sched_map__delete(c->map);
	close_input(c);
out_cpus:
	cpu_map__delete((struct cpu_map *)o.cpus);
	cpu_map__delete((struct cpu_map *)printer.color_cpus);
	return ret;
}

static int replay_sample(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel)
{
	struct sched_cmd *c = (struct sched_cmd *)tool;
	struct sched_event ev;

	if (!sched_decoder__decode(c->decoder, evsel, sample, &ev))
		return 0;
	return sched_replay__event(c->replay, &ev, sample);
}

static int replay_fork(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	const struct perf_rec_fork *f = (const void *)rec;

	sched_replay__fork(((struct sched_cmd *)tool)->replay, s->machine, (int)f->pid,
			   (int)f->tid, (int)f->ppid, (int)f->ptid);
	return 0;
}

static void replay_report(const struct replay_round *round, void *arg)
{
	if (!round) {
		printf("------------------------------------------------------------\n");
		return;
	}
	printf("#%-3lu: %0.3f, ", round->nr, (double)round->delta / 1e6);
	printf("ravg: %0.2f, ", (double)round->run_avg / 1e6);
	printf("cpu: %0.2f / %0.2f\n", (double)round->cpu_usage / 1e6,
	       (double)round->runavg_cpu_usage / 1e6);
	fflush(stdout);
}

static int sched_replay(struct sched_cmd *c, int argc, const char **argv)
{
	unsigned repeat = 10;
	const struct option opts[] = {
		OPT_UINTEGER('r', "repeat", &repeat,
			     "repeat the workload replay N times (-1: infinite)"),
		SCHED_COMMON_OPTIONS(c),
		OPT_END(),
	};
	struct replay_calibration cal;
	const struct replay_counts *n;
	char *err = NULL;
	int ret = PCL_EXIT_OK;

	if (parse_options(argc, argv, opts, replay_usage, 0))
		usage_with_options(replay_usage, opts);
	c->replay = sched_replay__new();
	sched_replay__calibrate(c->replay, &cal);
	printf("run measurement overhead: %" PRIu64 " nsecs\n", cal.run_overhead);
	printf("sleep measurement overhead: %" PRIu64 " nsecs\n", cal.sleep_overhead);
	printf("the run test took %" PRIu64 " nsecs\n", cal.run_test);
	printf("the sleep test took %" PRIu64 " nsecs\n", cal.sleep_test);
	if (open_input(c)) {
		sched_replay__delete(c->replay);
		return PCL_EXIT_ERROR;
	}
	c->tool.sample = replay_sample;
	c->tool.fork = replay_fork;
	if (has_tracepoints(c) && process(c)) {
		ret = PCL_EXIT_ERROR;
		goto out;
	}
	n = sched_replay__counts(c->replay);
	printf("nr_run_events:        %ld\n", n->nr_run_events);
	printf("nr_sleep_events:      %ld\n", n->nr_sleep_events);
	printf("nr_wakeup_events:     %ld\n", n->nr_wakeup_events);
	if (n->targetless_wakeups)
		printf("target-less wakeups:  %ld\n", n->targetless_wakeups);
	if (n->multitarget_wakeups)
		printf("multi-target wakeups: %ld\n", n->multitarget_wakeups);
	if (n->nr_run_events_optimized)
		printf("run atoms optimized: %ld\n", n->nr_run_events_optimized);
	for (int i = 0; i < sched_replay__nr_tasks(c->replay); i++) {
		struct replay_task_info t = sched_replay__task(c->replay, i);

		printf("task %6ld (%20s:%10lu), nr_events: %ld\n", t.nr, t.comm, t.pid,
		       t.nr_events);
	}
	fflush(stdout);
	if (sched_replay__run(c->replay, repeat, c->force, replay_report, NULL, &err) < 0) {
		fputs(err, stderr);
		free(err);
		ret = PCL_EXIT_FAILURE;
	}
out:
	close_input(c);
	sched_replay__delete(c->replay);
	return ret;
}

int cmd_sched(int argc, const char **argv)
{
	struct sched_cmd c = { .sort = DEFAULT_SORT, .profile_cpu = -1 };
	const struct option opts[] = {
		SCHED_COMMON_OPTIONS(&c),
		OPT_END(),
	};
	const char *sub;

	argc = parse_options(argc, argv, opts, sched_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_with_options(sched_usage, opts);
	sub = argv[0];
	if (!strncmp(sub, "rec", 3))
		return sched_record(argc, argv);
	if (!strncmp(sub, "lat", 3))
		return sched_latency(&c, argc, argv);
	if (!strncmp(sub, "rep", 3))
		return sched_replay(&c, argc, argv);
	if (!strncmp(sub, "map", 3))
		return sched_map(&c, argc, argv);
	if (!strcmp(sub, "timehist"))
		return sched_timehist(&c, argc, argv);
	if (strlen(sub) > 2 && !strncmp("script", sub, strlen(sub)))
		return cmd_script(argc, argv);
	usage_with_options(sched_usage, opts);
	return PCL_EXIT_USAGE;
}
