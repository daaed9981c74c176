/* perf-data: reading the perf.data header, attrs and feature sections.
 *
 * Everything is bounds-checked against the section or file size: a bad file
 * yields an error naming the offset, never a read outside the buffer.
 */
#include "core/data/perf-data.h"
#include "core/data/bpf-info.h"
#include "core/data/data-cursor.h"
#include "util/util.h"

#include <byteswap.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const feature_names[HEADER_LAST_FEATURE] = {
	[HEADER_TRACING_DATA] = "TRACING_DATA",
	[HEADER_BUILD_ID] = "BUILD_ID",
	[HEADER_HOSTNAME] = "HOSTNAME",
	[HEADER_OSRELEASE] = "OSRELEASE",
	[HEADER_VERSION] = "VERSION",
	[HEADER_ARCH] = "ARCH",
	[HEADER_NRCPUS] = "NRCPUS",
	[HEADER_CPUDESC] = "CPUDESC",
	[HEADER_CPUID] = "CPUID",
	[HEADER_TOTAL_MEM] = "TOTAL_MEM",
	[HEADER_CMDLINE] = "CMDLINE",
	[HEADER_EVENT_DESC] = "EVENT_DESC",
	[HEADER_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[HEADER_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[HEADER_BRANCH_STACK] = "BRANCH_STACK",
	[HEADER_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[HEADER_GROUP_DESC] = "GROUP_DESC",
	[HEADER_AUXTRACE] = "AUXTRACE",
	[HEADER_STAT] = "STAT",
	[HEADER_CACHE] = "CACHE",
	[HEADER_SAMPLE_TIME] = "SAMPLE_TIME",
	[HEADER_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[HEADER_CLOCKID] = "CLOCKID",
	[HEADER_DIR_FORMAT] = "DIR_FORMAT",
	[HEADER_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[HEADER_BPF_BTF] = "BPF_BTF",
	[HEADER_COMPRESSED] = "COMPRESSED",
	[HEADER_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[HEADER_CLOCK_DATA] = "CLOCK_DATA",
	[HEADER_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[HEADER_PMU_CAPS] = "PMU_CAPS",
};

const char *perf_data__default_path(bool writing)
{
	struct stat st;

	return !fstat(writing ? STDOUT_FILENO : STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ?
		"-" : "perf.data";
}

const char *perf_feature_name(int feat)
{
	if (feat <= 0 || feat >= HEADER_LAST_FEATURE)
		return NULL;
	return feature_names[feat];
}

static uint64_t swap_bits_in_bytes(uint64_t v)
{
	uint64_t r = 0;

	for (int byte = 0; byte < 8; byte++) {
		uint8_t b = (v >> (byte * 8)) & 0xff, o = 0;

		for (int bit = 0; bit < 8; bit++)
			if (b & (1u << bit))
				o |= 1u << (7 - bit);
		r |= (uint64_t)o << (byte * 8);
	}
	return r;
}

/* Field widths of perf_event_attr, in layout order, for byte swapping. */
static const uint8_t attr_layout[] = {
	4, 4, 8, 8, 8, 8, 0 /* flags bitfield */, 4, 4, 8, 8, 8, 8, 4, 4, 8, 4, 2, 2, 4, 4, 8, 8,
};

void perf_event_attr__swap(struct perf_event_attr *attr, size_t size)
{
	uint8_t *p = (uint8_t *)attr;
	size_t off = 0;

	for (size_t i = 0; i < ARRAY_SIZE(attr_layout); i++) {
		size_t w = attr_layout[i] ? attr_layout[i] : 8;

		if (off + w > size)
			break;
		if (attr_layout[i]) {
			swap_in_place(p + off, w);
		} else {
			uint64_t v;

			/* bitfields are allocated from the other end of the word:
			 * reversing each byte's bits puts every flag in place */
			memcpy(&v, p + off, 8);
			v = swap_bits_in_bytes(v);
			memcpy(p + off, &v, 8);
		}
		off += w;
	}
}

void perf_event_attr__from_disk(struct perf_event_attr *dst, const void *src, size_t size)
{
	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, size < sizeof(*dst) ? size : sizeof(*dst));
}

struct perf_data_attr *perf_header__add_attr(struct perf_header *h,
					     const struct perf_event_attr *attr,
					     const uint64_t *ids, uint32_t nr_ids)
{
	struct perf_data_attr *a;

	h->attrs = xrealloc(h->attrs, (h->nr_attrs + 1) * sizeof(*h->attrs));
	a = &h->attrs[h->nr_attrs++];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->nr_ids = nr_ids;
	a->ids = xcalloc(nr_ids ? nr_ids : 1, sizeof(uint64_t));
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * sizeof(uint64_t));
	return a;
}

static char *errf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *errf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = xstrdup("out of memory");
	va_end(ap);
	return s;
}

/* ---- features ---- */

/*
 * Most features are a fixed sequence of u32/u64/string fields, perhaps
 * followed by a u32 count and that many records of such fields: those are
 * described by a layout and read (and freed) by the generic code below.
 * The others have their own parse and clear functions.
 */
enum field_type {
	FIELD_END,
	FIELD_U32,
	FIELD_U64,
	FIELD_STR,
	FIELD_VERSION_1,	/* a u32 layout version; only 1 is known */
	FIELD_OWNED,		/* a malloc'ed pointer a parse function fills */
};

struct field {
	enum field_type type;
	size_t off;		/* in struct perf_header, or in a list record */
};

struct feat_list {
	size_t array_off, nr_off;	/* the array and its uint32_t count in the header */
	size_t rec_size;
	const struct field *fields;
};

struct feat_layout {
	const struct field *fields;	/* read into the header first */
	const struct feat_list *list;	/* then this, unless parse reads it */
	void (*parse)(struct perf_header *h, struct data_cursor *c);
	void (*clear)(struct perf_header *h);
};

#define FIELD(type, st, member)	{ FIELD_##type, offsetof(st, member) }
#define HDR(type, member)	FIELD(type, struct perf_header, member)
#define FIELDS(...)		((const struct field[]){ __VA_ARGS__, { FIELD_END, 0 } })
/* The offset of a list's count, which must be a uint32_t. */
#define NR_OFF(array)	(offsetof(struct perf_header, nr_##array) + 0 * sizeof(struct {	\
	_Static_assert(sizeof(((struct perf_header *)0)->nr_##array) == 4,		\
		       "nr_" #array " must be a uint32_t");				\
	int unused; }))
#define LIST(array, ...)	(&(const struct feat_list){				\
	offsetof(struct perf_header, array), NR_OFF(array),				\
	sizeof(*((struct perf_header *)0)->array), FIELDS(__VA_ARGS__) })

/* Pointer members are reached by offset: copy them in and out rather than
 * cast (a char * and a struct pointer are not the same type to C). */
static void *get_ptr(const void *base, size_t off)
{
	void *p;

	memcpy(&p, (const char *)base + off, sizeof(p));
	return p;
}

static void set_ptr(void *base, size_t off, void *p)
{
	memcpy((char *)base + off, &p, sizeof(p));
}

static void read_fields(struct data_cursor *c, const struct field *f, void *base)
{
	for (; f && f->type != FIELD_END; f++) {
		char *dst = (char *)base + f->off;

		if (f->type == FIELD_U32)
			*(uint32_t *)(void *)dst = data_cursor__u32(c);
		else if (f->type == FIELD_U64)
			*(uint64_t *)(void *)dst = data_cursor__u64(c);
		else if (f->type == FIELD_STR)
			set_ptr(base, f->off, data_cursor__str(c));
		else if (f->type == FIELD_VERSION_1 && data_cursor__u32(c) != 1)
			c->bad = true;
	}
}

static void free_fields(const struct field *f, void *base)
{
	for (; f && f->type != FIELD_END; f++) {
		if (f->type == FIELD_STR || f->type == FIELD_OWNED) {
			free(get_ptr(base, f->off));
			set_ptr(base, f->off, NULL);
		}
	}
}

static void read_list(struct data_cursor *c, const struct feat_list *l, struct perf_header *h)
{
	uint32_t n = data_cursor__count(c, data_cursor__u32(c));
	uint32_t *nr = (uint32_t *)(void *)((char *)h + l->nr_off);
	char *array = xcalloc(n ? n : 1, l->rec_size);

	set_ptr(h, l->array_off, array);
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		read_fields(c, l->fields, array + i * l->rec_size);
		*nr = i + 1;
	}
}

