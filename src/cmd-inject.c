/* pcl inject: a perf.data stream rewritten with build ids added (core/data/inject.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "core/data/inject.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const inject_usage[] = { "pcl inject [<options>]", NULL };

int cmd_inject(int argc, const char **argv)
{
	/* parse_options() compacts argv: the command line is kept first */
	const char **cmdline = memcpy(xcalloc((size_t)argc + 1, sizeof(*argv)), argv,
				      (size_t)argc * sizeof(*argv));
	struct inject_opts o = { .input = "-", .output = "-", .argc = argc, .argv = cmdline };
	int verbose = 0;
	char *err = NULL;
	const struct option opts[] = {
		OPT_BOOLEAN('b', "build-ids", &o.build_ids,
			    "Inject build-ids into the output stream"),
		OPT_BOOLEAN(0, "buildid-all", &o.buildid_all,
			    "Inject build-ids of all DSOs into the output stream"),
		OPT_BOOLEAN('j', "jit", &o.jit, "merge jitdump files into perf.data file"),
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_STRING('o', "output", &o.output, "file", "output file name"),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose (show build ids, etc)"),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts, inject_usage, 0);
	if (argc)
		usage_with_options(inject_usage, opts);
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
