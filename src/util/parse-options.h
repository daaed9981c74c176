/* parse-options: one table per command describes its options; the same
 * table drives parsing and the -h/--help usage text (the git/perf model).
 *
 * Supported habits: bundled short options (-ag), --opt=v and --opt v,
 * -Xv and -X v, repeatable options (through callbacks), optional arguments
 * (OPT_OPTARG: only attached values count, "-g" vs "-gfp" / "--call-graph=fp"),
 * negation (--no-opt, and --opt for an option declared as --no-opt),
 * unique-prefix long options, and "--" / first non-option stopping.
 * --list-opts prints the long options for shell completion (exit 130, as perf).
 */
#ifndef PCL_PARSE_OPTIONS_H
#define PCL_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum opt_type {
	OPT_END_T,
	OPT_GROUP_T,	/* a heading line in the usage text */
	OPT_BOOL_T,	/* bool *: true, or false with --no- */
	OPT_INCR_T,	/* int *: +1 each time (-v -v, -dd), 0 with --no- */
	OPT_INT_T,	/* int * */
	OPT_UINT_T,	/* unsigned int * */
	OPT_U64_T,	/* uint64_t * */
	OPT_STRING_T,	/* const char **: last one wins */
	OPT_CALLBACK_T,	/* cb(opt, arg, unset) */
	OPT_SET_INT_T,	/* int *: set to defval */
};

enum {
	OPTF_OPTARG = 1,	/* argument is optional and must be attached */
	OPTF_NOARG = 2,		/* callback takes no argument */
	OPTF_NONEG = 4,		/* --no-X is refused */
	OPTF_HIDDEN = 8,	/* not shown in usage */
	OPTF_LASTARG_DEFAULT = 16,	/* with OPTARG: the next argument is the value,
					 * the default when none follows or the next
					 * is an option or "-" (perf's
					 * "-g caller") */
	OPTF_EXCLUSIVE = 32,	/* refused after another OPTF_EXCLUSIVE one */
	OPTF_INHERITED = 64,	/* perf's OPT_PARENT options: parsed, but neither
				 * shown in usage nor listed by --list-opts */
};

struct option;
typedef int (*opt_cb)(const struct option *opt, const char *arg, bool unset);

struct option {
	enum opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* shown as <argh> in usage */
	const char *help;
	int flags;
	opt_cb callback;
	intptr_t defval;	/* OPT_SET_INT value; OPTARG default for ints */
	const char *defstr;	/* OPTARG default passed to callbacks/strings */
};

#define OPT_END() { .type = OPT_END_T }
#define OPT_GROUP(h) { .type = OPT_GROUP_T, .help = (h) }
#define OPT_BOOLEAN(s, l, v, h) { .type = OPT_BOOL_T, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_INCR(s, l, v, h) { .type = OPT_INCR_T, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_INTEGER(s, l, v, h) { .type = OPT_INT_T, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_UINTEGER(s, l, v, h) { .type = OPT_UINT_T, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_U64(s, l, v, h) { .type = OPT_U64_T, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_STRING(s, l, v, a, h) { .type = OPT_STRING_T, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING_OPTARG(s, l, v, a, h, d) { .type = OPT_STRING_T, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .flags = OPTF_OPTARG, .defstr = (d) }
#define OPT_CALLBACK(s, l, v, a, h, f) { .type = OPT_CALLBACK_T, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f) }
/* an OPT_CALLBACK refused after another OPTF_EXCLUSIVE option (perf's commands of a command) */
#define OPT_CALLBACK_EXCLUSIVE(s, l, v, a, h, f) { .type = OPT_CALLBACK_T, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f), .flags = OPTF_EXCLUSIVE }
#define OPT_CALLBACK_NOOPT(s, l, v, h, f) { .type = OPT_CALLBACK_T, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .callback = (f), .flags = OPTF_NOARG }
#define OPT_CALLBACK_OPTARG(s, l, v, a, h, f, d) { .type = OPT_CALLBACK_T, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f), .flags = OPTF_OPTARG, .defstr = (d) }
#define OPT_SET_INT(s, l, v, h, i) { .type = OPT_SET_INT_T, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .defval = (i) }

enum {
	PARSE_OPT_STOP_AT_NON_OPTION = 1,	/* workload starts at first non-option */
	PARSE_OPT_KEEP_DASHDASH = 2,
};

/*
 * Parses argv[1..argc-1] (argv[0] is the command name).  Returns the number
 * of leftover arguments, moved to the front of argv.  On -h/--help prints the
 * usage and exits PCL_EXIT_USAGE (129); on a bad option prints "Error: ..."
 * and the usage to stderr and exits PCL_EXIT_USAGE (perf's behaviour).
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const usage[], int flags);

/* Prints the usage text built from the table to stderr. */
void usage_with_options_msg(const char *const usage[], const struct option *opts);

/*
 * perf's short usage after a semantic error: the usage lines (when usage is
 * not NULL), then the help line of the option(s) named — a short option
 * when is_short, else every long option starting with name.
 */
void parse_options_usage(const char *const usage[], const struct option *opts,
			 const char *name, bool is_short);

/* Prints the usage and exits with 129, as perf's -h does. */
void usage_with_options(const char *const usage[], const struct option *opts)
	__attribute__((noreturn));

/* Usage error with a message ("  Error: ..."), then usage, exit 129. */
void usage_error(const char *const usage[], const struct option *opts,
		 const char *fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));

#endif
