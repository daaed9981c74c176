/* header-features: feature section payloads (see header-features.h). */
#include "core/data/header-features.h"
#include "core/data/bpf-info.h"
#include "core/data/perf-data-write.h"
#include "core/data/perf-record.h"
#include "core/data/trace-data-write.h"
#include "util/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define SYS_CPU	"/sys/devices/system/cpu"
#define MAX_CACHE_INDEX	4
#define COMP_ZSTD	1	/* COMPRESSED feature: the zstd type */

void feat_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

void feat_u64(struct strbuf *sb, uint64_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

/* The bytes s takes with its NUL, padded to PERF_NAME_ALIGN. */
static size_t padded_len(const char *s)
{
	return (strlen(s) + PERF_NAME_ALIGN) & ~(size_t)(PERF_NAME_ALIGN - 1);
}

/* s, its NUL and zeros up to padded_len(s). */
static void add_padded(struct strbuf *sb, const char *s)
{
	static const char zeros[PERF_NAME_ALIGN];
	size_t n = strlen(s) + 1;

	strbuf_add(sb, s, n);
	strbuf_add(sb, zeros, padded_len(s) - n);
}

void feat_string(struct strbuf *sb, const char *s)
{
	feat_u32(sb, (uint32_t)padded_len(s));
	add_padded(sb, s);
}

/* A sysfs/procfs value, trimmed; NULL when unreadable. */
static char *sysfs_str(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *sysfs_str(const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	char *s;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	s = read_file_str(path);
	return s ? strrtrim(s) : NULL;
}

static int sysfs_int(int def, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sysfs_int(int def, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	char *s;
	int v = def;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	s = read_file_str(path);
	if (s && isdigit((unsigned char)*s))
		v = atoi(s);
	free(s);
	return v;
}

/* The value of the first "key<spaces>: value" line of /proc/cpuinfo, with
 * runs of spaces squeezed; NULL if absent. */
static char *cpuinfo_value(const char *key)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024];
	char *val = NULL;
	size_t klen = strlen(key);

	if (!f)
		return NULL;
	while (!val && fgets(line, sizeof(line), f)) {
		char *p = line, *colon, *o;

		if (strncmp(line, key, klen) || !(colon = strchr(line + klen, ':')))
			continue;
		for (p = line + klen; p < colon; p++)
			if (!isspace((unsigned char)*p))
				break;
		if (p != colon)
			continue;	/* a longer key with the same prefix */
		p = colon + 1;
		while (isspace((unsigned char)*p))
			p++;
		strrtrim(p);
		val = o = xstrdup(p);
		for (char *q = p; *q; q++) {
			if (isspace((unsigned char)*q) && o > val && o[-1] == ' ')
				continue;
			*o++ = isspace((unsigned char)*q) ? ' ' : *q;
		}
		*o = 0;
	}
	fclose(f);
	return val;
}

char *cpuinfo_cpuid(char sep)
{
	char *vendor = cpuinfo_value("vendor_id"), *family = cpuinfo_value("cpu family");
	char *model = cpuinfo_value("model"), *stepping = cpuinfo_value("stepping");
	char *id = NULL;

	if (vendor && family && model && stepping && sep == '-')
		id = xasprintf("%s-%s-%lX-%lX", vendor, family, strtoul(model, NULL, 10),
			       strtoul(stepping, NULL, 10));
	else if (vendor && family && model && stepping)
		id = xasprintf("%s%c%s%c%s%c%s", vendor, sep, family, sep, model, sep, stepping);

	free(vendor);
	free(family);
	free(model);
	free(stepping);
	return id;
}

static int build_cpuid(struct strbuf *sb, const struct header_env *env, int feat)
{
	char *id = cpuinfo_cpuid(',');
	bool ok = id != NULL;

	if (ok)
		feat_string(sb, id);
	free(id);
	return ok;
}

static int build_cpudesc(struct strbuf *sb, const struct header_env *env, int feat)
{
	char *desc = cpuinfo_value("model name");

	if (!desc)
		desc = cpuinfo_value("Processor");	/* arm */
	if (!desc)
		return 0;
	feat_string(sb, desc);
	free(desc);
	return 1;
}

/* Highest cpu number in a list like "0-3,8" plus one; 0 if unreadable. */
/* Steps through a list like "0-3,8": sets [*lo, *hi] to the next range and
 * returns what follows it, or NULL at the end (or at something else). */
static const char *next_range(const char *p, long *lo, long *hi)
{
	char *end;

	if (!p || !*p)
		return NULL;
	*lo = strtol(p, &end, 10);
	if (end == p)
		return NULL;
	*hi = *lo;
	if (*end == '-')
		*hi = strtol(end + 1, &end, 10);
	return *end == ',' ? end + 1 : end;
}

/* Highest cpu number in a list like "0-3,8" plus one; 0 if unreadable. */
static int cpu_list_max(const char *list)
{
	long lo, hi, max = -1;

	for (const char *p = list; (p = next_range(p, &lo, &hi));) {
		if (lo > max)
			max = lo;
		if (hi > max)
			max = hi;
	}
	return (int)max + 1;
}

static int nr_cpus_present(void)
{
	char *s = sysfs_str(SYS_CPU "/present");
	int n = s ? cpu_list_max(s) : 0;

	free(s);
	return n > 0 ? n : (int)sysconf(_SC_NPROCESSORS_CONF);
}

static bool cpu_online(int cpu)
{
	char *s;
	bool on;

	if (cpu == 0)
		return true;	/* cpu0 usually has no "online" file */
	s = sysfs_str(SYS_CPU "/cpu%d/online", cpu);
	on = !s || *s == '1';
	free(s);
	return on;
}

static int build_nrcpus(struct strbuf *sb, const struct header_env *env, int feat)
{
	feat_u32(sb, (uint32_t)nr_cpus_present());
	feat_u32(sb, (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
	return 1;
}

static int build_total_mem(struct strbuf *sb, const struct header_env *env, int feat)
{
	char *mi = read_file_str("/proc/meminfo");
	char *p = mi ? strstr(mi, "MemTotal:") : NULL;

	if (p)
		feat_u64(sb, strtoull(p + 9, NULL, 10));
	free(mi);
	return p != NULL;
}

void feat_build_cmdline(struct strbuf *sb, int argc, const char **argv)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = 0;
	feat_u32(sb, (uint32_t)argc + 1);
	feat_string(sb, n > 0 ? exe : "pcl");
	for (int i = 0; i < argc; i++)
		feat_string(sb, argv[i]);
}

size_t evsel__nr_ids(const struct evsel *evsel)
{
	return evsel->ids ? (size_t)evsel->nr_cpus * (size_t)evsel->nr_threads : 0;
}

void feat_build_event_desc(struct strbuf *sb, const struct evlist *evlist)
{
	feat_u32(sb, (uint32_t)evlist->nr_entries);
	feat_u32(sb, sizeof(struct perf_event_attr));
	evlist__for_each(evlist, pos) {
		size_t nr = evsel__nr_ids(pos);
		struct perf_event_attr attr = pos->attr;

		attr.size = sizeof(attr);
		strbuf_add(sb, &attr, sizeof(attr));
		feat_u32(sb, (uint32_t)nr);
		feat_string(sb, pos->name);
		if (nr)
			strbuf_add(sb, pos->ids, nr * sizeof(uint64_t));
	}
}

int feat_build_group_desc(struct strbuf *sb, const struct evlist *evlist)
{
	int nr = 0;

	evlist__for_each(evlist, pos)
		if (pos->leader == pos && pos->nr_members > 1)
			nr++;
	if (!nr)
		return 0;
	feat_u32(sb, (uint32_t)nr);
	evlist__for_each(evlist, pos) {
		if (pos->leader != pos || pos->nr_members <= 1)
			continue;
		feat_string(sb, pos->group_name ? pos->group_name : "{anon_group}");
		feat_u32(sb, (uint32_t)pos->idx);
		feat_u32(sb, (uint32_t)pos->nr_members);
	}
	return nr;
}

/* Adds s to a list of distinct strings (kept in first-seen order). */
static void add_unique(char ***list, uint32_t *nr, char *s)
{
	for (uint32_t i = 0; i < *nr; i++) {
		if (!strcmp((*list)[i], s)) {
			free(s);
			return;
		}
	}
	*list = xrealloc(*list, (*nr + 1) * sizeof(char *));
	(*list)[(*nr)++] = s;
}

static void write_string_list(struct strbuf *sb, char **list, uint32_t nr)
{
	feat_u32(sb, nr);
	for (uint32_t i = 0; i < nr; i++) {
		feat_string(sb, list[i]);
		free(list[i]);
	}
	free(list);
}

static int build_cpu_topology(struct strbuf *sb, const struct header_env *env, int feat)
{
	char **pkg = NULL, **core = NULL, **die = NULL;
	uint32_t npkg = 0, ncore = 0, ndie = 0;
	int nr = nr_cpus_present();
	char *probe = sysfs_str(SYS_CPU "/cpu0/topology/die_cpus_list");
	bool has_die = probe != NULL;

	free(probe);
	for (int cpu = 0; cpu < nr; cpu++) {
		char *s;

		if (!cpu_online(cpu))
			continue;
		s = sysfs_str(SYS_CPU "/cpu%d/topology/package_cpus_list", cpu);
		if (!s)
			s = sysfs_str(SYS_CPU "/cpu%d/topology/core_siblings_list", cpu);
		if (s)
			add_unique(&pkg, &npkg, s);
		if (has_die && (s = sysfs_str(SYS_CPU "/cpu%d/topology/die_cpus_list", cpu)))
			add_unique(&die, &ndie, s);
		s = sysfs_str(SYS_CPU "/cpu%d/topology/core_cpus_list", cpu);
		if (!s)
			s = sysfs_str(SYS_CPU "/cpu%d/topology/thread_siblings_list", cpu);
		if (s)
			add_unique(&core, &ncore, s);
	}
	write_string_list(sb, pkg, npkg);
	write_string_list(sb, core, ncore);
	for (int cpu = 0; cpu < nr; cpu++) {
		bool on = cpu_online(cpu);

		feat_u32(sb, (uint32_t)(on ? sysfs_int(-1, SYS_CPU "/cpu%d/topology/core_id", cpu) : -1));
		feat_u32(sb, (uint32_t)(on ? sysfs_int(-1, SYS_CPU "/cpu%d/topology/physical_package_id", cpu) : -1));
	}
	if (has_die) {
		write_string_list(sb, die, ndie);
		for (int cpu = 0; cpu < nr; cpu++)
			feat_u32(sb, (uint32_t)(cpu_online(cpu) ?
				 sysfs_int(-1, SYS_CPU "/cpu%d/topology/die_id", cpu) : -1));
	} else {
		free(die);
	}
	return 1;
}

#define SYS_NODE	"/sys/devices/system/node"

/* Appends each online NUMA node with add(), which says whether it did.
 * Returns how many it added, or -1 when the node list is unreadable. */
static int64_t add_online_nodes(struct strbuf *nodes, bool (*add)(struct strbuf *nodes, long node))
{
	char *online = sysfs_str(SYS_NODE "/online");
	int64_t nr = 0;
	long lo, hi;

	if (!online)
		return -1;
	for (const char *p = online; (p = next_range(p, &lo, &hi));)
		for (long node = lo; node <= hi; node++)
			nr += add(nodes, node);
	free(online);
	return nr;
}

static bool add_numa_node(struct strbuf *nodes, long node)
{
	char *mi = sysfs_str(SYS_NODE "/node%ld/meminfo", node);
	char *cpus = sysfs_str(SYS_NODE "/node%ld/cpulist", node);
	char *t = mi ? strstr(mi, "MemTotal:") : NULL;
	char *f = mi ? strstr(mi, "MemFree:") : NULL;

	feat_u32(nodes, (uint32_t)node);
	feat_u64(nodes, t ? strtoull(t + 9, NULL, 10) : 0);
	feat_u64(nodes, f ? strtoull(f + 8, NULL, 10) : 0);
	feat_string(nodes, cpus ? cpus : "");
	free(mi);
	free(cpus);
	return true;
}

static int build_numa_topology(struct strbuf *sb, const struct header_env *env, int feat)
{
	struct strbuf nodes = STRBUF_INIT;
	int64_t nr = add_online_nodes(&nodes, add_numa_node);

	if (nr >= 0) {
		feat_u32(sb, (uint32_t)nr);
		strbuf_add(sb, nodes.buf, nodes.len);
	}
	strbuf_release(&nodes);
	return nr >= 0;
}

/* A node's memory blocks: u64 node, u64 nr bits, u64 nr bits again and the
 * bitmap words. */
static bool add_mem_node(struct strbuf *nodes, long node)
{
	char dir[64];
	DIR *d;
	struct dirent *de;
	uint64_t *bits = NULL, nbits = 0;

	snprintf(dir, sizeof(dir), SYS_NODE "/node%ld", node);
	d = opendir(dir);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		unsigned long m;
		char c;

		if (sscanf(de->d_name, "memory%lu%c", &m, &c) != 1)
			continue;
		if (m + 1 > nbits) {
			size_t old = (size_t)(nbits + 63) / 64, words = (m + 64) / 64;

			bits = xrealloc(bits, words * sizeof(uint64_t));
			memset(bits + old, 0, (words - old) * sizeof(uint64_t));
			nbits = m + 1;
		}
		bits[m / 64] |= 1ULL << (m % 64);
	}
	closedir(d);
	feat_u64(nodes, (uint64_t)node);
	feat_u64(nodes, nbits);
	feat_u64(nodes, nbits);
	if (nbits)
		strbuf_add(nodes, bits, (size_t)(nbits + 63) / 64 * sizeof(uint64_t));
	free(bits);
	return true;
}

/* Which memory blocks each NUMA node holds: u64 version 1, u64 block size,
 * u64 nr nodes, then the nodes. */
static int build_mem_topology(struct strbuf *sb, const struct header_env *env, int feat)
{
	char *bs = sysfs_str("/sys/devices/system/memory/block_size_bytes");
	struct strbuf nodes = STRBUF_INIT;
	int64_t nr = bs ? add_online_nodes(&nodes, add_mem_node) : -1;

	if (nr >= 0) {
		feat_u64(sb, 1);
		feat_u64(sb, strtoull(bs, NULL, 16));
		feat_u64(sb, (uint64_t)nr);
		strbuf_add(sb, nodes.buf, nodes.len);
	}
	strbuf_release(&nodes);
	free(bs);
	return nr >= 0;
}

/* A feature perf always writes that pcl has nothing for: a zero count. */
static int build_empty_count(struct strbuf *sb, const struct header_env *env, int feat)
{
	feat_u32(sb, 0);
	return 1;
}

/* The BPF programs and their BTF perf record saw loaded (none told: a
 * zero count, which perf writes too). */
static int build_bpf_progs(struct strbuf *sb, const struct header_env *env, int feat)
{
	bpf_env__write_progs(env->bpf, sb);
	return 1;
}

static int build_bpf_btfs(struct strbuf *sb, const struct header_env *env, int feat)
{
	bpf_env__write_btfs(env->bpf, sb);
	return 1;
}

static int build_pmu_mappings(struct strbuf *sb, const struct header_env *env, int feat)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct strbuf pmus = STRBUF_INIT;
	struct dirent *de;
	uint32_t nr = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		int type;

		if (de->d_name[0] == '.')
			continue;
		type = sysfs_int(-1, "/sys/bus/event_source/devices/%s/type", de->d_name);
		if (type < 0)
			continue;
		feat_u32(&pmus, (uint32_t)type);
		feat_string(&pmus, de->d_name);
		nr++;
	}
	closedir(d);
	feat_u32(sb, nr);
	strbuf_add(sb, pmus.buf, pmus.len);
	strbuf_release(&pmus);
	return 1;
}

