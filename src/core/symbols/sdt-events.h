/* sdt-events: the SDT (USDT) markers the build-id cache knows about.
 *
 * When a binary enters the build-id cache (~/.debug, or $PERF_BUILDID_DIR)
 * its .note.stapsdt markers are written to a "probes" file next to it:
 * "%GROUP:EVENT=..." lines.  `list` shows them as "GROUP:EVENT [SDT event]",
 * for the binaries that still exist with the same build id.
 */
#ifndef PCL_SDT_EVENTS_H
#define PCL_SDT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

struct sdt_event {
	char *name;		/* "sdt_libstdcxx:throw" */
	char *build_id;		/* hex */
	char *path;		/* the binary: "/usr/lib/.../libstdc++.so.6" */
};

/*
 * Cached SDT events whose group and event match the globs (NULL matches
 * all), sorted as "NAME@BUILD_ID" strings, without duplicates.  Returns the
 * count and sets *out (free with sdt_events__free).
 */
int sdt_events__list(const char *group_glob, const char *event_glob, struct sdt_event **out);
/* The same markers in the order perf adds them: binary by binary in
 * build-id order, each binary's in its probes file's order. */
int sdt_events__by_binary(const char *group_glob, const char *event_glob,
			  struct sdt_event **out);

/* The probe cache of one binary of the build-id cache. */
struct probe_cache_file {
	char *build_id;
	bool missing;	/* the cache directory its build-id link names is gone */
	char **lines;	/* "%GROUP:EVENT=..." SDT markers and "#SPEC" cached
			 * perf-probe definitions, prefix kept, in file order */
	int nr_lines;
};

struct probe_cache_list {
	struct probe_cache_file *v;
	size_t n;
};

/* Every binary that still has its build id, sorted by build id: the order
 * perf loads the probe caches in.  Free with probe_cache_list__exit. */
void probe_cache__files(struct probe_cache_list *all);
void probe_cache_list__exit(struct probe_cache_list *all);

void sdt_events__free(struct sdt_event *evs, int n);

/* The uprobe definitions cached for one event ("p:sdt_python/gc__start
 * /usr/bin/python3.11:0x287f3(0x68326e) arg1=..."), in the probes file's
 * order.  Returns the count and sets *defs (free each and the array). */
int sdt_event__definitions(const struct sdt_event *ev, char ***defs);

#endif
