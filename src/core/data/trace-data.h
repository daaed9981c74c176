/* trace-data: the tracing data perf stores with tracepoint recordings (the
 * TRACING_DATA feature, or a HEADER_TRACING_DATA record in a pipe): the
 * ftrace header formats, every recorded event's format file, kallsyms,
 * printk formats and saved cmdlines.  Loading it into a libtraceevent
 * handle lets tracepoint payloads be printed with their print formats.
 */
#ifndef PCL_TRACE_DATA_H
#define PCL_TRACE_DATA_H

#include <stddef.h>

struct tep_handle;

/* Parses buf into a new tep handle.  Returns NULL with *err set (static
 * string, with *err_off the offset in buf) on a malformed blob. */
struct tep_handle *trace_data__parse(const void *buf, size_t size, const char **err,
				     size_t *err_off);

#endif
