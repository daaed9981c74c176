/* parse-events-terms: per-event terms (cpu-clock/period=1000,name=x/),
 * their checks and messages, and the sysfs alias term strings. */
#include "core/events/parse-events-int.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const term_names[TERM_MAX] = {
	[TERM_USER] = "<sysfs term>",
	[TERM_CONFIG] = "config", [TERM_CONFIG1] = "config1", [TERM_CONFIG2] = "config2",
	[TERM_NAME] = "name", [TERM_PERIOD] = "period", [TERM_FREQ] = "freq",
	[TERM_BRANCH_TYPE] = "branch_type", [TERM_TIME] = "time",
	[TERM_CALLGRAPH] = "call-graph", [TERM_STACKSIZE] = "stack-size",
	[TERM_NOINHERIT] = "no-inherit", [TERM_INHERIT] = "inherit",
	[TERM_MAX_STACK] = "max-stack", [TERM_NR] = "nr",
	[TERM_NOOVERWRITE] = "no-overwrite", [TERM_OVERWRITE] = "overwrite",
	[TERM_DRV_CFG] = "driver-config", [TERM_PERCORE] = "percore",
	[TERM_AUX_OUTPUT] = "aux-output", [TERM_AUX_SAMPLE_SIZE] = "aux-sample-size",
	[TERM_METRIC_ID] = "metric-id",
};

static bool stat_terms_only;

void parse_events__stat_terms(bool only_stat_terms)
{
	stat_terms_only = only_stat_terms;
}

static bool term_usable(enum term_type t)
{
	if (!stat_terms_only)
		return true;
	switch (t) {
	case TERM_CONFIG: case TERM_CONFIG1: case TERM_CONFIG2: case TERM_NAME:
	case TERM_METRIC_ID: case TERM_PERIOD: case TERM_PERCORE:
		return true;
	default:
		return false;
	}
}

char *terms__valid_help(const char *extra)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "valid terms: ");
	if (extra)
		strbuf_addf(&sb, "%s,", extra);
	for (int t = TERM_CONFIG; t < TERM_MAX; t++)
		if (term_usable(t))
			strbuf_addf(&sb, "%s,", term_names[t]);
	sb.buf[--sb.len] = '\0';
	return strbuf_detach(&sb);
}

void terms__add(struct terms *terms, const struct term *t)
{
	struct term *n;

	terms->v = xrealloc(terms->v, (terms->n + 1) * sizeof(*terms->v));
	n = &terms->v[terms->n++];
	*n = *t;
	n->config = t->config ? xstrdup(t->config) : NULL;
	n->str = t->str ? xstrdup(t->str) : NULL;
}

void terms__copy(struct terms *dst, const struct terms *src)
{
	for (int i = 0; i < src->n; i++)
		terms__add(dst, &src->v[i]);
}

void terms__exit(struct terms *terms)
{
	for (int i = 0; i < terms->n; i++) {
		free(terms->v[i].config);
		free(terms->v[i].str);
	}
	free(terms->v);
	terms->v = NULL;
	terms->n = 0;
}

/* Sysfs aliases are short "k=v,k,k=v" lists; values are numbers or "?". */
int terms__parse(const char *str, struct terms *terms)
{
	char *copy = xstrdup(str), *save = NULL;
	int ret = 0;

	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		struct term t = { .type = TERM_USER };
		char *eq = strchr(item, '='), *end;

		if (eq)
			*eq = '\0';
		for (int k = TERM_CONFIG; k < TERM_MAX; k++)
			if (!strcmp(item, term_names[k]))
				t.type = k;
		t.config = item;
		if (!eq) {
			t.num = 1;
		} else {
			t.num = strtoull(eq + 1, &end, 0);
			if (*end || end == eq + 1) {
				t.is_str = true;
				t.str = eq + 1;
			}
		}
		if (!*item) {
			ret = -1;
			break;
		}
		terms__add(terms, &t);
	}
	free(copy);
	return ret;
}

struct branch_mode {
	const char *name;
	uint64_t bits;
};

static const struct branch_mode branch_modes[] = {
	{ "u", PERF_SAMPLE_BRANCH_USER }, { "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV }, { "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX }, { "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX }, { "cond", PERF_SAMPLE_BRANCH_COND },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP }, { "call", PERF_SAMPLE_BRANCH_CALL },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "hw_index", PERF_SAMPLE_BRANCH_HW_INDEX },
	{ "priv", PERF_SAMPLE_BRANCH_PRIV_SAVE },
};

static int parse_branch_type(const char *str, __u64 *mode)
{
	const uint64_t plm = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
			     PERF_SAMPLE_BRANCH_HV;
	char *copy = xstrdup(str), *save = NULL;
	int ret = 0;

	*mode = 0;
	for (char *s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(branch_modes); i++)
			if (!strcasecmp(s, branch_modes[i].name))
				break;
		if (i == ARRAY_SIZE(branch_modes)) {
			ret = -1;
			break;
		}
		*mode |= branch_modes[i].bits;
	}
	/* only privilege levels given: sample any branch */
	if (!ret && !(*mode & ~plm))
		*mode = PERF_SAMPLE_BRANCH_ANY;
	free(copy);
	return ret;
}

static int want_num(const struct term *t, struct parse_events_error *err)
{
	if (!t->is_str)
		return 0;
	pe_error(err, t->err_val, xstrdup("expected numeric value"), NULL);
	return -1;
}

static int want_str(const struct term *t, struct parse_events_error *err)
{
	if (t->is_str)
		return 0;
	pe_error(err, t->err_val, xstrdup("expected string value"), NULL);
	return -1;
}

