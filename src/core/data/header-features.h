/* header-features: the feature sections perf record writes after the data
 * (host, CPU, memory, topology, events, build ids, tracing data...), each
 * built from /proc and /sys into the layout perf 6.1 reads.  A pipe
 * recording carries the same payloads as HEADER_FEATURE records.
 *
 * Payload building blocks (feat_*) are exported for tests.
 */
#ifndef PCL_HEADER_FEATURES_H
#define PCL_HEADER_FEATURES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/events/evsel.h"
#include "util/strbuf.h"

/* Feature strings and build id file names are padded to this. */
#define PERF_NAME_ALIGN	64

struct perf_data_writer;
struct bpf_env;

/* A DSO samples hit, for the BUILD_ID feature. */
struct hit_dso {
	const char *filename;	/* "[kernel.kallsyms]", "[vdso]", a path, a module */
	bool kernel;
	uint8_t build_id[20];
	int build_id_size;	/* 0: none */
};

struct header_env {
	const struct evlist *evlist;
	const char *version;		/* written as the perf version */
	int argc;
	const char **argv;		/* the command line, argv[0] = command name */
	bool have_sample_time;		/* SAMPLE_TIME, zero times too (record: always) */
	uint64_t first_sample_time, last_sample_time;
	bool use_clockid;
	int clockid;
	bool compressed;
	uint32_t comp_level, comp_ratio, comp_mmap_len;
	uint64_t dir_format_version;	/* perf's directory format (record --threads); 0: a file */
	const struct hit_dso *dsos;
	size_t nr_dsos;
	const char *tracefs;		/* NULL: find it */
	const struct bpf_env *bpf;	/* the BPF programs and BTF seen; NULL: none */
};

/* Sets every feature perf record writes that applies to env on w.
 * Returns 0 or -errno (only for the tracing data, which a reader needs). */
int header_features__write(struct perf_data_writer *w, const struct header_env *env);

/* "AuthenticAMD,25,17,1": vendor, family, model and stepping joined by sep
 * (perf's CPUID feature); with '-' the key of perf's event tables, whose
 * model and stepping are hex: "AuthenticAMD-25-11-1".  NULL if unknown. */
char *cpuinfo_cpuid(char sep);

/* Payload helpers: u32/u64 in host order; strings as u32 len (aligned to
 * 64) then the NUL-padded text. */
void feat_u32(struct strbuf *sb, uint32_t v);
void feat_u64(struct strbuf *sb, uint64_t v);
void feat_string(struct strbuf *sb, const char *s);

/* Individual payloads (exported for unit tests). */
void feat_build_cmdline(struct strbuf *sb, int argc, const char **argv);
void feat_build_event_desc(struct strbuf *sb, const struct evlist *evlist);
int feat_build_group_desc(struct strbuf *sb, const struct evlist *evlist);
void feat_build_build_ids(struct strbuf *sb, const struct hit_dso *dsos, size_t nr);
/* The vdso entries of a BUILD_ID feature's payload, as they are: what perf
 * inject writes of its input's table when it marks no DSO hit (the vdso is
 * always written). */
void feat_keep_vdso_build_ids(struct strbuf *sb, const void *feat, size_t size);
bool build_id_is_vdso(const char *name);
/* Number of ids an opened event has (one per cpu x thread fd). */
size_t evsel__nr_ids(const struct evsel *evsel);

#endif
