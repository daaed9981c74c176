/* guest-inject: a guest's perf.data side-band records merged into a host's
 * recording (inject --guest-data), as perf inject 6.1 merges them.
 *
 * The guest file (perf record inside a virtual machine) is read whole, in
 * time order, first: its MMAP, MMAP2, COMM, FORK, EXIT, LOST, SWITCH,
 * SWITCH_CPU_WIDE, out-of-line KSYMBOL and TEXT_POKE records are kept (not
 * its samples), with its events, sample ids (the CPU of each from its
 * ID_INDEX), build ids and TIME_CONV.  The kept records go to an unlinked
 * temporary file, as perf spools them, and are read back one at a time as
 * they are merged: memory does not grow with the guest's side-band.
 *
 * The host file names the VCPU threads of the hypervisor process: COMMs of
 * machine_pid whose name reads "CPU N/KVM" (QEMU's -name debug-threads=on).
 * At the host's FINISHED_INIT (ready), each guest event becomes a new host
 * event (exclude_host, PERF_SAMPLE_IDENTIFIER added) whose ids are new ones
 * above the host's, per VCPU, announced by an ID_INDEX record carrying the
 * machine pid and VCPU of each id.  From then on the guest records come out
 * in time order between the host's ones (until()): guest cpumode (a user
 * mode one becomes GUEST_USER, anything else GUEST_KERNEL), the new id, the
 * host CPU the VCPU was last switched in on (switch()), and the time
 * converted: guest perf time -> guest TSC -> minus offset, divided by scale
 * -> host perf time (a side without TIME_CONV counts in TSC ticks itself).
 * A host without FINISHED_INIT (perf older than 5.19) gets no guest record.
 *
 * Errors are perf's words, each line ending with '\n'.
 */
#ifndef PCL_GUEST_INJECT_H
#define PCL_GUEST_INJECT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/data/perf-record.h"

struct perf_session;
struct strbuf;

/* --guest-data=PATH,PID[,OFFSET[,SCALE]] */
struct guest_data_spec {
	char *path;
	uint32_t machine_pid;
	uint64_t time_offset;
	double time_scale;
};

/* perf's reading of the option (strtoul/strtoull/strtod, base 0 for the
 * integers): false for no PID, a PID of 0 or a scale of 0. */
bool guest_data_spec__parse(struct guest_data_spec *spec, const char *arg);
void guest_data_spec__release(struct guest_data_spec *spec);

/* Where each merged record goes. */
typedef int (*guest_emit_fn)(void *ctx, const struct perf_event_header *rec);

struct guest_inject;

/* Reads the guest file; NULL with *err set and *ret perf's status: -1, or
 * -EINVAL for a guest without sample ids (a pipe stream has none in its
 * header, as perf looks for them). */
struct guest_inject *guest_inject__open(const struct guest_data_spec *spec, bool force,
					guest_emit_fn emit, void *ctx, int *ret, char **err);
void guest_inject__delete(struct guest_inject *gi);

/* The bytes before the guest file's data: perf leaves that much more room
 * for the header in the output (data offset rounded up to 4096). */
uint64_t guest_inject__header_room(const struct guest_inject *gi);

/* A host COMM (any, in file order, before ready): a VCPU thread's name
 * makes it known.  0, or -EINVAL with *err. */
int guest_inject__host_comm(struct guest_inject *gi, const struct perf_rec_comm *comm,
			    char **err);
/* The host's TIME_CONV record. */
void guest_inject__host_time_conv(struct guest_inject *gi, const struct perf_event_header *rec);

/* The host's FINISHED_INIT: new ids above every id of host's events, the
 * ID_INDEX record, then the guest records of time 0.  0 or -errno with
 * *err. */
int guest_inject__ready(struct guest_inject *gi, struct perf_session *host, char **err);
bool guest_inject__is_ready(const struct guest_inject *gi);

/* A host SWITCH/SWITCH_CPU_WIDE record (perf reads next_prev_pid/tid
 * from either): a VCPU thread switched in notes its CPU. */
int guest_inject__host_switch(struct guest_inject *gi, const struct perf_event_header *rec,
			      const struct perf_sample *sample, char **err);

/* Emits the pending guest records up to time (~0: all). */
int guest_inject__until(struct guest_inject *gi, uint64_t time, char **err);

/* After ready: the guest events as the host's new ones, for the header. */
size_t guest_inject__nr_events(const struct guest_inject *gi);
const struct perf_event_attr *guest_inject__attr(const struct guest_inject *gi, size_t i,
						 const uint64_t **ids, size_t *nr_ids);
/* An EVENT_DESC feature (the host's, as read) with the guest events
 * appended under the names perf gives them (host names them by attr). */
void guest_inject__event_desc(const struct guest_inject *gi, struct perf_session *host,
			      const void *desc, size_t size, struct strbuf *out);
/* The BUILD_ID feature perf writes: the host's vdso entries, then the
 * guest's vdso ones in its machine (GUEST_USER, pid machine_pid); other
 * DSOs are not hit by an inject that resolves nothing.  The guest's come
 * from its BUILD_ID feature only: perf's guest tool does not take build
 * ids from MMAP2 or HEADER_BUILD_ID records. */
void guest_inject__build_ids(const struct guest_inject *gi, const void *host_feat,
			     size_t size, struct strbuf *out);

#endif
