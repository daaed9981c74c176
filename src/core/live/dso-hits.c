/* dso-hits: the DSOs samples hit, with their build ids (see dso-hits.h). */
#include "core/live/dso-hits.h"
#include "core/data/perf-record.h"
#include "core/symbols/buildid.h"
#include "util/hashmap.h"
#include "util/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_SHIFT	12
#define KERNEL_PID	(-1)
#define MAX_FORK_DEPTH	32
#define PAGE_KEY_MASK	((1ULL << 40) - 1)

struct hmap {
	int dso;
	uint64_t start, end;
};

struct proc {
	int32_t pid, ppid;	/* ppid 0: none known */
	struct hmap *maps;
	size_t nr_maps, cap_maps;
};

struct dso_entry {
	char *name;		/* as stored in BUILD_ID: the kernel is "[kernel.kallsyms]" */
	bool kernel, hit;
};

struct dso_hits {
	struct proc *procs;
	size_t nr_procs, cap_procs;
	struct hashmap proc_index;	/* pid -> size_t index into procs */

	struct dso_entry *dsos;
	size_t nr_dsos;

	struct hashmap user_hits, kernel_hits;	/* sets of page keys */
	struct hit_dso *out;
	char *kernel_name;	/* the table's name for the kernel, or NULL */
};

struct dso_hits *dso_hits__new(void)
{
	struct dso_hits *h = xcalloc(1, sizeof(*h));

	hashmap_init(&h->proc_index, sizeof(size_t));
	hashmap_init(&h->user_hits, 0);
	hashmap_init(&h->kernel_hits, 0);
	return h;
}

void dso_hits__delete(struct dso_hits *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nr_procs; i++)
		free(h->procs[i].maps);
	free(h->procs);
	hashmap_release(&h->proc_index);
	for (size_t i = 0; i < h->nr_dsos; i++)
		free(h->dsos[i].name);
	free(h->dsos);
	hashmap_release(&h->user_hits);
	hashmap_release(&h->kernel_hits);
	free(h->out);
	free(h->kernel_name);
	free(h);
}

static struct proc *find_proc(struct dso_hits *h, int32_t pid)
{
	const size_t *idx = hashmap_u64_find(&h->proc_index, (uint32_t)pid);

	return idx ? &h->procs[*idx] : NULL;
}

static struct proc *findnew_proc(struct dso_hits *h, int32_t pid)
{
	bool added;
	size_t *idx = hashmap_u64_findnew(&h->proc_index, (uint32_t)pid, &added);
	struct proc *p;

	if (!added)
		return &h->procs[*idx];
	if (h->nr_procs == h->cap_procs) {
		h->cap_procs = h->cap_procs ? h->cap_procs * 2 : 64;
		h->procs = xrealloc(h->procs, h->cap_procs * sizeof(*h->procs));
	}
	*idx = h->nr_procs++;
	p = &h->procs[*idx];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	return p;
}

static int findnew_dso(struct dso_hits *h, const char *name, bool kernel)
{
	for (size_t i = h->nr_dsos; i-- > 0;)
		if (h->dsos[i].kernel == kernel && !strcmp(h->dsos[i].name, name))
			return (int)i;
	h->dsos = xrealloc(h->dsos, (h->nr_dsos + 1) * sizeof(*h->dsos));
	h->dsos[h->nr_dsos].name = xstrdup(name);
	h->dsos[h->nr_dsos].kernel = kernel;
	h->dsos[h->nr_dsos].hit = false;
	return (int)h->nr_dsos++;
}

void dso_hits__mmap(struct dso_hits *h, int32_t pid, uint64_t start, uint64_t len,
		    const char *filename)
{
	bool kernel = pid == KERNEL_PID;
	struct proc *p = findnew_proc(h, pid);
	struct hmap *m;

	/* The kernel map is named after its reference symbol ("..._text"). */
	if (kernel && str_starts_with(filename, "[kernel.kallsyms]"))
		filename = "[kernel.kallsyms]";
	if (p->nr_maps == p->cap_maps) {
		p->cap_maps = p->cap_maps ? p->cap_maps * 2 : 16;
		p->maps = xrealloc(p->maps, p->cap_maps * sizeof(*p->maps));
	}
	m = &p->maps[p->nr_maps++];
	m->dso = findnew_dso(h, filename, kernel);
	m->start = start;
	m->end = start + len;
}

void dso_hits__fork(struct dso_hits *h, int32_t pid, int32_t ppid)
{
	if (pid != ppid)
		findnew_proc(h, pid)->ppid = ppid;
}

