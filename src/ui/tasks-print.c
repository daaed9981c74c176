/* tasks-print: the thread tree of --tasks and --mmaps (see tasks-print.h). */
#include "ui/tasks-print.h"
#include "core/symbols/machine.h"
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

struct map_line {
	FILE *fp;
	int indent;
};

static void print_map(const struct map *m, void *arg)
{
	const struct map_line *l = arg;

	fprintf(l->fp, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n",
		l->indent, "", m->start, m->end, m->prot & PROT_READ ? 'r' : '-',
		m->prot & PROT_WRITE ? 'w' : '-', m->prot & PROT_EXEC ? 'x' : '-',
		m->flags & MAP_SHARED ? 's' : 'p', m->pgoff, m->ino, m->dso->long_name);
}

/* --mmaps: a thread's maps under it, as perf's map__fprintf_task. */
static void print_task_maps(FILE *fp, const struct thread *t, int indent)
{
	const struct maps *maps = thread__maps(t);
	struct map_line l = { fp, indent };

	if (maps)
		maps__for_each_map(maps, print_map, &l);
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

struct live_tasks {
	struct machine *machine;
	struct task *v;
	size_t nr, alloc;
};

static void add_live_task(struct thread *t, void *arg)
{
	struct live_tasks *l = arg;

	/* a thread whose tid came back later is perf's no more */
	if (machine__find_thread(l->machine, t->pid, t->tid) != t)
		return;
	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 64;
		l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
	}
	l->v[l->nr++] = (struct task){ .thread = t };
}

int tasks_print(FILE *fp, struct machine *m, bool maps)
{
	struct live_tasks live = { .machine = m };
	struct task *tasks, **roots;
	size_t n, nr_roots = 0;
	int ret = 0;

	machine__for_each_thread(m, add_live_task, &live);
	tasks = live.v;
	n = live.nr;
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

