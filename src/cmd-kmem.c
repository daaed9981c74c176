/* pcl kmem: record the kernel's slab/page allocations, and their statistics. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "core/analysis/kmem.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/events/tracepoint.h"
#include "ui/kmem-print.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/perfconfig.h"
#include "util/util.h"

static const char *const kmem_usage[] = { "pcl kmem [<options>] {record|stat}", NULL };

/* Which of two options came last decides where -s and -l go, as in perf:
 * each flag holds one more than the other had when it was given. */
struct kmem_cmd {
	struct kmem k;
	const char *input, *time;
	bool force, raw_ip, live;
	int verbose;
	int slab_flag, page_flag, caller_flag, alloc_flag;
	int caller_lines, alloc_lines;
	const struct option *options;
	struct sample_filter filter;
};

static struct kmem_cmd kc = { .caller_lines = -1, .alloc_lines = -1 };

static int opt_slab(const struct option *opt, const char *arg, bool unset)
{
	(void)opt, (void)arg, (void)unset;
	kc.slab_flag = kc.page_flag + 1;
	return 0;
}

static int opt_page(const struct option *opt, const char *arg, bool unset)
{
	(void)opt, (void)arg, (void)unset;
	kc.page_flag = kc.slab_flag + 1;
	return 0;
}

static int opt_caller(const struct option *opt, const char *arg, bool unset)
{
	(void)opt, (void)arg, (void)unset;
	kc.caller_flag = kc.alloc_flag + 1;
	return 0;
}

static int opt_alloc(const struct option *opt, const char *arg, bool unset)
{
	(void)opt, (void)arg, (void)unset;
	kc.alloc_flag = kc.caller_flag + 1;
	return 0;
}

static int opt_lines(const struct option *opt, const char *arg, bool unset)
{
	int lines;

	(void)opt, (void)unset;
	if (!arg)
		return -1;
	lines = (int)strtoul(arg, NULL, 10);
	if (kc.caller_flag > kc.alloc_flag)
		kc.caller_lines = lines;
	else
		kc.alloc_lines = lines;
	return 0;
}

/* kmem.default: the allocator analysed without --slab or --page */
static bool default_is_page(void)
{
	static int page = -1;
	const char *value;

	if (page < 0) {
		value = perfconfig__default("kmem.default");
		page = value && !strcmp(value, "page");
		if (value && !page && strcmp(value, "slab"))
			fprintf(stderr, "invalid default value ('slab' or 'page' required): %s\n",
				value);
	}
	return page;
}

static int opt_sort(const struct option *opt, const char *arg, bool unset)
{
	bool page = kc.page_flag > kc.slab_flag ||
		    (!kc.page_flag && !kc.slab_flag && default_is_page());
	bool caller = kc.caller_flag > kc.alloc_flag;
	struct kmem_sort *sort = page ? (caller ? &kc.k.page_caller_sort : &kc.k.page_alloc_sort)
				      : (caller ? &kc.k.slab_caller_sort : &kc.k.slab_alloc_sort);
	char *bad, *copy;
	int ret;

	(void)opt, (void)unset;
	if (!arg)
		return -1;
	ret = kmem__parse_sort(sort, arg, page, &bad, &copy);
	if (ret < 0) {
		fprintf(stderr, "Unknown %s --sort key: '%s'", page ? "page" : "slab", bad);
		free(copy);
		parse_options_usage(kmem_usage, kc.options, "s", true);
		exit(PCL_EXIT_USAGE);
	}
	free(copy);
	return 0;
}

static const struct option options[] = {
	OPT_BOOLEAN('f', "force", &kc.force, "don't complain, do it"),
	OPT_STRING('i', "input", &kc.input, "file", "input file name"),
	OPT_CALLBACK('l', "line", NULL, "num", "show n lines", opt_lines),
	OPT_CALLBACK('s', "sort", NULL, "key[,key2...]",
		     "sort by keys: ptr, callsite, bytes, hit, pingpong, frag, "
		     "page, order, migtype, gfp",
		     opt_sort),
	OPT_INCR('v', "verbose", &kc.verbose, "be more verbose (show symbol address, etc)"),
	OPT_CALLBACK_NOOPT(0, "alloc", NULL, "show per-allocation statistics", opt_alloc),
	OPT_CALLBACK_NOOPT(0, "caller", NULL, "show per-callsite statistics", opt_caller),
	OPT_BOOLEAN(0, "live", &kc.live, "Show live page stat"),
	OPT_CALLBACK_NOOPT(0, "page", NULL, "Analyze page allocator", opt_page),
	OPT_BOOLEAN(0, "raw-ip", &kc.raw_ip, "show raw ip instead of symbol"),
	OPT_CALLBACK_NOOPT(0, "slab", NULL, "Analyze slab allocator", opt_slab),
	OPT_STRING(0, "time", &kc.time, "str", "Time span of interest (start,stop)"),
	OPT_END(),
};

/* perf kmem record: perf record of the allocator tracepoints, system-wide,
 * every event, raw data; page allocations with their call chains. */
