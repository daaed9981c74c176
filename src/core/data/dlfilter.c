/* dlfilter: see dlfilter.h. */
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/data/dlfilter.h"
#include "core/symbols/machine.h"
#include "util/util.h"

#if __has_include(<perf/perf_dlfilter.h>)	/* Debian's linux-perf has the ABI header */
#include <perf/perf_dlfilter.h>

struct dlfilter {
	void *handle;
	void *data;		/* what start() set */
	int argc;
	char **argv;
	int (*start)(void **data, void *ctx);
	int (*stop)(void *data, void *ctx);
	int (*filter_event)(void *data, const struct perf_dlfilter_sample *s, void *ctx);
	int (*filter_event_early)(void *data, const struct perf_dlfilter_sample *s, void *ctx);
	bool in_call;		/* the sample functions answer only during a call */
	bool in_start_stop;	/* args() answers there too */

	/* the sample being asked about */
	struct perf_session *session;	/* resolves the sample */
	struct machine *machine;
	const struct sample_filter *filter;
	struct evsel *evsel;
	const struct perf_sample *sample;
	const struct perf_dlfilter_sample *d_sample;
	struct addr_location al, addr_al;
	bool al_done, addr_al_done;
	struct perf_dlfilter_al d_ip_al, d_addr_al;
};

static bool kernel_ip(uint64_t ip)
{
	return ip >= 1ULL << 63;	/* x86_64: the upper half is the kernel's */
}

static void to_d_al(const struct addr_location *al, struct perf_dlfilter_al *d)
{
	memset(d, 0, sizeof(*d));
	d->size = sizeof(*d);
	if (al->map && al->map->dso) {
		d->dso = al->map->dso->long_name;
		d->is_64_bit = 1;
		d->buildid_size = (__u32)al->map->dso->build_id_size;
		d->buildid = d->buildid_size ? al->map->dso->build_id : NULL;
	}
	if (al->sym) {
		d->sym = al->sym->name;
		d->sym_start = al->sym->start;
		d->sym_end = al->sym->end;
		d->symoff = (__u32)(al->addr < al->sym->end ? al->addr - al->sym->start :
				    al->addr - al->map->start - al->sym->start);
		d->sym_binding = STB_GLOBAL;	/* pcl keeps no binding */
	}
	d->addr = al->addr;
}

static struct addr_location *sample_al(struct dlfilter *d)
{
	if (!d->al_done) {
		perf_session__resolve_sample(d->session, d->sample, &d->al);
		d->al_done = true;
	}
	return &d->al;
}

static const struct perf_dlfilter_al *fn_resolve_ip(void *ctx)
{
	struct dlfilter *d = ctx;
	struct addr_location *al;

	if (!d->in_call)
		return NULL;
	if (d->d_ip_al.size)
		return &d->d_ip_al;
	al = sample_al(d);
	to_d_al(al, &d->d_ip_al);
	d->d_ip_al.is_kernel_ip = kernel_ip(d->sample->ip);
	d->d_ip_al.comm = al->thread ? al->thread->comm : ":-1";
	d->d_ip_al.filtered = d->filter && (sample_filter__thread(d->filter, al->thread) ||
					    sample_filter__dso(d->filter, al) ||
					    sample_filter__symbol(d->filter, al));
	return &d->d_ip_al;
}

static const struct perf_dlfilter_al *fn_resolve_addr(void *ctx)
{
	struct dlfilter *d = ctx;

	if (!d->in_call || !d->d_sample->addr_correlates_sym)
		return NULL;
	if (d->d_addr_al.size)
		return &d->d_addr_al;
	if (!d->addr_al_done) {
		struct thread *t = sample_al(d)->thread;

		memset(&d->addr_al, 0, sizeof(d->addr_al));
		machine__resolve(d->machine, t, d->sample->cpumode, d->sample->addr, &d->addr_al);
		d->addr_al_done = true;
	}
	to_d_al(&d->addr_al, &d->d_addr_al);
	d->d_addr_al.is_kernel_ip = kernel_ip(d->sample->addr);
	return &d->d_addr_al;
}

static char **fn_args(void *ctx, int *argc)
{
	struct dlfilter *d = ctx;

	if (!argc)
		return NULL;
	*argc = 0;
	if (!d->in_call && !d->in_start_stop)
		return NULL;
	*argc = d->argc;
	return d->argv;
}

