/* record-threads: the data.N files of record --threads (see record-threads.h). */
#include "core/live/record-threads.h"
#include "core/data/perf-data-write.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the spec ---- */

static void add_group(struct record_thread_masks *m, struct cpu_map *maps, struct cpu_map *aff)
{
	m->maps = xrealloc(m->maps, (size_t)(m->nr + 1) * sizeof(*m->maps));
	m->affinity = xrealloc(m->affinity, (size_t)(m->nr + 1) * sizeof(*m->affinity));
	m->maps[m->nr] = maps;
	m->affinity[m->nr] = aff;
	m->nr++;
}

/* The CPUs of a that are in b too. */
static struct cpu_map *intersect(const struct cpu_map *a, const struct cpu_map *b)
{
	int *cpus = xcalloc((size_t)a->nr + 1, sizeof(*cpus)), n = 0;
	struct cpu_map *r;

	for (int i = 0; i < a->nr; i++)
		if (cpu_map__idx(b, a->map[i]) >= 0)
			cpus[n++] = a->map[i];
	r = cpu_map__new_from(cpus, n);
	free(cpus);
	return r;
}

enum topo_level { BY_CPU, BY_CORE, BY_PACKAGE, BY_NODE };

static bool same_group(const struct cpu_topology *a, const struct cpu_topology *b,
		       enum topo_level level)
{
	switch (level) {
	case BY_CORE:
		return a->socket == b->socket && a->die == b->die && a->core == b->core;
	case BY_PACKAGE:
		return a->socket == b->socket;
	case BY_NODE:
		return a->node == b->node;
	default:
		return false;
	}
}

/* One group per CPU, core, package or node, in the order of cpus. */
static void group_by_topology(const struct cpu_map *cpus, enum topo_level level,
			      struct record_thread_masks *m)
{
	struct cpu_topology *topo = xcalloc((size_t)cpus->nr, sizeof(*topo));
	int *group_of = xcalloc((size_t)cpus->nr, sizeof(*group_of));
	int *members = xcalloc((size_t)cpus->nr, sizeof(*members));

	for (int i = 0; i < cpus->nr; i++) {
		cpu_topology__read(cpus->map[i], &topo[i]);
		group_of[i] = -1;
		for (int j = 0; j < i && group_of[i] < 0; j++)
			if (same_group(&topo[i], &topo[j], level))
				group_of[i] = group_of[j];
		if (group_of[i] < 0)
			group_of[i] = m->nr++;
	}
	m->maps = xcalloc((size_t)m->nr, sizeof(*m->maps));
	m->affinity = xcalloc((size_t)m->nr, sizeof(*m->affinity));
	for (int g = 0; g < m->nr; g++) {
		int n = 0;

		for (int i = 0; i < cpus->nr; i++)
			if (group_of[i] == g)
				members[n++] = cpus->map[i];
		m->maps[g] = cpu_map__new_from(members, n);
		m->affinity[g] = cpu_map__new_from(members, n);
	}
	free(topo);
	free(group_of);
	free(members);
}

/* "MAPS/AFFINITY[:MAPS/AFFINITY...]", each side a CPU list. */
static int parse_user_masks(const char *spec, const struct cpu_map *cpus,
			    struct record_thread_masks *m, char *msg, size_t size)
{
	char *copy = xstrdup(spec), *save = NULL;
	int err = 0;

	for (char *tok = strtok_r(copy, ":", &save); tok && !err;
	     tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		struct cpu_map *maps = NULL, *aff = NULL, *want_maps, *want_aff;

		if (!slash || slash == tok || !slash[1]) {
			err = -EINVAL;
			break;
		}
		*slash = '\0';
		want_maps = cpu_map__parse(tok);
		want_aff = cpu_map__parse(slash + 1);
		if (!want_maps || !want_aff || cpu_map__is_any(want_maps) ||
		    cpu_map__is_any(want_aff)) {
			cpu_map__delete(want_maps);
			cpu_map__delete(want_aff);
			err = -EINVAL;
			break;
		}
		maps = intersect(want_maps, cpus);
		aff = intersect(want_aff, cpus);
		cpu_map__delete(want_maps);
		cpu_map__delete(want_aff);
		if (!maps->nr || !aff->nr) {
			snprintf(msg, size, "Failed to initialize %s thread mask",
				 maps->nr ? "affinity" : "maps");
			cpu_map__delete(maps);
			cpu_map__delete(aff);
			free(copy);
			return -ENODEV;
		}
		/* a ring belongs to one group */
		for (int g = 0; g < m->nr && !err; g++) {
			struct cpu_map *both = intersect(maps, m->maps[g]);

			if (both->nr) {
				snprintf(msg, size, "Intersecting maps mask: %d", g);
				err = -EINVAL;
			}
			cpu_map__delete(both);
		}
		if (err) {
			cpu_map__delete(maps);
			cpu_map__delete(aff);
			free(copy);
			return err;
		}
		add_group(m, maps, aff);
	}
	free(copy);
	if (!err && !m->nr)
		err = -EINVAL;
	if (err)
		snprintf(msg, size, "Invalid thread maps or affinity specs");
	return err;
}

