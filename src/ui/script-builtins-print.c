/* script-builtins-print: perf's scripts' tables, printed from the tallies. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "core/analysis/netdev-times.h"
#include "core/analysis/syscalls.h"
#include "core/analysis/tp-fields.h"
#include "core/data/perf-record.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "ui/script-builtins-print.h"

#define DASHES40 "----------------------------------------"
#define DASHES30 "------------------------------"
#define DASHES20 "--------------------"

void script_builtins_print_list(FILE *fp)
{
	size_t nr;
	const struct script_builtin *sb = script_builtins(&nr);

	fprintf(fp, "List of available trace scripts:\n");
	for (size_t i = 0; i < nr; i++) {
		char *head = xasprintf("%s%s%s", sb[i].name, *sb[i].args ? " " : "", sb[i].args);

		fprintf(fp, "  %-36s %s\n", head, sb[i].description);
		free(head);
	}
}

void script_builtin_print_begin(FILE *fp, const struct script_builtin_run *run)
{
	switch (run->sb->id) {
	case SB_SYSCALL_COUNTS:
	case SB_SYSCALL_COUNTS_BY_PID:
	case SB_FAILED_SYSCALLS_BY_PID:
	case SB_FUTEX_CONTENTION:
		fprintf(fp, "Press control+C to stop and show the summary\n");
		break;
	case SB_EVENT_ANALYZING_SAMPLE:
		fprintf(fp, "In trace_begin:\n\n");
		break;
	case SB_NET_DROPMONITOR:
		fprintf(fp, "Starting trace (Ctrl-C to dump results)\n");
		break;
	case SB_INTEL_PT_EVENTS:
		fprintf(fp, "Intel PT Branch Trace, Power Events, Event Trace and PTWRITE\n");
		break;
	default:
		break;
	}
}

static void print_syscall_name(FILE *fp, const struct script_builtin_run *run, const char *fmt,
			       int64_t nr)
{
	bool named = !run->numeric_syscalls && nr >= 0 && nr <= syscall__max_nr();
	const char *name = named ? syscall__name((int)nr) : NULL;
	char num[24];

	if (!name) {
		snprintf(num, sizeof(num), "%" PRId64, nr);
		name = num;
	}
	fprintf(fp, fmt, name);
}

/* Python's sort by (count, key) in reverse */
static int by_count_then_key_desc(const struct sb_row *a, const struct sb_row *b, int k)
{
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return (a->key[k] < b->key[k]) - (a->key[k] > b->key[k]);
}

static int by_count_id_desc(const struct sb_row *a, const struct sb_row *b)
{
	return by_count_then_key_desc(a, b, 0);
}

static int by_count_nr_desc(const struct sb_row *a, const struct sb_row *b)
{
	return by_count_then_key_desc(a, b, 1);
}

static int by_count_ret_desc(const struct sb_row *a, const struct sb_row *b)
{
	return by_count_then_key_desc(a, b, 2);
}

static int by_count_desc(const struct sb_row *a, const struct sb_row *b)
{
	return (a->count < b->count) - (a->count > b->count);
}

/* A row in the order nested dicts print: the first row of its comm, of
 * its comm and key[0], of its comm, key[0] and key[1]. */
struct nested_row {
	size_t idx;
	size_t first[3];
};

static const struct sb_tally *nested_tally;
static int nested_levels;
static int (*nested_cmp)(const struct sb_row *, const struct sb_row *);

