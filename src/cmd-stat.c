/* pcl stat: count events while a workload runs (or on -p/-t/-a/-C targets)
 * and print the totals, -I interval deltas, -r averages, as perf 6.1 does.
 *
 * Orchestration only: options and checks here; opening and reading in
 * core/evlist, aggregation in core/counts, metrics in core/metrics, the
 * layout in ui/stat-display.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "core/hist/counts.h"
#include "core/events/evlist.h"
#include "core/hist/metrics.h"
#include "core/events/parse-events.h"
#include "core/events/pmu.h"
#include "core/live/control.h"
#include "core/live/target.h"
#include "ui/stat-display.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/perfconfig.h"
#include "util/strbuf.h"
#include "util/util.h"

#define MAX_RUNS 100

static const char *const stat_usage[] = {
	"pcl stat [<options>] [<command>]",
	NULL,
};

/* Options. */
static struct evlist evlist;
static struct target target;
static int aggr_mode = AGGR_GLOBAL;
static bool no_merge, group_run, no_inherit, null_run, sync_run, json, append_file;
static bool quiet, all_user, all_kernel, run_table, scale_opt = true;
static bool summary, no_csv_summary, interval_clear;
static int detailed, verbose, big_num_opt = -1, log_fd, interval_count;
static int run_count = 1;
static unsigned int interval, timeout;
static bool interval_given;
static const char *csv_sep, *output_name, *pre_cmd, *post_cmd;
static char **cgroup_names;
static int nr_cgroup_names;
static bool metric_only, percore_show_thread;
/* accepted as perf's: they tune -M metric events and hybrid PMUs, none here */
static bool metric_no_group, metric_no_merge, hybrid_merge;
static bool topdown_run, transaction_run, smi_cost;
static unsigned int topdown_level;
static char *metrics_list;		/* -M, the lists of every -M joined by ',' */
static const char *for_each_cgroup;	/* --for-each-cgroup */
static struct control control = { .fd = -1, .ack_fd = -1 };
/* the command line, to tell "--opt=v" from "--opt v" */
static int stat_argc;
static const char **stat_argv;

static const struct option *stat_options;

/* --- option callbacks --- */

static int parse_event_opt(const struct option *opt, const char *arg, bool unset)
{
	struct parse_events_error err = { .idx = -1 };

	if (!parse_events(&evlist, arg, &err)) {
		parse_events_error__print_warnings(&err);
		return 0;
	}
	parse_events_error__print(&err, arg);
	parse_events_error__exit(&err);
	parse_options_usage(stat_usage, stat_options, "e", true);
	exit(PCL_EXIT_USAGE);
}

static int parse_filter_opt(const struct option *opt, const char *arg, bool unset)
{
	int err = parse_events_filter(&evlist, arg);

	if (!err)
		return 0;
	fprintf(stderr, "%s\n", parse_events_filter_strerror(err));
	parse_options_usage(stat_usage, stat_options, "filter", false);
	exit(PCL_EXIT_USAGE);
}

static int parse_cgroup_opt(const struct option *opt, const char *arg, bool unset)
{
	const char *p = arg;

	if (for_each_cgroup) {
		fprintf(stderr, "--cgroup and --for-each-cgroup cannot be used together\n");
		parse_options_usage(stat_usage, stat_options, "G", true);
		exit(PCL_EXIT_USAGE);
	}
	if (!evlist.nr_entries) {
		fprintf(stderr, "must define events before cgroups\n");
		parse_options_usage(stat_usage, stat_options, "G", true);
		exit(PCL_EXIT_USAGE);
	}
	for (;;) {
		const char *end = strchrnul(p, ',');

		cgroup_names = xrealloc(cgroup_names, (size_t)(nr_cgroup_names + 1) * sizeof(char *));
		cgroup_names[nr_cgroup_names++] = xstrndup(p, (size_t)(end - p));
		if (!*end)
			break;
		p = end + 1;
	}
	return 0;
}

/*
 * A callback refusing its value: perf then shows the usage of the option as
 * typed, which names no option when the value was attached ("--opt=value").
 */
static void refuse_option_value(const struct option *opt, const char *arg)
{
	bool separate = arg == opt->defstr;
	char *typed;

	for (int i = 0; i < stat_argc && !separate; i++)
		separate = stat_argv[i] == arg;
	typed = separate ? xstrdup(opt->long_name) : xasprintf("%s=%s", opt->long_name, arg);
	parse_options_usage(stat_usage, stat_options, typed, false);
	free(typed);
	exit(PCL_EXIT_USAGE);
}

static int parse_metrics_opt(const struct option *opt, const char *arg, bool unset)
{
	char *joined = metrics_list ? xasprintf("%s,%s", metrics_list, arg) : xstrdup(arg);

	free(metrics_list);
	metrics_list = joined;
	return 0;
}

/* Without hybrid PMUs (cpu_core, cpu_atom) perf refuses any type. */
static int parse_cputype_opt(const struct option *opt, const char *arg, bool unset)
{
	char *path = xasprintf("/sys/bus/event_source/devices/cpu_%s", arg);
	bool found = access(path, F_OK) == 0;

	free(path);
	if (found)
		return 0;
	fprintf(stderr, "--cputype %s is not supported!\n", arg);
	refuse_option_value(opt, arg);
	return -1;
}

/* The I/O metrics come from the root ports of Intel Xeon uncore PMUs. */
static int parse_iostat_opt(const struct option *opt, const char *arg, bool unset)
{
	fprintf(stderr, "Unsupported uncore pmu configuration\n");
	refuse_option_value(opt, arg);
	return -1;
}

static int parse_control_opt(const struct option *opt, const char *arg, bool unset)
{
	control__close(&control);
	if (!control__open(&control, arg))
		return 0;
	if (control.failed_path)
		fprintf(stderr, "Failed to open '%s'\n", control.failed_path);
	refuse_option_value(opt, arg);
	return -1;
}

static int set_big_num(const struct option *opt, const char *arg, bool unset)
{
	big_num_opt = unset ? 0 : 1;
	return 0;
}

