/* Unit tests for core/analysis/ftrace-latency: function_graph lines taken apart, entries
 * paired with exits per CPU, durations counted in perf's buckets, and the table printed
 * (ui/ftrace-print) byte for byte as perf ftrace latency 6.1 printed it for the same text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/ftrace-latency.h"
#include "ui/ftrace-print.h"

/* function_graph text with every kind of line */
static const char trace_text[] = "# tracer: function_graph\n"
				 "#\n"
				 "# CPU  DURATION                  FUNCTION CALLS\n"
				 "# |     |   |                     |   |   |   |\n"
				 " 0)   0.000 us    |  vfs_read();\n"
				 " 0)   0.999 us    |  vfs_read();\n"
				 " 1)   1.000 us    |  vfs_read();\n"
				 " 1)   1.999 us    |  vfs_read();\n"
				 " 1)   2.000 us    |  vfs_read();\n"
				 " 0)               |  vfs_read() {\n"
				 " 0)   0.312 us    |    rw_verify_area();\n"
				 " 0)               |    new_sync_read() {\n"
				 " 0) + 15.871 us   |    }\n"
				 " 0) + 20.010 us   |  }\n"
				 " ------------------------------------------\n"
				 " 1)    bash-4242    =>    cat-4243\n"
				 " ------------------------------------------\n"
				 "\n"
				 " 1) ! 1023.999 us |  vfs_read();\n"
				 " 1) # 1024.000 us |  vfs_read();\n"
				 " 12) * 65536.00 us |  vfs_read();\n"
				 " 1) @ 524287.9 us |  vfs_read();\n"
				 " 1) $ 1048576 us  |  vfs_read();\n"
				 " 1) $ 9999999 us  |  }\n"
				 " 0)   ==========> |\n"
				 " 0)   3.100 us    |  smp_irq_work_interrupt();\n"
				 " 0)   <========== |\n"
				 " 0)   0.417 ms    |  vfs_read();\n";

/* perf ftrace latency 6.1's table for trace_text (fed through a fake tracefs) */
static const char perf_us[] =
	"#   DURATION     |      COUNT | GRAPH                                          |\n"
	"     0 - 1    us |          5 | ###############                                |\n"
	"     1 - 2    us |          2 | ######                                         |\n"
	"     2 - 4    us |          0 |                                                |\n"
	"     4 - 8    us |          1 | ###                                            |\n"
	"     8 - 16   us |          1 | ###                                            |\n"
	"    16 - 32   us |          0 |                                                |\n"
	"    32 - 64   us |          0 |                                                |\n"
	"    64 - 128  us |          0 |                                                |\n"
	"   128 - 256  us |          0 |                                                |\n"
	"   256 - 512  us |          1 | ###                                            |\n"
	"   512 - 1024 us |          1 | ###                                            |\n"
	"     1 - 2    ms |          0 |                                                |\n"
	"     2 - 4    ms |          0 |                                                |\n"
	"     4 - 8    ms |          0 |                                                |\n"
	"     8 - 16   ms |          0 |                                                |\n"
	"    16 - 32   ms |          0 |                                                |\n"
	"    32 - 64   ms |          1 | ###                                            |\n"
	"    64 - 128  ms |          0 |                                                |\n"
	"   128 - 256  ms |          1 | ###                                            |\n"
	"   256 - 512  ms |          0 |                                                |\n"
	"   512 - 1024 ms |          1 | ###                                            |\n"
	"     1 - ...   s |          1 | ###                                            |\n";

