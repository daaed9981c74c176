/* Unit tests for core/live/augment: records built as the BPF program writes
 * them are matched to sys_enter calls by thread, id and arguments; the
 * program itself must pass the kernel's verifier where BPF is allowed. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/live/augment.h"

static unsigned char rec[AUGMENT_REC_SIZE];

/* A record of tid's call id with args; strings s0 and s1 (NULL: none) in
 * the arguments of spec; len0 overrides the first one's length when > 0
 * or is an error when < 0. */
static size_t build(pid_t tid, long id, const uint64_t args[AUGMENT_NR_ARGS], uint32_t spec,
		    const char *s0, const char *s1, int32_t err0)
{
	uint64_t pid_tgid = (uint64_t)tid << 32 | (uint32_t)tid, lid = (uint64_t)id;
	int32_t len0 = s0 ? (int32_t)strlen(s0) + 1 : 0, len1 = s1 ? (int32_t)strlen(s1) + 1 : 0;

	memset(rec, 0, sizeof(rec));
	if (err0)
		len0 = err0;
	memcpy(rec + AUGMENT_REC_PID_TGID, &pid_tgid, 8);
	memcpy(rec + AUGMENT_REC_ID, &lid, 8);
	memcpy(rec + AUGMENT_REC_ARGS, args, 8 * AUGMENT_NR_ARGS);
	memcpy(rec + AUGMENT_REC_SPEC, &spec, 4);
	memcpy(rec + AUGMENT_REC_LEN0, &len0, 4);
	memcpy(rec + AUGMENT_REC_LEN1, &len1, 4);
	if (s0)
		memcpy(rec + AUGMENT_REC_STR, s0, strlen(s0) + 1);
	/* packed: the second string after the first, a failed read no room */
	if (s1)
		memcpy(rec + AUGMENT_REC_STR + (len0 > 0 ? len0 : 0), s1, strlen(s1) + 1);
	return AUGMENT_REC_STR + (size_t)(len0 > 0 ? len0 : 0) + (size_t)len1;
}

static void spec_packs_two_indexes(void **state)
{
	assert_int_equal(augment__spec(1, -1), 2);
	assert_int_equal(augment__spec(0, 2), 1 | 3 << 8);
	assert_int_equal(augment__spec(1, 3), 2 | 4 << 8);
}

static void takes_matching_record(void **state)
{
	struct augment *a = augment__new_unloaded();
	uint64_t args[AUGMENT_NR_ARGS] = { (uint64_t)-100, 0x1000, 0, 0, 0, 0 };
	const char *strs[AUGMENT_NR_ARGS];

	assert_true(augment__feed(a, rec, build(7, 257, args, augment__spec(1, -1),
						 "/etc/hostname", NULL, 0)));
	/* another thread, another id, other arguments: no match */
	assert_false(augment__take(a, 8, 257, args, false, strs));
	assert_false(augment__take(a, 7, 2, args, false, strs));
	args[1] = 0x2000;
	assert_false(augment__take(a, 7, 257, args, false, strs));
	for (int i = 0; i < AUGMENT_NR_ARGS; i++)
		assert_null(strs[i]);
	args[1] = 0x1000;
	assert_true(augment__take(a, 7, 257, args, false, strs));
	assert_string_equal(strs[1], "/etc/hostname");
	assert_null(strs[0]);
	/* taken once only */
	assert_false(augment__take(a, 7, 257, args, false, strs));
	augment__delete(a);
}