static int set_interval(const struct option *opt, const char *arg, bool unset)
{
	char *end;
	unsigned long v;

	if (unset) {
		interval = 0;
		interval_given = false;
		return 0;
	}
	errno = 0;
	v = strtoul(arg, &end, 0);
	if (*arg == '-' || !*arg || *end || errno || v > 0xffffffffUL) {
		fprintf(stderr, " Error: switch `I' expects %s numerical value",
			*arg == '-' ? "an unsigned" : "a");
		return -1;
	}
	interval = (unsigned int)v;
	interval_given = true;
	return 0;
}

static const struct option options[] = {
	OPT_BOOLEAN('T', "transaction", &transaction_run, "hardware transaction statistics"),
	{ .type = OPT_CALLBACK_T, .short_name = 'e', .long_name = "event", .argh = "event",
	  .help = "event selector. use 'pcl list' to list available events",
	  .callback = parse_event_opt, .flags = OPTF_NONEG },
	OPT_CALLBACK(0, "filter", NULL, "filter", "event filter", parse_filter_opt),
	OPT_BOOLEAN('i', "no-inherit", &no_inherit, "child tasks do not inherit counters"),
	OPT_STRING('p', "pid", &target.pid, "pid", "stat events on existing process id"),
	OPT_STRING('t', "tid", &target.tid, "tid", "stat events on existing thread id"),
	OPT_BOOLEAN('a', "all-cpus", &target.system_wide, "system-wide collection from all CPUs"),
	OPT_BOOLEAN('g', "group", &group_run, "put the counters into a counter group"),
	OPT_BOOLEAN(0, "scale", &scale_opt,
		    "Use --no-scale to disable counter scaling for multiplexing"),
	OPT_INCR('v', "verbose", &verbose, "be more verbose (show counter open errors, etc)"),
	OPT_INTEGER('r', "repeat", &run_count,
		    "repeat command and print average + stddev (max: 100, forever: 0)"),
	OPT_BOOLEAN(0, "table", &run_table, "display details about each run (only with -r option)"),
	OPT_BOOLEAN('n', "null", &null_run, "null run - dont start any counters"),
	OPT_INCR('d', "detailed", &detailed, "detailed run - start a lot of events"),
	OPT_BOOLEAN('S', "sync", &sync_run, "call sync() before starting a run"),
	OPT_CALLBACK_NOOPT('B', "big-num", NULL,
			   "print large numbers with thousands' separators", set_big_num),
	OPT_STRING('C', "cpu", &target.cpu_list, "cpu", "list of cpus to monitor in system-wide"),
	OPT_SET_INT('A', "no-aggr", &aggr_mode, "disable CPU count aggregation", AGGR_NONE),
	OPT_BOOLEAN(0, "no-merge", &no_merge, "Do not merge identical named events"),
	OPT_BOOLEAN(0, "hybrid-merge", &hybrid_merge, "Merge identical named hybrid events"),
	OPT_STRING('x', "field-separator", &csv_sep, "separator",
		   "print counts with custom separator"),
	OPT_BOOLEAN('j', "json-output", &json, "print counts in JSON format"),
	OPT_CALLBACK('G', "cgroup", NULL, "name", "monitor event in cgroup name only",
		     parse_cgroup_opt),
	OPT_STRING(0, "for-each-cgroup", &for_each_cgroup, "name", "expand events for each cgroup"),
	OPT_STRING('o', "output", &output_name, "file", "output file name"),
	OPT_BOOLEAN(0, "append", &append_file, "append to the output file"),
	OPT_INTEGER(0, "log-fd", &log_fd, "log output to fd, instead of stderr"),
	OPT_STRING(0, "pre", &pre_cmd, "command", "command to run prior to the measured command"),
	OPT_STRING(0, "post", &post_cmd, "command", "command to run after to the measured command"),
	{ .type = OPT_CALLBACK_T, .short_name = 'I', .long_name = "interval-print",
	  .argh = "n", .callback = set_interval,
	  .help = "print counts at regular interval in ms (overhead is possible for values <= 100ms)" },
	OPT_INTEGER(0, "interval-count", &interval_count, "print counts for fixed number of times"),
	OPT_BOOLEAN(0, "interval-clear", &interval_clear, "clear screen in between new interval"),
	OPT_UINTEGER(0, "timeout", &timeout,
		     "stop workload and print counts after a timeout period in ms (>= 10ms)"),
	OPT_SET_INT(0, "per-socket", &aggr_mode, "aggregate counts per processor socket", AGGR_SOCKET),
	OPT_SET_INT(0, "per-die", &aggr_mode, "aggregate counts per processor die", AGGR_DIE),
	OPT_SET_INT(0, "per-core", &aggr_mode, "aggregate counts per physical processor core",
		    AGGR_CORE),
	OPT_SET_INT(0, "per-thread", &aggr_mode, "aggregate counts per thread", AGGR_THREAD),
	OPT_SET_INT(0, "per-node", &aggr_mode, "aggregate counts per numa node", AGGR_NODE),
	OPT_INTEGER('D', "delay", &target.initial_delay,
		    "ms to wait before starting measurement after program start (-1: start with events disabled)"),
	OPT_BOOLEAN(0, "metric-only", &metric_only, "Only print computed metrics. No raw values"),
	OPT_BOOLEAN(0, "metric-no-group", &metric_no_group,
		    "don't group metric events, impacts multiplexing"),
	OPT_BOOLEAN(0, "metric-no-merge", &metric_no_merge,
		    "don't try to share events between metrics in a group"),
	OPT_BOOLEAN(0, "topdown", &topdown_run, "measure top-down statistics"),
	OPT_UINTEGER(0, "td-level", &topdown_level,
		     "Set the metrics level for the top-down statistics (0: max level)"),
	OPT_BOOLEAN(0, "smi-cost", &smi_cost, "measure SMI cost"),
	OPT_CALLBACK('M', "metrics", NULL, "metric/metric group list",
		     "monitor specified metrics or metric groups (separated by ,)",
		     parse_metrics_opt),
	OPT_BOOLEAN(0, "all-kernel", &all_kernel, "Configure all used events to run in kernel space."),
	OPT_BOOLEAN(0, "all-user", &all_user, "Configure all used events to run in user space."),
	OPT_BOOLEAN(0, "percore-show-thread", &percore_show_thread,
		    "Use with 'percore' event qualifier to show the event counts of one hardware "
		    "thread by sum up total hardware threads of same physical core"),
	OPT_BOOLEAN(0, "summary", &summary, "print summary for interval mode"),
	OPT_BOOLEAN(0, "no-csv-summary", &no_csv_summary,
		    "don't print 'summary' for CSV summary output"),
	OPT_BOOLEAN(0, "quiet", &quiet,
		    "don't print any output, messages or warnings (useful with record)"),
	OPT_CALLBACK(0, "cputype", NULL, "hybrid cpu type",
		     "Only enable events on applying cpu with this type for hybrid platform "
		     "(e.g. core or atom)", parse_cputype_opt),
	OPT_CALLBACK(0, "control", NULL, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
		     "Listen on ctl-fd descriptor for command to control measurement "
		     "('enable': enable events, 'disable': disable events).\n"
		     "\t\t\t  Optionally send control command completion ('ack\\n') to ack-fd "
		     "descriptor.\n"
		     "\t\t\t  Alternatively, ctl-fifo / ack-fifo will be opened and used as "
		     "ctl-fd / ack-fd.", parse_control_opt),
	OPT_CALLBACK_OPTARG(0, "iostat", NULL, "default",
			    "measure I/O performance metrics provided by arch/platform",
			    parse_iostat_opt, "default"),
	OPT_END(),
};

