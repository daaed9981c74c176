/* pcl sched: scheduler analyses of a sched recording (perf sched).
 *
 * `record` records perf's scheduler events system-wide through cmd_record;
 * `latency`, `map` and `timehist` read them through the session, decode
 * them (core/analysis/sched-events) and hand them to their analysis;
 * `script` is pcl script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "core/analysis/sched-events.h"
#include "core/analysis/sched-latency.h"
#include "core/data/session.h"
#include "core/events/tracepoint.h"
#include "ui/sched-latency-print.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const sched_usage[] = {
	"pcl sched [<options>] {record|latency|map|replay|script|timehist}", NULL
};
static const char *const latency_usage[] = { "pcl sched latency [<options>]", NULL };

#define DEFAULT_SORT "avg, max, switch, runtime"

struct sched_cmd {
	struct perf_tool tool;
	/* top-level options */
	const char *input;
	bool force, dump;
	int verbose;
	/* latency */
	const char *sort;
	int profile_cpu;
	bool per_pid;

	struct perf_session *session;
	struct sched_decoder *decoder;
	struct sched_latency *lat;
	long nr_lost_events;
};

#define SCHED_COMMON_OPTIONS(c)							\
	OPT_STRING('i', "input", &(c)->input, "file", "input file name"),	\
	OPT_INCR('v', "verbose", &(c)->verbose, "be more verbose (show symbol address, etc)"), \
	OPT_BOOLEAN('D', "dump-raw-trace", &(c)->dump, "dump raw trace in ASCII"),	\
	OPT_BOOLEAN('f', "force", &(c)->force, "don't complain, do it")

/* perf sched record: perf's event set, every CPU, one sample per event. */
static int sched_record(int argc, const char **argv)
{
	static const char *const fixed[] = {
		"record", "-a", "-R", "-m", "1024", "-c", "1",
		"-e", "sched:sched_switch", "-e", "sched:sched_stat_runtime",
		"-e", "sched:sched_process_fork", "-e", "sched:sched_wakeup_new",
		"-e", "sched:sched_migrate_task",
	};
	static const char *const stat_events[] = {
		"sched:sched_stat_wait", "sched:sched_stat_sleep", "sched:sched_stat_iowait",
	};
	size_t nr_fixed = sizeof(fixed) / sizeof(fixed[0]);
	const char **rec_argv = xcalloc(nr_fixed + 10 + (size_t)argc, sizeof(*rec_argv));
	int n = 0, ret;
	char enabled = '0';
	FILE *fp;

	for (size_t i = 0; i < nr_fixed; i++)
		rec_argv[n++] = fixed[i];
	/* the sched_stat_* events only count with schedstats on */
	fp = fopen("/proc/sys/kernel/sched_schedstats", "r");
	if (fp) {
		if (fread(&enabled, 1, 1, fp) != 1)
			enabled = '0';
		fclose(fp);
	}
	for (size_t i = 0; enabled == '1' && i < sizeof(stat_events) / sizeof(stat_events[0]); i++) {
		if (tracepoint__id("sched", stat_events[i] + strlen("sched:")) >= 0) {
			rec_argv[n++] = "-e";
			rec_argv[n++] = stat_events[i];
		}
	}
	/* sched_waking tells when a wake-up began; older kernels lack it */
	rec_argv[n++] = "-e";
	rec_argv[n++] = tracepoint__id("sched", "sched_waking") >= 0 ? "sched:sched_waking"
								       : "sched:sched_wakeup";
	for (int i = 1; i < argc; i++)
		rec_argv[n++] = argv[i];
	ret = cmd_record(n, rec_argv);
	free(rec_argv);
	return ret;
}

static int lost_event(struct perf_tool *tool, struct perf_session *s,
		      const struct perf_event_header *rec, struct perf_sample *sample,
		      struct evsel *evsel)
{
	struct sched_cmd *c = (struct sched_cmd *)tool;

	c->nr_lost_events += (long)((const struct perf_rec_lost *)rec)->lost;
	return 0;
}

