/* pcl buildid-cache: add files to the build-id cache perf and pcl share
 * (~/.debug or $PERF_BUILDID_DIR), with the SDT markers of each in a
 * "probes" file next to it, remove them, list the cache. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "core/symbols/buildid-cache.h"
#include "core/symbols/buildid.h"
#include "core/symbols/sdt-notes.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

static const char *const buildid_cache_usage[] = { "pcl buildid-cache [<options>]", NULL };

struct files {
	const char **names;
	int nr;
};

static int opt_file(const struct option *opt, const char *arg, bool unset)
{
	struct files *f = opt->value;

	f->names = xrealloc(f->names, (f->nr + 1) * sizeof(*f->names));
	f->names[f->nr++] = arg;
	return 0;
}

static int write_probes(const char *entry, const char *text)
{
	char *path = xasprintf("%s/probes", entry);
	FILE *f = fopen(path, "w");
	int err = 0;

	free(path);
	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static void add_file(const char *dir, const char *file, bool verbose)
{
	char real[PATH_MAX], hex[41];
	uint8_t id[20];
	int size, err;

	if (!realpath(file, real)) {
		fprintf(stderr, "Couldn't add %s: %s\n", file, strerror(errno));
		return;
	}
	size = elf_file__read_build_id(real, id, sizeof(id));
	if (size <= 0) {
		fprintf(stderr, "Couldn't add %s: %s\n", file, strerror(ENOENT));
		return;
	}
	build_id__hex(id, size, hex);
	err = build_id_cache__add(dir, real, id, size);
	if (!err) {
		/* the SDT markers go next to the binary, as perf keeps them */
		char *text = sdt_notes__probes_text(real);
		char *entry = build_id_cache__entry(dir, real, id, size);

		if (text)
			err = write_probes(entry, text);
		free(text);
		free(entry);
	}
	if (verbose || err)
		fprintf(stderr, "Adding %s %s: %s\n", hex, file, err ? "FAIL" : "Ok");
	if (err)
		fprintf(stderr, "Couldn't add %s: %s\n", file, strerror(-err));
}

static void remove_file(const char *dir, const char *file, bool verbose)
{
	char real[PATH_MAX], hex[41];
	uint8_t id[20];
	int size, err;

	if (!realpath(file, real) || (size = elf_file__read_build_id(real, id, sizeof(id))) <= 0) {
		fprintf(stderr, "Couldn't remove %s: %s\n", file, strerror(ENOENT));
		return;
	}
	build_id__hex(id, size, hex);
	err = build_id_cache__remove(dir, real, id, size);
	if (verbose || err)
		fprintf(stderr, "Removing %s %s: %s\n", hex, file, err ? "FAIL" : "Ok");
	if (err)
		fprintf(stderr, "%s wasn't in the cache\n", file);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "BUILD_ID PATH" for each .build-id link, sorted. */
static void list_cache(const char *dir)
{
	char *ids = xasprintf("%s/.build-id", dir);
	DIR *top = opendir(ids);
	char **lines = NULL;
	int nr = 0;

	for (struct dirent *d; top && (d = readdir(top));) {
		if (strlen(d->d_name) != 2)
			continue;
		char *sub = xasprintf("%s/%s", ids, d->d_name);
		DIR *dd = opendir(sub);

		for (struct dirent *e; dd && (e = readdir(dd));) {
			char *link = xasprintf("%s/%s", sub, e->d_name), target[PATH_MAX];
			ssize_t n = e->d_name[0] == '.'
					    ? -1
					    : readlink(link, target, sizeof(target) - 1);

			free(link);
			if (n <= 6 || strncmp(target, "../..", 5))
				continue;
			target[n] = 0;
			char *slash = strrchr(target, '/');

			if (!slash)
				continue;
			*slash = 0;
			lines = xrealloc(lines, (nr + 1) * sizeof(*lines));
			lines[nr++] = xasprintf("%s%s %s", d->d_name, e->d_name,
						target[5] == '/' && target[6] == '[' ? target + 6
										     : target + 5);
		}
		if (dd)
			closedir(dd);
		free(sub);
	}
	if (top)
		closedir(top);
	if (nr)
		qsort(lines, nr, sizeof(*lines), cmp_str);
	for (int i = 0; i < nr; i++) {
		puts(lines[i]);
		free(lines[i]);
	}
	free(lines);
	free(ids);
}

int cmd_buildid_cache(int argc, const char **argv)
{
	struct files adds = { 0 }, removes = { 0 };
	bool list = false, verbose = false;
	const struct option opts[] = {
		OPT_CALLBACK('a', "add", &adds, "file list", "file(s) to add", opt_file),
		OPT_CALLBACK('r', "remove", &removes, "file list", "file(s) to remove", opt_file),
		OPT_BOOLEAN('l', "list", &list, "list all cached files"),
		OPT_BOOLEAN('v', "verbose", &verbose, "be more verbose"),
		OPT_END(),
	};
	char *dir;

	if (parse_options(argc, argv, opts, buildid_cache_usage, 0))
		usage_with_options(buildid_cache_usage, opts);
	dir = build_id_cache__dir();
	for (int i = 0; i < adds.nr; i++)
		add_file(dir, adds.names[i], verbose);
	for (int i = 0; i < removes.nr; i++)
		remove_file(dir, removes.names[i], verbose);
	if (list)
		list_cache(dir);
	free(dir);
	free(adds.names);
	free(removes.names);
	return PCL_EXIT_OK;
}
