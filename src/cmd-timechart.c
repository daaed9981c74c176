/* pcl timechart: record scheduler/power/I/O events, and chart them as SVG. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "builtin.h"
#include "core/analysis/timechart.h"
#include "core/data/session.h"
#include "core/events/cpumap.h"
#include "core/events/tracepoint.h"
#include "ui/session-warnings.h"
#include "ui/timechart-svg.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

struct timechart_cmd {
	struct perf_tool tool;
	struct timechart tc;
	const char *input, *output, *symfs;
	int width, proc_num;
	bool power_only, tasks_only, topology, force, skip_eagain;
	bool io_only, with_backtrace;		/* record */
	uint64_t highlight_ns;
	char *highlight_name;
	enum tc_event *kinds;			/* by evsel->idx */
};

static struct timechart_cmd tcc = {
	.output = "output.svg", .width = 1000, .proc_num = 15,
};

static const char *const timechart_usage[] = {
	"perf timechart [<options>] {record}", NULL
};
static const char *const record_usage[] = { "perf timechart record [<options>]", NULL };

static int opt_process(const struct option *opt, const char *arg, bool unset)
{
	(void)opt, (void)unset;
	if (arg)
		timechart__add_filter(&tcc.tc, arg);
	return 0;
}

/* perf shows the usage of the one option given a bad value (opt starts a
 * table that holds it). */
static void bad_value(const struct option *opt)
{
	parse_options_usage(timechart_usage, opt, opt->long_name, false);
	exit(PCL_EXIT_USAGE);
}

/* A duration in ns, or (when not a number) a task name; given once. */
static int opt_highlight(const struct option *opt, const char *arg, bool unset)
{
	unsigned long ns = strtoul(arg, NULL, 0);

	(void)unset;
	if (tcc.highlight_ns || tcc.highlight_name)
		bad_value(opt);
	if (ns)
		tcc.highlight_ns = ns;
	else
		tcc.highlight_name = xstrdup(arg);
	return 0;
}

/* N, Nns, Nus or Nms */
static int opt_time(const struct option *opt, const char *arg, bool unset)
{
	uint64_t *value = opt->value;
	char unit = 'n';

	(void)unset;
	if (sscanf(arg, "%" SCNu64 "%cs", value, &unit) > 0) {
		if (unit == 'm')
			*value *= 1000000;
		else if (unit == 'u')
			*value *= 1000;
		else if (unit != 'n')
			bad_value(opt);
	}
	return 0;
}

/* perf's usages leave out the options timechart and record share */
#define SHARED_OPTIONS								\
	{ .type = OPT_BOOL_T, .short_name = 'P', .long_name = "power-only",		\
	  .value = &tcc.power_only, .help = "output power data only", .flags = OPTF_HIDDEN }, \
	{ .type = OPT_BOOL_T, .short_name = 'T', .long_name = "tasks-only",		\
	  .value = &tcc.tasks_only, .help = "output processes data only", .flags = OPTF_HIDDEN }

static const struct option options[] = {
	OPT_STRING('i', "input", &tcc.input, "file", "input file name"),
	OPT_STRING('o', "output", &tcc.output, "file", "output file name"),
	OPT_INTEGER('w', "width", &tcc.width, "page width"),
	OPT_CALLBACK(0, "highlight", NULL, "duration or task name",
		     "highlight tasks. Pass duration in ns or process name.", opt_highlight),
	OPT_CALLBACK('p', "process", NULL, "process",
		     "process selector. Pass a pid or process name.", opt_process),
	/* accepted for perf's sake: the chart resolves no symbols */
	OPT_STRING(0, "symfs", &tcc.symfs, "directory",
		   "Look for files with symbols relative to this directory"),
	OPT_INTEGER('n', "proc-num", &tcc.proc_num, "min. number of tasks to print"),
	OPT_BOOLEAN('t', "topology", &tcc.topology, "sort CPUs according to topology"),
	OPT_BOOLEAN(0, "io-skip-eagain", &tcc.skip_eagain, "skip EAGAIN errors"),
	OPT_CALLBACK(0, "io-min-time", &tcc.tc.io_min_time, "time",
		     "all IO faster than min-time will visually appear longer", opt_time),
	OPT_CALLBACK(0, "io-merge-dist", &tcc.tc.io_merge_dist, "time",
		     "merge events that are merge-dist us apart", opt_time),
	OPT_BOOLEAN('f', "force", &tcc.force, "don't complain, do it"),
	SHARED_OPTIONS,
	OPT_END(),
};

