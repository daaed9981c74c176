/* perf-data: reading the perf.data header, attrs and feature sections.
 *
 * Everything is bounds-checked against the section or file size: a bad file
 * yields an error naming the offset, never a read outside the buffer.
 */
#include "core/perf-data.h"
#include "util/util.h"

#include <byteswap.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

const char *perf_feature_name(int feat)
{
	if (feat <= 0 || feat >= HEADER_LAST_FEATURE)
		return NULL;
	return feature_names[feat];
}

/* Guards against absurd counts in a corrupt file before allocating. */
#define MAX_ITEMS	(1u << 20)

/* A bounds-checked cursor over a feature payload in file byte order. */
struct cursor {
	const uint8_t *start, *p, *end;
	bool swap;
	bool bad;
};

static bool cur_need(struct cursor *c, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return false;
	}
	return true;
}

static uint32_t cur_u32(struct cursor *c)
{
	uint32_t v;

	if (!cur_need(c, 4))
		return 0;
	memcpy(&v, c->p, 4);
	c->p += 4;
	return c->swap ? bswap_32(v) : v;
}

static uint64_t cur_u64(struct cursor *c)
{
	uint64_t v;

	if (!cur_need(c, 8))
		return 0;
	memcpy(&v, c->p, 8);
	c->p += 8;
	return c->swap ? bswap_64(v) : v;
}

/* perf string: u32 len (padded length), then a NUL-terminated string. */
static char *cur_str(struct cursor *c)
{
	uint32_t len = cur_u32(c);

	if (!cur_need(c, len))
		return NULL;
	char *s = xstrndup((const char *)c->p, len);
	c->p += len;
	return s;
}

static uint32_t cur_count(struct cursor *c, uint32_t n)
{
	if (n > MAX_ITEMS)
		c->bad = true;
	return c->bad ? 0 : n;
}

static char **cur_str_list(struct cursor *c, uint32_t *nr)
{
	uint32_t n = cur_count(c, cur_u32(c));
	char **v = xcalloc(n ? n : 1, sizeof(*v));

	for (uint32_t i = 0; i < n && !c->bad; i++)
		v[i] = cur_str(c);
	*nr = n;
	return v;
}

