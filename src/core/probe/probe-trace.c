/* probe-trace: tracefs's dynamic probe files, read and written. */
#include "core/probe/probe-trace.h"
#include "core/probe/probe-dwarf.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "util/glob.h"
#include "util/util.h"

static const char *const tracefs_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

const char *probe_tracefs_dir(void)
{
	static const char *dir;

	if (dir)
		return dir;
	for (int pass = 0; pass < 2 && !dir; pass++) {
		for (size_t i = 0; i < sizeof(tracefs_dirs) / sizeof(*tracefs_dirs); i++) {
			char *readme = xasprintf("%s/README", tracefs_dirs[i]);
			/* a tracefs we may not enter is there all the same */
			bool ok = access(readme, F_OK) == 0 || errno == EACCES;

			free(readme);
			if (ok) {
				dir = tracefs_dirs[i];
				break;
			}
		}
		/* an empty /sys/kernel/tracing: mount tracefs there, as perf does */
		if (!dir && !pass)
			mount("nodev", tracefs_dirs[0], "tracefs", 0, NULL);
	}
	return dir;
}

static char *tracefs_path(const char *file)
{
	const char *dir = probe_tracefs_dir();

	return dir ? xasprintf("%s/%s", dir, file) : NULL;
}

int probe_tracefs_access(const char *file, bool write)
{
	char *path = tracefs_path(file);
	int ret = 0;

	if (!path)
		return -ENOENT;
	if (access(path, write ? W_OK : R_OK))
		ret = -errno;
	free(path);
	return ret;
}

bool probe_tracefs_has(const char *file)
{
	char *path = tracefs_path(file);
	bool ok = path && access(path, F_OK) == 0;

	free(path);
	return ok;
}

/* "p:GROUP/EVENT TARGET ARG..." */
static bool parse_line(char *line, bool uprobe, struct probe_event *ev)
{
	char *save = NULL;
	char *head = strtok_r(line, " \t\n", &save);
	char *target = strtok_r(NULL, " \t\n", &save);
	char *slash, *colon;

	memset(ev, 0, sizeof(*ev));
	if (!head || !target || (head[0] != 'p' && head[0] != 'r') || head[1] != ':' ||
	    !(slash = strchr(head + 2, '/')))
		return false;
	ev->uprobe = uprobe;
	ev->retprobe = head[0] == 'r';
	ev->group = xstrndup(head + 2, slash - head - 2);
	ev->event = xstrdup(slash + 1);
	colon = uprobe ? strrchr(target, ':') : NULL;
	if (colon) {
		ev->offset = strtoull(colon + 1, NULL, 0);
		ev->target = xstrndup(target, colon - target);
	} else {
		ev->target = xstrdup(target);
	}
	for (char *arg; (arg = strtok_r(NULL, " \t\n", &save));) {
		char *eq = strchr(arg, '=');

		ev->arg_names = xrealloc(ev->arg_names, (ev->nr_args + 1) * sizeof(char *));
		ev->arg_names[ev->nr_args++] = eq ? xstrndup(arg, eq - arg) : xstrdup(arg);
	}
	return true;
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The events of one file, in the order of their definition lines' text
 * (perf's listing order). */
static void read_file_events(const char *file, bool uprobe, struct probe_event **events, int *nr)
{
	char *path = tracefs_path(file);
	FILE *f = path ? fopen(path, "r") : NULL;
	char *line = NULL, **lines = NULL;
	size_t cap = 0;
	int nr_lines = 0;

	free(path);
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		lines = xrealloc(lines, (nr_lines + 1) * sizeof(*lines));
		lines[nr_lines++] = xstrdup(line);
	}
	free(line);
	fclose(f);
	if (nr_lines)
		qsort(lines, nr_lines, sizeof(*lines), cmp_lines);
	for (int i = 0; i < nr_lines; i++) {
		struct probe_event ev;
		char *text = xstrndup(lines[i], strcspn(lines[i], "\n"));

		if (!parse_line(lines[i], uprobe, &ev)) {
			free(text);
		} else {
			ev.line = text;
			*events = xrealloc(*events, (*nr + 1) * sizeof(**events));
			(*events)[(*nr)++] = ev;
		}
		free(lines[i]);
	}
	free(lines);
}

int probe_events__read(struct probe_event **events)
{
	int nr = 0;

	*events = NULL;
	read_file_events("kprobe_events", false, events, &nr);
	read_file_events("uprobe_events", true, events, &nr);
	return nr;
}

void probe_events__free(struct probe_event *events, int nr)
{
	for (int i = 0; i < nr; i++) {
		for (int k = 0; k < events[i].nr_args; k++)
			free(events[i].arg_names[k]);
		free(events[i].arg_names);
		free(events[i].group);
		free(events[i].event);
		free(events[i].target);
		free(events[i].line);
	}
	free(events);
}

int probe_events__write(const char *file, const char *line)
{
	char *path = tracefs_path(file);
	int fd = path ? open(path, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
	int ret = 0;

	free(path);
	if (fd < 0)
		return -errno;
	if (write(fd, line, strlen(line)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int probe_events__delete(const char *file, const char *group, const char *event)
{
	char *line = xasprintf("-:%s/%s", group, event);
	int ret = probe_events__write(file, line);

	free(line);
	return ret;
}

bool probe_event__matches(const struct probe_event *ev, const char *filter)
{
	const char *colon = strchr(filter, ':');

	if (!colon)
		return glob_match(filter, ev->event);
	char *group = xstrndup(filter, colon - filter);
	bool ok = glob_match(group, ev->group) && glob_match(colon + 1, ev->event);

	free(group);
	return ok;
}

char *probe_default_group(const char *binary)
{
	const char *base = strrchr(binary, '/');
	char *group;

	size_t len = 0;

	base = base ? base + 1 : binary;
	/* perf ends the name at the first character no C name has */
	while (isalnum((unsigned char)base[len]) || base[len] == '_')
		len++;
	group = xasprintf("probe_%.*s", (int)len, base);
	return group;
}

void probe_trace__log_open(struct probe_msgs *msgs, const char *file, bool write)
{
	const char *dir = probe_tracefs_dir();

	probe_msg(msgs, true, "Opening %s//%s write=%d\n", dir ? dir : "/sys/kernel/tracing", file,
		  write);
}

void probe_trace__log_readme(struct probe_msgs *msgs)
{
	static bool read;

	if (!read && msgs->verbose)
		probe_trace__log_open(msgs, "README", false);
	read |= msgs->verbose;
}

void probe_event__log_parse(const struct probe_event *ev, struct probe_msgs *msgs)
{
	probe_msg(msgs, true, "Parsing probe_events: %s\nGroup:%s Event:%s probe:%c\n", ev->line,
		  ev->group, ev->event, ev->retprobe ? 'r' : 'p');
}

void probe_event__log_lookup(const struct probe_event *ev, struct probe_msgs *msgs)
{
	probe_msg(msgs, true, "try to find information at %lx in %s\n", (unsigned long)ev->offset,
		  ev->target);
}

void probe_event__log_delete(const struct probe_event *ev, struct probe_msgs *msgs)
{
	probe_msg(msgs, true, "Writing event: -:%s/%s\n", ev->group, ev->event);
}
