/* pcl record: sample a command, processes, threads or the whole system into
 * perf.data (options, messages and the poll loop; the engine is core/record). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "core/data/perf-data-write.h"
#include "core/events/evlist.h"
#include "core/events/parse-events.h"
#include "core/hist/callchain.h"
#include "core/live/record.h"
#include "ui/attr-print.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/perfconfig.h"
#include "util/util.h"

static const char *const record_usage[] = {
	"pcl record [<options>] [<command>]",
	"pcl record [<options>] -- <command> [<options>]",
	NULL
};

enum switch_mode { SWITCH_NONE, SWITCH_SIGNAL, SWITCH_SIZE, SWITCH_TIME };

static struct {
	struct record_opts opts;
	struct evlist evlist;
	const char *output;
	const char *freq_str, *callgraph_str, *mmap_str, *max_size_str, *switch_str;
	const char *clockid_str;
	/* --aio, --affinity, --mmap-flush: perf's write-path tuning, which
	 * changes no byte of the file; accepted (perf takes any value) and
	 * left alone. */
	const char *write_tuning;
	uint64_t count;			/* -c; UINT64_MAX when not given */
	bool callgraph_fp, strict_freq;
	/* what -g records: the perfconfig's call graph (call_graph, stack_size,
	 * callchain_max_stack), when config_callgraph */
	struct record_opts config_cg;
	bool config_callgraph;
	bool no_buildid, no_buildid_cache, buildid_all;
	bool timestamp_filename;	/* the file gets its timestamped name at the end */
	int comp_level, quiet, verbose;

	uint64_t max_size;
	enum switch_mode switch_mode;
	uint64_t switch_size;
	unsigned int switch_secs;

	char **cgroup_names;		/* -G: by event, NULL for none */
	int nr_cgroup_names;		/* names given (perf counts the empty ones) */
	int nr_cgroup_slots;		/* events cgroup_names has room for */
	int realtime_prio;		/* -r: SCHED_FIFO priority, 0 for none */
	bool dry_run, kcore, timestamp_boundary;
	int switch_max_files;		/* --switch-max-files: dumps kept, 0 all */
	char **dumped;			/* their names, oldest first */
	int nr_dumped;
	struct evlist switch_output_events;	/* --switch-output-event */
	int ctl_fd, ack_fd;		/* --control: commands in, acks out; -1 for none */
	const char *vmlinux;
	/* Options perf takes that change nothing here: AUX area tracing
	 * (refused as perf refuses it without such a PMU), BPF scriptlets,
	 * debuginfod, synthesis threads (the same records come out),
	 * --transaction (perf 6.1 sets no bit for it), the /proc maps' read
	 * timeout. */
	const char *aux_opts, *aux_sample_opts, *clang_opts, *debuginfod;
	/* --threads[=spec]: perf's directory format, a writer thread per group */
	const char *threads_spec;
	struct record_thread_masks thread_masks;
	bool transaction;

	bool off_cpu;			/* --off-cpu: sleeps as offcpu-time samples */
	struct evsel *off_cpu_event, *off_cpu_switch;
} rec;

/* --proc-map-timeout: perf's warning as it happens, its count at the end
 * (told by --num-thread-synthesize's workers too) */
static _Atomic unsigned int nr_maps_timed_out;

static void maps_timed_out(pid_t pid, pid_t tid)
{
	session_warnings__map_timeout(pid, tid);
	nr_maps_timed_out++;
}

static const struct option *record_options;

/* --- options --- */

static int parse_event_opt(const struct option *opt, const char *arg, bool unset)
{
	struct parse_events_error err = { .idx = -1 };

	if (!parse_events(&rec.evlist, arg, &err)) {
		parse_events_error__print_warnings(&err);
		return 0;
	}
	parse_events_error__print(&err, arg);
	parse_events_error__exit(&err);
	parse_options_usage(record_usage, record_options, "e", true);
	exit(PCL_EXIT_USAGE);
}

static int parse_filter_opt(const struct option *opt, const char *arg, bool unset)
{
	int err = parse_events_filter(&rec.evlist, arg);

	if (!err)
		return 0;
	fprintf(stderr, "%s\n", parse_events_filter_strerror(err));
	parse_options_usage(record_usage, record_options, "filter", false);
	exit(PCL_EXIT_USAGE);
}

/* --exclude-perf: the tracepoints of the last -e leave out pcl's own doings. */
static int exclude_perf_opt(const struct option *opt, const char *arg, bool unset)
{
	char filter[64];

	if (!rec.evlist.nr_entries) {
		fprintf(stderr, "--exclude-perf option should follow a -e tracepoint option\n");
		parse_options_usage(record_usage, record_options, "exclude-perf", false);
		exit(PCL_EXIT_USAGE);
	}
	snprintf(filter, sizeof(filter), "common_pid != %d", (int)getpid());
	parse_events_filter_tracepoints(&rec.evlist, filter);
	return 0;
}

/* -G: the n-th name given (over every -G) is the n-th event's cgroup; the
 * first name alone goes to every event defined so far. */
/* Only blanks may follow a number. */
static bool only_blanks(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return !*p;
}

/* -D START-END,...: increasing spans that neither overlap nor touch. */
static bool parse_delay_ranges(const char *arg, struct target *t)
{
	static struct delay_range *spans;
	const char *p = arg;
	size_t nr = 0;

	for (;; p++) {
		struct delay_range span;
		char *end;

		span.start_ms = strtoll(p, &end, 10);
		while (end != p && isspace((unsigned char)*end))
			end++;
		if (end == p || *end != '-' || span.start_ms < 0)
			return false;
		p = end + 1;
		span.end_ms = strtoll(p, &end, 10);
		if (end == p || span.end_ms <= span.start_ms ||
		    (nr && span.start_ms <= spans[nr - 1].end_ms))
			return false;
		spans = xrealloc(spans, (nr + 1) * sizeof(*spans));
		spans[nr++] = span;
		p = end;
		if (*p != ',')
			break;
	}
	if (!only_blanks(p))
		return false;
	t->delay_ranges = spans;
	t->nr_delay_ranges = nr;
	t->initial_delay = spans[0].start_ms ? -1 : 0;
	return true;
}

/* -D MS (-1: start disabled) or -D START-END,...; perf shows the usage of -D
 * for anything else. */
static int parse_delay_opt(const struct option *opt, const char *arg, bool unset)
{
	struct target *t = &rec.opts.target;
	char *end;
	long long ms = strtoll(arg, &end, 10);

	(void)opt;
	(void)unset;
	t->nr_delay_ranges = 0;
	if (end != arg && only_blanks(end)) {
		if (ms != -1 && (ms < 1 || ms > INT_MAX))
			goto bad;
		t->initial_delay = (int)ms;
		return 0;
	}
	if (parse_delay_ranges(arg, t))
		return 0;
bad:
	parse_options_usage(record_usage, record_options, "D", true);
	exit(PCL_EXIT_USAGE);
}

static int parse_cgroup_opt(const struct option *opt, const char *arg, bool unset)
{
	int nr_events = rec.evlist.nr_entries;
	const char *p = arg;

	if (!nr_events) {
		fprintf(stderr, "must define events before cgroups\n");
		parse_options_usage(record_usage, record_options, "G", true);
		exit(PCL_EXIT_USAGE);
	}
	rec.cgroup_names = xrealloc(rec.cgroup_names, (size_t)nr_events * sizeof(char *));
	for (int i = rec.nr_cgroup_slots; i < nr_events; i++)
		rec.cgroup_names[i] = NULL;
	rec.nr_cgroup_slots = nr_events;
	for (;;) {
		const char *end = strchrnul(p, ',');

		if (rec.nr_cgroup_names == nr_events) {	/* more names than events */
			parse_options_usage(record_usage, record_options, "G", true);
			exit(PCL_EXIT_USAGE);
		}
		free(rec.cgroup_names[rec.nr_cgroup_names]);
		rec.cgroup_names[rec.nr_cgroup_names++] = xstrndup(p, (size_t)(end - p));
		if (!*end)
			break;
		p = end + 1;
	}
	for (int i = 1; rec.nr_cgroup_names == 1 && i < nr_events; i++) {
		free(rec.cgroup_names[i]);
		rec.cgroup_names[i] = xstrdup(rec.cgroup_names[0]);
	}
	return 0;
}

/* --switch-output-event: events outside the file whose every record
 * switches it, as SIGUSR2 does. */
