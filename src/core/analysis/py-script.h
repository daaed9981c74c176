/* py-script: runs scripts written for perf's Python interface on the
 * samples of a perf.data file (pcl script -s FILE.py), and writes the
 * skeleton of such a script for a file's events (pcl script -g python).
 *
 * The script runs in an embedded CPython.  It gets perf's callbacks:
 * trace_begin() and trace_end(), one handler per tracepoint named
 * SYSTEM__EVENT with the common fields and the event's own fields as
 * arguments (perf_sample_dict last when the handler takes one more),
 * trace_unhandled() for tracepoints without a handler and
 * process_event(param_dict) for the other samples.  The modules those
 * scripts import (perf_trace_context, Core, Util) are built in. */
#ifndef PCL_PY_SCRIPT_H
#define PCL_PY_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct addr_location;
struct evsel;
struct perf_event_header;
struct perf_sample;
struct perf_session;
struct tep_event;
struct tep_format_field;

struct py_script;

/* The name of sample register number idx (perf's "AX", "R15", ...). */
typedef const char *(*py_reg_name_fn)(int idx);

/* Starts the interpreter with sys.argv = { path, args... } and runs the
 * script's top level: NULL (the error printed) when it cannot.  reg_name
 * names the registers in the samples' iregs/uregs texts. */
struct py_script *py_script__start(const char *path, int argc, const char **argv,
				   py_reg_name_fn reg_name);
/* trace_begin() / trace_end(), when the script has them: 0 or -1. */
int py_script__begin(struct py_script *ps);
int py_script__end(struct py_script *ps);
/* Hands one sample (al resolved from its ip) to its handler, with at
 * most max_stack frames of its call chain: 0, or -1 when the handler
 * raised (the traceback printed: processing stops). */
int py_script__sample(struct py_script *ps, struct perf_session *s, struct evsel *evsel,
		      const struct perf_sample *sample, struct addr_location *al,
		      int max_stack);
/* A PERF_RECORD_SWITCH(_CPU_WIDE) to the script's context_switch(), if
 * it has one: 0, or -1 when it raised. */
int py_script__switch(struct py_script *ps, const struct perf_event_header *rec,
		      const struct perf_sample *sample);
/* Ends the interpreter. */
void py_script__delete(struct py_script *ps);

/* The handler a tracepoint gets: "SYSTEM__EVENT" (caller frees). */
char *py_script__handler_name(const struct tep_event *tp);
/* How a field reaches the script: a string, a byte array or a number. */
enum py_field_kind { PY_FIELD_NUMBER, PY_FIELD_STRING, PY_FIELD_BYTES };
/* The kind of field f of a tracepoint's raw data; *off and *len say
 * where its bytes are (the array's for strings and byte arrays). */
enum py_field_kind py_script__field(const struct tep_format_field *f, const void *raw,
				    uint32_t raw_size, uint32_t *off, uint32_t *len);
/* A number field's value as perf hands it over: the field's bytes read
 * unsigned into *value (0 when the sample is torn before its end); true
 * when it is an 8-byte signed field, which the script gets as a signed
 * (maybe negative) number. */
bool py_script__number(const struct tep_format_field *f, const void *raw, uint32_t raw_size,
		       uint64_t *value);

/* Writes the skeleton script for the session's events to fp. */
void py_script__generate(FILE *fp, struct perf_session *s);

#endif
