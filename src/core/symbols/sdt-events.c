/* sdt-events: SDT markers recorded in the build-id cache. */
#include "core/symbols/sdt-events.h"
#include "core/symbols/buildid-cache.h"
#include "core/symbols/buildid.h"
#include "util/glob.h"
#include "util/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* .build-id/xx/yyyy -> ../../ORIGIN/xxyyyy: ORIGIN (a file or
 * [kernel.kallsyms]) if it still has that build id, as perf checks. */
static char *valid_origin(const char *link, const char *build_id)
{
	char target[PATH_MAX], hex[41], *slash;
	uint8_t id[20];
	int size;
	ssize_t n = readlink(link, target, sizeof(target) - 1);

	if (n <= 0)
		return NULL;
	target[n] = '\0';
	slash = strrchr(target, '/');
	if (!slash || strncmp(target, "../../", 6))
		return NULL;
	*slash = '\0';
	if (!strcmp(target + 6, "[kernel.kallsyms]"))
		size = sysfs__read_kernel_build_id(id, sizeof(id));
	else if (target[5] == '/' && target[6] != '[')
		size = elf_file__read_build_id(target + 5, id, sizeof(id));
	else
		return NULL;	/* [vdso] and the like cannot be checked */
	build_id__hex(id, size, hex);
	if (size <= 0 || strcmp(hex, build_id))
		return NULL;
	return xstrdup(target[6] == '[' ? target + 6 : target + 5);
}

static void scan_probes(const char *probes, const char *gglob, const char *eglob,
			const char *build_id, const char *path,
			struct sdt_event **out, int *n)
{
	char *text = read_file_str(probes), *save = NULL;

	if (!text)
		return;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon, *end;

		if (line[0] != '%')	/* '%' starts an SDT entry, other lines are its probes */
			continue;
		colon = strchr(line + 1, ':');
		if (!colon)
			continue;
		*colon = '\0';
		end = colon + 1 + strcspn(colon + 1, "= ");
		*end = '\0';
		if ((gglob && !glob_match(gglob, line + 1)) || (eglob && !glob_match(eglob, colon + 1)))
			continue;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[*n].name = xasprintf("%s:%s", line + 1, colon + 1);
		(*out)[*n].build_id = xstrdup(build_id);
		(*out)[*n].path = xstrdup(path);
		(*n)++;
	}
	free(text);
}

/* The order of "NAME@BUILD_ID" strings, which is how perf sorts them. */
static int cmp_sdt(const void *a, const void *b)
{
	const struct sdt_event *x = a, *y = b;
	char *kx = xasprintf("%s@%s", x->name, x->build_id);
	char *ky = xasprintf("%s@%s", y->name, y->build_id);
	int r = strcmp(kx, ky);

	free(kx);
	free(ky);
	return r;
}

/* Calls fn(probes file, build id, binary) for each binary of the cache that
 * still has its build id, in the order the directories are read. */
static void for_each_cached_binary(void (*fn)(const char *probes, const char *build_id,
					      const char *path, void *arg), void *arg)
{
	char *dir = build_id_cache__dir(), *ids;
	DIR *top;
	struct dirent *de;

	if (!dir)
		return;
	ids = xasprintf("%s/.build-id", dir);
	top = opendir(ids);
	while (top && (de = readdir(top))) {
		char *sub;
		DIR *d;
		struct dirent *e;

		if (strlen(de->d_name) != 2)
			continue;
		sub = xasprintf("%s/%s", ids, de->d_name);
		d = opendir(sub);
		while (d && (e = readdir(d))) {
			char *link, *bid, *path, *probes;

			if (e->d_name[0] == '.')
				continue;
			link = xasprintf("%s/%s", sub, e->d_name);
			bid = xasprintf("%s%s", de->d_name, e->d_name);
			path = valid_origin(link, bid);
			if (path) {
				probes = xasprintf("%s/probes", link);
				fn(probes, bid, path, arg);
				free(probes);
			}
			free(path);
			free(bid);
			free(link);
		}
		if (d)
			closedir(d);
		free(sub);
	}
	if (top)
		closedir(top);
	free(ids);
	free(dir);
}

struct sdt_scan {
	const char *group_glob, *event_glob;
	struct sdt_event *evs;
	int n;
};

static void scan_binary(const char *probes, const char *build_id, const char *path, void *arg)
{
	struct sdt_scan *sc = arg;

	scan_probes(probes, sc->group_glob, sc->event_glob, build_id, path, &sc->evs, &sc->n);
}

static int scan_sdt_events(const char *group_glob, const char *event_glob,
			   struct sdt_event **out)
{
	struct sdt_scan sc = { group_glob, event_glob, NULL, 0 };

