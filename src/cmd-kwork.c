/* pcl kwork: time spent in hard irqs, softirqs and workqueues (perf kwork).
 *
 * `record` records perf's tracepoints of the chosen classes system-wide
 * through cmd_record; `report` (run times), `latency` (delays from raise
 * to entry) and `timehist` (one line per run) read them through the
 * session into core/analysis/kwork and print with ui/kwork-print.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "core/analysis/kwork.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/symbols/machine.h"
#include "ui/kwork-print.h"
#include "ui/raw-dump.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const kwork_usage[] = {
	"pcl kwork [<options>] {record|report|latency|timehist}", NULL
};
static const char *const report_usage[] = { "pcl kwork report [<options>]", NULL };
static const char *const latency_usage[] = { "pcl kwork latency [<options>]", NULL };
static const char *const timehist_usage[] = { "pcl kwork timehist [<options>]", NULL };

#define MAX_FRAMES 256

struct kwork_cmd {
	struct perf_tool tool;
	/* top-level options */
	const char *classes_arg;
	bool force, dump;
	int verbose;
	/* sub-command options */
	const char *input, *sort, *cpu_list, *time_span, *name, *vmlinux, *kallsyms, *symfs;
	bool summary, callchain;
	unsigned int max_stack;

	struct kwork_opts o;
	struct sample_filter filter;
	struct perf_session *session;
	struct kwork *kwork;
	uint64_t nr_lost_events;
	struct callchain_frame frames[MAX_FRAMES];
	int nr_frames;
};

#define KWORK_COMMON_OPTIONS(c)							\
	OPT_INCR('v', "verbose", &(c)->verbose, "be more verbose (show symbol address, etc)"),	\
	OPT_BOOLEAN('D', "dump-raw-trace", &(c)->dump, "dump raw trace in ASCII"),	\
	OPT_STRING('k', "kwork", &(c)->classes_arg, "kwork",				\
		   "list of kwork to profile (irq, softirq, workqueue, etc)"),	\
	OPT_BOOLEAN('f', "force", &(c)->force, "don't complain, do it")

/* The sub-commands take the top-level options too, without showing them
 * in their usage (perf's OPT_PARENT) */
#define KWORK_PARENT_OPTIONS(c)							\
	{ .type = OPT_INCR_T, .short_name = 'v', .long_name = "verbose",		\
	  .value = &(c)->verbose, .flags = OPTF_HIDDEN },			\
	{ .type = OPT_BOOL_T, .short_name = 'D', .long_name = "dump-raw-trace",	\
	  .value = &(c)->dump, .flags = OPTF_HIDDEN },				\
	{ .type = OPT_STRING_T, .short_name = 'k', .long_name = "kwork",		\
	  .value = &(c)->classes_arg, .argh = "kwork", .flags = OPTF_HIDDEN },	\
	{ .type = OPT_BOOL_T, .short_name = 'f', .long_name = "force",		\
	  .value = &(c)->force, .flags = OPTF_HIDDEN }

/* perf kwork record: the classes' tracepoints, every CPU, each event a sample */
static int kwork_record(struct kwork_cmd *c, int argc, const char **argv)
{
	static const char *const fixed[] = { "record", "-a", "-R", "-m", "1024", "-c", "1" };
	const char **rec_argv = xcalloc(ARRAY_SIZE(fixed) + 2 * KWORK_NR_CLASSES * KWORK_NR_TRACES +
					(size_t)argc, sizeof(*rec_argv));
	int n = 0, ret;

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		rec_argv[n++] = fixed[i];
	for (int i = 0; i < c->o.nr_classes; i++) {
		for (int t = 0; t < KWORK_NR_TRACES; t++) {
			const char *tp = kwork_class__tracepoint(c->o.classes[i], (enum kwork_trace)t);

			if (tp) {
				rec_argv[n++] = "-e";
				rec_argv[n++] = tp;
			}
		}
	}
	ret = cmd_record_then(rec_argv, n, argc - 1, argv + 1);
	free(rec_argv);
	return ret;
}

static int kwork_sample(struct perf_tool *tool, struct perf_session *s,
			const struct perf_event_header *rec, struct perf_sample *sample,
			struct evsel *evsel)
{
	struct kwork_cmd *c = (struct kwork_cmd *)tool;
	struct kwork_event ev;

