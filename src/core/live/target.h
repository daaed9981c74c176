/* target: what a counting or sampling session observes (-p/-t/-u/-a/-C or a
 * forked workload), the cpu/thread maps that follow from it, and the workload
 * itself: forked early, held on a "go" pipe until the counters are open, then
 * exec'd (the counters start at exec through enable_on_exec).
 */
#ifndef PCL_TARGET_H
#define PCL_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "core/events/cpumap.h"

struct target {
	const char *pid;	/* -p: comma list of processes */
	const char *tid;	/* -t: comma list of threads */
	const char *cpu_list;	/* -C */
	const char *uid_str;	/* -u: user name or number */
	unsigned int uid;	/* resolved by target__parse_uid() */
	bool system_wide;	/* -a */
	bool per_thread;	/* --per-thread over the whole system */
	int initial_delay;	/* -D ms; -1: start disabled */
	/* record -D START-END,...: spans in ms after the start when the
	 * events are on; initial_delay is then -1, or 0 when the first span
	 * starts at 0 */
	const struct delay_range *delay_ranges;
	size_t nr_delay_ranges;
};

struct delay_range {
	long long start_ms, end_ms;	/* end_ms -1: on until the end */
};

/* Conflicts target__validate() resolves, as perf warns about them. */
enum target_conflict {
	TARGET_OK = 0,
	TARGET_PID_OVERRIDE_CPU,
	TARGET_PID_OVERRIDE_UID,
	TARGET_UID_OVERRIDE_CPU,
	TARGET_PID_OVERRIDE_SYSTEM,
	TARGET_UID_OVERRIDE_SYSTEM,
	TARGET_SYSTEM_OVERRIDE_THREAD,
};

/*
 * Drops the options that lose a conflict (-p beats -t, -C, -u and -a; -u
 * beats -C and -a; -a/-C beat --per-thread) and returns the first conflict
 * met, TARGET_OK if none.
 */
enum target_conflict target__validate(struct target *target);
/* The warning perf prints for a conflict ("PID/TID switch overriding CPU"). */
const char *target__conflict_str(enum target_conflict c);

/* Resolves uid_str (a name or a number) into uid; -1 when it is neither
 * a user's name nor a number, -2 for a number no user has. */
int target__parse_uid(struct target *target);

bool target__has_task(const struct target *target);
bool target__has_cpu(const struct target *target);
/* No -p/-t/-u/-a/-C: the target is a forked workload. */
bool target__none(const struct target *target);
bool target__has_per_thread(const struct target *target);
/* Counters start at the workload's exec. */
bool target__enable_on_exec(const struct target *target);

enum target_map_error {
	TARGET_MAPS_OK = 0,
	TARGET_MAPS_BAD_THREADS,	/* bad or vanished -p/-t/-u */
	TARGET_MAPS_BAD_CPUS,		/* bad -C list */
};

/*
 * Builds the maps: the CPUs to count on ({-1} for per-task counting) and the
 * tasks ({-1} for per-CPU counting).  A workload target gets the map {-1}:
 * the caller puts the pid there once the workload is forked.
 */
enum target_map_error target__create_maps(const struct target *target,
					  struct cpu_map **cpus, struct thread_map **threads);

/*
 * User and system CPU time (ns) used so far by task pid (/proc/PID/stat),
 * or by the whole machine for pid -1 (/proc/stat): user_time/system_time.
 */
void target__cpu_times(int pid, uint64_t out[2]);

struct workload {
	pid_t pid;		/* -1 when there is none */
	int go_fd;		/* write end: one byte starts the exec */
	int err_fd;		/* read end: the exec errno, or EOF on success */
	int exec_errno;		/* set by workload__wait() */
	int status;		/* wait status */
	struct rusage rusage;
	/* poll_exit/wait leave the exited child a zombie, its /proc entries
	 * readable (record --tail-synthesize names it from them): status and
	 * rusage come once it is reaped with the flag cleared */
	bool keep_zombie;
};

/*
 * Forks argv; the child waits for workload__start() before exec'ing.
 * Returns 0 or -errno.
 */
int workload__prepare(struct workload *w, const char **argv);
/* Lets the child exec.  Returns 0 or -errno. */
int workload__start(struct workload *w);
/*
 * Waits until the started child has exec'd (0) or failed to (its errno, also left in
 * exec_errno), for a command that must know before it reads what the workload does.
 */
int workload__wait_exec(struct workload *w);
/* Non-blocking: true once the child has exited (status/rusage filled
 * unless keep_zombie). */
bool workload__poll_exit(struct workload *w);
/* Waits for the child (status, rusage, exec_errno).  Returns 0 or -errno. */
int workload__wait(struct workload *w);
/* Kills a still-running child (SIGTERM) and reaps it, zombie or not. */
void workload__kill(struct workload *w, int sig);
void workload__close(struct workload *w);

#endif
