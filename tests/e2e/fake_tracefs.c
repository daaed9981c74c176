/* fake_tracefs: an LD_PRELOAD shim that points a program's tracefs files at a plain
 * directory, so that perf ftrace and pcl ftrace can run side by side on a kernel that
 * refuses function tracing, reading the same made-up trace_pipe.
 *
 * FAKE_TRACEFS=DIR: opens of /sys/kernel/tracing/NAME go to DIR/NAME.  Every write to such
 * a file is logged as "NAME<TAB>value" to DIR/.writes (value without its newline, "+" before
 * NAME when appended); writes to "trace" (the kernel clears the buffer) change nothing.
 * FAKE_TRACEFS_DENY=NAME:ERRNO[,NAME=VALUE:ERRNO...]: opening NAME fails with that errno
 * (a number), or with NAME=VALUE only writing VALUE does (as the kernel's EINVAL for an
 * unknown tracer).  A trace_pipe read to its end polls as the kernel's does when empty: not
 * readable, so poll() waits for its timeout or a signal (the workload's SIGCHLD).
 *
 * Built by tests/e2e/test_ftrace.py: cc -shared -fPIC -o fake_tracefs.so fake_tracefs.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing/"
#define MAX_FDS 4096

static char *fd_names[MAX_FDS];
static int fd_append[MAX_FDS];
static int fd_pipe[MAX_FDS];	/* a trace_pipe opened for reading */

/* The NAME of a tracefs path (slashes collapsed), or NULL. */
static const char *tracefs_name(const char *path, char *buf, size_t size)
{
	size_t n = 0;

	for (const char *p = path; *p && n + 1 < size; p++)
		if (!(*p == '/' && n && buf[n - 1] == '/'))
			buf[n++] = *p;
	buf[n] = '\0';
	if (strncmp(buf, TRACEFS, strlen(TRACEFS)) || !getenv("FAKE_TRACEFS"))
		return NULL;
	return buf + strlen(TRACEFS);
}

/* The errno FAKE_TRACEFS_DENY gives NAME (value NULL: at open), or 0. */
static int denied(const char *name, const char *value)
{
	const char *deny = getenv("FAKE_TRACEFS_DENY");
	char rule[256];

	while (deny && *deny) {
		size_t len = strcspn(deny, ",");
		char *colon, *eq;

		snprintf(rule, sizeof(rule), "%.*s", (int)len, deny);
		deny += len + (deny[len] == ',');
		colon = strrchr(rule, ':');
		if (!colon)
			continue;
		*colon = '\0';
		eq = strchr(rule, '=');
		if (eq)
			*eq = '\0';
		if (strcmp(rule, name))
			continue;
		if (!eq && !value)
			return atoi(colon + 1);
		if (eq && value && !strcmp(eq + 1, value))
			return atoi(colon + 1);
	}
	return 0;
}

static int redirect(const char *path, char *out, size_t size, const char **name)
{
	static char buf[4096];

	*name = tracefs_name(path, buf, sizeof(buf));
	if (!*name)
		return 0;
	snprintf(out, size, "%s/%s", getenv("FAKE_TRACEFS"), *name);
	return 1;
}

static int (*real_openat_fn(void))(int, const char *, int, ...)
{
	static int (*fn)(int, const char *, int, ...);

	if (!fn)
		fn = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	return fn;
}

static int fake_open(int dirfd, const char *path, int flags, mode_t mode)
{
	char target[4096];
	const char *name;
	int fd, err;

	if (!redirect(path, target, sizeof(target), &name))
		return real_openat_fn()(dirfd, path, flags, mode);
	err = denied(name, NULL);
	if (err) {
		errno = err;
		return -1;
	}
	if ((flags & O_ACCMODE) != O_RDONLY && !strcmp(name, "trace"))
		fd = real_openat_fn()(AT_FDCWD, "/dev/null", O_WRONLY, 0);
	else
		fd = real_openat_fn()(AT_FDCWD, target, flags, mode);
	if (fd >= 0 && fd < MAX_FDS) {
		free(fd_names[fd]);
		fd_names[fd] = (flags & O_ACCMODE) != O_RDONLY ? strdup(name) : NULL;
		fd_append[fd] = !!(flags & O_APPEND);
		fd_pipe[fd] = !strcmp(name, "trace_pipe") && (flags & O_ACCMODE) == O_RDONLY;
	}
	return fd;
}

#define MODE_ARG(flags) \
	mode_t mode = 0; \
	if ((flags) & O_CREAT) { \
		va_list ap; \
		va_start(ap, flags); \
		mode = va_arg(ap, mode_t); \
		va_end(ap); \
	}

int open(const char *path, int flags, ...)
{
	MODE_ARG(flags);
	return fake_open(AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	MODE_ARG(flags);
	return fake_open(AT_FDCWD, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	MODE_ARG(flags);
	return fake_open(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	MODE_ARG(flags);
	return fake_open(dirfd, path, flags, mode);
}

static FILE *fake_fopen(const char *path, const char *how, const char *real_name)
{
	FILE *(*real)(const char *, const char *) =
		(FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, real_name);
	char target[4096];
	const char *name;
	int err;

	if (!redirect(path, target, sizeof(target), &name))
		return real(path, how);
	err = denied(name, NULL);
	if (err) {
		errno = err;
		return NULL;
	}
	return real(target, how);
}

FILE *fopen(const char *path, const char *how)
{
	return fake_fopen(path, how, "fopen");
}

FILE *fopen64(const char *path, const char *how)
{
	return fake_fopen(path, how, "fopen64");
}

ssize_t write(int fd, const void *data, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);
	const char *name = fd >= 0 && fd < MAX_FDS ? fd_names[fd] : NULL;

	if (!real)
		real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (name) {
		char value[4096], log[4200];
		size_t n = len < sizeof(value) - 1 ? len : sizeof(value) - 1;
		int err, logfd;

		memcpy(value, data, n);
		while (n && value[n - 1] == '\n')
			n--;
		value[n] = '\0';
		snprintf(log, sizeof(log), "%s/.writes", getenv("FAKE_TRACEFS"));
		logfd = real_openat_fn()(AT_FDCWD, log, O_WRONLY | O_APPEND | O_CREAT, 0644);
		if (logfd >= 0) {
			int m = snprintf(log, sizeof(log), "%s%s\t%s\n", fd_append[fd] ? "+" : "",
					 name, value);
			real(logfd, log, (size_t)m);
			close(logfd);
		}
		err = denied(name, value);
		if (err) {
			errno = err;
			return -1;
		}
	}
	return real(fd, data, len);
}

static int at_end(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && lseek(fd, 0, SEEK_CUR) >= st.st_size;
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	static int (*real)(struct pollfd *, nfds_t, int);
	struct pollfd copy[64];
	int ret;

	if (!real)
		real = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
	if (nfds > 64)
		return real(fds, nfds, timeout);
	for (nfds_t i = 0; i < nfds; i++) {
		copy[i] = fds[i];
		if (fds[i].fd >= 0 && fds[i].fd < MAX_FDS && fd_pipe[fds[i].fd] &&
		    at_end(fds[i].fd))
			copy[i].fd = -1;
	}
	ret = real(copy, nfds, timeout);
	for (nfds_t i = 0; i < nfds; i++)
		fds[i].revents = copy[i].revents;
	return ret;
}

int close(int fd)
{
	static int (*real)(int);

	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "close");
	if (fd >= 0 && fd < MAX_FDS) {
		free(fd_names[fd]);
		fd_names[fd] = NULL;
		fd_pipe[fd] = 0;
	}
	return real(fd);
}
