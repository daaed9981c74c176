/* synthesize: records describing the state before recording began (see synthesize.h). */
#include "core/live/synthesize.h"
#include "core/symbols/buildid.h"
#include "core/symbols/kernel-maps.h"
#include "util/strbuf.h"
#include "util/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define REC_MAX		65536
#define ALIGN8(x)	(((x) + 7) & ~(size_t)7)

void synth__init(struct synth *s, const struct perf_event_attr *attr, bool mmap_data,
		 synth_emit_fn emit, void *ctx)
{
	memset(s, 0, sizeof(*s));
	s->emit = emit;
	s->ctx = ctx;
	s->id_hdr_size = perf_sample__id_hdr_size(attr);
	s->mmap_data = mmap_data;
	s->proc = "/proc";
	s->nr_threads = 1;
	s->buf = xcalloc(1, REC_MAX);
	s->map_timeout_ns = -1;
}

void synth__exit(struct synth *s)
{
	free(s->buf);
	s->buf = NULL;
}

/* Starts a record in the scratch buffer, zeroed. */
static void *rec_begin(struct synth *s, uint32_t type, uint16_t misc)
{
	struct perf_event_header *h = (struct perf_event_header *)s->buf;

	memset(s->buf, 0, REC_MAX);
	h->type = type;
	h->misc = misc;
	return s->buf;
}

/* Finishes a record whose fixed part and payload take len bytes: pads to 8,
 * adds the (zero) sample_id_all trailer when asked, and emits it. */
static int rec_emit(struct synth *s, size_t len, bool id_trailer)
{
	struct perf_event_header *h = (struct perf_event_header *)s->buf;
	size_t size = ALIGN8(len) + (id_trailer ? s->id_hdr_size : 0);

	if (size > 0xffff)
		return -E2BIG;
	h->size = (uint16_t)size;
	return s->emit(s->ctx, h);
}

int synth__header_only(struct synth *s, uint32_t type)
{
	rec_begin(s, type, 0);
	return rec_emit(s, sizeof(struct perf_event_header), false);
}

int synth__time_conv(struct synth *s, const struct perf_event_mmap_page *pc)
{
	struct perf_rec_time_conv *t;

	if (!pc || !pc->cap_user_time_zero)
		return 0;
	t = rec_begin(s, PERF_RECORD_TIME_CONV, 0);
	t->time_shift = pc->time_shift;
	t->time_mult = pc->time_mult;
	t->time_zero = pc->time_zero;
	t->time_cycles = pc->time_cycles;
	t->time_mask = pc->time_mask;
	t->cap_user_time_zero = pc->cap_user_time_zero;
	t->cap_user_time_short = pc->cap_user_time_short;
	return rec_emit(s, sizeof(*t), false);
}

int synth__id_index(struct synth *s, const struct synth_id *entries, size_t nr)
{
	const size_t per_rec = (REC_MAX - 1 - sizeof(struct perf_rec_id_index)) /
			       sizeof(struct synth_id);

	while (nr) {
		size_t n = nr < per_rec ? nr : per_rec;
		struct perf_rec_id_index *r = rec_begin(s, PERF_RECORD_ID_INDEX, 0);
		int err;

		r->nr = n;
		memcpy(r->entries, entries, n * sizeof(*entries));
		err = rec_emit(s, sizeof(*r) + n * sizeof(*entries), false);
		if (err)
			return err;
		entries += n;
		nr -= n;
	}
	return 0;
}

/* Reads /proc/<tid>/comm (the thread's name, as COMM records carry it). */
static int read_comm(struct synth *s, pid_t pid, pid_t tid, char *comm, size_t len)
{
	char path[128];
	char *txt;

	snprintf(path, sizeof(path), "%s/%d/task/%d/comm", s->proc, (int)pid, (int)tid);
	txt = read_file_str(path);
	if (!txt) {
		snprintf(path, sizeof(path), "%s/%d/comm", s->proc, (int)tid);
		txt = read_file_str(path);
	}
	if (!txt)
		return -1;
	strrtrim(txt);
	snprintf(comm, len, "%s", txt);
	free(txt);
	return 0;
}

