/* Unit tests for core/probe/probe-spec: every form of perf's probe grammar
 * and its semantic errors (texts as perf 6.1 prints them). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/probe/probe-spec.h"

static char err[256];

static struct probe_spec parse_ok(const char *text)
{
	struct probe_spec spec;

	err[0] = 0;
	if (probe_spec__parse(&spec, text, err, sizeof(err)))
		fail_msg("'%s': %s", text, err);
	return spec;
}

static void assert_error(const char *text, const char *message)
{
	struct probe_spec spec;

	err[0] = 0;
	assert_int_equal(probe_spec__parse(&spec, text, err, sizeof(err)), -1);
	assert_string_equal(err, message);
}

static void assert_point_text(const struct probe_spec *spec, const char *text)
{
	char *s = probe_spec__point_text(spec);

	assert_string_equal(s, text);
	free(s);
}

static void test_function(void **state)
{
	struct probe_spec spec = parse_ok("work");

	assert_string_equal(spec.point.function, "work");
	assert_null(spec.point.file);
	assert_null(spec.group);
	assert_null(spec.event);
	assert_false(spec.point.retprobe);
	assert_int_equal(spec.nr_args, 0);
	assert_false(probe_spec__needs_dwarf(&spec));
	assert_point_text(&spec, "work");
	probe_spec__exit(&spec);
}

static void test_return(void **state)
{
	struct probe_spec spec = parse_ok("work%return $retval");

	assert_string_equal(spec.point.function, "work");
	assert_true(spec.point.retprobe);
	assert_int_equal(spec.nr_args, 1);
	assert_string_equal(spec.args[0].var, "$retval");
	assert_false(spec.args[0].raw);
	assert_false(probe_spec__needs_dwarf(&spec));
	assert_point_text(&spec, "work%return");
	probe_spec__exit(&spec);
}

static void test_offset(void **state)
{
	struct probe_spec spec = parse_ok("work+0x10");

	assert_int_equal(spec.point.offset, 16);
	assert_point_text(&spec, "work+16");
	probe_spec__exit(&spec);
	spec = parse_ok("work+4");
	assert_int_equal(spec.point.offset, 4);
	probe_spec__exit(&spec);
}

static void test_relative_line(void **state)
{
	struct probe_spec spec = parse_ok("work:6");

	assert_string_equal(spec.point.function, "work");
	assert_true(spec.point.has_line);
	assert_int_equal(spec.point.line, 6);
	assert_true(probe_spec__needs_dwarf(&spec));
	assert_point_text(&spec, "work:6");
	probe_spec__exit(&spec);
}

static void test_absolute_line(void **state)
{
	struct probe_spec spec = parse_ok("probe_prog.c:21");

	assert_null(spec.point.function);
	assert_string_equal(spec.point.file, "probe_prog.c");
	assert_int_equal(spec.point.line, 21);
	assert_point_text(&spec, "@probe_prog.c:21");
	probe_spec__exit(&spec);
}

static void test_lazy(void **state)
{
	struct probe_spec spec = parse_ok("work;sum +=*");

	/* words split the definition, as in perf: "+=*" is an argument */
	assert_string_equal(spec.point.function, "work");
	assert_string_equal(spec.point.lazy, "sum");
	assert_int_equal(spec.nr_args, 1);
	probe_spec__exit(&spec);
	spec = parse_ok("work;x:3");
	assert_string_equal(spec.point.lazy, "x:3");
	probe_spec__exit(&spec);
	spec = parse_ok("probe_prog.c;counter*");
	assert_string_equal(spec.point.file, "probe_prog.c");
	assert_string_equal(spec.point.lazy, "counter*");
	probe_spec__exit(&spec);
}

static void test_function_at_file(void **state)
{
	struct probe_spec spec = parse_ok("work@probe_prog.c");

	assert_string_equal(spec.point.function, "work");
	assert_string_equal(spec.point.file, "probe_prog.c");
	assert_point_text(&spec, "work@probe_prog.c");
	probe_spec__exit(&spec);
}

