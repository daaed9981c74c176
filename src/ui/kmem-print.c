/* kmem-print: perf kmem stat's tables and summaries (see kmem-print.h). */
#include "ui/kmem-print.h"

#include <inttypes.h>
#include <string.h>

#include "util/strbuf.h"

#define RULE "-----------------------------------------------------------------------" \
	     "----------------------------------"

/* perf's names of the migrate types, by the tracepoint's number */
static const char *const migrate_names[KMEM_MIGRATE_TYPES] = {
	"UNMOVABL", "RECLAIM", "MOVABLE", "RESERVED", "CMA/ISLT", "UNKNOWN",
};

static const char *migrate_name(uint32_t type)
{
	return type < KMEM_MIGRATE_TYPES ? migrate_names[type] : "UNKNOWN";
}

static const struct symbol *kernel_symbol(struct machine *m, uint64_t addr,
					  struct addr_location *al)
{
	if (!machine__lookup(m, NULL, PERF_RECORD_MISC_KERNEL, addr, al))
		return NULL;
	return al->sym;
}

/* perf's ellipsis row: rows were left out, or (-1) there were none */
static bool ellipsis(int lines, size_t nr)
{
	return lines >= 0 ? nr > (size_t)lines : lines == -1 && !nr;
}

static void slab_table(FILE *fp, const struct kmem_slab_stat *const *rows, size_t nr,
		       int lines, bool is_caller, struct machine *m, bool raw_ip)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	fprintf(fp, "%s\n", RULE);
	fprintf(fp, " %-34s |", is_caller ? "Callsite" : "Alloc Ptr");
	fputs(" Total_alloc/Per | Total_req/Per   | Hit      | Ping-pong | Frag\n", fp);
	fprintf(fp, "%s\n", RULE);
	/* tens of thousands of rows on a large recording: built without printf */
	for (i = 0; i < nr && (lines < 0 || i < (size_t)lines); i++) {
		const struct kmem_slab_stat *st = rows[i];
		uint64_t addr = is_caller ? st->call_site : st->ptr;
		struct addr_location al;
		const struct symbol *sym =
			is_caller && !raw_ip ? kernel_symbol(m, addr, &al) : NULL;
		size_t start = sb.len;

		strbuf_addch(&sb, ' ');
		if (sym)
			strbuf_addf_fast(&sb, "%s+%lx", sym->name,
					 (unsigned long)(al.addr - sym->start));
		else
			strbuf_addf_fast(&sb, "%#lx", (unsigned long)addr);
		if (sb.len - start < 35)
			strbuf_add_column(&sb, "", (int)(35 - (sb.len - start)));
		strbuf_addf_fast(&sb, " | %9lu/%-5lu | %9lu/%-5lu | %8lu | %9lu | ",
				 (unsigned long)st->bytes_alloc,
				 (unsigned long)(st->bytes_alloc / st->hit),
				 (unsigned long)st->bytes_req, (unsigned long)(st->bytes_req / st->hit),
				 (unsigned long)st->hit, (unsigned long)st->pingpong);
		strbuf_add_fixed(&sb, 6, 3, kmem__fragmentation(st->bytes_req, st->bytes_alloc));
		strbuf_addstr(&sb, "%\n");
		if (sb.len >= 1 << 16) {
			fwrite(sb.buf, 1, sb.len, fp);
			strbuf_reset(&sb);
		}
	}
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, fp);
	strbuf_release(&sb);
	if (ellipsis(lines, nr))
		fputs(" ...                                | ...             | ...             "
		      "| ...      | ...       | ...   \n", fp);
	fprintf(fp, "%s\n", RULE);
}

static void slab_summary(FILE *fp, const struct kmem *k)
{
	fputs("\nSUMMARY (SLAB allocator)\n========================\n", fp);
	fprintf(fp, "Total bytes requested: %'" PRIu64 "\n", k->total_requested);
	fprintf(fp, "Total bytes allocated: %'" PRIu64 "\n", k->total_allocated);
	fprintf(fp, "Total bytes freed:     %'" PRIu64 "\n", k->total_freed);
	if (k->total_allocated > k->total_freed)
		fprintf(fp, "Net total bytes allocated: %'" PRIu64 "\n",
			k->total_allocated - k->total_freed);
	fprintf(fp, "Total bytes wasted on internal fragmentation: %'" PRIu64 "\n",
		k->total_allocated - k->total_requested);
	fprintf(fp, "Internal fragmentation: %f%%\n",
		kmem__fragmentation(k->total_requested, k->total_allocated));
	fprintf(fp, "Cross CPU allocations: %'" PRIu64 "/%'" PRIu64 "\n", k->nr_cross_allocs,
		k->nr_allocs);
}

static void gfp_legend(FILE *fp, const struct kmem *k)
{
	fputs("#\n# GFP flags\n# ---------\n", fp);
	for (int i = 0; i < k->nr_gfps; i++)
		fprintf(fp, "# %08x: %*s: %s\n", k->gfps[i].flags, k->max_gfp_len,
			k->gfps[i].compact, k->gfps[i].names);
}

static const char *gfp_text(const struct kmem *k, uint32_t flags)
{
	const char *s = kmem__gfp_compact(k, flags);

	return s ? s : "(null)";
}

