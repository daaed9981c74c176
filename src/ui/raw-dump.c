/* raw-dump: the -D record dump, laid out as perf 6.1 prints it. */
#include "ui/raw-dump.h"
#include "util/util.h"

#include <ctype.h>
#include <stddef.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>

static void hex_dump(FILE *fp, const uint8_t *p, size_t size)
{
	fprintf(fp, ".\n. ... raw event: size %zu bytes\n", size);
	for (size_t off = 0; off < size; off += 16) {
		size_t n = size - off < 16 ? size - off : 16;

		fprintf(fp, ".  %04zx: ", off);
		for (size_t i = 0; i < 16; i++) {
			if (i < n)
				fprintf(fp, " %02x", p[off + i]);
			else
				fputs("   ", fp);
		}
		fputs("  ", fp);
		for (size_t i = 0; i < 16; i++) {
			if (i < n) {
				int c = p[off + i];
				fputc(isprint(c) && isascii(c) ? c : '.', fp);
			} else {
				fputc(' ', fp);
			}
		}
		fputc('\n', fp);
	}
	fputc('\n', fp);
}

static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

const char *raw_dump_reg_name(int idx)
{
	static const char *const xmm[] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7",
		"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};

	if (idx >= 0 && idx < (int)ARRAY_SIZE(x86_regs))
		return x86_regs[idx];
	/* each XMM register takes two mask bits from 32 on */
	if (idx >= 32 && idx < 64)
		return xmm[(idx - 32) / 2];
	return "unknown";
}

static void print_regs(FILE *fp, const char *type, uint64_t abi, uint64_t mask,
		       const uint64_t *regs)
{
	static const char *const abis[] = { "none", "32-bit", "64-bit" };
	int i = 0;

	if (!regs)
		return;
	fprintf(fp, "... %s regs: mask 0x%" PRIx64 " ABI %s\n", type, mask,
		abi < 3 ? abis[abi] : "unknown");
	for (int bit = 0; bit < 64; bit++)
		if (mask & (1ULL << bit))
			fprintf(fp, ".... %-5s 0x%016" PRIx64 "\n", raw_dump_reg_name(bit), regs[i++]);
}

