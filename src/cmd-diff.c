/* pcl diff: perf diff, the profiles of two or more perf.data files side
 * by side: the baseline's percentages and each other file's delta, ratio
 * or weighted difference, entries paired by their sort keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "core/analysis/diff.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/events/parse-events.h"
#include "core/hist/hist.h"
#include "ui/diff-stdio.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/perfconfig.h"
#include "util/util.h"

static const char *const diff_usage[] = { "perf diff [<options>] [old_file] [new_file]", NULL };

struct diff_file {
	struct perf_tool tool;	/* first: the callbacks get it */
	const char *path;
	struct perf_session *session;
	struct sample_filter filter;
	struct hists **hists;	/* by evsel idx */
	int nr_hists;
	int nr_members;		/* of the baseline's hists: the number of files */
	const struct hist_opts *hopts;
	struct strset *strings;
	struct callchain_store *store;
};

static struct hists *file_hists(struct diff_file *f, struct evsel *evsel)
{
	if (evsel->idx >= f->nr_hists) {
		f->hists = xrealloc(f->hists, (size_t)(evsel->idx + 1) * sizeof(*f->hists));
		while (f->nr_hists <= evsel->idx)
			f->hists[f->nr_hists++] = NULL;
	}
	if (!f->hists[evsel->idx]) {
		f->hists[evsel->idx] = hists__new(f->hopts, evsel, f->strings, f->store);
		/* the baseline's entries carry a pair slot per other file */
		f->hists[evsel->idx]->nr_members = f->nr_members;
	}
	return f->hists[evsel->idx];
}

static int diff_sample(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	struct diff_file *f = (struct diff_file *)tool;
	struct addr_location al;
	struct hist_sample hs;
	struct hists *h;

	if (sample_filter__skip_time(&f->filter, sample->time))
		return 0;
	perf_session__resolve_sample(s, sample, &al);
	if (sample_filter__skip_cpu(&f->filter, sample->cpu))
		return 0;
	hs = hist_sample__resolved(al.thread, &al, sample, f->strings);
	hs.time = sample->time;
	hs.weight = sample->weight;
	hs.map_size = al.map ? al.map->end - al.map->start : 0;
	hs.filtered = (sample_filter__thread(&f->filter, al.thread) ? HIST_FILTER_THREAD : 0) |
		      (sample_filter__dso(&f->filter, &al) ? HIST_FILTER_DSO : 0) |
		      (sample_filter__symbol(&f->filter, &al) ? HIST_FILTER_SYMBOL : 0) |
		      hist_filter__host_guest(sample->cpumode);
	h = file_hists(f, evsel);
	hists__add_sample(h, &hs);
	/* perf counts the totals as samples come: the files other than the
	 * baseline never go through an output pass that would */
	h->stats.total_period += sample->period;
	if (!hs.filtered)
		h->stats.total_non_filtered_period += sample->period;
	return 0;
}

struct diff_opts {
	struct diff_config cfg;
	bool show_period, show_formula, quiet, force, cycles_hist;
	bool modules;		/* -m: modules are always loaded */
	bool stream, dump_raw;	/* --stream, -D: not supported yet */
	int verbose;
	const char *sort_order, *symfs, *kallsyms, *time_str, *cpus;
	const char *dsos, *comms, *syms, *pids, *tids;
};

/* A bad -c or --percentage: perf's message, then that option's usage. */
static const struct option *diff_options;

static int parse_compute(const struct option *opt, const char *arg, bool unset)
{
	struct diff_config *cfg = opt->value;
	char *err;

	if (!arg) {
		cfg->compute = DIFF_DELTA;
		return 0;
	}
	if (diff_config__parse_compute(cfg, arg, &err) == 0)
		return 0;
	fputs(err, stderr);
	free(err);
	parse_options_usage(diff_usage, diff_options, "c", true);
	exit(PCL_EXIT_USAGE);
}

static int parse_percentage(const struct option *opt, const char *arg, bool unset)
{
	struct hist_opts *hopts = opt->value;

	if (!strcmp(arg, "relative"))
		hopts->filter_relative = true;
	else if (!strcmp(arg, "absolute"))
		hopts->filter_relative = false;
	else {
		parse_options_usage(diff_usage, diff_options, "percentage", false);
		exit(PCL_EXIT_USAGE);
	}
	return 0;
}

