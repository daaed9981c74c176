/* script-brstack: perf script's brstack, brstacksym and brstackoff fields,
 * one " from/to/flags" group per branch stack entry (perf 6.1's layout). */
#include "ui/script-print.h"
#include "core/hist/branch.h"
#include "core/symbols/insn.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct br_entry {
	uint64_t from, to, flags;
};

/* perf passes the NULL of an unnamed new type to printf */
static const char *branch_type(uint64_t flags)
{
	const char *name = hist_branch__type_name(flags);

	return name ? name : "(null)";
}

static void print_flags(FILE *fp, uint64_t f)
{
	char pred = BRANCH_PREDICTED(f) ? 'P' : BRANCH_MISPRED(f) ? 'M' : '-';

	fprintf(fp, "/%c/%c/%c/%u/%s ", pred, BRANCH_IN_TX(f) ? 'X' : '-', BRANCH_ABORT(f) ? 'A' : '-',
		BRANCH_CYCLES(f), branch_type(f));
}

static void print_dso(FILE *fp, const struct addr_location *al)
{
	fputc('(', fp);
	script_print_dso_name(fp, al->map);
	fputc(')', fp);
}

/* brstackoff's address: the kernel's counts from its map, a user DSO's is
 * its file offset until perf has read its ELF symbols, the address after. */
static uint64_t branch_offset(const struct addr_location *al, uint64_t addr)
{
	if (!al->map)
		return addr;
	if (al->map->dso->kernel)
		return addr - al->map->start;
	if (dso__has_elf_image(al->map->dso))
		return addr;
	return map__map_ip(al->map, addr);
}

void script_print_brstack(FILE *fp, uint64_t fields, struct machine *m,
			  const struct perf_sample *sample, struct thread *thread)
{
	bool dso = fields & SF_DSO;

	for (uint64_t i = 0; sample->branch_entries && i < sample->branch_nr; i++) {
		struct addr_location alf, alt;
		struct br_entry e;

		memcpy(&e, (const char *)sample->branch_entries + i * sizeof(e), sizeof(e));
		memset(&alf, 0, sizeof(alf));
		memset(&alt, 0, sizeof(alt));
		if (fields & SF_BRSTACK) {
			if (dso) {
				machine__find_map_fb(m, thread, sample->cpumode, e.from, &alf);
				machine__find_map_fb(m, thread, sample->cpumode, e.to, &alt);
			}
			fprintf(fp, " 0x%" PRIx64, e.from);
			if (dso)
				print_dso(fp, &alf);
			fprintf(fp, "/0x%" PRIx64, e.to);
			if (dso)
				print_dso(fp, &alt);
		} else if (fields & SF_BRSTACKSYM) {
			machine__find_symbol_fb(m, thread, sample->cpumode, e.from, &alf);
			machine__find_symbol_fb(m, thread, sample->cpumode, e.to, &alt);
			script_print_symname(fp, alf.sym, alf.map, alf.addr, true);
			if (dso)
				print_dso(fp, &alf);
			fputc('/', fp);
			script_print_symname(fp, alt.sym, alt.map, alt.addr, true);
			if (dso)
				print_dso(fp, &alt);
		} else {
			uint64_t from = machine__find_map_fb(m, thread, sample->cpumode, e.from, &alf) ?
					branch_offset(&alf, e.from) : e.from;
			uint64_t to = machine__find_map_fb(m, thread, sample->cpumode, e.to, &alt) ?
				      branch_offset(&alt, e.to) : e.to;

			fprintf(fp, " 0x%" PRIx64, from);
			if (dso)
				print_dso(fp, &alf);
			fprintf(fp, "/0x%" PRIx64, to);
			if (dso)
				print_dso(fp, &alt);
		}
		print_flags(fp, e.flags);
	}
}

/* ---- brstackinsn: the instructions of the blocks between branches ---- */

#define MAXBB	16384	/* the longest block perf disassembles */
#define MAXINSN	15

