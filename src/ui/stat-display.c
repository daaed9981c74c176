/* stat-display: renders stat results byte for byte as perf 6.1 does.
 *
 * Every row is: [interval stamp] [unit id] value unit event [cgroup]
 * then, in text mode, the "#" metric column padded to METRIC_LEN, the -r
 * noise and the multiplexing percentage; CSV and JSON put noise and
 * running time before the metric.
 */
#include "ui/stat-display.h"
#include "core/events/evlist.h"
#include "util/util.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define METRIC_LEN 35
#define NOT_SUPPORTED "<not supported>"
#define NOT_COUNTED "<not counted>"

/* The state of the row being printed (a continuation line repeats its head). */
struct row {
	struct stat_display *d;
	const char *prefix;
	const struct stat_counter *c;
	struct aggr_id id;
	int nr;
	bool newline;		/* next metric goes on a continuation line */
	int nfields;		/* CSV: fields left empty on a continuation line */
};

static const char *cgroup_name(const struct stat_counter *c)
{
	return c->evsel->cgrp ? c->evsel->cgrp->name : NULL;
}

static const char *thread_comm(const struct stat_display *d, int idx)
{
	const char *comm = d->threads ? d->threads->map[idx].comm : NULL;

	return comm ? comm : "<unknown>";
}

/* The unit id column: "CPU3 ", "S0-D0-C1  2 ", "comm-pid ", JSON keys. */
static void print_aggr_id(struct stat_display *d, struct aggr_id id, int nr)
{
	FILE *f = d->out;
	bool csv = d->csv;

	if (d->json && !d->interval)
		fputc('{', f);
	switch (d->aggr_mode) {
	case AGGR_CORE:
		if (d->json)
			fprintf(f, "\"core\" : \"S%d-D%d-C%d\", \"aggregate-number\" : %d, ",
				id.socket, id.die, id.core, nr);
		else
			fprintf(f, "S%d-D%d-C%*d%s%*d%s", id.socket, id.die, csv ? 0 : -8, id.core,
				d->sep, csv ? 0 : 4, nr, d->sep);
		break;
	case AGGR_DIE:
		if (d->json)
			fprintf(f, "\"die\" : \"S%d-D%d\", \"aggregate-number\" : %d, ",
				id.socket, id.die, nr);
		else
			fprintf(f, "S%d-D%*d%s%*d%s", id.socket, csv ? 0 : -8, id.die, d->sep,
				csv ? 0 : 4, nr, d->sep);
		break;
	case AGGR_SOCKET:
		if (d->json)
			fprintf(f, "\"socket\" : \"S%d\", \"aggregate-number\" : %d, ", id.socket, nr);
		else
			fprintf(f, "S%*d%s%*d%s", csv ? 0 : -5, id.socket, d->sep, csv ? 0 : 4, nr, d->sep);
		break;
	case AGGR_NODE:
		if (d->json)
			fprintf(f, "\"node\" : \"N%d\", \"aggregate-number\" : %d, ", id.node, nr);
		else
			fprintf(f, "N%*d%s%*d%s", csv ? 0 : -5, id.node, d->sep, csv ? 0 : 4, nr, d->sep);
		break;
	case AGGR_NONE:
		if (id.core < 0)
			break;
		if (d->json)
			fprintf(f, "\"cpu\" : \"%d\", ", id.cpu);
		else
			fprintf(f, "CPU%*d%s", csv ? 0 : -7, id.cpu, d->sep);
		break;
	case AGGR_THREAD: {
		const char *comm = thread_comm(d, id.thread);
		int pid = d->threads ? d->threads->map[id.thread].pid : -1;

		if (d->json)
			fprintf(f, "\"thread\" : \"%s-%d\", ", comm, pid);
		else
			fprintf(f, "%*s-%*d%s", csv ? 0 : 16, comm, csv ? 0 : -8, pid, d->sep);
		break;
	}
	case AGGR_GLOBAL:
		break;
	}
}

