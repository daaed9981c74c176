/* srcline-text: the source-line strings perf 6.1's report shows, on top of
 * dso__srcline() (in-process libdw, cached per address).
 *
 * perf asks addr2line; no answer makes it show "sym+offset" (decimal) or
 * "dso[address]" instead, while a function found without a line is
 * "??:0", which each view treats in its own way.
 */
#ifndef PCL_SRCLINE_TEXT_H
#define PCL_SRCLINE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/symbols/machine.h"

struct strbuf;

/* "file.c:123" (or "??:0") for a DSO-relative address, NULL when unknown. */
const char *srcline_known(struct dso *dso, uint64_t addr);

/* Whether a srcline is "??:0": addr2line found a function but no line. */
bool srcline_lineless(const char *line);

/* Appends "dso[address]", the address as perf handed it to addr2line. */
void srcline_unknown(struct strbuf *sb, struct dso *dso, uint64_t addr);

#endif
