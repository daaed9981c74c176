/* pcl trace: strace-like syscall tracing (perf trace), replaying a file
 * recorded with `trace record`; `pcl trace record` writes one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "builtin.h"
#include "core/analysis/trace.h"
#include "core/data/session.h"
#include "ui/trace-summary.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const trace_usage[] = {
	"pcl trace [<options>] [<command>]",
	"pcl trace [<options>] -- <command> [<options>]",
	"pcl trace record [<options>] [<command>]",
	"pcl trace record [<options>] -- <command> [<options>]",
	NULL,
};

struct trace_opts {
	const char *input, *output;
	bool summary_only, with_summary, errno_summary, failure, full_time, force;
	const char *duration;
	unsigned int max_events;
};

/* Where the fields of a raw_syscalls event are in its payload. */
struct syscall_tp {
	struct evsel *evsel;
	int id_off, data_off;		/* data: args (enter) or ret (exit) */
};

struct trace_replay {
	struct perf_tool tool;
	struct trace trace;
	struct syscall_tp enter, exit;
	FILE *out;
};

static bool syscall_tp__init(struct syscall_tp *tp, struct perf_session *s, const char *name,
			     const char *data_field)
{
	evlist__for_each(&s->evlist, pos) {
		struct tep_event *ev = perf_session__event(s, pos)->tp_format;
		struct tep_format_field *id, *data;

		if (pos->attr.type != PERF_TYPE_TRACEPOINT || !pos->name || strcmp(pos->name, name))
			continue;
		if (!ev || !(id = tep_find_field(ev, "id")) ||
		    !(data = tep_find_field(ev, data_field)))
			return false;
		tp->evsel = pos;
		tp->id_off = id->offset;
		tp->data_off = data->offset;
		return true;
	}
	return true;
}

static uint64_t raw_u64(const struct perf_sample *sample, int off)
{
	uint64_t v = 0;

	if (off >= 0 && (size_t)off + sizeof(v) <= sample->raw_size)
		memcpy(&v, (const char *)sample->raw_data + off, sizeof(v));
	return v;
}

static int replay_sample(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel)
{
	struct trace_replay *r = (struct trace_replay *)tool;
	struct trace *t = &r->trace;
	bool enter = evsel == r->enter.evsel, exit = evsel == r->exit.evsel;
	struct thread *thread = machine__findnew_thread(s->machine, sample->pid, sample->tid);
	const struct syscall_tp *tp = enter ? &r->enter : &r->exit;

	trace__account(t, sample->time, evsel->attr.sample_type & PERF_SAMPLE_TIME,
		       enter || exit);
	if (!enter && !exit)
		return 0;
	if (enter) {
		uint64_t args[SYSCALL_MAX_ARGS];

		for (int i = 0; i < SYSCALL_MAX_ARGS; i++)
			args[i] = raw_u64(sample, tp->data_off + 8 * i);
		trace__sys_enter(t, thread, sample->time, (long)raw_u64(sample, tp->id_off), args);
	} else {
		trace__sys_exit(t, thread, sample->time, (long)raw_u64(sample, tp->id_off),
				(long)raw_u64(sample, tp->data_off));
	}
	if (t->out.len) {
		fwrite(t->out.buf, 1, t->out.len, r->out);
		strbuf_reset(&t->out);
	}
	return 0;	/* perf replays the whole file whatever --max-events says */
}

/* The machine only follows the records a tool takes. */
static int take_record(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	return 0;
}

