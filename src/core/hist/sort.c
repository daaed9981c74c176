/* sort: report columns and sort keys (see sort.h). */
#include "core/hist/sort.h"
#include "core/hist/data-src.h"
#include "core/hist/hist.h"
#include "core/data/perf-record.h"
#include "core/symbols/machine.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Absent things sort after present ones. */
static int cmp_null(const void *a, const void *b)
{
	if (!a && !b)
		return 0;
	return !a ? 1 : -1;
}

/* --- pid ------------------------------------------------------------------ */

static int pid_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return a->thread->tid < b->thread->tid ? -1 : a->thread->tid > b->thread->tid;
}

static void pid_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	unsigned int w = (width > 7 ? width : 7) - 8;

	/* perf shows the thread's last comm here, not the sample's */
	strbuf_addf(sb, "%7d:%-*.*s", (int)he->thread->tid, (int)w, (int)w,
		    he->thread->comm ? he->thread->comm : "");
}

static uint64_t pid_hash(const struct hist_entry *he)
{
	return (uint64_t)(uint32_t)he->thread->tid;
}

/* --- comm ----------------------------------------------------------------- */

static int comm_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return a->comm == b->comm ? 0 : strcmp(a->comm, b->comm);
}

static void comm_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_add_column(sb, he->comm, (int)width);
}

static uint64_t comm_hash(const struct hist_entry *he)
{
	return (uintptr_t)he->comm;
}

/* --- dso ------------------------------------------------------------------ */

/* The name the dso key shows and compares: -v makes it the path. */
static const char *dso_name(const struct hist_entry *he)
{
	return he->hists->opts->verbose ? dso__shown_long_name(he->dso) : he->dso->short_name;
}

static const char *dso_name_of(const struct hist_entry *he, const struct dso *dso)
{
	return he->hists->opts->verbose ? dso__shown_long_name(dso) : dso->short_name;
}

/* Two entries' DSOs (of their ips, or of their data addresses) */
static int dso_cmp_of(const struct hist_entry *a, const struct dso *da,
		      const struct hist_entry *b, const struct dso *db)
{
	if (!da || !db)
		return cmp_null(da, db);
	return da == db ? 0 : strcmp(dso_name_of(a, da), dso_name_of(b, db));
}

static int dso_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return dso_cmp_of(a, a->dso, b, b->dso);
}

static void dso_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_add_column(sb, he->dso ? dso_name(he) : "[unknown]", (int)width);
}

/* Entries of equally named DSOs are one entry, as perf compares names. */
static uint64_t dso_name_hash(const struct dso *dso)
{
	return dso ? dso->short_name_hash : 0;
}

static uint64_t dso_hash(const struct hist_entry *he)
{
	return dso_name_hash(he->dso);
}

/* --- symbol --------------------------------------------------------------- */

/* perf compares addresses by the sign of their difference, so one in the
 * upper half sorts before a small one. */
static int cmp_addr(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

static int sym_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	int ret;

	if (!a->sym && !b->sym)
		return cmp_addr(a->ip, b->ip);
	ret = dso_cmp(a, b);
	if (ret)
		return ret;
	if (!a->sym || !b->sym)
		return cmp_null(a->sym, b->sym);
	if (a->sym == b->sym)
		return 0;
	/* inlined functions (of DWARF stacks) are told apart by name, in
	 * perf's order: names descending, unlike addresses */
	if (a->inlined || b->inlined) {
		ret = strcmp(b->sym->name, a->sym->name);
		if (ret)
			return ret;
		if (a->sym->start <= b->sym->end && a->sym->end >= b->sym->start)
			return 0;
	}
	if (a->sym->start != b->sym->start)
		return cmp_addr(a->sym->start, b->sym->start);
	return cmp_addr(a->sym->end, b->sym->end);
}

static int sym_sort(const struct hist_entry *a, const struct hist_entry *b)
{
	if (!a->sym || !b->sym)
		return cmp_null(a->sym, b->sym);
	return strcmp(a->sym->name, b->sym->name);
}

/* perf's symbol print: -v's address and origin, "[level] ", then the
 * name cut to the width left (a data object whole, with its offset), or
 * the address when no symbol covers it */
/* printf's "%#.16" PRIx64 (no 0x for 0), without printf: a system-wide
 * report shows thousands of unresolved addresses. */
static void add_unresolved_addr(struct strbuf *sb, uint64_t ip)
{
	char buf[2 + UNRESOLVED_ADDR_WIDTH], *p = buf + sizeof(buf);
	bool zero = !ip;

	_Static_assert(UNRESOLVED_ADDR_WIDTH == 16, "all of a 64-bit address's digits");
	for (int i = 0; i < UNRESOLVED_ADDR_WIDTH; i++, ip >>= 4)
		*--p = "0123456789abcdef"[ip & 15];
	if (!zero) {
		*--p = 'x';
		*--p = '0';
	}
	strbuf_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

static void sym_print_of(const struct hist_entry *he, struct strbuf *sb, unsigned int width,
			 const struct dso *dso, const struct symbol *sym, uint64_t ip, char level)
{
	if (he->hists->opts->verbose) {
		size_t start = sb->len, n;

		strbuf_addf(sb, "%-#*" PRIx64 " %c ", VERBOSE_ADDR_WIDTH,
			    dso ? dso__shown_addr(dso, ip) : ip, dso ? dso__symtab_origin(dso) : '!');
		n = sb->len - start;
		width = width > n ? width - (unsigned int)n : 0;
	}
	strbuf_add(sb, (const char[]){ '[', level, ']', ' ' }, 4);

	/* what the width leaves (a -w narrower than the prefix: the whole name) */
	if (sym && sym->object)	/* perf: data objects whole, with the offset */
		strbuf_addf(sb, "%s+0x%" PRIx64, sym->name, he->object_off);
	else if (sym) {
		const char *name = sym->name;

		strbuf_add(sb, name, (int)width - 4 < 0 ? strlen(name) :
				     strnlen(name, (size_t)width - 4));
		if (he->inlined)
			strbuf_addstr(sb, " (inlined)");
	}
	else
		add_unresolved_addr(sb, ip);
}

static void sym_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	sym_print_of(he, sb, width, he->dso, he->sym, he->ip, he->level);
}

static uint64_t sym_hash(const struct hist_entry *he)
{
	if (!he->sym)
		return he->ip;
	/* by name: an inlined function equals another symbol of its name
	 * (hashed once per symbol: a report hashes each frame's) */
	if (!he->sym->name_hash)
		he->sym->name_hash = (uint32_t)hash_string(he->sym->name, strlen(he->sym->name)) | 1;
	return hash_add(dso_name_hash(he->dso), he->sym->name_hash);
}

/* --- parent --------------------------------------------------------------- */

static int parent_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	if (!a->parent || !b->parent)
		return cmp_null(a->parent, b->parent);
	return strcmp(a->parent->name, b->parent->name);
}

static void parent_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-*.*s", (int)width, (int)width,
		    he->parent ? he->parent->name : "[other]");
}