static void print_read(FILE *fp, const struct perf_sample *s, uint64_t rf)
{
	fputs("... sample_read:\n", fp);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(fp, "...... time enabled %016" PRIx64 "\n", s->read.time_enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(fp, "...... time running %016" PRIx64 "\n", s->read.time_running);
	if (rf & PERF_FORMAT_GROUP) {
		fprintf(fp, ".... group nr %" PRIu64 "\n", s->read.nr);
		for (uint64_t i = 0; i < s->read.nr; i++) {
			const uint64_t *v = s->read.values + i * (uint64_t)s->read.stride;
			uint64_t id = (rf & PERF_FORMAT_ID) ? v[1] : 0;

			fprintf(fp, "..... id %016" PRIx64 ", value %016" PRIx64, id, v[0]);
			if (rf & PERF_FORMAT_LOST)
				fprintf(fp, ", lost %" PRIu64, v[s->read.stride - 1]);
			fputc('\n', fp);
		}
	} else {
		fprintf(fp, "..... id %016" PRIx64 ", value %016" PRIx64, s->read.one.id,
			s->read.one.value);
		if (rf & PERF_FORMAT_LOST)
			fprintf(fp, ", lost %" PRIu64, s->read.one.lost);
		fputc('\n', fp);
	}
}

static const char *page_size_name(uint64_t size, char *buf, size_t len)
{
	if (size >= (1ULL << 30) && !(size % (1ULL << 30)))
		snprintf(buf, len, "%" PRIu64 "G", size >> 30);
	else if (size >= (1ULL << 20) && !(size % (1ULL << 20)))
		snprintf(buf, len, "%" PRIu64 "M", size >> 20);
	else if (size >= (1ULL << 10) && !(size % (1ULL << 10)))
		snprintf(buf, len, "%" PRIu64 "K", size >> 10);
	else
		snprintf(buf, len, "%" PRIu64, size);
	return buf;
}

static void dump_sample(FILE *fp, const struct perf_event_header *rec, const struct perf_sample *s,
			const struct evsel *evsel)
{
	const struct perf_event_attr *a = &evsel->attr;
	uint64_t st = a->sample_type;
	char buf[32];

	fprintf(fp, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		rec->misc, (int)s->pid, (int)s->tid, s->ip, s->period, s->addr);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		fprintf(fp, "... FP chain: nr:%" PRIu64 "\n", s->callchain_nr);
		for (uint64_t i = 0; i < s->callchain_nr; i++)
			fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)i, s->callchain[i]);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		fprintf(fp, "... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
		for (uint64_t i = 0; i < s->branch_nr; i++) {
			const struct perf_branch_entry *e = &s->branch_entries[i];

			fprintf(fp, "..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64
				" %hu cycles %s%s%s%s %x\n", i, (uint64_t)e->from, (uint64_t)e->to,
				(unsigned short)e->cycles, e->mispred ? "M" : " ",
				e->predicted ? "P" : " ", e->abort ? "A" : " ", e->in_tx ? "T" : " ",
				(unsigned)e->reserved);
		}
	}
	if (st & PERF_SAMPLE_REGS_USER)
		print_regs(fp, "user", s->user_regs.abi, s->user_regs.mask, s->user_regs.regs);
	if (st & PERF_SAMPLE_REGS_INTR)
		print_regs(fp, "intr", s->intr_regs.abi, s->intr_regs.mask, s->intr_regs.regs);
	if (st & PERF_SAMPLE_STACK_USER) {
		/* the offset of the size word inside the record */
		size_t off = s->user_stack.data ? (size_t)((const uint8_t *)s->user_stack.data -
							   (const uint8_t *)rec) - 8 : 0;

		fprintf(fp, "... ustack: size %" PRIu64 ", offset 0x%zx\n",
			s->user_stack.size ? s->user_stack.dyn_size : 0, off);
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		fprintf(fp, "... weight: %" PRIu64, s->weight);
		if (st & PERF_SAMPLE_WEIGHT_STRUCT)
			fprintf(fp, ",0x%" PRIx16 ",0x%" PRIx16, s->ins_lat, s->p_stage_cyc);
		fputc('\n', fp);
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		fprintf(fp, " . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		fprintf(fp, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		fprintf(fp, " .. data page size: %s\n", page_size_name(s->data_page_size, buf, sizeof(buf)));
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		fprintf(fp, " .. code page size: %s\n", page_size_name(s->code_page_size, buf, sizeof(buf)));
	if (st & PERF_SAMPLE_TRANSACTION)
		fprintf(fp, "... transaction: %" PRIx64 "\n", s->transaction);
	if (st & PERF_SAMPLE_READ)
		print_read(fp, s, a->read_format);
}

static void cpu_list(FILE *fp, const uint16_t *cpus, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		fprintf(fp, "%s%u", i ? "," : "", cpus[i]);
		if (j > i)
			fprintf(fp, "-%u", cpus[j]);
		i = j + 1;
	}
}

static void dump_cpu_map(FILE *fp, const struct perf_rec_cpu_map *m)
{
	size_t body = m->header.size - offsetof(struct perf_rec_cpu_map, data);
	uint16_t cpus[4096];
	size_t n = 0;

	fputs(": ", fp);
	if (m->type == 0 && body >= 2) {
		uint16_t nr;

		memcpy(&nr, m->data, 2);
		for (size_t i = 0; i < nr && 2 + 2 * (i + 1) <= body && n < ARRAY_SIZE(cpus); i++)
			memcpy(&cpus[n++], m->data + 2 + 2 * i, 2);
	} else if (m->type == 1 && body >= 4) {
		uint16_t nr, long_size;
		size_t base = 4;

		memcpy(&nr, m->data, 2);
		memcpy(&long_size, m->data + 2, 2);
		if (long_size == 8)
			base = 6;	/* the u64 masks are 8-aligned in the record */
		for (size_t w = 0; w < nr && (long_size == 4 || long_size == 8) &&
				   base + (w + 1) * long_size <= body; w++) {
			uint64_t bits = 0;

			memcpy(&bits, m->data + base + w * long_size, long_size);
			for (unsigned b = 0; b < 8u * long_size; b++)
				if ((bits >> b) & 1 && n < ARRAY_SIZE(cpus))
					cpus[n++] = (uint16_t)(w * 8 * long_size + b);
		}
	} else if (m->type == 2 && body >= 6) {
		uint16_t start, end;

		memcpy(&start, m->data + 2, 2);
		memcpy(&end, m->data + 4, 2);
		for (unsigned c = start; c <= end && n < ARRAY_SIZE(cpus); c++)
			cpus[n++] = (uint16_t)c;
	}
	cpu_list(fp, cpus, n);
	fputc('\n', fp);
}

