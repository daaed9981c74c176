/* pcl list: the events this machine offers, in perf 6.1's layout.
 *
 * Sections: hardware, software, tool, hardware cache (hardware and cache
 * events only when the kernel accepts them for this thread, as perf
 * probes), kernel PMU events from sysfs, raw and breakpoint descriptors,
 * tracepoints.  Arguments pick classes (hw sw cache pmu tracepoint sdt),
 * SYS:EVENT globs for tracepoints, or keywords (matched as *KEYWORD*).
 * perf's vendor metric tables are not part of pcl, so there is no
 * "Metric Groups" section, and the options that only change how metrics
 * and vendor events are described (-d, -v, --details, --deprecated) leave
 * this output as it is, as they do perf's on a machine without such events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "core/data/header-features.h"
#include "core/events/event-names.h"
#include "core/events/pmu.h"
#include "core/symbols/sdt-events.h"
#include "core/events/tracepoint.h"
#include "core/probe/probe-spec.h"
#include "util/glob.h"
#include "util/parse-options.h"
#include "util/util.h"

struct list_opts {
	bool raw_dump;		/* names only, space separated (shell completion) */
	bool tty;		/* perf's pager layout: a header and blank lines */
	int debug;		/* --debug: what perf's verbose mode logs on stderr */
	bool cpuid_logged;	/* perf looks its event tables up once */
	const char *cputype;	/* --cputype: only that hybrid PMU's events */
};

/* With --debug, perf names the CPU whose event tables it consults. */
static void log_cpuid(struct list_opts *o)
{
	char *id;

	if (!o->debug || o->cpuid_logged)
		return;
	o->cpuid_logged = true;
	id = cpuinfo_cpuid('-');
	if (id)
		fprintf(stderr, "Using CPUID %s\n", id);
	free(id);
}

/* A probe cache line as perf's debug log shows its probe point. */
static void log_probe_point(const char *line)
{
	struct probe_spec spec;
	char err[256];
	const char *colon = strchr(line, ':');

	if (line[0] == '%' && colon) {
		fprintf(stderr, "symbol:%.*s file:(null) line:0 offset:0 return:0 lazy:(null)\n",
			(int)strcspn(colon + 1, "= "), colon + 1);
	} else if (line[0] == '#' && !probe_spec__parse(&spec, line + 1, err, sizeof(err))) {
		char *point = probe_point__debug_text(&spec.point);

		fprintf(stderr, "%s\n", point);
		free(point);
		probe_spec__exit(&spec);
	}
}

/* With --debug, perf logs each probe cache it opens (or fails to: a build
 * id whose cache directory is gone is then taken for a file name) and the
 * probe point of every entry. */
static void log_sdt_entries(const struct list_opts *o)
{
	struct probe_cache_list all;

	if (!o->debug)
		return;
	probe_cache__files(&all);
	for (size_t i = 0; i < all.n; i++) {
		if (all.v[i].missing) {
			fprintf(stderr, "Failed to get build-id from %s.\nCache open error: -1\n",
				all.v[i].build_id);
			continue;
		}
		for (int j = 0; j < all.v[i].nr_lines; j++)
			log_probe_point(all.v[i].lines[j]);
	}
	probe_cache_list__exit(&all);
}

static void print_names(const struct list_opts *o, char **names, int n, const char *kind)
{
	for (int i = 0; i < n; i++) {
		if (o->raw_dump)
			printf("%s ", names[i]);
		else
			printf("  %-50s [%s]\n", names[i], kind);
	}
	if (n && o->tty && !o->raw_dump)
		putchar('\n');
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void push(char ***names, int *n, char *s)
{
	*names = xrealloc(*names, (*n + 1) * sizeof(char *));
	(*names)[(*n)++] = s;
}

static void print_symbols(const struct list_opts *o, const char *glob, uint32_t type)
{
	const struct event_symbol *syms = type == PERF_TYPE_HARDWARE ? hw_event_symbols
								     : sw_event_symbols;
	int max = type == PERF_TYPE_HARDWARE ? PERF_COUNT_HW_MAX : PERF_COUNT_SW_MAX, n = 0;
	char **names = NULL;

	for (int i = 0; i < max; i++) {
		const struct event_symbol *s = &syms[i];

		if (!s->symbol)
			continue;
		if (glob && !glob_match(glob, s->symbol) && !(*s->alias && glob_match(glob, s->alias)))
			continue;
		if (!event_is_supported(type, (uint64_t)i))
			continue;
		push(&names, &n, !o->raw_dump && *s->alias
				 ? xasprintf("%s OR %s", s->symbol, s->alias) : xstrdup(s->symbol));
	}
	if (n)
		qsort(names, n, sizeof(char *), cmp_str);
	print_names(o, names, n, type == PERF_TYPE_HARDWARE ? "Hardware event" : "Software event");
	strlist__free(names, n);
}

static void print_tool(const struct list_opts *o, const char *glob)
{
	for (int i = TOOL_NONE + 1; i < TOOL_EVENT_MAX; i++) {
		const char *name = tool_event_names[i];

		if (glob && !glob_match(glob, name))
			continue;
		if (o->raw_dump)
			printf("%s ", name);
		else
			printf("  %-50s [%s]\n", name, "Tool event");
	}
	/* perf closes this section even when it is empty */
	if (o->tty && !o->raw_dump)
		putchar('\n');
}

static void print_cache(struct list_opts *o, const char *glob)
{
	char **names = NULL, name[128];
	int n = 0;

	log_cpuid(o);
	for (unsigned type = 0; type < PERF_COUNT_HW_CACHE_MAX; type++)
		for (unsigned op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!hw_cache_op_valid(type, op))
				continue;
			for (unsigned res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
				hw_cache_event_name(name, sizeof(name), type, op, res);
				if (glob && !glob_match(glob, name))
					continue;
				if (!event_is_supported(PERF_TYPE_HW_CACHE,
							type | (op << 8) | (res << 16)))
					continue;
				push(&names, &n, xstrdup(name));
			}
		}
	if (n)
		qsort(names, n, sizeof(char *), cmp_str);
	print_names(o, names, n, "Hardware cache event");
	strlist__free(names, n);
}