static uint64_t parent_hash(const struct hist_entry *he)
{
	return he->parent ? hash_string(he->parent->name, strlen(he->parent->name)) : 0;
}

/* --- cpu ------------------------------------------------------------------ */

static int cpu_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
}

static void cpu_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%*.*d", (int)width, (int)width, (int)he->cpu);
}

static uint64_t cpu_hash(const struct hist_entry *he)
{
	return (uint64_t)(uint32_t)he->cpu;
}

/* --- srcline, trace: interned strings ------------------------------------- */

static int str_cmp(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a || !b)
		return cmp_null(a, b);
	return strcmp(a, b);
}

static int srcline_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return str_cmp(a->srcline, b->srcline);
}

static void srcline_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-.*s", (int)width, he->srcline ? he->srcline : "??:0");
}

static uint64_t srcline_hash(const struct hist_entry *he)
{
	return (uintptr_t)he->srcline;
}

static int trace_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return str_cmp(a->trace, b->trace);
}

static void trace_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-.*s", (int)width, he->trace ? he->trace : "N/A");
}

static uint64_t trace_hash(const struct hist_entry *he)
{
	return (uintptr_t)he->trace;
}

/* --- socket, srcfile, sizes, time, weights -------------------------------- */

static int int_cmp(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int socket_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp(a->socket, b->socket);
}

static void socket_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%*.*d", (int)width, (int)width - 3, (int)he->socket);
}

static uint64_t socket_hash(const struct hist_entry *he)
{
	return (uint64_t)(uint32_t)he->socket;
}

static int srcfile_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return str_cmp(a->srcfile, b->srcfile);
}

static void srcfile_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-.*s", (int)width, he->srcfile ? he->srcfile : "");
}

static uint64_t srcfile_hash(const struct hist_entry *he)
{
	return (uintptr_t)he->srcfile;
}

static uint64_t sym_size(const struct hist_entry *he)
{
	return he->sym ? he->sym->end - he->sym->start : 0;
}

static int sym_size_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp((int64_t)sym_size(a), (int64_t)sym_size(b));
}

static void sym_size_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	if (!he->sym)
		strbuf_addf(sb, "%*s", (int)width, "unknown");
	else
		strbuf_addf(sb, "%*d", (int)width, (int)sym_size(he));
}

static uint64_t sym_size_hash(const struct hist_entry *he)
{
	return sym_size(he);
}

static int dso_size_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp((int64_t)a->map_size, (int64_t)b->map_size);
}

static void dso_size_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	if (!he->dso)
		strbuf_addf(sb, "%*s", (int)width, "unknown");
	else
		strbuf_addf(sb, "%*d", (int)width, (int)he->map_size);
}

static uint64_t dso_size_hash(const struct hist_entry *he)
{
	return he->map_size;
}

static int time_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp((int64_t)a->time, (int64_t)b->time);
}

static void time_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	char when[32];

	if (he->hists->opts->nanosecs)
		snprintf(when, sizeof(when), "%" PRIu64 ".%09" PRIu64,
			 (uint64_t)(he->time / 1000000000u), (uint64_t)(he->time % 1000000000u));
	else
		snprintf(when, sizeof(when), "%" PRIu64 ".%06" PRIu64,
			 (uint64_t)(he->time / 1000000000u), (uint64_t)(he->time % 1000000000u / 1000));
	/* cut to the width, never padded: a last Time column has no blanks */
	strbuf_addf(sb, "%.*s", (int)width, when);
}

static uint64_t time_hash(const struct hist_entry *he)
{
	return he->time;
}

/* The weight keys: the weight of the sample that made the entry (perf's
 * he->weight), and that times the entry's samples; both compare the first
 * (weight's total would change as samples come). */
static int local_weight_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp((int64_t)b->weight, (int64_t)a->weight);
}

static void local_weight_print(const struct hist_entry *he, struct strbuf *sb,
			       unsigned int width)
{
	strbuf_addf(sb, "%-*" PRIu64, (int)width, he->weight);
}

static void weight_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-*" PRIu64, (int)width, he->weight * he->stat.nr_events);
}

static uint64_t weight_hash(const struct hist_entry *he)
{
	return he->weight;
}

static uint64_t ins_lat_hash(const struct hist_entry *he)
{
	return he->ins_lat;
}

/* the instruction latency of WEIGHT_STRUCT, as the weights */
static int local_ins_lat_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp(b->ins_lat, a->ins_lat);
}

static void local_ins_lat_print(const struct hist_entry *he, struct strbuf *sb,
				unsigned int width)
{
	strbuf_addf(sb, "%-*u", (int)width, he->ins_lat);
}

static void ins_lat_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-*" PRIu64, (int)width, (uint64_t)he->ins_lat * he->stat.nr_events);
}

/* --- the memory keys (--mem-mode) ------------------------------------------ */

static int daddr_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_addr(a->mem.daddr, b->mem.daddr);
}

/* perf's sym print for data: "[level] ", then an object with the offset
 * given, a function by name, or the address */
static void data_sym_print(const struct hist_entry *he, struct strbuf *sb, char level,
			   const struct dso *dso, const struct symbol *sym, uint64_t addr,
			   uint64_t offset, unsigned int width)
{
	if (he->hists->opts->verbose) {	/* -v: the address and where symbols came from */
		size_t start = sb->len, n;

		strbuf_addf(sb, "%-#*" PRIx64 " %c ", VERBOSE_ADDR_WIDTH, addr,
			    dso ? dso__symtab_origin(dso) : '!');
		n = sb->len - start;
		width = width > n ? width - (unsigned int)n : 0;
	}
	strbuf_addf(sb, "[%c] ", level);
	if (sym && sym->object)
		strbuf_addf(sb, "%s+0x%" PRIx64, sym->name, offset);
	else if (sym)
		strbuf_addf(sb, "%.*s", (int)width - 4 < 0 ? -1 : (int)width - 4, sym->name);
	else
		strbuf_addf(sb, "%#.*" PRIx64, UNRESOLVED_ADDR_WIDTH, addr);
}

static void daddr_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	const struct symbol *sym = he->mem.sym;

	data_sym_print(he, sb, he->level, he->mem.dso, sym, he->mem.daddr,
		       sym ? he->mem.daddr_rel - sym->start : 0, width);
}

static uint64_t daddr_hash(const struct hist_entry *he)
{
	return he->mem.daddr;
}

/* the dso key's order reversed (perf's output shows it so): data without
 * a map first, then names descending */
static int dso_daddr_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return dso_cmp_of(b, b->mem.dso, a, a->mem.dso);
}

static void dso_daddr_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-*.*s", (int)width, (int)width,
		    he->mem.dso ? dso_name_of(he, he->mem.dso) : "[unknown]");
}

static uint64_t dso_daddr_hash(const struct hist_entry *he)
{
	return dso_name_hash(he->mem.dso);
}

/* --- dcacheline: the data's cache line, told apart as perf does ----------- */

#define CACHELINE_SIZE 64

