/* Small helpers shared by every layer: checked allocation and strings. */
#ifndef PCL_UTIL_H
#define PCL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Allocation that cannot fail: out of memory aborts with a message. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Levenshtein distance, for "did you mean" suggestions. */
int edit_distance(const char *a, const char *b);

/* Reads a whole small file (sysfs/procfs) into a NUL-terminated buffer; NULL on error. */
char *read_file_str(const char *path);

/* Reads or writes exactly len bytes at off (at the current position when
 * off < 0), going on after short transfers and EINTR.  0, or -errno; a read
 * that meets the end of the file gives -EIO, a write of nothing -ENOSPC. */
int read_full(int fd, void *buf, size_t len, off_t off);
int write_full(int fd, const void *buf, size_t len, off_t off);

/* Opens the shared library soname (once: *handle keeps it) and stores
 * the address of each of the n symbols names[i] in *slots[i] (POSIX's
 * way to fill a function pointer from dlsym).  NULL when all are there;
 * else a malloced message, "cannot load WHAT: ..." or "SONAME lacks
 * NAME", and nothing stays open.  For libraries only a few commands
 * use, opened when first needed rather than linked into every run. */
char *dl_load_symbols(const char *soname, const char *what, const char *const *names,
		      void **const *slots, size_t n, void **handle);

/* Trims trailing whitespace in place; returns s. */
char *strrtrim(char *s);

bool str_starts_with(const char *s, const char *prefix);

/* The command line pcl was started with, after the program's name, as
 * main() saw it: what a recording's header names even when a command such
 * as "sched record" records through another.  argc 0 until it is set. */
void pcl_invocation__set(int argc, const char **argv);
const char **pcl_invocation(int *argc);

#endif
