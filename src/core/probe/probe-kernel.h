/* probe-kernel: kernel probe sites from kallsyms alone, as perf 6.1 places
 * them without a vmlinux: "_text+OFFSET" of each function symbol. */
#ifndef PCL_PROBE_KERNEL_H
#define PCL_PROBE_KERNEL_H

#include <stdint.h>

/* The offsets from _text of the text symbols named name in a kallsyms file
 * (path NULL: /proc/kallsyms), in the file's order.  Returns their count
 * and sets *offsets (caller frees), or -1 without _text. */
int probe_kallsyms__offsets(const char *path, const char *name, uint64_t **offsets);

#endif
