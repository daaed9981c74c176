/* perf-record: the records of a perf.data data section (kernel and tool
 * types), their validation, byte swapping and the decoding of samples and
 * sample_id_all trailers into struct perf_sample.
 *
 * A record is a perf_event_header followed by a type-specific body.  After
 * perf_record__check() succeeded, the typed views below may be used on it
 * directly: sizes are checked and strings are NUL-terminated.
 */
#ifndef PCL_PERF_RECORD_H
#define PCL_PERF_RECORD_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/data/perf-data.h"

struct perf_rec_mmap {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char filename[];
};

struct perf_rec_mmap2 {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		};
		struct {	/* with PERF_RECORD_MISC_MMAP_BUILD_ID */
			uint8_t build_id_size;
			uint8_t reserved_1;
			uint16_t reserved_2;
			uint8_t build_id[20];
		};
	};
	uint32_t prot, flags;
	char filename[];
};

struct perf_rec_comm {
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[];
};

struct perf_rec_fork {		/* FORK and EXIT */
	struct perf_event_header header;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct perf_rec_lost {
	struct perf_event_header header;
	uint64_t id, lost;
};

struct perf_rec_lost_samples {
	struct perf_event_header header;
	uint64_t lost;
};

struct perf_rec_throttle {
	struct perf_event_header header;
	uint64_t time, id, stream_id;
};

struct perf_rec_read {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t value;		/* then read_format dependent fields */
};

struct perf_rec_aux {
	struct perf_event_header header;
	uint64_t aux_offset, aux_size, flags;
};

struct perf_rec_itrace_start {
	struct perf_event_header header;
	uint32_t pid, tid;
};

struct perf_rec_switch {
	struct perf_event_header header;
	uint32_t next_prev_pid, next_prev_tid;	/* SWITCH_CPU_WIDE only */
};

struct perf_rec_namespaces {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	struct { uint64_t dev, ino; } link_info[];
};

struct perf_rec_ksymbol {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;
	uint16_t flags;
	char name[];
};

struct perf_rec_bpf_event {
	struct perf_event_header header;
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

struct perf_rec_cgroup {
	struct perf_event_header header;
	uint64_t id;
	char path[];
};

struct perf_rec_text_poke {
	struct perf_event_header header;
	uint64_t addr;
	uint16_t old_len, new_len;
	uint8_t bytes[];
};

struct perf_rec_aux_output_hw_id {
	struct perf_event_header header;
	uint64_t hw_id;
};

/* tool records */
struct perf_rec_header_attr {
	struct perf_event_header header;
	struct perf_event_attr attr;	/* attr.size bytes, then u64 ids[] */
};

struct perf_rec_tracing_data {
	struct perf_event_header header;
	uint32_t size;		/* the tracing data follows the record in the stream */
	uint32_t pad;
};

struct perf_rec_build_id {
	struct perf_event_header header;
	int32_t pid;
	uint8_t build_id[24];	/* 20 bytes, then the size when MISC_BUILD_ID_SIZE */
	char filename[];
};

struct perf_rec_id_index {
	struct perf_event_header header;
	uint64_t nr;
	struct { uint64_t id, idx, cpu, tid; } entries[];
};

struct perf_rec_thread_map {
	struct perf_event_header header;
	uint64_t nr;
	struct { uint64_t pid; char comm[16]; } entries[];
};

struct perf_rec_cpu_map {
	struct perf_event_header header;
	uint16_t type;		/* 0 cpu list, 1 mask, 2 range */
	uint8_t data[];
};

struct perf_rec_auxtrace_info {
	struct perf_event_header header;
	uint32_t type, reserved;
	uint64_t priv[];
};

struct perf_rec_auxtrace {
	struct perf_event_header header;
	uint64_t size, offset, reference;	/* size bytes of trace follow the record */
	uint32_t idx, tid, cpu, reserved;
};

struct perf_rec_auxtrace_error {
	struct perf_event_header header;
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip;
	uint64_t time;		/* fmt >= 2 */
	char msg[64];
	uint32_t machine_pid, vcpu;	/* fmt >= 2 */
};

struct perf_rec_stat_config {
	struct perf_event_header header;
	uint64_t nr;
	struct { uint64_t tag, val; } data[];
};

struct perf_rec_stat {
	struct perf_event_header header;
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
};

struct perf_rec_stat_round {
	struct perf_event_header header;
	uint64_t type, time;
};

struct perf_rec_event_update {
	struct perf_event_header header;
	uint64_t type, id;
	uint8_t data[];
};

struct perf_rec_time_conv {
	struct perf_event_header header;
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;	/* newer files only */
	uint8_t cap_user_time_zero, cap_user_time_short, reserved[6];
};

struct perf_rec_feature {
	struct perf_event_header header;
	uint64_t feat_id;
	uint8_t data[];
};

/* perf's "MMAP", "SAMPLE", "FINISHED_ROUND" ...; "UNKNOWN"/"INVALID" else. */
const char *perf_record_name(uint32_t type);

/* A decoded sample, or the sample_id_all trailer of another record.
 * Pointers point into the record. Absent fields: pid/tid/cpu = -1
 * (as u32), time = ~0. */
struct perf_sample_read_value {
	uint64_t value, id, lost;
};

struct perf_sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;
	uint64_t weight;
	uint16_t ins_lat, p_stage_cyc;	/* PERF_SAMPLE_WEIGHT_STRUCT */
	uint64_t data_src;
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size, code_page_size;
	uint16_t misc;
	uint8_t cpumode;
	struct {
		uint64_t time_enabled, time_running;
		uint64_t nr;	/* group: values; single: 1 */
		const uint64_t *values;	/* raw values, stride given below */
		int stride;		/* u64s per value */
		struct perf_sample_read_value one;
	} read;
	uint64_t callchain_nr;
	const uint64_t *callchain;	/* PERF_CONTEXT_* markers included */
	uint32_t raw_size;
	const void *raw_data;
	uint64_t branch_nr;
	uint64_t branch_hw_idx;
	bool branch_has_hw_idx;
	const struct perf_branch_entry *branch_entries;
	struct {
		uint64_t abi, mask;
		const uint64_t *regs;
	} user_regs, intr_regs;
	struct {
		uint64_t size;		/* bytes copied */
		uint64_t dyn_size;	/* bytes valid */
		const uint8_t *data;
	} user_stack;
	struct {
		uint64_t size;
		const void *data;
	} aux;
};

/* Bytes of the sample_id_all trailer for this attr (0 without sample_id_all). */
size_t perf_sample__id_hdr_size(const struct perf_event_attr *attr);

/* Index (in u64 words after the header) of the sample id in a SAMPLE
 * record, or -1 when the sample_type has no id. */
int perf_sample__id_pos(uint64_t sample_type);
/* Position of the id counted in u64 words from the END of a non-sample
 * record's trailer, or -1. */
int perf_sample__is_pos(uint64_t sample_type);

/*
 * Decodes a SAMPLE record (or another record's trailer when attr has
 * sample_id_all) into s.  Returns 0, or -1 with *err a static reason.
 */
int perf_sample__parse(const struct perf_event_attr *attr, const struct perf_event_header *rec,
		       struct perf_sample *s, const char **err);

/*
 * Checks a record's declared size against its type's fixed layout and
 * that strings end inside it.  id_hdr_size is the trailer size of
 * kernel records (0 when unknown). Returns NULL or a static reason.
 */
const char *perf_record__check(const struct perf_event_header *rec, size_t id_hdr_size);

/* Byte-swaps the body of a record of the other endianness in place (the
 * header was already swapped).  attr describes samples and trailers (NULL
 * when unknown: trailer left as is).  Tracepoint raw data and stack copies
 * stay in the file's byte order. Returns NULL or a reason. */
const char *perf_record__swap(struct perf_event_header *rec, const struct perf_event_attr *attr);

/* Build id size of a HEADER_BUILD_ID record. */
int perf_rec_build_id__size(const struct perf_rec_build_id *b);

/* TSC <-> perf time with a TIME_CONV record's parameters (the kernel's
 * perf_event_mmap_page arithmetic). */
uint64_t time_conv__to_perf(const struct perf_rec_time_conv *tc, uint64_t cycles);
uint64_t time_conv__to_tsc(const struct perf_rec_time_conv *tc, uint64_t ns);

#endif