static void free_str_list(char **v, uint32_t n)
{
	if (!v)
		return;
	for (uint32_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
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
		if (w == 2) {
			uint16_t v;
			memcpy(&v, p + off, 2);
			v = bswap_16(v);
			memcpy(p + off, &v, 2);
		} else if (w == 4) {
			uint32_t v;
			memcpy(&v, p + off, 4);
			v = bswap_32(v);
			memcpy(p + off, &v, 4);
		} else {
			uint64_t v;
			memcpy(&v, p + off, 8);
			/* bitfields are allocated from the other end of the word:
			 * reversing each byte's bits puts every flag in place */
			v = attr_layout[i] ? bswap_64(v) : swap_bits_in_bytes(v);
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

static void parse_build_ids(struct perf_header *h, struct cursor *c)
{
	while (!c->bad && c->p < c->end) {
		struct perf_event_header eh;
		struct perf_build_id_entry *e;
		const uint8_t *rec = c->p;
		size_t fixed = sizeof(eh) + 4 + 24;

		eh.type = cur_u32(c);
		if (!cur_need(c, 4))
			break;
		memcpy(&eh.misc, c->p, 2);
		memcpy(&eh.size, c->p + 2, 2);
		if (c->swap) {
			eh.misc = bswap_16(eh.misc);
			eh.size = bswap_16(eh.size);
		}
		c->p += 4;
		if (eh.size < fixed || (size_t)(c->end - rec) < eh.size) {
			c->bad = true;
			break;
		}
		h->build_ids = xrealloc(h->build_ids, (h->nr_build_ids + 1) * sizeof(*e));
		e = &h->build_ids[h->nr_build_ids++];
		memset(e, 0, sizeof(*e));
		e->misc = eh.misc;
		e->pid = (int32_t)cur_u32(c);
		memcpy(e->build_id, c->p, BUILD_ID_MAX);
		e->size = (eh.misc & PERF_RECORD_MISC_BUILD_ID_SIZE) ? c->p[20] : BUILD_ID_MAX;
		if (e->size > BUILD_ID_MAX)
			e->size = BUILD_ID_MAX;
		c->p += 24;
		e->filename = xstrndup((const char *)c->p, eh.size - fixed);
		c->p = rec + eh.size;
	}
}

static void parse_event_desc(struct perf_header *h, struct cursor *c)
{
	uint32_t nre = cur_count(c, cur_u32(c));
	uint32_t sz = cur_u32(c);

	if (c->bad)
		return;
	if (sz < PERF_ATTR_SIZE_VER0 || sz > 4096) {
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < nre && !c->bad; i++) {
		struct perf_event_attr attr;
		uint8_t raw[4096];
		uint32_t nr;
		char *name;
		uint64_t *ids;

		if (!cur_need(c, sz))
			return;
		memcpy(raw, c->p, sz);
		c->p += sz;
		if (c->swap)
			perf_event_attr__swap((struct perf_event_attr *)(void *)raw, sz);
		perf_event_attr__from_disk(&attr, raw, sz);
		nr = cur_count(c, cur_u32(c));
		name = cur_str(c);
		if (c->bad || !cur_need(c, (size_t)nr * 8)) {
			free(name);
			return;
		}
		ids = xcalloc(nr ? nr : 1, 8);
		for (uint32_t j = 0; j < nr; j++)
			ids[j] = cur_u64(c);
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

static void parse_cpu_topology(struct perf_header *h, struct cursor *c)
{
	uint32_t n = h->nr_cpus_avail;

	h->sibling_cores = cur_str_list(c, &h->nr_sibling_cores);
	h->sibling_threads = cur_str_list(c, &h->nr_sibling_threads);
	if (c->bad)
		return;
	if (c->p == c->end)
		return;		/* very old files: no per-cpu ids */
	if (n > MAX_ITEMS) {
		c->bad = true;
		return;
	}
	h->cpu_topo = xcalloc(n ? n : 1, sizeof(*h->cpu_topo));
	h->nr_cpu_topo = n;
	for (uint32_t i = 0; i < n; i++) {
		h->cpu_topo[i].core_id = (int32_t)cur_u32(c);
		h->cpu_topo[i].socket_id = (int32_t)cur_u32(c);
		h->cpu_topo[i].die_id = -1;
	}
	if (c->bad || c->p == c->end)
		return;
	h->sibling_dies = cur_str_list(c, &h->nr_sibling_dies);
	for (uint32_t i = 0; i < n; i++)
		h->cpu_topo[i].die_id = (int32_t)cur_u32(c);
	h->has_die_topo = !c->bad;
}

static void parse_numa(struct perf_header *h, struct cursor *c)
{
	uint32_t n = cur_count(c, cur_u32(c));

	h->numa_nodes = xcalloc(n ? n : 1, sizeof(*h->numa_nodes));
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		struct perf_numa_node *nd = &h->numa_nodes[i];

		nd->node = cur_u32(c);
		nd->mem_total = cur_u64(c);
		nd->mem_free = cur_u64(c);
		nd->cpus = cur_str(c);
		h->nr_numa_nodes = i + 1;
	}
}

static void parse_pmu_mappings(struct perf_header *h, struct cursor *c)
{
	uint32_t n = cur_count(c, cur_u32(c));

	h->pmu_mappings = xcalloc(n ? n : 1, sizeof(*h->pmu_mappings));
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		h->pmu_mappings[i].type = cur_u32(c);
		h->pmu_mappings[i].name = cur_str(c);
		h->nr_pmu_mappings = i + 1;
	}
}

static void parse_group_desc(struct perf_header *h, struct cursor *c)
{
	uint32_t n = cur_count(c, cur_u32(c));

	h->groups = xcalloc(n ? n : 1, sizeof(*h->groups));
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		h->groups[i].name = cur_str(c);
		h->groups[i].leader_idx = cur_u32(c);
		h->groups[i].nr_members = cur_u32(c);
		h->nr_groups = i + 1;
	}
}

static void parse_cache(struct perf_header *h, struct cursor *c)
{
	uint32_t version = cur_u32(c), n;

	if (version != 1) {
		c->bad = true;
		return;
	}
	n = cur_count(c, cur_u32(c));
	h->caches = xcalloc(n ? n : 1, sizeof(*h->caches));
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		struct perf_cache_level *l = &h->caches[i];

		l->level = cur_u32(c);
		l->line_size = cur_u32(c);
		l->sets = cur_u32(c);
		l->ways = cur_u32(c);
		l->type = cur_str(c);
		l->size = cur_str(c);
		l->map = cur_str(c);
		h->nr_caches = i + 1;
	}
}

static void parse_mem_topology(struct perf_header *h, struct cursor *c)
{
	uint64_t n;

	h->mem_version = cur_u64(c);
	h->mem_block_size = cur_u64(c);
	n = cur_u64(c);
	if (n > MAX_ITEMS || h->mem_version != 1) {
		c->bad = true;
		return;
	}
	h->mem_nodes = xcalloc(n ? n : 1, sizeof(*h->mem_nodes));
	for (uint64_t i = 0; i < n && !c->bad; i++) {
		struct perf_mem_node *m = &h->mem_nodes[i];
		uint64_t bits, words;

		m->node = cur_u64(c);
		m->size = cur_u64(c);
		bits = cur_u64(c);
		if (bits > (1ULL << 32)) {
			c->bad = true;
			return;
		}
		words = (bits + 63) / 64;
		if (!cur_need(c, words * 8))
			return;
		m->nbits = bits;
		m->set = xcalloc(words ? words : 1, 8);
		for (uint64_t w = 0; w < words; w++)
			m->set[w] = cur_u64(c);
		h->nr_mem_nodes = i + 1;
	}
}

static char **parse_caps(struct cursor *c, uint32_t *nr)
{
	uint32_t n = cur_count(c, cur_u32(c));
	char **caps = xcalloc(n ? n : 1, sizeof(*caps));

	*nr = 0;
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		char *name = cur_str(c), *value = cur_str(c);

		if (name && value)
			caps[(*nr)++] = xasprintf("%s=%s", name, value);
		free(name);
		free(value);
	}
	return caps;
}

