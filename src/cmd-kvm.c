/* pcl kvm: profile KVM guests from the host, and time their exits.
 *
 * record, report, buildid-list and diff are the usual commands on perf's
 * kvm file names; stat record records the kvm tracepoints and stat report
 * prints how long the vCPUs spent in each kind of exit; stat live prints
 * the same table every few seconds from the running kernel. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <traceevent/event-parse.h>

#include "builtin.h"
#include "core/analysis/kvm-stat.h"
#include "core/data/session.h"
#include "core/data/perf-record.h"
#include "core/events/parse-events.h"
#include "core/live/drain.h"
#include "core/live/record.h"
#include "ui/kvm-stat-print.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

/* perf kvm stat record's events, which stat live opens too */
static const char *const kvm_events = "kvm:kvm_entry,kvm:kvm_exit,kvm:kvm_mmio,kvm:kvm_pio,"
				      "kvm:kvm_msr";

static const char *const kvm_usage[] = {
	"pcl kvm [<options>] {top|record|report|diff|buildid-list|stat}", NULL
};

/* perf's names for the top-level options.  Of the guest's symbol files,
 * reading a recording uses the kallsyms and vmlinux (perf's default guest);
 * recording puts the guests' kernel and module maps from the kallsyms,
 * the modules and the mount in the file. */
struct kvm_cmd {
	const char *file;
	int verbose;
	bool guest_code;
	const char *guestmount, *guestvmlinux, *guestkallsyms, *guestmodules;
};

static struct kvm_cmd kc;

/* "rec", "reco", ... "record": perf takes any prefix of three letters or more. */
static bool is_cmd(const char *arg, const char *cmd)
{
	return strlen(arg) > 2 && !strncmp(cmd, arg, strlen(arg));
}

/* perf's file for this mix of host and guest */
static const char *default_file(void)
{
	if (parse_events__host && !parse_events__guest)
		return "perf.data.host";
	if (!parse_events__host && parse_events__guest)
		return "perf.data.guest";
	return "perf.data.kvm";
}

/* CMD FLAG FILE ARGS...: argv[0] is the sub-command, replaced by cmd. */
static int run_with_file(int (*fn)(int, const char **), const char *cmd, const char *flag,
			 int argc, const char **argv)
{
	const char **args = xcalloc((size_t)argc + 3, sizeof(*args));
	int n = 0, ret;

	args[n++] = cmd;
	args[n++] = flag;
	args[n++] = kc.file;
	for (int i = 1; i < argc; i++)
		args[n++] = argv[i];
	ret = fn(n, args);
	free(args);
	return ret;
}

/* perf kvm stat record: every kvm exit tracepoint, raw, each occurrence. */
static int stat_record(int argc, const char **argv)
{
	static const char *const head[] = { "record", "-R", "-m", "1024", "-c", "1", "-e" };
	const char **args = xcalloc(ARRAY_SIZE(head) + (size_t)argc + 3, sizeof(*args));
	int n = 0, ret;

	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		args[n++] = head[i];
	args[n++] = kvm_events;
	args[n++] = "-o";
	args[n++] = kc.file;
	ret = cmd_record_then(args, n, argc - 1, argv + 1);
	free(args);
	return ret;
}

struct stat_report {
	struct kvm_stat k;
	const char *event, *key, *pids;
	bool force;
};

static struct stat_report sr;

static int stat_sample(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	(void)tool, (void)rec;
	kvm_stat__session_sample(&sr.k, s, evsel, sample);
	return 0;
}

