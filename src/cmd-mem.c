/* pcl mem: record memory accesses with the PMU's load/store sampling, and
 * report them (report --mem-mode, or -D's raw samples). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/events/pmu.h"
#include "core/hist/data-src.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char *const mem_usage[] = { "pcl mem [<options>] {record|report}", NULL };

enum { MEM_LOAD = 1, MEM_STORE = 2 };

struct mem_cmd {
	const char *input, *field_sep, *cpu_list, *events;
	unsigned int ldlat;
	int operation;		/* MEM_LOAD | MEM_STORE */
	bool dump_raw, force, phys_addr, data_page_size, hide_unresolved;
	bool all_kernel, all_user;
	int verbose;
	struct sample_filter filter;	/* -C of -D: checked only, as perf's */
};

static struct mem_cmd mc = { .ldlat = 30, .operation = MEM_LOAD | MEM_STORE };

static int opt_type(const struct option *opt, const char *arg, bool unset);

static const struct option mem_options[] = {
	OPT_STRING('C', "cpu", &mc.cpu_list, "cpu", "list of cpus to profile"),
	OPT_BOOLEAN('D', "dump-raw-samples", &mc.dump_raw, "dump raw samples in ASCII"),
	OPT_BOOLEAN('f', "force", &mc.force, "don't complain, do it"),
	OPT_STRING('i', "input", &mc.input, "file", "input file name"),
	OPT_BOOLEAN('p', "phys-data", &mc.phys_addr, "Record/Report sample physical addresses"),
	OPT_CALLBACK('t', "type", NULL, "type", "memory operations(load,store) Default load,store",
		     opt_type),
	OPT_BOOLEAN('U', "hide-unresolved", &mc.hide_unresolved,
		    "Only display entries resolved to a symbol"),
	OPT_STRING('x', "field-separator", &mc.field_sep, "separator",
		   "separator for columns, no spaces will be added between columns '.' is reserved."),
	OPT_BOOLEAN(0, "data-page-size", &mc.data_page_size,
		    "Record/Report sample data address page size"),
	OPT_END(),
};

/* -t load,store */
static int opt_type(const struct option *opt, const char *arg, bool unset)
{
	char *copy, *save = NULL;
	int ops = 0;

	(void)opt, (void)unset;
	if (!arg)
		return -1;
	copy = xstrdup(arg);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "load")) {
			ops |= MEM_LOAD;
		} else if (!strcmp(tok, "store")) {
			ops |= MEM_STORE;
		} else {
			fprintf(stderr, "unknown sampling op %s, check man page\n", tok);
			free(copy);
			/* perf shows the usage of -t alone */
			parse_options_usage(mem_usage, mem_options, "t", true);
			exit(PCL_EXIT_USAGE);
		}
	}
	free(copy);
	mc.operation = ops;
	return 0;
}

static const struct option record_options[] = {
	OPT_STRING('e', "event", &mc.events, "event",
		   "event selector. use 'perf mem record -e list' to list available events"),
	OPT_BOOLEAN('K', "all-kernel", &mc.all_kernel, "collect only kernel level data"),
	OPT_BOOLEAN('U', "all-user", &mc.all_user, "collect only user level data"),
	OPT_INCR('v', "verbose", &mc.verbose, "be more verbose (show counter open errors, etc)"),
	OPT_UINTEGER(0, "ldlat", &mc.ldlat, "mem-loads latency"),
	OPT_END(),
};

/* --- the options of either table, wherever they stand ----------------------- */

/* Takes the table's options out of argv[1..], leaving the others (report's
 * or record's) in order: perf lets them mix.  Returns the new argc. */
static int take_options(int argc, const char **argv, const struct option *opts,
			const char *const usage[])
{
	const char **mine = xcalloc((size_t)argc + 1, sizeof(*mine));
	int nr_mine = 1, kept = 1;

	mine[0] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct option *o = NULL;
		bool inline_arg = false;

		if (!strcmp(a, "--")) {
			while (i < argc)
				argv[kept++] = argv[i++];
			break;
		}
		for (const struct option *p = opts; p->type != OPT_END_T && !o; p++) {
			size_t n = p->long_name ? strlen(p->long_name) : 0;

			if (a[0] == '-' && a[1] && a[1] == p->short_name && p->short_name) {
				o = p;
				inline_arg = a[2] != '\0';
			} else if (n && !strncmp(a, "--", 2) && !strncmp(a + 2, p->long_name, n) &&
				   (a[2 + n] == '\0' || a[2 + n] == '=')) {
				o = p;
				inline_arg = a[2 + n] == '=';
			}
		}
		/* a short flag glued to others ("-Dp") is report's to judge */
		if (!o || (inline_arg && !o->argh)) {
			argv[kept++] = a;
			continue;
		}
		mine[nr_mine++] = a;
		if (o->argh && !inline_arg && i + 1 < argc)
			mine[nr_mine++] = argv[++i];
	}
	parse_options(nr_mine, mine, opts, usage, 0);
	free(mine);
	argv[kept] = NULL;
	return kept;
}

