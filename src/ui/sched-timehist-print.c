/* sched-timehist-print: the timehist table in perf's layout.  perf widens
 * the name column whenever it formats a longer "comm[tid/pid]", so the
 * width is state carried from row to row.  A row a sample, put together in
 * a linebuf and written with one call. */
#include "ui/sched-timehist-print.h"

#include <inttypes.h>
#include <string.h>
#include <strings.h>

#include "core/data/perf-record.h"
#include "core/symbols/dso.h"

#include "core/symbols/thread.h"
#include "util/linebuf.h"
#include "util/strbuf.h"

#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

static const char dashes[] = "----------------------------------------------------------------"
			     "----------------------------------------------------------------";

void th_printer__init(struct th_printer *p, FILE *fp)
{
	*p = (struct th_printer){ .fp = fp, .comm_width = 30 };
}

/* "%d" backwards, as decimal_digits(): the rows are printed by the
 * million */
static char *int_digits(char *end, int v)
{
	char *p = decimal_digits(end, v < 0 ? -(uint64_t)(int64_t)v : (uint64_t)v, 1);

	if (v < 0)
		*--p = '-';
	return p;
}

static void lb_int(struct linebuf *r, int v)
{
	char buf[16], *end = buf + sizeof(buf), *p = int_digits(end, v);

	linebuf_put(r, p, (size_t)(end - p));
}

/* perf's "comm[tid/pid]", "comm[tid]" or "comm" (pid 0) into buf, cut to
 * 31 characters; the name column widens to it.  Returns its length. */
static size_t name_str(struct th_printer *p, struct th_name n, char buf[32])
{
	char ids[32], *end = ids + sizeof(ids), *q = end;
	size_t len = strnlen(n.comm, 31), idlen;

	memcpy(buf, n.comm, len);
	if (n.pid != 0) {
		*--q = ']';
		if (n.tid != n.pid) {
			q = int_digits(q, n.pid);
			*--q = '/';
		}
		q = int_digits(q, n.tid);
		*--q = '[';
		idlen = (size_t)(end - q);
		if (idlen > 31 - len)
			idlen = 31 - len;
		memcpy(buf + len, q, idlen);
		len += idlen;
	}
	buf[len] = 0;
	if ((int)len > p->comm_width)
		p->comm_width = (int)len;
	return len;
}

/* s right-aligned in width columns */
static void put_right(struct linebuf *r, const char *s, size_t len, int width)
{
	linebuf_spaces(r, width - (int)len);
	linebuf_put(r, s, len);
}

/* msec.usec, truncated, right-aligned ("%*lu.%03lu ") */
static void lb_time(struct linebuf *r, uint64_t ns, int width)
{
	char buf[32], *end = buf + sizeof(buf), *p;
	uint64_t ms = ns / NSEC_PER_MSEC;

	p = decimal_digits(end, (ns - ms * NSEC_PER_MSEC) / NSEC_PER_USEC, 3);
	*--p = '.';
	p = decimal_digits(p, ms, 1);
	put_right(r, p, (size_t)(end - p) - 4, width);
	linebuf_put(r, end - 4, 4);
	linebuf_ch(r, ' ');
}

static void print_time(FILE *fp, uint64_t ns, int width)
{
	struct linebuf r = { .fp = fp };

	lb_time(&r, ns, width);
	linebuf_flush(&r);
}

/* "%15s [%04d] " of the time as sec.usec */
static void lb_stamp(struct linebuf *r, uint64_t ns, int cpu)
{
	char buf[48], *end = buf + sizeof(buf), *p;

	p = decimal_digits(end, ns % 1000000000 / 1000, 6);
	*--p = '.';
	p = decimal_digits(p, ns / 1000000000, 1);
	put_right(r, p, (size_t)(end - p), 15);
	linebuf_put(r, " [", 2);
	p = decimal_digits(end, (uint64_t)cpu, 4);
	linebuf_put(r, p, (size_t)(end - p));
	linebuf_put(r, "] ", 2);
}

