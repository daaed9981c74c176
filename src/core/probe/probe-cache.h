/* probe-cache: perf's probe cache, the "probes" file kept next to a binary
 * in the build-id cache (DIR/<path>/<build-id>/probes).  Each entry is a
 * head line, '#' and the definition as perf spells it ("work n x=p->x"),
 * or '%' and an SDT marker ("sdt_python:gc__start=gc__start"), followed by
 * its uprobe definitions, one a line, as tracefs gets them.
 */
#ifndef PCL_PROBE_CACHE_H
#define PCL_PROBE_CACHE_H

#include <stdbool.h>

struct probe_cache_entry {
	char *spev;	/* the definition, without its '#' or '%' */
	bool sdt;
	char **defs;
	int nr_defs;
};

struct probe_cache {
	struct probe_cache_entry *entries;
	int nr;
};

/* Reads the entries of a probes file text (lines before any head are
 * dropped). */
void probe_cache__parse(struct probe_cache *pc, const char *text);
/* The file text of the entries; caller frees. */
char *probe_cache__text(const struct probe_cache *pc);
void probe_cache__exit(struct probe_cache *pc);

/* Adds an entry, replacing one with the same definition text (perf keeps
 * the newest, at the end; a replaced entry loses its uprobes there). */
void probe_cache__add(struct probe_cache *pc, const char *spev, char **defs, int nr_defs);

/* What -l and -d filters are matched against: "GROUP:EVENT" when the
 * definition names its event, else the whole definition; caller frees. */
char *probe_cache_entry__key(const struct probe_cache_entry *entry);

/* Removes the entries whose key matches the strfilter; returns their
 * definitions (caller frees each and the array) and sets *nr. */
char **probe_cache__purge(struct probe_cache *pc, const char *filter, int *nr);

/* One cached binary: its build id and its path. */
struct probe_cache_ref {
	char *build_id;
	char *origin;
	char *probes;	/* the probes file */
};

/* The binaries in the build-id cache dir (DIR/.build-id/xx/yyyy links),
 * sorted by build id as perf lists them.  Returns the count. */
int probe_caches__list(const char *dir, struct probe_cache_ref **out);
void probe_caches__free(struct probe_cache_ref *refs, int n);

/* Loads and writes one probes file (a missing file is empty). */
int probe_cache__load(struct probe_cache *pc, const char *path);
int probe_cache__save(const struct probe_cache *pc, const char *path);

struct probe_msgs;

/* The probes file of binary name (its bytes read from source) in the
 * build-id cache, opened as perf opens it before it looks for a cached
 * definition: the binary added to the cache when its build id is not
 * there yet, the file made in its entry.  The path (caller frees), or
 * NULL after perf's -v notes on why not (an entry cached under another
 * path has no directory for this one: perf fails to open it). */
char *probe_cache__open_probes(const char *name, const char *source, struct probe_msgs *msgs);

#endif
