/* lock-print: perf lock's tables (see lock-print.h). */
#include "ui/lock-print.h"

#include <stdlib.h>
#include <string.h>

static const struct lock_column report_cols[] = {
	{ "acquired", "acquired", 10, LOCK_KEY_ACQUIRED },
	{ "contended", "contended", 10, LOCK_KEY_CONTENDED },
	{ "avg_wait", "avg wait", 12, LOCK_KEY_AVG_WAIT },
	{ "wait_total", "total wait", 12, LOCK_KEY_WAIT_TOTAL },
	{ "wait_max", "max wait", 12, LOCK_KEY_WAIT_MAX },
	{ "wait_min", "min wait", 12, LOCK_KEY_WAIT_MIN },
};

static const struct lock_column contention_cols[] = {
	{ "contended", "contended", 10, LOCK_KEY_CONTENDED },
	{ "wait_total", "total wait", 12, LOCK_KEY_WAIT_TOTAL },
	{ "wait_max", "max wait", 12, LOCK_KEY_WAIT_MAX },
	{ "wait_min", "min wait", 12, LOCK_KEY_WAIT_MIN },
	{ "avg_wait", "avg wait", 12, LOCK_KEY_AVG_WAIT },
};

const struct lock_column *lock_columns(bool contention, int *nr)
{
	*nr = contention ? (int)(sizeof(contention_cols) / sizeof(contention_cols[0]))
			 : (int)(sizeof(report_cols) / sizeof(report_cols[0]));
	return contention ? contention_cols : report_cols;
}

/* A duration in the largest unit it reaches; perf computes in float. */
static void print_time(FILE *fp, uint64_t nsec, int len)
{
	static const struct {
		float base;
		const char *unit;
	} units[] = {
		{ 1e9f * 3600, "h " }, { 1e9f * 60, "m " }, { 1e9f, "s " }, { 1e6f, "ms" },
		{ 1e3f, "us" },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if ((float)nsec < units[i].base)
			continue;
		fprintf(fp, "%*.2f %s", len - 3, (double)((float)nsec / units[i].base),
			units[i].unit);
		return;
	}
	fprintf(fp, "%*llu %s", len - 3, (unsigned long long)nsec, "ns");
}

/* perf's name of a task: its last COMM, else ":TID" (in buf) */
static const char *task(const struct lock_analysis *la, uint64_t tid, char buf[32])
{
	return lock_analysis__task_name(la, tid, buf, 32);
}

static void print_value(FILE *fp, const struct lock_column *c, const struct lock_stat *ls)
{
	switch (c->key) {
	case LOCK_KEY_ACQUIRED:
		fprintf(fp, "%*llu", c->len, (unsigned long long)ls->nr_acquired);
		break;
	case LOCK_KEY_CONTENDED:
		fprintf(fp, "%*llu", c->len, (unsigned long long)ls->nr_contended);
		break;
	case LOCK_KEY_AVG_WAIT:
		print_time(fp, ls->avg_wait_time, c->len);
		break;
	case LOCK_KEY_WAIT_TOTAL:
		print_time(fp, ls->wait_time_total, c->len);
		break;
	case LOCK_KEY_WAIT_MAX:
		print_time(fp, ls->wait_time_max, c->len);
		break;
	case LOCK_KEY_WAIT_MIN:
		print_time(fp, ls->wait_time_min == UINT64_MAX ? 0 : ls->wait_time_min, c->len);
		break;
	}
}

static void print_values(FILE *fp, const struct lock_print_opts *o, const struct lock_stat *ls)
{
	for (int i = 0; i < o->nr_cols; i++) {
		print_value(fp, o->cols[i], ls);
		fputc(' ', fp);
	}
}

static void print_headers(FILE *fp, const struct lock_print_opts *o)
{
	for (int i = 0; i < o->nr_cols; i++)
		fprintf(fp, "%*s ", o->cols[i]->len, o->cols[i]->header);
}


/* perf's debugging footer: only when a sequence broke (or -v) */
static void print_bad_events(FILE *fp, const struct lock_analysis *la, int bad, int total,
			     const struct lock_print_opts *o)
{
	static const char *const names[LOCK_BROKEN_MAX] = {
		"acquire", "acquired", "contended", "release",
	};
	int broken = 0;

	for (int i = 0; i < LOCK_BROKEN_MAX; i++)
		broken += la->bad_hist[i];
	if (o->quiet || (!broken && !o->verbose))
		return;
	fputs("\n=== output for debug===\n\n", fp);
	fprintf(fp, "bad: %d, total: %d\n", bad, total);
	fprintf(fp, "bad rate: %.2f %%\n", (double)bad / (double)total * 100);
	fputs("histogram of events caused bad sequence\n", fp);
	for (int i = 0; i < LOCK_BROKEN_MAX; i++)
		fprintf(fp, " %10s: %d\n", names[i], la->bad_hist[i]);
}

