/* counts: running statistics, aggregation units, reads, deltas and scaling. */
#include "core/hist/counts.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void stats__init(struct stats *s)
{
	memset(s, 0, sizeof(*s));
}

void stats__update(struct stats *s, double val)
{
	double delta;

	s->n++;
	delta = val - s->mean;
	s->mean += delta / s->n;
	s->M2 += delta * (val - s->mean);
}

double stats__avg(const struct stats *s)
{
	return s->mean;
}

double stats__stddev(const struct stats *s)
{
	double variance;

	if (s->n < 2)
		return 0.0;
	variance = s->M2 / (s->n - 1);
	return sqrt(variance / s->n);
}

double stats__rel_stddev(double stddev, double avg)
{
	return avg ? 100.0 * stddev / avg : 0.0;
}

/* --- aggregation units --- */

static int cmp_aggr_id(const void *a, const void *b)
{
	const struct aggr_id *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	if (x->die != y->die)
		return x->die < y->die ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static bool aggr_id__equal(const struct aggr_id *a, const struct aggr_id *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* The unit a CPU falls in under mode. */
static struct aggr_id aggr_id__of_cpu(enum aggr_mode mode, int cpu, topology_reader_t read_topo)
{
	struct aggr_id id = { -1, -1, -1, -1, -1, -1 };
	struct cpu_topology t = { -1, -1, -1, -1 };

	if (mode == AGGR_GLOBAL)
		return id;
	if (cpu >= 0)
		read_topo(cpu, &t);
	switch (mode) {
	case AGGR_NONE:
		id.socket = t.socket;
		id.die = t.die;
		id.core = t.core;
		id.cpu = cpu;
		break;
	case AGGR_CORE:
		id.core = t.core;
		/* fall through */
	case AGGR_DIE:
		id.die = t.die;
		/* fall through */
	case AGGR_SOCKET:
		id.socket = t.socket;
		break;
	case AGGR_NODE:
		id.node = t.node;
		break;
	default:
		break;
	}
	return id;
}

struct aggr_map *aggr_map__new(enum aggr_mode mode, const struct cpu_map *cpus,
			       const struct thread_map *threads, topology_reader_t read_topo)
{
	struct aggr_map *map = xcalloc(1, sizeof(*map));
	struct aggr_id *cpu_ids;

	if (!read_topo)
		read_topo = cpu_topology__read;
	map->mode = mode;
	map->max_cpu = -1;
	for (int i = 0; i < cpus->nr; i++)
		if (cpus->map[i] > map->max_cpu)
			map->max_cpu = cpus->map[i];
	map->cpu_unit = xmalloc((size_t)(map->max_cpu + 1 + 1) * sizeof(int));
	for (int i = 0; i <= map->max_cpu; i++)
		map->cpu_unit[i] = -1;

	if (mode == AGGR_THREAD) {
		map->nr = threads->nr;
		map->ids = xcalloc((size_t)(map->nr ? map->nr : 1), sizeof(*map->ids));
		for (int i = 0; i < map->nr; i++) {
			map->ids[i] = aggr_id__of_cpu(AGGR_GLOBAL, -1, read_topo);
			map->ids[i].thread = i;
		}
		return map;
	}

	cpu_ids = xcalloc((size_t)cpus->nr, sizeof(*cpu_ids));
	map->ids = xcalloc((size_t)cpus->nr, sizeof(*map->ids));
	for (int i = 0; i < cpus->nr; i++) {
		int u;

		cpu_ids[i] = aggr_id__of_cpu(mode, cpus->map[i], read_topo);
		for (u = 0; u < map->nr; u++)
			if (aggr_id__equal(&map->ids[u], &cpu_ids[i]))
				break;
		if (u == map->nr)
			map->ids[map->nr++] = cpu_ids[i];
	}
	if (mode != AGGR_NONE)
		qsort(map->ids, (size_t)map->nr, sizeof(*map->ids), cmp_aggr_id);
	for (int i = 0; i < cpus->nr; i++) {
		if (cpus->map[i] < 0)
			continue;
		for (int u = 0; u < map->nr; u++)
			if (aggr_id__equal(&map->ids[u], &cpu_ids[i]))
				map->cpu_unit[cpus->map[i]] = u;
	}
	free(cpu_ids);
	return map;
}

int aggr_map__unit_of_cpu(const struct aggr_map *map, int cpu)
{
	if (map->mode == AGGR_GLOBAL)
		return 0;
	if (cpu < 0 || cpu > map->max_cpu)
		return -1;
	return map->cpu_unit[cpu];
}

void aggr_map__delete(struct aggr_map *map)
{
	if (!map)
		return;
	free(map->ids);
	free(map->cpu_unit);
	free(map);
}

/* --- per-event counts --- */

void evsel_counts__init(struct evsel_counts *c, int nr_cpus, int nr_threads)
{
	size_t n = (size_t)(nr_cpus * nr_threads);

	memset(c, 0, sizeof(*c));
	c->nr_cpus = nr_cpus;
	c->nr_threads = nr_threads;
	c->raw = xcalloc(n ? n : 1, sizeof(*c->raw));
	c->prev = xcalloc(n ? n : 1, sizeof(*c->prev));
	stats__init(&c->res_stats);
}

void evsel_counts__exit(struct evsel_counts *c)
{
	free(c->raw);
	free(c->prev);
	memset(c, 0, sizeof(*c));
}

void evsel_counts__reset_prev(struct evsel_counts *c)
{
	memset(c->prev, 0, (size_t)(c->nr_cpus * c->nr_threads) * sizeof(*c->prev));
	memset(&c->aggr_prev, 0, sizeof(c->aggr_prev));
}

struct counts_values *evsel_counts__at(struct evsel_counts *c, int cpu_idx, int thread_idx)
{
	return &c->raw[cpu_idx * c->nr_threads + thread_idx];
}

/* A group whose members did not all open cannot be read as a group. */
static bool group_incomplete(const struct evsel *evsel)
{
	const struct evsel *pos = evsel->leader;

	if (pos->nr_members < 2)
		return false;
	for (int i = 0; pos && i < evsel->leader->nr_members; i++, pos = pos->next)
		if (!pos->supported)
			return true;
	return false;
}

int evsel_counts__read(struct evsel_counts *c, const struct evsel *evsel)
{
	c->failed = false;
	if (!evsel->supported || group_incomplete(evsel)) {
		c->failed = true;
		return -1;
	}
	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		for (int t = 0; t < c->nr_threads; t++) {
			if (evsel__read(evsel, cpu, t, evsel_counts__at(c, cpu, t))) {
				c->failed = true;
				return -1;
			}
		}
	}
	return 0;
}

int counts_values__scale(struct counts_values *v, bool scale)
{
	if (!scale)
		return 0;
	if (v->run == 0) {
		v->val = 0;
		return -1;
	}
	if (v->run < v->ena) {
		v->val = (uint64_t)((double)v->val * (double)v->ena / (double)v->run);
		return 1;
	}
	return 0;
}

/* cur - prev, then prev = cur: the counts of the interval just ended. */
static struct counts_values delta(const struct counts_values *cur, struct counts_values *prev)
{
	struct counts_values d = {
		cur->val - prev->val, cur->ena - prev->ena, cur->run - prev->run,
	};

	*prev = *cur;
	return d;
}

void evsel_counts__aggr_global(struct evsel_counts *c, bool interval, bool scale,
			       struct aggr_value *out)
{
	struct counts_values sum = { 0, 0, 0 };
	int scaled;

	for (int i = 0; i < c->nr_cpus * c->nr_threads; i++) {
		sum.val += c->raw[i].val;
		sum.ena += c->raw[i].ena;
		sum.run += c->raw[i].run;
	}
	if (interval)
		sum = delta(&sum, &c->aggr_prev);
	scaled = counts_values__scale(&sum, scale);
	out->val = (double)sum.val;
	out->ena = sum.ena;
	out->run = sum.run;
	out->nr = 0;
	out->counted = !c->failed && scaled != -1 && sum.ena && sum.run;
}

void evsel_counts__aggr_units(struct evsel_counts *c, const struct evsel *evsel,
			      const struct aggr_map *map, bool interval, bool scale,
			      struct aggr_value *out)
{
	bool *bad = xcalloc((size_t)(map->nr ? map->nr : 1), sizeof(bool));

	memset(out, 0, (size_t)map->nr * sizeof(*out));
	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		int cpu_unit = map->mode == AGGR_THREAD ? -1 :
			aggr_map__unit_of_cpu(map, evsel->cpus ? evsel->cpus->map[cpu] : -1);

		if (map->mode != AGGR_THREAD && cpu_unit >= 0)
			out[cpu_unit].nr++;
		for (int t = 0; t < c->nr_threads; t++) {
			int unit = map->mode == AGGR_THREAD ? t : cpu_unit;
			struct counts_values v = *evsel_counts__at(c, cpu, t);

			if (unit < 0 || unit >= map->nr)
				continue;
			if (interval)
				v = delta(&v, &c->prev[cpu * c->nr_threads + t]);
			counts_values__scale(&v, scale);
			if (map->mode != AGGR_THREAD && (!v.ena || !v.run))
				bad[unit] = true;
			out[unit].val += (double)v.val;
			out[unit].ena += v.ena;
			out[unit].run += v.run;
		}
	}
	for (int u = 0; u < map->nr; u++)
		out[u].counted = !c->failed && !bad[u] && out[u].ena && out[u].run;
	free(bad);
}

static bool same_core(const struct aggr_id *a, const struct aggr_id *b)
{
	return a->socket == b->socket && a->die == b->die && a->core == b->core;
}

void aggr_values__sum_core_siblings(const struct aggr_map *map, struct aggr_value *out)
{
	struct aggr_value *sums = xcalloc((size_t)(map->nr ? map->nr : 1), sizeof(*sums));

	for (int u = 0; u < map->nr; u++) {
		sums[u] = out[u];
		sums[u].val = 0;
		sums[u].ena = sums[u].run = 0;
		for (int v = 0; v < map->nr; v++) {
			if (!same_core(&map->ids[u], &map->ids[v]))
				continue;
			sums[u].val += out[v].val;
			sums[u].ena += out[v].ena;
			sums[u].run += out[v].run;
		}
	}
	memcpy(out, sums, (size_t)map->nr * sizeof(*out));
	free(sums);
}
