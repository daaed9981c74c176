/* probe-cache: the probes files of the build-id cache, read and written as
 * perf 6.1 does. */
#include "core/probe/probe-cache.h"
#include "core/probe/probe-dwarf.h"
#include "core/probe/probe-elf.h"
#include "core/symbols/buildid-cache.h"
#include "core/symbols/buildid.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void entry_free(struct probe_cache_entry *e)
{
	for (int i = 0; i < e->nr_defs; i++)
		free(e->defs[i]);
	free(e->defs);
	free(e->spev);
}

static struct probe_cache_entry *append_entry(struct probe_cache *pc, const char *spev, bool sdt)
{
	pc->entries = xrealloc(pc->entries, (pc->nr + 1) * sizeof(*pc->entries));
	pc->entries[pc->nr] = (struct probe_cache_entry){ .spev = xstrdup(spev), .sdt = sdt };
	return &pc->entries[pc->nr++];
}

static void entry_add_def(struct probe_cache_entry *e, const char *def)
{
	e->defs = xrealloc(e->defs, (e->nr_defs + 1) * sizeof(*e->defs));
	e->defs[e->nr_defs++] = xstrdup(def);
}

void probe_cache__parse(struct probe_cache *pc, const char *text)
{
	char *copy = xstrdup(text), *save = NULL;
	struct probe_cache_entry *cur = NULL;

	*pc = (struct probe_cache){ 0 };
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || line[0] == '%')
			cur = append_entry(pc, line + 1, line[0] == '%');
		else if (cur)
			entry_add_def(cur, line);
	}
	free(copy);
}

char *probe_cache__text(const struct probe_cache *pc)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < pc->nr; i++) {
		const struct probe_cache_entry *e = &pc->entries[i];

		strbuf_addf(&sb, "%c%s\n", e->sdt ? '%' : '#', e->spev);
		for (int k = 0; k < e->nr_defs; k++)
			strbuf_addf(&sb, "%s\n", e->defs[k]);
	}
	return strbuf_detach(&sb);
}

void probe_cache__exit(struct probe_cache *pc)
{
	for (int i = 0; i < pc->nr; i++)
		entry_free(&pc->entries[i]);
	free(pc->entries);
	*pc = (struct probe_cache){ 0 };
}

static void remove_at(struct probe_cache *pc, int i)
{
	entry_free(&pc->entries[i]);
	memmove(&pc->entries[i], &pc->entries[i + 1], (pc->nr - i - 1) * sizeof(*pc->entries));
	pc->nr--;
}

void probe_cache__add(struct probe_cache *pc, const char *spev, char **defs, int nr_defs)
{
	bool cached = false;

	for (int i = 0; i < pc->nr; i++)
		if (!pc->entries[i].sdt && !strcmp(pc->entries[i].spev, spev)) {
			remove_at(pc, i--);
			cached = true;
		}
	struct probe_cache_entry *e = append_entry(pc, spev, false);

	/* perf 6.1 takes a cached definition's uprobes from the cache and
	 * writes the renewed entry without them: match its file */
	for (int i = 0; i < nr_defs && !cached; i++)
		entry_add_def(e, defs[i]);
}

char *probe_cache_entry__key(const struct probe_cache_entry *entry)
{
	/* "[GROUP:]EVENT=POINT ...": the event is named before the first '='
	 * of the first word (a probe point has none) */
	size_t word = strcspn(entry->spev, " ");
	const char *eq = memchr(entry->spev, '=', word);

	return eq ? xstrndup(entry->spev, eq - entry->spev) : xstrdup(entry->spev);
}

char **probe_cache__purge(struct probe_cache *pc, const char *filter, int *nr)
{
	char **removed = NULL;

	*nr = 0;
	for (int i = 0; i < pc->nr; i++) {
		char *key = probe_cache_entry__key(&pc->entries[i]);
		bool hit = probe_strfilter_match(filter, key);

		free(key);
		if (!hit)
			continue;
		removed = xrealloc(removed, (*nr + 1) * sizeof(*removed));
		removed[(*nr)++] = xstrdup(pc->entries[i].spev);
		remove_at(pc, i--);
	}
	return removed;
}