static const struct option record_options[] = {
	OPT_BOOLEAN('I', "io-only", &tcc.io_only, "record only IO data"),
	OPT_BOOLEAN('g', "callchain", &tcc.with_backtrace, "record callchain"),
	SHARED_OPTIONS,
	OPT_END(),
};

static bool tracepoint_exists(const char *name)
{
	char sys[64];
	const char *colon = strchr(name, ':');

	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
	return tracepoint__id(sys, colon + 1) >= 0;
}

/* perf timechart record -I: the I/O system calls, system-wide, but not
 * those of the recorder itself. */
static int io_record(int argc, const char **argv)
{
	static const char *const calls[][12] = {
		{ "read", "pread64", "readv", "preadv", "write", "pwrite64", "writev",
		  "pwritev", "sync", "sync_file_range", "fsync", "msync" },
		{ "recvfrom", "recvmmsg", "recvmsg", "sendto", "sendmsg", "sendmmsg" },
		{ "epoll_pwait", "epoll_wait", "poll", "ppoll", "pselect6", "select" },
	};
	const char **rec = xcalloc(8 + 4 * 2 * 24 + (size_t)argc, sizeof(*rec));
	char *filter = xasprintf("common_pid != %d", getpid());
	char **names = xcalloc(2 * 24, sizeof(*names));
	int n = 0, nr_names = 0, ret;

	rec[n++] = "record";
	rec[n++] = "-a";
	rec[n++] = "-R";
	rec[n++] = "-c";
	rec[n++] = "1";
	for (size_t group = 0; group < ARRAY_SIZE(calls); group++) {
		for (int dir = 0; dir < 2; dir++) {
			for (size_t i = 0; i < ARRAY_SIZE(calls[group]) && calls[group][i]; i++) {
				char *name = xasprintf("syscalls:sys_%s_%s", dir ? "exit" : "enter",
						       calls[group][i]);

				names[nr_names++] = name;
				if (!tracepoint_exists(name))
					continue;
				rec[n++] = "-e";
				rec[n++] = name;
				rec[n++] = "--filter";
				rec[n++] = filter;
			}
		}
	}
	ret = cmd_record_then(rec, n, argc, argv);
	while (nr_names)
		free(names[--nr_names]);
	free(names);
	free(filter);
	free(rec);
	return ret;
}

/* perf timechart record: the scheduler and power tracepoints, system-wide,
 * every event (the old power:power_* ones on kernels without cpu_idle). */
static int record(int argc, const char **argv)
{
	static const char *const tasks[] = { "sched:sched_wakeup", "sched:sched_switch" };
	static const char *const power[] = { "power:cpu_frequency", "power:cpu_idle" };
	static const char *const old_power[] = {
		"power:power_start", "power:power_end", "power:power_frequency",
	};
	const char **rec;
	bool old;
	int n = 0, ret;

	if (tcc.io_only)
		return io_record(argc, argv);
	rec = xcalloc(24 + (size_t)argc, sizeof(*rec));
	old = !tracepoint_exists("power:cpu_idle") && tracepoint_exists("power:power_start");
	rec[n++] = "record";
	rec[n++] = "-a";
	rec[n++] = "-R";
	rec[n++] = "-c";
	rec[n++] = "1";
	if (tcc.with_backtrace)
		rec[n++] = "-g";
	for (size_t i = 0; !tcc.power_only && i < ARRAY_SIZE(tasks); i++) {
		rec[n++] = "-e";
		rec[n++] = tasks[i];
	}
	for (size_t i = 0; !tcc.tasks_only && !old && i < ARRAY_SIZE(power); i++) {
		rec[n++] = "-e";
		rec[n++] = power[i];
	}
	for (size_t i = 0; !tcc.tasks_only && old && i < ARRAY_SIZE(old_power); i++) {
		rec[n++] = "-e";
		rec[n++] = old_power[i];
	}
	ret = cmd_record_then(rec, n, argc, argv);
	free(rec);
	return ret;
}