static void test_event_names(void **state)
{
	struct probe_spec spec = parse_ok("myev=work n");

	assert_null(spec.group);
	assert_string_equal(spec.event, "myev");
	assert_string_equal(spec.point.function, "work");
	probe_spec__exit(&spec);
	spec = parse_ok("grp:ev=work%return");
	assert_string_equal(spec.group, "grp");
	assert_string_equal(spec.event, "ev");
	assert_true(spec.point.retprobe);
	probe_spec__exit(&spec);
}

static void test_sdt(void **state)
{
	struct probe_spec spec = parse_ok("%sdt_python:gc__start");

	assert_true(spec.sdt);
	assert_string_equal(spec.group, "sdt_python");
	assert_string_equal(spec.event, "gc__start");
	probe_spec__exit(&spec);
	spec = parse_ok("sdt_python:gc__start");
	assert_true(spec.sdt);
	assert_string_equal(spec.group, "sdt_python");
	probe_spec__exit(&spec);
	spec = parse_ok("%python:gc__done");
	assert_string_equal(spec.group, "sdt_python");
	probe_spec__exit(&spec);
}

static void test_point_errors(void **state)
{
	assert_error("work:3+4", "Offset can't be used with line number.");
	assert_error("work+4;x", "Lazy pattern can't be used with offset.");
	assert_error("work:3;x", "Lazy pattern can't be used with line number.");
	assert_error("work:3%return", "Offset/Line/Lazy pattern can't be used with return probe.");
	assert_error("work+4%return", "Offset/Line/Lazy pattern can't be used with return probe.");
	assert_error("work%foo", "%foo is not supported.");
	assert_error("1bad=work",
		     "1bad is bad for event name -it must follow C symbol-naming rule.");
	assert_error("g:1ev=work",
		     "1ev is bad for event name -it must follow C symbol-naming rule.");
	assert_error("=work", " is bad for event name -it must follow C symbol-naming rule.");
	assert_error("work:3x", "There is non-digit char in line number.");
	assert_error("work+x", "There is non-digit character in offset.");
	assert_error("work@a.c@b.c", "SRC@SRC is not allowed.");
	assert_error("@probe_prog.c", "File always requires line number or lazy pattern.");
	assert_error("work%return n", "You can't specify local variable for kretprobe.");
	/* an empty definition: perf has no words but its usage */
	assert_error("", "");
	assert_error("sdt_a:b+4", "sdt_a:b+4 must be an SDT name.");
	assert_error("%return+4", "return+4 must be an SDT name.");
}

/* Lines and offsets as strtoul reads them: base 0, 0 or nothing is none
 * (no exclusion applies then), a negative line is an int. */
static void test_point_numbers(void **state)
{
	struct probe_spec spec = parse_ok("work:0x3");

	assert_int_equal(spec.point.line, 3);
	assert_true(spec.point.has_line);
	probe_spec__exit(&spec);
	spec = parse_ok("work:");
	assert_false(spec.point.has_line);
	probe_spec__exit(&spec);
	spec = parse_ok("work:-1");
	assert_int_equal(spec.point.line, -1);
	probe_spec__exit(&spec);
	spec = parse_ok("work+0x10");
	assert_int_equal(spec.point.offset, 16);
	probe_spec__exit(&spec);
	probe_spec__exit((spec = parse_ok("work+4:0"), &spec));
	probe_spec__exit((spec = parse_ok("work+0;x"), &spec));
	probe_spec__exit((spec = parse_ok("work+0%return"), &spec));
}

static struct probe_arg arg_ok(const char *text)
{
	struct probe_arg arg;

	if (probe_arg__parse(&arg, text, err, sizeof(err)))
		fail_msg("'%s': %s", text, err);
	return arg;
}

