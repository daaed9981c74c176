/* Unit tests for core/machine: threads, maps (overlaps, fork, exit), DSO
 * interning and callchain walking.  No files are read: DSO paths here do
 * not exist, so lookups stop at the map level.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <sys/mman.h>

#include "core/symbols/machine.h"

#define USER PERF_RECORD_MISC_USER
#define KERNEL PERF_RECORD_MISC_KERNEL

static struct machine *m;

static int setup(void **state)
{
	m = machine__new();
	return 0;
}

static int teardown(void **state)
{
	machine__delete(m);
	return 0;
}

/* The dso and DSO-relative address an ip resolves to in thread t. */
static const char *where(struct thread *t, uint64_t ip, uint64_t *addr)
{
	struct addr_location al;

	if (!machine__resolve(m, t, USER, ip, &al))
		return NULL;
	*addr = al.addr;
	return al.dso->long_name;
}

static void test_overlap_splits(void **state)
{
	struct thread *t = machine__findnew_thread(m, 10, 10);
	uint64_t addr;

	machine__process_mmap(m, 10, 10, 0x1000, 0x4000, 0, "/no/a", USER, NULL, 0);
	machine__process_mmap(m, 10, 10, 0x2000, 0x1000, 0x7000, "/no/b", USER, NULL, 0);
	assert_string_equal(where(t, 0x1800, &addr), "/no/a");
	assert_int_equal(addr, 0x800);
	assert_string_equal(where(t, 0x2800, &addr), "/no/b");
	assert_int_equal(addr, 0x7800);
	/* The piece after the hole keeps mapping the same file offsets. */
	assert_string_equal(where(t, 0x3800, &addr), "/no/a");
	assert_int_equal(addr, 0x2800);
	assert_null(where(t, 0x5000, &addr));

	/* A mapping over everything replaces every piece. */
	machine__process_mmap(m, 10, 10, 0x0, 0x6000, 0, "/no/c", USER, NULL, 0);
	assert_string_equal(where(t, 0x1800, &addr), "/no/c");
	assert_string_equal(where(t, 0x2800, &addr), "/no/c");
	assert_string_equal(where(t, 0x5fff, &addr), "/no/c");
	assert_int_equal(addr, 0x5fff);
}

static void test_threads_share_process_maps(void **state)
{
	struct thread *leader = machine__findnew_thread(m, 10, 10);
	struct thread *worker = machine__findnew_thread(m, 10, 11);
	uint64_t addr;

	assert_ptr_not_equal(leader, worker);
	assert_string_equal(worker->comm, ":11");
	machine__process_mmap(m, 10, 11, 0x1000, 0x1000, 0, "/no/lib", USER, NULL, 0);
	assert_string_equal(where(leader, 0x1100, &addr), "/no/lib");
	assert_ptr_equal(machine__findnew_thread(m, 10, 11), worker);
	assert_ptr_equal(machine__find_thread(m, 10, 11), worker);
	assert_null(machine__find_thread(m, 99, 99));
}

static void test_fork_copies_maps_and_comm(void **state)
{
	struct thread *parent = machine__findnew_thread(m, 10, 10), *child;
	uint64_t addr;

	machine__process_comm(m, 10, 10, "parent", false);
	machine__process_mmap(m, 10, 10, 0x1000, 0x1000, 0, "/no/p", USER, NULL, 0);
	machine__process_fork(m, 20, 10, 20, 10, true, NULL);
	child = machine__find_thread(m, 20, 20);
	assert_non_null(child);
	assert_string_equal(child->comm, "parent");
	assert_int_equal(child->ppid, 10);
	assert_string_equal(where(child, 0x1100, &addr), "/no/p");

	/* After the fork the address spaces are separate. */
	machine__process_mmap(m, 20, 20, 0x1000, 0x1000, 0, "/no/q", USER, NULL, 0);
	assert_string_equal(where(child, 0x1100, &addr), "/no/q");
	assert_string_equal(where(parent, 0x1100, &addr), "/no/p");

	/* exec renames; the maps stay until new MMAPs replace them. */
	machine__process_comm(m, 20, 20, "child", true);
	assert_string_equal(child->comm, "child");
	assert_string_equal(parent->comm, "parent");
}

