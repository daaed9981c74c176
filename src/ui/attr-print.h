/* attr-print: perf_event_attr as perf prints it (evlist -v, header "event :"
 * lines): non-zero fields in a fixed order, flags by name. */
#ifndef PCL_ATTR_PRINT_H
#define PCL_ATTR_PRINT_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>

/* Called once per printed field with its name and formatted value. */
typedef void (*attr_field_fn)(FILE *fp, const char *name, const char *value, void *priv);

void attr_print(FILE *fp, const struct perf_event_attr *attr, attr_field_fn fn, void *priv);

/* "IP|TID|TIME" style names of sample_type bits. */
void attr_sample_type_str(char *buf, size_t size, uint64_t sample_type);

#endif
