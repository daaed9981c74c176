/* c2c-print: perf c2c report's tables: the statistics (--stats), the
 * Shared Data Cache Line Table and the Shared Cache Line Distribution
 * Pareto. */
#include "ui/c2c-print.h"

#include <inttypes.h>
#include <string.h>

#include "core/events/evsel.h"
#include "core/symbols/dso.h"
#include "core/symbols/thread.h"
#include "ui/callchain-print.h"
#include "util/strbuf.h"
#include "util/util.h"

static void print_stats(FILE *fp, const struct c2c_stats *st)
{
	double misses = c2c_stats__llc_misses(st);

	fputs("=================================================\n"
	      "            Trace Event Information              \n"
	      "=================================================\n", fp);
	fprintf(fp, "  Total records                     : %10u\n", st->nr_entries);
	fprintf(fp, "  Locked Load/Store Operations      : %10u\n", st->locks);
	fprintf(fp, "  Load Operations                   : %10u\n", st->load);
	fprintf(fp, "  Loads - uncacheable               : %10u\n", st->ld_uncache);
	fprintf(fp, "  Loads - IO                        : %10u\n", st->ld_io);
	fprintf(fp, "  Loads - Miss                      : %10u\n", st->ld_miss);
	fprintf(fp, "  Loads - no mapping                : %10u\n", st->ld_noadrs);
	fprintf(fp, "  Load Fill Buffer Hit              : %10u\n", st->ld_fbhit);
	fprintf(fp, "  Load L1D hit                      : %10u\n", st->ld_l1hit);
	fprintf(fp, "  Load L2D hit                      : %10u\n", st->ld_l2hit);
	fprintf(fp, "  Load LLC hit                      : %10u\n", st->ld_llchit + st->lcl_hitm);
	fprintf(fp, "  Load Local HITM                   : %10u\n", st->lcl_hitm);
	fprintf(fp, "  Load Remote HITM                  : %10u\n", st->rmt_hitm);
	fprintf(fp, "  Load Remote HIT                   : %10u\n", st->rmt_hit);
	fprintf(fp, "  Load Local DRAM                   : %10u\n", st->lcl_dram);
	fprintf(fp, "  Load Remote DRAM                  : %10u\n", st->rmt_dram);
	fprintf(fp, "  Load MESI State Exclusive         : %10u\n", st->ld_excl);
	fprintf(fp, "  Load MESI State Shared            : %10u\n", st->ld_shared);
	fprintf(fp, "  Load LLC Misses                   : %10u\n", c2c_stats__llc_misses(st));
	fprintf(fp, "  Load access blocked by data       : %10u\n", st->blk_data);
	fprintf(fp, "  Load access blocked by address    : %10u\n", st->blk_addr);
	fprintf(fp, "  Load HIT Local Peer               : %10u\n", st->lcl_peer);
	fprintf(fp, "  Load HIT Remote Peer              : %10u\n", st->rmt_peer);
	/* perf divides by zero too: nan without misses */
	fprintf(fp, "  LLC Misses to Local DRAM          : %10.1f%%\n", st->lcl_dram / misses * 100.);
	fprintf(fp, "  LLC Misses to Remote DRAM         : %10.1f%%\n", st->rmt_dram / misses * 100.);
	fprintf(fp, "  LLC Misses to Remote cache (HIT)  : %10.1f%%\n", st->rmt_hit / misses * 100.);
	fprintf(fp, "  LLC Misses to Remote cache (HITM) : %10.1f%%\n", st->rmt_hitm / misses * 100.);
	fprintf(fp, "  Store Operations                  : %10u\n", st->store);
	fprintf(fp, "  Store - uncacheable               : %10u\n", st->st_uncache);
	fprintf(fp, "  Store - no mapping                : %10u\n", st->st_noadrs);
	fprintf(fp, "  Store L1D Hit                     : %10u\n", st->st_l1hit);
	fprintf(fp, "  Store L1D Miss                    : %10u\n", st->st_l1miss);
	fprintf(fp, "  Store No available memory level   : %10u\n", st->st_na);
	fprintf(fp, "  No Page Map Rejects               : %10u\n", st->nomap);
	fprintf(fp, "  Unable to parse data source       : %10u\n", st->noparse);
}

