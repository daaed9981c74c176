/* pcl script: print every sample (and optionally task/mmap events) of a
 * perf.data file as text, the way perf script does. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cmd-collapse.h"
#include "core/callchain.h"
#include "core/machine.h"
#include "core/session.h"
#include "ui/header-print.h"
#include "ui/raw-dump.h"
#include "ui/script-print.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const script_usage[] = {
	"pcl script [<options>]",
	NULL
};

/* A comma-separated list of names or numbers (--comms, --pids, -S). */
struct name_list {
	char **v;
	size_t n;
};

struct time_range {
	uint64_t start, end;	/* 0 / UINT64_MAX when open */
};

struct script {
	struct perf_tool tool;
	struct script_config cfg;
	struct perf_session *session;
	struct machine *machine;
	bool dump;
	bool show_task, show_mmap;
	bool header, full_header;	/* --header, -I */
	struct name_list comms, syms, dsos;
	struct name_list pids, tids;
	bool cpu_filter;
	uint8_t cpus[4096 / 8];
	struct time_range *ranges;
	size_t nr_ranges;
};

static void list_parse(struct name_list *l, const char *arg)
{
	char *s = xstrdup(arg), *save = NULL;

	for (char *t = strtok_r(s, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
		l->v[l->n++] = xstrdup(t);
	}
	free(s);
}

static bool list_has(const struct name_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return true;
	return false;
}

static bool list_has_int(const struct name_list *l, long v)
{
	for (size_t i = 0; i < l->n; i++)
		if (strtol(l->v[i], NULL, 0) == v)
			return true;
	return false;
}

static void list_free(struct name_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* "0-3,7" -> bitmap; returns -1 on a malformed list. */
static int parse_cpu_list(uint8_t *bits, size_t nbits, const char *arg)
{
	const char *p = arg;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0)
			return -1;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				return -1;
		}
		if ((size_t)b >= nbits)
			return -1;
		for (long c = a; c <= b; c++)
			bits[c / 8] |= (uint8_t)(1u << (c % 8));
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return 0;
}

