/* trace-summary: perf trace's "Summary of events" table. */
#include <inttypes.h>
#include <stdlib.h>

#include "ui/trace-summary.h"
#include "util/util.h"

#define NSEC_PER_MSEC 1000000ULL
/* perf walks its thread table bucket by bucket (tid modulo its size) */
#define THREAD_BUCKETS 256

struct threads_list {
	struct trace *trace;
	struct thread **v;
	size_t n, alloc;
};

static void collect_thread(struct thread *thread, void *arg)
{
	struct threads_list *l = arg;

	/* threads whose tid was reused since are gone from perf's table */
	if (!trace__thread(l->trace, thread) ||
	    machine__find_thread(l->trace->machine, thread->pid, thread->tid) != thread)
		return;
	if (l->n == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 16;
		l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
	}
	l->v[l->n++] = thread;
}

static struct trace *sorting;	/* qsort has no argument for it */

/* perf's order: by bucket, then fewest events first, then tid */
static int thread_cmp(const void *pa, const void *pb)
{
	const struct thread *a = *(struct thread *const *)pa, *b = *(struct thread *const *)pb;
	unsigned int ba = (unsigned int)a->tid % THREAD_BUCKETS;
	unsigned int bb = (unsigned int)b->tid % THREAD_BUCKETS;
	unsigned long na = trace__thread(sorting, a)->nr_events;
	unsigned long nb = trace__thread(sorting, b)->nr_events;

	if (ba != bb)
		return ba < bb ? -1 : 1;
	if (na != nb)
		return na < nb ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

struct stat_row {
	int nr;
	double msecs;
	const struct syscall_stats *s;
};

/* most total time first; ties in syscall number order */
static int row_cmp(const void *pa, const void *pb)
{
	const struct stat_row *a = pa, *b = pb;

	if (a->msecs != b->msecs)
		return a->msecs > b->msecs ? -1 : 1;
	return a->nr - b->nr;
}

static void print_stats(FILE *fp, struct trace *t, const struct trace_thread *tt)
{
	struct stat_row *rows = xcalloc(syscall__max_nr() + 1, sizeof(*rows));
	int n = 0;

	for (int nr = 0; tt->stats && nr <= syscall__max_nr(); nr++) {
		const struct syscall_stats *s = tt->stats[nr];

		if (!s)
			continue;
		rows[n].nr = nr;
		rows[n].s = s;
		rows[n].msecs = (double)(uint64_t)s->stats.n *
				(stats__avg(&s->stats) / NSEC_PER_MSEC);
		n++;
	}
	qsort(rows, n, sizeof(*rows), row_cmp);

	fprintf(fp, "\n");
	fprintf(fp, "   syscall            calls  errors  total       min       avg       max"
		    "       stddev\n"
		    "                                     (msec)    (msec)    (msec)    (msec)"
		    "        (%%)\n"
		    "   --------------- --------  ------ -------- --------- --------- ---------"
		    "     ------\n");
	for (int i = 0; i < n; i++) {
		const struct syscall_stats *s = rows[i].s;
		double avg = stats__avg(&s->stats);
		double pct = stats__rel_stddev(stats__stddev(&s->stats), avg);

		fprintf(fp, "   %-15s", syscall__name(rows[i].nr));
		fprintf(fp, " %8" PRIu64 " %6" PRIu64 " %9.3f %9.3f %9.3f",
			(uint64_t)s->stats.n, s->nr_failures, rows[i].msecs,
			(double)s->min / NSEC_PER_MSEC, avg / NSEC_PER_MSEC);
		fprintf(fp, " %9.3f %9.2f%%\n", (double)s->max / NSEC_PER_MSEC, pct);
		if (t->cfg.errno_summary && s->nr_failures)
			for (int e = 0; e < s->max_errno; e++)
				if (s->errnos[e])
					fprintf(fp, "\t\t\t\t%s: %u\n", trace__errno_name(e + 1),
						s->errnos[e]);
	}
	free(rows);
	fprintf(fp, "\n\n");
}

void trace_summary__print(FILE *fp, struct trace *t)
{
	struct threads_list l = { .trace = t };

	fprintf(fp, "\n Summary of events:\n\n");
	machine__for_each_thread(t->machine, collect_thread, &l);
	sorting = t;
	if (l.n)	/* no threads: l.v is NULL, which qsort may not take */
		qsort(l.v, l.n, sizeof(*l.v), thread_cmp);
	for (size_t i = 0; i < l.n; i++) {
		const struct trace_thread *tt = trace__thread(t, l.v[i]);

		fprintf(fp, " %s (%d), %lu events, %.1f%%", l.v[i]->comm, l.v[i]->tid,
			tt->nr_events, (double)tt->nr_events / t->nr_events * 100.0);
		if (tt->majfaults)
			fprintf(fp, ", %lu majfaults", tt->majfaults);
		if (tt->minfaults)
			fprintf(fp, ", %lu minfaults", tt->minfaults);
		if (t->cfg.sched)
			fprintf(fp, ", %.3f msec", tt->runtime_ms);
		fputc('\n', fp);
		print_stats(fp, t, tt);
	}
	free(l.v);
}

void trace_summary__print_tool_stats(FILE *fp, const struct trace *t)
{
	/* vfs_getname counts paths from perf's probe on the kernel's getname,
	 * which pcl does not place: always 0, as perf without the probe */
	fprintf(fp, "Stats:\n  vfs_getname : 0\n proc_getname: %lu\n", t->proc_getname);
}