static int parse_switch_output_event(const struct option *opt, const char *arg, bool unset)
{
	struct parse_events_error err = { .idx = -1 };

	if (!parse_events(&rec.switch_output_events, arg, &err)) {
		parse_events_error__print_warnings(&err);
		return 0;
	}
	parse_events_error__print(&err, arg);
	parse_events_error__exit(&err);
	parse_options_usage(record_usage, record_options, "switch-output-event", false);
	exit(PCL_EXIT_USAGE);
}

static int open_fifo(const char *path)
{
	int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "Failed to open '%s'\n", path);
		parse_options_usage(record_usage, record_options, "control", false);
		exit(PCL_EXIT_USAGE);
	}
	return fd;
}

static bool parse_fd(const char *s, int *fd)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT_MAX)
		return false;
	*fd = (int)v;
	return true;
}

/* --control fd:CTL[,ACK] or fifo:CTL[,ACK]: where commands come from and
 * their acknowledgements go. */
static int parse_control_opt(const struct option *opt, const char *arg, bool unset)
{
	char *copy = xstrdup(arg), *comma = strchr(copy, ',');
	bool ok = true;

	if (comma)
		*comma++ = '\0';
	rec.ctl_fd = rec.ack_fd = -1;
	if (!strncmp(copy, "fifo:", 5)) {
		rec.ctl_fd = open_fifo(copy + 5);
		if (comma)
			rec.ack_fd = open_fifo(comma);
	} else if (!strncmp(copy, "fd:", 3)) {
		ok = parse_fd(copy + 3, &rec.ctl_fd) && (!comma || parse_fd(comma, &rec.ack_fd));
	} else {
		ok = false;
	}
	free(copy);
	if (ok)
		return 0;
	parse_options_usage(record_usage, record_options, "control", false);
	exit(PCL_EXIT_USAGE);
}

static int set_callgraph_fp(const struct option *opt, const char *arg, bool unset)
{
	rec.callgraph_fp = !unset;
	return 0;
}

static int set_compression(const struct option *opt, const char *arg, bool unset)
{
	char *end;
	long v;

	if (unset) {
		rec.comp_level = 0;
		return 0;
	}
	v = strtol(arg, &end, 0);
	if (!*arg || *end || v < 1 || v > 22) {
		fprintf(stderr, "Compression level must be between 1 and 22\n");
		return -1;
	}
	rec.comp_level = (int)v;
	return 0;
}

static int parse_regs_opt(const struct option *opt, const char *arg, bool unset)
{
	char buf[256];
	const char *msg, *hint;

	if (unset) {
		*(uint64_t *)opt->value = 0;
		return 0;
	}
	/* perf names its short option for --intr-regs, the long one else. */
	hint = opt->short_name == 'I' ? "-I?" : "--user-regs=?";
	if (!record_opts__parse_regs(arg, hint, opt->value, buf, sizeof(buf), &msg))
		return 0;
	if (msg && !strcmp(arg, "?"))
		fprintf(stderr, "%s\n", msg);
	else if (msg)
		fprintf(stderr, "Warning:\n%s\n", msg);
	{
		/* perf shows the usage lines alone here, no option's help. */
		static const struct option none[] = { OPT_END() };

		parse_options_usage(record_usage, none, NULL, false);
	}
	exit(PCL_EXIT_USAGE);
}