/* "sec.usec" (or nanoseconds with 9 decimals) -> ns; empty is 'open'. */
static int parse_timestamp(const char *s, size_t len, uint64_t *ns)
{
	char buf[64], *dot, *end;
	uint64_t sec, frac = 0;
	size_t flen = 0;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	dot = strchr(buf, '.');
	if (dot)
		*dot = 0;
	errno = 0;
	sec = strtoull(buf, &end, 10);
	if (errno || *end || end == buf)
		return -1;
	if (dot) {
		char *f = dot + 1;

		flen = strlen(f);
		if (flen > 9)
			return -1;
		frac = strtoull(f, &end, 10);
		if (*end)
			return -1;
		while (flen++ < 9)
			frac *= 10;
	}
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

/* "a%/n" (the n-th slice of a%), "a%-b%" or "a%" (the first a%) of the
 * recording's span, rounded to ns the way perf does. */
static int parse_percent_range(const char *item, uint64_t first, uint64_t last,
			       struct time_range *r)
{
	double a, b, span = (double)(last - first);
	char *end;
	long n = 1;

	a = strtod(item, &end) / 100.0;
	if (end == item || *end++ != '%')
		return -1;
	b = a;
	if (*end == '/') {
		n = strtol(end + 1, &end, 10);
		if (n < 1 || *end)
			return -1;
		a = b * (double)(n - 1);
		b = b * (double)n;
	} else if (*end == '-') {
		char *e2;

		b = strtod(end + 1, &e2) / 100.0;
		if (e2 == end + 1 || e2[0] != '%' || e2[1])
			return -1;
	} else if (*end) {
		return -1;
	} else {
		a = 0;
	}
	if (a < 0 || a > 1 || b < 0 || b > 1 || b < a)
		return -1;
	r->start = first + (uint64_t)llround(a * span);
	r->end = first + (uint64_t)llround(b * span);
	if (r->end > r->start && r->end != last)
		r->end--;
	return 0;
}

/* --time start,stop[,start,stop...] in seconds, or percent slices */
static int parse_time_ranges(struct script *sc, const char *arg)
{
	const struct perf_header *h = &sc->session->header;
	const char *p = arg;

	if (strchr(arg, '%')) {
		char *copy = xstrdup(arg), *save = NULL;
		int ret = 0;

		if (!h->last_sample_time)
			ret = -1;
		for (char *t = strtok_r(copy, ",", &save); t && !ret; t = strtok_r(NULL, ",", &save)) {
			struct time_range r;

			ret = parse_percent_range(t, h->first_sample_time, h->last_sample_time, &r);
			if (!ret) {
				sc->ranges = xrealloc(sc->ranges, (sc->nr_ranges + 1) * sizeof(r));
				sc->ranges[sc->nr_ranges++] = r;
			}
		}
		free(copy);
		return ret;
	}
	while (*p) {
		const char *comma = strchr(p, ','), *next;
		struct time_range r = { 0, UINT64_MAX };
		size_t len;

		if (!comma)
			return -1;
		if (comma > p && parse_timestamp(p, (size_t)(comma - p), &r.start) < 0)
			return -1;
		next = strchr(comma + 1, ',');
		len = next ? (size_t)(next - comma - 1) : strlen(comma + 1);
		if (len && parse_timestamp(comma + 1, len, &r.end) < 0)
			return -1;
		if (r.end < r.start)
			return -1;
		sc->ranges = xrealloc(sc->ranges, (sc->nr_ranges + 1) * sizeof(*sc->ranges));
		sc->ranges[sc->nr_ranges++] = r;
		p = next ? next + 1 : comma + 1 + len;
	}
	return 0;
}

static bool time_skip(const struct script *sc, uint64_t t)
{
	if (!sc->nr_ranges)
		return false;
	for (size_t i = 0; i < sc->nr_ranges; i++)
		if (t >= sc->ranges[i].start && t <= sc->ranges[i].end)
			return false;
	return true;
}

static bool cpu_skip(const struct script *sc, const struct perf_sample *sample)
{
	if (!sc->cpu_filter || sample->cpu == (uint32_t)-1)
		return false;
	return sample->cpu >= 4096 || !(sc->cpus[sample->cpu / 8] & (1u << (sample->cpu % 8)));
}

static bool thread_filtered(const struct script *sc, const struct thread *t)
{
	if (sc->comms.n && !list_has(&sc->comms, t->comm))
		return true;
	if (sc->pids.n && !list_has_int(&sc->pids, t->pid))
		return true;
	if (sc->tids.n && !list_has_int(&sc->tids, t->tid))
		return true;
	return false;
}

static bool dso_filtered(const struct script *sc, const struct addr_location *al)
{
	const struct dso *d = al->map ? al->map->dso : NULL;

	if (!sc->dsos.n)
		return false;
	return !d || !(list_has(&sc->dsos, d->short_name) || list_has(&sc->dsos, d->long_name));
}

static bool sym_filtered(const struct script *sc, const struct addr_location *al)
{
	char addr[32];

	if (!sc->syms.n)
		return false;
	if (!al->sym)
		return true;
	if (list_has(&sc->syms, al->sym->name))
		return false;
	snprintf(addr, sizeof(addr), "0x%llx",
		 (unsigned long long)map__unmap_ip(al->map, al->sym->start));
	return !list_has(&sc->syms, addr);
}

static void process_sample(struct script *sc, struct evsel *evsel,
			   const struct perf_sample *sample)
{
	struct addr_location al;
	struct thread *thread;

	if (time_skip(sc, sample->time) || cpu_skip(sc, sample))
		return;
	thread = machine__findnew_thread(sc->machine, (pid_t)sample->pid, (pid_t)sample->tid);
	memset(&al, 0, sizeof(al));
	machine__resolve(sc->machine, thread, sample->cpumode, sample->ip, &al);
	al.thread = thread;
	if (sc->dump) {
		printf(" ... thread: %s:%d\n", thread->comm, thread->tid);
		printf(" ...... dso: %s\n", al.map ? al.map->dso->long_name :
		       al.level == 'H' ? "[hypervisor]" : "<not found>");
	}
	if (thread_filtered(sc, thread) || dso_filtered(sc, &al) || sym_filtered(sc, &al))
		return;
	script_print_sample(stdout, &sc->cfg, sc->session, sc->machine, evsel, sample, &al);
}

/* --show-task-events / --show-mmap-events: perf prints the leading sample
 * fields, taking time/pid/tid from the record when there is no trailer. */
static void print_side(struct script *sc, const struct perf_event_header *rec,
		       struct perf_sample *sample, pid_t pid, pid_t tid, uint64_t time)
{
	struct evsel *evsel = NULL;
	struct thread *thread = NULL;

	/* perf's id -> event rule for records: one event or id 0 (synthesized)
	 * means the first; an unknown id is only the first without trailers */
	if (sc->session->evlist.nr_entries == 1 || !sample->id)
		evsel = sc->session->evlist.first;
	else if (!(evsel = perf_session__evsel_by_id(sc->session, sample->id)) &&
		 sc->session->evlist.first && !sc->session->evlist.first->attr.sample_id_all)
		evsel = sc->session->evlist.first;
	if (evsel && !evsel->attr.sample_id_all) {
		sample->cpu = 0;
		sample->time = time;
		sample->pid = (uint32_t)pid;
		sample->tid = (uint32_t)tid;
	}
	if (cpu_skip(sc, sample))
		return;
	if (tid != -1)
		thread = machine__findnew_thread(sc->machine, pid, tid);
	script_print_side_event(stdout, &sc->cfg, sc->session, evsel, rec, sample, thread);
}

static int script_attr(struct perf_tool *tool, struct perf_session *s, struct evsel *evsel)
{
	struct script *sc = (struct script *)tool;

	return script_config__add_event(&sc->cfg, s, evsel) < 0 ? -2 : 0;
}

static int script_record(struct perf_tool *tool, struct perf_session *s,
			 const struct perf_event_header *rec, struct perf_sample *sample,
			 struct evsel *evsel, uint64_t off)
{
	struct script *sc = (struct script *)tool;

	if (sc->dump)
		raw_dump_record(stdout, s, rec, sample, evsel, off);
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		if (evsel)
			process_sample(sc, evsel, sample);
		break;
	case PERF_RECORD_COMM:
		perf_session__feed_machine(sc->machine, rec);
		if (sc->show_task) {
			const struct perf_rec_comm *c = (const void *)rec;

			print_side(sc, rec, sample, (pid_t)c->pid, (pid_t)c->tid, 0);
		}
		break;
	case PERF_RECORD_FORK:
		perf_session__feed_machine(sc->machine, rec);
		if (sc->show_task) {
			const struct perf_rec_fork *f = (const void *)rec;

			print_side(sc, rec, sample, (pid_t)f->pid, (pid_t)f->tid, f->time);
		}
		break;
	case PERF_RECORD_EXIT:
		/* printed before the thread goes away */
		if (sc->show_task) {
			const struct perf_rec_fork *f = (const void *)rec;

			print_side(sc, rec, sample, (pid_t)f->pid, (pid_t)f->tid, f->time);
		}
		perf_session__feed_machine(sc->machine, rec);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		perf_session__feed_machine(sc->machine, rec);
		if (sc->show_mmap) {
			const struct perf_rec_mmap *mm = (const void *)rec;

			print_side(sc, rec, sample, (pid_t)mm->pid, (pid_t)mm->tid, 0);
		}
		break;
	case PERF_RECORD_HEADER_BUILD_ID:
		perf_session__feed_machine(sc->machine, rec);
		break;
	case PERF_RECORD_HEADER_FEATURE: {
		uint64_t feat = ((const struct perf_rec_feature *)(const void *)rec)->feat_id;

		/* a pipe's header arrives piecewise */
		if (sc->header && feat < HEADER_LAST_FEATURE)
			header_print_feature(stdout, s, (int)feat, sc->full_header);
		break;
	}
	default:
		break;
	}
	return 0;
}

