/* augment: pathname strings of syscalls from a BPF program (see augment.h) */
#include "core/live/augment.h"

#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/hashmap.h"
#include "util/util.h"

/* raw_syscalls:sys_enter's payload: common fields, "long id", "args[6]" */
#define TP_ID		8
#define TP_ARGS		16

/* the BPF ring: records of up to a few thousand calls between two drains */
#define RING_SIZE	(8u << 20)

/* A record kept for its thread until a sys_enter takes it. */
struct rec {
	long id;
	uint64_t args[AUGMENT_NR_ARGS];
	int idx[2];		/* argument indexes, -1: none */
	char *str[2];
	uint64_t drained_ms;	/* when it was read from the BPF ring */
	bool late;		/* read again at the call's exit */
};

/* A thread's records, oldest first: items[start .. n) */
struct queue {
	struct rec **items;
	size_t start, n, cap;
};

struct augment {
	int table_fd, scratch_fd, stash_fd, ring_fd, prog_fd, exit_prog_fd, perf_fd[2];
	void *cons_page;		/* the consumer position, ours to write */
	void *prod;			/* the producer position page, then the data twice */
	size_t page;
	struct hashmap queues;		/* tid -> struct queue * */
	struct rec *taken;		/* what the last take returned */
	uint64_t now_ms;		/* the last drain's time */
	uint64_t pruned_ms;		/* the last prune's */
	unsigned long nr_taken, nr_dropped;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int map_create(unsigned int type, unsigned int key, unsigned int value,
		      unsigned int entries)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key;
	attr.value_size = value;
	attr.max_entries = entries;
	return (int)sys_bpf(BPF_MAP_CREATE, &attr);
}

static int map_update(int fd, uint32_t key, uint32_t value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)&value;
	attr.flags = BPF_ANY;
	return (int)sys_bpf(BPF_MAP_UPDATE_ELEM, &attr);
}

/* The instruction builder: one slot per instruction, jumps to the exit
 * patched once its place is known. */
struct prog {
	struct bpf_insn insn[256];
	int n;
	bool full;			/* instructions past insn[] were lost */
	int to_out[16], nr_out;
};

static void emit(struct prog *p, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	if (p->n == (int)ARRAY_SIZE(p->insn)) {	/* refused at the load */
		p->full = true;
		return;
	}
	p->insn[p->n++] = (struct bpf_insn){ .code = code, .dst_reg = dst, .src_reg = src,
					     .off = off, .imm = imm };
}

#define MOV_REG(p, d, s)	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_IMM(p, d, i)	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ALU_IMM(p, op, d, i)	emit(p, BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define ALU_REG(p, op, d, s)	emit(p, BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define LDX(p, sz, d, s, o)	emit(p, BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(p, sz, d, s, o)	emit(p, BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(p, sz, d, o, i)	emit(p, BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define CALL(p, fn)		emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, fn)

/* "if dst op imm goto out" */
static void jump_out(struct prog *p, uint8_t op, uint8_t dst, int32_t imm)
{
	p->to_out[p->nr_out++] = p->n;
	emit(p, BPF_JMP | op | BPF_K, dst, 0, 0, imm);
}

static void load_map(struct prog *p, uint8_t dst, int fd)
{
	emit(p, BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, fd);
	emit(p, 0, 0, 0, 0, 0);
}

/* r4 = r4 when it is a string's length (0 .. AUGMENT_STR_MAX), else 0 (a
 * failed read's -errno): the bound the verifier needs too */
static void bound_len(struct prog *p, uint8_t reg)
{
	emit(p, BPF_JMP | BPF_JLE | BPF_K, reg, 0, 1, AUGMENT_STR_MAX);
	MOV_IMM(p, reg, 0);
}

enum { FD_TABLE, FD_SCRATCH, FD_RING, FD_STASH, NR_FDS };

/* The tail both programs share.  r6: the tracepoint's payload, r7: the
 * record (a per-CPU scratch value, its header filled), r8: the spec, r9:
 * pid_tgid.  Reads the strings, packed, the second right after the first;
 * at the entry (stash), keeps the header of a call whose read failed for
 * its exit; outputs only the bytes used, then returns 1, which keeps the
 * tracepoint's samples for every perf event on it. */
/* r1 = the spec's byte at shift (r8: the spec): an argument's index plus
 * one, 0 for none */