static uint64_t cacheline(const struct hist_entry *he)
{
	return he->mem.daddr_rel & ~(uint64_t)(CACHELINE_SIZE - 1);
}

/* by mode, then mapped before not, by file (device and inode), anonymous
 * memory by process, then by the line's address in the map */
static int dcacheline_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	int ret = int_cmp(a->mem.cpumode, b->mem.cpumode);

	if (ret)
		return ret;
	if (a->mem.mapped != b->mem.mapped)
		return a->mem.mapped ? -1 : 1;
	if (a->mem.mapped) {
		ret = int_cmp(a->mem.map_maj, b->mem.map_maj);
		if (!ret)
			ret = int_cmp(a->mem.map_min, b->mem.map_min);
		if (!ret)
			ret = int_cmp((int64_t)a->mem.map_ino, (int64_t)b->mem.map_ino);
		if (!ret)
			ret = int_cmp((int64_t)a->mem.map_ino_gen, (int64_t)b->mem.map_ino_gen);
		if (ret)
			return ret;
		if (a->mem.cpumode != PERF_RECORD_MISC_KERNEL && a->mem.anon) {
			ret = int_cmp(a->thread->pid, b->thread->pid);
			if (ret)
				return ret;
		}
	}
	return int_cmp((int64_t)cacheline(a), (int64_t)cacheline(b));
}

/* perf's offset here is the line's map-relative address less the symbol's
 * absolute start: a wrapped number, kept as perf prints it */
static void dcacheline_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	char level = he->mem.shared_file ? 's' : !he->mem.mapped ? 'X' : he->level;

	data_sym_print(he, sb, level, he->mem.dso, he->mem.sym, cacheline(he),
		       cacheline(he) - he->mem.sym_unmapped, width);
}

static uint64_t dcacheline_hash(const struct hist_entry *he)
{
	return cacheline(he);
}

/* One field of the data source; an entry without one counts as N/A (1). */
static int64_t src_field(const struct hist_entry *he, int shift, unsigned bits)
{
	return he->mem.present ? (int64_t)((he->mem.data_src >> shift) & ((1u << bits) - 1)) : 1;
}

/* pad: the key fills its width even as the last column (as perf's do) */
#define SRC_KEY(name, shift, bits, decoder, pad) \
static int name##_cmp(const struct hist_entry *a, const struct hist_entry *b) \
{ \
	return int_cmp(src_field(a, shift, bits), src_field(b, shift, bits)); \
} \
static void name##_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width) \
{ \
	size_t start = sb->len; \
	decoder(sb, he->mem.data_src, he->mem.present); \
	if (pad && sb->len - start < width) \
		strbuf_addf(sb, "%*s", (int)(width - (sb->len - start)), ""); \
} \
static uint64_t name##_hash(const struct hist_entry *he) \
{ \
	return (uint64_t)src_field(he, shift, bits); \
}

SRC_KEY(mem_lvl, 5, 14, data_src__mem, true)
SRC_KEY(snoop, 19, 5, data_src__snoop, true)
SRC_KEY(locked, 24, 2, data_src__locked, false)
SRC_KEY(tlb, 26, 7, data_src__tlb, true)
SRC_KEY(blocked, 40, 3, data_src__blocked, false)

static int phys_daddr_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp((int64_t)a->mem.phys_addr, (int64_t)b->mem.phys_addr);
}

/* padded to the width even last (but 0 is shorter: printf's %# adds no 0x) */
static void phys_daddr_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	size_t start = sb->len;

	strbuf_addf(sb, "[%c] %#.*" PRIx64, he->level, UNRESOLVED_ADDR_WIDTH, he->mem.phys_addr);
	if (sb->len - start < width)
		strbuf_addf(sb, "%*s", (int)(width - (sb->len - start)), "");
}

static uint64_t phys_daddr_hash(const struct hist_entry *he)
{
	return he->mem.phys_addr;
}

static int page_size_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp((int64_t)a->mem.page_size, (int64_t)b->mem.page_size);
}

static void page_size_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	size_t start = sb->len;

	page_size__name(sb, he->mem.page_size);
	if (sb->len - start < width)
		strbuf_addf(sb, "%*s", (int)(width - (sb->len - start)), "");
}

static uint64_t page_size_hash(const struct hist_entry *he)
{
	return he->mem.page_size;
}

/* --- cgroup, cgroup_id (--all-cgroups) -------------------------------------- */

static int cgroup_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp((int64_t)a->cgroup.id, (int64_t)b->cgroup.id);
}

static void cgroup_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	/* perf ignores the width: not cut, and padded only before another column */
	strbuf_addstr(sb, !he->cgroup.id ? "N/A" : he->cgroup.path ? he->cgroup.path : "unknown");
}

static uint64_t cgroup_hash(const struct hist_entry *he)
{
	return he->cgroup.id;
}

/* the cgroup namespace of the sample's thread, as perf keys cgroup_id */
static int cgroup_id_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	int r = int_cmp((int64_t)b->cgroup.ns_dev, (int64_t)a->cgroup.ns_dev);

	return r ? r : int_cmp((int64_t)b->cgroup.ns_ino, (int64_t)a->cgroup.ns_ino);
}

static void cgroup_id_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	char id[48];	/* two u64s */

	snprintf(id, sizeof(id), "%" PRIu64 "/0x%" PRIx64, he->cgroup.ns_dev, he->cgroup.ns_ino);
	strbuf_addstr(sb, id);
}

static uint64_t cgroup_id_hash(const struct hist_entry *he)
{
	return he->cgroup.ns_dev ^ he->cgroup.ns_ino;
}

/* --- ipc_null: what perf shows without LBR cycles ------------------------- */

static void ipc_null_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-*s", (int)width, "-      -");
}

/* ipc_lbr: perf's IPC and coverage come from annotating the symbol, which
 * its --stdio report never does: zeros for a symbol, a dash without */
static void ipc_lbr_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-*s", (int)width, he->sym ? "0.00  [  0.0%]" : "-");
}

/* --- transaction, code_page_size, addr -------------------------------------- */

/* perf orders transactions by the flags word, larger first */
static int transaction_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp((int64_t)b->transaction, (int64_t)a->transaction);
}

/* PERF_SAMPLE_TRANSACTION's flag bits, in bit order, and its abort code */
static void transaction_print(const struct hist_entry *he, struct strbuf *sb,
			      unsigned int width)
{
	static const char *const flag_names[] = {
		"EL ", "TX ", "SYNC ", "ASYNC ", "RETRY ", "CON ", "CAP-WRITE ", "CAP-READ ",
	};
	const uint64_t sync_or_async = 1u << 2 | 1u << 3;
	uint64_t t = he->transaction;
	size_t start = sb->len;

	for (size_t i = 0; i < ARRAY_SIZE(flag_names); i++)
		if (t & (1u << i))
			strbuf_addstr(sb, flag_names[i]);
	if (t && !(t & sync_or_async))
		strbuf_addstr(sb, "NEITHER ");
	if (t >> 32)
		strbuf_addf(sb, ":%" PRIx64, t >> 32);
	if (sb->len - start < width)
		strbuf_addf(sb, "%*s", (int)(width - (sb->len - start)), "");
}