struct pmu_event {
	const struct pmu *pmu;
	const char *alias;
	char *shown;
};

/* Core PMU events first, then by PMU name, then by event name. */
static int cmp_pmu_event(const void *a, const void *b)
{
	const struct pmu_event *x = a, *y = b;
	int r;

	if (x->pmu->is_core != y->pmu->is_core)
		return y->pmu->is_core - x->pmu->is_core;
	if (x->pmu != y->pmu && (r = strcmp(x->pmu->name, y->pmu->name)))
		return r;
	return strcmp(x->alias, y->alias);
}

/* --cputype keeps the other hybrid PMUs (cpu_core, cpu_atom) out. */
static bool pmu_shown(const struct list_opts *o, const struct pmu *pmu)
{
	return !o->cputype || strncmp(pmu->name, "cpu_", 4) || !strcmp(pmu->name + 4, o->cputype);
}

static void print_pmu(struct list_opts *o, const char *glob)
{
	int nr, n = 0, printed = 0;
	const struct pmu *pmus = pmus__all(&nr);
	struct pmu_event *evs = NULL;

	log_cpuid(o);
	for (int i = 0; i < nr; i++)
		for (int j = 0; j < pmus[i].nr_aliases && pmu_shown(o, &pmus[i]); j++) {
			const struct pmu *pmu = &pmus[i];
			const struct pmu_alias *alias = &pmu->aliases[j];
			char *slashed = pmu_alias__slashed_name(pmu, alias);

			if (glob && !glob_match_nocase(glob, slashed) &&
			    !(!pmu->is_core && glob_match_nocase(glob, alias->name))) {
				free(slashed);
				continue;
			}
			evs = xrealloc(evs, (n + 1) * sizeof(*evs));
			evs[n].pmu = pmu;
			evs[n].alias = alias->name;
			evs[n].shown = pmu->is_core && !o->raw_dump
				       ? xasprintf("%s OR %s", alias->name, slashed) : xstrdup(slashed);
			n++;
			free(slashed);
		}
	if (n)
		qsort(evs, n, sizeof(*evs), cmp_pmu_event);
	for (int i = 0; i < n; i++) {
		if (i && !strcmp(evs[i].shown, evs[i - 1].shown))
			continue;
		if (o->raw_dump)
			printf("%s ", evs[i].shown);
		else
			printf("  %-50s [Kernel PMU event]\n", evs[i].shown);
		printed++;
	}
	if (printed && o->tty && !o->raw_dump)
		putchar('\n');
	for (int i = 0; i < n; i++)
		free(evs[i].shown);
	free(evs);
}

static void print_tracepoints(const struct list_opts *o, const char *sys_glob,
			      const char *evt_glob)
{
	char **names;
	int n = tracepoints__list(sys_glob, evt_glob, &names);

	print_names(o, names, n, "Tracepoint event");
	strlist__free(names, n);
}

/* A marker cached for several binaries is shown with each one's path and id. */
static void print_sdt(const struct list_opts *o, const char *group_glob, const char *event_glob)
{
	struct sdt_event *evs;
	int n;

	log_sdt_entries(o);
	n = sdt_events__list(group_glob, event_glob, &evs);

	for (int i = 0; i < n; i++) {
		bool detail = (i && !strcmp(evs[i].name, evs[i - 1].name)) ||
			      (i + 1 < n && !strcmp(evs[i].name, evs[i + 1].name));

		if (o->raw_dump) {
			printf("%s ", evs[i].name);
		} else if (detail) {
			char *shown = xasprintf("%s@%s(%.12s)", evs[i].name, evs[i].path,
						evs[i].build_id);

			printf("  %-50s [SDT event]\n", shown);
			free(shown);
		} else {
			printf("  %-50s [SDT event]\n", evs[i].name);
		}
	}
	sdt_events__free(evs, n);
}