static void spec_byte(struct prog *p, int shift)
{
	MOV_REG(p, 1, 8);
	ALU_IMM(p, BPF_RSH, 1, shift);
	ALU_IMM(p, BPF_AND, 1, 0xff);
}

/* dst = the record's (r7) argument of index r1 - 1 (not 0) */
static void arg_at(struct prog *p, uint8_t dst)
{
	ALU_IMM(p, BPF_SUB, 1, 1);
	ALU_IMM(p, BPF_AND, 1, 7);		/* bounded for the verifier */
	ALU_IMM(p, BPF_LSH, 1, 3);
	ALU_REG(p, BPF_ADD, 1, 7);
	LDX(p, BPF_DW, dst, 1, AUGMENT_REC_ARGS);
}

/* A sockaddr spec's struct: as many bytes as its length argument says, up
 * to AUGMENT_SOCKADDR_MAX, their count in the first length (or the read's
 * -errno); then on to the output, past the strings (at *past). */
static void sockaddr_bytes(struct prog *p, int *past)
{
	spec_byte(p, 8);
	arg_at(p, 4);
	emit(p, BPF_JMP | BPF_JLE | BPF_K, 4, 0, 1, AUGMENT_SOCKADDR_MAX);
	MOV_IMM(p, 4, AUGMENT_SOCKADDR_MAX);
	STX(p, BPF_W, 7, 4, AUGMENT_REC_LEN0);
	spec_byte(p, 0);
	arg_at(p, 3);
	MOV_REG(p, 2, 4);
	MOV_REG(p, 1, 7);
	ALU_IMM(p, BPF_ADD, 1, AUGMENT_REC_STR);
	CALL(p, BPF_FUNC_probe_read_user);
	emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1, 0);
	STX(p, BPF_W, 7, 0, AUGMENT_REC_LEN0);
	*past = p->n;
	emit(p, BPF_JMP | BPF_JA, 0, 0, 0, 0);
}