/* perf synthesizes a FORK for each process it finds running, flagged as
 * already exec'd: its own maps follow, none are copied from the parent. */
static void test_synthesized_fork_of_execd_process_copies_no_maps(void **state)
{
	struct thread *child;
	uint64_t addr;

	machine__process_comm(m, 10, 10, "parent", false);
	machine__process_mmap(m, 10, 10, 0x1000, 0x1000, 0, "/no/p", USER, NULL, 0);
	machine__process_fork(m, 20, 10, 20, 10, false, NULL);
	child = machine__find_thread(m, 20, 20);
	assert_non_null(child);
	assert_int_equal(child->ppid, 10);
	assert_null(where(child, 0x1100, &addr));
}

static void test_fork_of_thread_shares_maps(void **state)
{
	struct thread *t;
	uint64_t addr;

	machine__findnew_thread(m, 10, 10);
	machine__process_fork(m, 10, 10, 12, 10, true, NULL);	/* pthread_create */
	machine__process_mmap(m, 10, 10, 0x1000, 0x1000, 0, "/no/late", USER, NULL, 0);
	t = machine__find_thread(m, 10, 12);
	assert_string_equal(where(t, 0x1000, &addr), "/no/late");
}

static void test_exit_keeps_thread_and_tid_reuse_replaces(void **state)
{
	struct thread *old = machine__findnew_thread(m, 30, 30), *fresh;

	machine__process_comm(m, 30, 30, "first", false);
	machine__process_exit(m, 30, 30);
	assert_true(old->dead);
	assert_ptr_equal(machine__find_thread(m, 30, 30), old);

	/* A FORK that reuses the tid makes a new thread; the old pointer
	 * stays valid for whoever still holds it. */
	machine__process_fork(m, 30, 1, 30, 1, true, NULL);
	fresh = machine__find_thread(m, 30, 30);
	assert_ptr_not_equal(fresh, old);
	assert_false(fresh->dead);
	assert_string_equal(old->comm, "first");
}

/* A FORK naming as parent a tid that a thread of another pid holds (its
 * EXIT lost, or the tid reused): that thread is forgotten and named. */
static void test_fork_forgets_stale_parent(void **state)
{
	struct thread *stale = machine__findnew_thread(m, 100, 101), *parent;
	struct thread_ids gone = { -1, -1 };

	machine__process_fork(m, 300, 101, 300, 101, true, &gone);
	assert_int_equal(gone.pid, 100);
	assert_int_equal(gone.tid, 101);
	parent = machine__find_thread(m, 101, 101);
	assert_ptr_not_equal(parent, stale);
	assert_int_equal(parent->pid, 101);
	/* a parent of the right pid is left alone */
	gone = (struct thread_ids){ -1, -1 };
	machine__process_fork(m, 301, 101, 301, 101, true, &gone);
	assert_int_equal(gone.tid, -1);
	assert_ptr_equal(machine__find_thread(m, 101, 101), parent);
}

static bool claimed(const struct thread *t, void *arg)
{
	return t == arg;
}

/* perf top's pruning: an exited task goes at the second prune after its
 * EXIT (late samples get one refresh), unless claimed; a live task and
 * the maps it shares stay. */