static uint64_t transaction_hash(const struct hist_entry *he)
{
	return he->transaction;
}

static int code_page_size_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp((int64_t)a->code_page_size, (int64_t)b->code_page_size);
}

static void code_page_size_print(const struct hist_entry *he, struct strbuf *sb,
				 unsigned int width)
{
	size_t start = sb->len;

	page_size__name(sb, he->code_page_size);
	if (sb->len - start < width)
		strbuf_addf(sb, "%*s", (int)(width - (sb->len - start)), "");
}

static uint64_t code_page_size_hash(const struct hist_entry *he)
{
	return he->code_page_size;
}

/* the entry's ip back in the address space, as perf's map gives it: a
 * --children entry's ip is absolute already, and gets the map's shift twice */
static uint64_t entry_addr(const struct hist_entry *he)
{
	return he->ip + (he->dso ? he->unmap_shift : 0);
}

static int addr_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_addr(entry_addr(a), entry_addr(b));
}

/* symbol_iaddr: one entry per sampled instruction, shown by its symbol */
static void iaddr_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	data_sym_print(he, sb, he->level, he->dso, he->sym, entry_addr(he),
		       he->sym ? he->ip - he->sym->start : 0, width);
}

static void addr_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-#*" PRIx64, (int)width, entry_addr(he));
}

static uint64_t addr_hash(const struct hist_entry *he)
{
	return entry_addr(he);
}

/* --- local_p_stage_cyc, p_stage_cyc: columns of -F only ---------------------- */

/* The pipeline stage cycles come with powerpc's weights alone: 0 here,
 * one value for every entry. */
static int p_stage_cyc_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	(void)a;
	(void)b;
	return 0;
}

static void p_stage_cyc_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	(void)he;
	strbuf_addf(sb, "%-*u", (int)width, 0u);
}

static uint64_t p_stage_cyc_hash(const struct hist_entry *he)
{
	(void)he;
	return 0;
}

/* --- the tables ------------------------------------------------------------ */

/* --- branch mode's keys: a branch's two ends and its flags ------------------ */

/* perf compares the ends' DSOs the other way round from the dso key */
static int dso_from_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return dso_cmp_of(b, b->br.from.dso, a, a->br.from.dso);
}

static int dso_to_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return dso_cmp_of(b, b->br.to.dso, a, a->br.to.dso);
}

static void dso_end_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width,
			  const struct dso *dso)
{
	strbuf_addf(sb, "%-*.*s", (int)width, (int)width,
		    dso ? dso_name_of(he, dso) : "[unknown]");
}

static void dso_from_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	dso_end_print(he, sb, width, he->br.from.dso);
}

static void dso_to_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	dso_end_print(he, sb, width, he->br.to.dso);
}

static uint64_t dso_from_hash(const struct hist_entry *he)
{
	return dso_name_hash(he->br.from.dso);
}

static uint64_t dso_to_hash(const struct hist_entry *he)
{
	return dso_name_hash(he->br.to.dso);
}

/* the symbol key's order without its DSO part: by address without symbols */
static int sym_end_cmp(const struct hist_branch_end *a, const struct hist_branch_end *b)
{
	if (!a->sym && !b->sym)
		return cmp_addr(a->addr, b->addr);
	if (!a->sym || !b->sym)
		return cmp_null(a->sym, b->sym);
	if (a->sym == b->sym)
		return 0;
	if (a->sym->start != b->sym->start)
		return cmp_addr(a->sym->start, b->sym->start);
	return cmp_addr(a->sym->end, b->sym->end);
}

static int sym_from_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return sym_end_cmp(&a->br.from, &b->br.from);
}

static int sym_to_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return sym_end_cmp(&a->br.to, &b->br.to);
}

static void sym_from_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	const struct hist_branch_end *e = &he->br.from;

	sym_print_of(he, sb, width, e->dso, e->sym, e->al_addr, e->level);
}

static void sym_to_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	const struct hist_branch_end *e = &he->br.to;

	sym_print_of(he, sb, width, e->dso, e->sym, e->al_addr, e->level);
}

static uint64_t sym_end_hash(const struct hist_branch_end *e)
{
	return e->sym ? e->sym->start ^ e->sym->end : e->addr;
}

static uint64_t sym_from_hash(const struct hist_entry *he)
{
	return sym_end_hash(&he->br.from);
}

static uint64_t sym_to_hash(const struct hist_entry *he)
{
	return sym_end_hash(&he->br.to);
}

/* perf's flag keys only tell "same" from "different" (no order): 1 for
 * different, so that perf's entry tree looks further right, and its
 * output tree further left (hence the _sort twins) */
#define BRANCH_FLAG_MASK_MISPREDICT	3u	/* mispredicted, predicted */
#define BRANCH_FLAG_MASK_IN_TX		4u
#define BRANCH_FLAG_MASK_ABORT		8u

#define FLAG_KEY(name, mask) \
static int name##_cmp(const struct hist_entry *a, const struct hist_entry *b) \
{ \
	return ((a->br.flags ^ b->br.flags) & (mask)) != 0; \
} \
static int name##_sort(const struct hist_entry *a, const struct hist_entry *b) \
{ \
	return -name##_cmp(a, b); \
} \
static uint64_t name##_hash(const struct hist_entry *he) \
{ \
	return he->br.flags & (mask); \
}

FLAG_KEY(mispredict, BRANCH_FLAG_MASK_MISPREDICT)
FLAG_KEY(in_tx, BRANCH_FLAG_MASK_IN_TX)
FLAG_KEY(abort, BRANCH_FLAG_MASK_ABORT)

/* perf keeps the last answer in a static: a branch neither predicted nor
 * mispredicted shows what the entry printed before it showed */
static void mispredict_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	static const char *last = "N/A";

	if (BRANCH_PREDICTED(he->br.flags))
		last = "N";
	else if (BRANCH_MISPRED(he->br.flags))
		last = "Y";
	strbuf_addf(sb, "%-*.*s", (int)width, (int)width, last);
}

static void in_tx_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-*s", (int)width, BRANCH_IN_TX(he->br.flags) ? "T" : ".");
}

static void abort_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	strbuf_addf(sb, "%-*s", (int)width, BRANCH_ABORT(he->br.flags) ? "A" : ".");
}

/* the ends' source lines, as the srcline key's ("(null)" where perf
 * never computed one: an entry it never compared) */
static int srcline_from_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return str_cmp(a->br.from.srcline, b->br.from.srcline);
}

static int srcline_to_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return str_cmp(a->br.to.srcline, b->br.to.srcline);
}

static void srcline_end_print(struct strbuf *sb, unsigned int width,
			      const struct hist_branch_end *e)
{
	strbuf_addf(sb, "%-*.*s", (int)width, (int)width,
		    e->srcline && e->srcline_compared ? e->srcline : "(null)");
}