static void free_list(const struct feat_list *l, struct perf_header *h)
{
	uint32_t *nr = (uint32_t *)(void *)((char *)h + l->nr_off);
	char *array = get_ptr(h, l->array_off);

	for (uint32_t i = 0; array && i < *nr; i++)
		free_fields(l->fields, array + i * l->rec_size);
	free(array);
	set_ptr(h, l->array_off, NULL);
	*nr = 0;
}

static void parse_tracing_data(struct perf_header *h, struct data_cursor *c)
{
	size_t size = data_cursor__left(c);

	h->tracing_data = xmalloc(size ? size : 1);
	memcpy(h->tracing_data, data_cursor__skip(c, size), size);
	h->tracing_data_size = size;
}

static void clear_tracing_data(struct perf_header *h)
{
	free(h->tracing_data);
	h->tracing_data = NULL;
	h->tracing_data_size = 0;
}

static void parse_build_ids(struct perf_header *h, struct data_cursor *c)
{
	/* perf_event_header, pid, build id, then the padded file name */
	const size_t fixed = sizeof(struct perf_event_header) + 4 + 24;

	while (data_cursor__left(c)) {
		const uint8_t *rec = c->p, *id;
		struct perf_build_id_entry *e;
		uint16_t misc, size;

		data_cursor__u32(c);	/* type */
		misc = data_cursor__u16(c);
		size = data_cursor__u16(c);
		if (c->bad || size < fixed || (size_t)(c->end - rec) < size) {
			c->bad = true;
			break;
		}
		h->build_ids = xrealloc(h->build_ids, (h->nr_build_ids + 1) * sizeof(*e));
		e = &h->build_ids[h->nr_build_ids++];
		memset(e, 0, sizeof(*e));
		e->misc = misc;
		e->pid = (int32_t)data_cursor__u32(c);
		id = data_cursor__skip(c, 24);
		memcpy(e->build_id, id, BUILD_ID_MAX);
		e->size = (misc & PERF_RECORD_MISC_BUILD_ID_SIZE) ? id[20] : BUILD_ID_MAX;
		if (e->size > BUILD_ID_MAX)
			e->size = BUILD_ID_MAX;
		e->filename = xstrndup((const char *)c->p, size - fixed);
		c->p = rec + size;
	}
}