/* --- the session --- */

struct session {
	FILE *out;
	bool forks;
	int argc;
	const char **argv;
	struct cpu_map *cpus, *tool_cpus;
	struct thread_map *threads;
	struct aggr_map *map;
	struct shadow_stats shadow;
	struct stat_counter *counters;	/* one per event, in evlist order */
	struct evsel_counts *counts;
	int nr;
	struct stat_display display;
	struct workload workload;
	uint64_t t0;
	struct timespec ref_time;
	uint64_t *walltime_run;
	/* user/system time of the target at t0, for the tool events */
	uint64_t times_start[2];
};

static volatile sig_atomic_t done, child_running, caught_signal = -1;

static void skip_signal(int signo)
{
	if (!child_running || interval)
		done = 1;
	caught_signal = signo;
	child_running = 0;
}

/* perf leaves with the signal that stopped it, once the output is out. */
static void sig_atexit(void)
{
	if (caught_signal == -1)
		return;
	signal(caught_signal, SIG_DFL);
	kill(getpid(), caught_signal);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static struct timespec ts_diff(struct timespec a, struct timespec b)
{
	struct timespec r = { a.tv_sec - b.tv_sec, a.tv_nsec - b.tv_nsec };

	if (r.tv_nsec < 0) {
		r.tv_nsec += 1000000000L;
		r.tv_sec--;
	}
	return r;
}

/* --- default events --- */

static void add_event(const struct perf_event_attr *attr, const char *name)
{
	/* under pcl kvm the defaults count guests too, and perf names them so */
	char *tagged = attr->exclude_host || !attr->exclude_guest ?
		       xasprintf("%s:%s%s", name, attr->exclude_host ? "" : "H",
				 attr->exclude_guest ? "" : "G") : NULL;

	evlist__add(&evlist, evsel__new(attr, tagged ? tagged : name));
	free(tagged);
}

#define CACHE(c, op, res) ((c) | ((op) << 8) | ((res) << 16))

static void add_default_events(void)
{
	static const struct { uint32_t type; uint64_t config; const char *name; } defaults[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branches" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "branch-misses" },
	};
	/* -d, -dd, -ddd: each level adds its cache events */
	static const struct { int level; uint64_t config; const char *name; } detail[] = {
		{ 1, CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS), "L1-dcache-loads" },
		{ 1, CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS), "L1-dcache-load-misses" },
		{ 1, CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS), "LLC-loads" },
		{ 1, CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS), "LLC-load-misses" },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_L1I, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS), "L1-icache-loads" },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_L1I, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS), "L1-icache-load-misses" },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_DTLB, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS), "dTLB-loads" },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_DTLB, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS), "dTLB-load-misses" },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_ITLB, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS), "iTLB-loads" },
		{ 2, CACHE(PERF_COUNT_HW_CACHE_ITLB, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS), "iTLB-load-misses" },
		{ 3, CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_PREFETCH, PERF_COUNT_HW_CACHE_RESULT_ACCESS), "L1-dcache-prefetches" },
		{ 3, CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_PREFETCH, PERF_COUNT_HW_CACHE_RESULT_MISS), "L1-dcache-prefetch-misses" },
	};
	struct perf_event_attr attr;

	if (null_run)
		return;
	if (!evlist.nr_entries) {
		for (size_t i = 0; i < ARRAY_SIZE(defaults); i++) {
			memset(&attr, 0, sizeof(attr));
			attr.type = defaults[i].type;
			attr.config = defaults[i].config;
			attr.exclude_guest = !parse_events__guest;
			attr.exclude_host = !parse_events__host;
			/* counting CPUs: the CPU's clock, not a task's */
			if (i == 0 && target__has_cpu(&target)) {
				attr.config = PERF_COUNT_SW_CPU_CLOCK;
				add_event(&attr, "cpu-clock");
				continue;
			}
			add_event(&attr, defaults[i].name);
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(detail); i++) {
		if (detail[i].level > detailed)
			continue;
		memset(&attr, 0, sizeof(attr));
		attr.type = PERF_TYPE_HW_CACHE;
		attr.config = detail[i].config;
		attr.exclude_guest = !parse_events__guest;
		attr.exclude_host = !parse_events__host;
		add_event(&attr, detail[i].name);
	}
}

/* Adds the events of a special mode as perf spells them; 0 or -1. */
static int add_event_string(const char *events, const char *failure, const char *shown)
{
	struct parse_events_error err = { .idx = -1 };

	if (!parse_events(&evlist, events, &err))
		return 0;
	fprintf(stderr, "%s\n", failure);
	/* perf quotes its full transaction set even when it tried the short one */
	parse_events_error__print_error(&err, shown);
	parse_events_error__exit(&err);
	return -1;
}

static bool cpu_pmu_has(const char *event)
{
	const struct pmu *cpu = pmus__find("cpu");

	return cpu && pmu__find_alias(cpu, event);
}

/* -T: the transactional memory (TSX) events, all four begin/abort kinds
 * when the CPU has them. */
static int add_transaction_events(void)
{
	static const char full[] = "task-clock,{instructions,cycles,cpu/cycles-t/,cpu/tx-start/,"
				   "cpu/el-start/,cpu/cycles-ct/}";
	static const char limited[] = "task-clock,{instructions,cycles,cpu/cycles-t/,"
				      "cpu/tx-start/}";
	bool all = cpu_pmu_has("cycles-ct") && cpu_pmu_has("el-start");

	return add_event_string(all ? full : limited, "Cannot set up transaction events", full);
}