static int by_nesting(const void *a, const void *b)
{
	const struct nested_row *x = a, *y = b;
	int c;

	for (int l = 0; l < nested_levels; l++)
		if (x->first[l] != y->first[l])
			return x->first[l] < y->first[l] ? -1 : 1;
	c = nested_cmp(&nested_tally->rows[x->idx], &nested_tally->rows[y->idx]);
	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* The rows grouped by comm and the first levels - 1 key numbers, groups
 * in the order their first row came, rows in a group by cmp (caller frees). */
static struct nested_row *nested_order(const struct sb_tally *t, int levels,
				       int (*cmp)(const struct sb_row *, const struct sb_row *))
{
	struct nested_row *order = xcalloc(t->nr + 1, sizeof(*order));
	struct sb_tally groups[3] = { { 0 } };

	for (size_t i = 0; i < t->nr; i++) {
		const struct sb_row *row = &t->rows[i];

		order[i].idx = i;
		for (int l = 0; l < levels; l++) {
			struct sb_row *g = sb_tally__get(&groups[l], row->str, l > 0 ? row->key[0] : 0,
							 l > 1 ? row->key[1] : 0, 0);

			if (!g->count++)
				g->val[0] = (int64_t)i;
			order[i].first[l] = (size_t)g->val[0];
		}
	}
	for (int l = 0; l < levels; l++)
		sb_tally__exit(&groups[l]);
	nested_tally = t;
	nested_levels = levels;
	nested_cmp = cmp;
	qsort(order, t->nr, sizeof(*order), by_nesting);
	return order;
}

/* syscall-counts and sctop (one dash less under "count") */
static void print_syscall_counts(FILE *fp, const struct script_builtin_run *run,
				 const char *count_dashes)
{
	size_t *order = sb_tally__sorted(&run->counts, by_count_id_desc);

	if (run->for_comm)
		fprintf(fp, "\nsyscall events for %s:\n\n", run->for_comm);
	else
		fprintf(fp, "\nsyscall events:\n\n");
	fprintf(fp, "%-40s  %10s\n", "event", "count");
	fprintf(fp, "%-40s  %10s\n", DASHES40, count_dashes);
	for (size_t i = 0; i < run->counts.nr; i++) {
		const struct sb_row *row = &run->counts.rows[order[i]];

		print_syscall_name(fp, run, "%-40s", row->key[0]);
		fprintf(fp, "  %10" PRIu64 "\n", row->count);
	}
	free(order);
}

static void print_count_row(FILE *fp, const struct script_builtin_run *run,
			    const struct sb_row *row)
{
	print_syscall_name(fp, run, "  %-38s", row->key[1]);
	fprintf(fp, "  %10" PRIu64 "\n", row->count);
}

static void print_syscall_counts_by_pid(FILE *fp, const struct script_builtin_run *run)
{
	const struct sb_tally *t = &run->counts;
	struct nested_row *order;

	if (run->for_comm)
		fprintf(fp, "\nsyscall events for %s:\n\n", run->for_comm);
	else
		fprintf(fp, "\nsyscall events by comm/pid:\n\n");
	fprintf(fp, "%-40s  %10s\n", "comm [pid]/syscalls", "count");
	fprintf(fp, "%-40s  %10s\n", DASHES40, "----------");
	order = nested_order(t, 2, by_count_nr_desc);
	for (size_t i = 0; i < t->nr; i++) {
		const struct sb_row *row = &t->rows[order[i].idx];

		if (!i || order[i].first[1] != order[i - 1].first[1])
			fprintf(fp, "\n%s [%" PRId64 "]\n", row->str, row->key[0]);
		print_count_row(fp, run, row);
	}
	free(order);
}

static void print_error_row(FILE *fp, const struct sb_row *row)
{
	const char *name = errno__script_name((long)row->key[2]);
	char unknown[48];

	if (!name) {
		snprintf(unknown, sizeof(unknown), "Unknown %" PRId64 " errno", row->key[2]);
		name = unknown;
	}
	fprintf(fp, "    err = %-20s  %10" PRIu64 "\n", name, row->count);
}

static void print_failed_syscalls_by_pid(FILE *fp, const struct script_builtin_run *run)
{
	const struct sb_tally *t = &run->counts;
	struct nested_row *order;

	if (run->for_comm)
		fprintf(fp, "\nsyscall errors for %s:\n\n", run->for_comm);
	else
		fprintf(fp, "\nsyscall errors:\n\n");
	fprintf(fp, "%-30s  %10s\n", "comm [pid]", "count");
	fprintf(fp, "%-30s  %10s\n", DASHES30, "----------");
	order = nested_order(t, 3, by_count_ret_desc);
	for (size_t i = 0; i < t->nr; i++) {
		const struct sb_row *row = &t->rows[order[i].idx];

		if (!i || order[i].first[1] != order[i - 1].first[1])
			fprintf(fp, "\n%s [%" PRId64 "]\n", row->str, row->key[0]);
		if (!i || order[i].first[2] != order[i - 1].first[2])
			print_syscall_name(fp, run, "  syscall: %-16s\n", row->key[1]);
		print_error_row(fp, row);
	}
	free(order);
}

static void print_failed_syscalls(FILE *fp, const struct script_builtin_run *run)
{
	size_t *order = sb_tally__sorted(&run->counts, by_count_desc);

	fprintf(fp, "\nfailed syscalls by comm:\n\n");
	fprintf(fp, "%-20s  %10s\n", "comm", "# errors");
	/* the script gives its three-column format two values */
	fprintf(fp, "%-20s  %6s  %10s\n", DASHES20, "----------", "");
	for (size_t i = 0; i < run->counts.nr; i++) {
		const struct sb_row *row = &run->counts.rows[order[i]];

		if (run->for_comm && strcmp(row->str, run->for_comm))
			continue;
		fprintf(fp, "%-20s  %10" PRIu64 "\n", row->str, row->count);
	}
	free(order);
}

static void print_unhandled(FILE *fp, const struct script_builtin_run *run)
{
	if (!run->unhandled.nr)
		return;
	fprintf(fp, "\nunhandled events:\n\n");
	fprintf(fp, "%-40s  %10s\n", "event", "count");
	fprintf(fp, "%-40s  %10s\n", DASHES40, "-----------");
	for (size_t i = 0; i < run->unhandled.nr; i++)
		fprintf(fp, "%-40s  %10" PRIu64 "\n", run->unhandled.rows[i].str,
			run->unhandled.rows[i].count);
}

static int by_bytes_read_desc(const struct sb_row *a, const struct sb_row *b)
{
	return (a->val[1] < b->val[1]) - (a->val[1] > b->val[1]);
}

static int by_bytes_desc(const struct sb_row *a, const struct sb_row *b)
{
	return (a->val[0] < b->val[0]) - (a->val[0] > b->val[0]);
}

/* The failed reads or writes: (pid, comm, error, count) by count. */
static void print_rw_errors(FILE *fp, const char *what, const struct sb_tally *calls,
			    const struct sb_tally *errors)
{
	size_t *order = sb_tally__sorted(errors, by_count_desc);

	fprintf(fp, "\nfailed %s by pid:\n\n", what);
	fprintf(fp, "%6s  %20s  %6s  %10s\n", "pid", "comm", "error #", "# errors");
	fprintf(fp, "%6s  %20s  %6s  %10s\n", "------", DASHES20, "------", "----------");
	for (size_t i = 0; i < errors->nr; i++) {
		const struct sb_row *row = &errors->rows[order[i]];
		const struct sb_row *call = sb_tally__find(calls, NULL, row->key[0], 0, 0);

		fprintf(fp, "%6" PRId64 "  %-20s  %6" PRId64 "  %10" PRIu64 "\n", row->key[0],
			call && call->comm ? call->comm : "", row->key[1], row->count);
	}
	free(order);
}

static void print_rw_by_pid(FILE *fp, const struct script_builtin_run *run)
{
	size_t *order = sb_tally__sorted(&run->reads, by_bytes_read_desc);

	fprintf(fp, "read counts by pid:\n\n");
	fprintf(fp, "%6s  %20s  %10s  %10s  %10s\n", "pid", "comm", "# reads", "bytes_requested",
		"bytes_read");
	fprintf(fp, "%6s  %-20s  %10s  %10s  %10s\n", "------", DASHES20, "-----------",
		"----------", "----------");
	for (size_t i = 0; i < run->reads.nr; i++) {
		const struct sb_row *row = &run->reads.rows[order[i]];

		fprintf(fp, "%6" PRId64 "  %-20s  %10" PRIu64 "  %10" PRId64 "  %10" PRId64 "\n",
			row->key[0], row->comm ? row->comm : "", row->count, row->val[0],
			row->val[1]);
	}
	free(order);
	print_rw_errors(fp, "reads", &run->reads, &run->read_errors);

	order = sb_tally__sorted(&run->writes, by_bytes_desc);
	fprintf(fp, "\nwrite counts by pid:\n\n");
	fprintf(fp, "%6s  %20s  %10s  %10s\n", "pid", "comm", "# writes", "bytes_written");
	fprintf(fp, "%6s  %-20s  %10s  %10s\n", "------", DASHES20, "-----------", "----------");
	for (size_t i = 0; i < run->writes.nr; i++) {
		const struct sb_row *row = &run->writes.rows[order[i]];

		fprintf(fp, "%6" PRId64 "  %-20s  %10" PRIu64 "  %10" PRId64 "\n", row->key[0],
			row->comm ? row->comm : "", row->count, row->val[0]);
	}
	free(order);
	print_rw_errors(fp, "writes", &run->writes, &run->write_errors);
	print_unhandled(fp, run);
}

static void print_fd_counts(FILE *fp, const char *what, const char *bytes, const char *comm,
			    const struct sb_tally *t)
{
	size_t *order = sb_tally__sorted(t, by_bytes_desc);

	fprintf(fp, "file %s counts for %s:\n\n", what, comm);
	fprintf(fp, "%6s  %10s  %10s\n", "fd", what[0] == 'r' ? "# reads" : "# writes", bytes);
	fprintf(fp, "%6s  %10s  %10s\n", "------", "----------", "-----------");
	for (size_t i = 0; i < t->nr; i++) {
		const struct sb_row *row = &t->rows[order[i]];

		fprintf(fp, "%6" PRIu64 "  %10" PRIu64 "  %10" PRIu64 "\n", (uint64_t)row->key[0],
			row->count, (uint64_t)row->val[0]);
	}
	free(order);
}

static void print_rw_by_file(FILE *fp, const struct script_builtin_run *run)
{
	print_fd_counts(fp, "read", "bytes_requested", run->for_comm, &run->reads);
	fputc('\n', fp);
	print_fd_counts(fp, "write", "bytes_written", run->for_comm, &run->writes);
	print_unhandled(fp, run);
}

#define RWTOP_LINES 20	/* rows per table */

static void print_rwtop(FILE *fp, const struct script_builtin_run *run)
{
	size_t *order = sb_tally__sorted(&run->reads, by_bytes_read_desc);

	fprintf(fp, "\nread counts by pid:\n\n");
	fprintf(fp, "%6s  %20s  %10s  %10s  %10s\n", "pid", "comm", "# reads", "bytes_req",
		"bytes_read");
	fprintf(fp, "%6s  %-20s  %10s  %10s  %10s\n", "------", DASHES20, "----------",
		"----------", "----------");
	for (size_t i = 0; i < run->reads.nr && i < RWTOP_LINES; i++) {
		const struct sb_row *row = &run->reads.rows[order[i]];

		fprintf(fp, "%6" PRId64 "  %-20s  %10" PRIu64 "  %10" PRId64 "  %10" PRId64 "\n",
			row->key[0], row->comm ? row->comm : "", row->count, row->val[0],
			row->val[1]);
	}
	free(order);
	order = sb_tally__sorted(&run->writes, by_bytes_desc);
	fprintf(fp, "\nwrite counts by pid:\n\n");
	fprintf(fp, "%6s  %20s  %10s  %13s\n", "pid", "comm", "# writes", "bytes_written");
	fprintf(fp, "%6s  %-20s  %10s  %13s\n", "------", DASHES20, "----------", "-------------");
	for (size_t i = 0; i < run->writes.nr && i < RWTOP_LINES; i++) {
		const struct sb_row *row = &run->writes.rows[order[i]];

		fprintf(fp, "%6" PRId64 "  %-20s  %10" PRIu64 "  %13" PRId64 "\n", row->key[0],
			row->comm ? row->comm : "", row->count, row->val[0]);
	}
	free(order);
}

void script_builtin_print_screen(FILE *fp, const struct script_builtin_run *run)
{
	/* the scripts' clear_term(): Python's print() adds a newline */
	if (run->sb->id == SB_SCTOP) {
		fprintf(fp, "\x1b[H\x1b[2J\n");
		print_syscall_counts(fp, run, "----------");
	} else {
		fprintf(fp, "\x1b[H\x1b[2J");
		print_rwtop(fp, run);
	}
}

static void print_wakeup_latency(FILE *fp, const struct script_builtin_run *run)
{
	fprintf(fp, "wakeup_latency stats:\n\n");
	fprintf(fp, "total_wakeups: %" PRIu64 "\n", run->wakeups);
	if (run->wakeups)
		fprintf(fp, "avg_wakeup_latency (ns): %" PRIu64 "\n",
			(uint64_t)run->total_latency / run->wakeups);
	else
		fprintf(fp, "avg_wakeup_latency (ns): N/A\n");
	fprintf(fp, "min_wakeup_latency (ns): %" PRId64 "\n", run->min_latency);
	fprintf(fp, "max_wakeup_latency (ns): %" PRId64 "\n", run->max_latency);
	print_unhandled(fp, run);
}

static void print_futex_contention(FILE *fp, const struct script_builtin_run *run)
{
	for (size_t i = 0; i < run->counts.nr; i++) {
		const struct sb_row *row = &run->counts.rows[i];
		const struct sb_row *name = sb_tally__find(&run->names, NULL, row->key[0], 0, 0);

		fprintf(fp, "%s[%" PRId64 "] lock %" PRIx64 " contended %" PRIu64 " times, %" PRId64
			" avg ns [max: %" PRId64 " ns, min %" PRId64 " ns]\n",
			name && name->comm ? name->comm : "", row->key[0], (uint64_t)row->key[1],
			row->count, (int64_t)row->avg, row->max, row->min);
	}
}

static void print_net_dropmonitor(FILE *fp, const struct script_builtin_run *run,
				  const struct ksym_table *ksyms)
{
	fprintf(fp, "Gathering kallsyms data\n");
	fprintf(fp, "%25s %25s %25s\n", "LOCATION", "OFFSET", "COUNT");
	for (size_t i = 0; i < run->counts.nr; i++) {
		const struct sb_row *row = &run->counts.rows[i];
		uint64_t loc = (uint64_t)row->key[0];
		const struct ksym *sym = ksyms ? ksym_table__find(ksyms, loc) : NULL;

		if (sym)
			fprintf(fp, "%25s %25" PRIu64 " %25" PRIu64 "\n", sym->name, loc - sym->addr,
				row->count);
		else
			fprintf(fp, "%25" PRIu64 " %25d %25" PRIu64 "\n", loc, 0, row->count);
	}
}

#define COMPACTION_USAGE "usage: pcl script report compaction-times [-h] [-u] " \
	"[-p|-pv] [-t | [-m] [-fs] [-ms]] [pid|pid-range|comm-regex]\n"

void script_builtin_print_compaction_help(FILE *fp)
{
	fprintf(fp, COMPACTION_USAGE "\n"
		"-h\tdisplay this help\n"
		"-p\tdisplay by process\n"
		"-pv\tdisplay by process (verbose)\n"
		"-t\tdisplay stall times only\n"
		"-m\tdisplay stats for migration\n"
		"-fs\tdisplay stats for free scanner\n"
		"-ms\tdisplay stats for migration scanner\n"
		"-u\tdisplay results in microseconds (default nanoseconds)\n");
}

/* "123ns", or with -u the microseconds rounded half to even, as Python's round() */
static void print_compaction(FILE *fp, const struct compaction_opts *o,
			     const struct compaction *c)
{
	const char *sep = "";

	if (o->micro) {
		int64_t us = c->ns / 1000, rest = c->ns % 1000;

		if (rest > 500 || (rest == 500 && us % 2))
			us++;
		fprintf(fp, "%" PRId64 "us ", us);
	} else {
		fprintf(fp, "%" PRId64 "ns ", c->ns);
	}
	if (o->show & COMPACTION_MIGRATION) {
		fprintf(fp, "migration: moved=%" PRId64 " failed=%" PRId64, c->moved, c->failed);
		sep = " ";
	}
	if (o->show & COMPACTION_FREE_SCANNER) {
		fprintf(fp, "%sfree_scanner: scanned=%" PRId64 " isolated=%" PRId64, sep,
			c->free_scanned, c->free_isolated);
		sep = " ";
	}
	if (o->show & COMPACTION_MIGRATION_SCANNER)
		fprintf(fp, "%smigration_scanner: scanned=%" PRId64 " isolated=%" PRId64, sep,
			c->migrate_scanned, c->migrate_isolated);
	fputc('\n', fp);
}

static void print_compaction_times(FILE *fp, const struct script_builtin_run *run)
{
	const struct compaction_opts *o = &run->compaction;

	fprintf(fp, "total: ");
	print_compaction(fp, o, &run->total);
	for (size_t i = 0; o->by_task && i < run->nr_tasks; i++) {
		const struct compaction_task *t = &run->tasks[i];

		if (t->filtered)
			continue;
		fprintf(fp, "%" PRId64 "[%s]: ", t->pid, t->comm);
		print_compaction(fp, o, &t->sum);
		for (size_t k = 0; k < t->nr_done; k++) {
			fprintf(fp, "%" PRId64 "[%s].%zu: ", t->pid, t->comm, k + 1);
			print_compaction(fp, o, &t->done[k]);
		}
	}
}

/* Python's sort by (count, name) in reverse */
static int by_count_name_desc(const struct sb_row *a, const struct sb_row *b)
{
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return -strcmp(a->str, b->str);
}

static void print_mem_phys_addr(FILE *fp, const struct script_builtin_run *run)
{
	size_t *order = sb_tally__sorted(&run->counts, by_count_name_desc);
	uint64_t total = 0;

	fprintf(fp, "Event: %s\n", run->first_event ? run->first_event : "None");
	fprintf(fp, "%-40s  %10s  %10s\n", "Memory type", "count", "percentage");
	fprintf(fp, "%-40s  %10s  %10s\n", DASHES40, "-----------", "-----------");
	for (size_t i = 0; i < run->counts.nr; i++)
		total += run->counts.rows[i].count;
	for (size_t i = 0; i < run->counts.nr; i++) {
		const struct sb_row *row = &run->counts.rows[order[i]];

		fprintf(fp, "%-40s  %10" PRIu64 "  %10.1f%%\n", row->str, row->count,
			100.0 * (double)row->count / (double)total);
	}
	free(order);
}

/* SQLite's "group by key order by -count(key)": by count, ties by key */
static int by_count_desc_name(const struct sb_row *a, const struct sb_row *b)
{
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->str, b->str);
}