static void strings_and_output(struct prog *p, const int fds[NR_FDS], bool stash)
{
	int skip[2], to_strings, past_strings;

	MOV_REG(p, 1, 8);
	ALU_IMM(p, BPF_AND, 1, AUGMENT_SPEC_SOCKADDR);
	to_strings = p->n;
	emit(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0, 0);
	sockaddr_bytes(p, &past_strings);
	p->insn[to_strings].off = (int16_t)(p->n - to_strings - 1);
	for (int s = 0; s < 2; s++) {
		spec_byte(p, 8 * s);
		skip[0] = p->n;
		emit(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0, 0);
		arg_at(p, 3);
		MOV_REG(p, 1, 7);
		if (s) {	/* after the first string */
			LDX(p, BPF_W, 4, 7, AUGMENT_REC_LEN0);
			bound_len(p, 4);
			ALU_REG(p, BPF_ADD, 1, 4);
		}
		ALU_IMM(p, BPF_ADD, 1, AUGMENT_REC_STR);
		MOV_IMM(p, 2, AUGMENT_STR_MAX);
		CALL(p, BPF_FUNC_probe_read_user_str);
		STX(p, BPF_W, 7, 0, s ? AUGMENT_REC_LEN1 : AUGMENT_REC_LEN0);
		p->insn[skip[0]].off = (int16_t)(p->n - skip[0] - 1);
	}
	p->insn[past_strings].off = (int16_t)(p->n - past_strings - 1);
	if (stash) {	/* a page not in memory yet: the exit reads again */
		MOV_REG(p, 1, 8);
		ALU_IMM(p, BPF_AND, 1, AUGMENT_SPEC_NO_LATE);
		skip[0] = p->n;
		emit(p, BPF_JMP | BPF_JNE | BPF_K, 1, 0, 0, 0);
		LDX(p, BPF_W, 1, 7, AUGMENT_REC_LEN0);
		LDX(p, BPF_W, 2, 7, AUGMENT_REC_LEN1);
		ALU_REG(p, BPF_OR, 1, 2);
		ALU_IMM(p, BPF_RSH, 1, 31);		/* a negative one */
		skip[1] = p->n;
		emit(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0, 0);
		STX(p, BPF_W, 10, 9, -12);		/* the tid */
		load_map(p, 1, fds[FD_STASH]);
		MOV_REG(p, 2, 10);
		ALU_IMM(p, BPF_ADD, 2, -12);
		MOV_REG(p, 3, 7);
		MOV_IMM(p, 4, BPF_ANY);
		CALL(p, BPF_FUNC_map_update_elem);
		for (int k = 0; k < 2; k++)
			p->insn[skip[k]].off = (int16_t)(p->n - skip[k] - 1);
	}
	LDX(p, BPF_W, 3, 7, AUGMENT_REC_LEN0);
	bound_len(p, 3);
	LDX(p, BPF_W, 4, 7, AUGMENT_REC_LEN1);
	bound_len(p, 4);
	ALU_REG(p, BPF_ADD, 3, 4);
	ALU_IMM(p, BPF_ADD, 3, AUGMENT_REC_STR);
	load_map(p, 1, fds[FD_RING]);
	MOV_REG(p, 2, 7);
	MOV_IMM(p, 4, BPF_RB_NO_WAKEUP);	/* read on pcl's beat, never polled */
	CALL(p, BPF_FUNC_ringbuf_output);
	for (int i = 0; i < p->nr_out; i++)
		p->insn[p->to_out[i]].off = (int16_t)(p->n - p->to_out[i] - 1);
	MOV_IMM(p, 0, 1);
	emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* Calls map helper fn on map fd with the key at the stack's key_off */
static void map_call(struct prog *p, int fd, int16_t key_off, int32_t fn)
{
	load_map(p, 1, fd);
	MOV_REG(p, 2, 10);
	ALU_IMM(p, BPF_ADD, 2, key_off);
	CALL(p, fn);
}

/* r0 = the value of the key at the stack's key_off, or out */
static void lookup(struct prog *p, int fd, int16_t key_off)
{
	map_call(p, fd, key_off, BPF_FUNC_map_lookup_elem);
	jump_out(p, BPF_JEQ, 0, 0);
}

/* r7 = the per-CPU scratch value, or out */
static void scratch(struct prog *p, const int fds[NR_FDS])
{
	ST(p, BPF_W, 10, -8, 0);
	lookup(p, fds[FD_SCRATCH], -8);
	MOV_REG(p, 7, 0);
}

/* r6 = the tracepoint's context; reg = the call's entry in the table (its
 * pathname arguments), through the stack slot at key_off; out for a call
 * past the table or without pathnames (shared by both programs) */
static void table_entry(struct prog *p, const int fds[NR_FDS], int nr_specs, int16_t key_off,
			uint8_t reg)
{
	MOV_REG(p, 6, 1);
	LDX(p, BPF_DW, 1, 6, TP_ID);
	jump_out(p, BPF_JGE, 1, nr_specs);		/* unsigned: -1 too */
	STX(p, BPF_W, 10, 1, key_off);
	lookup(p, fds[FD_TABLE], key_off);
	LDX(p, BPF_W, reg, 0, 0);
	jump_out(p, BPF_JEQ, reg, 0);
}

/* raw_syscalls:sys_enter's: the calls of the table, pcl's own left out */
static void build_enter(struct prog *p, const int fds[NR_FDS], pid_t self, int nr_specs)
{
	table_entry(p, fds, nr_specs, -4, 8);
	CALL(p, BPF_FUNC_get_current_pid_tgid);
	MOV_REG(p, 9, 0);
	MOV_REG(p, 1, 0);
	ALU_IMM(p, BPF_RSH, 1, 32);
	jump_out(p, BPF_JEQ, 1, self);
	scratch(p, fds);
	STX(p, BPF_DW, 7, 9, AUGMENT_REC_PID_TGID);
	LDX(p, BPF_DW, 1, 6, TP_ID);
	STX(p, BPF_DW, 7, 1, AUGMENT_REC_ID);
	for (int i = 0; i < AUGMENT_NR_ARGS; i++) {
		LDX(p, BPF_DW, 1, 6, TP_ARGS + 8 * i);
		STX(p, BPF_DW, 7, 1, AUGMENT_REC_ARGS + 8 * i);
	}
	STX(p, BPF_W, 7, 8, AUGMENT_REC_SPEC);
	ST(p, BPF_W, 7, AUGMENT_REC_LEN0, 0);
	ST(p, BPF_W, 7, AUGMENT_REC_LEN1, 0);
	ST(p, BPF_W, 7, AUGMENT_REC_LEN1 + 4, 0);
	strings_and_output(p, fds, true);
}

/* raw_syscalls:sys_exit's: the calls whose entry kept their header, read
 * again now that the kernel brought their strings' pages in, marked late */
static void build_exit(struct prog *p, const int fds[NR_FDS], int nr_specs)
{
	/* first the table (an array: its lookup is cheap), so a call
	 * without pathnames, most of them, costs no hash lookup */
	table_entry(p, fds, nr_specs, -16, 1);
	CALL(p, BPF_FUNC_get_current_pid_tgid);
	MOV_REG(p, 9, 0);
	STX(p, BPF_W, 10, 9, -4);
	lookup(p, fds[FD_STASH], -4);
	MOV_REG(p, 8, 0);
	scratch(p, fds);
	for (int off = 0; off < AUGMENT_REC_STR; off += 8) {
		LDX(p, BPF_DW, 1, 8, (int16_t)off);
		STX(p, BPF_DW, 7, 1, (int16_t)off);
	}
	map_call(p, fds[FD_STASH], -4, BPF_FUNC_map_delete_elem);
	LDX(p, BPF_W, 8, 7, AUGMENT_REC_SPEC);
	ALU_IMM(p, BPF_OR, 8, AUGMENT_SPEC_LATE);
	STX(p, BPF_W, 7, 8, AUGMENT_REC_SPEC);
	strings_and_output(p, fds, false);
}

static void why_errno(char *why, size_t size, const char *what)
{
	snprintf(why, size, "%s: %s", what, strerror(errno));
}

static struct augment *augment__alloc(void)
{
	struct augment *a = xcalloc(1, sizeof(*a));

	a->table_fd = a->scratch_fd = a->stash_fd = a->ring_fd = -1;
	a->prog_fd = a->exit_prog_fd = a->perf_fd[0] = a->perf_fd[1] = -1;
	return a;
}

struct augment *augment__new_unloaded(void)
{
	return augment__alloc();
}

/* A program's fd, or -1 with why (the verifier's last words if it spoke) */
static int load_prog(const struct prog *p, const char *name, char *why, size_t why_size)
{
	static char log[1 << 16];
	union bpf_attr attr;
	int fd;

	if (p->full) {
		snprintf(why, why_size, "BPF program %s: too long", name);
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	attr.insns = (uintptr_t)p->insn;
	attr.insn_cnt = (uint32_t)p->n;
	/* bpf_probe_read_user_str() is for GPL programs */
	attr.license = (uintptr_t)"GPL";
	snprintf(attr.prog_name, sizeof(attr.prog_name), "%s", name);
	fd = (int)sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0) {	/* again, for the verifier's words */
		int err = errno;

		attr.log_buf = (uintptr_t)log;
		attr.log_size = sizeof(log);
		attr.log_level = 1;
		log[0] = '\0';
		fd = (int)sys_bpf(BPF_PROG_LOAD, &attr);
		errno = fd < 0 ? err : errno;
	}
	if (fd < 0) {
		size_t len = strlen(log);
		char *last;

		why_errno(why, why_size, "BPF program");
		/* the verifier's last line says what it refused */
		while (len && log[len - 1] == '\n')
			log[--len] = '\0';
		last = strrchr(log, '\n');
		if (len) {
			size_t at = strlen(why);

			snprintf(why + at, why_size - at, " (%s)", last ? last + 1 : log);
		}
	}
	return fd;
}

struct augment *augment__new(const uint32_t *specs, int nr_specs, pid_t self, char *why,
			     size_t why_size)
{
	struct augment *a = augment__alloc();
	struct prog p = { .n = 0 };
	int fds[NR_FDS];

	a->page = (size_t)sysconf(_SC_PAGESIZE);
	a->table_fd = map_create(BPF_MAP_TYPE_ARRAY, 4, 4, (unsigned int)nr_specs);
	if (a->table_fd < 0) {
		why_errno(why, why_size, "BPF map");
		goto fail;
	}
	for (int i = 0; i < nr_specs; i++)
		if (specs[i] && map_update(a->table_fd, (uint32_t)i, specs[i])) {
			why_errno(why, why_size, "BPF map update");
			goto fail;
		}
	a->ring_fd = map_create(BPF_MAP_TYPE_RINGBUF, 0, 0, RING_SIZE);
	if (a->ring_fd < 0) {
		why_errno(why, why_size, "BPF ring buffer");
		goto fail;
	}
	a->cons_page = mmap(NULL, a->page, PROT_READ | PROT_WRITE, MAP_SHARED, a->ring_fd, 0);
	a->prod = a->cons_page == MAP_FAILED ? MAP_FAILED :
		  mmap(NULL, a->page + 2 * (size_t)RING_SIZE, PROT_READ, MAP_SHARED, a->ring_fd,
		       (off_t)a->page);
	if (a->cons_page == MAP_FAILED || a->prod == MAP_FAILED) {
		why_errno(why, why_size, "BPF ring buffer mmap");
		goto fail;
	}
	a->scratch_fd = map_create(BPF_MAP_TYPE_PERCPU_ARRAY, 4, AUGMENT_REC_SIZE, 1);
	if (a->scratch_fd < 0) {
		why_errno(why, why_size, "BPF scratch map");
		goto fail;
	}
	a->stash_fd = map_create(BPF_MAP_TYPE_LRU_HASH, 4, AUGMENT_REC_STR, 4096);
	if (a->stash_fd < 0) {
		why_errno(why, why_size, "BPF stash map");
		goto fail;
	}
	fds[FD_TABLE] = a->table_fd;
	fds[FD_SCRATCH] = a->scratch_fd;
	fds[FD_RING] = a->ring_fd;
	fds[FD_STASH] = a->stash_fd;
	build_enter(&p, fds, self, nr_specs);
	a->prog_fd = load_prog(&p, "pcl_augment", why, why_size);
	if (a->prog_fd < 0)
		goto fail;
	p = (struct prog){ .n = 0 };
	build_exit(&p, fds, nr_specs);
	a->exit_prog_fd = load_prog(&p, "pcl_augment_x", why, why_size);
	if (a->exit_prog_fd < 0)
		goto fail;
	return a;
fail:
	augment__delete(a);
	return NULL;
}

/* The kernel addresses of program fd's functions, appended to addrs[*nr <
 * max]. */
static void prog_ksyms(int fd, uint64_t *addrs, size_t *nr, size_t max)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	if (fd < 0 || *nr >= max)
		return;
	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = (uint32_t)(max - *nr);
	info.jited_ksyms = (uintptr_t)(addrs + *nr);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		return;
	*nr += info.nr_jited_ksyms < max - *nr ? info.nr_jited_ksyms : max - *nr;
}