static void parse_hybrid(struct perf_header *h, struct cursor *c)
{
	uint32_t n = cur_count(c, cur_u32(c));

	h->hybrid_nodes = xcalloc(n ? n : 1, sizeof(*h->hybrid_nodes));
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		h->hybrid_nodes[i].pmu_name = cur_str(c);
		h->hybrid_nodes[i].cpus = cur_str(c);
		h->nr_hybrid_nodes = i + 1;
	}
}

static void parse_pmu_caps(struct perf_header *h, struct cursor *c)
{
	uint32_t n = cur_count(c, cur_u32(c));

	h->pmu_caps = xcalloc(n ? n : 1, sizeof(*h->pmu_caps));
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		struct perf_pmu_caps *pc = &h->pmu_caps[i];

		pc->caps = parse_caps(c, &pc->nr_caps);
		pc->pmu_name = cur_str(c);
		h->nr_pmu_caps = i + 1;
	}
}

static void replace_str(char **dst, char *s)
{
	free(*dst);
	*dst = s;
}

/* Frees what an earlier copy of the feature left (a pipe may repeat one). */
static void clear_feature(struct perf_header *h, int feat)
{
	switch (feat) {
	case HEADER_BUILD_ID:
		for (uint32_t i = 0; i < h->nr_build_ids; i++)
			free(h->build_ids[i].filename);
		free(h->build_ids);
		h->build_ids = NULL;
		h->nr_build_ids = 0;
		break;
	case HEADER_CMDLINE:
		free_str_list(h->cmdline, h->nr_cmdline);
		h->cmdline = NULL;
		h->nr_cmdline = 0;
		break;
	case HEADER_CPU_TOPOLOGY:
		free_str_list(h->sibling_cores, h->nr_sibling_cores);
		free_str_list(h->sibling_threads, h->nr_sibling_threads);
		free_str_list(h->sibling_dies, h->nr_sibling_dies);
		free(h->cpu_topo);
		h->sibling_cores = h->sibling_threads = h->sibling_dies = NULL;
		h->nr_sibling_cores = h->nr_sibling_threads = h->nr_sibling_dies = 0;
		h->cpu_topo = NULL;
		h->nr_cpu_topo = 0;
		h->has_die_topo = false;
		break;
	case HEADER_NUMA_TOPOLOGY:
		for (uint32_t i = 0; i < h->nr_numa_nodes; i++)
			free(h->numa_nodes[i].cpus);
		free(h->numa_nodes);
		h->numa_nodes = NULL;
		h->nr_numa_nodes = 0;
		break;
	case HEADER_PMU_MAPPINGS:
		for (uint32_t i = 0; i < h->nr_pmu_mappings; i++)
			free(h->pmu_mappings[i].name);
		free(h->pmu_mappings);
		h->pmu_mappings = NULL;
		h->nr_pmu_mappings = 0;
		break;
	case HEADER_GROUP_DESC:
		for (uint32_t i = 0; i < h->nr_groups; i++)
			free(h->groups[i].name);
		free(h->groups);
		h->groups = NULL;
		h->nr_groups = 0;
		break;
	case HEADER_CACHE:
		for (uint32_t i = 0; i < h->nr_caches; i++) {
			free(h->caches[i].type);
			free(h->caches[i].size);
			free(h->caches[i].map);
		}
		free(h->caches);
		h->caches = NULL;
		h->nr_caches = 0;
		break;
	case HEADER_MEM_TOPOLOGY:
		for (uint64_t i = 0; i < h->nr_mem_nodes; i++)
			free(h->mem_nodes[i].set);
		free(h->mem_nodes);
		h->mem_nodes = NULL;
		h->nr_mem_nodes = 0;
		break;
	case HEADER_CPU_PMU_CAPS:
		free_str_list(h->cpu_pmu_caps, h->nr_cpu_pmu_caps);
		h->cpu_pmu_caps = NULL;
		h->nr_cpu_pmu_caps = 0;
		break;
	case HEADER_HYBRID_TOPOLOGY:
		for (uint32_t i = 0; i < h->nr_hybrid_nodes; i++) {
			free(h->hybrid_nodes[i].pmu_name);
			free(h->hybrid_nodes[i].cpus);
		}
		free(h->hybrid_nodes);
		h->hybrid_nodes = NULL;
		h->nr_hybrid_nodes = 0;
		break;
	case HEADER_PMU_CAPS:
		for (uint32_t i = 0; i < h->nr_pmu_caps; i++) {
			free_str_list(h->pmu_caps[i].caps, h->pmu_caps[i].nr_caps);
			free(h->pmu_caps[i].pmu_name);
		}
		free(h->pmu_caps);
		h->pmu_caps = NULL;
		h->nr_pmu_caps = 0;
		break;
	case HEADER_TRACING_DATA:
		free(h->tracing_data);
		h->tracing_data = NULL;
		h->tracing_data_size = 0;
		break;
	default:
		break;
	}
}