int record_threads__parse_spec(const char *spec, const struct cpu_map *cpus,
			       struct record_thread_masks *masks, char *msg, size_t size)
{
	static const struct { const char *name; enum topo_level level; } levels[] = {
		{ "cpu", BY_CPU }, { "core", BY_CORE }, { "package", BY_PACKAGE },
		{ "numa", BY_NODE },
	};
	int err;

	memset(masks, 0, sizeof(*masks));
	msg[0] = '\0';
	if (!spec || !*spec)
		spec = "cpu";
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		if (!strcmp(spec, levels[i].name)) {
			group_by_topology(cpus, levels[i].level, masks);
			return 0;
		}
	}
	err = parse_user_masks(spec, cpus, masks, msg, size);
	if (err)
		record_thread_masks__exit(masks);
	return err;
}

void record_thread_masks__exit(struct record_thread_masks *masks)
{
	for (int g = 0; g < masks->nr; g++) {
		cpu_map__delete(masks->maps[g]);
		cpu_map__delete(masks->affinity[g]);
	}
	free(masks->maps);
	free(masks->affinity);
	memset(masks, 0, sizeof(*masks));
}

/* ---- the writer threads ---- */

/* Records handed to a group's thread, waiting to be written. */
struct pending {
	struct pending *next;
	size_t file;
	size_t len;
	unsigned char data[];
};

struct writer_group {
	struct record_threads *owner;
	int idx;
	pthread_t thread;
	bool started;
	cpu_set_t affinity;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct pending *head, **tail;
	bool stopping;
	int err;		/* the first write error, sticky */
};

struct ring_file {
	struct perf_data_writer w;
	int group;
};

struct record_threads {
	struct cpu_map *cpus;
	struct ring_file *files;	/* one per CPU of cpus, by index */
	struct writer_group *groups;
	int nr_groups;
};

static int write_batch(struct writer_group *g, struct pending *p)
{
	struct record_threads *t = g->owner;
	int err = 0;

	while (p) {
		struct pending *next = p->next;

		if (!err)
			err = perf_data_writer__write(&t->files[p->file].w, p->data, p->len);
		free(p);
		p = next;
	}
	/* on disk at once: a recording killed hard keeps what was drained */
	for (int f = 0; f < t->cpus->nr && !err; f++)
		if (t->files[f].group == g->idx)
			err = perf_data_writer__flush(&t->files[f].w);
	return err;
}

static void *writer_main(void *arg)
{
	struct writer_group *g = arg;

	for (;;) {
		struct pending *batch;
		bool stopping;
		int err;

		pthread_mutex_lock(&g->lock);
		while (!g->head && !g->stopping)
			pthread_cond_wait(&g->wake, &g->lock);
		batch = g->head;
		stopping = g->stopping;
		g->head = NULL;
		g->tail = &g->head;
		pthread_mutex_unlock(&g->lock);
		if (!batch && stopping)
			break;
		err = write_batch(g, batch);
		if (err) {
			pthread_mutex_lock(&g->lock);
			if (!g->err)
				g->err = err;
			pthread_mutex_unlock(&g->lock);
		}
	}
	return NULL;
}

static int open_ring_file(struct ring_file *f, const char *dir, int idx, int comp_level)
{
	char *path = xasprintf("%s/data.%d", dir, idx);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int err = fd < 0 ? -errno : 0;

	free(path);
	if (err)
		return err;
	/* a stream of records and nothing else: the pipe writer without its header */
	perf_data_writer__open_pipe(&f->w, fd);
	return comp_level > 0 ? perf_data_writer__set_compression(&f->w, comp_level) : 0;
}

