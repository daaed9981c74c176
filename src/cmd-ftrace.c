/* pcl ftrace: the kernel's function tracers over tracefs, as perf ftrace runs them.
 *
 * "trace" (the default) copies trace_pipe to stdout; "latency" reads function_graph's
 * durations of -T functions into perf's log2 histogram.  -F lists the traceable functions.
 * Where the kernel refuses a step, the file, the errno and the likely reason are named
 * (perf only says "failed to reset ftrace"); the exit statuses are perf's.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "core/analysis/ftrace-latency.h"
#include "core/events/cpumap.h"
#include "core/live/ftrace.h"
#include "core/live/target.h"
#include "core/probe/probe-elf.h"
#include "ui/ftrace-print.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/perfconfig.h"
#include "util/util.h"

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38
/* perf's status for target conflict N: the low byte of its errno -10000 + N - 1 */
#define TARGET_CONFLICT_EXIT_BASE 239

static struct ftrace_config cfg;
static struct target target;
static bool use_nsec;
static int verbose;
static volatile sig_atomic_t done;
static const struct option *cur_options; /* the table being parsed */

static const char *const ftrace_usage[] = {
	"pcl ftrace [<options>] [<command>]",
	"pcl ftrace [<options>] -- [<command>] [<options>]",
	"pcl ftrace {trace|latency} [<options>] [<command>]",
	"pcl ftrace {trace|latency} [<options>] -- [<command>] [<options>]",
	NULL,
};

static void on_signal(int sig)
{
	(void)sig;
	done = 1;
}

/* errno's symbolic name, for the messages that name a failed step. */
static const char *errno_name(int err)
{
	switch (err) {
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case ENOENT:
		return "ENOENT";
	case EINVAL:
		return "EINVAL";
	case EBUSY:
		return "EBUSY";
	case ENODEV:
		return "ENODEV";
	case ENOMEM:
		return "ENOMEM";
	case ESRCH:
		return "ESRCH";
	default:
		return "errno";
	}
}

/* A securityfs file's text without its newline, or NULL (securityfs not mounted). */
static char *security_file(const char *name)
{
	char *path = xasprintf("/sys/kernel/security/%s", name);
	char *text = read_file_str(path);

	free(path);
	if (text)
		text[strcspn(text, "\n")] = '\0';
	return text;
}

/* The lockdown mode ("integrity" of "none [integrity] confidentiality"), or NULL. */
static char *lockdown_mode(void)
{
	char *text = security_file("lockdown"), *open, *close, *mode = NULL;

	if (text && (open = strchr(text, '[')) && (close = strchr(open, ']')))
		mode = xstrndup(open + 1, (size_t)(close - open - 1));
	free(text);
	return mode;
}

/* EPERM: who refuses.  Only lockdown's confidentiality mode closes tracefs; below it,
 * a refusal to root comes from a security module. */
static void explain_refusal(void)
{
	char *mode, *lsms;

	if (geteuid() != 0) {
		fprintf(stderr, "  tracefs's ftrace files are root's: run pcl ftrace as root.\n");
		return;
	}
	mode = lockdown_mode();
	lsms = security_file("lsm");
	if (mode && !strcmp(mode, "confidentiality"))
		fputs("  The kernel is locked down (lockdown: confidentiality), which closes\n"
		      "  tracefs's ftrace files even to root.\n",
		      stderr);
	else if (mode)
		fprintf(stderr,
			"  The kernel refuses function tracing even to root: lockdown (%s)\n"
			"  does not close tracefs, so a security module does (active: %s).\n",
			mode, lsms ? lsms : "unknown");
	else
		fputs("  The kernel refuses function tracing even to root: it is locked down\n"
		      "  (lockdown: confidentiality) or a security module (a BPF LSM, SELinux)\n"
		      "  denies the ftrace files. Mounting securityfs tells which:\n"
		      "  mount -t securityfs none /sys/kernel/security\n",
		      stderr);
	fputs("  Nothing can be traced with ftrace on this kernel as it runs: boot it\n"
	      "  without lockdown (lockdown=none, Secure Boot off) or that policy.\n"
	      "  Tracepoints and probes may still work (pcl trace, pcl record -e).\n",
	      stderr);
	free(mode);
	free(lsms);
}