static void parse_event_desc(struct perf_header *h, struct data_cursor *c)
{
	uint32_t nre = data_cursor__count(c, data_cursor__u32(c));
	uint32_t sz = data_cursor__u32(c);

	if (c->bad)
		return;
	if (sz < PERF_ATTR_SIZE_VER0 || sz > 4096) {
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < nre && !c->bad; i++) {
		const void *on_disk = data_cursor__skip(c, sz);
		struct perf_event_attr attr;
		uint8_t raw[4096];
		uint32_t nr;
		char *name;
		uint64_t *ids;

		if (!on_disk)
			return;
		memcpy(raw, on_disk, sz);
		if (c->swap)
			perf_event_attr__swap((struct perf_event_attr *)(void *)raw, sz);
		perf_event_attr__from_disk(&attr, raw, sz);
		nr = data_cursor__count(c, data_cursor__u32(c));
		name = data_cursor__str(c);
		if (c->bad || !data_cursor__need(c, (size_t)nr * 8)) {
			free(name);
			return;
		}
		ids = xcalloc(nr ? nr : 1, 8);
		for (uint32_t j = 0; j < nr; j++)
			ids[j] = data_cursor__u64(c);
		/* Names go to the matching attr (same index); a pipe file or a
		 * header without attrs gets its events from here. */
		if (i < h->nr_attrs) {
			free(h->attrs[i].name);
			h->attrs[i].name = name;
		} else {
			struct perf_data_attr *a = perf_header__add_attr(h, &attr, ids, nr);
			a->name = name;
		}
		free(ids);
	}
}