#define FREEZE_ON_SMI "/sys/devices/cpu/freeze_on_smi"
static bool smi_freeze_set;	/* we turned freeze_on_smi on: turn it off at the end */

static int write_freeze_on_smi(const char *value)
{
	int fd = open(FREEZE_ON_SMI, O_WRONLY | O_CLOEXEC);
	bool ok = fd >= 0 && write(fd, value, strlen(value)) == (ssize_t)strlen(value);

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* --smi-cost: SMI counts and the cycles they steal, with the cycle counters
 * frozen during SMIs. */
static int add_smi_cost_events(void)
{
	char *value = read_file_str(FREEZE_ON_SMI);
	const struct pmu *msr = pmus__find("msr");
	bool frozen = value && atoi(value) > 0;

	if (!value) {
		fprintf(stderr, "freeze_on_smi is not supported.\n");
		return -1;
	}
	free(value);
	if (!frozen) {
		if (write_freeze_on_smi("1")) {
			fprintf(stderr, "Failed to set freeze_on_smi.\n");
			return -1;
		}
		smi_freeze_set = true;
	}
	if (!msr || !pmu__find_alias(msr, "aperf") || !pmu__find_alias(msr, "smi")) {
		fprintf(stderr, "To measure SMI cost, it needs msr/aperf/, msr/smi/ and "
			"cpu/cycles/ support\n");
		return -1;
	}
	metric_only = true;
	return add_event_string("{msr/aperf/,msr/smi/,cycles}", "Cannot set up SMI cost events",
				"{msr/aperf/,msr/smi/,cycles}");
}

/* --topdown: the level 1 slots of Intel's top-down method, counted on CPUs. */
static int add_topdown_events(void)
{
	static const char *const level1[] = {
		"topdown-total-slots", "topdown-slots-retired", "topdown-recovery-bubbles",
		"topdown-fetch-bubbles", "topdown-slots-issued",
	};
	struct strbuf events = STRBUF_INIT;
	int err;

	if (topdown_level > 1) {
		fprintf(stderr, "Invalid top-down metrics level. The max level is 1.\n");
		return -1;
	}
	if (!target__has_cpu(&target)) {
		fprintf(stderr, "top down event configuration requires system-wide mode (-a)\n");
		return -1;
	}
	metric_only = true;
	for (size_t i = 0; i < ARRAY_SIZE(level1); i++)
		if (cpu_pmu_has(level1[i]))
			strbuf_addf(&events, "%s%s", events.len ? "," : "{", level1[i]);
	if (!events.len) {
		fprintf(stderr, "System does not support topdown\n");
		return -1;
	}
	strbuf_addch(&events, '}');
	err = add_event_string(events.buf, "Cannot set up top down events", events.buf);
	strbuf_release(&events);
	return err;
}

/* The event sets of -M, -T, --smi-cost and --topdown, in perf's order. */
static int add_special_events(void)
{
	if (metrics_list) {
		/* perf's metric tables are not part of pcl: every name is unknown */
		char *first = xstrndup(metrics_list, strcspn(metrics_list, ","));

		fprintf(stderr, "Cannot find metric or group `%s'\n", first);
		free(first);
	}
	if (null_run)
		return 0;
	if (transaction_run)
		return add_transaction_events();
	if (smi_cost && add_smi_cost_events())
		return -1;
	if (topdown_run)
		return add_topdown_events();
	return 0;
}

/* -g: every event in one group led by the first. */
static void make_one_group(void)
{
	struct evsel *first = evlist.first;

	if (!first)
		return;
	evlist__for_each(&evlist, pos) {
		pos->leader = first;
		pos->nr_members = 0;
	}
	first->nr_members = evlist.nr_entries;
}

/* The attr bits every counting event needs (perf's create_perf_stat_counter). */
static void prepare_attrs(void)
{
	evlist__for_each(&evlist, pos) {
		struct perf_event_attr *a = &pos->attr;

		a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a->inherit = !no_inherit;
		a->sample_period = 0;
		a->freq = 0;
		a->sample_type = PERF_SAMPLE_IDENTIFIER;
		if (all_user) {
			a->exclude_kernel = 1;
			a->exclude_user = 0;
		}
		if (all_kernel) {
			a->exclude_kernel = 0;
			a->exclude_user = 1;
		}
		if (pos->leader == pos) {
			a->disabled = 1;
			a->enable_on_exec = target__enable_on_exec(&target);
		}
	}
}

/* --- tool events: measured by pcl --- */

static int tool_pid(const struct session *s)
{
	return s->threads->nr ? s->threads->map[0].pid : -1;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ULL + (uint64_t)tv.tv_usec * 1000ULL;
}

/* user_time or system_time now; final once the workload was reaped. */
static uint64_t tool_value(struct session *s, enum tool_event tool, bool final)
{
	uint64_t times[2];

	if (final && s->forks) {
		struct rusage *ru = &s->workload.rusage;

		return tool == TOOL_USER_TIME ? tv_ns(ru->ru_utime) : tv_ns(ru->ru_stime);
	}
	target__cpu_times(tool_pid(s), times);
	return times[tool == TOOL_SYSTEM_TIME] - s->times_start[tool == TOOL_SYSTEM_TIME];
}

/* --- reading and processing --- */

/* Reads every event; elapsed (ns since the start) is duration_time's value. */
static void read_counters(struct session *s, bool final, uint64_t elapsed)
{
	int i = 0;

	evlist__for_each(&evlist, pos) {
		struct evsel_counts *c = &s->counts[i++];

		if (pos->tool != TOOL_NONE) {
			struct counts_values *v = evsel_counts__at(c, 0, 0);
			uint64_t val = pos->tool == TOOL_DURATION_TIME ? elapsed :
				       tool_value(s, pos->tool, final);

			/* perf reports a tool time that never moved as not counted */
			v->val = v->ena = v->run = val;
			c->failed = false;
			continue;
		}
		evsel_counts__read(c, pos);
		if (verbose > 1 && !c->failed)
			for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
				struct counts_values *v = evsel_counts__at(c, cpu, 0);

				fprintf(s->out, "%s: %d: %lu %lu %lu\n", pos->name,
					pos->cpus ? pos->cpus->map[cpu] : -1, (unsigned long)v->val,
					(unsigned long)v->ena, (unsigned long)v->run);
			}
	}
}

