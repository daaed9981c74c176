/* perf-data: the perf.data file format, shared by the reader (session) and
 * the writer (record).
 *
 * Normal mode:  perf_file_header | attrs (+ ids) | data (records) | feature
 *               section table | feature payloads.
 * Pipe mode:    perf_pipe_file_header | records; attrs, tracing data and
 *               features travel as HEADER_* records inside the stream.
 *
 * struct perf_header is the parsed, host-endian view of everything outside
 * the data section: the events (attr, ids, name) and the feature sections.
 * A writer fills the same struct and serialises it.
 */
#ifndef PCL_PERF_DATA_H
#define PCL_PERF_DATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" little endian */
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL

#define HEADER_FEAT_BITS	256

enum perf_header_feature {
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

/* pcl's own feature: the symbol tables pcl archive --embed adds
 * (core/symbols/embed.h).  The last bit, past any perf will use soon;
 * perf skips the features it does not know. */
#define HEADER_PCL_SYMBOLS	(HEADER_FEAT_BITS - 1)

/* Record types perf's tools add after the kernel's (PERF_RECORD_MAX). */
enum perf_user_record_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65,
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

/* HEADER_BUILD_ID / PERF_RECORD_HEADER_BUILD_ID: misc bit saying the
 * build id length is stored in the byte after 20 bytes of id. */
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)
#define BUILD_ID_MAX	20

struct perf_file_section {
	uint64_t offset;
	uint64_t size;
};

struct perf_file_header {
	uint64_t magic;
	uint64_t size;		/* sizeof(struct perf_file_header) = 104 */
	uint64_t attr_size;	/* per entry: attr + struct perf_file_section ids */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;	/* unused, zero */
	uint64_t adds_features[HEADER_FEAT_BITS / 64];
};

struct perf_pipe_file_header {
	uint64_t magic;
	uint64_t size;		/* 16 */
};

/* One event of the file: the attr as recorded, the sample ids routing
 * records to it, and its name (EVENT_DESC, or synthesised). */
struct perf_data_attr {
	struct perf_event_attr attr;
	uint64_t *ids;
	uint32_t nr_ids;
	char *name;		/* NULL until known */
};

struct perf_build_id_entry {
	int32_t pid;
	uint16_t misc;		/* cpumode bits */
	uint8_t build_id[BUILD_ID_MAX];
	int size;
	char *filename;
};

struct perf_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;
	char *cpus;
};

struct perf_pmu_mapping {
	uint32_t type;
	char *name;
};

struct perf_group_desc {
	char *name;		/* "{anon_group}" style name, or NULL */
	uint32_t leader_idx;
	uint32_t nr_members;
};

struct perf_cache_level {
	uint32_t level, line_size, sets, ways;
	char *type, *size, *map;
};

struct perf_mem_node {
	uint64_t node;
	uint64_t size;		/* as recorded (the number of memory blocks) */
	uint64_t nbits;		/* bits in set */
	uint64_t *set;
};

struct perf_pmu_caps {
	char *pmu_name;
	uint32_t nr_caps;
	char **caps;		/* "name=value" */
};

struct perf_hybrid_node {
	char *pmu_name;
	char *cpus;
};

struct perf_cpu_topo_id {
	int32_t core_id, socket_id, die_id;	/* -1 when not recorded */
};

/* The parsed header.  Strings and arrays are owned here. */
struct perf_header {
	bool needs_swap;
	bool is_pipe;
	struct perf_file_header file;		/* host order */
	uint64_t features[HEADER_FEAT_BITS / 64];	/* features present */
	struct perf_file_section feat_sec[HEADER_LAST_FEATURE];

	struct perf_data_attr *attrs;
	uint32_t nr_attrs;

	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem;			/* kB */
	char **cmdline;
	uint32_t nr_cmdline;

	/* CPU_TOPOLOGY */
	char **sibling_cores, **sibling_threads, **sibling_dies;
	uint32_t nr_sibling_cores, nr_sibling_threads, nr_sibling_dies;
	struct perf_cpu_topo_id *cpu_topo;	/* nr_cpus_avail entries */
	uint32_t nr_cpu_topo;
	bool has_die_topo;

