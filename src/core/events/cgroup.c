/* cgroup: finding, opening and sharing the -G cgroups. */
#include "core/events/cgroup.h"
#include "util/util.h"

#include <fcntl.h>
#include <ftw.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *cgroup__mountpoint(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	char dev[256], dir[4096], type[64], opts[1024];
	char *v2 = NULL, *v1 = NULL;

	while (f && fscanf(f, "%255s %4095s %63s %1023s %*d %*d\n", dev, dir, type, opts) == 4) {
		if (!strcmp(type, "cgroup2") && !v2)
			v2 = xstrdup(dir);
		else if (!strcmp(type, "cgroup") && strstr(opts, "perf_event") && !v1)
			v1 = xstrdup(dir);
	}
	if (f)
		fclose(f);
	if (v1) {
		free(v2);
		return v1;
	}
	return v2 ? v2 : xstrdup("/sys/fs/cgroup");
}

/* An earlier event's cgroup of that name, to share. */
static struct cgroup *find_cgroup(struct evlist *evlist, const struct evsel *upto, const char *name)
{
	for (struct evsel *pos = evlist->first; pos && pos != upto; pos = pos->next)
		if (pos->cgrp && !strcmp(pos->cgrp->name, name))
			return pos->cgrp;
	return NULL;
}

/* root_empty: an empty name is the root cgroup (--for-each-cgroup), not
 * "no cgroup" (-G). */
static int attach_cgroups(struct evlist *evlist, char *const *names, int nr, bool root_empty,
			  char **bad_path)
{
	char *mnt;
	int i = 0;

	*bad_path = NULL;
	if (!nr)
		return 0;
	mnt = cgroup__mountpoint();
	evlist__for_each(evlist, pos) {
		const char *name = nr == 1 ? names[0] : i < nr ? names[i] : NULL;
		struct cgroup *cgrp;
		char *path;
		int fd;

		i++;
		if (!name || (!*name && !root_empty))
			continue;
		cgrp = find_cgroup(evlist, pos, name);
		if (!cgrp) {
			path = xasprintf("%s/%s", mnt, name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				*bad_path = path;
				free(mnt);
				return -1;
			}
			free(path);
			cgrp = xcalloc(1, sizeof(*cgrp));
			cgrp->name = xstrdup(name);
			cgrp->fd = fd;
		}
		cgrp->refcnt++;
		pos->cgrp = cgrp;
	}
	free(mnt);
	return 0;
}

int evlist__attach_cgroups(struct evlist *evlist, char *const *names, int nr, char **bad_path)
{
	return attach_cgroups(evlist, names, nr, false, bad_path);
}

void evlist__release_cgroups(struct evlist *evlist)
{
	evlist__for_each(evlist, pos) {
		struct cgroup *cgrp = pos->cgrp;

		pos->cgrp = NULL;
		if (!cgrp || --cgrp->refcnt)
			continue;
		close(cgrp->fd);
		free(cgrp->name);
		free(cgrp);
	}
}

static void push_unique(char ***names, int *n, const char *name, size_t len)
{
	for (int i = 0; i < *n; i++)
		if (strlen((*names)[i]) == len && !strncmp((*names)[i], name, len))
			return;
	*names = xrealloc(*names, (size_t)(*n + 1) * sizeof(**names));
	(*names)[(*n)++] = xstrndup(name, len);
}

/* A cgroup path as --for-each-cgroup names it: without its first '/', but
 * the root spelled "/" stays so. */
static const char *shown_name(const char *path)
{
	return path[0] == '/' && path[1] ? path + 1 : path;
}

/* The names of a comma-separated list, each once, in their first order. */
static int split_unique(const char *list, char ***out)
{
	char **names = NULL;
	int n = 0;

	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		char *name = xstrndup(p, len);

		push_unique(&names, &n, shown_name(name), strlen(shown_name(name)));
		free(name);
		p += len;
		if (!*p)
			break;
	}
	*out = names;
	return n;
}

static bool has_pattern(const char *list)
{
	return strpbrk(list, "{}[]()|*+?^$") != NULL;
}

static char **tree;		/* nftw's callback has no argument: the walk's state */
static int tree_n;
static size_t tree_prefix;

static int add_tree_dir(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	if (type != FTW_D)
		return 0;
	tree = xrealloc(tree, (size_t)(tree_n + 1) * sizeof(*tree));
	tree[tree_n++] = xstrdup(path + tree_prefix);
	return 0;
}

/*
 * The cgroups, in the mount's walk order, whose path below the mount point
 * ("" for the root, "/a/b") matches one of the comma-separated regular
 * expressions.  Returns how many (0: none matched).
 */
static int match_cgroups(const char *list, char ***out)
{
	char *mnt = cgroup__mountpoint(), **names = NULL;
	bool *used;
	int n = 0;

	tree = NULL;
	tree_n = 0;
	tree_prefix = strlen(mnt);
	nftw(mnt, add_tree_dir, 16, FTW_PHYS);
	used = xcalloc((size_t)(tree_n ? tree_n : 1), sizeof(*used));
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		char *pattern = xstrndup(p, len);
		regex_t re;

		if (!regcomp(&re, pattern, REG_NOSUB)) {
			for (int i = 0; i < tree_n; i++)
				used[i] |= !regexec(&re, tree[i], 0, NULL, 0);
			regfree(&re);
		}
		free(pattern);
		p += len;
		if (!*p)
			break;
	}
	for (int i = 0; i < tree_n; i++) {
		if (used[i])
			push_unique(&names, &n, shown_name(tree[i]), strlen(shown_name(tree[i])));
		free(tree[i]);
	}
	free(tree);
	tree = NULL;
	free(used);
	free(mnt);
	*out = names;
	return n;
}

int evlist__expand_cgroups(struct evlist *evlist, const char *list, char **bad_path)
{
	char **names, **per_event;
	int nr_names = has_pattern(list) ? match_cgroups(list, &names) : split_unique(list, &names);
	int nr = evlist->nr_entries, k = 0, err;
	int nr_groups = evlist->nr_groups;
	struct evsel **orig, **copy;

	*bad_path = NULL;
	if (!nr_names) {
		free(names);
		*bad_path = xstrdup(list);
		return -2;
	}
	orig = xcalloc((size_t)(nr ? nr : 1), sizeof(*orig));

	evlist__for_each(evlist, pos)
		orig[k++] = pos;
	copy = xcalloc((size_t)(nr ? nr : 1), sizeof(*copy));
	per_event = xcalloc((size_t)(nr * nr_names + 1), sizeof(*per_event));
	evlist__init(evlist);
	k = 0;
	for (int c = 0; c < nr_names; c++)
		for (int i = 0; i < nr; i++) {
			struct evsel *e = evsel__clone(orig[i]);

			copy[i] = e;
			/* a member follows its leader, which this copy has already made */
			for (int j = 0; j < i; j++)
				if (orig[i]->leader == orig[j])
					e->leader = copy[j];
			evlist__add(evlist, e);
			per_event[k++] = names[c];
		}
	evlist->nr_groups = nr_groups * nr_names;
	for (int i = 0; i < nr; i++)
		evsel__delete(orig[i]);
	err = attach_cgroups(evlist, per_event, k, true, bad_path);
	for (int c = 0; c < nr_names; c++)
		free(names[c]);
	free(names);
	free(per_event);
	free(copy);
	free(orig);
	return err;
}