static int set_branch_any(const struct option *opt, const char *arg, bool unset)
{
	rec.opts.branch_sample_type = unset ? 0 : PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

static int parse_branch_filter_opt(const struct option *opt, const char *arg, bool unset)
{
	char buf[128];
	const char *msg;

	if (unset) {
		rec.opts.branch_sample_type = 0;
		return 0;
	}
	if (!record_opts__parse_branch_filter(&rec.opts, arg, buf, sizeof(buf), &msg))
		return 0;
	fprintf(stderr, "%s\n", msg);
	parse_options_usage(record_usage, record_options, "j", true);
	exit(PCL_EXIT_USAGE);
}

/* --synth: which records describe the tasks already running: "task" their
 * names, "mmap" their names and maps, "all" both, "no" (or only "cgroup")
 * neither. */
static int parse_synth_opt(const struct option *opt, const char *arg, bool unset)
{
	char *copy = xstrdup(arg ? arg : "all"), *pos = copy, *tok;
	bool tasks = false, mmaps = false;

	(void)opt;
	while ((tok = strsep(&pos, ","))) {
		if (!strcmp(tok, "all") || !strcmp(tok, "mmap")) {
			tasks = mmaps = true;
		} else if (!strcmp(tok, "task")) {
			tasks = true;
		} else if (strcmp(tok, "no") && strcmp(tok, "cgroup")) {
			free(copy);
			return -1;
		}
	}
	free(copy);
	rec.opts.synth_no_tasks = !unset && !tasks;
	rec.opts.synth_no_mmaps = !unset && !mmaps;
	return 0;
}

static const struct option options[] = {
	OPT_CALLBACK('e', "event", NULL, "event",
		     "event selector. use 'pcl list' to list available events", parse_event_opt),
	OPT_CALLBACK(0, "filter", NULL, "filter", "event filter", parse_filter_opt),
	OPT_CALLBACK_NOOPT(0, "exclude-perf", NULL, "don't record events from perf itself",
			   exclude_perf_opt),
	OPT_STRING('p', "pid", &rec.opts.target.pid, "pid", "record events on existing process id"),
	OPT_STRING('t', "tid", &rec.opts.target.tid, "tid", "record events on existing thread id"),
	OPT_INTEGER('r', "realtime", &rec.realtime_prio,
		    "collect data with this RT SCHED_FIFO priority"),
	OPT_BOOLEAN(0, "no-buffering", &rec.opts.no_buffering, "collect data without buffering"),
	OPT_BOOLEAN('R', "raw-samples", &rec.opts.raw_samples,
		    "collect raw sample records from all opened counters"),
	OPT_BOOLEAN('a', "all-cpus", &rec.opts.target.system_wide,
		    "system-wide collection from all CPUs"),
	OPT_STRING('C', "cpu", &rec.opts.target.cpu_list, "cpu", "list of cpus to monitor"),
	OPT_U64('c', "count", &rec.count, "event period to sample"),
	OPT_STRING('o', "output", &rec.output, "file", "output file name"),
	OPT_BOOLEAN('i', "no-inherit", &rec.opts.no_inherit, "child tasks do not inherit counters"),
	OPT_BOOLEAN(0, "tail-synthesize", &rec.opts.tail_synthesize,
		    "synthesize non-sample events at the end of output"),
	OPT_BOOLEAN(0, "overwrite", &rec.opts.overwrite, "use overwrite mode"),
	OPT_BOOLEAN(0, "no-bpf-event", &rec.opts.no_bpf_event, "do not record bpf events"),
	OPT_BOOLEAN(0, "strict-freq", &rec.strict_freq,
		    "Fail if the specified frequency can't be used"),
	OPT_STRING('F', "freq", &rec.freq_str, "freq or 'max'",
		   "profile at this frequency"),
	OPT_STRING('m', "mmap-pages", &rec.mmap_str, "pages[,pages]",
		   "number of mmap data pages and AUX area tracing mmap pages"),
	OPT_STRING(0, "mmap-flush", &rec.write_tuning, "number",
		   "Minimal number of bytes that is extracted from mmap data pages (no effect)"),
	OPT_BOOLEAN(0, "group", &rec.opts.group, "put the counters into a counter group"),
	OPT_CALLBACK_NOOPT('g', NULL, NULL, "enables call-graph recording", set_callgraph_fp),
	OPT_STRING(0, "call-graph", &rec.callgraph_str, "record_mode[,record_size]",
		   RECORD_CALL_GRAPH_HELP),
	OPT_INCR('v', "verbose", &rec.verbose, "be more verbose (show counter open errors, etc)"),
	OPT_INCR('q', "quiet", &rec.quiet, "don't print any warnings or messages"),
	OPT_BOOLEAN('s', "stat", &rec.opts.inherit_stat, "per thread counts"),
	OPT_BOOLEAN('d', "data", &rec.opts.sample_address, "Record the sample addresses"),
	OPT_BOOLEAN(0, "phys-data", &rec.opts.sample_phys_addr,
		    "Record the sample physical addresses"),
	OPT_BOOLEAN(0, "data-page-size", &rec.opts.sample_data_page_size,
		    "Record the sampled data address data page size"),
	OPT_BOOLEAN(0, "code-page-size", &rec.opts.sample_code_page_size,
		    "Record the sampled code address (ip) page size"),
	OPT_BOOLEAN(0, "sample-cpu", &rec.opts.sample_cpu, "Record the sample cpu"),
	OPT_BOOLEAN(0, "sample-identifier", &rec.opts.sample_identifier,
		    "Record the sample identifier"),
	OPT_BOOLEAN('T', "timestamp", &rec.opts.sample_time, "Record the sample timestamps"),
	OPT_BOOLEAN('P', "period", &rec.opts.sample_period, "Record the sample period"),
	OPT_BOOLEAN('n', "no-samples", &rec.opts.no_samples, "don't sample"),
	OPT_BOOLEAN('N', "no-buildid-cache", &rec.no_buildid_cache,
		    "do not update the buildid cache"),
	OPT_BOOLEAN('B', "no-buildid", &rec.no_buildid, "do not collect buildids in perf.data"),
	OPT_CALLBACK('G', "cgroup", NULL, "name", "monitor event in cgroup name only",
		     parse_cgroup_opt),
	OPT_CALLBACK('D', "delay", NULL, "ms",
		     "ms to wait before starting measurement after program start (-1: start with "
		     "events disabled), or ranges of time to enable events e.g. '-D 10-20,30-40'",
		     parse_delay_opt),
	OPT_BOOLEAN(0, "kcore", &rec.kcore, "copy /proc/kcore"),
	OPT_STRING('u', "uid", &rec.opts.target.uid_str, "user", "user to profile"),
	OPT_CALLBACK_NOOPT('b', "branch-any", NULL, "sample any taken branches", set_branch_any),
	OPT_CALLBACK('j', "branch-filter", NULL, "branch filter mask", "branch stack filter modes",
		     parse_branch_filter_opt),
	OPT_BOOLEAN('W', "weight", &rec.opts.sample_weight, "sample by weight (on special events only)"),
	OPT_BOOLEAN(0, "transaction", &rec.transaction,
		    "sample transaction flags (special events only)"),
	OPT_BOOLEAN(0, "per-thread", &rec.opts.target.per_thread, "use per-thread mmaps"),
	OPT_CALLBACK_OPTARG('I', "intr-regs", &rec.opts.regs_intr, "any register",
			    "sample selected machine registers on interrupt, use '-I?' "
			    "to list register names", parse_regs_opt, NULL),
	OPT_CALLBACK_OPTARG(0, "user-regs", &rec.opts.regs_user, "any register",
			    "sample selected machine registers in user space, use '--user-regs=?' "
			    "to list register names", parse_regs_opt, NULL),
	OPT_BOOLEAN(0, "running-time", &rec.opts.running_time,
		    "Record running/enabled time of read (:S) events"),
	OPT_STRING('k', "clockid", &rec.clockid_str, "clockid",
		   "clockid to use for events, see clock_gettime()"),
	OPT_STRING_OPTARG('S', "snapshot", &rec.aux_opts, "opts", "AUX area tracing Snapshot Mode",
			  ""),
	OPT_STRING_OPTARG(0, "aux-sample", &rec.aux_sample_opts, "opts", "sample AUX area", ""),
	OPT_UINTEGER(0, "proc-map-timeout", &rec.opts.proc_map_timeout_ms,
		     "per thread proc mmap processing timeout in ms"),
	OPT_BOOLEAN(0, "namespaces", &rec.opts.record_namespaces,
		    "Record namespaces events"),
	OPT_BOOLEAN(0, "all-cgroups", &rec.opts.all_cgroups, "Record cgroup events"),
	OPT_BOOLEAN(0, "switch-events", &rec.opts.record_switch_events,
		    "Record context switch events"),
	OPT_BOOLEAN(0, "all-kernel", &rec.opts.all_kernel,
		    "Configure all used events to run in kernel space."),
	OPT_BOOLEAN(0, "all-user", &rec.opts.all_user,
		    "Configure all used events to run in user space."),
	OPT_BOOLEAN(0, "kernel-callchains", &rec.opts.kernel_callchains,
		    "collect kernel callchains"),
	OPT_BOOLEAN(0, "user-callchains", &rec.opts.user_callchains,
		    "collect user callchains"),
	OPT_STRING(0, "clang-path", &rec.clang_opts, "clang path",
		   "clang binary to use for compiling BPF scriptlets"),
	OPT_STRING(0, "clang-opt", &rec.clang_opts, "clang options",
		   "options passed to clang when compiling BPF scriptlets"),
	OPT_STRING(0, "vmlinux", &rec.vmlinux, "file", "vmlinux pathname"),
	OPT_BOOLEAN(0, "buildid-all", &rec.buildid_all,
		    "Record build-id of all DSOs regardless of hits"),
	OPT_BOOLEAN(0, "buildid-mmap", &rec.opts.buildid_mmap, "Record build-id in map events"),
	OPT_BOOLEAN(0, "timestamp-filename", &rec.timestamp_filename,
		    "append timestamp to output filename"),
	OPT_BOOLEAN(0, "timestamp-boundary", &rec.timestamp_boundary,
		    "Record timestamp boundary (time of first/last samples)"),
	OPT_STRING_OPTARG(0, "switch-output", &rec.switch_str, "signal or size[BKMG] or time[smhd]",
			  "Switch output when receiving SIGUSR2 (signal) or cross a size or time threshold",
			  "signal"),
	OPT_CALLBACK(0, "switch-output-event", NULL, "switch output event",
		     "switch output event selector. use 'pcl list' to list available events",
		     parse_switch_output_event),
	OPT_INTEGER(0, "switch-max-files", &rec.switch_max_files,
		    "Limit number of switch output generated files"),
	OPT_BOOLEAN(0, "dry-run", &rec.dry_run, "Parse options then exit"),
	OPT_STRING_OPTARG(0, "aio", &rec.write_tuning, "n",
			  "Use <n> control blocks in asynchronous trace writing mode (no effect)",
			  "1"),
	OPT_STRING(0, "affinity", &rec.write_tuning, "node|cpu",
		   "Set affinity mask of trace reading thread (no effect)"),
	OPT_CALLBACK_OPTARG('z', "compression-level", NULL, "n",
			    "Compress records using specified level (default: 1 - fastest compression, 22 - greatest compression)",
			    set_compression, "1"),
	OPT_STRING(0, "max-size", &rec.max_size_str, "size",
		   "Limit the maximum size of the output file"),
	OPT_UINTEGER(0, "num-thread-synthesize", &rec.opts.nr_synth_threads,
		     "number of threads to run for event synthesis"),
	OPT_CALLBACK(0, "control", NULL, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
		     "Listen on ctl-fd for commands to control measurement ('enable', 'disable', "
		     "'evlist', 'stop', 'ping'), acknowledged on ack-fd; fifos are opened as fds",
		     parse_control_opt),
	OPT_CALLBACK(0, "synth", NULL, "no|all|task|mmap|cgroup",
		     "Fine-tune event synthesis: default=all", parse_synth_opt),
	OPT_STRING_OPTARG(0, "debuginfod", &rec.debuginfod, "debuginfod urls",
			  "Enable debuginfod data retrieval from DEBUGINFOD_URLS or specified urls",
			  "system"),
	OPT_STRING_OPTARG(0, "threads", &rec.threads_spec, "spec",
			  "write collected trace data into several data files using parallel threads",
			  "cpu"),
	OPT_BOOLEAN(0, "off-cpu", &rec.off_cpu, "Enable off-cpu analysis"),
	OPT_END(),
};

/* "10M", "512K", "1G", "100" (bytes).  Returns 0 or -1. */
static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	uint64_t v = strtoull(s, &end, 10), mult = 1;

	if (end == s)
		return -1;
	switch (*end) {
	case 'B': case 'b': mult = 1; end++; break;
	case 'K': case 'k': mult = 1ULL << 10; end++; break;
	case 'M': case 'm': mult = 1ULL << 20; end++; break;
	case 'G': case 'g': mult = 1ULL << 30; end++; break;
	default: break;
	}
	if (*end || !v)
		return -1;
	*out = v * mult;
	return 0;
}