	struct perf_numa_node *numa_nodes;
	uint32_t nr_numa_nodes;
	struct perf_pmu_mapping *pmu_mappings;
	uint32_t nr_pmu_mappings;
	struct perf_group_desc *groups;
	uint32_t nr_groups;
	struct perf_cache_level *caches;
	uint32_t nr_caches;
	uint64_t first_sample_time, last_sample_time;
	uint64_t mem_version, mem_block_size;
	struct perf_mem_node *mem_nodes;
	uint32_t nr_mem_nodes;
	uint64_t clockid_res_ns;
	uint64_t dir_format_version;
	uint32_t comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len;
	char **cpu_pmu_caps;			/* "name=value" */
	uint32_t nr_cpu_pmu_caps;
	uint32_t clock_version, clockid;
	uint64_t clock_tod_ns, clock_clockid_ns;
	struct perf_hybrid_node *hybrid_nodes;
	uint32_t nr_hybrid_nodes;
	struct perf_pmu_caps *pmu_caps;
	uint32_t nr_pmu_caps;

	struct perf_build_id_entry *build_ids;
	uint32_t nr_build_ids;

	/* Raw feature payloads kept for consumers that decode them later
	 * (tracing data, auxtrace index, BPF info). */
	void *tracing_data;
	size_t tracing_data_size;
	struct bpf_prog_desc *bpf_progs;	/* HEADER_BPF_PROG_INFO, by id */
	uint32_t nr_bpf_progs;
	struct bpf_btf_desc *bpf_btfs;		/* HEADER_BPF_BTF, by id */
	uint32_t nr_bpf_btfs;
	void *pcl_symbols;	/* HEADER_PCL_SYMBOLS, raw */
	size_t pcl_symbols_size;
};

static inline bool perf_header__has_feat(const struct perf_header *h, int feat)
{
	return feat > 0 && feat < HEADER_FEAT_BITS && (h->features[feat / 64] >> (feat % 64)) & 1;
}

static inline void perf_header__set_feat(struct perf_header *h, int feat)
{
	h->features[feat / 64] |= 1ULL << (feat % 64);
}

/* perf's upper-case feature name ("TRACING_DATA"), or NULL. */
const char *perf_feature_name(int feat);

/* The file a command reads (writing false) or writes when none is named:
 * "-", the pipe format on stdin or stdout, when that descriptor is a FIFO
 * (as perf does: `pcl record | pcl report`), else "perf.data". */
const char *perf_data__default_path(bool writing);

/*
 * Reads the header of an open perf.data: normal (positioned reads) or pipe
 * (the 16-byte header consumed from fd).  On error returns -1 with a message
 * in err (caller frees).  For normal files also reads attrs, ids and every
 * feature section.
 */
int perf_header__read(struct perf_header *h, int fd, bool is_pipe, uint64_t file_size,
		      char **err);

/* Parses one feature payload (a section, or a HEADER_FEATURE record body)
 * in the file's byte order.  Returns 0, or -1 with *err set. */
int perf_header__parse_feature(struct perf_header *h, int feat, const void *buf, size_t size,
			       char **err);

/* Appends an event (pipe HEADER_ATTR); takes a copy of ids. */
struct perf_data_attr *perf_header__add_attr(struct perf_header *h,
					     const struct perf_event_attr *attr,
					     const uint64_t *ids, uint32_t nr_ids);

void perf_header__exit(struct perf_header *h);

/* The LBR depth the file gives: its "branches" CPU PMU capability, read as
 * perf reads it (atoi), 0 without one.  perf's --stitch-lbr needs it. */
uint32_t perf_header__lbr_depth(const struct perf_header *h);

/* Converts a perf_event_attr of the other byte order in place; only the
 * first `size` bytes are touched. */
void perf_event_attr__swap(struct perf_event_attr *attr, size_t size);

/* Copies an on-disk attr of `size` bytes (already host order) into a full
 * struct, zero-filling what an older layout lacks. */
void perf_event_attr__from_disk(struct perf_event_attr *dst, const void *src, size_t size);

#endif