static void print_tstamp(FILE *fp, struct perf_session *s, const struct perf_event_header *rec,
			 const struct perf_sample *sample)
{
	uint64_t combined = 0;
	struct evsel *first = s->evlist.first;

	evlist__for_each(&s->evlist, pos)
		combined |= pos->attr.sample_type;
	if (rec->type != PERF_RECORD_SAMPLE && !(first && first->attr.sample_id_all)) {
		fputs("-1 -1 ", fp);
		return;
	}
	if (combined & PERF_SAMPLE_CPU)
		fprintf(fp, "%u ", sample->cpu);
	if (combined & PERF_SAMPLE_TIME)
		fprintf(fp, "%" PRIu64 " ", sample->time);
}

/* "            Old bytes: 0f 1f 44 00 00" lines, 16 bytes a line */
static void print_poke_bytes(FILE *fp, const char *what, const uint8_t *bytes, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (i % 16 == 0)
			fprintf(fp, "            %s bytes:", what);
		fprintf(fp, " %02x", bytes[i]);
		if ((i + 1) % 16 == 0 || i + 1 == n)
			fputc('\n', fp);
	}
}

static void print_text_poke(FILE *fp, struct machine *m, const struct perf_rec_text_poke *t)
{
	struct addr_location al;

	fprintf(fp, " %" PRIx64 " ", t->addr);
	memset(&al, 0, sizeof(al));
	if (m && machine__resolve(m, NULL, PERF_RECORD_MISC_KERNEL, t->addr, &al) && al.sym) {
		uint64_t off = al.addr < al.sym->end ? al.addr - al.sym->start :
			       al.addr - al.map->start - al.sym->start;

		fprintf(fp, "%s+0x%" PRIx64, al.sym->name, off);
	}
	fprintf(fp, " old len %u new len %u\n", t->old_len, t->new_len);
	print_poke_bytes(fp, "Old", t->bytes, t->old_len);
	print_poke_bytes(fp, "New", t->bytes + t->old_len, t->new_len);
}

