/* tp-fields: a tracepoint sample's fields by name, for the analyses that
 * read them the way perf's scripts receive them (numbers sign-extended as
 * the format says, strings from __data_loc and fixed arrays). */
#ifndef PCL_TP_FIELDS_H
#define PCL_TP_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "core/data/perf-record.h"

struct tep_event;
struct perf_sample;

/* The numeric field's value in *out; false when there is no such field. */
bool tp_field(struct tep_event *tp, const struct perf_sample *sample, const char *name,
	      int64_t *out);
/* ... or 0 when there is none. */
int64_t tp_value(struct tep_event *tp, const struct perf_sample *sample, const char *name);
/* A newly allocated copy of the string field, "" when there is none. */
char *tp_string(struct tep_event *tp, const struct perf_sample *sample, const char *name);

/* The idx-th entry (of size bytes) of a per-event array *entries of *nr,
 * grown with zeroed entries to hold it: where the analyses cache what each
 * event is to them, by evsel->idx. */
void *tp_event_slot(void *entries, int *nr, int idx, size_t size);

/* A number of size bytes at p in our byte order (0 for odd sizes): what
 * tep_read_number_field() does for a file of our byte order, without the
 * call; for the analyses that read millions of samples. */
static inline uint64_t tp_load_number(const void *p, unsigned size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	case 8:
		memcpy(&u64, p, 8);
		return u64;
	default:
		return 0;
	}
}

/* The numeric field f (looked up once by the caller) of the sample,
 * unsigned as libtraceevent reads it; 0 when f is NULL or the sample is
 * too short for it.  swap: the file's byte order is not ours. */
static inline uint64_t tp_read_number(const struct tep_format_field *f,
				      const struct perf_sample *sample, bool swap)
{
	unsigned long long v = 0;

	if (!f || !sample->raw_data || (size_t)f->offset + (size_t)f->size > sample->raw_size)
		return 0;
	if (!swap)
		return tp_load_number((const char *)sample->raw_data + f->offset,
				      (unsigned)f->size);
	tep_read_number_field((struct tep_format_field *)f, sample->raw_data, &v);
	return v;
}

/* Whether the recording's tracepoint data is in another byte order than ours. */
static inline bool tp_swapped(struct tep_handle *tep)
{
	return tep && tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
}

#endif
