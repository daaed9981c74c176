/* parse-options: table-driven command-line parsing with perf's habits.
 * See parse-options.h for the supported forms. */
#include "util/exit-codes.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE_HELP_COLUMN 26

static const struct option *cur_opts;
static const char *const *cur_usage;
static const struct option *cur_exclusive;	/* the OPTF_EXCLUSIVE option given */

static bool takes_arg(const struct option *o)
{
	switch (o->type) {
	case OPT_INT_T:
	case OPT_UINT_T:
	case OPT_U64_T:
	case OPT_STRING_T:
		return true;
	case OPT_CALLBACK_T:
		return !(o->flags & OPTF_NOARG);
	default:
		return false;
	}
}

static void opt_name(const struct option *o, bool as_short, char *buf, size_t len)
{
	if (as_short)
		snprintf(buf, len, "switch `%c'", o->short_name);
	else
		snprintf(buf, len, "option `%s'", o->long_name);
}

static int parse_number(const struct option *o, const char *arg, bool as_short)
{
	char name[128], *end;

	opt_name(o, as_short, name, sizeof(name));
	errno = 0;
	if (o->type == OPT_INT_T) {
		long v = strtol(arg, &end, 0);
		if (*arg == '\0' || *end || errno) {
			fprintf(stderr, " Error: %s expects a numerical value", name);
			return -1;
		}
		*(int *)o->value = (int)v;
	} else {
		unsigned long long v;
		if (*arg == '-') {
			fprintf(stderr, " Error: %s expects an unsigned numerical value", name);
			return -1;
		}
		v = strtoull(arg, &end, 0);
		if (*arg == '\0' || *end || errno) {
			fprintf(stderr, " Error: %s expects a numerical value", name);
			return -1;
		}
		if (o->type == OPT_UINT_T)
			*(unsigned int *)o->value = (unsigned int)v;
		else
			*(uint64_t *)o->value = v;
	}
	return 0;
}

/* A second OPTF_EXCLUSIVE option: perf's complaint naming both, and the
 * usage of the two. */
static void __attribute__((noreturn)) exclusive_error(const struct option *o, bool unset,
							bool as_short)
{
	const struct option *first = cur_exclusive;
	bool first_short = (as_short && first->short_name) || !first->long_name;
	char first_name[2] = { (char)first->short_name, 0 }, own_name[2] = { (char)o->short_name, 0 };

	if (as_short)
		fprintf(stderr, " Error: switch `%c'", o->short_name);
	else
		fprintf(stderr, " Error: option `%s%s'", unset ? "no-" : "", o->long_name);
	if (first_short)
		fprintf(stderr, " cannot be used with switch `%c'\n", first->short_name);
	else
		fprintf(stderr, " cannot be used with %s\n", first->long_name);
	/* perf's usage lines here come without the blank line before them,
	 * and its --no-X names no option */
	fprintf(stderr, " Usage: %s\n", cur_usage[0]);
	for (size_t i = 1; cur_usage[i]; i++)
		fprintf(stderr, "    or: %s\n", cur_usage[i]);
	fputc('\n', stderr);
	if (!unset)
		parse_options_usage(NULL, cur_opts, as_short ? own_name : o->long_name, as_short);
	parse_options_usage(NULL, cur_opts, first_short ? first_name : first->long_name,
			    first_short);
	exit(PCL_EXIT_USAGE);
}

/*
 * Applies one option.  'arg' is the attached/next argument (NULL if none);
 * returns -1 on error (message printed), else 0.
 */
