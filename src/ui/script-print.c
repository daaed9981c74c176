/* script-print: perf script's per-record text (layout of perf 6.1); the
 * fields come from script-fields.c, branch stacks from script-brstack.c. */
#include "ui/script-print.h"
#include "ui/raw-dump.h"
#include "util/util.h"

#include "core/symbols/insn.h"
#include "core/symbols/srcline-text.h"

#include <event-parse.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void script_print_dso_name(FILE *fp, const struct map *map)
{
	const char *name = "[unknown]";

	if (map && map->dso)
		name = map->dso->long_name;
	fputs(name, fp);
}

void script_print_symname(FILE *fp, const struct symbol *sym, const struct map *map,
			  uint64_t addr, bool offsets)
{
	if (!sym) {
		fputs("[unknown]", fp);
		return;
	}
	fputs(sym->name, fp);
	if (offsets) {
		uint64_t off = addr < sym->end ? addr - sym->start :
			       addr - (map ? map->start : 0) - sym->start;

		fprintf(fp, "+0x%" PRIx64, off);
	}
}

static void print_srcline(FILE *fp, const struct map *map, uint64_t addr, const char *known)
{
	const char *line = known;

	if (!map || !map->dso)
		return;
	/* A DWARF-expanded frame's line is printed as perf has it, "??:0"
	 * included; looked up, a function without a line prints nothing. */
	if (!line) {
		line = dso__srcline(map->dso, addr);
		if (srcline_lineless(line))
			return;
	}
	if (line)
		fprintf(fp, "\n  %s", line);
	else
		fprintf(fp, "\n  %s[%" PRIx64 "]", map->dso->short_name, addr);
}

static void print_sym_single(FILE *fp, unsigned opts,
			     const struct perf_sample *sample, const struct addr_location *al)
{
	if (opts & PRINT_IP)
		fprintf(fp, "%16" PRIx64, sample->ip);
	if (opts & PRINT_SYM) {
		fputc(' ', fp);
		script_print_symname(fp, al->sym, al->map, al->addr, opts & PRINT_SYMOFFSET);
	}
	if (opts & PRINT_DSO) {
		fputs(" (", fp);
		script_print_dso_name(fp, al->map);
		fputc(')', fp);
	}
	if (opts & PRINT_SRCLINE)
		print_srcline(fp, al->map, al->addr, NULL);
}

static void print_frames(FILE *fp, unsigned opts,
			 const struct callchain_frame *frames, int n)
{
	for (int i = 0; i < n; i++) {
		const struct addr_location *al = &frames[i].al;
		/* user frames show the address inside their binary */
		bool rel = al->map && al->map->dso && !al->map->dso->kernel;

		if (opts & PRINT_IP)
			fprintf(fp, "\t%16" PRIx64, rel ? al->addr : frames[i].ip);
		if (opts & PRINT_SYM) {
			fputc(' ', fp);
			script_print_symname(fp, al->sym, al->map, al->addr, opts & PRINT_SYMOFFSET);
		}
		if ((opts & PRINT_DSO) && !frames[i].inlined) {
			fputs(" (", fp);
			script_print_dso_name(fp, al->map);
			fputc(')', fp);
		}
		if (opts & PRINT_SRCLINE)
			print_srcline(fp, al->map, al->addr, frames[i].srcline);
		if (frames[i].inlined)
			fputs(" (inlined)", fp);
		fputc('\n', fp);
	}
}

/* -F misc: the record's misc bits as letters, padded to 6 columns.  perf
 * tests each cpumode value as a mask: a hypervisor sample shows "KUH". */