static void new_line(struct row *r)
{
	struct stat_display *d = r->d;

	if (d->csv) {
		fputc('\n', d->out);
		fputs(r->prefix, d->out);
		print_aggr_id(d, r->id, r->nr);
		for (int i = 0; i < r->nfields; i++)
			fputs(d->sep, d->out);
	} else if (d->json) {
		fputc('\n', d->out);
		fputs(r->prefix, d->out);
		print_aggr_id(d, r->id, r->nr);
	} else {
		/* Text defers the line break until a metric actually follows. */
		r->newline = true;
	}
}

void stat_display__csv_metric_value(char *buf, size_t size, const char *fmt, double val)
{
	char tmp[64];
	const char *p = tmp;
	size_t n = 0;

	snprintf(tmp, sizeof(tmp), fmt, val);
	while (isspace((unsigned char)*p))
		p++;
	while (n + 1 < size && (isdigit((unsigned char)p[n]) || p[n] == '.')) {
		buf[n] = p[n];
		n++;
	}
	buf[n] = '\0';
}

static void print_metric(struct row *r, const struct metric_out *m)
{
	struct stat_display *d = r->d;
	FILE *f = d->out;

	if (d->json) {
		fprintf(f, "\"metric-value\" : %f, ", m->none ? 0.0 : m->val);
		fprintf(f, "\"metric-unit\" : \"%s\"}", m->none ? "(null)" : m->unit);
	} else if (d->csv) {
		char val[64];

		if (m->none || !m->fmt) {
			fprintf(f, "%s%s", d->sep, d->sep);
			return;
		}
		stat_display__csv_metric_value(val, sizeof(val), m->fmt, m->val);
		fprintf(f, "%s%s%s%s", d->sep, val, d->sep, m->unit);
	} else {
		bool newline = r->newline;
		int n;

		r->newline = false;
		if (m->none || !m->fmt) {
			fprintf(f, "%-*s", METRIC_LEN, "");
			return;
		}
		if (newline) {
			fputc('\n', f);
			fputs(r->prefix, f);
			print_aggr_id(d, r->id, r->nr);
			if (d->aggr_mode == AGGR_NONE)
				fprintf(f, "        ");
			fprintf(f, "%49s", "");
		}
		n = fprintf(f, " # ");
		n += fprintf(f, m->fmt, m->val);
		fprintf(f, " %-*s", METRIC_LEN - n - 1, m->unit);
	}
}

/* The metric column of a row that has no value. */
static void print_no_metric(struct row *r)
{
	struct metric_out m = { .none = false, .fmt = NULL, .unit = "", .val = 0 };

	print_metric(r, &m);
}

static void print_noise(struct row *r, double avg)
{
	struct stat_display *d = r->d;
	double pct;

	if (d->run_count == 1)
		return;
	pct = stats__rel_stddev(r->c->noise_stddev, avg);
	if (d->json)
		fprintf(d->out, "\"variance\" : %.2f, ", pct);
	else if (d->csv)
		fprintf(d->out, "%s%.2f%%", d->sep, pct);
	else if (pct)
		fprintf(d->out, "  ( +-%6.2f%% )", pct);
}

static void print_running(struct stat_display *d, uint64_t run, uint64_t ena)
{
	/* perf computes the CSV/JSON percentage in integers */
	double pct = 100;

	if (run != ena)
		pct = ena ? (double)(100 * run / ena) : 0;
	if (d->json)
		fprintf(d->out, "\"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f, ", run, pct);
	else if (d->csv)
		fprintf(d->out, "%s%" PRIu64 "%s%.2f", d->sep, run, d->sep, pct);
	else if (run != ena)
		fprintf(d->out, "  (%.2f%%)", 100.0 * (double)run / (double)ena);
}

static void print_cgroup(struct stat_display *d, const struct stat_counter *c)
{
	const char *name = cgroup_name(c);

	if (!name)
		return;
	if (d->json)
		fprintf(d->out, "\"cgroup\" : \"%s\", ", name);
	else
		fprintf(d->out, "%s%s", d->sep, name);
}