static void test_prune_threads(void **state)
{
	struct thread *live = machine__findnew_thread(m, 50, 50), *kept, *found;
	uint64_t addr;

	machine__process_mmap(m, 50, 50, 0x1000, 0x1000, 0, "/no/live", USER, NULL, 0);
	machine__process_fork(m, 51, 50, 51, 50, true, NULL);
	machine__process_fork(m, 52, 50, 52, 50, true, NULL);
	kept = machine__find_thread(m, 52, 52);
	machine__process_exit(m, 51, 51);
	machine__process_exit(m, 52, 52);
	assert_int_equal(machine__prune_threads(m, claimed, kept), 0);
	assert_non_null(machine__find_thread(m, 51, 51));
	assert_int_equal(machine__prune_threads(m, claimed, kept), 1);
	assert_null(machine__find_thread(m, 51, 51));
	found = machine__find_thread(m, 52, 52);
	assert_ptr_equal(found, kept);
	assert_string_equal(where(kept, 0x1010, &addr), "/no/live");
	assert_ptr_equal(machine__find_thread(m, 50, 50), live);
	assert_string_equal(where(live, 0x1010, &addr), "/no/live");
	assert_int_equal(addr, 0x10);
	/* unclaimed at last, it goes too */
	assert_int_equal(machine__prune_threads(m, NULL, NULL), 1);
	assert_null(machine__find_thread(m, 52, 52));
	assert_string_equal(where(live, 0x1010, &addr), "/no/live");
}

/* Each release bumps the counter the cache is. */
static void count_release(void *cache)
{
	(*(int *)cache)++;
}

static const struct cache_kind kind_a = { "a", count_release };
static const struct cache_kind kind_b = { "b", count_release };

/* Caches another module attaches to a dso or an address space are
 * released once each: when replaced, on an exec, or with their object. */
static void test_attached_caches_released_once(void **state)
{
	int replaced = 0, dso_a = 0, dso_b = 0, execd = 0, maps_a = 0, maps_b = 0;
	struct thread *t = machine__findnew_thread(m, 20, 20);
	struct thread *t2 = machine__findnew_thread(m, 20, 21);
	struct addr_location al;

	machine__process_mmap(m, 20, 20, 0x1000, 0x1000, 0, "/no/lib", USER, NULL, 0);
	assert_true(machine__resolve(m, t, USER, 0x1800, &al));
	assert_null(dso__cache(al.dso, &kind_a));
	dso__set_cache(al.dso, &kind_a, &replaced);
	dso__set_cache(al.dso, &kind_a, &dso_a);
	assert_int_equal(replaced, 1);
	dso__set_cache(al.dso, &kind_b, &dso_b);
	dso__set_cache(al.dso, &kind_b, &dso_b);	/* the same: kept, not released */
	assert_ptr_equal(dso__cache(al.dso, &kind_a), &dso_a);
	assert_ptr_equal(dso__cache(al.dso, &kind_b), &dso_b);
	assert_int_equal(dso_a + dso_b, 0);

	/* an exec in either thread drops what was cached for the old image */
	maps__set_cache(thread__maps(t), &kind_a, &execd);
	machine__process_comm(m, 20, 21, "new", true);
	assert_int_equal(execd, 1);
	assert_null(maps__cache(thread__maps(t), &kind_a));
	maps__set_cache(thread__maps(t2), &kind_a, &maps_a);
	maps__set_cache(thread__maps(t), &kind_b, &maps_b);

	machine__delete(m);
	m = NULL;
	assert_int_equal(replaced, 1);
	assert_int_equal(dso_a, 1);
	assert_int_equal(dso_b, 1);
	assert_int_equal(execd, 1);
	assert_int_equal(maps_a, 1);
	assert_int_equal(maps_b, 1);
}

static void count_dso(struct dso *dso, void *arg)
{
	(*(int *)arg)++;
}

static void test_dsos_are_interned(void **state)
{
	struct addr_location a, b;
	struct thread *t1 = machine__findnew_thread(m, 40, 40);
	struct thread *t2 = machine__findnew_thread(m, 41, 41);
	uint8_t id[20] = { 0xab, 0xcd };
	int n = 0;

	machine__process_mmap(m, 40, 40, 0x1000, 0x1000, 0, "/no/shared.so", USER, NULL, 0);
	machine__process_mmap(m, 41, 41, 0x9000, 0x1000, 0, "/no/shared.so", USER, NULL, 0);
	assert_true(machine__resolve(m, t1, USER, 0x1000, &a));
	assert_true(machine__resolve(m, t2, USER, 0x9000, &b));
	assert_ptr_equal(a.dso, b.dso);
	assert_string_equal(a.dso->short_name, "shared.so");
	assert_true(a.dso->hit);
	assert_int_equal(a.level, '.');

	machine__set_build_id(m, "/no/shared.so", id, 20);
	assert_int_equal(a.dso->build_id_size, 20);
	assert_int_equal(a.dso->build_id[1], 0xcd);
	machine__set_build_id(m, "/no/other.so", id, 20);
	machine__for_each_dso(m, count_dso, &n);
	assert_int_equal(n, 2);
}