size_t augment__ksyms(const struct augment *a, uint64_t *addrs, size_t max)
{
	size_t nr = 0;

	if (a) {
		prog_ksyms(a->prog_fd, addrs, &nr, max);
		prog_ksyms(a->exit_prog_fd, addrs, &nr, max);
	}
	return nr;
}

static void rec_free(struct rec *r)
{
	if (!r)
		return;
	free(r->str[0]);
	free(r->str[1]);
	free(r);
}

/* Frees the records before items[end] */
static size_t queue_drop(struct queue *q, size_t end)
{
	size_t dropped = end - q->start;

	for (size_t i = q->start; i < end; i++)
		rec_free(q->items[i]);
	q->start = end;
	if (q->start == q->n)
		q->start = q->n = 0;
	return dropped;
}

static void queue_push(struct queue *q, struct rec *r)
{
	if (q->n == q->cap && q->start) {	/* slide the live ones down */
		memmove(q->items, q->items + q->start, (q->n - q->start) * sizeof(*q->items));
		q->n -= q->start;
		q->start = 0;
	}
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 16;
		q->items = xrealloc(q->items, q->cap * sizeof(*q->items));
	}
	q->items[q->n++] = r;
}

void augment__delete(struct augment *a)
{
	struct queue **q = NULL;

	if (!a)
		return;
	while ((q = hashmap_next(&a->queues, q))) {
		queue_drop(*q, (*q)->n);
		free((*q)->items);
		free(*q);
	}
	hashmap_release(&a->queues);
	rec_free(a->taken);
	if (a->prod && a->prod != MAP_FAILED)
		munmap(a->prod, a->page + 2 * (size_t)RING_SIZE);
	if (a->cons_page && a->cons_page != MAP_FAILED)
		munmap(a->cons_page, a->page);
	for (int i = 0; i < 2; i++)
		if (a->perf_fd[i] >= 0)
			close(a->perf_fd[i]);
	if (a->prog_fd >= 0)
		close(a->prog_fd);
	if (a->exit_prog_fd >= 0)
		close(a->exit_prog_fd);
	if (a->stash_fd >= 0)
		close(a->stash_fd);
	if (a->ring_fd >= 0)
		close(a->ring_fd);
	if (a->table_fd >= 0)
		close(a->table_fd);
	if (a->scratch_fd >= 0)
		close(a->scratch_fd);
	free(a);
}