static void srcline_from_print(const struct hist_entry *he, struct strbuf *sb,
			       unsigned int width)
{
	srcline_end_print(sb, width, &he->br.from);
}

static void srcline_to_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	srcline_end_print(sb, width, &he->br.to);
}

static uint64_t srcline_from_hash(const struct hist_entry *he)
{
	return (uintptr_t)he->br.from.srcline;
}

static uint64_t srcline_to_hash(const struct hist_entry *he)
{
	return (uintptr_t)he->br.to.srcline;
}

/* addr_from, addr_to: by DSO (the ends' order), then by address */
static int addr_end_cmp(const struct hist_entry *a, const struct hist_branch_end *ea,
			const struct hist_entry *b, const struct hist_branch_end *eb)
{
	int ret = dso_cmp_of(b, eb->dso, a, ea->dso);

	return ret ? ret : cmp_addr(ea->addr, eb->addr);
}

static int addr_from_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return addr_end_cmp(a, &a->br.from, b, &b->br.from);
}

static int addr_to_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return addr_end_cmp(a, &a->br.to, b, &b->br.to);
}

/* "[level] symbol+0xoff" with the sample's level, the name cut to what the
 * width leaves, never padded; the address without a symbol */
static void addr_end_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width,
			   const struct hist_branch_end *e)
{
	strbuf_add(sb, (const char[]){ '[', he->level, ']', ' ' }, 4);
	if (e->sym && e->dso && e->sym->object) {
		strbuf_addf(sb, "%s+0x%" PRIx64, e->sym->name, e->al_addr - e->sym->start);
	} else if (e->sym && e->dso) {
		uint64_t off = e->al_addr - e->sym->start;

		/* perf's precision, an unsigned difference passed as an int */
		strbuf_addf(sb, "%.*s", (int)(width - 4), e->sym->name);
		if (off)
			strbuf_addf(sb, "+0x%" PRIx64, off);
	} else {
		strbuf_addf(sb, "%-#.*" PRIx64, UNRESOLVED_ADDR_WIDTH, e->al_addr);
	}
}

static void addr_from_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	addr_end_print(he, sb, width, &he->br.from);
}

static void addr_to_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	addr_end_print(he, sb, width, &he->br.to);
}

static uint64_t addr_from_hash(const struct hist_entry *he)
{
	return he->br.from.addr;
}

static uint64_t addr_to_hash(const struct hist_entry *he)
{
	return he->br.to.addr;
}

/* more cycles first */
static int cycles_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return int_cmp(BRANCH_CYCLES(b->br.flags), BRANCH_CYCLES(a->br.flags));
}

/* perf prints the count as a short */
static void cycles_print(const struct hist_entry *he, struct strbuf *sb, unsigned int width)
{
	unsigned cycles = BRANCH_CYCLES(he->br.flags);

	if (!cycles)
		strbuf_addf(sb, "%-*s", (int)width, "-");
	else
		strbuf_addf(sb, "%-*hd", (int)width, (short)cycles);
}

static uint64_t cycles_hash(const struct hist_entry *he)
{
	return BRANCH_CYCLES(he->br.flags);
}

#define KEY(n, h, c, cmpf, sortf, printf_, hashf) \
	{ .name = (n), .header = (h), .is_key = true, .col = (c), .cmp = (cmpf), \
	  .sort = (sortf), .print = (printf_), .hash = (hashf) }

/* perf looks keys up in this order, by prefix: "s" is symbol, "t" is not trace. */
static const struct hist_field key_fields[] = {
	KEY("pid", "    Pid:Command", HISTC_THREAD, pid_cmp, NULL, pid_print, pid_hash),
	KEY("comm", "Command", HISTC_COMM, comm_cmp, NULL, comm_print, comm_hash),
	KEY("dso", "Shared Object", HISTC_DSO, dso_cmp, NULL, dso_print, dso_hash),
	KEY("symbol", "Symbol", HISTC_SYMBOL, sym_cmp, sym_sort, sym_print, sym_hash),
	KEY("parent", "Parent symbol", HISTC_PARENT, parent_cmp, NULL, parent_print, parent_hash),
	KEY("cpu", "CPU", HISTC_CPU, cpu_cmp, NULL, cpu_print, cpu_hash),
	KEY("socket", "Socket", HISTC_SOCKET, socket_cmp, NULL, socket_print, socket_hash),
	KEY("srcline", "Source:Line", HISTC_SRCLINE, srcline_cmp, NULL, srcline_print, srcline_hash),
	KEY("srcfile", "Source File", HISTC_SRCFILE, srcfile_cmp, NULL, srcfile_print,
	    srcfile_hash),
	KEY("local_weight", "Local Weight", HISTC_LOCAL_WEIGHT, local_weight_cmp, NULL,
	    local_weight_print, weight_hash),
	KEY("weight", "Weight", HISTC_WEIGHT, local_weight_cmp, NULL, weight_print, weight_hash),
	KEY("transaction", "Transaction                ", HISTC_TRANSACTION, transaction_cmp, NULL,
	    transaction_print, transaction_hash),
	KEY("trace", "Trace output", HISTC_TRACE, trace_cmp, NULL, trace_print, trace_hash),
	KEY("symbol_size", "Symbol size", HISTC_SYM_SIZE, sym_size_cmp, NULL, sym_size_print,
	    sym_size_hash),
	KEY("dso_size", "DSO size", HISTC_DSO_SIZE, dso_size_cmp, NULL, dso_size_print,
	    dso_size_hash),
	KEY("cgroup", "Cgroup", HISTC_CGROUP, cgroup_cmp, NULL, cgroup_print, cgroup_hash),
	KEY("cgroup_id", "cgroup id (dev/inode)", HISTC_CGROUP_ID, cgroup_id_cmp, NULL,
	    cgroup_id_print, cgroup_id_hash),
	/* perf compares ipc_null entries as symbols (a --hierarchy level shows it) */
	KEY("ipc_null", "IPC   [IPC Coverage]", HISTC_IPC, sym_cmp, NULL, ipc_null_print, sym_hash),
	KEY("time", "Time", HISTC_TIME, time_cmp, NULL, time_print, time_hash),
	KEY("code_page_size", "Code Page Size", HISTC_CODE_PAGE_SIZE, code_page_size_cmp, NULL,
	    code_page_size_print, code_page_size_hash),
	KEY("local_ins_lat", "Local INSTR Latency", HISTC_LOCAL_INS_LAT, local_ins_lat_cmp, NULL,
	    local_ins_lat_print, ins_lat_hash),
	KEY("ins_lat", "INSTR Latency", HISTC_INS_LAT, local_ins_lat_cmp, NULL, ins_lat_print,
	    ins_lat_hash),
	KEY("local_p_stage_cyc", "Local Pipeline Stage Cycle", HISTC_P_STAGE_CYC, p_stage_cyc_cmp,
	    NULL, p_stage_cyc_print, p_stage_cyc_hash),
	KEY("p_stage_cyc", "Pipeline Stage Cycle", HISTC_P_STAGE_CYC, p_stage_cyc_cmp, NULL,
	    p_stage_cyc_print, p_stage_cyc_hash),
	KEY("addr", "Address", HISTC_ADDR, addr_cmp, NULL, addr_print, addr_hash),
	/* beyond perf 6.1 (which only has pid, keyed by thread id anyway) */
	KEY("tid", "    Tid:Command", HISTC_THREAD, pid_cmp, NULL, pid_print, pid_hash),
};

