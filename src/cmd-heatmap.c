/* pcl heatmap: latency heat maps (x = time, y = latency, colour = count)
 * from perf.data, pairing a start and an end event or reading a duration
 * field, or from "time latency" text: the one-step replacement of
 * `perf script | awk ... | trace2heatmap.pl`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "builtin.h"
#include "cmd-collapse.h"
#include "core/analysis/heatmap.h"
#include "core/data/session.h"
#include "ui/heatmap-html.h"
#include "ui/heatmap-svg.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const heatmap_usage[] = {
	"pcl heatmap [-i perf.data] --start EVENT [--end EVENT] [--key FIELD,...] [<options>]",
	"pcl heatmap [-i perf.data] --start EVENT --latency-field FIELD [<options>]",
	"pcl heatmap -i FILE.txt [<options>]      (lines of 'time latency')",
	NULL
};

struct heatmap_args {
	struct heatmap_source src;
	struct heatmap_draw_opts draw;
	const char *input, *output, *format, *colors, *unitstime;
	const char *stepsec, *minlat, *maxlat;
	const char *field_spec;		/* --latency-field FIELD[:UNIT] */
	char *field_name;		/* FIELD, owned */
	int rows;
	bool force;
};

/* A number option given as text; false (and a message) if it is not one. */
static bool number_arg(const char *name, const char *text, double *out)
{
	char *end;

	if (!text)
		return true;
	*out = strtod(text, &end);
	if (end != text && !*end && isfinite(*out))
		return true;
	fprintf(stderr, "pcl heatmap: --%s wants a number, not '%s'\n", name, text);
	return false;
}

static bool ends_with_ci(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcasecmp(s + n - m, suffix);
}

static int read_events(struct heatmap_args *a, struct heatmap_events *e)
{
	char *err = NULL;
	int ret = 0;

	if (!input_is_perf_data(a->input)) {
		FILE *in = strcmp(a->input, "-") ? fopen(a->input, "r") : stdin;
		double unit = heatmap_unit_seconds(a->unitstime);

		if (a->src.start) {
			fprintf(stderr, "pcl heatmap: %s: --start needs perf.data input\n",
				a->input);
			return -1;
		}
		if (!unit) {
			fprintf(stderr, "pcl heatmap: --unitstime is s, ms, us or ns\n");
			return -1;
		}
		if (!in) {
			perror(a->input);
			return -1;
		}
		ret = heatmap_events__read_text(e, in, unit, &err);
		if (in != stdin)
			fclose(in);
	} else {
		struct perf_session *s;

		if (!a->src.start) {
			fprintf(stderr, "pcl heatmap: %s: which events? give --start (see "
				"pcl heatmap -h)\n", a->input);
			return -1;
		}
		s = perf_session__open(a->input, a->force, &err);
		if (!s) {	/* the message names the file */
			fprintf(stderr, "pcl heatmap: %s\n", err);
			free(err);
			return -1;
		}
		ret = heatmap_events__from_session(e, s, &a->src, &err);
		perf_session__delete(s);
	}
	if (ret < 0) {
		fprintf(stderr, "pcl heatmap: %s: %s\n", a->input, err);
		free(err);
	}
	return ret;
}

/* --latency-field FIELD[:UNIT]: the field's unit, nanoseconds when none is given. */
static int split_field_unit(struct heatmap_args *a)
{
	const char *colon = strchr(a->field_spec, ':');
	double seconds = colon ? heatmap_unit_seconds(colon + 1) : 1e-9;

	if (!seconds || colon == a->field_spec) {
		fprintf(stderr, "pcl heatmap: --latency-field is FIELD or FIELD:UNIT, the unit "
			"s, ms, us or ns (got '%s')\n", a->field_spec);
		return -1;
	}
	a->field_name = colon ? xstrndup(a->field_spec, (size_t)(colon - a->field_spec)) :
				xstrdup(a->field_spec);
	a->src.latency_field = a->field_name;
	a->src.field_ns = seconds * 1e9;
	return 0;
}

/* Checks the options and fills the derived settings. */
static int settle(struct heatmap_args *a, struct heatmap_grid_opts *go)
{
	double lat_seconds = heatmap_unit_seconds(a->draw.unitslat);

	if (!lat_seconds) {
		fprintf(stderr, "pcl heatmap: --unitslat is s, ms, us or ns\n");
		return -1;
	}
	a->src.units_per_ns = 1e-9 / lat_seconds;
	if (a->field_spec && split_field_unit(a) < 0)
		return -1;
	a->draw.palette = heatmap_palette(a->colors);
	if (a->draw.palette < 0) {
		fprintf(stderr, "pcl heatmap: unknown --colors '%s' (choose from %s)\n",
			a->colors, heatmap_palette_names());
		return -1;
	}
	if (a->draw.boxsize < 1 || a->rows < 1 || a->draw.cell_events < 1) {
		fprintf(stderr, "pcl heatmap: --boxsize, --rows and --cell-events must be at "
			"least 1\n");
		return -1;
	}
	go->rows = a->rows;
	if (!number_arg("stepsec", a->stepsec, &go->stepsec) ||
	    !number_arg("minlat", a->minlat, &go->minlat) ||
	    !number_arg("maxlat", a->maxlat, &go->maxlat))
		return -1;
	if (a->src.latency_field && (a->src.end || a->src.keys)) {
		fprintf(stderr, "pcl heatmap: --latency-field reads single events: no --end "
			"or --key\n");
		return -1;
	}
	if (a->src.start && a->src.end && !strcmp(a->src.start, a->src.end)) {
		fprintf(stderr, "pcl heatmap: --start and --end name the same event\n");
		return -1;
	}
	if (a->format && strcmp(a->format, "svg") && strcmp(a->format, "html")) {
		fprintf(stderr, "pcl heatmap: --format is svg or html\n");
		return -1;
	}
	return 0;
}