static int parse_switch_output(const char *s)
{
	char *end;
	unsigned long v;

	if (!strcmp(s, "signal")) {
		rec.switch_mode = SWITCH_SIGNAL;
		return 0;
	}
	if (!parse_size(s, &rec.switch_size)) {
		rec.switch_mode = SWITCH_SIZE;
		return 0;
	}
	v = strtoul(s, &end, 10);
	if (end != s && v && end[0] && !end[1] && strchr("smhd", end[0])) {
		unsigned long mult = end[0] == 's' ? 1 : end[0] == 'm' ? 60 :
				     end[0] == 'h' ? 3600 : 86400;

		rec.switch_mode = SWITCH_TIME;
		rec.switch_secs = (unsigned int)(v * mult);
		return 0;
	}
	return -1;
}

static const struct { const char *name; int id; } clockids[] = {
	{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
};

static int parse_clockid(const char *s)
{
	char *end;
	long v;

	if (!strncasecmp(s, "CLOCK_", 6))
		s += 6;
	for (size_t i = 0; i < ARRAY_SIZE(clockids); i++) {
		if (!strcasecmp(s, clockids[i].name)) {
			rec.opts.clockid = clockids[i].id;
			rec.opts.use_clockid = true;
			return 0;
		}
	}
	v = strtol(s, &end, 0);
	if (end == s || *end || v < 0)
		return -1;
	rec.opts.clockid = (int)v;
	rec.opts.use_clockid = true;
	return 0;
}

static unsigned int max_sample_rate(void)
{
	char *s = read_file_str("/proc/sys/kernel/perf_event_max_sample_rate");
	unsigned int v = s ? (unsigned int)strtoul(s, NULL, 10) : 0;

	free(s);
	return v;
}

/* perf's frequency/period rules: -F and -c exclude each other, a frequency
 * above the kernel's limit is throttled (or refused with --strict-freq). */
static int config_freq(void)
{
	struct record_opts *o = &rec.opts;
	unsigned int max = max_sample_rate();

	if (rec.freq_str) {
		char *end;

		if (!strcmp(rec.freq_str, "max")) {
			if (!max) {
				fprintf(stderr, "weird: couldn't get the maximum frequency\n");
				return -1;
			}
			o->freq = max;
			if (!rec.quiet)
				fprintf(stderr, "info: Using a maximum frequency rate of %u Hz\n", max);
		} else {
			unsigned long v = strtoul(rec.freq_str, &end, 0);

			if (!*rec.freq_str || *end || *rec.freq_str == '-' || v > UINT_MAX) {
				fprintf(stderr, "  Error: switch `F' expects a frequency or 'max'\n");
				usage_with_options_msg(record_usage, options);
				return -2;
			}
			o->freq = (unsigned int)v;
		}
		o->user_freq = true;
	}
	if (rec.count != UINT64_MAX) {
		if (o->user_freq) {
			fprintf(stderr, "cannot set frequency and period at the same time\n");
			return -EINVAL;
		}
		o->interval = rec.count;
		o->user_interval = true;
	}
	if (o->interval) {
		o->freq = 0;
	} else if (!o->freq) {
		fprintf(stderr, "frequency and count are zero, aborting\n");
		return -1;
	}
	if (!max || !o->freq || o->freq <= max)
		return 0;
	if (o->user_freq && rec.strict_freq) {
		fprintf(stderr,
			"error: Maximum frequency rate (%u Hz) exceeded.\n"
			"       Please use -F freq option with a lower value or consider\n"
			"       tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n", max);
		return -1;
	}
	if (o->user_freq) {
		if (!rec.quiet)
			fprintf(stderr,
				"warning: Maximum frequency rate (%u Hz) exceeded, throttling from %u Hz to %u Hz.\n"
				"         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
				"         The kernel will lower it when perf's interrupts take too long.\n"
				"         Use --strict-freq to disable this throttling, refusing to record.\n",
				max, o->freq, max);
	} else if (!rec.quiet) {
		fprintf(stderr, "Lowering default frequency rate from %u to %u.\n"
			"Please consider tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n",
			o->freq, max);
	}
	o->freq = max;
	return 0;
}

static int config_options(void)
{
	struct record_opts *o = &rec.opts;
	char msg[256];
	const char *why;

	if (rec.callgraph_str) {
		/* "fp" keeps the perfconfig's frame limit, as perf's parser does */
		if (rec.config_callgraph)
			o->callchain_max_stack = rec.config_cg.callchain_max_stack;
		if (record_opts__parse_callgraph(o, rec.callgraph_str, msg, sizeof(msg), &why)) {
			fprintf(stderr, "%s\n", why);
			parse_options_usage(record_usage, options, "call-graph", false);
			return -2;
		}
	} else if (rec.callgraph_fp && rec.config_callgraph) {
		o->call_graph = rec.config_cg.call_graph;
		o->stack_size = rec.config_cg.stack_size;
		o->callchain_max_stack = rec.config_cg.callchain_max_stack;
	} else if (rec.callgraph_fp) {
		o->call_graph = CALLGRAPH_FP;
	}
	if (rec.mmap_str) {
		size_t pages, rounded;

		if (ringbuf__parse_pages(rec.mmap_str, &pages)) {
			fprintf(stderr, "Invalid argument for --mmap_pages/-m\n");
			parse_options_usage(record_usage, options, "m", true);
			return -2;
		}
		rounded = ringbuf__round_pages(pages);
		if (rounded != pages && !rec.quiet)
			fprintf(stderr, "rounding mmap pages size to %zu%s (%zu pages)\n",
				rounded * (size_t)sysconf(_SC_PAGESIZE) >= (1 << 20) ?
				rounded * (size_t)sysconf(_SC_PAGESIZE) >> 20 :
				rounded * (size_t)sysconf(_SC_PAGESIZE) >> 10,
				rounded * (size_t)sysconf(_SC_PAGESIZE) >= (1 << 20) ? "M" : "K",
				rounded);
		o->mmap_pages = rounded;
	}
	if (rec.max_size_str && parse_size(rec.max_size_str, &rec.max_size)) {
		fprintf(stderr, "  Error: switch `max-size' expects a size (e.g. 10M)\n");
		return -2;
	}
	if (rec.switch_str && parse_switch_output(rec.switch_str)) {
		fprintf(stderr, "  Error: switch `switch-output' expects signal, a size[BKMG] or a time[smhd]\n");
		return -2;
	}
	if (rec.clockid_str && parse_clockid(rec.clockid_str)) {
		fprintf(stderr, "unknown clockid %s, check man page\n", rec.clockid_str);
		return -2;
	}
	return config_freq();
}

/* What perf checks right after the command line, before --dry-run stops:
 * returns 0 or the exit status. */
static int check_options(void)
{
	char *bad_path;

	if (rec.nr_cgroup_names) {
		if (!rec.opts.target.system_wide) {
			fprintf(stderr, "  Error: cgroup monitoring only available in system-wide mode\n");
			usage_with_options_msg(record_usage, options);
			return PCL_EXIT_USAGE;
		}
		/* events defined after the last -G get none */
		rec.cgroup_names = xrealloc(rec.cgroup_names,
					    (size_t)rec.evlist.nr_entries * sizeof(char *));
		for (int i = rec.nr_cgroup_slots; i < rec.evlist.nr_entries; i++)
			rec.cgroup_names[i] = NULL;
		rec.nr_cgroup_slots = rec.evlist.nr_entries;
		if (evlist__attach_cgroups(&rec.evlist, rec.cgroup_names, rec.nr_cgroup_slots,
					   &bad_path)) {
			fprintf(stderr, "no access to cgroup %s\n", bad_path);
			free(bad_path);
			parse_options_usage(record_usage, options, "G", true);
			return PCL_EXIT_USAGE;
		}
	}
	if (rec.vmlinux && access(rec.vmlinux, R_OK)) {
		fprintf(stderr, "Invalid file: %s\n", rec.vmlinux);
		return PCL_EXIT_EINVAL;
	}
	/* No PMU here traces into an AUX area. */
	if (rec.aux_opts) {
		fprintf(stderr, "No AUX area tracing to snapshot\n");
		return PCL_EXIT_EINVAL;
	}
	if (rec.aux_sample_opts) {
		fprintf(stderr, "No AUX area event to sample\n");
		return PCL_EXIT_EINVAL;
	}
	/* perf writes the build ids into the maps instead of the header. */
	if (rec.opts.buildid_mmap)
		rec.no_buildid = true;
	/* An event's records switch the output as SIGUSR2 does. */
	if (rec.switch_output_events.nr_entries && !rec.switch_str)
		rec.switch_str = "signal";
	return 0;
}

static void free_options(void)
{
	evlist__release_cgroups(&rec.evlist);
	evlist__exit(&rec.evlist);
	evlist__exit(&rec.switch_output_events);
	for (int i = 0; i < rec.nr_cgroup_slots; i++)
		free(rec.cgroup_names[i]);
	free(rec.cgroup_names);
	for (int i = 0; i < rec.nr_dumped; i++)
		free(rec.dumped[i]);
	free(rec.dumped);
	if (rec.ctl_fd >= 0)
		close(rec.ctl_fd);
	if (rec.ack_fd >= 0)
		close(rec.ack_fd);
}

/* The default event: cycles at the highest precision the PMU offers,
 * named like perf names it. */
static int add_default_event(void)
{
	struct parse_events_error err = { .idx = -1 };

	if (parse_events(&rec.evlist, "cycles:P", &err)) {
		parse_events_error__exit(&err);
		return -1;
	}
	free(rec.evlist.first->name);
	rec.evlist.first->name = xstrdup("cycles");
	if (!evsel__can_profile_kernel())
		rec.evlist.first->attr.exclude_kernel = 1;
	/* perf kvm's default event leaves the host out; guests are never excluded */
	rec.evlist.first->attr.exclude_host = !parse_events__host;
	return 0;
}

/* --- the output file --- */

/* perf keeps the previous recording as FILE.old.  Where that cannot be
 * done the recording is refused, so that no earlier profile is lost. */
static int rotate_old(const char *path)
{
	char *why = NULL;
	int err = perf_data__keep_old(path, &why);

	if (err && !rec.quiet)
		fprintf(stderr, "%s\nPerf session creation failed.\n", why);
	free(why);
	return err;
}

/* Whether the file ends under a timestamped name (--switch-output implies it). */
static bool timestamped_output(void)
{
	return rec.switch_mode != SWITCH_NONE || rec.timestamp_filename;
}

/* "perf.data.2026112201550043": local time to the hundredth of a second. */
static char *timestamped(const char *path)
{
	struct timeval tv;
	struct tm tm;
	char buf[32];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y%m%d%H%M%S", &tm);
	return xasprintf("%s.%s%02d", path, buf, (int)(tv.tv_usec / 10000));
}

struct run {
	struct record_session rs;
	struct workload workload;
	bool have_workload;
	int argc;
	const char **argv;
	uint64_t wakeups_before;	/* the drain's wake-ups when the file began */
	uint64_t total_samples;
	int err;			/* a failed switch (already reported) */
	/* --switch-output-event: its events' rings, read at every tick */
	struct drain switch_drain;
	struct cpu_map *switch_cpus;
	struct thread_map *switch_threads;
};

/* The drain's callbacks get the session; the run holds it. */
static struct run *run_of(void *rs)
{
	return (struct run *)((char *)rs - offsetof(struct run, rs));
}

static uint64_t wakeups(const struct run *r)
{
	return r->rs.drain.stats.wakeups - r->wakeups_before;
}

/* What the file's header says of who made it. */
static void describe_recording(const struct run *r, struct record_finish *fin)
{
	fin->version = PCL_VERSION;
	/* "pcl sched record …" as typed, not the record line it built */
	fin->argv = pcl_invocation(&fin->argc);
	if (!fin->argc) {
		fin->argc = r->argc;
		fin->argv = r->argv;
	}
	fin->buildid_all = rec.buildid_all;
	/* perf times the samples while looking for the DSOs they hit, which
	 * --buildid-all skips unless asked for the times */
	fin->sample_time_range = !rec.no_buildid && (!rec.buildid_all || rec.timestamp_boundary);
	fin->buildid_cache = !rec.no_buildid_cache;
	fin->vmlinux = rec.vmlinux;
}

/* -o -: perf's pipe format on stdout. */
static bool to_pipe(void)
{
	return !strcmp(rec.output, "-");
}

static int open_file(struct run *r)
{
	struct record_finish desc = { 0 };
	int err;

	describe_recording(r, &desc);
	err = record_session__create_file(&r->rs, rec.output, rec.comp_level, !rec.no_buildid,
					  r->have_workload ? r->workload.pid : -1, &desc);

	if (err && !r->rs.writer.data_offset)	/* the file itself, not its first records */
		fprintf(stderr, "failed to open %s : %s\nPerf session creation failed.\n",
			rec.output, strerror(-err));
	else if (err)
		fprintf(stderr, "failed to write perf data, error: %s\n", strerror(-err));
	return err;
}

static int finish_file(struct run *r, struct record_finish *fin)
{
	int err;

	describe_recording(r, fin);
	err = record_session__finish_file(&r->rs, fin);
	if (err)
		fprintf(stderr, "failed to write '%s': %s\n", rec.output, strerror(-err));
	return err;
}

/* --switch-max-files: the newest dumps stay, the oldest go (name is taken). */
static void keep_dump(char *name)
{
	if (rec.switch_max_files <= 0) {
		free(name);
		return;
	}
	if (!rec.dumped)
		rec.dumped = xcalloc((size_t)rec.switch_max_files, sizeof(*rec.dumped));
	if (rec.nr_dumped == rec.switch_max_files) {
		unlink(rec.dumped[0]);
		free(rec.dumped[0]);
		memmove(rec.dumped, rec.dumped + 1, (size_t)(rec.nr_dumped - 1) * sizeof(char *));
		rec.nr_dumped--;
	}
	rec.dumped[rec.nr_dumped++] = name;
}

/* --switch-output: the current file gets its timestamped name and a new
 * one starts in its place. */
static int switch_output(struct run *r, bool at_exit, struct record_finish *fin)
{
	char *name;
	int err;

	/* overwrite rings are read now: the file is their snapshot */
	if (!at_exit && record_session__drain(&r->rs) < 0)
		return -EIO;
	r->total_samples += r->rs.samples;
	r->rs.samples = 0;
	err = finish_file(r, fin);
	if (err)
		return err;
	name = timestamped(rec.output);
	if (rename(rec.output, name)) {
		fprintf(stderr, "failed to rename %s: %s\n", rec.output, strerror(errno));
		free(name);
		return -errno;
	}
	if (!rec.quiet) {
		if (!at_exit)
			fprintf(stderr, "[ pcl record: dump data: Woken up %llu times ]\n",
				(unsigned long long)wakeups(r));
		fprintf(stderr, "[ pcl record: Dump %s ]\n", name);
	}
	keep_dump(name);
	r->wakeups_before = r->rs.drain.stats.wakeups;
	return at_exit ? 0 : open_file(r);
}

/* --- the loop (core/live/drain) --- */

static int count_bytes(void *ctx, int cpu, const void *data, size_t len)
{
	*(size_t *)ctx += len;
	return 0;
}

/* Whether a --switch-output-event happened since the last look. */
static bool switch_event_seen(struct run *r)
{
	size_t bytes = 0;
	struct drain_consumer c = { .ctx = &bytes, .chunk = count_bytes };

	if (!rec.switch_output_events.nr_entries)
		return false;
	drain__round(&r->switch_drain, &c);
	return bytes > 0;
}

/* Opens the --switch-output-event events on every CPU, their rings woken
 * at each record and polled with the recording's. */
static int open_switch_events(struct run *r)
{
	struct drain_opts dopts = { .mmap_pages = 4 };
	struct evsel *failed;
	int err;

	if (!rec.switch_output_events.nr_entries)
		return 0;
	r->switch_cpus = cpu_map__new_online();
	r->switch_threads = thread_map__new_any();
	if (!r->switch_cpus || !r->switch_threads)
		return -ENOMEM;
	evlist__for_each(&rec.switch_output_events, e) {
		e->attr.sample_id_all = 1;
		e->attr.wakeup_events = 1;
	}
	err = evlist__open(&rec.switch_output_events, r->switch_cpus, r->switch_threads,
			   r->switch_cpus, 0, &failed);
	if (!err)
		err = drain__mmap(&r->switch_drain, &rec.switch_output_events, r->switch_cpus,
				  r->switch_threads, &dopts);
	if (err) {
		fprintf(stderr, "Failed to create side-band event: %s\n", strerror(-err));
		return err;
	}
	for (size_t i = 0; i < r->switch_drain.nr_pollfds; i++)
		drain__poll_fd(&r->rs.drain, r->switch_drain.pollfds[i].fd);
	return 0;
}

static void close_switch_events(struct run *r)
{
	if (!rec.switch_output_events.nr_entries)
		return;
	drain__unmap(&r->switch_drain);
	evlist__close(&rec.switch_output_events);
	cpu_map__delete(r->switch_cpus);
	thread_map__delete(r->switch_threads);
}

/* "ack\n" and its NUL, the five bytes perf writes. */
static void ack_control(void)
{
	static const char ack[] = "ack\n";

	if (rec.ack_fd >= 0 && write(rec.ack_fd, ack, sizeof(ack)) != sizeof(ack) && !rec.quiet)
		fprintf(stderr, "Failed to write to ack fd: %s\n", strerror(errno));
}

static void control_attr_field(FILE *fp, const char *name, const char *value, void *first)
{
	fprintf(fp, "%s %s: %s", *(bool *)first ? ":" : ",", name, value);
	*(bool *)first = false;
}

/* --control "evlist [-v]": the events, one a line, with -v their attrs as
 * perf evlist -v shows them. */
static void control_evlist(const char *flags)
{
	evlist__for_each(&rec.evlist, e) {
		bool first = true;

		fputs(e->name, stderr);
		if (!strcmp(flags, "-v"))
			attr_print(stderr, &e->attr, control_attr_field, &first);
		fputc('\n', stderr);
	}
}

/* --control "enable" / "disable", of every event or of the one named. */
static void control_enable(const char *name, bool enable)
{
	struct evsel *found = NULL;

	if (!*name) {
		(enable ? evlist__enable : evlist__disable)(&rec.evlist);
		if (!rec.quiet)
			fprintf(stderr, "Events %s\n", enable ? "enabled" : "disabled");
		return;
	}
	evlist__for_each(&rec.evlist, e)
		if (!found && !strcmp(e->name, name))
			found = e;
	if (found)
		(enable ? evsel__enable : evsel__disable)(found);
	if (rec.quiet)
		return;
	if (found)
		fprintf(stderr, "Event %s %s\n", found->name, enable ? "enabled" : "disabled");
	else
		fprintf(stderr, "failed: can't find '%s' event\n", name);
}

/* The command word of a --control line, its argument in *arg. */
static bool control_is(const char *line, const char *cmd, const char **arg)
{
	size_t n = strlen(cmd);

	if (strncmp(line, cmd, n) || (line[n] && line[n] != ' '))
		return false;
	*arg = line[n] ? line + n + 1 : line + n;
	return true;
}

/* --control: runs the commands waiting on the control fd.  Returns 1 when
 * told to stop, else 0. */
static int run_control_commands(void)
{
	char buf[512];
	ssize_t n;
	int stop = 0;

	if (rec.ctl_fd < 0)
		return 0;
	while ((n = read(rec.ctl_fd, buf, sizeof(buf) - 1)) > 0) {
		char *pos = buf, *cmd;

		buf[n] = '\0';
		while ((cmd = strsep(&pos, "\n"))) {
			const char *arg;

			if (!*cmd)
				continue;
			if (control_is(cmd, "enable", &arg)) {
				control_enable(arg, true);
			} else if (control_is(cmd, "disable", &arg)) {
				control_enable(arg, false);
			} else if (control_is(cmd, "evlist", &arg)) {
				if (!rec.quiet)
					control_evlist(arg);
			} else if (!strcmp(cmd, "stop")) {
				stop = 1;
			} else if (strcmp(cmd, "ping") && strcmp(cmd, "snapshot")) {
				continue;	/* unknown: no ack, as perf */
			}
			ack_control();
		}
	}
	return stop;
}

/* After each round: the size limit, and --switch-output's triggers. */
static int record_tick(void *ctx, bool stopping)
{
	struct run *r = run_of(ctx);
	struct record_session *rs = &r->rs;
	struct record_finish fin = { 0 };
	bool switch_now;

	if (rec.max_size && record_session__file_size(rs) >= rec.max_size && !stopping) {
		if (!rec.quiet)
			fprintf(stderr, "[ pcl record: perf size limit reached (%llu KB), stopping session ]\n",
				(unsigned long long)(record_session__file_size(rs) >> 10));
		return 1;
	}
	if (!stopping && run_control_commands())
		return 1;
	switch_now = drain__take_signal(SIGUSR2) || drain__take_signal(SIGALRM) ||
		     switch_event_seen(r) || (rec.switch_mode == SWITCH_SIZE &&
					      record_session__file_size(rs) >= rec.switch_size);
	if (!switch_now || stopping)
		return 0;
	r->err = switch_output(r, false, &fin);
	if (r->err)
		return r->err;
	if (rec.switch_mode == SWITCH_TIME)
		alarm(rec.switch_secs);
	return 0;
}

static void record_note(void *ctx, enum drain_note what)
{
	if (rec.quiet)
		return;
	if (what == DRAIN_EVENTS_DISABLED)
		fprintf(stderr, "Events disabled\n");
	else if (what == DRAIN_EVENTS_ENABLED)
		fprintf(stderr, "Events enabled\n");
}

/* SIGINT, SIGTERM, SIGCHLD, and --switch-output's signal or alarm. */
static void catch_signals(void)
{
	int extra[2];
	size_t nr_extra = 0;

	if (rec.switch_mode == SWITCH_SIGNAL)
		extra[nr_extra++] = SIGUSR2;
	if (rec.switch_mode == SWITCH_TIME)
		extra[nr_extra++] = SIGALRM;
	drain__catch_signals(extra, nr_extra);
}

static int record_loop(struct run *r)
{
	struct drain_consumer c;
	int err;

	record_session__consumer(&r->rs, &c);
	c.tick = record_tick;
	c.note = record_note;
	if (r->have_workload)
		r->rs.drain.opts.workload = &r->workload;
	if (rec.ctl_fd >= 0) {
		fcntl(rec.ctl_fd, F_SETFL, fcntl(rec.ctl_fd, F_GETFL) | O_NONBLOCK);
		drain__poll_fd(&r->rs.drain, rec.ctl_fd);
	}
	if (rec.switch_mode == SWITCH_TIME)
		alarm(rec.switch_secs);
	err = drain__run(&r->rs.drain, &c);
	if (rec.switch_mode == SWITCH_TIME)
		alarm(0);
	/* A failed switch said why; a failed write is said here. */
	if (err && !r->err)
		fprintf(stderr, "failed to write perf data, error: %s\n", strerror(-err));
	return err;
}

/* --- errors --- */

static void print_open_error(struct evsel *failed, int err)
{
	char msg[2048];

	if (!failed) {
		if (err == -EPERM || err == -ENOMEM)
			fprintf(stderr,
				"Permission error mapping pages.\n"
				"Consider increasing /proc/sys/kernel/perf_event_mlock_kb,\n"
				"or try again with a smaller value of -m/--mmap_pages.\n"
				"(current value: %zu)\n", rec.opts.mmap_pages);
		else
			fprintf(stderr, "failed to mmap with %d (%s)\n", -err, strerror(-err));
		return;
	}
	evsel__open_strerror(failed, -err, rec.opts.target.cpu_list != NULL, msg, sizeof(msg));
	fprintf(stderr, "Error:\n%s\n", msg);
}

static int make_maps(struct cpu_map **cpus, struct thread_map **threads)
{
	struct target *t = &rec.opts.target;

	switch (target__create_maps(t, cpus, threads)) {
	case TARGET_MAPS_OK:
		break;
	case TARGET_MAPS_BAD_CPUS:
		fprintf(stderr, "Invalid cpu list: %s\n", t->cpu_list);
		return -EINVAL;
	default:
		fprintf(stderr, "Couldn't create thread/CPU maps: %s\n", strerror(ESRCH));
		return -ESRCH;
	}
	/* perf record samples into per-CPU buffers even for tasks. */
	if (cpu_map__is_any(*cpus) && !t->per_thread) {
		cpu_map__delete(*cpus);
		*cpus = cpu_map__new_online();
		if (!*cpus) {
			thread_map__delete(*threads);
			fprintf(stderr, "Couldn't read the online CPUs\n");
			return -ENOENT;
		}
	}
	return 0;
}

/* Removes the threads that no longer exist, as perf does for -p and -u.
 * Returns false when none was removed (or none is left). */
static bool drop_dead_threads(struct thread_map **threads)
{
	struct thread_map *old = *threads, *t;
	int n = 0;

	t = xcalloc(1, sizeof(*t) + (size_t)old->nr * sizeof(t->map[0]));
	for (int i = 0; i < old->nr; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d", old->map[i].pid);
		if (access(path, F_OK)) {
			if (!rec.quiet)
				fprintf(stderr, "WARNING: Ignored open failure for pid %d\n",
					old->map[i].pid);
			continue;
		}
		t->map[n].pid = old->map[i].pid;
		t->map[n].comm = old->map[i].comm ? xstrdup(old->map[i].comm) : NULL;
		n++;
	}
	t->nr = n;
	if (n == old->nr || !n) {
		thread_map__delete(t);
		return false;
	}
	thread_map__delete(old);
	*threads = t;
	return true;
}

static void print_summary(struct run *r, const struct record_finish *fin, bool switched)
{
	char samples[64] = "";
	uint64_t nsamples = r->total_samples + r->rs.samples;
	uint64_t lost = r->rs.lost_samples;

	if (rec.quiet)
		return;
	if (lost && (double)lost / (double)(nsamples + lost) > 0.05)
		fprintf(stderr, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
			(unsigned long long)(nsamples + lost),
			100.0 * (double)lost / (double)(nsamples + lost));
	if (r->rs.lost_chunks)
		fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\n"
			"Check IO/CPU overload!\n\n", (unsigned long long)r->rs.nr_records,
			(unsigned long long)r->rs.lost_chunks);
	/* Like perf, a pipe counts neither its size nor its samples. */
	if (nsamples && !rec.no_buildid && !rec.comp_level && !to_pipe())
		snprintf(samples, sizeof(samples), " (%llu samples)", (unsigned long long)nsamples);
	fprintf(stderr, "[ pcl record: Captured and wrote %.3f MB %s%s%s",
		to_pipe() ? 0.0 : (double)fin->data_end / 1024.0 / 1024.0,
		rec.output, switched ? ".<timestamp>" : "", samples);
	if (rec.comp_level && fin->written_bytes)
		fprintf(stderr, ", compressed (original %.3f MB, ratio is %.3f)",
			(double)fin->raw_bytes / 1024.0 / 1024.0,
			(double)fin->raw_bytes / (double)fin->written_bytes);
	fprintf(stderr, " ]\n");
}

