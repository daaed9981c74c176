/* pcl c2c: cache-to-cache sharing from memory samples, as perf c2c:
 * record, and report: the statistics and the shared cache line tables
 * (core/analysis/c2c.c, ui/c2c-print.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "builtin.h"
#include "core/analysis/c2c.h"
#include "core/data/session.h"
#include "core/events/cpumap.h"
#include "core/events/evsel.h"
#include "core/symbols/machine.h"
#include "ui/c2c-print.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/strset.h"
#include "util/util.h"

static const char *const c2c_usage[] = { "pcl c2c {record|report}", NULL };
static const char *const report_usage[] = { "pcl c2c report", NULL };

/* -d: what the cache line tables sort on */
static const struct display {
	const char *name, *title;
	enum c2c_display display;
} displays[] = {
	{ "tot", "Total HITMs", C2C_DISPLAY_TOT }, { "lcl", "Local HITMs", C2C_DISPLAY_LCL },
	{ "rmt", "Remote HITMs", C2C_DISPLAY_RMT }, { "peer", "Peer Snoop", C2C_DISPLAY_PEER },
};

struct c2c_cmd {
	struct perf_tool tool;
	struct c2c c2c;
	const char *input, *display, *coalesce, *call_graph;
	const char *vmlinux;
	bool force, stats, show_all, stitch_lbr;
	int node_info, verbose;
	struct c2c_print_opts print;
	struct callchain_param cc;
	struct cc_resolver resolver;
	struct callchain_cursor cursor;
	struct strset strings;
};

static int c2c_sample(struct perf_tool *tool, struct perf_session *s,
		      const struct perf_event_header *hdr, struct perf_sample *sample,
		      struct evsel *evsel)
{
	struct c2c_cmd *c = (struct c2c_cmd *)tool;
	struct addr_location ip, data;
	struct c2c_access a;

