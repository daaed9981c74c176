/* srcline-text: the source-line strings perf 6.1's report shows, on top of
 * dso__srcline() (in-process libdw, cached per address).
 *
 * perf asks addr2line; an answer of "??:0" counts as no answer, and then
 * perf shows "sym+offset" (decimal) or "dso[address]" instead.
 */
#ifndef PCL_SRCLINE_TEXT_H
#define PCL_SRCLINE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "core/machine.h"

/* "file.c:123" for a DSO-relative address, or NULL when unknown. */
const char *srcline_known(struct dso *dso, uint64_t addr);

/* "dso[address]", the address as perf handed it to addr2line. */
void srcline_unknown(char *buf, size_t size, struct dso *dso, uint64_t addr);

#endif