struct bb_walk {
	FILE *fp;
	struct script_config *c;
	uint64_t fields;
	struct machine *m;
	struct thread *thread;
	uint8_t cpumode;
	bool is64;
	const struct symbol *lastsym;
	int total_cycles;
	char out[128];
};

static bool kernel_ip(uint64_t ip)
{
	return ip >= 1ULL << 63;
}

/* The code of [start, end] and the longest instruction after it (perf's
 * grab_bb): bytes read, 0 when it cannot be had, -1 for a block between
 * kernel and user space. */
static long grab_bb(struct bb_walk *w, uint8_t *buf, uint64_t start, uint64_t end)
{
	struct addr_location al;
	long len;

	if (!start || !end)
		return 0;
	w->cpumode = kernel_ip(start) ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	if (kernel_ip(start) != kernel_ip(end))
		return -1;
	if (end - start > MAXBB - MAXINSN)
		return 0;
	if (!machine__lookup(w->m, w->thread, w->cpumode, start, &al) || !al.map)
		return 0;
	len = dso__read(al.map->dso, al.addr, buf, (size_t)(end - start + MAXINSN));
	w->is64 = dso__is_64bit(al.map->dso);
	return len;
}

/* "insn: 48 89 e5 ", or "<bad>"; *ilen its length. */
static const char *dump_insn(struct bb_walk *w, const uint8_t *buf, long len, int *ilen)
{
	int n = len > 0 ? x86_insn_len(buf, (size_t)len, w->is64) : 0, pos;

	if (!n)
		return "<bad>";
	*ilen = n;
	pos = snprintf(w->out, sizeof(w->out), "insn: ");
	for (int i = 0; i < n; i++)
		pos += snprintf(w->out + pos, sizeof(w->out) - (size_t)pos, "%02x ", buf[i]);
	return w->out;
}

/* A symbol line ("\tname+off:") when addr enters another symbol. */
static void print_bb_sym(struct bb_walk *w, uint64_t addr)
{
	struct addr_location al;
	const struct symbol *sym;
	int off;

	machine__lookup(w->m, w->thread, w->cpumode, addr, &al);
	if (w->lastsym && al.addr >= w->lastsym->start && al.addr < w->lastsym->end)
		return;
	if (!(sym = al.sym))
		return;
	off = (int)(al.addr < sym->end ? al.addr - sym->start : al.addr - al.map->start - sym->start);
	fprintf(w->fp, "\t%s", sym->name);
	if (off)
		fprintf(w->fp, "%+d", off);
	fputc(':', w->fp);
	if (w->fields & SF_SRCLINE) {
		const char *line = dso__srcline(al.map->dso, al.addr);

		if (line)
			fprintf(w->fp, "\t%s", line);
	}
	fputc('\n', w->fp);
	w->lastsym = sym;
}

static void print_bb_srccode(struct bb_walk *w, uint64_t addr)
{
	struct addr_location al;

	if (!(w->fields & SF_SRCCODE))
		return;
	machine__lookup(w->m, w->thread, w->cpumode, addr, &al);
	script_print_srccode(w->fp, w->c, &al);
}

/* The branch instruction ending a block, with what the entry says of it. */
static void print_bb_jump(struct bb_walk *w, uint64_t ip, uint64_t flags, const uint8_t *buf,
			  long len, int insn)
{
	int ilen = 0;

	fprintf(w->fp, "\t%016" PRIx64 "\t%-30s\t", ip, dump_insn(w, buf, len, &ilen));
	if (w->fields & SF_BRSTACKINSNLEN)
		fprintf(w->fp, "ilen: %d\t", ilen);
	fprintf(w->fp, "#%s%s%s%s", BRANCH_PREDICTED(flags) ? " PRED" : "",
		BRANCH_MISPRED(flags) ? " MISPRED" : "", BRANCH_IN_TX(flags) ? " INTX" : "",
		BRANCH_ABORT(flags) ? " ABORT" : "");
	if (BRANCH_CYCLES(flags)) {
		w->total_cycles += (int)BRANCH_CYCLES(flags);
		fprintf(w->fp, " %u cycles [%d]", BRANCH_CYCLES(flags), w->total_cycles);
		if (insn)
			fprintf(w->fp, " %.2f IPC", (double)((float)insn / (float)BRANCH_CYCLES(flags)));
	}
	fputc('\n', w->fp);
}

