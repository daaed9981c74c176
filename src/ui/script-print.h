/* script-print: the text perf script prints for each record.
 *
 * Which fields appear is decided per event type (hardware, software,
 * tracepoint, ...), from perf's defaults, the -F list and what the
 * events' sample_type can provide (perf's rules: a default field the
 * samples cannot fill is dropped silently, an asked-for one is an error).
 */
#ifndef PCL_SCRIPT_PRINT_H
#define PCL_SCRIPT_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/symbols/machine.h"
#include "core/data/session.h"
#include "core/symbols/srccode.h"

enum script_field {
	SF_COMM = 1ULL << 0,
	SF_TID = 1ULL << 1,
	SF_PID = 1ULL << 2,
	SF_TIME = 1ULL << 3,
	SF_CPU = 1ULL << 4,
	SF_EVNAME = 1ULL << 5,
	SF_TRACE = 1ULL << 6,
	SF_IP = 1ULL << 7,
	SF_SYM = 1ULL << 8,
	SF_DSO = 1ULL << 9,
	SF_ADDR = 1ULL << 10,
	SF_SYMOFFSET = 1ULL << 11,
	SF_SRCLINE = 1ULL << 12,
	SF_PERIOD = 1ULL << 13,
	SF_IREGS = 1ULL << 14,
	SF_UREGS = 1ULL << 15,
	SF_BRSTACK = 1ULL << 16,
	SF_BRSTACKSYM = 1ULL << 17,
	SF_DATA_SRC = 1ULL << 18,
	SF_WEIGHT = 1ULL << 19,
	SF_BPF_OUTPUT = 1ULL << 20,
	SF_CALLINDENT = 1ULL << 21,
	SF_INSN = 1ULL << 22,
	SF_INSNLEN = 1ULL << 23,
	SF_BRSTACKINSN = 1ULL << 24,
	SF_BRSTACKOFF = 1ULL << 25,
	SF_SYNTH = 1ULL << 26,
	SF_PHYS_ADDR = 1ULL << 27,
	SF_METRIC = 1ULL << 28,
	SF_MISC = 1ULL << 29,
	SF_SRCCODE = 1ULL << 30,
	SF_IPC = 1ULL << 31,
	SF_TOD = 1ULL << 32,
	SF_DATA_PAGE_SIZE = 1ULL << 33,
	SF_CODE_PAGE_SIZE = 1ULL << 34,
	SF_INS_LAT = 1ULL << 35,
	SF_BRSTACKINSNLEN = 1ULL << 36,
	SF_MACHINE_PID = 1ULL << 37,
	SF_VCPU = 1ULL << 38,
};

/* perf's output types: the attr types, "synth", and "other" (dynamic PMUs) */
#define SCRIPT_TYPE_SYNTH	PERF_TYPE_MAX
#define SCRIPT_TYPE_OTHER	(PERF_TYPE_MAX + 1)
#define SCRIPT_NR_TYPES		(PERF_TYPE_MAX + 2)

/* what sample__fprintf_sym prints of an address */
enum {
	PRINT_IP = 1, PRINT_SYM = 2, PRINT_DSO = 4, PRINT_SYMOFFSET = 8, PRINT_SRCLINE = 16,
};

struct script_output {
	uint64_t fields;
	uint64_t invalid_fields;
	uint64_t user_set_fields, user_unset_fields;
	bool user_set, wildcard_set;
	unsigned print_ip_opts;
};

struct script_config {
	struct script_output output[SCRIPT_NR_TYPES];
	bool use_callchain;	/* false with -G, or when no event has callchains */
	int max_stack;		/* --max-stack */
	bool dump;		/* -D: thread/dso lines before each sample */
	int name_width;		/* widest event name, computed at the first sample */
	bool print_flags;	/* -F flags */
	bool nanosecs, reltime, deltatime;	/* --ns, --reltime, --deltatime */
	bool latency_format;		/* -L: narrow comm and bare CPU columns */
	uint64_t initial_time, previous_time;
	struct callchain_frame *frames;	/* scratch for resolved callchains */
	size_t nr_frames;
	struct machine *machine;	/* side events resolve kernel addresses here */
	const char *stop_bt;	/* --stop-bt: callchains end after these symbols */
	struct srccode *srccode;	/* -F srccode: source files and lines shown */
};

