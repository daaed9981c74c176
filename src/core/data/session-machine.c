/* session-machine: builds the address-space model from the records that
 * describe it (COMM, FORK, EXIT, MMAP, MMAP2, HEADER_BUILD_ID), and
 * resolves samples against it. */
#include "core/symbols/embed.h"
#include "core/symbols/machine.h"
#include "core/data/session.h"
#include "core/data/session-int.h"
#include "core/events/parse-events.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

void session_machine__take(struct machine *m, const struct perf_event_header *rec,
			   struct thread_ids *stale)
{
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	switch (rec->type) {
	case PERF_RECORD_COMM: {
		const struct perf_rec_comm *c = (const void *)rec;

		machine__process_comm(m, (pid_t)c->pid, (pid_t)c->tid, c->comm,
				      rec->misc & PERF_RECORD_MISC_COMM_EXEC);
		if (rec->misc & PERF_RECORD_MISC_COMM_EXEC)
			machine__maps_changed(m);
		break;
	}
	case PERF_RECORD_FORK: {
		const struct perf_rec_fork *f = (const void *)rec;

		machine__process_fork(m, (pid_t)f->pid, (pid_t)f->ppid, (pid_t)f->tid,
				      (pid_t)f->ptid, !(rec->misc & PERF_RECORD_MISC_FORK_EXEC),
				      stale);
		machine__maps_changed(m);
		break;
	}
	case PERF_RECORD_EXIT: {
		const struct perf_rec_fork *f = (const void *)rec;

		machine__process_exit(m, (pid_t)f->pid, (pid_t)f->tid);
		break;
	}
	case PERF_RECORD_MMAP: {
		const struct perf_rec_mmap *mm = (const void *)rec;

		machine__process_mmap(m, (pid_t)mm->pid, (pid_t)mm->tid, mm->start, mm->len,
				      mm->pgoff, mm->filename, cpumode, NULL, 0);
		machine__maps_changed(m);
		break;
	}
	case PERF_RECORD_MMAP2: {
		const struct perf_rec_mmap2 *mm = (const void *)rec;
		bool bid = rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID;

		machine__process_mmap2(m, (pid_t)mm->pid, (pid_t)mm->tid, mm->start, mm->len,
				       mm->pgoff, mm->filename, cpumode,
				       bid ? mm->build_id : NULL, bid ? mm->build_id_size : 0,
				       mm->prot, mm->flags);
		if (!bid) {
			struct thread *t = machine__find_thread(m, (pid_t)mm->pid, (pid_t)mm->tid);
			struct map *map = t ? maps__find(thread__maps(t), mm->start) : NULL;

			if (map && map->start == mm->start) {
				map->ino = mm->ino;
				map->maj = mm->maj;
				map->min = mm->min;
				map->ino_generation = mm->ino_generation;
			}
		}
		machine__maps_changed(m);
		break;
	}
	case PERF_RECORD_KSYMBOL: {
		const struct perf_rec_ksymbol *k = (const void *)rec;

		machine__process_ksymbol(m, k->addr, k->len,
					 k->flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, k->name);
		machine__maps_changed(m);
		break;
	}
	case PERF_RECORD_CGROUP: {
		const struct perf_rec_cgroup *c = (const void *)rec;

		machine__process_cgroup(m, c->id, c->path);
		break;
	}
	case PERF_RECORD_NAMESPACES: {
		const struct perf_rec_namespaces *ns = (const void *)rec;

		if (ns->nr_namespaces > CGROUP_NS_INDEX)
			machine__process_cgroup_ns(m, (pid_t)ns->pid, (pid_t)ns->tid,
						   ns->link_info[CGROUP_NS_INDEX].dev,
						   ns->link_info[CGROUP_NS_INDEX].ino);
		break;
	}
	case PERF_RECORD_HEADER_BUILD_ID: {
		const struct perf_rec_build_id *b = (const void *)rec;

		machine__set_build_id(m, b->filename, b->build_id, perf_rec_build_id__size(b));
		break;
	}
	default:
		break;
	}
}

void machine__take_record(struct machine *m, const struct perf_event_header *rec)
{
	session_machine__take(m, rec, NULL);
}