/* --- record ------------------------------------------------------------------- */

struct mem_event {
	const char *tag;	/* what -e names */
	const char *sysfs;	/* the cpu PMU's event it needs */
	int op;
};

/* x86's: loads over a latency threshold, and stores */
static const struct mem_event mem_events[] = {
	{ "ldlat-loads", "mem-loads", MEM_LOAD },
	{ "ldlat-stores", "mem-stores", MEM_STORE },
};

static bool mem_event_supported(const struct mem_event *e)
{
	const struct pmu *cpu = pmus__find("cpu");

	return cpu && pmu__find_alias(cpu, e->sysfs);
}

/* -e: "list", or tags separated by commas; returns the operations */
static int parse_record_events(const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	int ops = 0;

	if (!strcmp(list, "list")) {
		for (size_t i = 0; i < ARRAY_SIZE(mem_events); i++)
			fprintf(stderr, "%-13s%s", mem_events[i].tag,
				mem_event_supported(&mem_events[i]) ? ": available\n" : "");
		free(copy);
		exit(0);
	}
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(mem_events); i++)
			if (strstr(mem_events[i].tag, tok))
				break;
		if (i == ARRAY_SIZE(mem_events)) {
			fprintf(stderr, "failed: event '%s' not found, use '-e list' to get list "
				"of available events\n", tok);
			free(copy);
			return -1;
		}
		ops |= mem_events[i].op;
	}
	free(copy);
	return ops;
}

static int mem_record(int argc, const char **argv)
{
	static const char *const record_usage[] = { "pcl mem record [<options>] [<command>]",
						     NULL };
	const char **rec;
	char *names[ARRAY_SIZE(mem_events)] = { NULL };
	int n = 0, ret, ops;
	bool any = false;

	for (size_t i = 0; i < ARRAY_SIZE(mem_events); i++)
		any |= mem_event_supported(&mem_events[i]);
	if (!any) {
		fputs("failed: memory events not supported\n", stderr);
		return PCL_EXIT_ERROR;
	}
	argc = take_options(argc, argv, mem_options, mem_usage);
	argc = take_options(argc, argv, record_options, record_usage);
	ops = mc.events ? parse_record_events(mc.events) : mc.operation;
	if (ops < 0)
		return PCL_EXIT_ERROR;
	rec = xcalloc((size_t)argc + 16, sizeof(*rec));
	rec[n++] = "record";
	if (ops & MEM_LOAD)
		rec[n++] = "-W";
	rec[n++] = "-d";
	if (mc.phys_addr)
		rec[n++] = "--phys-data";
	if (mc.data_page_size)
		rec[n++] = "--data-page-size";
	for (size_t i = 0; i < ARRAY_SIZE(mem_events); i++) {
		if (!(ops & mem_events[i].op))
			continue;
		if (!mem_event_supported(&mem_events[i])) {
			fprintf(stderr, "failed: event '%s' not supported\n", mem_events[i].tag);
			ret = PCL_EXIT_ERROR;
			goto out;
		}
		names[i] = mem_events[i].op == MEM_LOAD ?
			   xasprintf("cpu/mem-loads,ldlat=%u/P", mc.ldlat) :
			   xstrdup("cpu/mem-stores/P");
		rec[n++] = "-e";
		rec[n++] = names[i];
	}
	if (mc.all_user)
		rec[n++] = "--all-user";
	if (mc.all_kernel)
		rec[n++] = "--all-kernel";
	if (mc.cpu_list) {
		rec[n++] = "-C";
		rec[n++] = mc.cpu_list;
	}
	for (int i = 1; i < argc; i++)
		rec[n++] = argv[i];
	if (mc.verbose) {
		fputs("calling: record ", stderr);
		for (int i = 1; i < n; i++)
			fprintf(stderr, "%s ", rec[i]);
		fputc('\n', stderr);
	}
	ret = cmd_record(n, rec);
out:
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		free(names[i]);
	free(rec);
	return ret;
}

/* --- report -D: the raw samples ------------------------------------------------ */

static int dump_sample(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *hdr, struct perf_sample *sample,
		       struct evsel *evsel)
{
	const char *sep = mc.field_sep ? mc.field_sep : " ";
	struct addr_location al;

