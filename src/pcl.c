/* pcl: main() and the command table (the git.c / perf.c shape); help and version are
 * cmd-help.c and cmd-version.c. */
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
	{ "bench",	cmd_bench,	"General framework for benchmark suites" },
	{ "buildid-cache", cmd_buildid_cache, "Manage build-id cache." },
	{ "buildid-list", cmd_buildid_list, "List the buildids in a perf.data file" },
	{ "c2c",	cmd_c2c,	"Shared data cache line statistics (report --stats)" },
	{ "collapse",	cmd_collapse,	"Fold the stacks of perf.data or perf script output (stackcollapse)" },
	{ "config",	cmd_config,	"Get and set variables in a configuration file." },
	{ "daemon",	cmd_daemon,	"Run record sessions on background" },
	{ "data",	cmd_data,	"Convert a perf.data file into other formats (JSON)" },
	{ "diff",	cmd_diff,	"Read perf.data files and display the differential profile" },
	{ "evlist",	cmd_evlist,	"List the event names in a perf.data file" },
	{ "flamegraph",	cmd_flamegraph,	"Draw a flame graph (SVG or HTML) from perf.data or folded stacks" },
	{ "ftrace",	cmd_ftrace,	"simple wrapper for kernel's ftrace functionality" },
	{ "heatmap",	cmd_heatmap,	"Draw a latency heat map (SVG or HTML) from perf.data or text" },
	{ "help",	cmd_help,	"Show the list of commands or the manual of one" },
	{ "inject",	cmd_inject,	"Filter to augment the events stream with additional information" },
	{ "iostat",	cmd_iostat,	"Show I/O performance metrics" },
	{ "kallsyms",	cmd_kallsyms,	"Searches running kernel for symbols" },
	{ "kmem",	cmd_kmem,	"Trace and measure the kernel's slab and page allocations" },
	{ "kvm",	cmd_kvm,	"Profile KVM guests and time their exits" },
	{ "kwork",	cmd_kwork,	"Tool to trace/measure kernel work properties (latencies)" },
	{ "list",	cmd_list,	"List the events this machine offers and their syntax" },
	{ "lock",	cmd_lock,	"Analyze lock contention (perf lock)" },
	{ "mem",	cmd_mem,	"Profile memory accesses" },
	{ "probe",	cmd_probe,	"Define new dynamic tracepoints" },
	{ "record",	cmd_record,	"Run a command and record its profile into perf.data" },
	{ "report",	cmd_report,	"Read perf.data (created by perf record) and display the profile" },
	{ "sched",	cmd_sched,	"Tool to trace/measure scheduler properties (latencies)" },
	{ "script",	cmd_script,	"Read perf.data (created by perf record) and display trace output" },
	{ "stat",	cmd_stat,	"Run a command and gather performance counter statistics" },
	{ "test",	cmd_test,	"Runs sanity tests." },
	{ "timechart",	cmd_timechart,	"Tool to visualize total system behavior during a workload" },
	{ "top",	cmd_top,	"System profiling tool." },
	{ "trace",	cmd_trace,	"strace inspired tool" },
	{ "version",	cmd_version,	"Display the version of pcl" },
	{ NULL, NULL, NULL },
};

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

	pcl_invocation__set(argc - 1, argv + 1);
	if (argc < 2) {
		print_command_list();
		return PCL_EXIT_FAILURE;	/* perf's status without a command */
	}
	name = argv[1];
	if (!strcmp(name, "--list-cmds") || !strcmp(name, "--list-opts"))
		return list_for_completion(NULL, name);
	if (!strcmp(name, "-vv")) {	/* perf's short way to the build options */
		const char *build_options[] = { "version", "--build-options", NULL };

		return cmd_version(2, build_options);
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-v"))
		name = "version";
	else if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		name = "help";
	c = find_command(name);
	if (!c) {
		const char *s = suggest(name);

		fprintf(stderr, "pcl: '%s' is not a pcl-command. See 'pcl --help'.\n", name);
		if (s)
			fprintf(stderr, "\nDid you mean this?\n\t%s\n", s);
		return PCL_EXIT_FAILURE;
	}
	/* `pcl CMD --help` is `pcl help CMD`, the manual, as in perf */
	if (argc > 2 && !strcmp(argv[2], "--help"))
		return help_manual(c->name);
	if (argc > 2 && !strcmp(argv[2], "--list-cmds"))
		return list_for_completion(c->name, argv[2]);
	return c->fn(argc - 1, argv + 1);
}
