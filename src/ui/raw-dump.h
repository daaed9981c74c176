/* raw-dump: perf's -D/--dump-raw-trace view of a record: the offset, a hex
 * and ASCII dump, the timestamp, and the decoded "PERF_RECORD_*" line with
 * the type's details (samples: callchain, registers, stack, read values). */
#ifndef PCL_RAW_DUMP_H
#define PCL_RAW_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/symbols/machine.h"
#include "core/data/session.h"

/* A FINISHED_ROUND line is left open: perf ends it with what its round
 * handler prints ("\n" sorting, ": unhandled!\n" unsorted, or the
 * --show-round-events line). */
void raw_dump_record(FILE *fp, struct perf_session *s, struct machine *m,
		     const struct perf_event_header *rec,
		     const struct perf_sample *sample, struct evsel *evsel, uint64_t file_offset);

/* Only the dump's head, up to "PERF_RECORD_<TYPE>" (what perf prints
 * before a tool's stub says ": unhandled!"); false for a COMPRESSED
 * record, which is not dumped. */
bool raw_dump_record_head(FILE *fp, struct perf_session *s, const struct perf_event_header *rec,
			  const struct perf_sample *sample, uint64_t off);

/* How a command's handler for a record type ends that record's -D dump:
 * perf's tools leave the types they do not handle to stubs, which print
 * ": unhandled!" after the type's name (STUB) or, for types perf decodes
 * before handing them on, after the whole dump (STUB_AFTER_DETAILS). */
enum raw_dump_end {
	RAW_DUMP_HANDLED,
	RAW_DUMP_STUB,
	RAW_DUMP_STUB_AFTER_DETAILS,
};

/* The records perf's analyses (report, annotate, lock) decode under -D
 * and then leave to a stub: thread and CPU maps, throttling. */
bool raw_dump_left_to_stub(uint32_t type);

/* One record's dump ended as end says; a FINISHED_ROUND handled ends its
 * line as perf's sorting round handler does. */
void raw_dump_record_as(FILE *fp, struct perf_session *s, const struct perf_event_header *rec,
			const struct perf_sample *sample, struct evsel *evsel, uint64_t off,
			enum raw_dump_end end);

/* What follows "PERF_RECORD_<TYPE>" for a kernel record (perf's
 * perf_event__fprintf details; samples get their dump).  m (may be NULL)
 * names the kernel symbol a TEXT_POKE patches. */
void raw_dump_details(FILE *fp, struct machine *m, const struct perf_event_header *rec,
		      const struct perf_sample *sample, const struct evsel *evsel);

/* A perf_tool's stale_parent for -D: the line perf's FORK handling adds
 * under a FORK whose parent's tid held a thread of another pid. */
void raw_dump_stale_parent(struct perf_tool *tool, struct perf_session *s, int pid, int tid);

/* The two lines perf's sample resolution adds under a sample's dump:
 * its thread, and the path of the DSO its address is in. */
void raw_dump_sample_location(FILE *fp, const struct thread *thread,
			      const struct addr_location *al);

/* The counts of -D and --stats: one "NAME events: count" line per record
 * type (with_total: a TOTAL line first and each type's share of it),
 * types without records left out when skip_empty. */
void raw_dump_record_counts(FILE *fp, const uint64_t *counts, size_t n, uint64_t total,
			    bool with_total, bool skip_empty);

/* perf's x86 register names ("AX", "FLAGS", "R15", "XMM0"). */
const char *raw_dump_reg_name(int idx);

#endif