struct cache_level {
	uint32_t level, line_size, sets, ways;
	char *type, *size, *map;
};

static void cache_free(struct cache_level *c)
{
	free(c->type);
	free(c->size);
	free(c->map);
}

static bool cache_read(int cpu, int idx, struct cache_level *c)
{
	const char *base = SYS_CPU "/cpu%d/cache/index%d/";
	char fmt[128];

	snprintf(fmt, sizeof(fmt), "%slevel", base);
	if (sysfs_int(-1, fmt, cpu, idx) < 0)
		return false;
	c->level = (uint32_t)sysfs_int(0, fmt, cpu, idx);
	snprintf(fmt, sizeof(fmt), "%scoherency_line_size", base);
	c->line_size = (uint32_t)sysfs_int(0, fmt, cpu, idx);
	snprintf(fmt, sizeof(fmt), "%snumber_of_sets", base);
	c->sets = (uint32_t)sysfs_int(0, fmt, cpu, idx);
	snprintf(fmt, sizeof(fmt), "%sways_of_associativity", base);
	c->ways = (uint32_t)sysfs_int(0, fmt, cpu, idx);
	snprintf(fmt, sizeof(fmt), "%stype", base);
	c->type = sysfs_str(fmt, cpu, idx);
	snprintf(fmt, sizeof(fmt), "%ssize", base);
	c->size = sysfs_str(fmt, cpu, idx);
	snprintf(fmt, sizeof(fmt), "%sshared_cpu_list", base);
	c->map = sysfs_str(fmt, cpu, idx);
	if (!c->type || !c->size || !c->map) {
		cache_free(c);
		return false;
	}
	return true;
}

