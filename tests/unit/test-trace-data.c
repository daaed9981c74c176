/* Unit tests for core/trace-data: tracing data blobs with sound, malformed
 * and library-crashing event formats, and truncated blobs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <event-parse.h>

#include "core/data/trace-data.h"
#include "util/strbuf.h"
#include "util/util.h"

#define SCHED_SWITCH	"/sys/kernel/tracing/events/sched/sched_switch/format"

/* A small event of system "t" with one field and a print format. */
#define SMALL_FORMAT(name, field, print)						\
	"name: " name "\nID: 4242\nformat:\n"						\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"	\
	"\tfield:int " field ";\toffset:8;\tsize:4;\tsigned:1;\n\n"			\
	"print fmt: \"v=%d\", REC->" print "\n"

static void add_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, &v, 4);
}

static void add_u64(struct strbuf *sb, uint64_t v)
{
	strbuf_add(sb, &v, 8);
}

/* A host-order tracing data blob with the formats as the events of system
 * "t"; *formats_off (if given) is where the first format's text starts. */
static void build(struct strbuf *sb, const char *const *formats, size_t nr, size_t *formats_off)
{
	strbuf_add(sb, "\x17\x08\x44tracing", 10);
	strbuf_add(sb, "0.6", 4);
	strbuf_addch(sb, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	strbuf_addch(sb, sizeof(long));
	add_u32(sb, 4096);
	strbuf_add(sb, "header_page", 12);
	add_u64(sb, 0);
	strbuf_add(sb, "header_event", 13);
	add_u64(sb, 0);
	add_u32(sb, 0);			/* ftrace formats */
	add_u32(sb, 1);			/* systems */
	strbuf_add(sb, "t", 2);
	add_u32(sb, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		add_u64(sb, strlen(formats[i]));
		if (i == 0 && formats_off)
			*formats_off = sb->len;
		strbuf_addstr(sb, formats[i]);
	}
	add_u32(sb, 0);			/* kallsyms */
	add_u32(sb, 0);			/* printk formats */
	add_u64(sb, 0);			/* saved cmdlines */
}

static struct tep_handle *parse(const char *const *formats, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	struct tep_handle *tep;
	const char *err = NULL;
	size_t off;

	build(&sb, formats, nr, NULL);
	tep = trace_data__parse(sb.buf, sb.len, &err, &off);
	strbuf_release(&sb);
	assert_non_null(tep);
	return tep;
}

static bool has_event(struct tep_handle *tep, const char *name)
{
	return tep_find_event_by_name(tep, "t", name) != NULL;
}

static void sound_formats_parse(void **state)
{
	const char *const f[] = { SMALL_FORMAT("one", "v", "v"), SMALL_FORMAT("two", "w", "w") };
	struct tep_handle *tep = parse(f, 2);

	assert_true(has_event(tep, "one"));
	assert_true(has_event(tep, "two"));
	tep_free(tep);
}

static void unsound_formats_skipped(void **state)
{
	const char *const f[] = {
		SMALL_FORMAT("ok", "v", "v"),
		SMALL_FORMAT("undeclared", "v", "nosuchfield"),
		SMALL_FORMAT("control\x01", "v", "v"),
		SMALL_FORMAT("high\xe9", "v", "v"),
		/* ending in "REC->" naming nothing (the fuzzer's: a search
		 * that ran past the text) */
		"name: noname\nID: 4243\nformat:\n\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\nprint fmt: \"v=%d\", REC->",
	};
	struct tep_handle *tep = parse(f, 5);

	assert_true(has_event(tep, "ok"));
	assert_false(has_event(tep, "undeclared"));
	assert_false(has_event(tep, "control\x01"));
	assert_false(has_event(tep, "high\xe9"));
	assert_false(has_event(tep, "noname"));
	tep_free(tep);
}

/* libtraceevent dereferences NULL on this kernel's sched_switch format with
 * one ',' between print arguments turned into '.' (found by fuzzing): the
 * event is skipped, the others are kept, the process survives. */
static void crashing_format_skipped(void **state)
{
	char *real = read_file_str(SCHED_SWITCH), *bad, *anchor;
	const char *const good = SMALL_FORMAT("ok", "v", "v");
	const char *f[3];
	struct tep_handle *tep;

	if (!real)
		skip();
	anchor = strstr(real, ": \"R\", REC->prev_state");
	if (!anchor) {
		free(real);
		skip();
	}
	bad = xstrdup(real);
	bad[anchor - real + 5] = '.';
	f[0] = good;
	f[1] = bad;
	f[2] = real;	/* named like the bad one: parsed once the bad one is out */
	tep = parse(f, 3);
	assert_true(has_event(tep, "ok"));
	assert_non_null(tep_find_event_by_name(tep, "t", "sched_switch"));
	tep_free(tep);

	f[2] = good;
	tep = parse(f, 2);
	assert_null(tep_find_event_by_name(tep, "t", "sched_switch"));
	tep_free(tep);
	free(bad);
	free(real);
}

static void truncated_blob(void **state)
{
	const char *const f[] = { SMALL_FORMAT("one", "v", "v") };
	struct strbuf sb = STRBUF_INIT;
	const char *err = NULL;
	size_t off = 0, text;

	build(&sb, f, 1, &text);
	assert_null(trace_data__parse(sb.buf, text + 10, &err, &off));
	assert_string_equal(err, "event format runs past the tracing data");
	assert_int_equal(off, text);
	assert_null(trace_data__parse(sb.buf, 5, &err, &off));
	assert_string_equal(err, "bad tracing data magic");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sound_formats_parse),
		cmocka_unit_test(unsound_formats_skipped),
		cmocka_unit_test(crashing_format_skipped),
		cmocka_unit_test(truncated_blob),
	};
	return cmocka_run_group_tests_name("trace-data", tests, NULL, NULL);
}
