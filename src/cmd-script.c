/* pcl script: print every sample (and optionally task/mmap events) of a
 * perf.data file as text, the way perf script does. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <errno.h>

#include "builtin.h"
#include "cmd-collapse.h"
#include "cmd-script-builtins.h"
#include "core/analysis/py-script.h"
#include "core/analysis/script-builtins.h"
#include "core/events/parse-events.h"
#include "core/hist/callchain.h"
#include "core/hist/hist.h"
#include "core/data/dlfilter.h"
#include "core/data/evswitch.h"
#include "core/symbols/machine.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "ui/header-print.h"
#include "ui/raw-dump.h"
#include "ui/script-print.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const script_usage[] = {
	"pcl script [<options>]",
	NULL
};

struct script {
	struct perf_tool tool;
	struct script_config cfg;
	struct perf_session *session;	/* owns the machine */
	bool dump, dump_unsorted;	/* -D, --dump-unsorted-raw-trace */
	bool show_task, show_mmap;
	bool show_switch, show_lost, show_round, show_ns, show_cgroup, show_bpf, show_text_poke;
	bool header, full_header;	/* --header, -I */
	struct sample_filter filter;
	bool per_event_dump;
	struct script_dumps dumps;
	struct evswitch evswitch;	/* --switch-on/--switch-off */
	bool no_samples;	/* --graph-function: no branch flags, no sample starts one */
	bool debug_mode;	/* --debug-mode: check the samples' order, print none */
	uint64_t last_time, nr_misordered;
	struct dlfilter *dlfilter;	/* --dlfilter */
	int dlfilter_err;		/* a filter function's error */
	const char *py_path;		/* -s FILE.py: the samples go to the script */
	struct py_script *py;
	bool py_err;			/* a handler raised: stop */
};

/* samples without a CPU (side events of files without it) pass -C */
static bool cpu_skip(const struct script *sc, const struct perf_sample *sample)
{
	return sample->cpu != (uint32_t)-1 && sample_filter__skip_cpu(&sc->filter, sample->cpu);
}

/* --dlfilter: asks the object; true when the sample is dropped (an error
 * stops processing) */
static bool dlfilter_drops(struct script *sc, bool early, struct evsel *evsel,
			   const struct perf_sample *sample)
{
	int r = dlfilter__filter(sc->dlfilter, early, sc->session, &sc->filter, evsel, sample);

	if (r < 0)
		sc->dlfilter_err = r;
	return r != 0;
}

static void process_sample(struct script *sc, struct evsel *evsel,
			   const struct perf_sample *sample)
{
	struct addr_location al;
	struct thread *thread;
	FILE *fp;

	if (sc->dlfilter && dlfilter_drops(sc, true, evsel, sample))
		return;
	if (sample_filter__skip_time(&sc->filter, sample->time))
		return;
	if (sc->debug_mode) {
		if (sample->time < sc->last_time) {
			fprintf(stderr, "Samples misordered, previous: %" PRIu64 " this: %" PRIu64 "\n",
				sc->last_time, sample->time);
			sc->nr_misordered++;
		}
		sc->last_time = sample->time;
		return;
	}
	if (cpu_skip(sc, sample))
		return;
	perf_session__resolve_sample(sc->session, sample, &al);
	thread = al.thread;
	if (sc->dump)
		raw_dump_sample_location(stdout, thread, &al);
	/* a guest's samples only with --guest-code, the host's always */
	if (hist_filter__host_guest(sample->cpumode))
		return;
	if (sample_filter__thread(&sc->filter, thread) || sample_filter__dso(&sc->filter, &al) ||
	    sample_filter__symbol(&sc->filter, &al))
		return;
	if (sc->no_samples || evswitch__discard(&sc->evswitch, evsel))
		return;
	if (sc->dlfilter && dlfilter_drops(sc, false, evsel, sample))
		return;
	if (sc->py) {
		/* -G: perf hands scripts empty call chains */
		sc->py_err = py_script__sample(sc->py, sc->session, evsel, sample, &al,
					       sc->cfg.use_callchain ? sc->cfg.max_stack : 0) < 0;
		return;
	}
	fp = stdout;
	if (sc->per_event_dump) {
		/* perf counts what it prints, into the event's own file */
		if (!sc->cfg.output[script_output_type(evsel->attr.type)].fields ||
		    !(fp = script_dumps__fp(&sc->dumps, evsel)))
			return;
	}
	script_print_sample(fp, &sc->cfg, sc->session, sc->session->machine, evsel, sample, &al);
}

