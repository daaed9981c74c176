/* cgroup: finding, opening and sharing the -G cgroups. */
#include "core/events/cgroup.h"
#include "util/util.h"

#include <fcntl.h>
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

/* relative: names are paths below the mount point, a leading '/' included
 * (--for-each-cgroup); otherwise one is added after the mount point (-G). */
static int attach_cgroups(struct evlist *evlist, char *const *names, int nr, bool relative,
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
		if (!name || !*name)
			continue;
		cgrp = find_cgroup(evlist, pos, name);
		if (!cgrp) {
			path = relative && name[0] == '/' ? xasprintf("%s%s", mnt, name)
							  : xasprintf("%s/%s", mnt, name);
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

/* The names of a comma-separated list, each once, in their first order. */
static int split_unique(const char *list, char ***out)
{
	char **names = NULL;
	int n = 0;

	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		char *name = xstrndup(p, len);
		bool seen = false;

		for (int i = 0; i < n && !seen; i++)
			seen = !strcmp(names[i], name);
		if (seen) {
			free(name);
		} else {
			names = xrealloc(names, (size_t)(n + 1) * sizeof(*names));
			names[n++] = name;
		}
		p += len;
		if (!*p)
			break;
	}
	*out = names;
	return n;
}

int evlist__expand_cgroups(struct evlist *evlist, const char *list, char **bad_path)
{
	char **names, **per_event;
	int nr_names = split_unique(list, &names), nr = evlist->nr_entries, k = 0, err;
	int nr_groups = evlist->nr_groups;
	struct evsel **orig = xcalloc((size_t)(nr ? nr : 1), sizeof(*orig)), **copy;

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