/* perf's branch dimensions, valid in branch mode only */
static const struct hist_field branch_fields[] = {
	KEY("dso_from", "Source Shared Object", HISTC_DSO_FROM, dso_from_cmp, NULL, dso_from_print,
	    dso_from_hash),
	KEY("dso_to", "Target Shared Object", HISTC_DSO_TO, dso_to_cmp, NULL, dso_to_print,
	    dso_to_hash),
	KEY("symbol_from", "Source Symbol", HISTC_SYMBOL_FROM, sym_from_cmp, NULL, sym_from_print,
	    sym_from_hash),
	KEY("symbol_to", "Target Symbol", HISTC_SYMBOL_TO, sym_to_cmp, NULL, sym_to_print,
	    sym_to_hash),
	KEY("mispredict", "Branch Mispredicted", HISTC_MISPREDICT, mispredict_cmp, mispredict_sort,
	    mispredict_print, mispredict_hash),
	KEY("abort", "Transaction abort", HISTC_ABORT, abort_cmp, abort_sort, abort_print, abort_hash),
	KEY("in_tx", "Branch in transaction", HISTC_IN_TX, in_tx_cmp, in_tx_sort, in_tx_print,
	    in_tx_hash),
	KEY("cycles", "Basic Block Cycles", HISTC_CYCLES, cycles_cmp, NULL, cycles_print,
	    cycles_hash),
	/* compared as symbols, as ipc_null */
	KEY("ipc_lbr", "IPC   [IPC Coverage]", HISTC_IPC, sym_cmp, NULL, ipc_lbr_print, sym_hash),
	KEY("srcline_from", "From Source:Line", HISTC_SRCLINE_FROM, srcline_from_cmp, NULL,
	    srcline_from_print, srcline_from_hash),
	KEY("srcline_to", "To Source:Line", HISTC_SRCLINE_TO, srcline_to_cmp, NULL,
	    srcline_to_print, srcline_to_hash),
	KEY("addr_from", "Source Address", HISTC_ADDR_FROM, addr_from_cmp, NULL, addr_from_print,
	    addr_from_hash),
	KEY("addr_to", "Target Address", HISTC_ADDR_TO, addr_to_cmp, NULL, addr_to_print,
	    addr_to_hash),
};

/* perf's memory dimensions: looked up last, and only in --mem-mode */
static const struct hist_field mem_fields[] = {
	KEY("symbol_daddr", "Data Symbol", HISTC_MEM_DADDR_SYMBOL, daddr_cmp, NULL, daddr_print,
	    daddr_hash),
	KEY("dso_daddr", "Data Object", HISTC_MEM_DADDR_DSO, dso_daddr_cmp, NULL, dso_daddr_print,
	    dso_daddr_hash),
	KEY("locked", "Locked", HISTC_MEM_LOCKED, locked_cmp, NULL, locked_print, locked_hash),
	KEY("tlb", "TLB access", HISTC_MEM_TLB, tlb_cmp, NULL, tlb_print, tlb_hash),
	KEY("mem", "Memory access", HISTC_MEM_LVL, mem_lvl_cmp, NULL, mem_lvl_print, mem_lvl_hash),
	KEY("snoop", "Snoop", HISTC_MEM_SNOOP, snoop_cmp, NULL, snoop_print, snoop_hash),
	KEY("dcacheline", "Data Cacheline", HISTC_MEM_DCACHELINE, dcacheline_cmp, NULL,
	    dcacheline_print, dcacheline_hash),
	KEY("phys_daddr", "Data Physical Address", HISTC_MEM_PHYS_DADDR, phys_daddr_cmp, NULL,
	    phys_daddr_print, phys_daddr_hash),
	KEY("data_page_size", "Data Page Size", HISTC_MEM_DATA_PAGE_SIZE, page_size_cmp, NULL,
	    page_size_print, page_size_hash),
	KEY("blocked", "Blocked", HISTC_MEM_BLOCKED, blocked_cmp, NULL, blocked_print,
	    blocked_hash),
	KEY("symbol_iaddr", "Code Symbol", HISTC_MEM_IADDR_SYMBOL, addr_cmp, NULL, iaddr_print,
	    addr_hash),
};

#define VALUE(n, h, v, l, pct) \
	{ .name = (n), .header = (h), .value = (v), .len = (l), .percent = (pct) }

static const struct hist_field value_fields[] = {
	VALUE("overhead", "Overhead", HV_OVERHEAD, 8, true),
	VALUE("overhead_sys", "sys", HV_OVERHEAD_SYS, 8, true),
	VALUE("overhead_us", "usr", HV_OVERHEAD_US, 8, true),
	VALUE("overhead_guest_sys", "guest sys", HV_OVERHEAD_GUEST_SYS, 9, true),
	VALUE("overhead_guest_us", "guest usr", HV_OVERHEAD_GUEST_US, 9, true),
	VALUE("overhead_children", "Children", HV_OVERHEAD_ACC, 8, true),
	VALUE("sample", "Samples", HV_SAMPLES, 12, false),
	VALUE("period", "Period", HV_PERIOD, 12, false),
};

static const struct hist_field *find_value(enum hist_value v)
{
	for (size_t i = 0; i < ARRAY_SIZE(value_fields); i++)
		if (value_fields[i].value == v)
			return &value_fields[i];
	return NULL;
}

/* Why find_field() found nothing. */
enum field_miss {
	FIELD_UNKNOWN,
	FIELD_UNSUPPORTED,	/* perf's, not pcl's */
	FIELD_INVALID,		/* a memory key outside --mem-mode */
	FIELD_SKIPPED,		/* perf's pipeline-stage keys, which x86 ignores */
};

/* The sort keys x86's perf drops (the -F columns stay). */
static bool is_p_stage_cyc(const struct hist_field *f)
{
	return f->col == HISTC_P_STAGE_CYC;
}

/* perf's lookup: keys first, then values, then branch keys, then memory
 * keys, each by prefix, case-blind. */
static const struct hist_field *find_field(const char *tok, bool output, const struct sort_setup *s,
					   enum field_miss *miss)
{
	size_t n = strlen(tok);
	bool mem_mode = s->mem_mode;