int augment__attach(struct augment *a, uint64_t enter_id, uint64_t exit_id)
{
	struct perf_event_attr attr;
	const uint64_t ids[2] = { enter_id, exit_id };
	const int progs[2] = { a->prog_fd, a->exit_prog_fd };

	/* events of pcl's own, counting, never inherited: a program leaves
	 * the tracepoint when the event that brought it is freed, and an
	 * inherited copy of a traced task's event is freed as that task
	 * exits */
	for (int i = 0; i < 2; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.size = sizeof(attr);
		attr.config = ids[i];
		attr.disabled = 1;
		a->perf_fd[i] = (int)syscall(__NR_perf_event_open, &attr, 0, -1, -1,
					     PERF_FLAG_FD_CLOEXEC);
		if (a->perf_fd[i] < 0 || ioctl(a->perf_fd[i], PERF_EVENT_IOC_SET_BPF, progs[i]))
			return -errno;
	}
	return 0;
}

/* A string's length as the program bounds it: failures take no room */
static size_t used_len(int32_t len)
{
	return len > 0 && len <= AUGMENT_STR_MAX ? (size_t)len : 0;
}

static char *rec_string(const unsigned char *rec, size_t size, int s)
{
	int32_t len, len0;
	size_t off = AUGMENT_REC_STR;

	memcpy(&len0, rec + AUGMENT_REC_LEN0, sizeof(len0));
	memcpy(&len, rec + (s ? AUGMENT_REC_LEN1 : AUGMENT_REC_LEN0), sizeof(len));
	if (s)
		off += used_len(len0);
	if (!used_len(len) || off + (size_t)len > size)
		return NULL;
	/* the helper's count has the NUL: a cut string ends at the limit */
	return xstrndup((const char *)rec + off, (size_t)len - 1);
}

