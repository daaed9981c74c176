/* parse-events: the grammar over the scanner's tokens, and what each form adds.
 *
 *   events  := item (',' item)*
 *   item    := [NAME] '{' event (',' event)* '}' [':' MODIFIER]   a group
 *            | event
 *   event   := [EVENT_NAME] def [MODIFIER]
 *   def     := SYM_HW|SYM_SW ('/' terms '/' | '/' '/' | ':')?
 *            | SYM_TOOL ('/' '/' | ':')?
 *            | CACHE_TYPE ['-' OP_RESULT ['-' OP_RESULT]] [config] [':']
 *            | "mem:" VALUE ['/' VALUE] [':' BP] [':']
 *            | NAME ['-' NAME] ':' NAME [config] [':']        tracepoint
 *            | VALUE ':' VALUE [config] [':']                 type:config
 *            | RAW [config] [':']
 *            | NAME '/' terms '/' | NAME '/' '/'               PMU
 *            | PMU_EVENT [':' | '/' terms '/']                 sysfs event name
 *   config  := '/' terms '/' | '/' '/'
 *
 * Each form's events are created as soon as the form is complete, before
 * the token after it is looked at, which is when perf's parser runs its
 * actions too; so when a form is both wrong and badly followed, the same
 * error wins.
 */
#include "core/events/parse-events.h"
#include "core/events/event-names.h"
#include "core/events/parse-events-int.h"
#include "core/events/pmu.h"
#include "core/events/tracepoint.h"
#include "util/glob.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

struct parser {
	const char *str;
	struct token *toks;
	int pos;
	struct evsel **evs;	/* the events parsed so far, in order */
	int nr_evs;
	int nr_groups;
	bool empty_group;	/* a group whose events matched nothing */
	struct parse_events_error *err;
};

void pe_error(struct parse_events_error *err, int idx, char *str, char *help)
{
	if (err->num_errors == 1) {
		err->first_idx = err->idx;
		err->first_str = err->str;
		err->first_help = err->help;
	} else if (err->num_errors > 1) {
		free(err->str);
		free(err->help);
	}
	err->idx = idx;
	err->str = str;
	err->help = help;
	err->num_errors++;
}

static const struct token *cur(struct parser *ps)
{
	return &ps->toks[ps->pos];
}

static const struct token *peek(struct parser *ps)
{
	return cur(ps)->type == T_EOF ? cur(ps) : &ps->toks[ps->pos + 1];
}

static const struct token *take(struct parser *ps)
{
	const struct token *t = cur(ps);

	if (t->type != T_EOF)
		ps->pos++;
	return t;
}

static bool accept(struct parser *ps, int type)
{
	if (cur(ps)->type != type)
		return false;
	take(ps);
	return true;
}

static char *tok_text(struct parser *ps, const struct token *t)
{
	return xstrndup(ps->str + t->start, (size_t)t->len);
}

/* perf blames a token it cannot take at the column where the one before began. */
static int syntax_error(struct parser *ps)
{
	pe_error(ps->err, cur(ps)->last, xstrdup("parser error"), NULL);
	return -1;
}

static int expect(struct parser *ps, int type)
{
	return accept(ps, type) ? 0 : syntax_error(ps);
}

/* --- creating events --------------------------------------------------- */

bool parse_events__host = true, parse_events__guest;

static struct evsel *add_evsel(struct parser *ps, const struct perf_event_attr *attr,
			       const char *name)
{
	struct evsel *e = evsel__new(attr, NULL);

	e->attr.exclude_guest = !parse_events__guest;
	e->attr.exclude_host = !parse_events__host;
	free(e->name);
	e->name = name ? xstrdup(name) : NULL;
	ps->evs = xrealloc(ps->evs, (ps->nr_evs + 1) * sizeof(*ps->evs));
	ps->evs[ps->nr_evs++] = e;
	return e;
}

static int add_numeric(struct parser *ps, uint32_t type, uint64_t config,
		       const struct terms *terms)
{
	struct perf_event_attr attr = { .type = type, .config = config };
	struct evsel *e;

	if (terms__config_attr(terms, &attr, CHECK_COMMON, ps->err))
		return -1;
	e = add_evsel(ps, &attr, terms__name(terms));
	terms__apply(terms, e);
	return 0;
}

static int add_tool(struct parser *ps, enum tool_event tool)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
	};

	add_evsel(ps, &attr, NULL)->tool = tool;
	return 0;
}

