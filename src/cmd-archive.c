/* pcl archive: a tarball of the build-id cache entries a perf.data's samples
 * hit, so that it can be reported on another machine; --unpack puts one into
 * the cache.  As perf's archive script, the build ids come from
 * `buildid-list --with-hits` and tar does the archiving. */
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
#include "core/symbols/buildid-cache.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char *const archive_usage[] = {
	"pcl archive [<options>] [<file>]",
	"pcl archive --unpack [<tar file>]",
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

int cmd_archive(int argc, const char **argv)
{
	bool do_unpack = false;
	char *dir;
	int rc;
	const struct option opts[] = {
		OPT_BOOLEAN(0, "unpack", &do_unpack,
			    "Unpack an archive into the build-id cache"),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts, archive_usage, 0);
	if (argc > 1)
		usage_with_options(archive_usage, opts);
	dir = build_id_cache__dir();
	if (do_unpack)
		rc = unpack(argc ? argv[0] : NULL, dir);
	else
		rc = archive(argc ? argv[0] : "perf.data", dir);
	free(dir);
	return rc;
}