static void parse_cpu_topology(struct perf_header *h, struct data_cursor *c)
{
	uint32_t n = h->nr_cpus_avail;

	h->sibling_cores = data_cursor__str_list(c, &h->nr_sibling_cores);
	h->sibling_threads = data_cursor__str_list(c, &h->nr_sibling_threads);
	if (c->bad)
		return;
	if (!data_cursor__left(c))
		return;		/* very old files: no per-cpu ids */
	if (n > DATA_CURSOR_MAX_ITEMS) {
		c->bad = true;
		return;
	}
	h->cpu_topo = xcalloc(n ? n : 1, sizeof(*h->cpu_topo));
	h->nr_cpu_topo = n;
	for (uint32_t i = 0; i < n; i++) {
		h->cpu_topo[i].core_id = (int32_t)data_cursor__u32(c);
		h->cpu_topo[i].socket_id = (int32_t)data_cursor__u32(c);
		h->cpu_topo[i].die_id = -1;
	}
	if (!data_cursor__left(c))
		return;
	h->sibling_dies = data_cursor__str_list(c, &h->nr_sibling_dies);
	for (uint32_t i = 0; i < n; i++)
		h->cpu_topo[i].die_id = (int32_t)data_cursor__u32(c);
	h->has_die_topo = !c->bad;
}

static void clear_cpu_topology(struct perf_header *h)
{
	str_list__free(h->sibling_cores, h->nr_sibling_cores);
	str_list__free(h->sibling_threads, h->nr_sibling_threads);
	str_list__free(h->sibling_dies, h->nr_sibling_dies);
	free(h->cpu_topo);
	h->sibling_cores = h->sibling_threads = h->sibling_dies = NULL;
	h->nr_sibling_cores = h->nr_sibling_threads = h->nr_sibling_dies = 0;
	h->cpu_topo = NULL;
	h->nr_cpu_topo = 0;
	h->has_die_topo = false;
}

static void parse_mem_topology(struct perf_header *h, struct data_cursor *c)
{
	uint64_t n;

	h->mem_version = data_cursor__u64(c);
	h->mem_block_size = data_cursor__u64(c);
	n = data_cursor__u64(c);
	if (n > DATA_CURSOR_MAX_ITEMS || h->mem_version != 1) {
		c->bad = true;
		return;
	}
	h->mem_nodes = xcalloc(n ? n : 1, sizeof(*h->mem_nodes));
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		struct perf_mem_node *m = &h->mem_nodes[i];
		uint64_t bits, words;

		m->node = data_cursor__u64(c);
		m->size = data_cursor__u64(c);
		bits = data_cursor__u64(c);
		if (bits > (1ULL << 32)) {
			c->bad = true;
			return;
		}
		words = (bits + 63) / 64;
		if (!data_cursor__need(c, words * 8))
			return;
		m->nbits = bits;
		m->set = xcalloc(words ? words : 1, 8);
		for (uint64_t w = 0; w < words; w++)
			m->set[w] = data_cursor__u64(c);
		h->nr_mem_nodes = i + 1;
	}
}

/* u32 count, then (name, value) string pairs, kept as "name=value". */
static char **parse_caps(struct data_cursor *c, uint32_t *nr)
{
	uint32_t n = data_cursor__count(c, data_cursor__u32(c));
	char **caps = xcalloc(n ? n : 1, sizeof(*caps));

	*nr = 0;
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		char *name = data_cursor__str(c), *value = data_cursor__str(c);

		if (name && value)
			caps[(*nr)++] = xasprintf("%s=%s", name, value);
		free(name);
		free(value);
	}
	return caps;
}

static void parse_cpu_pmu_caps(struct perf_header *h, struct data_cursor *c)
{
	h->cpu_pmu_caps = parse_caps(c, &h->nr_cpu_pmu_caps);
}

static void clear_cpu_pmu_caps(struct perf_header *h)
{
	str_list__free(h->cpu_pmu_caps, h->nr_cpu_pmu_caps);
	h->cpu_pmu_caps = NULL;
	h->nr_cpu_pmu_caps = 0;
}

static void parse_pmu_caps(struct perf_header *h, struct data_cursor *c)
{
	uint32_t n = data_cursor__count(c, data_cursor__u32(c));

	h->pmu_caps = xcalloc(n ? n : 1, sizeof(*h->pmu_caps));
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		struct perf_pmu_caps *pc = &h->pmu_caps[i];

		pc->caps = parse_caps(c, &pc->nr_caps);
		pc->pmu_name = data_cursor__str(c);
		h->nr_pmu_caps = i + 1;
	}
}