static bool cache_same(const struct cache_level *a, const struct cache_level *b)
{
	return a->level == b->level && a->line_size == b->line_size && a->sets == b->sets &&
	       a->ways == b->ways && !strcmp(a->type, b->type) && !strcmp(a->size, b->size) &&
	       !strcmp(a->map, b->map);
}

static int build_cache(struct strbuf *sb, const struct header_env *env, int feat)
{
	struct cache_level *caches = NULL;
	size_t cnt = 0;
	int nr = nr_cpus_present();

	for (int cpu = 0; cpu < nr; cpu++) {
		for (int idx = 0; idx < MAX_CACHE_INDEX; idx++) {
			struct cache_level c;
			bool dup = false;

			if (!cache_read(cpu, idx, &c))
				break;
			for (size_t i = 0; i < cnt && !dup; i++)
				dup = cache_same(&caches[i], &c);
			if (dup) {
				cache_free(&c);
				continue;
			}
			caches = xrealloc(caches, (cnt + 1) * sizeof(*caches));
			caches[cnt++] = c;
		}
	}
	if (!cnt)
		return 0;
	/* By level, keeping cpu order within a level (a stable insertion sort). */
	for (size_t i = 1; i < cnt; i++) {
		struct cache_level v = caches[i];
		size_t j = i;

		while (j && caches[j - 1].level > v.level) {
			caches[j] = caches[j - 1];
			j--;
		}
		caches[j] = v;
	}
	feat_u32(sb, 1);	/* version */
	feat_u32(sb, (uint32_t)cnt);
	for (size_t i = 0; i < cnt; i++) {
		feat_u32(sb, caches[i].level);
		feat_u32(sb, caches[i].line_size);
		feat_u32(sb, caches[i].sets);
		feat_u32(sb, caches[i].ways);
		feat_string(sb, caches[i].type);
		feat_string(sb, caches[i].size);
		feat_string(sb, caches[i].map);
		cache_free(&caches[i]);
	}
	free(caches);
	return 1;
}

