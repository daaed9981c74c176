/* tasks-print: the thread tree of --tasks and --mmaps (see tasks-print.h). */
#include "ui/tasks-print.h"
#include "core/symbols/symbols.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>

struct task {
	struct thread *thread;
	struct task **children;
	size_t nr_children;
	bool listed;
};

/* --mmaps: a thread's maps under it, as perf's map__fprintf_task. */
static void print_task_maps(FILE *fp, const struct thread *t, int indent)
{
	const struct maps *maps = thread__maps(t);

	for (size_t i = 0; maps && i < maps->nr; i++) {
		const struct map *m = maps->v[i];

		fprintf(fp, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n",
		       indent, "", m->start, m->end, m->prot & PROT_READ ? 'r' : '-',
		       m->prot & PROT_WRITE ? 'w' : '-', m->prot & PROT_EXEC ? 'x' : '-',
		       m->flags & MAP_SHARED ? 's' : 'p', m->pgoff, m->ino, m->dso->long_name);
	}
}

static void print_task(FILE *fp, const struct task *t, int level, bool maps)
{
	int indent = fprintf(fp, "  %8d %8d %8d |%*s", t->thread->pid, t->thread->tid,
			    t->thread->ppid, level, "");

	fprintf(fp, "%s\n", t->thread->comm ? t->thread->comm : "");
	if (maps)
		print_task_maps(fp, t->thread, indent);
	for (size_t i = 0; i < t->nr_children; i++)
		print_task(fp, t->children[i], level + 1, maps);
}

/* perf keeps threads in 256 trees by tid: that is the order it lists them. */
static int task_order(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	int bx = x->thread->tid & 255, by = y->thread->tid & 255;

	if (bx != by)
		return bx - by;
	return (x->thread->tid > y->thread->tid) - (x->thread->tid < y->thread->tid);
}

static struct task *task_of(struct task *tasks, size_t n, pid_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (tasks[i].thread->tid == tid)
			return &tasks[i];
	return NULL;
}

int tasks_print(FILE *fp, struct machine *m, bool maps)
{
	struct task *tasks = xcalloc(m->nr_threads + 1, sizeof(*tasks)), **roots;
	size_t n = 0, nr_roots = 0;
	int ret = 0;

	for (size_t i = 0; i < m->nr_threads; i++) {
		struct thread *t = m->all_threads[i];

		/* a thread whose tid came back later is perf's no more */
		if (machine__find_thread(m, t->pid, t->tid) == t)
			tasks[n++].thread = t;
	}
	qsort(tasks, n, sizeof(*tasks), task_order);
	roots = xcalloc(n + 1, sizeof(*roots));
	for (size_t i = 0; i < n && !ret; i++) {
		/* walk up to the first listed ancestor, linking on the way */
		for (struct task *t = &tasks[i]; !t->listed; ) {
			struct task *parent;

			t->listed = true;
			if (t->thread->ppid == -1) {
				roots[nr_roots++] = t;
				break;
			}
			parent = task_of(tasks, n, t->thread->ppid);
			if (!parent) {
				ret = -1;
				break;
			}
			parent->children = xrealloc(parent->children, (parent->nr_children + 1) *
						    sizeof(*parent->children));
			parent->children[parent->nr_children++] = t;
			t = parent;
		}
	}
	if (!ret) {
		fprintf(fp, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
		for (size_t i = 0; i < nr_roots; i++)
			print_task(fp, roots[i], 0, maps);
	}
	for (size_t i = 0; i < n; i++)
		free(tasks[i].children);
	free(tasks);
	free(roots);
	return ret;
}

