/* Small helpers shared by every layer. */
#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static void *oom(size_t n)
{
	fprintf(stderr, "pcl: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	return p ? p : oom(n);
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);
	return p ? p : oom(n * sz);
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	return q ? q : oom(n);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	return p ? p : oom(strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	return p ? p : oom(n);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom(strlen(fmt));
	va_end(ap);
	return s;
}

int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *row = xcalloc(lb + 1, sizeof(int)), d;

	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

char *read_file_str(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, len = 0, n;
	struct stat st;
	char *buf;

	if (!f)
		return NULL;
	/* a regular file's size spares the doubling copies (a kallsyms copy
	 * is megabytes); /proc files say 0 and grow as they are read */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 2;
	buf = xmalloc(cap);
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len - 1 == 0)
			buf = xrealloc(buf, cap *= 2);
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static int transfer(int fd, char *p, size_t len, off_t off, bool out)
{
	while (len) {
		ssize_t n;

		if (out)
			n = off < 0 ? write(fd, p, len) : pwrite(fd, p, len, off);
		else
			n = off < 0 ? read(fd, p, len) : pread(fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return out ? -ENOSPC : -EIO;
		p += n;
		len -= (size_t)n;
		if (off >= 0)
			off += n;
	}
	return 0;
}

int read_full(int fd, void *buf, size_t len, off_t off)
{
	return transfer(fd, buf, len, off, false);
}

int write_full(int fd, const void *buf, size_t len, off_t off)
{
	return transfer(fd, (char *)buf, len, off, true);
}

char *strrtrim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

bool str_starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static struct {
	int argc;
	const char **argv;
} invocation;

/* A copy of the pointers: option parsing reorders the array it is given. */
void pcl_invocation__set(int argc, const char **argv)
{
	free(invocation.argv);
	invocation.argv = xcalloc((size_t)argc + 1, sizeof(*argv));
	memcpy(invocation.argv, argv, (size_t)argc * sizeof(*argv));
	invocation.argc = argc;
}

const char **pcl_invocation(int *argc)
{
	*argc = invocation.argc;
	return invocation.argv;
}

char *dl_load_symbols(const char *soname, const char *what, const char *const *names,
		      void **const *slots, size_t n, void **handle)
{
	if (*handle)
		return NULL;
	*handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!*handle)
		return xasprintf("cannot load %s: %s", what, dlerror());
	for (size_t i = 0; i < n; i++) {
		if (!(*slots[i] = dlsym(*handle, names[i]))) {
			dlclose(*handle);
			*handle = NULL;
			return xasprintf("%s lacks %s", soname, names[i]);
		}
	}
	return NULL;
}
