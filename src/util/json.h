/* json: writing JSON strings (RFC 8259 escapes). */
#ifndef PCL_JSON_H
#define PCL_JSON_H

#include <stdio.h>

/* Writes s as a quoted JSON string: quote, backslash and the control
 * characters escaped (\b \f \n \r \t by name, the others as \u00XX);
 * other bytes, UTF-8 included, go out as they are.  NULL writes "". */
void json_write_string(FILE *out, const char *s);

#endif
