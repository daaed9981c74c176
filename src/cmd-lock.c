/* pcl lock: record lock contention and analyse it (report, contention, info, script). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "core/analysis/lock.h"
#include "core/data/session.h"
#include "core/events/tracepoint.h"
#include "ui/lock-print.h"
#include "ui/raw-dump.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const lock_usage[] = {
	"pcl lock [<options>] {record|report|script|info|contention}", NULL
};
static const char *const report_usage[] = { "pcl lock report [<options>]", NULL };
static const char *const info_usage[] = { "pcl lock info [<options>]", NULL };
static const char *const contention_usage[] = { "pcl lock contention [<options>]", NULL };

static struct {
	const char *input, *kallsyms, *vmlinux;
	bool force, quiet, dump;
	int verbose;
	/* report, contention, info */
	const char *sort_key, *fields;
	bool threads, combine, info_threads, info_map;
	int entries, max_stack, stack_skip;
	const char *cpu, *pid, *tid;
	bool all_cpus;
	int map_entries;
} lo = { .entries = INT_MAX, .max_stack = 8, .stack_skip = 3, .map_entries = 16384 };

static const struct option lock_options[] = {
	OPT_BOOLEAN('D', "dump-raw-trace", &lo.dump, "dump raw trace in ASCII"),
	OPT_BOOLEAN('f', "force", &lo.force, "don't complain, do it"),
	OPT_STRING('i', "input", &lo.input, "file", "input file name"),
	OPT_BOOLEAN('q', "quiet", &lo.quiet, "Do not show any warnings or messages"),
	OPT_INCR('v', "verbose", &lo.verbose, "be more verbose (show symbol address, etc)"),
	OPT_STRING(0, "kallsyms", &lo.kallsyms, "file", "kallsyms pathname"),
	OPT_STRING(0, "vmlinux", &lo.vmlinux, "file", "vmlinux pathname"),
	OPT_END(),
};

/* perf's sub-commands take lock's own options too, without listing them */
#define LOCK_PARENT_OPTIONS							\
	{ .type = OPT_BOOL_T, .short_name = 'D', .long_name = "dump-raw-trace",		\
	  .value = &lo.dump, .flags = OPTF_HIDDEN },					\
	{ .type = OPT_BOOL_T, .short_name = 'f', .long_name = "force", .value = &lo.force,	\
	  .flags = OPTF_HIDDEN },						\
	{ .type = OPT_STRING_T, .short_name = 'i', .long_name = "input", .value = &lo.input, \
	  .flags = OPTF_HIDDEN },						\
	{ .type = OPT_BOOL_T, .short_name = 'q', .long_name = "quiet", .value = &lo.quiet,	\
	  .flags = OPTF_HIDDEN },						\
	{ .type = OPT_INCR_T, .short_name = 'v', .long_name = "verbose", .value = &lo.verbose, \
	  .flags = OPTF_HIDDEN },						\
	{ .type = OPT_STRING_T, .long_name = "kallsyms", .value = &lo.kallsyms,		\
	  .flags = OPTF_HIDDEN },						\
	{ .type = OPT_STRING_T, .long_name = "vmlinux", .value = &lo.vmlinux,		\
	  .flags = OPTF_HIDDEN }

static const struct option report_options[] = {
	OPT_BOOLEAN('c', "combine-locks", &lo.combine, "combine locks in the same class"),
	OPT_INTEGER('E', "entries", &lo.entries, "display this many functions"),
	OPT_STRING('F', "field", &lo.fields, NULL,
		   "output fields (acquired / contended / avg_wait / wait_total / "
		   "wait_max / wait_min)"),
	OPT_STRING('k', "key", &lo.sort_key, "acquired",
		   "key for sorting (acquired / contended / avg_wait / wait_total / "
		   "wait_max / wait_min)"),
	OPT_BOOLEAN('t', "threads", &lo.threads, "show per-thread lock stats"),
	LOCK_PARENT_OPTIONS,
	OPT_END(),
};

static const struct option info_options[] = {
	OPT_BOOLEAN('m', "map", &lo.info_map, "map of lock instances (address:name table)"),
	OPT_BOOLEAN('t', "threads", &lo.info_threads, "dump thread list in perf.data"),
	LOCK_PARENT_OPTIONS,
	OPT_END(),
};

static const struct option *contention_opts;

