/* off-cpu: perf's offcpu-time samples without BPF (record --off-cpu).
 *
 * perf's BPF version measures, in the kernel, how long each thread slept
 * and under which stack, and writes those as samples of a software event
 * named "offcpu-time" when the recording ends.  Here the same intervals come
 * from what the kernel already records for a task:
 *
 *   off_cpu__stack()       a sched:sched_switch sample of the thread leaving
 *                          the CPU: its callchain (kernel and user)
 *   off_cpu__switch_out()  the PERF_RECORD_SWITCH that follows it (sleeping
 *                          or preempted: perf counts sleeps only)
 *   off_cpu__switch_in()   the PERF_RECORD_SWITCH of the thread coming back
 *
 * Each CPU's ring is in time order, the rings together are not: a thread
 * that slept on one CPU may wake on another whose ring was read first.  So
 * the switches wait until a round's end and are paired in time order up to
 * the newest time of any record of the round before (what perf's ordered
 * events rely on: every record older than that has been drained by then,
 * and perf has flushed no further than that when it reads the samples).
 *
 * One sample per sleep: pid/tid of the thread, time and cpu of its wake-up,
 * period = nanoseconds off the CPU, ip and callchain = the stack it left with.
 */
#ifndef PCL_OFF_CPU_H
#define PCL_OFF_CPU_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OFF_CPU_EVENT_NAME	"offcpu-time"

/* The sample fields perf's off_cpu_write() knows how to fill. */
#define OFF_CPU_SAMPLE_TYPES	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
				 PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | \
				 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_CGROUP)

/* The attr perf gives the event before record's configuration: a BPF output
 * software event, one sample a second in frequency mode, with callchains. */
void off_cpu__init_attr(struct perf_event_attr *attr);

struct off_cpu;

/* Writes one sample; returns 0 or -errno (the flush stops). */
typedef int off_cpu_emit_fn(void *ctx, const struct perf_event_header *rec);

/* A tracker writing samples of sample_type with id (IDENTIFIER, ID).
 * NULL when sample_type has fields perf's version cannot fill. */
struct off_cpu *off_cpu__new(uint64_t sample_type, uint64_t id);
void off_cpu__delete(struct off_cpu *oc);

void off_cpu__stack(struct off_cpu *oc, uint32_t tid, const uint64_t *chain, size_t nr);
void off_cpu__switch_out(struct off_cpu *oc, uint32_t pid, uint32_t tid, uint64_t time,
			 bool preempted);
void off_cpu__switch_in(struct off_cpu *oc, uint32_t pid, uint32_t tid, uint64_t time,
			uint32_t cpu);

/* The time of any other record drained: what perf's ordered reading will
 * have flushed up to, which the samples must not come before. */
void off_cpu__note_time(struct off_cpu *oc, uint64_t time);

/* A round of drained records ended: emits the sleeps that ended up to the
 * previous round's newest time, oldest first. */
int off_cpu__round_end(struct off_cpu *oc, off_cpu_emit_fn *emit, void *ctx);
/* The recording ended: emits every sleep that ended.  Threads still asleep
 * (or gone) have no wake-up and no sample, as with perf's version. */
int off_cpu__finish(struct off_cpu *oc, off_cpu_emit_fn *emit, void *ctx);

/* Samples emitted so far, and their total period (ns). */
uint64_t off_cpu__nr_samples(const struct off_cpu *oc);
uint64_t off_cpu__total_ns(const struct off_cpu *oc);

#endif