/* --show-task-events / --show-mmap-events: perf prints the leading sample
 * fields, taking time/pid/tid from the record when there is no trailer. */
static void print_side(struct script *sc, const struct perf_event_header *rec,
		       struct perf_sample *sample, pid_t pid, pid_t tid, uint64_t time)
{
	struct evsel *evsel = NULL;
	struct thread *thread = NULL;

	/* perf's id -> event rule for records: one event or id 0 (synthesized)
	 * means the first; an unknown id is only the first without trailers */
	if (sc->session->evlist.nr_entries == 1 || !sample->id)
		evsel = sc->session->evlist.first;
	else if (!(evsel = perf_session__evsel_by_id(sc->session, sample->id)) &&
		 sc->session->evlist.first && !sc->session->evlist.first->attr.sample_id_all)
		evsel = sc->session->evlist.first;
	if (evsel && !evsel->attr.sample_id_all) {
		sample->cpu = 0;
		sample->time = time;
		sample->pid = (uint32_t)pid;
		sample->tid = (uint32_t)tid;
	}
	if (cpu_skip(sc, sample))
		return;
	if (tid != -1)
		thread = machine__findnew_thread(sc->session->machine, pid, tid);
	script_print_side_event(stdout, &sc->cfg, sc->session, evsel, rec, sample, thread);
}

static int script_attr(struct perf_tool *tool, struct perf_session *s, struct evsel *evsel)
{
	struct script *sc = (struct script *)tool;

	if (sc->per_event_dump && script_dumps__open(&sc->dumps, s, evsel) < 0)
		return -2;
	return script_config__add_event(&sc->cfg, s, evsel) < 0 ? -2 : 0;
}

static struct script *script_of(struct perf_tool *tool)
{
	return (struct script *)tool;
}

/* -D: every record as it comes, before the machine takes it */
static int script_dump(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel, uint64_t off)
{
	raw_dump_record(stdout, s, s->machine, rec, sample, evsel, off);
	return 0;
}

static int script_sample(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel)
{
	struct script *sc = script_of(tool);

	process_sample(sc, evsel, sample);
	return sc->dlfilter_err || sc->py_err ? -2 : 0;
}

/* COMM, FORK, EXIT (seen before the machine forgets the thread) */
static int script_task(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	const struct perf_rec_fork *f = (const void *)rec;

	if (rec->type == PERF_RECORD_COMM) {
		const struct perf_rec_comm *c = (const void *)rec;

		print_side(script_of(tool), rec, sample, (pid_t)c->pid, (pid_t)c->tid, 0);
	} else {
		print_side(script_of(tool), rec, sample, (pid_t)f->pid, (pid_t)f->tid, f->time);
	}
	return 0;
}

static int script_mmap(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	const struct perf_rec_mmap *mm = (const void *)rec;

	print_side(script_of(tool), rec, sample, (pid_t)mm->pid, (pid_t)mm->tid, 0);
	return 0;
}

static int script_namespaces(struct perf_tool *tool, struct perf_session *s,
			     const struct perf_event_header *rec, struct perf_sample *sample,
			     struct evsel *evsel)
{
	const struct perf_rec_namespaces *ns = (const void *)rec;

	print_side(script_of(tool), rec, sample, (pid_t)ns->pid, (pid_t)ns->tid, 0);
	return 0;
}

/* side events whose pid/tid are the sample trailer's */
static int script_side(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	print_side(script_of(tool), rec, sample, (pid_t)sample->pid, (pid_t)sample->tid, 0);
	return 0;
}

/* context switches: to the script (whatever the options), and printed
 * with --show-switch-events */
static int script_switch(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel)
{
	struct script *sc = script_of(tool);

	if (sc->py && !cpu_skip(sc, sample) && py_script__switch(sc->py, rec, sample) < 0)
		return -2;
	if (sc->show_switch)
		script_side(tool, s, rec, sample, evsel);
	return 0;
}

static int script_round(struct perf_tool *tool, struct perf_session *s,
			const struct perf_event_header *rec, struct perf_sample *sample,
			struct evsel *evsel)
{
	struct script *sc = script_of(tool);