static void print_shared(FILE *fp, const struct c2c *c)
{
	const struct c2c_stats *st = &c->shared;

	fputs("=================================================\n"
	      "    Global Shared Cache Line Event Information   \n"
	      "=================================================\n", fp);
	fprintf(fp, "  Total Shared Cache Lines          : %10u\n", c->nr_shared_lines);
	fprintf(fp, "  Load HITs on shared lines         : %10u\n", st->load);
	fprintf(fp, "  Fill Buffer Hits on shared lines  : %10u\n", st->ld_fbhit);
	fprintf(fp, "  L1D hits on shared lines          : %10u\n", st->ld_l1hit);
	fprintf(fp, "  L2D hits on shared lines          : %10u\n", st->ld_l2hit);
	fprintf(fp, "  LLC hits on shared lines          : %10u\n", st->ld_llchit + st->lcl_hitm);
	fprintf(fp, "  Load hits on peer cache or nodes  : %10u\n", st->lcl_peer + st->rmt_peer);
	fprintf(fp, "  Locked Access on shared lines     : %10u\n", st->locks);
	fprintf(fp, "  Blocked Access on shared lines    : %10u\n", st->blk_data + st->blk_addr);
	fprintf(fp, "  Store HITs on shared lines        : %10u\n", st->store);
	fprintf(fp, "  Store L1D hits on shared lines    : %10u\n", st->st_l1hit);
	fprintf(fp, "  Store No available memory level   : %10u\n", st->st_na);
	fprintf(fp, "  Total Merged records              : %10u\n",
	       st->lcl_hitm + st->rmt_hitm + st->store);
}

static void print_details(FILE *fp, const struct c2c *c, const struct evlist *evlist,
			  const char *sort_on)
{
	bool first = true;

	fputs("=================================================\n"
	      "                 c2c details                     \n"
	      "=================================================\n", fp);
	evlist__for_each(evlist, pos) {
		fprintf(fp, "%-36s: %s\n", first ? "  Events" : "", pos->name);
		first = false;
	}
	fprintf(fp, "  Cachelines sort on                : %s\n", sort_on);
	fprintf(fp, "  Cacheline data grouping           : %s\n", c->cfg.grouping);
}

void c2c_print_stats(FILE *fp, const struct c2c *c, const struct evlist *evlist,
		     const char *sort_on)
{
	print_stats(fp, &c->total);
	fputc('\n', fp);
	print_shared(fp, c);
	fputc('\n', fp);
	print_details(fp, c, evlist, sort_on);
}

/* --- the Shared Data Cache Line Table and the Pareto ---------------------
 *
 * Both are perf's hist tables: columns of a width, right-aligned headers
 * on two lines (a top text may span the next columns), a line of dots,
 * and rows whose cells are padded to the width, except the last. */

struct row {
	const struct c2c *c;
	const struct c2c_print_opts *o;
	const struct c2c_line *line;
	const struct c2c_entry *e;
	unsigned idx;
};

struct column {
	const char *top, *bottom;
	unsigned span;		/* the top text also covers that many columns after */
	bool sort_key;		/* a perf sort key: prints its top text whatever the span */
	int width;
	void (*cell)(struct strbuf *sb, const struct row *r, int width);
};

#define MAX_COLUMNS 24

static void print_header(FILE *fp, const struct column *cols, unsigned n)
{
	struct strbuf sb = STRBUF_INIT;
	char cell[1024];

	for (int line = 0; line < 2; line++) {
		unsigned span = 0;

		strbuf_reset(&sb);
		strbuf_addstr(&sb, "# ");
		for (unsigned i = 0; i < n; i++) {
			const char *text = line ? cols[i].bottom : cols[i].top;

			if (i && !span)
				strbuf_addstr(&sb, "  ");
			if (!cols[i].sort_key && span) {
				span--;
				continue;
			}
			if (!cols[i].sort_key && !line)
				span = cols[i].span;
			/* perf formats a header cell in 1024 bytes */
			snprintf(cell, sizeof(cell), "%*s", cols[i].width, text ? text : "");
			strbuf_addstr(&sb, cell);
		}
		fprintf(fp, "%s\n", strbuf_str(&sb));
	}
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "# ");
	for (unsigned i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(&sb, "  ");
		for (int k = 0; k < cols[i].width; k++)
			strbuf_addch(&sb, '.');
	}
	fprintf(fp, "%s\n#\n", strbuf_str(&sb));
	strbuf_release(&sb);
}

