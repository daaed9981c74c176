/* kvm-stat: the per-exit statistics of `pcl kvm stat report`.
 *
 * Fed with the kvm:* tracepoint samples of a recording, it times each
 * event of the kind asked for (a VM exit, an MMIO access, a port I/O or an
 * MSR access) from its begin tracepoint to its end one on the same vCPU
 * thread, and keeps perf's per-key statistics: count, total time, min,
 * max and the running mean and variance, for all vCPUs or for one.
 *
 * Events are filed in 4096 buckets by their key's low bits, newest first
 * in a bucket; kvm_stat__sort() walks them in that order and sorts
 * descending by the sort key, ties kept in walk order, so that the rows
 * come out in perf's order.
 */
#ifndef PCL_ANALYSIS_KVM_STAT_H
#define PCL_ANALYSIS_KVM_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/hashmap.h"

struct perf_session;
struct perf_sample;
struct evsel;
struct tep_event;
struct tep_handle;

#define KVM_STAT_BUCKETS 4096
#define KVM_INVALID_KEY UINT64_MAX
/* perf prints a key in a 20-byte buffer: at most 19 characters */
#define KVM_DECODE_LEN 20

enum kvm_report_event { KVM_REPORT_VMEXIT, KVM_REPORT_MMIO, KVM_REPORT_IOPORT, KVM_REPORT_MSR };
enum kvm_sort_key { KVM_SORT_SAMPLE, KVM_SORT_TIME };

/* The tracepoints the analysis reads. */
enum kvm_tp { KVM_TP_OTHER, KVM_TP_ENTRY, KVM_TP_EXIT, KVM_TP_MMIO, KVM_TP_PIO, KVM_TP_MSR };

/* One tracepoint sample, its fields already read:
 *   entry: key = vcpu_id;  exit: key = exit_reason;
 *   mmio: key = gpa, info = type;  pio: key = port, info = rw;
 *   msr: key = ecx, info = write. */
struct kvm_tp_sample {
	enum kvm_tp tp;
	int pid, tid;
	uint64_t time;
	uint64_t key, info;
};

/* perf's running statistics: Welford's mean and M2; min starts at ~0 for
 * the all-vCPU totals but at 0 for a vCPU's (perf zeroes those). */
struct kvm_stats {
	double n, mean, m2;
	uint64_t max, min;
};

struct kvm_event_stats {
	uint64_t time;
	struct kvm_stats stats;
};

struct kvm_event {
	uint64_t key, info;
	struct kvm_event_stats total;
	struct kvm_event_stats *vcpu;	/* [max_vcpu] */
	int max_vcpu;
	struct kvm_event *bucket_next;
};

/* Exit code -> name, for one instruction set. */
struct kvm_exit_reason {
	uint64_t code;
	const char *name;
};

struct kvm_stat {
	/* settings */
	enum kvm_report_event report;
	enum kvm_sort_key sort;
	int vcpu;			/* -1: all */
	const int *pids;		/* only these VMs (NULL: all) */
	size_t nr_pids;
	uint64_t duration;		/* ns: longer events are told (live's --duration), 0 off */
	const struct kvm_exit_reason *reasons;
	const char *isa;		/* "VMX" or "SVM" */

	/* state */
	struct kvm_event *buckets[KVM_STAT_BUCKETS];
	struct hashmap vcpus;		/* tid -> struct kvm_vcpu_record * */
	struct kvm_vcpu_record *records;

	/* kvm_stat__sort's result */
	struct kvm_event **rows;
	size_t nr_rows;
	uint64_t total_count, total_time;
};

/* An event that took longer than the duration. */
struct kvm_slow_event {
	uint64_t time, took;
	int pid, vcpu;
	const struct kvm_event *event;
};

void kvm_stat__init(struct kvm_stat *k);
void kvm_stat__exit(struct kvm_stat *k);
/* Zeroes every event's statistics for live mode's next interval (perf
 * keeps the events, so their order stays; vCPU minimums start at ~0 now). */
void kvm_stat__clear(struct kvm_stat *k);

/* Picks VMX or SVM exit names from a CPUID string ("GenuineIntel,6,85,7"):
 * -1 when the vendor is neither (perf's "CPU ... is not supported"). */
int kvm_stat__set_isa(struct kvm_stat *k, const char *cpuid);

/* perf's names: "vmexit", "mmio", "ioport", "msr"; "sample", "time". */
int kvm_stat__parse_event(const char *name, enum kvm_report_event *out);
int kvm_stat__parse_key(const char *name, enum kvm_sort_key *out);
/* perf's pid list: comma-separated, no duplicates.  -1 when malformed. */
int kvm_stat__parse_pids(const char *list, int **pids, size_t *nr);

/* Takes one sample.  True when it ended an event longer than the duration
 * (*slow filled), HLT exits aside as perf leaves them aside. */
bool kvm_stat__sample(struct kvm_stat *k, const struct kvm_tp_sample *s,
		      struct kvm_slow_event *slow);

/* The same for a tracepoint sample of the event named name ("kvm:kvm_exit"),
 * tp its format: the kind and fields are looked up by name, as perf does. */
bool kvm_stat__tp_sample(struct kvm_stat *k, const char *name, struct tep_event *tp,
			 const struct perf_sample *sample, struct kvm_slow_event *slow);
/* ... of a recording */
void kvm_stat__session_sample(struct kvm_stat *k, struct perf_session *s,
			      const struct evsel *evsel, const struct perf_sample *sample);
/* The format of tracepoint sys:name from this machine's tracefs, parsed
 * into tep (live mode); NULL when it cannot be read. */
struct tep_event *kvm_stat__local_format(struct tep_handle *tep, const char *tracepoint);

/* Fills rows[] and the totals. */
void kvm_stat__sort(struct kvm_stat *k);

/* The event's statistics for the vCPU the report is about. */
const struct kvm_event_stats *kvm_stat__stats(const struct kvm_stat *k,
					      const struct kvm_event *e);
/* perf's relative standard deviation of the mean, in percent. */
double kvm_stats__rel_stddev(const struct kvm_stats *s);

/* The row's name as perf prints it (at most 19 characters); false when
 * the exit code has no name ("UNKNOWN", which perf complains about). */
bool kvm_stat__decode(const struct kvm_stat *k, const struct kvm_event *e,
		      char buf[KVM_DECODE_LEN]);
/* The table's first column header: "VM-EXIT", "MMIO Access", ... */
const char *kvm_stat__event_title(enum kvm_report_event report);

#endif
