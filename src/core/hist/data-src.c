/* data-src: a memory sample's data source in perf's words (see data-src.h). */
#include "core/hist/data-src.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <inttypes.h>

/* bit positions and widths of the fields, from the low end */
void data_src__decode(uint64_t raw, struct data_src *d)
{
	d->op = raw & 0x1f;
	d->lvl = (raw >> 5) & 0x3fff;
	d->snoop = (raw >> 19) & 0x1f;
	d->lock = (raw >> 24) & 0x3;
	d->dtlb = (raw >> 26) & 0x7f;
	d->lvl_num = (raw >> 33) & 0xf;
	d->remote = (raw >> 37) & 0x1;
	d->snoopx = (raw >> 38) & 0x3;
	d->blk = (raw >> 40) & 0x7;
	d->hops = (raw >> 43) & 0x7;
}

enum {
	LVL_HIT = 1 << 1, LVL_MISS = 1 << 2,
	TLB_HIT = 1 << 1, TLB_MISS = 1 << 2,
	LOCK_NA = 1 << 0, LOCK_LOCKED = 1 << 1,
	SNOOPX_FWD = 1 << 0, SNOOPX_PEER = 1 << 1,
	BLK_NA = 1 << 0, BLK_DATA = 1 << 1, BLK_ADDR = 1 << 2,
};

/* a name per bit of the level set (hit and miss become the suffix) */
static const char *const lvl_names[] = {
	"N/A", NULL, NULL, "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
	"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached",
};

/* the level numbers with a name of their own; the others are "L<n>" */
static const char *lvl_num_name(unsigned n)
{
	switch (n) {
	case 0x9: return "CXL";
	case 0xa: return "I/O";
	case 0xb: return "Any cache";
	case 0xc: return "LFB/MAB";
	case 0xd: return "RAM";
	case 0xe: return "PMEM";
	case 0xf: return "N/A";
	default: return NULL;
	}
}

static const char *const hops_names[] = {
	NULL, "core, same node", "node, same socket", "socket, same board", "board",
};

static const char *const snoop_names[] = { "N/A", "None", "Hit", "Miss", "HitM" };

static const char *const tlb_names[] = { "N/A", NULL, NULL, "L1", "L2", "Walker", "Fault" };

/* Appends the names of the set bits of mask, joined by " or " after
 * whatever the field has so far (from start). */
static void add_bits(struct strbuf *sb, size_t start, unsigned mask, const char *const *names,
		     size_t nr_names)
{
	for (size_t i = 0; i < nr_names; i++) {
		if (!(mask & (1u << i)) || !names[i])
			continue;
		if (sb->len > start)
			strbuf_addstr(sb, " or ");
		strbuf_addstr(sb, names[i]);
	}
}

void data_src__mem(struct strbuf *sb, uint64_t raw, bool present)
{
	size_t start = sb->len;
	struct data_src d;
	bool named = false;

	if (!present) {
		strbuf_addstr(sb, "N/A");
		return;
	}
	data_src__decode(raw, &d);
	if (d.remote)
		strbuf_addstr(sb, "Remote ");
	/* a hop count says where better than the level set does */
	if (d.hops) {
		if (d.hops < ARRAY_SIZE(hops_names))
			strbuf_addf(sb, "%s ", hops_names[d.hops]);
	} else {
		size_t before = sb->len;

		add_bits(sb, before, d.lvl, lvl_names, ARRAY_SIZE(lvl_names));
		named = sb->len > before;
	}
	if (d.lvl_num) {
		const char *name = lvl_num_name(d.lvl_num);

		if (named)
			strbuf_addstr(sb, " or ");
		if (name)
			strbuf_addstr(sb, name);
		else
			strbuf_addf(sb, "L%u", d.lvl_num);
	}
	if (sb->len == start)
		strbuf_addstr(sb, "N/A");
	if (d.lvl & LVL_HIT)
		strbuf_addstr(sb, " hit");
	if (d.lvl & LVL_MISS)
		strbuf_addstr(sb, " miss");
}

void data_src__snoop(struct strbuf *sb, uint64_t raw, bool present)
{
	size_t start = sb->len;
	struct data_src d;

	data_src__decode(present ? raw : 0, &d);
	add_bits(sb, start, d.snoop, snoop_names, ARRAY_SIZE(snoop_names));
	if (d.snoopx & SNOOPX_FWD) {
		if (sb->len > start)
			strbuf_addstr(sb, " or ");
		strbuf_addstr(sb, "Fwd");
	}
	if (d.snoopx & SNOOPX_PEER) {
		if (sb->len > start)
			strbuf_addstr(sb, " or ");
		strbuf_addstr(sb, "Peer");
	}
	if (sb->len == start)
		strbuf_addstr(sb, "N/A");
}

void data_src__tlb(struct strbuf *sb, uint64_t raw, bool present)
{
	size_t start = sb->len;
	struct data_src d;

	data_src__decode(present ? raw : 0, &d);
	add_bits(sb, start, d.dtlb, tlb_names, ARRAY_SIZE(tlb_names));
	if (sb->len == start)
		strbuf_addstr(sb, "N/A");
	if (d.dtlb & TLB_HIT)
		strbuf_addstr(sb, " hit");
	if (d.dtlb & TLB_MISS)
		strbuf_addstr(sb, " miss");
}

void data_src__locked(struct strbuf *sb, uint64_t raw, bool present)
{
	struct data_src d;

	data_src__decode(raw, &d);
	if (!present || (d.lock & LOCK_NA))
		strbuf_addstr(sb, "N/A");
	else
		strbuf_addstr(sb, d.lock & LOCK_LOCKED ? "Yes" : "No");
}

/* each word after a blank, the first too (perf's column starts with one) */
void data_src__blocked(struct strbuf *sb, uint64_t raw, bool present)
{
	struct data_src d;

	data_src__decode(present ? raw : 0, &d);
	if (!d.blk || (d.blk & BLK_NA)) {
		strbuf_addstr(sb, " N/A");
		return;
	}
	if (d.blk & BLK_DATA)
		strbuf_addstr(sb, " Data");
	if (d.blk & BLK_ADDR)
		strbuf_addstr(sb, " Addr");
}

/* perf's units: whole divisions by 1024 while more than one remains, at
 * most to G (so 1G is "1024M") */
void page_size__name(struct strbuf *sb, uint64_t size)
{
	static const char units[] = "BKMG";
	int u = 0;

	if (!size) {
		strbuf_addstr(sb, "N/A");
		return;
	}
	while (size / 1024 > 1 && u < 3) {
		size /= 1024;
		u++;
	}
	strbuf_addf(sb, "%" PRIu64 "%c", size, units[u]);
}