static int add_cache(struct parser *ps, const struct token *type_tok,
		     const struct token *opres[2], const struct terms *terms)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_HW_CACHE };
	char *type_str = tok_text(ps, type_tok), *name = xstrdup(type_str);
	int type = hw_cache_lookup(type_str, hw_cache_names, PERF_COUNT_HW_CACHE_MAX);
	int op = -1, result = -1, ret = -1;
	struct evsel *e;

	for (int i = 0; i < 2 && opres[i]; i++) {
		char *s = tok_text(ps, opres[i]), *n = xasprintf("%s-%s", name, s);

		free(name);
		name = n;
		/* each part is an operation if none was seen yet, else a result */
		if (op == -1) {
			op = hw_cache_lookup(s, hw_cache_op_names, PERF_COUNT_HW_CACHE_OP_MAX);
			if (op >= 0 && !hw_cache_op_valid((unsigned)type, (unsigned)op)) {
				pe_error(ps->err, type_tok->first,
					 xasprintf("%s has no '%s' events", type_str, s), NULL);
				free(s);
				goto out;
			}
			if (op >= 0) {
				free(s);
				continue;
			}
		}
		if (result == -1)
			result = hw_cache_lookup(s, hw_cache_result_names,
						 PERF_COUNT_HW_CACHE_RESULT_MAX);
		free(s);
	}
	if (op == -1)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result == -1)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	attr.config = (uint64_t)type | ((uint64_t)op << 8) | ((uint64_t)result << 16);
	if (terms__config_attr(terms, &attr, CHECK_COMMON, ps->err))
		goto out;
	e = add_evsel(ps, &attr, terms__name(terms) ? terms__name(terms) : name);
	terms__apply(terms, e);
	ret = 0;
out:
	free(type_str);
	free(name);
	return ret;
}

static int add_breakpoint(struct parser *ps, uint64_t addr, const struct token *bp,
			  uint64_t len, const struct token *at)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_BREAKPOINT, .bp_addr = addr };

	for (int i = 0; bp && i < bp->len; i++) {
		char c = ps->str[bp->start + i];
		unsigned bit = c == 'r' ? HW_BREAKPOINT_R : c == 'w' ? HW_BREAKPOINT_W
								  : HW_BREAKPOINT_X;

		if (attr.bp_type & bit) {
			pe_error(ps->err, at->first,
				 xasprintf("'%c' given twice in the breakpoint access type", c),
				 NULL);
			return -1;
		}
		attr.bp_type |= bit;
	}
	if (!attr.bp_type)
		attr.bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	/* execute breakpoints cover an instruction address: one long */
	attr.bp_len = len ? len : attr.bp_type == HW_BREAKPOINT_X ? sizeof(long)
								  : HW_BREAKPOINT_LEN_4;
	attr.sample_period = 1;
	add_evsel(ps, &attr, NULL);
	return 0;
}

/* perf always blames column 0 for tracepoints */
static int tracepoint_error(struct parser *ps, int err, const char *sys, const char *name)
{
	const char *what = err == EACCES ? "can't access trace events" :
			   err == ENOENT ? "unknown tracepoint" : "failed to add tracepoint";

	pe_error(ps->err, 0, xstrdup(what), tracepoint__strerror(err, sys, name));
	return -1;
}

static int add_tracepoint(struct parser *ps, const char *sys, const char *name,
			  const struct terms *terms)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_PERIOD,
		.sample_period = 1,
	};
	long long id = tracepoint__id(sys, name);
	char *full;
	struct evsel *e;

	if (id < 0)
		return tracepoint_error(ps, (int)-id, sys, name);
	attr.config = (uint64_t)id;
	full = xasprintf("%s:%s", sys, name);
	e = add_evsel(ps, &attr, full);
	free(full);
	terms__apply(terms, e);
	return 0;
}

/* sys:glob, in directory order like perf; a glob matching nothing is an error */
static int add_tracepoint_glob(struct parser *ps, const char *sys, const char *glob,
			       const struct terms *terms)
{
	char **names;
	int n = tracepoint__readdir(sys, &names), found = 0, ret = 0;

	if (n < 0)
		return tracepoint_error(ps, -n, sys, glob);
	for (int i = 0; i < n && !ret; i++) {
		if (!strcmp(names[i], "enable") || !strcmp(names[i], "filter") ||
		    !glob_match(glob, names[i]))
			continue;
		found++;
		ret = add_tracepoint(ps, sys, names[i], terms);
	}
	strlist__free(names, n);
	if (!ret && !found)
		return tracepoint_error(ps, ENOENT, sys, glob);
	return ret;
}