static void test_special_mappings(void **state)
{
	struct thread *t = machine__findnew_thread(m, 50, 50);
	struct addr_location al;

	/* Executable anonymous memory is JIT code, looked up in perf-PID.map
	 * by absolute address. */
	machine__process_mmap2(m, 50, 50, 0x7000, 0x1000, 0x7000, "//anon", USER, NULL, 0,
			       PROT_READ | PROT_EXEC, MAP_PRIVATE);
	assert_true(machine__resolve(m, t, USER, 0x7010, &al));
	assert_string_equal(al.dso->long_name, "/tmp/perf-50.map");
	assert_int_equal(al.addr, 0x7010);

	/* The vdso is always mapped from its start. */
	machine__process_mmap(m, 50, 50, 0x9000, 0x2000, 0x1234, "[vdso]", USER, NULL, 0);
	assert_true(machine__resolve(m, t, USER, 0x9010, &al));
	assert_string_equal(al.dso->short_name, "[vdso]");
	assert_int_equal(al.addr, 0x10);

	/* Data in the heap has a map but no DSO symbols. */
	machine__process_mmap2(m, 50, 50, 0xa000, 0x1000, 0, "[heap]", USER, NULL, 0,
			       PROT_READ | PROT_WRITE, MAP_PRIVATE);
	assert_true(machine__resolve(m, t, USER, 0xa010, &al));
	assert_null(al.sym);
}

static void test_kernel_and_other_cpumodes(void **state)
{
	struct thread *t = machine__findnew_thread(m, 60, 60);
	struct addr_location al;

	machine__process_mmap(m, -1, 0, 0xffffffff81000000, 0x1000000, 0xffffffff81000000,
			      "[kernel.kallsyms]_text", KERNEL, NULL, 0);
	machine__symbols_config(m)->kallsyms = "/nonexistent/kallsyms";
	assert_true(machine__resolve(m, t, KERNEL, 0xffffffff81000010, &al));
	assert_string_equal(al.dso->long_name, "[kernel.kallsyms]");
	assert_true(al.dso->kernel);
	assert_int_equal(al.addr, 0xffffffff81000010);
	assert_int_equal(al.level, 'k');
	/* The same address in user mode is not the kernel's. */
	assert_false(machine__resolve(m, t, USER, 0xffffffff81000010, &al));
	assert_false(machine__resolve(m, t, PERF_RECORD_MISC_HYPERVISOR, 0x1000, &al));
	assert_int_equal(al.level, 'H');
}

/* perf's default guest: its kernel is "[guest.kernel.kallsyms]", guest
 * modes resolve there ([g], [u]), and without a guest kallsyms or vmlinux
 * it has no symbols (never the host's).  The host's machine leaves guest
 * samples unresolved ([H]). */
static void test_guest_machine(void **state)
{
	struct machine *g = machine__new_guest();
	struct thread *t = machine__findnew_thread(g, 60, 61);
	struct addr_location al;

	(void)state;
	machine__process_mmap(g, 0, 0, 0xffffffff81000000, 0x1000000, 0xffffffff81000000,
			      "[guest.kernel.kallsyms]_text", PERF_RECORD_MISC_GUEST_KERNEL, NULL, 0);
	assert_true(machine__resolve(g, t, PERF_RECORD_MISC_GUEST_KERNEL, 0xffffffff81000010,
				     &al));
	assert_string_equal(al.dso->long_name, "[guest.kernel.kallsyms]");
	assert_int_equal(al.level, 'g');
	assert_null(al.sym);
	assert_false(machine__resolve(g, t, PERF_RECORD_MISC_GUEST_USER, 0x401000, &al));
	assert_int_equal(al.level, 'u');
	machine__delete(g);
	t = machine__findnew_thread(m, 60, 61);
	assert_false(machine__resolve(m, t, PERF_RECORD_MISC_GUEST_KERNEL, 0xffffffff81000010,
				      &al));
	assert_int_equal(al.level, 'H');
}