/* perf's config_term_common: type checks, then what stat allows. */
static int check_common(const struct term *t, struct perf_event_attr *attr,
			struct parse_events_error *err)
{
	switch (t->type) {
	case TERM_CONFIG:
	case TERM_CONFIG1:
	case TERM_CONFIG2:
		if (want_num(t, err))
			return -1;
		if (t->type == TERM_CONFIG)
			attr->config = t->num;
		else if (t->type == TERM_CONFIG1)
			attr->config1 = t->num;
		else
			attr->config2 = t->num;
		break;
	case TERM_BRANCH_TYPE:
		if (want_str(t, err))
			return -1;
		if (strcmp(t->str, "no") && parse_branch_type(t->str, &attr->branch_sample_type)) {
			pe_error(err, t->err_val, xstrdup("invalid branch sample type"), NULL);
			return -1;
		}
		break;
	case TERM_TIME:
	case TERM_PERCORE:
		if (want_num(t, err))
			return -1;
		if (t->num > 1) {
			pe_error(err, t->err_val, xstrdup("expected 0 or 1"), NULL);
			return -1;
		}
		break;
	case TERM_AUX_SAMPLE_SIZE:
		if (want_num(t, err))
			return -1;
		if (t->num > UINT_MAX) {
			pe_error(err, t->err_val, xstrdup("too big"), NULL);
			return -1;
		}
		break;
	case TERM_CALLGRAPH:
	case TERM_NAME:
	case TERM_METRIC_ID:
		if (want_str(t, err))
			return -1;
		break;
	case TERM_PERIOD: case TERM_FREQ: case TERM_STACKSIZE: case TERM_INHERIT:
	case TERM_NOINHERIT: case TERM_OVERWRITE: case TERM_NOOVERWRITE:
	case TERM_MAX_STACK: case TERM_NR: case TERM_AUX_OUTPUT:
		if (want_num(t, err))
			return -1;
		break;
	default:
		pe_error(err, t->err_term, xstrdup("unknown term"), terms__valid_help(NULL));
		return -1;
	}
	/* checked after the kind so a bad term reads "unknown term", not "not usable" */
	if (!term_usable(t->type)) {
		pe_error(err, -1, xasprintf("'%s' is not usable in 'pcl stat'",
					    term_names[t->type]), NULL);
		return -1;
	}
	return 0;
}

static int check_tracepoint(const struct term *t, struct perf_event_attr *attr,
			    struct parse_events_error *err)
{
	switch (t->type) {
	case TERM_CALLGRAPH: case TERM_STACKSIZE: case TERM_INHERIT: case TERM_NOINHERIT:
	case TERM_MAX_STACK: case TERM_NR: case TERM_OVERWRITE: case TERM_NOOVERWRITE:
	case TERM_AUX_OUTPUT: case TERM_AUX_SAMPLE_SIZE:
		return check_common(t, attr, err);
	default:
		pe_error(err, t->err_term, xstrdup("unknown term"),
			 xstrdup("valid terms: call-graph,stack-size\n"));
		return -1;
	}
}

int terms__config_attr(const struct terms *terms, struct perf_event_attr *attr,
		       enum term_check check, struct parse_events_error *err)
{
	for (int i = 0; i < terms->n; i++) {
		const struct term *t = &terms->v[i];
		int ret;

		if (check == CHECK_PMU && (t->type == TERM_USER || t->type == TERM_DRV_CFG))
			continue;	/* sysfs formats: applied by the PMU code */
		ret = check == CHECK_TRACEPOINT ? check_tracepoint(t, attr, err)
						: check_common(t, attr, err);
		if (ret)
			return ret;
	}
	return 0;
}

void terms__apply(const struct terms *terms, struct evsel *evsel)
{
	struct perf_event_attr *attr = &evsel->attr;

	for (int i = 0; i < terms->n; i++) {
		const struct term *t = &terms->v[i];

		switch (t->type) {
		case TERM_PERIOD:
			attr->sample_period = t->num;
			attr->freq = 0;
			evsel->period_set = true;
			break;
		case TERM_FREQ:
			attr->sample_freq = t->num;
			attr->freq = 1;
			evsel->freq_set = true;
			break;
		case TERM_TIME:
			evsel->sample_time = t->num ? 1 : 0;
			break;
		case TERM_CALLGRAPH:
			free(evsel->call_graph);
			evsel->call_graph = xstrdup(t->str);
			break;
		case TERM_STACKSIZE:
			evsel->stack_size = (int)t->num;
			break;
		case TERM_MAX_STACK:
			evsel->max_stack = (int)t->num;
			break;
		case TERM_NR:
			evsel->max_events = (int)t->num;
			break;
		case TERM_INHERIT:
		case TERM_NOINHERIT:
			evsel->inherit = (t->type == TERM_INHERIT) == (t->num != 0);
			break;
		case TERM_OVERWRITE:
		case TERM_NOOVERWRITE:
			evsel->overwrite = (t->type == TERM_OVERWRITE) == (t->num != 0);
			break;
		case TERM_PERCORE:
			evsel->percore = t->num != 0;
			break;
		case TERM_AUX_OUTPUT:
			evsel->aux_output = t->num != 0;
			break;
		case TERM_AUX_SAMPLE_SIZE:
			attr->aux_sample_size = (uint32_t)t->num;
			break;
		default:
			break;
		}
	}
}

const char *terms__name(const struct terms *terms)
{
	for (int i = 0; i < terms->n; i++)
		if (terms->v[i].type == TERM_NAME && terms->v[i].is_str)
			return terms->v[i].str;
	return NULL;
}
