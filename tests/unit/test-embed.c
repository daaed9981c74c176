/* Unit tests for core/symbols/embed: a machine's loaded tables written out
 * and taken back by another machine whose files are gone.  The DSO is a
 * JIT's perf-PID.map, the one kind of symbol file a test can write
 * anywhere (its path is /tmp/perf-PID.map).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <sys/mman.h>

#include "core/symbols/embed.h"
#include "core/symbols/machine.h"

#define USER PERF_RECORD_MISC_USER

static int pid;
static char map_path[64];

static int setup(void **state)
{
	FILE *f;

	/* a pid no process has (above pid_max), unique to this run */
	pid = 5000000 + getpid() % 1000000;
	snprintf(map_path, sizeof(map_path), "/tmp/perf-%d.map", pid);
	f = fopen(map_path, "w");
	if (!f)
		return -1;
	fprintf(f, "7000 20 jit_first\n7020 40 jit_second\n");
	return fclose(f);
}

static int teardown(void **state)
{
	unlink(map_path);
	return 0;
}

/* A machine with the JIT's map at 0x7000 (its build id given, if any). */
static struct machine *jit_machine(struct thread **t, const uint8_t *id, int id_size)
{
	struct machine *m = machine__new();

	*t = machine__findnew_thread(m, pid, pid);
	machine__process_mmap2(m, pid, pid, 0x7000, 0x1000, 0x7000, "//anon", USER, id, id_size,
			       PROT_READ | PROT_EXEC, MAP_PRIVATE);
	return m;
}

static const char *sym_at(struct machine *m, struct thread *t, uint64_t ip)
{
	struct addr_location al;

	if (!machine__resolve(m, t, USER, ip, &al) || !al.sym)
		return NULL;
	return al.sym->name;
}

/* The tables of a machine that looked up 0x7030 (its file then deleted). */
static void *embedded_tables(size_t *size, const uint8_t *id, int id_size)
{
	struct symbols_embed_stats stats;
	struct thread *t;
	struct machine *m = jit_machine(&t, id, id_size);
	void *buf;

	assert_string_equal(sym_at(m, t, 0x7030), "jit_second");
	buf = symbols_embed__write(m, size, &stats);
	assert_non_null(buf);
	assert_int_equal(stats.nr_dsos, 1);
	assert_int_equal(stats.nr_syms, 2);
	machine__delete(m);
	return buf;
}

static void test_round_trip_without_the_file(void **state)
{
	size_t size;
	void *buf = embedded_tables(&size, NULL, 0);
	struct thread *t;
	struct machine *m;

	unlink(map_path);
	m = jit_machine(&t, NULL, 0);
	assert_int_equal(machine__use_embedded_symbols(m, buf, size), 0);
	free(buf);
	assert_string_equal(sym_at(m, t, 0x7000), "jit_first");
	assert_string_equal(sym_at(m, t, 0x701f), "jit_first");
	assert_string_equal(sym_at(m, t, 0x7020), "jit_second");
	assert_null(sym_at(m, t, 0x7060));
	machine__delete(m);

	/* without the tables the same machine finds nothing */
	m = jit_machine(&t, NULL, 0);
	assert_null(sym_at(m, t, 0x7020));
	machine__delete(m);
	assert_int_equal(setup(state), 0);
}

static void test_other_build_id_is_not_taken(void **state)
{
	static const uint8_t id_a[20] = { 0xaa }, id_b[20] = { 0xbb };
	size_t size;
	void *buf = embedded_tables(&size, id_a, 20);
	struct thread *t;
	struct machine *m;

	unlink(map_path);
	m = jit_machine(&t, id_b, 20);
	assert_int_equal(machine__use_embedded_symbols(m, buf, size), 0);
	assert_null(sym_at(m, t, 0x7020));
	machine__delete(m);
	m = jit_machine(&t, id_a, 20);
	assert_int_equal(machine__use_embedded_symbols(m, buf, size), 0);
	assert_string_equal(sym_at(m, t, 0x7020), "jit_second");
	machine__delete(m);
	free(buf);
	assert_int_equal(setup(state), 0);
}

static void test_damaged_tables_are_refused(void **state)
{
	size_t size;
	char *buf = embedded_tables(&size, NULL, 0);
	struct machine *m = machine__new();

	assert_int_equal(machine__use_embedded_symbols(m, buf, size - 1), -1);
	assert_int_equal(machine__use_embedded_symbols(m, buf, 12), -1);
	buf[0] = 'X';
	assert_int_equal(machine__use_embedded_symbols(m, buf, size), -1);
	machine__delete(m);
	free(buf);
}

static void test_nothing_loaded_nothing_written(void **state)
{
	struct symbols_embed_stats stats;
	struct thread *t;
	struct machine *m = jit_machine(&t, NULL, 0);
	size_t size = 0;

	assert_null(symbols_embed__write(m, &size, &stats));
	assert_int_equal(stats.nr_dsos, 0);
	machine__delete(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_without_the_file),
		cmocka_unit_test(test_other_build_id_is_not_taken),
		cmocka_unit_test(test_damaged_tables_are_refused),
		cmocka_unit_test(test_nothing_loaded_nothing_written),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
