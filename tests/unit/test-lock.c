/* Unit tests for core/analysis/lock: perf's lock type names, its result
 * order (ties in its hash table's order, checked against an order perf
 * 6.1 printed), -c combining and task names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/lock.h"

static void type_names(void **state)
{
	(void)state;
	assert_string_equal(lock_type_name(0), "semaphore");
	assert_string_equal(lock_type_name(1), "spinlock");
	assert_string_equal(lock_type_name(2), "rwsem:R");
	assert_string_equal(lock_type_name(4), "rwsem:W");
	assert_string_equal(lock_type_name(32), "mutex");
	assert_string_equal(lock_type_name(33), "mutex");
	assert_string_equal(lock_type_name(64), "unknown");
}

static struct lock_stat *add(struct lock_analysis *la, uint64_t key, const char *name,
			     uint32_t acquired, uint64_t total)
{
	struct lock_stat *ls;

	la->stats = realloc(la->stats, (la->nr_stats + 1) * sizeof(*la->stats));
	ls = memset(&la->stats[la->nr_stats], 0, sizeof(*ls));
	ls->key = key;
	strcpy(ls->name, name);
	ls->nr_acquired = ls->nr_contended = acquired;
	ls->wait_time_total = ls->wait_time_min = ls->wait_time_max = total;
	ls->avg_wait_time = acquired ? total / acquired : 0;
	ls->seq = (uint32_t)la->nr_stats++;
	return ls;
}

/* perf lock report printed these three one-acquisition locks in this
 * order (wake_up_q, handle_softirqs, wake_up_q) on a recording here */
static void ties_in_perfs_hash_order(void **state)
{
	struct lock_analysis la;
	struct lock_stat **rows;
	size_t nr;

	(void)state;
	lock_analysis__init(&la);
	add(&la, 0xffff888102a2a96cULL, "wake_up_q+0x33", 1, 3960);
	add(&la, 0xffffffff830f3100ULL, "handle_softirqs+0xcd", 1, 11090);
	add(&la, 0xffff888145d7a96cULL, "wake_up_q+0x33", 1, 4260);
	add(&la, 0xffff888109ea06f8ULL, "__x64_sys_munmap+0x17", 1125, 685980000);
	rows = lock_analysis__sorted(&la, LOCK_KEY_ACQUIRED, &nr);
	assert_int_equal(nr, 4);
	assert_int_equal(rows[0]->key, 0xffff888109ea06f8ULL);
	assert_int_equal(rows[1]->key, 0xffff888145d7a96cULL);
	assert_int_equal(rows[2]->key, 0xffffffff830f3100ULL);
	assert_int_equal(rows[3]->key, 0xffff888102a2a96cULL);
	free(rows);
	lock_analysis__exit(&la);
}

static void combine_by_name(void **state)
{
	struct lock_analysis la;
	struct lock_stat **rows;
	size_t nr;

	(void)state;
	lock_analysis__init(&la);
	add(&la, 0xffff888102a2a96cULL, "wake_up_q+0x33", 1, 3000);
	add(&la, 0xffff888145d7a96cULL, "wake_up_q+0x33", 3, 9000);
	lock_analysis__combine(&la);
	rows = lock_analysis__sorted(&la, LOCK_KEY_ACQUIRED, &nr);
	assert_int_equal(nr, 1);
	/* the first in table order keeps the sum, averaged over contentions */
	assert_int_equal(rows[0]->key, 0xffff888145d7a96cULL);
	assert_int_equal(rows[0]->nr_acquired, 4);
	assert_int_equal(rows[0]->wait_time_total, 12000);
	assert_int_equal(rows[0]->avg_wait_time, 3000);
	assert_int_equal(rows[0]->wait_time_min, 3000);
	assert_int_equal(rows[0]->wait_time_max, 9000);
	free(rows);
	lock_analysis__exit(&la);
}

static void task_names(void **state)
{
	struct lock_analysis la;
	char buf[32];

	(void)state;
	lock_analysis__init(&la);
	assert_string_equal(lock_analysis__task_name(&la, 42, buf, sizeof(buf)), ":42");
	assert_string_equal(lock_analysis__task_name(&la, 0xffffffffULL, buf, sizeof(buf)), ":-1");
	lock_analysis__comm(&la, 42, "sh");
	lock_analysis__comm(&la, 42, "lock_contend");
	assert_string_equal(lock_analysis__task_name(&la, 42, buf, sizeof(buf)), "lock_contend");
	lock_analysis__exit(&la);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(type_names),
		cmocka_unit_test(ties_in_perfs_hash_order),
		cmocka_unit_test(combine_by_name),
		cmocka_unit_test(task_names),
	};

	return cmocka_run_group_tests_name("lock", tests, NULL, NULL);
}
