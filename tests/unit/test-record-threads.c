/* Unit tests for record-threads: --threads specs split the CPUs into groups
 * as perf splits them (by a fake sysfs topology), perf's errors for bad
 * specs, and the writer threads putting each CPU's records into its
 * data.N file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <linux/perf_event.h>

#include "fake-fs.h"
#include "core/events/cpumap.h"
#include "core/live/record-threads.h"

/* Four CPUs in two packages: CPUs 0 and 1 on cores of their own, 2 and 3
 * siblings of one core; CPUs 0 and 2 on node 0, 1 and 3 on node 1. */
static char *fake_topology(void)
{
	char *root = xstrdup("/tmp/pcl-threads-XXXXXX");
	static const int package[] = { 0, 0, 1, 1 }, core[] = { 0, 5, 1, 1 }, node[] = { 0, 1, 0, 1 };

	fake_fs_create(root);
	for (int cpu = 0; cpu < 4; cpu++) {
		char rel[96], val[8];

		snprintf(val, sizeof(val), "%d\n", package[cpu]);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id",
			 cpu);
		fake_fs_put(root, rel, val);
		snprintf(val, sizeof(val), "%d\n", core[cpu]);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/core_id", cpu);
		fake_fs_put(root, rel, val);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/die_id", cpu);
		fake_fs_put(root, rel, "0\n");
		snprintf(rel, sizeof(rel), "devices/system/node/node%d/cpu%d", node[cpu], cpu);
		fake_fs_put(root, rel, "");
	}
	cpumap_sysfs_root = root;
	return root;
}

static void done_topology(char *root)
{
	cpumap_sysfs_root = "/sys";
	fake_fs_remove(root);
	free(root);
}

/* "0,1|2|3": each group's maps, and affinity equal to them. */
static void assert_groups(const struct record_thread_masks *m, const char *want)
{
	char got[64] = "";

	for (int g = 0; g < m->nr; g++) {
		for (int i = 0; i < m->maps[g]->nr; i++) {
			char n[8];

			snprintf(n, sizeof(n), "%s%d", i ? "," : g ? "|" : "", m->maps[g]->map[i]);
			strcat(got, n);
		}
	}
	assert_string_equal(got, want);
}

static void check_spec(const char *spec, const char *want)
{
	char *root = fake_topology(), msg[128];
	struct cpu_map *cpus = cpu_map__parse("0-3");
	struct record_thread_masks m;

	assert_int_equal(record_threads__parse_spec(spec, cpus, &m, msg, sizeof(msg)), 0);
	assert_groups(&m, want);
	record_thread_masks__exit(&m);
	cpu_map__delete(cpus);
	done_topology(root);
}

static void cpu_is_the_default(void **state)
{
	check_spec(NULL, "0|1|2|3");
	check_spec("", "0|1|2|3");
	check_spec("cpu", "0|1|2|3");
}

static void core_package_numa(void **state)
{
	check_spec("core", "0|1|2,3");
	check_spec("package", "0,1|2,3");
	check_spec("numa", "0,2|1,3");
}

static void user_masks(void **state)
{
	char msg[128];
	struct cpu_map *cpus = cpu_map__parse("0-3");
	struct record_thread_masks m;

	assert_int_equal(record_threads__parse_spec("0-1/0:2-3/2-3", cpus, &m, msg, sizeof(msg)),
			 0);
	assert_groups(&m, "0,1|2,3");
	assert_int_equal(m.affinity[0]->nr, 1);
	assert_int_equal(m.affinity[0]->map[0], 0);
	record_thread_masks__exit(&m);
	/* CPUs the recording does not use are left out */
	assert_int_equal(record_threads__parse_spec("1,7/1", cpus, &m, msg, sizeof(msg)), 0);
	assert_groups(&m, "1");
	record_thread_masks__exit(&m);
	cpu_map__delete(cpus);
}

static void check_error(const char *spec, int err, const char *want)
{
	char msg[128];
	struct cpu_map *cpus = cpu_map__parse("0-3");
	struct record_thread_masks m;

	assert_int_equal(record_threads__parse_spec(spec, cpus, &m, msg, sizeof(msg)), err);
	assert_string_equal(msg, want);
	assert_int_equal(m.nr, 0);
	cpu_map__delete(cpus);
}

static void perf_errors(void **state)
{
	check_error("bogus", -EINVAL, "Invalid thread maps or affinity specs");
	check_error("user", -EINVAL, "Invalid thread maps or affinity specs");
	check_error("0/", -EINVAL, "Invalid thread maps or affinity specs");
	check_error("/0", -EINVAL, "Invalid thread maps or affinity specs");
	check_error("0-1/0:1/1", -EINVAL, "Intersecting maps mask: 0");
	check_error("9/9", -ENODEV, "Failed to initialize maps thread mask");
	check_error("0/9", -ENODEV, "Failed to initialize affinity thread mask");
}

static void sample_rec(uint64_t *rec, uint64_t tag)
{
	struct perf_event_header *h = (void *)rec;

	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = 16;
	rec[1] = tag;
}

static long file_size(const char *dir, int n, uint64_t *first_tag)
{
	char *path = xasprintf("%s/data.%d", dir, n);
	uint64_t rec[2] = { 0, 0 };
	long size = -1;
	FILE *f = fopen(path, "r");

	if (f) {
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		rewind(f);
		if (size >= 16 && fread(rec, 1, 16, f) == 16)
			*first_tag = rec[1];
		fclose(f);
	}
	free(path);
	return size;
}

/* Each CPU's records land in its ring's file, whichever thread writes it. */
static void writers_fill_each_rings_file(void **state)
{
	char dir[] = "/tmp/pcl-threads-out-XXXXXX", msg[128];
	struct cpu_map *cpus = cpu_map__parse("2,5,7");
	struct record_thread_masks m;
	struct record_threads_totals totals;
	struct record_threads *t;
	uint64_t rec[2], tag = 0;
	int err;

	fake_fs_create(dir);
	assert_int_equal(record_threads__parse_spec("2,5/2:7/7", cpus, &m, msg, sizeof(msg)), 0);
	t = record_threads__start(dir, cpus, &m, 0, &err);
	assert_non_null(t);
	for (int i = 0; i < 100; i++) {
		sample_rec(rec, (uint64_t)(i % 3));
		assert_int_equal(record_threads__write(t, cpus->map[i % 3], rec, sizeof(rec)), 0);
	}
	assert_int_equal(record_threads__stop(t, &totals), 0);
	assert_int_equal(totals.raw_bytes, 100 * 16);
	assert_int_equal(totals.written_bytes, 100 * 16);
	assert_int_equal(file_size(dir, 0, &tag), 34 * 16);
	assert_int_equal(tag, 0);
	assert_int_equal(file_size(dir, 1, &tag), 33 * 16);
	assert_int_equal(tag, 1);
	assert_int_equal(file_size(dir, 2, &tag), 33 * 16);
	assert_int_equal(tag, 2);
	record_thread_masks__exit(&m);
	cpu_map__delete(cpus);
	fake_fs_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpu_is_the_default),
		cmocka_unit_test(core_package_numa),
		cmocka_unit_test(user_masks),
		cmocka_unit_test(perf_errors),
		cmocka_unit_test(writers_fill_each_rings_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