/* A sockaddr's bytes, zero past those read, or NULL */
static char *rec_sockaddr(const unsigned char *rec, size_t size)
{
	int32_t len;
	char *sa;

	memcpy(&len, rec + AUGMENT_REC_LEN0, sizeof(len));
	if (len <= 0 || len > AUGMENT_SOCKADDR_MAX || AUGMENT_REC_STR + (size_t)len > size)
		return NULL;
	sa = xcalloc(1, AUGMENT_SOCKADDR_MAX + 1);
	memcpy(sa, rec + AUGMENT_REC_STR, (size_t)len);
	return sa;
}

bool augment__feed(struct augment *a, const void *data, size_t size)
{
	const unsigned char *rec = data;
	uint64_t pid_tgid, id;
	uint32_t spec;
	struct queue **qp, *q;
	struct rec *r;

	if (size < AUGMENT_REC_STR)
		return false;
	memcpy(&pid_tgid, rec + AUGMENT_REC_PID_TGID, 8);
	memcpy(&id, rec + AUGMENT_REC_ID, 8);
	memcpy(&spec, rec + AUGMENT_REC_SPEC, 4);
	r = xcalloc(1, sizeof(*r));
	r->id = (long)id;
	memcpy(r->args, rec + AUGMENT_REC_ARGS, sizeof(r->args));
	for (int s = 0; s < 2; s++) {
		unsigned int arg = (spec >> (8 * s)) & 0xff;

		/* a sockaddr's second byte is its length's argument */
		if (s && (spec & AUGMENT_SPEC_SOCKADDR))
			arg = 0;
		r->idx[s] = arg >= 1 && arg <= AUGMENT_NR_ARGS ? (int)arg - 1 : -1;
		if (r->idx[s] < 0)
			r->str[s] = NULL;
		else if (spec & AUGMENT_SPEC_SOCKADDR)
			r->str[s] = rec_sockaddr(rec, size);
		else
			r->str[s] = rec_string(rec, size, s);
	}
	qp = hashmap_u64_findnew(&a->queues, (uint32_t)pid_tgid, NULL);
	if (!*qp)
		*qp = xcalloc(1, sizeof(**qp));
	q = *qp;
	r->drained_ms = a->now_ms;
	r->late = spec & AUGMENT_SPEC_LATE;
	if (q->n - q->start == AUGMENT_QUEUE_MAX) {	/* the oldest never matched */
		queue_drop(q, q->start + 1);
		a->nr_dropped++;
	}
	queue_push(q, r);
	return true;
}