	*miss = FIELD_UNKNOWN;
	for (size_t i = 0; i < ARRAY_SIZE(key_fields); i++)
		if (!strncasecmp(tok, key_fields[i].name, n)) {
			if (!output && is_p_stage_cyc(&key_fields[i])) {
				*miss = FIELD_SKIPPED;
				return NULL;
			}
			if (key_fields[i].cmp)
				return &key_fields[i];
			*miss = FIELD_UNSUPPORTED;
			return NULL;
		}
	for (size_t i = 0; i < ARRAY_SIZE(value_fields); i++)
		if (!strncasecmp(tok, value_fields[i].name, n))
			return &value_fields[i];
	for (size_t i = 0; i < ARRAY_SIZE(branch_fields); i++)
		if (!strncasecmp(tok, branch_fields[i].name, n)) {
			if (s->branch_mode && branch_fields[i].cmp)
				return &branch_fields[i];
			*miss = s->branch_mode ? FIELD_UNSUPPORTED : FIELD_INVALID;
			return NULL;
		}
	for (size_t i = 0; i < ARRAY_SIZE(mem_fields); i++)
		if (!strncasecmp(tok, mem_fields[i].name, n)) {
			if (mem_mode && mem_fields[i].cmp)
				return &mem_fields[i];
			*miss = mem_mode ? FIELD_UNSUPPORTED : FIELD_INVALID;
			return NULL;
		}
	return NULL;
}

static bool has_sort(const struct hist_layout *l, const struct hist_field *f)
{
	for (int i = 0; i < l->nr_sorts; i++)
		if (l->sorts[i] == f)
			return true;
	return false;
}

static bool has_output(const struct hist_layout *l, const struct hist_field *f)
{
	for (int i = 0; i < l->nr_fields; i++)
		if (l->fields[i].field == f)
			return true;
	return false;
}

static void add_sort(struct hist_layout *l, const struct hist_field *f, int level)
{
	if (has_sort(l, f) || l->nr_sorts >= HIST_MAX_FIELDS)
		return;
	l->sort_level[l->nr_sorts] = level;
	l->sorts[l->nr_sorts++] = f;
}

static void add_output(struct hist_layout *l, const struct hist_field *f, const char *header)
{
	if (has_output(l, f) || l->nr_fields >= HIST_MAX_FIELDS)
		return;
	l->fields[l->nr_fields].field = f;
	l->fields[l->nr_fields].elide = false;
	l->fields[l->nr_fields].header = header;
	l->nr_fields++;
}

/*
 * Splits a -s/-F list on ",", " " and braces, perf's separators.  Each key
 * gets perf's level: the next one after a separator, the same one inside
 * braces ("{comm,dso},sym": comm and dso on one --hierarchy level).
 */
static int parse_list(struct hist_layout *l, const char *list, bool output,
		      const struct sort_setup *s, char **err)
{
	char *copy = xstrdup(list), *str = copy, *sep;
	int ret = 0, level = 0, next_level;
	bool in_group = false;

	do {
		char *tok = str;

		next_level = level + 1;
		sep = strpbrk(str, ", {}");
		if (sep) {
			next_level = in_group ? level : level + 1;
			if (*sep == '{')
				in_group = true;
			else if (*sep == '}')
				in_group = false;
			*sep = '\0';
			str = sep + 1;
		}
		if (*tok) {
			enum field_miss miss;
			const struct hist_field *f = find_field(tok, output, s, &miss);
			const char *opt = output ? "fields" : "sort";

			if (!f && miss == FIELD_SKIPPED) {
				level = next_level;
				continue;
			}
			if (!f) {
				*err = miss == FIELD_UNSUPPORTED ?
				       xasprintf("--%s key `%s' is not supported by pcl", opt, tok) :
				       xasprintf("%s --%s key: `%s'",
						 miss == FIELD_INVALID ? "Invalid" : "Unknown", opt, tok);
				ret = -1;
				break;
			}
			if (output) {
				add_output(l, f, NULL);
			} else {
				add_sort(l, f, level);
				l->has_parent |= f->col == HISTC_PARENT && f->is_key;
				/* comm and srcline entries are merged again by name */
				l->need_collapse |= f->is_key && (f->col == HISTC_COMM ||
								  f->col == HISTC_SRCLINE);
			}
		}
		level = next_level;
	} while (sep);
	free(copy);
	return ret;
}

/* --hierarchy: the keys grouped by level, levels in the order of their
 * first key (perf's hpp_formats past the overhead node).  Value fields
 * all stay in the columns before the hierarchy. */
static void setup_levels(struct hist_layout *l)
{
	for (int i = 0; i < l->nr_sorts; i++) {
		struct hist_level *lv = NULL;

		if (!l->sorts[i]->is_key)
			continue;
		for (int k = 0; k < l->nr_levels && !lv; k++)
			if (l->levels[k].level == l->sort_level[i])
				lv = &l->levels[k];
		if (!lv) {
			lv = &l->levels[l->nr_levels++];
			lv->level = l->sort_level[i];
			lv->nr_keys = 0;
		}
		if (lv->nr_keys < HIST_LEVEL_MAX_KEYS)
			lv->keys[lv->nr_keys++] = l->sorts[i];
	}
}

const char *sort_default_order(bool tracepoints_only)
{
	return tracepoints_only ? "trace" : "comm,dso,symbol";
}

int hist_layout__setup(struct hist_layout *l, const struct sort_setup *s, char **err)
{
	const char *keys = s->sort_order;
	/* perf diff brings its own value columns */
	bool strict = s->diff || (s->field_order && s->field_order[0] != '+');

	memset(l, 0, sizeof(*l));
	*err = NULL;
	if (!keys && !strict)
		keys = s->branch_mode ? SORT_BRANCH_DEFAULT_ORDER :
		       sort_default_order(s->tracepoints_only);
	if (!keys && s->diff)
		keys = "dso,sym";
	if (keys) {
		struct strbuf sb = STRBUF_INIT;
		int ret;

		/* perf puts the overheads first unless -F takes over, or the
		 * list mentions an overhead already (a substring test) */
		if (!strict && s->cumulate && !strstr(keys, "overhead_children"))
			strbuf_addstr(&sb, "overhead_children,");
		if (!strict && !strstr(keys, "overhead"))
			strbuf_addstr(&sb, "overhead,");
		strbuf_addstr(&sb, keys);
		ret = parse_list(l, sb.buf, false, s, err);
		strbuf_release(&sb);
		if (ret < 0)
			return -1;
	}
	if (!strict) {
		if (s->cumulate)
			add_output(l, find_value(HV_OVERHEAD_ACC), NULL);
		add_output(l, find_value(HV_OVERHEAD), s->cumulate ? "Self" : NULL);
		if (s->show_cpu_utilization) {
			add_output(l, find_value(HV_OVERHEAD_SYS), NULL);
			add_output(l, find_value(HV_OVERHEAD_US), NULL);
		}
		if (s->show_nr_samples)
			add_output(l, find_value(HV_SAMPLES), NULL);
		if (s->show_total_period)
			add_output(l, find_value(HV_PERIOD), NULL);
	}
	if (s->field_order && !s->diff) {
		const char *list = strict ? s->field_order : s->field_order + 1;

		if (!*list) {
			*err = xstrdup("Invalid --fields key: `+'");
			return -1;
		}
		if (parse_list(l, list, true, s, err) < 0)
			return -1;
	}
	/* sort keys are shown too, and shown columns sort too */
	for (int i = 0; i < l->nr_sorts; i++)
		add_output(l, l->sorts[i], NULL);
	for (int i = 0; i < l->nr_fields; i++)
		add_sort(l, l->fields[i].field, 0);
	for (int i = 0; i < l->nr_sorts; i++) {
		const struct hist_field *f = l->sorts[i];

		if (!f->is_key)
			continue;
		l->keys[l->nr_keys++] = f;
		l->has_srcline |= f->col == HISTC_SRCLINE;
		l->has_trace |= f->col == HISTC_TRACE;
		l->has_srcfile |= f->col == HISTC_SRCFILE;
		l->has_branch_srcline |= f->col == HISTC_SRCLINE_FROM || f->col == HISTC_SRCLINE_TO;
		l->has_sample_keys |= f->col == HISTC_TIME || f->col == HISTC_WEIGHT ||
				      f->col == HISTC_LOCAL_WEIGHT || f->col == HISTC_SOCKET ||
				      f->col == HISTC_TRANSACTION || f->col == HISTC_CODE_PAGE_SIZE;
	}
	for (int i = 0; s->diff && i < l->nr_keys; i++)
		l->sym_by_name |= l->keys[i]->col == HISTC_SYMBOL && l->keys[i]->sort;
	l->need_collapse |= l->sym_by_name;
	l->hierarchy = s->hierarchy;
	if (l->hierarchy) {
		setup_levels(l);
		/* perf merges the levels' entries in its collapse pass */
		l->need_collapse = true;
	}
	return 0;
}