int perf_header__parse_feature(struct perf_header *h, int feat, const void *buf, size_t size,
			       char **err)
{
	struct cursor c = { buf, buf, (const uint8_t *)buf + size, h->needs_swap, false };

	clear_feature(h, feat);
	switch (feat) {
	case HEADER_TRACING_DATA:
		h->tracing_data = xmalloc(size ? size : 1);
		memcpy(h->tracing_data, buf, size);
		h->tracing_data_size = size;
		break;
	case HEADER_BUILD_ID:
		parse_build_ids(h, &c);
		break;
	case HEADER_HOSTNAME:
		replace_str(&h->hostname, cur_str(&c));
		break;
	case HEADER_OSRELEASE:
		replace_str(&h->osrelease, cur_str(&c));
		break;
	case HEADER_VERSION:
		replace_str(&h->version, cur_str(&c));
		break;
	case HEADER_ARCH:
		replace_str(&h->arch, cur_str(&c));
		break;
	case HEADER_CPUDESC:
		replace_str(&h->cpudesc, cur_str(&c));
		break;
	case HEADER_CPUID:
		replace_str(&h->cpuid, cur_str(&c));
		break;
	case HEADER_NRCPUS:
		h->nr_cpus_avail = cur_u32(&c);
		h->nr_cpus_online = cur_u32(&c);
		break;
	case HEADER_TOTAL_MEM:
		h->total_mem = cur_u64(&c);
		break;
	case HEADER_CMDLINE:
		h->cmdline = cur_str_list(&c, &h->nr_cmdline);
		break;
	case HEADER_EVENT_DESC:
		parse_event_desc(h, &c);
		break;
	case HEADER_CPU_TOPOLOGY:
		parse_cpu_topology(h, &c);
		break;
	case HEADER_NUMA_TOPOLOGY:
		parse_numa(h, &c);
		break;
	case HEADER_PMU_MAPPINGS:
		parse_pmu_mappings(h, &c);
		break;
	case HEADER_GROUP_DESC:
		parse_group_desc(h, &c);
		break;
	case HEADER_CACHE:
		parse_cache(h, &c);
		break;
	case HEADER_SAMPLE_TIME:
		h->first_sample_time = cur_u64(&c);
		h->last_sample_time = cur_u64(&c);
		break;
	case HEADER_MEM_TOPOLOGY:
		parse_mem_topology(h, &c);
		break;
	case HEADER_CLOCKID:
		h->clockid_res_ns = cur_u64(&c);
		break;
	case HEADER_DIR_FORMAT:
		h->dir_format_version = cur_u64(&c);
		break;
	case HEADER_COMPRESSED:
		h->comp_ver = cur_u32(&c);
		h->comp_type = cur_u32(&c);
		h->comp_level = cur_u32(&c);
		h->comp_ratio = cur_u32(&c);
		h->comp_mmap_len = cur_u32(&c);
		break;
	case HEADER_CPU_PMU_CAPS:
		h->cpu_pmu_caps = parse_caps(&c, &h->nr_cpu_pmu_caps);
		break;
	case HEADER_CLOCK_DATA:
		h->clock_version = cur_u32(&c);
		h->clockid = cur_u32(&c);
		h->clock_tod_ns = cur_u64(&c);
		h->clock_clockid_ns = cur_u64(&c);
		break;
	case HEADER_HYBRID_TOPOLOGY:
		parse_hybrid(h, &c);
		break;
	case HEADER_PMU_CAPS:
		parse_pmu_caps(h, &c);
		break;
	case HEADER_BPF_PROG_INFO:
		h->nr_bpf_prog_info = cur_u32(&c);
		break;
	case HEADER_BPF_BTF:
		h->nr_bpf_btf = cur_u32(&c);
		break;
	default:	/* BRANCH_STACK, STAT: no payload; AUXTRACE: index unused */
		break;
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

static int read_at(int fd, void *buf, size_t size, uint64_t off)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n = pread(fd, (char *)buf + done, size - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

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

		if (read_at(fd, raw, f->attr_size, off) < 0) {
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
		if (!section_ok(&ids, file_size) || ids.size % 8 || ids.size / 8 > MAX_ITEMS) {
			*err = errf("bad ids section of attr %llu at offset %#llx",
				    (unsigned long long)i, (unsigned long long)(off + asz));
			goto fail;
		}
		idv = xmalloc(ids.size ? ids.size : 1);
		if (ids.size && read_at(fd, idv, ids.size, ids.offset) < 0) {
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
		if (read_at(fd, &s, sizeof(s), table + 16 * (uint64_t)i++) < 0)
			return *err = errf("cannot read the feature table at %#llx",
					   (unsigned long long)table), -1;
		if (h->needs_swap)
			swap_section(&s);
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
		if (read_at(fd, buf, s.size, s.offset) < 0) {
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

static int read_full(int fd, void *buf, size_t size)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n = read(fd, (char *)buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

int perf_header__read(struct perf_header *h, int fd, bool is_pipe, uint64_t file_size,
		      char **err)
{
	struct perf_file_header *f = &h->file;

	memset(h, 0, sizeof(*h));
	h->is_pipe = is_pipe;
	if (is_pipe) {
		struct perf_pipe_file_header ph;

		if (read_full(fd, &ph, sizeof(ph)) < 0) {
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
	if (file_size < sizeof(*f) || read_at(fd, f, sizeof(*f), 0) < 0) {
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

void perf_header__exit(struct perf_header *h)
{
	for (uint32_t i = 0; i < h->nr_attrs; i++) {
		free(h->attrs[i].ids);
		free(h->attrs[i].name);
	}
	free(h->attrs);
	free(h->hostname);
	free(h->osrelease);
	free(h->version);
	free(h->arch);
	free(h->cpudesc);
	free(h->cpuid);
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
		clear_feature(h, feat);
	memset(h, 0, sizeof(*h));
}