	(void)tool, (void)hdr, (void)evsel;
	perf_session__resolve_sample(s, sample, &al);
	if (mc.hide_unresolved && !al.sym)
		return 0;
	/* perf's format without -x pads, and spells the data address with a
	 * literal "016" (a misplaced width); only once: perf's default blank
	 * then stands as if -x had given it */
	if (mc.field_sep)
		printf("%d%s%d%s0x%" PRIx64 "%s0x%" PRIx64 "%s", sample->pid, sep, sample->tid, sep,
		       sample->ip, sep, sample->addr, sep);
	else
		printf("%5d%s%5d%s0x%016" PRIx64 "%s0x016%" PRIx64 "%s", sample->pid, sep,
		       sample->tid, sep, sample->ip, sep, sample->addr, sep);
	if (mc.phys_addr)
		printf("0x%016" PRIx64 "%s", sample->phys_addr, sep);
	if (mc.data_page_size) {
		struct strbuf sb = STRBUF_INIT;

		page_size__name(&sb, sample->data_page_size);
		printf("%s%s", strbuf_str(&sb), sep);
		strbuf_release(&sb);
	}
	printf(mc.field_sep ? "%" PRIu64 "%s0x%" PRIx64 "%s%s:%s\n" :
			      "%5" PRIu64 "%s0x%06" PRIx64 "%s%s:%s\n",
	       sample->weight, sep, sample->data_src, sep,
	       al.map && al.dso ? al.dso->long_name : "???", al.sym ? al.sym->name : "???");
	mc.field_sep = sep;
	return 0;
}

static int dump_raw(void)
{
	struct perf_tool tool = { .sample = dump_sample, .ordered = true };
	struct perf_session *s;
	char *err = NULL;
	int ret;

	s = perf_session__open(mc.input ? mc.input : perf_data__default_path(false), mc.force,
			       &err);
	if (!s) {
		fprintf(stderr, "failed to open %s\n", err);
		free(err);
		return PCL_EXIT_ERROR;
	}
	/* perf 6.1 checks -C's CPUs against the file but dumps every sample */
	if (mc.cpu_list) {
		char *msg = NULL;

		if (sample_filter__set_cpus(&mc.filter, mc.cpu_list) < 0)
			msg = xstrdup("Invalid cpu_list");
		else
			sample_filter__check_cpus(&mc.filter, &s->evlist, s->header.nr_cpus_avail,
						  &msg);
		if (msg) {
			fprintf(stderr, "%s\n", msg);
			free(msg);
			perf_session__delete(s);
			return PCL_EXIT_ERROR;
		}
	}
	perf_session__new_machine(s, NULL, NULL, mc.force);
	printf("# PID, TID, IP, ADDR, %s", mc.phys_addr ? "PHYS ADDR, " : "");
	if (mc.data_page_size)
		fputs("DATA PAGE SIZE, ", stdout);
	fputs("LOCAL WEIGHT, DSRC, SYMBOL\n", stdout);
	ret = perf_session__process(s, &tool) < 0 ? PCL_EXIT_ERROR : 0;
	perf_session__delete(s);
	sample_filter__exit(&mc.filter);
	return ret;
}

/* --- report ----------------------------------------------------------------------- */

/* The sort order perf mem gives report: stores have no weight to show */
static char *report_sort_order(void)
{
	struct strbuf sb = STRBUF_INIT;

	if (!(mc.operation & MEM_LOAD))
		strbuf_addstr(&sb, "--sort=mem,sym,dso,symbol_daddr,dso_daddr,tlb,locked");
	else if (mc.phys_addr || mc.data_page_size)
		strbuf_addstr(&sb, "--sort=local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,"
			      "tlb,locked,blocked");
	else
		return NULL;
	if (mc.phys_addr)
		strbuf_addstr(&sb, ",phys_daddr");
	if (mc.data_page_size)
		strbuf_addstr(&sb, ",data_page_size");
	return strbuf_detach(&sb);
}

static int mem_report(int argc, const char **argv)
{
	const char **rep;
	char *sort;
	int n = 0, ret;

	if (mc.dump_raw)
		return dump_raw();
	sort = report_sort_order();
	rep = xcalloc((size_t)argc + 8, sizeof(*rep));
	rep[n++] = "report";
	rep[n++] = "--mem-mode";
	rep[n++] = "-n";
	if (mc.input) {
		rep[n++] = "-i";
		rep[n++] = mc.input;
	}
	if (mc.force)
		rep[n++] = "-f";
	/* before the user's: a --sort of theirs wins */
	if (sort)
		rep[n++] = sort;
	for (int i = 1; i < argc; i++)
		rep[n++] = argv[i];
	ret = cmd_report(n, rep);
	free(sort);
	free(rep);
	return ret;
}

int cmd_mem(int argc, const char **argv)
{
	const char *sub;

	argc = parse_options(argc, argv, mem_options, mem_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_with_options(mem_usage, mem_options);
	sub = argv[0];
	/* perf reads -h among the sub-command's options as its own */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			usage_with_options(mem_usage, mem_options);
	if (strlen(sub) > 2 && !strncmp("record", sub, strlen(sub)))
		return mem_record(argc, argv);
	/* perf takes its own options among report's */
	argc = take_options(argc, argv, mem_options, mem_usage);
	if (strlen(sub) > 2 && !strncmp("report", sub, strlen(sub)))
		return mem_report(argc, argv);
	usage_with_options(mem_usage, mem_options);
}