void hist_layout__set_user_widths(struct hist_layout *l, const char *list)
{
	for (int i = 0; i < l->nr_fields; i++) {
		char *end;

		l->fields[i].user_len = (int)strtol(list, &end, 10);
		if (*end != ',')
			break;
		list = end + 1;
	}
}

void hist_layout__cancel_cumulate(struct hist_layout *l)
{
	const struct hist_field *acc = find_value(HV_OVERHEAD_ACC);
	int n = 0;

	for (int i = 0; i < l->nr_fields; i++) {
		if (l->fields[i].field == acc)
			continue;
		if (l->fields[i].field->value == HV_OVERHEAD && !l->fields[i].field->is_key)
			l->fields[i].header = NULL;
		l->fields[n++] = l->fields[i];
	}
	l->nr_fields = n;
	n = 0;
	for (int i = 0; i < l->nr_sorts; i++)
		if (l->sorts[i] != acc)
			l->sorts[n++] = l->sorts[i];
	l->nr_sorts = n;
}

void hist_layout__elide(struct hist_layout *l, const char *const only[HISTC_NR_COLS])
{
	bool all = true;

	for (int i = 0; i < l->nr_fields; i++) {
		const struct hist_field *f = l->fields[i].field;

		if (!f->is_key)
			continue;
		l->fields[i].elide = only[f->col] != NULL;
		all &= l->fields[i].elide;
	}
	/* hiding every key would show nothing: perf shows them all again */
	if (all)
		for (int i = 0; i < l->nr_fields; i++)
			l->fields[i].elide = false;
	for (int i = 0; i < l->nr_sorts; i++)
		l->sort_elided[i] = hist_layout__elided(l, l->sorts[i]);
}

bool hist_layout__elided(const struct hist_layout *l, const struct hist_field *f)
{
	for (int i = 0; i < l->nr_fields; i++)
		if (l->fields[i].field == f)
			return l->fields[i].elide;
	return false;
}

void hist_field__mark_srclines(const struct hist_field *f, struct hist_entry *a,
			       struct hist_entry *b)
{
	if (f->col == HISTC_SRCLINE)
		a->srcline_compared = b->srcline_compared = true;
	else if (f->col == HISTC_SRCLINE_FROM)
		a->br.from.srcline_compared = b->br.from.srcline_compared = true;
	else if (f->col == HISTC_SRCLINE_TO)
		a->br.to.srcline_compared = b->br.to.srcline_compared = true;
}

int hist_layout__cmp_mark(const struct hist_layout *l, struct hist_entry *a,
			  struct hist_entry *b)
{
	bool mark = l->has_srcline || l->has_branch_srcline;

	for (int i = 0; i < l->nr_keys; i++) {
		int ret;

		if (mark)
			hist_field__mark_srclines(l->keys[i], a, b);
		ret = l->keys[i]->cmp(a, b);
		if (ret)
			return ret;
	}
	return 0;
}

int hist_layout__collapse_cmp(const struct hist_layout *l, struct hist_entry *a,
			      struct hist_entry *b)
{
	if (!l->sym_by_name)
		return hist_layout__cmp_mark(l, a, b);
	for (int i = 0; i < l->nr_keys; i++) {
		const struct hist_field *f = l->keys[i];
		int ret = f->col == HISTC_SYMBOL && f->sort ? f->sort(a, b) : f->cmp(a, b);

		if (ret)
			return ret;
	}
	return 0;
}

bool hist_layout__total_order(const struct hist_layout *l)
{
	bool dso_seen = false;

	for (int i = 0; i < l->nr_keys; i++) {
		int (*cmp)(const struct hist_entry *, const struct hist_entry *) = l->keys[i]->cmp;

		if (cmp == dso_cmp)
			dso_seen = true;
		else if (cmp == sym_cmp && !dso_seen)
			return false;	/* unresolved ones compare across DSOs */
		else if (cmp != comm_cmp && cmp != pid_cmp && cmp != sym_cmp)
			return false;
	}
	return true;
}

bool hist_entry__order_addrs(const struct hist_entry *he, int64_t *lo, int64_t *hi)
{
	if (he->inlined)
		return false;
	*lo = (int64_t)(he->sym ? he->sym->start : he->ip);
	*hi = (int64_t)(he->sym ? he->sym->end : he->ip);
	if (*lo > *hi) {
		int64_t t = *lo;

		*lo = *hi;
		*hi = t;
	}
	return true;
}

/* Equal entries, equal hash: it only spares comparisons, so the keys'
 * raw values, folded in, do (no mixing per sample and frame). */
uint64_t hist_layout__hash(const struct hist_layout *l, const struct hist_entry *he)
{
	uint64_t h = 0;

	for (int i = 0; i < l->nr_keys; i++)
		h = hash_add(h, l->keys[i]->hash(he));
	return h;
}

const char *hist_field__header(const struct hist_column_cfg *c)
{
	return c->header ? c->header : c->field->header;
}

int hist_level__cmp(const struct hist_level *lv, const struct hist_entry *a,
		    const struct hist_entry *b)
{
	for (int i = 0; i < lv->nr_keys; i++) {
		int ret = lv->keys[i]->cmp(a, b);

		if (ret)
			return ret;
	}
	return 0;
}

bool hist_level__has(const struct hist_level *lv, enum hist_column col)
{
	for (int i = 0; i < lv->nr_keys; i++)
		if (lv->keys[i]->col == col)
			return true;
	return false;
}
