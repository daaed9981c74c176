/* evlist: opening events with perf_event_open(2), one fd per CPU x thread,
 * enabling and disabling them, reading their counts, closing them.
 *
 * Command-agnostic: stat opens counting attrs, record opens sampling attrs
 * through the same calls.  Group members are opened with their leader's fd
 * as group_fd.  Tool events (duration_time, ...) have no fds.
 */
#ifndef PCL_EVLIST_H
#define PCL_EVLIST_H

#include <stddef.h>
#include <stdint.h>

#include "core/events/cgroup.h"
#include "core/events/cpumap.h"
#include "core/events/evsel.h"

/* One read of a counter: value, time enabled, time running (ns). */
struct counts_values {
	uint64_t val, ena, run;
};

/*
 * Opens evsel on every cpu x thread of the maps (remembered in the evsel).
 * Returns 0, or -errno of the first failure with nothing left open.
 */
int evsel__open(struct evsel *evsel, const struct cpu_map *cpus,
		const struct thread_map *threads);
void evsel__close(struct evsel *evsel);
/* Installs the --filter text on every fd.  Returns 0 or -errno. */
int evsel__apply_filter(struct evsel *evsel);
int evsel__enable(struct evsel *evsel);
int evsel__disable(struct evsel *evsel);
/* The fd of an opened event, -1 if none. */
int evsel__fd(const struct evsel *evsel, int cpu_idx, int thread_idx);
/*
 * Reads one fd as its attr.read_format lays it out (no PERF_FORMAT_GROUP);
 * missing times read as 0.  Returns 0 or -errno.
 */
int evsel__read(const struct evsel *evsel, int cpu_idx, int thread_idx,
		struct counts_values *out);

/* True for the open errors that mean "this kernel/machine cannot count it". */
bool evsel__errno_is_unsupported(int err);
/* perf's explanation of an open error, without the "Error:" heading. */
void evsel__open_strerror(const struct evsel *evsel, int err, bool has_cpu_list,
			  char *buf, size_t size);

/* /proc/sys/kernel/perf_event_paranoid (2, the kernel's default, when unreadable). */
int perf_event_paranoid(void);
/* Whether this process may watch the kernel (root, or perf_event_paranoid <= 1). */
bool evsel__can_profile_kernel(void);
/*
 * perf's answer to an event refused for watching the kernel (EACCES or
 * EPERM at perf_event_paranoid >= 2): watch user space only, renamed
 * NAME:u (NAMEu after a ':' or '/' already in the name).  Returns false,
 * changing nothing, when that does not apply.
 */
bool evsel__fallback_user_only(struct evsel *evsel, int err);

/* Whether every event leaves the kernel out (exclude_kernel). */
bool evlist__exclude_kernel(const struct evlist *evlist);

/* Software task-clock or cpu-clock: counted in ns, shown in msec. */
bool evsel__is_clock(const struct evsel *evsel);
/* How perf shows the event's unit ("msec", "ns" or "") and scales its values. */
const char *evsel__unit(const struct evsel *evsel);
double evsel__scale(const struct evsel *evsel);

enum evlist_open_flags {
	/* Mark events the machine lacks unsupported and go on (stat), instead
	 * of failing (record).  A lacking group leader stays an error. */
	EVLIST_OPEN_SKIP_UNSUPPORTED = 1,
	/* Retry an event refused for watching the kernel on user space only
	 * (evsel__fallback_user_only), as perf stat does. */
	EVLIST_OPEN_FALLBACK_USER = 2,
};

/*
 * Opens every event (tool events excepted) on cpus x threads; tool events
 * get cpu map tool_cpus.  On failure returns -errno and sets *failed to the
 * event at fault; everything already opened stays open (evlist__close()).
 */
int evlist__open(struct evlist *evlist, const struct cpu_map *cpus,
		 const struct thread_map *threads, const struct cpu_map *tool_cpus,
		 unsigned int flags, struct evsel **failed);
int evlist__enable(struct evlist *evlist);
int evlist__disable(struct evlist *evlist);
void evlist__close(struct evlist *evlist);
/* Applies every event's --filter; on failure *failed names the event. */
int evlist__apply_filters(struct evlist *evlist, struct evsel **failed);

#endif