void stat_display__format_value(char *buf, size_t size, double val, double scale,
				bool csv, bool big_num)
{
	bool frac = floor(scale) != scale;

	if (csv)
		snprintf(buf, size, frac ? "%.2f" : "%.0f", val);
	else if (big_num)
		snprintf(buf, size, frac ? "%'18.2f" : "%'18.0f", val);
	else
		snprintf(buf, size, frac ? "%18.2f" : "%18.0f", val);
}

/* A group mixing hardware PMUs cannot be scheduled: perf explains that. */
static bool is_mixed_hw_group(const struct stat_display *d, const struct evsel *counter)
{
	uint32_t type = counter->attr.type;

	if (counter->nr_members < 2)
		return false;
	for (int i = 0; i < d->nr_counters; i++) {
		const struct evsel *pos = d->counters[i].evsel;

		if (pos->attr.type == PERF_TYPE_SOFTWARE)
			continue;
		if (type == PERF_TYPE_SOFTWARE) {
			type = pos->attr.type;
			continue;
		}
		if (type != pos->attr.type)
			return true;
	}
	return false;
}

static void print_uncounted(struct row *r, uint64_t run, uint64_t ena, double noise_avg)
{
	struct stat_display *d = r->d;
	const struct stat_counter *c = r->c;
	const struct evsel *evsel = c->evsel;
	const char *what = evsel->supported ? NOT_COUNTED : NOT_SUPPORTED;

	print_aggr_id(d, r->id, r->nr);
	if (d->json)
		fprintf(d->out, "\"counter-value\" : \"%s\", ", what);
	else
		fprintf(d->out, "%*s%s", d->csv ? 0 : 18, what, d->sep);
	if (evsel->supported) {
		d->hint_uncounted = true;
		if (is_mixed_hw_group(d, evsel))
			d->hint_mixed_group = true;
	}
	if (d->json)
		fprintf(d->out, "\"unit\" : \"%s\", ", c->unit);
	else
		fprintf(d->out, "%-*s%s", d->csv ? 0 : d->unit_width, c->unit, d->sep);
	if (d->json)
		fprintf(d->out, "\"event\" : \"%s\", ", evsel->name);
	else
		fprintf(d->out, "%*s", d->csv ? 0 : -25, evsel->name);
	print_cgroup(d, c);
	if (!d->csv && !d->json)
		print_no_metric(r);
	print_noise(r, noise_avg);
	print_running(d, run, ena);
	if (d->csv || d->json)
		print_no_metric(r);
}

/* One row: the value of counter c in unit u. */
static void print_row(struct stat_display *d, const char *prefix, const struct stat_counter *c,
		      int unit, struct aggr_id id, int nr, double noise_avg)
{
	static const int aggr_fields[] = {
		[AGGR_GLOBAL] = 0, [AGGR_NONE] = 1, [AGGR_SOCKET] = 2, [AGGR_DIE] = 2,
		[AGGR_CORE] = 2, [AGGR_NODE] = 1, [AGGR_THREAD] = 1,
	};
	const struct aggr_value *v = &c->values[unit];
	struct row r = { .d = d, .prefix = prefix, .c = c, .id = id, .nr = nr };
	struct metric_out metrics[METRICS_MAX];
	double uval = v->val * c->scale;
	char buf[64];
	int n;

	r.nfields = 3 + aggr_fields[d->aggr_mode] + (cgroup_name(c) ? 1 : 0);
	fputs(prefix, d->out);
	if (d->csv_summary && d->csv && !d->interval)
		fprintf(d->out, "%16s%s", "summary", d->sep);
	if (!v->counted) {
		print_uncounted(&r, v->run, v->ena, noise_avg);
		fputc('\n', d->out);
		return;
	}
	print_aggr_id(d, id, nr);
	if (d->json) {
		fprintf(d->out, "\"counter-value\" : \"%f\", ", uval);
		fprintf(d->out, "\"unit\" : \"%s\", ", c->unit);
		fprintf(d->out, "\"event\" : \"%s\", ", c->evsel->name);
	} else {
		stat_display__format_value(buf, sizeof(buf), uval, c->scale, d->csv, d->big_num);
		fprintf(d->out, "%s%s", buf, d->sep);
		if (d->csv)
			fprintf(d->out, "%s%s%s", c->unit, d->sep, c->evsel->name);
		else
			fprintf(d->out, "%-*s%s%-32s", d->unit_width, c->unit, d->sep, c->evsel->name);
	}
	print_cgroup(d, c);
	if (d->csv || d->json) {
		print_noise(&r, noise_avg);
		print_running(d, v->run, v->ena);
	}
	n = metrics__compute(d->shadow, c->evsel, unit, uval, metrics);
	for (int i = 0; i < n; i++) {
		if (i)
			new_line(&r);
		print_metric(&r, &metrics[i]);
	}
	if (!d->csv && !d->json) {
		print_noise(&r, noise_avg);
		print_running(d, v->run, v->ena);
	}
	fputc('\n', d->out);
}

