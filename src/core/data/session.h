/* session: reads a perf.data (file or pipe) and delivers its records.
 *
 * The one way in for every command that reads perf.data.  The session
 * decodes the header and events, streams the data section (bounded
 * buffers, never the whole file), inflates PERF_RECORD_COMPRESSED,
 * byte-swaps foreign-endian files, routes records to their event by sample
 * id, puts kernel records back in time order (ordered-events), and hands
 * each record with its decoded sample to the tool's callback.
 *
 * Tool records (HEADER_ATTR, FEATURE, ID_INDEX, FINISHED_ROUND, ...) are
 * consumed by the session first, then shown to the callback too (for -D).
 */
#ifndef PCL_SESSION_H
#define PCL_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/events/evsel.h"
#include "core/data/ordered-events.h"
#include "core/data/perf-data.h"
#include "core/data/perf-record.h"
#include "util/hashmap.h"

struct perf_session;
struct machine;
struct tep_handle;
struct tep_event;

struct perf_tool {
	/*
	 * Called for every record in delivery order.  sample is decoded for
	 * SAMPLE records and holds the sample_id_all trailer of others (or
	 * defaults); evsel is the record's event when known, else NULL.
	 * A non-zero return stops processing and is returned by
	 * perf_session__process().
	 */
	int (*record)(struct perf_tool *tool, struct perf_session *session,
		      const struct perf_event_header *rec, struct perf_sample *sample,
		      struct evsel *evsel, uint64_t file_offset);
	/* A pipe's HEADER_ATTR added evsel (after the record was delivered,
	 * so that a dump still sees the events before it).  Optional. */
	int (*attr)(struct perf_tool *tool, struct perf_session *session, struct evsel *evsel);
	bool ordered;		/* deliver kernel records in time order */
};

/* Per-event data the session keeps beside struct evsel (by evsel->idx). */
struct session_event {
	size_t id_hdr_size;
	struct tep_event *tp_format;		/* tracepoints, when tracing data exists */
};

struct session_stats {
	uint64_t nr_events;		/* every record read, of any type */
	uint64_t nr_records[PERF_RECORD_HEADER_MAX];
	uint64_t nr_unknown;		/* records of unknown type, skipped */
	uint64_t nr_unknown_id;		/* samples whose id matches no event */
	uint64_t total_lost_samples;	/* summed from LOST_SAMPLES records */
	uint64_t nr_unordered;
	uint64_t nr_bad_samples;
};

struct perf_session {
	char *path;		/* as given; "-" for stdin */
	const char *label;	/* what -D prints after '@': the path, or "pipe" */
	int fd;
	bool is_pipe;
	uint64_t file_size;
	struct perf_header header;
	struct evlist evlist;
	struct session_event *events;	/* [evlist.nr_entries] */
	struct session_stats stats;
	struct perf_tool *tool;
	struct ordered_events oe;
	struct tep_handle *tep;	/* from the tracing data, or NULL */
	bool truncated;		/* stopped at a torn record / killed recording */
	uint64_t data_offset, data_end;

	/* id -> evsel hash */
	struct hashmap id_hash;		/* sample id -> struct evsel * */
	int id_pos, is_pos;	/* -1 when samples carry no id */

	void *zstd;		/* ZSTD_DStream for COMPRESSED records */
	uint8_t *decomp;	/* inflated bytes not yet processed */
	size_t decomp_len, decomp_alloc;

	char *err;		/* set when a call fails */
	FILE *warn;		/* warnings go here (stderr) */
};

/*
 * Opens path ("-" or a pipe/FIFO means pipe mode, as does a file starting
 * with the pipe header) and reads the header.  Returns NULL and prints
 * nothing on failure; *err receives "path: reason" (caller frees).
 */
struct perf_session *perf_session__open(const char *path, char **err);
void perf_session__delete(struct perf_session *s);

/* Streams all records to tool.  Returns 0, a tool's non-zero return, or
 * -1 with s->err set (a malformed file: the message names the offset). */
int perf_session__process(struct perf_session *s, struct perf_tool *tool);

/* The event a sample id belongs to (single-event files need no id). */
struct evsel *perf_session__evsel_by_id(struct perf_session *s, uint64_t id);
struct session_event *perf_session__event(struct perf_session *s, const struct evsel *evsel);

/* Feeds a COMM/FORK/EXIT/MMAP/MMAP2/HEADER_BUILD_ID record into the
 * address-space model (others are ignored). */
void perf_session__feed_machine(struct machine *m, const struct perf_event_header *rec);
/* Tells the machine the build ids of the header's table. */
void perf_session__machine_build_ids(struct perf_session *s, struct machine *m);
/* A machine for the file's samples: the --kallsyms/--symfs overrides
 * (NULL: none) and -f applied, the header's build ids known. */
struct machine *perf_session__new_machine(struct perf_session *s, const char *kallsyms,
					  const char *symfs, bool force);

/* perf's name for an attr when the file names none ("cpu-clock", "sched:sched_switch"). */
char *perf_session__attr_name(struct perf_session *s, const struct perf_event_attr *attr);

#endif