void augment__drain(struct augment *a)
{
	uint64_t mask = RING_SIZE - 1, cons, prod;
	const unsigned char *data;

	if (!a->prod)
		return;
	a->now_ms = now_ms();
	data = (const unsigned char *)a->prod + a->page;
	cons = __atomic_load_n((uint64_t *)a->cons_page, __ATOMIC_ACQUIRE);
	prod = __atomic_load_n((uint64_t *)a->prod, __ATOMIC_ACQUIRE);
	while (cons < prod) {
		const unsigned char *hdr = data + (cons & mask);
		uint32_t len = __atomic_load_n((const uint32_t *)hdr, __ATOMIC_ACQUIRE);

		if (len & BPF_RINGBUF_BUSY_BIT)
			break;
		if (!(len & BPF_RINGBUF_DISCARD_BIT))
			augment__feed(a, hdr + BPF_RINGBUF_HDR_SZ, len);
		len &= ~(uint32_t)(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
		cons += (len + BPF_RINGBUF_HDR_SZ + 7) & ~7u;
		__atomic_store_n((uint64_t *)a->cons_page, cons, __ATOMIC_RELEASE);
	}
}

static bool rec_matches(const struct rec *r, long id, const uint64_t args[AUGMENT_NR_ARGS],
			bool late)
{
	return r->id == id && r->late == late && !memcmp(r->args, args, sizeof(r->args));
}

static struct rec *queue_take(struct augment *a, struct queue *q, long id,
			      const uint64_t args[AUGMENT_NR_ARGS], bool late)
{
	for (size_t i = q ? q->start : 0; q && i < q->n; i++) {
		struct rec *r = q->items[i];

		if (!rec_matches(r, id, args, late))
			continue;
		/* the ones before it are calls no sample asked for */
		q->items[i] = NULL;
		a->nr_dropped += queue_drop(q, i);
		queue_drop(q, i + 1);
		return r;
	}
	return NULL;
}

void augment__prune(struct augment *a)
{
	struct queue **q = NULL;
	uint64_t now = a->prod ? now_ms() : a->now_ms;

	if (now - a->pruned_ms < AUGMENT_KEEP_MS / 4)
		return;
	a->pruned_ms = now;
	while ((q = hashmap_next(&a->queues, q))) {
		size_t end = (*q)->start;

		while (end < (*q)->n && (*q)->items[end]->drained_ms + AUGMENT_KEEP_MS < now)
			end++;
		a->nr_dropped += queue_drop(*q, end);
	}
}

bool augment__take(struct augment *a, pid_t tid, long id, const uint64_t args[AUGMENT_NR_ARGS],
		   bool late, const char *strs[AUGMENT_NR_ARGS])
{
	struct queue **q = hashmap_u64_find(&a->queues, (uint32_t)tid);
	struct rec *r = queue_take(a, q ? *q : NULL, id, args, late);

	if (!r && a->prod) {	/* written after the last drain */
		augment__drain(a);
		q = hashmap_u64_find(&a->queues, (uint32_t)tid);
		r = queue_take(a, q ? *q : NULL, id, args, late);
	}
	for (int i = 0; i < AUGMENT_NR_ARGS; i++)
		strs[i] = NULL;
	rec_free(a->taken);
	a->taken = r;
	if (!r)
		return false;
	a->nr_taken++;
	for (int s = 0; s < 2; s++)
		if (r->idx[s] >= 0)
			strs[r->idx[s]] = r->str[s];
	return true;
}

void augment__stats(const struct augment *a, unsigned long *taken, unsigned long *dropped)
{
	*taken = a->nr_taken;
	*dropped = a->nr_dropped;
}