	if (sc->show_round)
		script_print_record_line(stdout, s->machine, rec);
	else
		fputs(sc->tool.ordered ? "\n" : ": unhandled!\n", stdout);	/* ends -D's line */
	return 0;
}

static int script_feature(struct perf_tool *tool, struct perf_session *s,
			  const struct perf_event_header *rec, struct perf_sample *sample,
			  struct evsel *evsel)
{
	struct script *sc = script_of(tool);
	uint64_t feat = ((const struct perf_rec_feature *)(const void *)rec)->feat_id;

	/* a pipe's header arrives piecewise */
	if (feat < HEADER_LAST_FEATURE)
		header_print_feature(stdout, s, (int)feat, sc->full_header);
	return 0;
}

/* The callbacks the options ask for. */
static void script_tool(struct script *sc)
{
	struct perf_tool *t = &sc->tool;

	t->record = sc->dump ? script_dump : NULL;
	t->stale_parent = sc->dump ? raw_dump_stale_parent : NULL;
	t->sample = script_sample;
	t->attr = script_attr;
	if (sc->show_task) {
		t->comm = t->fork = t->exit = script_task;
		/* perf prints an EXIT before the thread goes away */
		t->before_machine[PERF_RECORD_EXIT] = true;
	}
	if (sc->show_mmap)
		t->mmap = t->mmap2 = script_mmap;
	if (sc->show_switch || sc->py)
		t->context_switch = script_switch;
	if (sc->show_lost)
		t->lost = script_side;
	if (sc->show_ns)
		t->namespaces = script_namespaces;
	if (sc->show_cgroup)
		t->cgroup = script_side;
	/* perf routes ksymbols to the printer for either option */
	if (sc->show_bpf || sc->show_text_poke)
		t->ksymbol = script_side;
	if (sc->show_bpf)
		t->bpf_event = script_side;
	if (sc->show_text_poke)
		t->text_poke = script_side;
	if (sc->show_round || sc->dump)
		t->finished_round = script_round;
	if (sc->header)
		t->feature = script_feature;
	/* rounds are shown where the file has them, and an unsorted dump is
	 * the file as it is: records in file order */
	t->ordered = !sc->show_round && !sc->dump_unsorted;
}

/* --xed: perf pipes its output through the xed disassembler */
static FILE *xed_pipe;

static int start_xed(void)
{
	const char *cmd = isatty(1) ? "xed -F insn: -A -64 | less" : "xed -F insn: -A -64";

	fflush(stdout);
	xed_pipe = popen(cmd, "w");
	if (!xed_pipe || dup2(fileno(xed_pipe), 1) < 0) {
		fprintf(stderr, "pcl script: cannot run '%s': %s\n", cmd, strerror(errno));
		return -1;
	}
	return 0;
}

static void end_xed(void)
{
	if (!xed_pipe)
		return;
	fflush(stdout);
	close(1);
	pclose(xed_pipe);
	xed_pipe = NULL;
}

/* --stitch-lbr needs perf's LBR call chain mode: branch stacks, and no
 * user stack to unwind */
static bool has_lbr_callstack(struct perf_session *s)
{
	const uint64_t dwarf = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	uint64_t sample_type = 0;

	evlist__for_each(&s->evlist, pos)
		sample_type |= pos->attr.sample_type;
	return (sample_type & PERF_SAMPLE_BRANCH_STACK) && (sample_type & dwarf) != dwarf;
}

struct script_opts {
	const char *input, *comms, *pids, *tids, *cpus, *time, *syms, *kallsyms, *dsos;
	const char *symfs;
	bool header, header_only, hide_callgraph, force, show_kernel_path;
	bool folded, show_inline;
	int max_stack;
	int verbose;
	/* perf script's options for other data (AUX traces, LBR, guests,
	 * scripting engines): accepted, with perf's behaviour on our files */
	const char *graph_function, *stop_bt, *itrace, *dlfilter, *gen_script, *script;
	struct dlargs { int argc; char **argv; } dlargs;	/* --dlarg, in order */
	const char *xed;	/* --xed's optional value, ignored */
	const char *vmlinux, *guestmount, *guestkallsyms, *guestmodules, *guestvmlinux;
	bool all_cpus, stitch_lbr, list_dlfilters;
	bool list_scripts, guest_code, demangle, demangle_kernel, full_source_path;
	int max_blocks, addr_range;
};

