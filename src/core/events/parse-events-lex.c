/* parse-events-lex: the event scanner.
 *
 * It reproduces the start conditions and the longest-match rules of perf
 * 6.1's scanner so that tokens, and the columns errors are reported at,
 * come out the same:
 *  - EVENT (at the start, after ',' and '{'): sees a whole event ahead and
 *    emits it as T_EVENT_NAME (the name the event gets), or sees a group
 *    "...{...}..." and emits nothing; both rewind and go on in INITIAL.
 *  - INITIAL: symbols, cache names, "mem:", rNNN, numbers, modifiers, names.
 *  - CONFIG (inside /.../, also taking the INITIAL rules): term names.
 *  - MEM (after "mem:"): address, length and rwx; any other character is
 *    handed back to INITIAL (counted twice in the columns, as perf does).
 * Every match, token or not, moves the location pair forward.
 */
#include "core/events/parse-events-int.h"
#include "core/events/event-names.h"
#include "core/events/pmu.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum lex_state { ST_EVENT, ST_INITIAL, ST_CONFIG, ST_MEM };

struct lexer {
	const char *s;
	size_t pos;
	enum lex_state state;
	int col;		/* the scanner's running column */
	int first, last;	/* its location pair; the parser starts it at 1, 1 */
};

static void loc_step(struct lexer *lx, size_t len)
{
	lx->last = lx->first;
	lx->first = lx->col;
	lx->col += (int)len;
}

/* The rules, in the order that breaks ties between equally long matches. */
enum rule {
	R_NONE,
	R_GROUP, R_EVENT_PMU, R_EVENT, R_EVENT_COMMA,		/* EVENT */
	R_TERM, R_CFG_RAW, R_CFG_COMMA, R_CFG_SLASH, R_NAME_MINUS,
	R_CFG_UNSUPPORTED,					/* CONFIG */
	R_BP, R_MEM_COLON, R_MEM_SLASH, R_MEM_DEC, R_MEM_HEX, R_MEM_OTHER, /* MEM */
	R_SYM, R_KERNEL_PMU, R_CACHE_TYPE, R_CACHE_OP_RESULT, R_MEM_PREFIX,
	R_RAW, R_DEC, R_HEX, R_MODIFIER, R_NAME, R_SLASH, R_MINUS, R_COMMA,
	R_COLON, R_LBRACE, R_RBRACE, R_EQUAL, R_IGNORE,		/* INITIAL */
};

struct match {
	enum rule rule;
	size_t len;
	int sym;		/* R_SYM: token type; R_TERM: term */
	uint64_t config;	/* R_SYM */
};

static void consider(struct match *m, enum rule rule, size_t len)
{
	if (len > m->len) {
		m->rule = rule;
		m->len = len;
	}
}

static size_t literal(const char *p, const char *lit)
{
	size_t n = strlen(lit);

	return strncmp(p, lit, n) ? 0 : n;
}

static size_t run_of(const char *p, const char *set)
{
	return strspn(p, set);
}

#define ALNUM "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
#define HEXDIGITS "0123456789abcdefABCDEF"

/* [^,{}/]*{[^}]*}[^,{}/]* */
static size_t match_group(const char *p)
{
	size_t a = strcspn(p, ",{}/"), b, c;

	if (p[a] != '{')
		return 0;
	b = strcspn(p + a + 1, "}");
	if (p[a + 1 + b] != '}')
		return 0;
	c = strcspn(p + a + 2 + b, ",{}/");
	return a + 2 + b + c;
}

/* [^,{}/]+/[^/]*\/[^,{}/]* */
static size_t match_event_pmu(const char *p)
{
	size_t a = strcspn(p, ",{}/"), b, c;

	if (!a || p[a] != '/')
		return 0;
	b = strcspn(p + a + 1, "/");
	if (p[a + 1 + b] != '/')
		return 0;
	c = strcspn(p + a + 2 + b, ",{}/");
	return a + 2 + b + c;
}

/* [a-zA-Z_*?\[\]][a-zA-Z0-9_*?.\[\]!]* */
static size_t match_name(const char *p)
{
	if (!*p || !strchr(ALNUM "_*?[]", *p) || isdigit((unsigned char)*p))
		return 0;
	return 1 + run_of(p + 1, ALNUM "_*?.[]!");
}

/* [a-zA-Z_*?][a-zA-Z0-9\-_*?.:]* */
static size_t match_name_minus(const char *p)
{
	if (!*p || !strchr(ALNUM "_*?", *p) || isdigit((unsigned char)*p))
		return 0;
	return 1 + run_of(p + 1, ALNUM "-_*?.:");
}