int synth__thread_map(struct synth *s, const pid_t *tids, size_t nr)
{
	const size_t per_rec = (REC_MAX - 1 - sizeof(struct perf_rec_thread_map)) /
			       sizeof(((struct perf_rec_thread_map *)0)->entries[0]);
	struct perf_rec_thread_map *r;

	if (nr > per_rec)
		nr = per_rec;	/* a THREAD_MAP is one record; readers rarely need it */
	r = rec_begin(s, PERF_RECORD_THREAD_MAP, 0);
	r->nr = nr;
	for (size_t i = 0; i < nr; i++) {
		r->entries[i].pid = (uint64_t)(int64_t)tids[i];
		if (tids[i] >= 0)
			read_comm(s, tids[i], tids[i], r->entries[i].comm,
				  sizeof(r->entries[i].comm));
	}
	return rec_emit(s, sizeof(*r) + nr * sizeof(r->entries[0]), false);
}

int synth__cpu_map(struct synth *s, const int *cpus, size_t nr)
{
	unsigned char *p = rec_begin(s, PERF_RECORD_CPU_MAP, 0);
	unsigned char *d = p + sizeof(struct perf_event_header);
	bool any = nr && cpus[0] == -1;
	size_t first = any ? 1 : 0;
	bool range = nr > first;
	uint16_t u16;

	for (size_t i = first + 1; i < nr && range; i++)
		range = cpus[i] == cpus[i - 1] + 1;
	if (range || nr == first) {
		/* { u16 type; u8 any_cpu; u8 pad; u16 start; u16 end; } */
		u16 = SYNTH_CPU_MAP_RANGE_CPUS;
		memcpy(d, &u16, 2);
		d[2] = any;
		u16 = (uint16_t)(nr > first ? cpus[first] : 0);
		memcpy(d + 4, &u16, 2);
		u16 = (uint16_t)(nr > first ? cpus[nr - 1] : 0);
		memcpy(d + 6, &u16, 2);
		return rec_emit(s, sizeof(struct perf_event_header) + 8, false);
	}
	/* { u16 type; u16 nr; u16 cpu[nr]; } */
	if (nr > (REC_MAX - 64) / 2)
		return -E2BIG;
	u16 = SYNTH_CPU_MAP_CPUS;
	memcpy(d, &u16, 2);
	u16 = (uint16_t)nr;
	memcpy(d + 2, &u16, 2);
	for (size_t i = 0; i < nr; i++) {
		u16 = (uint16_t)cpus[i];
		memcpy(d + 4 + 2 * i, &u16, 2);
	}
	return rec_emit(s, sizeof(struct perf_event_header) + 4 + 2 * nr, false);
}

/* An MMAP2 record of the kernel or a module that names it by build id. */
static int emit_kernel_map_build_id(struct synth *s, const char *name, uint64_t start,
				    uint64_t len, uint64_t pgoff, const uint8_t *id, int id_size)
{
	struct perf_rec_mmap2 *m = rec_begin(s, PERF_RECORD_MMAP2,
					     PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_MMAP_BUILD_ID);
	size_t n = strnlen(name, 4095) + 1;

	m->pid = (uint32_t)-1;
	m->tid = 0;
	m->start = start;
	m->len = len;
	m->pgoff = pgoff;
	m->build_id_size = (uint8_t)id_size;
	memcpy(m->build_id, id, (size_t)id_size);
	memcpy(m->filename, name, n - 1);
	return rec_emit(s, sizeof(*m) + n, true);
}

/* An MMAP record of a kernel map: the host's (pid -1) or a guest's (the
 * guest machine's pid, in guest kernel mode). */
static int emit_mmap(struct synth *s, uint16_t misc, uint32_t pid, const char *name,
		     uint64_t start, uint64_t len, uint64_t pgoff)
{
	struct perf_rec_mmap *m = rec_begin(s, PERF_RECORD_MMAP, misc);
	size_t n = strlen(name) + 1;

	if (n > 4096)
		n = 4096;
	m->pid = pid;
	m->tid = 0;
	m->start = start;
	m->len = len;
	m->pgoff = pgoff;
	memcpy(m->filename, name, n - 1);
	return rec_emit(s, sizeof(*m) + n, true);
}

/* notes: where the build id is, with s->build_ids (--buildid-mmap). */
static int emit_kernel_map(struct synth *s, const char *name, uint64_t start, uint64_t len,
			   uint64_t pgoff, const char *notes)
{
	uint8_t id[20];
	int id_size = 0;

	if (s->build_ids)
		id_size = notes ? sysfs__read_build_id(notes, id, sizeof(id)) :
			  sysfs__read_kernel_build_id(id, sizeof(id));
	if (id_size > 0)
		return emit_kernel_map_build_id(s, name, start, len, pgoff, id, id_size);
	return emit_mmap(s, PERF_RECORD_MISC_KERNEL, (uint32_t)-1, name, start, len, pgoff);
}

