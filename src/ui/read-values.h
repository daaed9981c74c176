/* read-values: perf report -T's table of the counters' values by thread,
 * from the PERF_RECORD_READ records of a `perf record -s` file. */
#ifndef PCL_READ_VALUES_H
#define PCL_READ_VALUES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct read_values {
	int nr_threads, nr_counters;
	int *pid, *tid;			/* [nr_threads] */
	int *raw;			/* [nr_counters]: the event's index */
	const char **name;		/* [nr_counters] */
	uint64_t *value;		/* [thread * max_counters + counter] */
	int max_threads, max_counters;
};

/* Adds value to thread (pid, tid) and counter raw (named name). */
void read_values__add(struct read_values *v, int pid, int tid, int raw, const char *name,
		      uint64_t value);

/* perf's table: "# PID TID <counters>" and a row per thread, or with raw
 * (--pretty raw) one "pid tid name raw count" group per non-zero value,
 * all on one line as perf 6.1 prints them. */
void read_values__print(FILE *fp, const struct read_values *v, bool raw);

void read_values__exit(struct read_values *v);

#endif