static int add_dlarg(const struct option *opt, const char *arg, bool unset)
{
	struct dlargs *a = opt->value;

	(void)unset;
	a->argv = xrealloc(a->argv, (size_t)(a->argc + 2) * sizeof(*a->argv));
	a->argv[a->argc++] = xstrdup(arg);
	a->argv[a->argc] = NULL;
	return 0;
}

enum script_lang { SCRIPT_UNKNOWN, SCRIPT_PYTHON, SCRIPT_PERL };

/* -s's script language, as perf tells it: "LANG:FILE" or FILE's extension
 * (*file: the script's path) */
static enum script_lang script_lang(const char *spec, const char **file)
{
	static const struct { const char *name; enum script_lang lang; } langs[] = {
		{ "python", SCRIPT_PYTHON }, { "py", SCRIPT_PYTHON },
		{ "perl", SCRIPT_PERL }, { "pl", SCRIPT_PERL },
	};
	const char *colon = strchr(spec, ':'), *ext = strrchr(spec, '.');

	*file = colon ? colon + 1 : spec;
	for (size_t i = 0; i < ARRAY_SIZE(langs); i++) {
		if (colon ? !strncmp(spec, langs[i].name, (size_t)(colon - spec)) &&
			    !langs[i].name[colon - spec] : ext && !strcmp(ext + 1, langs[i].name))
			return langs[i].lang;
	}
	return SCRIPT_UNKNOWN;
}

static const char perl_missing[] =
	"Perl scripting is not supported: pcl has no Perl engine.\n"
	"Scripts written for perf's Python interface run with -s FILE.py.\n";

/* -g LANG: perf-script.py, the skeleton of a script for the file's events */
static int gen_script(const struct script_opts *o)
{
	struct perf_session *s;
	char *err = NULL;
	FILE *fp;

	if (strcmp(o->gen_script, "python") && strcmp(o->gen_script, "py")) {
		if (!strcmp(o->gen_script, "perl") || !strcmp(o->gen_script, "pl"))
			fputs(perl_missing, stderr);
		else
			fprintf(stderr, "invalid language specifier\n");
		return PCL_EXIT_ENOENT;
	}
	s = perf_session__open(o->input ? o->input : "perf.data", o->force, &err);
	if (!s) {
		session_warnings__open_failed(o->input ? o->input : "perf.data", err);
		free(err);
		return PCL_EXIT_ERROR;
	}
	fp = fopen("perf-script.py", "w");
	if (!fp) {
		fprintf(stderr, "couldn't open perf-script.py: %s\n", strerror(errno));
		perf_session__delete(s);
		return PCL_EXIT_ERROR;
	}
	py_script__generate(fp, s);
	fclose(fp);
	fprintf(stderr, "generated Python script: perf-script.py\n");
	perf_session__delete(s);
	return 0;
}

/* The options that do something else than list the samples (-l,
 * --list-dlfilters, -g) and -s of what pcl cannot run: does it.  Returns
 * the exit code, or -1 to go on. */
static int script_other_modes(const struct script_opts *o, const struct option *opts)
{
	if (o->list_scripts)
		return script_builtins_list();
	if (o->list_dlfilters) {
		printf("List of available dlfilters:\n");
		dlfilter__list(stdout, ".");
		dlfilter__list(stdout, PERF_DLFILTER_DIR);	/* pcl installs none of its own */
		return 0;
	}
	if (o->gen_script)
		return gen_script(o);
	if (o->script) {
		const char *file;

		switch (script_lang(o->script, &file)) {
		case SCRIPT_PYTHON:
			return -1;
		case SCRIPT_PERL:
			fputs(perl_missing, stderr);
			return PCL_EXIT_ERROR;
		case SCRIPT_UNKNOWN:
			fprintf(stderr, "invalid script extension\n");
			parse_options_usage(script_usage, opts, "s", true);
			return PCL_EXIT_USAGE;
		}
	}
	return -1;
}

/* --call-trace, --call-ret-trace, --insn-trace: perf's -F presets for
 * instruction traces, in nanoseconds, applied where they stand among the
 * -F options (their values are ignored, as perf does on such files) */
static int trace_preset(struct script_config *c, const char *fields)
{
	c->nanosecs = true;
	return script_config__parse_fields(c, fields);
}

static int call_trace_opt(const struct option *opt, const char *arg, bool unset)
{
	(void)arg, (void)unset;
	return trace_preset(opt->value, "-ip,-addr,-event,-period,+callindent");
}

