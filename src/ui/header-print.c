/* header-print: feature sections as perf prints them. */
#include "ui/header-print.h"
#include "ui/attr-print.h"
#include "core/data/bpf-info.h"
#include "util/util.h"

#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* features only shown with -I */
static bool full_only(int feat)
{
	return feat == HEADER_CPU_TOPOLOGY || feat == HEADER_NUMA_TOPOLOGY ||
	       feat == HEADER_CACHE || feat == HEADER_MEM_TOPOLOGY ||
	       feat == HEADER_HYBRID_TOPOLOGY;
}

static void event_field(FILE *fp, const char *name, const char *value, void *priv)
{
	fprintf(fp, ", %s = %s", name, value);
}

static void print_event_desc(FILE *fp, const struct perf_header *h)
{
	if (!h->nr_attrs) {
		fputs("# event desc: not available or unable to read\n", fp);
		return;
	}
	for (uint32_t i = 0; i < h->nr_attrs; i++) {
		const struct perf_data_attr *a = &h->attrs[i];

		fprintf(fp, "# event : name = %s, ", a->name ? a->name : "");
		if (a->nr_ids) {
			fputs(", id = {", fp);
			for (uint32_t j = 0; j < a->nr_ids; j++)
				fprintf(fp, "%s %" PRIu64, j ? "," : "", a->ids[j]);
			fputs(" }", fp);
		}
		attr_print(fp, &a->attr, event_field, NULL);
		fputc('\n', fp);
	}
}

static void print_cpu_topology(FILE *fp, const struct perf_header *h)
{
	for (uint32_t i = 0; i < h->nr_sibling_cores; i++)
		fprintf(fp, "# sibling sockets : %s\n", h->sibling_cores[i]);
	for (uint32_t i = 0; i < h->nr_sibling_dies; i++)
		fprintf(fp, "# sibling dies    : %s\n", h->sibling_dies[i]);
	for (uint32_t i = 0; i < h->nr_sibling_threads; i++)
		fprintf(fp, "# sibling threads : %s\n", h->sibling_threads[i]);
	if (h->nr_sibling_dies) {
		if (!h->cpu_topo) {
			fputs("# Core ID, Die ID and Socket ID information is not available\n", fp);
			return;
		}
		for (uint32_t i = 0; i < h->nr_cpu_topo; i++)
			fprintf(fp, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				h->cpu_topo[i].core_id, h->cpu_topo[i].die_id,
				h->cpu_topo[i].socket_id);
	} else {
		if (!h->cpu_topo) {
			fputs("# Core ID and Socket ID information is not available\n", fp);
			return;
		}
		for (uint32_t i = 0; i < h->nr_cpu_topo; i++)
			fprintf(fp, "# CPU %u: Core ID %d, Socket ID %d\n", i,
				h->cpu_topo[i].core_id, h->cpu_topo[i].socket_id);
	}
}

/* perf's bitmap list: "0-23,32-199" */
static void bitmap_list(char *buf, size_t size, const uint64_t *set, uint64_t nbits)
{
	size_t len = 0;
	uint64_t i = 0;

	buf[0] = 0;
	while (i < nbits) {
		uint64_t j;

		if (!((set[i / 64] >> (i % 64)) & 1)) {
			i++;
			continue;
		}
		j = i;
		while (j + 1 < nbits && ((set[(j + 1) / 64] >> ((j + 1) % 64)) & 1))
			j++;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%" PRIu64, len ? "," : "", i);
		if (j > i && len < size)
			len += (size_t)snprintf(buf + len, size - len, "-%" PRIu64, j);
		i = j + 1;
	}
}

static void print_mem_topology(FILE *fp, const struct perf_header *h)
{
	fprintf(fp, "# memory nodes (nr %d, block size 0x%llx):\n", (int)h->nr_mem_nodes,
		(unsigned long long)h->mem_block_size);
	for (uint64_t i = 0; i < h->nr_mem_nodes; i++) {
		const struct perf_mem_node *n = &h->mem_nodes[i];
		uint64_t weight = 0, size;
		static const char units[] = "BKMG";
		char map[100];
		int u = 0;

		for (uint64_t b = 0; b < n->nbits; b++)
			weight += (n->set[b / 64] >> (b % 64)) & 1;
		size = h->mem_block_size * weight;
		while (size / 1024 > 1 && u < 3) {
			size /= 1024;
			u++;
		}
		bitmap_list(map, sizeof(map), n->set, n->nbits);
		fprintf(fp, "#  %3" PRIu64 " [%" PRIu64 "%c]: %s\n", n->node, size, units[u], map);
	}
}

static const char *clockid_name(uint32_t id)
{
	static const char *const names[] = {
		"CLOCK_REALTIME", "CLOCK_MONOTONIC", "CLOCK_PROCESS_CPUTIME_ID",
		"CLOCK_THREAD_CPUTIME_ID", "CLOCK_MONOTONIC_RAW", "CLOCK_REALTIME_COARSE",
		"CLOCK_MONOTONIC_COARSE", "CLOCK_BOOTTIME", "CLOCK_REALTIME_ALARM",
		"CLOCK_BOOTTIME_ALARM", "CLOCK_SGI_CYCLE", "CLOCK_TAI",
	};

	return id < ARRAY_SIZE(names) ? names[id] : "(unknown)";
}

