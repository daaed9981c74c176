/* parse-events internals shared by parse-events*.c (not for commands).
 *
 * The event string is cut into tokens exactly where perf 6.1's scanner cuts
 * it, and each token records the scanner's location pair (first = where this
 * token starts, last = where the token before it started, counted the way
 * perf's scanner counts, rewinds included).  perf reports a syntax error at
 * the "last" column of the token it could not take, and semantic errors at
 * the "first" column of the token they concern; keeping both lets pcl put
 * the caret on the same character.
 */
#ifndef PCL_PARSE_EVENTS_INT_H
#define PCL_PARSE_EVENTS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/events/evsel.h"
#include "core/events/parse-events.h"

/* Punctuation tokens are their own character: / - , : { } = */
enum token_type {
	T_EOF = 0,
	T_EVENT_NAME = 256,	/* the whole text of one event, ahead of its tokens */
	T_VALUE_SYM_HW,		/* num: PERF_COUNT_HW_* */
	T_VALUE_SYM_SW,		/* num: PERF_COUNT_SW_* */
	T_VALUE_SYM_TOOL,	/* num: enum tool_event */
	T_KERNEL_PMU_EVENT,	/* a sysfs PMU event name (tsc), or cycles-t & co */
	T_PMU_EVENT_PRE,	/* "a" of a sysfs event "a-b[-c]" */
	T_PMU_EVENT_SUF,	/* "b" */
	T_PMU_EVENT_SUF2,	/* "c" */
	T_CACHE_TYPE,		/* L1-dcache, LLC, dTLB, ... */
	T_CACHE_OP_RESULT,	/* load, stores, misses, ... */
	T_PREFIX_MEM,		/* "mem:" */
	T_RAW,			/* rNNNN; num: the value */
	T_VALUE,		/* decimal or 0x hex; num: the value */
	T_MODIFIER_EVENT,	/* ukhpPGHSDIWeb */
	T_MODIFIER_BP,		/* rwx of a breakpoint */
	T_NAME,
	T_TERM,			/* a built-in term name; num: enum term_type */
	T_ERROR,		/* a number too big, or text pcl does not take */
};

struct token {
	int type;
	int start, len;		/* bytes of the string */
	uint64_t num;
	int first, last;	/* scanner columns, see above */
};

enum lex_start { LEX_EVENTS, LEX_TERMS };

/* Tokenizes str; returns the count (the last one is T_EOF). */
int pe_lex(const char *str, enum lex_start start, struct token **toks);

/* Built-in terms, in perf's order (the "valid terms:" lists follow it). */
enum term_type {
	TERM_USER,		/* a PMU format or event name */
	TERM_CONFIG, TERM_CONFIG1, TERM_CONFIG2, TERM_NAME, TERM_PERIOD,
	TERM_FREQ, TERM_BRANCH_TYPE, TERM_TIME, TERM_CALLGRAPH, TERM_STACKSIZE,
	TERM_NOINHERIT, TERM_INHERIT, TERM_MAX_STACK, TERM_NR, TERM_NOOVERWRITE,
	TERM_OVERWRITE, TERM_DRV_CFG, TERM_PERCORE, TERM_AUX_OUTPUT,
	TERM_AUX_SAMPLE_SIZE, TERM_METRIC_ID,
	TERM_MAX,
};
extern const char *const term_names[TERM_MAX];

struct term {
	enum term_type type;
	char *config;		/* the name as written (TERM_USER) */
	bool is_str;
	uint64_t num;
	char *str;
	int err_term, err_val;	/* columns to blame */
};

struct terms {
	struct term *v;
	int n;
};

void terms__add(struct terms *terms, const struct term *t);
void terms__copy(struct terms *dst, const struct terms *src);
void terms__exit(struct terms *terms);
/* Parses "event=0x3c,umask=0x00" (a sysfs alias); -1 if malformed. */
int terms__parse(const char *str, struct terms *terms);

/* Which built-in terms an event kind takes. */
enum term_check { CHECK_COMMON, CHECK_PMU, CHECK_TRACEPOINT };
/* Applies and checks the built-in terms (perf's config_attr). */
int terms__config_attr(const struct terms *terms, struct perf_event_attr *attr,
		       enum term_check check, struct parse_events_error *err);
/* Copies the per-event term values (period, call-graph, ...) into evsel. */
void terms__apply(const struct terms *terms, struct evsel *evsel);
/* The name= term's value, or NULL. */
const char *terms__name(const struct terms *terms);
/* "valid terms: EXTRA,config,config1,..." (extra may be NULL). */
char *terms__valid_help(const char *extra);

/* Records an error (takes str and help); see struct parse_events_error. */
void pe_error(struct parse_events_error *err, int idx, char *str, char *help);

#endif