/* Aggregates the reads into the display values and feeds the metrics. */
static void process_counters(struct session *s, bool interval_mode)
{
	for (int i = 0; i < s->nr; i++) {
		struct stat_counter *sc = &s->counters[i];
		struct evsel_counts *c = &s->counts[i];
		const struct evsel *evsel = sc->evsel;

		if (c->failed && verbose > 0)
			fprintf(stderr, "failed to read counter %s\n", evsel->name);
		if (aggr_mode == AGGR_GLOBAL) {
			evsel_counts__aggr_global(c, interval_mode, scale_opt, &sc->values[0]);
			if (c->failed || !evsel->supported) {
				sc->values[0].counted = false;
				continue;
			}
			stats__update(&c->res_stats, sc->values[0].val);
			sc->noise_stddev = stats__stddev(&c->res_stats);
			if (verbose > 0)
				fprintf(s->out, "%s: %lu %lu %lu\n", evsel->name,
					(unsigned long)sc->values[0].val, (unsigned long)sc->values[0].ena,
					(unsigned long)sc->values[0].run);
			shadow_stats__update(&s->shadow, evsel, 0, (uint64_t)sc->values[0].val);
			continue;
		}
		evsel_counts__aggr_units(c, evsel, s->map, interval_mode, scale_opt, sc->values);
		if (percore_show_thread && evsel->percore && aggr_mode == AGGR_NONE)
			aggr_values__sum_core_siblings(s->map, sc->values);
		if (c->failed || !evsel->supported) {
			for (int u = 0; u < s->map->nr; u++)
				sc->values[u].counted = false;
			continue;
		}
		for (int u = 0; u < s->map->nr; u++)
			if (sc->values[u].nr || aggr_mode == AGGR_THREAD)
				shadow_stats__update(&s->shadow, evsel, u, (uint64_t)sc->values[u].val);
	}
}

static void print_counters(struct session *s, const struct timespec *ts)
{
	if (quiet || !s->out)
		return;
	stat_display__print(&s->display, ts);
}

static void process_interval(struct session *s)
{
	struct timespec now, rs;

	clock_gettime(CLOCK_MONOTONIC, &now);
	rs = ts_diff(now, s->ref_time);
	shadow_stats__reset(&s->shadow);
	read_counters(s, false, (uint64_t)rs.tv_sec * 1000000000ULL + (uint64_t)rs.tv_nsec);
	process_counters(s, true);
	stats__init(&s->shadow.walltime);
	stats__update(&s->shadow.walltime, (double)interval * 1000000.0);
	print_counters(s, &rs);
}

static bool target_alive(const struct session *s)
{
	if (!target__has_task(&target))
		return true;
	for (int i = 0; i < s->threads->nr; i++) {
		char path[64];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%d", s->threads->map[i].pid);
		if (!stat(path, &st))
			return true;
	}
	return false;
}

/* "enable" / "disable": every event, or the one named after the command. */
static void switch_events(bool on, const char *name)
{
	const char *state = on ? "enabled" : "disabled";

	if (!*name) {
		if (on)
			evlist__enable(&evlist);
		else
			evlist__disable(&evlist);
		fprintf(stderr, "Events %s\n", state);
		return;
	}
	evlist__for_each(&evlist, pos) {
		if (strcmp(pos->name, name))
			continue;
		if (on)
			evsel__enable(pos);
		else
			evsel__disable(pos);
		fprintf(stderr, "Event %s %s\n", name, state);
		return;
	}
	fprintf(stderr, "failed: can't find '%s' event\n", name);
}

/* Carries out one --control command; perf prints -I counts at each switch. */
static void serve_control(struct session *s, enum control_cmd cmd, const char *arg)
{
	switch (cmd) {
	case CONTROL_ENABLE:
	case CONTROL_DISABLE:
		switch_events(cmd == CONTROL_ENABLE, arg);
		control__ack(&control);
		if (interval)
			process_interval(s);
		break;
	case CONTROL_EVLIST:
		evlist__for_each(&evlist, pos)
			fprintf(stderr, "%s\n", pos->name);
		control__ack(&control);
		break;
	case CONTROL_STOP:
	case CONTROL_PING:
		control__ack(&control);
		break;
	default:	/* snapshot is record's; the rest is no command */
		break;
	}
}

/* Sleeps ms, or less when a signal comes, serving --control meanwhile. */
static void wait_serving_control(struct session *s, int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ULL;

	if (control.fd < 0) {
		poll(NULL, 0, ms);
		return;
	}
	while (!done) {
		uint64_t now = now_ns();
		char line[256];
		const char *arg;
		enum control_cmd cmd;

		if (now >= end)
			return;
		cmd = control__receive(&control, (int)((end - now + 999999) / 1000000), line,
				       sizeof(line), &arg);
		if (cmd == CONTROL_NONE)
			return;
		serve_control(s, cmd, arg);
	}
}

/* Sleeps in -I/--timeout steps (or 1 s) until the target ends, a signal
 * arrives, the timeout passes or --interval-count intervals were printed. */
static void dispatch_events(struct session *s, int *intervals_left)
{
	int sleep_ms = interval ? (int)interval : timeout ? (int)timeout : 1000;

	while (!done) {
		bool exited = s->forks ? workload__poll_exit(&s->workload) : !target_alive(s);

		if (exited)
			break;
		wait_serving_control(s, sleep_ms);
		if (timeout)
			break;
		if (interval) {
			process_interval(s);
			if (interval_count && !--*intervals_left)
				break;
		}
	}
}