static bool has_tracepoints(const struct perf_session *s)
{
	for (const struct evsel *e = s->evlist.first; e; e = e->next)
		if (e->attr.type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

/* Reads the recording into sr.k.  Returns 0 or perf's exit status. */
static int stat_read(void)
{
	struct perf_tool tool = { .sample = stat_sample, .ordered = true };
	struct perf_session *s;
	char *err = NULL;
	int ret;

	s = perf_session__open(kc.file, sr.force, &err);
	if (!s) {
		session_warnings__open_failed(kc.file, err);
		fputs("Initializing perf session failed\n", stderr);
		free(err);
		return PCL_EXIT_ERROR;
	}
	ret = PCL_EXIT_EINVAL;
	if (!has_tracepoints(s)) {
		fputs("No trace sample to read. Did you call 'perf kvm record'?\n", stderr);
	} else if (!s->header.cpuid) {
		fputs("Failed to look up CPU type\n", stderr);
	} else if (kvm_stat__set_isa(&sr.k, s->header.cpuid) < 0) {
		fprintf(stderr, "CPU %s is not supported.\n", s->header.cpuid);
		ret = -EOPNOTSUPP & 0xff;
	} else {
		ret = perf_session__process(s, &tool);
		if (ret < 0 && s->err)
			fprintf(stderr, "pcl kvm: %s\n", s->err);
		session_warnings__print(stderr, &s->stats, false);
		ret = ret < 0 ? PCL_EXIT_ERROR : 0;
	}
	perf_session__delete(s);
	return ret;
}

static int stat_report(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl kvm stat report [<options>]", NULL };
	const struct option options[] = {
		OPT_STRING(0, "event", &sr.event, "report event",
			   "event for reporting: vmexit, mmio (x86 only), ioport (x86 only)"),
		OPT_INTEGER(0, "vcpu", &sr.k.vcpu, "vcpu id to report"),
		OPT_STRING('k', "key", &sr.key, "sort-key",
			   "key for sorting: sample(sort by samples number) "
			   "time (sort by avg time)"),
		OPT_STRING('p', "pid", &sr.pids, "pid",
			   "analyze events only for given process id(s)"),
		OPT_BOOLEAN('f', "force", &sr.force, "don't complain, do it"),
		OPT_END(),
	};
	int *pids = NULL;
	int ret = PCL_EXIT_EINVAL;

	kvm_stat__init(&sr.k);
	sr.event = "vmexit";
	sr.key = "sample";
	if (parse_options(argc, argv, options, usage, 0))
		usage_with_options(usage, options);
	/* perf checks in this order, and names only some of its complaints */
	if (sr.pids && kvm_stat__parse_pids(sr.pids, &pids, &sr.k.nr_pids) < 0)
		fputs("Error parsing process id string\n", stderr);
	else if (sr.k.vcpu < -1)
		fprintf(stderr, "Invalid vcpu:%d.\n", sr.k.vcpu);
	else if (kvm_stat__parse_key(sr.key, &sr.k.sort) < 0)
		fprintf(stderr, "Unknown compare key:%s\n", sr.key);
	else if (kvm_stat__parse_event(sr.event, &sr.k.report) == 0)
		ret = 0;
	sr.k.pids = pids;
	if (!ret)
		ret = stat_read();
	if (!ret) {
		kvm_stat__sort(&sr.k);
		kvm_stat_print(stderr, &sr.k, sr.pids);
	}
	kvm_stat__exit(&sr.k);
	free(pids);
	return ret;
}

/* --- stat live: the table every --display seconds, from the rings --- */

struct live_record {
	uint64_t time;
	size_t seq;			/* arrival order, for equal times */
	struct perf_event_header *rec;	/* a copy */
};

struct kvm_live {
	struct record_session rs;
	struct tep_event **formats;	/* by evsel->idx */
	struct live_record *pending;	/* one round's records, put in time order */
	size_t nr_pending, alloc_pending;
	uint64_t lost;
	const char *pids;
};

static struct evsel *live_evsel(struct kvm_live *l, uint64_t id)
{
	for (size_t i = 0; i < l->rs.nr_ids; i++)
		if (l->rs.id_map[i].id == id)
			return l->rs.id_map[i].evsel;
	return NULL;
}

static int live_collect(void *ctx, int cpu, const struct perf_event_header *rec)
{
	struct kvm_live *l = ctx;
	struct perf_sample sample;
	const char *err;
	struct live_record *r;

	(void)cpu;
	if (rec->type == PERF_RECORD_LOST) {
		l->lost++;
		return 0;
	}
	if (rec->type != PERF_RECORD_SAMPLE ||
	    perf_sample__parse(&l->rs.evlist->first->attr, rec, &sample, &err))
		return 0;
	if (l->nr_pending == l->alloc_pending) {
		l->alloc_pending = l->alloc_pending ? 2 * l->alloc_pending : 4096;
		l->pending = xrealloc(l->pending, l->alloc_pending * sizeof(*l->pending));
	}
	r = &l->pending[l->nr_pending];
	r->time = sample.time;
	r->seq = l->nr_pending++;
	r->rec = xmalloc(rec->size);
	memcpy(r->rec, rec, rec->size);
	return 0;
}

static int live_record_cmp(const void *pa, const void *pb)
{
	const struct live_record *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int live_round(void *ctx, size_t bytes)
{
	struct kvm_live *l = ctx;

	(void)bytes;
	if (l->nr_pending > 1)	/* none pending: no array at all */
		qsort(l->pending, l->nr_pending, sizeof(*l->pending), live_record_cmp);
	for (size_t i = 0; i < l->nr_pending; i++) {
		struct perf_sample sample;
		struct kvm_slow_event slow;
		const char *err;
		struct evsel *evsel;

		if (!perf_sample__parse(&l->rs.evlist->first->attr, l->pending[i].rec, &sample,
					&err) && (evsel = live_evsel(l, sample.id)) &&
		    kvm_stat__tp_sample(&sr.k, evsel->name, l->formats[evsel->idx], &sample, &slow))
			kvm_stat_print_slow(stderr, &sr.k, &slow);
		free(l->pending[i].rec);
	}
	l->nr_pending = 0;
	return 0;
}

/* The CPU vendor, all the exit names depend on ("GenuineIntel"). */
static const char *host_cpuid(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, size, "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "vendor_id", 9) || !colon)
			continue;
		snprintf(buf, size, "%s", colon + 2);
		buf[strcspn(buf, "\n")] = '\0';
		break;
	}
	if (f)
		fclose(f);
	return buf;
}

/* perf's screen: cleared, the time of day, the table, then the interval's
 * statistics start over. */
static void live_display(struct kvm_live *l)
{
	struct timeval tv;
	struct tm tm;
	char date[64];

	kvm_stat__sort(&sr.k);
	fputs("\033[H\033[2J\n", stdout);
	fflush(stdout);
	gettimeofday(&tv, NULL);
	if (localtime_r(&tv.tv_sec, &tm)) {
		strftime(date, sizeof(date), "%H:%M:%S", &tm);
		fprintf(stderr, "%s.%06ld", date, (long)tv.tv_usec);
	} else {
		fputs("00:00:00.000000", stderr);
	}
	kvm_stat_print(stderr, &sr.k, l->pids);
	if (l->lost)
		fprintf(stderr, "\nLost events: %llu\n\n", (unsigned long long)l->lost);
	kvm_stat__clear(&sr.k);
	l->lost = 0;
}

static int live_tick(void *ctx, bool stopping)
{
	if (!stopping && drain__take_signal(SIGALRM))
		live_display(ctx);
	return 0;
}

static int live_run(struct kvm_live *l, struct record_opts *ropts, unsigned int display)
{
	struct drain_consumer c = { .ctx = l, .record = live_collect, .round_end = live_round,
				    .tick = live_tick };
	struct itimerval every = { .it_interval = { .tv_sec = display },
				   .it_value = { .tv_sec = display } };
	struct parse_events_error perr = { .idx = -1 };
	struct cpu_map *cpus = NULL;
	struct thread_map *threads = NULL;
	struct tep_handle *tep = tep_alloc();
	struct evsel *failed = NULL;
	struct evlist evlist;
	bool filter_failed = false;
	static const int alarm_sig[] = { SIGALRM };
	int err;

	evlist__init(&evlist);
	if (parse_events(&evlist, kvm_events, &perr)) {
		parse_events_error__print(&perr, kvm_events);
		parse_events_error__exit(&perr);
		err = -ENOENT;
		goto out;
	}
	if (target__create_maps(&ropts->target, &cpus, &threads) != TARGET_MAPS_OK) {
		fprintf(stderr, "Couldn't create thread/CPU maps: %s\n", strerror(ESRCH));
		err = -ESRCH;
		goto out;
	}
	if (cpu_map__is_any(cpus) && !target__has_per_thread(&ropts->target)) {
		cpu_map__delete(cpus);
		cpus = cpu_map__new_online();
	}
	record__config(&evlist, ropts);
	evlist__for_each(&evlist, e)	/* every sample says its event */
		e->attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
	err = record_session__open(&l->rs, &evlist, cpus, threads, ropts, &failed,
				   &filter_failed);
	if (err) {
		char msg[512];

		if (failed) {
			evsel__open_strerror(failed, -err, false, msg, sizeof(msg));
			fprintf(stderr, "Error:\n%s\n", msg);
		} else {
			fprintf(stderr, "failed to mmap with %d (%s)\n", -err, strerror(-err));
		}
		goto out_close;
	}
	l->formats = xcalloc(evlist.nr_entries, sizeof(*l->formats));
	evlist__for_each(&evlist, e)
		l->formats[e->idx] = kvm_stat__local_format(tep, e->name);
	drain__catch_signals(alarm_sig, ARRAY_SIZE(alarm_sig));
	setitimer(ITIMER_REAL, &every, NULL);
	err = drain__run(&l->rs.drain, &c);
	setitimer(ITIMER_REAL, &(struct itimerval){ 0 }, NULL);
	live_round(l, 0);
	if (!err) {
		kvm_stat__sort(&sr.k);
		kvm_stat_print(stderr, &sr.k, l->pids);
	}
	free(l->pending);
	free(l->formats);
out_close:
	record_session__close(&l->rs);
out:
	evlist__exit(&evlist);
	cpu_map__delete(cpus);
	thread_map__delete(threads);
	tep_free(tep);
	return err ? PCL_EXIT_ERROR : 0;
}

static int stat_live(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl kvm stat live [<options>]", NULL };
	struct kvm_live l = { 0 };
	struct record_opts ropts;
	unsigned int display = 1, proc_map_timeout = 500;
	int verbose = 0, ret = PCL_EXIT_EINVAL;
	unsigned int mmap_pages = 512;
	const struct option options[] = {
		OPT_STRING('p', "pid", &ropts.target.pid, "pid",
			   "record events on existing process id"),
		{ .type = OPT_UINT_T, .short_name = 'm', .long_name = "mmap-pages",
		  .value = &mmap_pages, .argh = "pages", .help = "number of mmap data pages" },
		OPT_INCR('v', "verbose", &verbose,
			 "be more verbose (show counter open errors, etc)"),
		OPT_BOOLEAN('a', "all-cpus", &ropts.target.system_wide,
			    "system-wide collection from all CPUs"),
		OPT_UINTEGER('d', "display", &display, "time in seconds between display updates"),
		OPT_STRING(0, "event", &sr.event, "report event",
			   "event for reporting: vmexit, mmio (x86 only), ioport (x86 only)"),
		OPT_INTEGER(0, "vcpu", &sr.k.vcpu, "vcpu id to report"),
		OPT_STRING('k', "key", &sr.key, "sort-key",
			   "key for sorting: sample(sort by samples number) "
			   "time (sort by avg time)"),
		OPT_U64(0, "duration", &sr.k.duration,
			"show events other than HLT (x86 only) or Wait state (s390 only) that "
			"take longer than duration usecs"),
		OPT_UINTEGER(0, "proc-map-timeout", &proc_map_timeout,
			     "per thread proc mmap processing timeout in ms"),
		OPT_END(),
	};
	char cpuid[128];

	record_opts__init(&ropts);
	kvm_stat__init(&sr.k);
	sr.event = "vmexit";
	sr.key = "sample";
	if (parse_options(argc, argv, options, usage, 0))
		usage_with_options(usage, options);
	if (target__none(&ropts.target))
		ropts.target.system_wide = true;
	sr.k.duration *= 1000;	/* given in microseconds */
	l.pids = ropts.target.pid;
	if (sr.k.vcpu < -1)
		fprintf(stderr, "Invalid vcpu:%d.\n", sr.k.vcpu);
	else if (kvm_stat__parse_key(sr.key, &sr.k.sort) < 0)
		fprintf(stderr, "Unknown compare key:%s\n", sr.key);
	else if (kvm_stat__parse_event(sr.event, &sr.k.report) == 0)
		ret = 0;
	if (!ret && kvm_stat__set_isa(&sr.k, host_cpuid(cpuid, sizeof(cpuid))) < 0) {
		fprintf(stderr, "CPU %s is not supported.\n", cpuid);
		ret = -EOPNOTSUPP & 0xff;
	}
	if (!ret) {
		ropts.raw_samples = true;
		ropts.freq = 0;
		ropts.interval = 1;
		ropts.user_interval = true;
		ropts.mmap_pages = mmap_pages;
		ret = live_run(&l, &ropts, display ? display : 1);
	}
	kvm_stat__exit(&sr.k);
	return ret;
}

static int kvm_stat(int argc, const char **argv)
{
	if (argc == 1)	/* perf lists the sub-commands, then counts system-wide */
		fputs("Usage: pcl kvm stat <command>\n\n# Available commands:\n"
		      "\trecord: record kvm events\n"
		      "\treport: report statistical data of kvm events\n"
		      "\tlive:   live reporting of statistical data of kvm events\n\n"
		      "Otherwise, it is the alias of 'pcl stat':\n", stdout);
	if (argc > 1 && is_cmd(argv[1], "record"))
		return stat_record(argc - 1, argv + 1);
	if (argc > 1 && is_cmd(argv[1], "report"))
		return stat_report(argc - 1, argv + 1);
	if (argc > 1 && !strncmp(argv[1], "live", 4))
		return stat_live(argc - 1, argv + 1);
	return cmd_stat(argc, argv);	/* perf stat, counting the guests */
}

int cmd_kvm(int argc, const char **argv)
{
	const struct option options[] = {
		OPT_STRING('i', "input", &kc.file, "file", "Input file name"),
		OPT_STRING('o', "output", &kc.file, "file", "Output file name"),
		OPT_INCR('v', "verbose", &kc.verbose,
			 "be more verbose (show counter open errors, etc)"),
		OPT_BOOLEAN(0, "guest", &parse_events__guest, "Collect guest os data"),
		OPT_BOOLEAN(0, "guest-code", &kc.guest_code,
			    "Guest code can be found in hypervisor process"),
		OPT_STRING(0, "guestkallsyms", &kc.guestkallsyms, "file",
			   "file saving guest os /proc/kallsyms"),
		OPT_STRING(0, "guestmodules", &kc.guestmodules, "file",
			   "file saving guest os /proc/modules"),
		OPT_STRING(0, "guestmount", &kc.guestmount, "directory",
			   "guest mount directory under which every guest os instance "
			   "has a subdir"),
		OPT_STRING(0, "guestvmlinux", &kc.guestvmlinux, "file",
			   "file saving guest os vmlinux"),
		OPT_BOOLEAN(0, "host", &parse_events__host, "Collect host os data"),
		OPT_END(),
	};

	/* perf kvm profiles the guests unless told --host */
	parse_events__host = false;
	parse_events__guest = true;
	argc = parse_options(argc, argv, options, kvm_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_with_options(kvm_usage, options);
	if (!parse_events__host)
		parse_events__guest = true;
	if (!kc.file)
		kc.file = default_file();
	perf_session__guest_symbols(&(struct guest_symbols){ kc.guestkallsyms, kc.guestvmlinux,
							     kc.guestmodules, kc.guestmount,
							     kc.guest_code });

	if (is_cmd(argv[0], "record"))
		return run_with_file(cmd_record, "record", "-o", argc, argv);
	if (is_cmd(argv[0], "report"))
		return run_with_file(cmd_report, "report", "-i", argc, argv);
	if (is_cmd(argv[0], "diff"))
		return cmd_diff(argc, argv);
	if (!strcmp(argv[0], "top"))
		return cmd_top(argc, argv);	/* on the guests' events, as set above */
	if (is_cmd(argv[0], "buildid-list"))
		return run_with_file(cmd_buildid_list, "buildid-list", "-i", argc, argv);
	if (is_cmd(argv[0], "stat"))
		return kvm_stat(argc, argv);
	usage_with_options(kvm_usage, options);
	return PCL_EXIT_USAGE;
}