/* " %-*s ": the name, then the column as wide as it is now */
static void lb_name(struct th_printer *p, struct linebuf *r, struct th_name n)
{
	char buf[32];
	size_t len = name_str(p, n, buf);

	linebuf_ch(r, ' ');
	linebuf_put(r, buf, len);
	linebuf_spaces(r, p->comm_width - (int)len);
	linebuf_ch(r, ' ');
}

void th_print_header(struct th_printer *p)
{
	FILE *fp = p->fp;
	int ncpus = p->max_cpu + 1;

	fprintf(fp, "%15s %6s ", "time", "cpu");
	if (p->cpu_visual) {
		putc_unlocked(' ', fp);
		for (int i = 0; i < ncpus; i++)
			fprintf(fp, "%x", i % 16);
		putc_unlocked(' ', fp);
	}
	fprintf(fp, " %-*s  %9s  %9s  %9s", p->comm_width, "task name", "wait time", "sch delay",
		"run time");
	if (p->state)
		fprintf(fp, "  %s", "state");
	putc_unlocked('\n', fp);
	fprintf(fp, "%15s %-6s ", "", "");
	if (p->cpu_visual)
		fprintf(fp, " %*s ", ncpus, "");
	fprintf(fp, " %-*s  %9s  %9s  %9s", p->comm_width, "[tid/pid]", "(msec)", "(msec)",
		"(msec)");
	if (p->state)
		fprintf(fp, "  %5s", "");
	putc_unlocked('\n', fp);
	fprintf(fp, "%.15s %.6s ", dashes, dashes);
	if (p->cpu_visual)
		fprintf(fp, " %.*s ", ncpus, dashes);
	fprintf(fp, " %.*s  %.9s  %.9s  %.9s", p->comm_width, dashes, dashes, dashes, dashes);
	if (p->state)
		fprintf(fp, "  %.5s", dashes);
	putc_unlocked('\n', fp);
}

/* perf 6.1's letter: "RSDTtZXxKWP" by the lowest state bit's position */
static char state_char(int state)
{
	static const char letters[] = "RSDTtZXxKWP";
	int bit = ffs(state);

	return bit < (int)sizeof(letters) - 1 ? letters[bit] : '?';
}

void th_fold_stack(struct strbuf *sb, const struct callchain_frame *frames, int nr)
{
	strbuf_reset(sb);
	strbuf_addstr(sb, "");
	for (int i = 0; i < nr; i++) {
		const struct callchain_frame *f = &frames[i];

		if (i)
			strbuf_addch(sb, ';');
		/* no symbol (and no user map in perf's timehist): the address */
		if (f->al.sym && f->al.cpumode != PERF_RECORD_MISC_USER)
			strbuf_addstr(sb, f->al.sym->name);
		else
			strbuf_addf(sb, "%#" PRIx64, f->ip);
	}
}

/* Frames of the scheduler itself say nothing: perf leaves them out. */
static bool ignored(const struct callchain_frame *f)
{
	const char *name = f->al.sym ? f->al.sym->name : NULL;

	return name && (!strcmp(name, "schedule") || !strcmp(name, "__schedule") ||
			!strcmp(name, "preempt_schedule"));
}

/* "a <- b <- c": the stack on one line, callee first.  perf's timehist
 * reads no MMAP2 records, so it knows no user-space maps: user frames are
 * [unknown] there, and here too. */
static void print_callchain(struct th_printer *p)
{
	bool first = true;

	for (int i = 0; i < p->nr_frames; i++) {
		const struct callchain_frame *f = &p->frames[i];
		bool user = f->al.cpumode == PERF_RECORD_MISC_USER;

		if (ignored(f))
			continue;
		fprintf(p->fp, "%s %s", first ? "" : " <-",
			f->al.sym && !user ? f->al.sym->name : "[unknown]");
		first = false;
	}
}

