/* sample-filter: the sample filters perf report and friends share
 * (--comm, --pid, --tid, --dso, --cpu, --time), parsed once and asked
 * per sample.  Lists are comma-separated; --time takes absolute
 * timestamps "start,stop[,start,stop...]" in seconds (either end may be
 * empty: open), like perf.
 */
#ifndef PCL_SAMPLE_FILTER_H
#define PCL_SAMPLE_FILTER_H

#include <stdbool.h>
#include <stdint.h>

struct thread;
struct dso;

struct sample_time_range {
	uint64_t start, end;	/* ns; 0 / UINT64_MAX when open */
};

struct sample_filter {
	char **comms;
	long *pids, *tids;
	char **dsos;		/* short or long DSO names */
	size_t nr_comms, nr_pids, nr_tids, nr_dsos;
	uint8_t *cpus;		/* bitmap of MAX_FILTER_CPUS bits, NULL = all */
	struct sample_time_range *ranges;
	size_t nr_ranges;
};

#define MAX_FILTER_CPUS 4096

/* Each setter returns 0, or -1 for a malformed argument (the filter is
 * then unchanged). */
int sample_filter__set_comms(struct sample_filter *f, const char *list);
int sample_filter__set_pids(struct sample_filter *f, const char *list);
int sample_filter__set_tids(struct sample_filter *f, const char *list);
int sample_filter__set_dsos(struct sample_filter *f, const char *list);
int sample_filter__set_cpus(struct sample_filter *f, const char *list);
int sample_filter__set_time(struct sample_filter *f, const char *spec);
void sample_filter__exit(struct sample_filter *f);

/* "sec[.frac]" -> ns; returns -1 when malformed. */
int parse_timestamp_ns(const char *s, size_t len, uint64_t *ns);

bool sample_filter__time_ok(const struct sample_filter *f, uint64_t time);
/* cpu (uint32_t)-1 = unknown, always accepted */
bool sample_filter__cpu_ok(const struct sample_filter *f, uint32_t cpu);
bool sample_filter__thread_ok(const struct sample_filter *f, const struct thread *t);
/* dso NULL (unmapped address) never matches a --dso list */
bool sample_filter__dso_ok(const struct sample_filter *f, const struct dso *dso);

#endif