static void older_records_are_dropped(void **state)
{
	struct augment *a = augment__new_unloaded();
	uint64_t args[AUGMENT_NR_ARGS] = { 0 };
	const char *strs[AUGMENT_NR_ARGS];
	unsigned long taken, dropped;

	/* three calls; the sample of the first was filtered out */
	for (uint64_t p = 1; p <= 3; p++) {
		char name[16];

		args[0] = p;
		snprintf(name, sizeof(name), "/f%d", (int)p);
		augment__feed(a, rec, build(5, 2, args, augment__spec(0, -1), name, NULL, 0));
	}
	args[0] = 2;
	assert_true(augment__take(a, 5, 2, args, false, strs));
	assert_string_equal(strs[0], "/f2");
	args[0] = 1;		/* dropped with the match after it */
	assert_false(augment__take(a, 5, 2, args, false, strs));
	args[0] = 3;
	assert_true(augment__take(a, 5, 2, args, false, strs));
	assert_string_equal(strs[0], "/f3");
	augment__stats(a, &taken, &dropped);
	assert_int_equal(taken, 2);
	assert_int_equal(dropped, 1);
	augment__delete(a);
}

static void two_strings_and_failures(void **state)
{
	struct augment *a = augment__new_unloaded();
	uint64_t args[AUGMENT_NR_ARGS] = { (uint64_t)-100, 0x10, (uint64_t)-100, 0x20, 0, 0 };
	const char *strs[AUGMENT_NR_ARGS];

	augment__feed(a, rec, build(9, 316, args, augment__spec(1, 3), "old", "new", 0));
	assert_true(augment__take(a, 9, 316, args, false, strs));
	assert_string_equal(strs[1], "old");
	assert_string_equal(strs[3], "new");
	/* the helper failed (a page not in memory): the pointer is shown */
	augment__feed(a, rec, build(9, 316, args, augment__spec(1, 3), NULL, "new", -EFAULT));
	assert_true(augment__take(a, 9, 316, args, false, strs));
	assert_null(strs[1]);
	assert_string_equal(strs[3], "new");
	/* a string past the record's end is not read */
	augment__feed(a, rec, build(9, 316, args, augment__spec(1, 3), "old", "new", 0) - 1);
	assert_true(augment__take(a, 9, 316, args, false, strs));
	assert_string_equal(strs[1], "old");
	assert_null(strs[3]);
	/* too short to be a record */
	assert_false(augment__feed(a, rec, AUGMENT_REC_STR - 1));
	augment__delete(a);
}

static void late_records_match_late_takes(void **state)
{
	struct augment *a = augment__new_unloaded();
	uint64_t args[AUGMENT_NR_ARGS] = { (uint64_t)-100, 0x40 };
	const char *strs[AUGMENT_NR_ARGS];

	/* the entry's read failed; the exit's, after the kernel's, did not */
	augment__feed(a, rec, build(6, 257, args, augment__spec(1, -1), NULL, NULL, -EFAULT));
	augment__feed(a, rec, build(6, 257, args, augment__spec(1, -1) | AUGMENT_SPEC_LATE,
				    "/usr/lib/locale/locale-archive", NULL, 0));
	assert_true(augment__take(a, 6, 257, args, false, strs));
	assert_null(strs[1]);
	assert_true(augment__take(a, 6, 257, args, true, strs));
	assert_string_equal(strs[1], "/usr/lib/locale/locale-archive");
	/* a late record is not an entry's */
	augment__feed(a, rec, build(6, 257, args, augment__spec(1, -1) | AUGMENT_SPEC_LATE,
				    "/x", NULL, 0));
	assert_false(augment__take(a, 6, 257, args, false, strs));
	augment__delete(a);
}

static void cut_string_ends_at_the_limit(void **state)
{
	struct augment *a = augment__new_unloaded();
	uint64_t args[AUGMENT_NR_ARGS] = { 0x30 };
	const char *strs[AUGMENT_NR_ARGS];

	build(3, 2, args, augment__spec(0, -1), NULL, NULL, AUGMENT_STR_MAX);
	/* the kernel copies STR_MAX - 1 bytes and a NUL */
	memset(rec + AUGMENT_REC_STR, 'a', AUGMENT_STR_MAX - 1);
	rec[AUGMENT_REC_STR + AUGMENT_STR_MAX - 1] = '\0';
	augment__feed(a, rec, AUGMENT_REC_STR + AUGMENT_STR_MAX);
	assert_true(augment__take(a, 3, 2, args, false, strs));
	assert_int_equal(strlen(strs[0]), AUGMENT_STR_MAX - 1);
	augment__delete(a);
}

