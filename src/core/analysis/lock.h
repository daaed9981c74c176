/* lock: the lock contention statistics of `pcl lock report|contention|info`.
 *
 * Fed with lock:contention_begin/end samples, it pairs each begin with
 * the end of the same task and lock and keeps per-lock (by address, by
 * task, or by the caller's call chain) counts and wait times, as perf
 * lock does.  Lockdep's lock:lock_acquire/acquired/contended/release
 * samples are followed per task and lock instead (by address or task).  Results come back in perf's order: by a key, descending,
 * ties in the order of perf's lock hash table.
 */
#ifndef PCL_ANALYSIS_LOCK_H
#define PCL_ANALYSIS_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/data/session.h"
#include "util/hashmap.h"

enum lock_aggr { LOCK_AGGR_ADDR, LOCK_AGGR_TASK, LOCK_AGGR_CALLER };

enum lock_key {
	LOCK_KEY_ACQUIRED, LOCK_KEY_CONTENDED, LOCK_KEY_AVG_WAIT, LOCK_KEY_WAIT_TOTAL,
	LOCK_KEY_WAIT_MAX, LOCK_KEY_WAIT_MIN,
};

/* perf's lock_stat: key is the address, the tid or the call chain hash. */
struct lock_stat {
	uint64_t key;
	char name[128];		/* the caller "func+0x12", or "Unknown" */
	uint32_t flags;		/* the first contention's LCB_F_* flags */
	uint32_t nr_acquired, nr_contended;
	uint64_t avg_wait_time, wait_time_total, wait_time_min, wait_time_max;
	bool broken, combined;
	uint32_t seq;		/* creation order */
	uint64_t *callstack;	/* -v: the first contention's chain (max_stack, 0-ended) */
};

enum lock_broken { LOCK_BROKEN_ACQUIRE, LOCK_BROKEN_ACQUIRED, LOCK_BROKEN_CONTENDED,
		   LOCK_BROKEN_RELEASE, LOCK_BROKEN_MAX };

struct lock_analysis {
	/* settings */
	enum lock_aggr aggr;
	bool thread_names;	/* -t: locks are named after their task later */
	bool keep_callstacks;	/* -v: contention shows each lock's first chain */
	int max_stack, stack_skip;

	struct lock_stat *stats;
	size_t nr_stats, alloc_stats;
	struct hashmap by_key;		/* key -> index */
	struct hashmap seqs;		/* (tid, lock address) -> state */
	struct hashmap threads;		/* tids that contended (info -t) */
	struct hashmap comms;		/* tid -> the last COMM's name (malloced) */
	int bad_hist[LOCK_BROKEN_MAX];

	/* per evsel idx: which event it is, its fields looked up once */
	struct lock_event *events;
	int nr_events;
	bool swap;		/* the tracepoint data's byte order is not ours */

	/* the kernel's lock and scheduler text: callers are looked for past it */
	bool bounds_loaded, have_bounds;
	uint64_t sched_start, sched_end, lock_start, lock_end;
};

struct lock_event;

void lock_analysis__init(struct lock_analysis *la);
void lock_analysis__exit(struct lock_analysis *la);

/* lock:contention_begin/end and lockdep's samples (others are ignored);
 * < 0 on failure. */
int lock_analysis__sample(struct lock_analysis *la, struct perf_session *s,
			  struct evsel *evsel, const struct perf_sample *sample);

/* A COMM record: perf lock names a task after its last COMM only (it
 * follows no FORK), ":TID" without one. */
void lock_analysis__comm(struct lock_analysis *la, uint64_t tid, const char *comm);
/* The task's name as perf lock shows it, in buf (or the stored name). */
const char *lock_analysis__task_name(const struct lock_analysis *la, uint64_t tid, char *buf,
				     size_t size);

/* -c: folds the stats of one name into the first one (marks the others
 * combined). */
void lock_analysis__combine(struct lock_analysis *la);

/* The stats (combined ones left out) in perf's order for key: a new
 * array of *nr pointers, the caller frees. */
struct lock_stat **lock_analysis__sorted(struct lock_analysis *la, enum lock_key key,
					 size_t *nr);
/* The stats in perf's hash table order (info -m). */
struct lock_stat **lock_analysis__table_order(struct lock_analysis *la, size_t *nr);
/* The tids that contended, ascending (info -t). */
uint64_t *lock_analysis__threads(struct lock_analysis *la, size_t *nr);

/* perf's name of a lock type ("spinlock", "rwsem:W"), "unknown" else. */
const char *lock_type_name(uint32_t flags);

#endif