	for_each_cached_binary(scan_binary, &sc);
	*out = sc.evs;
	return sc.n;
}

static void collect_files(const char *probes, const char *build_id, const char *path,
			  void *arg)
{
	struct probe_cache_list *all = arg;
	struct probe_cache_file *f;
	char *text = read_file_str(probes), *save = NULL;
	char *dir = xstrndup(probes, strlen(probes) - strlen("/probes"));

	all->v = xrealloc(all->v, (all->n + 1) * sizeof(*all->v));
	f = &all->v[all->n++];
	*f = (struct probe_cache_file){ .build_id = xstrdup(build_id),
					.missing = access(dir, F_OK) != 0 };
	free(dir);
	for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '%' && line[0] != '#')
			continue;
		f->lines = xrealloc(f->lines, (size_t)(f->nr_lines + 1) * sizeof(char *));
		f->lines[f->nr_lines++] = xstrdup(line);
	}
	free(text);
}

static int cmp_files(const void *a, const void *b)
{
	return strcmp(((const struct probe_cache_file *)a)->build_id,
		      ((const struct probe_cache_file *)b)->build_id);
}

void probe_cache__files(struct probe_cache_list *all)
{
	*all = (struct probe_cache_list){ NULL, 0 };
	for_each_cached_binary(collect_files, all);
	if (all->n)
		qsort(all->v, all->n, sizeof(*all->v), cmp_files);
}

void probe_cache_list__exit(struct probe_cache_list *all)
{
	for (size_t i = 0; i < all->n; i++) {
		for (int j = 0; j < all->v[i].nr_lines; j++)
			free(all->v[i].lines[j]);
		free(all->v[i].lines);
		free(all->v[i].build_id);
	}
	free(all->v);
	*all = (struct probe_cache_list){ NULL, 0 };
}

int sdt_events__list(const char *group_glob, const char *event_glob, struct sdt_event **out)
{
	int n = scan_sdt_events(group_glob, event_glob, out), kept = 0;

	if (n)
		qsort(*out, n, sizeof(**out), cmp_sdt);
	/* the same marker listed twice for one binary counts once */
	for (int i = 0; i < n; i++) {
		if (kept && !cmp_sdt(&(*out)[i], &(*out)[kept - 1])) {
			free((*out)[i].name);
			free((*out)[i].build_id);
			free((*out)[i].path);
			continue;
		}
		(*out)[kept++] = (*out)[i];
	}
	n = kept;
	return n;
}

static void sdt_event__exit(struct sdt_event *ev)
{
	free(ev->name);
	free(ev->build_id);
	free(ev->path);
}

int sdt_events__by_binary(const char *group_glob, const char *event_glob,
			  struct sdt_event **out)
{
	int n = scan_sdt_events(group_glob, event_glob, out), kept = 0;
	struct sdt_event *evs = *out;

	/* stable: a binary's markers keep their order */
	for (int i = 1; i < n; i++) {
		struct sdt_event ev = evs[i];
		int k = i;

		for (; k > 0 && strcmp(evs[k - 1].build_id, ev.build_id) > 0; k--)
			evs[k] = evs[k - 1];
		evs[k] = ev;
	}
	for (int i = 0; i < n; i++) {
		bool seen = false;

		for (int k = kept - 1; k >= 0 && !strcmp(evs[k].build_id, evs[i].build_id); k--)
			seen |= !strcmp(evs[k].name, evs[i].name);
		if (seen)
			sdt_event__exit(&evs[i]);
		else
			evs[kept++] = evs[i];
	}
	return kept;
}

void sdt_events__free(struct sdt_event *evs, int n)
{
	for (int i = 0; i < n; i++) {
		free(evs[i].name);
		free(evs[i].build_id);
		free(evs[i].path);
	}
	free(evs);
}

int sdt_event__definitions(const struct sdt_event *ev, char ***defs)
{
	char *dir = build_id_cache__dir();
	char *probes = dir ? xasprintf("%s/.build-id/%.2s/%s/probes", dir, ev->build_id,
				       ev->build_id + 2) : NULL;
	char *text = probes ? read_file_str(probes) : NULL, *save = NULL;
	char *head = xasprintf("%%%s=", ev->name);
	bool mine = false;
	int n = 0;

	*defs = NULL;
	for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '%') {
			mine = str_starts_with(line, head);
		} else if (mine) {
			*defs = xrealloc(*defs, (n + 1) * sizeof(**defs));
			(*defs)[n++] = xstrdup(line);
		}
	}
	free(head);
	free(text);
	free(probes);
	free(dir);
	return n;
}