static int open_counters(struct session *s)
{
	struct evsel *failed;
	char msg[1024];
	int err;

	err = evlist__open(&evlist, s->cpus, s->threads, s->tool_cpus,
			   EVLIST_OPEN_SKIP_UNSUPPORTED | EVLIST_OPEN_FALLBACK_USER, &failed);
	if (err) {
		evsel__open_strerror(failed, -err, target.cpu_list != NULL, msg, sizeof(msg));
		fprintf(stderr, "Error:\n%s\n", msg);
		return -1;
	}
	evlist__for_each(&evlist, pos) {
		if (!pos->supported) {
			if (verbose > 0)
				fprintf(stderr, "Warning:\n%s event is not supported by the kernel.\n",
					pos->name);
			continue;
		}
		if ((int)strlen(evsel__unit(pos)) > s->display.unit_width)
			s->display.unit_width = (int)strlen(evsel__unit(pos));
	}
	err = evlist__apply_filters(&evlist, &failed);
	if (err) {
		fprintf(stderr, "failed to set filter \"%s\" on event %s with %d (%s)\n",
			failed->filter, failed->name, -err, strerror(-err));
		return -1;
	}
	return 0;
}

/* One measurement: returns the workload's exit status, or -1. */
static int run_once(struct session *s, int run_idx)
{
	int intervals_left = interval_count;
	uint64_t t1, duration;

	for (int i = 0; i < s->nr; i++)
		evsel_counts__reset_prev(&s->counts[i]);
	if (s->forks) {
		int err = workload__prepare(&s->workload, s->argv);

		if (err) {
			errno = -err;
			perror("failed to prepare workload");
			return -1;
		}
		child_running = 1;
		if (target__none(&target))
			s->threads->map[0].pid = s->workload.pid;
	}
	if (open_counters(s)) {
		evlist__close(&evlist);
		if (s->forks) {
			workload__kill(&s->workload, SIGTERM);
			workload__close(&s->workload);
		}
		return -1;
	}
	if (target.initial_delay)
		fprintf(stderr, "Events disabled\n");
	else if (!target__enable_on_exec(&target))
		evlist__enable(&evlist);
	if (s->forks)
		workload__start(&s->workload);
	if (target.initial_delay > 0) {
		usleep((useconds_t)target.initial_delay * 1000);
		evlist__enable(&evlist);
		fprintf(stderr, "Events enabled\n");
	}
	clock_gettime(CLOCK_MONOTONIC, &s->ref_time);
	s->t0 = (uint64_t)s->ref_time.tv_sec * 1000000000ULL + (uint64_t)s->ref_time.tv_nsec;
	target__cpu_times(s->forks ? s->workload.pid : tool_pid(s), s->times_start);
	if (s->forks) {
		if (interval || timeout || control.fd >= 0)
			dispatch_events(s, &intervals_left);
		if (s->workload.pid > 0 && timeout)
			kill(s->workload.pid, SIGTERM);
		workload__wait(&s->workload);
		child_running = 0;
		workload__close(&s->workload);
		if (s->workload.exec_errno) {
			fprintf(stderr, "Workload failed: %s\n", strerror(s->workload.exec_errno));
			evlist__close(&evlist);
			return -1;
		}
		if (WIFSIGNALED(s->workload.status))
			psignal(WTERMSIG(s->workload.status), s->argv[0]);
	} else {
		dispatch_events(s, &intervals_left);
	}
	if (!target__none(&target))
		evlist__disable(&evlist);
	t1 = now_ns();
	duration = t1 - s->t0;
	if (s->walltime_run)
		s->walltime_run[run_idx] = duration;
	stats__update(&s->shadow.walltime, (double)duration);
	s->display.ru_utime = s->workload.rusage.ru_utime;
	s->display.ru_stime = s->workload.rusage.ru_stime;
	read_counters(s, true, duration);
	if (!interval) {
		process_counters(s, false);
	} else if (summary) {
		/* --summary: the totals since the start, shown as without -I */
		s->display.interval = 0;
		shadow_stats__reset(&s->shadow);
		stats__init(&s->shadow.walltime);
		stats__update(&s->shadow.walltime, (double)duration);
		process_counters(s, false);
	}
	evlist__close(&evlist);
	return s->forks ? WEXITSTATUS(s->workload.status) : 0;
}

static int run_perf_stat(struct session *s, int run_idx)
{
	int ret;

	if (pre_cmd) {
		ret = system(pre_cmd);
		if (ret)
			return ret;
	}
	if (sync_run)
		sync();
	ret = run_once(s, run_idx);
	if (ret)
		return ret;
	if (post_cmd)
		ret = system(post_cmd);
	return ret;
}

/* "'cmd args'", "'system wide'", "process id '42'": what the header names. */
static char *describe_target(int argc, const char **argv)
{
	struct strbuf sb = STRBUF_INIT;

	if (target.system_wide) {
		strbuf_addstr(&sb, "'system wide'");
	} else if (target.cpu_list) {
		strbuf_addf(&sb, "'CPU(s) %s'", target.cpu_list);
	} else if (!target__has_task(&target)) {
		strbuf_addf(&sb, "'%s", argc ? argv[0] : "pipe");
		for (int i = 1; i < argc; i++)
			strbuf_addf(&sb, " %s", argv[i]);
		strbuf_addch(&sb, '\'');
	} else if (target.pid) {
		strbuf_addf(&sb, "process id '%s'", target.pid);
	} else {
		strbuf_addf(&sb, "thread id '%s'", target.tid);
	}
	return strbuf_detach(&sb);
}

/* No target and no workload counts the whole system, as do workloads whose
 * events are all system-wide ones (duration_time). */
static void setup_system_wide(bool forks)
{
	if (!target__none(&target))
		return;
	if (!forks) {
		target.system_wide = true;
		return;
	}
	evlist__for_each(&evlist, pos)
		if (pos->tool != TOOL_DURATION_TIME)
			return;
	if (evlist.nr_entries)
		target.system_wide = true;
}

static FILE *open_output(void)
{
	FILE *out = stderr;

	if (output_name && strcmp(output_name, "-")) {
		int fd = open(output_name, O_WRONLY | O_CREAT | O_CLOEXEC |
			      (append_file ? O_APPEND : O_TRUNC), 0600);

		out = fd >= 0 ? fdopen(fd, append_file ? "a" : "w") : NULL;
		if (!out) {
			perror("failed to create output file");
			if (fd >= 0)
				close(fd);
			return NULL;
		}
		time_t t = time(NULL);

		fprintf(out, "# started on %s\n", ctime(&t));
	} else if (log_fd > 0) {
		out = fdopen(log_fd, append_file ? "a" : "w");
		if (!out) {
			perror("Failed opening logfd");
			return NULL;
		}
	}
	return out;
}

static void usage_pair(const char *a, bool a_short, const char *b, bool b_short)
{
	parse_options_usage(stat_usage, stat_options, a, a_short);
	if (b)
		parse_options_usage(NULL, stat_options, b, b_short);
}

