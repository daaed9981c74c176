/* Unit tests for guest-inject: perf's reading of --guest-data, the TSC
 * arithmetic, and a guest COMM merged into a host file: guest cpumode, the
 * new id (above the host's), the VCPU's host CPU and the converted time in
 * its trailer; an ID_INDEX with machine pid and VCPU first. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf-data-builder.h"
#include "core/data/guest-inject.h"
#include "core/data/perf-data-write.h"
#include "core/data/session.h"

#define ST (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)
#define QEMU 4242

static void parses_as_perf(void **state)
{
	struct guest_data_spec s;

	(void)state;
	assert_true(guest_data_spec__parse(&s, "g.data,4242"));
	assert_string_equal(s.path, "g.data");
	assert_int_equal(s.machine_pid, 4242);
	assert_int_equal(s.time_offset, 0);
	assert_true(s.time_scale == 1);
	guest_data_spec__release(&s);
	assert_true(guest_data_spec__parse(&s, "g.data,0x10,077,2.5"));
	assert_int_equal(s.machine_pid, 16);
	assert_int_equal(s.time_offset, 63);
	assert_true(s.time_scale == 2.5);
	guest_data_spec__release(&s);
	assert_true(guest_data_spec__parse(&s, ",7"));	/* perf fails later, opening "" */
	assert_string_equal(s.path, "");
	guest_data_spec__release(&s);
	assert_false(guest_data_spec__parse(&s, NULL));
	assert_false(guest_data_spec__parse(&s, "g.data"));
	assert_false(guest_data_spec__parse(&s, "g.data,0"));
	assert_false(guest_data_spec__parse(&s, "g.data,abc"));
	assert_false(guest_data_spec__parse(&s, "g.data,1,2,0"));
	assert_false(guest_data_spec__parse(&s, "g.data,1,2,"));
	assert_null(s.path);
}

static void tsc_arithmetic(void **state)
{
	struct perf_rec_time_conv tc = { .time_shift = 10, .time_mult = 700, .time_zero = 1000 };

	(void)state;
	assert_int_equal(time_conv__to_perf(&tc, 1024), 1700);
	assert_int_equal(time_conv__to_tsc(&tc, 1700), 1024);
	assert_int_equal(time_conv__to_perf(&tc, 1536), 1000 + 700 + 350);
	/* a short counter: only the bits under the mask move from time_cycles */
	tc.cap_user_time_short = 1;
	tc.time_cycles = 0x10000;
	tc.time_mask = 0xffff;
	assert_int_equal(time_conv__to_perf(&tc, 0x20400), time_conv__to_perf(&tc, 0x10400));
}

static void comm_rec(struct buf *b, uint16_t misc, uint32_t pid, uint32_t tid, const char *name,
		     uint64_t time, uint32_t cpu, uint64_t id)
{
	size_t r = rec_begin(b, PERF_RECORD_COMM, misc);

	b_u32(b, pid);
	b_u32(b, tid);
	b_bytes(b, name, strlen(name) + 1);
	b_zero(b, (8 - b->len % 8) % 8);
	b_u32(b, pid);		/* trailer: TID, TIME, CPU, IDENTIFIER */
	b_u32(b, tid);
	b_u64(b, time);
	b_u32(b, cpu);
	b_u32(b, 0);
	b_u64(b, id);
	rec_end(b, r);
}

/* A file of one event (ST, sample_id_all) with ids, holding b's records. */
static char *write_file(const uint64_t *ids, size_t nr_ids, const struct buf *b)
{
	char *path = strdup("/tmp/pcl-test-guest-XXXXXX");
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
					.sample_type = ST, .sample_id_all = 1 };
	struct perf_data_writer_attr a = { &attr, ids, nr_ids };
	struct perf_data_writer w = { 0 };
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(perf_data_writer__open(&w, path), 0);
	assert_int_equal(perf_data_writer__write_header(&w, &a, 1), 0);
	assert_int_equal(perf_data_writer__write(&w, b->p, b->len), 0);
	assert_int_equal(perf_data_writer__finish(&w), 0);
	return path;
}

struct emitted {
	struct perf_event_header *recs[8];
	int nr;
};

static int keep(void *ctx, const struct perf_event_header *rec)
{
	struct emitted *e = ctx;

	assert_true(e->nr < 8);
	e->recs[e->nr++] = memcpy(malloc(rec->size), rec, rec->size);
	return 0;
}