static int apply(const struct option *o, const char *arg, bool unset, bool as_short)
{
	char name[128];

	opt_name(o, as_short, name, sizeof(name));
	if (unset && (o->flags & OPTF_NONEG)) {
		fprintf(stderr, " Error: option `no-%s' isn't available", o->long_name);
		return -1;
	}
	if (o->flags & OPTF_EXCLUSIVE) {
		if (cur_exclusive && cur_exclusive != o)
			exclusive_error(o, unset, as_short);
		cur_exclusive = o;
	}
	switch (o->type) {
	case OPT_BOOL_T:
		*(bool *)o->value = !unset;
		return 0;
	case OPT_INCR_T:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return 0;
	case OPT_SET_INT_T:
		*(int *)o->value = unset ? 0 : (int)o->defval;
		return 0;
	case OPT_STRING_T:
		if (unset)
			*(const char **)o->value = NULL;
		else
			*(const char **)o->value = arg ? arg : o->defstr;
		return 0;
	case OPT_INT_T:
	case OPT_UINT_T:
	case OPT_U64_T:
		if (unset) {
			if (o->type == OPT_INT_T)
				*(int *)o->value = 0;
			else if (o->type == OPT_UINT_T)
				*(unsigned int *)o->value = 0;
			else
				*(uint64_t *)o->value = 0;
			return 0;
		}
		return parse_number(o, arg, as_short);
	case OPT_CALLBACK_T:
		if (!unset && !arg && (o->flags & OPTF_OPTARG))
			arg = o->defstr;
		return o->callback(o, unset ? NULL : arg, unset) ? -1 : 0;
	default:
		return -1;
	}
}

static const struct option *find_short(const struct option *opts, int c)
{
	for (const struct option *o = opts; o->type != OPT_END_T; o++)
		if (o->type != OPT_GROUP_T && o->short_name == c)
			return o;
	return NULL;
}

/*
 * Finds a long option by exact name or unique prefix, honouring "no-"
 * negation in both directions.  *unset is set when the spelling negates.
 */
static const struct option *find_long(const struct option *opts, const char *name,
				      size_t len, bool *unset, bool *ambiguous)
{
	const struct option *abbrev = NULL;
	bool abbrev_unset = false;
	int nabbrev = 0;

	*ambiguous = false;
	for (const struct option *o = opts; o->type != OPT_END_T; o++) {
		const char *ln = o->long_name;
		if (o->type == OPT_GROUP_T || !ln)
			continue;
		/* exact matches first */
		if (strlen(ln) == len && !strncmp(ln, name, len)) {
			*unset = false;
			return o;
		}
		if (len > 3 && !strncmp(name, "no-", 3) && strlen(ln) == len - 3 &&
		    !strncmp(ln, name + 3, len - 3)) {
			*unset = true;
			return o;
		}
		/* "--inherit" for an option spelled "--no-inherit" */
		if (!strncmp(ln, "no-", 3) && strlen(ln + 3) == len && !strncmp(ln + 3, name, len)) {
			*unset = true;
			return o;
		}
		if (strlen(ln) > len && !strncmp(ln, name, len)) {
			nabbrev++;
			abbrev = o;
			abbrev_unset = false;
		} else if (len > 3 && !strncmp(name, "no-", 3) && strlen(ln) > len - 3 &&
			   !strncmp(ln, name + 3, len - 3)) {
			nabbrev++;
			abbrev = o;
			abbrev_unset = true;
		}
	}
	if (nabbrev > 1) {
		*ambiguous = true;
		return NULL;
	}
	*unset = abbrev_unset;
	return abbrev;
}

static int cmp_opts(const void *a, const void *b)
{
	const struct option *x = *(const struct option *const *)a;
	const struct option *y = *(const struct option *const *)b;

	if (x->short_name && y->short_name) {
		int lx = tolower(x->short_name), ly = tolower(y->short_name);
		if (lx != ly)
			return lx - ly;
		/* -a/-A: perf breaks the tie on the long names */
		return strcmp(x->long_name ? x->long_name : "", y->long_name ? y->long_name : "");
	}
	if (x->short_name || y->short_name)
		return x->short_name ? -1 : 1;
	return strcmp(x->long_name ? x->long_name : "", y->long_name ? y->long_name : "");
}