static size_t match_hex(const char *p)
{
	size_t n = p[0] == '0' && p[1] == 'x' ? run_of(p + 2, HEXDIGITS) : 0;

	return n ? 2 + n : 0;
}

static size_t match_raw(const char *p)
{
	size_t n = *p == 'r' ? run_of(p + 1, HEXDIGITS) : 0;

	return n ? 1 + n : 0;
}

/* PREFIX-[a-z-]+ */
static size_t match_dashed(const char *p, const char *prefix)
{
	size_t n = literal(p, prefix), m;

	if (!n)
		return 0;
	m = run_of(p + n, "abcdefghijklmnopqrstuvwxyz-");
	return m ? n + m : 0;
}

struct symbol {
	const char *text;
	int type;
	int config;
};

static const struct symbol symbols[] = {
	{ "cpu-cycles", T_VALUE_SYM_HW, PERF_COUNT_HW_CPU_CYCLES },
	{ "cycles", T_VALUE_SYM_HW, PERF_COUNT_HW_CPU_CYCLES },
	{ "stalled-cycles-frontend", T_VALUE_SYM_HW, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", T_VALUE_SYM_HW, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", T_VALUE_SYM_HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", T_VALUE_SYM_HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "instructions", T_VALUE_SYM_HW, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", T_VALUE_SYM_HW, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", T_VALUE_SYM_HW, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", T_VALUE_SYM_HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", T_VALUE_SYM_HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", T_VALUE_SYM_HW, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", T_VALUE_SYM_HW, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", T_VALUE_SYM_HW, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", T_VALUE_SYM_SW, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", T_VALUE_SYM_SW, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", T_VALUE_SYM_SW, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", T_VALUE_SYM_SW, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", T_VALUE_SYM_SW, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", T_VALUE_SYM_SW, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", T_VALUE_SYM_SW, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", T_VALUE_SYM_SW, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", T_VALUE_SYM_SW, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", T_VALUE_SYM_SW, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults", T_VALUE_SYM_SW, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", T_VALUE_SYM_SW, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", T_VALUE_SYM_SW, PERF_COUNT_SW_DUMMY },
	{ "duration_time", T_VALUE_SYM_TOOL, TOOL_DURATION_TIME },
	{ "user_time", T_VALUE_SYM_TOOL, TOOL_USER_TIME },
	{ "system_time", T_VALUE_SYM_TOOL, TOOL_SYSTEM_TIME },
	{ "bpf-output", T_VALUE_SYM_SW, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches", T_VALUE_SYM_SW, PERF_COUNT_SW_CGROUP_SWITCHES },
};

/* x86 core PMU events whose names collide with the symbols and cache names. */
static size_t match_kernel_pmu(const char *p)
{
	static const char *const fixed[] = {
		"cycles-ct", "cycles-t", "mem-loads", "mem-loads-aux", "mem-stores",
	};
	static const char *const dashed[] = { "topdown-", "tx-capacity-", "el-capacity-" };
	size_t best = 0;

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		if (literal(p, fixed[i]) > best)
			best = literal(p, fixed[i]);
	for (size_t i = 0; i < ARRAY_SIZE(dashed); i++)
		if (match_dashed(p, dashed[i]) > best)
			best = match_dashed(p, dashed[i]);
	return best;
}

static size_t match_table(const char *p, const char *const names[][HW_CACHE_ALIASES], int nr)
{
	size_t best = 0;

	for (int i = 0; i < nr; i++)
		for (int j = 0; j < HW_CACHE_ALIASES && names[i][j]; j++)
			if (literal(p, names[i][j]) > best)
				best = literal(p, names[i][j]);
	return best;
}

static size_t match_cache_op_result(const char *p)
{
	size_t a = match_table(p, hw_cache_op_names, PERF_COUNT_HW_CACHE_OP_MAX);
	size_t b = match_table(p, hw_cache_result_names, PERF_COUNT_HW_CACHE_RESULT_MAX);

	return a > b ? a : b;
}

static void match_general(const char *p, struct match *m)
{
	for (size_t i = 0; i < ARRAY_SIZE(symbols); i++) {
		size_t n = literal(p, symbols[i].text);

		if (n > m->len) {
			m->rule = R_SYM;
			m->len = n;
			m->sym = symbols[i].type;
			m->config = (uint64_t)symbols[i].config;
		}
	}
	consider(m, R_KERNEL_PMU, match_kernel_pmu(p));
	consider(m, R_CACHE_TYPE, match_table(p, hw_cache_names, PERF_COUNT_HW_CACHE_MAX));
	consider(m, R_CACHE_OP_RESULT, match_cache_op_result(p));
	consider(m, R_MEM_PREFIX, literal(p, "mem:"));
	consider(m, R_RAW, match_raw(p));
	consider(m, R_DEC, run_of(p, "0123456789"));
	consider(m, R_HEX, match_hex(p));
	consider(m, R_MODIFIER, run_of(p, "ukhpPGHSDIWeb"));
	consider(m, R_NAME, match_name(p));
	if (*p) {
		static const char punct[] = "/-,:{}=";
		const char *c = strchr(punct, *p);

		consider(m, c ? R_SLASH + (enum rule)(c - punct) : R_IGNORE, 1);
	}
}

static void match_config(const char *p, struct match *m)
{
	for (int t = TERM_CONFIG; t < TERM_MAX; t++) {
		size_t n;

		if (t == TERM_DRV_CFG)	/* written @..., which pcl does not take */
			continue;
		n = literal(p, term_names[t]);
		if (n > m->len) {
			m->rule = R_TERM;
			m->len = n;
			m->sym = t;
		}
	}
	consider(m, R_CFG_RAW, match_raw(p));
	if (*p == 'r')
		consider(m, R_CFG_RAW, literal(p, "r0x") ? 3 + run_of(p + 3, HEXDIGITS) : 0);
	consider(m, R_CFG_COMMA, *p == ',');
	consider(m, R_CFG_SLASH, *p == '/');
	consider(m, R_NAME_MINUS, match_name_minus(p));
	/* term arrays ([all], name[0-3]=) and @driver terms are ARM/AUX only */
	consider(m, R_CFG_UNSUPPORTED, *p == '[' || *p == '@');
	match_general(p, m);
}

/* perf turns a name into a PMU event token when a sysfs event has that name
 * or is "NAME-..." / "...-NAME[-...]". */
static int classify_name(const char *text, size_t len)
{
	int nr, best = T_NAME;
	const struct pmu *pmus = pmus__all(&nr);

	for (int i = 0; i < nr; i++) {
		for (int j = 0; j < pmus[i].nr_aliases; j++) {
			const char *a = pmus[i].aliases[j].name;
			const char *d1 = strchr(a, '-'), *d2 = d1 ? strchr(d1 + 1, '-') : NULL;

			if (!d1 && strlen(a) == len && !strncmp(a, text, len))
				return T_KERNEL_PMU_EVENT;
			if (d1 && (size_t)(d1 - a) == len && !strncmp(a, text, len))
				best = T_PMU_EVENT_PRE;
			else if (d1 && best == T_NAME) {
				const char *suf = d1 + 1;
				size_t n = d2 ? (size_t)(d2 - suf) : strlen(suf);

				if (n == len && !strncmp(suf, text, len))
					best = T_PMU_EVENT_SUF;
				else if (d2 && strlen(d2 + 1) == len && !strncmp(d2 + 1, text, len))
					best = T_PMU_EVENT_SUF2;
			}
		}
	}
	return best;
}

static uint64_t parse_number(const char *p, size_t len, int base, bool *ok)
{
	char *tmp = xstrndup(p, len);
	uint64_t v;

	errno = 0;
	v = strtoull(tmp, NULL, base);
	*ok = errno == 0;
	free(tmp);
	return v;
}

/* One token; false when the match was not a token (rewinds, ignored text). */
static bool lex_step(struct lexer *lx, struct token *tok)
{
	const char *p = lx->s + lx->pos;
	struct match m = { R_NONE, 0, 0, 0 };
	bool ok = true;

	tok->start = (int)lx->pos;
	tok->num = 0;
	switch (lx->state) {
	case ST_EVENT:
		if (!*p) {
			lx->state = ST_INITIAL;
			return false;
		}
		consider(&m, R_GROUP, match_group(p));
		consider(&m, R_EVENT_PMU, match_event_pmu(p));
		consider(&m, R_EVENT, strcspn(p, ",{}/"));
		consider(&m, R_EVENT_COMMA, *p == ',');
		break;
	case ST_MEM:
		if (!*p) {
			lx->state = ST_INITIAL;
			return false;
		}
		consider(&m, R_BP, run_of(p, "rwx") > 3 ? 3 : run_of(p, "rwx"));
		consider(&m, R_MEM_COLON, *p == ':');
		consider(&m, R_MEM_SLASH, *p == '/');
		consider(&m, R_MEM_DEC, run_of(p, "0123456789"));
		consider(&m, R_MEM_HEX, match_hex(p));
		consider(&m, R_MEM_OTHER, 1);
		break;
	case ST_CONFIG:
		if (!*p)
			goto eof;
		match_config(p, &m);
		break;
	case ST_INITIAL:
		if (!*p)
			goto eof;
		match_general(p, &m);
		break;
	}
	if (m.rule == R_NONE) {
		/* perf's scanner echoes such a character and goes on; refuse it */
		tok->type = T_ERROR;
		tok->len = 1;
		loc_step(lx, 1);
		lx->pos++;
		tok->first = lx->first;
		tok->last = lx->last;
		return true;
	}
	loc_step(lx, m.len);
	tok->first = lx->first;
	tok->last = lx->last;
	tok->len = (int)m.len;

	switch (m.rule) {
	case R_GROUP:			/* rewind, no token */
		lx->col -= (int)m.len;
		lx->state = ST_INITIAL;
		return false;
	case R_EVENT_PMU:
	case R_EVENT:
		lx->col -= (int)m.len;
		lx->state = ST_INITIAL;
		tok->type = T_EVENT_NAME;
		return true;
	case R_MEM_OTHER:		/* handed back: counted, not consumed */
		lx->state = ST_INITIAL;
		return false;
	case R_IGNORE:
		lx->pos++;
		return false;
	default:
		break;
	}

	lx->pos += m.len;
	switch (m.rule) {
	case R_EVENT_COMMA:
	case R_CFG_COMMA:
	case R_MEM_COLON:
	case R_MEM_SLASH:
	case R_MINUS:
	case R_COLON:
	case R_RBRACE:
	case R_EQUAL:
		tok->type = *p;
		break;
	case R_COMMA:
		tok->type = ',';
		lx->state = ST_EVENT;
		break;
	case R_LBRACE:
		tok->type = '{';
		lx->state = ST_EVENT;
		break;
	case R_SLASH:
		tok->type = '/';
		lx->state = ST_CONFIG;
		break;
	case R_CFG_SLASH:
		tok->type = '/';
		lx->state = ST_INITIAL;
		break;
	case R_TERM:
		tok->type = T_TERM;
		tok->num = (uint64_t)m.sym;
		break;
	case R_CFG_RAW:
	case R_RAW:
		tok->type = T_RAW;
		tok->num = parse_number(p + 1, m.len - 1, 16, &ok);
		break;
	case R_NAME_MINUS:
		tok->type = T_NAME;
		break;
	case R_CFG_UNSUPPORTED:
		tok->type = T_ERROR;
		break;
	case R_BP:
		tok->type = T_MODIFIER_BP;
		break;
	case R_MEM_DEC:
	case R_DEC:
		tok->type = T_VALUE;
		tok->num = parse_number(p, m.len, 10, &ok);
		break;
	case R_MEM_HEX:
	case R_HEX:
		tok->type = T_VALUE;
		tok->num = parse_number(p, m.len, 16, &ok);
		break;
	case R_SYM:
		tok->type = m.sym;
		tok->num = m.config;
		break;
	case R_KERNEL_PMU:
		tok->type = T_KERNEL_PMU_EVENT;
		break;
	case R_CACHE_TYPE:
		tok->type = T_CACHE_TYPE;
		break;
	case R_CACHE_OP_RESULT:
		tok->type = T_CACHE_OP_RESULT;
		break;
	case R_MEM_PREFIX:
		tok->type = T_PREFIX_MEM;
		lx->state = ST_MEM;
		break;
	case R_MODIFIER:
		tok->type = T_MODIFIER_EVENT;
		break;
	case R_NAME:
		tok->type = classify_name(p, m.len);
		break;
	default:
		tok->type = T_ERROR;
		break;
	}
	if (!ok)
		tok->type = T_ERROR;
	return true;

eof:
	tok->type = T_EOF;
	tok->len = 0;
	tok->first = lx->first;
	tok->last = lx->last;
	return true;
}

int pe_lex(const char *str, enum lex_start start, struct token **toks)
{
	struct lexer lx = {
		.s = str,
		.state = start == LEX_EVENTS ? ST_EVENT : ST_CONFIG,
		.first = 1,
		.last = 1,
	};
	int n = 0, alloc = 16;

	*toks = xmalloc(alloc * sizeof(**toks));
	for (;;) {
		struct token tok;

		if (!lex_step(&lx, &tok))
			continue;
		if (n == alloc)
			*toks = xrealloc(*toks, (alloc *= 2) * sizeof(**toks));
		(*toks)[n++] = tok;
		if (tok.type == T_EOF)
			return n;
	}
}