static int add_tracepoint_event(struct parser *ps, const char *sys, const char *name,
				const struct terms *terms)
{
	return is_glob(name) ? add_tracepoint_glob(ps, sys, name, terms)
			     : add_tracepoint(ps, sys, name, terms);
}

static int add_tracepoints(struct parser *ps, const char *sys, const char *name,
			   const struct terms *terms)
{
	struct perf_event_attr scratch = { 0 };
	char **systems;
	int n, ret = 0;

	if (terms__config_attr(terms, &scratch, CHECK_TRACEPOINT, ps->err))
		return -1;
	if (!is_glob(sys))
		return add_tracepoint_event(ps, sys, name, terms);
	n = tracepoint__readdir(NULL, &systems);
	if (n < 0)
		return tracepoint_error(ps, -n, sys, name);
	for (int i = 0; i < n && !ret; i++) {
		if (!strcmp(systems[i], "enable") || !strcmp(systems[i], "header_event") ||
		    !strcmp(systems[i], "header_page") || !glob_match(sys, systems[i]))
			continue;
		ret = add_tracepoint_event(ps, systems[i], name, terms);
	}
	strlist__free(systems, n);
	return ret;
}

/* What a PMU event takes from the sysfs events it names. */
struct alias_info {
	const char *unit;
	double scale;
};

/* Replaces terms naming a sysfs event of the PMU ("tsc", "event=tsc") by its terms. */
static void expand_aliases(const struct pmu *pmu, struct terms *terms, struct alias_info *info)
{
	struct terms out = { 0 };

	for (int i = 0; i < terms->n; i++) {
		const struct term *t = &terms->v[i];
		const struct pmu_alias *alias = NULL;
		struct terms expanded = { 0 };

		if (t->type == TERM_USER && !t->is_str && t->num == 1 &&
		    !pmu__find_format(pmu, t->config))
			alias = pmu__find_alias(pmu, t->config);
		else if (t->type == TERM_USER && t->is_str && !strcasecmp(t->config, "event"))
			alias = pmu__find_alias(pmu, t->str);
		if (!alias || terms__parse(alias->terms, &expanded)) {
			terms__exit(&expanded);
			terms__add(&out, t);
			continue;
		}
		for (int j = 0; j < expanded.n; j++) {
			expanded.v[j].err_term = t->err_term;
			expanded.v[j].err_val = t->err_val;
		}
		terms__copy(&out, &expanded);
		terms__exit(&expanded);
		if (alias->unit)
			info->unit = alias->unit;
		info->scale = alias->scale;
	}
	terms__exit(terms);
	*terms = out;
}

static int resolve_param(const struct terms *terms, const struct term *param, uint64_t *value)
{
	for (int i = 0; i < terms->n; i++) {
		const struct term *t = &terms->v[i];

		if (t != param && t->type == TERM_USER && !t->is_str &&
		    !strcmp(t->config, param->config)) {
			*value = t->num;
			return 0;
		}
	}
	return -1;
}

static int pmu_config(const struct pmu *pmu, const struct terms *terms,
		      struct perf_event_attr *attr, struct parse_events_error *err)
{
	attr->type = pmu->type;
	for (int i = 0; i < terms->n; i++) {
		const struct term *t = &terms->v[i];
		const struct pmu_format *fmt;
		uint64_t value;

		if (t->type != TERM_USER)
			continue;
		fmt = pmu__find_format(pmu, t->config);
		if (!fmt) {
			struct strbuf formats = STRBUF_INIT;

			for (int f = 0; f < pmu->nr_formats; f++)
				strbuf_addf(&formats, "%s%s", f ? "," : "", pmu->formats[f].name);
			pe_error(err, t->err_term,
				 xasprintf("unknown term '%s' for pmu '%s'", t->config, pmu->name),
				 terms__valid_help(formats.len ? formats.buf : NULL));
			strbuf_release(&formats);
			return -1;
		}
		value = t->num;
		if (t->is_str && !strcmp(t->str, "?")) {
			/* a sysfs event's parameter: the user gives it as NAME=value */
			if (resolve_param(terms, t, &value)) {
				pe_error(err, t->err_term,
					 xasprintf("Required parameter '%s' not specified", t->config),
					 NULL);
				return -1;
			}
		} else if (t->is_str) {
			pe_error(err, t->err_val, xstrdup("expected numeric value"), NULL);
			return -1;
		}
		if (value > pmu_format__max_value(fmt)) {
			pe_error(err, t->err_val,
				 xasprintf("value too big for format, maximum is %llu",
					   (unsigned long long)pmu_format__max_value(fmt)), NULL);
			return -1;
		}
		pmu_format__apply(fmt, value, attr);
	}
	return 0;
}

