/* probe-spec: the grammar of `pcl probe` definitions, as perf 6.1 reads them.
 *
 *   [[GROUP:]EVENT=]FUNC[@SRC][+OFF|%return|:RLN|;LAZY] [[NAME=]ARG ...]
 *   [[GROUP:]EVENT=]SRC:ALN | SRC;LAZY [[NAME=]ARG ...]
 *
 * An ARG is a C expression on a variable (VAR, VAR->FIELD, VAR.FIELD,
 * VAR[IDX], chained), $retval/$params/$vars/$stack, or a raw tracefs fetch
 * argument (%reg, +OFF(%reg), @sym, ...), each with an optional :TYPE.
 * Parsing knows nothing of DWARF; probe-dwarf turns a spec into addresses.
 */
#ifndef PCL_PROBE_SPEC_H
#define PCL_PROBE_SPEC_H

#include <stdbool.h>
#include <stddef.h>

struct probe_field {
	char *name;	/* member name; NULL for an index */
	bool ref;   /* reached through "->" */
	long index;	/* for "[IDX]" */
	char *text;	/* "[IDX]" as written ("[0x1]"); NULL for a member */
};

struct probe_arg {
	char *name;	/* NAME= given, or the last member's name; NULL: none */
	char *var;  /* variable, $special, or the raw fetch argument */
	char *type;	/* after ':', NULL when none */
	struct probe_field *fields;
	int nr_fields;
	bool raw;   /* not a C expression: passed to tracefs as written */
	bool named;	/* NAME= was written */
	bool user_access;	/* "@user": dereferences read user memory */
};

struct probe_point {
	char *function;
	char *file;    /* @SRC, or SRC of SRC:ALN / SRC;LAZY */
	char *lazy;    /* ;LAZY pattern */
	int line;	/* :RLN (relative, with function) or :ALN (absolute) */
	bool has_line;	/* a line other than 0 */
	unsigned long offset;	/* +OFF */
	bool retprobe;	      /* %return */
	bool absolute;	/* FUNC is "0xADDR": an address in the binary */
	unsigned long long address;
};

struct probe_spec {
	char *group, *event;	/* NULL when not given */
	struct probe_point point;
	struct probe_arg *args;
	int nr_args;
	bool sdt;	/* %[PROVIDER:]NAME or sdt_PROVIDER:NAME */
};

/* Parses one definition (the words of `-a`, joined by spaces).  Returns 0,
 * or -1 with perf's "Semantic error" text (without the prefix) in err. */
int probe_spec__parse(struct probe_spec *spec, const char *text, char *err, size_t errlen);
void probe_spec__exit(struct probe_spec *spec);

/* Parses one argument; used by probe_spec__parse and the tests. */
int probe_arg__parse(struct probe_arg *arg, const char *text, char *err, size_t errlen);
void probe_arg__exit(struct probe_arg *arg);

/* Whether the argument is a tracefs special ($retval, $stack, $stackN,
 * $comm, $argN, ...) passed as written: not $params nor $vars. */
bool probe_arg__is_special(const struct probe_arg *arg);

/* A raw or special argument as tracefs gets it: "[NAME=]TEXT[:TYPE]";
 * caller frees. */
char *probe_arg__as_written(const struct probe_arg *arg);

/* Whether the argument names C variables (DWARF needed). */
bool probe_arg__is_c_expr(const struct probe_arg *arg);

/* Whether resolving the spec needs debug information (lines, lazy
 * patterns, files, C variables); without, a symbol and offset do. */
bool probe_spec__needs_dwarf(const struct probe_spec *spec);

/* The probe point as perf writes it after "on " ("work%return",
 * "work+4", "@probe_prog.c:21", "work@probe_prog.c"); caller frees. */
char *probe_spec__point_text(const struct probe_spec *spec);
/* The probe point as perf -v logs it once parsed ("symbol:work
 * file:(null) line:0 offset:4 return:0 lazy:(null)"); caller frees. */
char *probe_point__debug_text(const struct probe_point *pp);
/* One argument as perf -v logs it once parsed ("name:a type:u32 p, x(1)":
 * each field with whether it is reached through a pointer); caller
 * frees. */
char *probe_arg__debug_text(const struct probe_arg *arg);
/* One argument as perf lists it after "with " ("x=p->x", "n:u8"); caller
 * frees. */
char *probe_arg__text(const struct probe_arg *arg);

/* The tracefs field name of an argument without one: "n:u8" -> "n_u8"
 * (perf's synthesized names); caller frees. */
char *probe_arg__field_name(const struct probe_arg *arg);

#endif
