/* Unit tests for core/synthesize: records built from a fake /proc tree and
 * a fake kallsyms, checked field by field against the layout perf reads. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/symbols/buildid.h"
#include "core/symbols/kernel-maps.h"
#include "core/live/synthesize.h"
#include "util/util.h"

static char root[64];
static unsigned char out[1 << 16];
static size_t out_len;

static int collect(void *ctx, const struct perf_event_header *rec)
{
	assert_true(out_len + rec->size <= sizeof(out));
	assert_int_equal(rec->size % 8, 0);
	memcpy(out + out_len, rec, rec->size);
	out_len += rec->size;
	return 0;
}

static void put(const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel);
	char *dir = xstrdup(path);
	FILE *f;

	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(dir, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(dir);
	free(path);
}

static int setup(void **state)
{
	strcpy(root, "/tmp/pcl-synth-XXXXXX");
	assert_non_null(mkdtemp(root));
	put("100/status", "Name:\tburner\nUmask:\t0022\nTgid:\t100\nPid:\t100\nPPid:\t1\n");
	put("100/comm", "burner\n");
	put("100/task/100/comm", "burner\n");
	put("100/task/101/comm", "worker\n");
	put("101/status", "Name:\tworker\nTgid:\t100\nPid:\t101\nPPid:\t1\n");
	put("101/comm", "worker\n");
	put("100/maps",
	    "5600-7000 r--p 00000000 fe:00 42   /usr/bin/burner\n"
	    "7000-9000 r-xp 00001000 fe:00 42   /usr/bin/burner\n"
	    "a000-b000 rw-p 00000000 00:00 0 \n"
	    "c000-d000 r-xs 00000000 00:05 7    /dev/zero (deleted)\n"
	    "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0   [vsyscall]\n");
	put("kallsyms", "ffffffff81000000 T _stext\nffffffff81000000 T _text\n"
			"ffffffff81001000 t foo\nffffffff82209988 T _etext\n");
	out_len = 0;
	return 0;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf %s", root);

	assert_int_equal(system(cmd), 0);
	free(cmd);
	return 0;
}

static const struct perf_event_header *rec_at(size_t *off)
{
	const struct perf_event_header *h = (const void *)(out + *off);

	if (*off >= out_len)
		return NULL;
	*off += h->size;
	return h;
}

/* An attr with sample_id_all and the given sample_type. */
static struct perf_event_attr *attr_of(uint64_t sample_type)
{
	static struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.sample_type = sample_type;
	a.sample_id_all = 1;
	return &a;
}

