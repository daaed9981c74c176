/* script-fields: which fields perf script prints for each kind of event:
 * perf 6.1's defaults, the -F lists, and their checks against the file's
 * events (the messages and exit paths perf has for each). */
#include "ui/script-print.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

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

bool script_has_clock_data(const struct perf_session *s)
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
	if (tod && !script_has_clock_data(s)) {
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