static void print_switch(struct th_printer *p, struct linebuf *r, const struct th_row *row)
{
	FILE *fp = p->fp;
	const struct th_task *t = row->task;
	int width = p->comm_width;	/* the task's own name widens the next rows only */
	char buf[32];
	size_t len;

	if (p->cpu_visual) {
		linebuf_ch(r, ' ');
		for (int i = 0; i <= p->max_cpu; i++)
			linebuf_ch(r, i == row->cpu ? (row->idle ? 'i' : 's') : ' ');
		linebuf_ch(r, ' ');
	}
	len = name_str(p, row->who, buf);
	linebuf_ch(r, ' ');
	linebuf_put(r, buf, len);
	linebuf_spaces(r, width - (int)len);
	linebuf_ch(r, ' ');
	lb_time(r, t->dt_sleep + t->dt_iowait + t->dt_preempt, 6);
	lb_time(r, t->dt_delay, 6);
	lb_time(r, t->dt_run, 6);
	if (!p->state && !p->next && !p->wakeups && (row->idle || !p->callchain))
		return;
	linebuf_flush(r);	/* the options' columns: printf's */
	if (p->state)
		fprintf(fp, " %5c ", row->idle ? 'I' : state_char(row->state));
	if (p->next) {
		char next[30];

		snprintf(next, sizeof(next), "next: %s[%u]", row->next_comm, row->next_pid);
		fprintf(fp, " %-*s", p->comm_width, next);
	}
	if (p->wakeups && !p->next)
		fprintf(fp, "  %-*s", p->comm_width, "");
	if (row->idle)
		return;
	if (p->callchain) {
		fputs_unlocked("  ", fp);
		print_callchain(p);
	}
}

void th_print_row(struct th_printer *p, const struct th_row *row)
{
	struct linebuf r = { .fp = p->fp };
	char buf[32];
	size_t len;

	lb_stamp(&r, row->time, row->cpu);
	if (row->kind == TH_ROW_SWITCH) {
		print_switch(p, &r, row);
		linebuf_ch(&r, '\n');
		linebuf_flush(&r);
		return;
	}
	if (p->cpu_visual) {
		if (row->kind == TH_ROW_WAKEUP) {
			linebuf_ch(&r, ' ');
			linebuf_spaces(&r, p->max_cpu + 1);
			linebuf_ch(&r, ' ');
		} else {
			linebuf_put(&r, "  ", 2);
			for (int i = 0; i <= p->max_cpu; i++)
				linebuf_ch(&r, i == row->cpu ? 'm' : ' ');
			linebuf_put(&r, "  ", 2);
		}
	}
	lb_name(p, &r, row->who);
	/* "  %9s  %9s  %9s " of empty strings */
	linebuf_str(&r, "                                  ");
	len = name_str(p, row->target, buf);
	if (row->kind == TH_ROW_WAKEUP) {
		linebuf_str(&r, "awakened: ");
		linebuf_put(&r, buf, len);
	} else {
		linebuf_str(&r, "migrated: ");
		linebuf_put(&r, buf, len);
		linebuf_str(&r, " cpu ");
		lb_int(&r, row->orig_cpu);
		linebuf_str(&r, " => ");
		lb_int(&r, row->dest_cpu);
	}
	linebuf_ch(&r, '\n');
	linebuf_flush(&r);
}

static void print_task(struct th_printer *p, const struct th_task *r)
{
	FILE *fp = p->fp;
	const struct thread *t = r->thread;

	char name[32];

	name_str(p, sched_timehist__name(r), name);
	fprintf(fp, "%*s   %5d  %9" PRIu64 " ", p->comm_width, name, t->ppid,
		(uint64_t)r->run_stats.n);
	print_time(fp, r->total_run, 8);
	if (p->state) {
		print_time(fp, r->total_sleep, 6);
		putc_unlocked(' ', fp);
		print_time(fp, r->total_iowait, 6);
		putc_unlocked(' ', fp);
		print_time(fp, r->total_preempt, 6);
		putc_unlocked(' ', fp);
		print_time(fp, r->total_delay, 6);
	} else {
		double stddev = th_stats__rel_stddev(&r->run_stats);

		print_time(fp, r->run_stats.min, 6);
		putc_unlocked(' ', fp);
		print_time(fp, (uint64_t)th_stats__mean(&r->run_stats), 6);
		putc_unlocked(' ', fp);
		print_time(fp, r->run_stats.max, 6);
		fprintf(fp, "  %5.2f   %5" PRIu64, (float)stddev, r->migrations);
	}
	putc_unlocked('\n', fp);
}

