/* event-names: generic event name tables, attr -> name, support probing. */
#include "core/events/event-names.h"
#include "core/events/tracepoint.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

const struct event_symbol hw_event_symbols[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= { "cpu-cycles", "cycles" },
	[PERF_COUNT_HW_INSTRUCTIONS]		= { "instructions", "" },
	[PERF_COUNT_HW_CACHE_REFERENCES]	= { "cache-references", "" },
	[PERF_COUNT_HW_CACHE_MISSES]		= { "cache-misses", "" },
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= { "branch-instructions", "branches" },
	[PERF_COUNT_HW_BRANCH_MISSES]		= { "branch-misses", "" },
	[PERF_COUNT_HW_BUS_CYCLES]		= { "bus-cycles", "" },
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= { "stalled-cycles-frontend", "idle-cycles-frontend" },
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= { "stalled-cycles-backend", "idle-cycles-backend" },
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= { "ref-cycles", "" },
};

/* What an event is called when only its attr is known (a file without
 * event descriptions, a fallback): perf's short names, not the list's */
static const char *const hw_attr_names[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= "cycles",
	[PERF_COUNT_HW_INSTRUCTIONS]		= "instructions",
	[PERF_COUNT_HW_CACHE_REFERENCES]	= "cache-references",
	[PERF_COUNT_HW_CACHE_MISSES]		= "cache-misses",
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= "branches",
	[PERF_COUNT_HW_BRANCH_MISSES]		= "branch-misses",
	[PERF_COUNT_HW_BUS_CYCLES]		= "bus-cycles",
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= "stalled-cycles-frontend",
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= "stalled-cycles-backend",
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= "ref-cycles",
};

const struct event_symbol sw_event_symbols[PERF_COUNT_SW_MAX] = {
	[PERF_COUNT_SW_CPU_CLOCK]		= { "cpu-clock", "" },
	[PERF_COUNT_SW_TASK_CLOCK]		= { "task-clock", "" },
	[PERF_COUNT_SW_PAGE_FAULTS]		= { "page-faults", "faults" },
	[PERF_COUNT_SW_CONTEXT_SWITCHES]	= { "context-switches", "cs" },
	[PERF_COUNT_SW_CPU_MIGRATIONS]		= { "cpu-migrations", "migrations" },
	[PERF_COUNT_SW_PAGE_FAULTS_MIN]		= { "minor-faults", "" },
	[PERF_COUNT_SW_PAGE_FAULTS_MAJ]		= { "major-faults", "" },
	[PERF_COUNT_SW_ALIGNMENT_FAULTS]	= { "alignment-faults", "" },
	[PERF_COUNT_SW_EMULATION_FAULTS]	= { "emulation-faults", "" },
	[PERF_COUNT_SW_DUMMY]			= { "dummy", "" },
	[PERF_COUNT_SW_BPF_OUTPUT]		= { "bpf-output", "" },
	[PERF_COUNT_SW_CGROUP_SWITCHES]		= { "cgroup-switches", "" },
};

const char *const tool_event_names[TOOL_EVENT_MAX] = {
	[TOOL_DURATION_TIME]	= "duration_time",
	[TOOL_USER_TIME]	= "user_time",
	[TOOL_SYSTEM_TIME]	= "system_time",
};

const char *const hw_cache_names[PERF_COUNT_HW_CACHE_MAX][HW_CACHE_ALIASES] = {
	[PERF_COUNT_HW_CACHE_L1D]	= { "L1-dcache", "l1-d", "l1d", "L1-data" },
	[PERF_COUNT_HW_CACHE_L1I]	= { "L1-icache", "l1-i", "l1i", "L1-instruction" },
	[PERF_COUNT_HW_CACHE_LL]	= { "LLC", "L2" },
	[PERF_COUNT_HW_CACHE_DTLB]	= { "dTLB", "d-tlb", "Data-TLB" },
	[PERF_COUNT_HW_CACHE_ITLB]	= { "iTLB", "i-tlb", "Instruction-TLB" },
	[PERF_COUNT_HW_CACHE_BPU]	= { "branch", "branches", "bpu", "btb", "bpc" },
	[PERF_COUNT_HW_CACHE_NODE]	= { "node" },
};

