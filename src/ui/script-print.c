/* script-print: perf script's per-record text (layout of perf 6.1). */
#include "ui/script-print.h"
#include "ui/raw-dump.h"
#include "util/util.h"

#include "core/insn.h"

#include <event-parse.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct {
	const char *name;
	uint64_t field;
} field_names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID }, { "time", SF_TIME },
	{ "cpu", SF_CPU }, { "event", SF_EVNAME }, { "trace", SF_TRACE }, { "ip", SF_IP },
	{ "sym", SF_SYM }, { "dso", SF_DSO }, { "addr", SF_ADDR }, { "symoff", SF_SYMOFFSET },
	{ "srcline", SF_SRCLINE }, { "period", SF_PERIOD }, { "iregs", SF_IREGS },
	{ "uregs", SF_UREGS }, { "brstack", SF_BRSTACK }, { "brstacksym", SF_BRSTACKSYM },
	{ "data_src", SF_DATA_SRC }, { "weight", SF_WEIGHT }, { "bpf-output", SF_BPF_OUTPUT },
	{ "callindent", SF_CALLINDENT }, { "insn", SF_INSN }, { "insnlen", SF_INSNLEN },
	{ "brstackinsn", SF_BRSTACKINSN }, { "brstackoff", SF_BRSTACKOFF },
	{ "synth", SF_SYNTH }, { "phys_addr", SF_PHYS_ADDR }, { "metric", SF_METRIC },
	{ "misc", SF_MISC }, { "srccode", SF_SRCCODE }, { "ipc", SF_IPC }, { "tod", SF_TOD },
	{ "data_page_size", SF_DATA_PAGE_SIZE }, { "code_page_size", SF_CODE_PAGE_SIZE },
	{ "ins_lat", SF_INS_LAT }, { "brstackinsnlen", SF_BRSTACKINSNLEN },
	{ "machine_pid", SF_MACHINE_PID }, { "vcpu", SF_VCPU },
};

static const char *field_name(uint64_t field)
{
	for (size_t i = 0; i < ARRAY_SIZE(field_names); i++)
		if (field_names[i].field == field)
			return field_names[i].name;
	return "unknown";
}

/* perf's messages name four types; raw, breakpoint, synth and other
 * events are "unknown" there. */
static const char *type_name(int type)
{
	static const char *const names[] = {
		"hardware", "software", "tracepoint", "hardware-cache",
	};

	return type >= 0 && type < (int)ARRAY_SIZE(names) ? names[type] : "unknown";
}

#define SAMPLE_LINE (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME)
#define SYM_FIELDS (SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO)

void script_config__init(struct script_config *c)
{
	memset(c, 0, sizeof(*c));
	c->output[PERF_TYPE_HARDWARE].fields = SAMPLE_LINE | SYM_FIELDS | SF_PERIOD;
	c->output[PERF_TYPE_HARDWARE].invalid_fields = SF_TRACE | SF_BPF_OUTPUT;
	c->output[PERF_TYPE_SOFTWARE].fields = SAMPLE_LINE | SYM_FIELDS | SF_PERIOD | SF_BPF_OUTPUT;
	c->output[PERF_TYPE_SOFTWARE].invalid_fields = SF_TRACE;
	c->output[PERF_TYPE_TRACEPOINT].fields = SAMPLE_LINE | SF_TRACE;
	c->output[PERF_TYPE_HW_CACHE].fields = SAMPLE_LINE | SYM_FIELDS | SF_PERIOD;
	c->output[PERF_TYPE_HW_CACHE].invalid_fields = SF_TRACE | SF_BPF_OUTPUT;
	c->output[PERF_TYPE_RAW].fields = SAMPLE_LINE | SYM_FIELDS | SF_ADDR | SF_DATA_SRC |
					  SF_WEIGHT | SF_PHYS_ADDR | SF_DATA_PAGE_SIZE |
					  SF_CODE_PAGE_SIZE | SF_INS_LAT;
	c->output[PERF_TYPE_RAW].invalid_fields = SF_TRACE | SF_BPF_OUTPUT;
	c->output[PERF_TYPE_BREAKPOINT].fields = SAMPLE_LINE | SYM_FIELDS | SF_PERIOD;
	c->output[PERF_TYPE_BREAKPOINT].invalid_fields = SF_TRACE | SF_BPF_OUTPUT;
	c->output[SCRIPT_TYPE_SYNTH].fields = SAMPLE_LINE | SYM_FIELDS | SF_SYNTH;
	c->output[SCRIPT_TYPE_SYNTH].invalid_fields = SF_TRACE | SF_BPF_OUTPUT;
	c->output[SCRIPT_TYPE_OTHER].fields = SAMPLE_LINE | SYM_FIELDS | SF_PERIOD;
	c->output[SCRIPT_TYPE_OTHER].invalid_fields = SF_TRACE | SF_BPF_OUTPUT;
	c->use_callchain = true;
	c->max_stack = 127;
}