/* -I with stacks: per CPU, the idle time and an empty table: perf 6.1 sorts
 * the stacks into a tree it then reads through an unset leftmost-node
 * cache, so it never lists one (checked on idle machines). */
static void print_idle_stacks(struct th_printer *p, const struct th_summary *s)
{
	FILE *fp = p->fp;

	fprintf(fp, "\nIdle stats by callchain:\n");
	for (int cpu = 0; cpu < s->nr_idle; cpu++) {
		const struct th_task *idle = s->idle[cpu];

		fprintf(fp, "  CPU %2d:", cpu);
		print_time(fp, idle->total_run, 6);
		fprintf(fp, " msec\n");
		fprintf(fp, "  %16s  %8s  %s\n", "Idle time (msec)", "Count", "Callchains");
		fprintf(fp, "  %.16s  %.8s  %.50s\n\n", dashes, dashes, dashes);
	}
}

void th_print_summary(struct th_printer *p, const struct th_summary *s,
		      const struct sched_timehist *th, const struct sample_filter *filter)
{
	FILE *fp = p->fp;
	uint64_t nr_tasks = 0, nr_switches = 0, total_run = 0;
	int printed;

	if (p->idle_hist) {
		fprintf(fp, "\nIdle-time summary\n");
		fprintf(fp, "%*s  parent  sched-out  ", p->comm_width, "comm");
		fprintf(fp, "  idle-time   min-idle    avg-idle    max-idle  stddev  migrations\n");
	} else if (p->state) {
		fprintf(fp, "\nWait-time summary\n");
		fprintf(fp, "%*s  parent   sched-in  ", p->comm_width, "comm");
		fprintf(fp, "   run-time      sleep      iowait     preempt       delay\n");
	} else {
		fprintf(fp, "\nRuntime summary\n");
		fprintf(fp, "%*s  parent   sched-in  ", p->comm_width, "comm");
		fprintf(fp, "   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	}
	fprintf(fp, "%*s            (count)  ", p->comm_width, "");
	fprintf(fp, "     (msec)     (msec)      (msec)      (msec)       %s\n",
		p->state ? "(msec)" : "%");
	fprintf(fp, "%.117s\n", dashes);
	for (int dead = 0; dead <= 1; dead++) {
		printed = 0;
		if (dead)
			fprintf(fp, "\nTerminated tasks:\n");
		for (int i = 0; i < s->nr_tasks; i++) {
			const struct th_task *r = s->tasks[i];

			if (r->thread->dead != dead)
				continue;
			nr_tasks++;
			nr_switches += (uint64_t)r->run_stats.n;
			total_run += r->total_run;
			print_task(p, r);
			printed++;
		}
		if (!printed)
			fputs_unlocked(dead ? "<no terminated tasks>\n" : "<no still running tasks>\n", fp);
	}
	/* with samples filtered out the idle times mean nothing: perf stops */
	if (s->idle_skipped)
		return;
	fprintf(fp, "\nIdle stats:\n");
	for (int cpu = 0; cpu < s->nr_idle; cpu++) {
		const struct th_task *r = s->idle[cpu];

		if (filter && sample_filter__skip_cpu(filter, (uint32_t)cpu))
			continue;
		if (r->run_stats.n) {
			nr_switches += (uint64_t)r->run_stats.n;
			fprintf(fp, "    CPU %2d idle for ", cpu);
			print_time(fp, r->total_run, 6);
			fprintf(fp, " msec  (%6.2f%%)\n",
				100.0 * (double)r->total_run / (double)s->hist_time);
		} else {
			fprintf(fp, "    CPU %2d idle entire time window\n", cpu);
		}
	}
	if (p->idle_hist && p->callchain)
		print_idle_stacks(p, s);
	fprintf(fp, "\n    Total number of unique tasks: %" PRIu64 "\n"
		"Total number of context switches: %" PRIu64 "\n", nr_tasks, nr_switches);
	fprintf(fp, "           Total run time (msec): ");
	print_time(fp, total_run, 2);
	putc_unlocked('\n', fp);
	fprintf(fp, "    Total scheduling time (msec): ");
	print_time(fp, s->hist_time, 2);
	fprintf(fp, " (x %d)\n", sched_timehist__max_cpu(th));
}