static void print_row(FILE *fp, const struct column *cols, unsigned n, const struct row *r)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "  ");
	for (unsigned i = 0; i < n; i++) {
		size_t start;

		if (i)
			strbuf_addstr(&sb, "  ");
		start = sb.len;
		cols[i].cell(&sb, r, cols[i].width);
		while (i + 1 < n && sb.len - start < (size_t)cols[i].width)
			strbuf_addch(&sb, ' ');
	}
	fprintf(fp, "%s\n", strbuf_str(&sb));
	strbuf_release(&sb);
}

static void hex_cell(struct strbuf *sb, int width, uint64_t value)
{
	char hex[24];

	snprintf(hex, sizeof(hex), "0x%" PRIx64, value);
	strbuf_addf(sb, "%*s", width, hex);
}

static double percent(uint32_t part, uint32_t all)
{
	return all ? part * 100.0 / all : 0;
}

static void idx_cell(struct strbuf *sb, const struct row *r, int width)
{
	strbuf_addf(sb, "%*u", width, r->idx);
}

static void empty_cell(struct strbuf *sb, const struct row *r, int width)
{
	(void)r;
	strbuf_addf(sb, "%*s", width, "");
}

static void cacheline_cell(struct strbuf *sb, const struct row *r, int width)
{
	hex_cell(sb, width, r->line->daddr & ~(uint64_t)63);
}

/* The entry's CPUs in the node (perf's bitmap_scnprintf(): "0-3,6") */
static bool cpu_in_node(const struct row *r, int node, uint32_t cpu)
{
	return r->c->cfg.cpu2node[cpu] == node && c2c_entry__has_cpu(r->c, r->e, cpu);
}

static bool node_in_phys(const struct row *r, int unused, uint32_t node)
{
	const struct c2c_phys *p = r->e ? &r->e->phys : &r->line->phys;

	(void)unused;
	return p->nodes >> node & 1;
}

/* Appends the members in [0, nr) as "0-3,6"; returns whether any */
static bool bit_ranges(struct strbuf *sb, uint32_t nr, const struct row *r, int arg,
		       bool (*has)(const struct row *r, int arg, uint32_t bit))
{
	bool first = true;

	for (uint32_t bit = 0; bit < nr; bit++) {
		uint32_t last = bit;

		if (!has(r, arg, bit))
			continue;
		while (last + 1 < nr && has(r, arg, last + 1))
			last++;
		strbuf_addf(sb, first ? "%u" : ",%u", bit);
		if (last > bit)
			strbuf_addf(sb, "-%u", last);
		first = false;
		bit = last;
	}
	return !first;
}

/* The NUMA nodes of the physical addresses ("0-1"), "N/A" for none; and
 * how often the address changed. */
static void pa_node_cell(struct strbuf *sb, const struct row *r, int width)
{
	uint32_t nr = r->c->cfg.nr_nodes < 64 ? r->c->cfg.nr_nodes : 64;
	struct strbuf list = STRBUF_INIT;

	if (!bit_ranges(&list, nr, r, 0, node_in_phys))
		strbuf_addstr(&list, "N/A");
	strbuf_addf(sb, "%*s", width, strbuf_str(&list));
	strbuf_release(&list);
}

static void pa_count_cell(struct strbuf *sb, const struct row *r, int width)
{
	strbuf_addf(sb, "%*u", width, r->e ? r->e->phys.changes : r->line->phys.changes);
}

static void costly_cell(struct strbuf *sb, const struct row *r, int width)
{
	enum c2c_display d = r->c->cfg.display;

	strbuf_addf(sb, "%*.2f%%", width - 1,
		    percent(c2c_stats__display(&r->line->stats, d),
			    c2c_stats__display(&r->c->total, d)));
}

/* a count of the row's stats: the line's in the table, the entry's in the
 * Pareto */