static void print_header(struct stat_display *d)
{
	fflush(stdout);
	if (d->csv || d->json)
		return;
	fprintf(d->out, "\n Performance counter stats for %s", d->target_desc);
	if (d->run_count > 1)
		fprintf(d->out, " (%d runs)", d->run_count);
	fprintf(d->out, ":\n\n");
}

/* The units a counter has values in, in display order. */
static bool unit_shown(const struct stat_display *d, const struct stat_counter *c, int u)
{
	/* -A lists only the CPUs the event was opened on */
	return d->aggr_mode != AGGR_NONE || c->values[u].nr > 0;
}

/* --metric-only: the width of the unit id column, and its CSV heading
 * (perf's, commas included or not). */
static const int aggr_header_lens[] = {
	[AGGR_GLOBAL] = 0, [AGGR_NONE] = 6, [AGGR_SOCKET] = 12, [AGGR_DIE] = 18,
	[AGGR_CORE] = 24, [AGGR_NODE] = 6, [AGGR_THREAD] = 24,
};
static const char *const aggr_header_csv[] = {
	[AGGR_GLOBAL] = "", [AGGR_NONE] = "cpu,", [AGGR_SOCKET] = "socket,cpus",
	[AGGR_DIE] = "die,cpus", [AGGR_CORE] = "core,cpus,", [AGGR_NODE] = "node,",
	[AGGR_THREAD] = "comm-pid,",
};

#define METRIC_ONLY_LEN 20

/* perf leaves rates and "CPUs utilized" out of the metric columns. */
static bool metric_only_shown(const char *unit)
{
	return !strstr(unit, "/sec") && !strstr(unit, "CPUs utilized");
}

/* "of all branches" becomes "branch-misses of all branches" in a column head. */
static void metric_only_unit(char *buf, size_t size, const struct evsel *evsel, const char *unit)
{
	if (!strncmp(unit, "of all", 6))
		snprintf(buf, size, "%s %s", evsel->name, unit);
	else
		snprintf(buf, size, "%s", unit);
}

/*
 * The column heads: with -A the metrics of every event; in the aggregated
 * modes perf finds no event leading a metric (there are no -M metrics), so
 * none.  In JSON perf names every unit, the skipped ones included.
 */