static int add_pmu(struct parser *ps, const char *name, const struct terms *given)
{
	const struct pmu *pmu = pmus__find(name);
	struct perf_event_attr attr = { 0 };
	struct alias_info info = { NULL, 1.0 };
	struct terms terms = { 0 };
	struct evsel *e;
	int ret = -1;

	if (!pmu) {
		pe_error(ps->err, 0,
			 xasprintf("Cannot find PMU `%s'. Missing kernel support?", name), NULL);
		return -1;
	}
	terms__copy(&terms, given);
	expand_aliases(pmu, &terms, &info);
	if (terms__config_attr(&terms, &attr, CHECK_PMU, ps->err) ||
	    pmu_config(pmu, &terms, &attr, ps->err))
		goto out;
	e = add_evsel(ps, &attr, terms__name(&terms));
	terms__apply(&terms, e);
	e->pmu_name = xstrdup(name);
	if (info.unit)
		e->unit = xstrdup(info.unit);
	e->scale = info.scale;
	ret = 0;
out:
	terms__exit(&terms);
	return ret;
}

/* "uncore_imc" also means uncore_imc_0, uncore_imc_1, ...: a name is
 * retried on every PMU it prefixes with an optional "_N" suffix. */
static bool pmu_family_member(const char *pmu_name, const char *name)
{
	size_t n = strlen(name);

	if (!str_starts_with(name, "uncore_") && str_starts_with(pmu_name, "uncore_"))
		pmu_name += 7;
	if (strncmp(pmu_name, name, n))
		return false;
	return !pmu_name[n] || (pmu_name[n] == '_' && isdigit((unsigned char)pmu_name[n + 1]));
}

static int add_pmu_or_family(struct parser *ps, const char *name, const struct terms *terms)
{
	int nr, ok = 0;
	const struct pmu *pmus;

	if (!add_pmu(ps, name, terms))
		return 0;
	pmus = pmus__all(&nr);
	for (int i = 0; i < nr; i++)
		if (pmu_family_member(pmus[i].name, name) && !add_pmu(ps, pmus[i].name, terms))
			ok++;
	return ok ? 0 : -1;
}

/* A sysfs event name alone ("tsc"): one event on every PMU that has it. */
static int add_pmu_event_everywhere(struct parser *ps, const char *event,
				    const struct terms *extra, const struct token *at)
{
	struct terms terms = { 0 };
	struct term t = { .type = TERM_USER, .config = (char *)event, .num = 1,
			  .err_term = at->first };
	int nr, ok = 0;
	const struct pmu *pmus = pmus__all(&nr);

	terms__add(&terms, &t);
	terms__copy(&terms, extra);
	for (int i = 0; i < nr; i++)
		if (pmu__find_alias(&pmus[i], event) && !add_pmu(ps, pmus[i].name, &terms))
			ok++;
	terms__exit(&terms);
	if (!ok && !ps->err->num_errors)
		pe_error(ps->err, at->first, xasprintf("no PMU has an event '%s'", event), NULL);
	return ok ? 0 : -1;
}

/* --- grammar ----------------------------------------------------------- */

static int parse_term(struct parser *ps, struct terms *terms)
{
	const struct token *k = cur(ps);
	struct term t = { .err_term = k->first };
	int ret = 0;

	if (k->type == T_RAW) {
		take(ps);
		t.type = TERM_CONFIG;
		t.num = k->num;
		terms__add(terms, &t);
		return 0;
	}
	if (k->type != T_NAME && k->type != T_TERM)
		return syntax_error(ps);
	take(ps);
	t.type = k->type == T_TERM ? (enum term_type)k->num : TERM_USER;
	t.config = tok_text(ps, k);
	if (accept(ps, '=')) {
		const struct token *v = cur(ps);

		t.err_val = v->first;
		if (v->type == T_VALUE) {
			t.num = v->num;
		} else if (v->type == T_NAME) {
			t.is_str = true;
			t.str = tok_text(ps, v);
		} else {
			ret = syntax_error(ps);
		}
		take(ps);
	} else {
		t.num = 1;	/* "inv" alone sets a flag */
	}
	if (!ret)
		terms__add(terms, &t);
	free(t.config);
	free(t.str);
	return ret;
}

static int parse_terms(struct parser *ps, struct terms *terms)
{
	do {
		if (parse_term(ps, terms))
			return -1;
	} while (accept(ps, ','));
	return 0;
}