void lock_print_report(FILE *fp, struct lock_analysis *la, struct lock_stat **rows, size_t nr,
		       const struct lock_print_opts *o)
{
	int bad = 0, total = 0, printed = 0;

	if (!o->quiet) {
		fprintf(fp, "%20s ", "Name");
		print_headers(fp, o);
		fputs("\n\n", fp);
	}
	for (size_t i = 0; i < nr; i++) {
		const struct lock_stat *ls = rows[i];
		char name[32];

		total++;
		if (ls->broken)
			bad++;
		if (!ls->nr_acquired)
			continue;
		if (strlen(ls->name) < 20) {
			fprintf(fp, "%20s ", o->threads ? task(la, ls->key, name) : ls->name);
		} else {	/* cut to 16 characters and dots */
			char cut[20];

			snprintf(cut, sizeof(cut), "%.16s...", ls->name);
			fprintf(fp, "%20s ", cut);
		}
		print_values(fp, o, ls);
		fputc('\n', fp);
		if (++printed >= o->entries)
			break;
	}
	print_bad_events(fp, la, bad, total, o);
}

/* -v: the lock's first chain, kernel frames named */
static void print_callstack(FILE *fp, const struct lock_analysis *la, const struct lock_stat *ls,
			    struct machine *m)
{
	for (int i = 0; i < la->max_stack && ls->callstack && ls->callstack[i]; i++) {
		uint64_t ip = ls->callstack[i];
		struct addr_location al;
		char buf[128] = "";

		if (m && machine__lookup(m, NULL, PERF_RECORD_MISC_KERNEL, ip, &al) && al.sym) {
			uint64_t offset = al.addr - al.sym->start;

			if (offset)
				snprintf(buf, sizeof(buf), "%s+%#lx", al.sym->name,
					 (unsigned long)offset);
			else
				snprintf(buf, sizeof(buf), "%s", al.sym->name);
		}
		fprintf(fp, "\t\t\t%#lx  %s\n", (unsigned long)ip, buf);
	}
}

void lock_print_contention(FILE *fp, struct lock_analysis *la, struct lock_stat **rows,
			   size_t nr, const struct lock_print_opts *o)
{
	int bad = 0, total = 0, printed = 0;

	if (!o->quiet) {
		print_headers(fp, o);
		if (o->threads)
			fprintf(fp, "  %10s   %s\n\n", "pid", "comm");
		else
			fprintf(fp, "  %10s   %s\n\n", "type", "caller");
	}
	for (size_t i = 0; i < nr; i++) {
		const struct lock_stat *ls = rows[i];
		char name[32];

		total++;
		if (ls->broken)
			bad++;
		print_values(fp, o, ls);
		if (o->threads) {
			fprintf(fp, "  %10d   %s\n", (int)ls->key, task(la, ls->key, name));
		} else {
			fprintf(fp, "  %10s   %s\n", lock_type_name(ls->flags), ls->name);
			if (o->verbose)
				print_callstack(fp, la, ls, o->machine);
		}
		if (++printed >= o->entries)
			break;
	}
	print_bad_events(fp, la, bad, total, o);
}

void lock_print_threads(FILE *fp, struct lock_analysis *la)
{
	size_t nr;
	uint64_t *tids = lock_analysis__threads(la, &nr);

	char name[32];

	fprintf(fp, "%10s: comm\n", "Thread ID");
	for (size_t i = 0; i < nr; i++)
		fprintf(fp, "%10d: %s\n", (int)tids[i], task(la, tids[i], name));
	free(tids);
}

static int by_name_then_addr(const void *pa, const void *pb)
{
	const struct lock_stat *a = *(const struct lock_stat *const *)pa;
	const struct lock_stat *b = *(const struct lock_stat *const *)pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->key < b->key ? -1 : a->key > b->key;
}

void lock_print_map(FILE *fp, struct lock_analysis *la)
{
	size_t nr;
	struct lock_stat **v = lock_analysis__table_order(la, &nr);

	qsort(v, nr, sizeof(*v), by_name_then_addr);
	fputs("Address of instance: name of class\n", fp);
	for (size_t i = 0; i < nr; i++)
		fprintf(fp, " %#llx: %s\n", (unsigned long long)v[i]->key, v[i]->name);
	free(v);
}