	if (!kwork_event__decode(s, s->machine, evsel, sample, &ev))
		return 0;
	if (c->dump && c->o.mode == KWORK_TIMEHIST && ev.trace == KWORK_EXIT &&
	    kwork__selected(c->kwork, ev.class)) {
		struct addr_location al;

		/* perf resolves each exit: -D shows its thread and DSO */
		perf_session__resolve_sample(s, sample, &al);
		raw_dump_sample_location(stdout, al.thread, &al);
	}
	/* the stack of the run that entered last is the one perf prints */
	if (kwork__event(c->kwork, &ev) && c->callchain && sample->callchain) {
		struct thread *leader = machine__findnew_thread(s->machine, (pid_t)sample->pid,
								(pid_t)sample->pid);
		int max = (int)c->max_stack + 2 < MAX_FRAMES ? (int)c->max_stack + 2 : MAX_FRAMES;

		c->nr_frames = perf_session__resolve_callchain(s, evsel, sample, leader, max,
							       c->frames, max);
	}
	kwork_event__exit(&ev);
	return 0;
}

static int lost_event(struct perf_tool *tool, struct perf_session *s,
		      const struct perf_event_header *rec, struct perf_sample *sample,
		      struct evsel *evsel)
{
	((struct kwork_cmd *)tool)->nr_lost_events += ((const struct perf_rec_lost *)rec)->lost;
	return 0;
}

/* Under -D, perf's stubs say ": unhandled!" instead of a record's details.
 * Its kwork tool handles samples, MMAP and MMAP2 (timehist also COMM, FORK
 * and EXIT); perf's defaults handle the other kernel records but these. */
static bool unhandled_record(const struct kwork_cmd *c, uint32_t type)
{
	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return c->o.mode != KWORK_TIMEHIST;
	case PERF_RECORD_NAMESPACES:
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_READ:
	case PERF_RECORD_ID_INDEX:
		return true;
	default:
		return false;
	}
}

/* -D: every record dumped as it is delivered, between the command's lines;
 * the thread and CPU maps are printed, then left to a stub */
static int dump_record(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel, uint64_t off)
{
	enum raw_dump_end end = RAW_DUMP_HANDLED;

	if (unhandled_record((struct kwork_cmd *)tool, rec->type))
		end = RAW_DUMP_STUB;
	else if (rec->type == PERF_RECORD_THREAD_MAP || rec->type == PERF_RECORD_CPU_MAP)
		end = RAW_DUMP_STUB_AFTER_DETAILS;
	raw_dump_record_as(stdout, s, rec, sample, evsel, off, end);
	return 0;
}

static void emit_run(const struct kwork_run *run, void *arg)
{
	struct kwork_cmd *c = arg;

	kwork_print_run(stdout, run, c->callchain, c->frames, c->nr_frames);
}

/* -C: CPUs the file's samples name, and no more than it had */
static bool valid_cpus(struct kwork_cmd *c)
{
	int beyond;

	evlist__for_each(&c->session->evlist, pos) {
		if (!(pos->attr.sample_type & PERF_SAMPLE_CPU)) {
			fprintf(stderr, "File does not contain CPU events. Remove -C option to "
				"proceed.\n");
			return false;
		}
	}
	if (sample_filter__set_cpus(&c->filter, c->cpu_list))
		return false;
	beyond = sample_filter__cpu_beyond(&c->filter, c->session->header.nr_cpus_avail);
	if (beyond >= 0)
		fprintf(stderr, "Requested CPU %d too large. Consider raising MAX_NR_CPUS\n",
			beyond);
	return beyond < 0;
}

/* -C and --time into the filter; perf's messages when they do not do */
static int setup_filter(struct kwork_cmd *c)
{
	if (c->cpu_list && !valid_cpus(c)) {
		fprintf(stderr, "Invalid cpu bitmap\n");
		return -1;
	}
	if (c->time_span) {
		char *span = xasprintf("%s%s", c->time_span, strchr(c->time_span, ',') ? "" : ",");
		bool bad = sample_filter__set_time(&c->filter, span) || c->filter.nr_ranges != 1;

		free(span);
		if (bad) {
			fprintf(stderr, "Invalid time span\n");
			return -1;
		}
	}
	c->o.filter = &c->filter;
	c->o.name = c->name;
	return 0;
}

