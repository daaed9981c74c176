/* pcl kvm: profile KVM guests from the host, and time their exits.
 *
 * record, report, buildid-list and diff are the usual commands on perf's
 * kvm file names; stat record records the kvm tracepoints and stat report
 * prints how long the vCPUs spent in each kind of exit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "core/analysis/kvm-stat.h"
#include "core/data/session.h"
#include "core/events/parse-events.h"
#include "ui/kvm-stat-print.h"
#include "ui/session-warnings.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const kvm_usage[] = {
	"pcl kvm [<options>] {top|record|report|diff|buildid-list|stat}", NULL
};

/* perf's names for the top-level options; the guest's symbol files are
 * taken but not used (pcl does not resolve guest samples). */
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
	static const char *const head[] = {
		"record", "-R", "-m", "1024", "-c", "1",
		"-e", "kvm:kvm_entry", "-e", "kvm:kvm_exit", "-e", "kvm:kvm_mmio",
		"-e", "kvm:kvm_pio", "-e", "kvm:kvm_msr",
	};
	const char **args = xcalloc(ARRAY_SIZE(head) + (size_t)argc + 3, sizeof(*args));
	int n = 0, ret;

	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		args[n++] = head[i];
	args[n++] = "-o";
	args[n++] = kc.file;
	for (int i = 1; i < argc; i++)
		args[n++] = argv[i];
	ret = cmd_record(n, args);
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
		fprintf(stderr, "failed to open %s\nInitializing perf session failed\n", err);
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
	if (argc > 1 && !strncmp(argv[1], "live", 4)) {
		fputs("pcl kvm: stat live is not implemented; use stat record and stat report\n",
		      stderr);
		return PCL_EXIT_FAILURE;
	}
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

	if (is_cmd(argv[0], "record"))
		return run_with_file(cmd_record, "record", "-o", argc, argv);
	if (is_cmd(argv[0], "report"))
		return run_with_file(cmd_report, "report", "-i", argc, argv);
	if (is_cmd(argv[0], "diff"))
		return cmd_diff(argc, argv);
	if (!strcmp(argv[0], "top")) {
		fputs("pcl kvm: pcl has no top command yet\n", stderr);
		return PCL_EXIT_FAILURE;
	}
	if (is_cmd(argv[0], "buildid-list"))
		return run_with_file(cmd_buildid_list, "buildid-list", "-i", argc, argv);
	if (is_cmd(argv[0], "stat"))
		return kvm_stat(argc, argv);
	usage_with_options(kvm_usage, options);
	return PCL_EXIT_USAGE;
}
