/* What pcl collapse shares with the other commands that fold stacks
 * (flamegraph, script --folded): reading perf.data into stacks with the
 * report-style filters, and telling perf.data from text input. */
#ifndef PCL_CMD_COLLAPSE_H
#define PCL_CMD_COLLAPSE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/hist/stacks.h"

struct sample_filter;

/* The filter options as given on the command line. */
struct stacks_filter_args {
	const char *comms, *pids, *tids, *dsos, *cpus, *time;
};

#define STACKS_FILTER_OPTIONS(fa) \
	OPT_STRING(0, "comm", &(fa).comms, "comm[,comm...]", \
		   "only consider samples of these comms"), \
	OPT_STRING(0, "pid", &(fa).pids, "pid[,pid...]", \
		   "only consider samples of these processes"), \
	OPT_STRING(0, "tid", &(fa).tids, "tid[,tid...]", \
		   "only consider samples of these threads"), \
	OPT_STRING(0, "dso", &(fa).dsos, "dso[,dso...]", \
		   "only consider samples whose ip is in these dsos"), \
	OPT_STRING('C', "cpu", &(fa).cpus, "cpu", "list of cpus to consider"), \
	OPT_STRING(0, "time", &(fa).time, "str", "Time span of interest (start,stop)")

/* Parses the filter options into f and points o->filter at it; prints and
 * returns -1 on a malformed one. */
int stacks_opts_apply(struct stacks_opts *o, struct sample_filter *f,
		      const struct stacks_filter_args *a);
bool stacks_filter_args_given(const struct stacks_filter_args *a);

/* "-" when stdin is a pipe or a file, else "perf.data". */
const char *default_input(void);

/* Whether path ("-": stdin, not consumed) starts like perf.data. */
bool input_is_perf_data(const char *path);

/* The output file (created 0600), or stdout for NULL or "-"; prints the
 * error and returns NULL when it cannot be opened. */
FILE *open_private_output(const char *path);

/* Reads a perf.data file into new stacks, printing errors and warnings
 * prefixed "pcl CMD: "; NULL on error. */
struct stacks *stacks_from_perf_data(const char *cmd, const char *input,
				     const struct stacks_opts *o, bool keep_samples);

/* Writes the folded stacks of a perf.data file to output (NULL: stdout);
 * returns the exit status. */
int folded_from_perf_data(const char *cmd, const char *input, struct stacks_opts *o,
			  const struct stacks_filter_args *fa, const char *output);

#endif