/* -b: there is no BPF program in pcl; perf without one says so. */
static int opt_use_bpf(const struct option *opt, const char *arg, bool unset)
{
	(void)opt, (void)arg, (void)unset;
	fputs(" Error: switch `b' is not available because no BUILD_BPF_SKEL=1\n"
	      " Usage: pcl lock contention [<options>]\n\n", stderr);
	parse_options_usage(NULL, contention_opts, "b", true);
	exit(PCL_EXIT_USAGE);
}

static const struct option contention_options[] = {
	OPT_BOOLEAN('a', "all-cpus", &lo.all_cpus, "System-wide collection from all CPUs"),
	OPT_CALLBACK_NOOPT('b', "use-bpf", NULL,
			   "use BPF program to collect lock contention stats\n"
			   "                          (not built-in because no BUILD_BPF_SKEL=1)",
			   opt_use_bpf),
	OPT_STRING('C', "cpu", &lo.cpu, "cpu", "List of cpus to monitor"),
	OPT_INTEGER('E', "entries", &lo.entries, "display this many functions"),
	OPT_STRING('F', "field", &lo.fields, "contended,wait_total,wait_max,avg_wait",
		   "output fields (contended / wait_total / wait_max / wait_min / avg_wait)"),
	OPT_STRING('k', "key", &lo.sort_key, "wait_total",
		   "key for sorting (contended / wait_total / wait_max / wait_min / avg_wait)"),
	OPT_STRING('p', "pid", &lo.pid, "pid", "Trace on existing process id"),
	OPT_BOOLEAN('t', "threads", &lo.threads, "show per-thread lock stats"),
	{ .type = OPT_INT_T, .long_name = "map-nr-entries", .value = &lo.map_entries,
	  .argh = "num", .help = "Max number of BPF map entries" },
	OPT_INTEGER(0, "max-stack", &lo.max_stack,
		    "Set the maximum stack depth when collecting lock contention, Default: 8"),
	OPT_INTEGER(0, "stack-skip", &lo.stack_skip,
		    "Set the number of stack depth to skip when finding a lock caller, Default: 3"),
	OPT_STRING(0, "tid", &lo.tid, "tid", "Trace on existing thread id (exclusive to --pid)"),
	LOCK_PARENT_OPTIONS,
	OPT_END(),
};

/* perf lock record: perf record of the lock tracepoints: lockdep's when
 * the kernel has them, else the contention ones with short call chains. */
