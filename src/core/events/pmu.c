/* pmu: sysfs PMU discovery (types, formats, named events). */
#include "core/events/pmu.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *sysfs_root;	/* NULL: "/sys" */
static struct pmu *pmus;
static int nr_pmus;
static bool pmus_loaded;

void pmus__set_sysfs_root(const char *root)
{
	pmus__exit();
	free(sysfs_root);
	sysfs_root = root ? xstrdup(root) : NULL;
}

/* "config1:0-7,21" -> field 1, mask 0x2000ff.  Returns -1 when malformed. */
static int parse_format(const char *spec, struct pmu_format *fmt)
{
	static const char *const fields[] = { "config2", "config1", "config" };
	const char *p = NULL;
	int field = -1;

	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		size_t n = strlen(fields[i]);

		if (!strncmp(spec, fields[i], n) && spec[n] == ':') {
			field = 2 - (int)i;
			p = spec + n + 1;
			break;
		}
	}
	if (field < 0)
		return -1;
	fmt->field = field;
	fmt->mask = 0;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1)
				return -1;
			p = end;
		}
		if (hi < lo || hi > 63)
			return -1;
		for (unsigned long b = lo; b <= hi; b++)
			fmt->mask |= 1ULL << b;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n' && *p != ' ')
			return -1;
		else
			break;
	}
	return 0;
}

static char *read_trimmed(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *s = read_file_str(path);

	free(path);
	return s ? strrtrim(s) : NULL;
}

static void load_formats(struct pmu *pmu, const char *dir)
{
	char *fdir = xasprintf("%s/format", dir);
	DIR *d = opendir(fdir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		struct pmu_format fmt;
		char *spec;

		if (de->d_name[0] == '.')
			continue;
		spec = read_trimmed(fdir, de->d_name);
		if (spec && !parse_format(spec, &fmt)) {
			fmt.name = xstrdup(de->d_name);
			pmu->formats = xrealloc(pmu->formats,
						(pmu->nr_formats + 1) * sizeof(fmt));
			pmu->formats[pmu->nr_formats++] = fmt;
		}
		free(spec);
	}
	if (d)
		closedir(d);
	free(fdir);
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

static int alias_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pmu_alias *)a)->name,
		      ((const struct pmu_alias *)b)->name);
}

/* ALIAS.unit, ALIAS.scale, ALIAS.per-pkg and ALIAS.snapshot describe ALIAS. */
static bool is_alias_attribute(const char *name)
{
	static const char *const suffixes[] = { ".unit", ".scale", ".per-pkg", ".snapshot" };

	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (has_suffix(name, suffixes[i]))
			return true;
	return false;
}

static char *read_alias_attribute(const char *dir, const char *alias, const char *suffix)
{
	char *name = xasprintf("%s%s", alias, suffix), *s = read_trimmed(dir, name);

	free(name);
	return s;
}

static void load_aliases(struct pmu *pmu, const char *dir)
{
	char *edir = xasprintf("%s/events", dir);
	DIR *d = opendir(edir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		struct pmu_alias alias = { .scale = 1.0 };
		char *scale;

		if (de->d_name[0] == '.' || is_alias_attribute(de->d_name))
			continue;
		alias.terms = read_trimmed(edir, de->d_name);
		if (!alias.terms)
			continue;
		alias.name = xstrdup(de->d_name);
		alias.unit = read_alias_attribute(edir, de->d_name, ".unit");
		scale = read_alias_attribute(edir, de->d_name, ".scale");
		if (scale)
			alias.scale = strtod(scale, NULL);
		free(scale);
		pmu->aliases = xrealloc(pmu->aliases, (pmu->nr_aliases + 1) * sizeof(alias));
		pmu->aliases[pmu->nr_aliases++] = alias;
	}
	if (d)
		closedir(d);
	free(edir);
	if (pmu->nr_aliases)
		qsort(pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases), alias_cmp);
}