/* What the kernel meant by refusing a step, and what the user can do. */
static void explain_failure(const char *what, const struct ftrace_failure *f)
{
	const char *mounted = ftrace__tracefs_dir(), *dir = mounted ? mounted : "tracefs";

	if (what)
		fprintf(stderr, "%s\n", what);
	if (!strcmp(f->op, "write"))
		fprintf(stderr, "pcl ftrace: cannot write '%s' to %s/%s: ", f->value, dir, f->file);
	else if (f->value[0])
		fprintf(stderr, "pcl ftrace: cannot open %s/%s to write '%s': ", dir, f->file,
			f->value);
	else
		fprintf(stderr, "pcl ftrace: cannot %s %s/%s: ", f->op, dir, f->file);
	fprintf(stderr, "%s (%s)\n", strerror(f->err), errno_name(f->err));
	switch (f->err) {
	case EPERM:
	case EACCES:
		explain_refusal();
		break;
	case ENOENT:
		if (!mounted)
			fprintf(stderr, "  tracefs is not mounted and could not be:\n"
					"  mount -t tracefs nodev /sys/kernel/tracing\n");
		else
			fprintf(stderr, "  This kernel lacks the file: it was built without the "
					"tracer or feature behind it\n  (CONFIG_FUNCTION_TRACER, "
					"CONFIG_FUNCTION_GRAPH_TRACER, CONFIG_DYNAMIC_FTRACE).\n");
		break;
	case EINVAL:
		if (!strcmp(f->file, "current_tracer"))
			fprintf(stderr,
				"  This kernel has no '%s' tracer (see available_tracers).\n",
				f->value);
		else if (!strncmp(f->file, "set_ftrace", 10) || !strncmp(f->file, "set_graph", 9))
			fprintf(stderr,
				"  No traceable function matches '%s': pcl ftrace -F lists "
				"them.\n",
				f->value);
		else
			fprintf(stderr, "  The kernel does not take that value.\n");
		break;
	case EBUSY:
		fprintf(stderr, "  Another user of ftrace (trace-cmd, another perf or pcl "
				"ftrace) holds it: try again when it is done.\n");
		break;
	default:
		break;
	}
}

/* -v: perf's debug line for each refused write. */
static void note_write_failure(const struct ftrace_failure *f)
{
	if (!strcmp(f->op, "open"))
		fprintf(stderr, "cannot open tracing file: %s: %s\n", f->file, strerror(f->err));
	else
		fprintf(stderr, "write '%s' to tracing/%s failed: %s\n", f->value, f->file,
			strerror(f->err));
}

/* -F: available_filter_functions, the lines the filter takes; exits. */
static int list_functions(const struct option *opt, const char *arg, bool unset)
{
	struct ftrace_failure f;
	char *text, *line, *save = NULL;

	(void)opt;
	if (unset)
		return -1;
	if (ftrace__read_file("available_filter_functions", &text, &f)) {
		if (verbose)
			fprintf(stderr, "cannot open tracing file: available_filter_functions\n");
		explain_failure(NULL, &f);
		exit(PCL_EXIT_USAGE);
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (probe_strfilter_match(arg ? arg : "*", line))
			printf("%s\n", line);
	free(text);
	exit(fflush(stdout) ? PCL_EXIT_ERROR : PCL_EXIT_OK);
}

/* A bad option value: perf's short usage (the usage lines and that option's), status 129. */
static void __attribute__((noreturn)) bad_value(const struct option *opt)
{
	if (opt->short_name) {
		char name[2] = { (char)opt->short_name, '\0' };

		parse_options_usage(ftrace_usage, cur_options, name, true);
	} else {
		parse_options_usage(ftrace_usage, cur_options, opt->long_name, false);
	}
	exit(PCL_EXIT_USAGE);
}

static int add_func(const struct option *opt, const char *arg, bool unset)
{
	if (!unset)
		ftrace_strlist__add(opt->value, arg);
	return 0;
}

/* "name,name=value,...": each name sets its flag, or its int to value. */
static int parse_sublevel(const char *arg, const char *const names[], void *const values[],
			  const bool is_int[])
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	int ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		int i;

		if (eq)
			*eq = '\0';
		for (i = 0; names[i] && strcmp(names[i], tok); i++)
			;
		if (!names[i]) {
			fprintf(stderr, "Unknown option name '%s'\n", tok);
			ret = -1;
		} else if (is_int[i]) {
			*(int *)values[i] = eq ? atoi(eq + 1) : 1;
		} else {
			*(bool *)values[i] = true;
		}
	}
	free(copy);
	return ret;
}

