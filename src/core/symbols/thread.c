/* thread: tasks as COMM/FORK/EXIT records describe them.  Threads of one
 * process share one address space (maps); a FORK of a new process copies
 * the parent's maps, as the kernel did.
 */
#include "core/symbols/symbols-int.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct maps *thread__maps(const struct thread *t)
{
	return ((struct thread_priv *)t->priv)->maps;
}

static void thread__set_maps(struct thread *t, struct maps *maps)
{
	struct thread_priv *p = t->priv;

	if (p->maps != maps) {
		maps__put(p->maps);
		p->maps = maps__get(maps);
	}
}

static void thread__set_comm(struct thread *t, const char *comm)
{
	free(t->comm);
	t->comm = xstrdup(comm);
	t->comm_set = true;
}

static struct thread *thread__new(struct machine *m, pid_t pid, pid_t tid)
{
	struct thread *t = xcalloc(1, sizeof(*t));
	struct thread_priv *p = xcalloc(1, sizeof(*p));

	t->priv = p;
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	t->comm = xasprintf(":%d", (int)tid);
	if (m->nr_threads == m->alloc_threads) {
		m->alloc_threads = m->alloc_threads ? m->alloc_threads * 2 : 64;
		m->all_threads = xrealloc(m->all_threads, m->alloc_threads * sizeof(*m->all_threads));
	}
	m->all_threads[m->nr_threads++] = t;
	hashmap_u64_put(&m->threads, (uint64_t)(uint32_t)tid, t);
	return t;
}

void thread__delete(struct thread *t)
{
	struct thread_priv *p = t->priv;

	maps__put(p->maps);
	free(p);
	if (t->lbr_stitch) {
		free(t->lbr_stitch->entries);
		free(t->lbr_stitch->frames);
		free(t->lbr_stitch->stitched);
		free(t->lbr_stitch);
	}
	free(t->comm);
	free(t);
}

struct thread *machine__find_thread(struct machine *m, pid_t pid, pid_t tid)
{
	return hashmap_u64_get(&m->threads, (uint64_t)(uint32_t)tid);
}

/* A thread's address space is its process leader's. */
static void thread__join_leader(struct machine *m, struct thread *t)
{
	struct thread *leader;

	if (t->pid == t->tid || t->pid == -1) {
		if (!thread__maps(t)) {
			struct maps *maps = maps__new();

			thread__set_maps(t, maps);
			maps__put(maps);
		}
		return;
	}
	leader = machine__findnew_thread(m, t->pid, t->pid);
	thread__set_maps(t, thread__maps(leader));
}

struct thread *machine__findnew_thread(struct machine *m, pid_t pid, pid_t tid)
{
	struct thread *t = machine__find_thread(m, pid, tid);

	if (t) {
		/* A thread first seen without its pid learns it now. */
		if (t->pid == -1 && pid != -1 && pid != t->pid) {
			t->pid = pid;
			thread__join_leader(m, t);
		}
		return t;
	}
	t = thread__new(m, pid, tid);
	thread__join_leader(m, t);
	return t;
}

static void machine__forget_thread(struct machine *m, struct thread *t)
{
	/* Stays allocated (callers may hold it); only unreachable by tid. */
	if (machine__find_thread(m, t->pid, t->tid) == t)
		hashmap_u64_put(&m->threads, (uint64_t)(uint32_t)t->tid, NULL);
}

struct thread *machine__findnew_guest_code(struct machine *guest, struct machine *host,
					   pid_t pid)
{
	struct thread *t = machine__findnew_thread(guest, pid, pid);
	struct thread *hypervisor = machine__find_thread(host, -1, pid);
	char comm[32];

	if (thread__maps(t)->nr)
		return t;
	if (!hypervisor)
		return NULL;
	snprintf(comm, sizeof(comm), "[guest/%d]", (int)pid);
	thread__set_comm(t, comm);
	maps__clone(thread__maps(t), thread__maps(hypervisor), guest);
	return t;
}

int machine__process_comm(struct machine *m, pid_t pid, pid_t tid, const char *comm, bool exec)
{
	struct thread *t = machine__findnew_thread(m, pid, tid);

	thread__set_comm(t, comm);
	if (exec)
		maps__release_caches(thread__maps(t));
	return 0;
}

int machine__process_fork(struct machine *m, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid,
			  bool clone_maps, struct thread_ids *stale)
{
	struct thread *t = machine__find_thread(m, pid, tid);
	struct thread *parent = machine__findnew_thread(m, ppid, ptid);

	/* A stale thread under the parent's tid (lost EXIT) is replaced. */
	if (parent->pid != ppid) {
		if (stale)
			*stale = (struct thread_ids){ parent->pid, parent->tid };
		machine__forget_thread(m, parent);
		parent = machine__findnew_thread(m, ppid, ptid);
	}
	if (t)
		machine__forget_thread(m, t);
	t = machine__findnew_thread(m, pid, tid);
	if (t == parent)
		return 0;
	if (parent->comm_set)
		thread__set_comm(t, parent->comm);
	t->ppid = parent->tid;
	/* A new process gets a copy of its parent's address space. */
	if (clone_maps && t->pid != parent->pid && thread__maps(t) != thread__maps(parent))
		maps__clone(thread__maps(t), thread__maps(parent), m);
	return 0;
}

int machine__process_exit(struct machine *m, pid_t pid, pid_t tid)
{
	struct thread *t = machine__find_thread(m, pid, tid);

	if (t)
		t->dead = true;
	return 0;
}

/* Marks in live every map of maps (a set of pointers). */
static void mark_maps(struct hashmap *live, const struct maps *maps)
{
	for (size_t i = 0; maps && i < maps->nr; i++)
		hashmap_u64_put(live, (uintptr_t)maps->v[i], maps->v[i]);
}

/* Frees the maps no thread's address space (nor the kernel's) holds. */
static void prune_maps(struct machine *m)
{
	struct hashmap live;
	size_t kept = 0;

	hashmap_init(&live, sizeof(void *));
	mark_maps(&live, m->kmaps);
	for (size_t i = 0; i < m->nr_threads; i++)
		mark_maps(&live, thread__maps(m->all_threads[i]));
	for (size_t i = 0; i < m->nr_maps; i++) {
		if (hashmap_u64_get(&live, (uintptr_t)m->all_maps[i]))
			m->all_maps[kept++] = m->all_maps[i];
		else
			free(m->all_maps[i]);
	}
	m->nr_maps = kept;
	hashmap_release(&live);
}

size_t machine__prune_threads(struct machine *m,
			      bool (*in_use)(const struct thread *t, void *arg), void *arg)
{
	size_t kept = 0, freed = 0;

	for (size_t i = 0; i < m->nr_threads; i++) {
		struct thread *t = m->all_threads[i];
		struct thread_priv *p = t->priv;
		bool reachable = machine__find_thread(m, t->pid, t->tid) == t;
		bool gone = t->dead || !reachable;

		/* one prune of grace: late samples of a task that just exited */
		if (gone && p->gone_seen && !(in_use && in_use(t, arg))) {
			if (reachable)
				hashmap_u64_put(&m->threads, (uint64_t)(uint32_t)t->tid, NULL);
			thread__delete(t);
			freed++;
			continue;
		}
		p->gone_seen = gone;
		m->all_threads[kept++] = t;
	}
	m->nr_threads = kept;
	if (freed) {
		prune_maps(m);
		machine__maps_changed(m);
	}
	return freed;
}
