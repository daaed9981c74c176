/* pcl script's built-in scripts: `-l`, `record NAME`, `report NAME` and
 * `-s NAME`, the analyses perf 6.1 ships as Python and Perl scripts. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "cmd-script-builtins.h"
#include "core/analysis/sched-migration.h"
#include "core/analysis/script-builtins.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/events/pmu.h"
#include "core/symbols/thread.h"
#include "ui/sched-migration-html.h"
#include "ui/script-builtins-print.h"
#include "ui/session-warnings.h"
#include "ui/pgsql-export.h"
#include "ui/sqlite-export.h"
#include "util/exit-codes.h"
#include "util/util.h"

int script_builtins_list(void)
{
	script_builtins_print_list(stdout);
	return 0;
}

const struct script_builtin *script_builtin_named(const char *script)
{
	return script ? script_builtin__find(script) : NULL;
}

struct builtin_tool {
	struct perf_tool tool;
	struct script_builtin_run run;
	const struct sample_filter *filter;	/* pcl script's -c/--pid/--tid/-C/--time */
};

static bool filtered_out(const struct sample_filter *f, struct perf_session *s,
			 const struct perf_sample *sample)
{
	if (!f)
		return false;
	if (sample_filter__skip_time(f, sample->time) ||
	    (sample->cpu != (uint32_t)-1 && sample_filter__skip_cpu(f, sample->cpu)))
		return true;
	return sample_filter__thread(f, machine__findnew_thread(s->machine, (pid_t)sample->pid,
								(pid_t)sample->tid));
}

/* event_analyzing_sample dumps the tracepoint samples it has no handler for */
static void print_unhandled_tracepoint(struct perf_session *s, struct evsel *evsel,
				       const struct perf_sample *sample)
{
	struct session_event *se = perf_session__event(s, evsel);
	struct thread *thread;

	if (!se || !se->tp_format || !sample->raw_data || sample->callchain)
		return;
	thread = machine__findnew_thread(s->machine, (pid_t)sample->pid, (pid_t)sample->tid);
	script_builtin_print_fields(stdout, se->tp_format, sample, thread ? thread->comm : "");
}

static int builtin_sample(struct perf_tool *tool, struct perf_session *s,
			  const struct perf_event_header *rec, struct perf_sample *sample,
			  struct evsel *evsel)
{
	struct builtin_tool *bt = (struct builtin_tool *)tool;
	struct script_builtin_run *run = &bt->run;

	if (filtered_out(bt->filter, s, sample))
		return 0;
	if (script_builtin_run__screen_due(run, sample->time)) {
		script_builtin_print_screen(stdout, run);
		script_builtin_run__clear_screen(run);
	}
	script_builtin_run__sample(run, s, evsel, sample);
	if (run->sb->id == SB_EVENT_ANALYZING_SAMPLE)
		print_unhandled_tracepoint(s, evsel, sample);
	return 0;
}

/* Syscall names are this machine's: a file of another architecture keeps
 * its numbers. */
static bool foreign_arch(const struct perf_session *s)
{
	struct utsname uts;

	return s->header.arch && !uname(&uts) && strcmp(s->header.arch, uts.machine);
}

/* The usage line each script prints for arguments it cannot take. */
static void print_usage(const struct script_builtin *sb)
{
	if (*sb->args)
		fprintf(stderr, "usage: pcl script report %s %s\n", sb->name, sb->args);
	else
		fprintf(stderr, "usage: pcl script report %s (takes no arguments)\n", sb->name);
}

static int no_data(const struct script_builtin *sb, const char *input)
{
	struct script_builtin_run run = { .sb = sb };

	script_builtin_print_begin(stdout, &run);
	script_builtin_print_end(stdout, &run, NULL);
	fflush(stdout);
	if (sb->id == SB_INTEL_PT_EVENTS)
		fprintf(stderr, "pcl script: intel-pt-events: pcl does not decode Intel PT (AUX "
			"area) traces; %s has none it could show\n", input);
	else
		fprintf(stderr, "pcl script: powerpc-hcalls: hypervisor calls are traced on "
			"powerpc only (powerpc:hcall_entry/hcall_exit); %s has none\n", input);
	return 0;
}

