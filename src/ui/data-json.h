/* data-json: a perf.data file as perf data convert --to-json writes it. */
#ifndef PCL_DATA_JSON_H
#define PCL_DATA_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/data/session.h"

struct data_json_opts {
	bool tracepoint_fields;	/* add each tracepoint sample's fields (perf 6.1 omits them) */
};

/* Streams the session (which must have a machine) to out in perf 6.1's
 * layout: the header's facts, then one object per sample.  Returns 0, or
 * -1 with *err set (the caller frees it); *nr_samples counts the samples. */
int data_json_write(FILE *out, struct perf_session *s, const struct data_json_opts *o,
		    uint64_t *nr_samples, char **err);

#endif