static int call_ret_trace_opt(const struct option *opt, const char *arg, bool unset)
{
	(void)arg, (void)unset;
	return trace_preset(opt->value, "-ip,-addr,-event,-period,+callindent,+flags");
}

static int insn_trace_opt(const struct option *opt, const char *arg, bool unset)
{
	(void)arg, (void)unset;
	return trace_preset(opt->value, "+insn,-event,-period");
}

/* The options' settings, before the file is opened: 0, or the exit code. */
static int script_setup(struct script *sc, struct script_opts *o)
{
	if (o->max_stack < 0)
		o->max_stack = 0;
	sc->cfg.max_stack = o->max_stack;
	sc->cfg.use_callchain = !o->hide_callgraph;
	if (sc->dump_unsorted)
		sc->dump = true;
	sc->cfg.dump = sc->dump;
	sc->cfg.stop_bt = o->stop_bt;
	sc->no_samples = o->graph_function != NULL;
	if (o->vmlinux && access(o->vmlinux, R_OK)) {
		fprintf(stderr, "Invalid file: %s\n", o->vmlinux);
		return PCL_EXIT_ERROR;
	}
	sample_filter__add_names(&sc->filter, &(struct sample_filter_names){
		o->comms, o->dsos, o->syms, o->pids, o->tids });
	sc->filter.addr_range = o->addr_range;
	if (o->cpus && sample_filter__set_cpus(&sc->filter, o->cpus) < 0) {
		fprintf(stderr, "Invalid cpu_list\n");
		return PCL_EXIT_ERROR;
	}
	return 0;
}

/* Checks the opened file against the options and sets up what reads it:
 * 0, -1 when there is nothing more to do, or the exit code. */
static int script_prepare(struct script *sc, struct script_opts *o)
{
	struct perf_session *s = sc->session;
	struct symbols_config *symbols;
	char *err = NULL;

	if (o->time && sample_filter__set_time_arg(&sc->filter, o->time,
						   s->header.first_sample_time,
						   s->header.last_sample_time) < 0) {
		fprintf(stderr, "Invalid time string\n");
		return PCL_EXIT_ERROR;
	}
	if (evswitch__init(&sc->evswitch, &s->evlist, stderr) < 0)
		return PCL_EXIT_ENOENT;
	if (o->header || o->header_only) {
		sc->header = true;
		header_print(stdout, s, sc->full_header);
		if (o->header_only)
			return -1;
	}
	if (sc->filter.cpu_filter &&
	    sample_filter__check_cpus(&sc->filter, &s->evlist, s->header.nr_cpus_avail, &err) < 0) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return PCL_EXIT_ERROR;
	}
	if (dlfilter__start(sc->dlfilter) < 0)
		return PCL_EXIT_ERROR;
	if (!sc->py_path && !s->is_pipe && script_config__check(&sc->cfg, s) < 0)
		return PCL_EXIT_ERROR;
	if (sc->per_event_dump) {
		evlist__for_each(&s->evlist, pos)
			if (script_dumps__open(&sc->dumps, s, pos) < 0)
				return PCL_EXIT_ERROR;
	}
	perf_session__new_machine(s, o->kallsyms, o->symfs, o->force);
	symbols = machine__symbols_config(s->machine);
	symbols->vmlinux = o->vmlinux;
	symbols->inline_frames = o->show_inline;
	symbols->demangle = o->demangle;
	symbols->full_source_path = o->full_source_path;
	if (o->stitch_lbr && !has_lbr_callstack(s))
		fprintf(stderr, "Can't find LBR callchain. Switch off --stitch-lbr.\n"
			"Please apply --call-graph lbr when recording.\n");
	else if (o->stitch_lbr && !sc->py_path)	/* perf stitches what it prints only */
		s->lbr_depth = perf_header__lbr_depth(&s->header);
	if (o->xed && start_xed() < 0)
		return PCL_EXIT_ERROR;
	return 0;
}

/* -s FILE.py: the script's top level and trace_begin() run once the file
 * is open, as perf runs them; 0 or the exit code */
static int start_python(struct script *sc, int argc, const char **argv)
{
	if (access(sc->py_path, R_OK)) {
		fprintf(stderr, "Can't open python script \"%s\": %s\n", sc->py_path,
			strerror(errno));
		return PCL_EXIT_ERROR;
	}
	fflush(stdout);
	sc->py = py_script__start(sc->py_path, argc, argv, raw_dump_reg_name);
	if (!sc->py)
		return PCL_EXIT_ERROR;
	return py_script__begin(sc->py) < 0 ? PCL_EXIT_ERROR : 0;
}

