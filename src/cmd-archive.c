/* pcl archive: a tarball of the build-id cache entries a perf.data's samples
 * hit, so that it can be reported on another machine; --unpack puts one into
 * the cache.  As perf's archive script, the build ids come from
 * `buildid-list --with-hits` and tar does the archiving.  --embed instead
 * writes a copy of the perf.data that carries the symbol tables themselves
 * (core/symbols/embed.h), which needs nothing else to be reported. */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "core/data/perf-data-write.h"
#include "core/data/session.h"
#include "core/symbols/buildid-cache.h"
#include "core/symbols/embed.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char *const archive_usage[] = {
	"pcl archive [<options>] [<file>]",
	"pcl archive --unpack [<tar file>]",
	"pcl archive --embed [-o <output>] [<file>]",
	NULL
};

/* Runs argv; with out, its stdout is collected there.  Returns the status. */
static int run(const char *const argv[], struct strbuf *out)
{
	int fds[2], status = -1;
	pid_t pid;

	if (out && pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		if (out) {
			dup2(fds[1], 1);
			close(fds[0]);
			close(fds[1]);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (out) {
		char buf[4096];
		ssize_t n;

		close(fds[1]);
		while (pid > 0 && (n = read(fds[0], buf, sizeof(buf))) > 0)
			strbuf_add(out, buf, (size_t)n);
		close(fds[0]);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The manifest: per build id, its .build-id link and the directory the link
 * leads to, both relative to the cache (what tar is given with -C). */
static void add_to_manifest(FILE *manifest, const char *dir, const char *real_dir,
			    const char *hex)
{
	char *link = xasprintf("%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	char target[PATH_MAX];
	size_t len = strlen(real_dir);

	fprintf(manifest, ".build-id/%.2s/%s\n", hex, hex + 2);
	if (realpath(link, target)) {
		bool inside = !strncmp(target, real_dir, len) && target[len] == '/';

		fprintf(manifest, "%s\n", inside ? target + len + 1 : target);
	}
	free(link);
}

static int archive(const char *data, const char *dir)
{
	const char *list_argv[] = { "/proc/self/exe", "buildid-list", "-i", data, "--with-hits",
				    NULL };
	char manifest_path[] = "/tmp/pcl-archive-manifest.XXXXXX";
	char real_dir[PATH_MAX];
	struct strbuf ids = STRBUF_INIT;
	char *tarball = xasprintf("%s.tar.bz2", data), *line, *save;
	int nr = 0, fd, rc;
	FILE *manifest;

	if (run(list_argv, &ids) || !realpath(dir, real_dir))
		ids.len = 0;
	fd = mkstemp(manifest_path);
	manifest = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!manifest) {
		fprintf(stderr, "pcl archive: %s: %s\n", manifest_path, strerror(errno));
		free(tarball);
		strbuf_release(&ids);
		return PCL_EXIT_FAILURE;
	}
	strbuf_add(&ids, "", 1);
	for (line = strtok_r(ids.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == ' ')	/* a DSO without a build id */
			continue;
		*strchrnul(line, ' ') = 0;
		add_to_manifest(manifest, dir, real_dir, line);
		nr++;
	}
	fclose(manifest);
	strbuf_release(&ids);
	if (!nr) {
		printf("pcl archive: no build-ids found\n");
		unlink(manifest_path);
		free(tarball);
		return PCL_EXIT_FAILURE;
	}
	const char *tar_argv[] = { "tar", "cjf", tarball, "-C", dir, "-T", manifest_path, NULL };

	rc = run(tar_argv, NULL);
	unlink(manifest_path);
	printf("Now please run:\n\n$ tar xvf %s -C ~/.debug\n\n", tarball);
	printf("wherever you need to run 'pcl report' on.\n");
	free(tarball);
	return rc < 0 ? PCL_EXIT_FAILURE : 0;
}

/* The one perf*.tar.bz2 of the current directory, when none is named. */
static char *find_tarball(void)
{
	glob_t g;
	char *found = NULL;

	if (!glob("perf*.tar.bz2", 0, NULL, &g) && g.gl_pathc == 1)
		found = xstrdup(g.gl_pathv[0]);
	else
		fprintf(stderr, "pcl archive: %zu perf*.tar.bz2 files found here, need exactly "
			"one (or name it: pcl archive --unpack FILE)\n", g.gl_pathc);
	globfree(&g);
	return found;
}

static int unpack(const char *tarball, const char *dir)
{
	char *file = tarball ? xstrdup(tarball) : find_tarball();
	int rc;

	if (!file)
		return PCL_EXIT_FAILURE;
	mkdir(dir, 0755);
	const char *tar_argv[] = { "tar", "xvf", file, "-C", dir, NULL };

	rc = run(tar_argv, NULL);
	free(file);
	return rc ? PCL_EXIT_FAILURE : 0;
}

/* Every address a sample names (its ip, callchain and branches) is looked
 * up, which loads the symbols of each DSO they reach. */
#define EMBED_MAX_FRAMES	4096

static int embed_sample(struct perf_tool *tool, struct perf_session *s,
			const struct perf_event_header *rec, struct perf_sample *sample,
			struct evsel *evsel)
{
	static struct callchain_frame frames[EMBED_MAX_FRAMES];
	struct addr_location al, branch;

	(void)tool;
	(void)rec;
	perf_session__resolve_sample(s, sample, &al);
	perf_session__resolve_callchain(s, evsel, sample, al.thread, EMBED_MAX_FRAMES, frames,
					EMBED_MAX_FRAMES);
	for (uint64_t i = 0; al.thread && i < sample->branch_nr; i++) {
		machine__find_symbol_fb(s->machine, al.thread, sample->cpumode,
					sample->branch_entries[i].from, &branch);
		machine__find_symbol_fb(s->machine, al.thread, sample->cpumode,
					sample->branch_entries[i].to, &branch);
	}
	return 0;
}

static int embed(const char *data, const char *output)
{
	struct perf_tool tool = { .sample = embed_sample, .ordered = true };
	struct symbols_embed_stats stats;
	struct perf_session *s;
	size_t size = 0;
	char *err = NULL;
	void *tables;
	int rc;

	s = perf_session__open(data, false, &err);
	if (!s) {
		fprintf(stderr, "pcl archive: %s\n", err);
		free(err);
		return PCL_EXIT_FAILURE;
	}
	if (s->is_pipe) {
		fprintf(stderr, "pcl archive: --embed needs a perf.data file, not a pipe\n");
		perf_session__delete(s);
		return PCL_EXIT_FAILURE;
	}
	perf_session__new_machine(s, NULL, NULL, false);
	if (perf_session__process(s, &tool) < 0) {
		fprintf(stderr, "pcl archive: %s\n", s->err);
		perf_session__delete(s);
		return PCL_EXIT_FAILURE;
	}
	tables = symbols_embed__write(s->machine, &size, &stats);
	if (stats.skipped_kernel)
		fprintf(stderr, "pcl archive: the kernel's symbols came from %s: not embedded "
			"(report the copy with that vmlinux)\n", stats.skipped_kernel);
	perf_session__delete(s);
	if (!tables) {
		printf("pcl archive: no symbols to embed\n");
		return PCL_EXIT_FAILURE;
	}
	rc = perf_data__copy_with_feature(data, output, HEADER_PCL_SYMBOLS, tables, size);
	free(tables);
	if (rc) {
		fprintf(stderr, "pcl archive: cannot write %s: %s\n", output,
			rc == -EINVAL ? "not a perf.data file in this machine's byte order" :
			rc == -EEXIST ? "it is the input" : strerror(-rc));
		return PCL_EXIT_FAILURE;
	}
	printf("%s: the symbols of %zu DSOs (%zu symbols) embedded\n", output, stats.nr_dsos,
	       stats.nr_syms);
	return 0;
}

int cmd_archive(int argc, const char **argv)
{
	bool do_unpack = false, do_embed = false;
	const char *output = NULL;
	char *dir, *path;
	int rc;
	const struct option opts[] = {
		OPT_BOOLEAN(0, "unpack", &do_unpack,
			    "Unpack an archive into the build-id cache"),
		OPT_BOOLEAN(0, "embed", &do_embed,
			    "Write a copy of the file carrying the symbol tables it needs"),
		OPT_STRING('o', "output", &output, "file",
			   "--embed's copy (default: <file>.embedded)"),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts, archive_usage, 0);
	if (argc > 1 || (do_embed && do_unpack) || (output && !do_embed))
		usage_with_options(archive_usage, opts);
	if (do_embed) {
		const char *data = argc ? argv[0] : "perf.data";

		path = output ? xstrdup(output) : xasprintf("%s.embedded", data);
		rc = embed(data, path);
		free(path);
		return rc;
	}
	dir = build_id_cache__dir();
	if (do_unpack)
		rc = unpack(argc ? argv[0] : NULL, dir);
	else
		rc = archive(argc ? argv[0] : "perf.data", dir);
	free(dir);
	return rc;
}
