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
	char **names;
	int nr;
};

/* A comma-separated "file list"; the option repeated adds to it. */
static int opt_file(const struct option *opt, const char *arg, bool unset)
{
	struct files *f = opt->value;
	char *copy = xstrdup(arg), *save = NULL;

	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		f->names = xrealloc(f->names, (f->nr + 1) * sizeof(*f->names));
		f->names[f->nr++] = xstrdup(name);
	}
	free(copy);
	return 0;
}

static void files_free(struct files *f)
{
	for (int i = 0; i < f->nr; i++)
		free(f->names[i]);
	free(f->names);
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

/* -a and -u: what perf says is "Adding" or "Updating". */
static void add_file(const char *dir, const char *file, bool verbose, const char *verb)
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
		/* the SDT markers go next to the binary, as perf keeps them (an
		 * empty file when there are none) */
		char *text = sdt_notes__probes_text(real);
		char *entry = build_id_cache__entry(dir, real, id, size);

		err = write_probes(entry, text ? text : "");
		free(text);
		free(entry);
	}
	if (verbose || err)
		fprintf(stderr, "%s %s %s: %s\n", verb, hex, file, err ? "FAIL" : "Ok");
	if (err)
		fprintf(stderr, "Couldn't add %s: %s\n", file, strerror(-err));
}

static void remove_file(const char *dir, const char *file, bool verbose)
{
	char real[PATH_MAX], hex[41];
	uint8_t id[20];
	int size, err;

	if (!realpath(file, real) || (size = elf_file__read_build_id(real, id, sizeof(id))) <= 0) {
		fprintf(stderr, "Couldn't read a build-id in %s\n%s wasn't in the cache\n", file,
			file);
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

/* "BUILD_ID PATH" for each .build-id link, sorted; returns the count. */
static int cached_entries(const char *dir, char ***out)
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
	free(ids);
	*out = lines;
	return nr;
}

static void free_entries(char **lines, int nr)
{
	for (int i = 0; i < nr; i++)
		free(lines[i]);
	free(lines);
}

/* "HEX PATH": removes the entry; its id comes back from the hex. */
static int remove_entry(const char *dir, const char *entry, char **path)
{
	uint8_t id[20];
	int size = 0;
	const char *space = strchr(entry, ' ');

	for (const char *h = entry; h + 1 < space && size < (int)sizeof(id); h += 2) {
		unsigned byte;

		sscanf(h, "%2x", &byte);
		id[size++] = (uint8_t)byte;
	}
	*path = xstrdup(space + 1);
	return build_id_cache__remove(dir, *path, id, size);
}

/* -p FILE: every cached version of FILE. */
static void purge_file(const char *dir, const char *file, bool verbose)
{
	char real[PATH_MAX], **entries;
	int nr = cached_entries(dir, &entries), err = 0;

	if (!realpath(file, real))
		snprintf(real, sizeof(real), "%s", file);
	for (int i = 0; i < nr; i++) {
		const char *space = strchr(entries[i], ' ');
		char *path;

		if (strcmp(space + 1, real))
			continue;
		int e = remove_entry(dir, entries[i], &path);

		if (verbose || e)
			fprintf(stderr, "Removing %.*s %s: %s\n", (int)(space - entries[i]),
				entries[i], file, e ? "FAIL" : "Ok");
		err |= e;
		free(path);
	}
	free_entries(entries, nr);
	if (verbose || err)
		fprintf(stderr, "Purging %s: %s\n", file, err ? "FAIL" : "Ok");
}

/* -P: the whole cache. */
static void purge_all(const char *dir, bool verbose)
{
	char **entries;
	int nr = cached_entries(dir, &entries), err = 0;

	for (int i = 0; i < nr; i++) {
		const char *space = strchr(entries[i], ' ');
		char *path;
		int e = remove_entry(dir, entries[i], &path);

		if (verbose || e)
			fprintf(stderr, "Removing %s (%.*s): %s\n", path, (int)(space - entries[i]),
				entries[i], e ? "FAIL" : "Ok");
		err |= e;
		free(path);
	}
	free_entries(entries, nr);
	if (verbose || err)
		fprintf(stderr, "Purged all: %s\n", err ? "FAIL" : "Ok");
}

static void list_cache(const char *dir)
{
	char **entries;
	int nr = cached_entries(dir, &entries);

	for (int i = 0; i < nr; i++)
		puts(entries[i]);
	free_entries(entries, nr);
}

int cmd_buildid_cache(int argc, const char **argv)
{
	struct files adds = { 0 }, removes = { 0 }, purges = { 0 }, updates = { 0 };
	bool list = false, verbose = false, all = false;
	const struct option opts[] = {
		OPT_CALLBACK('a', "add", &adds, "file list", "file(s) to add", opt_file),
		OPT_CALLBACK('r', "remove", &removes, "file list", "file(s) to remove", opt_file),
		OPT_CALLBACK('p', "purge", &purges, "file list",
			     "file(s) to remove (remove old caches too)", opt_file),
		OPT_BOOLEAN('P', "purge-all", &all, "purge all cached files"),
		OPT_CALLBACK('u', "update", &updates, "file list", "file(s) to update", opt_file),
		OPT_BOOLEAN('l', "list", &list, "list all cached files"),
		OPT_BOOLEAN('v', "verbose", &verbose, "be more verbose"),
		OPT_END(),
	};
	char *dir;

	if (parse_options(argc, argv, opts, buildid_cache_usage, 0))
		usage_with_options(buildid_cache_usage, opts);
	/* perf keeps each list sorted */
	struct files *lists[] = { &adds, &removes, &purges, &updates };

	for (size_t i = 0; i < sizeof(lists) / sizeof(*lists); i++)
		if (lists[i]->nr)
			qsort(lists[i]->names, lists[i]->nr, sizeof(char *), cmp_str);
	dir = build_id_cache__dir();
	for (int i = 0; i < adds.nr; i++)
		add_file(dir, adds.names[i], verbose, "Adding");
	for (int i = 0; i < removes.nr; i++)
		remove_file(dir, removes.names[i], verbose);
	for (int i = 0; i < purges.nr; i++)
		purge_file(dir, purges.names[i], verbose);
	if (all)
		purge_all(dir, verbose);
	for (int i = 0; i < updates.nr; i++)
		add_file(dir, updates.names[i], verbose, "Updating");
	if (list)
		list_cache(dir);
	free(dir);
	files_free(&adds);
	files_free(&removes);
	files_free(&purges);
	files_free(&updates);
	return PCL_EXIT_OK;
}