/* '/' terms '/' | '/' '/' ; optional unless required */
static int parse_config(struct parser *ps, struct terms *terms, bool required)
{
	if (!accept(ps, '/'))
		return required ? syntax_error(ps) : 0;
	if (accept(ps, '/'))
		return 0;
	if (parse_terms(ps, terms))
		return -1;
	return expect(ps, '/');
}

static int parse_symbol(struct parser *ps)
{
	const struct token *sym = take(ps);
	struct terms terms = { 0 };
	int ret = 0;

	if (cur(ps)->type == '/') {
		if (sym->type == T_VALUE_SYM_TOOL || peek(ps)->type == '/') {
			take(ps);
			ret = expect(ps, '/');
		} else {
			ret = parse_config(ps, &terms, true);
		}
	} else {
		accept(ps, ':');
	}
	if (!ret)
		ret = sym->type == T_VALUE_SYM_TOOL ? add_tool(ps, (enum tool_event)sym->num) :
		      add_numeric(ps, sym->type == T_VALUE_SYM_HW ? PERF_TYPE_HARDWARE
								: PERF_TYPE_SOFTWARE,
				  sym->num, &terms);
	terms__exit(&terms);
	return ret;
}

static int parse_cache(struct parser *ps)
{
	const struct token *type = take(ps), *opres[2] = { NULL, NULL };
	struct terms terms = { 0 };
	int ret = 0;

	for (int i = 0; i < 2 && cur(ps)->type == '-'; i++) {
		take(ps);
		if (cur(ps)->type != T_CACHE_OP_RESULT) {
			ret = syntax_error(ps);
			break;
		}
		opres[i] = take(ps);
	}
	if (!ret)
		ret = parse_config(ps, &terms, false);
	if (!ret)
		ret = add_cache(ps, type, opres, &terms);
	if (!ret)
		accept(ps, ':');
	terms__exit(&terms);
	return ret;
}

static int parse_mem(struct parser *ps)
{
	const struct token *addr, *bp = NULL, *at;
	uint64_t len = 0;

	take(ps);
	addr = cur(ps);
	if (expect(ps, T_VALUE))
		return -1;
	if (accept(ps, '/')) {
		if (cur(ps)->type != T_VALUE)
			return syntax_error(ps);
		len = take(ps)->num;
	}
	at = cur(ps);
	if (cur(ps)->type == ':' && peek(ps)->type == T_MODIFIER_BP) {
		take(ps);
		bp = take(ps);
	}
	accept(ps, ':');
	return add_breakpoint(ps, addr->num, bp, len, bp ? bp : at);
}

static int parse_tracepoint(struct parser *ps)
{
	const struct token *a = take(ps);
	char *sys = tok_text(ps, a), *name = NULL;
	struct terms terms = { 0 };
	int ret = 0;

	if (accept(ps, '-')) {
		/* subsystems like "a-b" come in as NAME '-' NAME */
		char *rest, *joined;

		if (cur(ps)->type != T_NAME) {
			free(sys);
			return syntax_error(ps);
		}
		rest = tok_text(ps, take(ps));
		joined = xasprintf("%s-%s", sys, rest);
		free(sys);
		free(rest);
		sys = joined;
	}
	if (expect(ps, ':') || (cur(ps)->type != T_NAME && syntax_error(ps))) {
		free(sys);
		return -1;
	}
	name = tok_text(ps, take(ps));
	ret = parse_config(ps, &terms, false);
	if (!ret)
		ret = add_tracepoints(ps, sys, name, &terms);
	if (!ret)
		accept(ps, ':');
	terms__exit(&terms);
	free(sys);
	free(name);
	return ret;
}

static int parse_numeric(struct parser *ps)
{
	const struct token *type = take(ps), *config;
	struct terms terms = { 0 };
	int ret;

	if (expect(ps, ':'))
		return -1;
	config = cur(ps);
	if (expect(ps, T_VALUE))
		return -1;
	ret = parse_config(ps, &terms, false);
	if (!ret)
		ret = add_numeric(ps, (uint32_t)type->num, config->num, &terms);
	if (!ret)
		accept(ps, ':');
	terms__exit(&terms);
	return ret;
}

static int parse_raw(struct parser *ps)
{
	const struct token *raw = take(ps);
	struct terms terms = { 0 };
	int ret = parse_config(ps, &terms, false);

	if (!ret)
		ret = add_numeric(ps, PERF_TYPE_RAW, raw->num, &terms);
	if (!ret)
		accept(ps, ':');
	terms__exit(&terms);
	return ret;
}