static void print_histogram(FILE *fp, int width, int rule, const char *what,
			    const struct sb_tally *t)
{
	size_t *order = sb_tally__sorted(t, by_count_desc_name);

	fprintf(fp, "\n%*s %8s %16s\n%.*s\n", width, what, "number", "histogram", rule,
		"===================================================================="
		"==========");
	for (size_t i = 0; i < t->nr; i++) {
		const struct sb_row *row = &t->rows[order[i]];
		/* the script's '#' * int(log2(n) + 1), with Python's log(x, 2) */
		int bars = (int)(log((double)row->count) / log(2.0) + 1);

		fprintf(fp, "%*s %8" PRIu64 "     %.*s\n", width, row->str, row->count, bars,
			"################################################################");
	}
	free(order);
}

static void print_event_analysis(FILE *fp, const struct script_builtin_run *run)
{
	uint64_t total = 0;

	for (size_t i = 0; i < run->by_comm.nr; i++)
		total += run->by_comm.rows[i].count;
	fprintf(fp, "In trace_end:\n\n");
	fprintf(fp, "There is %" PRIu64 " records in gen_events table\n", total);
	if (total) {
		fprintf(fp, "Statistics about the general events grouped by thread/symbol/dso: \n\n");
		print_histogram(fp, 16, 42, "comm", &run->by_comm);
		print_histogram(fp, 32, 58, "symbol", &run->by_symbol);
		print_histogram(fp, 40, 74, "dso", &run->by_dso);
	}
	/* PEBS load latency records (raw data of a 2009 format) do not occur */
	fprintf(fp, "There is 0 records in pebs_ll table\n");
}