void feat_build_build_ids(struct strbuf *sb, const struct hit_dso *dsos, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct perf_rec_build_id b;
		size_t len = padded_len(dsos[i].filename);

		if (dsos[i].build_id_size <= 0)
			continue;
		memset(&b, 0, sizeof(b));
		b.header.misc = (dsos[i].kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) |
				PERF_RECORD_MISC_BUILD_ID_SIZE;
		b.header.size = (uint16_t)(sizeof(b) + len);
		b.pid = -1;	/* the host machine */
		memcpy(b.build_id, dsos[i].build_id, (size_t)dsos[i].build_id_size);
		b.build_id[BUILD_ID_MAX] = (uint8_t)dsos[i].build_id_size;
		strbuf_add(sb, &b, sizeof(b));
		add_padded(sb, dsos[i].filename);
	}
}

bool build_id_is_vdso(const char *name)
{
	return !strcmp(name, "[vdso]") || !strcmp(name, "[vdso32]") || !strcmp(name, "[vdsox32]");
}

void feat_keep_vdso_build_ids(struct strbuf *sb, const void *feat, size_t size)
{
	const char *p = feat, *end = p + size;

	while (p && p + sizeof(struct perf_rec_build_id) <= end) {
		const struct perf_rec_build_id *b = (const void *)p;

		if (b->header.size < sizeof(*b) || p + b->header.size > end)
			break;
		if (build_id_is_vdso(b->filename))
			strbuf_add(sb, p, b->header.size);
		p += b->header.size;
	}
}