/* -v: how the drain went (what to look at when samples are lost). */
static void print_drain_stats(const struct drain_stats *st)
{
	fprintf(stderr, "drain: %llu wake-ups, %llu rounds, %.3f MB, largest round %llu KB, "
		"%.1f ms draining (%.1f us a round), %llu LOST records (%llu events)\n",
		(unsigned long long)st->wakeups, (unsigned long long)st->rounds,
		(double)st->bytes / 1024.0 / 1024.0, (unsigned long long)(st->max_round >> 10),
		(double)st->busy_ns / 1e6,
		st->rounds ? (double)st->busy_ns / 1e3 / (double)st->rounds : 0.0,
		(unsigned long long)st->lost_records, (unsigned long long)st->lost_events);
}

/* As perf does, a recording stopped by SIGINT/SIGTERM, or whose workload a
 * signal ended, ends by that signal once the file is complete: the shell
 * sees what stopped the work, not a plain exit. */
static void die_of_signal(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig);
	exit(PCL_EXIT_SIGNAL + sig);	/* the signal was blocked or ignored */
}

/* --threads: the groups of rings, each written by a thread of its own. */
static int thread_masks(const struct cpu_map *cpus)
{
	char msg[128];
	int err;

	if (rec.opts.target.per_thread) {
		fprintf(stderr, "--per-thread option is mutually exclusive to parallel streaming "
			"mode.\n");
		err = -EINVAL;
	} else {
		err = record_threads__parse_spec(rec.threads_spec, cpus, &rec.thread_masks,
						 msg, sizeof(msg));
		if (err)
			fprintf(stderr, "%s\n", msg);
	}
	if (err)
		fprintf(stderr, "Failed to initialize parallel data streaming masks\n");
	return err;
}