/* the same with -n */
static const char perf_ns[] =
	"#   DURATION     |      COUNT | GRAPH                                          |\n"
	"     0 - 1    ns |          1 | ###                                            |\n"
	"     1 - 2    ns |          0 |                                                |\n"
	"     2 - 4    ns |          0 |                                                |\n"
	"     4 - 8    ns |          0 |                                                |\n"
	"     8 - 16   ns |          0 |                                                |\n"
	"    16 - 32   ns |          0 |                                                |\n"
	"    32 - 64   ns |          0 |                                                |\n"
	"    64 - 128  ns |          0 |                                                |\n"
	"   128 - 256  ns |          1 | ###                                            |\n"
	"   256 - 512  ns |          2 | ######                                         |\n"
	"   512 - 1024 ns |          2 | ######                                         |\n"
	"     1 - 2    us |          1 | ###                                            |\n"
	"     2 - 4    us |          0 |                                                |\n"
	"     4 - 8    us |          1 | ###                                            |\n"
	"     8 - 16   us |          1 | ###                                            |\n"
	"    16 - 32   us |          0 |                                                |\n"
	"    32 - 64   us |          0 |                                                |\n"
	"    64 - 128  us |          0 |                                                |\n"
	"   128 - 256  us |          0 |                                                |\n"
	"   256 - 512  us |          2 | ######                                         |\n"
	"   512 - 1024 us |          0 |                                                |\n"
	"     1 - ...  ms |          4 | ############                                   |\n";

static void parses_lines(void **state)
{
	struct ftrace_graph_line gl;

	(void)state;
	ftrace_graph__parse_line(" 1) + 15.871 us   |  vfs_read();", &gl);
	assert_int_equal(gl.kind, FTRACE_GRAPH_LEAF);
	assert_int_equal(gl.cpu, 1);
	assert_true(gl.has_duration);
	assert_true(gl.duration > 15.870 && gl.duration < 15.872);
	assert_string_equal(gl.func, "vfs_read");

	ftrace_graph__parse_line(" 12)               |  new_sync_read() {", &gl);
	assert_int_equal(gl.kind, FTRACE_GRAPH_ENTRY);
	assert_int_equal(gl.cpu, 12);
	assert_false(gl.has_duration);
	assert_string_equal(gl.func, "new_sync_read");

	ftrace_graph__parse_line(" 0) $ 1048576 us  |  }", &gl);
	assert_int_equal(gl.kind, FTRACE_GRAPH_EXIT);
	assert_true(gl.has_duration);
	assert_true(gl.duration == 1048576.0);

	/* milliseconds are not perf's unit: no duration */
	ftrace_graph__parse_line(" 0)   0.417 ms    |  vfs_read();", &gl);
	assert_int_equal(gl.kind, FTRACE_GRAPH_LEAF);
	assert_false(gl.has_duration);

	ftrace_graph__parse_line("# CPU  DURATION                  FUNCTION CALLS", &gl);
	assert_int_equal(gl.kind, FTRACE_GRAPH_OTHER);
	assert_int_equal(gl.cpu, -1);
	ftrace_graph__parse_line(" 1)    bash-4242    =>    cat-4243", &gl);
	assert_int_equal(gl.kind, FTRACE_GRAPH_OTHER);
	assert_false(gl.has_duration);
	ftrace_graph__parse_line(" 0)   ==========> |", &gl);
	assert_int_equal(gl.kind, FTRACE_GRAPH_OTHER);
	assert_false(gl.has_duration);
}

static void buckets_as_perf(void **state)
{
	(void)state;
	/* log2 truncated: below 2 in the first bucket, 2^20 and beyond in the last */
	assert_int_equal(ftrace_latency__bucket(0, false), 0);
	assert_int_equal(ftrace_latency__bucket(0.5, false), 0);
	assert_int_equal(ftrace_latency__bucket(1.999, false), 0);
	assert_int_equal(ftrace_latency__bucket(2.0, false), 1);
	assert_int_equal(ftrace_latency__bucket(1023.999, false), 9);
	assert_int_equal(ftrace_latency__bucket(1024.0, false), 10);
	assert_int_equal(ftrace_latency__bucket(1048576.0, false), 20);
	assert_int_equal(ftrace_latency__bucket(1e9, false), 21);
	assert_int_equal(ftrace_latency__bucket(0.312, true), 8);
	assert_int_equal(ftrace_latency__bucket(0.0005, true), 0);
}