static uint64_t timespec_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_nsec;
}

/* CLOCKID holds the clock's resolution in ns (perf shows it as a frequency). */
static int build_clockid(struct strbuf *sb, const struct header_env *env, int feat)
{
	struct timespec res;

	if (!env->use_clockid || clock_getres(env->clockid, &res))
		return 0;
	feat_u64(sb, timespec_ns(&res));
	return 1;
}

/* CLOCK_DATA pairs a wall-clock time with the same instant on the clock. */
static int build_clock_data(struct strbuf *sb, const struct header_env *env, int feat)
{
	struct timespec res, tod, clk;

	if (!env->use_clockid || clock_getres(env->clockid, &res) ||
	    clock_gettime(CLOCK_REALTIME, &tod) || clock_gettime(env->clockid, &clk))
		return 0;
	feat_u32(sb, 1);
	feat_u32(sb, (uint32_t)env->clockid);
	feat_u64(sb, timespec_ns(&tod));
	feat_u64(sb, timespec_ns(&clk));
	return 1;
}

static int build_tracing_data(struct strbuf *sb, const struct header_env *env, int feat)
{
	int err;

	if (!trace_data__needed(env->evlist))
		return 0;
	err = trace_data__build(sb, env->evlist, env->tracefs);
	return err ? err : 1;
}