static int run_record(int argc, const char **argv, const char **cmd_argv, int cmd_argc)
{
	struct run r;
	struct cpu_map *cpus = NULL;
	struct thread_map *threads = NULL;
	struct record_finish fin = { 0 };
	struct evsel *failed;
	bool filter_failed;
	int err, status = 0;

	memset(&r, 0, sizeof(r));
	r.argc = argc;
	r.argv = argv;
	r.workload.pid = -1;
	err = make_maps(&cpus, &threads);
	if (err)
		return PCL_EXIT_ERROR;
	if (rec.threads_spec) {
		err = thread_masks(cpus);
		if (err) {
			thread_map__delete(threads);
			cpu_map__delete(cpus);
			return err == -ENODEV ? PCL_EXIT_ENODEV : PCL_EXIT_EINVAL;
		}
	}
	if (cmd_argc) {
		err = workload__prepare(&r.workload, cmd_argv);
		if (err) {
			fprintf(stderr, "Couldn't run the workload!\n");
			goto out_maps;
		}
		r.have_workload = true;
		/* perf names it at the end from /proc, before reaping it */
		r.workload.keep_zombie = rec.opts.tail_synthesize;
		if (target__none(&rec.opts.target)) {
			thread_map__delete(threads);
			threads = thread_map__new_pid(r.workload.pid);
		}
	}
	/* After the fork: the child must not run our handlers before its exec. */
	catch_signals();
	if (rec.off_cpu)
		rec.off_cpu_event = record__add_off_cpu(&rec.evlist);
	record__config(&rec.evlist, &rec.opts);
	if (rec.off_cpu) {
		rec.off_cpu_switch = record__add_off_cpu_switch(&rec.evlist, rec.off_cpu_event);
		if (!rec.off_cpu_switch) {
			fprintf(stderr, "--off-cpu needs the sched:sched_switch tracepoint and "
				"sample times\n");
			err = -EINVAL;
			goto out_kill;
		}
	}
	if (to_pipe())
		record__config_pipe(&rec.evlist);
	for (;;) {
		err = record_session__open(&r.rs, &rec.evlist, cpus, threads, &rec.opts, &failed,
					   &filter_failed);
		/* Threads of -p/-u that ended since the map was made are dropped. */
		if (err != -ESRCH || filter_failed ||
		    !(rec.opts.target.pid || rec.opts.target.uid_str))
			break;
		record_session__close(&r.rs);
		if (!drop_dead_threads(&threads))
			break;
	}
	if (err) {
		if (filter_failed)
			fprintf(stderr, "failed to set filter \"%s\" on event %s with %d (%s)\n",
				failed->filter, failed->name, -err, strerror(-err));
		else
			print_open_error(failed, err);
		goto out_kill;
	}
	if (rec.off_cpu &&
	    record_session__track_off_cpu(&r.rs, rec.off_cpu_event, rec.off_cpu_switch)) {
		fprintf(stderr, "not supported sample type: %llx\n",
			(unsigned long long)rec.off_cpu_event->attr.sample_type);
		err = -EINVAL;
		goto out_kill;
	}
	if (rec.realtime_prio) {
		struct sched_param param = { .sched_priority = rec.realtime_prio };

		if (sched_setscheduler(0, SCHED_FIFO, &param)) {
			fprintf(stderr, "Could not set realtime priority.\n");
			err = -EPERM;
			goto out_kill;
		}
	}
	err = open_switch_events(&r);
	if (err)
		goto out_kill;
	if (rec.verbose && r.rs.fallback_msg[0])
		fprintf(stderr, "Warning:\n%s\n", r.rs.fallback_msg);
	if (rec.verbose) {
		evlist__for_each(&rec.evlist, e)
			fprintf(stderr, "%s: opened on %d cpus x %d threads\n", e->name,
				e->nr_cpus, e->nr_threads);
	}
	if (!to_pipe()) {
		err = rotate_old(rec.output);
		if (err)
			goto out_kill;
	}
	if (rec.threads_spec)
		r.rs.dir_masks = &rec.thread_masks;
	err = open_file(&r);
	if (err)
		goto out_kill;

	err = record_loop(&r);
	if (r.have_workload) {
		if (!workload__poll_exit(&r.workload))
			kill(r.workload.pid, SIGTERM);
		workload__wait(&r.workload);
		if (r.workload.exec_errno) {
			fprintf(stderr, "Failed to collect '%s' for the '%s' workload: %s\n",
				rec.evlist.first->name, cmd_argv[0], strerror(r.workload.exec_errno));
			close_switch_events(&r);
			record_session__close(&r.rs);
			err = -r.workload.exec_errno;
			goto out_maps;
		}
	}
	if (!rec.quiet && !err)
		fprintf(stderr, "[ pcl record: Woken up %llu times to write data ]\n",
			(unsigned long long)wakeups(&r));
	if (!err && nr_maps_timed_out)
		fprintf(stderr, "Warning:\n%u map information files for pre-existing threads were\n"
			"not processed, if there are samples for addresses they\n"
			"will not be resolved, you may find out which are these\n"
			"threads by running with -v and redirecting the output\n"
			"to a file.\nThe time limit to process proc map is too short?\n"
			"Increase it by --proc-map-timeout\n", (unsigned int)nr_maps_timed_out);
	/* Whatever the last drain left: samples written while stopping. */
	if (!err && record_session__drain(&r.rs) < 0)
		err = -EIO;
	if (!err) {
		if (timestamped_output())
			err = switch_output(&r, true, &fin);
		else
			err = finish_file(&r, &fin);
	}
	if (!err && rec.verbose)
		print_drain_stats(&r.rs.drain.stats);
	if (!err)
		print_summary(&r, &fin, timestamped_output());
	close_switch_events(&r);
	record_session__close(&r.rs);
	goto out_maps;

out_kill:
	if (r.have_workload)
		workload__kill(&r.workload, SIGTERM);
	close_switch_events(&r);
	record_session__close(&r.rs);
out_maps:
	if (r.have_workload) {
		r.workload.keep_zombie = false;
		workload__wait(&r.workload);
		status = r.workload.status;
	}
	workload__close(&r.workload);
	thread_map__delete(threads);
	cpu_map__delete(cpus);
	record_thread_masks__exit(&rec.thread_masks);
	if (err)
		return err == -EINVAL ? PCL_EXIT_EINVAL : PCL_EXIT_ERROR;
	if (r.have_workload && WIFSIGNALED(status))
		die_of_signal(WTERMSIG(status));
	else if (drain__stop_signal())
		die_of_signal(drain__stop_signal());
	if (r.have_workload && WIFEXITED(status))
		return WEXITSTATUS(status);
	return 0;
}

