/* trace-data-write: the TRACING_DATA feature, which lets perf script and report
 * decode tracepoint samples: the ring buffer page/event headers and the
 * tracefs "format" of every recorded tracepoint, grouped by system.
 *
 *   "\x17\x08\x44tracing" "0.6\0" u8 big_endian u8 sizeof(long) u32 page_size
 *   "header_page\0" u64 size, text   "header_event\0" u64 size, text
 *   u32 nr ftrace formats, {u64 size, text}
 *   u32 nr systems, {name\0, u32 nr, {u64 size, format text}}
 *   u32 kallsyms size (0), u32 printk formats size + text,
 *   u64 saved cmdlines size + text
 */
#ifndef PCL_TRACE_DATA_WRITE_H
#define PCL_TRACE_DATA_WRITE_H

#include <stdbool.h>

#include "core/events/evsel.h"
#include "util/strbuf.h"

/* True when the evlist has a tracepoint event. */
bool trace_data__needed(const struct evlist *evlist);

/* Builds the payload for the evlist's tracepoints.  events_dir is tracefs's
 * "events" directory (NULL: look it up).  Returns 0 or -errno. */
int trace_data__build(struct strbuf *sb, const struct evlist *evlist, const char *events_dir);

#endif