static void print_misc(FILE *fp, uint16_t misc, uint32_t rec_type)
{
	static const struct {
		uint16_t bits;
		char letter;
	} modes[] = {
		{ PERF_RECORD_MISC_KERNEL, 'K' }, { PERF_RECORD_MISC_USER, 'U' },
		{ PERF_RECORD_MISC_HYPERVISOR, 'H' }, { PERF_RECORD_MISC_GUEST_KERNEL, 'G' },
		{ PERF_RECORD_MISC_GUEST_USER, 'g' },
	};
	char buf[16];
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if ((misc & modes[i].bits) == modes[i].bits)
			buf[n++] = modes[i].letter;
	switch (rec_type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (misc & PERF_RECORD_MISC_MMAP_DATA)
			buf[n++] = 'M';
		break;
	case PERF_RECORD_COMM:
		if (misc & PERF_RECORD_MISC_COMM_EXEC)
			buf[n++] = 'E';
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (misc & PERF_RECORD_MISC_SWITCH_OUT) {
			buf[n++] = 'S';
			if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
				buf[n++] = 'p';
		}
		break;
	default:
		break;
	}
	buf[n] = 0;
	fprintf(fp, "%s%*s", buf, 6 - n, " ");
}

/* -F tod: the wall-clock time of a sample, from the file's CLOCK_DATA
 * (a time of day and the sample clock's reading at the same instant). */
static void print_tod(FILE *fp, const struct perf_session *s, uint64_t t, bool nanosecs)
{
	const struct perf_header *h = &s->header;
	uint64_t tod = h->clock_tod_ns;
	char date[64];
	struct tm tm;
	time_t sec;

	if (!script_has_clock_data(s)) {
		fputs("disabled ", fp);
		return;
	}
	if (t > h->clock_clockid_ns)
		tod += t - h->clock_clockid_ns;
	else
		tod -= h->clock_clockid_ns - t;
	sec = (time_t)(tod / 1000000000);
	if (!localtime_r(&sec, &tm)) {
		fputs("failed ", fp);
		return;
	}
	strftime(date, sizeof(date), "%F %H:%M:%S", &tm);
	if (nanosecs)
		fprintf(fp, "%s.%09" PRIu64 " ", date, tod % 1000000000);
	else
		fprintf(fp, "%s.%06" PRIu64 " ", date, tod % 1000000000 / 1000);
}

static void print_start(FILE *fp, struct script_config *c, const struct perf_session *s,
			const struct evsel *evsel, const struct perf_sample *sample,
			const char *comm, uint32_t rec_type)
{
	const struct script_output *o = &c->output[script_output_type(evsel->attr.type)];
	uint64_t f = o->fields;

	if (f & SF_COMM) {
		if (c->latency_format)
			fprintf(fp, "%8.8s ", comm);
		else if ((f & SF_IP) && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
			 c->use_callchain)
			fprintf(fp, "%s ", comm);
		else
			fprintf(fp, "%16s ", comm);
	}
	if ((f & SF_PID) && (f & SF_TID))
		fprintf(fp, "%5d/%-5d ", (int)sample->pid, (int)sample->tid);
	else if (f & SF_PID)
		fprintf(fp, "%5d ", (int)sample->pid);
	else if (f & SF_TID)
		fprintf(fp, "%5d ", (int)sample->tid);
	if (f & SF_CPU)
		fprintf(fp, c->latency_format ? "%3d " : "[%03d] ", (int)sample->cpu);
	if (f & SF_MISC)
		print_misc(fp, sample->misc, rec_type);
	if (f & SF_TOD)
		print_tod(fp, s, sample->time, c->nanosecs);
	if (f & SF_TIME) {
		char buf[64];
		uint64_t t = sample->time;

		if (c->reltime) {
			if (!c->initial_time)
				c->initial_time = sample->time;
			t = sample->time - c->initial_time;
		} else if (c->deltatime) {
			t = c->previous_time ? sample->time - c->previous_time : 0;
			c->previous_time = sample->time;
		}
		if (c->nanosecs) {
			fprintf(fp, "%5" PRIu64 ".%09" PRIu64 ": ", t / 1000000000, t % 1000000000);
		} else {
			snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, t / 1000000000,
				 (t % 1000000000) / 1000);
			fprintf(fp, "%12s: ", buf);
		}
	}
}

static int max_name_len(struct perf_session *s)
{
	int w = 0;

	evlist__for_each(&s->evlist, pos) {
		int n = (int)strlen(pos->name);

		if (n > w)
			w = n;
	}
	return w;
}

