/* pcl inject: a perf.data stream rewritten with build ids added (core/data/inject.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
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

int cmd_inject(int argc, const char **argv)
{
	/* parse_options() compacts argv: the command line is kept first */
	const char **cmdline = memcpy(xcalloc((size_t)argc + 1, sizeof(*argv)), argv,
				      (size_t)argc * sizeof(*argv));
	struct inject_opts o = { .input = "-", .output = "-", .argc = argc, .argv = cmdline };
	const char *itrace = NULL, *vm_time_correlation = NULL, *guestmount = NULL, *bad_file;
	int verbose = 0;
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
	if (perf_inject(&o, &err)) {
		fprintf(stderr, "pcl inject: %s\n", err);
		free(err);
		free(cmdline);
		return PCL_EXIT_ERROR;
	}
	free(cmdline);
	return 0;
}
