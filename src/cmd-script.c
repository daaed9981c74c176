/* pcl script: print every sample (and optionally task/mmap events) of a
 * perf.data file as text, the way perf script does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cmd-collapse.h"
#include "core/callchain.h"
#include "core/machine.h"
#include "core/sample-filter.h"
#include "core/session.h"
#include "ui/header-print.h"
#include "ui/raw-dump.h"
#include "ui/script-print.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const script_usage[] = {
	"pcl script [<options>]",
	NULL
};

struct script {
	struct perf_tool tool;
	struct script_config cfg;
	struct perf_session *session;
	struct machine *machine;
	bool dump;
	bool show_task, show_mmap;
	bool header, full_header;	/* --header, -I */
	struct sample_filter filter;
};

/* samples without a CPU (side events of files without it) pass -C */
static bool cpu_skip(const struct script *sc, const struct perf_sample *sample)
{
	return sample->cpu != (uint32_t)-1 && sample_filter__skip_cpu(&sc->filter, sample->cpu);
}

static void process_sample(struct script *sc, struct evsel *evsel,
			   const struct perf_sample *sample)
{
	struct addr_location al;
	struct thread *thread;

	if (sample_filter__skip_time(&sc->filter, sample->time) || cpu_skip(sc, sample))
		return;
	thread = machine__findnew_thread(sc->machine, (pid_t)sample->pid, (pid_t)sample->tid);
	memset(&al, 0, sizeof(al));
	machine__resolve(sc->machine, thread, sample->cpumode, sample->ip, &al);
	al.thread = thread;
	if (sc->dump)
		raw_dump_sample_location(stdout, thread, &al);
	if (sample_filter__thread(&sc->filter, thread) || sample_filter__dso(&sc->filter, &al) ||
	    sample_filter__symbol(&sc->filter, &al))
		return;
	script_print_sample(stdout, &sc->cfg, sc->session, sc->machine, evsel, sample, &al);
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
		thread = machine__findnew_thread(sc->machine, pid, tid);
	script_print_side_event(stdout, &sc->cfg, sc->session, evsel, rec, sample, thread);
}

static int script_attr(struct perf_tool *tool, struct perf_session *s, struct evsel *evsel)
{
	struct script *sc = (struct script *)tool;

	return script_config__add_event(&sc->cfg, s, evsel) < 0 ? -2 : 0;
}

static int script_record(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel, uint64_t off)
{
	struct script *sc = (struct script *)tool;

	if (sc->dump)
		raw_dump_record(stdout, s, rec, sample, evsel, off);
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		if (evsel)
			process_sample(sc, evsel, sample);
		break;
	case PERF_RECORD_COMM:
		perf_session__feed_machine(sc->machine, rec);
		if (sc->show_task) {
			const struct perf_rec_comm *c = (const void *)rec;

			print_side(sc, rec, sample, (pid_t)c->pid, (pid_t)c->tid, 0);
		}
		break;
	case PERF_RECORD_FORK:
		perf_session__feed_machine(sc->machine, rec);
		if (sc->show_task) {
			const struct perf_rec_fork *f = (const void *)rec;

			print_side(sc, rec, sample, (pid_t)f->pid, (pid_t)f->tid, f->time);
		}
		break;
	case PERF_RECORD_EXIT:
		/* printed before the thread goes away */
		if (sc->show_task) {
			const struct perf_rec_fork *f = (const void *)rec;

			print_side(sc, rec, sample, (pid_t)f->pid, (pid_t)f->tid, f->time);
		}
		perf_session__feed_machine(sc->machine, rec);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		perf_session__feed_machine(sc->machine, rec);
		if (sc->show_mmap) {
			const struct perf_rec_mmap *mm = (const void *)rec;

			print_side(sc, rec, sample, (pid_t)mm->pid, (pid_t)mm->tid, 0);
		}
		break;
	case PERF_RECORD_HEADER_BUILD_ID:
		perf_session__feed_machine(sc->machine, rec);
		break;
	case PERF_RECORD_HEADER_FEATURE: {
		uint64_t feat = ((const struct perf_rec_feature *)(const void *)rec)->feat_id;

		/* a pipe's header arrives piecewise */
		if (sc->header && feat < HEADER_LAST_FEATURE)
			header_print_feature(stdout, s, (int)feat, sc->full_header);
		break;
	}
	default:
		break;
	}
	return 0;
}

/* -C needs CPU in every kind of sample, and CPUs the machine had. */
static int check_cpu_filter(struct script *sc)
{
	uint32_t nr_cpus = sc->session->header.nr_cpus_avail;

	for (int type = 0; type < PERF_TYPE_MAX; type++) {
		evlist__for_each(&sc->session->evlist, pos) {
			if (pos->attr.type != (uint32_t)type)
				continue;
			if (!(pos->attr.sample_type & PERF_SAMPLE_CPU)) {
				fprintf(stderr, "File does not contain CPU events. Remove -C option "
					"to proceed.\n");
				return -1;
			}
			break;
		}
	}
	for (uint32_t cpu = nr_cpus; cpu < SAMPLE_FILTER_MAX_CPUS; cpu++) {
		if (!sample_filter__skip_cpu(&sc->filter, cpu)) {
			fprintf(stderr, "Requested CPU %u too large. Consider raising MAX_NR_CPUS\n",
				cpu);
			return -1;
		}
	}
	return 0;
}

