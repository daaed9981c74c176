/* Unit tests for core/pmu: sysfs PMU discovery, formats and event names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/events/pmu.h"
#include "fake-fs.h"

static char sysfs[] = "/tmp/pcl-sysfs-XXXXXX";

static int setup(void **state)
{
	fake_fs_create(sysfs);
	fake_fs_pmus(sysfs);
	/* formats that do not parse are left out */
	fake_fs_put(sysfs, "bus/event_source/devices/msr/format/bad", "config:9-3\n");
	fake_fs_put(sysfs, "bus/event_source/devices/msr/format/worse", "conf:1\n");
	/* a directory without a type is not a PMU */
	fake_fs_put(sysfs, "bus/event_source/devices/notapmu/format/event", "config:0-7\n");
	pmus__set_sysfs_root(sysfs);
	return 0;
}

static int teardown(void **state)
{
	pmus__set_sysfs_root(NULL);
	fake_fs_remove(sysfs);
	return 0;
}

static void test_discovery(void **state)
{
	int nr;
	const struct pmu *all = pmus__all(&nr), *cpu = pmus__find("cpu");

	assert_int_equal(nr, 5);
	assert_non_null(all);
	assert_null(pmus__find("notapmu"));
	assert_non_null(cpu);
	assert_int_equal(cpu->type, 4);
	assert_true(cpu->is_core);
	assert_false(pmus__find("msr")->is_core);
	assert_int_equal(pmus__find("msr")->nr_formats, 1);
	assert_int_equal(cpu->nr_formats, 6);
	/* events are sorted by name and exclude the .unit/.scale attributes */
	assert_int_equal(cpu->nr_aliases, 3);
	assert_string_equal(cpu->aliases[0].name, "cpu-cycles");
	assert_string_equal(cpu->aliases[2].name, "mem-loads");
}

static void test_formats(void **state)
{
	const struct pmu *cpu = pmus__find("cpu");
	const struct pmu_format *split = pmu__find_format(cpu, "split");
	const struct pmu_format *event = pmu__find_format(cpu, "event");
	struct perf_event_attr attr = { 0 };

	assert_int_equal(split->field, 0);
	assert_int_equal(split->mask, 0xfULL | (0xfULL << 40));
	assert_int_equal(pmu_format__max_value(split), 0xff);
	/* low value bits go to the lowest format bits */
	pmu_format__apply(split, 0xa5, &attr);
	assert_int_equal(attr.config, 0x5ULL | (0xaULL << 40));
	pmu_format__apply(event, 0x3c, &attr);	/* ORed in */
	assert_int_equal(attr.config, 0x3dULL | (0xaULL << 40));
	assert_int_equal(pmu__find_format(cpu, "ldlat")->field, 1);
	pmu_format__apply(pmu__find_format(cpu, "ldlat"), 7, &attr);
	assert_int_equal(attr.config1, 7);
	assert_int_equal(pmu_format__max_value(pmu__find_format(pmus__find("msr"), "event")),
			 ~0ULL);
	assert_null(pmu__find_format(cpu, "nosuch"));
}

static void test_aliases(void **state)
{
	const struct pmu *cpu = pmus__find("cpu"), *power = pmus__find("power");
	const struct pmu_alias *a = pmu__find_alias(power, "energy-pkg");
	char *s;

	assert_non_null(pmu__find_alias(cpu, "CPU-CYCLES"));	/* any case */
	assert_string_equal(pmu__find_alias(cpu, "cpu-cycles")->terms, "event=0x3c");
	assert_string_equal(a->unit, "Joules");
	assert_true(a->scale > 2.32e-10 && a->scale < 2.33e-10);
	assert_null(pmu__find_alias(cpu, "cpu-cycles")->unit);
	assert_true(pmu__find_alias(cpu, "cpu-cycles")->scale == 1.0);
	s = pmu_alias__slashed_name(cpu, pmu__find_alias(cpu, "ev-param"));
	assert_string_equal(s, "cpu/ev-param,ldlat=?/");
	free(s);
	s = pmu_alias__slashed_name(power, a);
	assert_string_equal(s, "power/energy-pkg/");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_discovery),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_aliases),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