static int parse_func_opts(const struct option *opt, const char *arg, bool unset)
{
	static const char *const names[] = { "call-graph", "irq-info", NULL };
	void *const values[] = { &cfg.func_stack_trace, &cfg.func_irq_info };
	static const bool is_int[] = { false, false };

	if (!unset && parse_sublevel(arg, names, values, is_int))
		bad_value(opt);
	return 0;
}

static int parse_graph_opts(const struct option *opt, const char *arg, bool unset)
{
	static const char *const names[] = {
		"nosleep-time", "noirqs", "verbose", "thresh", "depth", NULL,
	};
	void *const values[] = {
		&cfg.graph_nosleep_time, &cfg.graph_noirqs, &cfg.graph_verbose,
		&cfg.graph_thresh,	 &cfg.graph_depth,
	};
	static const bool is_int[] = { false, false, false, true, true };

	if (!unset && parse_sublevel(arg, names, values, is_int))
		bad_value(opt);
	return 0;
}

/* -m: a number with a B, K, M or G suffix, at least 1K. */
static int parse_buffer_size(const struct option *opt, const char *arg, bool unset)
{
	static const char suffixes[] = "BKMG";
	unsigned long *size = opt->value;
	char *end;
	unsigned long value;
	const char *unit;

	if (unset) {
		*size = 0;
		return 0;
	}
	value = strtoul(arg, &end, 10);
	unit = end != arg && end[0] && !end[1] ? strchr(suffixes, end[0]) : NULL;
	if (!unit)
		bad_value(opt);
	value <<= 10 * (unit - suffixes);
	if (value < 1024) {
		/* perf's words, without a newline: its usage text begins with one */
		fprintf(stderr, "buffer size too small, must larger than 1KB.");
		bad_value(opt);
	}
	*size = value;
	return 0;
}

/* -D: an int, with perf's complaint and short usage when it is not one. */
static int parse_delay(const struct option *opt, const char *arg, bool unset)
{
	char *end;
	long value;

	if (unset) {
		target.initial_delay = 0;
		return 0;
	}
	errno = 0;
	value = strtol(arg, &end, 0);
	if (*end || errno || value != (int)value) {
		/* perf's words, without a newline: its usage text begins with one */
		fprintf(stderr, " Error: switch `D' expects a numerical value");
		bad_value(opt);
	}
	target.initial_delay = (int)value;
	return 0;
}

#define COMMON_OPTIONS                                                                       \
	{ .type = OPT_STRING_T,                                                              \
	  .short_name = 'p',                                                                 \
	  .long_name = "pid",                                                                \
	  .value = &target.pid,                                                              \
	  .argh = "pid",                                                                     \
	  .help = "Trace on existing process id",                                            \
	  .flags = OPTF_INHERITED },                                                         \
		{ .type = OPT_STRING_T,                                                      \
		  .long_name = "tid",                                                        \
		  .value = &target.tid,                                                      \
		  .argh = "tid",                                                             \
		  .help = "Trace on existing thread id (exclusive to --pid)",                \
		  .flags = OPTF_INHERITED },                                                 \
		{ .type = OPT_INCR_T,                                                        \
		  .short_name = 'v',                                                         \
		  .long_name = "verbose",                                                    \
		  .value = &verbose,                                                         \
		  .help = "Be more verbose",                                                 \
		  .flags = OPTF_INHERITED },                                                 \
		{ .type = OPT_BOOL_T,                                                        \
		  .short_name = 'a',                                                         \
		  .long_name = "all-cpus",                                                   \
		  .value = &target.system_wide,                                              \
		  .help = "System-wide collection from all CPUs",                            \
		  .flags = OPTF_INHERITED },                                                 \
	{                                                                                    \
		.type = OPT_STRING_T, .short_name = 'C', .long_name = "cpu",                 \
		.value = &target.cpu_list, .argh = "cpu", .help = "List of cpus to monitor", \
		.flags = OPTF_INHERITED                                                      \
	}