/* Tells the machine the build ids of the header's table. */
static void machine_build_ids(struct perf_session *s, struct machine *m)
{
	for (uint32_t i = 0; i < s->header.nr_build_ids; i++) {
		const struct perf_build_id_entry *b = &s->header.build_ids[i];

		machine__set_build_id(m, b->filename, b->build_id, b->size);
	}
}

struct machine *perf_session__new_machine(struct perf_session *s, const char *kallsyms,
					  const char *symfs, bool force)
{
	struct machine *m = machine__new();
	struct symbols_config *symbols = machine__symbols_config(m);

	if (s->machine)
		machine__delete(s->machine);
	s->machine = m;
	symbols->kallsyms = kallsyms;
	symbols->symfs = symfs;
	symbols->force = force;
	symbols->os_release = s->header.osrelease;
	machine_build_ids(s, m);
	if (s->header.pcl_symbols_size)
		machine__use_embedded_symbols(m, s->header.pcl_symbols,
					      s->header.pcl_symbols_size);
	return m;
}

static struct guest_symbols guest_symbols;

void perf_session__guest_symbols(const struct guest_symbols *g)
{
	guest_symbols = *g;
}

const struct guest_symbols *perf_session__guests(void)
{
	return &guest_symbols;
}

/* --guest-code: the guest machine of a hypervisor process, made when new
 * (no kernel symbols: its code is the process's). */
static struct machine *code_guest(struct perf_session *s, pid_t pid)
{
	struct session_code_guest *g;

	for (size_t i = 0; i < s->nr_code_guests; i++)
		if (s->code_guests[i].pid == pid)
			return s->code_guests[i].m;
	s->code_guests = xrealloc(s->code_guests, (s->nr_code_guests + 1) * sizeof(*g));
	g = &s->code_guests[s->nr_code_guests++];
	g->pid = pid;
	g->m = machine__new_guest();
	machine__symbols_config(g->m)->force = machine__symbols_config(s->machine)->force;
	return g->m;
}

struct machine *perf_session__machine_of(struct perf_session *s, uint8_t cpumode, pid_t pid)
{
	struct symbols_config *config;

	if (!s->machine || !(parse_events__guest || guest_symbols.in_hypervisor) ||
	    (cpumode != PERF_RECORD_MISC_GUEST_KERNEL && cpumode != PERF_RECORD_MISC_GUEST_USER))
		return s->machine;
	if (guest_symbols.in_hypervisor)
		return code_guest(s, pid);
	if (!s->guest) {
		s->guest = machine__new_guest();
		config = machine__symbols_config(s->guest);
		/* perf takes a guest's vmlinux before its kallsyms */
		config->vmlinux = guest_symbols.vmlinux;
		config->kallsyms = config->vmlinux ? NULL : guest_symbols.kallsyms;
		config->force = machine__symbols_config(s->machine)->force;
	}
	return s->guest;
}

bool perf_session__resolve_sample(struct perf_session *s, const struct perf_sample *sample,
				  struct addr_location *al)
{
	struct machine *m = perf_session__machine_of(s, sample->cpumode, (pid_t)sample->pid);
	struct thread *thread = NULL;

	/* (the session stops on a guest code sample without its process) */
	if (m != s->machine && guest_symbols.in_hypervisor)
		thread = machine__findnew_guest_code(m, s->machine, (pid_t)sample->pid);
	if (!thread)
		thread = machine__findnew_thread(m, (pid_t)sample->pid, (pid_t)sample->tid);
	bool found;

	memset(al, 0, sizeof(*al));
	found = machine__resolve(m, thread, sample->cpumode, sample->ip, al);
	al->thread = thread;
	return found;
}

/* A branch stack entry: from, to, flags (the entries may be unaligned). */
struct branch_entry {
	uint64_t from, to, flags;
};

static struct branch_entry branch_entry(const struct perf_sample *sample, uint64_t i)
{
	struct branch_entry e;

	memcpy(&e, (const char *)sample->branch_entries + i * sizeof(e), sizeof(e));
	return e;
}

static void reverse_frames(struct callchain_frame *f, struct callchain_branch *b, int nr)
{
	for (int i = 0, j = nr - 1; i < j; i++, j--) {
		struct callchain_frame t = f[i];

		f[i] = f[j];
		f[j] = t;
		if (b) {
			struct callchain_branch u = b[i];

			b[i] = b[j];
			b[j] = u;
		}
	}
}