/* perf's end-of-run warnings about what the recording lost or we skipped */
static void warn_about_losses(const struct session_stats *st)
{
	uint64_t samples = st->nr_records[PERF_RECORD_SAMPLE] + st->total_lost_samples;

	if (st->nr_records[PERF_RECORD_LOST])
		fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\n"
			"Check IO/CPU overload!\n\n", (unsigned long long)st->nr_events,
			(unsigned long long)st->nr_records[PERF_RECORD_LOST]);
	if (samples && (double)st->total_lost_samples / (double)samples > 0.05)
		fprintf(stderr, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
			(unsigned long long)samples,
			100.0 * (double)st->total_lost_samples / (double)samples);
	if (st->nr_unknown)
		fprintf(stderr, "Warning:\nFound %llu unknown events!\n\n"
			"Is this an older tool processing a perf.data file generated by a more "
			"recent tool?\n\n", (unsigned long long)st->nr_unknown);
	if (st->nr_unknown_id)
		fprintf(stderr, "Warning:\n%llu samples with id not present in the header\n",
			(unsigned long long)st->nr_unknown_id);
	if (st->nr_bad_samples > 1)
		fprintf(stderr, "Warning:\n%llu records could not be decoded and were skipped.\n",
			(unsigned long long)st->nr_bad_samples);
	if (st->nr_unordered)
		fprintf(stderr, "Warning:\n%llu out of order events recorded.\n",
			(unsigned long long)st->nr_unordered);
}

struct script_opts {
	const char *input, *fields, *comms, *pids, *tids, *cpus, *time, *syms, *kallsyms, *dsos;
	const char *symfs;
	bool header, header_only, hide_callgraph, force, show_kernel_path;
	bool folded;
	int max_stack;
	int verbose;
};

int cmd_script(int argc, const char **argv)
{
	struct script sc = { 0 };
	struct script_opts o = { .max_stack = callchain_max_stack_default() };
	const struct option opts[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOLEAN('D', "dump-raw-trace", &sc.dump, "dump raw trace in ASCII"),
		OPT_STRING('F', "fields", &o.fields, "str",
			   "comma separated output fields prepend with 'type:'. +field to add "
			   "and -field to remove."),
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
		OPT_STRING('c', "comms", &o.comms, "comm[,comm...]",
			   "only display events for these comms"),
		OPT_STRING(0, "pid", &o.pids, "pid[,pid...]",
			   "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &o.tids, "tid[,tid...]",
			   "only consider symbols in these tids"),
		{ .type = OPT_STRING_T, .long_name = "pids", .value = &o.pids, .argh = "pid",
		  .flags = OPTF_HIDDEN },
		{ .type = OPT_STRING_T, .long_name = "tids", .value = &o.tids, .argh = "tid",
		  .flags = OPTF_HIDDEN },
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
		OPT_BOOLEAN(0, "folded", &o.folded,
			    "print folded stacks 'comm;caller;...;leaf PERIOD' (as pcl collapse)"),
		OPT_END(),
	};
	char *err = NULL;
	int ret = 0;

	script_config__init(&sc.cfg);
	argc = parse_options(argc, argv, opts, script_usage, 0);
	if (argc)
		usage_with_options(script_usage, opts);
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
	if (o.fields && script_config__parse_fields(&sc.cfg, o.fields) < 0)
		usage_with_options(script_usage, opts);
	if (o.max_stack < 0)
		o.max_stack = 0;
	sc.cfg.max_stack = o.max_stack;
	sc.cfg.use_callchain = !o.hide_callgraph;
	sc.cfg.dump = sc.dump;
	if (o.comms)
		name_list__add(&sc.filter.comms, o.comms);
	if (o.pids)
		name_list__add(&sc.filter.pids, o.pids);
	if (o.tids)
		name_list__add(&sc.filter.tids, o.tids);
	if (o.syms)
		name_list__add(&sc.filter.syms, o.syms);
	if (o.dsos)
		name_list__add(&sc.filter.dsos, o.dsos);
	if (o.cpus && sample_filter__set_cpus(&sc.filter, o.cpus) < 0) {
		fprintf(stderr, "Invalid cpu_list\n");
		ret = 255;
		goto out;
	}

	sc.session = perf_session__open(o.input ? o.input : "perf.data", &err);
	if (!sc.session) {
		fprintf(stderr, "pcl script: %s\n", err);
		free(err);
		ret = 255;
		goto out;
	}
	if (o.time && sample_filter__set_time_arg(&sc.filter, o.time,
						  sc.session->header.first_sample_time,
						  sc.session->header.last_sample_time) < 0) {
		fprintf(stderr, "Invalid time string\n");
		ret = 255;
		goto out;
	}
	if (o.header || o.header_only) {
		sc.header = true;
		header_print(stdout, sc.session, sc.full_header);
		if (o.header_only)
			goto out;
	}
	if (sc.filter.cpu_filter && check_cpu_filter(&sc) < 0) {
		ret = 255;
		goto out;
	}
	if (!sc.session->is_pipe && script_config__check(&sc.cfg, sc.session) < 0) {
		ret = 255;
		goto out;
	}
	sc.machine = perf_session__new_machine(sc.session, o.kallsyms, o.symfs, o.force);

	/* output is meant for pipes into awk and flame graph tools: buffer it */
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	sc.tool.record = script_record;
	sc.tool.attr = script_attr;
	sc.tool.ordered = true;
	ret = perf_session__process(sc.session, &sc.tool);
	fflush(stdout);
	warn_about_losses(&sc.session->stats);
	if (ret == -2) {
		ret = 255;
	} else if (ret < 0) {
		fprintf(stderr, "pcl script: %s\n", sc.session->err);
		ret = 255;
	}
out:
	fflush(stdout);
	if (sc.machine)
		machine__delete(sc.machine);
	perf_session__delete(sc.session);
	script_config__exit(&sc.cfg);
	sample_filter__exit(&sc.filter);
	return ret;
}