static int read_events(struct kwork_cmd *c)
{
	const char *path = c->input ? c->input : perf_data__default_path(false);
	char *err = NULL;
	int ret = 0;

	c->session = perf_session__open(path, c->force, &err);
	if (!c->session) {
		fprintf(stderr, "failed to open %s", err);
		if (!strcmp(path, "perf.data") && strstr(err, strerror(ENOENT)))
			fputs("  (try 'perf record' first)", stderr);
		fputc('\n', stderr);
		free(err);
		return PCL_EXIT_ERROR;
	}
	if (setup_filter(c))
		return PCL_EXIT_ERROR;
	machine__symbols_config(perf_session__new_machine(c->session, c->kallsyms, c->symfs,
							  c->force))->vmlinux = c->vmlinux;
	evlist__for_each(&c->session->evlist, pos) {
		if (c->callchain && !(pos->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
			c->callchain = false;
	}
	c->o.emit = emit_run;
	c->o.arg = c;
	c->kwork = kwork__new(&c->o);
	if (c->o.mode == KWORK_TIMEHIST)
		kwork_print_timehist_header(stdout);
	c->tool.ordered = true;
	c->tool.sample = kwork_sample;
	c->tool.lost = lost_event;
	if (c->dump)
		c->tool.record = dump_record;
	if (perf_session__process(c->session, &c->tool) < 0) {
		fprintf(stderr, "pcl kwork: %s\n", c->session->err ? c->session->err : "failed");
		ret = PCL_EXIT_ERROR;
	} else {
		session_warnings__print(stderr, &c->session->stats, false);
	}
	return ret;
}

static void close_input(struct kwork_cmd *c)
{
	kwork__delete(c->kwork);
	if (c->session)
		perf_session__delete(c->session);
	sample_filter__exit(&c->filter);
}

/* report and latency: one table of the works, sorted */
static int kwork_table(struct kwork_cmd *c)
{
	struct kwork_report_info info = { .summary = c->summary };
	struct kwork_work **works;
	size_t nr;
	int ret = read_events(c);

	if (!ret) {
		works = kwork__sorted(c->kwork, c->sort, &nr);
		kwork__time_span(c->kwork, &info.time_start, &info.time_end);
		kwork__skipped(c->kwork, info.skipped);
		info.verbose = c->verbose > 0;
		info.atom_pages = kwork__atom_pages(c->kwork);
		info.nr_events = c->session->stats.nr_events;
		info.nr_lost_events = c->nr_lost_events;
		info.nr_lost_chunks = c->session->stats.nr_records[PERF_RECORD_LOST];
		kwork_print_table(stdout, c->o.mode, works, nr, &info);
		free(works);
	}
	close_input(c);
	return ret;
}

static void check_sort(struct kwork_cmd *c, const char *const usage[], const struct option *opts)
{
	char *bad = NULL;

	if (!kwork__valid_sort(c->sort, &bad)) {
		fprintf(stderr, "  Error: Unknown --sort key: `%s'\n", bad);
		free(bad);
		usage_with_options(usage, opts);
	}
}

static int kwork_report(struct kwork_cmd *c, int argc, const char **argv)
{
	const struct option opts[] = {
		OPT_STRING('s', "sort", &c->sort, "key[,key2...]",
			   "sort by key(s): runtime, max, count"),
		OPT_STRING('C', "cpu", &c->cpu_list, "cpu", "list of cpus to profile"),
		OPT_STRING('n', "name", &c->name, "name", "event name to profile"),
		OPT_STRING(0, "time", &c->time_span, "str", "Time span for analysis (start,stop)"),
		OPT_STRING('i', "input", &c->input, "file", "input file name"),
		OPT_BOOLEAN('S', "with-summary", &c->summary, "Show summary with statistics"),
		KWORK_PARENT_OPTIONS(c),
		OPT_END(),
	};

	c->sort = "runtime, max, count";
	if (argc > 1 && parse_options(argc, argv, opts, report_usage, 0))
		usage_with_options(report_usage, opts);
	check_sort(c, report_usage, opts);
	c->o.mode = KWORK_REPORT;
	c->o.summary = c->summary;
	return kwork_table(c);
}

static int kwork_latency(struct kwork_cmd *c, int argc, const char **argv)
{
	const struct option opts[] = {
		OPT_STRING('s', "sort", &c->sort, "key[,key2...]", "sort by key(s): avg, max, count"),
		OPT_STRING('C', "cpu", &c->cpu_list, "cpu", "list of cpus to profile"),
		OPT_STRING('n', "name", &c->name, "name", "event name to profile"),
		OPT_STRING(0, "time", &c->time_span, "str", "Time span for analysis (start,stop)"),
		OPT_STRING('i', "input", &c->input, "file", "input file name"),
		KWORK_PARENT_OPTIONS(c),
		OPT_END(),
	};

	c->sort = "avg, max, count";
	if (argc > 1 && parse_options(argc, argv, opts, latency_usage, 0))
		usage_with_options(latency_usage, opts);
	check_sort(c, latency_usage, opts);
	c->o.mode = KWORK_LATENCY;
	return kwork_table(c);
}

static int kwork_timehist(struct kwork_cmd *c, int argc, const char **argv)
{
	const struct option opts[] = {
		OPT_STRING('k', "vmlinux", &c->vmlinux, "file", "vmlinux pathname"),
		OPT_STRING(0, "kallsyms", &c->kallsyms, "file", "kallsyms pathname"),
		OPT_BOOLEAN('g', "call-graph", &c->callchain, "Display call chains if present"),
		OPT_UINTEGER(0, "max-stack", &c->max_stack,
			     "Maximum number of functions to display backtrace."),
		OPT_STRING(0, "symfs", &c->symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_STRING(0, "time", &c->time_span, "str", "Time span for analysis (start,stop)"),
		OPT_STRING('C', "cpu", &c->cpu_list, "cpu", "list of cpus to profile"),
		OPT_STRING('n', "name", &c->name, "name", "event name to profile"),
		OPT_STRING('i', "input", &c->input, "file", "input file name"),
		KWORK_PARENT_OPTIONS(c),
		OPT_END(),
	};
	const char *bad_file;
	int ret;

	c->max_stack = 5;
	if (argc > 1 && parse_options(argc, argv, opts, timehist_usage, 0))
		usage_with_options(timehist_usage, opts);
	c->o.mode = KWORK_TIMEHIST;
	bad_file = symbol_files__unreadable(c->vmlinux, c->kallsyms);
	if (bad_file) {
		fprintf(stderr, "Invalid file: %s\nFailed to validate sym arguments\n", bad_file);
		return PCL_EXIT_ERROR;
	}
	ret = read_events(c);
	close_input(c);
	return ret;
}

/* perf takes a sub-command's name abbreviated to three letters or more */
static bool is_sub(const char *arg, const char *name)
{
	return strlen(arg) > 2 && !strncmp(name, arg, strlen(arg));
}

int cmd_kwork(int argc, const char **argv)
{
	struct kwork_cmd c = { 0 };
	const struct option opts[] = {
		KWORK_COMMON_OPTIONS(&c),
		OPT_END(),
	};
	char *bad = NULL;

	argc = parse_options(argc, argv, opts, kwork_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_with_options(kwork_usage, opts);
	c.o.nr_classes = kwork_classes__parse(c.classes_arg, c.o.classes, &bad);
	if (c.o.nr_classes < 0) {
		fprintf(stderr, "  Error: Unknown --event key: `%s'\n", bad);
		free(bad);
		usage_with_options(kwork_usage, opts);
	}
	if (is_sub(argv[0], "record"))
		return kwork_record(&c, argc, argv);
	if (is_sub(argv[0], "report"))
		return kwork_report(&c, argc, argv);
	if (is_sub(argv[0], "latency"))
		return kwork_latency(&c, argc, argv);
	if (is_sub(argv[0], "timehist"))
		return kwork_timehist(&c, argc, argv);
	usage_with_options(kwork_usage, opts);
	return PCL_EXIT_USAGE;
}