static void print_metric_only_header(struct stat_display *d, bool interval)
{
	FILE *f = d->out;
	bool first = true;

	if (d->json)
		fputc('{', f);
	else if (interval)
		fputc(' ', f);
	if (!d->csv && !interval)
		fprintf(f, "%*s", aggr_header_lens[d->aggr_mode], "");
	if (d->csv) {
		if (interval)
			fputs("time,", f);
		fputs(aggr_header_csv[d->aggr_mode], f);
	}
	for (int i = 0; i < d->nr_counters && d->aggr_mode == AGGR_NONE; i++) {
		const struct stat_counter *c = &d->counters[i];
		struct metric_out m[METRICS_MAX];
		int n = metrics__compute(d->shadow, c->evsel, 0, 0, m);

		if (d->json && !first)
			fputs(", ", f);
		first = false;
		for (int k = 0; k < n; k++) {
			char unit[160];

			if (!m[k].none)
				metric_only_unit(unit, sizeof(unit), c->evsel, m[k].unit);
			if (d->json) {
				fprintf(f, "\"unit\" : \"%s\"", m[k].none ? "(null)" : unit);
				continue;
			}
			if (m[k].none || !metric_only_shown(m[k].unit))
				continue;
			if (d->csv)
				fprintf(f, "%s%s", unit, d->sep);
			else
				fprintf(f, "%*s ", METRIC_ONLY_LEN, unit);
		}
	}
	if (d->json)
		fputc('}', f);
	fputc('\n', f);
}

/* One metric column; an event that was not counted gets one empty column. */
static void print_metric_only_value(struct stat_display *d, const struct evsel *evsel,
				    const struct metric_out *m, bool *first)
{
	FILE *f = d->out;
	char unit[160], val[64] = "";
	int width = METRIC_ONLY_LEN;

	if (!m) {
		if (d->json)
			fputs("{\"metric-value\" : \"\"}", f);
		else if (d->csv)
			fputs(d->sep, f);
		else
			fprintf(f, "%*s ", width, "");
		return;
	}
	if (m->none || !metric_only_shown(m->unit))
		return;
	metric_only_unit(unit, sizeof(unit), evsel, m->unit);
	if (d->csv || d->json) {
		if (m->fmt)
			stat_display__csv_metric_value(val, sizeof(val), m->fmt, m->val);
	} else if (m->fmt) {
		snprintf(val, sizeof(val), m->fmt, m->val);
	}
	if (d->json) {
		fprintf(f, "%s\"%s\" : \"%s\"", *first ? "" : ", ", unit, *val ? val : "none");
		*first = false;
	} else if (d->csv) {
		fprintf(f, "%s%s", val, d->sep);
	} else {
		if ((int)strlen(unit) > width)
			width = (int)strlen(unit) + 1;
		fprintf(f, "%*s ", width, val);
	}
}

/* The metric columns of every event in one unit of the aggregation. */
static void print_metric_only_row(struct stat_display *d, const char *prefix, int unit,
				  bool with_id)
{
	bool first = true;

	fputs(prefix, d->out);
	if (with_id)
		print_aggr_id(d, d->map->ids[unit],
			      d->aggr_mode == AGGR_NONE ? 0 : d->counters[0].values[unit].nr);
	for (int i = 0; i < d->nr_counters; i++) {
		const struct stat_counter *c = &d->counters[i];
		const struct aggr_value *v = &c->values[unit];
		struct metric_out m[METRICS_MAX];
		int n;

		if (!unit_shown(d, c, unit))
			continue;
		/* perf stamps each event's columns, not the row */
		if (d->csv_summary && d->csv && !d->interval)
			fprintf(d->out, "%16s%s", "summary", d->sep);
		if (!v->counted) {
			print_metric_only_value(d, c->evsel, NULL, &first);
			continue;
		}
		n = metrics__compute(d->shadow, c->evsel, unit, v->val * c->scale, m);
		for (int k = 0; k < n; k++)
			print_metric_only_value(d, c->evsel, &m[k], &first);
	}
	fputc('\n', d->out);
}

static void print_metric_only(struct stat_display *d, const char *prefix)
{
	if (d->aggr_mode == AGGR_GLOBAL) {
		print_metric_only_row(d, prefix, 0, false);
		return;
	}
	for (int u = 0; u < d->map->nr; u++) {
		bool shown = false;

		for (int i = 0; i < d->nr_counters && !shown; i++)
			shown = unit_shown(d, &d->counters[i], u);
		if (shown || !d->nr_counters)
			print_metric_only_row(d, prefix, u, true);
	}
}

