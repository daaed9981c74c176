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

int evlist__attach_cgroups(struct evlist *evlist, char *const *names, int nr, char **bad_path)
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