static int timechart_sample(struct perf_tool *tool, struct perf_session *s,
			    const struct perf_event_header *rec, struct perf_sample *sample,
			    struct evsel *evsel)
{
	enum tc_event kind = tcc.kinds[evsel->idx];
	char *bt;
	int ret;

	(void)tool, (void)rec;
	if (!(evsel->attr.sample_type & PERF_SAMPLE_TIME))
		return 0;
	bt = timechart__backtrace(sample);
	ret = timechart__sample(&tcc.tc, kind, perf_session__event(s, evsel)->tp_format, sample,
				bt);
	free(bt);
	return ret;
}

/* Samples of other events only widen the time range: the session notes
 * their times without delivering them.  (When a sample stops the reading,
 * no chart is drawn, so times read past it do not matter.) */
static bool timechart_ignores(struct perf_tool *tool, struct perf_session *s, struct evsel *evsel)
{
	(void)tool, (void)s;
	return tcc.kinds[evsel->idx] == TC_EV_OTHER;
}

static int timechart_comm(struct perf_tool *tool, struct perf_session *s,
			  const struct perf_event_header *rec, struct perf_sample *sample,
			  struct evsel *evsel)
{
	const struct perf_rec_comm *comm = (const void *)rec;

	(void)tool, (void)s, (void)sample, (void)evsel;
	timechart__comm(&tcc.tc, (int)comm->tid, comm->comm);
	return 0;
}

static int timechart_fork(struct perf_tool *tool, struct perf_session *s,
			  const struct perf_event_header *rec, struct perf_sample *sample,
			  struct evsel *evsel)
{
	const struct perf_rec_fork *fork = (const void *)rec;

	(void)tool, (void)s, (void)sample, (void)evsel;
	timechart__fork(&tcc.tc, (int)fork->pid, (int)fork->ppid, fork->time);
	return 0;
}

static int timechart_exit(struct perf_tool *tool, struct perf_session *s,
			  const struct perf_event_header *rec, struct perf_sample *sample,
			  struct evsel *evsel)
{
	const struct perf_rec_fork *exit = (const void *)rec;

	(void)tool, (void)s, (void)sample, (void)evsel;
	timechart__exit_task(&tcc.tc, (int)exit->pid, exit->time);
	return 0;
}

/* What /proc/cpuinfo names the CPU (the rest of the line after
 * "model name\t: ", newline kept), as perf prints it under each CPU. */
static char *cpu_model(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char buf[256], *model = NULL;

	while (f && !model && fgets(buf, 255, f))
		if (strcasestr(buf, "model name"))
			model = xstrndup(strlen(buf) > 13 ? buf + 13 : "", 254);
	if (f)
		fclose(f);
	return model ? model : xstrdup("");
}

static uint64_t sysfs_max_freq(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/scaling_available_frequencies",
			"r");
	char buf[256];
	uint64_t max = 0;

	while (f && fgets(buf, 255, f)) {
		uint64_t freq = strtoull(buf, NULL, 10);

		if (freq > max)
			max = freq;
	}
	if (f)
		fclose(f);
	return max;
}

static void warn_stderr(const char *what)
{
	fprintf(stderr, "%s\n", what);
}

/* -o NAME.html: the chart in a page that zooms (perf writes SVG only) */
static bool is_html(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && !strcasecmp(path + n - 5, ".html");
}