/* perf's tables; the common options are its OPT_PARENT ones, absent from -h and --list-opts */
static const struct option trace_options[] = {
	OPT_STRING('t', "tracer", &cfg.tracer, "tracer",
		   "Tracer to use: function_graph(default) or function"),
	{ .type = OPT_CALLBACK_T,
	  .short_name = 'F',
	  .long_name = "funcs",
	  .argh = "[FILTER]",
	  .help = "Show available functions to filter",
	  .callback = list_functions,
	  .flags = OPTF_OPTARG | OPTF_LASTARG_DEFAULT,
	  .defstr = "*" },
	OPT_CALLBACK('T', "trace-funcs", &cfg.filters, "func",
		     "Trace given functions using function tracer", add_func),
	OPT_CALLBACK('N', "notrace-funcs", &cfg.notrace, "func", "Do not trace given functions",
		     add_func),
	OPT_CALLBACK(0, "func-opts", NULL, "options",
		     "Function tracer options, available options: call-graph,irq-info",
		     parse_func_opts),
	OPT_CALLBACK('G', "graph-funcs", &cfg.graph_funcs, "func",
		     "Trace given functions using function_graph tracer", add_func),
	OPT_CALLBACK('g', "nograph-funcs", &cfg.nograph_funcs, "func",
		     "Set nograph filter on given functions", add_func),
	OPT_CALLBACK(0, "graph-opts", NULL, "options",
		     "Graph tracer options, available options: "
		     "nosleep-time,noirqs,verbose,thresh=<n>,depth=<n>",
		     parse_graph_opts),
	OPT_CALLBACK('m', "buffer-size", &cfg.buffer_size, "size",
		     "Size of per cpu buffer, needs to use a B, K, M or G suffix.",
		     parse_buffer_size),
	OPT_BOOLEAN(0, "inherit", &cfg.inherit, "Trace children processes"),
	OPT_CALLBACK('D', "delay", NULL, "n",
		     "Number of milliseconds to wait before starting tracing after program start",
		     parse_delay),
	COMMON_OPTIONS,
	OPT_END(),
};

static const struct option latency_options[] = {
	OPT_CALLBACK('T', "trace-funcs", &cfg.filters, "func", "Show latency of given function",
		     add_func),
	OPT_BOOLEAN('n', "use-nsec", &use_nsec, "Use nano-second histogram"),
	COMMON_OPTIONS,
	OPT_END(),
};

/* perf's test: CAP_PERFMON or CAP_SYS_ADMIN in the effective set. */
static bool capable(void)
{
	char *status = read_file_str("/proc/self/status"), *line;
	unsigned long long caps = 0;

	line = status ? strstr(status, "CapEff:") : NULL;
	if (line)
		caps = strtoull(line + 7, NULL, 16);
	free(status);
	return caps & ((1ULL << CAP_PERFMON_BIT) | (1ULL << CAP_SYS_ADMIN_BIT));
}

/* ftrace.tracer from perf's configuration files; -1 after perf's complaint (any other
 * ftrace.* key is one too). */
static int read_config(void)
{
	struct perfconfig config = { 0 };
	int ret = 0;

	perfconfig__load(&config);
	for (size_t i = 0; i < config.nr && !ret; i++) {
		const struct perfconfig_section *sec = &config.sections[i];

		for (size_t j = 0; strcmp(sec->name, "ftrace") == 0 && j < sec->nr && !ret; j++) {
			const struct perfconfig_item *item = &sec->items[j];
			bool known = !strcmp(item->value, "function_graph") ||
				     !strcmp(item->value, "function");

			if (!strcmp(item->name, "tracer") && known) {
				cfg.tracer = xstrdup(item->value);
				continue;
			}
			if (!strcmp(item->name, "tracer"))
				fprintf(stderr, "Please select \"function_graph\" (default) or "
						"\"function\"\n");
			fprintf(stderr,
				"Error in the given config file: wrong config key-value "
				"pair ftrace.%s=%s\n",
				item->name, item->value);
			ret = -1;
		}
	}
	perfconfig__release(&config);
	return ret;
}

/* The tracer -G/-g or -T/-N imply, as perf picks it. */
static void select_tracer(void)
{
	if (cfg.graph_funcs.nr || cfg.nograph_funcs.nr)
		cfg.tracer = "function_graph";
	else if (cfg.filters.nr || cfg.notrace.nr)
		cfg.tracer = "function";
}

