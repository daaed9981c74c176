/* tp-fields: a tracepoint sample's fields by name, for the analyses that
 * read them the way perf's scripts receive them (numbers sign-extended as
 * the format says, strings from __data_loc and fixed arrays). */
#ifndef PCL_TP_FIELDS_H
#define PCL_TP_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tep_event;
struct perf_sample;

/* The numeric field's value in *out; false when there is no such field. */
bool tp_field(struct tep_event *tp, const struct perf_sample *sample, const char *name,
	      int64_t *out);
/* ... or 0 when there is none. */
int64_t tp_value(struct tep_event *tp, const struct perf_sample *sample, const char *name);
/* A newly allocated copy of the string field, "" when there is none. */
char *tp_string(struct tep_event *tp, const struct perf_sample *sample, const char *name);

#endif