static void clear_pmu_caps(struct perf_header *h)
{
	for (uint32_t i = 0; i < h->nr_pmu_caps; i++) {
		str_list__free(h->pmu_caps[i].caps, h->pmu_caps[i].nr_caps);
		free(h->pmu_caps[i].pmu_name);
	}
	free(h->pmu_caps);
	h->pmu_caps = NULL;
	h->nr_pmu_caps = 0;
}

/* A byte-swapped file's BPF programs are not read: perf shows them only
 * from a file of its own byte order. */
static void parse_bpf_progs(struct perf_header *h, struct data_cursor *c)
{
	bpf_prog_descs__parse(c, &h->bpf_progs, &h->nr_bpf_progs);
}

static void clear_bpf_progs(struct perf_header *h)
{
	bpf_prog_descs__free(h->bpf_progs, h->nr_bpf_progs);
	h->bpf_progs = NULL;
	h->nr_bpf_progs = 0;
}

static void parse_bpf_btfs(struct perf_header *h, struct data_cursor *c)
{
	bpf_btf_descs__parse(c, &h->bpf_btfs, &h->nr_bpf_btfs);
}

static void clear_bpf_btfs(struct perf_header *h)
{
	bpf_btf_descs__free(h->bpf_btfs, h->nr_bpf_btfs);
	h->bpf_btfs = NULL;
	h->nr_bpf_btfs = 0;
}

/* BRANCH_STACK and STAT have no payload; the AUXTRACE index is not used. */
static const struct feat_layout feat_layouts[HEADER_LAST_FEATURE] = {
	[HEADER_TRACING_DATA] = { .parse = parse_tracing_data, .clear = clear_tracing_data },
	[HEADER_BUILD_ID] = { .parse = parse_build_ids,
		.list = LIST(build_ids, FIELD(STR, struct perf_build_id_entry, filename)) },
	[HEADER_HOSTNAME] = { .fields = FIELDS(HDR(STR, hostname)) },
	[HEADER_OSRELEASE] = { .fields = FIELDS(HDR(STR, osrelease)) },
	[HEADER_VERSION] = { .fields = FIELDS(HDR(STR, version)) },
	[HEADER_ARCH] = { .fields = FIELDS(HDR(STR, arch)) },
	[HEADER_NRCPUS] = { .fields = FIELDS(HDR(U32, nr_cpus_avail), HDR(U32, nr_cpus_online)) },
	[HEADER_CPUDESC] = { .fields = FIELDS(HDR(STR, cpudesc)) },
	[HEADER_CPUID] = { .fields = FIELDS(HDR(STR, cpuid)) },
	[HEADER_TOTAL_MEM] = { .fields = FIELDS(HDR(U64, total_mem)) },
	[HEADER_CMDLINE] = { .list = LIST(cmdline, { FIELD_STR, 0 }) },
	[HEADER_EVENT_DESC] = { .parse = parse_event_desc },
	[HEADER_CPU_TOPOLOGY] = { .parse = parse_cpu_topology, .clear = clear_cpu_topology },
	[HEADER_NUMA_TOPOLOGY] = { .list = LIST(numa_nodes,
		FIELD(U32, struct perf_numa_node, node),
		FIELD(U64, struct perf_numa_node, mem_total),
		FIELD(U64, struct perf_numa_node, mem_free),
		FIELD(STR, struct perf_numa_node, cpus)) },
	[HEADER_PMU_MAPPINGS] = { .list = LIST(pmu_mappings,
		FIELD(U32, struct perf_pmu_mapping, type),
		FIELD(STR, struct perf_pmu_mapping, name)) },
	[HEADER_GROUP_DESC] = { .list = LIST(groups,
		FIELD(STR, struct perf_group_desc, name),
		FIELD(U32, struct perf_group_desc, leader_idx),
		FIELD(U32, struct perf_group_desc, nr_members)) },
	[HEADER_CACHE] = { .fields = FIELDS({ FIELD_VERSION_1, 0 }), .list = LIST(caches,
		FIELD(U32, struct perf_cache_level, level),
		FIELD(U32, struct perf_cache_level, line_size),
		FIELD(U32, struct perf_cache_level, sets),
		FIELD(U32, struct perf_cache_level, ways),
		FIELD(STR, struct perf_cache_level, type),
		FIELD(STR, struct perf_cache_level, size),
		FIELD(STR, struct perf_cache_level, map)) },
	[HEADER_SAMPLE_TIME] = { .fields = FIELDS(HDR(U64, first_sample_time),
		HDR(U64, last_sample_time)) },
	[HEADER_MEM_TOPOLOGY] = { .parse = parse_mem_topology,
		.list = LIST(mem_nodes, FIELD(OWNED, struct perf_mem_node, set)) },
	[HEADER_CLOCKID] = { .fields = FIELDS(HDR(U64, clockid_res_ns)) },
	[HEADER_DIR_FORMAT] = { .fields = FIELDS(HDR(U64, dir_format_version)) },
	[HEADER_BPF_PROG_INFO] = { .parse = parse_bpf_progs, .clear = clear_bpf_progs },
	[HEADER_BPF_BTF] = { .parse = parse_bpf_btfs, .clear = clear_bpf_btfs },
	[HEADER_COMPRESSED] = { .fields = FIELDS(HDR(U32, comp_ver), HDR(U32, comp_type),
		HDR(U32, comp_level), HDR(U32, comp_ratio), HDR(U32, comp_mmap_len)) },
	[HEADER_CPU_PMU_CAPS] = { .parse = parse_cpu_pmu_caps, .clear = clear_cpu_pmu_caps },
	[HEADER_CLOCK_DATA] = { .fields = FIELDS(HDR(U32, clock_version), HDR(U32, clockid),
		HDR(U64, clock_tod_ns), HDR(U64, clock_clockid_ns)) },
	[HEADER_HYBRID_TOPOLOGY] = { .list = LIST(hybrid_nodes,
		FIELD(STR, struct perf_hybrid_node, pmu_name),
		FIELD(STR, struct perf_hybrid_node, cpus)) },
	[HEADER_PMU_CAPS] = { .parse = parse_pmu_caps, .clear = clear_pmu_caps },
};

