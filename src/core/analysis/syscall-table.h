/* syscall-table: system call numbers and names of this machine's
 * architecture, and errno names, for analyses that print what the raw
 * syscall tracepoints only number. */
#ifndef PCL_SYSCALL_TABLE_H
#define PCL_SYSCALL_TABLE_H

/* "read" for 0 on x86_64, or NULL when nr names no system call. */
const char *syscall_table__name(long nr);

/* The number of the named system call, or -1. */
long syscall_table__nr(const char *name);

/* "ENOENT" for ENOENT (either sign), or NULL when err is no known errno. */
const char *errno_table__name(long err);

#endif