static double msecs_between(uint64_t from, uint64_t to)
{
	return (double)(int64_t)(to - from) / 1000000.0;
}

/* the script's "%d.%06dsec" of nanoseconds, through Python's true division */
static void print_secs(FILE *fp, const char *fmt, uint64_t ns)
{
	fprintf(fp, fmt, (int64_t)((double)ns / 1e9), (int64_t)(ns % 1000000000 / 1000));
}

#define NETDEV_JOINT "         |\n"

static void print_netdev_rx(FILE *fp, const struct netdev_times *nt,
			    const struct netdev_hunk *h)
{
	uint64_t base = h->irqs[0].entry_time;
	bool show = !nt->dev;

	for (size_t i = 0; !show && i < h->nr_irqs; i++)
		show = strstr(h->irqs[i].name, nt->dev) != NULL;
	if (!show)
		return;
	print_secs(fp, "%" PRId64 ".%06" PRId64 "sec", base);
	fprintf(fp, " cpu=%d\n", h->irqs[0].cpu);
	for (size_t i = 0; i < h->nr_irqs; i++) {
		const struct netdev_irq *irq = &h->irqs[i];

		fprintf(fp, "  irq_entry(+%.3fmsec irq=%" PRId64 ":%s)\n" NETDEV_JOINT,
			msecs_between(base, irq->entry_time), irq->irq, irq->name);
		for (size_t k = 0; k < irq->nr_events; k++)
			if (irq->events[k].netif_rx)
				fprintf(fp, "         |---netif_rx(+%.3fmsec skb=%" PRIx64 ")\n"
					NETDEV_JOINT, msecs_between(base, irq->events[k].time),
					irq->events[k].skbaddr);
	}
	fprintf(fp, "  softirq_entry(+%.3fmsec)\n" NETDEV_JOINT,
		msecs_between(base, h->softirq_entry));
	for (size_t i = 0; i < h->nr_events; i++) {
		const struct netdev_rx *rx = h->events[i];

		if (rx->napi_poll) {
			fprintf(fp, "  napi_poll_exit(+%.3fmsec %s)\n%s",
				msecs_between(base, rx->time), rx->dev,
				i == h->nr_events - 1 ? "\n" : NETDEV_JOINT);
			continue;
		}
		fprintf(fp, "         |---netif_receive_skb(+%.3fmsec skb=%" PRIx64 " len=%" PRId64
			")\n", msecs_between(base, rx->time), rx->skbaddr, rx->len);
		/* the script shows a freed packet as copied too (both set its comm) */
		if (rx->taken)
			fprintf(fp, "         |            |\n"
				"         |      skb_copy_datagram_iovec(+%.3fmsec %" PRId64 ":%s)\n",
				msecs_between(base, rx->taken_time), rx->pid, rx->comm);
		fprintf(fp, NETDEV_JOINT);
	}
}

