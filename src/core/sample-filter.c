/* sample-filter: comm/pid/tid/dso/cpu/time filters shared by the
 * commands that aggregate samples (see sample-filter.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/machine.h"
#include "core/sample-filter.h"
#include "util/util.h"

/* Splits "a,b" into a new string array (names may hold spaces); returns
 * its length. */
static size_t split_list(const char *list, char ***out)
{
	char *s = xstrdup(list), *save = NULL;
	char **v = NULL;
	size_t n = 0;

	for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = xstrdup(t);
	}
	free(s);
	*out = v;
	return n;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int sample_filter__set_comms(struct sample_filter *f, const char *list)
{
	free_list(f->comms, f->nr_comms);
	f->nr_comms = split_list(list, &f->comms);
	return 0;
}

int sample_filter__set_dsos(struct sample_filter *f, const char *list)
{
	free_list(f->dsos, f->nr_dsos);
	f->nr_dsos = split_list(list, &f->dsos);
	return 0;
}

static int parse_ids(const char *list, long **out, size_t *nr)
{
	char **v;
	size_t n = split_list(list, &v);
	long *ids = xcalloc(n ? n : 1, sizeof(*ids));

	for (size_t i = 0; i < n; i++) {
		char *end;

		errno = 0;
		ids[i] = strtol(v[i], &end, 0);
		if (errno || *end || end == v[i]) {
			free_list(v, n);
			free(ids);
			return -1;
		}
	}
	free_list(v, n);
	free(*out);
	*out = ids;
	*nr = n;
	return 0;
}

int sample_filter__set_pids(struct sample_filter *f, const char *list)
{
	return parse_ids(list, &f->pids, &f->nr_pids);
}

int sample_filter__set_tids(struct sample_filter *f, const char *list)
{
	return parse_ids(list, &f->tids, &f->nr_tids);
}

/* "0-3,7" */
int sample_filter__set_cpus(struct sample_filter *f, const char *arg)
{
	uint8_t *bits = xcalloc(MAX_FILTER_CPUS / 8, 1);
	const char *p = arg;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0)
			goto bad;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				goto bad;
		}
		if (b >= MAX_FILTER_CPUS)
			goto bad;
		for (long c = a; c <= b; c++)
			bits[c / 8] |= (uint8_t)(1u << (c % 8));
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	free(f->cpus);
	f->cpus = bits;
	return 0;
bad:
	free(bits);
	return -1;
}

int parse_timestamp_ns(const char *s, size_t len, uint64_t *ns)
{
	char buf[64], *dot, *end;
	uint64_t sec, frac = 0;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	dot = strchr(buf, '.');
	if (dot)
		*dot = 0;
	errno = 0;
	sec = strtoull(buf, &end, 10);
	if (errno || *end || end == buf || buf[0] == '-')
		return -1;
	if (dot) {
		size_t flen = strlen(dot + 1);

		if (flen > 9)
			return -1;
		frac = flen ? strtoull(dot + 1, &end, 10) : 0;
		if (flen && *end)
			return -1;
		while (flen++ < 9)
			frac *= 10;
	}
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

int sample_filter__set_time(struct sample_filter *f, const char *spec)
{
	struct sample_time_range *ranges = NULL;
	size_t n = 0;
	const char *p = spec;

	while (*p) {
		const char *comma = strchr(p, ','), *next;
		struct sample_time_range r = { 0, UINT64_MAX };
		size_t len;

		if (!comma)
			goto bad;
		if (comma > p && parse_timestamp_ns(p, (size_t)(comma - p), &r.start) < 0)
			goto bad;
		next = strchr(comma + 1, ',');
		len = next ? (size_t)(next - comma - 1) : strlen(comma + 1);
		if (len && parse_timestamp_ns(comma + 1, len, &r.end) < 0)
			goto bad;
		if (r.end < r.start)
			goto bad;
		ranges = xrealloc(ranges, (n + 1) * sizeof(*ranges));
		ranges[n++] = r;
		p = next ? next + 1 : comma + 1 + len;
	}
	if (!n)
		goto bad;
	free(f->ranges);
	f->ranges = ranges;
	f->nr_ranges = n;
	return 0;
bad:
	free(ranges);
	return -1;
}

void sample_filter__exit(struct sample_filter *f)
{
	free_list(f->comms, f->nr_comms);
	free_list(f->dsos, f->nr_dsos);
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	free(f->ranges);
	memset(f, 0, sizeof(*f));
}

bool sample_filter__time_ok(const struct sample_filter *f, uint64_t time)
{
	if (!f->nr_ranges)
		return true;
	for (size_t i = 0; i < f->nr_ranges; i++)
		if (time >= f->ranges[i].start && time <= f->ranges[i].end)
			return true;
	return false;
}

bool sample_filter__cpu_ok(const struct sample_filter *f, uint32_t cpu)
{
	if (!f->cpus || cpu == (uint32_t)-1)
		return true;
	return cpu < MAX_FILTER_CPUS && (f->cpus[cpu / 8] & (1u << (cpu % 8)));
}

static bool has_id(const long *v, size_t n, long id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

bool sample_filter__thread_ok(const struct sample_filter *f, const struct thread *t)
{
	if (f->nr_comms) {
		size_t i;

		for (i = 0; i < f->nr_comms; i++)
			if (!strcmp(f->comms[i], t->comm))
				break;
		if (i == f->nr_comms)
			return false;
	}
	if (f->nr_pids && !has_id(f->pids, f->nr_pids, t->pid))
		return false;
	if (f->nr_tids && !has_id(f->tids, f->nr_tids, t->tid))
		return false;
	return true;
}

bool sample_filter__dso_ok(const struct sample_filter *f, const struct dso *dso)
{
	if (!f->nr_dsos)
		return true;
	if (!dso)
		return false;
	for (size_t i = 0; i < f->nr_dsos; i++)
		if (!strcmp(f->dsos[i], dso->short_name) || !strcmp(f->dsos[i], dso->long_name))
			return true;
	return false;
}
