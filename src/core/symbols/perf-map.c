/* perf-map: symbols of JIT-compiled code from /tmp/perf-PID.map, lines of
 * "START SIZE name" in hex (no 0x), written by JITs (V8, the JVM agent,
 * ...).  Like perf, a map another user wrote is ignored with a warning:
 * it would let them name code in our profile.
 */
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* perf's hex2u64: hex digits only, returns how many were read. */
static size_t parse_hex(const char *s, uint64_t *val)
{
	size_t n = 0;

	*val = 0;
	for (;; n++) {
		int c = s[n], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return n;
		*val = (*val << 4) | (uint64_t)d;
	}
}

int perf_map__parse(FILE *f, struct symtab_builder *b)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int n = 0;

	while ((len = getline(&line, &cap, f)) > 0) {
		uint64_t start, size;
		size_t pos;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		pos = parse_hex(line, &start) + 1;
		if (pos + 2 >= (size_t)len)
			continue;
		pos += parse_hex(line + pos, &size) + 1;
		if (pos + 2 >= (size_t)len)
			continue;
		symtab_add(b, start, size, STB_GLOBAL, line + pos, strlen(line + pos));
		n++;
	}
	free(line);
	return n;
}

bool perf_map__owner_ok(const char *path, uid_t uid)
{
	struct stat st;

	return !lstat(path, &st) && (st.st_uid == 0 || st.st_uid == uid);
}

int dso__load_perf_map(struct dso *dso, const struct symbols_config *config)
{
	struct dso_priv *p = dso__priv(dso);
	struct symtab_builder b = { .pool = &p->pool };
	struct stat st;
	FILE *f;
	int n;

	if (lstat(dso->long_name, &st))
		return -1;
	if (!config->force && !perf_map__owner_ok(dso->long_name, geteuid())) {
		fprintf(stderr, "File %s not owned by current user or root, "
			"ignoring it (use -f to override).\n", dso->long_name);
		return -1;
	}
	f = fopen(dso->long_name, "re");
	if (!f)
		return -1;
	n = perf_map__parse(f, &b);
	fclose(f);
	/* Taken as written: no size fixups, as perf. */
	dso__install_symbols_raw(dso, &b, NULL);
	return n;
}
