/* perf-data-format: the on-disk layout of perf.data, shared by the writer
 * (record) and the reader (report, script, ...).  Pure definitions: no code.
 *
 * File (normal mode):
 *   perf_file_header | ids arrays | attrs (perf_file_attr[]) | data | feature
 *   section table (one perf_file_section per set feature bit, in bit order)
 *   | feature payloads.
 * All values are in the writer's byte order; a byte-swapped magic means a
 * file from a machine of the other endianness.
 */
#ifndef PCL_PERF_DATA_FORMAT_H
#define PCL_PERF_DATA_FORMAT_H

#include <linux/perf_event.h>
#include <stdint.h>

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL

#define HEADER_FEAT_BITS	256

struct perf_file_section {
	uint64_t offset;
	uint64_t size;
};

struct perf_file_header {
	uint64_t magic;
	uint64_t size;			/* sizeof(struct perf_file_header) */
	uint64_t attr_size;		/* sizeof(struct perf_file_attr) as written */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;	/* unused, zero */
	uint64_t adds_features[HEADER_FEAT_BITS / 64];
};

/* One entry of the attrs section: the attr as the tool used it (attr.size
 * bytes; perf 6.1 writes 128) followed by where its event ids are stored. */
struct perf_file_attr {
	struct perf_event_attr attr;
	struct perf_file_section ids;
};

/* The pipe-mode header: magic then size 16, and everything else as records. */
struct perf_pipe_file_header {
	uint64_t magic;
	uint64_t size;
};

/* Feature bits (perf's numbering; bit 0 is reserved). */
enum header_feature {
	HEADER_RESERVED = 0,
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_LAST_FEATURE,
};

/* Record types the tools add to the kernel's (PERF_RECORD_* 1..20). */
enum perf_user_event_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65,	/* deprecated */
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
	PERF_RECORD_HEADER_MAX
};

/* misc bit of a build_id entry: its size byte is valid. */
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)

/* Largest record: header.size is a u16. */
#define PERF_SAMPLE_MAX_SIZE	(1 << 16)

/* Kernel records as perf.data stores them (sample_id_all trailer follows
 * the fixed part of non-sample records). */
struct perf_record_mmap {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char filename[];	/* NUL-terminated, padded to 8 bytes */
};

struct perf_record_mmap2 {
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

struct perf_record_comm {
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[];		/* padded to 8 bytes */
};

struct perf_record_fork {	/* also PERF_RECORD_EXIT */
	struct perf_event_header header;
	uint32_t pid, ppid;
	uint32_t tid, ptid;
	uint64_t time;
};

struct perf_record_lost {
	struct perf_event_header header;
	uint64_t id;
	uint64_t lost;
};

struct perf_record_lost_samples {
	struct perf_event_header header;
	uint64_t lost;
};

struct perf_record_throttle {	/* THROTTLE and UNTHROTTLE */
	struct perf_event_header header;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
};

/* Tool records. */
struct id_index_entry {
	uint64_t id;
	uint64_t idx;		/* position of the event in the attrs section */
	uint64_t cpu;
	uint64_t tid;
};

struct perf_record_id_index {
	struct perf_event_header header;
	uint64_t nr;
	struct id_index_entry entries[];
};

struct perf_record_thread_map_entry {
	uint64_t pid;
	char comm[16];
};

struct perf_record_thread_map {
	struct perf_event_header header;
	uint64_t nr;
	struct perf_record_thread_map_entry entries[];
};

/* CPU_MAP payload kinds. */
enum {
	PERF_CPU_MAP__CPUS = 0,		/* u16 nr, u16 cpu[nr] */
	PERF_CPU_MAP__MASK = 1,
	PERF_CPU_MAP__RANGE_CPUS = 2,	/* u8 any_cpu, u8 pad, u16 start, u16 end */
};

struct perf_record_time_conv {
	struct perf_event_header header;
	uint64_t time_shift;
	uint64_t time_mult;
	uint64_t time_zero;
	uint64_t time_cycles;
	uint64_t time_mask;
	uint8_t cap_user_time_zero;
	uint8_t cap_user_time_short;
	uint8_t reserved[6];
};

struct perf_record_header_build_id {	/* also the BUILD_ID feature entries */
	struct perf_event_header header;	/* misc: cpumode | BUILD_ID_SIZE */
	int32_t pid;
	union {
		uint8_t build_id[24];
		struct {
			uint8_t data[20];
			uint8_t size;
			uint8_t reserved1[3];
		};
	};
	char filename[];	/* NUL-terminated, padded to 64 bytes */
};

/* PERF_RECORD_COMPRESSED: a slice of one continuous zstd stream whose
 * decompressed bytes are further records. */
struct perf_record_compressed {
	struct perf_event_header header;
	char data[];
};

/* COMPRESSED feature payload. */
struct perf_compressed_feature {
	uint32_t version;	/* 0 */
	uint32_t type;		/* 1 = zstd */
	uint32_t level;
	uint32_t ratio;
	uint32_t mmap_len;	/* bound on one record's decompressed size */
};

#define PERF_COMP_ZSTD	1

/* CLOCK_DATA feature payload (version 1). */
struct perf_clock_data_feature {
	uint32_t version;
	uint32_t clockid;
	uint64_t wall_clock_ns;	/* reference time: CLOCK_REALTIME */
	uint64_t clockid_ns;	/* the same moment on the sampling clock */
};

/* Tracing data ("\x17\x08\x44tracing" + "0.6") */
#define TRACING_DATA_MAGIC	"\x17\x08\x44tracing"
#define TRACING_DATA_VERSION	"0.6"

/* Strings in features are aligned to this. */
#define NAME_ALIGN	64

#endif