void dso_hits__sample(struct dso_hits *h, int32_t pid, uint64_t ip, bool kernel)
{
	/* User pages fit in 40 bits (47-bit address space); pid goes above.
	 * Kernel pages share one address space: the page alone is the key. */
	if (kernel)
		hashmap_u64_findnew(&h->kernel_hits, ip >> PAGE_SHIFT, NULL);
	else
		hashmap_u64_findnew(&h->user_hits, ((uint64_t)(uint32_t)pid << 40) |
						   ((ip >> PAGE_SHIFT) & PAGE_KEY_MASK), NULL);
}

void dso_hits__record(struct dso_hits *h, const void *record)
{
	const struct perf_event_header *hdr = record;

	switch (hdr->type) {
	case PERF_RECORD_MMAP: {
		const struct perf_rec_mmap *m = record;

		dso_hits__mmap(h, (int32_t)m->pid, m->start, m->len, m->filename);
		break;
	}
	case PERF_RECORD_MMAP2: {
		const struct perf_rec_mmap2 *m = record;

		dso_hits__mmap(h, (int32_t)m->pid, m->start, m->len, m->filename);
		break;
	}
	case PERF_RECORD_FORK: {
		const struct perf_rec_fork *f = record;

		dso_hits__fork(h, (int32_t)f->pid, (int32_t)f->ppid);
		break;
	}
	default:
		break;
	}
}

/* The newest map of p (or of the processes it was forked from) covering addr. */
static const struct hmap *find_map(struct dso_hits *h, struct proc *p, uint64_t addr)
{
	for (int depth = 0; p && depth < MAX_FORK_DEPTH; depth++) {
		for (size_t i = p->nr_maps; i-- > 0;)
			if (addr >= p->maps[i].start && addr < p->maps[i].end)
				return &p->maps[i];
		p = p->ppid ? find_proc(h, p->ppid) : NULL;
	}
	return NULL;
}

static void mark_hits(struct dso_hits *h)
{
	struct proc *kernel = find_proc(h, KERNEL_PID);

	for (const void *v = NULL; kernel && (v = hashmap_next(&h->kernel_hits, v));) {
		const struct hmap *m = find_map(h, kernel, hashmap_u64_key(v) << PAGE_SHIFT);

		if (m)
			h->dsos[m->dso].hit = true;
	}
	for (const void *v = NULL; (v = hashmap_next(&h->user_hits, v));) {
		uint64_t k = hashmap_u64_key(v);
		struct proc *p;
		const struct hmap *m;

		p = find_proc(h, (int32_t)(uint32_t)(k >> 40));
		m = p ? find_map(h, p, (k & PAGE_KEY_MASK) << PAGE_SHIFT) : NULL;
		if (m)
			h->dsos[m->dso].hit = true;
	}
}

/* The build id of a DSO as its map named it; 0 when it has none we can read. */
static int read_build_id(const struct dso_entry *d, uint8_t *id, size_t max)
{
	const char *n = d->name;

	if (d->kernel && !strcmp(n, "[kernel.kallsyms]"))
		return sysfs__read_kernel_build_id(id, max);
	if (!d->kernel && !strcmp(n, "[vdso]"))
		return vdso__read_build_id(id, max);
	if (n[0] != '/' || strstr(n, " (deleted)"))
		return 0;	/* anonymous memory, [heap], memfd, a module without a file */
	return elf_file__read_build_id(n, id, max);
}

void dso_hits__name_kernel(struct dso_hits *h, const char *name)
{
	free(h->kernel_name);
	h->kernel_name = xstrdup(name);
}

size_t dso_hits__resolve(struct dso_hits *h, bool all, const struct hit_dso **out)
{
	size_t nr = 0;

	mark_hits(h);
	free(h->out);
	h->out = xcalloc(h->nr_dsos + 1, sizeof(*h->out));
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < h->nr_dsos; i++) {
			struct dso_entry *d = &h->dsos[i];
			struct hit_dso *o = &h->out[nr];

			if (d->kernel != (pass == 0) || !(d->hit || all))
				continue;
			o->build_id_size = read_build_id(d, o->build_id, sizeof(o->build_id));
			if (o->build_id_size <= 0)
				continue;
			o->filename = d->kernel && h->kernel_name &&
				      !strcmp(d->name, "[kernel.kallsyms]") ? h->kernel_name : d->name;
			o->kernel = d->kernel;
			nr++;
		}
	}
	*out = h->out;
	return nr;
}
