/* pcl data convert: perf.data into other formats (perf's JSON and CTF, pprof, speedscope). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "core/data/session.h"
#include "ui/data-json.h"
#include "ui/export-ctf.h"
#include "ui/export-pprof.h"
#include "ui/export-speedscope.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

/* convert is data's only sub-command, so both print this usage, as perf's do */
static const char *const convert_usage[] = {
	"pcl data convert [<options>]",
	NULL
};

struct convert_opts {
	const char *input, *to_json, *to_ctf, *to_pprof, *to_speedscope;
	bool force, all, tod;
	int verbose;
	struct data_json_opts json;
};

/* An output format: its writer, and the words of its messages. */
struct convert_format {
	const char *what;	/* "JSON data" */
	int (*write)(FILE *out, struct perf_session *s, const struct convert_opts *o,
		     struct export_summary *sum, char **err);
};

static int write_json(FILE *out, struct perf_session *s, const struct convert_opts *o,
		      struct export_summary *sum, char **err)
{
	return data_json_write(out, s, &o->json, &sum->nr_samples, err);
}

static int write_pprof(FILE *out, struct perf_session *s, const struct convert_opts *o,
		       struct export_summary *sum, char **err)
{
	(void)o;
	return pprof_write(out, s, sum, err);
}

static int write_speedscope(FILE *out, struct perf_session *s, const struct convert_opts *o,
			    struct export_summary *sum, char **err)
{
	(void)o;
	return speedscope_write(out, s, sum, err);
}

static const struct convert_format json_format = { "JSON data", write_json };
static const struct convert_format pprof_format = { "pprof profile", write_pprof };
static const struct convert_format speedscope_format = { "speedscope profiles",
							 write_speedscope };

static int convert(const struct convert_opts *o, const struct convert_format *format,
		   const char *path)
{
	struct export_summary sum = { 0 };
	struct perf_session *s;
	struct stat st;
	char *err = NULL;
	FILE *out;
	long size;
	int ret;

	if (!o->force && !stat(path, &st)) {
		fprintf(stderr, "Output file exists. Use --force to overwrite it.\n");
		return PCL_EXIT_ERROR;
	}
	s = perf_session__open(o->input, o->force, &err);
	if (!s) {
		/* err is "path: reason": perf's two lines for a missing file */
		session_warnings__open_failed(o->input, err);
		fputs("Error creating perf session!\n", stderr);
		free(err);
		return PCL_EXIT_ERROR;
	}
	out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "pcl data convert: %s: %s\n", path, strerror(errno));
		perf_session__delete(s);
		return PCL_EXIT_ERROR;
	}
	perf_session__new_machine(s, NULL, NULL, o->force);
	ret = format->write(out, s, o, &sum, &err);
	size = ftell(out);
	if (fclose(out) && !ret) {
		fprintf(stderr, "pcl data convert: %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	if (ret) {
		perf_session__delete(s);
		unlink(path);	/* no half-written file for a viewer to choke on */
		fprintf(stderr, "pcl data convert: %s\n", err);
		free(err);
		return PCL_EXIT_ERROR;
	}
	fprintf(stderr, "[ pcl data convert: Converted '%s' into %s '%s' ]\n",
		o->input, format->what, path);
	if (sum.nr_skipped)
		fprintf(stderr, "[ pcl data convert: %s samples only, %llu samples of other "
			"events left out ]\n", sum.event, (unsigned long long)sum.nr_skipped);
	fprintf(stderr, "[ pcl data convert: Converted and wrote %.3f MB (%llu samples) ]\n",
		size / 1024.0 / 1024.0, (unsigned long long)sum.nr_samples);
	perf_session__delete(s);
	return PCL_EXIT_OK;
}

/* --to-ctf: a trace directory, written over whatever is there (perf does
 * not ask for -f either). */
