/* buildid-cache: adding DSOs to the build-id cache (see buildid-cache.h). */
#include "core/symbols/buildid-cache.h"
#include "core/symbols/buildid.h"
#include "util/perfconfig.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *build_id_cache__dir(void)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");

	if (dir && *dir)
		return xstrdup(dir);
	/* perf takes buildid.dir as written (no ~ expansion) */
	dir = perfconfig__default("buildid.dir");
	if (dir && *dir)
		return xstrdup(dir);
	return xasprintf("%s/.debug", home && *home ? home : "");
}

/* mkdir -p */
static int mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int err = 0;

	for (char *s = p + 1; *s && !err; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0755) && errno != EEXIST)
			err = -errno;
		*s = '/';
	}
	if (!err && mkdir(p, 0755) && errno != EEXIST)
		err = -errno;
	free(p);
	return err;
}

static int write_file(const char *path, const void *buf, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	int err;

	if (fd < 0)
		return -errno;
	err = write_full(fd, buf, len, -1);
	if (close(fd) && !err)
		err = -errno;
	if (err)
		unlink(path);
	return err;
}

/* Copies src (which may be a procfs file of unknown size) to dst. */
static int copy_file(const char *src, const char *dst, mode_t mode)
{
	int in = open(src, O_RDONLY | O_CLOEXEC);
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int err;

	if (in < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (len == cap)
			buf = xrealloc(buf, cap = cap ? cap * 2 : 1 << 20);
		n = read(in, buf + len, cap - len);
		if (n < 0) {
			err = -errno;
			close(in);
			free(buf);
			return err;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(in);
	err = write_file(dst, buf, len, mode);
	free(buf);
	return err;
}

/* Hard link when on the same file system (as perf does), else a copy. */
static int link_or_copy(const char *src, const char *dst)
{
	struct stat st;

	if (link(src, dst) == 0 || errno == EEXIST)
		return 0;
	if (stat(src, &st))
		return -errno;
	return copy_file(src, dst, st.st_mode & 0777);
}

static int vdso_image(const char *dst)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (err == -ENOENT && fgets(line, sizeof(line), f)) {
		unsigned long long start, end;

		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &start, &end) == 2)
			err = write_file(dst, (const void *)(uintptr_t)start, (size_t)(end - start),
					 0600);
	}
	fclose(f);
	return err;
}

int build_id_cache__add(const char *dir, const char *name, const uint8_t *id, int size)
{
	return build_id_cache__add_from(dir, name, name, id, size);
}

int build_id_cache__add_from(const char *dir, const char *name, const char *source,
			     const uint8_t *id, int size)
{
	char hex[41], *entry, *link_dir, *link_path, *target, *file;
	bool kernel = !strcmp(name, "[kernel.kallsyms]"), vdso = !strcmp(name, "[vdso]");
	int err;

	/* Only files have something to keep ("//anon" is anonymous memory). */
	if (size <= 0 || (!kernel && !vdso && (name[0] != '/' || name[1] == '/')))
		return -EINVAL;
	build_id__hex(id, size, hex);
	entry = xasprintf("%s%s%s/%s", dir, name[0] == '/' ? "" : "/", name, hex);
	link_dir = xasprintf("%s/.build-id/%.2s", dir, hex);
	link_path = xasprintf("%s/%s", link_dir, hex + 2);
	if (!access(link_path, F_OK)) {
		err = 0;	/* cached before */
		goto out;
	}
	err = mkdir_p(entry);
	if (err)
		goto out;
	if (kernel) {
		file = xasprintf("%s/kallsyms", entry);
		err = copy_file("/proc/kallsyms", file, 0644);
	} else if (vdso) {
		file = xasprintf("%s/vdso", entry);
		err = vdso_image(file);
	} else {
		char *debug = xasprintf("/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		char *dst = xasprintf("%s/debug", entry);

		file = xasprintf("%s/elf", entry);
		err = link_or_copy(source, file);
		if (!err && !access(debug, R_OK))
			link_or_copy(debug, dst);	/* debug info is a bonus */
		free(debug);
		free(dst);
	}
	free(file);
	if (err)
		rmdir(entry);	/* no half entries */
	if (!err)
		err = mkdir_p(link_dir);
	if (!err) {
		/* .build-id/xx/ sits two levels below the cache's root */
		target = xasprintf("../..%s%s/%s", name[0] == '/' ? "" : "/", name, hex);
		if (symlink(target, link_path) && errno != EEXIST)
			err = -errno;
		free(target);
	}
out:
	free(entry);
	free(link_dir);
	free(link_path);
	return err;
}

char *build_id_cache__entry(const char *dir, const char *name, const uint8_t *id, int size)
{
	char hex[41];

	build_id__hex(id, size, hex);
	return xasprintf("%s%s%s/%s", dir, name[0] == '/' ? "" : "/", name, hex);
}

int build_id_cache__remove(const char *dir, const char *name, const uint8_t *id, int size)
{
	static const char *const files[] = { "elf", "debug", "probes", "kallsyms", "vdso" };
	char hex[41], *entry = build_id_cache__entry(dir, name, id, size), *link_path;
	int err = 0;

	build_id__hex(id, size, hex);
	link_path = xasprintf("%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	if (unlink(link_path))
		err = -ENOENT;
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		char *file = xasprintf("%s/%s", entry, files[i]);

		unlink(file);
		free(file);
	}
	if (rmdir(entry) && !err)
		err = -errno;
	free(entry);
	free(link_path);
	return err;
}
