/* session-machine: builds the address-space model from the records that
 * describe it (COMM, FORK, EXIT, MMAP, MMAP2, HEADER_BUILD_ID), and
 * resolves samples against it. */
#include "core/symbols/embed.h"
#include "core/symbols/machine.h"
#include "core/data/session.h"
#include "core/data/session-int.h"
#include "core/events/parse-events.h"
#include "util/util.h"

#include <string.h>

void session_machine__take(struct machine *m, const struct perf_event_header *rec)
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
				      (pid_t)f->ptid, !(rec->misc & PERF_RECORD_MISC_FORK_EXEC));
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
	session_machine__take(m, rec);
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

/* An LBR call stack (perf record --call-graph lbr): the sample's branch
 * stack holds the user part of its call chain. */
static bool lbr_call_stack(const struct perf_sample *sample, const struct perf_event_attr *attr)
{
	const uint64_t dwarf = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	return (attr->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	       (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) &&
	       (attr->sample_type & dwarf) != dwarf && sample->branch_nr && sample->branch_entries;
}

/* perf's LBR call chain: the chain's kernel part, then where the last
 * branch went (the sample's function) and where each branch came from (the
 * callers).  No chain with a user part: -1, the chain is read as usual.
 * Without the maximum LBR depth in the file's PMU capabilities, perf's
 * --stitch-lbr adds nothing to this, and pcl never stitches. */
static int lbr_callchain(const struct perf_sample *sample, struct machine *m,
			 struct thread *thread, struct callchain_request *req,
			 struct callchain_frame *frames, int max_frames)
{
	uint64_t end = sample->callchain_nr < (uint64_t)req->max_stack ? sample->callchain_nr
								     : (uint64_t)req->max_stack;
	uint64_t user = 0;
	int n;

	while (user < end && sample->callchain[user] != PERF_CONTEXT_USER)
		user++;
	if (user == end)
		return -1;
	n = machine__resolve_callchain(m, thread, sample->callchain, user, false, frames,
				       max_frames);
	req->corrupt = n < 0;
	if (n < 0)
		n = 0;
	for (uint64_t i = 0; i <= sample->branch_nr && n < max_frames; i++, n++) {
		uint64_t ip = i ? sample->branch_entries[i - 1].from : sample->branch_entries[0].to;

		frames[n].ip = ip;
		frames[n].inlined = false;
		frames[n].srcline = NULL;
		/* perf looks in the user's maps first, then the kernel's */
		if (!machine__lookup(m, thread, PERF_RECORD_MISC_USER, ip, &frames[n].al))
			machine__lookup(m, thread, PERF_RECORD_MISC_KERNEL, ip, &frames[n].al);
	}
	req->nr_chain = n;
	return n;
}

int perf_sample__resolve_callchain(const struct perf_sample *sample,
				   const struct perf_event_attr *attr, struct machine *m,
				   struct thread *thread, struct callchain_request *req,
				   struct callchain_frame *frames, int max_frames)
{
	const uint64_t dwarf = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	int n = lbr_call_stack(sample, attr) ?
		lbr_callchain(sample, m, thread, req, frames, max_frames) : -1;

	if (n >= 0)
		return n;
	n = machine__resolve_callchain(m, thread, sample->callchain, sample->callchain_nr,
				       req->keep_outermost, frames,
				       req->max_stack < max_frames ? req->max_stack : max_frames);
	req->corrupt = n < 0;
	if (n < 0)
		n = 0;
	req->nr_chain = n;
	/* --call-graph dwarf: the user part is unwound from registers + stack */
	if ((attr->sample_type & dwarf) == dwarf && sample->user_regs.regs &&
	    sample->user_stack.size && thread)
		n += machine__unwind(m, thread, sample->user_regs.mask, sample->user_regs.regs,
				     sample->user_stack.data, sample->user_stack.dyn_size,
				     req->max_stack, frames + n, max_frames - n);
	return n;
}

int perf_session__resolve_callchain(struct perf_session *s, const struct evsel *evsel,
				    const struct perf_sample *sample, struct thread *thread,
				    int max_stack, struct callchain_frame *frames, int max_frames)
{
	struct callchain_request req = { .max_stack = max_stack };

	return perf_sample__resolve_callchain(sample, &evsel->attr,
					      perf_session__machine_of(s, sample->cpumode,
								       (pid_t)sample->pid), thread,
					      &req, frames, max_frames);
}
