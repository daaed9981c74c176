/* cgroup: the cgroups `-G` restricts events to.  perf_event_open(2) takes an
 * fd on the cgroup's directory (in the perf_event v1 hierarchy, else the
 * cgroup2 one) as its pid argument with PERF_FLAG_PID_CGROUP.
 */
#ifndef PCL_CGROUP_H
#define PCL_CGROUP_H

#include "core/events/evsel.h"

struct cgroup {
	char *name;	/* as given on the command line */
	int fd;		/* O_RDONLY on its directory */
	int refcnt;	/* events sharing it */
};

/* The cgroup filesystem perf events use: a v1 perf_event hierarchy, else
 * v2 (caller frees). */
char *cgroup__mountpoint(void);

/*
 * Attaches cgroups to the events: the i-th name to the i-th event, a single
 * name to every event, an empty name to none.  Events naming the same cgroup
 * share it.  Returns 0, or -1 with *bad_path (to free) the directory that
 * could not be opened.
 */
int evlist__attach_cgroups(struct evlist *evlist, char *const *names, int nr, char **bad_path);
/*
 * --for-each-cgroup: the events become one copy of the whole list (groups
 * kept) per cgroup, each copy counting in its cgroup.  The list names
 * cgroups below the mount point, one leading '/' dropped ("/" is the root;
 * a repeated name counts once) or, when it has regular expression
 * characters, is a list of expressions matched against every cgroup's path
 * ("" for the root, "/a/b"), the matches taken in the tree's walk order.
 * Returns 0; -1 with *bad_path (to free) the directory that did not open;
 * -2 with *bad_path the list when no cgroup matched.
 */
int evlist__expand_cgroups(struct evlist *evlist, const char *list, char **bad_path);
/* Drops every event's cgroup, closing them with their last user. */
void evlist__release_cgroups(struct evlist *evlist);

#endif