/* --time: percent slices apply to every file, each by its own first and
 * last sample; absolute ranges are given per file, "a,b:c,d". */
static int setup_time(struct diff_file *files, int nr, const char *time_str)
{
	char *copy = xstrdup(time_str), *piece = copy;
	bool per_file = strchr(time_str, ':') != NULL;
	int ret = 0;

	for (int i = 0; i < nr && piece && !ret; i++) {
		const struct perf_header *h = &files[i].session->header;
		char *next = per_file ? strchr(piece, ':') : NULL;

		if (next)
			*next++ = '\0';
		if (per_file && (!*piece || (next && !*next))) {
			fprintf(stderr, "Invalid time string\n");
			ret = -1;
			break;
		}
		if (sample_filter__set_time_arg(&files[i].filter, piece, h->first_sample_time,
						h->last_sample_time) < 0) {
			fprintf(stderr, "Invalid time string\n");
			ret = -1;
		}
		if (per_file)
			piece = next;
	}
	free(copy);
	return ret;
}

static int setup_file(struct diff_file *f, const struct diff_opts *o)
{
	char *err = NULL;

	f->session = perf_session__open(f->path, o->force, &err);
	if (!f->session) {
		fprintf(stderr, "failed to open %s\nFailed to open %s\n", err, f->path);
		free(err);
		return -1;
	}
	sample_filter__add_names(&f->filter, &(struct sample_filter_names){
		o->comms, o->dsos, o->syms, o->pids, o->tids });
	if (o->cpus) {
		evlist__for_each(&f->session->evlist, pos) {
			if (!(pos->attr.sample_type & PERF_SAMPLE_CPU)) {
				fprintf(stderr, "File does not contain CPU events. Remove -C "
					"option to proceed.\n");
				return -1;
			}
		}
		if (sample_filter__set_cpus(&f->filter, o->cpus) < 0) {
			fprintf(stderr, "failed to set cpu bitmap\n");
			return -1;
		}
	}
	perf_session__new_machine(f->session, o->kallsyms, o->symfs, o->force);
	f->tool.sample = diff_sample;
	f->tool.ordered = true;
	return 0;
}

/* perf's evsel__match2: the same event is the same type and config. */
static struct evsel *match_event(struct perf_session *s, const struct evsel *base)
{
	evlist__for_each(&s->evlist, pos)
		if (pos->attr.type == base->attr.type && pos->attr.config == base->attr.config)
			return pos;
	return NULL;
}

static void print_events(struct diff_file *files, const struct diff_opts *o,
			 const struct diff_columns *cols)
{
	int nr = o->cfg.nr_files;
	struct hists **per_file = xcalloc((size_t)nr, sizeof(*per_file));
	bool first = true;

	evlist__for_each(&files[0].session->evlist, base) {
		struct diff_event de = { .cfg = &o->cfg, .files = per_file };

		de.base = per_file[0] = file_hists(&files[0], base);
		for (int i = 1; i < nr; i++) {
			struct evsel *e = match_event(files[i].session, base);

			per_file[i] = e ? file_hists(&files[i], e) : NULL;
		}
		if (!o->quiet)
			printf("%s# Event '%s'\n#\n", first ? "" : "\n", base->name);
		first = false;
		if (o->verbose || (nr > 2 && !o->quiet)) {
			printf("# Data files:\n");
			for (int i = 0; i < nr; i++)
				printf("#  [%d] %s %s\n", i, files[i].path, i ? "" : "(Baseline)");
			printf("#\n");
		}
		diff_event__process(&de);
		diff_stdio__print(stdout, &de, cols, !o->quiet);
	}
	free(per_file);
}

/* A filter naming one value hides its column, as in perf. */
static void elide_filtered_columns(struct hist_layout *l, const struct diff_opts *o)
{
	const char *only[HISTC_NR_COLS] = { NULL };
	const struct { enum hist_column col; const char *list; } lists[] = {
		{ HISTC_SYMBOL, o->syms }, { HISTC_DSO, o->dsos }, { HISTC_COMM, o->comms },
	};

	for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++)
		if (lists[k].list && *lists[k].list && !strchr(lists[k].list, ','))
			only[lists[k].col] = lists[k].list;
	hist_layout__elide(l, only);
}