static void print_netdev_times(FILE *fp, const struct netdev_times *nt)
{
	for (size_t i = 0; nt->show_rx && i < nt->hunks.nr; i++)
		print_netdev_rx(fp, nt, nt->hunks.items[i]);
	if (nt->show_tx) {
		fprintf(fp, "   dev    len      Qdisc               netdevice             free\n");
		for (size_t i = 0; i < nt->tx_free.nr; i++) {
			const struct netdev_tx *tx = nt->tx_free.items[i];

			if (nt->dev && !strstr(tx->dev, nt->dev))
				continue;
			fprintf(fp, "%7s %5" PRId64 " ", tx->dev, tx->len);
			print_secs(fp, "%6" PRId64 ".%06" PRId64 "sec", tx->queue_time);
			fprintf(fp, " %12.3fmsec      %12.3fmsec\n",
				msecs_between(tx->queue_time, tx->xmit_time),
				msecs_between(tx->xmit_time, tx->free_time));
		}
	}
	if (nt->debug)
		fprintf(fp, "debug buffer status\n----------------------------\n"
			"xmit Qdisc:remain:%zu overflow:%" PRIu64 "\n"
			"xmit netdevice:remain:%zu overflow:%" PRIu64 "\n"
			"receive:remain:%zu overflow:%" PRIu64 "\n",
			nt->tx_queue.nr, nt->queue_overflow, nt->tx_xmit.nr, nt->xmit_overflow,
			nt->rx_skbs.nr, nt->rx_overflow);
}