int synth__kernel_mmap(struct synth *s, const char *kallsyms)
{
	uint64_t text, etext;

	if (kernel_text__range(kallsyms, &text, &etext) < 0)
		return -ENOENT;
	return emit_kernel_map(s, "[kernel.kallsyms]_text", text, etext - text, text, NULL);
}

/* KSYMBOL names are cut where perf cuts them (its KSYM_NAME_LEN). */
#define KSYM_NAME_MAX	256

static int emit_ksymbol(struct synth *s, uint64_t addr, uint32_t len, const char *name)
{
	struct perf_rec_ksymbol *k = rec_begin(s, PERF_RECORD_KSYMBOL, 0);
	size_t n = strnlen(name, KSYM_NAME_MAX - 1);

	k->addr = addr;
	k->len = len;
	k->ksym_type = PERF_RECORD_KSYMBOL_TYPE_BPF;
	memcpy(k->name, name, n);
	return rec_emit(s, sizeof(*k) + n + 1, true);
}

int synth__bpf_prog(struct synth *s, const struct bpf_prog_desc *p,
		    const struct bpf_btf_desc *btfs, uint32_t nr_btfs, bool bpf_event)
{
	char name[KSYM_NAME_MAX];
	struct perf_rec_bpf_event *b;
	int err = 0;

	for (uint32_t i = 0; i < p->nr_funcs && !err; i++) {
		bpf_prog_desc__func_name(p, i, btfs, nr_btfs, name, sizeof(name));
		err = emit_ksymbol(s, p->addrs[i], p->lens[i], name);
	}
	if (err || !bpf_event)
		return err;
	b = rec_begin(s, PERF_RECORD_BPF_EVENT, 0);
	b->type = PERF_BPF_EVENT_PROG_LOAD;
	b->id = p->id;
	memcpy(b->tag, p->tag, sizeof(b->tag));
	return rec_emit(s, sizeof(*b), true);
}

/* "bpf_trampoline_<number>", "bpf_dispatcher_<name>" */
static bool is_bpf_image(const char *name)
{
	static const char tramp[] = "bpf_trampoline_", disp[] = "bpf_dispatcher_";

	if (!strncmp(name, tramp, sizeof(tramp) - 1))
		return isdigit((unsigned char)name[sizeof(tramp) - 1]);
	return !strncmp(name, disp, sizeof(disp) - 1) && name[sizeof(disp) - 1] &&
	       !isspace((unsigned char)name[sizeof(disp) - 1]);
}

int synth__bpf_images(struct synth *s, const char *kallsyms)
{
	FILE *f = fopen(kallsyms ? kallsyms : "/proc/kallsyms", "r");
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE);
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	if (!f)
		return -errno;
	while (!err && getline(&line, &cap, f) > 0) {
		char *tab = strchr(line, '\t'), *name, *end;
		unsigned long long addr;

		/* "addr type name\t[bpf]": only the [bpf] pseudo-module's */
		if (!tab || strncmp(tab + 1, "[bpf]", 5) || (tab[6] && tab[6] != '\n'))
			continue;
		*tab = '\0';
		addr = strtoull(line, &end, 16);
		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		name = end + 3;
		if (is_bpf_image(name))
			err = emit_ksymbol(s, addr, page, name);
	}
	free(line);
	fclose(f);
	return err;
}

struct guest_module {
	char name[64];
	uint64_t start, size;
};

static int module_cmp(const void *a, const void *b)
{
	const struct guest_module *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* A guest's /proc/modules ("name size refs deps state address ..."), by
 * address; NULL (and 0) when unreadable. */
static struct guest_module *guest_modules(const char *path, size_t *nr)
{
	FILE *f = path ? fopen(path, "r") : NULL;
	struct guest_module *v = NULL, m;
	char line[512];

	*nr = 0;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long size, start;

		if (sscanf(line, "%63s %llu %*s %*s %*s %llx", m.name, &size, &start) != 3 ||
		    !start)
			continue;
		m.start = start;
		m.size = size;
		v = xrealloc(v, (*nr + 1) * sizeof(*v));
		v[(*nr)++] = m;
	}
	fclose(f);
	if (*nr)	/* qsort takes no NULL, even for nothing */
		qsort(v, *nr, sizeof(*v), module_cmp);
	return v;
}