static void merges_a_guest_comm(void **state)
{
	static const uint64_t host_ids[] = { 7, 9 }, guest_ids[] = { 3, 4 };
	struct buf hb = { 0 }, gb = { 0 };
	struct emitted e = { .nr = 0 };
	struct guest_data_spec spec = { .machine_pid = QEMU, .time_scale = 2, .time_offset = 100 };
	struct perf_rec_comm *c;
	struct perf_rec_switch sw = { { PERF_RECORD_SWITCH_CPU_WIDE, 0, sizeof(sw) }, QEMU, 4244 };
	struct perf_sample on_cpu5 = { .cpu = 5 };
	char *host_path, *guest_path, *err = NULL;
	int status;
	struct perf_session *host;
	struct guest_inject *gi;
	size_t r;

	(void)state;
	comm_rec(&hb, 0, QEMU, 4244, "CPU 1/KVM", 0, 0, 0);
	host_path = write_file(host_ids, 2, &hb);
	r = rec_begin(&gb, PERF_RECORD_ID_INDEX, 0);	/* id 4 counts on VCPU 1 */
	b_u64(&gb, 2);
	for (int i = 0; i < 2; i++) {
		b_u64(&gb, guest_ids[i]);
		b_u64(&gb, 0);
		b_u64(&gb, (uint64_t)i);
		b_u64(&gb, (uint64_t)-1);
	}
	rec_end(&gb, r);
	comm_rec(&gb, PERF_RECORD_MISC_USER, 77, 77, "init", 1300, 1, 4);
	guest_path = write_file(guest_ids, 2, &gb);

	spec.path = guest_path;
	gi = guest_inject__open(&spec, true, keep, &e, &status, &err);
	assert_non_null(gi);
	host = perf_session__open(host_path, true, &err);
	assert_non_null(host);
	c = (struct perf_rec_comm *)(void *)hb.p;
	assert_int_equal(guest_inject__host_comm(gi, c, &err), 0);
	assert_int_equal(guest_inject__ready(gi, host, &err), 0);
	assert_int_equal(e.nr, 1);	/* the ID_INDEX: nothing at time 0 */
	assert_int_equal(e.recs[0]->type, PERF_RECORD_ID_INDEX);
	{
		const struct perf_rec_id_index *ix = (const void *)e.recs[0];
		const uint64_t *e2 = (const uint64_t *)(const void *)&ix->entries[2];

		assert_int_equal(ix->nr, 2);
		assert_int_equal(ix->entries[0].id, 10);	/* above the host's 9 */
		assert_int_equal(ix->entries[1].id, 11);
		assert_int_equal((int64_t)ix->entries[1].cpu, -1);
		assert_int_equal(ix->entries[1].tid, 4244);	/* VCPU 1's thread */
		assert_int_equal(e2[2], QEMU);
		assert_int_equal(e2[3], 1);
	}
	/* VCPU 1 switched in on host CPU 5: the guest's CPU 1 becomes 5 */
	assert_int_equal(guest_inject__host_switch(gi, &sw.header, &on_cpu5, &err), 0);
	assert_int_equal(guest_inject__until(gi, 599, &err), 0);
	assert_int_equal(e.nr, 1);	/* (1300 - 100) / 2 = 600 is later */
	assert_int_equal(guest_inject__until(gi, 600, &err), 0);
	assert_int_equal(e.nr, 2);
	{
		const struct perf_event_header *g = e.recs[1];
		const uint64_t *t = (const uint64_t *)(const void *)((const char *)g + g->size - 32);

		assert_int_equal(g->type, PERF_RECORD_COMM);
		assert_int_equal(g->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_GUEST_USER);
		assert_int_equal(t[0], 77 | (uint64_t)77 << 32);
		assert_int_equal(t[1], 600);
		assert_int_equal(t[2], 5);
		assert_int_equal(t[3], 11);
	}
	assert_int_equal(guest_inject__nr_events(gi), 1);

	for (int i = 0; i < e.nr; i++)
		free(e.recs[i]);
	perf_session__delete(host);
	guest_inject__delete(gi);
	unlink(host_path);
	unlink(guest_path);
	free(host_path);
	free(guest_path);
	free(hb.p);
	free(gb.p);
}

static void no_vcpu_thread(void **state)
{
	static const uint64_t ids[] = { 3 };
	struct buf gb = { 0 }, hb = { 0 };
	struct guest_data_spec spec = { .machine_pid = QEMU, .time_scale = 1 };
	struct emitted e = { .nr = 0 };
	char *guest_path, *err = NULL;
	int status;
	struct guest_inject *gi;
	struct perf_rec_comm *c;

	(void)state;
	comm_rec(&gb, 0, 1, 1, "init", 0, 0, 0);
	guest_path = write_file(ids, 1, &gb);
	spec.path = guest_path;
	gi = guest_inject__open(&spec, true, keep, &e, &status, &err);
	assert_non_null(gi);
	/* another process's VCPU names do not count */
	comm_rec(&hb, 0, QEMU + 1, QEMU + 2, "CPU 0/KVM", 0, 0, 0);
	c = (struct perf_rec_comm *)(void *)hb.p;
	assert_int_equal(guest_inject__host_comm(gi, c, &err), 0);
	assert_int_equal(guest_inject__ready(gi, NULL, &err), -EINVAL);
	assert_string_equal(err, "No VCPU threads found for pid 4242\n");
	free(err);
	guest_inject__delete(gi);
	unlink(guest_path);
	free(guest_path);
	free(gb.p);
	free(hb.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_as_perf),
		cmocka_unit_test(tsc_arithmetic),
		cmocka_unit_test(merges_a_guest_comm),
		cmocka_unit_test(no_vcpu_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