static int by_stack(const struct sb_row *a, const struct sb_row *b)
{
	return strcmp(a->str, b->str);
}

static void print_collapsed(FILE *fp, const struct script_builtin_run *run)
{
	size_t *order = sb_tally__sorted(&run->counts, by_stack);

	for (size_t i = 0; i < run->counts.nr; i++)
		fprintf(fp, "%s %" PRIu64 "\n", run->counts.rows[order[i]].str,
			run->counts.rows[order[i]].count);
	free(order);
}

/* Python's repr() of a bytearray: single quotes unless there are ' and
 * no ", and ' escaped whichever quotes */
static void bytearray_repr(struct strbuf *sb, const unsigned char *p, size_t len)
{
	char quote = memchr(p, '\'', len) && !memchr(p, '"', len) ? '"' : '\'';

	strbuf_addf(sb, "bytearray(b%c", quote);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c == '\\' || c == '\'')
			strbuf_addf(sb, "\\%c", c);
		else if (c == '\t' || c == '\n' || c == '\r')
			strbuf_addf(sb, "\\%c", c == '\t' ? 't' : c == '\n' ? 'n' : 'r');
		else if (c < 0x20 || c >= 0x7f)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addf(sb, "%c)", quote);
}

/* perf's test for a string: NUL-terminated, printable up to the NUL */
static bool printable_string(const unsigned char *p, size_t len)
{
	if (!len || p[len - 1])
		return false;
	for (size_t i = 0; i < len - 1 && p[i]; i++)
		if (!isprint(p[i]) && !isspace(p[i]))
			return false;
	return true;
}

