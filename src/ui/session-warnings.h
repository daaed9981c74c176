/* session-warnings: perf's end-of-run warnings of the commands that read
 * perf.data (script, report): lost chunks and samples, unknown records,
 * samples of no known event, undecodable and out-of-order records; and
 * its words about the kernel's maps and /proc reading (report, trace,
 * kallsyms, record). */
#ifndef PCL_SESSION_WARNINGS_H
#define PCL_SESSION_WARNINGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/data/session.h"

/* Prints to fp the warnings perf prints for st; lost_shown: the LOST
 * records were printed as they came (script --show-lost-events), so the
 * lost-chunks warning is not repeated. */
void session_warnings__print(FILE *fp, const struct session_stats *st, bool lost_shown);

/* perf's warning, on stderr, for a process whose /proc maps took longer
 * than --proc-map-timeout to read (record's and trace's synthesis). */
void session_warnings__map_timeout(pid_t pid, pid_t tid);

/* perf report's warning, on stderr, for a kernel its addresses could not
 * place (machine__kernel_unplaced()). */
void session_warnings__kernel_unplaced(bool has_symbols);

/* perf's words, on stderr, for a perf.data it cannot open (err: the
 * session's "PATH: reason"), with its hint where a missing file is
 * named "perf.data". */
void session_warnings__open_failed(const char *path, const char *err);

/* perf's -v note, on stderr, for each symbol of /proc/kallsyms in a module
 * it has no map for (with no /proc/modules, any; ftrace's trampolines and
 * BPF programs are listed under modules never loaded), in address order:
 * trace, kallsyms, probe.  Symbols at the nr_skip addresses of skip (pcl's
 * own BPF programs, which perf would not have loaded) are passed over. */
void session_warnings__kallsyms_modules(const uint64_t *skip, size_t nr_skip);

/* perf's -v notes, on stderr, as it looks for the kernel's image on its
 * vmlinux path and finds none: the seven places and the build-id cache,
 * whose kallsyms copy for the kernel of build id (size 0: none known) it
 * tries as an ELF file (trace, probe). */
void session_warnings__vmlinux_path(const uint8_t *build_id, int size);

#endif