static void print_trace(FILE *fp, struct perf_session *s, struct evsel *evsel,
			const struct perf_sample *sample)
{
	struct trace_seq seq;

	trace_seq_init(&seq);
	if (perf_session__print_trace(s, evsel, sample, &seq))
		fwrite(seq.buffer, 1, seq.len, fp);
	trace_seq_destroy(&seq);
}

static void print_regs(FILE *fp, uint64_t abi, uint64_t mask, const uint64_t *regs)
{
	int i = 0;

	if (!regs)
		return;
	fprintf(fp, " ABI:%" PRIu64 " ", abi);
	for (int bit = 0; bit < 64; bit++)
		if (mask & (1ULL << bit))
			fprintf(fp, "%5s:0x%" PRIx64 " ", raw_dump_reg_name(bit), regs[i++]);
}

static bool addr_correlates_sym(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_PAGE_FAULTS || a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

static void print_addr(FILE *fp, const struct script_config *c, struct machine *m,
		       const struct evsel *evsel, const struct perf_sample *sample,
		       struct thread *thread)
{
	uint64_t f = c->output[script_output_type(evsel->attr.type)].fields;
	struct addr_location al;

	fprintf(fp, "%16" PRIx64, sample->addr);
	if (!addr_correlates_sym(&evsel->attr))
		return;
	memset(&al, 0, sizeof(al));
	machine__resolve(m, thread, sample->cpumode, sample->addr, &al);
	if (f & SF_SYM) {
		fputc(' ', fp);
		if (f & SF_SYMOFFSET)
			script_print_symname(fp, al.sym, al.map, al.addr, true);
		else
			fputs(al.sym ? al.sym->name : "[unknown]", fp);
	}
	if (f & SF_DSO) {
		fputs(" (", fp);
		script_print_dso_name(fp, al.map);
		fputc(')', fp);
	}
}

static const char *page_size_name(uint64_t size, char *buf, size_t len)
{
	static const char *const units[] = { "", "K", "M", "G", "T" };
	int u = 0;

	while (size >= 1024 && !(size % 1024) && u < 4) {
		size /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 "%s", size, units[u]);
	return buf;
}

static int resolve_chain(struct script_config *c, struct perf_session *s, struct evsel *evsel,
			 const struct perf_sample *sample, struct thread *thread)
{
	int n = perf_session__resolve_callchain(s, evsel, sample, thread, c->max_stack, c->frames,
						(int)c->nr_frames);

	return c->stop_bt ? script_stop_bt(c->stop_bt, c->frames, n) : n;
}

/* -F insn,insnlen: the sampled instruction's length and bytes. */
static void print_insn(FILE *fp, struct script_config *c, uint64_t f, struct machine *m,
		       const struct perf_sample *sample, struct thread *thread)
{
	uint8_t insn[INSN_MAX_BYTES];
	int len = machine__fetch_insn(m, thread, sample->ip, insn);

	if (f & SF_INSNLEN)
		fprintf(fp, " ilen: %d", len);
	if ((f & SF_INSN) && len) {
		fputs(" insn:", fp);
		for (int i = 0; i < len; i++)
			fprintf(fp, " %02x", insn[i]);
	}
	if (f & (SF_BRSTACKINSN | SF_BRSTACKINSNLEN))
		script_print_brstackinsn(fp, c, f, m, sample, thread);
}

/* -F srccode: the source line of the sample, under it, when it differs
 * from the last one shown for the thread. */
void script_print_srccode(FILE *fp, struct script_config *c, const struct addr_location *al)
{
	const char *path, *text;
	unsigned line = 0;
	int len;

	if (!al->map || !al->map->dso || !(path = dso__srcfile(al->map->dso, al->addr, &line)))
		return;
	if (!c->srccode)
		c->srccode = xcalloc(1, sizeof(*c->srccode));
	if (srccode__is_last(c->srccode, al->thread, path, line) ||
	    !(text = srccode__line(c->srccode, path, line, &len)))
		return;
	fprintf(fp, "|%-8u %.*s\n", line, len, text);
	srccode__set_last(c->srccode, al->thread, path, line);
}

void script_print_sample(FILE *fp, struct script_config *c, struct perf_session *s,
			 struct machine *m, struct evsel *evsel, const struct perf_sample *sample,
			 const struct addr_location *al)
{
	const struct script_output *o = &c->output[script_output_type(evsel->attr.type)];
	uint64_t f = o->fields;
	char buf[32];

	if (!f)
		return;
	print_start(fp, c, s, evsel, sample, al->thread ? al->thread->comm : ":-1",
		    PERF_RECORD_SAMPLE);
	if (f & SF_PERIOD)
		fprintf(fp, "%10" PRIu64 " ", sample->period);
	if (f & SF_EVNAME) {
		if (!c->name_width)
			c->name_width = max_name_len(s);
		fprintf(fp, "%*s: ", c->name_width, evsel->name);
	}
	if (c->print_flags)
		fprintf(fp, "  %-21s ", "");	/* branch flags: none outside AUX traces */
	if ((f & SF_TRACE) && sample->raw_data)
		print_trace(fp, s, evsel, sample);
	if (f & SF_ADDR)
		print_addr(fp, c, m, evsel, sample, al->thread);
	if (f & SF_DATA_SRC)
		fprintf(fp, "%16" PRIx64, sample->data_src);
	if (f & SF_WEIGHT)
		fprintf(fp, "%16" PRIu64, sample->weight);
	if (f & SF_INS_LAT)
		fprintf(fp, "%16" PRIu16, sample->ins_lat);
	if (f & SF_IP) {
		int n = -1;

		if (c->use_callchain && sample->callchain)
			n = resolve_chain(c, s, evsel, sample, al->thread);
		fputc(n >= 0 ? '\n' : ' ', fp);
		if (n >= 0)
			print_frames(fp, o->print_ip_opts, c->frames, n);
		else
			print_sym_single(fp, o->print_ip_opts, sample, al);
	}
	if (f & SF_IREGS)
		print_regs(fp, sample->intr_regs.abi, evsel->attr.sample_regs_intr,
			   sample->intr_regs.regs);
	if (f & SF_UREGS)
		print_regs(fp, sample->user_regs.abi, evsel->attr.sample_regs_user,
			   sample->user_regs.regs);
	if (f & (SF_BRSTACK | SF_BRSTACKSYM | SF_BRSTACKOFF))
		script_print_brstack(fp, f, m, sample, al->thread);
	/* perf dumps a BPF output event's raw data, starting on a new line:
	 * the line alone for offcpu-time's samples, which carry none. */
	if ((f & SF_BPF_OUTPUT) && evsel->attr.type == PERF_TYPE_SOFTWARE &&
	    evsel->attr.config == PERF_COUNT_SW_BPF_OUTPUT)
		fputc('\n', fp);
	if (f & (SF_INSN | SF_INSNLEN | SF_BRSTACKINSN | SF_BRSTACKINSNLEN))
		print_insn(fp, c, f, m, sample, al->thread);
	if (f & SF_PHYS_ADDR)
		fprintf(fp, "%16" PRIx64, sample->phys_addr);
	if (f & SF_DATA_PAGE_SIZE)
		fprintf(fp, " %s", page_size_name(sample->data_page_size, buf, sizeof(buf)));
	if (f & SF_CODE_PAGE_SIZE)
		fprintf(fp, " %s", page_size_name(sample->code_page_size, buf, sizeof(buf)));
	fputc('\n', fp);
	if (f & SF_SRCCODE)
		script_print_srccode(fp, c, al);
}

void script_print_side_event(FILE *fp, struct script_config *c, struct perf_session *s,
			     struct evsel *evsel, const struct perf_event_header *rec,
			     const struct perf_sample *sample, struct thread *thread)
{
	if (evsel) {
		if (!c->name_width)
			c->name_width = max_name_len(s);
		print_start(fp, c, s, evsel, sample, thread ? thread->comm : ":-1", rec->type);
	}
	script_print_record_line(fp, c->machine, rec);
}