#define COUNT_CELL(field)							\
	static void field##_cell(struct strbuf *sb, const struct row *r, int width)	\
	{									\
		const struct c2c_stats *st = r->e ? &r->e->stats : &r->line->stats;	\
		strbuf_addf(sb, "%*u", width, st->field);			\
	}
COUNT_CELL(tot_hitm)
COUNT_CELL(lcl_hitm)
COUNT_CELL(rmt_hitm)
COUNT_CELL(tot_peer)
COUNT_CELL(lcl_peer)
COUNT_CELL(rmt_peer)
COUNT_CELL(store)
COUNT_CELL(st_l1hit)
COUNT_CELL(st_l1miss)
COUNT_CELL(st_na)
COUNT_CELL(ld_fbhit)
COUNT_CELL(ld_l1hit)
COUNT_CELL(ld_l2hit)
COUNT_CELL(ld_llchit)
COUNT_CELL(rmt_hit)
COUNT_CELL(lcl_dram)
COUNT_CELL(rmt_dram)

/* an entry's share of its line's count */
#define SHARE_CELL(field)							\
	static void share_##field##_cell(struct strbuf *sb, const struct row *r, int width) \
	{									\
		strbuf_addf(sb, "%*.2f%%", width - 1,				\
			    percent(r->e->stats.field, r->line->stats.field));	\
	}
SHARE_CELL(rmt_hitm)
SHARE_CELL(lcl_hitm)
SHARE_CELL(rmt_peer)
SHARE_CELL(lcl_peer)
SHARE_CELL(st_l1hit)
SHARE_CELL(st_l1miss)
SHARE_CELL(st_na)

static void records_cell(struct strbuf *sb, const struct row *r, int width)
{
	strbuf_addf(sb, "%*u", width, c2c_stats__records(r->e ? &r->e->stats : &r->line->stats));
}

static void loads_cell(struct strbuf *sb, const struct row *r, int width)
{
	strbuf_addf(sb, "%*u", width, c2c_stats__loads(&r->line->stats));
}

#define MEAN_CELL(field)							\
	static void mean_##field##_cell(struct strbuf *sb, const struct row *r, int width) \
	{									\
		strbuf_addf(sb, "%*.0f", width, r->e->field.mean);		\
	}
MEAN_CELL(rmt_hitm)
MEAN_CELL(lcl_hitm)
MEAN_CELL(rmt_peer)
MEAN_CELL(lcl_peer)
MEAN_CELL(load)

static void offset_cell(struct strbuf *sb, const struct row *r, int width)
{
	hex_cell(sb, width, r->e->offset);
}

static void iaddr_cell(struct strbuf *sb, const struct row *r, int width)
{
	hex_cell(sb, width, r->e->iaddr);
}

static void pid_cell(struct strbuf *sb, const struct row *r, int width)
{
	strbuf_addf(sb, "%*d", width, (int)r->e->thread->pid);
}

static void tid_cell(struct strbuf *sb, const struct row *r, int width)
{
	int comm = (width < 7 ? 7 : width) - 8;

	strbuf_addf(sb, "%7d:%-*.*s", (int)r->e->thread->tid, comm, comm, r->e->thread->comm);
}

static void cpus_cell(struct strbuf *sb, const struct row *r, int width)
{
	strbuf_addf(sb, "%*u", width, c2c_entry__nr_cpus(r->c, r->e));
}

/* -v puts the address and where the symbols came from first */
static void symbol_cell(struct strbuf *sb, const struct row *r, int width)
{
	size_t start = sb->len;
	int room;

	if (r->o->verbose)
		strbuf_addf(sb, "%-#*" PRIx64 " %c ", 16 + 2, r->e->ip,
			    r->e->dso ? dso__symtab_origin(r->e->dso) : '!');
	strbuf_addf(sb, "[%c] ", r->e->level);
	room = width - (int)(sb->len - start);
	if (r->e->sym)	/* no room left: perf prints the whole name */
		strbuf_addf(sb, "%.*s", room < 0 ? -1 : room, r->e->sym->name);
	else
		strbuf_addf(sb, "%#.*" PRIx64, 16, r->e->ip);
}

