/* Unit tests for core/symbols/disasm: the text of every function of two
 * fixtures (-O1 with frame pointers, -O2) against objdump 2.40's on the
 * same ranges, with and without -S, raw bytes and Intel syntax.  Leading
 * blanks aside (objdump pads addresses, perf trims them), byte for byte. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/symbols/disasm.h"
#include "util/strbuf.h"

/* libbfd 2.40's DWARF reader leaks a few names it builds (objdump's runs
 * do too): the leak checker of the sanitizer build is told so. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libbfd";
}

/* text without each line's leading blanks and objdump's file format line */
static void trimmed(const char *text, struct strbuf *out)
{
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);

		if (!strstr(p, "file format") || (nl && strstr(p, "file format") > nl)) {
			size_t skip = strspn(p, " ");

			strbuf_add(out, p + skip, len - skip);
		}
		p += len;
	}
}

static void compare_file(const char *path, const char *flags, const struct disasm_opts *o)
{
	char cmd[1024], line[512];
	struct disasm_file *f;
	char *err = NULL;
	FILE *nm;
	int nr = 0;

	f = disasm_file__open(path, o->source, &err);
	if (!f)
		fail_msg("%s (run make fixtures)", err);
	snprintf(cmd, sizeof(cmd), "nm -S --defined-only %s", path);
	nm = popen(cmd, "r");
	while (nm && fgets(line, sizeof(line), nm)) {
		unsigned long start, size;
		char type, name[256];
		struct strbuf want = { 0 }, got = { 0 }, mine = { 0 };
		FILE *od;
		size_t n;

		if (sscanf(line, "%lx %lx %c %255s", &start, &size, &type, name) != 4 ||
		    !strchr("tTwW", type) || !size)
			continue;
		snprintf(cmd, sizeof(cmd), "objdump -d -l -C %s --start-address=%#lx "
			 "--stop-address=%#lx %s", flags, start, start + size, path);
		od = popen(cmd, "r");
		while (od && (n = fread(line, 1, sizeof(line), od)) > 0)
			strbuf_add(&want, line, n);
		pclose(od);
		disasm_file__dump(f, o, start, start + size, &mine);
		trimmed(strbuf_str(&mine), &got);
		{
			struct strbuf w = { 0 };

			trimmed(strbuf_str(&want), &w);
			if (strcmp(strbuf_str(&w), strbuf_str(&got)))
				fail_msg("%s %s %s: objdump says\n%s\npcl says\n%s", path, name,
					 flags, strbuf_str(&w), strbuf_str(&got));
			strbuf_release(&w);
		}
		strbuf_release(&want);
		strbuf_release(&got);
		strbuf_release(&mine);
		nr++;
	}
	pclose(nm);
	disasm_file__close(f);
	assert_true(nr >= 5);
}

static void both_fixtures(const char *flags, const struct disasm_opts *o)
{
	compare_file("build/fixtures/burner", flags, o);
	compare_file("build/fixtures/annotate_work", flags, o);
}

static void with_source(void **state)
{
	both_fixtures("-S --no-show-raw-insn", &(struct disasm_opts){ .source = true });
}

static void without_source(void **state)
{
	both_fixtures("--no-show-raw-insn", &(struct disasm_opts){ 0 });
}

static void raw_bytes_intel(void **state)
{
	both_fixtures("-M intel", &(struct disasm_opts){ .raw = true, .style = "intel" });
}

static void raw_bytes_source(void **state)
{
	both_fixtures("-S", &(struct disasm_opts){ .raw = true, .source = true });
}

static void not_an_object(void **state)
{
	char *err = NULL;

	assert_null(disasm_file__open("Makefile", false, &err));
	assert_non_null(err);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(with_source),
		cmocka_unit_test(without_source),
		cmocka_unit_test(raw_bytes_intel),
		cmocka_unit_test(raw_bytes_source),
		cmocka_unit_test(not_an_object),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
