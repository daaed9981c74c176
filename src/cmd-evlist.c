/* pcl evlist: the events recorded in a perf.data file. */
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "core/data/session.h"
#include "ui/attr-print.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

static const char *const evlist_usage[] = { "pcl evlist [<options>]", NULL };

struct evlist_opts {
	bool verbose, freq, group, trace_fields, force;
};

/* ": a, b" — perf's separator: a colon first, commas after. */
static void sep(FILE *fp, bool *first)
{
	fputs(*first ? ":" : ",", fp);
	*first = false;
}

static void verbose_field(FILE *fp, const char *name, const char *value, void *priv)
{
	sep(fp, priv);
	fprintf(fp, " %s: %s", name, value);
}

static void print_evsel(struct perf_session *s, struct evsel *evsel, const struct evlist_opts *o)
{
	bool first = true;

	if (o->group) {
		if (evsel->leader != evsel)
			return;
		if (evsel->nr_members > 1)
			printf("%s{", evsel->group_name ? evsel->group_name : "");
		fputs(evsel->name, stdout);
		for (struct evsel *m = evsel->next; m && m->leader == evsel; m = m->next)
			printf(",%s", m->name);
		if (evsel->nr_members > 1)
			putchar('}');
		putchar('\n');
		return;
	}
	fputs(evsel->name, stdout);
	if (o->verbose) {
		attr_print(stdout, &evsel->attr, verbose_field, &first);
	} else if (o->freq) {
		sep(stdout, &first);
		printf(" %s=%llu", evsel->attr.freq ? "sample_freq" : "sample_period",
		       (unsigned long long)evsel->attr.sample_period);
	}
	if (o->trace_fields) {
		struct tep_event *tp = perf_session__event(s, evsel)->tp_format;

		sep(stdout, &first);
		if (evsel->attr.type != PERF_TYPE_TRACEPOINT) {
			fputs(" (not a tracepoint)", stdout);
		} else if (!tp || !tp->format.fields) {
			fputs(" (no trace field)", stdout);
		} else {
			fputs(" trace_fields: ", stdout);
			for (struct tep_format_field *f = tp->format.fields; f; f = f->next)
				printf("%s%s", f->name, f->next ? "," : "");
		}
	}
	putchar('\n');
}

int cmd_evlist(int argc, const char **argv)
{
	struct evlist_opts o = { 0 };
	const char *input = NULL;
	const struct option opts[] = {
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_BOOLEAN('F', "freq", &o.freq, "Show the sample frequency"),
		OPT_BOOLEAN('g', "group", &o.group, "Show event group information"),
		OPT_STRING('i', "input", &input, "file", "Input file name"),
		OPT_BOOLEAN('v', "verbose", &o.verbose, "Show all event attr details"),
		OPT_BOOLEAN(0, "trace-fields", &o.trace_fields, "Show tracepoint fields"),
		OPT_END(),
	};
	struct perf_session *s;
	bool has_tracepoint = false;
	char *err = NULL;

	argc = parse_options(argc, argv, opts, evlist_usage, 0);
	if (argc)
		usage_with_options(evlist_usage, opts);
	if (o.group && (o.verbose || o.freq))
		usage_error(evlist_usage, opts, "--group option is not compatible with other options");
	if (!input)
		input = perf_data__default_path(false);
	s = perf_session__open(input, o.force, &err);
	if (!s) {
		session_warnings__open_failed(input, err);
		free(err);
		return PCL_EXIT_ERROR;	/* perf's status for a file it cannot read */
	}
	/* a pipe announces its events in the stream */
	if (s->is_pipe) {
		struct perf_tool tool = { 0 };	/* only the events: no callbacks */

		if (perf_session__process(s, &tool) < 0) {
			fprintf(stderr, "pcl evlist: %s\n", s->err);
			perf_session__delete(s);
			return PCL_EXIT_FAILURE;
		}
	}
	evlist__for_each(&s->evlist, pos) {
		print_evsel(s, pos, &o);
		if (pos->attr.type == PERF_TYPE_TRACEPOINT)
			has_tracepoint = true;
	}
	if (has_tracepoint && !o.trace_fields)
		printf("# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint events\n");
	perf_session__delete(s);
	return 0;
}