/* A field's value as perf's Python handlers get it; false when the
 * sample is too short to hold it. */
static bool field_value(struct strbuf *sb, struct tep_format_field *f,
			const struct perf_sample *sample)
{
	const unsigned char *data = sample->raw_data;
	size_t offset = (size_t)f->offset, len = (size_t)f->size;
	unsigned long long v;

	if (offset + len > sample->raw_size)
		return false;
	if (f->flags & TEP_FIELD_IS_ARRAY) {
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			uint32_t loc;

			memcpy(&loc, data + offset, sizeof(loc));
			len = loc >> 16;
			offset = (loc & 0xffff) + ((f->flags & TEP_FIELD_IS_RELATIVE) ?
						   (size_t)f->offset + (size_t)f->size : 0);
			if (offset + len > sample->raw_size)
				return false;
		}
		if ((f->flags & TEP_FIELD_IS_STRING) && printable_string(data + offset, len))
			strbuf_addstr(sb, (const char *)data + offset);
		else
			bytearray_repr(sb, data + offset, len);
		return true;
	}
	v = tep_read_number(f->event->tep, data + offset, (int)len);
	/* perf's Python reads the bytes unextended: only 8-byte values go negative */
	if ((f->flags & TEP_FIELD_IS_SIGNED) && len == 8)
		strbuf_addf(sb, "%lld", (long long)v);
	else
		strbuf_addf(sb, "%llu", v);
	return true;
}