static int latency_sample(struct perf_tool *tool, struct perf_session *s,
			  const struct perf_event_header *rec, struct perf_sample *sample,
			  struct evsel *evsel)
{
	struct sched_cmd *c = (struct sched_cmd *)tool;
	struct sched_event ev;

	if (!sched_decoder__decode(c->decoder, evsel, sample, &ev))
		return 0;
	return sched_latency__event(c->lat, s->machine, &ev, sample);
}

/* Opens the input with a machine and the decoder. */
static int open_input(struct sched_cmd *c)
{
	char *err = NULL;

	c->session = perf_session__open(c->input ? c->input : "perf.data", c->force, &err);
	if (!c->session) {
		fprintf(stderr, "pcl sched: %s\n", err);
		free(err);
		return -1;
	}
	perf_session__new_machine(c->session, NULL, NULL, c->force);
	c->decoder = sched_decoder__new(c->session);
	return 0;
}

static void close_input(struct sched_cmd *c)
{
	sched_decoder__delete(c->decoder);
	perf_session__delete(c->session);
}

static int process(struct sched_cmd *c)
{
	c->tool.ordered = true;
	c->tool.lost = lost_event;
	if (perf_session__process(c->session, &c->tool) < 0) {
		fprintf(stderr, "pcl sched: %s\n", c->session->err ? c->session->err : "failed");
		return -1;
	}
	return 0;
}

static int sched_latency(struct sched_cmd *c, int argc, const char **argv)
{
	const struct option opts[] = {
		OPT_STRING('s', "sort", &c->sort, "key[,key2...]",
			   "sort by key(s): runtime, switch, avg, max"),
		OPT_INTEGER('C', "CPU", &c->profile_cpu, "CPU to profile on"),
		OPT_BOOLEAN('p', "pids", &c->per_pid, "latency stats per pid instead of per comm"),
		SCHED_COMMON_OPTIONS(c),
		OPT_END(),
	};
	struct sched_lat_info info = { 0 };
	struct sched_lat_task **rows;
	char *bad = NULL;
	int nr, ret = PCL_EXIT_OK;

	if (parse_options(argc, argv, opts, latency_usage, 0))
		usage_with_options(latency_usage, opts);
	if (!sched_latency__valid_sort(c->sort, &bad)) {
		fprintf(stderr, "  Error: Unknown --sort key: `%s'\n", bad);
		free(bad);
		usage_with_options(latency_usage, opts);
	}
	if (open_input(c))
		return PCL_EXIT_ERROR;
	c->lat = sched_latency__new(c->profile_cpu);
	c->tool.sample = latency_sample;
	if (process(c)) {
		ret = PCL_EXIT_ERROR;
	} else {
		rows = sched_latency__rows(c->lat, c->sort, c->per_pid, &nr);
		info.nr_events = (long)c->session->stats.nr_events;
		info.nr_lost_events = c->nr_lost_events;
		info.nr_lost_chunks = (long)c->session->stats.nr_records[PERF_RECORD_LOST];
		sched_latency__print(stdout, rows, nr, sched_latency__counts(c->lat), &info);
	}
	sched_latency__delete(c->lat);
	close_input(c);
	return ret;
}

int cmd_sched(int argc, const char **argv)
{
	struct sched_cmd c = { .sort = DEFAULT_SORT, .profile_cpu = -1 };
	const struct option opts[] = {
		SCHED_COMMON_OPTIONS(&c),
		OPT_END(),
	};
	const char *sub;

	argc = parse_options(argc, argv, opts, sched_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_with_options(sched_usage, opts);
	sub = argv[0];
	if (!strncmp(sub, "rec", 3))
		return sched_record(argc, argv);
	if (!strncmp(sub, "lat", 3))
		return sched_latency(&c, argc, argv);
	if (strlen(sub) > 2 && !strncmp("script", sub, strlen(sub)))
		return cmd_script(argc, argv);
	usage_with_options(sched_usage, opts);
	return PCL_EXIT_USAGE;
}
