/* tracepoint: the kernel's static trace events under tracefs.
 *
 * tracefs is found wherever it is mounted (libtracefs looks in
 * /proc/mounts and, when it is missing and we may, mounts it at
 * /sys/kernel/tracing).  Events live in EVENTS/SYSTEM/EVENT/ with an "id"
 * file (the attr.config of a PERF_TYPE_TRACEPOINT event) and a "format".
 */
#ifndef PCL_TRACEPOINT_H
#define PCL_TRACEPOINT_H

/* ".../tracing/events", or NULL when tracefs is unavailable. */
const char *tracing_events_path(void);

/* The tracepoint's id, or -errno (-ENOENT when it does not exist). */
long long tracepoint__id(const char *sys, const char *name);

/*
 * Entry names of EVENTS (sys == NULL: the subsystems) or EVENTS/sys (the
 * events), in directory order, leaving out "." and "..".  Returns the count
 * and sets *names (free with strlist__free), or -errno.
 */
int tracepoint__readdir(const char *sys, char ***names);

/*
 * Every "sys:event" whose sys matches sys_glob and event matches evt_glob
 * (NULL matches all) and that has an id, sorted by strcmp: the set `pcl
 * list` shows.  Returns the count and sets *out (free with strlist__free).
 */
int tracepoints__list(const char *sys_glob, const char *evt_glob, char ***out);

void strlist__free(char **list, int n);

/* Explains a failed tracepoint lookup the way perf does (two "Error:/Hint:" lines). */
char *tracepoint__strerror(int err, const char *sys, const char *name);

#endif