static int wrong_config(const struct config_error *err)
{
	if (err->why)
		fprintf(stderr, "%s\n", err->why);
	fprintf(stderr, "Error in the given config file: wrong config key-value pair %s=%s\n",
		err->key, err->value);
	return PCL_EXIT_ERROR;
}

/* perf's keys for record, read before the command line overrides them. */
static int read_config(void)
{
	struct perfconfig pc = { 0 };
	struct config_error err = { .why = NULL };
	struct callchain_param display;
	const char *v, *key;
	int ret = 0, found;

	perfconfig__load(&pc);
	found = record_opts__config_callgraph(&rec.config_cg, &pc, "record.call-graph", &err);
	if (found < 0)
		ret = wrong_config(&err);
	/* perf checks the display keys at start-up too, for every command */
	callchain_param__init(&display);
	if (!ret && callchain_param__read_config(&display, err.msg, sizeof(err.msg), &err.why,
						 &key, &err.value)) {
		snprintf(err.key, sizeof(err.key), "%s", key);
		ret = wrong_config(&err);
	}
	rec.config_callgraph = found > 0;
	if (!ret && (v = perfconfig__get(&pc, "record.build-id"))) {
		if (!strcmp(v, "no-cache"))
			rec.no_buildid_cache = true;
		else if (!strcmp(v, "skip"))
			rec.no_buildid = true;
		else if (!strcmp(v, "mmap"))
			rec.opts.buildid_mmap = true;
		else if (strcmp(v, "cache"))
			ret = wrong_config(&(struct config_error){ .key = "record.build-id",
								     .value = v });
	}
	perfconfig__release(&pc);
	return ret;
}