/* perfconfig's diff.order, diff.compute and hist.percentage: defaults
 * under -o, -c and --percentage; a bad value leaves perf's default, with
 * perf's messages. */
#define BAD_PAIR "Error in the given config file: wrong config key-value pair %s=%s\n"

static void read_config(struct diff_config *cfg, struct hist_opts *hopts)
{
	static const struct { const char *name; enum diff_compute compute; } methods[] = {
		{ "delta", DIFF_DELTA }, { "delta-abs", DIFF_DELTA_ABS }, { "ratio", DIFF_RATIO },
		{ "wdiff", DIFF_WDIFF },
	};
	const char *value = perfconfig__default("diff.order");
	char *end;
	long order;
	size_t i;

	if (value) {
		order = strtol(value, &end, 0);
		if (*value && !*end)
			cfg->sort_idx = (unsigned int)order;
		else
			fprintf(stderr, "bad config value for 'diff.order', ignoring...\n" BAD_PAIR,
				"diff.order", value);
	}
	if ((value = perfconfig__default("diff.compute"))) {
		for (i = 0; i < ARRAY_SIZE(methods) && strcmp(methods[i].name, value); i++)
			;
		if (i < ARRAY_SIZE(methods))
			cfg->compute = methods[i].compute;
		else
			fprintf(stderr, "Invalid compute method: %s\n" BAD_PAIR, value,
				"diff.compute", value);
	}
	value = perfconfig__default("hist.percentage");
	if (value && (!strcmp(value, "relative") || !strcmp(value, "absolute")))
		hopts->filter_relative = !strcmp(value, "relative");
}

