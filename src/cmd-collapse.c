/* pcl collapse: folded stacks ("comm;caller;...;leaf COUNT") from a
 * perf.data file, or from `perf script` text of any perf on stdin (a fast
 * stackcollapse-perf.pl). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "cmd-collapse.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/hist/stacks.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const collapse_usage[] = {
	"pcl collapse [<options>] [<file>]",
	"perf script | pcl collapse [<options>]",
	NULL
};

/* "PERFILE2" starts a perf.data file and a perf.data pipe stream. */
static bool is_perf_magic(const char *buf, size_t n)
{
	return n >= 8 && (!memcmp(buf, "PERFILE2", 8) || !memcmp(buf, "2ELIFREP", 8));
}

/* Whether stdin holds perf.data, looked at without consuming it: pipes
 * are peeked with tee(2), files read and rewound.  Anything else is text. */
static bool stdin_is_perf_data(void)
{
	char buf[8];
	ssize_t n = 0;
	off_t pos = lseek(0, 0, SEEK_CUR);
	int p[2];

	if (pos >= 0) {
		n = pread(0, buf, sizeof(buf), pos);
		return n > 0 && is_perf_magic(buf, (size_t)n);
	}
	if (pipe(p) < 0)
		return false;
	/* tee blocks until data arrives; the first bytes may come alone */
	for (int tries = 0; tries < 500 && n < (ssize_t)sizeof(buf); tries++) {
		ssize_t t = tee(0, p[1], sizeof(buf), 0);

		if (t <= 0)
			break;
		n = read(p[0], buf, (size_t)t);
		if (n < (ssize_t)sizeof(buf))
			usleep(2000);
	}
	close(p[0]);
	close(p[1]);
	return n > 0 && is_perf_magic(buf, (size_t)n);
}

static bool file_is_perf_data(const char *path)
{
	char buf[8];
	struct stat st;
	int fd;
	ssize_t n;

	/* a directory is perf's format of record --threads */
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return true;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return true;	/* let the session report the error */
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 && is_perf_magic(buf, (size_t)n);
}

const char *default_input(void)
{
	struct stat st;

	/* like perf, a pipe on stdin is the input; so is a redirected file */
	return !fstat(0, &st) && (S_ISFIFO(st.st_mode) || S_ISREG(st.st_mode)) ? "-" : "perf.data";
}

bool input_is_perf_data(const char *path)
{
	return strcmp(path, "-") ? file_is_perf_data(path) : stdin_is_perf_data();
}

struct stacks *stacks_from_perf_data(const char *cmd, const char *input,
				     const struct stacks_opts *o, bool keep_samples)
{
	struct stacks_stats stats;
	struct perf_session *s;
	struct stacks *st;
	char *err = NULL;

	s = perf_session__open(input, o->force, &err);
	if (!s) {
		fprintf(stderr, "pcl %s: %s\n", cmd, err);
		free(err);
		return NULL;
	}
	st = stacks__new(keep_samples);
	if (stacks__add_session(st, s, o, &stats, &err) < 0) {
		fprintf(stderr, "pcl %s: %s\n", cmd, err);
		free(err);
		free(stats.event_name);
		stacks__delete(st);
		perf_session__delete(s);
		return NULL;
	}
	if (stats.nr_other_event && !o->event && !o->off_cpu)
		fprintf(stderr, "pcl %s: using the samples of '%s' (pick another with --event)\n",
			cmd, stats.event_name);
	if (o->off_cpu && stats.nr_no_switch_in)
		fprintf(stderr, "pcl %s: %llu off-CPU periods have no switch-in and were left out "
			"(record with -a or --switch-events)\n", cmd,
			(unsigned long long)stats.nr_no_switch_in);
	if (!stats.nr_samples) {
		/* nothing to fold or draw: say so and fail, writing nothing */
		fprintf(stderr, "pcl %s: %s: no samples%s\n", cmd, input,
			stats.nr_filtered ? " left after filtering" : "");
		free(stats.event_name);
		stacks__delete(st);
		perf_session__delete(s);
		return NULL;
	}
	if (!stats.has_callchain)
		fprintf(stderr, "pcl %s: the samples have no callchains (record with -g): "
			"stacks are one frame deep\n", cmd);
	free(stats.event_name);
	perf_session__delete(s);
	return st;
}

/* Options shared by collapse and flamegraph for reading perf.data. */
int stacks_opts_apply(struct stacks_opts *o, struct sample_filter *f,
		      const struct stacks_filter_args *a)
{
	o->filter = f;
	sample_filter__add_names(f, &(struct sample_filter_names){
		.comms = a->comms, .dsos = a->dsos, .pids = a->pids, .tids = a->tids });
	if (a->cpus && sample_filter__set_cpus(f, a->cpus) < 0) {
		fprintf(stderr, "Invalid cpu_list: %s\n", a->cpus);
		return -1;
	}
	if (a->time && sample_filter__set_time(f, a->time) < 0) {
		fprintf(stderr, "Invalid time string: %s\n", a->time);
		return -1;
	}
	return 0;
}

