/* tp-fields: fields through libtraceevent's view of the format. */
#include <string.h>

#include <traceevent/event-parse.h>

#include "core/analysis/tp-fields.h"
#include "core/data/perf-record.h"
#include "util/util.h"

bool tp_field(struct tep_event *tp, const struct perf_sample *sample, const char *name,
	      int64_t *out)
{
	struct tep_format_field *f = tep_find_any_field(tp, name);
	unsigned long long v;

	if (!f || (size_t)f->offset + (size_t)f->size > sample->raw_size ||
	    tep_read_number_field(f, sample->raw_data, &v))
		return false;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		unsigned shift = 64 - 8 * (unsigned)f->size;

		*out = (int64_t)(v << shift) >> shift;
	} else {
		*out = (int64_t)v;
	}
	return true;
}

int64_t tp_value(struct tep_event *tp, const struct perf_sample *sample, const char *name)
{
	int64_t v = 0;

	tp_field(tp, sample, name, &v);
	return v;
}

char *tp_string(struct tep_event *tp, const struct perf_sample *sample, const char *name)
{
	struct tep_format_field *f = tep_find_any_field(tp, name);
	struct tep_record record = { .data = (void *)sample->raw_data,
				     .size = (int)sample->raw_size };
	const char *s;
	int len = 0;

	if (!f)
		return xstrdup("");
	s = tep_get_field_raw(NULL, tp, name, &record, &len, 0);
	if (!s || len <= 0)
		return xstrdup("");
	return xstrndup(s, strnlen(s, (size_t)len));
}

void *tp_event_slot(void *entries, int *nr, int idx, size_t size)
{
	char *array;

	/* entries is the address of a pointer of the caller's type: its
	 * value copied in and out, not accessed through a void ** */
	memcpy(&array, entries, sizeof(array));
	if (idx >= *nr) {
		int n = idx + 8;

		array = xrealloc(array, (size_t)n * size);
		memset(array + (size_t)*nr * size, 0, (size_t)(n - *nr) * size);
		*nr = n;
		memcpy(entries, &array, sizeof(array));
	}
	return array + (size_t)idx * size;
}