static const char *dso_name(const struct c2c_print_opts *o, const struct dso *dso)
{
	return o->verbose ? dso__shown_long_name(dso) : dso->short_name;
}

static void dso_cell(struct strbuf *sb, const struct row *r, int width)
{
	strbuf_addf(sb, "%-*.*s", width, width, r->e->dso ? dso_name(r->o, r->e->dso) : "[unknown]");
}

static void srcline_cell(struct strbuf *sb, const struct row *r, int width)
{
	strbuf_addf(sb, "%-.*s", width, r->e->srcline ? r->e->srcline : "??:0");
}

static void node_cell(struct strbuf *sb, const struct row *r, int width)
{
	const struct c2c_config *cfg = &r->c->cfg;
	const struct c2c_stats *all = &r->e->stats;
	bool first = true;

	(void)width;
	for (uint32_t node = 0; node < cfg->nr_nodes; node++) {
		const struct c2c_stats *st = &r->e->node_stats[node];
		unsigned nr = 0;

		for (uint32_t cpu = 0; cpu < cfg->nr_cpus; cpu++)
			nr += cfg->cpu2node[cpu] == (int)node && c2c_entry__has_cpu(r->c, r->e, cpu);
		if (!nr) {
			if (r->o->node_info == 1)
				strbuf_addf(sb, "%21s", " ");
			continue;
		}
		if (!first)
			strbuf_addch(sb, ' ');
		first = false;
		strbuf_addf(sb, "%2u", node);
		if (r->o->node_info == 1) {
			uint32_t part = c2c_stats__display(st, cfg->display);
			uint32_t total = c2c_stats__display(all, cfg->display);

			strbuf_addf(sb, "{%2u ", nr);
			if (total)
				strbuf_addf(sb, "%5.1f%% ", percent(part, total));
			else
				strbuf_addf(sb, "%6s ", "n/a");
			if (all->store)
				strbuf_addf(sb, "%5.1f%%}", percent(st->store, all->store));
			else
				strbuf_addf(sb, "%6s}", "n/a");
		} else if (r->o->node_info >= 2) {
			strbuf_addch(sb, '{');
			bit_ranges(sb, cfg->nr_cpus, r, (int)node, cpu_in_node);
			strbuf_addch(sb, '}');
		}
	}
}

