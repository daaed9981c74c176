/* sdt-events: the SDT (USDT) markers the build-id cache knows about.
 *
 * When a binary enters the build-id cache (~/.debug, or $PERF_BUILDID_DIR)
 * its .note.stapsdt markers are written to a "probes" file next to it:
 * "%GROUP:EVENT=..." lines.  `list` shows them as "GROUP:EVENT [SDT event]",
 * for the binaries that still exist with the same build id.
 */
#ifndef PCL_SDT_EVENTS_H
#define PCL_SDT_EVENTS_H

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
/*
 * Every entry of the probe caches ("%GROUP:EVENT=..." SDT markers and
 * "#SPEC" cached perf-probe definitions, the prefix kept), binaries by build
 * id and each one's entries in file order, as perf loads them.  Returns the
 * count and sets *lines (free each and the array).
 */
int probe_cache__entries(char ***lines);
void sdt_events__free(struct sdt_event *evs, int n);

/* The uprobe definitions cached for one event ("p:sdt_python/gc__start
 * /usr/bin/python3.11:0x287f3(0x68326e) arg1=..."), in the probes file's
 * order.  Returns the count and sets *defs (free each and the array). */
int sdt_event__definitions(const struct sdt_event *ev, char ***defs);

#endif