static int convert_ctf(const struct convert_opts *o)
{
	struct ctf_opts ctf = { .all = o->all, .tod = o->tod };
	struct ctf_summary sum = { 0 };
	struct perf_session *s;
	char *err = NULL;
	int ret;

	s = perf_session__open(o->input, o->force, &err);
	if (!s) {
		/* perf's words: a file it cannot open, or one it cannot read */
		if (access(o->input, R_OK))
			fprintf(stderr, "failed to open %s: %s\n", o->input, strerror(errno));
		else
			fprintf(stderr, "incompatible file format (rerun with -v to learn more)\n");
		free(err);
		return PCL_EXIT_ERROR;
	}
	perf_session__new_machine(s, NULL, NULL, o->force);
	ret = ctf_write(o->to_ctf, s, &ctf, &sum);
	perf_session__delete(s);
	if (ret < 0)
		return PCL_EXIT_ERROR;
	fprintf(stderr, "[ pcl data convert: Converted '%s' into CTF data '%s' ]\n", o->input,
		o->to_ctf);
	fprintf(stderr, "[ pcl data convert: Converted and wrote %.3f MB (%llu samples",
		sum.bytes / 1024.0 / 1024.0, (unsigned long long)sum.nr_samples);
	if (o->all)
		fprintf(stderr, ", %llu non-samples", (unsigned long long)sum.nr_non_samples);
	fprintf(stderr, ") ]\n");
	return ret ? PCL_EXIT_ERROR : PCL_EXIT_OK;	/* a stream failed to flush */
}

static int cmd_data_convert(int argc, const char **argv)
{
	struct convert_opts o = { .input = "perf.data" };
	const struct option opts[] = {
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_INCR('v', "verbose", &o.verbose, "be more verbose"),
		OPT_BOOLEAN(0, "all", &o.all, "Convert all events (CTF only)"),
		OPT_STRING(0, "to-ctf", &o.to_ctf, "dir", "Convert to CTF format"),
		OPT_STRING(0, "to-json", &o.to_json, "file", "Convert to JSON format"),
		OPT_STRING(0, "to-pprof", &o.to_pprof, "file",
			   "Convert to a gzipped pprof profile (profile.proto)"),
		OPT_STRING(0, "to-speedscope", &o.to_speedscope, "file",
			   "Convert to speedscope's JSON format"),
		OPT_BOOLEAN(0, "tracepoint-fields", &o.json.tracepoint_fields,
			    "add tracepoint fields to the JSON samples (perf 6.1 leaves them out)"),
		OPT_BOOLEAN(0, "tod", &o.tod, "Convert time to wall clock time (CTF only)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, convert_usage, 0);
	if (argc)
		usage_with_options(convert_usage, opts);
	if (o.to_json && o.to_ctf) {
		fprintf(stderr, "You cannot specify both --to-ctf and --to-json.\n");
		return PCL_EXIT_ERROR;
	}
	if (o.to_ctf)
		return convert_ctf(&o);
	if (!!o.to_json + !!o.to_pprof + !!o.to_speedscope > 1) {
		fprintf(stderr, "pcl data convert: give one of --to-json, --to-pprof and "
			"--to-speedscope\n");
		return PCL_EXIT_ERROR;
	}
	if (o.to_pprof)
		return convert(&o, &pprof_format, o.to_pprof);
	if (o.to_speedscope)
		return convert(&o, &speedscope_format, o.to_speedscope);
	if (!o.to_json) {
		fprintf(stderr, "You must specify one of --to-ctf or --to-json.\n");
		return PCL_EXIT_ERROR;
	}
	/* as perf 6.1: these shape CTF output only */
	if (o.all) {
		fprintf(stderr, "--all is currently unsupported for JSON output.\n");
		return PCL_EXIT_ERROR;
	}
	if (o.tod) {
		fprintf(stderr, "--tod is currently unsupported for JSON output.\n");
		return PCL_EXIT_ERROR;
	}
	return convert(&o, &json_format, o.to_json);
}

int cmd_data(int argc, const char **argv)
{
	const struct option opts[] = { OPT_END() };

	argc = parse_options(argc, argv, opts, convert_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc >= 1 && strcmp(argv[0], "convert")) {
		fprintf(stderr, "Unknown command: %s\n", argv[0]);
		usage_with_options(convert_usage, opts);
	}
	if (argc < 1)
		usage_with_options(convert_usage, opts);
	return cmd_data_convert(argc, argv);
}