static int write_map(struct heatmap_args *a, const struct heatmap_events *e,
		     const struct heatmap_grid *g)
{
	bool html = a->format ? !strcmp(a->format, "html") :
		    ends_with_ci(a->output, ".html") || ends_with_ci(a->output, ".htm");
	FILE *out = open_private_output(a->output);
	int ret;

	if (!out)
		return -1;
	ret = html ? heatmap_html_write(out, e, g, &a->draw) :
		     heatmap_svg_write(out, e, g, &a->draw);
	if (ret < 0)
		fprintf(stderr, "pcl heatmap: %s: write error\n", a->output);
	if (out != stdout)
		fclose(out);
	return ret;
}

int cmd_heatmap(int argc, const char **argv)
{
	struct heatmap_args a = {
		.draw = { .title = "Latency Heat Map", .unitslat = "us", .boxsize = 8,
			  .cell_events = 100 },
		.src = { .max_stack = 127 },
		.colors = "reds", .unitstime = "us", .rows = 50, .stepsec = "1",
	};
	const struct option opts[] = {
		OPT_GROUP("Input"),
		OPT_STRING('i', "input", &a.input, "file",
			   "perf.data, or text of 'time latency' lines ('-': stdin; default: "
			   "stdin when it is a pipe, else perf.data)"),
		OPT_STRING(0, "start", &a.src.start, "event",
			   "the event that starts an operation, e.g. block:block_rq_issue"),
		OPT_STRING(0, "end", &a.src.end, "event",
			   "the event that ends it (default for syscalls:sys_enter_X: "
			   "sys_exit_X; raw_syscalls:sys_enter: sys_exit)"),
		OPT_STRING(0, "key", &a.src.keys, "field[,field...]",
			   "pair start and end by these fields (default: by thread)"),
		OPT_STRING(0, "latency-field", &a.field_spec, "field[:unit]",
			   "single events: this field holds the duration (unit s, ms, us "
			   "or ns; default ns)"),
		OPT_INTEGER(0, "max-stack", &a.src.max_stack, "frames kept per callchain (HTML)"),
		OPT_BOOLEAN('f', "force", &a.force, "don't complain, do it"),
		OPT_GROUP("Heat map (trace2heatmap.pl's options)"),
		OPT_STRING(0, "unitstime", &a.unitstime, "s|ms|us|ns",
			   "text input: the unit of the time column (default us)"),
		OPT_STRING(0, "unitslat", &a.draw.unitslat, "s|ms|us|ns",
			   "the latency unit (text input: of its latency column; default us)"),
		OPT_STRING(0, "minlat", &a.minlat, "n", "lowest latency shown (default 0)"),
		OPT_STRING(0, "maxlat", &a.maxlat, "n",
			   "highest latency shown (default: the highest seen)"),
		OPT_STRING(0, "stepsec", &a.stepsec, "n", "seconds per column (default 1)"),
		OPT_INTEGER(0, "rows", &a.rows, "latency rows (default 50)"),
		OPT_GROUP("Output"),
		OPT_STRING('o', "output", &a.output, "file",
			   "out.svg or out.html ('-': stdout; default: stdout when not a "
			   "terminal, else heatmap.svg)"),
		OPT_STRING(0, "format", &a.format, "svg|html", "output format (default: by extension)"),
		OPT_STRING(0, "title", &a.draw.title, "text", "change the title text"),
		OPT_INTEGER(0, "boxsize", &a.draw.boxsize, "pixels per cell side (default 8)"),
		OPT_STRING(0, "colors", &a.colors, "palette", "reds (default), blues, greens, greys"),
		OPT_INTEGER(0, "cell-events", &a.draw.cell_events,
			    "HTML: events listed per cell (default 100; the flame graph "
			    "counts them all)"),
		OPT_END(),
	};
	struct heatmap_grid_opts go = { .maxlat = -1 };
	struct heatmap_events e;
	struct heatmap_grid g = { 0 };
	char *err = NULL;
	int ret = PCL_EXIT_ERROR;

	argc = parse_options(argc, argv, opts, heatmap_usage, 0);
	if (argc > 1 || (argc == 1 && a.input))
		usage_error(heatmap_usage, opts, "give one input");
	if (argc == 1)
		a.input = argv[0];
	if (!a.input)
		a.input = default_input();
	if (!a.output)
		a.output = isatty(1) ? "heatmap.svg" : "-";
	/* stacks are listed by the HTML page only */
	a.src.stacks = a.format ? !strcmp(a.format, "html") :
		       ends_with_ci(a.output, ".html") || ends_with_ci(a.output, ".htm");
	heatmap_events__init(&e);
	if (settle(&a, &go) < 0)
		goto out;
	if (read_events(&a, &e) < 0)
		goto out;
	if (!e.nr) {
		fprintf(stderr, "pcl heatmap: %s: no latencies found\n", a.input);
		goto out;
	}
	if (heatmap_grid__build(&g, &e, &go, &err) < 0) {
		fprintf(stderr, "pcl heatmap: %s\n", err);
		free(err);
		goto out;
	}
	if (write_map(&a, &e, &g) == 0)
		ret = 0;
	if (!ret && strcmp(a.output, "-") && isatty(2))
		fprintf(stderr, "pcl heatmap: wrote %s (%zu latencies)\n", a.output, e.nr);
out:
	heatmap_grid__exit(&g);
	heatmap_events__exit(&e);
	free(a.field_name);
	return ret;
}