int cmd_diff(int argc, const char **argv)
{
	struct diff_opts o = { .cfg = { .compute = DIFF_DELTA_ABS, .sort_idx = 1 } };
	struct hist_opts hopts = { 0 };
	const struct option opts[] = {
		OPT_INCR('v', "verbose", &o.verbose, "be more verbose (show symbol address, etc)"),
		OPT_BOOLEAN('q', "quiet", &o.quiet, "Do not show any warnings or messages"),
		OPT_BOOLEAN('b', "baseline-only", &o.cfg.baseline_only,
			    "Show only items with match in baseline"),
		OPT_CALLBACK('c', "compute", &o.cfg,
			     "delta,delta-abs,ratio,wdiff:w1,w2 (default delta-abs),cycles",
			     "Entries differential computation selection", parse_compute),
		OPT_BOOLEAN('p', "period", &o.show_period, "Show period values."),
		OPT_BOOLEAN('F', "formula", &o.show_formula, "Show formula."),
		OPT_BOOLEAN(0, "cycles-hist", &o.cycles_hist,
			    "Show cycles histogram and standard deviation - WARNING: use only "
			    "with -c cycles."),
		OPT_BOOLEAN('D', "dump-raw-trace", &o.dump_raw, "dump raw trace in ASCII"),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_BOOLEAN('m', "modules", &o.modules,
			    "load module symbols - WARNING: use only with -k and LIVE kernel"),
		OPT_STRING('d', "dsos", &o.dsos, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_STRING('C', "comms", &o.comms, "comm[,comm...]",
			   "only consider symbols in these comms"),
		OPT_STRING('S', "symbols", &o.syms, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING('s', "sort", &o.sort_order, "key[,key2...]",
			   "sort by key(s): pid, comm, dso, symbol, parent, cpu, srcline, ... "
			   "Please refer the man page for the complete list."),
		OPT_STRING('t', "field-separator", &hopts.field_sep, "separator",
			   "separator for columns, no spaces will be added between columns '.' is "
			   "reserved."),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_UINTEGER('o', "order", &o.cfg.sort_idx, "Specify compute sorting."),
		OPT_CALLBACK(0, "percentage", &hopts, "relative|absolute",
			     "How to display percentage of filtered entries", parse_percentage),
		OPT_STRING(0, "time", &o.time_str, "str",
			   "Time span (time percent or absolute timestamp)"),
		OPT_STRING(0, "cpu", &o.cpus, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "pid", &o.pids, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &o.tids, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_BOOLEAN(0, "stream", &o.stream, "Enable hot streams comparison."),
		OPT_END(),
	};
	static const char *defaults[] = { "perf.data.old", "perf.data" };
	struct sort_setup ss = { .diff = true };
	struct diff_columns cols;
	struct diff_file *files;
	struct callchain_store store;
	struct strset strings = { 0 };
	int ret = PCL_EXIT_ERROR;
	char *err;

	diff_options = opts;
	read_config(&o.cfg, &hopts);
	argc = parse_options(argc, argv, opts, diff_usage, 0);
	if (o.cycles_hist && o.cfg.compute != DIFF_CYCLES)
		usage_with_options(diff_usage, opts);
	o.cfg.nr_files = argc > 1 ? argc : 2;
	if (!argc && parse_events__guest) {	/* pcl kvm diff: the host's run and the guest's */
		defaults[0] = "perf.data.host";
		defaults[1] = "perf.data.guest";
	}
	if (argc == 1)
		defaults[1] = argv[0];
	if (o.cfg.sort_idx >= (unsigned int)o.cfg.nr_files) {
		fprintf(stderr, "Order option out of limit.\n");
		return PCL_EXIT_ERROR;
	}
	if (hopts.field_sep && *hopts.field_sep == '.') {
		fputs("'.' is the only non valid --field-separator argument\n", stderr);
		return PCL_EXIT_ERROR;
	}
	ss.sort_order = o.sort_order;
	if (hist_layout__setup(&hopts.layout, &ss, &err) < 0) {
		fprintf(stderr, "Error:\n%s", err);
		free(err);
		usage_with_options(diff_usage, opts);
	}
	elide_filtered_columns(&hopts.layout, &o);
	hopts.verbose = o.verbose > 0;
	hopts.dso_filter = o.dsos != NULL;
	callchain_store__init(&store);
	files = xcalloc((size_t)o.cfg.nr_files, sizeof(*files));
	for (int i = 0; i < o.cfg.nr_files; i++) {
		files[i].path = argc > 1 ? argv[i] : defaults[i];
		files[i].hopts = &hopts;
		files[i].strings = &strings;
		files[i].store = &store;
		files[i].nr_members = i ? 1 : o.cfg.nr_files;
	}
	/* perf opens every file first to see whether all recorded branch
	 * stacks, which -c cycles needs */
	for (int i = 0; i < o.cfg.nr_files; i++)
		if (setup_file(&files[i], &o) < 0)
			goto out;
	/* -c cycles and --stream need every file to hold branch stacks; without
	 * them perf stops silently */
	if (o.cfg.compute == DIFF_CYCLES || o.stream) {
		for (int i = 0; i < o.cfg.nr_files; i++)
			if (!perf_header__has_feat(&files[i].session->header, HEADER_BRANCH_STACK))
				goto out;
		fprintf(stderr, "pcl diff: %s is not supported yet\n",
			o.stream ? "--stream" : "-c cycles");
		goto out;
	}
	if (o.dump_raw) {
		fprintf(stderr, "pcl diff: -D is not supported yet\n");
		goto out;
	}
	if (o.time_str && setup_time(files, o.cfg.nr_files, o.time_str) < 0)
		goto out;
	for (int i = 0; i < o.cfg.nr_files; i++) {
		if (perf_session__process(files[i].session, &files[i].tool) < 0) {
			fprintf(stderr, "%s\nFailed to process %s\n", files[i].session->err,
				files[i].path);
			goto out;
		}
	}
	diff_columns__init(&cols, &o.cfg, o.show_period, o.show_formula);
	print_events(files, &o, &cols);
	ret = 0;
out:
	for (int i = 0; i < o.cfg.nr_files; i++) {
		for (int k = 0; k < files[i].nr_hists; k++)
			hists__delete(files[i].hists[k]);
		free(files[i].hists);
		sample_filter__exit(&files[i].filter);
		if (files[i].session)
			perf_session__delete(files[i].session);
	}
	free(files);
	callchain_store__exit(&store);
	strset_release(&strings);
	return ret;
}