	(void)hdr;
	perf_session__resolve_sample(s, sample, &ip);
	memset(&data, 0, sizeof(data));
	machine__lookup(s->machine, ip.thread, sample->cpumode, sample->addr, &data);
	memset(&a, 0, sizeof(a));
	a.data_src = sample->data_src;
	a.daddr = sample->addr;
	a.phys_addr = sample->phys_addr;
	a.weight = sample->weight;
	a.cpu = sample->cpu;
	a.thread = ip.thread;
	a.iaddr = sample->ip;
	a.ip = ip.addr;
	a.dso = ip.dso;
	a.sym = ip.sym;
	a.level = ip.level;
	a.period = sample->period;
	if (sample->callchain && c->print.cc) {
		callchain_cursor__resolve(&c->cursor, &c->resolver, ip.thread, &evsel->attr, sample);
		a.frames = c->cursor.frames;
		a.nr_frames = c->cursor.nr;
	}
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

/* perf's LBR call chain mode: branch stacks, and no user stack to unwind */
static bool lbr_callchain_mode(const struct perf_session *s)
{
	const uint64_t dwarf = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	uint64_t sample_type = 0;

	evlist__for_each(&s->evlist, pos)
		sample_type |= pos->attr.sample_type;
	return (sample_type & PERF_SAMPLE_BRANCH_STACK) && (sample_type & dwarf) != dwarf;
}

/* Which NUMA node each CPU is in, from the file's topology (-1: none). */
static int *cpu_nodes(const struct perf_session *s, uint32_t nr_cpus)
{
	int *node_of = xmalloc((nr_cpus + 1) * sizeof(*node_of));

	for (uint32_t cpu = 0; cpu < nr_cpus; cpu++)
		node_of[cpu] = -1;
	for (uint32_t n = 0; n < s->header.nr_numa_nodes; n++) {
		struct cpu_map *cpus = cpu_map__parse(s->header.numa_nodes[n].cpus);

		for (int i = 0; cpus && i < cpus->nr; i++)
			if (cpus->map[i] >= 0 && (uint32_t)cpus->map[i] < nr_cpus)
				node_of[cpus->map[i]] = (int)n;
		cpu_map__delete(cpus);
	}
	return node_of;
}

static int c2c_report(int argc, const char **argv, int verbose)
{
	/* call_graph: "" not given, NULL --no-call-graph */
	struct c2c_cmd c = { .tool = { .sample = c2c_sample, .ordered = true }, .call_graph = "",
			     .verbose = verbose };
	const struct option opts[] = {
		OPT_STRING('c', "coalesce", &c.coalesce, "coalesce fields",
			   "coalesce fields: pid,tid,iaddr,dso"),
		OPT_STRING('d', "display", &c.display, "Switch HITM output type", "tot,lcl,rmt,peer"),
		OPT_BOOLEAN('f', "force", &c.force, "don't complain, do it"),
		{ .type = OPT_STRING_T, .short_name = 'g', .long_name = "call-graph",
		  .value = &c.call_graph, .flags = OPTF_OPTARG | OPTF_LASTARG_DEFAULT,
		  .defstr = "graph,0.5,caller,function,percent",
		  .argh = "print_type,threshold[,print_limit],order,sort_key[,branch],value",
		  .help = "Display call graph (graph|flat|fractal|folded|none), order "
			  "(caller|callee), key (function|address|srcline), value "
			  "(percent|period|count). Default: graph,0.5,caller,function,percent" },
		OPT_STRING('i', "input", &c.input, "file", "the input file to process"),
		OPT_STRING('k', "vmlinux", &c.vmlinux, "file", "vmlinux pathname"),
		OPT_INCR('N', "node-info", &c.node_info,
			 "show extra node info in report (repeat for more info)"),
		OPT_BOOLEAN(0, "full-symbols", &c.print.full_symbols, "Display full length of symbols"),
		OPT_BOOLEAN(0, "no-source", &c.print.no_source, "Do not display Source Line column"),
		OPT_BOOLEAN(0, "show-all", &c.show_all, "Show all captured HITM lines."),
		OPT_BOOLEAN(0, "stats", &c.stats, "Display only statistic tables (implies --stdio)"),
		OPT_BOOLEAN(0, "stdio", &c.print.stdio, "Use the stdio interface"),
		OPT_BOOLEAN(0, "stitch-lbr", &c.stitch_lbr, "Enable LBR callgraph stitching approach"),
		OPT_INCR('v', "verbose", &c.verbose, "be more verbose (show counter open errors, etc)"),
		OPT_END(),
	};
	const struct display *d = &displays[0];
	struct c2c_config cfg = { .nr_coalesce = 1, .coalesce = { C2C_BY_IADDR } };
	struct perf_session *s;
	char *err = NULL, *keys, *grouping;
	const char *bad;
	int ret, *node_of;
	bool use_callchain = true;

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
	/* samples with call chains get their graphs, callee first unless -g
	 * says otherwise; perf shows every branch, whatever -g's threshold */
	callchain_param__init(&c.cc);
	if (c.call_graph && *c.call_graph &&
	    callchain_param__parse(&c.cc, c.call_graph, &use_callchain) < 0)
		usage_with_options(report_usage, opts);
	c.cc.min_percent = 0;
	if (c.call_graph && use_callchain && !c.stats)
		c.print.cc = &c.cc;
	keys = xstrdup(c.coalesce ? c.coalesce : "iaddr");
	grouping = xmalloc(strlen(keys) + sizeof("offset,"));
	sprintf(grouping, "offset,%s", keys);
	bad = c2c_config__parse_coalesce(&cfg, keys);
	if (bad) {
		fprintf(stderr, "unrecognized sort token: %s\n", bad);
		ret = PCL_EXIT_ERROR;
		goto out_keys;
	}
	if (symbol_files__unreadable(c.vmlinux, NULL)) {
		fprintf(stderr, "Invalid file: %s\n", c.vmlinux);
		ret = PCL_EXIT_EINVAL;
		goto out_keys;
	}
	s = perf_session__open(c.input ? c.input : "perf.data", c.force, &err);
	if (!s) {
		session_warnings__open_failed(c.input ? c.input : "perf.data", err);
		free(err);
		ret = PCL_EXIT_ERROR;
		goto out_keys;
	}
	/* perf sets up its NUMA nodes first: a file without them stops here */
	if (!s->header.nr_numa_nodes) {
		fputs("Failed setup nodes\n", stderr);
		ret = 234;	/* perf's -EINVAL */
		goto out_session;
	}
	/* perf stitches LBR call stacks only: without them it says so and
	 * goes on without stitching */
	if (c.stitch_lbr && !lbr_callchain_mode(s)) {
		fputs("Warning:\nCan't find LBR callchain. Switch off --stitch-lbr.\n"
		      "Please apply --call-graph lbr when recording.\n", stderr);
		c.stitch_lbr = false;
	}
	c.print.node_info = c.node_info > 2 ? 2 : (unsigned)c.node_info;
	c.print.verbose = cfg.long_dso_names = c.verbose > 0;
	cfg.display = d->display;
	cfg.show_all = c.show_all;
	cfg.grouping = grouping;
	cfg.nr_cpus = s->header.nr_cpus_avail;
	cfg.nr_nodes = s->header.nr_numa_nodes;
	cfg.cpu2node = node_of = cpu_nodes(s, cfg.nr_cpus);
	cfg.mem_nodes = s->header.mem_nodes;
	cfg.nr_mem_nodes = s->header.nr_mem_nodes;
	cfg.mem_block_size = s->header.mem_block_size;
	for (unsigned i = 0; i < cfg.nr_coalesce; i++)
		cfg.srclines |= cfg.coalesce[i] == C2C_BY_IADDR && !c.print.no_source && !c.stats;
	cc_resolver__init(&c.resolver, perf_session__new_machine(s, NULL, NULL, c.force), &c.cc,
			  &c.strings);
	machine__symbols_config(s->machine)->vmlinux = c.vmlinux;
	c.resolver.max_stack = callchain_max_stack_default();
	c.resolver.lbr_depth = c.stitch_lbr ? perf_header__lbr_depth(&s->header) : 0;
	c2c__init(&c.c2c, &cfg);
	ret = perf_session__process(s, &c.tool) < 0 ? PCL_EXIT_ERROR : 0;
	if (!ret) {
		c2c__finish(&c.c2c);
		c2c_print_stats(stdout, &c.c2c, &s->evlist, d->title);
		if (!c.stats)
			c2c_print_report(stdout, &c.c2c, &c.print);
	}
	c2c__exit(&c.c2c);
	callchain_cursor__exit(&c.cursor);
	cc_resolver__exit(&c.resolver);
	strset_release(&c.strings);
	free(node_of);
out_session:
	perf_session__delete(s);
out_keys:
	free(keys);
	free(grouping);
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
		return c2c_report(argc, argv, verbose);
	usage_with_options(c2c_usage, opts);
}
