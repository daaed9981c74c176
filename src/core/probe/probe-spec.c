/* probe-spec: parsing `pcl probe` definitions into a struct probe_spec.
 * The error texts are the ones perf prints after "Semantic error :". */
#include "core/probe/probe-spec.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/util.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_c_name(const char *s, size_t len)
{
	if (!len || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* A number filling [s, end) as strtoul reads it (base 0: "0x10" too; an
 * empty one is 0, a negative one wraps), as perf takes lines and offsets. */
static bool parse_number(const char *s, const char *end, unsigned long *value)
{
	char *copy = xstrndup(s, end - s), *stop;
	bool ok;

	*value = strtoul(copy, &stop, 0);
	ok = !*stop;
	free(copy);
	return ok;
}

/* "[[GROUP:]EVENT=]" at the start of text: returns where the point starts. */
static const char *parse_event_name(struct probe_spec *spec, const char *text, char *err,
				    size_t errlen)
{
	const char *eq = strpbrk(text, ";=@+%");

	if (!eq || *eq != '=')
		return text;
	const char *colon = memchr(text, ':', eq - text);
	const char *event = colon ? colon + 1 : text;

	if (!is_c_name(event, eq - event)) {
		fail(err, errlen,
		     "%.*s is bad for event name -it must follow C symbol-naming rule.",
		     (int)(eq - event), event);
		return NULL;
	}
	if (colon) {
		if (!is_c_name(text, colon - text)) {
			fail(err, errlen,
			     "%.*s is bad for event name -it must follow C symbol-naming rule.",
			     (int)(colon - text), text);
			return NULL;
		}
		spec->group = xstrndup(text, colon - text);
	}
	spec->event = xstrndup(event, eq - event);
	return eq + 1;
}

static int parse_point(struct probe_spec *spec, const char *text, char *err, size_t errlen)
{
	struct probe_point *pp = &spec->point;
	const char *sep = strpbrk(text, ";:+@%");
	size_t len = sep ? (size_t)(sep - text) : strlen(text);

	if (len) {
		/* "SRC:ALN" and "SRC;LAZY" start with a file name, anything else
		 * with a function */
		if (sep && (*sep == ':' || *sep == ';') && memchr(text, '.', len))
			pp->file = xstrndup(text, len);
		else
			pp->function = xstrndup(text, len);
	}
	if (pp->function && str_starts_with(pp->function, "0x")) {
		char *stop;

		pp->address = strtoull(pp->function, &stop, 0);
		if (*stop)
			return fail(err, errlen, "Invalid absolute address.");
		pp->absolute = true;
	}
	bool has_offset = false;

	while (sep) {
		char kind = *sep++;
		const char *next = kind == ';' ? NULL : strpbrk(sep, ";:+@%");
		const char *end = next ? next : sep + strlen(sep);
		unsigned long value;

		switch (kind) {
		case ';':
			pp->lazy = xstrdup(sep);
			end = sep + strlen(sep);
			break;
		case ':':
			if (!parse_number(sep, end, &value))
				return fail(err, errlen, "There is non-digit char in line number.");
			/* perf keeps an int: line 0 is no line at all */
			pp->line = (int)value;
			pp->has_line = pp->line != 0;
			break;
		case '+':
			if (!parse_number(sep, end, &value))
				return fail(err, errlen, "There is non-digit character in offset.");
			/* an offset of 0 is none, as for perf */
			pp->offset = value;
			has_offset = value != 0;
			break;
		case '@':
			if (pp->file)
				return fail(err, errlen, "SRC@SRC is not allowed.");
			pp->file = xstrndup(sep, end - sep);
			break;
		case '%':
			if ((size_t)(end - sep) != 6 || strncmp(sep, "return", 6))
				return fail(err, errlen, "%%%.*s is not supported.",
					    (int)(end - sep), sep);
			pp->retprobe = true;
			break;
		}
		sep = next;
	}
	if (pp->lazy && pp->has_line)
		return fail(err, errlen, "Lazy pattern can't be used with line number.");
	if (pp->lazy && has_offset)
		return fail(err, errlen, "Lazy pattern can't be used with offset.");
	if (pp->has_line && has_offset)
		return fail(err, errlen, "Offset can't be used with line number.");
	if (!pp->has_line && !pp->lazy && pp->file && !pp->function)
		return fail(err, errlen, "File always requires line number or lazy pattern.");
	if (has_offset && !pp->function)
		return fail(err, errlen, "Offset requires an entry function.");
	if (pp->retprobe && (has_offset || pp->has_line || pp->lazy))
		return fail(err, errlen,
			    "Offset/Line/Lazy pattern can't be used with return probe.");
	if (pp->retprobe && !pp->function)
		return fail(err, errlen, "Return probe requires an entry function.");
	return 0;
}

/* "VAR->a.b[2]": the chain after the variable name (expr is the whole
 * expression: perf's errors quote it from the component at fault). */
static int parse_fields(struct probe_arg *arg, const char *expr, const char *s, char *err,
			size_t errlen)
{
	const char *component = expr;	/* where the last component started */

	while (*s) {
		struct probe_field field = { 0 };

		if (*s == '[') {
			char *stop;

			/* perf reads the index as strtol does, and shows it as written */
			field.index = strtol(s + 1, &stop, 0);
			if (stop == s + 1 || *stop != ']')
				return fail(err, errlen, "Array index must be a number.");
			field.text = xstrndup(s, stop + 1 - s);
			component = s;
			s = stop + 1;
		} else {
			if (s[0] == '-' && s[1] == '>') {
				field.ref = true;
				s += 2;
			} else if (*s == '.') {
				s++;
			} else {
				return fail(err, errlen, "Argument parse error: %s", component);
			}
			size_t len = strcspn(s, ".-[");

			component = s;
			field.name = xstrndup(s, len);
			s += len;
		}
		arg->fields = xrealloc(arg->fields, (arg->nr_fields + 1) * sizeof(*arg->fields));
		arg->fields[arg->nr_fields++] = field;
	}
	return 0;
}

static int parse_expression(struct probe_arg *arg, const char *s, char *err, size_t errlen);

int probe_arg__parse(struct probe_arg *arg, const char *text, char *err, size_t errlen)
{
	const char *s = text;
	const char *eq = strchr(s, '=');

	memset(arg, 0, sizeof(*arg));
	/* perf takes whatever stands before the first '=' for the name */
	if (eq) {
		arg->name = xstrndup(s, eq - s);
		arg->named = true;
		s = eq + 1;
	}
	/* "EXPR@user": what it points to is in user memory */
	const char *at = strchr(s, '@');
	char *plain = NULL;

	if (at && at != s && !strcmp(at + 1, "user")) {
		arg->user_access = true;
		s = plain = xstrndup(s, at - s);
	}
	int ret = parse_expression(arg, s, err, errlen);

	free(plain);
	return ret;
}

/* An argument's expression, after its name and "@user". */
static int parse_expression(struct probe_arg *arg, const char *s, char *err, size_t errlen)
{
	if (!(isalpha((unsigned char)*s) || *s == '_' || *s == '$')) {
		/* a raw fetch argument keeps its type in its text */
		arg->raw = true;
		arg->var = xstrdup(s);
		return 0;
	}
	const char *colon = strchr(s, ':');
	size_t expr_len = colon ? (size_t)(colon - s) : strlen(s);

	if (colon)
		arg->type = xstrdup(colon + 1);
	/* "$name" is no C variable: no members, as in perf */
	size_t var_len = *s == '$' ? expr_len : strcspn(s, ".-[:");

	if (var_len > expr_len)
		var_len = expr_len;
	arg->var = xstrndup(s, var_len);
	char *expr = xstrndup(s, expr_len);
	int ret = parse_fields(arg, expr, expr + var_len, err, errlen);

	free(expr);
	if (ret)
		return ret;
	/* perf names a member access after its last member */
	if (!arg->name && arg->nr_fields) {
		const char *last = arg->var;

		for (int i = 0; i < arg->nr_fields; i++)
			if (arg->fields[i].name)
				last = arg->fields[i].name;
		arg->name = xstrdup(last);
	}
	return 0;
}

void probe_arg__exit(struct probe_arg *arg)
{
	for (int i = 0; i < arg->nr_fields; i++) {
		free(arg->fields[i].name);
		free(arg->fields[i].text);
	}
	free(arg->fields);
	free(arg->name);
	free(arg->var);
	free(arg->type);
	memset(arg, 0, sizeof(*arg));
}

static int parse_sdt(struct probe_spec *spec, const char *text)
{
	const char *colon = strchr(text, ':');

	spec->sdt = true;
	if (colon) {
		spec->group = str_starts_with(text, "sdt_")
				      ? xstrndup(text, colon - text)
				      : xasprintf("sdt_%.*s", (int)(colon - text), text);
		spec->event = xstrdup(colon + 1);
	} else {
		spec->event = xstrdup(text);
	}
	return 0;
}

int probe_spec__parse(struct probe_spec *spec, const char *text, char *err, size_t errlen)
{
	memset(spec, 0, sizeof(*spec));
	char *copy = xstrdup(text);
	char *save = NULL;
	char *point = strtok_r(copy, " \t", &save);
	int ret = -1;

	if (!point) {
		/* perf says nothing of an empty definition but its usage */
		fail(err, errlen, "%s", "");
		goto out;
	}
	if (point[0] == '%' || (str_starts_with(point, "sdt_") && strchr(point, ':') &&
				!strchr(point, '='))) {
		const char *name = point + (point[0] == '%');
		const char *bad = strpbrk(name, ";=@+%");

		/* "@TARGET" may follow a marker's name, nothing else */
		if (bad && *bad != '@')
			fail(err, errlen, "%s must be an SDT name.", name);
		else
			ret = parse_sdt(spec, name);
	} else {
		const char *rest = parse_event_name(spec, point, err, errlen);

		ret = rest ? parse_point(spec, rest, err, errlen) : -1;
	}
	for (char *word; !ret && (word = strtok_r(NULL, " \t", &save));) {
		struct probe_arg arg;

		ret = probe_arg__parse(&arg, word, err, errlen);
		spec->args = xrealloc(spec->args, (spec->nr_args + 1) * sizeof(*spec->args));
		spec->args[spec->nr_args++] = arg;
	}
	if (!ret && spec->point.retprobe)
		for (int i = 0; i < spec->nr_args; i++)
			if (!spec->args[i].raw && spec->args[i].var[0] != '$') {
				ret = fail(err, errlen,
					   "You can't specify local variable for kretprobe.");
				break;
			}
out:
	free(copy);
	if (ret)
		probe_spec__exit(spec);
	return ret;
}

void probe_spec__exit(struct probe_spec *spec)
{
	for (int i = 0; i < spec->nr_args; i++)
		probe_arg__exit(&spec->args[i]);
	free(spec->args);
	free(spec->group);
	free(spec->event);
	free(spec->point.function);
	free(spec->point.file);
	free(spec->point.lazy);
	memset(spec, 0, sizeof(*spec));
}

bool probe_arg__is_special(const struct probe_arg *arg)
{
	return !arg->raw && arg->var[0] == '$' && strcmp(arg->var, "$params") &&
	       strcmp(arg->var, "$vars");
}

bool probe_arg__is_c_expr(const struct probe_arg *arg)
{
	return !arg->raw && !probe_arg__is_special(arg);
}

char *probe_arg__as_written(const struct probe_arg *arg)
{
	return xasprintf("%s%s%s%s%s", arg->named ? arg->name : "", arg->named ? "=" : "", arg->var,
			 arg->type ? ":" : "", arg->type ? arg->type : "");
}

bool probe_spec__needs_dwarf(const struct probe_spec *spec)
{
	const struct probe_point *pp = &spec->point;

	if (pp->file || pp->lazy || pp->has_line)
		return true;
	for (int i = 0; i < spec->nr_args; i++)
		if (probe_arg__is_c_expr(&spec->args[i]))
			return true;
	return false;
}

static const char *or_null(const char *s)
{
	return s ? s : "(null)";
}

char *probe_point__debug_text(const struct probe_point *pp)
{
	return xasprintf("symbol:%s file:%s line:%d offset:%lu return:%d lazy:%s",
			 or_null(pp->function), or_null(pp->file), pp->line, pp->offset,
			 pp->retprobe, or_null(pp->lazy));
}

char *probe_arg__debug_text(const struct probe_arg *arg)
{
	struct strbuf sb = STRBUF_INIT;
	/* a raw argument's type is in its text: perf parsed it apart */
	const char *colon = arg->raw ? strchr(arg->var, ':') : NULL;

	if (arg->named)
		strbuf_addf(&sb, "name:%s ", arg->name);
	if (arg->user_access)
		strbuf_addstr(&sb, "user_access ");
	if (arg->type || colon)
		strbuf_addf(&sb, "type:%s ", colon ? colon + 1 : arg->type);
	strbuf_add(&sb, arg->var, colon ? (size_t)(colon - arg->var) : strlen(arg->var));
	/* an index counts as a dereference */
	for (int i = 0; i < arg->nr_fields; i++)
		strbuf_addf(&sb, ", %s(%d)",
			    arg->fields[i].name ? arg->fields[i].name : arg->fields[i].text,
			    arg->fields[i].name ? arg->fields[i].ref : 1);
	return strbuf_detach(&sb);
}

char *probe_spec__point_text(const struct probe_spec *spec)
{
	const struct probe_point *pp = &spec->point;
	struct strbuf sb = STRBUF_INIT;

	if (pp->function) {
		strbuf_addstr(&sb, pp->function);
		if (pp->offset)
			strbuf_addf(&sb, "+%lu", pp->offset);
		else if (pp->line)
			strbuf_addf(&sb, ":%d", pp->line);
		if (pp->retprobe)
			strbuf_addstr(&sb, "%return");
		if (pp->file)
			strbuf_addf(&sb, "@%s", pp->file);
	} else if (pp->file) {
		strbuf_addf(&sb, "@%s", pp->file);
		if (pp->has_line)
			strbuf_addf(&sb, ":%d", pp->line);
	}
	/* perf leaves the lazy pattern out */
	return strbuf_detach(&sb);
}

/* The expression part: "p->x", "vals[2]", "pt.name". */
static void add_expression(struct strbuf *sb, const struct probe_arg *arg)
{
	strbuf_addstr(sb, arg->var);
	for (int i = 0; i < arg->nr_fields; i++) {
		const struct probe_field *f = &arg->fields[i];

		if (!f->name)
			strbuf_addstr(sb, f->text);
		else
			strbuf_addf(sb, "%s%s", f->ref ? "->" : ".", f->name);
	}
	if (arg->type)
		strbuf_addf(sb, ":%s", arg->type);
}

char *probe_arg__text(const struct probe_arg *arg)
{
	struct strbuf sb = STRBUF_INIT;

	if (arg->name)
		strbuf_addf(&sb, "%s=", arg->name);
	add_expression(&sb, arg);
	return strbuf_detach(&sb);
}

char *probe_arg__field_name(const struct probe_arg *arg)
{
	struct strbuf sb = STRBUF_INIT;

	add_expression(&sb, arg);
	char *name = strbuf_detach(&sb);
	char *colon = strchr(name, ':');

	if (colon)
		*colon = '_';
	return name;
}