static void print_option(FILE *f, const struct option *o)
{
	int pos = fprintf(f, "    ");

	if (o->short_name)
		pos += fprintf(f, "-%c", o->short_name);
	else
		pos += fprintf(f, "    ");
	if (o->long_name)
		pos += fprintf(f, "%s--%s", o->short_name ? ", " : "", o->long_name);
	if (takes_arg(o) && o->argh) {
		/* a last-argument default takes a separate word, as perf shows */
		if ((o->flags & OPTF_OPTARG) && !(o->flags & OPTF_LASTARG_DEFAULT))
			pos += fprintf(f, o->long_name ? "[=<%s>]" : "[<%s>]", o->argh);
		else
			pos += fprintf(f, " <%s>", o->argh);
	}
	if (pos <= USAGE_HELP_COLUMN - 2)
		fprintf(f, "%*s%s\n", USAGE_HELP_COLUMN - pos, "", o->help ? o->help : "");
	else
		fprintf(f, "\n%*s%s\n", USAGE_HELP_COLUMN, "", o->help ? o->help : "");
}

void usage_with_options_msg(const char *const usage[], const struct option *opts)
{
	const struct option **sorted;
	size_t n = 0, start = 0;

	fprintf(stderr, "\n Usage: %s\n", usage[0]);
	for (size_t i = 1; usage[i]; i++)
		fprintf(stderr, "    or: %s\n", usage[i]);
	fputc('\n', stderr);

	for (const struct option *o = opts; o->type != OPT_END_T; o++)
		n++;
	sorted = calloc(n + 1, sizeof(*sorted));
	if (!sorted)
		return;
	/* Options sort within each group, as perf shows them. */
	for (size_t i = 0; i <= n; i++) {
		if (i == n || opts[i].type == OPT_GROUP_T) {
			size_t m = 0;
			for (size_t j = start; j < i; j++)
				if (!(opts[j].flags & (OPTF_HIDDEN | OPTF_INHERITED)))
					sorted[m++] = &opts[j];
			qsort(sorted, m, sizeof(*sorted), cmp_opts);
			for (size_t j = 0; j < m; j++)
				print_option(stderr, sorted[j]);
			if (i < n) {
				fprintf(stderr, "\n%s\n", opts[i].help);
				start = i + 1;
			}
		}
	}
	fputc('\n', stderr);
	free(sorted);
}

void usage_with_options(const char *const usage[], const struct option *opts)
{
	usage_with_options_msg(usage, opts);
	exit(PCL_EXIT_USAGE);
}

void usage_error(const char *const usage[], const struct option *opts, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "  Error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_with_options(usage, opts);
}

static void __attribute__((noreturn)) bad_option(void)
{
	usage_with_options_msg(cur_usage, cur_opts);
	exit(PCL_EXIT_USAGE);
}

/* A value an option refused: after the complaint (which, as perf's, ends
 * without a newline) the usage lines and that option's help alone; name is
 * the option as given (a long one with its "=value", matching nothing then,
 * as in perf). */
static void __attribute__((noreturn)) bad_value(const char *name, bool is_short)
{
	parse_options_usage(cur_usage, cur_opts, name, is_short);
	exit(PCL_EXIT_USAGE);
}

static void __attribute__((noreturn)) show_help(void)
{
	usage_with_options(cur_usage, cur_opts);
}

/* --list-opts, for shell completion: every long option in table order, as perf prints them */
static void __attribute__((noreturn)) list_long_options(void)
{
	for (const struct option *o = cur_opts; o->type != OPT_END_T; o++)
		if (o->type != OPT_GROUP_T && o->long_name && !(o->flags & OPTF_INHERITED))
			printf("--%s ", o->long_name);
	putchar('\n');
	exit(PCL_EXIT_LIST);
}

/* An option taking its argument only when one follows (perf's "last
 * argument default") takes its default before another option, or "-". */
static bool next_is_option(int i, int argc, const char **argv)
{
	return i + 1 >= argc || argv[i + 1][0] == '-';
}

