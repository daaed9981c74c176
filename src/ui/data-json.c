/* data-json: a perf.data file as perf data convert --to-json writes it.
 *
 * The layout is perf 6.1's to the byte: tab indents, a newline before each
 * value, commas at line ends, call chains as the raw ips of the sample
 * (context markers switch the cpumode, nothing is expanded or filtered). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <traceevent/event-parse.h>

#include "ui/data-json.h"
#include "util/json.h"
#include "util/util.h"

struct json_writer {
	struct perf_tool tool;
	FILE *out;
	const struct data_json_opts *opts;
	uint64_t sample_type;	/* every event's sample_type or-ed */
	uint64_t nr_samples;
};

/* A new value starts: the comma after the previous one, a newline, the indent. */
static void json_next(FILE *out, bool comma, int depth)
{
	if (comma)
		fputc(',', out);
	fputc('\n', out);
	for (int i = 0; i < depth; i++)
		fputc('\t', out);
}

static void json_key(FILE *out, bool comma, int depth, const char *key)
{
	json_next(out, comma, depth);
	json_write_string(out, key);
	fputs(": ", out);
}

static void json_key_string(FILE *out, bool comma, int depth, const char *key, const char *val)
{
	json_key(out, comma, depth, key);
	json_write_string(out, val);
}

static void __attribute__((format(printf, 5, 6)))
json_key_printf(FILE *out, bool comma, int depth, const char *key, const char *fmt, ...)
{
	va_list ap;

	json_key(out, comma, depth, key);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

static void write_headers(FILE *out, const struct perf_session *s)
{
	const struct perf_header *h = &s->header;
	struct stat st;

	json_key_printf(out, false, 2, "header-version", "%u", 1u);
	if (!fstat(s->fd, &st)) {
		char buf[64];
		time_t mtime = st.st_mtime;

		strftime(buf, sizeof(buf), "%FT%TZ", gmtime(&mtime));
		json_key_string(out, true, 2, "captured-on", buf);
	}
	json_key_printf(out, true, 2, "data-offset", "%llu",
			(unsigned long long)h->file.data.offset);
	json_key_printf(out, true, 2, "data-size", "%llu", (unsigned long long)h->file.data.size);
	json_key_printf(out, true, 2, "feat-offset", "%llu",
			(unsigned long long)(h->file.data.offset + h->file.data.size));
	json_key_string(out, true, 2, "hostname", h->hostname);
	json_key_string(out, true, 2, "os-release", h->osrelease);
	json_key_string(out, true, 2, "arch", h->arch);
	json_key_string(out, true, 2, "cpu-desc", h->cpudesc);
	json_key_string(out, true, 2, "cpuid", h->cpuid);
	json_key_printf(out, true, 2, "nrcpus-online", "%u", h->nr_cpus_online);
	json_key_printf(out, true, 2, "nrcpus-avail", "%u", h->nr_cpus_avail);
	if (h->clock_version) {
		/* the CLOCK_DATA feature: record -k */
		json_key_printf(out, true, 2, "clockid", "%u", h->clockid);
		json_key_printf(out, true, 2, "clock-time", "%llu",
				(unsigned long long)h->clock_clockid_ns);
		json_key_printf(out, true, 2, "real-time", "%llu",
				(unsigned long long)h->clock_tod_ns);
	}
	json_key_string(out, true, 2, "perf-version", h->version);
	json_key(out, true, 2, "cmdline");
	fputc('[', out);
	for (uint32_t i = 0; i < h->nr_cmdline; i++) {
		json_next(out, i != 0, 3);
		json_write_string(out, h->cmdline[i]);
	}
	json_next(out, false, 2);
	fputc(']', out);
}

/* One call-chain entry: its ip, and its symbol and DSO when known. */
static void write_frame(FILE *out, uint64_t ip, const struct addr_location *al)
{
	json_next(out, false, 4);
	fputc('{', out);
	json_key_printf(out, false, 5, "ip", "\"0x%llx\"", (unsigned long long)ip);
	if (al && al->sym && al->sym->name && *al->sym->name) {
		fputc(',', out);
		json_key_string(out, false, 5, "symbol", al->sym->name);
		if (al->dso && al->dso->short_name && *al->dso->short_name) {
			fputc(',', out);
			json_key_string(out, false, 5, "dso", al->dso->short_name);
		}
	}
	json_next(out, false, 4);
	fputc('}', out);
}

static void write_callchain(FILE *out, struct machine *m, const struct perf_sample *sample,
			    const struct addr_location *al)
{
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	bool first = true;

	if (!sample->callchain) {
		write_frame(out, sample->ip, al);
		return;
	}
	for (uint64_t i = 0; i < sample->callchain_nr; i++) {
		uint64_t ip = sample->callchain[i];
		struct addr_location fal;
		bool found;

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_HV)
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
			else if (ip == PERF_CONTEXT_KERNEL)
				cpumode = PERF_RECORD_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				cpumode = PERF_RECORD_MISC_USER;
			continue;
		}
		if (!first)
			fputc(',', out);
		first = false;
		found = machine__lookup(m, al->thread, cpumode, ip, &fal);
		write_frame(out, ip, found ? &fal : NULL);
	}
}