/* flamegraph.py's -f html|json and its default flamegraph.html: pcl
 * flamegraph writes the page (its HTML view), or says why it cannot */
static int flamegraph_args(int argc, const char **argv, const char **args, int *n)
{
	bool output = false;

	for (int i = 0; i < argc; i++) {
		if ((!strcmp(argv[i], "-f") || !strcmp(argv[i], "--format")) && i + 1 < argc) {
			if (strcmp(argv[++i], "html")) {
				fprintf(stderr, "pcl script: flamegraph: pcl writes HTML or SVG "
					"(pcl flamegraph), not d3-flame-graph's %s\n", argv[i]);
				return -1;
			}
			continue;
		}
		output = output || !strcmp(argv[i], "-o") || !strcmp(argv[i], "--output");
		args[(*n)++] = argv[i];
	}
	if (!output) {
		args[(*n)++] = "-o";
		args[(*n)++] = "flamegraph.html";
	}
	return 0;
}

/* flamegraph is a pcl command of its own */
static int delegate(const struct script_builtin *sb, const char *input, bool force, int argc,
		    const char **argv)
{
	const char **args = xcalloc((size_t)argc + 7, sizeof(*args));
	int n = 0, ret = PCL_EXIT_USAGE;

	args[n++] = "flamegraph";
	if (input) {
		args[n++] = "-i";
		args[n++] = input;
	}
	if (force)
		args[n++] = "-f";
	if (flamegraph_args(argc, argv, args, &n) == 0)
		ret = cmd_flamegraph(n, args);
	free(args);
	return ret;
}

/* sched-migration: a page where perf's script opens a wxPython window */
static int write_sched_page(const struct script_builtin_run *run, const char *input)
{
	FILE *fp = fopen(run->output, "w");
	size_t rects;

	if (!fp) {
		fprintf(stderr, "pcl script: cannot write %s: %s\n", run->output, strerror(errno));
		return PCL_EXIT_ERROR;
	}
	rects = sched_migration_write_html(fp, run->sched, input);
	if (fclose(fp)) {
		fprintf(stderr, "pcl script: cannot write %s: %s\n", run->output, strerror(errno));
		return PCL_EXIT_ERROR;
	}
	if (run->sched->rejected)
		fprintf(stderr, "pcl script: sched-migration: %" PRIu64 " switches from a task "
			"not seen switched in (events lost)\n", run->sched->rejected);
	fprintf(stderr, "pcl script: wrote %s (%zu time slices, %u CPUs, %zu rectangles)\n",
		run->output, run->sched->nr, run->sched->nr_cpus, rects);
	return 0;
}

struct export_tool {
	struct perf_tool tool;
	struct db_export *db;
	const struct sample_filter *filter;
};

static int export_sample(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel)
{
	struct export_tool *et = (struct export_tool *)tool;

	(void)rec;
	if (filtered_out(et->filter, s, sample))
		return 0;
	return db_export__sample(et->db, s, evsel, sample);
}

static int export_comm(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	(void)evsel;
	db_export__comm(((struct export_tool *)tool)->db, s, rec, sample);
	return 0;
}

static int export_fork(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	(void)evsel;
	db_export__fork(((struct export_tool *)tool)->db, s, rec, sample);
	return 0;
}

static int export_switch(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel)
{
	(void)evsel;
	return db_export__switch(((struct export_tool *)tool)->db, s, rec, sample);
}

