/* cpumap: the CPUs and the threads a command measures, and the CPU topology.
 *
 * A cpu_map lists CPU numbers in ascending order; the "any CPU" map holds the
 * single entry -1 (per-task counting).  A thread_map lists task ids with their
 * comm; the "any task" map holds -1 (per-CPU counting).
 */
#ifndef PCL_CPUMAP_H
#define PCL_CPUMAP_H

#include <stdbool.h>

struct cpu_map {
	int nr;
	int map[];
};

/*
 * Parses a CPU list as perf does: "0-1,3", hex/octal numbers, ascending or
 * not.  Parsing stops at the first entry that does not start with a digit
 * ("0,,1" is CPU 0).  Returns NULL for a bad list: garbage right after a
 * number, a reversed range, a duplicate, or nothing but garbage.  The empty
 * string gives the "any CPU" map.
 */
struct cpu_map *cpu_map__parse(const char *list);
/* The online CPUs (/sys/devices/system/cpu/online); NULL if unreadable. */
struct cpu_map *cpu_map__new_online(void);
/* The "any CPU" map {-1}. */
struct cpu_map *cpu_map__new_any(void);
/* A map of the given CPUs (kept in the given order). */
struct cpu_map *cpu_map__new_from(const int *cpus, int nr);
bool cpu_map__is_any(const struct cpu_map *map);
/* Index of cpu in map, -1 if absent. */
int cpu_map__idx(const struct cpu_map *map, int cpu);
void cpu_map__delete(struct cpu_map *map);

struct thread_map_entry {
	int pid;	/* a task id (tid), -1 for "any task" */
	char *comm;	/* NULL until thread_map__read_comms() */
};

struct thread_map {
	int nr;
	struct thread_map_entry map[];
};

/* Every task of each process in a comma-separated pid list (/proc/PID/task).
 * NULL when a pid is malformed or has no tasks. */
struct thread_map *thread_map__new_by_pid_str(const char *pids);
/* The tasks of a comma-separated tid list, as given (not checked against /proc). */
struct thread_map *thread_map__new_by_tid_str(const char *tids);
/* Every task of every process of a user. */
struct thread_map *thread_map__new_by_uid(unsigned int uid);
/* Every task on the system. */
struct thread_map *thread_map__new_all(void);
/* A single task (a forked workload). */
struct thread_map *thread_map__new_pid(int pid);
/* The "any task" map {-1}. */
struct thread_map *thread_map__new_any(void);
/* Fills each entry's comm from /proc/TID/comm ("<unknown>" when gone). */
void thread_map__read_comms(struct thread_map *threads);
void thread_map__delete(struct thread_map *threads);

/* Where a CPU sits: ids from /sys/devices/system/cpu/cpuN/topology and the
 * NUMA node from /sys/devices/system/node/nodeM/cpuN (-1 when unknown). */
struct cpu_topology {
	int socket, die, core, node;
};

void cpu_topology__read(int cpu, struct cpu_topology *topo);

/* Root of the sysfs/procfs trees read above; tests point it elsewhere. */
extern const char *cpumap_sysfs_root;
extern const char *cpumap_procfs_root;

#endif