static void print_interval_header(struct stat_display *d)
{
	/* the unit id headings, then the counts headings (or the metric columns) */
	static const char *const heads[][2] = {
		[AGGR_GLOBAL] = { "#           time", "             counts %*s events\n" },
		[AGGR_NONE] = { "#           time CPU    ", "                counts %*s events\n" },
		[AGGR_SOCKET] = { "#           time socket cpus",
				  "             counts %*s events\n" },
		[AGGR_DIE] = { "#           time die          cpus",
			       "             counts %*s events\n" },
		[AGGR_CORE] = { "#           time core            cpus",
				"             counts %*s events\n" },
		[AGGR_NODE] = { "#           time node   cpus",
				"             counts %*s events\n" },
		[AGGR_THREAD] = { "#           time             comm-pid",
				  "                  counts %*s events\n" },
	};
	bool due = d->interval_rows == 0 || d->interval_clear;

	if (d->interval_clear)
		puts("\033[H\033[2J");
	if (due && !d->csv && !d->json) {
		fputs(heads[d->aggr_mode][0], d->out);
		if (!d->metric_only)
			fprintf(d->out, heads[d->aggr_mode][1], d->unit_width, "unit");
	}
	if (due && d->metric_only)
		print_metric_only_header(d, true);
	if (++d->interval_rows == 25)
		d->interval_rows = 0;
}

struct thread_row {
	int unit;
	double val;
};

/* Threads by decreasing value (stable, like perf's glibc qsort in practice). */
static void sort_thread_rows(struct thread_row *rows, int n)
{
	for (int i = 1; i < n; i++) {
		struct thread_row key = rows[i];
		int j = i - 1;

		while (j >= 0 && rows[j].val < key.val) {
			rows[j + 1] = rows[j];
			j--;
		}
		rows[j + 1] = key;
	}
}

static void print_per_thread(struct stat_display *d, const char *prefix,
			     const struct stat_counter *c)
{
	struct thread_row *rows = xcalloc((size_t)(d->map->nr ? d->map->nr : 1), sizeof(*rows));
	int n = 0;

	for (int u = 0; u < d->map->nr; u++) {
		double uval = c->values[u].val * c->scale;

		if (uval == 0.0 && d->per_thread_skip_zero)
			continue;
		rows[n].unit = u;
		rows[n++].val = c->values[u].val;
	}
	sort_thread_rows(rows, n);
	for (int i = 0; i < n; i++)
		print_row(d, prefix, c, rows[i].unit, d->map->ids[rows[i].unit], 0, 1.0);
	free(rows);
}

static void print_counters(struct stat_display *d, const char *prefix)
{
	const struct aggr_map *map = d->map;

	switch (d->aggr_mode) {
	case AGGR_GLOBAL: {
		struct aggr_id none = { -1, -1, -1, -1, -1, -1 };

		for (int i = 0; i < d->nr_counters; i++)
			print_row(d, prefix, &d->counters[i], 0, none, 0, d->counters[i].values[0].val);
		break;
	}
	case AGGR_NONE:
		for (int i = 0; i < d->nr_counters; i++)
			for (int u = 0; u < map->nr; u++)
				if (unit_shown(d, &d->counters[i], u))
					print_row(d, prefix, &d->counters[i], u, map->ids[u], 0, 1.0);
		break;
	case AGGR_THREAD:
		for (int i = 0; i < d->nr_counters; i++)
			print_per_thread(d, prefix, &d->counters[i]);
		break;
	default:
		for (int u = 0; u < map->nr; u++)
			for (int i = 0; i < d->nr_counters; i++)
				print_row(d, prefix, &d->counters[i], u, map->ids[u],
					  d->counters[i].values[u].nr, 1.0);
		break;
	}
}

int stat_display__precision(double stddev)
{
	/* perf: lround(ceil(-log10(sd))); for sd 0 that is LONG_MIN, 0 as an int */
	if (stddev > 1)
		return 0;
	if (stddev <= 0)
		return 0;
	return (int)lround(ceil(-log10(stddev)));
}