static int build_build_ids(struct strbuf *sb, const struct header_env *env, int feat)
{
	feat_build_build_ids(sb, env->dsos, env->nr_dsos);
	return sb->len > 0;
}

static int build_uname(struct strbuf *sb, const struct header_env *env, int feat)
{
	struct utsname u;

	if (uname(&u))
		return 0;
	feat_string(sb, feat == HEADER_HOSTNAME ? u.nodename :
			feat == HEADER_OSRELEASE ? u.release : u.machine);
	return 1;
}

static int build_version(struct strbuf *sb, const struct header_env *env, int feat)
{
	feat_string(sb, env->version ? env->version : "");
	return 1;
}

static int build_cmdline(struct strbuf *sb, const struct header_env *env, int feat)
{
	feat_build_cmdline(sb, env->argc, env->argv);
	return 1;
}

static int build_event_desc(struct strbuf *sb, const struct header_env *env, int feat)
{
	feat_build_event_desc(sb, env->evlist);
	return 1;
}

static int build_group_desc(struct strbuf *sb, const struct header_env *env, int feat)
{
	return feat_build_group_desc(sb, env->evlist) > 0;
}

static int build_sample_time(struct strbuf *sb, const struct header_env *env, int feat)
{
	if (!env->have_sample_time)
		return 0;
	feat_u64(sb, env->first_sample_time);
	feat_u64(sb, env->last_sample_time);
	return 1;
}