/* Refuses early, before anything changes, when the kernel lacks the tracer. */
static int check_tracer(const char *tracer, bool latency)
{
	struct ftrace_failure f;
	char *available;

	if (ftrace__read_file("available_tracers", &available, &f)) {
		explain_failure(NULL, &f);
		return -1;
	}
	if (ftrace__has_tracer(available, tracer)) {
		free(available);
		return 0;
	}
	available[strcspn(available, "\n")] = '\0';
	fprintf(stderr, "pcl ftrace: this kernel has no %s tracer (available_tracers: %s).\n",
		tracer, available);
	if (strcmp(tracer, "function_graph")) {
		fprintf(stderr, "  It was built without CONFIG_FUNCTION_TRACER.\n");
	} else if (latency || !ftrace__has_tracer(available, "function")) {
		fprintf(stderr,
			"  It was built without CONFIG_FUNCTION_GRAPH_TRACER%s:\n"
			"  use a kernel with it.\n",
			latency ? ", which latency needs" : "");
	} else {
		int err = -ftrace__can_write("set_ftrace_pid");

		fprintf(stderr,
			"  It was built without CONFIG_FUNCTION_GRAPH_TRACER. -t function "
			"(or -T/-N) uses the\n  function tracer%s\n",
			err == EPERM || err == EACCES ? ", but that is refused too:" : " instead.");
		if (err == EPERM || err == EACCES) {
			fprintf(stderr, "  set_ftrace_pid cannot be opened to write: %s (%s).\n",
				strerror(err), errno_name(err));
			explain_refusal();
		}
	}
	free(available);
	return -1;
}

struct run {
	bool latency;
	struct workload workload;
	bool forks;
	int trace_fd;
	struct ftrace_latency lat;
};

static void consume(struct run *r, const char *buf, size_t n)
{
	if (r->latency)
		ftrace_latency__feed(&r->lat, buf, n);
	else
		fwrite(buf, 1, n, stdout);
}

/* Copies trace_pipe until the workload ends or a signal; false on a read error. */
static bool follow_pipe(struct run *r)
{
	struct pollfd pfd = { .fd = r->trace_fd, .events = POLLIN };
	char buf[4096];

	while (!done) {
		/* a bounded wait: the workload's end is also looked for between reads */
		int ready = poll(&pfd, 1, 100);

		if (r->forks && workload__poll_exit(&r->workload))
			done = 1;
		if (ready < 0 && errno != EINTR)
			return false;
		if (ready > 0 && (pfd.revents & POLLIN)) {
			ssize_t n = read(r->trace_fd, buf, sizeof(buf));

			if (n < 0 && errno != EAGAIN)
				return false;
			if (n > 0)
				consume(r, buf, (size_t)n);
		}
	}
	return true;
}

static void drain_pipe(struct run *r)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(r->trace_fd, buf, sizeof(buf))) > 0)
		consume(r, buf, (size_t)n);
}

static int enable_tracing(void)
{
	struct ftrace_failure f;

	if (!ftrace__write_file("tracing_on", "1", false, &f))
		return 0;
	explain_failure("can't enable tracing", &f);
	return -1;
}

