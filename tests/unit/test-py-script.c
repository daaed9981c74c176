/* Unit tests for core/analysis/py-script's logic outside the interpreter:
 * the handler names, how each tracepoint field reaches a script (string,
 * byte array or number, and which numbers are signed), and the skeleton
 * -g python writes (handlers in id order, flag and symbolic fields
 * printed through flag_str/symbol_str). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <event-parse.h>

#include "core/analysis/py-script.h"
#include "core/data/session.h"

#define COMMON_FIELDS									\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"	\
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"	\
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* fields of every kind: a fixed string, a dynamic one, a relative
 * dynamic array, bytes, signed and unsigned numbers of two sizes */
static const char kinds_format[] =
	"name: kinds\nID: 900\nformat:\n" COMMON_FIELDS
	"\tfield:char comm[8];\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc u8[] blob;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:u8 addr[4];\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:int delta;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long ptr;\toffset:40;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"comm=%s\", REC->comm\n";

static const char flags_format[] =
	"name: sched_switch\nID: 300\nformat:\n" COMMON_FIELDS
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_state=%s\", REC->prev_comm, REC->prev_pid, "
	"(REC->prev_state & 3) ? __print_flags(REC->prev_state & 3, \"|\", { 0x01, \"S\" }, "
	"{ 0x02, \"D\" }) : \"R\"\n";

static const char symbolic_format[] =
	"name: softirq_entry\nID: 100\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"vec=%u [action=%s]\", REC->vec, __print_symbolic(REC->vec, "
	"{ 0, \"HI\" }, { 1, \"TIMER\" })\n";

static struct tep_handle *tep;

static int setup(void **state)
{
	tep = tep_alloc();
	assert_int_equal(tep_parse_event(tep, kinds_format, sizeof(kinds_format) - 1, "test"), 0);
	assert_int_equal(tep_parse_event(tep, flags_format, sizeof(flags_format) - 1, "sched"), 0);
	assert_int_equal(tep_parse_event(tep, symbolic_format, sizeof(symbolic_format) - 1,
					 "irq"), 0);
	return 0;
}

static int teardown(void **state)
{
	tep_free(tep);
	return 0;
}

static struct tep_format_field *field(const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "test", "kinds");

	return tep_find_field(ev, name);
}

static void handler_names(void **state)
{
	char *name = py_script__handler_name(tep_find_event_by_name(tep, "sched",
								    "sched_switch"));

	assert_string_equal(name, "sched__sched_switch");
	free(name);
}

/* a sample of the kinds event: comm "sh", name "file.c" at 48, blob of
 * 3 bytes right after the blob field's own 4 (relative), addr 1.2.3.4 */
static void fill_sample(uint8_t *raw)
{
	uint32_t name_loc = 7u << 16 | 48, blob_loc = 3u << 16 | 32;
	int32_t delta = -1;
	int64_t st = -1;
	uint64_t ptr = 0xffffffff81000000ull;

	memset(raw, 0, 64);
	memcpy(raw + 8, "sh", 2);
	memcpy(raw + 16, &name_loc, 4);
	memcpy(raw + 20, &blob_loc, 4);
	memcpy(raw + 24, "\x01\x02\x03\x04", 4);
	memcpy(raw + 28, &delta, 4);
	memcpy(raw + 32, &st, 8);
	memcpy(raw + 40, &ptr, 8);
	memcpy(raw + 48, "file.c", 7);
	memcpy(raw + 56, "\x00\xff\x7f", 3);
}

static void field_kinds(void **state)
{
	uint8_t raw[64];
	uint32_t off = 0, len = 0;

	fill_sample(raw);
	assert_int_equal(py_script__field(field("comm"), raw, sizeof(raw), &off, &len),
			 PY_FIELD_STRING);
	assert_int_equal(off, 8);
	assert_int_equal(len, 8);
	assert_int_equal(py_script__field(field("name"), raw, sizeof(raw), &off, &len),
			 PY_FIELD_STRING);
	assert_int_equal(off, 48);
	assert_int_equal(len, 7);
	/* relative: counted from the end of the field itself */
	assert_int_equal(py_script__field(field("blob"), raw, sizeof(raw), &off, &len),
			 PY_FIELD_BYTES);
	assert_int_equal(off, 56);
	assert_int_equal(len, 3);
	assert_int_equal(py_script__field(field("addr"), raw, sizeof(raw), &off, &len),
			 PY_FIELD_BYTES);
	assert_int_equal(py_script__field(field("delta"), raw, sizeof(raw), &off, &len),
			 PY_FIELD_NUMBER);
}