struct seen_calls {
	char names[32][64];
	int nr;
};

static void remember_call(void *arg, int cpu, const char *func, double duration)
{
	struct seen_calls *seen = arg;

	(void)cpu;
	(void)duration;
	if (seen->nr < 32)
		snprintf(seen->names[seen->nr++], sizeof(seen->names[0]), "%s", func ? func : "?");
}

/* Feeds trace_text in chunks of chunk bytes, then prints the table. */
static char *histogram_of(size_t chunk, struct ftrace_latency *lat)
{
	size_t len = strlen(trace_text), size = 0;
	char *out = NULL;
	FILE *fp;

	for (size_t off = 0; off < len; off += chunk)
		ftrace_latency__feed(lat, trace_text + off, off + chunk > len ? len - off : chunk);
	fp = open_memstream(&out, &size);
	ftrace_latency__print(fp, lat);
	fclose(fp);
	return out;
}

static void table_matches_perf(void **state)
{
	static const size_t chunks[] = { 1, 7, 4096 };

	(void)state;
	for (size_t i = 0; i < sizeof(chunks) / sizeof(*chunks); i++) {
		for (int nsec = 0; nsec < 2; nsec++) {
			struct ftrace_latency lat;
			char *out;

			ftrace_latency__init(&lat, nsec);
			out = histogram_of(chunks[i], &lat);
			assert_string_equal(out, nsec ? perf_ns : perf_us);
			assert_int_equal(ftrace_latency__total(&lat), 15);
			free(out);
			ftrace_latency__exit(&lat);
		}
	}
}

static void pairs_exits_per_cpu(void **state)
{
	static const char *const expected[] = {
		"vfs_read",	  "vfs_read",	   "vfs_read", "vfs_read", "vfs_read",
		"rw_verify_area", "new_sync_read", "vfs_read", "vfs_read", "vfs_read",
		"vfs_read",	  "vfs_read",	   "vfs_read", "?",	   "smp_irq_work_interrupt",
	};
	struct seen_calls seen = { .nr = 0 };
	struct ftrace_latency lat;

	(void)state;
	ftrace_latency__init(&lat, false);
	lat.on_call = remember_call;
	lat.arg = &seen;
	ftrace_latency__feed(&lat, trace_text, strlen(trace_text));
	assert_int_equal(seen.nr, 15);
	for (int i = 0; i < seen.nr; i++)
		assert_string_equal(seen.names[i], expected[i]);
	/* the exit of a call entered before the trace began */
	assert_int_equal(lat.unmatched_exits, 1);
	assert_int_equal(lat.calls, 15);
	ftrace_latency__exit(&lat);
}

static void last_line_needs_newline(void **state)
{
	struct ftrace_latency lat;
	char *out = NULL;
	size_t size = 0;
	FILE *fp;

	(void)state;
	ftrace_latency__init(&lat, false);
	/* perf counts no line until its newline: a cut-off last line is not a call */
	ftrace_latency__feed(&lat, " 0)   1.500 us    |  vfs_read();", 33);
	assert_int_equal(ftrace_latency__total(&lat), 0);
	fp = open_memstream(&out, &size);
	ftrace_latency__print(fp, &lat);
	fclose(fp);
	assert_string_equal(out, "No data found\n");
	free(out);
	ftrace_latency__feed(&lat, "\n", 1);
	assert_int_equal(ftrace_latency__total(&lat), 1);
	assert_int_equal(lat.buckets[0], 1);
	ftrace_latency__exit(&lat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_lines),
		cmocka_unit_test(buckets_as_perf),
		cmocka_unit_test(table_matches_perf),
		cmocka_unit_test(pairs_exits_per_cpu),
		cmocka_unit_test(last_line_needs_newline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