static void print_table(struct stat_display *d, int precision, double avg)
{
	char tmp[64];
	int indent = 0;

	snprintf(tmp, sizeof(tmp), " %17.*f", precision, avg);
	while (tmp[indent] == ' ')
		indent++;
	fprintf(d->out, "%*s# Table of individual measurements:\n", indent, "");
	for (int i = 0; i < d->run_count; i++) {
		double run = (double)d->walltime_run[i] / 1e9;
		int bars = 1 + abs((int)(100.0 * (run - avg) / run) / 5);

		fprintf(d->out, " %17.*f (%+.*f) ", precision, run, precision, run - avg);
		for (int h = 0; h < bars; h++)
			fputc('#', d->out);
		fputc('\n', d->out);
	}
	fprintf(d->out, "\n%*s# Final result:\n", indent, "");
}

static bool nmi_watchdog_enabled(void)
{
	char *s = read_file_str("/proc/sys/kernel/nmi_watchdog");
	bool on = s && atoi(s) > 0;

	free(s);
	return on;
}

static void print_footer(struct stat_display *d)
{
	double avg = stats__avg(&d->shadow->walltime) / 1e9;
	FILE *f = d->out;

	if (!d->null_run)
		fputc('\n', f);
	if (d->run_count == 1) {
		fprintf(f, " %17.9f seconds time elapsed", avg);
		if (d->ru_display) {
			fprintf(f, "\n\n");
			fprintf(f, " %17.9f seconds user\n",
				(double)d->ru_utime.tv_sec + (double)d->ru_utime.tv_usec / 1e6);
			fprintf(f, " %17.9f seconds sys\n",
				(double)d->ru_stime.tv_sec + (double)d->ru_stime.tv_usec / 1e6);
		}
	} else {
		double sd = stats__stddev(&d->shadow->walltime) / 1e9, pct;
		int precision = stat_display__precision(sd) + 2;

		if (d->walltime_run)
			print_table(d, precision, avg);
		fprintf(f, " %17.*f +- %.*f seconds time elapsed", precision, avg, precision, sd);
		pct = stats__rel_stddev(sd, avg);
		if (pct)
			fprintf(f, "  ( +-%6.2f%% )", pct);
	}
	fprintf(f, "\n\n");
	if (d->hint_uncounted && nmi_watchdog_enabled())
		fprintf(f, "Some events weren't counted. Try disabling the NMI watchdog:\n"
			   "\techo 0 > /proc/sys/kernel/nmi_watchdog\n"
			   "\t%s stat ...\n"
			   "\techo 1 > /proc/sys/kernel/nmi_watchdog\n", d->tool_name);
	if (d->hint_mixed_group)
		fprintf(f, "The events in group usually have to be from the same PMU. "
			   "Try reorganizing the group.\n");
}

void stat_display__print(struct stat_display *d, const struct timespec *ts)
{
	char prefix[64] = "";

	if (ts) {
		if (d->json)
			snprintf(prefix, sizeof(prefix),
				 d->metric_only ? "{\"interval\" : %lu.%09lu}"
						: "{\"interval\" : %lu.%09lu, ",
				 (unsigned long)ts->tv_sec, (unsigned long)ts->tv_nsec);
		else
			snprintf(prefix, sizeof(prefix), "%6lu.%09lu%s",
				 (unsigned long)ts->tv_sec, (unsigned long)ts->tv_nsec, d->sep);
		print_interval_header(d);
	} else {
		print_header(d);
		/* perf counts the -I prints too: a --summary after them has no header */
		if (d->metric_only && d->metric_prints == 0)
			print_metric_only_header(d, false);
	}
	if (d->metric_only && d->metric_prints++ == 25)
		d->metric_prints = 0;
	if (d->metric_only)
		print_metric_only(d, prefix);
	else
		print_counters(d, prefix);
	if (!ts && !d->csv && !d->json)
		print_footer(d);
	fflush(d->out);
}