/* An instruction inside a block; returns its length (0: stop). */
static int print_bb_insn(struct bb_walk *w, uint64_t ip, const uint8_t *buf, long len)
{
	int ilen = 0;

	fprintf(w->fp, "\t%016" PRIx64 "\t%s", ip, dump_insn(w, buf, len, &ilen));
	if (w->fields & SF_BRSTACKINSNLEN)
		fprintf(w->fp, "\tilen: %d", ilen);
	fputc('\n', w->fp);
	return ilen;
}

void script_print_brstackinsn(FILE *fp, struct script_config *c, uint64_t fields,
			      struct machine *m, const struct perf_sample *sample,
			      struct thread *thread)
{
	struct bb_walk w = { .fp = fp, .c = c, .fields = fields, .m = m, .thread = thread };
	static uint8_t buf[MAXBB];
	struct br_entry *e;
	uint64_t start, end, nr = sample->branch_nr;
	long len;

	if (!sample->branch_entries || !nr)
		return;
	e = xmalloc(nr * sizeof(*e));
	memcpy(e, sample->branch_entries, nr * sizeof(*e));
	fputc('\n', fp);
	/* the first branch: where its block began is unknown */
	len = grab_bb(&w, buf, e[nr - 1].from, e[nr - 1].from);
	if (len > 0) {
		print_bb_sym(&w, e[nr - 1].from);
		print_bb_jump(&w, e[nr - 1].from, e[nr - 1].flags, buf, len, 0);
		print_bb_srccode(&w, e[nr - 1].from);
	}
	for (int64_t i = (int64_t)nr - 2; i >= 0; i--) {
		unsigned off = 0;
		int insn = 0, ilen;

		start = e[i + 1].to;
		end = e[i].from;
		len = grab_bb(&w, buf, start, end);
		/* a kernel entry the ring filter hid: go on to the next branch */
		if (len == -1 && i > 0) {
			end = e[--i].from;
			len = grab_bb(&w, buf, start, end);
		}
		if (len <= 0)
			continue;
		for (; off < (unsigned)len; off += (unsigned)ilen) {
			uint64_t ip = start + off;

			print_bb_sym(&w, ip);
			if (ip == end) {
				print_bb_jump(&w, ip, e[i].flags, buf + off, len - off, ++insn);
				print_bb_srccode(&w, ip);
				break;
			}
			ilen = print_bb_insn(&w, ip, buf + off, len - off);
			if (!ilen)
				break;
			print_bb_srccode(&w, ip);
			insn++;
		}
		if (off != end - start)
			fputs("\tmismatch of LBR data and executable\n", fp);
	}
	/* the last block, up to the sample, unless the sample is its branch */
	if (e[0].from != sample->ip && !BRANCH_ABORT(e[0].flags)) {
		start = e[0].to;
		end = sample->ip;
		if (end < start)	/* a branch is missing: look 128 bytes on */
			end = start + 128;
		len = grab_bb(&w, buf, start, end);
		print_bb_sym(&w, start);
		if (len <= 0) {
			/* at least the sampled instruction */
			len = grab_bb(&w, buf, sample->ip, sample->ip);
			if (len > 0) {
				print_bb_insn(&w, sample->ip, buf, len);
				print_bb_srccode(&w, sample->ip);
			}
		} else {
			for (uint64_t off = 0; off <= end - start;) {
				int ilen = print_bb_insn(&w, start + off, buf + off, len - (long)off);

				if (!ilen)
					break;
				if (x86_insn_is_branch(buf + off, (size_t)(len - (long)off), w.is64) &&
				    start + off != sample->ip) {
					fputs("\t... not reaching sample ...\n", fp);
					break;
				}
				print_bb_srccode(&w, start + off);
				off += (uint64_t)ilen;
			}
		}
	}
	free(e);
}