struct field_text {
	const char *name;
	char *text;
};

static int by_field_name(const void *a, const void *b)
{
	return strcmp(((const struct field_text *)a)->name, ((const struct field_text *)b)->name);
}

void script_builtin_print_fields(FILE *fp, struct tep_event *tp,
				 const struct perf_sample *sample, const char *comm)
{
	size_t nr = 0, alloc = 6 + (size_t)tp->format.nr_fields;
	struct field_text *all = xcalloc(alloc, sizeof(*all));
	struct strbuf sb = STRBUF_INIT;
	int64_t pid = tp_value(tp, sample, "common_pid");

	all[nr++] = (struct field_text){ "common_callchain", xstrdup("[]") };
	all[nr++] = (struct field_text){ "common_comm", xstrdup(comm) };
	all[nr++] = (struct field_text){ "common_cpu", xasprintf("%u", sample->cpu) };
	all[nr++] = (struct field_text){ "common_ns", xasprintf("%" PRIu64,
							     sample->time % 1000000000) };
	all[nr++] = (struct field_text){ "common_pid", xasprintf("%" PRId64, pid) };
	all[nr++] = (struct field_text){ "common_s", xasprintf("%" PRIu64,
							    sample->time / 1000000000) };
	for (struct tep_format_field *f = tp->format.fields; f && nr < alloc; f = f->next) {
		strbuf_reset(&sb);
		if (field_value(&sb, f, sample))
			all[nr++] = (struct field_text){ f->name, xstrdup(sb.buf ? sb.buf : "") };
	}
	qsort(all, nr, sizeof(*all), by_field_name);
	for (size_t i = 0; i < nr; i++) {
		fprintf(fp, "%s%s=%s", i ? " " : "", all[i].name, all[i].text);
		free(all[i].text);
	}
	fputc('\n', fp);
	free(all);
	strbuf_release(&sb);
}

void script_builtin_print_end(FILE *fp, const struct script_builtin_run *run,
			      const struct ksym_table *ksyms)
{
	switch (run->sb->id) {
	case SB_SYSCALL_COUNTS:
		print_syscall_counts(fp, run, "-----------");
		break;
	case SB_SCTOP:
		script_builtin_print_screen(fp, run);
		break;
	case SB_RWTOP:
		print_unhandled(fp, run);
		script_builtin_print_screen(fp, run);
		break;
	case SB_SYSCALL_COUNTS_BY_PID:
		print_syscall_counts_by_pid(fp, run);
		break;
	case SB_FAILED_SYSCALLS_BY_PID:
		print_failed_syscalls_by_pid(fp, run);
		break;
	case SB_FAILED_SYSCALLS:
		print_failed_syscalls(fp, run);
		break;
	case SB_RW_BY_PID:
		print_rw_by_pid(fp, run);
		break;
	case SB_RW_BY_FILE:
		print_rw_by_file(fp, run);
		break;
	case SB_WAKEUP_LATENCY:
		print_wakeup_latency(fp, run);
		break;
	case SB_FUTEX_CONTENTION:
		print_futex_contention(fp, run);
		break;
	case SB_COMPACTION_TIMES:
		print_compaction_times(fp, run);
		break;
	case SB_MEM_PHYS_ADDR:
		print_mem_phys_addr(fp, run);
		break;
	case SB_EVENT_ANALYZING_SAMPLE:
		print_event_analysis(fp, run);
		break;
	case SB_STACKCOLLAPSE:
		print_collapsed(fp, run);
		break;
	case SB_NETDEV_TIMES:
		print_netdev_times(fp, run->netdev);
		break;
	case SB_NET_DROPMONITOR:
		print_net_dropmonitor(fp, run, ksyms);
		break;
	case SB_POWERPC_HCALLS:
		fprintf(fp, "%-28s%10s%10s%10s%10s\n", "hcall", "count", "min(ns)", "max(ns)",
			"avg(ns)");
		fprintf(fp, "%.68s\n", DASHES40 DASHES40);
		break;
	default:
		break;
	}
}