static void load_pmus(void)
{
	char *devices = xasprintf("%s/bus/event_source/devices",
				  sysfs_root ? sysfs_root : "/sys");
	DIR *d = opendir(devices);
	struct dirent *de;

	pmus_loaded = true;
	while (d && (de = readdir(d))) {
		struct pmu pmu = { 0 };
		char *dir, *type;

		if (de->d_name[0] == '.')
			continue;
		dir = xasprintf("%s/%s", devices, de->d_name);
		type = read_trimmed(dir, "type");
		if (!type) {
			free(dir);
			continue;
		}
		pmu.name = xstrdup(de->d_name);
		pmu.type = (uint32_t)strtoul(type, NULL, 0);
		pmu.is_core = !strcmp(pmu.name, "cpu") || !strcmp(pmu.name, "cpu_core") ||
			      !strcmp(pmu.name, "cpu_atom");
		free(type);
		load_formats(&pmu, dir);
		load_aliases(&pmu, dir);
		free(dir);
		pmus = xrealloc(pmus, (nr_pmus + 1) * sizeof(pmu));
		pmus[nr_pmus++] = pmu;
	}
	if (d)
		closedir(d);
	free(devices);
}

const struct pmu *pmus__all(int *nr)
{
	if (!pmus_loaded)
		load_pmus();
	*nr = nr_pmus;
	return pmus;
}

const struct pmu *pmus__find(const char *name)
{
	int nr;
	const struct pmu *all = pmus__all(&nr);

	for (int i = 0; i < nr; i++)
		if (!strcmp(all[i].name, name))
			return &all[i];
	return NULL;
}

void pmus__exit(void)
{
	for (int i = 0; i < nr_pmus; i++) {
		struct pmu *pmu = &pmus[i];

		for (int j = 0; j < pmu->nr_formats; j++)
			free(pmu->formats[j].name);
		for (int j = 0; j < pmu->nr_aliases; j++) {
			free(pmu->aliases[j].name);
			free(pmu->aliases[j].terms);
			free(pmu->aliases[j].unit);
		}
		free(pmu->formats);
		free(pmu->aliases);
		free(pmu->name);
	}
	free(pmus);
	pmus = NULL;
	nr_pmus = 0;
	pmus_loaded = false;
}

const struct pmu_format *pmu__find_format(const struct pmu *pmu, const char *name)
{
	for (int i = 0; i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	return NULL;
}

const struct pmu_alias *pmu__find_alias(const struct pmu *pmu, const char *name)
{
	for (int i = 0; i < pmu->nr_aliases; i++)
		if (!strcasecmp(pmu->aliases[i].name, name))
			return &pmu->aliases[i];
	return NULL;
}

char *pmu_alias__slashed_name(const struct pmu *pmu, const struct pmu_alias *alias)
{
	struct strbuf sb = STRBUF_INIT;
	char *terms = xstrdup(alias->terms), *save = NULL;

	strbuf_addf(&sb, "%s/%s", pmu->name, alias->name);
	for (char *t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '='), *end;

		if (!eq)
			continue;
		strtoull(eq + 1, &end, 0);
		if (end == eq + 1 || *end)	/* not a number: a parameter */
			strbuf_addf(&sb, ",%s", t);
	}
	strbuf_addch(&sb, '/');
	free(terms);
	return strbuf_detach(&sb);
}

uint64_t pmu_format__max_value(const struct pmu_format *fmt)
{
	int bits = __builtin_popcountll(fmt->mask);

	return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

void pmu_format__apply(const struct pmu_format *fmt, uint64_t value,
		       struct perf_event_attr *attr)
{
	__u64 *field = fmt->field == 0 ? &attr->config :
			  fmt->field == 1 ? &attr->config1 : &attr->config2;
	int vbit = 0;

	for (int b = 0; b < 64; b++) {
		if (!(fmt->mask & (1ULL << b)))
			continue;
		if (vbit < 64 && (value >> vbit) & 1)
			*field |= 1ULL << b;
		vbit++;
	}
}