void script_config__init(struct script_config *c);
void script_config__exit(struct script_config *c);

/* -F/--fields: "f1,f2", "type:f1,f2", "+f", "-f".  Prints perf's
 * messages to stderr; returns -1 on a bad list. */
int script_config__parse_fields(struct script_config *c, const char *arg);

/* Validates the fields against the file's events (normal files, once).
 * Returns -1 with a message printed. */
int script_config__check(struct script_config *c, struct perf_session *s);
/* Same for one event announced by a pipe (HEADER_ATTR). */
int script_config__add_event(struct script_config *c, struct perf_session *s,
			     struct evsel *evsel);

/* CLOCK_DATA (perf record -k) ties sample times to the time of day. */
bool script_has_clock_data(const struct perf_session *s);

/* The output type of an attr type. */
int script_output_type(uint32_t attr_type);

/* Prints one sample. al is where sample->ip resolved (thread set). */
void script_print_sample(FILE *fp, struct script_config *c, struct perf_session *s,
			 struct machine *m, struct evsel *evsel, const struct perf_sample *sample,
			 const struct addr_location *al);

/* COMM/FORK/EXIT/MMAP lines of --show-task-events/--show-mmap-events:
 * the sample's leading fields (when evsel known), then PERF_RECORD_... */
void script_print_side_event(FILE *fp, struct script_config *c, struct perf_session *s,
			     struct evsel *evsel, const struct perf_event_header *rec,
			     const struct perf_sample *sample, struct thread *thread);

/* perf's "PERF_RECORD_COMM exec: sleep:42/42" text of a side record
 * (script-events.c; m resolves TEXT_POKE addresses, may be NULL). */
void script_print_record_line(FILE *fp, struct machine *m, const struct perf_event_header *rec);

/* --stop-bt "a,b": how many of the n frames perf prints (up to and
 * including the first whose symbol is listed). */
int script_stop_bt(const char *list, const struct callchain_frame *frames, int n);

/* --per-event-dump: one "<input>.<event>.dump" file per event, and
 * perf's "[ perf script: Wrote ... ]" line for each at the end. */
struct script_dump {
	FILE *fp;
	char *name;
	uint64_t samples;
};

struct script_dumps {
	struct script_dump *files;	/* by evsel->idx */
	int nr;
};

/* Creates evsel's file (once); -1 with perf's message when it cannot. */
int script_dumps__open(struct script_dumps *d, const struct perf_session *s,
		       const struct evsel *evsel);
/* The file for one more of evsel's samples (counted), or NULL. */
FILE *script_dumps__fp(struct script_dumps *d, const struct evsel *evsel);
/* Prints the "Wrote" lines to report (NULL: none) and closes the files. */
void script_dumps__close(struct script_dumps *d, FILE *report);

/* "(dso)" contents: the DSO's name, or "[unknown]". */
void script_print_dso_name(FILE *fp, const struct map *map);
/* "sym", "sym+0xoff" (offsets), or "[unknown]"; addr is DSO-relative. */
void script_print_symname(FILE *fp, const struct symbol *sym, const struct map *map,
			  uint64_t addr, bool offsets);

/* -F brstack, brstacksym or brstackoff (the first of them asked for):
 * the sample's branch stack (script-brstack.c). */
void script_print_brstack(FILE *fp, uint64_t fields, struct machine *m,
			  const struct perf_sample *sample, struct thread *thread);

/* -F brstackinsn(len): the instructions of the branch stack's blocks. */
void script_print_brstackinsn(FILE *fp, struct script_config *c, uint64_t fields,
			      struct machine *m, const struct perf_sample *sample,
			      struct thread *thread);
/* -F srccode: al's source line, unless the thread's last one was it. */
void script_print_srccode(FILE *fp, struct script_config *c, const struct addr_location *al);

#endif