static int parse_pmu(struct parser *ps)
{
	char *name = tok_text(ps, take(ps));
	struct terms terms = { 0 };
	int ret = parse_config(ps, &terms, true);

	if (!ret)
		ret = add_pmu_or_family(ps, name, &terms);
	terms__exit(&terms);
	free(name);
	return ret;
}

/* tsc, tsc/.../, or a dashed sysfs name split by the scanner (pre-suf[-suf2]) */
static int parse_pmu_event(struct parser *ps)
{
	const struct token *first = take(ps);
	char *event = tok_text(ps, first);
	struct terms terms = { 0 };
	int ret = 0;

	if (first->type == T_PMU_EVENT_PRE) {
		for (int want = T_PMU_EVENT_SUF; want <= T_PMU_EVENT_SUF2; want++) {
			char *joined;

			if (want == T_PMU_EVENT_SUF2 && cur(ps)->type != '-')
				break;
			if (expect(ps, '-') || (cur(ps)->type != want && syntax_error(ps))) {
				free(event);
				return -1;
			}
			joined = xasprintf("%s-%.*s", event, cur(ps)->len, ps->str + cur(ps)->start);
			free(event);
			event = joined;
			take(ps);
		}
		accept(ps, ':');
	} else if (cur(ps)->type == '/') {
		ret = parse_config(ps, &terms, true);
	} else {
		accept(ps, ':');
	}
	if (!ret)
		ret = add_pmu_event_everywhere(ps, event, &terms, first);
	terms__exit(&terms);
	free(event);
	return ret;
}

static int parse_event_def(struct parser *ps)
{
	int next = peek(ps)->type;

	switch (cur(ps)->type) {
	case T_VALUE_SYM_HW:
	case T_VALUE_SYM_SW:
	case T_VALUE_SYM_TOOL:
		return parse_symbol(ps);
	case T_CACHE_TYPE:
		return parse_cache(ps);
	case T_PREFIX_MEM:
		return parse_mem(ps);
	case T_VALUE:
		return parse_numeric(ps);
	case T_RAW:
		return parse_raw(ps);
	case T_KERNEL_PMU_EVENT:
		return parse_pmu_event(ps);
	case T_PMU_EVENT_PRE:
		return next == '/' ? parse_pmu(ps) : parse_pmu_event(ps);
	case T_NAME:
		if (next == '/')
			return parse_pmu(ps);
		if (next == ':' || next == '-')
			return parse_tracepoint(ps);
		take(ps);
		return syntax_error(ps);
	default:
		return syntax_error(ps);
	}
}

/*
 * Modifiers: u k h choose what to count (the first one excludes the other
 * two), G H guest/host, p precision (up to ppp), P the best precision, I
 * exclude idle, S sample read, D pinned, e exclusive, W weak group, b BPF
 * counter (accepted, counted normally).  A group's modifier starts from each
 * member's own bits; an event's starts from nothing.
 */
static int apply_modifier(struct parser *ps, const struct token *mod, int from, bool group)
{
	char *str = tok_text(ps, mod);
	int ret = 0;

	if (strlen(str) > strlen("ukhGHpppPSDIWeb"))
		ret = -1;
	for (const char *p = str; !ret && *p; p++)
		if (*p != 'p' && strchr(p + 1, *p))
			ret = -1;
	for (int i = from; !ret && i < ps->nr_evs; i++) {
		struct evsel *e = ps->evs[i];
		struct perf_event_attr *a = &e->attr;
		bool eu = group && a->exclude_user, ek = group && a->exclude_kernel;
		bool eh = group && a->exclude_hv, eH = group && a->exclude_host;
		bool eG = group && a->exclude_guest, eI = group && a->exclude_idle;
		bool exclude = eu || ek || eh, exclude_GH = group && e->exclude_GH;
		bool pinned = group && a->pinned, exclusive = group && a->exclusive;
		bool sample_read = false, precise_max = false, weak = false;
		int precise = group ? (int)a->precise_ip : 0;

		for (const char *p = str; *p; p++) {
			switch (*p) {
			case 'u': case 'k': case 'h':
				if (!exclude)
					exclude = eu = ek = eh = true;
				if (*p == 'u') {
					if (!exclude_GH)
						eG = true;
					eu = false;
				}
				if (*p == 'k')
					ek = false;
				if (*p == 'h')
					eh = false;
				break;
			case 'G': case 'H':
				if (!exclude_GH)
					exclude_GH = eG = eH = true;
				if (*p == 'G')
					eG = false;
				else
					eH = false;
				break;
			case 'I': eI = true; break;
			case 'p':
				precise++;
				if (!exclude_GH)	/* precise sampling needs exclude_guest */
					eG = true;
				break;
			case 'P': precise_max = true; break;
			case 'S': sample_read = true; break;
			case 'D': pinned = true; break;
			case 'e': exclusive = true; break;
			case 'W': weak = true; break;
			default: break;		/* 'b' */
			}
		}
		if (precise > 3) {
			ret = -1;
			break;
		}
		a->exclude_user = eu;
		a->exclude_kernel = ek;
		a->exclude_hv = eh;
		a->exclude_host = eH;
		a->exclude_guest = eG;
		a->exclude_idle = eI;
		a->precise_ip = (unsigned)precise;
		e->exclude_GH = exclude_GH;
		e->sample_read = sample_read;
		e->precise_max = precise_max;
		e->weak_group = weak;
		if (e->leader == e) {
			a->pinned = pinned;
			a->exclusive = exclusive;
		}
	}
	free(str);
	if (ret)
		pe_error(ps->err, mod->first, xstrdup("Bad modifier"), NULL);
	return ret;
}

