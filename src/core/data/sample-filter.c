/* sample-filter: sample filters shared by readers (see sample-filter.h). */
#include "core/data/sample-filter.h"
#include "core/events/evsel.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void name_list__add(struct name_list *l, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL;

	/* commas only, as perf: comm and symbol names may hold blanks */
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
		l->v[l->n++] = xstrdup(t);
	}
	free(copy);
}

void sample_filter__add_names(struct sample_filter *f, const struct sample_filter_names *n)
{
	const char *const args[] = { n->comms, n->dsos, n->syms, n->pids, n->tids };
	struct name_list *const lists[] = { &f->comms, &f->dsos, &f->syms, &f->pids, &f->tids };

	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++)
		if (args[i])
			name_list__add(lists[i], args[i]);
}

bool name_list__has(const struct name_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return true;
	return false;
}

static bool name_list__has_int(const struct name_list *l, long v)
{
	for (size_t i = 0; i < l->n; i++)
		if (strtol(l->v[i], NULL, 0) == v)
			return true;
	return false;
}

void name_list__exit(struct name_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

int sample_filter__set_cpus(struct sample_filter *f, const char *arg)
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
		if (b >= SAMPLE_FILTER_MAX_CPUS)
			return -1;
		for (long c = a; c <= b; c++)
			f->cpus[c / 8] |= (uint8_t)(1u << (c % 8));
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	f->cpu_filter = true;
	return 0;
}

/* perf's parse_nsec_time: "sec[.frac]" with at most 9 decimals. */
static int parse_seconds(const char *s, uint64_t *ns)
{
	char *end;
	uint64_t sec = strtoull(s, &end, 10), frac = 0;

	if (end == s || (*end && *end != '.'))
		return -1;
	if (*end == '.') {
		const char *f = end + 1;
		size_t digits = strlen(f);

		if (digits > 9)
			return -1;
		for (size_t i = 0; i < 9; i++) {
			if (i < digits && (f[i] < '0' || f[i] > '9'))
				return -1;
			frac = frac * 10 + (i < digits ? (uint64_t)(f[i] - '0') : 0);
		}
	}
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

int sample_filter__set_time(struct sample_filter *f, const char *arg)
{
	char *copy = xstrdup(arg), *p = copy;
	int ret = 0;

	for (;;) {
		char *comma = strchr(p, ','), *next;
		struct time_range r = { 0, 0 };

		if (!comma) {
			ret = *p ? -1 : 0;
			break;
		}
		*comma = '\0';
		next = strchr(comma + 1, ',');
		if (next)
			*next = '\0';
		if ((*p && parse_seconds(p, &r.start) < 0) ||
		    (comma[1] && parse_seconds(comma + 1, &r.end) < 0) ||
		    (r.end && r.end < r.start)) {
			ret = -1;
			break;
		}
		f->ranges = xrealloc(f->ranges, (f->nr_ranges + 1) * sizeof(*f->ranges));
		f->ranges[f->nr_ranges++] = r;
		if (!next)
			break;
		p = next + 1;
	}
	free(copy);
	return ret;
}

/* "P%" as a fraction in [0, 1]; the '%' must end it. */
static int parse_fraction(const char *s, size_t len, double *v)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf) || s[len - 1] != '%')
		return -1;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	*v = strtod(buf, &end) / 100.0;
	return end == buf || *end || *v < 0.0 || *v > 1.0 ? -1 : 0;
}

static void add_range(struct sample_filter *f, uint64_t start, uint64_t end)
{
	f->ranges = xrealloc(f->ranges, (f->nr_ranges + 1) * sizeof(*f->ranges));
	f->ranges[f->nr_ranges++] = (struct time_range){ start, end };
}