static void handle_long(const char *arg, int *i, int argc, const char **argv)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	bool unset, ambiguous;
	const struct option *o;
	const char *val = NULL;

	if (len == 4 && !strncmp(arg, "help", 4))
		show_help();
	if (!strcmp(arg, "list-opts"))
		list_long_options();
	if (!strcmp(arg, "list-cmds")) {	/* the command has none here; see pcl.c */
		putchar('\n');
		exit(PCL_EXIT_LIST);
	}
	o = find_long(cur_opts, arg, len, &unset, &ambiguous);
	if (!o) {
		fprintf(stderr, "  Error: %s option `%.*s'\n",
			ambiguous ? "Ambiguous" : "unknown", (int)len, arg);
		bad_option();
	}
	if (eq) {
		if (!takes_arg(o) || unset) {
			fprintf(stderr, " Error: option `%s%s' takes no value", unset ? "no-" : "",
				o->long_name);
			bad_value(arg, false);
		}
		val = eq + 1;
	} else if (takes_arg(o) && !unset && (o->flags & OPTF_LASTARG_DEFAULT)) {
		if (!next_is_option(*i, argc, argv))
			val = argv[++*i];
	} else if (takes_arg(o) && !unset && !(o->flags & OPTF_OPTARG)) {
		if (*i + 1 >= argc) {
			fprintf(stderr, " Error: option `%s' requires a value", o->long_name);
			bad_value(arg, false);
		}
		val = argv[++*i];
	}
	if (apply(o, val, unset, false))
		bad_value(arg, false);
}

static void handle_short_cluster(const char *arg, int *i, int argc, const char **argv)
{
	for (const char *p = arg; *p; p++) {
		const struct option *o;

		if (*p == 'h' && !find_short(cur_opts, 'h'))
			show_help();
		o = find_short(cur_opts, *p);
		if (!o) {
			fprintf(stderr, "  Error: unknown switch `%c'\n", *p);
			bad_option();
		}
		if (!takes_arg(o)) {
			if (apply(o, NULL, false, true))
				bad_value(p, true);
			continue;
		}
		/* The rest of the cluster is the argument (-F99, -gdwarf). */
		if (p[1]) {
			if (apply(o, p + 1, false, true))
				bad_value(p, true);
			return;
		}
		if ((o->flags & OPTF_OPTARG) &&
		    (!(o->flags & OPTF_LASTARG_DEFAULT) || next_is_option(*i, argc, argv))) {
			if (apply(o, NULL, false, true))
				bad_value(p, true);
			return;
		}
		if (*i + 1 >= argc) {
			fprintf(stderr, " Error: switch `%c' requires a value", *p);
			bad_value(p, true);
		}
		if (apply(o, argv[++*i], false, true))
			bad_value(p, true);
		return;
	}
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const usage[], int flags)
{
	int out = 0, i;

	cur_opts = opts;
	cur_usage = usage;
	cur_exclusive = NULL;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (arg[0] != '-' || arg[1] == '\0') {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			if (flags & PARSE_OPT_KEEP_DASHDASH)
				argv[out++] = arg;
			i++;
			break;
		}
		if (arg[1] == '-')
			handle_long(arg + 2, &i, argc, argv);
		else
			handle_short_cluster(arg + 1, &i, argc, argv);
	}
	for (; i < argc; i++)
		argv[out++] = argv[i];
	argv[out] = NULL;
	return out;
}

void parse_options_usage(const char *const usage[], const struct option *opts,
			 const char *name, bool is_short)
{
	if (usage) {
		fprintf(stderr, "\n Usage: %s\n", usage[0]);
		for (size_t i = 1; usage[i]; i++)
			fprintf(stderr, "    or: %s\n", usage[i]);
		fputc('\n', stderr);
	}
	for (const struct option *o = opts; o->type != OPT_END_T; o++) {
		if (o->type == OPT_GROUP_T)
			continue;
		if (is_short) {
			if (o->short_name == *name) {
				print_option(stderr, o);
				break;
			}
			continue;
		}
		if (!o->long_name)
			continue;
		/* as perf's: a "no-X" name lists nothing */
		if (str_starts_with(o->long_name, name))
			print_option(stderr, o);
	}
}