static int parse_event(struct parser *ps)
{
	const struct token *name = cur(ps)->type == T_EVENT_NAME ? take(ps) : NULL;
	int from = ps->nr_evs;

	if (parse_event_def(ps))
		return -1;
	for (int i = from; name && i < ps->nr_evs; i++)
		if (!ps->evs[i]->name)
			ps->evs[i]->name = tok_text(ps, name);
	if (cur(ps)->type == T_MODIFIER_EVENT)
		return apply_modifier(ps, take(ps), from, false);
	return 0;
}

static int parse_group(struct parser *ps)
{
	const struct token *name = cur(ps)->type == T_NAME ? take(ps) : NULL;
	int from = ps->nr_evs;
	struct evsel *leader;

	if (expect(ps, '{'))
		return -1;
	do {
		if (parse_event(ps))
			return -1;
	} while (accept(ps, ','));
	if (expect(ps, '}'))
		return -1;
	if (ps->nr_evs == from) {
		/* "{nosuch*:x}": perf warns and goes on without a group */
		ps->empty_group = true;
		if (accept(ps, ':') && !accept(ps, T_MODIFIER_EVENT))
			return syntax_error(ps);
		return 0;
	}
	leader = ps->evs[from];
	for (int i = from; i < ps->nr_evs; i++)
		ps->evs[i]->leader = leader;
	leader->nr_members = ps->nr_evs - from;
	if (name)
		leader->group_name = tok_text(ps, name);
	ps->nr_groups++;
	if (!accept(ps, ':'))
		return 0;
	if (cur(ps)->type != T_MODIFIER_EVENT)
		return syntax_error(ps);
	return apply_modifier(ps, take(ps), from, true);
}

static int parse_all(struct parser *ps)
{
	do {
		int ret = cur(ps)->type == '{' ||
			  (cur(ps)->type == T_NAME && peek(ps)->type == '{')
			  ? parse_group(ps) : parse_event(ps);

		if (ret)
			return ret;
	} while (accept(ps, ','));
	return cur(ps)->type == T_EOF ? 0 : syntax_error(ps);
}

int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err)
{
	struct parser ps = { .str = str, .err = err };
	int ret;

	memset(err, 0, sizeof(*err));
	pe_lex(str, LEX_EVENTS, &ps.toks);
	ret = parse_all(&ps);
	free(ps.toks);
	if (ret) {
		for (int i = 0; i < ps.nr_evs; i++)
			evsel__delete(ps.evs[i]);
		free(ps.evs);
		err->empty_group = ps.empty_group;
		return -1;
	}
	/* a retried PMU may have failed on the way to success */
	parse_events_error__exit(err);
	err->empty_group = ps.empty_group;
	if (!ps.nr_evs) {
		err->found_nothing = true;	/* globs that matched no event */
		return -1;
	}
	for (int i = 0; i < ps.nr_evs; i++) {
		struct evsel *e = ps.evs[i];

		if (!e->name)
			e->name = e->tool ? xstrdup(tool_event_names[e->tool])
					  : event_name_for_attr(&e->attr);
		evlist__add(evlist, e);
	}
	if (ps.nr_evs)
		ps.evs[ps.nr_evs - 1]->cmdline_group_boundary = true;
	evlist->nr_groups += ps.nr_groups;
	free(ps.evs);
	return 0;
}