void raw_dump_details(FILE *fp, struct machine *machine, const struct perf_event_header *rec,
		      const struct perf_sample *sample, const struct evsel *evsel)
{
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		if (evsel)
			dump_sample(fp, rec, sample, evsel);
		break;
	case PERF_RECORD_MMAP: {
		const struct perf_rec_mmap *m = (const void *)rec;

		fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			(int)m->pid, (int)m->tid, m->start, m->len, m->pgoff,
			(rec->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x', m->filename);
		break;
	}
	case PERF_RECORD_MMAP2: {
		const struct perf_rec_mmap2 *m = (const void *)rec;
		char r = m->prot & PROT_READ ? 'r' : '-', w = m->prot & PROT_WRITE ? 'w' : '-';
		char x = m->prot & PROT_EXEC ? 'x' : '-', p = m->flags & MAP_SHARED ? 's' : 'p';

		fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m->pid,
			(int)m->tid, m->start, m->len, m->pgoff);
		if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			fputs(" <", fp);
			for (int i = 0; i < m->build_id_size && i < 20; i++)
				fprintf(fp, "%02x", m->build_id[i]);
			fputc('>', fp);
		} else {
			fprintf(fp, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino,
				m->ino_generation);
		}
		fprintf(fp, "]: %c%c%c%c %s\n", r, w, x, p, m->filename);
		break;
	}
	case PERF_RECORD_COMM: {
		const struct perf_rec_comm *c = (const void *)rec;

		fprintf(fp, "%s: %s:%d/%d\n", rec->misc & PERF_RECORD_MISC_COMM_EXEC ? " exec" : "",
			c->comm, (int)c->pid, (int)c->tid);
		break;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		const struct perf_rec_fork *f = (const void *)rec;

		fprintf(fp, "(%d:%d):(%d:%d)\n", (int)f->pid, (int)f->tid, (int)f->ppid,
			(int)f->ptid);
		break;
	}
	case PERF_RECORD_LOST: {
		const struct perf_rec_lost *l = (const void *)rec;

		fprintf(fp, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", l->id, l->lost);
		break;
	}
	case PERF_RECORD_LOST_SAMPLES:
		fprintf(fp, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", sample ? sample->id : 0,
			((const struct perf_rec_lost_samples *)(const void *)rec)->lost);
		break;
	case PERF_RECORD_READ: {
		const struct perf_rec_read *r = (const void *)rec;
		const uint64_t *v = &r->value + 1;
		uint64_t rf = evsel ? evsel->attr.read_format : 0;

		fprintf(fp, ": %d %d %s %" PRIu64 "\n", (int)r->pid, (int)r->tid,
			evsel ? evsel->name : "", r->value);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			fprintf(fp, "... time enabled : %" PRIu64 "\n", *v++);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			fprintf(fp, "... time running : %" PRIu64 "\n", *v++);
		if (rf & PERF_FORMAT_ID)
			fprintf(fp, "... id           : %" PRIu64 "\n", *v++);
		if (rf & PERF_FORMAT_LOST)
			fprintf(fp, "... lost         : %" PRIu64 "\n", *v++);
		break;
	}
	case PERF_RECORD_AUX: {
		const struct perf_rec_aux *a = (const void *)rec;

		fprintf(fp, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
			a->aux_offset, a->aux_size, a->flags,
			a->flags & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
			a->flags & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
			a->flags & PERF_AUX_FLAG_PARTIAL ? "P" : "");
		break;
	}
	case PERF_RECORD_ITRACE_START: {
		const struct perf_rec_itrace_start *t = (const void *)rec;

		fprintf(fp, " pid: %u tid: %u\n", t->pid, t->tid);
		break;
	}
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = rec->misc & PERF_RECORD_MISC_SWITCH_OUT;
		const char *io = !out ? "IN         " :
				 !(rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT        " :
				 "OUT preempt";

		if (rec->type == PERF_RECORD_SWITCH) {
			fprintf(fp, " %s\n", io);
		} else {
			const struct perf_rec_switch *sw = (const void *)rec;

			/* signed: an idle CPU's task shows as -1 */
			fprintf(fp, " %s  %s pid/tid: %5d/%-5d\n", io, out ? "next" : "prev",
				(int)sw->next_prev_pid, (int)sw->next_prev_tid);
		}
		break;
	}
	case PERF_RECORD_NAMESPACES: {
		static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user",
							"mnt", "cgroup" };
		const struct perf_rec_namespaces *ns = (const void *)rec;

		fprintf(fp, " %d/%d - nr_namespaces: %u\n\t\t[", (int)ns->pid, (int)ns->tid,
			(unsigned)ns->nr_namespaces);
		for (uint64_t i = 0; i < ns->nr_namespaces; i++) {
			if (i && i % 4 == 0)
				fputs("\n\t\t ", fp);
			fprintf(fp, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i,
				i < ARRAY_SIZE(ns_names) ? ns_names[i] : "UNKNOWN",
				ns->link_info[i].dev, ns->link_info[i].ino,
				i + 1 != ns->nr_namespaces ? ", " : "]\n");
		}
		break;
	}
	case PERF_RECORD_KSYMBOL: {
		const struct perf_rec_ksymbol *k = (const void *)rec;

		fprintf(fp, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", k->addr, k->len,
			k->ksym_type, k->flags, k->name);
		break;
	}
	case PERF_RECORD_BPF_EVENT: {
		const struct perf_rec_bpf_event *b = (const void *)rec;

		fprintf(fp, " type %u, flags %u, id %u\n", b->type, b->flags, b->id);
		break;
	}
	case PERF_RECORD_CGROUP: {
		const struct perf_rec_cgroup *c = (const void *)rec;

		fprintf(fp, " cgroup: %" PRIu64 " %s\n", c->id, c->path);
		break;
	}
	case PERF_RECORD_TEXT_POKE:
		print_text_poke(fp, machine, (const void *)rec);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		break;		/* perf script's handler prints nothing (report's stub does) */
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		fprintf(fp, " hw_id: %#" PRIx64 "\n",
			((const struct perf_rec_aux_output_hw_id *)(const void *)rec)->hw_id);
		break;
	default:
		fputs(": unhandled!\n", fp);
		break;
	}
}