static const struct feat_layout *feat_layout(int feat)
{
	return feat > 0 && feat < HEADER_LAST_FEATURE ? &feat_layouts[feat] : NULL;
}

/* Frees what an earlier copy of the feature left (a pipe may repeat one). */
static void clear_feature(struct perf_header *h, int feat)
{
	const struct feat_layout *l = feat_layout(feat);

	if (!l)
		return;
	free_fields(l->fields, h);
	if (l->list)
		free_list(l->list, h);
	if (l->clear)
		l->clear(h);
}

int perf_header__parse_feature(struct perf_header *h, int feat, const void *buf, size_t size,
			       char **err)
{
	const struct feat_layout *l = feat_layout(feat);
	struct data_cursor c;

	data_cursor__init(&c, buf, size, h->needs_swap);
	clear_feature(h, feat);
	if (l) {
		read_fields(&c, l->fields, h);
		if (l->list && !l->parse && !c.bad)
			read_list(&c, l->list, h);
		if (l->parse)
			l->parse(h, &c);
	}
	if (c.bad) {
		*err = errf("corrupt %s feature section (%zu bytes)",
			    perf_feature_name(feat) ? perf_feature_name(feat) : "unknown", size);
		return -1;
	}
	if (feat > 0 && feat < HEADER_FEAT_BITS)
		perf_header__set_feat(h, feat);
	return 0;
}

/* ---- normal-mode file ---- */

static bool section_ok(const struct perf_file_section *s, uint64_t file_size)
{
	return s->offset <= file_size && s->size <= file_size - s->offset;
}

static void swap_section(struct perf_file_section *s)
{
	s->offset = bswap_64(s->offset);
	s->size = bswap_64(s->size);
}