void script_config__exit(struct script_config *c)
{
	free(c->frames);
	c->frames = NULL;
	if (c->srccode) {
		srccode__release(c->srccode);
		free(c->srccode);
		c->srccode = NULL;
	}
}

/* the attr type of samples perf synthesizes from AUX data */
#define PERF_TYPE_SYNTH (1U << 31)

int script_output_type(uint32_t attr_type)
{
	if (attr_type == PERF_TYPE_SYNTH)
		return SCRIPT_TYPE_SYNTH;
	return attr_type < PERF_TYPE_MAX ? (int)attr_type : SCRIPT_TYPE_OTHER;
}

static bool any_user_set(const struct script_config *c)
{
	for (int j = 0; j < SCRIPT_NR_TYPES; j++)
		if (c->output[j].user_set)
			return true;
	return false;
}

int script_config__parse_fields(struct script_config *c, const char *arg)
{
	char *str = xstrdup(arg), *tok, *save = NULL, *colon;
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	int type = -1, rc = 0;

	colon = strchr(str, ':');
	if (colon) {
		static const char *const prefixes[SCRIPT_NR_TYPES] = {
			"hw", "sw", "trace", NULL, "raw", "break", "synth", NULL,
		};

		*colon = 0;
		tok = colon + 1;
		for (int j = 0; j < SCRIPT_NR_TYPES; j++)
			if (prefixes[j] && !strcmp(str, prefixes[j]))
				type = j;
		if (type < 0) {
			fprintf(stderr, "Invalid event type in field string.\n");
			rc = -1;
			goto out;
		}
		if (c->output[type].user_set)
			fprintf(stderr, "Overriding previous field request for %s events.\n",
				type_name(type));
		if (!strchr(tok, '+') && !strchr(tok, '-')) {
			c->output[type].fields = 0;
			c->output[type].user_set = true;
			c->output[type].wildcard_set = false;
		}
	} else {
		tok = str;
		if (!*str) {
			fprintf(stderr, "Cannot set fields to 'none' for all event types.\n");
			rc = -1;
			goto out;
		}
		if (!strchr(str, '+') && !strchr(str, '-')) {
			if (any_user_set(c))
				fprintf(stderr, "Overriding previous field request for all events.\n");
			for (int j = 0; j < SCRIPT_NR_TYPES; j++) {
				c->output[j].fields = 0;
				c->output[j].user_set = true;
				c->output[j].wildcard_set = true;
			}
		}
	}

	for (tok = strtok_r(tok, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t f = 0;

		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				goto badmix;
			change = *tok == '+' ? ADD : REMOVE;
			tok++;
		} else {
			if (change != SET && change != DEFAULT)
				goto badmix;
			change = SET;
		}
		for (size_t i = 0; i < ARRAY_SIZE(field_names); i++)
			if (!strcmp(tok, field_names[i].name))
				f = field_names[i].field;
		if (!f && !strcmp(tok, "flags")) {
			c->print_flags = change != REMOVE;
			continue;
		}
		if (!f) {
			fprintf(stderr, "Invalid field requested.\n");
			rc = -1;
			goto out;
		}
		if (type == -1) {
			for (int j = 0; j < SCRIPT_NR_TYPES; j++) {
				struct script_output *o = &c->output[j];

				if (o->invalid_fields & f) {
					fprintf(stderr, "'%s' not valid for %s events. Ignoring.\n", tok,
						type_name(j));
					continue;
				}
				if (change == REMOVE) {
					o->fields &= ~f;
					o->user_set_fields &= ~f;
					o->user_unset_fields |= f;
				} else {
					o->fields |= f;
					o->user_set_fields |= f;
					o->user_unset_fields &= ~f;
				}
				o->user_set = true;
				o->wildcard_set = true;
			}
		} else {
			struct script_output *o = &c->output[type];

			if (o->invalid_fields & f) {
				fprintf(stderr, "'%s' not valid for %s events.\n", tok, type_name(type));
				rc = -1;
				goto out;
			}
			if (change == REMOVE)
				o->fields &= ~f;
			else
				o->fields |= f;
			o->user_set = true;
			o->wildcard_set = true;
		}
	}
	goto out;
badmix:
	fprintf(stderr, "Cannot mix +-field with overridden fields\n");
	rc = -1;
out:
	free(str);
	return rc;
}