static int cmp_ref(const void *a, const void *b)
{
	return strcmp(((const struct probe_cache_ref *)a)->build_id,
		      ((const struct probe_cache_ref *)b)->build_id);
}

/* .build-id/xx/yyyy -> ../../ORIGIN/xxyyyy: ORIGIN, or NULL. */
static char *link_origin(const char *link)
{
	char target[PATH_MAX], *slash;
	ssize_t n = readlink(link, target, sizeof(target) - 1);

	if (n <= 0)
		return NULL;
	target[n] = '\0';
	slash = strrchr(target, '/');
	if (!slash || strncmp(target, "../..", 5))
		return NULL;
	*slash = '\0';
	return xstrdup(target + 5 + (target[5] == '/' && target[6] == '['));
}

int probe_caches__list(const char *dir, struct probe_cache_ref **out)
{
	char *ids = xasprintf("%s/.build-id", dir);
	DIR *top = opendir(ids);
	struct dirent *de;
	int n = 0;

	*out = NULL;
	while (top && (de = readdir(top))) {
		if (strlen(de->d_name) != 2 || de->d_name[0] == '.')
			continue;
		char *sub = xasprintf("%s/%s", ids, de->d_name);
		DIR *d = opendir(sub);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char *link = xasprintf("%s/%s", sub, e->d_name);
			char *origin = link_origin(link);

			if (origin) {
				*out = xrealloc(*out, (n + 1) * sizeof(**out));
				(*out)[n++] = (struct probe_cache_ref){
					xasprintf("%s%s", de->d_name, e->d_name), origin,
					xasprintf("%s/probes", link)
				};
			}
			free(link);
		}
		if (d)
			closedir(d);
		free(sub);
	}
	if (top)
		closedir(top);
	free(ids);
	if (n)
		qsort(*out, n, sizeof(**out), cmp_ref);
	return n;
}

void probe_caches__free(struct probe_cache_ref *refs, int n)
{
	for (int i = 0; i < n; i++) {
		free(refs[i].build_id);
		free(refs[i].origin);
		free(refs[i].probes);
	}
	free(refs);
}

int probe_cache__load(struct probe_cache *pc, const char *path)
{
	char *text = read_file_str(path);

	probe_cache__parse(pc, text ? text : "");
	free(text);
	return text || errno == ENOENT ? 0 : -errno;
}

int probe_cache__save(const struct probe_cache *pc, const char *path)
{
	char *text = probe_cache__text(pc);
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f || fputs(text, f) < 0)
		ret = -errno;
	if (f && fclose(f) && !ret)
		ret = -errno;
	free(text);
	return ret;
}

char *probe_cache__open_probes(const char *name, const char *source, struct probe_msgs *msgs)
{
	uint8_t id[20];
	int size = elf_file__read_build_id(source, id, sizeof(id)), ret = 0, fd = -1;
	char *dir = build_id_cache__dir(), *entry = NULL, *probes = NULL;

	if (size <= 0) {
		probe_msg(msgs, true, "Failed to get build-id from %s.\nCache open error: -1\n",
			  name);
		free(dir);
		return NULL;
	}
	if (dir)
		entry = build_id_cache__entry(dir, name, id, size);
	if (entry) {
		/* the entry's last component is the build id, as its link's */
		const char *hex = strrchr(entry, '/') + 1;
		char *link = xasprintf("%s/.build-id/%.2s/%s", dir, hex, hex + 2);
		struct stat st;

		if (lstat(link, &st))
			ret = build_id_cache__add_from(dir, name, source, id, size);
		free(link);
	}
	if (ret) {
		probe_msg(msgs, true, "Failed to add build-id cache: %s\nCache open error: %d\n",
			  name, ret);
	} else if (entry) {
		probes = xasprintf("%s/probes", entry);
		fd = open(probes, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
		if (fd < 0) {
			probe_msg(msgs, true, "Failed to open cache(-1): %s\nCache open error: -1\n",
				  probes);
			free(probes);
			probes = NULL;
		} else {
			close(fd);
		}
	}
	free(entry);
	free(dir);
	return probes;
}