static __s32 fn_resolve_address(void *ctx, __u64 address, struct perf_dlfilter_al *out)
{
	struct dlfilter *d = ctx;
	struct perf_dlfilter_al d_al;
	struct addr_location al;
	__u32 size;

	if (!d->in_call || !out)
		return -1;
	memset(&al, 0, sizeof(al));
	machine__resolve(d->machine, sample_al(d)->thread, d->sample->cpumode, address, &al);
	to_d_al(&al, &d_al);
	d_al.is_kernel_ip = kernel_ip(address);
	size = out->size;
	memcpy(out, &d_al, size < sizeof(d_al) ? size : sizeof(d_al));
	out->size = size;
	return 0;
}

static const __u8 *fn_insn(void *ctx, __u32 *len)
{
	(void)ctx;
	if (len)
		*len = 0;
	return NULL;
}

static const char *fn_srcline(void *ctx, __u32 *line)
{
	struct dlfilter *d = ctx;
	struct addr_location *al;
	unsigned n = 0;
	const char *file = NULL;

	if (!d->in_call || !line)
		return NULL;
	al = sample_al(d);
	if (al->map && al->map->dso)
		file = dso__srcfile(al->map->dso, al->addr, &n);
	*line = n;
	return file;
}
static struct perf_event_attr *fn_attr(void *ctx)
{
	struct dlfilter *d = ctx;

	return d->in_call ? (struct perf_event_attr *)&d->evsel->attr : NULL;
}

/* The bytes of the binary mapped at ip (user space: the file's bytes at
 * the map's offset; the kernel's image is not read). */
static __s32 fn_object_code(void *ctx, __u64 ip, void *buf, __u32 len)
{
	struct dlfilter *d = ctx;
	struct addr_location *al, other;
	struct map *map;
	long n;

	if (!d->in_call)
		return -1;
	al = sample_al(d);
	map = al->map;
	if (!map || ip < map->start || ip >= map->end ||
	    kernel_ip(ip) != kernel_ip(d->sample->ip)) {
		memset(&other, 0, sizeof(other));
		machine__resolve(d->machine, al->thread, kernel_ip(ip) ? PERF_RECORD_MISC_KERNEL :
				 PERF_RECORD_MISC_USER, ip, &other);
		map = other.map;
	}
	if (!map || !map->dso || map->dso->kernel || map->identity)
		return -1;
	if (ip + len >= map->end)
		len = (__u32)(map->end - ip);
	n = dso__read(map->dso, map__map_ip(map, ip), buf, len);
	return n < 0 ? -1 : (__s32)n;
}
static const struct perf_dlfilter_fns fns = {
	.resolve_ip = fn_resolve_ip,
	.resolve_addr = fn_resolve_addr,
	.args = fn_args,
	.resolve_address = fn_resolve_address,
	.insn = fn_insn,
	.srcline = fn_srcline,
	.attr = fn_attr,
	.object_code = fn_object_code,
};

/* a bare "x.so": the current directory ("./" for dlopen), else perf's
 * own dlfilters */
static void *open_object(const char *file)
{
	char path[PATH_MAX];

	if (!strchr(file, '/')) {
		if (!access(file, R_OK))
			snprintf(path, sizeof(path), "./%s", file);
		else
			snprintf(path, sizeof(path), "%s/%s", PERF_DLFILTER_DIR, file);
		if (!access(path, R_OK))
			file = path;
	}
	return dlopen(file, RTLD_NOW);
}

struct dlfilter *dlfilter__new(const char *file, int argc, char **argv, FILE *err)
{
	void *h = open_object(file);
	struct dlfilter *d;
	struct perf_dlfilter_fns *table;