static void assert_arg(const char *text, const char *listed, const char *field)
{
	struct probe_arg arg = arg_ok(text);
	char *s = probe_arg__text(&arg);

	assert_string_equal(s, listed);
	free(s);
	s = arg.name ? strdup(arg.name) : probe_arg__field_name(&arg);
	assert_string_equal(s, field);
	free(s);
	probe_arg__exit(&arg);
}

static void test_arg_variables(void **state)
{
	struct probe_arg arg = arg_ok("p->name:string");

	assert_string_equal(arg.var, "p");
	assert_int_equal(arg.nr_fields, 1);
	assert_true(arg.fields[0].ref);
	assert_string_equal(arg.fields[0].name, "name");
	assert_string_equal(arg.type, "string");
	assert_false(arg.named);
	probe_arg__exit(&arg);
	arg = arg_ok("pt.inner.v[3]");
	assert_string_equal(arg.var, "pt");
	assert_int_equal(arg.nr_fields, 3);
	assert_false(arg.fields[0].ref);
	assert_null(arg.fields[2].name);
	assert_int_equal(arg.fields[2].index, 3);
	probe_arg__exit(&arg);

	/* what perf lists after "with", and the field names it writes */
	assert_arg("n", "n", "n");
	assert_arg("p->x", "x=p->x", "x");
	assert_arg("p->name:string", "name=p->name:string", "name");
	assert_arg("vals[2]", "vals=vals[2]", "vals");
	assert_arg("pt.y", "y=pt.y", "y");
	assert_arg("n:u8", "n:u8", "n_u8");
	assert_arg("n:x32", "n:x32", "n_x32");
	assert_arg("n:s64", "n:s64", "n_s64");
	assert_arg("nn=n", "nn=n", "nn");
	assert_arg("first=vals[0]:u16", "first=vals[0]:u16", "first");
	assert_arg("$params", "$params", "$params");
	assert_arg("$vars", "$vars", "$vars");
	assert_arg("$retval", "$retval", "$retval");
}

static void test_arg_raw(void **state)
{
	struct probe_arg arg = arg_ok("+8(%sp):s16");

	assert_true(arg.raw);
	assert_null(arg.name);
	assert_null(arg.type);
	assert_string_equal(arg.var, "+8(%sp):s16");
	probe_arg__exit(&arg);
	arg = arg_ok("reg=%di");
	assert_true(arg.raw);
	assert_string_equal(arg.name, "reg");
	assert_string_equal(arg.var, "%di");
	probe_arg__exit(&arg);
	arg = arg_ok("$stack");
	assert_false(arg.raw);
	probe_arg__exit(&arg);
	assert_arg("%ax", "%ax", "%ax");
}

static void test_arg_special(void **state)
{
	struct probe_arg arg = arg_ok("r=$retval:x32");
	char *s = probe_arg__as_written(&arg);

	assert_true(probe_arg__is_special(&arg));
	assert_false(probe_arg__is_c_expr(&arg));
	assert_string_equal(s, "r=$retval:x32");
	free(s);
	probe_arg__exit(&arg);
	arg = arg_ok("$stack3");
	assert_true(probe_arg__is_special(&arg));
	probe_arg__exit(&arg);
	arg = arg_ok("$params");
	assert_false(probe_arg__is_special(&arg));
	assert_true(probe_arg__is_c_expr(&arg));	/* it expands to variables */
	probe_arg__exit(&arg);
	arg = arg_ok("counter:x32");
	assert_true(probe_arg__is_c_expr(&arg));
	probe_arg__exit(&arg);

	struct probe_spec spec = parse_ok("work $comm +8(%sp)");

	assert_false(probe_spec__needs_dwarf(&spec));
	probe_spec__exit(&spec);
	spec = parse_ok("work $vars");
	assert_true(probe_spec__needs_dwarf(&spec));
	probe_spec__exit(&spec);
}