static int read_attrs(struct perf_header *h, int fd, uint64_t file_size, char **err)
{
	const struct perf_file_header *f = &h->file;
	uint64_t n;
	uint8_t *raw;

	if (f->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct perf_file_section) ||
	    f->attr_size > 4096) {
		*err = errf("bad attr size %llu in the header at offset 0x10",
			    (unsigned long long)f->attr_size);
		return -1;
	}
	if (!section_ok(&f->attrs, file_size) || f->attrs.size % f->attr_size) {
		*err = errf("bad attrs section at offset 0x18: [%#llx, +%#llx) in a %llu byte file",
			    (unsigned long long)f->attrs.offset, (unsigned long long)f->attrs.size,
			    (unsigned long long)file_size);
		return -1;
	}
	n = f->attrs.size / f->attr_size;
	raw = xmalloc(f->attr_size);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = f->attrs.offset + i * f->attr_size;
		size_t asz = f->attr_size - sizeof(struct perf_file_section);
		struct perf_file_section ids;
		struct perf_event_attr attr;
		uint64_t *idv;
		struct perf_data_attr *a;

		if (read_full(fd, raw, f->attr_size, (off_t)off) < 0) {
			*err = errf("cannot read attr %llu at offset %#llx", (unsigned long long)i,
				    (unsigned long long)off);
			goto fail;
		}
		if (h->needs_swap)
			perf_event_attr__swap((struct perf_event_attr *)(void *)raw, asz);
		perf_event_attr__from_disk(&attr, raw, asz);
		memcpy(&ids, raw + asz, sizeof(ids));
		if (h->needs_swap)
			swap_section(&ids);
		if (!section_ok(&ids, file_size) || ids.size % 8 || ids.size / 8 > DATA_CURSOR_MAX_ITEMS) {
			*err = errf("bad ids section of attr %llu at offset %#llx",
				    (unsigned long long)i, (unsigned long long)(off + asz));
			goto fail;
		}
		idv = xmalloc(ids.size ? ids.size : 1);
		if (ids.size && read_full(fd, idv, ids.size, (off_t)ids.offset) < 0) {
			free(idv);
			*err = errf("cannot read ids at offset %#llx", (unsigned long long)ids.offset);
			goto fail;
		}
		if (h->needs_swap)
			for (uint64_t j = 0; j < ids.size / 8; j++)
				idv[j] = bswap_64(idv[j]);
		a = perf_header__add_attr(h, &attr, idv, (uint32_t)(ids.size / 8));
		/* the struct keeps the size the file declared (evlist -v prints it) */
		a->attr.size = attr.size;
		free(idv);
	}
	free(raw);
	return 0;
fail:
	free(raw);
	return -1;
}

static int read_features(struct perf_header *h, int fd, uint64_t file_size, char **err)
{
	const struct perf_file_header *f = &h->file;
	uint64_t table = f->data.offset + f->data.size;
	int nr = 0;

	for (int feat = 1; feat < HEADER_FEAT_BITS; feat++)
		if ((f->adds_features[feat / 64] >> (feat % 64)) & 1)
			nr++;
	if (!nr)
		return 0;
	if (table > file_size || (uint64_t)nr * 16 > file_size - table) {
		*err = errf("feature section table at offset %#llx lies beyond the end of the file",
			    (unsigned long long)table);
		return -1;
	}
	for (int feat = 1, i = 0; feat < HEADER_FEAT_BITS; feat++) {
		struct perf_file_section s;
		void *buf;

		if (!((f->adds_features[feat / 64] >> (feat % 64)) & 1))
			continue;
		if (read_full(fd, &s, sizeof(s), (off_t)(table + 16 * (uint64_t)i++)) < 0)
			return *err = errf("cannot read the feature table at %#llx",
					   (unsigned long long)table), -1;
		if (h->needs_swap)
			swap_section(&s);
		if (feat == HEADER_PCL_SYMBOLS && section_ok(&s, file_size) &&
		    s.size < (1ULL << 31)) {
			free(h->pcl_symbols);
			h->pcl_symbols = xmalloc(s.size ? s.size : 1);
			h->pcl_symbols_size = s.size;
			if (read_full(fd, h->pcl_symbols, s.size, (off_t)s.offset) < 0)
				h->pcl_symbols_size = 0;
		}
		if (feat >= HEADER_LAST_FEATURE)
			continue;	/* newer perf: skip what we do not know */
		if (!section_ok(&s, file_size) || s.size > (1ULL << 31)) {
			*err = errf("%s feature section [%#llx, +%#llx) lies outside the file",
				    perf_feature_name(feat), (unsigned long long)s.offset,
				    (unsigned long long)s.size);
			return -1;
		}
		h->feat_sec[feat] = s;
		buf = xmalloc(s.size ? s.size : 1);
		if (read_full(fd, buf, s.size, (off_t)s.offset) < 0) {
			free(buf);
			*err = errf("cannot read the %s feature at offset %#llx",
				    perf_feature_name(feat), (unsigned long long)s.offset);
			return -1;
		}
		if (perf_header__parse_feature(h, feat, buf, s.size, err) < 0) {
			char *e = *err;

			*err = errf("%s at offset %#llx", e, (unsigned long long)s.offset);
			free(e);
			free(buf);
			return -1;
		}
		free(buf);
	}
	return 0;
}