	if (!h) {
		fprintf(err, "dlopen failed for: '%s'\n", file);
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->handle = h;
	d->argc = argc;
	d->argv = argv;
	*(void **)&d->start = dlsym(h, "start");
	*(void **)&d->stop = dlsym(h, "stop");
	*(void **)&d->filter_event = dlsym(h, "filter_event");
	*(void **)&d->filter_event_early = dlsym(h, "filter_event_early");
	table = dlsym(h, "perf_dlfilter_fns");
	if (table)
		memcpy(table, &fns, sizeof(fns));
	return d;
}

int dlfilter__start(struct dlfilter *d)
{
	int ret = 0;

	if (d && d->start) {
		d->in_start_stop = true;
		ret = d->start(&d->data, d);
		d->in_start_stop = false;
	}
	return ret;
}

int dlfilter__delete(struct dlfilter *d, bool stop)
{
	int ret = 0;

	if (!d)
		return 0;
	if (stop && d->stop) {
		d->in_start_stop = true;
		ret = d->stop(d->data, d);
		d->in_start_stop = false;
	}
	dlclose(d->handle);
	free(d);
	return ret;
}

static bool addr_correlates_sym(const struct perf_event_attr *a)
{
	return (a->sample_type & PERF_SAMPLE_ADDR) && a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_PAGE_FAULTS ||
		a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

int dlfilter__filter(struct dlfilter *d, bool early, struct perf_session *session,
		     const struct sample_filter *filter, struct evsel *evsel,
		     const struct perf_sample *sample)
{
	int (*fn)(void *, const struct perf_dlfilter_sample *, void *);
	struct perf_dlfilter_sample s;
	int ret;

	if (!d || !(fn = early ? d->filter_event_early : d->filter_event))
		return 0;
	memset(&s, 0, sizeof(s));
	s.size = sizeof(s);
	s.ip = sample->ip;
	s.pid = (__s32)sample->pid;
	s.tid = (__s32)sample->tid;
	s.time = sample->time;
	s.addr = sample->addr;
	s.id = sample->id;
	s.stream_id = sample->stream_id;
	s.period = sample->period;
	s.weight = sample->weight;
	s.ins_lat = sample->ins_lat;
	s.p_stage_cyc = sample->p_stage_cyc;
	s.transaction = sample->transaction;
	s.cpu = (__s32)sample->cpu;
	s.data_src = sample->data_src;
	s.phys_addr = sample->phys_addr;
	s.data_page_size = sample->data_page_size;
	s.code_page_size = sample->code_page_size;
	s.cgroup = sample->cgroup;
	s.cpumode = sample->cpumode;
	s.misc = sample->misc;
	s.raw_size = sample->raw_size;
	s.raw_data = sample->raw_data;
	s.brstack_nr = sample->branch_entries ? sample->branch_nr : 0;
	s.brstack = sample->branch_entries;
	s.raw_callchain_nr = sample->callchain ? sample->callchain_nr : 0;
	s.raw_callchain = (const __u64 *)sample->callchain;
	s.addr_correlates_sym = addr_correlates_sym(&evsel->attr);
	s.event = evsel->name;

	d->session = session;
	d->machine = session->machine;
	d->filter = filter;
	d->evsel = evsel;
	d->sample = sample;
	d->d_sample = &s;
	d->al_done = d->addr_al_done = false;
	d->d_ip_al.size = d->d_addr_al.size = 0;
	d->in_call = true;
	ret = fn(d->data, &s, d);
	d->in_call = false;
	return ret;
}

void dlfilter__list(FILE *fp, const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;

	if (!dp)
		return;
	while ((e = readdir(dp))) {
		char path[PATH_MAX];
		const char *(*desc)(const char **);
		const char *text = NULL, *long_text = NULL;
		size_t n = strlen(e->d_name);
		void *h;

		if (e->d_type == DT_DIR || n < 4 || strcmp(e->d_name + n - 3, ".so"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!(h = dlopen(path, RTLD_NOW)))
			continue;
		*(void **)&desc = dlsym(h, "filter_description");
		if (desc)
			text = desc(&long_text);
		fprintf(fp, "  %-36s %s\n", e->d_name, text ? text : "");
		dlclose(h);
	}
	closedir(dp);
}

#else	/* built without the ABI header: no dlfilters */

struct dlfilter {
	int unused;
};

struct dlfilter *dlfilter__new(const char *file, int argc, char **argv, FILE *err)
{
	(void)argc, (void)argv;
	fprintf(err, "pcl was built without <perf/perf_dlfilter.h>: cannot load '%s'\n", file);
	return NULL;
}

int dlfilter__start(struct dlfilter *d)
{
	(void)d;
	return 0;
}

int dlfilter__delete(struct dlfilter *d, bool stop)
{
	(void)d, (void)stop;
	return 0;
}

int dlfilter__filter(struct dlfilter *d, bool early, struct perf_session *session,
		     const struct sample_filter *filter, struct evsel *evsel,
		     const struct perf_sample *sample)
{
	(void)d, (void)early, (void)session, (void)filter, (void)evsel, (void)sample;
	return 0;
}

void dlfilter__list(FILE *fp, const char *dir)
{
	(void)fp, (void)dir;
}

#endif
