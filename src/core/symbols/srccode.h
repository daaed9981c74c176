/* srccode: the text of source lines, for perf script's srccode field.
 *
 * Source files are read once and kept; a file that cannot be read is
 * remembered as such.  The cache also keeps, per key (a thread), the last
 * line shown, since perf prints a line only when it changed.
 */
#ifndef PCL_SRCCODE_H
#define PCL_SRCCODE_H

#include <stdbool.h>

#include "util/hashmap.h"
#include "util/strset.h"

struct srccode {
	struct strset paths;	/* interned paths: keys of files and shown */
	struct hashmap files;	/* path -> struct srccode_file* */
	struct hashmap shown;	/* key -> struct srccode_pos*: the last line shown */
};

/* Line number line (from 1) of the file at path, without its newline, and
 * its length in *len; NULL when the file or the line does not exist. */
const char *srccode__line(struct srccode *sc, const char *path, unsigned line, int *len);

/* Whether (path, line) is what was last shown for key. */
bool srccode__is_last(struct srccode *sc, const void *key, const char *path, unsigned line);
/* Remembers (path, line) as the last line shown for key. */
void srccode__set_last(struct srccode *sc, const void *key, const char *path, unsigned line);

void srccode__release(struct srccode *sc);

#endif
