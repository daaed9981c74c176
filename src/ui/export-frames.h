/* export-frames: what the profile exporters (pprof, speedscope) take of a
 * perf.data file: the event they export, each sample's resolved stack as
 * perf script shows it, and each frame's function and source line. */
#ifndef PCL_EXPORT_FRAMES_H
#define PCL_EXPORT_FRAMES_H

#include <stdint.h>

#include "core/data/session.h"

/* The stack of one sample, leaf first. */
struct export_stack {
	struct callchain_frame *frames;
	int nr, alloc;
	int max_stack;		/* perf script's default depth */
};

void export_stack__init(struct export_stack *st);
void export_stack__exit(struct export_stack *st);
/* Resolves sample's stack (its call chain with DWARF unwinding and inlined
 * frames as perf script prints them, or its ip alone) into st; returns
 * st->nr. */
int export_stack__resolve(struct export_stack *st, struct perf_session *s,
			  const struct evsel *evsel, const struct perf_sample *sample,
			  const struct addr_location *al);
/* How many frames from frames[i] on share one address: inlined functions
 * and the function they were inlined into (at least 1). */
int export_stack__address_run(const struct export_stack *st, int i);

/* Where a frame's code is, for viewers. */
struct frame_source {
	const char *name;	/* the function, "[unknown]" without a symbol */
	const char *file;	/* the function's source file, or NULL */
	unsigned start_line;	/* the line its code starts at, 0 if unknown */
	unsigned line;		/* the frame's line: the address's or the call site's */
};
/* Fills src for f; file points into buf (or the symbol engine's cache). */
void export_frame_source(const struct callchain_frame *f, struct frame_source *src,
			 char *buf, size_t size);

/* What an exporter reports of its run. */
struct export_summary {
	const struct evsel *evsel;	/* the exported event */
	uint64_t nr_samples;	/* of the exported event */
	uint64_t nr_skipped;	/* samples of other events, left out */
	const char *event;	/* the exported event's name */
};

/* Readies an export of s (which must have a machine) into *sum and st.
 * The event exported is the file's first (a profile has one unit); a
 * pipe's is known when its attrs have come, by its first sample. */
void export_begin(struct perf_session *s, struct export_summary *sum, struct export_stack *st);
/* Whether a sample of evsel is exported; counts it in *sum either way. */
bool export_takes(struct perf_session *s, struct export_summary *sum, const struct evsel *evsel);
/* After the samples: 0, or -1 with *err set (caller frees) when the file
 * has no event at all. */
int export_end(struct perf_session *s, struct export_summary *sum, char **err);
/* What a sample's period counts: "nanoseconds" for the clock events,
 * "count" for the others. */
const char *export_period_unit(const struct evsel *evsel);

#endif