/* Checks the option combinations perf refuses; returns 0 or an exit status. */
static int check_options(void)
{
	if (output_name && log_fd) {
		fprintf(stderr, "cannot use both --output and --log-fd\n");
		usage_pair("o", true, "log-fd", false);
		return PCL_EXIT_EINVAL;
	}
	if (metric_only && aggr_mode == AGGR_THREAD) {
		fprintf(stderr, "--metric-only is not supported with --per-thread\n");
		return PCL_EXIT_EINVAL;
	}
	if (metric_only && run_count > 1) {
		fprintf(stderr, "--metric-only is not supported with -r\n");
		return PCL_EXIT_EINVAL;
	}
	if (run_table && run_count <= 1) {
		fprintf(stderr, "--table is only supported with -r\n");
		usage_pair("r", true, "table", false);
		return PCL_EXIT_EINVAL;
	}
	if (log_fd < 0) {
		fprintf(stderr, "argument to --log-fd must be a > 0\n");
		parse_options_usage(stat_usage, stat_options, "log-fd", false);
		return PCL_EXIT_EINVAL;
	}
	if (all_user && all_kernel) {
		fprintf(stderr, "  Error: --all-user and --all-kernel are mutually exclusive\n");
		usage_with_options(stat_usage, stat_options);
	}
	return 0;
}

static int check_target_options(void)
{
	if (run_count < 0) {
		fprintf(stderr, "Run count must be a positive number\n");
		parse_options_usage(stat_usage, stat_options, "r", true);
		return PCL_EXIT_EINVAL;
	}
	if (run_count > MAX_RUNS) {
		fprintf(stderr, "Run count must be at most %d\n", MAX_RUNS);
		parse_options_usage(stat_usage, stat_options, "r", true);
		return PCL_EXIT_EINVAL;
	}
	if (interval_given && !interval) {
		fprintf(stderr, "print interval must be >= 1ms\n");
		parse_options_usage(stat_usage, stat_options, "I", true);
		return PCL_EXIT_EINVAL;
	}
	if (aggr_mode == AGGR_THREAD && !target__has_task(&target) &&
	    (!target.system_wide || target.cpu_list)) {
		fprintf(stderr, "The --per-thread option is only available when monitoring via "
			"-p -t -a options or only --per-thread.\n");
		parse_options_usage(NULL, stat_options, "p", true);
		parse_options_usage(NULL, stat_options, "t", true);
		return PCL_EXIT_EINVAL;
	}
	if (((aggr_mode != AGGR_GLOBAL && aggr_mode != AGGR_THREAD) || nr_cgroup_names ||
	     for_each_cgroup) && !target__has_cpu(&target)) {
		fprintf(stderr, "both cgroup and no-aggregation modes only available in system-wide mode\n");
		parse_options_usage(stat_usage, stat_options, "G", true);
		parse_options_usage(NULL, stat_options, "A", true);
		parse_options_usage(NULL, stat_options, "a", true);
		parse_options_usage(NULL, stat_options, "for-each-cgroup", false);
		return PCL_EXIT_EINVAL;
	}
	return 0;
}

static int check_timing_options(void)
{
	if (interval_count && !interval) {
		fprintf(stderr, "interval-count option should be used together with interval-print.\n");
		parse_options_usage(stat_usage, stat_options, "interval-count", false);
		parse_options_usage(stat_usage, stat_options, "I", true);
		return PCL_EXIT_EINVAL;
	}
	if (timeout && timeout < 100) {
		if (timeout < 10) {
			fprintf(stderr, "timeout must be >= 10ms.\n");
			parse_options_usage(stat_usage, stat_options, "timeout", false);
			return PCL_EXIT_EINVAL;
		}
		fprintf(stderr, "timeout < 100ms. The overhead percentage could be high in some cases. "
			"Please proceed with caution.\n");
	}
	if (timeout && interval) {
		fprintf(stderr, "timeout option is not supported with interval-print.\n");
		parse_options_usage(stat_usage, stat_options, "timeout", false);
		parse_options_usage(stat_usage, stat_options, "I", true);
		return PCL_EXIT_EINVAL;
	}
	return 0;
}

static int create_maps(struct session *s)
{
	enum target_map_error err = target__create_maps(&target, &s->cpus, &s->threads);

	if (err == TARGET_MAPS_BAD_THREADS) {
		fprintf(stderr, "Problems finding threads of monitor\n");
		usage_pair("p", true, "t", true);
		return PCL_EXIT_EINVAL;
	}
	if (err == TARGET_MAPS_BAD_CPUS) {
		/* perf reports a bad list through a stale errno */
		fprintf(stderr, "failed to parse CPUs map: %s\n", strerror(ENOENT));
		usage_pair("C", true, "a", true);
		return PCL_EXIT_EINVAL;
	}
	/* tool events are measured once: on CPU 0 when counting CPUs */
	if (target__has_cpu(&target) && !target__has_per_thread(&target)) {
		int zero = 0;

		s->tool_cpus = cpu_map__new_from(&zero, 1);
	} else {
		s->tool_cpus = cpu_map__new_any();
	}
	if (aggr_mode == AGGR_THREAD)
		thread_map__read_comms(s->threads);
	return 0;
}

