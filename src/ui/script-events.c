/* script-events: the text perf script prints for a side record (switch,
 * lost, cgroup, namespaces, bpf, text poke, round, task, mmap events).
 * Mostly what -D shows after "PERF_RECORD_<TYPE>"; the types whose
 * script text differs from the dump's (LOST, FINISHED_ROUND) are handled
 * here. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ui/raw-dump.h"
#include "ui/script-print.h"
#include "util/util.h"

void script_print_record_line(FILE *fp, struct machine *m, const struct perf_event_header *rec)
{
	fprintf(fp, "PERF_RECORD_%s", perf_record_name(rec->type));
	switch (rec->type) {
	case PERF_RECORD_LOST:
		fprintf(fp, " lost %" PRIu64 "\n",
			((const struct perf_rec_lost *)(const void *)rec)->lost);
		break;
	case PERF_RECORD_FINISHED_ROUND:
		fputc('\n', fp);
		break;
	default:
		raw_dump_details(fp, m, rec, NULL, NULL);
		break;
	}
}

/* ---- --stop-bt ---- */

static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

int script_stop_bt(const char *list, const struct callchain_frame *frames, int n)
{
	for (int i = 0; i < n; i++)
		if (frames[i].al.sym && in_list(list, frames[i].al.sym->name))
			return i + 1;
	return n;
}

/* ---- --per-event-dump ---- */

static char *dump_name(const struct perf_session *s, const struct evsel *evsel)
{
	/* perf names the files after the input as given; stdin has no name */
	const char *in = s->is_pipe && !strcmp(s->path, "-") ? "(null)" : s->path;
	size_t n = strlen(in) + strlen(evsel->name) + sizeof("..dump");
	char *name = xmalloc(n);

	snprintf(name, n, "%s.%s.dump", in, evsel->name);
	return name;
}

int script_dumps__open(struct script_dumps *d, const struct perf_session *s,
		       const struct evsel *evsel)
{
	struct script_dump *e;

	if (evsel->idx >= d->nr) {
		int nr = evsel->idx + 1;

		d->files = xrealloc(d->files, (size_t)nr * sizeof(*d->files));
		memset(d->files + d->nr, 0, (size_t)(nr - d->nr) * sizeof(*d->files));
		d->nr = nr;
	}
	e = &d->files[evsel->idx];
	if (e->fp)
		return 0;
	e->name = dump_name(s, evsel);
	e->fp = fopen(e->name, "w");
	if (!e->fp) {
		fprintf(stderr, "Couldn't create the per event dump files\n");	/* perf's words */
		free(e->name);
		e->name = NULL;
		return -1;
	}
	return 0;
}

FILE *script_dumps__fp(struct script_dumps *d, const struct evsel *evsel)
{
	if (evsel->idx >= d->nr || !d->files[evsel->idx].fp)
		return NULL;
	d->files[evsel->idx].samples++;
	return d->files[evsel->idx].fp;
}

void script_dumps__close(struct script_dumps *d, FILE *report)
{
	for (int i = 0; i < d->nr; i++) {
		struct script_dump *e = &d->files[i];
		struct stat st;

		if (!e->fp)
			continue;
		/* perf measures the file before closing it: what stdio has
		 * written out so far, not the bytes still buffered */
		if (report) {
			if (fstat(fileno(e->fp), &st) < 0)
				st.st_size = 0;
			fprintf(report, "[ perf script: Wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
				(double)st.st_size / 1024.0 / 1024.0, e->name, e->samples);
		}
		fclose(e->fp);
		free(e->name);
	}
	free(d->files);
	memset(d, 0, sizeof(*d));
}