/* --guest-code: the guest's thread takes a copy of the hypervisor's maps
 * (while it has none) and its name; no hypervisor, no thread. */
static void test_guest_code_copies_hypervisor_maps(void **state)
{
	struct machine *g = machine__new_guest();
	struct thread *t;
	struct addr_location al;

	(void)state;
	assert_null(machine__findnew_guest_code(g, m, 70));
	machine__process_comm(m, 70, 70, "qemu", false);
	t = machine__findnew_guest_code(g, m, 70);
	assert_non_null(t);
	assert_string_equal(t->comm, "[guest/70]");
	assert_false(machine__resolve(g, t, PERF_RECORD_MISC_GUEST_USER, 0x401000, &al));
	/* maps the hypervisor gains later reach an empty copy at the next sample */
	machine__process_mmap(m, 70, 70, 0x400000, 0x10000, 0, "/code/kvm_test", USER, NULL, 0);
	assert_ptr_equal(machine__findnew_guest_code(g, m, 70), t);
	assert_true(machine__resolve(g, t, PERF_RECORD_MISC_GUEST_USER, 0x401000, &al));
	assert_string_equal(al.dso->long_name, "/code/kvm_test");
	assert_int_equal(al.level, 'u');
	assert_int_equal(al.addr, 0x1000);
	/* ... but not a copy that has maps already */
	machine__process_mmap(m, 70, 70, 0x500000, 0x10000, 0, "/code/later", USER, NULL, 0);
	machine__findnew_guest_code(g, m, 70);
	assert_false(machine__resolve(g, t, PERF_RECORD_MISC_GUEST_USER, 0x500000, &al));
	machine__delete(g);
}

/* KSYMBOL: a BPF program's code gets a map, DSO and symbol of its name;
 * unregistering takes the map away, and a mapped address keeps its map. */
static void test_ksymbols(void **state)
{
	struct thread *t = machine__findnew_thread(m, 80, 80);
	struct addr_location al;

	(void)state;
	machine__process_ksymbol(m, 0xffffffffc0020000, 0x40, false, "bpf_prog_0123_x");
	assert_true(machine__resolve(m, t, KERNEL, 0xffffffffc0020010, &al));
	assert_string_equal(al.dso->long_name, "bpf_prog_0123_x");
	assert_non_null(al.sym);
	assert_string_equal(al.sym->name, "bpf_prog_0123_x");
	assert_int_equal(al.addr, 0x10);
	assert_false(machine__resolve(m, t, KERNEL, 0xffffffffc0020040, &al));
	machine__process_ksymbol(m, 0xffffffffc0020020, 0x40, false, "bpf_prog_4567_y");
	assert_true(machine__resolve(m, t, KERNEL, 0xffffffffc0020030, &al));
	assert_string_equal(al.dso->long_name, "bpf_prog_0123_x");
	machine__process_ksymbol(m, 0xffffffffc0020000, 0x40, true, "bpf_prog_0123_x");
	assert_false(machine__resolve(m, t, KERNEL, 0xffffffffc0020010, &al));
}