/* -F, applied in order: each one may override the ones before */
static int parse_fields_opt(const struct option *opt, const char *arg, bool unset)
{
	return unset ? 0 : script_config__parse_fields(opt->value, arg);
}

int cmd_script(int argc, const char **argv)
{
	struct script sc = { 0 };
	struct script_opts o = { .max_stack = callchain_max_stack_default(), .show_inline = true };
	const struct option opts[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOLEAN('D', "dump-raw-trace", &sc.dump, "dump raw trace in ASCII"),
		OPT_BOOLEAN(0, "dump-unsorted-raw-trace", &sc.dump_unsorted,
			    "dump unsorted raw trace in ASCII"),
		OPT_CALLBACK('F', "fields", &sc.cfg, "str",
			     "comma separated output fields prepend with 'type:'. +field to add "
			     "and -field to remove.", parse_fields_opt),
		OPT_BOOLEAN(0, "header", &o.header, "Show data header."),
		OPT_BOOLEAN(0, "header-only", &o.header_only, "Show only data header."),
		OPT_BOOLEAN('I', "show-info", &sc.full_header,
			    "display extended information from perf.data file"),
		OPT_BOOLEAN('G', "hide-call-graph", &o.hide_callgraph,
			    "When printing symbols do not display call chain"),
		OPT_INTEGER(0, "max-stack", &o.max_stack,
			    "Set the maximum stack depth when parsing the callchain, anything "
			    "beyond the specified depth will be ignored."),
		OPT_BOOLEAN(0, "show-task-events", &sc.show_task,
			    "Show the fork/comm/exit events"),
		OPT_BOOLEAN(0, "show-mmap-events", &sc.show_mmap, "Show the mmap events"),
		OPT_BOOLEAN(0, "show-switch-events", &sc.show_switch,
			    "Show context switch events (if recorded)"),
		OPT_BOOLEAN(0, "show-namespace-events", &sc.show_ns,
			    "Show namespace events (if recorded)"),
		OPT_BOOLEAN(0, "show-cgroup-events", &sc.show_cgroup,
			    "Show cgroup events (if recorded)"),
		OPT_BOOLEAN(0, "show-lost-events", &sc.show_lost, "Show lost events (if recorded)"),
		OPT_BOOLEAN(0, "show-round-events", &sc.show_round,
			    "Show round events (if recorded)"),
		OPT_BOOLEAN(0, "per-event-dump", &sc.per_event_dump,
			    "Dump trace output to files named by the monitored events"),
		OPT_BOOLEAN(0, "show-bpf-events", &sc.show_bpf, "Show bpf related events (if recorded)"),
		OPT_BOOLEAN(0, "show-text-poke-events", &sc.show_text_poke,
			    "Show text poke related events (if recorded)"),
		OPT_STRING('c', "comms", &o.comms, "comm[,comm...]",
			   "only display events for these comms"),
		OPT_STRING(0, "pid", &o.pids, "pid[,pid...]",
			   "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &o.tids, "tid[,tid...]",
			   "only consider symbols in these tids"),
		OPT_BOOLEAN(0, "ns", &sc.cfg.nanosecs, "Use 9 decimal places when displaying time"),
		OPT_BOOLEAN(0, "reltime", &sc.cfg.reltime, "Show time stamps relative to start"),
		OPT_BOOLEAN(0, "deltatime", &sc.cfg.deltatime,
			    "Show time stamps relative to previous event"),
		OPT_STRING('C', "cpu", &o.cpus, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "time", &o.time, "str",
			   "Time span of interest (start,stop)"),
		OPT_STRING(0, "dsos", &o.dsos, "dso[,dso...]",
			   "only consider symbols in these DSOs"),
		OPT_STRING('S', "symbols", &o.syms, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_BOOLEAN(0, "show-kernel-path", &o.show_kernel_path,
			    "Show the path of [kernel.kallsyms] (accepted, no effect)"),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_INCR('v', "verbose", &o.verbose, "be more verbose"),
		OPT_BOOLEAN('L', "Latency", &sc.cfg.latency_format,
			    "show latency attributes (irqs/preemption disabled, etc)"),
		OPT_BOOLEAN(0, "inline", &o.show_inline, "Show inline function"),
		OPTS_EVSWITCH(&sc.evswitch),
		OPT_STRING(0, "stop-bt", &o.stop_bt, "symbol[,symbol...]",
			   "Stop display of callgraph at these symbols"),
		OPT_BOOLEAN(0, "full-source-path", &o.full_source_path,
			    "Show full source file name path for source lines"),
		OPT_BOOLEAN(0, "demangle", &o.demangle,
			    "Enable symbol demangling"),
		OPT_BOOLEAN(0, "demangle-kernel", &o.demangle_kernel,
			    "Enable kernel symbol demangling"),
		OPT_STRING('k', "vmlinux", &o.vmlinux, "file", "vmlinux pathname"),
		OPT_BOOLEAN('d', "debug-mode", &sc.debug_mode,
			    "do various checks like samples ordering and lost events"),
		OPT_BOOLEAN('a', "all-cpus", &o.all_cpus,
			    "system-wide collection from all CPUs (for recording scripts: no effect)"),
		OPT_STRING(0, "graph-function", &o.graph_function, "symbol[,symbol...]",
			   "Only print call graphs that start in these functions (branch traces)"),
		OPT_INTEGER(0, "max-blocks", &o.max_blocks,
			    "Maximum number of code blocks to dump with brstackinsn"),
		OPT_CALLBACK_OPTARG(0, "call-trace", &sc.cfg, "...", "Decode calls from itrace",
				    call_trace_opt, ""),
		OPT_CALLBACK_OPTARG(0, "call-ret-trace", &sc.cfg, "...",
				    "Decode calls and returns from itrace", call_ret_trace_opt, ""),
		OPT_CALLBACK_OPTARG(0, "insn-trace", &sc.cfg, "raw|disasm",
				    "Decode instructions from itrace", insn_trace_opt, ""),
		OPT_STRING_OPTARG(0, "itrace", &o.itrace, "opts",
				  "Instruction Tracing options (AUX area traces: no effect here)", ""),
		OPT_STRING_OPTARG(0, "xed", &o.xed, "...", "Run xed disassembler on output", ""),
		OPT_INTEGER(0, "addr-range", &o.addr_range,
			    "Use with -S to list traced records within address range"),
		OPT_BOOLEAN(0, "stitch-lbr", &o.stitch_lbr,
			    "Enable LBR callgraph stitching approach"),
		OPT_STRING(0, "dlfilter", &o.dlfilter, "file", "filter .so file name"),
		OPT_CALLBACK(0, "dlarg", &o.dlargs, "argument", "filter argument", add_dlarg),
		OPT_BOOLEAN(0, "list-dlfilters", &o.list_dlfilters, "list available dlfilters"),
		OPT_BOOLEAN('l', "list", &o.list_scripts, "list available scripts"),
		OPT_STRING('s', "script", &o.script, "name",
			   "script file name (lang:script name, script name): Python or built-in"),
		OPT_STRING('g', "gen-script", &o.gen_script, "lang",
			   "generate perf-script.xx script in specified language (python)"),
		OPT_STRING(0, "guestmount", &o.guestmount, "directory",
			   "guest mount directory under which every guest os instance has a subdir"),
		OPT_STRING(0, "guestvmlinux", &o.guestvmlinux, "file",
			   "file saving guest os vmlinux"),
		OPT_STRING(0, "guestkallsyms", &o.guestkallsyms, "file",
			   "file saving guest os /proc/kallsyms"),
		OPT_STRING(0, "guestmodules", &o.guestmodules, "file",
			   "file saving guest os /proc/modules"),
		OPT_BOOLEAN(0, "guest-code", &o.guest_code,
			    "Indicate that guest code can be found in the hypervisor process"),
		OPT_BOOLEAN(0, "folded", &o.folded,
			    "print folded stacks 'comm;caller;...;leaf PERIOD' (as pcl collapse)"),
		OPT_END(),
	};
	char *err = NULL;
	int ret = 0;

	/* the built-in scripts: record NAME ..., report NAME ... */
	if (argc > 1 && (!strcmp(argv[1], "record") || !strcmp(argv[1], "report")))
		return script_builtin_cmd(argc - 1, argv + 1);
	script_config__init(&sc.cfg);
	o.demangle = true;
	argc = parse_options(argc, argv, opts, script_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (script_builtin_named(o.script)) {
		/* -s NAME [args]: the arguments after the options are the script's */
		ret = script_setup(&sc, &o);
		if (!ret)
			ret = script_builtin_report(script_builtin_named(o.script), o.input,
						    o.force, &sc.filter, o.time, argc, argv);
		goto out;
	}
	if (argc && script_builtin__find(argv[0])) {
		/* perf's "perf script <script> ...": record and report at once */
		ret = script_builtin_live(script_builtin__find(argv[0]), argc, argv, o.all_cpus);
		goto out;
	}
	if (argc && !o.script) {
		fprintf(stderr, "  Error: Couldn't find script `%s'\n\n"
			" See pcl script -l for available scripts.\n\n", argv[0]);
		usage_with_options_msg(script_usage, opts);
		ret = PCL_EXIT_USAGE;
		goto out;
	}
	ret = script_other_modes(&o, opts);
	if (ret >= 0)
		goto out;
	ret = 0;
	if (o.folded) {
		struct stacks_opts so = { .max_stack = o.max_stack, .kallsyms = o.kallsyms,
					  .symfs = o.symfs, .force = o.force };
		struct stacks_filter_args fa = { .comms = o.comms, .pids = o.pids,
						 .tids = o.tids, .cpus = o.cpus, .time = o.time,
						 .dsos = o.dsos };

		ret = folded_from_perf_data("script", o.input ? o.input : "perf.data", &so, &fa,
					    NULL);
		goto out;
	}
	ret = script_setup(&sc, &o);
	if (ret)
		goto out;
	if (o.script)
		script_lang(o.script, &sc.py_path);

	/* perf loads the filter first, starts it once the file is checked,
	 * and stops it whatever happens */
	if (o.dlfilter &&
	    !(sc.dlfilter = dlfilter__new(o.dlfilter, o.dlargs.argc, o.dlargs.argv, stderr))) {
		ret = PCL_EXIT_ERROR;
		goto out;
	}
	if (!o.input)
		o.input = perf_data__default_path(false);
	parse_events__guest = o.guest_code;
	perf_session__guest_symbols(&(struct guest_symbols){ .in_hypervisor = o.guest_code });
	sc.session = perf_session__open(o.input, o.force, &err);
	if (!sc.session) {
		session_warnings__open_failed(o.input, err);
		free(err);
		ret = PCL_EXIT_ERROR;
		goto out;
	}
	ret = script_prepare(&sc, &o);
	if (ret) {
		ret = ret < 0 ? 0 : ret;	/* --header-only is done */
		goto out;
	}
	sc.cfg.machine = sc.session->machine;

	if (sc.py_path) {
		ret = start_python(&sc, argc, argv);
		if (ret)
			goto out;
	} else {
		/* output is meant for pipes into awk and flame graph tools: buffer it */
		setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	}
	script_tool(&sc);
	ret = perf_session__process(sc.session, &sc.tool);
	if (sc.per_event_dump)
		script_dumps__close(&sc.dumps, stdout);
	if (sc.debug_mode)
		fprintf(stderr, "Misordered timestamps: %" PRIu64 "\n", sc.nr_misordered);
	fflush(stdout);
	session_warnings__print(stderr, &sc.session->stats, sc.show_lost);
	if (ret == -2) {
		ret = PCL_EXIT_EINVAL;
	} else if (ret < 0) {
		fprintf(stderr, "pcl script: %s\n", sc.session->err);
		ret = PCL_EXIT_ERROR;
	}
	/* perf ends the script after the warnings, whether the file was
	 * read to its end or not; a handler that raised ended it already */
	if (sc.py && !sc.py_err && py_script__end(sc.py) < 0 && !ret)
		ret = PCL_EXIT_EINVAL;
out:
	/* perf stops the filter unless the file could not be opened */
	dlfilter__delete(sc.dlfilter, sc.session != NULL);
	for (int i = 0; i < o.dlargs.argc; i++)
		free(o.dlargs.argv[i]);
	free(o.dlargs.argv);
	script_dumps__close(&sc.dumps, NULL);
	fflush(stdout);
	if (o.xed)
		end_xed();
	py_script__delete(sc.py);
	perf_session__delete(sc.session);
	script_config__exit(&sc.cfg);
	sample_filter__exit(&sc.filter);
	return ret;
}