/* The programs loaded when the recording began, perf's lines for each:
 * one with its only function, else a line per function. */
static void print_bpf_progs(FILE *fp, const struct perf_header *h)
{
	char name[256];

	for (uint32_t i = 0; i < h->nr_bpf_progs; i++) {
		const struct bpf_prog_desc *p = &h->bpf_progs[i];

		if (!p->nr_funcs)
			continue;
		if (p->nr_funcs == 1) {
			bpf_prog_desc__func_name(p, 0, h->bpf_btfs, h->nr_bpf_btfs, name, sizeof(name));
			fprintf(fp, "# bpf_prog_info %u: %s addr 0x%" PRIx64 " size %u\n", p->id, name,
				p->addrs[0], p->lens[0]);
			continue;
		}
		fprintf(fp, "# bpf_prog_info %u:\n", p->id);
		for (uint32_t f = 0; f < p->nr_funcs; f++) {
			bpf_prog_desc__func_name(p, f, h->bpf_btfs, h->nr_bpf_btfs, name, sizeof(name));
			fprintf(fp, "# \tsub_prog %u: %s addr 0x%" PRIx64 " size %u\n", f, name,
				p->addrs[f], p->lens[f]);
		}
	}
}

static void print_clock_data(FILE *fp, const struct perf_header *h)
{
	uint64_t tod = h->clock_tod_ns, cid = h->clock_clockid_ns;
	time_t sec = (time_t)(tod / 1000000000ULL);
	long usec = (long)((tod % 1000000000ULL) / 1000);
	char date[64], tstr[96];
	struct tm tm;

	if (localtime_r(&sec, &tm)) {
		strftime(date, sizeof(date), "%F %T", &tm);
		snprintf(tstr, sizeof(tstr), "%s.%06d", date, (int)usec);
	} else {
		snprintf(tstr, sizeof(tstr), "<error>");
	}
	fprintf(fp, "# clockid: %s (%u)\n", clockid_name(h->clockid), h->clockid);
	fprintf(fp, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tstr, (long)sec,
		(int)usec, (long)(cid / 1000000000ULL), (long)(cid % 1000000000ULL),
		clockid_name(h->clockid));
}

static void print_caps(FILE *fp, const char *pmu, char **caps, uint32_t n)
{
	if (!n) {
		fprintf(fp, "# %s pmu capabilities: not available\n", pmu);
		return;
	}
	fprintf(fp, "# %s pmu capabilities: ", pmu);
	for (uint32_t i = 0; i < n; i++)
		fprintf(fp, "%s%s", i ? ", " : "", caps[i]);
	fputc('\n', fp);
}

static void print_group_desc(FILE *fp, struct perf_session *s)
{
	int left = 0;

	evlist__for_each(&s->evlist, pos) {
		if (pos->leader == pos && pos->nr_members > 1) {
			fprintf(fp, "# group: %s{%s", pos->group_name ? pos->group_name : "",
				pos->name);
			left = pos->nr_members - 1;
		} else if (left) {
			fprintf(fp, ",%s", pos->name);
			if (--left == 0)
				fputs("}\n", fp);
		}
	}
}