static int lock_record(int argc, const char **argv)
{
	static const char *const lockdep[] = {
		"lock:lock_acquire", "lock:lock_acquired", "lock:lock_contended",
		"lock:lock_release",
	};
	static const char *const contention[] = { "lock:contention_begin", "lock:contention_end" };
	static const char *const common[] = {
		"record", "-R", "-m", "1024", "-c", "1", "--synth", "task",
	};
	const char **rec = xcalloc((size_t)argc + 32, sizeof(*rec));
	bool has_lockdep = true;
	int n = 0, ret;

	for (size_t i = 0; i < ARRAY_SIZE(lockdep) && has_lockdep; i++)
		has_lockdep = tracepoint__id("lock", lockdep[i] + 5) >= 0;
	for (size_t i = 0; i < ARRAY_SIZE(contention) && !has_lockdep; i++) {
		if (tracepoint__id("lock", contention[i] + 5) < 0) {
			fprintf(stderr, "tracepoint %s is not enabled.\n", contention[i]);
			free(rec);
			return PCL_EXIT_FAILURE;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(common); i++)
		rec[n++] = common[i];
	for (size_t i = 0; i < (has_lockdep ? ARRAY_SIZE(lockdep) : ARRAY_SIZE(contention)); i++) {
		rec[n++] = "-e";
		rec[n++] = has_lockdep ? lockdep[i] : contention[i];
	}
	if (!has_lockdep) {
		rec[n++] = "--call-graph";
		rec[n++] = "fp,8";
	}
	ret = cmd_record_then(rec, n, argc - 1, argv + 1);
	free(rec);
	return ret;
}

/* perf lock script is perf script with lock's -i and -f. */
static int lock_script(int argc, const char **argv)
{
	const char **args = xcalloc((size_t)argc + 4, sizeof(*args));
	int n = 0, ret;

	args[n++] = "script";
	if (lo.input) {
		args[n++] = "-i";
		args[n++] = lo.input;
	}
	if (lo.force)
		args[n++] = "-f";
	for (int i = 1; i < argc; i++)
		args[n++] = argv[i];
	ret = cmd_script(n, args);
	free(args);
	return ret;
}

struct lock_run {
	struct perf_tool tool;
	struct lock_analysis la;
};

static int lock_sample(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	struct lock_run *r = (struct lock_run *)tool;

	(void)rec;
	machine__findnew_thread(s->machine, (pid_t)sample->pid, (pid_t)sample->tid);
	return lock_analysis__sample(&r->la, s, evsel, sample);
}

/* -D: perf's dump of every record; the kinds perf lock has no handler
 * for end in ": unhandled!" instead of their details. */
static int lock_dump(struct perf_tool *tool, struct perf_session *s,
		     const struct perf_event_header *rec, struct perf_sample *sample,
		     struct evsel *evsel, uint64_t off)
{
	enum raw_dump_end end = RAW_DUMP_HANDLED;

	(void)tool;
	switch (rec->type) {
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_CGROUP:
		end = RAW_DUMP_STUB;
		break;
	default:
		if (raw_dump_left_to_stub(rec->type))
			end = RAW_DUMP_STUB_AFTER_DETAILS;
	}
	raw_dump_record_as(stdout, s, rec, sample, evsel, off, end);
	return 0;
}

static int lock_comm(struct perf_tool *tool, struct perf_session *s,
		     const struct perf_event_header *rec, struct perf_sample *sample,
		     struct evsel *evsel)
{
	const struct perf_rec_comm *c = (const void *)rec;

	(void)s, (void)sample, (void)evsel;
	lock_analysis__comm(&((struct lock_run *)tool)->la, c->tid, c->comm);
	return 0;
}

static bool has_tracepoints(struct perf_session *s, const char *name)
{
	for (struct evsel *e = s->evlist.first; e; e = e->next)
		if (e->attr.type == PERF_TYPE_TRACEPOINT && (!name || !strcmp(e->name, name)))
			return true;
	return false;
}

/* -F then -k, as perf: the sort key joins the columns when absent. */
static int choose_columns(bool contention, const struct lock_column **cols, int *nr_cols,
			  enum lock_key *key)
{
	int nr;
	const struct lock_column *all = lock_columns(contention, &nr);
	const char *fields = lo.fields ? lo.fields
			     : contention ? "contended,wait_total,wait_max,avg_wait" : NULL;
	const char *sort = lo.sort_key ? lo.sort_key : contention ? "wait_total" : "acquired";
	bool used[8] = { false };
	char *copy, *pos, *tok;

	*nr_cols = 0;
	if (!fields) {
		for (int i = 0; i < nr; i++) {
			cols[(*nr_cols)++] = &all[i];
			used[i] = true;
		}
	} else {
		pos = copy = xstrdup(fields);
		while ((tok = strsep(&pos, ","))) {
			int i;

			for (i = 0; i < nr && strcmp(all[i].name, tok); i++)
				;
			if (i == nr) {
				fprintf(stderr, "Unknown output field: %s\n", tok);
				free(copy);
				return -1;
			}
			if (!used[i])
				cols[(*nr_cols)++] = &all[i];
			used[i] = true;
		}
		free(copy);
	}
	for (int i = 0; i < nr; i++) {
		if (strcmp(all[i].name, sort))
			continue;
		*key = all[i].key;
		if (!used[i])
			cols[(*nr_cols)++] = &all[i];
		return 0;
	}
	fprintf(stderr, "Unknown compare key: %s\n", sort);
	return -1;
}

enum lock_mode { MODE_REPORT, MODE_CONTENTION, MODE_INFO };

static int lock_analyse(enum lock_mode mode)
{
	struct lock_run r = {
		.tool = { .sample = lock_sample, .comm = lock_comm, .ordered = true },
	};
	const struct lock_column *cols[8];
	struct lock_print_opts po = {
		.cols = cols, .quiet = lo.quiet, .verbose = lo.verbose > 0,
		.threads = lo.threads, .entries = lo.entries,
	};
	enum lock_key key = LOCK_KEY_ACQUIRED;
	struct perf_session *s;
	struct machine *m;
	char *err = NULL;
	int ret = PCL_EXIT_EINVAL;
	const char *input;

	input = lo.input ? lo.input : perf_data__default_path(false);
	s = perf_session__open(input, lo.force, &err);
	if (!s) {
		session_warnings__open_failed(input, err);
		fputs("Initializing perf session failed\n", stderr);
		free(err);
		return PCL_EXIT_ERROR;
	}
	lock_analysis__init(&r.la);
	if (!has_tracepoints(s, NULL)) {
		fputs("No trace sample to read. Did you call 'perf lock record'?\n", stderr);
		goto out;
	}
	if (mode == MODE_CONTENTION && !has_tracepoints(s, "lock:contention_begin")) {
		fputs("lock contention evsel not found\n", stderr);
		goto out;
	}
	if (mode != MODE_INFO && choose_columns(mode == MODE_CONTENTION, cols, &po.nr_cols, &key))
		goto out;
	if (mode == MODE_INFO)
		lo.threads = false;
	r.la.aggr = lo.threads ? LOCK_AGGR_TASK
		    : mode == MODE_CONTENTION ? LOCK_AGGR_CALLER : LOCK_AGGR_ADDR;
	r.la.thread_names = lo.threads;
	r.la.keep_callstacks = lo.verbose > 0;
	r.la.max_stack = lo.max_stack;
	r.la.stack_skip = lo.stack_skip;
	m = perf_session__new_machine(s, lo.kallsyms, NULL, lo.force);
	machine__symbols_config(m)->inline_frames = false;
	machine__symbols_config(m)->vmlinux = lo.vmlinux;
	machine__prefetch_kallsyms(m);
	po.machine = m;
	/* perf lock leaves these to stubs: its machine never learns user
	 * mappings or threads from them (on a system-wide recording they
	 * were a third of the time), and only kernel frames are looked up */
	r.tool.machine_ignores[PERF_RECORD_MMAP2] = true;
	r.tool.machine_ignores[PERF_RECORD_FORK] = true;
	r.tool.machine_ignores[PERF_RECORD_EXIT] = true;
	r.tool.machine_ignores[PERF_RECORD_CGROUP] = true;
	if (lo.dump)
		r.tool.record = lock_dump;
	if (perf_session__process(s, &r.tool) < 0) {
		fprintf(stderr, "pcl lock: %s\n", s->err);
		ret = PCL_EXIT_ERROR;
		goto out;
	}
	if (!lo.quiet)
		session_warnings__print(stderr, &s->stats, false);
	ret = 0;
	if (mode == MODE_INFO) {
		if (lo.info_threads) {
			lock_print_threads(stderr, &r.la);
		} else if (lo.info_map) {
			lock_print_map(stderr, &r.la);
		} else {
			fputs("Unknown type of information\n", stderr);
			ret = PCL_EXIT_ERROR;
		}
	} else {
		size_t nr;
		struct lock_stat **rows;

		if (mode == MODE_REPORT && lo.combine)
			lock_analysis__combine(&r.la);
		rows = lock_analysis__sorted(&r.la, key, &nr);
		if (mode == MODE_REPORT)
			lock_print_report(stderr, &r.la, rows, nr, &po);
		else
			lock_print_contention(stderr, &r.la, rows, nr, &po);
		free(rows);
	}
out:
	lock_analysis__exit(&r.la);
	perf_session__delete(s);
	return ret;
}

static bool abbrev_of(const char *arg, const char *cmd)
{
	return strlen(arg) > 2 && !strncmp(cmd, arg, strlen(arg));
}

int cmd_lock(int argc, const char **argv)
{
	contention_opts = contention_options;
	argc = parse_options(argc, argv, lock_options, lock_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_with_options(lock_usage, lock_options);

	if (abbrev_of(argv[0], "record"))
		return lock_record(argc, argv);
	if (abbrev_of(argv[0], "report")) {
		if (parse_options(argc, argv, report_options, report_usage, 0))
			usage_with_options(report_usage, report_options);
		return lock_analyse(MODE_REPORT);
	}
	if (!strcmp(argv[0], "script"))
		return lock_script(argc, argv);
	if (!strcmp(argv[0], "info")) {
		if (parse_options(argc, argv, info_options, info_usage, 0))
			usage_with_options(info_usage, info_options);
		return lock_analyse(MODE_INFO);
	}
	if (abbrev_of(argv[0], "contention")) {
		parse_options(argc, argv, contention_options, contention_usage, 0);
		return lock_analyse(MODE_CONTENTION);
	}
	usage_with_options(lock_usage, lock_options);
}
