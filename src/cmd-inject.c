/* pcl inject: a perf.data stream rewritten with build ids added (core/data/inject.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "core/data/guest-inject.h"
#include "core/data/inject.h"
#include "core/symbols/machine.h"
#include "itrace-opts.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const inject_usage[] = { "pcl inject [<options>]", NULL };

/* --vm-time-correlation updates AUX area timestamps in place: there is no
 * output file, and only an Intel PT trace has such timestamps. */
static int vm_time_correlation_only(const struct inject_opts *o, const char *how)
{
	if (strcmp(o->output, "-")) {
		fputs("Output file name must not be specified for in-place updating\n", stderr);
		return PCL_EXIT_ERROR;
	}
	if (strncmp(how, "dry-run", 7)) {
		fprintf(stderr, "--vm-time-correlation: %s holds no AUX area trace whose "
			"timestamps could be corrected (only Intel PT traces have them)\n", o->input);
		return PCL_EXIT_ERROR;
	}
	return 0;
}

static struct guest_data_spec guest_data;

static int parse_guest_data(const struct option *opt, const char *arg, bool unset)
{
	(void)opt;
	/* perf's callback ignores the negation: --no-guest-data leaves an
	 * earlier --guest-data in force */
	if (unset)
		return 0;
	guest_data_spec__release(&guest_data);
	if (guest_data_spec__parse(&guest_data, arg))
		return 0;
	fputs("--guest-data option requires guest perf.data file name, guest machine PID, and "
	      "optionally guest timestamp offset, and guest timestamp scale factor, separated by "
	      "commas.\n", stderr);
	return -1;
}

/* perf_inject()'s failure: perf's own lines as they are, else ours. */
static int inject_failed(int rc, char *err)
{
	size_t len = strlen(err);

	if (len && err[len - 1] == '\n') {
		fputs(err, stderr);
		free(err);
		return rc & 0xff;	/* perf exits with the low byte of its -errno */
	}
	fprintf(stderr, "pcl inject: %s\n", err);
	free(err);
	return PCL_EXIT_ERROR;
}

int cmd_inject(int argc, const char **argv)
{
	/* parse_options() compacts argv: the command line is kept first */
	const char **cmdline = memcpy(xcalloc((size_t)argc + 1, sizeof(*argv)), argv,
				      (size_t)argc * sizeof(*argv));
	struct inject_opts o = { .input = "-", .output = "-", .argc = argc, .argv = cmdline };
	const char *itrace = NULL, *vm_time_correlation = NULL, *guestmount = NULL, *bad_file;
	int verbose = 0, rc;
	char *err = NULL;
	const struct option opts[] = {
		OPT_BOOLEAN('b', "build-ids", &o.build_ids,
			    "Inject build-ids into the output stream"),
		OPT_BOOLEAN(0, "buildid-all", &o.buildid_all,
			    "Inject build-ids of all DSOs into the output stream"),
		OPT_BOOLEAN('j', "jit", &o.jit, "merge jitdump files into perf.data file"),
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_STRING('k', "vmlinux", &o.vmlinux, "file", "vmlinux pathname"),
		OPT_BOOLEAN(0, "ignore-vmlinux", &o.ignore_vmlinux,
			    "don't load vmlinux even if found"),
		OPT_STRING('o', "output", &o.output, "file", "output file name"),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose (show build ids, etc)"),
		OPT_BOOLEAN('s', "sched-stat", &o.sched_stat,
			    "Merge sched-stat and sched-switch for getting events where and how long "
			    "tasks slept"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		/* guests' DSOs are not resolved: their samples' build ids stay unknown */
		OPT_STRING(0, "guestmount", &guestmount, "directory", "guest mount directory under "
			   "which every guest os instance has a subdir"),
		OPT_STRING(0, "known-build-ids", &o.known_build_ids,
			   "buildid path [,buildid path...]", "build-ids to use for given paths"),
		OPT_STRING_OPTARG(0, "itrace", &itrace, "opts", ITRACE_HELP, ""),
		OPT_BOOLEAN(0, "strip", &o.strip, "strip non-synthesized events (use with --itrace)"),
		OPT_STRING_OPTARG(0, "vm-time-correlation", &vm_time_correlation, "opts",
				  "correlate time between VM guests and the host", ""),
		OPT_CALLBACK_OPTARG(0, "guest-data", NULL, "opts",
				    "inject events from a guest perf.data file", parse_guest_data,
				    NULL),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts, inject_usage, 0);
	if (argc)
		usage_with_options(inject_usage, opts);
	if (!itrace_opts_check(itrace, inject_usage[0])) {
		free(cmdline);
		return PCL_EXIT_USAGE;
	}
	o.itrace = itrace != NULL;
	if (o.strip && !o.itrace) {
		fputs("--strip option requires --itrace option\n", stderr);
		free(cmdline);
		return PCL_EXIT_ERROR;
	}
	if (vm_time_correlation) {
		free(cmdline);
		return vm_time_correlation_only(&o, vm_time_correlation);
	}
	if ((bad_file = symbol_files__unreadable(o.vmlinux, o.kallsyms))) {
		fprintf(stderr, "Invalid file: %s\n", bad_file);
		free(cmdline);
		return PCL_EXIT_ERROR;
	}
	o.verbose = verbose ? stderr : NULL;
	o.guest_data = guest_data.path ? &guest_data : NULL;
	rc = perf_inject(&o, &err);
	guest_data_spec__release(&guest_data);
	free(cmdline);
	return rc ? inject_failed(rc, err) : 0;
}