static void setup_session(struct session *s, int argc, const char **argv)
{
	int i = 0;

	s->argc = argc;
	s->argv = argv;
	s->forks = argc > 0;
	s->map = aggr_map__new(aggr_mode, s->cpus, s->threads, NULL);
	shadow_stats__init(&s->shadow, s->map->nr);
	s->nr = evlist.nr_entries;
	s->counters = xcalloc((size_t)(s->nr ? s->nr : 1), sizeof(*s->counters));
	s->counts = xcalloc((size_t)(s->nr ? s->nr : 1), sizeof(*s->counts));
	evlist__for_each(&evlist, pos) {
		bool tool = pos->tool != TOOL_NONE;

		pos->supported = false;	/* until opened */
		s->counters[i].evsel = pos;
		s->counters[i].unit = evsel__unit(pos);
		s->counters[i].scale = evsel__scale(pos);
		s->counters[i].values = xcalloc((size_t)s->map->nr, sizeof(struct aggr_value));
		evsel_counts__init(&s->counts[i], tool ? s->tool_cpus->nr : s->cpus->nr,
				   tool ? 1 : s->threads->nr);
		i++;
	}
	s->workload.pid = -1;

	s->display = (struct stat_display) {
		.out = s->out,
		.aggr_mode = aggr_mode,
		.csv = csv_sep != NULL,
		.json = json,
		.sep = csv_sep ? csv_sep : " ",
		.big_num = csv_sep	      ? false :
			   big_num_opt >= 0 ? big_num_opt :
					      perfconfig__default_bool("stat.big-num", true),
		.unit_width = 4,
		.run_count = run_count ? run_count : 1,
		.interval = interval,
		.null_run = null_run,
		.ru_display = run_count == 1 && target__none(&target),
		.per_thread_skip_zero = target__has_per_thread(&target),
		.csv_summary = summary && !no_csv_summary,
		.interval_clear = interval_clear,
		.metric_only = metric_only,
		.target_desc = describe_target(argc, argv),
		.tool_name = "pcl",
		.counters = s->counters,
		.nr_counters = s->nr,
		.map = s->map,
		.threads = s->threads,
		.shadow = &s->shadow,
	};
	if (run_table) {
		s->walltime_run = xcalloc((size_t)run_count, sizeof(uint64_t));
		s->display.walltime_run = s->walltime_run;
	}
}

static void teardown_session(struct session *s)
{
	for (int i = 0; i < s->nr; i++) {
		free(s->counters[i].values);
		evsel_counts__exit(&s->counts[i]);
	}
	free(s->counters);
	free(s->counts);
	free((char *)s->display.target_desc);
	free(s->walltime_run);
	shadow_stats__exit(&s->shadow);
	aggr_map__delete(s->map);
	cpu_map__delete(s->cpus);
	cpu_map__delete(s->tool_cpus);
	thread_map__delete(s->threads);
	if (s->out && s->out != stderr)
		fclose(s->out);
}

/* Clears the results of a run before the next one (-r 0: each run printed). */
static void reset_stats(struct session *s)
{
	shadow_stats__reset(&s->shadow);
	stats__init(&s->shadow.walltime);
	for (int i = 0; i < s->nr; i++)
		stats__init(&s->counts[i].res_stats);
}

static int run_all(struct session *s)
{
	bool forever = run_count == 0;
	int status = 0;

	atexit(sig_atexit);
	if (!forever)
		signal(SIGINT, skip_signal);
	signal(SIGCHLD, skip_signal);
	signal(SIGALRM, skip_signal);
	signal(SIGABRT, skip_signal);

	for (int run_idx = 0; forever || run_idx < run_count; run_idx++) {
		if (run_count != 1 && verbose > 0)
			fprintf(s->out, "[ pcl stat: executing run #%d ... ]\n", run_idx + 1);
		status = run_perf_stat(s, forever ? 0 : run_idx);
		if (forever && status != -1 && !interval) {
			print_counters(s, NULL);
			reset_stats(s);
		}
		if (done && !s->forks)
			break;
	}
	if (!forever && status != -1 && (!interval || summary))
		print_counters(s, NULL);
	return status;
}

int cmd_stat(int argc, const char **argv)
{
	struct session s = { 0 };
	enum target_conflict conflict;
	char *bad_cgroup;
	int ret;

	setlocale(LC_ALL, "");
	evlist__init(&evlist);
	stat_options = options;
	stat_argc = argc;
	stat_argv = argv;
	parse_events__stat_terms(true);
	argc = parse_options(argc, argv, options, stat_usage, PARSE_OPT_STOP_AT_NON_OPTION);

	if (csv_sep && !strcmp(csv_sep, "\\t"))
		csv_sep = "\t";
	ret = check_options();
	if (ret)
		goto out;
	if (!quiet) {
		s.out = open_output();
		if (!s.out) {
			ret = PCL_EXIT_ERROR;
			goto out;
		}
	}

	if (csv_sep && big_num_opt == 1) {
		fprintf(stderr, "-B option not supported with -x\n");
		usage_pair("B", true, "x", true);
		ret = PCL_EXIT_EINVAL;
		goto out;
	}
	conflict = target__validate(&target);
	if (conflict != TARGET_OK)
		fprintf(stderr, "%s\n", target__conflict_str(conflict));
	setup_system_wide(argc > 0);
	ret = check_target_options();
	if (ret)
		goto out;
	if (aggr_mode == AGGR_THREAD && target.system_wide)
		target.per_thread = true;
	if (add_special_events()) {
		ret = PCL_EXIT_EINVAL;
		goto out;
	}
	add_default_events();
	if (for_each_cgroup && nr_cgroup_names) {
		fprintf(stderr, "--cgroup and --for-each-cgroup cannot be used together\n");
		usage_pair("G", true, "for-each-cgroup", false);
		ret = PCL_EXIT_EINVAL;
		goto out;
	}
	if (for_each_cgroup && (ret = evlist__expand_cgroups(&evlist, for_each_cgroup,
							     &bad_cgroup))) {
		fprintf(stderr, ret == -2 ? "no cgroup matched: %s\n" : "no access to cgroup %s\n",
			bad_cgroup);
		free(bad_cgroup);
		parse_options_usage(stat_usage, stat_options, "for-each-cgroup", false);
		ret = PCL_EXIT_EINVAL;
		goto out;
	}
	if (group_run)
		make_one_group();
	if (evlist__attach_cgroups(&evlist, cgroup_names, nr_cgroup_names, &bad_cgroup)) {
		fprintf(stderr, "no access to cgroup %s\n", bad_cgroup);
		free(bad_cgroup);
		parse_options_usage(stat_usage, stat_options, "G", true);
		ret = PCL_EXIT_USAGE;
		goto out;
	}
	ret = create_maps(&s);
	if (ret)
		goto out;
	ret = check_timing_options();
	if (ret)
		goto out;
	prepare_attrs();
	setup_session(&s, argc, argv);
	ret = run_all(&s) & 0xff;
out:
	teardown_session(&s);
	evlist__release_cgroups(&evlist);
	for (int i = 0; i < nr_cgroup_names; i++)
		free(cgroup_names[i]);
	free(cgroup_names);
	evlist__exit(&evlist);
	free(metrics_list);
	control__close(&control);
	if (smi_freeze_set)
		write_freeze_on_smi("0");
	return ret;
}