static void print_table(FILE *fp, const struct c2c *c, const struct c2c_print_opts *o)
{
	static const char *const costly[] = {
		[C2C_DISPLAY_TOT] = "Tot", [C2C_DISPLAY_LCL] = "Lcl", [C2C_DISPLAY_RMT] = "Rmt",
		[C2C_DISPLAY_PEER] = "Peer",
	};
	bool peer = c->cfg.display == C2C_DISPLAY_PEER;
	const struct column cols[] = {
		{ NULL, "Index", 0, false, 5, idx_cell },
		{ "----------- Cacheline ----------", "Address", 2, false, 18, cacheline_cell },
		{ NULL, "Node", 0, false, 4, pa_node_cell },
		{ NULL, "PA cnt", 0, false, 6, pa_count_cell },
		{ costly[c->cfg.display], peer ? "Snoop" : "Hitm", 0, false, 7, costly_cell },
		{ peer ? "------- Load Peer -------" : "------- Load Hitm -------", "Total", 2,
		  false, 7, peer ? tot_peer_cell : tot_hitm_cell },
		{ NULL, peer ? "Local" : "LclHitm", 0, false, 7,
		  peer ? lcl_peer_cell : lcl_hitm_cell },
		{ NULL, peer ? "Remote" : "RmtHitm", 0, false, 7,
		  peer ? rmt_peer_cell : rmt_hitm_cell },
		{ "Total", "records", 0, false, 7, records_cell },
		{ "Total", "Loads", 0, false, 7, loads_cell },
		{ "Total", "Stores", 0, false, 7, store_cell },
		{ "--------- Stores --------", "L1Hit", 2, false, 7, st_l1hit_cell },
		{ NULL, "L1Miss", 0, false, 7, st_l1miss_cell },
		{ NULL, "N/A", 0, false, 7, st_na_cell },
		{ "----- Core Load Hit -----", "FB", 2, false, 7, ld_fbhit_cell },
		{ NULL, "L1", 0, false, 7, ld_l1hit_cell },
		{ NULL, "L2", 0, false, 7, ld_l2hit_cell },
		{ "- LLC Load Hit --", "LclHit", 1, false, 8, ld_llchit_cell },
		{ NULL, "LclHitm", 0, false, 7, lcl_hitm_cell },
		{ "- RMT Load Hit --", "RmtHit", 1, false, 8, rmt_hit_cell },
		{ NULL, "RmtHitm", 0, false, 7, rmt_hitm_cell },
		{ "--- Load Dram ----", "Lcl", 1, false, 8, lcl_dram_cell },
		{ NULL, "Rmt", 0, false, 8, rmt_dram_cell },
	};
	unsigned n = ARRAY_SIZE(cols);

	fputs("=================================================\n"
	      "           Shared Data Cache Line Table          \n"
	      "=================================================\n"
	      "#\n", fp);
	print_header(fp, cols, n);
	for (unsigned i = 0; i < c->nr_shown; i++) {
		struct row r = { .c = c, .o = o, .line = c->shown[i], .idx = i };

		print_row(fp, cols, n, &r);
	}
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* The Pareto columns of a line: their widths count all its entries, the
 * hidden ones too (perf measures them before it filters). */
static unsigned pareto_columns(const struct c2c *c, const struct c2c_print_opts *o,
			       const struct c2c_line *l, struct column *cols)
{
	bool peer = c->cfg.display == C2C_DISPLAY_PEER;
	bool iaddr = c2c_config__coalesces(&c->cfg, C2C_BY_IADDR);
	bool dso = iaddr || c2c_config__coalesces(&c->cfg, C2C_BY_DSO);
	int sym_w = 0, dso_w = 0, src_w = 0, comm_w = 0;
	static const char *const node_headers[] = {
		"Node", NULL, "Node{cpu list}",
	};
	unsigned n = 0;

	for (uint32_t i = 0; i < l->nr_entries; i++) {
		const struct c2c_entry *e = l->entries[i];

		/* perf's widths: the name, "[.] " and with -v the address and
		 * origin; an unresolved address in 16 digits */
		sym_w = max_int(sym_w, e->sym ? (int)strlen(e->sym->name) + 4 +
					      (o->verbose ? 16 + 2 + 3 : 0) : 16 + 4 + 2);
		if (!e->sym)
			dso_w = max_int(dso_w, 16);
		if (e->dso)
			dso_w = max_int(dso_w, (int)strlen(dso_name(o, e->dso)));
		if (e->srcline)
			src_w = max_int(src_w, max_int((int)strlen(e->srcline), 11));
		comm_w = max_int(comm_w, (int)strlen(e->thread->comm));
	}
	if (!o->full_symbols) {
		sym_w = sym_w < 30 ? sym_w : 30;
		src_w = src_w < 30 ? src_w : 30;
	}
#define COL(...) (cols[n++] = (struct column){ __VA_ARGS__ })
	if (o->stdio)
		COL(NULL, "Num", 0, false, 5, empty_cell);
	COL(peer ? "-- Peer Snoop --" : "----- HITM -----", peer ? "Rmt" : "RmtHitm", 1, false, 7,
	    peer ? share_rmt_peer_cell : share_rmt_hitm_cell);
	COL(NULL, peer ? "Lcl" : "LclHitm", 0, false, 7,
	    peer ? share_lcl_peer_cell : share_lcl_hitm_cell);
	COL("------- Store Refs ------", "L1 Hit", 2, false, 7, share_st_l1hit_cell);
	COL(NULL, "L1 Miss", 0, false, 7, share_st_l1miss_cell);
	COL(NULL, "N/A", 0, false, 7, share_st_na_cell);
	if (o->stdio)
		COL("--------- Data address ---------", "Offset", 2, false, 18, offset_cell);
	else	/* perf's layout for its TUI, printed when that gives way */
		COL("------- CL --------", "Off", 2, false, 5, offset_cell);
	COL(NULL, "Node", 0, false, 4, pa_node_cell);
	COL(NULL, "PA cnt", 0, false, 6, pa_count_cell);
	if (c2c_config__coalesces(&c->cfg, C2C_BY_PID))
		COL(NULL, "Pid", 0, false, 7, pid_cell);
	if (c2c_config__coalesces(&c->cfg, C2C_BY_TID))
		COL(NULL, "Tid", 0, true, comm_w + 8, tid_cell);
	if (iaddr)
		COL(NULL, "Code address", 0, false, 18, iaddr_cell);
	COL("---------- cycles ----------", peer ? "rmt peer" : "rmt hitm", 2, false, 8,
	    peer ? mean_rmt_peer_cell : mean_rmt_hitm_cell);
	COL(NULL, peer ? "lcl peer" : "lcl hitm", 0, false, 8,
	    peer ? mean_lcl_peer_cell : mean_lcl_hitm_cell);
	COL(NULL, "load", 0, false, 8, mean_load_cell);
	COL("Total", "records", 0, false, 7, records_cell);
	COL("cpu", "cnt", 0, false, 8, cpus_cell);
	if (iaddr)
		COL(NULL, "Symbol", 0, true, sym_w, symbol_cell);
	if (dso)
		COL("Shared", "Object", 0, true, dso_w, dso_cell);
	if (iaddr && !o->no_source)
		COL(NULL, "Source:Line", 0, true, src_w, srcline_cell);
	COL(NULL, o->node_info == 1 ? (peer ? "Node{cpus %peers %stores}" :
				       "Node{cpus %hitms %stores}") :
		  node_headers[o->node_info ? 2 : 0], 0, false, 4, node_cell);
#undef COL
	return n;
}

/* A line's shown entries, each with its call graph when it has one; the
 * graph's percentages are of all the line's samples' periods. */
static void print_entries(FILE *fp, const struct c2c *c, const struct c2c_print_opts *o,
			  const struct c2c_line *l, const struct column *cols, unsigned n)
{
	static const struct hist_opts no_cumulate;	/* what the graph printer asks */
	struct hists graph_hists = { .opts = &no_cumulate };
	struct strbuf names = STRBUF_INIT;
	struct callchain_print cp = { .param = o->cc, .names = &names };
	uint64_t total = 0;

	for (uint32_t k = 0; k < l->nr_entries; k++)
		total += l->entries[k]->period;
	for (uint32_t k = 0; k < l->nr_entries; k++) {
		struct row r = { .c = c, .o = o, .line = l, .e = l->entries[k] };
		struct hist_entry he = { .callchain = r.e->callchain, .hists = &graph_hists };

		if (!r.e->shown)
			continue;
		print_row(fp, cols, n, &r);
		if (r.e->callchain && o->cc) {
			he.stat.period = r.e->period;
			callchain_print_entry(fp, &he, total, &cp);
		}
	}
	strbuf_release(&names);
}

static void print_pareto(FILE *fp, const struct c2c *c, const struct c2c_print_opts *o)
{
	bool peer = c->cfg.display == C2C_DISPLAY_PEER;

	fputs("=================================================\n"
	      "      Shared Cache Line Distribution Pareto      \n"
	      "=================================================\n"
	      "#\n", fp);
	for (unsigned i = 0; i < c->nr_shown; i++) {
		const struct c2c_line *l = c->shown[i];
		const struct c2c_stats *st = &l->stats;
		struct column cols[MAX_COLUMNS];
		unsigned n = pareto_columns(c, o, l, cols);
		char hex[24];

		if (i)
			fputc('\n', fp);
		else
			print_header(fp, cols, n);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, l->daddr & ~(uint64_t)63);
		fprintf(fp, "  ----------------------------------------------------------------------\n"
			"  %5u  %7u  %7u  %7u  %7u  %7u  %18s\n"
			"  ----------------------------------------------------------------------\n",
			i, peer ? st->rmt_peer : st->rmt_hitm, peer ? st->lcl_peer : st->lcl_hitm,
			st->st_l1hit, st->st_l1miss, st->st_na, hex);
		print_entries(fp, c, o, l, cols, n);
	}
}

void c2c_print_report(FILE *fp, const struct c2c *c, const struct c2c_print_opts *o)
{
	fputc('\n', fp);
	print_table(fp, c, o);
	fputc('\n', fp);
	print_pareto(fp, c, o);
}