/* Each field as libtraceevent prints it alone ("key": "value"). */
static void write_tracepoint_fields(FILE *out, struct perf_session *s, const struct evsel *evsel,
				    const struct perf_sample *sample)
{
	struct session_event *se = perf_session__event(s, evsel);
	struct tep_format_field **fields;
	struct trace_seq seq;

	if (!se || !se->tp_format || !sample->raw_data)
		return;
	fields = tep_event_fields(se->tp_format);
	if (!fields)
		return;
	for (int i = 0; fields[i]; i++) {
		trace_seq_init(&seq);
		tep_print_field(&seq, (void *)sample->raw_data, fields[i]);
		trace_seq_terminate(&seq);
		json_key_string(out, true, 3, fields[i]->name, seq.buffer);
		trace_seq_destroy(&seq);
	}
	free(fields);
}

static int json_sample(struct perf_tool *tool, struct perf_session *s,
		       const struct perf_event_header *rec, struct perf_sample *sample,
		       struct evsel *evsel)
{
	struct json_writer *w = (struct json_writer *)tool;	/* tool is its first member */
	struct addr_location al;
	FILE *out = w->out;

	(void)rec;
	perf_session__resolve_sample(s, sample, &al);
	if (w->nr_samples++)
		fputc(',', out);
	json_next(out, false, 2);
	fputc('{', out);
	json_key_printf(out, false, 3, "timestamp", "%lld", (long long)sample->time);
	json_key_printf(out, true, 3, "pid", "%d", (int)al.thread->pid);
	json_key_printf(out, true, 3, "tid", "%d", (int)al.thread->tid);
	if (w->sample_type & PERF_SAMPLE_CPU)
		json_key_printf(out, true, 3, "cpu", "%d", (int)sample->cpu);
	json_key_string(out, true, 3, "comm", al.thread->comm);
	json_key(out, true, 3, "callchain");
	fputc('[', out);
	write_callchain(out, s->machine, sample, &al);
	json_next(out, false, 3);
	fputc(']', out);
	if (w->opts->tracepoint_fields)
		write_tracepoint_fields(out, s, evsel, sample);
	json_next(out, false, 2);
	fputc('}', out);
	return 0;
}

int data_json_write(FILE *out, struct perf_session *s, const struct data_json_opts *o,
		    uint64_t *nr_samples, char **err)
{
	struct json_writer w = {
		.tool = { .sample = json_sample, .ordered = true },
		.out = out,
		.opts = o,
	};
	int ret;

	for (struct evsel *e = s->evlist.first; e; e = e->next)
		w.sample_type |= e->attr.sample_type;
	fputc('{', out);
	json_key_printf(out, false, 1, "linux-perf-json-version", "1");
	json_next(out, true, 1);
	fputs("\"headers\": {", out);
	write_headers(out, s);
	json_next(out, false, 1);
	fputs("},", out);
	json_next(out, false, 1);
	fputs("\"samples\": [", out);
	ret = perf_session__process(s, &w.tool);
	json_next(out, false, 1);
	fputc(']', out);
	json_next(out, false, 0);
	fputs("}\n", out);
	*nr_samples = w.nr_samples;
	if (ret && err)
		*err = xstrdup(s->err ? s->err : "processing the file failed");
	return ret ? -1 : 0;
}