static void swap_file_header(struct perf_file_header *f)
{
	f->size = bswap_64(f->size);
	f->attr_size = bswap_64(f->attr_size);
	swap_section(&f->attrs);
	swap_section(&f->data);
	swap_section(&f->event_types);
	/* the feature bitmap is an array of longs: swap each word */
	for (int i = 0; i < HEADER_FEAT_BITS / 64; i++)
		f->adds_features[i] = bswap_64(f->adds_features[i]);
}

int perf_header__read(struct perf_header *h, int fd, bool is_pipe, uint64_t file_size,
		      char **err)
{
	struct perf_file_header *f = &h->file;

	memset(h, 0, sizeof(*h));
	h->is_pipe = is_pipe;
	if (is_pipe) {
		struct perf_pipe_file_header ph;

		if (read_full(fd, &ph, sizeof(ph), -1) < 0) {
			*err = errf("cannot read the pipe header: the input is empty or too short");
			return -1;
		}
		if (ph.magic == PERF_MAGIC2_SWAPPED) {
			h->needs_swap = true;
			ph.size = bswap_64(ph.size);
		} else if (ph.magic != PERF_MAGIC2) {
			*err = errf("not a perf.data stream: bad magic at offset 0");
			return -1;
		}
		if (ph.size != sizeof(ph)) {
			*err = errf("bad pipe header size %llu at offset 0x8",
				    (unsigned long long)ph.size);
			return -1;
		}
		f->magic = PERF_MAGIC2;
		f->size = ph.size;
		return 0;
	}
	if (file_size < sizeof(*f) || read_full(fd, f, sizeof(*f), 0) < 0) {
		*err = errf("file too small for a perf.data header (%llu bytes)",
			    (unsigned long long)file_size);
		return -1;
	}
	if (f->magic == PERF_MAGIC2_SWAPPED) {
		h->needs_swap = true;
		swap_file_header(f);
	} else if (f->magic != PERF_MAGIC2) {
		*err = errf("not a perf.data file: bad magic at offset 0");
		return -1;
	}
	f->magic = PERF_MAGIC2;
	if (f->size != sizeof(*f)) {
		*err = errf("bad header size %llu at offset 0x8", (unsigned long long)f->size);
		return -1;
	}
	if (f->data.offset > file_size || f->data.offset < sizeof(*f)) {
		*err = errf("data section offset %#llx (header offset 0x28) is outside the file",
			    (unsigned long long)f->data.offset);
		return -1;
	}
	if (read_attrs(h, fd, file_size, err) < 0)
		return -1;
	/* A recording that was killed has data.size 0 and no feature table. */
	if (f->data.size && f->data.size <= file_size - f->data.offset &&
	    read_features(h, fd, file_size, err) < 0)
		return -1;
	return 0;
}

uint32_t perf_header__lbr_depth(const struct perf_header *h)
{
	uint32_t depth = 0;

	/* the last one, as perf reads them in turn */
	for (uint32_t i = 0; i < h->nr_cpu_pmu_caps; i++)
		if (!strncmp(h->cpu_pmu_caps[i], "branches=", 9))
			depth = (uint32_t)atoi(h->cpu_pmu_caps[i] + 9);
	return depth;
}

void perf_header__exit(struct perf_header *h)
{
	for (uint32_t i = 0; i < h->nr_attrs; i++) {
		free(h->attrs[i].ids);
		free(h->attrs[i].name);
	}
	free(h->attrs);
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
		clear_feature(h, feat);
	free(h->pcl_symbols);
	memset(h, 0, sizeof(*h));
}
