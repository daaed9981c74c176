/* pcl: main(), the command table, help and version (the git.c / perf.c shape). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

const struct pcl_cmd pcl_commands[] = {
	{ "annotate",	cmd_annotate,	"Read perf.data (created by perf record) and display annotated code" },
	{ "archive",	cmd_archive,	"Create an archive of the object files with build ids a perf.data hit" },
	{ "buildid-cache", cmd_buildid_cache, "Manage build-id cache." },
	{ "buildid-list", cmd_buildid_list, "List the buildids in a perf.data file" },
	{ "collapse",	cmd_collapse,	"Fold the stacks of perf.data or perf script output (stackcollapse)" },
	{ "config",	cmd_config,	"Get and set variables in a configuration file." },
	{ "data",	cmd_data,	"Convert a perf.data file into other formats (JSON)" },
	{ "diff",	cmd_diff,	"Read perf.data files and display the differential profile" },
	{ "evlist",	cmd_evlist,	"List the event names in a perf.data file" },
	{ "flamegraph",	cmd_flamegraph,	"Draw a flame graph (SVG or HTML) from perf.data or folded stacks" },
	{ "help",	cmd_help,	"Show the list of commands or the usage of one" },
	{ "inject",	cmd_inject,	"Filter to augment the events stream with additional information" },
	{ "kallsyms",	cmd_kallsyms,	"Searches running kernel for symbols" },
	{ "kmem",	cmd_kmem,	"Trace and measure the kernel's slab and page allocations" },
	{ "kvm",	cmd_kvm,	"Profile KVM guests and time their exits" },
	{ "list",	cmd_list,	"List the events this machine offers and their syntax" },
	{ "lock",	cmd_lock,	"Analyze lock contention (perf lock)" },
	{ "probe",	cmd_probe,	"Define new dynamic tracepoints" },
	{ "record",	cmd_record,	"Run a command and record its profile into perf.data" },
	{ "report",	cmd_report,	"Read perf.data (created by perf record) and display the profile" },
	{ "sched",	cmd_sched,	"Tool to trace/measure scheduler properties (latencies)" },
	{ "script",	cmd_script,	"Read perf.data (created by perf record) and display trace output" },
	{ "stat",	cmd_stat,	"Run a command and gather performance counter statistics" },
	{ "trace",	cmd_trace,	"strace inspired tool" },
	{ "version",	cmd_version,	"Display the version of pcl" },
	{ NULL, NULL, NULL },
};

static const struct pcl_cmd *find_cmd(const char *name)
{
	for (const struct pcl_cmd *c = pcl_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void list_commands(FILE *f)
{
	fprintf(f, "\n usage: pcl [--version] [--help] COMMAND [ARGS]\n\n"
		   " The available pcl commands are:\n");
	for (const struct pcl_cmd *c = pcl_commands; c->name; c++)
		fprintf(f, "   %-15s %s\n", c->name, c->summary);
	fprintf(f, "\n See 'pcl help COMMAND' for more information on a specific command.\n\n");
}

int cmd_version(int argc, const char **argv)
{
	printf("pcl version %s\n", PCL_VERSION);
	return 0;
}

int cmd_help(int argc, const char **argv)
{
	const struct pcl_cmd *c;
	const char *hargv[] = { NULL, "--help", NULL };

	if (argc < 2) {
		list_commands(stdout);
		return 0;
	}
	c = find_cmd(argv[1]);
	if (!c || c->fn == cmd_help || c->fn == cmd_version) {
		if (!c) {
			fprintf(stderr, "pcl: '%s' is not a pcl command.\n", argv[1]);
			return PCL_EXIT_FAILURE;
		}
		printf("\n usage: pcl %s\n\n    %s\n\n", c->name, c->summary);
		return 0;
	}
	hargv[0] = c->name;
	parse_options_help_exit = 0;
	return c->fn(2, hargv);
}

/* Suggests the closest command name for a typo (edit distance <= 2). */
static const char *suggest(const char *name)
{
	const char *best = NULL;
	int best_d = 3;

	for (const struct pcl_cmd *c = pcl_commands; c->name; c++) {
		int d = edit_distance(name, c->name);
		if (d < best_d) {
			best_d = d;
			best = c->name;
		}
	}
	return best;
}

int main(int argc, const char **argv)
{
	const struct pcl_cmd *c;
	const char *name;

	if (argc < 2) {
		list_commands(stdout);
		return 0;
	}
	name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "-v"))
		name = "version";
	else if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		name = "help";
	c = find_cmd(name);
	if (!c) {
		const char *s = suggest(name);

		fprintf(stderr, "pcl: '%s' is not a pcl-command. See 'pcl --help'.\n", name);
		if (s)
			fprintf(stderr, "\nDid you mean this?\n\t%s\n", s);
		return PCL_EXIT_FAILURE;
	}
	return c->fn(argc - 1, argv + 1);
}