/* An LBR call stack (perf record --call-graph lbr): the sample's branch
 * stack holds the user part of its call chain. */
static bool lbr_call_stack(const struct perf_sample *sample, const struct perf_event_attr *attr)
{
	const uint64_t dwarf = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	return (attr->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	       (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) &&
	       (attr->sample_type & dwarf) != dwarf && sample->branch_nr && sample->branch_entries;
}

/* --- --stitch-lbr -------------------------------------------------------- */

static struct lbr_stitch *lbr_stitch_of(struct thread *thread)
{
	if (!thread->lbr_stitch)
		thread->lbr_stitch = xcalloc(1, sizeof(*thread->lbr_stitch));
	return thread->lbr_stitch;
}

static void stitch_push(struct lbr_stitch *st, const struct lbr_frame *f)
{
	if (st->nr_stitched == st->alloc_stitched) {
		st->alloc_stitched = st->alloc_stitched ? st->alloc_stitched * 2 : 16;
		st->stitched = xrealloc(st->stitched, st->alloc_stitched * sizeof(*st->stitched));
	}
	st->stitched[st->nr_stitched++] = *f;
}

/*
 * Whether the sample's LBR call stack goes on from the thread's last one,
 * perf's way; if so the last stack's entries older than this one's oldest
 * join the stitched frames.  The hardware index is the ring slot of the
 * newest entry.  Where this stack's oldest entry sits and how far the last
 * stack's newest is above it are perf's unsigned sums, unreduced: when
 * this stack fills the ring and the last one's newest entry is in the
 * slot of its oldest (one above its newest), that counts as a whole ring
 * away, and nothing is stitched.  From that slot up both stacks must hold
 * the same entry (from, to, flags) once at least.
 */
static bool lbr_stack_goes_on(struct lbr_stitch *st, const struct perf_sample *sample,
			      uint64_t depth)
{
	uint64_t nr = sample->branch_nr, oldest, distance;
	int64_t i, j;
	int same = 0;

	if (!st->nr)
		return false;
	oldest = depth - nr + sample->branch_hw_idx + 1;
	distance = st->hw_idx > oldest ? st->hw_idx - oldest : depth + st->hw_idx - oldest;
	if (distance + 1 > st->nr)
		return false;
	for (i = (int)distance, j = (int64_t)nr - 1; i >= 0 && j >= 0; i--, j--) {
		struct branch_entry e = branch_entry(sample, (uint64_t)j);

		if (memcmp(&e, st->entries + 3 * i, sizeof(e)))
			break;
		same++;
	}
	if (!same)
		return false;
	for (i = (int64_t)st->nr - 1; i > (int)distance; i--)
		if (st->frames[i].valid)
			stitch_push(st, &st->frames[i]);
	return true;
}

/* Remembers the sample's stack as the thread's last (its frames are
 * noted as they are made). */
static void lbr_stack_keep(struct lbr_stitch *st, const struct perf_sample *sample)
{
	if (sample->branch_nr > st->alloc) {
		st->alloc = sample->branch_nr;
		st->entries = xrealloc(st->entries, st->alloc * 3 * sizeof(*st->entries));
		st->frames = xrealloc(st->frames, st->alloc * sizeof(*st->frames));
	}
	st->nr = sample->branch_nr;
	st->hw_idx = sample->branch_hw_idx;
	memcpy(st->entries, sample->branch_entries, st->nr * 3 * sizeof(*st->entries));
	for (uint64_t i = 0; i < st->nr; i++)
		st->frames[i].valid = false;
}

/* --- LBR call stacks ----------------------------------------------------- */

/*
 * perf's LBR call chain: the chain's kernel part, then where the last
 * branch went (the sample's function) and where each branch came from (the
 * callers).  No chain with a user part: -1, the chain is read as usual.
 *
 * With req->lbr_depth (--stitch-lbr, the file's LBR depth) and hardware
 * indexes in the samples, a stack that goes on from the thread's last one
 * (see lbr_stack_goes_on) gets, after its callers, the frames stitched
 * so far: what earlier stacks held below it.  A stack that does not drops
 * them.  Each stack is remembered with the frames its sources gave.
 */
static int lbr_callchain(const struct perf_sample *sample, struct machine *m,
			 struct thread *thread, struct callchain_request *req,
			 struct callchain_frame *frames, int max_frames)
{
	uint64_t end = sample->callchain_nr < (uint64_t)req->max_stack ? sample->callchain_nr
								     : (uint64_t)req->max_stack;
	uint64_t user = 0;
	struct lbr_stitch *st = NULL;
	bool stitched = false;
	int n;

	while (user < end && sample->callchain[user] != PERF_CONTEXT_USER)
		user++;
	if (user == end)
		return -1;
	if (req->lbr_depth && sample->branch_has_hw_idx && thread) {
		st = lbr_stitch_of(thread);
		stitched = lbr_stack_goes_on(st, sample, req->lbr_depth);
		if (!stitched)
			st->nr_stitched = 0;
		lbr_stack_keep(st, sample);
	}
	if (!req->keep_outermost) {
		n = machine__resolve_callchain(m, thread, sample->callchain, user, false, frames,
					       max_frames);
	} else {
		/* perf's caller order walks the kernel part backwards from the
		 * user marker: each entry in the mode of the marker after it */
		uint64_t *rev = xmalloc((user + 1) * sizeof(*rev));

		for (uint64_t i = 0; i <= user; i++)
			rev[i] = sample->callchain[user - i];
		n = machine__resolve_callchain(m, thread, rev, user + 1, false, frames, max_frames);
		free(rev);
		if (n > 0)
			reverse_frames(frames, NULL, n);
	}
	req->corrupt = n < 0;
	if (n < 0)
		n = 0;
	if (req->branches)
		memset(req->branches, 0, (size_t)n * sizeof(*req->branches));
	for (uint64_t i = 0; i <= sample->branch_nr && n < max_frames; i++, n++) {
		uint64_t ip = i ? sample->branch_entries[i - 1].from : sample->branch_entries[0].to;
		struct branch_entry e = branch_entry(sample, i ? i - 1 : 0);
		/* perf takes every entry for a branch target in callee
		 * order, and only the first one in caller order */
		uint64_t from = !i || !req->keep_outermost ? branch_entry(sample, 0).from : 0;

		frames[n].ip = ip;
		frames[n].inlined = false;
		frames[n].srcline = NULL;
		/* perf looks in the user's maps first, then the kernel's */
		if (!machine__lookup(m, thread, PERF_RECORD_MISC_USER, ip, &frames[n].al))
			machine__lookup(m, thread, PERF_RECORD_MISC_KERNEL, ip, &frames[n].al);
		if (req->branches)
			req->branches[n] = (struct callchain_branch){
				.branch = true, .flags = e.flags, .from = from,
			};
		/* the sources are what a later stack may stitch */
		if (st && i)
			st->frames[i - 1] = (struct lbr_frame){
				.frame = frames[n], .flags = e.flags, .from = from, .valid = true,
			};
	}
	/* the stitched frames, innermost first: perf adds them as they are,
	 * not matched against the parent or --ignore-callees patterns */
	req->nr_chain = n;
	for (uint64_t i = st && stitched ? st->nr_stitched : 0; i > 0 && n < max_frames; i--, n++) {
		const struct lbr_frame *f = &st->stitched[i - 1];

		frames[n] = f->frame;
		if (req->branches)
			req->branches[n] = (struct callchain_branch){
				.branch = true, .flags = f->flags, .from = f->from,
			};
	}
	return n;
}

/* --- --branch-history ---------------------------------------------------- */

struct loop_iterations {
	uint32_t nr;		/* loops folded into the entry */
	uint64_t cycles;	/* the cycles of the last one */
};

/* perf's table of the first entry seen per hashed source address: 127
 * slots, no collision handling (a slot keeps its first entry) */
#define LOOP_SLOTS	127
#define LOOP_NONE	0xff
#define MAX_BRANCH_DEPTH 127	/* longer stacks are taken as corrupt */

static unsigned loop_slot(uint64_t from)
{
	/* the kernel's 64-bit golden-ratio hash to 7 bits */
	return (unsigned)((from * 0x61C8864680B583EBull) >> (64 - 7)) % LOOP_SLOTS;
}

/*
 * Folds repeated runs of branches the way perf's remove_loops does: when
 * an entry's source was seen before (by its slot) and the run since then
 * repeats right here, the repetition goes, its cycles and a loop count
 * noted on the entry that follows it.  The slots keep the positions of
 * before any folding, as perf's do.  Returns the entries left.
 */
static int fold_loops(struct branch_entry *l, struct loop_iterations *iter, int nr)
{
	unsigned char first[LOOP_SLOTS];

	memset(first, LOOP_NONE, sizeof(first));
	for (int i = 0; i < nr; i++) {
		unsigned h = loop_slot(l[i].from);
		int j, off = 0;
		bool repeats = true;

		if (first[h] == LOOP_NONE) {
			first[h] = (unsigned char)i;
			continue;
		}
		if (l[first[h]].from != l[i].from)
			continue;
		for (j = first[h]; j < i && i + off < nr; j++, off++)
			if (l[j].from != l[i + off].from) {
				repeats = false;
				break;
			}
		if (!repeats)
			continue;
		j = nr - (i + off);
		if (j > 0) {
			struct loop_iterations *it = &iter[i + off];

			it->nr++;
			it->cycles = 0;
			for (int k = 0; k < off; k++)
				it->cycles += l[i + k].flags >> 4 & 0xffff;	/* its cycles */
			memmove(iter + i, iter + i + off, (size_t)j * sizeof(*iter));
			memmove(l + i, l + i + off, (size_t)j * sizeof(*l));
		}
		nr -= off;
	}
	return nr;
}

static void branch_end(struct machine *m, struct thread *thread, uint64_t ip,
		       struct callchain_frame *f)
{
	f->ip = ip;
	f->inlined = false;
	f->srcline = NULL;
	/* perf looks in the user's maps first, then the kernel's */
	if (!machine__lookup(m, thread, PERF_RECORD_MISC_USER, ip, &f->al) || !f->al.map)
		machine__lookup(m, thread, PERF_RECORD_MISC_KERNEL, ip, &f->al);
}

/*
 * The call chain's part perf keeps after the branches: callee order
 * walks it from first on (user mode at first, whatever was skipped) and
 * stops where the chain ends less one entry per branch; caller order
 * keeps what lies past the first nr_branches entries, each in the mode
 * of the marker before it.  Frames innermost first.
 */
static int chain_after_branches(const struct perf_sample *sample, struct machine *m,
				struct thread *thread, const struct callchain_request *req,
				uint64_t first, int nr_branches, struct callchain_frame *frames,
				int max_frames)
{
	int64_t end = (int64_t)sample->callchain_nr - nr_branches;
	int max = req->max_stack < max_frames ? req->max_stack : max_frames;
	uint64_t *ips, len = 0;
	int n;

	if (!req->keep_outermost) {
		if (end <= (int64_t)first)
			return 0;
		return machine__resolve_callchain(m, thread, sample->callchain + first,
						  (uint64_t)end - first, false, frames, max);
	}
	if (end <= 0)
		return 0;
	ips = xmalloc(((uint64_t)end + 1) * sizeof(*ips));
	for (int i = nr_branches - 1; i >= 0; i--)
		if (sample->callchain[i] >= PERF_CONTEXT_MAX) {
			ips[len++] = sample->callchain[i];
			break;
		}
	memcpy(ips + len, sample->callchain + nr_branches, (uint64_t)end * sizeof(*ips));
	n = machine__resolve_callchain(m, thread, ips, len + (uint64_t)end, true, frames, max);
	free(ips);
	return n;
}

static void note_branch(struct callchain_branch *b, const struct branch_entry *e, bool target,
			const struct loop_iterations *it)
{
	*b = (struct callchain_branch){ .branch = true, .flags = e->flags };
	if (target) {
		b->from = e->from;
	} else {
		b->nr_loop_iter = it->nr;
		b->iter_cycles = it->cycles;
	}
}

/* perf's branch history: see struct callchain_request.  Returns the
 * frames written, or -1 when perf would read the chain as usual. */
static int branch_history(const struct perf_sample *sample, struct machine *m,
			  struct thread *thread, struct callchain_request *req,
			  struct callchain_frame *frames, int max_frames)
{
	bool callee = !req->keep_outermost;
	uint64_t total = sample->branch_nr, first = 0;
	int nr = total < (uint64_t)req->max_stack ? (int)total : req->max_stack, n = 0, k;
	struct callchain_branch *b = req->branches;
	struct branch_entry *be;
	struct loop_iterations *iter;

	if (!sample->branch_entries || total > MAX_BRANCH_DEPTH || nr <= 0)
		return -1;
	be = xmalloc((size_t)nr * sizeof(*be));
	iter = xcalloc((size_t)nr, sizeof(*iter));
	for (int i = 0; i < nr; i++) {
		be[i] = branch_entry(sample, callee ? (uint64_t)i : total - 1 - (uint64_t)i);
		if (!callee || !sample->callchain || first >= sample->callchain_nr)
			continue;
		/* a branch that made the call of the chain's next entry
		 * stands for it (a call is at most 8 bytes before its
		 * return address), as does a context marker */
		if (sample->callchain[first] >= PERF_CONTEXT_MAX ||
		    (be[i].from < sample->callchain[first] &&
		     be[i].from >= sample->callchain[first] - 8))
			first++;
	}
	nr = fold_loops(be, iter, nr);
	for (int i = 0; i < nr && n + 2 <= max_frames; i++) {
		branch_end(m, thread, be[i].to, &frames[n]);
		if (b)
			note_branch(&b[n], &be[i], true, &iter[i]);
		n++;
		branch_end(m, thread, be[i].from, &frames[n]);
		if (b)
			note_branch(&b[n], &be[i], false, &iter[i]);
		n++;
	}
	free(be);
	free(iter);
	if (!sample->callchain || !sample->callchain_nr) {
		k = 0;
	} else {
		k = chain_after_branches(sample, m, thread, req, first, nr, frames + n,
					 max_frames - n);
		if (k < 0) {	/* a corrupt marker: perf drops the lot */
			req->corrupt = true;
			return 0;
		}
	}
	if (b)
		memset(b + n, 0, (size_t)k * sizeof(*b));
	if (!callee) {
		/* perf's caller order is the branches, then the chain outermost
		 * first: the chain (innermost first) and the branches last first */
		reverse_frames(frames, b, n + k);
		reverse_frames(frames, b, k);
	}
	return n + k;
}

int perf_sample__resolve_callchain(const struct perf_sample *sample,
				   const struct perf_event_attr *attr, struct machine *m,
				   struct thread *thread, struct callchain_request *req,
				   struct callchain_frame *frames, int max_frames)
{
	const uint64_t dwarf = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	int n = lbr_call_stack(sample, attr) ?
		lbr_callchain(sample, m, thread, req, frames, max_frames) : -1;

	req->corrupt = false;
	if (n >= 0)
		return n;
	if (req->branch_history)
		n = branch_history(sample, m, thread, req, frames, max_frames);
	if (n < 0) {
		n = machine__resolve_callchain(m, thread, sample->callchain, sample->callchain_nr,
					       req->keep_outermost, frames,
					       req->max_stack < max_frames ? req->max_stack :
					       max_frames);
		req->corrupt = n < 0;
		if (n < 0)
			n = 0;
		if (req->branches)
			memset(req->branches, 0, (size_t)n * sizeof(*req->branches));
	}
	req->nr_chain = n;
	/* --call-graph dwarf: the user part is unwound from registers + stack */
	if ((attr->sample_type & dwarf) == dwarf && sample->user_regs.regs &&
	    sample->user_stack.size && thread) {
		int k = machine__unwind(m, thread, sample->user_regs.mask, sample->user_regs.regs,
					sample->user_stack.data, sample->user_stack.dyn_size,
					req->max_stack, frames + n, max_frames - n);

		if (req->branches)
			memset(req->branches + n, 0, (size_t)k * sizeof(*req->branches));
		n += k;
	}
	return n;
}

int perf_session__resolve_callchain(struct perf_session *s, const struct evsel *evsel,
				    const struct perf_sample *sample, struct thread *thread,
				    int max_stack, struct callchain_frame *frames, int max_frames)
{
	struct callchain_request req = { .max_stack = max_stack, .lbr_depth = s->lbr_depth };

	return perf_sample__resolve_callchain(sample, &evsel->attr,
					      perf_session__machine_of(s, sample->cpumode,
								       (pid_t)sample->pid), thread,
					      &req, frames, max_frames);
}