static int kmem_record(int argc, const char **argv)
{
	static const char *const slab_events[] = {
		"kmem:kmalloc", "kmem:kfree", "kmem:kmem_cache_alloc", "kmem:kmem_cache_free",
	};
	/* kernels before 6.1 trace NUMA allocations apart */
	static const char *const slab_node_events[] = {
		"kmalloc_node", "kmem_cache_alloc_node",
	};
	const char **rec = xcalloc((size_t)argc + 32, sizeof(*rec));
	int n = 0, ret;

	rec[n++] = "record";
	rec[n++] = "-a";
	rec[n++] = "-R";
	rec[n++] = "-c";
	rec[n++] = "1";
	if (kc.slab_flag) {
		for (size_t i = 0; i < ARRAY_SIZE(slab_events); i++) {
			rec[n++] = "-e";
			rec[n++] = slab_events[i];
		}
		for (size_t i = 0; i < ARRAY_SIZE(slab_node_events); i++) {
			if (tracepoint__id("kmem", slab_node_events[i]) < 0)
				continue;
			rec[n++] = "-e";
			rec[n++] = i ? "kmem:kmem_cache_alloc_node" : "kmem:kmalloc_node";
		}
	}
	if (kc.page_flag) {
		rec[n++] = "-g";
		rec[n++] = "-e";
		rec[n++] = "kmem:mm_page_alloc";
		rec[n++] = "-e";
		rec[n++] = "kmem:mm_page_free";
	}
	ret = cmd_record_then(rec, n, argc - 1, argv + 1);
	free(rec);
	return ret;
}

static int kmem_sample(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	(void)tool, (void)rec;
	/* no thread is looked up here: only the page allocator's call sites
	 * need one (kmem.c finds it then) */
	if (sample_filter__skip_time(&kc.filter, sample->time))
		return 0;
	return kmem__sample(&kc.k, s, evsel, sample);
}

static bool has_tracepoint(struct perf_session *s, const char *name)
{
	for (struct evsel *e = s->evlist.first; e; e = e->next)
		if (e->attr.type == PERF_TYPE_TRACEPOINT && !strcmp(e->name, name))
			return true;
	return false;
}

static int kmem_stat(struct perf_session *s, const char *subcmd)
{
	struct perf_tool tool = { .sample = kmem_sample, .ordered = true };
	struct kmem_print_opts po = {
		.caller = kc.caller_flag, .alloc = kc.alloc_flag,
		.caller_lines = kc.caller_lines, .alloc_lines = kc.alloc_lines,
		.raw_ip = kc.raw_ip,
	};
	struct machine *machine;
	int ret;

	if (kc.time && sample_filter__set_time(&kc.filter, kc.time) < 0) {
		fputs("Invalid time string\n", stderr);
		return PCL_EXIT_EINVAL;
	}
	if (strcmp(subcmd, "stat"))
		usage_with_options(kmem_usage, options);
	setlocale(LC_ALL, "");	/* perf groups thousands as the locale says */
	machine = perf_session__new_machine(s, NULL, NULL, kc.force);
	/* only call sites are named (the slab caller table, page chains) */
	if (kc.caller_flag || kc.page_flag)
		machine__prefetch_kallsyms(machine);
	kmem__setup(&kc.k, s);
	ret = perf_session__process(s, &tool);
	if (ret < 0 && s->err) {
		fprintf(stderr, "pcl kmem: %s\n", s->err);
		return PCL_EXIT_ERROR;
	}
	if (ret < 0 && s->failed_rec.size)
		fprintf(stderr, "%#llx [%#x]: failed to process type: %u [%s]\n",
			(unsigned long long)s->failed_offset, s->failed_rec.size,
			s->failed_rec.type, strerror(-ret));
	session_warnings__print(stderr, &s->stats, false);
	if (ret < 0) {	/* a handler's status, as perf reports it */
		fprintf(stderr, "error during process events: %d\n", ret);
		return ret & 0xff;
	}
	kmem__sort(&kc.k);
	kmem_print(stdout, &kc.k, machine, &po);
	return 0;
}

int cmd_kmem(int argc, const char **argv)
{
	static const char errmsg[] =
		"No %s allocation events found.  Have you run 'perf kmem record --%s'?\n";
	struct perf_session *s;
	const char *path;
	char *err = NULL;
	int ret;

	kc.options = options;
	kmem__init(&kc.k);
	default_is_page(); /* a bad kmem.default is reported first, as perf does */
	argc = parse_options(argc, argv, options, kmem_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_with_options(kmem_usage, options);
	if (!kc.slab_flag && !kc.page_flag)
		*(default_is_page() ? &kc.page_flag : &kc.slab_flag) = 1;
	kc.k.slab = kc.slab_flag;
	kc.k.page = kc.page_flag;
	kc.k.live = kc.live;
	if (strlen(argv[0]) > 2 && !strncmp("record", argv[0], strlen(argv[0])))
		return kmem_record(argc, argv);

	path = kc.input ? kc.input : perf_data__default_path(false);
	s = perf_session__open(path, kc.force, &err);
	if (!s) {
		fprintf(stderr, "failed to open %s", err);
		if (!strcmp(path, "perf.data") && strstr(err, strerror(ENOENT)))
			fputs("  (try 'perf record' first)", stderr);
		fputc('\n', stderr);
		free(err);
		return PCL_EXIT_ERROR;
	}
	ret = PCL_EXIT_ERROR;
	if (kc.k.slab && !has_tracepoint(s, "kmem:kmalloc"))
		fprintf(stderr, errmsg, "slab", "slab");
	else if (kc.k.page && !has_tracepoint(s, "kmem:mm_page_alloc"))
		fprintf(stderr, errmsg, "page", "page");
	else
		ret = kmem_stat(s, argv[0]);
	perf_session__delete(s);
	sample_filter__exit(&kc.filter);
	kmem__exit(&kc.k);
	return ret;
}