struct record_threads *record_threads__start(const char *dir, const struct cpu_map *cpus,
					     const struct record_thread_masks *masks,
					     int comp_level, int *err)
{
	struct record_threads *t = xcalloc(1, sizeof(*t));

	*err = 0;
	t->cpus = cpu_map__new_from(cpus->map, cpus->nr);
	t->files = xcalloc((size_t)cpus->nr, sizeof(*t->files));
	for (int f = 0; f < cpus->nr; f++)
		t->files[f].w.fd = -1;
	for (int f = 0; f < cpus->nr && !*err; f++) {
		*err = open_ring_file(&t->files[f], dir, f, comp_level);
		for (int g = 0; g < masks->nr; g++)
			if (cpu_map__idx(masks->maps[g], cpus->map[f]) >= 0)
				t->files[f].group = g;
	}
	t->nr_groups = masks->nr;
	t->groups = xcalloc((size_t)masks->nr, sizeof(*t->groups));
	for (int g = 0; g < masks->nr && !*err; g++) {
		struct writer_group *wg = &t->groups[g];

		wg->owner = t;
		wg->idx = g;
		wg->tail = &wg->head;
		CPU_ZERO(&wg->affinity);
		for (int i = 0; i < masks->affinity[g]->nr; i++)
			if (masks->affinity[g]->map[i] >= 0 && masks->affinity[g]->map[i] < CPU_SETSIZE)
				CPU_SET(masks->affinity[g]->map[i], &wg->affinity);
		pthread_mutex_init(&wg->lock, NULL);
		pthread_cond_init(&wg->wake, NULL);
		*err = -pthread_create(&wg->thread, NULL, writer_main, wg);
		if (*err)
			break;
		wg->started = true;
		/* best effort, as a CPU may have gone offline since */
		pthread_setaffinity_np(wg->thread, sizeof(wg->affinity), &wg->affinity);
	}
	if (*err) {
		record_threads__stop(t, NULL);
		return NULL;
	}
	return t;
}

int record_threads__write(struct record_threads *t, int cpu, const void *data, size_t len)
{
	int idx = cpu_map__idx(t->cpus, cpu);
	struct writer_group *g;
	struct pending *p;
	int err;

	if (idx < 0)
		idx = 0;	/* a per-task ring: the first file */
	g = &t->groups[t->files[idx].group];
	p = xmalloc(sizeof(*p) + len);
	p->next = NULL;
	p->file = (size_t)idx;
	p->len = len;
	memcpy(p->data, data, len);
	pthread_mutex_lock(&g->lock);
	*g->tail = p;
	g->tail = &p->next;
	err = g->err;
	pthread_cond_signal(&g->wake);
	pthread_mutex_unlock(&g->lock);
	return err;
}

int record_threads__stop(struct record_threads *t, struct record_threads_totals *totals)
{
	int err = 0;

	for (int g = 0; g < t->nr_groups; g++) {
		struct writer_group *wg = &t->groups[g];

		if (!wg->started)
			continue;
		pthread_mutex_lock(&wg->lock);
		wg->stopping = true;
		pthread_cond_signal(&wg->wake);
		pthread_mutex_unlock(&wg->lock);
		pthread_join(wg->thread, NULL);
		if (!err)
			err = wg->err;
		pthread_mutex_destroy(&wg->lock);
		pthread_cond_destroy(&wg->wake);
	}
	if (totals)
		memset(totals, 0, sizeof(*totals));
	for (int f = 0; f < t->cpus->nr; f++) {
		struct perf_data_writer *w = &t->files[f].w;
		int ferr;

		if (w->fd < 0)
			continue;
		ferr = perf_data_writer__flush(w);
		if (totals) {
			totals->raw_bytes += w->raw_size;
			totals->written_bytes += w->data_size;
		}
		if (ferr)
			perf_data_writer__close(w);
		else
			ferr = perf_data_writer__finish(w);
		if (!err)
			err = ferr;
	}
	free(t->groups);
	free(t->files);
	cpu_map__delete(t->cpus);
	free(t);
	return err;
}