static void unprintable_string_is_bytes(void **state)
{
	uint8_t raw[64];
	uint32_t off, len;

	fill_sample(raw);
	raw[9] = 0x01;
	assert_int_equal(py_script__field(field("comm"), raw, sizeof(raw), &off, &len),
			 PY_FIELD_BYTES);
	/* a full array without a NUL is not a string either */
	memset(raw + 8, 'a', 8);
	assert_int_equal(py_script__field(field("comm"), raw, sizeof(raw), &off, &len),
			 PY_FIELD_BYTES);
}

static void dynamic_array_past_the_end_is_cut(void **state)
{
	uint8_t raw[64];
	uint32_t off, len, loc = 40u << 16 | 48;

	fill_sample(raw);
	memcpy(raw + 16, &loc, 4);
	raw[63] = 'x';	/* what is left of it ends in no NUL */
	assert_int_equal(py_script__field(field("name"), raw, sizeof(raw), &off, &len),
			 PY_FIELD_BYTES);
	assert_int_equal(off, 48);
	assert_int_equal(len, 16);
}

/* perf reads a 4-byte int unsigned; only 8-byte signed fields go negative */
static void number_signedness(void **state)
{
	uint8_t raw[64];
	uint64_t v;

	fill_sample(raw);
	assert_false(py_script__number(field("delta"), raw, sizeof(raw), &v));
	assert_int_equal(v, 0xffffffffu);
	assert_true(py_script__number(field("state"), raw, sizeof(raw), &v));
	assert_int_equal((int64_t)v, -1);
	assert_false(py_script__number(field("ptr"), raw, sizeof(raw), &v));
	assert_int_equal(v, 0xffffffff81000000ull);
}

/* a sample torn inside its fields: what is missing reads as nothing */
static void torn_sample(void **state)
{
	uint8_t raw[64];
	uint32_t off, len;
	uint64_t v;

	fill_sample(raw);
	assert_false(py_script__number(field("ptr"), raw, 44, &v));
	assert_int_equal(v, 0);
	assert_true(py_script__number(field("state"), raw, 40, &v));	/* just inside */
	assert_int_equal((int64_t)v, -1);
	assert_int_equal(py_script__field(field("name"), raw, 52, &off, &len), PY_FIELD_BYTES);
	assert_int_equal(off, 48);
	assert_int_equal(len, 4);
	assert_int_equal(py_script__field(field("name"), raw, 18, &off, &len), PY_FIELD_BYTES);
	assert_int_equal(len, 0);
}

static char *generate(void)
{
	struct perf_session s = { .tep = tep };
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);

	py_script__generate(fp, &s);
	fclose(fp);
	return text;
}

static void skeleton_handlers_in_id_order(void **state)
{
	char *text = generate();
	char *irq = strstr(text, "def irq__softirq_entry(");
	char *sched = strstr(text, "def sched__sched_switch(");
	char *kinds = strstr(text, "def test__kinds(");

	assert_non_null(irq);
	assert_non_null(sched);
	assert_non_null(kinds);
	assert_true(irq < sched && sched < kinds);
	assert_non_null(strstr(text, "def trace_begin():"));
	assert_non_null(strstr(text, "def trace_unhandled(event_name, context, "
			       "event_fields_dict, perf_sample_dict):"));
	free(text);
}

static void skeleton_formats_fields(void **state)
{
	char *text = generate();

	assert_non_null(strstr(text, "common_callchain, prev_comm, prev_pid, prev_state,\n"
			       "\tperf_sample_dict):"));
	assert_non_null(strstr(text, "\"prev_comm=%s, prev_pid=%d, prev_state=%s\""));
	assert_non_null(strstr(text, "flag_str(\"sched__sched_switch\", \"prev_state\", "
			       "prev_state)"));
	assert_non_null(strstr(text, "(symbol_str(\"irq__softirq_entry\", \"vec\", vec),))"));
	assert_non_null(strstr(text, "comm=%s, name=%s, blob=%s, addr=%s, delta=%d"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(handler_names),
		cmocka_unit_test(field_kinds),
		cmocka_unit_test(unprintable_string_is_bytes),
		cmocka_unit_test(dynamic_array_past_the_end_is_cut),
		cmocka_unit_test(number_signedness),
		cmocka_unit_test(torn_sample),
		cmocka_unit_test(skeleton_handlers_in_id_order),
		cmocka_unit_test(skeleton_formats_fields),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