static void dump_user_record(FILE *fp, const struct perf_event_header *rec)
{
	switch (rec->type) {
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_BUILD_ID:
		break;		/* perf prints nothing more (and no newline) */
	case PERF_RECORD_FINISHED_ROUND:
		break;		/* the caller ends the line (what perf's round handler says) */
	case PERF_RECORD_EVENT_UPDATE: {
		const struct perf_rec_event_update *u = (const void *)rec;
		size_t n = rec->size - sizeof(*u);

		fprintf(fp, "\n... id:    %" PRIu64 "\n", u->id);
		if (u->type == 0) {
			fprintf(fp, "... unit:  %.*s\n", (int)strnlen((const char *)u->data, n), u->data);
		} else if (u->type == 1 && n >= 8) {
			double scale;

			memcpy(&scale, u->data, 8);
			fprintf(fp, "... scale: %f\n", scale);
		} else if (u->type == 2) {
			fprintf(fp, "... name:  %.*s\n", (int)strnlen((const char *)u->data, n), u->data);
		} else if (u->type == 3) {
			fputs("... ", fp);
		} else {
			fputs("... unknown type\n", fp);
		}
		break;
	}
	case PERF_RECORD_ID_INDEX: {
		const struct perf_rec_id_index *ix = (const void *)rec;

		/* a guest's ids (inject --guest-data) have a machine pid and VCPU
		 * each, after all the entries */
		const uint64_t *e2 = rec->size >= sizeof(*ix) + ix->nr * (sizeof(ix->entries[0]) + 16) ?
			(const uint64_t *)(const void *)&ix->entries[ix->nr] : NULL;

		fprintf(fp, " nr: %u\n", (unsigned)ix->nr);
		for (uint64_t i = 0; i < ix->nr; i++) {
			fprintf(fp, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64
				"  tid: %" PRId64, ix->entries[i].id, ix->entries[i].idx,
				(int64_t)ix->entries[i].cpu, (int64_t)ix->entries[i].tid);
			if (e2)
				fprintf(fp, "  machine_pid: %" PRId64 "  vcpu: %" PRIu64,
					(int64_t)e2[2 * i], e2[2 * i + 1]);
			fputc('\n', fp);
		}
		break;
	}
	case PERF_RECORD_THREAD_MAP: {
		const struct perf_rec_thread_map *tm = (const void *)rec;

		fprintf(fp, " nr: %u thread%s: ", (unsigned)tm->nr, tm->nr > 1 ? "s" : "");
		for (uint64_t i = 0; i < tm->nr; i++)
			fprintf(fp, "%s%d", i ? ", " : "", (int)tm->entries[i].pid);
		fputc('\n', fp);
		break;
	}
	case PERF_RECORD_CPU_MAP:
		dump_cpu_map(fp, (const void *)rec);
		break;
	case PERF_RECORD_AUXTRACE: {
		const struct perf_rec_auxtrace *a = (const void *)rec;

		fprintf(fp, " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
			"  idx: %u  tid: %d  cpu: %d\n", a->size, a->offset, a->reference, a->idx,
			(int)a->tid, (int)a->cpu);
		break;
	}
	case PERF_RECORD_TIME_CONV: {
		const struct perf_rec_time_conv *tc = (const void *)rec;

		fprintf(fp, "\n... Time Shift      %" PRIu64 "\n", tc->time_shift);
		fprintf(fp, "... Time Muliplier  %" PRIu64 "\n", tc->time_mult);
		fprintf(fp, "... Time Zero       %" PRIu64 "\n", tc->time_zero);
		if (rec->size >= sizeof(*tc)) {
			fprintf(fp, "... Time Cycles     %" PRIu64 "\n", tc->time_cycles);
			fprintf(fp, "... Time Mask       %#" PRIx64 "\n", tc->time_mask);
			fprintf(fp, "... Cap Time Zero   %" PRId32 "\n", tc->cap_user_time_zero);
			fprintf(fp, "... Cap Time Short  %" PRId32 "\n", tc->cap_user_time_short);
		}
		fputs(": unhandled!\n", fp);
		break;
	}
	case PERF_RECORD_STAT_ROUND: {
		const struct perf_rec_stat_round *r = (const void *)rec;

		fprintf(fp, "\n... time %" PRIu64 ", type %s\n", r->time,
			r->type == 1 ? "FINAL" : r->type == 0 ? "INTERVAL" : "UNKNOWN");
		break;
	}
	case PERF_RECORD_STAT: {
		const struct perf_rec_stat *st = (const void *)rec;

		fprintf(fp, "\n... id %" PRIu64 ", cpu %d, thread %d\n", st->id, (int)st->cpu,
			(int)st->thread);
		fprintf(fp, "... value %" PRIu64 ", enabled %" PRIu64 ", running %" PRIu64 "\n",
			st->val, st->ena, st->run);
		break;
	}
	default:
		fputs(": unhandled!\n", fp);
		break;
	}
}