static void kernel_map(void **state)
{
	struct synth s;
	char *ks = xasprintf("%s/kallsyms", root);
	const struct perf_rec_mmap *m;
	size_t off = 0;

	synth__init(&s, attr_of(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME), false, collect, NULL);
	assert_int_equal(synth__kernel_mmap(&s, ks), 0);
	m = (const void *)rec_at(&off);
	assert_int_equal(m->header.type, PERF_RECORD_MMAP);
	assert_int_equal(m->header.misc, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(m->header.size, 80);	/* as perf writes it */
	assert_int_equal(m->pid, (uint32_t)-1);
	assert_true(m->start == 0xffffffff81000000ULL);
	assert_true(m->pgoff == 0xffffffff81000000ULL);
	assert_int_equal(m->len, 0x1209988);
	assert_string_equal(m->filename, "[kernel.kallsyms]_text");
	synth__exit(&s);
	free(ks);
}

static void thread_with_maps(void **state)
{
	struct synth s;
	const struct perf_event_header *h;
	const struct perf_rec_comm *c;
	const struct perf_rec_mmap2 *m;
	size_t off = 0;

	synth__init(&s, attr_of(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME), false, collect, NULL);
	s.proc = root;
	assert_int_equal(synth__thread(&s, 100, true), 0);
	assert_int_equal(synth__thread(&s, 101, true), 0);	/* not main: COMM only */
	assert_int_equal(synth__thread(&s, 999, true), 0);	/* gone: nothing */

	c = (const void *)rec_at(&off);
	assert_int_equal(c->header.type, PERF_RECORD_COMM);
	assert_int_equal(c->pid, 100);
	assert_int_equal(c->tid, 100);
	assert_string_equal(c->comm, "burner");
	assert_int_equal(c->header.size, 8 + 8 + 8 + 16);

	/* Executable maps only: burner text, the shared x map, vsyscall. */
	m = (const void *)rec_at(&off);
	assert_int_equal(m->header.type, PERF_RECORD_MMAP2);
	assert_int_equal(m->header.misc, PERF_RECORD_MISC_USER);
	assert_int_equal(m->start, 0x7000);
	assert_int_equal(m->len, 0x2000);
	assert_int_equal(m->pgoff, 0x1000);
	assert_int_equal(m->maj, 0xfe);
	assert_int_equal(m->ino, 42);
	assert_int_equal(m->prot, PROT_READ | PROT_EXEC);
	assert_int_equal(m->flags, MAP_PRIVATE);
	assert_string_equal(m->filename, "/usr/bin/burner");
	m = (const void *)rec_at(&off);
	assert_int_equal(m->flags, MAP_SHARED);
	assert_string_equal(m->filename, "/dev/zero (deleted)");
	m = (const void *)rec_at(&off);
	assert_string_equal(m->filename, "[vsyscall]");
	assert_int_equal(m->prot, PROT_EXEC);

	c = (const void *)rec_at(&off);
	assert_int_equal(c->header.type, PERF_RECORD_COMM);
	assert_int_equal(c->pid, 100);
	assert_int_equal(c->tid, 101);
	assert_string_equal(c->comm, "worker");
	h = rec_at(&off);
	assert_null(h);
	synth__exit(&s);
}

static void data_maps_with_d(void **state)
{
	struct synth s;
	const struct perf_rec_mmap2 *m;
	size_t off = 0;
	int n = 0;

	synth__init(&s, attr_of(PERF_SAMPLE_IP | PERF_SAMPLE_TID), true, collect, NULL);
	s.proc = root;
	assert_int_equal(synth__mmaps(&s, 100, 100), 0);
	while ((m = (const void *)rec_at(&off))) {
		if (n == 0) {
			assert_int_equal(m->header.misc,
					 PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
			assert_string_equal(m->filename, "/usr/bin/burner");
		}
		if (n == 2)
			assert_string_equal(m->filename, "//anon");
		n++;
	}
	assert_int_equal(n, 5);
	synth__exit(&s);
}

/* --buildid-mmap: a file with a build id is named by it, others by inode. */
static void maps_with_build_ids(void **state)
{
	char exe[4096], *maps;
	uint8_t want[20];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const struct perf_rec_mmap2 *m;
	struct synth s;
	size_t off = 0;
	int size;

	assert_true(n > 0);
	exe[n] = '\0';
	size = elf_file__read_build_id(exe, want, sizeof(want));
	assert_true(size > 0);
	maps = xasprintf("7000-9000 r-xp 00001000 fe:00 42   %s\n"
			 "c000-d000 r-xs 00000000 00:05 7    /dev/zero\n", exe);
	put("200/maps", maps);
	free(maps);
	synth__init(&s, attr_of(PERF_SAMPLE_IP | PERF_SAMPLE_TID), false, collect, NULL);
	s.proc = root;
	s.build_ids = true;
	assert_int_equal(synth__mmaps(&s, 200, 200), 0);
	m = (const void *)rec_at(&off);
	assert_int_equal(m->header.misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
	assert_int_equal(m->build_id_size, size);
	assert_memory_equal(m->build_id, want, (size_t)size);
	assert_int_equal(m->prot, PROT_READ | PROT_EXEC);
	m = (const void *)rec_at(&off);
	assert_int_equal(m->header.misc, PERF_RECORD_MISC_USER);
	assert_int_equal(m->ino, 7);
	synth__exit(&s);
}

static void all_threads_has_forks(void **state)
{
	struct synth s;
	const struct perf_rec_fork *f;
	const struct perf_event_header *h;
	size_t off = 0;

	synth__init(&s, attr_of(PERF_SAMPLE_IP | PERF_SAMPLE_TID), false, collect, NULL);
	s.proc = root;
	assert_int_equal(synth__all_threads(&s, true), 0);
	f = (const void *)rec_at(&off);
	assert_int_equal(f->header.type, PERF_RECORD_FORK);
	assert_int_equal(f->pid, 100);
	assert_int_equal(f->ppid, 1);
	assert_int_equal(f->tid, 100);
	assert_int_equal(f->ptid, 1);
	assert_int_equal(rec_at(&off)->type, PERF_RECORD_COMM);
	for (int i = 0; i < 3; i++)
		assert_int_equal(rec_at(&off)->type, PERF_RECORD_MMAP2);
	f = (const void *)rec_at(&off);
	assert_int_equal(f->header.type, PERF_RECORD_FORK);
	assert_int_equal(f->pid, 100);
	assert_int_equal(f->ppid, 100);
	assert_int_equal(f->tid, 101);
	h = rec_at(&off);
	assert_int_equal(h->type, PERF_RECORD_COMM);
	assert_null(rec_at(&off));	/* /proc/101 is a thread, not listed twice */
	synth__exit(&s);
}

/* Workers reading /proc write what one thread writes, in the same order. */
static void all_threads_in_parallel_keeps_the_order(void **state)
{
	static unsigned char serial[sizeof(out)];
	size_t serial_len;
	struct synth s;

	for (int pid = 200; pid < 207; pid++) {
		char rel[64], text[128];

		snprintf(rel, sizeof(rel), "%d/status", pid);
		snprintf(text, sizeof(text), "Name:\tp%d\nTgid:\t%d\nPid:\t%d\nPPid:\t1\n", pid,
			 pid, pid);
		put(rel, text);
		snprintf(rel, sizeof(rel), "%d/task/%d/comm", pid, pid);
		snprintf(text, sizeof(text), "p%d\n", pid);
		put(rel, text);
		snprintf(rel, sizeof(rel), "%d/maps", pid);
		snprintf(text, sizeof(text), "1000-2000 r-xp 00000000 fe:00 %d   /usr/bin/p%d\n",
			 pid, pid);
		put(rel, text);
	}
	synth__init(&s, attr_of(PERF_SAMPLE_IP | PERF_SAMPLE_TID), false, collect, NULL);
	s.proc = root;
	assert_int_equal(synth__all_threads(&s, true), 0);
	memcpy(serial, out, out_len);
	serial_len = out_len;
	assert_true(serial_len > 0);
	for (unsigned int nr = 2; nr <= 12; nr += 5) {
		out_len = 0;
		s.nr_threads = nr;
		assert_int_equal(synth__all_threads(&s, true), 0);
		assert_int_equal(out_len, serial_len);
		assert_memory_equal(out, serial, serial_len);
	}
	synth__exit(&s);
}

static void maps_and_index(void **state)
{
	struct synth s;
	int cpus_range[] = { 0, 1, 2, 3 }, cpus_list[] = { 0, 2, 5 }, any[] = { -1 };
	pid_t tids[] = { 100, 101 };
	struct synth_id idx[] = { { 7, 0, 0, 100 }, { 8, 0, 1, 100 } };
	const struct perf_rec_thread_map *tm;
	const struct perf_rec_id_index *ii;
	const unsigned char *p;
	size_t off = 0;
	uint16_t u;

	synth__init(&s, attr_of(PERF_SAMPLE_IP | PERF_SAMPLE_TID), false, collect, NULL);
	s.proc = root;
	assert_int_equal(synth__cpu_map(&s, cpus_range, 4), 0);
	assert_int_equal(synth__cpu_map(&s, cpus_list, 3), 0);
	assert_int_equal(synth__cpu_map(&s, any, 1), 0);
	assert_int_equal(synth__thread_map(&s, tids, 2), 0);
	assert_int_equal(synth__id_index(&s, idx, 2), 0);
	assert_int_equal(synth__header_only(&s, PERF_RECORD_FINISHED_INIT), 0);

	p = (const void *)rec_at(&off);		/* range 0-3 */
	assert_int_equal(((const struct perf_event_header *)p)->size, 16);
	memcpy(&u, p + 8, 2);
	assert_int_equal(u, SYNTH_CPU_MAP_RANGE_CPUS);
	assert_int_equal(p[10], 0);
	memcpy(&u, p + 12, 2);
	assert_int_equal(u, 0);
	memcpy(&u, p + 14, 2);
	assert_int_equal(u, 3);
	p = (const void *)rec_at(&off);		/* list 0,2,5 */
	memcpy(&u, p + 8, 2);
	assert_int_equal(u, SYNTH_CPU_MAP_CPUS);
	memcpy(&u, p + 10, 2);
	assert_int_equal(u, 3);
	memcpy(&u, p + 16, 2);
	assert_int_equal(u, 5);
	p = (const void *)rec_at(&off);		/* any cpu */
	assert_int_equal(p[10], 1);
	tm = (const void *)rec_at(&off);
	assert_int_equal(tm->header.type, PERF_RECORD_THREAD_MAP);
	assert_int_equal(tm->nr, 2);
	assert_int_equal(tm->entries[1].pid, 101);
	assert_string_equal(tm->entries[1].comm, "worker");
	ii = (const void *)rec_at(&off);
	assert_int_equal(ii->header.type, PERF_RECORD_ID_INDEX);
	assert_int_equal(ii->nr, 2);
	assert_int_equal(ii->entries[1].id, 8);
	assert_int_equal(ii->entries[1].cpu, 1);
	assert_int_equal(rec_at(&off)->type, PERF_RECORD_FINISHED_INIT);
	synth__exit(&s);
}

static void time_conv_only_when_offered(void **state)
{
	struct synth s;
	struct perf_event_mmap_page pc;
	const struct perf_rec_time_conv *t;
	size_t off = 0;

	memset(&pc, 0, sizeof(pc));
	synth__init(&s, attr_of(PERF_SAMPLE_IP), false, collect, NULL);
	assert_int_equal(synth__time_conv(&s, &pc), 0);
	assert_int_equal(out_len, 0);
	pc.cap_user_time_zero = 1;
	pc.time_mult = 123;
	pc.time_shift = 10;
	pc.time_zero = 999;
	assert_int_equal(synth__time_conv(&s, &pc), 0);
	t = (const void *)rec_at(&off);
	assert_int_equal(t->header.type, PERF_RECORD_TIME_CONV);
	assert_int_equal(t->time_mult, 123);
	assert_int_equal(t->time_zero, 999);
	assert_int_equal(t->cap_user_time_zero, 1);
	synth__exit(&s);
}

/* The cgroup tree: "/" for the mount itself, then each cgroup below its
 * parent, with the id its directory's file handle gives. */
static void cgroup_tree(void **state)
{
	char *mnt = xasprintf("%s/cg", root);
	const char *seen[8];
	struct synth s;
	size_t off = 0;
	int n = 0;

	put("cg/a/b/tasks", "");
	put("cg/c/tasks", "");
	synth__init(&s, attr_of(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME), false, collect, NULL);
	assert_int_equal(synth__cgroups(&s, mnt), 0);
	synth__exit(&s);
	if (!out_len) {
		free(mnt);
		skip();		/* no file handles on this file system */
	}
	while (off < out_len) {
		const struct perf_rec_cgroup *c = (const void *)rec_at(&off);

		assert_int_equal(c->header.type, PERF_RECORD_CGROUP);
		assert_int_equal(c->header.size, 8 + 8 + ((strlen(c->path) + 8) & ~7u) + 16);
		assert_true(c->id != 0);
		assert_true(n < 8);
		seen[n++] = c->path;
	}
	assert_int_equal(n, 4);
	assert_string_equal(seen[0], "/");
	for (int i = 1; i < n; i++) {
		assert_true(!strcmp(seen[i], "/a") || !strcmp(seen[i], "/a/b") ||
			    !strcmp(seen[i], "/c"));
		if (!strcmp(seen[i], "/a/b"))
			assert_string_equal(seen[i - 1], "/a");	/* parents first */
	}
	free(mnt);
}

static void symbol_lookup(void **state)
{
	char *ks = xasprintf("%s/kallsyms", root);
	uint64_t a = 0;

	assert_int_equal(kallsyms__symbol_addr(ks, "foo", &a), 0);
	assert_true(a == 0xffffffff81001000ULL);
	assert_int_equal(kallsyms__symbol_addr(ks, "nope", &a), -1);
	free(ks);
}

/* A program of two functions as bpf-info describes one: KSYMBOLs named
 * bpf_prog_TAG_F (no BTF), each a zero sample_id trailer, then its
 * BPF_EVENT with the program's id and tag; byte sizes as perf's. */
static void bpf_prog_records(void **state)
{
	uint64_t addrs[2] = { 0xffffffffc0022098ULL, 0xffffffffc00220e0ULL };
	uint32_t lens[2] = { 25, 20 };
	uint8_t tags[2][BPF_PROG_TAG_LEN] = { { 0xc3, 0xd6, 0x97, 0xc9, 0x8f, 0x3b, 0x60, 0xee },
					      { 0x59, 0xf4, 0xa9, 0x31, 0x74, 0x4d, 0xcd, 0xc6 } };
	struct bpf_prog_desc p = { .id = 745, .nr_funcs = 2, .addrs = addrs, .lens = lens,
				   .tags = tags, .tag = { 1, 2, 3, 4, 5, 6, 7, 8 } };
	const struct perf_rec_ksymbol *k;
	const struct perf_rec_bpf_event *b;
	const uint8_t *trailer;
	struct synth s;
	size_t off = 0;

	synth__init(&s, attr_of(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER), false, collect, NULL);
	assert_int_equal(synth__bpf_prog(&s, &p, NULL, 0, true), 0);
	for (int i = 0; i < 2; i++) {
		k = (const void *)rec_at(&off);
		assert_non_null(k);
		assert_int_equal(k->header.type, PERF_RECORD_KSYMBOL);
		assert_int_equal(k->header.misc, 0);
		/* 24 + "bpf_prog_<16 hex>_F\0" (28, padded to 32) + 32 of sample_id */
		assert_int_equal(k->header.size, 0x58);
		assert_true(k->addr == addrs[i]);
		assert_int_equal(k->len, lens[i]);
		assert_int_equal(k->ksym_type, PERF_RECORD_KSYMBOL_TYPE_BPF);
		assert_int_equal(k->flags, 0);
		assert_string_equal(k->name, i ? "bpf_prog_59f4a931744dcdc6_F" :
						 "bpf_prog_c3d697c98f3b60ee_F");
		trailer = (const uint8_t *)k + k->header.size - 32;
		for (int j = 0; j < 32; j++)
			assert_int_equal(trailer[j], 0);
	}
	b = (const void *)rec_at(&off);
	assert_non_null(b);
	assert_int_equal(b->header.type, PERF_RECORD_BPF_EVENT);
	assert_int_equal(b->header.size, 0x38);
	assert_int_equal(b->type, PERF_BPF_EVENT_PROG_LOAD);
	assert_int_equal(b->flags, 0);
	assert_int_equal(b->id, 745);
	assert_memory_equal(b->tag, p.tag, 8);
	assert_null(rec_at(&off));

	/* --no-bpf-event: the KSYMBOLs only; a lone function takes the
	 * program's name, an unnamed one none */
	out_len = off = 0;
	p.nr_funcs = 1;
	memcpy(p.name, "pcl_one", 8);
	assert_int_equal(synth__bpf_prog(&s, &p, NULL, 0, false), 0);
	p.name[0] = '\0';
	assert_int_equal(synth__bpf_prog(&s, &p, NULL, 0, false), 0);
	k = (const void *)rec_at(&off);
	assert_string_equal(k->name, "bpf_prog_c3d697c98f3b60ee_pcl_one");
	k = (const void *)rec_at(&off);
	assert_string_equal(k->name, "bpf_prog_c3d697c98f3b60ee");
	assert_null(rec_at(&off));
	synth__exit(&s);
}

/* Trampolines and dispatchers of kallsyms' [bpf] pseudo-module, a page
 * each; programs and other modules' symbols are not images. */
static void bpf_images_from_kallsyms(void **state)
{
	char *ks = xasprintf("%s/kallsyms-bpf", root);
	const struct perf_rec_ksymbol *k;
	struct synth s;
	size_t off = 0;

	put("kallsyms-bpf", "ffffffff81000000 T _text\n"
			    "ffffffffc0001000 t bpf_trampoline_6442\t[bpf]\n"
			    "ffffffffc0002000 t bpf_prog_59f4a931744dcdc6_x\t[bpf]\n"
			    "ffffffffc0003000 t bpf_dispatcher_xdp\t[bpf]\n"
			    "ffffffffc0004000 t bpf_trampoline_x\t[bpf]\n"
			    "ffffffffc0005000 t bpf_dispatcher_xdp\t[bpfx]\n"
			    "ffffffffc0006000 t bpf_trampoline_7\t[other]\n");
	synth__init(&s, attr_of(PERF_SAMPLE_TID), false, collect, NULL);
	assert_int_equal(synth__bpf_images(&s, ks), 0);
	k = (const void *)rec_at(&off);
	assert_int_equal(k->header.type, PERF_RECORD_KSYMBOL);
	assert_true(k->addr == 0xffffffffc0001000ULL);
	assert_int_equal(k->len, (uint32_t)sysconf(_SC_PAGESIZE));
	assert_int_equal(k->ksym_type, PERF_RECORD_KSYMBOL_TYPE_BPF);
	assert_string_equal(k->name, "bpf_trampoline_6442");
	k = (const void *)rec_at(&off);
	assert_true(k->addr == 0xffffffffc0003000ULL);
	assert_string_equal(k->name, "bpf_dispatcher_xdp");
	assert_null(rec_at(&off));
	assert_true(synth__bpf_images(&s, "/nonexistent/kallsyms") < 0);
	synth__exit(&s);
	free(ks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(kernel_map, setup, teardown),
		cmocka_unit_test_setup_teardown(bpf_prog_records, setup, teardown),
		cmocka_unit_test_setup_teardown(bpf_images_from_kallsyms, setup, teardown),
		cmocka_unit_test_setup_teardown(thread_with_maps, setup, teardown),
		cmocka_unit_test_setup_teardown(data_maps_with_d, setup, teardown),
		cmocka_unit_test_setup_teardown(maps_with_build_ids, setup, teardown),
		cmocka_unit_test_setup_teardown(all_threads_has_forks, setup, teardown),
		cmocka_unit_test_setup_teardown(all_threads_in_parallel_keeps_the_order, setup,
						teardown),
		cmocka_unit_test_setup_teardown(maps_and_index, setup, teardown),
		cmocka_unit_test_setup_teardown(time_conv_only_when_offered, setup, teardown),
		cmocka_unit_test_setup_teardown(cgroup_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(symbol_lookup, setup, teardown),
	};
	return cmocka_run_group_tests_name("synthesize", tests, NULL, NULL);
}