/* -C needs CPU in every kind of sample, and CPUs the machine had. */
static int check_cpu_filter(struct script *sc)
{
	uint32_t nr_cpus = sc->session->header.nr_cpus_avail;

	for (int type = 0; type < PERF_TYPE_MAX; type++) {
		evlist__for_each(&sc->session->evlist, pos) {
			if (pos->attr.type != (uint32_t)type)
				continue;
			if (!(pos->attr.sample_type & PERF_SAMPLE_CPU)) {
				fprintf(stderr, "File does not contain CPU events. Remove -C option "
					"to proceed.\n");
				return -1;
			}
			break;
		}
	}
	if (nr_cpus > sizeof(sc->cpus) * 8)
		nr_cpus = sizeof(sc->cpus) * 8;
	for (uint32_t cpu = nr_cpus; cpu < sizeof(sc->cpus) * 8; cpu++) {
		if (sc->cpus[cpu / 8] & (1u << (cpu % 8))) {
			fprintf(stderr, "Requested CPU %u too large. Consider raising MAX_NR_CPUS\n",
				cpu);
			return -1;
		}
	}
	return 0;
}

/* perf's end-of-run warnings about what the recording lost or we skipped */
static void warn_about_losses(const struct session_stats *st)
{
	uint64_t samples = st->nr_records[PERF_RECORD_SAMPLE] + st->total_lost_samples;

	if (st->nr_records[PERF_RECORD_LOST])
		fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\n"
			"Check IO/CPU overload!\n\n", (unsigned long long)st->nr_events,
			(unsigned long long)st->nr_records[PERF_RECORD_LOST]);
	if (samples && (double)st->total_lost_samples / (double)samples > 0.05)
		fprintf(stderr, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
			(unsigned long long)samples,
			100.0 * (double)st->total_lost_samples / (double)samples);
	if (st->nr_unknown)
		fprintf(stderr, "Warning:\nFound %llu unknown events!\n\n"
			"Is this an older tool processing a perf.data file generated by a more "
			"recent tool?\n\n", (unsigned long long)st->nr_unknown);
	if (st->nr_unknown_id)
		fprintf(stderr, "Warning:\n%llu samples with id not present in the header\n",
			(unsigned long long)st->nr_unknown_id);
	if (st->nr_bad_samples > 1)
		fprintf(stderr, "Warning:\n%llu records could not be decoded and were skipped.\n",
			(unsigned long long)st->nr_bad_samples);
	if (st->nr_unordered)
		fprintf(stderr, "Warning:\n%llu out of order events recorded.\n",
			(unsigned long long)st->nr_unordered);
}