static void print_descriptors(const struct list_opts *o)
{
	if (o->raw_dump)
		return;
	printf("  %-50s [%s]\n", "rNNN", "Raw hardware event descriptor");
	printf("  %-50s [%s]\n", "cpu/t1=v1[,t2=v2,t3 ...]/modifier",
	       "Raw hardware event descriptor");
	if (o->tty)
		printf("   (see 'man pcl-list' on how to encode it)\n\n");
	printf("  %-50s [%s]\n", "mem:<addr>[/len][:access]", "Hardware breakpoint");
	if (o->tty)
		putchar('\n');
}

/* Everything matching glob; all of it, with the descriptors, when NULL. */
static void print_all(struct list_opts *o, const char *glob)
{
	print_symbols(o, glob, PERF_TYPE_HARDWARE);
	print_symbols(o, glob, PERF_TYPE_SOFTWARE);
	print_tool(o, glob);
	print_cache(o, glob);
	print_pmu(o, glob);
	if (!glob)
		print_descriptors(o);
	print_tracepoints(o, NULL, glob);
	print_sdt(o, NULL, glob);
}

static void print_arg(struct list_opts *o, const char *arg)
{
	const char *colon = strchr(arg, ':');

	if (!strcmp(arg, "tracepoint")) {
		print_tracepoints(o, NULL, NULL);
	} else if (!strcmp(arg, "hw") || !strcmp(arg, "hardware")) {
		print_symbols(o, NULL, PERF_TYPE_HARDWARE);
	} else if (!strcmp(arg, "sw") || !strcmp(arg, "software")) {
		print_symbols(o, NULL, PERF_TYPE_SOFTWARE);
		print_tool(o, NULL);
	} else if (!strcmp(arg, "cache") || !strcmp(arg, "hwcache")) {
		print_cache(o, NULL);
	} else if (!strcmp(arg, "pmu")) {
		print_pmu(o, NULL);
	} else if (!strcmp(arg, "sdt")) {
		print_sdt(o, NULL, NULL);
	} else if (!strcmp(arg, "metric") || !strcmp(arg, "metrics") ||
		   !strcmp(arg, "metricgroup") || !strcmp(arg, "metricgroups")) {
		/* perf's metrics come from its vendor tables, which pcl does not carry */
		log_cpuid(o);
	} else if (colon) {
		char *sys = xstrndup(arg, (size_t)(colon - arg));

		print_tracepoints(o, sys, colon + 1);
		print_sdt(o, sys, colon + 1);
		log_cpuid(o);	/* perf goes on to its metric tables */
		free(sys);
	} else {
		char *glob = xasprintf("*%s*", arg);

		print_all(o, glob);
		free(glob);
	}
}

static bool hybrid_pmu_exists(const char *cputype)
{
	char *path = xasprintf("/sys/bus/event_source/devices/cpu_%s", cputype);
	bool found = access(path, F_OK) == 0;

	free(path);
	return found;
}

int cmd_list(int argc, const char **argv)
{
	struct list_opts o = { .tty = isatty(STDOUT_FILENO) };
	/* accepted for perf's command lines: they only change metric and vendor
	 * event descriptions, which pcl does not carry */
	bool desc = true, long_desc = false, deprecated = false, details = false;
	const struct option options[] = {
		{ .type = OPT_BOOL_T, .long_name = "raw-dump", .value = &o.raw_dump,
		  .help = "Dump raw events", .flags = OPTF_HIDDEN },
		OPT_BOOLEAN('d', "desc", &desc,
			    "Print extra event descriptions. --no-desc to not print."),
		OPT_BOOLEAN('v', "long-desc", &long_desc, "Print longer event descriptions."),
		OPT_BOOLEAN(0, "details", &details, "Print information on the perf event names and "
			    "expressions used internally by events."),
		OPT_BOOLEAN(0, "deprecated", &deprecated, "Print deprecated events."),
		OPT_STRING(0, "cputype", &o.cputype, "hybrid cpu type",
			   "Print events applying cpu with this type for hybrid platform "
			   "(e.g. core or atom)"),
		OPT_INCR(0, "debug", &o.debug, "Enable debugging output"),
		OPT_END(),
	};
	const char *const usage[] = {
		"pcl list [<options>] [hw|sw|cache|tracepoint|pmu|sdt|event_glob]",
		NULL,
	};

	argc = parse_options(argc, argv, options, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (o.cputype && !hybrid_pmu_exists(o.cputype))
		fprintf(stderr, "WARNING: hybrid cputype is not supported!\n");
	if (o.tty && !o.raw_dump)
		printf("\nList of pre-defined events (to be used in -e):\n\n");
	if (argc == 0)
		print_all(&o, NULL);
	for (int i = 0; i < argc; i++)
		print_arg(&o, argv[i]);
	return 0;
}
