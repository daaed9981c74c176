/* sched-latency-print: the latency table, its totals and the INFO lines
 * about unordered timestamps, lost events and context switch bugs. */
#include "ui/sched-latency-print.h"

#include <inttypes.h>
#include <string.h>

#include "core/symbols/thread.h"

#define NSEC_PER_MSEC 1000000.0

/* "sec.usec", the microseconds truncated */
static void format_usec(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
}

static void print_row(FILE *fp, const struct sched_lat_task *t)
{
	char start[32], end[32];
	int len;

	if (t->nr_merged > 1)
		len = fprintf(fp, "  %s:(%d) ", t->thread->comm, t->nr_merged);
	else
		len = fprintf(fp, "  %s:%d ", t->thread->comm, t->thread->tid);
	for (int i = len; i < 24; i++)
		fputc(' ', fp);
	format_usec(start, sizeof(start), t->max_lat_start);
	format_usec(end, sizeof(end), t->max_lat_end);
	fprintf(fp, "|%11.3f ms |%9" PRIu64 " | avg:%8.3f ms | max:%8.3f ms | "
		"max start: %12s s | max end: %12s s\n",
		(double)t->total_runtime / NSEC_PER_MSEC, t->nr_switches,
		(double)(t->total_lat / t->nr_switches) / NSEC_PER_MSEC,
		(double)t->max_lat / NSEC_PER_MSEC, start, end);
}

void sched_latency__print_info(FILE *fp, const struct sched_lat_counts *c,
			       const struct sched_lat_info *info)
{
	if (c->nr_unordered_timestamps && c->nr_timestamps)
		fprintf(fp, "  INFO: %.3f%% unordered timestamps (%ld out of %ld)\n",
			(double)c->nr_unordered_timestamps / (double)c->nr_timestamps * 100.0,
			c->nr_unordered_timestamps, c->nr_timestamps);
	if (info->nr_lost_events && info->nr_events)
		fprintf(fp, "  INFO: %.3f%% lost events (%ld out of %ld, in %ld chunks)\n",
			(double)info->nr_lost_events / (double)info->nr_events * 100.0,
			info->nr_lost_events, info->nr_events, info->nr_lost_chunks);
	if (c->nr_context_switch_bugs && c->nr_timestamps) {
		fprintf(fp, "  INFO: %.3f%% context switch bugs (%ld out of %ld)",
			(double)c->nr_context_switch_bugs / (double)c->nr_timestamps * 100.0,
			c->nr_context_switch_bugs, c->nr_timestamps);
		if (info->nr_lost_events)
			fputs(" (due to lost events?)", fp);
		fputc('\n', fp);
	}
}

/* a blank and n dashes */
static void rule(FILE *fp, int n)
{
	fputc(' ', fp);
	while (n--)
		fputc('-', fp);
	fputc('\n', fp);
}

void sched_latency__print(FILE *fp, struct sched_lat_task **rows, int nr,
			  const struct sched_lat_counts *counts, const struct sched_lat_info *info)
{
	uint64_t all_runtime = 0, all_count = 0;

	fputc('\n', fp);
	rule(fp, 139);
	fputs("  Task                  |   Runtime ms  | Switches | Avg delay ms    |"
	      " Max delay ms    | Max delay start           | Max delay end          |\n", fp);
	rule(fp, 139);
	for (int i = 0; i < nr; i++) {
		const struct sched_lat_task *t = rows[i];

		/* rows without a switch and the idle task are not shown */
		if (!t->nr_switches || !strcmp(t->thread->comm, "swapper"))
			continue;
		all_runtime += t->total_runtime;
		all_count += t->nr_switches;
		print_row(fp, t);
	}
	rule(fp, 113);
	fprintf(fp, "  TOTAL:                |%11.3f ms |%9" PRIu64 " |\n",
		(double)all_runtime / NSEC_PER_MSEC, all_count);
	rule(fp, 51);
	sched_latency__print_info(fp, counts, info);
	fputc('\n', fp);
}