int synth__guest_os(struct synth *s, pid_t pid, const char *kallsyms, const char *modules)
{
	uint64_t text, etext;
	/* the map is named after the reference symbol found: _text, or _stext */
	const char *ref = kallsyms__symbol_addr(kallsyms, "_text", &text) ? "_stext" : "_text";
	char name[80];
	size_t nr;
	struct guest_module *mods;
	int err = 0;

	if (kernel_text__range(kallsyms, &text, &etext) < 0)
		return -ENOENT;
	mods = guest_modules(modules, &nr);
	for (size_t i = 0; i < nr && !err; i++) {
		snprintf(name, sizeof(name), "[%s]", mods[i].name);
		err = emit_mmap(s, PERF_RECORD_MISC_GUEST_KERNEL, (uint32_t)pid, name,
				mods[i].start, mods[i].size, 0);
		/* without _etext the kernel ends where the next module starts */
		if (etext == ~0ULL && mods[i].start > text)
			etext = mods[i].start;
	}
	free(mods);
	if (err)
		return err;
	if (pid)
		snprintf(name, sizeof(name), "[guest.kernel.kallsyms.%d]%s", (int)pid, ref);
	else
		snprintf(name, sizeof(name), "[guest.kernel.kallsyms]%s", ref);
	return emit_mmap(s, PERF_RECORD_MISC_GUEST_KERNEL, (uint32_t)pid, name, text,
			 etext - text, text);
}

static int emit_module_map(const char *name, const char *path, uint64_t start,
			   uint64_t size, void *arg)
{
	char *label = path ? xstrdup(path) : xasprintf("[%s]", name);
	char *notes = xasprintf("/sys/module/%s/notes/.note.gnu.build-id", name);
	int err = emit_kernel_map(arg, label, start, size, 0, notes);

	free(notes);
	free(label);
	return err;
}

/* The id perf_event_open reports for a cgroup: its directory's file handle. */
static bool cgroup_id(const char *dir, uint64_t *id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh.handle_bytes = sizeof(uint64_t) };
	int mount_id;

	if (name_to_handle_at(AT_FDCWD, dir, &h.fh, &mount_id, 0) < 0)
		return false;
	*id = h.id;
	return true;
}

/* One CGROUP record for dir (path: its name under the mount, "/" for the
 * root), then its children, parents first. */
static int synth_cgroup_tree(struct synth *s, struct strbuf *dir, size_t mnt_len)
{
	struct perf_rec_cgroup *c = rec_begin(s, PERF_RECORD_CGROUP, 0);
	const char *path = dir->len > mnt_len ? dir->buf + mnt_len : "/";
	size_t n = strlen(path) + 1, len = dir->len;
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (sizeof(*c) + n > REC_MAX - 64 || !cgroup_id(dir->buf, &c->id))
		return 0;	/* too deep to name, or gone meanwhile */
	memcpy(c->path, path, n);
	err = rec_emit(s, sizeof(*c) + n, true);
	d = opendir(dir->buf);
	while (!err && d && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		strbuf_addf(dir, "/%s", de->d_name);
		err = synth_cgroup_tree(s, dir, mnt_len);
		strbuf_setlen(dir, len);
	}
	if (d)
		closedir(d);
	return err;
}

int synth__cgroups(struct synth *s, const char *mountpoint)
{
	struct strbuf dir = STRBUF_INIT;
	int err;

	strbuf_addstr(&dir, mountpoint);
	err = synth_cgroup_tree(s, &dir, dir.len);
	strbuf_release(&dir);
	return err;
}

int synth__modules(struct synth *s)
{
	return running_modules__for_each(emit_module_map, s);
}

int synth__comm(struct synth *s, pid_t pid, pid_t tid, const char *comm)
{
	struct perf_rec_comm *c = rec_begin(s, PERF_RECORD_COMM, 0);
	size_t n = strnlen(comm, 15) + 1;

	c->pid = (uint32_t)pid;
	c->tid = (uint32_t)tid;
	memcpy(c->comm, comm, n - 1);
	return rec_emit(s, sizeof(*c) + n, true);
}