static void page_callsite_name(char *buf, size_t size, struct machine *m, uint64_t callsite)
{
	struct addr_location al;
	const struct symbol *sym = kernel_symbol(m, callsite, &al);

	if (sym)
		snprintf(buf, size, "%s", sym->name);
	else
		snprintf(buf, size, "%" PRIx64, callsite);
}

static void page_table(FILE *fp, const struct kmem *k, const struct kmem_page_stat *const *rows,
		       size_t nr, int lines, bool is_caller, struct machine *m)
{
	int gfp_len = k->max_gfp_len > 9 ? k->max_gfp_len : 9;
	size_t i;

	fprintf(fp, "\n%s\n", RULE);
	if (!is_caller)
		fprintf(fp, " %-16s |", k->use_pfn ? "PFN" : "Page");
	fprintf(fp, " %5s alloc (KB) | Hits      | Order | Mig.type | %-*s | Callsite\n",
		k->live ? "Live" : "Total", gfp_len, "GFP flags");
	fprintf(fp, "%s\n", RULE);
	for (i = 0; i < nr && (lines < 0 || i < (size_t)lines); i++) {
		const struct kmem_page_stat *st = rows[i];
		char caller[64];

		page_callsite_name(caller, sizeof(caller), m, st->callsite);
		if (!is_caller)
			fprintf(fp, k->use_pfn ? " %16llu |" : " %016llx |",
				(unsigned long long)st->page);
		fprintf(fp, " %'16llu | %'9d | %5d | %8s | %-*s | %s\n",
			(unsigned long long)(st->alloc_bytes / 1024), st->nr_alloc, st->order,
			migrate_name(st->migrate_type), gfp_len, gfp_text(k, st->gfp_flags),
			caller);
	}
	if (ellipsis(lines, nr)) {
		if (!is_caller)
			fputs(" ...              |", fp);
		fprintf(fp, " ...              | ...       | ...   | ...      | %-*s | ...\n",
			gfp_len, "...");
	}
	fprintf(fp, "%s\n", RULE);
}

static void page_summary(FILE *fp, const struct kmem *k)
{
	uint64_t alloc_freed = k->nr_page_frees - k->nr_page_nomatch;
	uint64_t alloc_freed_bytes = k->total_page_free_bytes - k->total_page_nomatch_bytes;
	const char *row = "%-30s: %'16" PRIu64 "   [ %'16" PRIu64 " KB ]\n";

	fputs("\nSUMMARY (page allocator)\n========================\n", fp);
	fprintf(fp, row, "Total allocation requests", k->nr_page_allocs,
		k->total_page_alloc_bytes / 1024);
	fprintf(fp, row, "Total free requests", k->nr_page_frees, k->total_page_free_bytes / 1024);
	fputc('\n', fp);
	fprintf(fp, row, "Total alloc+freed requests", alloc_freed, alloc_freed_bytes / 1024);
	fprintf(fp, row, "Total alloc-only requests", k->nr_page_allocs - alloc_freed,
		(k->total_page_alloc_bytes - alloc_freed_bytes) / 1024);
	fprintf(fp, row, "Total free-only requests", k->nr_page_nomatch,
		k->total_page_nomatch_bytes / 1024);
	fputc('\n', fp);
	fprintf(fp, row, "Total allocation failures", k->nr_page_fails,
		k->total_page_fail_bytes / 1024);
	fputc('\n', fp);
	fprintf(fp, "%5s  %12s  %12s  %12s  %12s  %12s\n", "Order", "Unmovable", "Reclaimable",
		"Movable", "Reserved", "CMA/Isolated");
	fprintf(fp, "%.5s  %.12s  %.12s  %.12s  %.12s  %.12s\n", RULE, RULE, RULE, RULE, RULE,
		RULE);
	for (int o = 0; o < KMEM_MAX_ORDER; o++) {
		fprintf(fp, "%5d", o);
		for (int t = 0; t < KMEM_MIGRATE_TYPES - 1; t++) {
			if (k->order_stats[o][t])
				fprintf(fp, "  %'12d", k->order_stats[o][t]);
			else
				fprintf(fp, "  %12c", '.');
		}
		fputc('\n', fp);
	}
}

void kmem_print(FILE *fp, const struct kmem *k, struct machine *machine,
		const struct kmem_print_opts *o)
{
	if (k->slab) {
		if (o->caller)
			slab_table(fp, k->slab_caller_sorted, k->nr_slab_caller_sorted,
				   o->caller_lines, true, machine, o->raw_ip);
		if (o->alloc)
			slab_table(fp, k->slab_alloc_sorted, k->nr_slab_alloc_sorted,
				   o->alloc_lines, false, machine, o->raw_ip);
		slab_summary(fp, k);
	}
	if (k->page) {
		if (o->caller || o->alloc)
			gfp_legend(fp, k);
		if (o->caller)
			page_table(fp, k, k->page_caller_sorted, k->nr_page_caller_sorted,
				   o->caller_lines, true, machine);
		if (o->alloc)
			page_table(fp, k, k->page_alloc_sorted, k->nr_page_alloc_sorted,
				   o->alloc_lines, false, machine);
		page_summary(fp, k);
	}
}
