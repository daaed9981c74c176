/* record-threads: perf's directory format for `record --threads`.
 *
 * The output is a directory: DIR/data holds the header, the synthesized
 * records and the features (the record session's writer), and DIR/data.N
 * the records of ring N (the N-th CPU of the recording), nothing else: no
 * header, no FINISHED_ROUND (each file is in time order already).
 *
 * The rings are split into groups by a spec, as perf splits them among its
 * threads: one per CPU ("cpu", the default), per core, per package, per NUMA
 * node, or user masks "MAPS/AFFINITY[:MAPS/AFFINITY...]" (CPU lists: the
 * rings a group takes, the CPUs its thread runs on).  Each group has a
 * writer thread of its own, pinned to its affinity CPUs, which writes (and
 * with -z compresses, one zstd stream per file) its rings' records.
 */
#ifndef PCL_RECORD_THREADS_H
#define PCL_RECORD_THREADS_H

#include <stddef.h>
#include <stdint.h>

#include "core/events/cpumap.h"

struct record_thread_masks {
	int nr;
	struct cpu_map **maps;		/* the CPUs whose rings a group takes */
	struct cpu_map **affinity;	/* the CPUs its thread runs on */
};

/*
 * Splits cpus (the recording's) into groups by spec (NULL or "" for "cpu").
 * Returns 0, or -EINVAL (a bad spec, overlapping maps) or -ENODEV (a mask
 * with none of the recording's CPUs) with *msg set to perf's words.
 */
int record_threads__parse_spec(const char *spec, const struct cpu_map *cpus,
			       struct record_thread_masks *masks, char *msg, size_t size);
void record_thread_masks__exit(struct record_thread_masks *masks);

struct record_threads;

/* Creates dir/data.N for each of cpus' rings and starts a writer thread per
 * group of masks (rings in no group go to the first one).  comp_level > 0
 * compresses.  Returns NULL with *err = -errno on failure. */
struct record_threads *record_threads__start(const char *dir, const struct cpu_map *cpus,
					     const struct record_thread_masks *masks,
					     int comp_level, int *err);

/* Hands the records drained from cpu's ring (whole ones) to its group's
 * thread.  Returns 0, or the first write error of any thread. */
int record_threads__write(struct record_threads *t, int cpu, const void *data, size_t len);

/* Bytes handed in and written (after compression) over every data.N file. */
struct record_threads_totals {
	uint64_t raw_bytes, written_bytes;
};

/* Lets the threads write what they hold, joins them and closes the files.
 * Returns 0 or the first write error; totals filled either way (may be NULL). */
int record_threads__stop(struct record_threads *t, struct record_threads_totals *totals);

#endif
