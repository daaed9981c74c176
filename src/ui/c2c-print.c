/* c2c-print: perf c2c report --stats's tables. */
#include "ui/c2c-print.h"
#include "core/events/evsel.h"

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

static void print_details(FILE *fp, const struct evlist *evlist, const char *sort_on)
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
	fprintf(fp, "  Cacheline data grouping           : offset,iaddr\n");
}

void c2c_print_stats(FILE *fp, const struct c2c *c, const struct evlist *evlist,
		     const char *sort_on)
{
	print_stats(fp, &c->total);
	fputc('\n', fp);
	print_shared(fp, c);
	fputc('\n', fp);
	print_details(fp, evlist, sort_on);
}
