/* fake-fs: throwaway directory trees standing in for sysfs or ~/.debug in
 * unit tests.  Header-only; include after cmocka.h. */
#ifndef PCL_TEST_FAKE_FS_H
#define PCL_TEST_FAKE_FS_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

/* Makes a fresh directory from a "/tmp/NAME-XXXXXX" template (modified in place). */
static inline void fake_fs_create(char *tmpl)
{
	assert_non_null(mkdtemp(tmpl));
}

static inline void fake_fs_mkdirs(const char *root, const char *path)
{
	char *dir = xstrdup(path);

	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(dir, 0700);
		*p = '/';
	}
	free(dir);
}

/* Writes ROOT/REL (making its directories). */
static inline void fake_fs_put(const char *root, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel);
	FILE *f;

	fake_fs_mkdirs(root, path);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

/* Makes ROOT/REL a symlink to target. */
static inline void fake_fs_link(const char *root, const char *rel, const char *target)
{
	char *path = xasprintf("%s/%s", root, rel);

	fake_fs_mkdirs(root, path);
	assert_int_equal(symlink(target, path), 0);
	free(path);
}

static inline int fake_fs_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static inline void fake_fs_remove(const char *root)
{
	nftw(root, fake_fs_rm, 8, FTW_DEPTH | FTW_PHYS);
}

/* A sysfs tree with PMUs like a PC's: cpu, power, msr, two uncore_imc. */
static inline void fake_fs_pmus(const char *root)
{
	static const char *const files[][2] = {
		{ "cpu/type", "4\n" },
		{ "cpu/format/event", "config:0-7\n" },
		{ "cpu/format/umask", "config:8-15\n" },
		{ "cpu/format/inv", "config:23\n" },
		{ "cpu/format/cmask", "config:24-31\n" },
		{ "cpu/format/split", "config:0-3,40-43\n" },
		{ "cpu/format/ldlat", "config1:0-15\n" },
		{ "cpu/events/cpu-cycles", "event=0x3c\n" },
		{ "cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n" },
		{ "cpu/events/ev-param", "event=0x12,ldlat=?\n" },
		{ "power/type", "23\n" },
		{ "power/format/event", "config:0-7\n" },
		{ "power/events/energy-pkg", "event=0x02\n" },
		{ "power/events/energy-pkg.unit", "Joules\n" },
		{ "power/events/energy-pkg.scale", "2.3283064365386962890625e-10\n" },
		{ "msr/type", "9\n" },
		{ "msr/format/event", "config:0-63\n" },
		{ "msr/events/tsc", "event=0x00\n" },
		{ "uncore_imc_0/type", "30\n" },
		{ "uncore_imc_0/format/event", "config:0-7\n" },
		{ "uncore_imc_1/type", "31\n" },
		{ "uncore_imc_1/format/event", "config:0-7\n" },
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *rel = xasprintf("bus/event_source/devices/%s", files[i][0]);

		fake_fs_put(root, rel, files[i][1]);
		free(rel);
	}
}

#endif
