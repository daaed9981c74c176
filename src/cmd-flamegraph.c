/* pcl flamegraph: perf.data (or folded stacks) -> an interactive SVG flame
 * graph, or a self-contained HTML page with a heat map; differential and
 * off-CPU graphs too.  The one-step replacement of
 * `perf script | stackcollapse-perf.pl | flamegraph.pl`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "builtin.h"
#include "cmd-collapse.h"
#include "core/data/sample-filter.h"
#include "core/hist/stacks.h"
#include "ui/flame-colors.h"
#include "ui/flamegraph-html.h"
#include "ui/flamegraph-svg.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const flamegraph_usage[] = {
	"pcl flamegraph [<options>] [<perf.data or folded file>]",
	"pcl flamegraph --diff [<options>] <base> <new>",
	NULL
};

struct flamegraph_args {
	struct stacks_opts so;
	struct sample_filter filter;
	struct stacks_filter_args fa;
	struct flamegraph_opts fo;
	const char *input, *output, *folded, *format, *colors, *minwidth;
	bool diff, reverse, normalize, html, folded_out;
};

static int opt_double(const struct option *opt, const char *arg, bool unset)
{
	char *end;
	double v;

	if (unset || !arg)
		return -1;
	v = strtod(arg, &end);
	if (end == arg || *end)
		return -1;
	*(double *)opt->value = v;
	return 0;
}

/* Stacks from perf.data or folded text, whichever path holds. */
static struct stacks *load(struct flamegraph_args *a, const char *path, bool folded,
			   bool keep_samples)
{
	struct stacks *st;
	FILE *in;
	char *err = NULL;

	if (!folded && input_is_perf_data(path))
		return stacks_from_perf_data("flamegraph", path, &a->so, keep_samples);
	if (stacks_filter_args_given(&a->fa) || a->so.off_cpu || a->so.event) {
		fprintf(stderr, "pcl flamegraph: %s: filters, --event and --off-cpu need "
			"perf.data input\n", path);
		return NULL;
	}
	in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!in) {
		perror(path);
		return NULL;
	}
	st = stacks__new(keep_samples);
	if (stacks__read_folded(st, in, false, &err) < 0) {
		fprintf(stderr, "pcl flamegraph: %s: %s\n", path, err);
		free(err);
		stacks__delete(st);
		st = NULL;
	} else if (!st->total) {
		/* no picture of nothing: flamegraph.pl fails too */
		fprintf(stderr, "pcl flamegraph: %s: no stacks found (the input is empty)\n",
			path);
		stacks__delete(st);
		st = NULL;
	}
	if (in != stdin)
		fclose(in);
	return st;
}

static int parse_minwidth(struct flamegraph_opts *fo, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || v < 0)
		return -1;
	if (*end == '%') {
		fo->minwidth_percent = true;
		end++;
	}
	if (*end)
		return -1;
	fo->minwidth = v;
	return 0;
}

static bool ends_with_ci(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcasecmp(s + n - m, suffix);
}

/* Chooses output, format and the defaults that depend on the data. */
static int settle(struct flamegraph_args *a, const struct option *opts)
{
	if (!a->output)
		a->output = isatty(1) ? "flamegraph.svg" : "-";
	if (a->format) {
		if (strcmp(a->format, "svg") && strcmp(a->format, "html") &&
		    strcmp(a->format, "folded"))
			usage_error(flamegraph_usage, opts, "--format is svg, html or folded");
		a->html = !strcmp(a->format, "html");
		a->folded_out = !strcmp(a->format, "folded");
	} else {
		a->html = ends_with_ci(a->output, ".html") || ends_with_ci(a->output, ".htm");
	}
	if (a->so.off_cpu) {
		/* off-CPU time is in nanoseconds; blue is the usual off-CPU look */
		if (!a->fo.countname)
			a->fo.countname = "ns";
		if (!a->colors)
			a->colors = "io";
		if (!a->fo.title && !a->fo.inverted && !a->fo.flamechart)
			a->fo.title = "Off-CPU Time Flame Graph";
	}
	if (!a->fo.countname)
		a->fo.countname = "samples";
	a->fo.palette = flame_palette(a->colors ? a->colors : "hot");
	if (a->fo.palette < 0) {
		fprintf(stderr, "pcl flamegraph: unknown palette '%s' (choose from %s)\n",
			a->colors, flame_palette_names());
		return -1;
	}
	if (a->minwidth && parse_minwidth(&a->fo, a->minwidth) < 0) {
		fprintf(stderr, "pcl flamegraph: bad --minwidth '%s' (pixels, or N%%)\n",
			a->minwidth);
		return -1;
	}
	if (a->fo.width < 100 || a->fo.frame_height < 4 || a->fo.fontsize < 1 ||
	    a->fo.fontwidth <= 0) {
		fprintf(stderr, "pcl flamegraph: --width >= 100, --height >= 4, --fontsize >= 1 "
			"and --fontwidth > 0 please\n");
		return -1;
	}
	if (a->diff && a->fo.flamechart) {
		fprintf(stderr, "pcl flamegraph: --diff and --flamechart do not go together\n");
		return -1;
	}
	return 0;
}