static int synth_fork(struct synth *s, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid)
{
	/* perf marks the forks it makes up: no parent maps to copy */
	struct perf_rec_fork *f = rec_begin(s, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC);

	f->pid = (uint32_t)pid;
	f->ppid = (uint32_t)ppid;
	f->tid = (uint32_t)tid;
	f->ptid = (uint32_t)ptid;
	return rec_emit(s, sizeof(*f), true);
}

/* Tgid and PPid of a thread from /proc/<tid>/status; -1 when it is gone. */
static int read_ids(struct synth *s, pid_t tid, pid_t *tgid, pid_t *ppid)
{
	char path[64], *txt, *p;

	snprintf(path, sizeof(path), "%s/%d/status", s->proc, (int)tid);
	txt = read_file_str(path);
	if (!txt)
		return -1;
	*tgid = tid;
	*ppid = 0;
	p = strstr(txt, "\nTgid:");
	if (p)
		*tgid = (pid_t)strtol(p + 6, NULL, 10);
	p = strstr(txt, "\nPPid:");
	if (p)
		*ppid = (pid_t)strtol(p + 6, NULL, 10);
	free(txt);
	return 0;
}

static int parse_maps_line(struct synth *s, char *line, pid_t pid, pid_t tid, uint16_t misc)
{
	struct perf_rec_mmap2 *m;
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[5];
	int name_off = 0, id_size;
	uint8_t id[20];
	char *name;
	size_t n;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
		   &maj, &min, &ino, &name_off) < 7)
		return 0;
	if (perms[2] != 'x' && !s->mmap_data)
		return 0;
	name = line + name_off;
	strrtrim(name);
	if (!*name)
		name = "//anon";
	m = rec_begin(s, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | misc);
	if (perms[2] != 'x')
		m->header.misc |= PERF_RECORD_MISC_MMAP_DATA;
	m->pid = (uint32_t)pid;
	m->tid = (uint32_t)tid;
	m->start = start;
	m->len = end - start;
	m->pgoff = pgoff;
	id_size = s->build_ids && *name == '/' ? elf_file__read_build_id(name, id, sizeof(id)) : 0;
	if (id_size > 0) {
		/* the build id in the inode's place (--buildid-mmap) */
		m->header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		m->build_id_size = (uint8_t)id_size;
		memcpy(m->build_id, id, (size_t)id_size);
	} else {
		m->maj = maj;
		m->min = min;
		m->ino = ino;
	}
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	n = strlen(name) + 1;
	if (n > 4096)
		n = 4096;
	memcpy(m->filename, name, n - 1);
	return rec_emit(s, sizeof(*m) + n, true);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int synth__mmaps(struct synth *s, pid_t pid, pid_t tid)
{
	char path[64], line[4096 + 256];
	FILE *f;
	int err = 0;
	uint64_t start = now_ns();
	bool late = false;

	snprintf(path, sizeof(path), "%s/%d/maps", s->proc, (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;	/* the process is gone: nothing to describe */
	while (!err && !late && fgets(line, sizeof(line), f)) {
		late = s->map_timeout_ns >= 0 && now_ns() - start > (uint64_t)s->map_timeout_ns;
		err = parse_maps_line(s, line, pid, tid,
				      late ? PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT : 0);
	}
	fclose(f);
	if (late && s->timed_out)
		s->timed_out(pid, tid);
	return err;
}

int synth__thread(struct synth *s, pid_t tid, bool with_mmaps)
{
	pid_t tgid, ppid;
	char comm[16];
	int err;

	if (read_ids(s, tid, &tgid, &ppid) || read_comm(s, tgid, tid, comm, sizeof(comm)))
		return 0;
	err = synth__comm(s, tgid, tid, comm);
	if (!err && with_mmaps && tid == tgid)
		err = synth__mmaps(s, tgid, tid);
	return err;
}

static bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* Numeric entries of a /proc directory, sorted (processes or tasks). */
static size_t list_ids(const char *dir, pid_t **out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0, cap = 0;
	pid_t *ids = NULL;

	if (!d) {
		*out = NULL;
		return 0;
	}
	while ((de = readdir(d))) {
		if (!is_number(de->d_name))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			ids = xrealloc(ids, cap * sizeof(*ids));
		}
		ids[n++] = (pid_t)atoi(de->d_name);
	}
	closedir(d);
	for (size_t i = 1; i < n; i++) {	/* small n: insertion sort */
		pid_t v = ids[i];
		size_t j = i;

		while (j && ids[j - 1] > v) {
			ids[j] = ids[j - 1];
			j--;
		}
		ids[j] = v;
	}
	*out = ids;
	return n;
}

static int synth_process_full(struct synth *s, pid_t pid, bool with_mmaps)
{
	char dir[64];
	pid_t *tids;
	size_t n;
	int err = 0;

	snprintf(dir, sizeof(dir), "%s/%d/task", s->proc, (int)pid);
	n = list_ids(dir, &tids);
	for (size_t i = 0; i < n && !err; i++) {
		pid_t tgid, ppid;
		char comm[16];

		if (read_ids(s, tids[i], &tgid, &ppid) ||
		    read_comm(s, pid, tids[i], comm, sizeof(comm)))
			continue;	/* exited meanwhile */
		/* The main thread's parent is its PPid; other threads are
		 * taken to be spawned by the main thread. */
		if (tids[i] == pid)
			err = synth_fork(s, pid, ppid, pid, ppid);
		else
			err = synth_fork(s, pid, pid, tids[i], pid);
		if (!err)
			err = synth__comm(s, pid, tids[i], comm);
		if (!err && with_mmaps && tids[i] == pid)
			err = synth__mmaps(s, pid, pid);
	}
	free(tids);
	return err;
}

/* One worker's share of the processes: it builds their records into its
 * own buffer, which the caller then emits in process order. */
struct synth_share {
	struct synth s;
	const pid_t *pids;
	size_t nr;
	bool with_mmaps;
	struct strbuf out;
	int err;
};

static int share_collect(void *ctx, const struct perf_event_header *rec)
{
	struct synth_share *sh = ctx;

	strbuf_add(&sh->out, rec, rec->size);
	return 0;
}

static void *share_run(void *arg)
{
	struct synth_share *sh = arg;

	for (size_t i = 0; i < sh->nr && !sh->err; i++)
		sh->err = synth_process_full(&sh->s, sh->pids[i], sh->with_mmaps);
	return NULL;
}

/* Emits a share's records through the caller's callback. */
static int share_emit(struct synth *s, const struct synth_share *sh)
{
	const char *p = sh->out.buf, *end = p + sh->out.len;
	int err = 0;

	while (p < end && !err) {
		const struct perf_event_header *h = (const void *)p;

		err = s->emit(s->ctx, h);
		p += h->size;
	}
	return err;
}

/* The processes split over nr workers in contiguous shares; the records
 * come out in the order one thread would have written them. */
static int synth_in_parallel(struct synth *s, const pid_t *pids, size_t n, bool with_mmaps,
			     unsigned int nr)
{
	struct synth_share *shares = xcalloc(nr, sizeof(*shares));
	pthread_t *tids = xcalloc(nr, sizeof(*tids));
	bool *started = xcalloc(nr, sizeof(*started));
	int err = 0;

	for (unsigned int i = 0; i < nr; i++) {
		struct synth_share *sh = &shares[i];
		size_t from = n * i / nr, to = n * (i + 1) / nr;

		sh->s = *s;
		sh->s.emit = share_collect;
		sh->s.ctx = sh;
		sh->s.buf = xcalloc(1, REC_MAX);
		sh->pids = pids + from;
		sh->nr = to - from;
		sh->with_mmaps = with_mmaps;
		/* a worker that cannot start leaves its share to this thread */
		started[i] = pthread_create(&tids[i], NULL, share_run, sh) == 0;
	}
	for (unsigned int i = 0; i < nr; i++) {
		struct synth_share *sh = &shares[i];

		if (started[i])
			pthread_join(tids[i], NULL);
		else
			share_run(sh);
		if (!err)
			err = sh->err;
		if (!err)
			err = share_emit(s, sh);
		strbuf_release(&sh->out);
		free(sh->s.buf);
	}
	free(started);
	free(tids);
	free(shares);
	return err;
}

int synth__all_threads(struct synth *s, bool with_mmaps)
{
	pid_t *pids;
	size_t n = list_ids(s->proc, &pids);
	unsigned int nr = s->nr_threads < n ? s->nr_threads : (unsigned int)n;
	int err = 0;

	if (nr > 1)
		err = synth_in_parallel(s, pids, n, with_mmaps, nr);
	else
		for (size_t i = 0; i < n && !err; i++)
			err = synth_process_full(s, pids[i], with_mmaps);
	free(pids);
	return err;
}