void header_print_feature(FILE *fp, struct perf_session *s, int feat, bool full)
{
	const struct perf_header *h = &s->header;

	if (full_only(feat) && !full) {
		fprintf(fp, "# %s info available, use -I to display\n", perf_feature_name(feat));
		return;
	}
	switch (feat) {
	case HEADER_HOSTNAME:
		fprintf(fp, "# hostname : %s\n", h->hostname ? h->hostname : "");
		break;
	case HEADER_OSRELEASE:
		fprintf(fp, "# os release : %s\n", h->osrelease ? h->osrelease : "(null)");
		break;
	case HEADER_VERSION:
		fprintf(fp, "# perf version : %s\n", h->version ? h->version : "(null)");
		break;
	case HEADER_ARCH:
		fprintf(fp, "# arch : %s\n", h->arch ? h->arch : "(null)");
		break;
	case HEADER_NRCPUS:
		fprintf(fp, "# nrcpus online : %u\n# nrcpus avail : %u\n", h->nr_cpus_online,
			h->nr_cpus_avail);
		break;
	case HEADER_CPUDESC:
		fprintf(fp, "# cpudesc : %s\n", h->cpudesc ? h->cpudesc : "(null)");
		break;
	case HEADER_CPUID:
		fprintf(fp, "# cpuid : %s\n", h->cpuid ? h->cpuid : "(null)");
		break;
	case HEADER_TOTAL_MEM:
		fprintf(fp, "# total memory : %llu kB\n", (unsigned long long)h->total_mem);
		break;
	case HEADER_CMDLINE:
		fputs("# cmdline : ", fp);
		for (uint32_t i = 0; i < h->nr_cmdline; i++)
			fprintf(fp, "%s ", h->cmdline[i]);
		fputc('\n', fp);
		break;
	case HEADER_EVENT_DESC:
		print_event_desc(fp, h);
		break;
	case HEADER_CPU_TOPOLOGY:
		print_cpu_topology(fp, h);
		break;
	case HEADER_NUMA_TOPOLOGY:
		for (uint32_t i = 0; i < h->nr_numa_nodes; i++) {
			const struct perf_numa_node *n = &h->numa_nodes[i];

			fprintf(fp, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
				" kB\n", n->node, n->mem_total, n->mem_free);
			fprintf(fp, "# node%u cpu list : %s\n", n->node, n->cpus ? n->cpus : "");
		}
		break;
	case HEADER_BRANCH_STACK:
		fputs("# contains samples with branch stack\n", fp);
		break;
	case HEADER_PMU_MAPPINGS:
		if (!h->nr_pmu_mappings) {
			fputs("# pmu mappings: not available\n", fp);
			break;
		}
		fputs("# pmu mappings: ", fp);
		for (uint32_t i = 0; i < h->nr_pmu_mappings; i++)
			fprintf(fp, "%s%s = %" PRIu32, i ? ", " : "", h->pmu_mappings[i].name,
				h->pmu_mappings[i].type);
		fputc('\n', fp);
		break;
	case HEADER_GROUP_DESC:
		print_group_desc(fp, s);
		break;
	case HEADER_AUXTRACE:
		fputs("# contains AUX area data (e.g. instruction trace)\n", fp);
		break;
	case HEADER_STAT:
		fputs("# contains stat data\n", fp);
		break;
	case HEADER_CACHE:
		fputs("# CPU cache info:\n", fp);
		for (uint32_t i = 0; i < h->nr_caches; i++) {
			const struct perf_cache_level *c = &h->caches[i];

			fprintf(fp, "#  L%d %-15s %8s [%s]\n", c->level, c->type, c->size, c->map);
		}
		break;
	case HEADER_SAMPLE_TIME: {
		uint64_t a = h->first_sample_time, b = h->last_sample_time;

		fprintf(fp, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n", a / 1000000000,
			a % 1000000000 / 1000);
		fprintf(fp, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", b / 1000000000,
			b % 1000000000 / 1000);
		fprintf(fp, "# sample duration : %10.3f ms\n", (double)(b - a) / 1000000.0);
		break;
	}
	case HEADER_MEM_TOPOLOGY:
		print_mem_topology(fp, h);
		break;
	case HEADER_CLOCKID:
		fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", h->clockid_res_ns * 1000);
		break;
	case HEADER_DIR_FORMAT:
		fprintf(fp, "# directory data version : %" PRIu64 "\n", h->dir_format_version);
		break;
	case HEADER_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
			h->comp_type == 1 ? "Zstd" : "Unknown", h->comp_level, h->comp_ratio);
		break;
	case HEADER_CPU_PMU_CAPS:
		print_caps(fp, "cpu", h->cpu_pmu_caps, h->nr_cpu_pmu_caps);
		break;
	case HEADER_CLOCK_DATA:
		print_clock_data(fp, h);
		break;
	case HEADER_HYBRID_TOPOLOGY:
		fputs("# hybrid cpu system:\n", fp);
		for (uint32_t i = 0; i < h->nr_hybrid_nodes; i++)
			fprintf(fp, "# %s cpu list : %s\n", h->hybrid_nodes[i].pmu_name,
				h->hybrid_nodes[i].cpus);
		break;
	case HEADER_PMU_CAPS:
		for (uint32_t i = 0; i < h->nr_pmu_caps; i++)
			print_caps(fp, h->pmu_caps[i].pmu_name, h->pmu_caps[i].caps,
				   h->pmu_caps[i].nr_caps);
		break;
	case HEADER_BPF_PROG_INFO:
		print_bpf_progs(fp, h);
		break;
	case HEADER_BPF_BTF:
		for (uint32_t i = 0; i < h->nr_bpf_btfs; i++)
			fprintf(fp, "# btf info of id %u\n", h->bpf_btfs[i].id);
		break;
	default:	/* TRACING_DATA, BUILD_ID: nothing to show */
		break;
	}
}

void header_print(FILE *fp, struct perf_session *s, bool full)
{
	const struct perf_header *h = &s->header;
	struct stat st;
	time_t mtime = 0;
	char when[64] = "\n";

	if (fstat(s->fd, &st) == 0)
		mtime = st.st_mtime;
	ctime_r(&mtime, when);
	fputs("# ========\n", fp);
	fprintf(fp, "# captured on    : %s", when);
	fputs("# header version : 1\n", fp);
	fprintf(fp, "# data offset    : %" PRIu64 "\n", h->file.data.offset);
	fprintf(fp, "# data size      : %" PRIu64 "\n", h->file.data.size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", h->file.data.offset + h->file.data.size);
	if (!s->is_pipe) {
		for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
			if (perf_header__has_feat(h, feat))
				header_print_feature(fp, s, feat, full);
		fputs("# missing features: ", fp);
		for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
			if (!perf_header__has_feat(h, feat))
				fprintf(fp, "%s ", perf_feature_name(feat));
		fputc('\n', fp);
	}
	fputs("# ========\n#\n", fp);
}