static int build_compressed(struct strbuf *sb, const struct header_env *env, int feat)
{
	if (!env->compressed)
		return 0;
	feat_u32(sb, 0);	/* version */
	feat_u32(sb, COMP_ZSTD);
	feat_u32(sb, env->comp_level);
	feat_u32(sb, env->comp_ratio);
	feat_u32(sb, env->comp_mmap_len);
	return 1;
}

static int build_dir_format(struct strbuf *sb, const struct header_env *env, int feat)
{
	if (!env->dir_format_version)
		return 0;
	feat_u64(sb, env->dir_format_version);
	return 1;
}

/* Each feature's payload builder: 1 when it wrote one, 0 when the feature
 * does not apply, or -errno.  Tracing data first: a reader needs it, so its
 * failure stops everything. */
static int (*const builders[HEADER_LAST_FEATURE])(struct strbuf *sb,
						 const struct header_env *env, int feat) = {
	[HEADER_TRACING_DATA] = build_tracing_data,
	[HEADER_BUILD_ID] = build_build_ids,
	[HEADER_HOSTNAME] = build_uname,
	[HEADER_OSRELEASE] = build_uname,
	[HEADER_VERSION] = build_version,
	[HEADER_ARCH] = build_uname,
	[HEADER_NRCPUS] = build_nrcpus,
	[HEADER_CPUDESC] = build_cpudesc,
	[HEADER_CPUID] = build_cpuid,
	[HEADER_TOTAL_MEM] = build_total_mem,
	[HEADER_CMDLINE] = build_cmdline,
	[HEADER_EVENT_DESC] = build_event_desc,
	[HEADER_CPU_TOPOLOGY] = build_cpu_topology,
	[HEADER_NUMA_TOPOLOGY] = build_numa_topology,
	[HEADER_PMU_MAPPINGS] = build_pmu_mappings,
	[HEADER_GROUP_DESC] = build_group_desc,
	[HEADER_CACHE] = build_cache,
	[HEADER_SAMPLE_TIME] = build_sample_time,
	[HEADER_MEM_TOPOLOGY] = build_mem_topology,
	[HEADER_CLOCKID] = build_clockid,
	[HEADER_DIR_FORMAT] = build_dir_format,
	[HEADER_COMPRESSED] = build_compressed,
	[HEADER_CLOCK_DATA] = build_clock_data,
	[HEADER_BPF_PROG_INFO] = build_bpf_progs,
	[HEADER_BPF_BTF] = build_bpf_btfs,
	/* no PMU capabilities to describe */
	[HEADER_PMU_CAPS] = build_empty_count,
};

int header_features__write(struct perf_data_writer *w, const struct header_env *env)
{
	struct strbuf sb = STRBUF_INIT;

	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++) {
		int ret = builders[feat] ? builders[feat](&sb, env, feat) : 0;
		size_t len = sb.len;

		if (ret < 0) {
			strbuf_release(&sb);
			return ret;
		}
		if (ret)
			perf_data_writer__set_feature(w, feat, strbuf_detach(&sb), len);
		strbuf_reset(&sb);
	}
	strbuf_release(&sb);
	return 0;
}