static struct stacks *build(struct flamegraph_args *a, int argc, const char **argv)
{
	bool keep = a->html || a->fo.flamechart;
	struct stacks *st, *t;

	if (a->diff) {
		struct stacks *base = load(a, argv[0], false, false);

		st = base ? load(a, argv[1], false, keep) : NULL;
		if (st) {
			stacks__merge_base(st, base);
			if (a->normalize)
				stacks__normalize_base(st);
		}
		stacks__delete(base);
	} else if (a->folded) {
		st = load(a, a->folded, true, keep);
	} else {
		st = load(a, a->input ? a->input : argc ? argv[0] : default_input(), false, keep);
	}
	if (st && a->reverse) {
		t = stacks__reversed(st);
		stacks__delete(st);
		st = t;
	}
	if (st && a->fo.flamechart) {
		t = stacks__chart(st);
		stacks__delete(st);
		st = t;
	}
	return st;
}

int cmd_flamegraph(int argc, const char **argv)
{
	struct flamegraph_args a = { .so = { .max_stack = 127 } };
	const struct option opts[] = {
		OPT_GROUP("Input"),
		OPT_STRING('i', "input", &a.input, "file",
			   "perf.data or folded stacks (default: stdin when it is a pipe, else "
			   "perf.data)"),
		OPT_STRING(0, "folded", &a.folded, "file",
			   "folded stacks 'a;b;c COUNT' from any tool ('-': stdin)"),
		OPT_BOOLEAN(0, "diff", &a.diff,
			    "differential graph of two profiles: <base> <new> (perf.data or folded)"),
		OPT_BOOLEAN(0, "negate", &a.fo.negate, "diff: blue for growth, red for shrinkage"),
		OPT_BOOLEAN(0, "normalize", &a.normalize, "diff: scale the base to the new total"),
		OPT_BOOLEAN(0, "off-cpu", &a.so.off_cpu,
			    "weight sched:sched_switch stacks by the time off CPU"),
		OPT_STRING(0, "event", &a.so.event, "name",
			   "use only this event's samples (default: as stackcollapse, the first "
			   "event a sample line names, and tracepoints)"),
		STACKS_FILTER_OPTIONS(a.fa),
		OPT_BOOLEAN(0, "include-pid", &a.so.include_pid, "name processes comm-PID"),
		OPT_BOOLEAN(0, "include-tid", &a.so.include_tid, "name processes comm-PID/TID"),
		OPT_BOOLEAN(0, "kernel", &a.so.annotate_kernel,
			    "annotate kernel functions with _[k]"),
		OPT_INTEGER(0, "max-stack", &a.so.max_stack, "frames kept per callchain"),
		OPT_STRING(0, "kallsyms", &a.so.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING(0, "symfs", &a.so.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_BOOLEAN('f', "force", &a.so.force, "don't complain, do it"),
		OPT_GROUP("Output"),
		OPT_STRING('o', "output", &a.output, "file",
			   "out.svg or out.html ('-': stdout; default: stdout when not a terminal, "
			   "else flamegraph.svg)"),
		OPT_STRING(0, "format", &a.format, "svg|html|folded",
			   "output format (default: by extension); folded writes the stacks "
			   "(with --diff: 'stack BASE NEW', like difffolded.pl)"),
		OPT_STRING(0, "title", &a.fo.title, "text", "change the title text"),
		OPT_STRING(0, "subtitle", &a.fo.subtitle, "text", "second level title"),
		OPT_INTEGER(0, "width", &a.fo.width, "width of the image (default 1200)"),
		OPT_INTEGER(0, "height", &a.fo.frame_height, "height of each frame (default 16)"),
		OPT_STRING(0, "minwidth", &a.minwidth, "px|N%",
			   "omit smaller functions (default 0.1 pixels)"),
		OPT_STRING(0, "fonttype", &a.fo.fonttype, "font", "font type (default Verdana)"),
		{ .type = OPT_CALLBACK_T, .long_name = "fontsize", .value = &a.fo.fontsize,
		  .argh = "n", .help = "font size (default 12)", .callback = opt_double },
		{ .type = OPT_CALLBACK_T, .long_name = "fontwidth", .value = &a.fo.fontwidth,
		  .argh = "n", .help = "font width (default 0.59)", .callback = opt_double },
		OPT_STRING(0, "countname", &a.fo.countname, "name",
			   "count type label (default samples)"),
		OPT_STRING(0, "nametype", &a.fo.nametype, "text",
			   "name type label (default \"Function:\")"),
		OPT_STRING(0, "colors", &a.colors, "palette",
			   "hot (default), mem, io, wakeup, chain, java, js, perl, red, green, "
			   "blue, aqua, yellow, purple, orange"),
		OPT_BOOLEAN(0, "hash", &a.fo.hash, "colors are keyed by function name hash"),
		OPT_BOOLEAN(0, "reverse", &a.reverse, "generate stack-reversed flame graph"),
		OPT_BOOLEAN(0, "inverted", &a.fo.inverted, "icicle graph"),
		OPT_BOOLEAN(0, "flamechart", &a.fo.flamechart,
			    "produce a flame chart (sort by time, do not merge stacks)"),
		OPT_STRING(0, "notes", &a.fo.notes, "text", "add notes comment in SVG (for debugging)"),
		OPT_STRING(0, "search", &a.fo.search, "regex", "highlight these frames from the start"),
		OPT_END(),
	};
	struct stacks *st;
	FILE *out;
	int ret = 0;

	flamegraph_opts__init(&a.fo);
	a.fo.countname = NULL;	/* the default depends on --off-cpu */
	argc = parse_options(argc, argv, opts, flamegraph_usage, 0);
	if (a.diff ? argc != 2 || a.input || a.folded :
		     argc > 1 || (argc == 1 && (a.input || a.folded)))
		usage_error(flamegraph_usage, opts, a.diff ? "--diff takes two files: <base> <new>" :
			    "give one input");
	if (settle(&a, opts) < 0 || stacks_opts_apply(&a.so, &a.filter, &a.fa) < 0) {
		sample_filter__exit(&a.filter);
		return PCL_EXIT_ERROR;
	}
	st = build(&a, argc, argv);
	if (!st) {
		ret = PCL_EXIT_ERROR;
		goto out;
	}
	out = open_private_output(a.output);
	if (!out) {
		ret = PCL_EXIT_ERROR;
		goto out;
	}
	if ((a.folded_out ? stacks__write_folded(st, out) :
	     a.html ? flamegraph_html_write(out, st, &a.fo) :
		      flamegraph_svg_write(out, st, &a.fo)) < 0) {
		fprintf(stderr, "pcl flamegraph: %s: write error\n", a.output);
		ret = PCL_EXIT_ERROR;
	}
	if (out != stdout)
		fclose(out);
	if (!ret && out != stdout && isatty(2))
		fprintf(stderr, "pcl flamegraph: wrote %s\n", a.output);
out:
	stacks__delete(st);
	sample_filter__exit(&a.filter);
	return ret;
}
