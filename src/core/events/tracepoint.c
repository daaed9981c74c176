/* tracepoint: tracefs location, tracepoint ids and listings. */
#include "core/events/tracepoint.h"
#include "util/glob.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>
#include <tracefs.h>

static char *events_path;

static const char *tracing_dir(void)
{
	const char *dir = tracefs_tracing_dir();

	/* libtracefs normally mounts tracefs itself; try once more by hand */
	if (!dir && geteuid() == 0 &&
	    !mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		dir = tracefs_tracing_dir();
	return dir;
}

const char *tracing_events_path(void)
{
	if (!events_path) {
		const char *dir = tracing_dir();

		if (dir)
			events_path = xasprintf("%s/events", dir);
	}
	return events_path;
}

long long tracepoint__id(const char *sys, const char *name)
{
	const char *events = tracing_events_path();
	char *path, *s;
	long long id;

	if (!events)
		return -ENOENT;
	path = xasprintf("%s/%s/%s/id", events, sys, name);
	s = read_file_str(path);
	free(path);
	if (!s)
		return errno ? -errno : -ENOENT;
	id = strtoll(s, NULL, 10);
	free(s);
	return id;
}

int tracepoint__readdir(const char *sys, char ***names)
{
	const char *events = tracing_events_path();
	char *path;
	DIR *d;
	struct dirent *de;
	int n = 0;

	*names = NULL;
	if (!events)
		return -ENOENT;
	path = sys ? xasprintf("%s/%s", events, sys) : xstrdup(events);
	d = opendir(path);
	free(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		*names = xrealloc(*names, (n + 1) * sizeof(char *));
		(*names)[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	return n;
}

void strlist__free(char **list, int n)
{
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

static bool is_dir(const char *path)
{
	DIR *d = opendir(path);

	if (d)
		closedir(d);
	return d != NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int tracepoints__list(const char *sys_glob, const char *evt_glob, char ***out)
{
	const char *events = tracing_events_path();
	char **systems;
	int nsys = tracepoint__readdir(NULL, &systems), n = 0;

	*out = NULL;
	for (int i = 0; i < nsys; i++) {
		char **evts, *sdir = xasprintf("%s/%s", events, systems[i]);
		int nevt;

		if (!is_dir(sdir) || (sys_glob && !glob_match(sys_glob, systems[i]))) {
			free(sdir);
			continue;
		}
		nevt = tracepoint__readdir(systems[i], &evts);
		for (int j = 0; j < nevt; j++) {
			char *id = xasprintf("%s/%s/id", sdir, evts[j]);
			bool has_id = access(id, R_OK) == 0;

			free(id);
			if (!has_id || (evt_glob && !glob_match(evt_glob, evts[j])))
				continue;
			*out = xrealloc(*out, (n + 1) * sizeof(char *));
			(*out)[n++] = xasprintf("%s:%s", systems[i], evts[j]);
		}
		strlist__free(evts, nevt > 0 ? nevt : 0);
		free(sdir);
	}
	strlist__free(systems, nsys > 0 ? nsys : 0);
	if (n)
		qsort(*out, n, sizeof(char *), cmp_str);
	return n;
}

char *tracepoint__strerror(int err, const char *sys, const char *name)
{
	const char *events = tracing_events_path();

	if (err < 0)
		err = -err;
	if (err == ENOENT && !events)
		return xstrdup("Error:\tUnable to find debugfs/tracefs\n"
			       "Hint:\tWas your kernel compiled with debugfs/tracefs support?\n"
			       "Hint:\tIs the debugfs/tracefs filesystem mounted?\n"
			       "Hint:\tTry 'sudo mount -t debugfs nodev /sys/kernel/debug'");
	if (err == ENOENT && str_starts_with(sys, "sdt_"))
		return xasprintf("Error:\tFile %s/%s/%s not found.\n"
				 "Hint:\tSDT event cannot be directly recorded on.\n"
				 "\tPlease first use 'pcl probe %s:%s' before recording it.\n",
				 events, sys, name ? name : "*", sys, name ? name : "*");
	if (err == ENOENT)
		return xasprintf("Error:\tFile %s/%s/%s not found.\n"
				 "Hint:\tPerhaps this kernel misses some CONFIG_ setting "
				 "to enable this feature?.\n", events, sys, name ? name : "*");
	if (err == EACCES) {
		const char *dir = tracing_dir();

		return xasprintf("Error:\tNo permissions to read %s/%s/%s\n"
				 "Hint:\tTry 'sudo mount -o remount,mode=755 %s/'\n",
				 events, sys, name ? name : "*", dir ? dir : "");
	}
	return xstrdup(strerror(err));
}
