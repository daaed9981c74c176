/* sample-filter: the --comms/--pid/--tid/--dsos/--symbols/--cpu/--time
 * filters of the commands that read samples, with perf's rules: --cpu and
 * --time drop samples; the others mark them filtered (they still count in
 * absolute percentages).
 */
#ifndef PCL_SAMPLE_FILTER_H
#define PCL_SAMPLE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/symbols/machine.h"

struct name_list {
	char **v;
	size_t n;
};

struct time_range {
	uint64_t start, end;	/* ns; 0 means open */
};

#define SAMPLE_FILTER_MAX_CPUS 4096

struct sample_filter {
	struct name_list comms, dsos, syms, pids, tids;
	bool cpu_filter;
	uint8_t cpus[SAMPLE_FILTER_MAX_CPUS / 8];
	struct time_range *ranges;
	size_t nr_ranges;
	int addr_range;		/* --addr-range: address entries of syms cover this many bytes */
};

/* "a,b" (comma-separated; names may hold blanks) appended to l. */
void name_list__add(struct name_list *l, const char *arg);
bool name_list__has(const struct name_list *l, const char *name);
void name_list__exit(struct name_list *l);

/* The name filters of -c/--comms, -d/--dsos, -S/--symbols, --pid and
 * --tid; NULL where the option was not given. */
struct sample_filter_names {
	const char *comms, *dsos, *syms, *pids, *tids;
};
void sample_filter__add_names(struct sample_filter *f, const struct sample_filter_names *n);

/* "0-3,7"; -1 when malformed or beyond SAMPLE_FILTER_MAX_CPUS. */
int sample_filter__set_cpus(struct sample_filter *f, const char *arg);
/* "start,stop[,start,stop...]" in seconds ("123.456789"); -1 if malformed. */
int sample_filter__set_time(struct sample_filter *f, const char *arg);
/* perf's percent slices of the recording, first..last sample time:
 * "10%/2" (the second tenth), "0%-10%,30%-40%", "25%" (the first quarter). */
int sample_filter__set_time_percent(struct sample_filter *f, const char *arg, uint64_t first,
				    uint64_t last);
/* --time as the user gave it: percent slices when it holds '%', else
 * seconds.  -1 when malformed, -2 for percents without first..last. */
int sample_filter__set_time_arg(struct sample_filter *f, const char *arg, uint64_t first,
				uint64_t last);
void sample_filter__exit(struct sample_filter *f);

bool sample_filter__skip_cpu(const struct sample_filter *f, uint32_t cpu);

struct evlist;

/* perf's checks of a --cpu filter: every kind of event samples its CPU, and
 * no CPU asked for is beyond the machine's nr_cpus.  0, or -1 with *err
 * (the caller frees it) in perf's words. */
int sample_filter__check_cpus(const struct sample_filter *f, const struct evlist *evlist,
			      uint32_t nr_cpus, char **err);
bool sample_filter__skip_time(const struct sample_filter *f, uint64_t time);
/* The first CPU -C selects at or beyond nr_cpus (a file's CPUs), or -1. */
int sample_filter__cpu_beyond(const struct sample_filter *f, uint32_t nr_cpus);

/* Hidden by --comms/--pid/--tid (the thread's current comm). */
bool sample_filter__thread(const struct sample_filter *f, const struct thread *t);
/* Hidden by --dsos (short or long name; no map is hidden too). */
bool sample_filter__dso(const struct sample_filter *f, const struct addr_location *al);
/* Hidden by --symbols: an entry that reads as a hex number (perf's rule,
 * "0x" optional) is an address the sample's ip must be (or, with
 * addr_range, lie within addr_range bytes from); others are symbol names. */
bool sample_filter__symbol(const struct sample_filter *f, const struct addr_location *al);

#endif