static void test_callchain_markers(void **state)
{
	struct thread *t = machine__findnew_thread(m, 70, 70);
	struct callchain_frame f[8];
	const uint64_t chain[] = {
		PERF_CONTEXT_KERNEL, 0xffffffff81000100, 0xffffffff81000200,
		PERF_CONTEXT_USER, 0x1100, 0x1200, 0xdead0000,
	};
	const uint64_t bad[] = { PERF_CONTEXT_USER, 0x1100, PERF_CONTEXT_GUEST, 0x1200 };
	const uint64_t bad_first[] = { PERF_CONTEXT_GUEST, 0x1100, PERF_CONTEXT_USER, 0x1200 };
	int n;

	machine__process_mmap(m, -1, 0, 0xffffffff81000000, 0x1000000, 0xffffffff81000000,
			      "[kernel.kallsyms]_text", KERNEL, NULL, 0);
	machine__symbols_config(m)->kallsyms = "/nonexistent/kallsyms";
	machine__process_mmap(m, 70, 70, 0x1000, 0x1000, 0, "/no/app", USER, NULL, 0);
	n = machine__resolve_callchain(m, t, chain, 7, false, f, 8);
	assert_int_equal(n, 5);
	assert_int_equal(f[0].ip, 0xffffffff81000100);
	assert_int_equal(f[0].al.cpumode, KERNEL);
	assert_string_equal(f[1].al.dso->long_name, "[kernel.kallsyms]");
	assert_int_equal(f[2].ip, 0x1100);
	assert_int_equal(f[2].al.cpumode, USER);
	assert_string_equal(f[3].al.dso->long_name, "/no/app");
	assert_null(f[4].al.map);	/* outside every map */

	/* max_frames counts frames, not markers. */
	assert_int_equal(machine__resolve_callchain(m, t, chain, 7, false, f, 3), 3);
	assert_int_equal(f[2].ip, 0x1100);

	/* Caller order keeps the outermost frames, each in its marker's mode. */
	assert_int_equal(machine__resolve_callchain(m, t, chain, 7, true, f, 4), 4);
	assert_int_equal(f[0].ip, 0xffffffff81000200);
	assert_int_equal(f[0].al.cpumode, KERNEL);
	assert_int_equal(f[1].ip, 0x1100);
	assert_int_equal(f[1].al.cpumode, USER);
	assert_int_equal(f[3].ip, 0xdead0000);
	assert_int_equal(machine__resolve_callchain(m, t, chain, 7, true, f, 2), 2);
	assert_int_equal(f[0].ip, 0x1200);
	assert_int_equal(f[0].al.cpumode, USER);

	/* A context perf does not know discards the chain... */
	assert_int_equal(machine__resolve_callchain(m, t, bad, 4, false, f, 8), -1);
	/* ... unless it lies beyond the part a caller-order walk reaches. */
	assert_int_equal(machine__resolve_callchain(m, t, bad, 4, true, f, 1), -1);
	assert_int_equal(machine__resolve_callchain(m, t, bad_first, 4, true, f, 1), 1);
	assert_int_equal(f[0].ip, 0x1200);
	assert_int_equal(f[0].al.cpumode, USER);
	assert_int_equal(machine__resolve_callchain(m, t, bad_first, 4, false, f, 8), -1);
}

static void test_cgroups_and_namespaces(void **state)
{
	struct thread *t;

	assert_null(machine__cgroup_path(m, 1));
	machine__process_cgroup(m, 1, "/");
	machine__process_cgroup(m, 42, "/system.slice/old");
	machine__process_cgroup(m, 42, "/system.slice/new");	/* the last record wins */
	assert_string_equal(machine__cgroup_path(m, 1), "/");
	assert_string_equal(machine__cgroup_path(m, 42), "/system.slice/new");
	assert_null(machine__cgroup_path(m, 7));
	machine__process_cgroup_ns(m, 80, 81, 4, 0xeffffffb);
	t = machine__find_thread(m, 80, 81);
	assert_non_null(t);
	assert_int_equal(t->cgroup_ns_dev, 4);
	assert_int_equal(t->cgroup_ns_ino, 0xeffffffb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_overlap_splits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroups_and_namespaces, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threads_share_process_maps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_copies_maps_and_comm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_of_thread_shares_maps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synthesized_fork_of_execd_process_copies_no_maps,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_exit_keeps_thread_and_tid_reuse_replaces,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_dsos_are_interned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_forgets_stale_parent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prune_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_special_mappings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_and_other_cpumodes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_guest_machine, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ksymbols, setup, teardown),
		cmocka_unit_test_setup_teardown(test_guest_code_copies_hypervisor_maps, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_callchain_markers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_attached_caches_released_once,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