/* --- errors and filters ------------------------------------------------ */

static int term_width(void)
{
	const char *lines = getenv("LINES"), *cols = getenv("COLUMNS");
	struct winsize ws;
	int width = 80;

	if (lines && cols && atoi(lines) > 0 && atoi(cols) > 0)
		width = atoi(cols);
	else if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col)
		width = ws.ws_col;
	return width > 1000 ? 1000 : width;
}

/* The event string, cut to the terminal with ".." at the cut ends so that
 * the caret stays within 13 columns of the start. */
static void print_error(int err_idx, const char *what, const char *help, const char *event)
{
	static const char prefix[] = "event syntax error: ";
	int len_prefix = (int)strlen(prefix), max_len = term_width() - 2 - len_prefix;
	int len_event = (int)strlen(event), cut = err_idx > 13 ? err_idx - 13 : 0, idx;
	char *buf;

	if (max_len < 4)
		max_len = 4;
	if (cut > len_event)
		cut = len_event;
	buf = xcalloc((size_t)max_len + 3, 1);
	strncpy(buf, event + cut, (size_t)max_len);
	if (cut)
		buf[0] = buf[1] = '.';
	if (len_event - cut > max_len) {
		buf[max_len - 1] = buf[max_len - 2] = '.';
		buf[max_len] = '\0';
	}
	idx = len_prefix + err_idx - cut;
	fprintf(stderr, "%s'%s'\n", prefix, buf);
	if (idx) {
		fprintf(stderr, "%*s\\___ %s\n", idx + 1, "", what);
		if (help)
			fprintf(stderr, "\n%s\n", help);
	}
	free(buf);
}

void parse_events_error__print_warnings(const struct parse_events_error *err)
{
	/* perf's text, without a newline */
	if (err->empty_group)
		fputs("WARNING: failed to set leader: empty list", stderr);
}

void parse_events_error__print(const struct parse_events_error *err, const char *str)
{
	parse_events_error__print_error(err, str);
	fprintf(stderr, "Run 'pcl list' for a list of valid events\n");
}

void parse_events_error__print_error(const struct parse_events_error *err, const char *str)
{
	parse_events_error__print_warnings(err);
	if (err->found_nothing)
		fputs("WARNING: event parser found nothing\n", stderr);
	if (err->num_errors) {
		print_error(err->idx, err->str, err->help, str);
		if (err->num_errors > 1) {
			fputs("\nInitial error:\n", stderr);
			print_error(err->first_idx, err->first_str, err->first_help, str);
		}
	}
}

void parse_events_error__exit(struct parse_events_error *err)
{
	free(err->str);
	free(err->help);
	free(err->first_str);
	free(err->first_help);
	memset(err, 0, sizeof(*err));
}

/* The events of the last -e: after the previous boundary. */
static struct evsel *last_cmdline_events(struct evlist *evlist)
{
	struct evsel *from = NULL;

	for (struct evsel *e = evlist->first; e != evlist->last; e = e->next)
		if (e->cmdline_group_boundary)
			from = e;
	return from ? from->next : evlist->first;
}

static void append_filter(struct evsel *e, const char *filter)
{
	char *f = e->filter ? xasprintf("(%s) && (%s)", e->filter, filter) : xstrdup(filter);

	free(e->filter);
	e->filter = f;
}

int parse_events_filter(struct evlist *evlist, const char *filter)
{
	struct evsel *from;

	if (!evlist->last)
		return FILTER_ERR_NO_EVENT;
	from = last_cmdline_events(evlist);
	for (struct evsel *e = from; e; e = e->next)
		if (e->attr.type != PERF_TYPE_TRACEPOINT)
			return FILTER_ERR_NOT_TRACEPOINT;
	for (struct evsel *e = from; e; e = e->next)
		append_filter(e, filter);
	return 0;
}

void parse_events_filter_tracepoints(struct evlist *evlist, const char *filter)
{
	for (struct evsel *e = evlist->last ? last_cmdline_events(evlist) : NULL; e; e = e->next)
		if (e->attr.type == PERF_TYPE_TRACEPOINT)
			append_filter(e, filter);
}

const char *parse_events_filter_strerror(int err)
{
	switch (err) {
	case FILTER_ERR_NO_EVENT:
		return "--filter option should follow a -e tracepoint or HW tracer option";
	case FILTER_ERR_NOT_TRACEPOINT:
		return "This CPU does not support address filtering";
	default:
		return "unknown filter error";
	}
}