static void queue_keeps_the_newest(void **state)
{
	struct augment *a = augment__new_unloaded();
	uint64_t args[AUGMENT_NR_ARGS] = { 0 };
	const char *strs[AUGMENT_NR_ARGS];
	unsigned long taken, dropped;

	for (uint64_t p = 0; p < AUGMENT_QUEUE_MAX + 10; p++) {
		args[0] = p;
		augment__feed(a, rec, build(4, 2, args, augment__spec(0, -1), "/x", NULL, 0));
	}
	args[0] = 5;
	assert_false(augment__take(a, 4, 2, args, false, strs));
	args[0] = AUGMENT_QUEUE_MAX + 9;
	assert_true(augment__take(a, 4, 2, args, false, strs));
	augment__stats(a, &taken, &dropped);
	assert_int_equal(dropped, AUGMENT_QUEUE_MAX + 9);
	augment__delete(a);
}

/* A sockaddr record: its bytes (as many as its length argument said, no
 * NUL of their own) come back zero-padded; a failed read, none. */
static void sockaddr_bytes(void **state)
{
	struct augment *a = augment__new_unloaded();
	uint64_t args[AUGMENT_NR_ARGS] = { 3, 0x7000, 16 };
	uint32_t spec = augment__spec(1, 2) | AUGMENT_SPEC_SOCKADDR;
	const unsigned char sa[16] = { 2, 0, 0, 80, 127, 0, 0, 1 };
	const char *strs[AUGMENT_NR_ARGS];
	int32_t len = sizeof(sa);

	build(5, 42, args, spec, NULL, NULL, 0);
	memcpy(rec + AUGMENT_REC_LEN0, &len, 4);
	memcpy(rec + AUGMENT_REC_STR, sa, sizeof(sa));
	memset(rec + AUGMENT_REC_STR + sizeof(sa), 0x55, 8);	/* not part of it */
	assert_true(augment__feed(a, rec, AUGMENT_REC_STR + sizeof(sa)));
	assert_true(augment__take(a, 5, 42, args, false, strs));
	assert_memory_equal(strs[1], sa, sizeof(sa));
	for (int i = (int)sizeof(sa); i < AUGMENT_SOCKADDR_MAX; i++)
		assert_int_equal(strs[1][i], 0);
	/* the length argument is no string */
	assert_null(strs[2]);
	build(5, 42, args, spec, NULL, NULL, -EFAULT);
	assert_true(augment__feed(a, rec, AUGMENT_REC_STR));
	assert_true(augment__take(a, 5, 42, args, false, strs));
	assert_null(strs[1]);
	augment__delete(a);
}

/* The program as built must pass the verifier (where BPF is allowed). */
static void program_loads(void **state)
{
	uint32_t specs[300] = { 0 };
	char why[512] = "";
	struct augment *a;

	specs[257] = augment__spec(1, -1);
	specs[82] = augment__spec(0, 1);
	specs[42] = augment__spec(1, 2) | AUGMENT_SPEC_SOCKADDR;
	a = augment__new(specs, 300, getpid(), why, sizeof(why));
	if (!a && (strstr(why, "not permitted") || strstr(why, "Function not implemented"))) {
		fprintf(stderr, "no BPF here: %s\n", why);
		skip();
	}
	assert_non_null(a);
	augment__delete(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spec_packs_two_indexes),
		cmocka_unit_test(takes_matching_record),
		cmocka_unit_test(older_records_are_dropped),
		cmocka_unit_test(two_strings_and_failures),
		cmocka_unit_test(late_records_match_late_takes),
		cmocka_unit_test(cut_string_ends_at_the_limit),
		cmocka_unit_test(queue_keeps_the_newest),
		cmocka_unit_test(sockaddr_bytes),
		cmocka_unit_test(program_loads),
	};
	return cmocka_run_group_tests_name("augment", tests, NULL, NULL);
}