/* The script's progress lines, with the time of day as Python prints it */
static void print_progress(const char *what)
{
	struct timespec ts;
	struct tm tm;
	char when[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	printf("%s.%06ld %s\n", when, ts.tv_nsec / 1000, what);
	fflush(stdout);
}

/* export-to-sqlite and export-to-postgresql DB [all|branches] [calls]
 * [callchains]: one export, two writers */
static int export_to_db(const struct script_builtin *sb, const char *input, bool force,
			struct sample_filter *filter, const char *time, int argc,
			const char **argv)
{
	struct export_tool et = { .tool = { .sample = export_sample, .comm = export_comm,
					    .fork = export_fork, .context_switch = export_switch,
					    .ordered = true },
				  .filter = filter };
	/* the scripts' progress lines: creating, writing, finishing */
	static const char *const sqlite_steps[] = { "Creating database ...", "Writing records...",
						    "Adding indexes" };
	static const char *const pgsql_steps[] = { "Creating database...",
						   "Writing to intermediate files...",
						   "Copying to database..." };
	bool sqlite = sb->id == SB_EXPORT_TO_SQLITE;
	const char *const *steps = sqlite ? sqlite_steps : pgsql_steps;
	struct db_export_opts opts;
	struct db_writer *writer;
	struct perf_session *s;
	char *err = NULL;
	int ret = PCL_EXIT_ERROR;

	if (argc < 1 || !db_export_opts__parse(&opts, argc - 1, argv + 1)) {
		fprintf(stderr, "usage: pcl script report %s DB [all|branches] "
			"[calls] [callchains]\n", sb->name);
		return PCL_EXIT_USAGE;
	}
	s = perf_session__open(input, force, &err);
	if (!s)
		goto out;
	if (time && sample_filter__set_time_arg(filter, time, s->header.first_sample_time,
						s->header.last_sample_time) < 0) {
		fprintf(stderr, "Invalid time string\n");
		perf_session__delete(s);
		return PCL_EXIT_ERROR;
	}
	print_progress(steps[0]);
	writer = sqlite ? sqlite_writer__new(argv[0], &err) : pgsql_writer__new(argv[0], &err);
	et.db = writer ? db_export__new(&opts, writer, &err) : NULL;
	if (!et.db) {
		perf_session__delete(s);
		goto out;
	}
	perf_session__new_machine(s, NULL, NULL, force);
	print_progress(steps[1]);
	if (perf_session__process(s, &et.tool) < 0) {
		err = db_export__abort(et.db);
		if (!err)
			err = xstrdup(s->err ? s->err : "cannot read the recording");
	} else {
		print_progress(steps[2]);
		if (db_export__finish(et.db, &err) == 0) {
			print_progress("Done");
			ret = 0;
		}
	}
	session_warnings__print(stderr, &s->stats, false);
	perf_session__delete(s);
out:
	if (err)
		fprintf(stderr, "pcl script: %s: %s\n", sb->name, err);
	free(err);
	return ret;
}

int script_builtin_report(const struct script_builtin *sb, const char *input, bool force,
			  struct sample_filter *filter, const char *time, int argc, const char **argv)
{
	struct builtin_tool bt = { .tool = { .sample = builtin_sample, .ordered = true },
				   .filter = filter };
	struct perf_session *s;
	struct ksym_table ksyms = { 0 };
	char *err = NULL;
	int ret;

	if (sb->kind == SB_DELEGATE)
		return delegate(sb, input, force, argc, argv);
	if (!input)
		input = "perf.data";
	if (sb->kind == SB_EXPORT)
		return export_to_db(sb, input, force, filter, time, argc, argv);
	if (sb->kind == SB_MISSING) {
		fprintf(stderr, "pcl script: %s is not built into pcl yet\n", sb->name);
		return PCL_EXIT_ERROR;
	}
	if (sb->kind == SB_NO_DATA)
		return no_data(sb, input);
	if (script_builtin_run__init(&bt.run, sb, argc, argv) < 0) {
		print_usage(sb);
		script_builtin_run__exit(&bt.run);
		return PCL_EXIT_ERROR;
	}
	if (bt.run.compaction.help) {
		script_builtin_print_compaction_help(stdout);
		script_builtin_run__exit(&bt.run);
		return 0;
	}
	s = perf_session__open(input, force, &err);
	if (!s) {
		fprintf(stderr, "pcl script: %s\n", err);
		free(err);
		return PCL_EXIT_ERROR;
	}
	if (time && sample_filter__set_time_arg(filter, time, s->header.first_sample_time,
						s->header.last_sample_time) < 0) {
		fprintf(stderr, "Invalid time string\n");
		script_builtin_run__exit(&bt.run);
		perf_session__delete(s);
		return PCL_EXIT_ERROR;
	}
	perf_session__new_machine(s, NULL, NULL, force);
	bt.run.numeric_syscalls = foreign_arch(s);
	script_builtin_print_begin(stdout, &bt.run);
	if (perf_session__process(s, &bt.tool) < 0) {
		fprintf(stderr, "pcl script: %s\n", s->err);
		ret = PCL_EXIT_ERROR;
	} else {
		/* the script reads the symbols when it prints */
		if (sb->id == SB_NET_DROPMONITOR)
			ksym_table__load(&ksyms, NULL);
		bt.run.numeric_syscalls = foreign_arch(s);	/* a pipe's header came late */
		script_builtin_print_end(stdout, &bt.run, &ksyms);
		ret = sb->id == SB_SCHED_MIGRATION ? write_sched_page(&bt.run, input) : 0;
		if (bt.run.tracepoint_samples)
			fprintf(stderr, "pcl script: %s: %" PRIu64 " tracepoint samples with "
				"callchains not shown (perf's script dumps them)\n", sb->name,
				bt.run.tracepoint_samples);
	}
	fflush(stdout);
	session_warnings__print(stderr, &s->stats, false);
	ksym_table__exit(&ksyms);
	script_builtin_run__exit(&bt.run);
	perf_session__delete(s);
	return ret;
}

/* mem-phys-addr samples the loads event of Intel's CPUs, with :P */
static const char *phys_addr_event(void)
{
	const struct pmu *cpu = pmus__find("cpu");

	if (cpu && pmu__find_alias(cpu, "mem_inst_retired.all_loads"))
		return "mem_inst_retired.all_loads:P";
	if (cpu && pmu__find_alias(cpu, "mem_uops_retired.all_loads"))
		return "mem_uops_retired.all_loads:P";
	return NULL;
}

static bool args_name(int argc, const char **argv, const char *what)
{
	for (int i = 0; i < argc; i++)
		if (strstr(argv[i], what))
			return true;
	return false;
}

/* `record NAME [record options] [--] [command]`: pcl record with the
 * events perf's NAME-record script asks for, then the user's arguments */
static int builtin_record(const struct script_builtin *sb, int argc, const char **argv)
{
	const char *phys = NULL;
	const char **args;
	int n = 0, ret;
	size_t nr_record_args = 0;

	while (sb->record_args && sb->record_args[nr_record_args])
		nr_record_args++;
	/* "record", perf's arguments, mem-phys-addr's event, the user's */
	args = xcalloc(1 + nr_record_args + 2 + (size_t)argc + 1, sizeof(*args));

	if (sb->id == SB_INTEL_PT_EVENTS && !args_name(argc, argv, "intel_pt")) {
		printf("Options must include the Intel PT event e.g. -e intel_pt/pwr_evt,ptw/\n"
		       "and for power events it probably needs to be system wide i.e. -a option\n"
		       "For example: -a -e intel_pt/pwr_evt,branch=0/ sleep 1\n");
		free(args);
		return PCL_EXIT_ERROR;
	}
	if (sb->id == SB_MEM_PHYS_ADDR && !(phys = phys_addr_event())) {
		printf("There is no event to count all retired load instructions/uops.\n");
		free(args);
		return PCL_EXIT_ERROR;
	}
	args[n++] = "record";
	for (const char *const *a = sb->record_args; a && *a; a++)
		args[n++] = *a;
	if (phys) {
		args[n++] = "-e";
		args[n++] = phys;
	}
	ret = cmd_record_then(args, n, argc, argv);
	free(args);
	return ret;
}

/* `report NAME [script arguments] [pcl script options]`: as perf's
 * NAME-report wrappers, the arguments before the first option are the
 * script's (where the script's own start with '-', as compaction-times'
 * and stackcollapse's, all but -i FILE and -f are its); pcl script parses
 * the rest, as `-s NAME`. */
static int builtin_report_args(const struct script_builtin *sb, int argc, const char **argv)
{
	const char **args = xcalloc((size_t)argc + 5, sizeof(*args)), **script_args;
	int n = 0, nr_script = 0, ret;

	script_args = xcalloc((size_t)argc + 1, sizeof(*script_args));
	args[n++] = "script";
	for (int i = 0; i < argc; i++) {
		bool option = argv[i][0] == '-' || nr_script < i;

		if (sb->dash_args)
			option = !strcmp(argv[i], "-i") || !strcmp(argv[i], "-f");
		if (sb->kind == SB_DELEGATE)
			option = false;	/* all of them are the command's */
		if (!option) {
			script_args[nr_script++] = argv[i];
			continue;
		}
		args[n++] = argv[i];
		if (sb->dash_args && !strcmp(argv[i], "-i") && i + 1 < argc)
			args[n++] = argv[++i];
	}
	args[n++] = "-s";
	args[n++] = sb->name;
	args[n++] = "--";
	for (int i = 0; i < nr_script; i++)
		args[n++] = script_args[i];
	ret = cmd_script(n, args);
	free(script_args);
	free(args);
	return ret;
}

/* `pcl script NAME [args] [record options] [command]`, perf's shortcut:
 * NAME's record into a pipe, read live by NAME's report.  The *top
 * scripts take every argument and record system-wide; rw-by-file takes its
 * comm; the other arguments are the recording's. */
int script_builtin_live(const struct script_builtin *sb, int argc, const char **argv,
			bool system_wide)
{
	bool top = sb->id == SB_RWTOP || sb->id == SB_SCTOP;
	int report_args = top ? argc - 1 : sb->id == SB_RW_BY_FILE, pipefd[2], status, ret;
	const char **args;
	pid_t pid;
	int n = 0;

	if (argc - 1 < report_args) {
		fprintf(stderr, "pcl script: `%s' script requires options (pcl script -l lists "
			"them)\n", sb->name);
		return PCL_EXIT_USAGE;
	}
	system_wide = system_wide || top;
	if (!system_wide && argc - 1 == report_args) {
		fprintf(stderr, "pcl script: %s: give the command to record, or -a\n", sb->name);
		return PCL_EXIT_USAGE;
	}
	if (pipe(pipefd) < 0) {
		fprintf(stderr, "pcl script: pipe: %s\n", strerror(errno));
		return PCL_EXIT_ERROR;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "pcl script: fork: %s\n", strerror(errno));
		return PCL_EXIT_ERROR;
	}
	if (!pid) {
		args = xcalloc((size_t)argc + 5, sizeof(*args));
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		close(pipefd[1]);
		if (system_wide)
			args[n++] = "-a";
		args[n++] = "-q";
		args[n++] = "-o";
		args[n++] = "-";
		for (int i = report_args + 1; i < argc; i++)
			args[n++] = argv[i];
		ret = builtin_record(sb, n, args);
		fflush(stdout);
		_exit(ret);
	}
	dup2(pipefd[0], 0);
	close(pipefd[0]);
	close(pipefd[1]);
	/* Ctrl-C stops the recording, which ends the stream: report all of it */
	signal(SIGINT, SIG_IGN);
	ret = script_builtin_report(sb, "-", false, NULL, NULL, report_args, argv + 1);
	waitpid(pid, &status, 0);
	return ret;
}

int script_builtin_cmd(int argc, const char **argv)
{
	const struct script_builtin *sb;
	bool record = !strcmp(argv[0], "record");

	sb = argc < 2 ? NULL : script_builtin__find(argv[1]);
	if (!sb) {
		/* perf's message */
		fprintf(stderr, "Please specify a valid %s script(see 'pcl script -l' for "
			"listing)\n", argv[0]);
		return PCL_EXIT_ERROR;
	}
	if (record)
		return builtin_record(sb, argc - 2, argv + 2);
	return builtin_report_args(sb, argc - 2, argv + 2);
}