/* ---- validation against the file's events ---- */

static bool has_callchain(const struct evsel *e)
{
	return e->attr.sample_type & PERF_SAMPLE_CALLCHAIN;
}

static int check_stype(struct script_output *o, const struct evsel *e, uint64_t bits,
		       const char *what, uint64_t field, bool allow_user_set)
{
	if (e->attr.sample_type & bits)
		return 0;
	if (o->user_set_fields & field) {
		if (allow_user_set)
			return 0;
		fprintf(stderr, "Samples for '%s' event do not have %s attribute set. "
			"Cannot print '%s' field.\n", e->name, what, field_name(field));
		return -1;
	}
	o->fields &= ~field;	/* a default the samples cannot fill */
	return 0;
}

static uint64_t combined_branch_type(struct perf_session *s)
{
	uint64_t t = 0;

	evlist__for_each(&s->evlist, pos)
		t |= pos->attr.branch_sample_type;
	return t;
}

static int check_attr(struct script_config *c, struct perf_session *s, const struct evsel *e)
{
	struct script_output *o = &c->output[script_output_type(e->attr.type)];
	bool aux = perf_header__has_feat(&s->header, HEADER_AUXTRACE);
	uint64_t st = e->attr.sample_type;

	if ((o->fields & SF_TRACE) && !s->tep && !s->is_pipe) {
		fprintf(stderr, "Samples do not contain tracing data (is this a 'perf record -R' "
			"recording?)\n");
		return -1;
	}
	if ((o->fields & SF_IP) && check_stype(o, e, PERF_SAMPLE_IP, "IP", SF_IP, false))
		return -1;
	if ((o->fields & SF_ADDR) && check_stype(o, e, PERF_SAMPLE_ADDR, "ADDR", SF_ADDR, aux))
		return -1;
	if ((o->fields & SF_DATA_SRC) &&
	    check_stype(o, e, PERF_SAMPLE_DATA_SRC, "DATA_SRC", SF_DATA_SRC, aux))
		return -1;
	if ((o->fields & SF_WEIGHT) &&
	    check_stype(o, e, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT", SF_WEIGHT,
			aux))
		return -1;
	if ((o->fields & SF_SYM) && !(st & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		fprintf(stderr, "Display of symbols requested but neither sample IP nor sample "
			"address\navailable. Hence, no addresses to convert to symbols.\n");
		return -1;
	}
	if ((o->fields & SF_SYMOFFSET) && !(o->fields & SF_SYM)) {
		fprintf(stderr, "Display of offsets requested but symbol is notselected.\n");
		return -1;
	}
	if ((o->fields & SF_DSO) && !(st & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		fprintf(stderr, "Display of DSO requested but no address to convert.\n");
		return -1;
	}
	if ((o->fields & (SF_SRCLINE | SF_SRCCODE)) && !(o->fields & SF_IP)) {
		fprintf(stderr, "Display of source line number requested but sample IP is not\n"
			"selected. Hence, no address to lookup the source line number.\n");
		return -1;
	}
	if ((o->fields & (SF_BRSTACKINSN | SF_BRSTACKINSNLEN)) && !aux &&
	    !(combined_branch_type(s) & PERF_SAMPLE_BRANCH_ANY)) {
		fprintf(stderr, "Display of branch stack assembler requested, but non all-branch "
			"filter set\nHint: run 'perf record -b ...'\n");
		return -1;
	}
	if ((o->fields & (SF_PID | SF_TID)) &&
	    check_stype(o, e, PERF_SAMPLE_TID, "TID", SF_TID | SF_PID, false))
		return -1;
	if ((o->fields & SF_TIME) && check_stype(o, e, PERF_SAMPLE_TIME, "TIME", SF_TIME, false))
		return -1;
	if ((o->fields & SF_CPU) && check_stype(o, e, PERF_SAMPLE_CPU, "CPU", SF_CPU, aux))
		return -1;
	if ((o->fields & SF_IREGS) &&
	    check_stype(o, e, PERF_SAMPLE_REGS_INTR, "IREGS", SF_IREGS, aux))
		return -1;
	if ((o->fields & SF_UREGS) &&
	    check_stype(o, e, PERF_SAMPLE_REGS_USER, "UREGS", SF_UREGS, false))
		return -1;
	if ((o->fields & SF_PHYS_ADDR) &&
	    check_stype(o, e, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR", SF_PHYS_ADDR, aux))
		return -1;
	if ((o->fields & SF_DATA_PAGE_SIZE) &&
	    check_stype(o, e, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE", SF_DATA_PAGE_SIZE,
			false))
		return -1;
	if ((o->fields & SF_CODE_PAGE_SIZE) &&
	    check_stype(o, e, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE", SF_CODE_PAGE_SIZE,
			false))
		return -1;
	if ((o->fields & SF_INS_LAT) &&
	    check_stype(o, e, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", SF_INS_LAT, false))
		return -1;
	return 0;
}

static void set_print_ip_opts(struct script_output *o)
{
	o->print_ip_opts = 0;
	if (o->fields & SF_IP)
		o->print_ip_opts |= PRINT_IP;
	if (o->fields & SF_SYM)
		o->print_ip_opts |= PRINT_SYM;
	if (o->fields & SF_DSO)
		o->print_ip_opts |= PRINT_DSO;
	if (o->fields & SF_SYMOFFSET)
		o->print_ip_opts |= PRINT_SYMOFFSET;
	if (o->fields & SF_SRCLINE)
		o->print_ip_opts |= PRINT_SRCLINE;
}

static void alloc_frames(struct script_config *c)
{
	free(c->frames);
	/* kernel chain plus, for dwarf, unwound user frames and their inlines */
	c->nr_frames = (size_t)c->max_stack * 4 + 16;	/* inlined frames add entries */
	c->frames = xcalloc(c->nr_frames, sizeof(*c->frames));
}

/* CLOCK_DATA (perf record -k) ties sample times to the time of day. */
static bool has_clock_data(const struct perf_session *s)
{
	return perf_header__has_feat(&s->header, HEADER_CLOCK_DATA) &&
	       s->header.clock_version == 1;
}

int script_config__check(struct script_config *c, struct perf_session *s)
{
	bool use_callchain = false, tod = false;

	alloc_frames(c);
	for (int j = 0; j < SCRIPT_NR_TYPES; j++) {
		struct evsel *first = NULL;

		evlist__for_each(&s->evlist, pos)
			if (!first && script_output_type(pos->attr.type) == j)
				first = pos;
		if (!first && c->output[j].user_set && !c->output[j].wildcard_set &&
		    j != SCRIPT_TYPE_SYNTH) {
			fprintf(stderr, "%s events do not exist. Remove corresponding -F option to "
				"proceed.\n", type_name(j));
			return -1;
		}
		if (first && c->output[j].fields && check_attr(c, s, first))
			return -1;
		if (!first)
			continue;
		set_print_ip_opts(&c->output[j]);
		tod |= !!(c->output[j].fields & SF_TOD);
	}
	evlist__for_each(&s->evlist, pos)
		if (has_callchain(pos))
			use_callchain = true;
	if (s->evlist.nr_entries && !use_callchain)
		c->use_callchain = false;
	/* tracepoints show their stack when they have one */
	if (c->use_callchain && !c->output[PERF_TYPE_TRACEPOINT].user_set) {
		evlist__for_each(&s->evlist, pos) {
			if (pos->attr.type == PERF_TYPE_TRACEPOINT && has_callchain(pos)) {
				c->output[PERF_TYPE_TRACEPOINT].fields |= SYM_FIELDS;
				set_print_ip_opts(&c->output[PERF_TYPE_TRACEPOINT]);
				return 0;	/* perf skips the tod check then */
			}
		}
	}
	if (tod && !has_clock_data(s)) {
		fprintf(stderr, "Can't provide 'tod' time, missing clock data. Please record with "
			"-k/--clockid option.\n");
		return -1;
	}
	return 0;
}

int script_config__add_event(struct script_config *c, struct perf_session *s, struct evsel *evsel)
{
	struct script_output *o;
	uint64_t st = 0;

	if (!c->frames)
		alloc_frames(c);
	if (evsel->attr.type >= PERF_TYPE_MAX && evsel->attr.type != PERF_TYPE_SYNTH)
		return 0;
	/* only the first event of a type is checked, as for files */
	evlist__for_each(&s->evlist, pos)
		if (pos != evsel && pos->attr.type == evsel->attr.type)
			return 0;
	if (evsel->attr.sample_type && check_attr(c, s, evsel))
		return -1;
	evlist__for_each(&s->evlist, pos)
		st |= pos->attr.sample_type;
	o = &c->output[script_output_type(evsel->attr.type)];
	if (c->use_callchain && (st & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK) ||
				 ((st & PERF_SAMPLE_REGS_USER) && (st & PERF_SAMPLE_STACK_USER)))) {
		if (!(o->user_unset_fields & SF_IP))
			o->fields |= SF_IP;
		if (!(o->user_unset_fields & SF_SYM))
			o->fields |= SF_SYM;
	}
	set_print_ip_opts(o);
	return 0;
}

/* ---- printing ---- */

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
	if (!line)
		line = dso__srcline(map->dso, addr);
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

	if (!has_clock_data(s)) {
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
		if ((f & SF_IP) && has_callchain(evsel) && c->use_callchain)
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
		fprintf(fp, "[%03d] ", (int)sample->cpu);
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
	struct tep_event *tp = perf_session__event(s, evsel)->tp_format;
	struct tep_record rec;
	struct trace_seq seq;

	if (!tp)
		return;
	memset(&rec, 0, sizeof(rec));
	rec.cpu = (int)sample->cpu;
	rec.size = (int)sample->raw_size;
	rec.data = (void *)sample->raw_data;
	trace_seq_init(&seq);
	tep_print_event(tp->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
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

static int resolve_chain(struct script_config *c, struct machine *m, struct evsel *evsel,
			 const struct perf_sample *sample, struct thread *thread)
{
	int n = machine__resolve_callchain(m, thread, sample->callchain, sample->callchain_nr,
					   c->frames, c->max_stack);
	uint64_t st = evsel->attr.sample_type;

	/* --call-graph dwarf: the user part is unwound from regs + stack */
	if ((st & PERF_SAMPLE_REGS_USER) && (st & PERF_SAMPLE_STACK_USER) &&
	    sample->user_regs.regs && sample->user_stack.size)
		n += machine__unwind(m, thread, sample->user_regs.mask, sample->user_regs.regs,
				     sample->user_stack.data, sample->user_stack.dyn_size,
				     c->max_stack, c->frames + n, (int)c->nr_frames - n);
	return n;
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
			n = resolve_chain(c, m, evsel, sample, al->thread);
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

void script_print_record_line(FILE *fp, const struct perf_event_header *rec)
{
	fprintf(fp, "PERF_RECORD_%s", perf_record_name(rec->type));
	raw_dump_details(fp, rec, NULL, NULL);
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
	script_print_record_line(fp, rec);
}
