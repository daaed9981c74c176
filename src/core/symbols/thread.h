/* thread: a task as COMM/FORK/EXIT records describe it.  Threads of one
 * process share one address space (maps).
 *
 * Public: what readers, the UI, hist/ and the commands may use; the
 * machine makes and finds threads (machine.h).  Internals live in
 * symbols-int.h, which only src/core/symbols/ and unit tests include.
 */
#ifndef PCL_THREAD_H
#define PCL_THREAD_H

#include <stdbool.h>
#include <sys/types.h>

#include "core/symbols/map.h"

struct lbr_stitch;

struct thread {
	pid_t pid, tid;
	pid_t ppid;		/* parent tid from FORK, -1 when unknown */
	char *comm;		/* current comm; ":TID" until a COMM arrives, like perf */
	bool comm_set;		/* a COMM (or an inherited one) was seen */
	bool dead;		/* EXIT seen; kept for late samples, like perf */
	uint64_t cgroup_ns_dev, cgroup_ns_ino;	/* its cgroup namespace (NAMESPACES) */
	/* --stitch-lbr: its last LBR call stack (machine.h), or NULL */
	struct lbr_stitch *lbr_stitch;
	void *priv;
};

/* The thread's address space, shared with its process's threads. */
struct maps *thread__maps(const struct thread *t);

#endif
