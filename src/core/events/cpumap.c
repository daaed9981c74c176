/* cpumap: CPU lists, task lists and the CPU topology, read from sysfs/procfs. */
#include "core/events/cpumap.h"
#include "util/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *cpumap_sysfs_root = "/sys";
const char *cpumap_procfs_root = "/proc";

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

struct cpu_map *cpu_map__new_from(const int *cpus, int nr)
{
	struct cpu_map *map = xmalloc(sizeof(*map) + (size_t)nr * sizeof(int));

	map->nr = nr;
	if (nr)
		memcpy(map->map, cpus, (size_t)nr * sizeof(int));
	return map;
}

struct cpu_map *cpu_map__new_any(void)
{
	int any = -1;

	return cpu_map__new_from(&any, 1);
}

bool cpu_map__is_any(const struct cpu_map *map)
{
	return map->nr == 1 && map->map[0] == -1;
}

int cpu_map__idx(const struct cpu_map *map, int cpu)
{
	for (int i = 0; i < map->nr; i++)
		if (map->map[i] == cpu)
			return i;
	return -1;
}

void cpu_map__delete(struct cpu_map *map)
{
	free(map);
}

/* Adds first..last to the list; false on a duplicate. */
static bool add_range(int **cpus, int *nr, int *alloc, unsigned long first, unsigned long last)
{
	for (unsigned long c = first; c <= last; c++) {
		for (int i = 0; i < *nr; i++)
			if ((*cpus)[i] == (int)c)
				return false;
		if (*nr == *alloc) {
			*alloc = *alloc ? *alloc * 2 : 16;
			*cpus = xrealloc(*cpus, (size_t)*alloc * sizeof(int));
		}
		(*cpus)[(*nr)++] = (int)c;
	}
	return true;
}

struct cpu_map *cpu_map__parse(const char *list)
{
	int *cpus = NULL, nr = 0, alloc = 0;
	const char *p = list;
	struct cpu_map *map = NULL;

	while (isdigit((unsigned char)*p)) {
		char *end;
		unsigned long first = strtoul(p, &end, 0), last;

		if (first >= INT_MAX || (*end && *end != ',' && *end != '-'))
			goto out;
		last = first;
		if (*end == '-') {
			p = end + 1;
			last = strtoul(p, &end, 0);
			if (last >= INT_MAX || (*end && *end != ',') || last < first)
				goto out;
		}
		if (last - first > 4096 || !add_range(&cpus, &nr, &alloc, first, last))
			goto out;
		p = *end ? end + 1 : end;
	}
	if (nr) {
		qsort(cpus, (size_t)nr, sizeof(int), cmp_int);
		map = cpu_map__new_from(cpus, nr);
	} else if (*p == '\0') {
		map = cpu_map__new_any();
	}
out:
	free(cpus);
	return map;
}

struct cpu_map *cpu_map__new_online(void)
{
	char *path = xasprintf("%s/devices/system/cpu/online", cpumap_sysfs_root);
	char *s = read_file_str(path);
	struct cpu_map *map = NULL;

	free(path);
	if (s) {
		map = cpu_map__parse(strrtrim(s));
		if (map && cpu_map__is_any(map)) {
			cpu_map__delete(map);
			map = NULL;
		}
	}
	free(s);
	return map;
}

/* --- thread maps --- */

static struct thread_map *thread_map__alloc(int nr)
{
	struct thread_map *t = xcalloc(1, sizeof(*t) + (size_t)nr * sizeof(t->map[0]));

	t->nr = nr;
	return t;
}

static struct thread_map *thread_map__append(struct thread_map *t, int pid)
{
	int nr = t ? t->nr : 0;

	t = xrealloc(t, sizeof(*t) + (size_t)(nr + 1) * sizeof(t->map[0]));
	t->nr = nr + 1;
	t->map[nr].pid = pid;
	t->map[nr].comm = NULL;
	return t;
}

struct thread_map *thread_map__new_any(void)
{
	return thread_map__new_pid(-1);
}

struct thread_map *thread_map__new_pid(int pid)
{
	struct thread_map *t = thread_map__alloc(1);

	t->map[0].pid = pid;
	return t;
}

static int filter_numeric(const struct dirent *d)
{
	return isdigit((unsigned char)d->d_name[0]);
}

static int cmp_dirent_num(const struct dirent **a, const struct dirent **b)
{
	int x = atoi((*a)->d_name), y = atoi((*b)->d_name);

	return (x > y) - (x < y);
}

/* Appends the tasks of process pid; returns how many were found (0: none). */
static int append_tasks(struct thread_map **t, int pid)
{
	char *path = xasprintf("%s/%d/task", cpumap_procfs_root, pid);
	struct dirent **names;
	int n = scandir(path, &names, filter_numeric, cmp_dirent_num);

	free(path);
	for (int i = 0; i < n; i++) {
		*t = thread_map__append(*t, atoi(names[i]->d_name));
		free(names[i]);
	}
	if (n > 0)
		free(names);
	return n > 0 ? n : 0;
}