/* [op][1] is the plural the canonical access name uses ("L1-dcache-loads"). */
const char *const hw_cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX][HW_CACHE_ALIASES] = {
	[PERF_COUNT_HW_CACHE_OP_READ]		= { "load", "loads", "read" },
	[PERF_COUNT_HW_CACHE_OP_WRITE]		= { "store", "stores", "write" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH]	= { "prefetch", "prefetches",
						    "speculative-read", "speculative-load" },
};

const char *const hw_cache_result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][HW_CACHE_ALIASES] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS]	= { "refs", "Reference", "ops", "access" },
	[PERF_COUNT_HW_CACHE_RESULT_MISS]	= { "misses", "miss" },
};

#define OP_BIT(op) (1u << PERF_COUNT_HW_CACHE_OP_##op)
static const unsigned int hw_cache_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D]	= OP_BIT(READ) | OP_BIT(WRITE) | OP_BIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_L1I]	= OP_BIT(READ) | OP_BIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_LL]	= OP_BIT(READ) | OP_BIT(WRITE) | OP_BIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_DTLB]	= OP_BIT(READ) | OP_BIT(WRITE) | OP_BIT(PREFETCH),
	[PERF_COUNT_HW_CACHE_ITLB]	= OP_BIT(READ),
	[PERF_COUNT_HW_CACHE_BPU]	= OP_BIT(READ),
	[PERF_COUNT_HW_CACHE_NODE]	= OP_BIT(READ) | OP_BIT(WRITE) | OP_BIT(PREFETCH),
};

bool hw_cache_op_valid(unsigned int type, unsigned int op)
{
	return type < PERF_COUNT_HW_CACHE_MAX && op < PERF_COUNT_HW_CACHE_OP_MAX &&
	       (hw_cache_ops[type] & (1u << op));
}

void hw_cache_event_name(char *buf, size_t size, unsigned int type,
			 unsigned int op, unsigned int result)
{
	if (result == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
		snprintf(buf, size, "%s-%s", hw_cache_names[type][0], hw_cache_op_names[op][1]);
	else
		snprintf(buf, size, "%s-%s-%s", hw_cache_names[type][0],
			 hw_cache_op_names[op][0], hw_cache_result_names[result][0]);
}

int hw_cache_lookup(const char *str, const char *const names[][HW_CACHE_ALIASES], int nr)
{
	for (int i = 0; i < nr; i++)
		for (int j = 0; j < HW_CACHE_ALIASES && names[i][j]; j++)
			if (!strncasecmp(str, names[i][j], strlen(names[i][j])))
				return i;
	return -1;
}

/* The ":ukh"-style suffix perf derives from the exclude bits. */
static void add_modifiers(struct strbuf *sb, const struct perf_event_attr *attr)
{
	size_t start = sb->len;
	bool guest_default = false;

	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		if (!attr->exclude_kernel)
			strbuf_addch(sb, 'k');
		if (!attr->exclude_user)
			strbuf_addch(sb, 'u');
		if (!attr->exclude_hv)
			strbuf_addch(sb, 'h');
		guest_default = true;
	}
	if (attr->precise_ip) {
		strbuf_add(sb, "ppp", attr->precise_ip);
		guest_default = true;
	}
	if (attr->exclude_host || attr->exclude_guest == guest_default) {
		if (!attr->exclude_host)
			strbuf_addch(sb, 'H');
		if (!attr->exclude_guest)
			strbuf_addch(sb, 'G');
	}
	if (sb->len > start) {
		strbuf_addch(sb, ' ');
		memmove(sb->buf + start + 1, sb->buf + start, sb->len - start - 1);
		sb->buf[start] = ':';
	}
}