int sample_filter__set_time_percent(struct sample_filter *f, const char *arg, uint64_t first,
				    uint64_t last)
{
	bool slices = strchr(arg, '/'), spans = !slices && strchr(arg, '-');
	const char *p = arg;

	if (!slices && !spans && strchr(arg, ','))
		return -1;
	for (;;) {
		size_t len = strcspn(p, ",");
		const char *sep = slices ? memchr(p, '/', len) : spans ? memchr(p, '-', len) : NULL;
		double from, to;
		uint64_t total = last - first, start, end;

		if (slices) {
			char *tail;
			long i;

			if (!sep || parse_fraction(p, (size_t)(sep - p), &from) < 0 || from <= 0.0)
				return -1;
			i = strtol(sep + 1, &tail, 10);
			if (tail != p + len || tail == sep + 1)
				return -1;
			to = from * (double)i;
			from *= (double)(i - 1);
			if (from < 0.0 || to > 1.0)
				return -1;
		} else if (spans) {
			if (!sep || parse_fraction(p, (size_t)(sep - p), &from) < 0 ||
			    parse_fraction(sep + 1, len - (size_t)(sep + 1 - p), &to) < 0)
				return -1;
		} else {
			/* "P%": the first slice of that size */
			if (parse_fraction(p, len, &to) < 0 || to <= 0.0)
				return -1;
			from = 0.0;
		}
		/* a slice ends just before the next one starts, except the last */
		start = first + (uint64_t)(from * (double)total + 0.5);
		end = first + (uint64_t)(to * (double)total + 0.5);
		if (end > start && to != 1.0)
			end--;
		add_range(f, start, end);
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int sample_filter__set_time_arg(struct sample_filter *f, const char *arg, uint64_t first,
				uint64_t last)
{
	if (!strchr(arg, '%'))
		return sample_filter__set_time(f, arg);
	if (!first && !last)
		return -2;
	return sample_filter__set_time_percent(f, arg, first, last);
}

void sample_filter__exit(struct sample_filter *f)
{
	name_list__exit(&f->comms);
	name_list__exit(&f->dsos);
	name_list__exit(&f->syms);
	name_list__exit(&f->pids);
	name_list__exit(&f->tids);
	free(f->ranges);
	f->ranges = NULL;
	f->nr_ranges = 0;
}

bool sample_filter__skip_cpu(const struct sample_filter *f, uint32_t cpu)
{
	if (!f->cpu_filter)
		return false;
	return cpu >= SAMPLE_FILTER_MAX_CPUS || !(f->cpus[cpu / 8] & (1u << (cpu % 8)));
}

int sample_filter__cpu_beyond(const struct sample_filter *f, uint32_t nr_cpus)
{
	for (uint32_t cpu = nr_cpus; f->cpu_filter && cpu < SAMPLE_FILTER_MAX_CPUS; cpu++) {
		if (!sample_filter__skip_cpu(f, cpu))
			return (int)cpu;
	}
	return -1;
}

bool sample_filter__skip_time(const struct sample_filter *f, uint64_t t)
{
	if (!f->nr_ranges || !t)
		return false;
	for (size_t i = 0; i < f->nr_ranges; i++) {
		const struct time_range *r = &f->ranges[i];

		if ((!r->start || t >= r->start) && (!r->end || t <= r->end))
			return false;
	}
	return true;
}

bool sample_filter__thread(const struct sample_filter *f, const struct thread *t)
{
	if (f->comms.n && !name_list__has(&f->comms, t->comm))
		return true;
	if (f->pids.n && !name_list__has_int(&f->pids, t->pid))
		return true;
	if (f->tids.n && !name_list__has_int(&f->tids, t->tid))
		return true;
	return false;
}

bool sample_filter__dso(const struct sample_filter *f, const struct addr_location *al)
{
	if (!f->dsos.n)
		return false;
	if (!al->map || !al->dso)
		return true;
	return !name_list__has(&f->dsos, al->dso->short_name) &&
	       !name_list__has(&f->dsos, al->dso->long_name);
}

/* perf reads an entry as an address when strtoul(16) takes all of it
 * but trailing blanks */
static bool hex_entry(const char *str, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(str, &end, 16);
	if (errno || end == str)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	return !*end;
}

bool sample_filter__symbol(const struct sample_filter *f, const struct addr_location *al)
{
	uint64_t ip = al->map ? map__unmap_ip(al->map, al->addr) : 0;

	if (!f->syms.n)
		return false;
	for (size_t i = 0; i < f->syms.n; i++) {
		uint64_t v;

		if (!hex_entry(f->syms.v[i], &v)) {
			if (al->sym && !strcmp(f->syms.v[i], al->sym->name))
				return false;
		} else if (al->map && (ip == v || (f->addr_range > 0 && ip >= v &&
						   ip < v + (uint64_t)f->addr_range))) {
			return false;
		}
	}
	return true;
}

int sample_filter__check_cpus(const struct sample_filter *f, const struct evlist *evlist,
			      uint32_t nr_cpus, char **err)
{
	int beyond;

	*err = NULL;
	for (int type = 0; type < PERF_TYPE_MAX; type++) {
		evlist__for_each(evlist, pos) {
			if (pos->attr.type != (uint32_t)type)
				continue;
			if (!(pos->attr.sample_type & PERF_SAMPLE_CPU)) {
				*err = xstrdup("File does not contain CPU events. Remove -C option "
					       "to proceed.");
				return -1;
			}
			break;
		}
	}
	beyond = sample_filter__cpu_beyond(f, nr_cpus);
	if (beyond >= 0) {
		*err = xasprintf("Requested CPU %d too large. Consider raising MAX_NR_CPUS", beyond);
		return -1;
	}
	return 0;
}