static bool has_tracepoints(struct perf_session *s)
{
	for (struct evsel *e = s->evlist.first; e; e = e->next)
		if (e->attr.type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

static int chart(void)
{
	struct timechart_svg_opts o = {
		.width = tcc.width, .highlight_ns = tcc.highlight_ns,
		.highlight_name = tcc.highlight_name, .tasks_only = tcc.tasks_only,
		.skip_eagain = tcc.skip_eagain,
	};
	struct perf_session *s;
	struct timechart *tc = &tcc.tc;
	int *positions = NULL;
	char *err = NULL, *model = NULL;
	FILE *f;
	int ret;

	if (!tcc.input)
		tcc.input = perf_data__default_path(false);
	s = perf_session__open(tcc.input, tcc.force, &err);
	if (!s) {
		session_warnings__open_failed(tcc.input, err);
		free(err);
		return PCL_EXIT_ERROR;
	}
	tc->nr_cpus = s->header.nr_cpus_avail;
	tc->warn = warn_stderr;
	if (!has_tracepoints(s)) {
		fputs("No trace sample to read. Did you call 'perf timechart record'?\n", stderr);
		perf_session__delete(s);
		return PCL_EXIT_EINVAL;
	}
	if (tcc.topology)
		positions = timechart__topology(&s->header);
	tcc.kinds = xcalloc(s->evlist.nr_entries, sizeof(*tcc.kinds));
	for (struct evsel *e = s->evlist.first; e; e = e->next)
		if (e->attr.type == PERF_TYPE_TRACEPOINT)
			tcc.kinds[e->idx] = timechart__event_kind(e->name);
	ret = perf_session__process(s, &tcc.tool);
	if (ret < 0 && s->err) {
		fprintf(stderr, "pcl timechart: %s\n", s->err);
		ret = PCL_EXIT_ERROR;
		goto out;
	}
	if (ret < 0 && s->failed_rec.size)	/* a handler stopped it, as perf says */
		fprintf(stderr, "%#llx [%#x]: failed to process type: %u [%s]\n",
			(unsigned long long)s->failed_offset, s->failed_rec.size,
			s->failed_rec.type, strerror(-ret));
	session_warnings__print(stderr, &s->stats, false);
	if (ret) {			/* no chart, perf's status */
		ret = ret < 0 ? ret & 0xff : PCL_EXIT_ERROR;
		goto out;
	}
	if (s->stats.ignored_first_time)
		timechart__widen(tc, s->stats.ignored_first_time, s->stats.ignored_last_time);
	timechart__finish(tc);
	if (tcc.power_only)
		tcc.proc_num = 0;
	o.rows = timechart__select(tc, tcc.proc_num);
	if (!tcc.proc_num)
		o.rows = 0;
	o.draw_tasks = tcc.proc_num != 0;
	o.cpu_position = positions;
	o.cpu_model = model = cpu_model();
	o.sysfs_max_freq = sysfs_max_freq();
	f = fopen(tcc.output, "w");
	if (!f) {
		fprintf(stderr, "Cannot open %s for output\n", tcc.output);
	} else {
		if (is_html(tcc.output))
			timechart_svg__write_html(f, tc, &o, tcc.input);
		else
			timechart_svg__write(f, tc, &o);
		fclose(f);
	}
	fprintf(stderr, "Written %2.1f seconds of trace to %s.\n",
		(double)(tc->last_time - tc->first_time) / 1e9, tcc.output);
out:
	free(model);
	free(positions);
	free(tcc.kinds);
	perf_session__delete(s);
	return ret;
}

int cmd_timechart(int argc, const char **argv)
{
	int ret;

	timechart__init(&tcc.tc);
	tcc.tool = (struct perf_tool){
		.sample = timechart_sample, .comm = timechart_comm, .fork = timechart_fork,
		.exit = timechart_exit, .ignores_samples = timechart_ignores, .ordered = true,
	};
	argc = parse_options(argc, argv, options, timechart_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (tcc.power_only && tcc.tasks_only) {
		fputs("-P and -T options cannot be used at the same time.\n", stderr);
		ret = PCL_EXIT_ERROR;
	} else if (argc && strlen(argv[0]) > 2 && !strncmp("record", argv[0], strlen(argv[0]))) {
		argc = parse_options(argc, argv, record_options, record_usage,
				     PARSE_OPT_STOP_AT_NON_OPTION);
		if (tcc.power_only && tcc.tasks_only) {
			fputs("-P and -T options cannot be used at the same time.\n", stderr);
			ret = PCL_EXIT_ERROR;
		} else {
			ret = record(argc, argv);
		}
	} else if (argc) {
		usage_with_options(timechart_usage, options);
	} else {
		ret = chart();
	}
	timechart__exit(&tcc.tc);
	free(tcc.highlight_name);
	return ret;
}