struct tp_id_name {
	long long id;
	char *name;
};

static const char *tracepoint_name_by_id(uint64_t id)
{
	static struct tp_id_name *map;
	static int nr = -1;

	if (nr < 0) {
		char **names;
		int n = tracepoints__list(NULL, NULL, &names);

		map = xcalloc(n > 0 ? n : 1, sizeof(*map));
		nr = 0;
		for (int i = 0; i < n; i++) {
			char *colon = strchr(names[i], ':');
			long long tid;

			*colon = '\0';
			tid = tracepoint__id(names[i], colon + 1);
			*colon = ':';
			if (tid >= 0) {
				map[nr].id = tid;
				map[nr++].name = names[i];
				names[i] = NULL;
			}
		}
		strlist__free(names, n > 0 ? n : 0);
	}
	for (int i = 0; i < nr; i++)
		if ((uint64_t)map[i].id == id)
			return map[i].name;
	return NULL;
}

char *event_name_for_attr(const struct perf_event_attr *attr)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t c = attr->config;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		strbuf_addstr(&sb, c < PERF_COUNT_HW_MAX ? hw_attr_names[c] : "unknown-hardware");
		add_modifiers(&sb, attr);
		break;
	case PERF_TYPE_SOFTWARE:
		strbuf_addstr(&sb, c < PERF_COUNT_SW_MAX ? sw_event_symbols[c].symbol
							 : "unknown-software");
		add_modifiers(&sb, attr);
		break;
	case PERF_TYPE_HW_CACHE: {
		unsigned int type = c & 0xff, op = (c >> 8) & 0xff, res = (c >> 16) & 0xff;
		char name[128];

		if (type >= PERF_COUNT_HW_CACHE_MAX)
			strbuf_addstr(&sb, "unknown-ext-hardware-cache-type");
		else if (op >= PERF_COUNT_HW_CACHE_OP_MAX)
			strbuf_addstr(&sb, "unknown-ext-hardware-cache-op");
		else if (res >= PERF_COUNT_HW_CACHE_RESULT_MAX)
			strbuf_addstr(&sb, "unknown-ext-hardware-cache-result");
		else if (!hw_cache_op_valid(type, op))
			strbuf_addstr(&sb, "invalid-cache");
		else {
			hw_cache_event_name(name, sizeof(name), type, op, res);
			strbuf_addstr(&sb, name);
		}
		add_modifiers(&sb, attr);
		break;
	}
	case PERF_TYPE_RAW:
		strbuf_addf(&sb, "raw 0x%llx", (unsigned long long)c);
		add_modifiers(&sb, attr);
		break;
	case PERF_TYPE_TRACEPOINT: {
		const char *name = tracepoint_name_by_id(c);

		strbuf_addstr(&sb, name ? name : "unknown tracepoint");
		break;
	}
	case PERF_TYPE_BREAKPOINT:
		strbuf_addf(&sb, "mem:0x%llx:", (unsigned long long)attr->bp_addr);
		if (attr->bp_type & HW_BREAKPOINT_R)
			strbuf_addch(&sb, 'r');
		if (attr->bp_type & HW_BREAKPOINT_W)
			strbuf_addch(&sb, 'w');
		if (attr->bp_type & HW_BREAKPOINT_X)
			strbuf_addch(&sb, 'x');
		add_modifiers(&sb, attr);
		break;
	default:
		strbuf_addf(&sb, "unknown attr type: %u", attr->type);
		break;
	}
	return strbuf_detach(&sb);
}

bool event_is_supported(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = type, .config = config, .disabled = 1,
	};
	long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	/* perf_event_paranoid 2 refuses kernel counting: ask for user only */
	if (fd < 0 && errno == EACCES) {
		attr.exclude_kernel = 1;
		fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	}
	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}