static void test_arg_errors(void **state)
{
	struct probe_arg arg;

	assert_int_equal(probe_arg__parse(&arg, "a[x]", err, sizeof(err)), -1);
	assert_string_equal(err, "Array index must be a number.");
	probe_arg__exit(&arg);
	assert_int_equal(probe_arg__parse(&arg, "a[2", err, sizeof(err)), -1);
	assert_string_equal(err, "Array index must be a number.");
	probe_arg__exit(&arg);
	assert_error("work a[x]", "Array index must be a number.");
	/* perf quotes the expression from the component at fault */
	assert_error("work p-x", "Argument parse error: p-x");
	assert_error("work p->x-y", "Argument parse error: x-y");
	assert_error("work a[1]-x", "Argument parse error: [1]-x");
}

/* Whatever stands before '=' names an argument; an index keeps its
 * text. */
static void test_arg_names(void **state)
{
	struct probe_arg arg = arg_ok("+8(%sp)=x");

	assert_string_equal(arg.name, "+8(%sp)");
	assert_string_equal(arg.var, "x");
	assert_false(arg.raw);
	probe_arg__exit(&arg);
	arg = arg_ok("=n");
	assert_string_equal(arg.name, "");
	probe_arg__exit(&arg);
	arg = arg_ok("vals[0x1]");
	assert_int_equal(arg.fields[0].index, 1);
	char *text = probe_arg__text(&arg);

	assert_string_equal(text, "vals=vals[0x1]");
	free(text);
	probe_arg__exit(&arg);
	arg = arg_ok("p->x@user");
	assert_true(arg.user_access);
	assert_string_equal(arg.var, "p");
	assert_string_equal(arg.fields[0].name, "x");
	probe_arg__exit(&arg);
	arg = arg_ok("p->x@usr");
	assert_false(arg.user_access);
	probe_arg__exit(&arg);
}

/* perf -v's log of a parsed definition: the point, then each argument
 * with its name, type, variable and fields (an index counts as a
 * dereference); a raw argument's type parsed apart. */
static void test_debug_text(void **state)
{
	static const struct {
		const char *arg, *text;
	} args[] = {
		{ "a=p->x:u32", "name:a type:u32 p, x(1)" },
		{ "b->c.d[2]", "b, c(1), d(0), [2](1)" },
		{ "$retval", "$retval" },
		{ "+8(%sp):string", "type:string +8(%sp)" },
		{ "x=%si:u32", "name:x type:u32 %si" },
		{ "n:x64", "type:x64 n" },
	};
	(void)state;
	struct probe_spec spec = parse_ok("vfs_read+4");
	char *text = probe_point__debug_text(&spec.point);

	assert_string_equal(text, "symbol:vfs_read file:(null) line:0 offset:4 return:0 "
				  "lazy:(null)");
	free(text);
	probe_spec__exit(&spec);
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		struct probe_arg arg = { 0 };

		assert_int_equal(probe_arg__parse(&arg, args[i].arg, err, sizeof(err)), 0);
		text = probe_arg__debug_text(&arg);
		assert_string_equal(text, args[i].text);
		free(text);
		probe_arg__exit(&arg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_function),
		cmocka_unit_test(test_return),
		cmocka_unit_test(test_offset),
		cmocka_unit_test(test_relative_line),
		cmocka_unit_test(test_absolute_line),
		cmocka_unit_test(test_lazy),
		cmocka_unit_test(test_function_at_file),
		cmocka_unit_test(test_event_names),
		cmocka_unit_test(test_sdt),
		cmocka_unit_test(test_point_errors),
		cmocka_unit_test(test_point_numbers),
		cmocka_unit_test(test_arg_variables),
		cmocka_unit_test(test_arg_raw),
		cmocka_unit_test(test_arg_special),
		cmocka_unit_test(test_arg_errors),
		cmocka_unit_test(test_arg_names),
		cmocka_unit_test(test_debug_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