struct script_opts {
	const char *input, *fields, *comms, *pids, *tids, *cpus, *time, *syms, *kallsyms, *dsos;
	const char *symfs;
	bool header, header_only, hide_callgraph, force, show_kernel_path;
	bool folded;
	int max_stack;
	int verbose;
};

int cmd_script(int argc, const char **argv)
{
	struct script sc = { 0 };
	struct script_opts o = { .max_stack = callchain_max_stack_default() };
	const struct option opts[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOLEAN('D', "dump-raw-trace", &sc.dump, "dump raw trace in ASCII"),
		OPT_STRING('F', "fields", &o.fields, "str",
			   "comma separated output fields prepend with 'type:'. +field to add "
			   "and -field to remove."),
		OPT_BOOLEAN(0, "header", &o.header, "Show data header."),
		OPT_BOOLEAN(0, "header-only", &o.header_only, "Show only data header."),
		OPT_BOOLEAN('I', "show-info", &sc.full_header,
			    "display extended information from perf.data file"),
		OPT_BOOLEAN('G', "hide-call-graph", &o.hide_callgraph,
			    "When printing symbols do not display call chain"),
		OPT_INTEGER(0, "max-stack", &o.max_stack,
			    "Set the maximum stack depth when parsing the callchain, anything "
			    "beyond the specified depth will be ignored."),
		OPT_BOOLEAN(0, "show-task-events", &sc.show_task,
			    "Show the fork/comm/exit events"),
		OPT_BOOLEAN(0, "show-mmap-events", &sc.show_mmap, "Show the mmap events"),
		OPT_STRING('c', "comms", &o.comms, "comm[,comm...]",
			   "only display events for these comms"),
		OPT_STRING(0, "pid", &o.pids, "pid[,pid...]",
			   "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &o.tids, "tid[,tid...]",
			   "only consider symbols in these tids"),
		{ .type = OPT_STRING_T, .long_name = "pids", .value = &o.pids, .argh = "pid",
		  .flags = OPTF_HIDDEN },
		{ .type = OPT_STRING_T, .long_name = "tids", .value = &o.tids, .argh = "tid",
		  .flags = OPTF_HIDDEN },
		OPT_BOOLEAN(0, "ns", &sc.cfg.nanosecs, "Use 9 decimal places when displaying time"),
		OPT_BOOLEAN(0, "reltime", &sc.cfg.reltime, "Show time stamps relative to start"),
		OPT_BOOLEAN(0, "deltatime", &sc.cfg.deltatime,
			    "Show time stamps relative to previous event"),
		OPT_STRING('C', "cpu", &o.cpus, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "time", &o.time, "str",
			   "Time span of interest (start,stop)"),
		OPT_STRING(0, "dsos", &o.dsos, "dso[,dso...]",
			   "only consider symbols in these DSOs"),
		OPT_STRING('S', "symbols", &o.syms, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_BOOLEAN(0, "show-kernel-path", &o.show_kernel_path,
			    "Show the path of [kernel.kallsyms] (accepted, no effect)"),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_INCR('v', "verbose", &o.verbose, "be more verbose"),
		OPT_BOOLEAN(0, "folded", &o.folded,
			    "print folded stacks 'comm;caller;...;leaf PERIOD' (as pcl collapse)"),
		OPT_END(),
	};
	char *err = NULL;
	int ret = 0;

	script_config__init(&sc.cfg);
	argc = parse_options(argc, argv, opts, script_usage, 0);
	if (argc)
		usage_with_options(script_usage, opts);
	if (o.folded) {
		struct stacks_opts so = { .max_stack = o.max_stack, .kallsyms = o.kallsyms,
					  .symfs = o.symfs, .force = o.force };
		struct stacks_filter_args fa = { .comms = o.comms, .pids = o.pids,
						 .tids = o.tids, .cpus = o.cpus, .time = o.time,
						 .dsos = o.dsos };

		ret = folded_from_perf_data("script", o.input ? o.input : "perf.data", &so, &fa,
					    NULL);
		goto out;
	}
	if (o.fields && script_config__parse_fields(&sc.cfg, o.fields) < 0)
		usage_with_options(script_usage, opts);
	if (o.max_stack < 0)
		o.max_stack = 0;
	sc.cfg.max_stack = o.max_stack;
	sc.cfg.use_callchain = !o.hide_callgraph;
	sc.cfg.dump = sc.dump;
	if (o.comms)
		list_parse(&sc.comms, o.comms);
	if (o.pids)
		list_parse(&sc.pids, o.pids);
	if (o.tids)
		list_parse(&sc.tids, o.tids);
	if (o.syms)
		list_parse(&sc.syms, o.syms);
	if (o.dsos)
		list_parse(&sc.dsos, o.dsos);
	if (o.cpus) {
		if (parse_cpu_list(sc.cpus, sizeof(sc.cpus) * 8, o.cpus) < 0) {
			fprintf(stderr, "Invalid cpu_list\n");
			ret = 255;
			goto out;
		}
		sc.cpu_filter = true;
	}

	sc.session = perf_session__open(o.input ? o.input : "perf.data", &err);
	if (!sc.session) {
		fprintf(stderr, "pcl script: %s\n", err);
		free(err);
		ret = 255;
		goto out;
	}
	if (o.time && parse_time_ranges(&sc, o.time) < 0) {
		fprintf(stderr, "Invalid time string\n");
		ret = 255;
		goto out;
	}
	if (o.header || o.header_only) {
		sc.header = true;
		header_print(stdout, sc.session, sc.full_header);
		if (o.header_only)
			goto out;
	}
	if (sc.cpu_filter && check_cpu_filter(&sc) < 0) {
		ret = 255;
		goto out;
	}
	if (!sc.session->is_pipe && script_config__check(&sc.cfg, sc.session) < 0) {
		ret = 255;
		goto out;
	}
	sc.machine = perf_session__new_machine(sc.session, o.kallsyms, o.symfs, o.force);

	/* output is meant for pipes into awk and flame graph tools: buffer it */
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	sc.tool.record = script_record;
	sc.tool.attr = script_attr;
	sc.tool.ordered = true;
	ret = perf_session__process(sc.session, &sc.tool);
	fflush(stdout);
	warn_about_losses(&sc.session->stats);
	if (ret == -2) {
		ret = 255;
	} else if (ret < 0) {
		fprintf(stderr, "pcl script: %s\n", sc.session->err);
		ret = 255;
	}
out:
	fflush(stdout);
	if (sc.machine)
		machine__delete(sc.machine);
	perf_session__delete(sc.session);
	script_config__exit(&sc.cfg);
	list_free(&sc.comms);
	list_free(&sc.pids);
	list_free(&sc.tids);
	list_free(&sc.syms);
	list_free(&sc.dsos);
	free(sc.ranges);
	return ret;
}