static int trace_replay(const struct trace_opts *o, const struct trace_config *cfg, FILE *out)
{
	struct trace_replay r = {
		.tool = { .sample = replay_sample, .comm = take_record, .fork = take_record,
			  .exit = take_record, .mmap = take_record, .mmap2 = take_record,
			  .ordered = true },
		.out = out,
	};
	char *err = NULL;
	struct perf_session *s = perf_session__open(o->input, o->force, &err);
	int ret;

	if (!s) {
		fprintf(stderr, "pcl trace: %s\n", err);
		free(err);
		return PCL_EXIT_FAILURE;
	}
	trace__init(&r.trace, cfg, perf_session__new_machine(s, NULL, NULL, o->force));
	if (!syscall_tp__init(&r.enter, s, "raw_syscalls:sys_enter", "args") ||
	    !syscall_tp__init(&r.exit, s, "raw_syscalls:sys_exit", "ret")) {
		fprintf(stderr, "Error during initialize raw_syscalls:sys_enter event\n");
		trace__exit(&r.trace);
		perf_session__delete(s);
		return PCL_EXIT_FAILURE;
	}
	ret = perf_session__process(s, &r.tool);
	if (ret < 0)
		fprintf(out, "Failed to process events, error %d", ret);
	else if (cfg->summary)
		trace_summary__print(out, &r.trace);
	trace__exit(&r.trace);
	perf_session__delete(s);
	return ret < 0 ? PCL_EXIT_FAILURE : 0;
}

/* perf trace record: perf record with trace's event set, leaving out the
 * recorder's own syscalls. */
static int trace_record(int argc, const char **argv)
{
	const char **rec_argv = xcalloc(argc + 12, sizeof(*rec_argv));
	char *filter = xasprintf("common_pid != %d", (int)getpid());
	int n = 0, ret;

	rec_argv[n++] = "record";
	rec_argv[n++] = "-R";
	rec_argv[n++] = "-m";
	rec_argv[n++] = "1024";
	rec_argv[n++] = "-c";
	rec_argv[n++] = "1";
	rec_argv[n++] = "-e";
	rec_argv[n++] = "raw_syscalls:sys_enter,raw_syscalls:sys_exit";
	rec_argv[n++] = "--filter";
	rec_argv[n++] = filter;
	for (int i = 0; i < argc; i++)
		rec_argv[n++] = argv[i];
	ret = cmd_record(n, rec_argv);
	free(filter);
	free(rec_argv);
	return ret;
}

int cmd_trace(int argc, const char **argv)
{
	struct trace_opts o = { 0 };
	const struct option opts[] = {
		OPT_STRING('i', "input", &o.input, "file", "Analyze events in file"),
		OPT_STRING('o', "output", &o.output, "file", "output file name"),
		OPT_BOOLEAN('s', "summary", &o.summary_only, "Show only syscall summary with statistics"),
		OPT_BOOLEAN('S', "with-summary", &o.with_summary, "Show all syscalls and summary with statistics"),
		OPT_BOOLEAN(0, "errno-summary", &o.errno_summary, "Show errno stats per syscall, use with -s or -S"),
		OPT_BOOLEAN(0, "failure", &o.failure, "Show only syscalls that failed"),
		OPT_STRING(0, "duration", &o.duration, "float", "show only events with duration > N.M ms"),
		OPT_BOOLEAN('T', "time", &o.full_time, "Show full timestamp, not time relative to first start"),
		OPT_UINTEGER(0, "max-events", &o.max_events, "Set the maximum number of events to print, exit after that is reached. "),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_END(),
	};
	struct trace_config cfg = { 0 };
	FILE *out = stderr;
	int ret;

	argc = parse_options(argc, argv, opts, trace_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc >= 1 && !strcmp(argv[0], "record"))
		return trace_record(argc - 1, argv + 1);
	if (!o.input)
		usage_with_options(trace_usage, opts);
	cfg.summary = o.summary_only || o.with_summary;
	cfg.summary_only = o.summary_only;
	cfg.errno_summary = o.errno_summary;
	cfg.failure_only = o.failure;
	cfg.full_time = o.full_time;
	cfg.max_events = o.max_events;
	if (o.duration)
		cfg.duration_ms = atof(o.duration);
	if (o.output) {
		out = fopen(o.output, "w");
		if (!out) {
			fprintf(stderr, "pcl trace: %s: %m\n", o.output);
			return PCL_EXIT_FAILURE;
		}
	}
	ret = trace_replay(&o, &cfg, out);
	if (out != stderr)
		fclose(out);
	return ret;
}