bool stacks_filter_args_given(const struct stacks_filter_args *a)
{
	return a->comms || a->dsos || a->pids || a->tids || a->cpus || a->time;
}

FILE *open_private_output(const char *path)
{
	int fd;
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdout;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f)
		perror(path);
	return f;
}

static int write_and_free(const char *cmd, struct stacks *st, const char *output)
{
	FILE *out = open_private_output(output);
	int ret = 0;

	if (out && stacks__write_folded(st, out) < 0) {
		fprintf(stderr, "pcl %s: write error\n", cmd);
		ret = PCL_EXIT_ERROR;
	}
	if (!out)
		ret = PCL_EXIT_ERROR;
	else if (out != stdout)
		fclose(out);
	stacks__delete(st);
	return ret;
}

int folded_from_perf_data(const char *cmd, const char *input, struct stacks_opts *o,
			  const struct stacks_filter_args *fa, const char *output)
{
	struct sample_filter filter = { 0 };
	struct stacks *st;
	int ret = PCL_EXIT_ERROR;

	if (stacks_opts_apply(o, &filter, fa) == 0) {
		st = stacks_from_perf_data(cmd, input, o, false);
		if (st)
			ret = write_and_free(cmd, st, output);
	}
	sample_filter__exit(&filter);
	o->filter = NULL;
	return ret;
}

int cmd_collapse(int argc, const char **argv)
{
	struct stacks_opts o = { .max_stack = 127 };
	struct stacks_filter_args fa = { 0 };
	const char *input = NULL, *output = NULL;
	const struct option opts[] = {
		OPT_STRING('i', "input", &input, "file",
			   "perf.data or perf script text ('-': stdin; default: stdin when it "
			   "is a pipe, else perf.data)"),
		OPT_STRING('o', "output", &output, "file", "write the folded stacks here"),
		OPT_STRING(0, "event", &o.event, "name",
			   "use only this event's samples (default: as stackcollapse, the first "
			   "event a sample line names, and tracepoints)"),
		OPT_BOOLEAN(0, "off-cpu", &o.off_cpu,
			    "weight sched:sched_switch stacks by the time spent off CPU (ns)"),
		STACKS_FILTER_OPTIONS(fa),
		OPT_BOOLEAN(0, "include-pid", &o.include_pid,
			    "name processes comm-PID (stackcollapse --pid)"),
		OPT_BOOLEAN(0, "include-tid", &o.include_tid,
			    "name processes comm-PID/TID (stackcollapse --tid)"),
		OPT_BOOLEAN(0, "kernel", &o.annotate_kernel, "annotate kernel functions with _[k]"),
		OPT_INTEGER(0, "max-stack", &o.max_stack, "frames kept per callchain"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_END(),
	};
	struct stacks *st;
	int ret;

	argc = parse_options(argc, argv, opts, collapse_usage, 0);
	if (argc > 1)
		usage_with_options(collapse_usage, opts);
	if (argc == 1) {
		if (input)
			usage_error(collapse_usage, opts, "give the input once");
		input = argv[0];
	}
	if (!input)
		input = default_input();
	if (input_is_perf_data(input)) {
		ret = folded_from_perf_data("collapse", input, &o, &fa, output);
	} else {
		struct script_text_opts so = {
			.event_filter = o.event, .include_pid = o.include_pid,
			.include_tid = o.include_tid, .annotate_kernel = o.annotate_kernel,
		};
		FILE *in;
		char *err = NULL;

		if (stacks_filter_args_given(&fa) || o.off_cpu) {
			fprintf(stderr, "pcl collapse: filters and --off-cpu need perf.data input\n");
			return PCL_EXIT_ERROR;
		}
		in = strcmp(input, "-") ? fopen(input, "r") : stdin;
		if (!in) {
			perror(input);
			return PCL_EXIT_ERROR;
		}
		st = stacks__new(false);
		if (stacks__read_perf_script(st, in, &so, &err) < 0) {
			fprintf(stderr, "pcl collapse: %s: %s\n", input, err);
			free(err);
			stacks__delete(st);
			ret = PCL_EXIT_ERROR;
		} else if (!st->total) {
			/* stackcollapse prints nothing; an empty result is a mistake */
			fprintf(stderr, "pcl collapse: %s: no samples found (expected perf script "
				"output or perf.data)\n", input);
			stacks__delete(st);
			ret = PCL_EXIT_ERROR;
		} else {
			ret = write_and_free("collapse", st, output);
		}
		if (in != stdin)
			fclose(in);
	}
	return ret;
}