/* Sets tracefs up, traces, puts tracefs back.  perf's statuses: 0 or 255. */
static int run_tracer(struct run *r, const int *pids, int nr_pids, const struct cpu_map *cpus)
{
	const char *tracer = r->latency ? "function_graph" : cfg.tracer, *what = NULL;
	struct ftrace_failure f;
	bool ok = false;
	char *headers;

	if (check_tracer(tracer, r->latency))
		return PCL_EXIT_ERROR;
	ftrace__save_state();
	if (ftrace__reset(&f)) {
		explain_failure("failed to reset ftrace", &f);
		ftrace__restore();
		return PCL_EXIT_ERROR;
	}
	if (ftrace__write_file("trace", "0", false, &f)) {
		explain_failure("failed to clear the trace buffer", &f);
		goto out_reset;
	}
	if (ftrace__apply(&cfg, pids, nr_pids, cpus, &what, &f)) {
		explain_failure(what, &f);
		goto out_reset;
	}
	if (ftrace__write_file("current_tracer", tracer, false, &f)) {
		char *words = xasprintf("failed to set current_tracer to %s", tracer);

		explain_failure(words, &f);
		free(words);
		goto out_reset;
	}
	r->trace_fd = ftrace__open_pipe(&f);
	if (r->trace_fd < 0) {
		explain_failure("failed to open trace_pipe", &f);
		goto out_reset;
	}
	/* the column headers, as the trace file shows them */
	if (!r->latency && !ftrace__read_file("trace", &headers, NULL)) {
		fputs(headers, stdout);
		free(headers);
	}
	if (!target.initial_delay && enable_tracing())
		goto out_close;
	/* a workload that cannot exec ends the run before any trace is shown */
	if (r->forks && !workload__start(&r->workload) && workload__wait_exec(&r->workload))
		done = 1;
	if (target.initial_delay > 0 && !done) {
		usleep((useconds_t)target.initial_delay * 1000);
		if (enable_tracing())
			goto out_close;
	}
	ok = follow_pipe(r);
	ftrace__write_file("tracing_on", "0", false, NULL);
	if (r->forks && r->workload.exec_errno) {
		fflush(stdout);
		fprintf(stderr, "workload failed: %s\n", strerror(r->workload.exec_errno));
		ok = false;
		goto out_close;
	}
	drain_pipe(r);
	if (r->latency)
		ftrace_latency__print(stdout, &r->lat);
out_close:
	close(r->trace_fd);
out_reset:
	ftrace__reset(NULL);
	ftrace__restore();
	fflush(stdout);
	return ok ? PCL_EXIT_OK : PCL_EXIT_ERROR;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* no SA_RESTART: a signal ends the wait in poll() */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

int cmd_ftrace(int argc, const char **argv)
{
	const struct option *options = trace_options;
	struct cpu_map *cpus = NULL;
	struct thread_map *threads = NULL;
	struct run r = { .trace_fd = -1, .workload = { .pid = -1 } };
	enum target_conflict conflict;
	int *pids = NULL, nr_pids = 0, ret;

	cfg.tracer = "function_graph";
	target.initial_delay = 0;
	if (read_config())
		return PCL_EXIT_ERROR;
	if (argc > 1 && (!strcmp(argv[1], "trace") || !strcmp(argv[1], "latency"))) {
		r.latency = !strcmp(argv[1], "latency");
		options = r.latency ? latency_options : trace_options;
		argc--;
		argv++;
	}
	cur_options = options;
	argc = parse_options(argc, argv, options, ftrace_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	/* system-wide is the default target */
	if (!argc && target__none(&target))
		target.system_wide = true;
	if (r.latency && !cfg.filters.nr) {
		fprintf(stderr, "Should provide a function to measure\n");
		parse_options_usage(ftrace_usage, options, "T", true);
		return PCL_EXIT_EINVAL;
	}
	conflict = target__validate(&target);
	if (conflict != TARGET_OK) {
		fprintf(stderr, "%s\n", target__conflict_str(conflict));
		/* perf returns its target errno, -10000 and up: the shell sees 240 and up */
		return TARGET_CONFLICT_EXIT_BASE + (int)conflict;
	}
	switch (target__create_maps(&target, &cpus, &threads)) {
	case TARGET_MAPS_BAD_THREADS:
		fprintf(stderr, "pcl ftrace: no such process or thread: %s\n",
			target.pid ? target.pid : target.tid);
		return PCL_EXIT_ERROR;
	case TARGET_MAPS_BAD_CPUS:
		fprintf(stderr, "pcl ftrace: bad CPU list: %s\n", target.cpu_list);
		return PCL_EXIT_ERROR;
	default:
		break;
	}
	if (argc) {
		ret = workload__prepare(&r.workload, argv);
		if (ret) {
			fprintf(stderr, "pcl ftrace: cannot start the workload: %s\n",
				strerror(-ret));
			ret = PCL_EXIT_ERROR;
			goto out;
		}
		r.forks = true;
	}
	catch_signals();
	if (!capable()) {
		fprintf(stderr, "ftrace only works for users with the CAP_PERFMON or "
				"CAP_SYS_ADMIN capability!\n");
		ret = PCL_EXIT_ERROR;
		goto out;
	}
	if (!target__has_cpu(&target)) {
		pids = xcalloc(r.forks ? 1 : (size_t)threads->nr, sizeof(*pids));
		if (r.forks)
			pids[nr_pids++] = r.workload.pid;
		else
			for (int i = 0; i < threads->nr; i++)
				pids[nr_pids++] = threads->map[i].pid;
	}
	if (!r.latency) {
		select_tracer();
		if (verbose)
			fprintf(stderr, "%s tracer is used\n", cfg.tracer);
	}
	if (verbose)
		ftrace__on_write_failure(note_write_failure);
	ftrace_latency__init(&r.lat, use_nsec);
	ret = run_tracer(&r, pids, nr_pids, target__has_cpu(&target) ? cpus : NULL);
	ftrace_latency__exit(&r.lat);
out:
	/* after a signal the workload may still run: it ends here */
	if (r.forks) {
		workload__kill(&r.workload, SIGTERM);
		workload__close(&r.workload);
	}
	free(pids);
	cpu_map__delete(cpus);
	thread_map__delete(threads);
	return ret;
}
