/* pcl c2c: cache-to-cache sharing from memory samples, as perf c2c.  For
 * now: record, and report --stats, the tables of counts
 * (core/analysis/c2c.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "builtin.h"
#include "core/analysis/c2c.h"
#include "core/data/session.h"
#include "ui/c2c-print.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const c2c_usage[] = { "pcl c2c {record|report}", NULL };
static const char *const report_usage[] = { "pcl c2c report", NULL };

/* -d: what the cache line tables sort on (--stats only names it) */
static const struct display {
	const char *name, *title;
} displays[] = {
	{ "tot", "Total HITMs" }, { "lcl", "Local HITMs" }, { "rmt", "Remote HITMs" },
	{ "peer", "Peer Snoop" },
};

struct c2c_cmd {
	struct perf_tool tool;
	struct c2c c2c;
	const char *input, *display;
	bool force, stats, stdio;
	int verbose;
};

static int c2c_sample(struct perf_tool *tool, struct perf_session *s,
		      const struct perf_event_header *hdr, struct perf_sample *sample,
		      struct evsel *evsel)
{
	struct c2c_cmd *c = (struct c2c_cmd *)tool;
	struct addr_location ip, data;
	struct c2c_access a;

	(void)hdr, (void)evsel;
	perf_session__resolve_sample(s, sample, &ip);
	memset(&data, 0, sizeof(data));
	machine__lookup(s->machine, ip.thread, sample->cpumode, sample->addr, &data);
	memset(&a, 0, sizeof(a));
	a.data_src = sample->data_src;
	a.daddr = sample->addr;
	a.mapped = data.map && ip.map;
	a.key.cpumode = sample->cpumode;
	a.key.mapped = data.map != NULL;
	a.key.line = (data.map ? data.addr : sample->addr) & ~(uint64_t)63;
	if (data.map) {
		const struct map *m = data.map;

		a.key.maj_min = (uint64_t)m->maj << 32 | m->min;
		a.key.ino = m->ino;
		a.key.ino_gen = m->ino_generation;
		/* anonymous private memory is a process's own */
		if (sample->cpumode != PERF_RECORD_MISC_KERNEL && !(m->flags & MAP_SHARED) &&
		    !map__has_file_id(m))
			a.key.pid = ip.thread->pid;
	}
	c2c__add(&c->c2c, &a);
	return 0;
}

static int c2c_report(int argc, const char **argv)
{
	struct c2c_cmd c = { .tool = { .sample = c2c_sample, .ordered = true } };
	const struct option opts[] = {
		OPT_STRING('d', "display", &c.display, "Switch HITM output type", "tot,lcl,rmt,peer"),
		OPT_BOOLEAN('f', "force", &c.force, "don't complain, do it"),
		OPT_STRING('i', "input", &c.input, "file", "the input file to process"),
		OPT_BOOLEAN(0, "stats", &c.stats, "Display only statistic tables (implies --stdio)"),
		OPT_BOOLEAN(0, "stdio", &c.stdio, "Use the stdio interface"),
		OPT_END(),
	};
	const struct display *d = &displays[0];
	struct perf_session *s;
	char *err = NULL;
	int ret;

	argc = parse_options(argc, argv, opts, report_usage, 0);
	if (argc > 1)
		usage_with_options(report_usage, opts);
	if (c.display) {
		for (d = displays; d < displays + ARRAY_SIZE(displays); d++)
			if (!strcmp(d->name, c.display))
				break;
		if (d == displays + ARRAY_SIZE(displays)) {
			fprintf(stderr, "failed: unknown display type: %s\n", c.display);
			return PCL_EXIT_ERROR;
		}
	}
	if (!c.stats) {
		fputs("pcl c2c report: only --stats is done yet\n", stderr);
		return PCL_EXIT_ERROR;
	}
	s = perf_session__open(c.input ? c.input : "perf.data", c.force, &err);
	if (!s) {
		fprintf(stderr, "failed to open %s\n", err);
		free(err);
		return PCL_EXIT_ERROR;
	}
	/* perf sets up its NUMA nodes first: a file without them stops here */
	if (!s->header.nr_numa_nodes) {
		fputs("Failed setup nodes\n", stderr);
		perf_session__delete(s);
		return 234;	/* perf's -EINVAL */
	}
	perf_session__new_machine(s, NULL, NULL, c.force);
	c2c__init(&c.c2c);
	ret = perf_session__process(s, &c.tool) < 0 ? PCL_EXIT_ERROR : 0;
	if (!ret) {
		c2c__finish(&c.c2c);
		c2c_print_stats(stdout, &c.c2c, &s->evlist, d->title);
	}
	c2c__exit(&c.c2c);
	perf_session__delete(s);
	return ret;
}

/* perf c2c record is perf mem record of loads and stores with physical
 * addresses and CPUs: so is this, through pcl mem */
static int c2c_record(int argc, const char **argv)
{
	const char **mem = xcalloc((size_t)argc + 4, sizeof(*mem));
	int n = 0, ret;

	mem[n++] = "mem";
	mem[n++] = "-p";
	mem[n++] = "record";
	mem[n++] = "--sample-cpu";
	for (int i = 1; i < argc; i++)
		mem[n++] = argv[i];
	ret = cmd_mem(n, mem);
	free(mem);
	return ret;
}

int cmd_c2c(int argc, const char **argv)
{
	int verbose = 0;
	const struct option opts[] = {
		OPT_INCR('v', "verbose", &verbose, "be more verbose (show counter open errors, etc)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, c2c_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc && strlen(argv[0]) > 2 && !strncmp("record", argv[0], strlen(argv[0])))
		return c2c_record(argc, argv);
	if (argc && strlen(argv[0]) > 2 && !strncmp("report", argv[0], strlen(argv[0])))
		return c2c_report(argc, argv);
	usage_with_options(c2c_usage, opts);
}