void raw_dump_sample_location(FILE *fp, const struct thread *thread,
			      const struct addr_location *al)
{
	fprintf(fp, " ... thread: %s:%d\n", thread->comm, thread->tid);
	fprintf(fp, " ...... dso: %s\n", al->map ? al->map->dso->long_name :
		al->level == 'H' ? "[hypervisor]" : "<not found>");
}

bool raw_dump_record_head(FILE *fp, struct perf_session *s, const struct perf_event_header *rec,
			  const struct perf_sample *sample, uint64_t off)
{
	/* decompressed records are dumped one by one, not their container */
	if (rec->type == PERF_RECORD_COMPRESSED)
		return false;
	fprintf(fp, "\n%#" PRIx64 "@%s [%#x]: event: %u\n", off, s->label, rec->size, rec->type);
	hex_dump(fp, (const uint8_t *)rec, rec->size);
	print_tstamp(fp, s, rec, sample);
	fprintf(fp, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", off, rec->size, perf_record_name(rec->type));
	return true;
}

void raw_dump_record(FILE *fp, struct perf_session *s, struct machine *m,
		     const struct perf_event_header *rec,
		     const struct perf_sample *sample, struct evsel *evsel, uint64_t off)
{
	if (!raw_dump_record_head(fp, s, rec, sample, off))
		return;
	if (rec->type < PERF_RECORD_USER_TYPE_START)
		raw_dump_details(fp, m, rec, sample, evsel);
	else
		dump_user_record(fp, rec);
}

bool raw_dump_left_to_stub(uint32_t type)
{
	return type == PERF_RECORD_THREAD_MAP || type == PERF_RECORD_CPU_MAP ||
	       type == PERF_RECORD_THROTTLE || type == PERF_RECORD_UNTHROTTLE;
}

void raw_dump_record_as(FILE *fp, struct perf_session *s, const struct perf_event_header *rec,
			const struct perf_sample *sample, struct evsel *evsel, uint64_t off,
			enum raw_dump_end end)
{
	if (end == RAW_DUMP_STUB) {
		if (raw_dump_record_head(fp, s, rec, sample, off))
			fputs(": unhandled!\n", fp);
		return;
	}
	raw_dump_record(fp, s, s->machine, rec, sample, evsel, off);
	if (end == RAW_DUMP_STUB_AFTER_DETAILS)
		fputs(": unhandled!\n", fp);
	else if (rec->type == PERF_RECORD_FINISHED_ROUND)
		fputc('\n', fp);
}

void raw_dump_record_counts(FILE *fp, const uint64_t *counts, size_t n, uint64_t total,
			    bool with_total, bool skip_empty)
{
	if (with_total)
		fprintf(fp, "%16s events: %10" PRIu64 "\n", "TOTAL", total);
	for (size_t type = 1; type < n; type++) {
		const char *name = perf_record_name((uint32_t)type);

		if ((skip_empty && !counts[type]) || !strcmp(name, "UNKNOWN"))
			continue;
		if (with_total)
			fprintf(fp, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", name, counts[type],
				total ? 100.0 * (double)counts[type] / (double)total : 0.0);
		else
			fprintf(fp, "%16s events: %10" PRIu64 "\n", name, counts[type]);
	}
}

void raw_dump_stale_parent(struct perf_tool *tool, struct perf_session *s, int pid, int tid)
{
	(void)tool;
	(void)s;
	printf("removing erroneous parent thread %d/%d\n", pid, tid);
}