/* Splits a comma list into ids; false when an entry is empty or not a number. */
static bool parse_id_list(const char *list, int **ids, int *nr)
{
	char *copy = xstrdup(list), *save = NULL, *tok;
	bool ok = *list != '\0';

	*ids = NULL;
	*nr = 0;
	for (const char *p = list; *p; p++)
		if (*p == ',' && (p == list || p[1] == ',' || p[1] == '\0'))
			ok = false;
	for (tok = strtok_r(copy, ",", &save); ok && tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long v;

		errno = 0;
		v = strtol(tok, &end, 10);
		if (errno || *end || end == tok || v < INT_MIN || v >= INT_MAX) {
			ok = false;
			break;
		}
		*ids = xrealloc(*ids, (size_t)(*nr + 1) * sizeof(int));
		(*ids)[(*nr)++] = (int)v;
	}
	free(copy);
	if (!ok) {
		free(*ids);
		*ids = NULL;
	}
	return ok;
}

struct thread_map *thread_map__new_by_pid_str(const char *pids)
{
	struct thread_map *t = NULL;
	int *ids, nr;

	if (!parse_id_list(pids, &ids, &nr))
		return NULL;
	for (int i = 0; i < nr; i++) {
		if (!append_tasks(&t, ids[i])) {
			thread_map__delete(t);
			t = NULL;
			break;
		}
	}
	free(ids);
	return t;
}

struct thread_map *thread_map__new_by_tid_str(const char *tids)
{
	struct thread_map *t = NULL;
	int *ids, nr;

	if (!parse_id_list(tids, &ids, &nr))
		return NULL;
	for (int i = 0; i < nr; i++)
		t = thread_map__append(t, ids[i]);
	free(ids);
	return t;
}

/* Every task of every process for which keep(pid) holds. */
static struct thread_map *thread_map__new_filtered(bool (*keep)(int pid, void *arg), void *arg)
{
	struct dirent **names;
	struct thread_map *t = thread_map__alloc(0);
	int n = scandir(cpumap_procfs_root, &names, filter_numeric, cmp_dirent_num);

	for (int i = 0; i < n; i++) {
		int pid = atoi(names[i]->d_name);

		if (keep(pid, arg))
			append_tasks(&t, pid);
		free(names[i]);
	}
	if (n > 0)
		free(names);
	return t;
}

static bool keep_all(int pid, void *arg)
{
	return true;
}

static bool keep_uid(int pid, void *arg)
{
	char *path = xasprintf("%s/%d", cpumap_procfs_root, pid);
	struct stat st;
	bool ok = !stat(path, &st) && st.st_uid == *(unsigned int *)arg;

	free(path);
	return ok;
}

struct thread_map *thread_map__new_all(void)
{
	return thread_map__new_filtered(keep_all, NULL);
}

struct thread_map *thread_map__new_by_uid(unsigned int uid)
{
	return thread_map__new_filtered(keep_uid, &uid);
}

void thread_map__read_comms(struct thread_map *threads)
{
	for (int i = 0; i < threads->nr; i++) {
		char *path, *comm;

		if (threads->map[i].comm || threads->map[i].pid < 0)
			continue;
		path = xasprintf("%s/%d/comm", cpumap_procfs_root, threads->map[i].pid);
		comm = read_file_str(path);
		free(path);
		threads->map[i].comm = comm ? strrtrim(comm) : xstrdup("<unknown>");
	}
}

void thread_map__delete(struct thread_map *threads)
{
	if (!threads)
		return;
	for (int i = 0; i < threads->nr; i++)
		free(threads->map[i].comm);
	free(threads);
}

/* --- topology --- */

static int read_sysfs_int(const char *fmt, int cpu)
{
	char *path = xasprintf(fmt, cpumap_sysfs_root, cpu);
	char *s = read_file_str(path);
	int v = -1;

	free(path);
	if (s && isdigit((unsigned char)*s))
		v = atoi(s);
	free(s);
	return v;
}

static int cpu_node(int cpu)
{
	char *dir = xasprintf("%s/devices/system/node", cpumap_sysfs_root);
	DIR *d = opendir(dir);
	struct dirent *e;
	int node = -1;

	while (d && (e = readdir(d)) != NULL && node < 0) {
		char *link;
		struct stat st;

		if (strncmp(e->d_name, "node", 4) || !isdigit((unsigned char)e->d_name[4]))
			continue;
		link = xasprintf("%s/%s/cpu%d", dir, e->d_name, cpu);
		if (!stat(link, &st))
			node = atoi(e->d_name + 4);
		free(link);
	}
	if (d)
		closedir(d);
	free(dir);
	return node;
}

void cpu_topology__read(int cpu, struct cpu_topology *topo)
{
	topo->socket = read_sysfs_int("%s/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	topo->die = read_sysfs_int("%s/devices/system/cpu/cpu%d/topology/die_id", cpu);
	topo->core = read_sysfs_int("%s/devices/system/cpu/cpu%d/topology/core_id", cpu);
	topo->node = cpu_node(cpu);
	/* Kernels without die support report one die per socket. */
	if (topo->die < 0 && topo->socket >= 0)
		topo->die = 0;
}