int cmd_record(int argc, const char **argv)
{
	int cmd_argc, ret;
	const char **cmd_argv, **orig_argv;
	enum target_conflict conflict;
	const char *config;

	memset(&rec, 0, sizeof(rec));
	record_opts__init(&rec.opts);
	rec.opts.maps_timed_out = maps_timed_out;
	if ((config = perfconfig__default("core.proc-map-timeout")))
		rec.opts.proc_map_timeout_ms = (unsigned int)strtoul(config, NULL, 0);
	evlist__init(&rec.evlist);
	evlist__init(&rec.switch_output_events);
	rec.ctl_fd = rec.ack_fd = -1;
	rec.count = UINT64_MAX;
	rec.output = perf_data__default_path(true);
	record_options = options;
	ret = read_config();
	if (ret)
		return ret;

	/* parse_options() reorders argv: keep the command line as typed for
	 * the file's header. */
	orig_argv = xcalloc((size_t)argc + 1, sizeof(*orig_argv));
	memcpy(orig_argv, argv, (size_t)argc * sizeof(*argv));
	cmd_argc = parse_options(argc, argv, options, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	cmd_argv = argv;
	if (rec.quiet)
		rec.verbose = 0;
	ret = check_options();
	if (ret || rec.dry_run) {
		free_options();
		free(orig_argv);
		return ret;
	}
	/* No command and no target: the whole system until interrupted. */
	if (!cmd_argc && target__none(&rec.opts.target))
		rec.opts.target.system_wide = true;
	/* Threads given by id are watched alone, not their future children. */
	if (rec.opts.target.tid)
		rec.opts.no_inherit = true;
	conflict = target__validate(&rec.opts.target);
	if (conflict != TARGET_OK && !rec.quiet)
		fprintf(stderr, "Warning:\n%s\n", target__conflict_str(conflict));
	/* Rings per thread cannot take the records of children. */
	if (rec.opts.target.per_thread)
		rec.opts.no_inherit = true;
	/* perf copies the kernel's text out of /proc/kcore next to the data;
	 * pcl cannot yet, and says so rather than record without it. */
	if (rec.kcore) {
		fprintf(stderr, access("/proc/kcore", R_OK) ? "ERROR: kcore is not readable.\n" :
			"ERROR: pcl cannot copy /proc/kcore yet.\n");
		free_options();
		free(orig_argv);
		return PCL_EXIT_ERROR;
	}
	if (rec.opts.target.uid_str && target__parse_uid(&rec.opts.target)) {
		fprintf(stderr, "Error:\nInvalid User: %s\n", rec.opts.target.uid_str);
		free_options();
		free(orig_argv);
		return PCL_EXIT_ERROR;
	}
	ret = config_options();
	if (ret) {
		free_options();
		free(orig_argv);
		return ret == -2 ? PCL_EXIT_USAGE : ret == -EINVAL ? PCL_EXIT_EINVAL : PCL_EXIT_ERROR;
	}
	if (to_pipe() && rec.threads_spec) {
		fprintf(stderr, "Parallel trace streaming is not available in pipe mode.\n");
		free_options();
		free(orig_argv);
		return PCL_EXIT_ERROR;
	}
	/* as perf: one directory per recording, never switched */
	if (rec.threads_spec && rec.switch_mode != SWITCH_NONE) {
		fprintf(stderr, "WARNING: --switch-output option is not available in parallel "
			"streaming mode.\n");
		rec.switch_mode = SWITCH_NONE;
	}
	/* perf 6.1 "dumps" a pipe into a file named -.TIMESTAMP; refuse instead. */
	if (to_pipe() && timestamped_output()) {
		fprintf(stderr, "Error:\n%s needs an output file, not a pipe (-o -)\n",
			rec.switch_mode != SWITCH_NONE ? "--switch-output" : "--timestamp-filename");
		free_options();
		free(orig_argv);
		return PCL_EXIT_ERROR;
	}
	if (!rec.evlist.nr_entries && add_default_event()) {
		fprintf(stderr, "Not enough memory for event selector list\n");
		free(orig_argv);
		return PCL_EXIT_ERROR;
	}
	/* The command line that made the file goes into its header, argv[0]
	 * included ("record"); cmd_argv points into the same array. */
	ret = run_record(argc, orig_argv, cmd_argv, cmd_argc);
	free_options();
	free(orig_argv);
	return ret;
}

int cmd_record_then(const char **rec_argv, int n, int argc, const char **argv)
{
	for (int i = 0; i < argc; i++)
		rec_argv[n++] = argv[i];
	return cmd_record(n, rec_argv);
}
