/* sched-replay: perf sched replay's task model and runner (see
 * sched-replay.h). */
#include "core/analysis/sched-replay.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/analysis/sched-events.h"
#include "core/data/perf-record.h"
#include "core/symbols/machine.h"
#include "core/symbols/thread.h"
#include "util/hashmap.h"
#include "util/util.h"

#define NSEC_PER_MSEC 1000000ULL
#define COMM_LEN 20

enum atom_type { ATOM_RUN, ATOM_SLEEP, ATOM_WAKEUP };

struct atom {
	enum atom_type type;
	uint64_t duration;	/* RUN */
	sem_t *wait_sem;	/* SLEEP: waited on; WAKEUP: posted */
};

struct task {
	long nr;
	unsigned long pid;
	char comm[COMM_LEN];
	struct atom **atoms;
	long nr_events;
	pthread_t thread;
	int fd;			/* task-clock, opened as perf does (see create_tasks) */
	sem_t ready_for_work, work_done;
	uint64_t cpu_usage;
	struct sched_replay *replay;
};

struct sched_replay {
	struct hashmap by_pid;		/* pid -> struct task * */
	struct task **tasks;
	long nr_tasks;
	uint64_t *cpu_last_switched;
	int nr_cpus;
	struct replay_counts counts;
	uint64_t run_overhead;
	pthread_mutex_t start_work, work_done_wait;
	volatile bool exiting;
	uint64_t run_avg, cpu_usage, runavg_cpu_usage;
	unsigned long nr_runs;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Spins for ns, less the clock's own cost. */
static void burn_ns(const struct sched_replay *r, uint64_t ns)
{
	uint64_t start = now_ns();

	while (now_ns() + r->run_overhead < start + ns)
		;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 999999999),
			       .tv_nsec = (long)(ns % 999999999) };

	nanosleep(&ts, NULL);
}

struct sched_replay *sched_replay__new(void)
{
	struct sched_replay *r = xcalloc(1, sizeof(*r));

	pthread_mutex_init(&r->start_work, NULL);
	pthread_mutex_init(&r->work_done_wait, NULL);
	return r;
}

void sched_replay__delete(struct sched_replay *r)
{
	if (!r)
		return;
	for (long i = 0; i < r->nr_tasks; i++) {
		struct task *t = r->tasks[i];

		for (long j = 0; j < t->nr_events; j++) {
			struct atom *a = t->atoms[j];

			/* a SLEEP owns its semaphore, the WAKEUP only points at it */
			if (a->type == ATOM_SLEEP && a->wait_sem) {
				sem_destroy(a->wait_sem);
				free(a->wait_sem);
			}
			free(a);
		}
		free(t->atoms);
		free(t);
	}
	free(r->tasks);
	free(r->cpu_last_switched);
	hashmap_release(&r->by_pid);
	pthread_mutex_destroy(&r->start_work);
	pthread_mutex_destroy(&r->work_done_wait);
	free(r);
}

void sched_replay__calibrate(struct sched_replay *r, struct replay_calibration *cal)
{
	uint64_t min = 1000000000ULL, t0;

	for (int i = 0; i < 10; i++) {
		t0 = now_ns();
		burn_ns(r, 0);
		if (now_ns() - t0 < min)
			min = now_ns() - t0;
	}
	r->run_overhead = cal->run_overhead = min;
	min = 1000000000ULL;
	for (int i = 0; i < 10; i++) {
		t0 = now_ns();
		sleep_ns(10000);
		if (now_ns() - t0 < min)
			min = now_ns() - t0;
	}
	cal->sleep_overhead = min - 10000;
	t0 = now_ns();
	burn_ns(r, NSEC_PER_MSEC);
	cal->run_test = now_ns() - t0;
	t0 = now_ns();
	sleep_ns(NSEC_PER_MSEC);
	cal->sleep_test = now_ns() - t0;
}

static struct atom *new_atom(struct task *t, enum atom_type type)
{
	struct atom *a = xcalloc(1, sizeof(*a));

	a->type = type;
	t->atoms = xrealloc(t->atoms, (size_t)(t->nr_events + 1) * sizeof(*t->atoms));
	t->atoms[t->nr_events++] = a;
	return a;
}

static struct atom *last_atom(const struct task *t)
{
	return t->nr_events ? t->atoms[t->nr_events - 1] : NULL;
}

static void add_sleep(struct sched_replay *r, struct task *t)
{
	new_atom(t, ATOM_SLEEP);
	r->counts.nr_sleep_events++;
}

/* Consecutive runs make one (perf counts the merges). */
static void add_run(struct sched_replay *r, struct task *t, uint64_t duration)
{
	struct atom *last = last_atom(t);

	if (last && last->type == ATOM_RUN) {
		r->counts.nr_run_events_optimized++;
		last->duration += duration;
		return;
	}
	new_atom(t, ATOM_RUN)->duration = duration;
	r->counts.nr_run_events++;
}

/* The wakee's last atom must be a SLEEP no other wake-up targets yet. */
static void add_wakeup(struct sched_replay *r, struct task *waker, struct task *wakee)
{
	struct atom *a = new_atom(waker, ATOM_WAKEUP), *sleep = last_atom(wakee);

	if (!sleep || sleep->type != ATOM_SLEEP) {
		r->counts.targetless_wakeups++;
		return;
	}
	if (sleep->wait_sem) {
		r->counts.multitarget_wakeups++;
		return;
	}
	sleep->wait_sem = xcalloc(1, sizeof(*sleep->wait_sem));
	sem_init(sleep->wait_sem, 0, 0);
	a->wait_sem = sleep->wait_sem;
	r->counts.nr_wakeup_events++;
}

/* A task per pid, named at first sight, starting asleep. */
static struct task *register_pid(struct sched_replay *r, unsigned long pid, const char *comm)
{
	struct task *t = hashmap_u64_get(&r->by_pid, pid);

	if (t)
		return t;
	t = xcalloc(1, sizeof(*t));
	t->pid = pid;
	t->nr = r->nr_tasks;
	t->replay = r;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	add_sleep(r, t);
	hashmap_u64_put(&r->by_pid, pid, t);
	r->tasks = xrealloc(r->tasks, (size_t)(r->nr_tasks + 1) * sizeof(*r->tasks));
	r->tasks[r->nr_tasks++] = t;
	return t;
}

int sched_replay__event(struct sched_replay *r, const struct sched_event *ev,
			const struct perf_sample *sample)
{
	int cpu = (int)sample->cpu;

	switch (ev->kind) {
	case SCHED_EV_SWITCH: {
		uint64_t last, delta = 0;
		struct task *prev;

		if (cpu >= r->nr_cpus) {
			int n = cpu + 16;

			r->cpu_last_switched = xrealloc(r->cpu_last_switched,
							(size_t)n * sizeof(uint64_t));
			memset(r->cpu_last_switched + r->nr_cpus, 0,
			       (size_t)(n - r->nr_cpus) * sizeof(uint64_t));
			r->nr_cpus = n;
		}
		last = r->cpu_last_switched[cpu];
		if (last) {
			if (sample->time < last)
				return -1;
			delta = sample->time - last;
		}
		prev = register_pid(r, ev->prev_pid, ev->prev_comm);
		register_pid(r, ev->next_pid, ev->next_comm);
		r->cpu_last_switched[cpu] = sample->time;
		add_run(r, prev, delta);
		add_sleep(r, prev);
		break;
	}
	case SCHED_EV_WAKEUP:
		/* perf 6.1's replay, like its latency, leaves sched_waking out */
		if (ev->waking)
			break;
		/* fall through */
	case SCHED_EV_WAKEUP_NEW: {
		struct task *waker = register_pid(r, sample->tid, "<unknown>");

		add_wakeup(r, waker, register_pid(r, ev->pid, ev->comm));
		break;
	}
	default:
		break;
	}
	return 0;
}

void sched_replay__fork(struct sched_replay *r, struct machine *m, int pid, int tid, int ppid,
			int ptid)
{
	struct thread *child = machine__findnew_thread(m, pid, tid);
	struct thread *parent = machine__findnew_thread(m, ppid, ptid);

	register_pid(r, (unsigned long)parent->tid, parent->comm);
	register_pid(r, (unsigned long)child->tid, child->comm);
}

const struct replay_counts *sched_replay__counts(const struct sched_replay *r)
{
	return &r->counts;
}

int sched_replay__nr_tasks(const struct sched_replay *r)
{
	return (int)r->nr_tasks;
}

struct replay_task_info sched_replay__task(const struct sched_replay *r, int i)
{
	const struct task *t = r->tasks[i];

	return (struct replay_task_info){ t->nr, t->nr_events, t->pid, t->comm };
}

static uint64_t task_clock(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

static void *task_thread(void *arg)
{
	struct task *t = arg;
	struct sched_replay *r = t->replay;
	char name[COMM_LEN + 2];

	snprintf(name, sizeof(name), ":%s", t->comm);
	prctl(PR_SET_NAME, name);
	for (;;) {
		uint64_t usage0;

		sem_post(&t->ready_for_work);
		pthread_mutex_lock(&r->start_work);
		pthread_mutex_unlock(&r->start_work);
		if (r->exiting)
			break;
		usage0 = task_clock(t->fd);
		for (long i = 0; i < t->nr_events; i++) {
			struct atom *a = t->atoms[i];

			if (a->type == ATOM_RUN)
				burn_ns(r, a->duration);
			else if (a->type == ATOM_SLEEP && a->wait_sem)
				sem_wait(a->wait_sem);
			else if (a->type == ATOM_WAKEUP && a->wait_sem)
				sem_post(a->wait_sem);
		}
		t->cpu_usage = task_clock(t->fd) - usage0;
		sem_post(&t->work_done);
		pthread_mutex_lock(&r->work_done_wait);
		pthread_mutex_unlock(&r->work_done_wait);
	}
	return NULL;
}

/* perf opens each task's counter in the main thread, so it counts the
 * main thread; with -f it raises the file limit when it runs out. */
static int open_task_clock(bool force, long tasks_left, char **err)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
					.config = PERF_COUNT_SW_TASK_CLOCK };
	const char *hint = "";

	for (;;) {
		int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		struct rlimit limit;

		if (fd >= 0)
			return fd;
		if (errno == EMFILE && !force) {
			hint = "Have a try with -f option\n";
		} else if (errno == EMFILE && !getrlimit(RLIMIT_NOFILE, &limit)) {
			limit.rlim_cur += (rlim_t)tasks_left;
			if (limit.rlim_cur > limit.rlim_max)
				limit.rlim_max = limit.rlim_cur;
			if (!setrlimit(RLIMIT_NOFILE, &limit))
				continue;
			if (errno == EPERM)
				hint = "Need privilege\n";
		}
		*err = xasprintf("Error: sys_perf_event_open() syscall returned with %d (%s)\n%s",
				 fd, strerror(errno), hint);
		return -1;
	}
}

static void one_round(struct sched_replay *r, unsigned long repeat, struct replay_round *round)
{
	uint64_t t0, delta;

	t0 = now_ns();
	r->cpu_usage = 0;
	pthread_mutex_unlock(&r->work_done_wait);
	for (long i = 0; i < r->nr_tasks; i++)
		sem_wait(&r->tasks[i]->ready_for_work);
	pthread_mutex_lock(&r->work_done_wait);
	pthread_mutex_unlock(&r->start_work);
	for (long i = 0; i < r->nr_tasks; i++) {
		sem_wait(&r->tasks[i]->work_done);
		r->cpu_usage += r->tasks[i]->cpu_usage;
		r->tasks[i]->cpu_usage = 0;
	}
	if (!r->runavg_cpu_usage)
		r->runavg_cpu_usage = r->cpu_usage;
	r->runavg_cpu_usage = (r->runavg_cpu_usage * (repeat - 1) + r->cpu_usage) / repeat;
	pthread_mutex_lock(&r->start_work);
	delta = now_ns() - t0;
	r->nr_runs++;
	if (!r->run_avg)
		r->run_avg = delta;
	r->run_avg = (r->run_avg * (repeat - 1) + delta) / repeat;
	*round = (struct replay_round){ r->nr_runs, delta, r->run_avg, r->cpu_usage,
					r->runavg_cpu_usage };
}

int sched_replay__run(struct sched_replay *r, unsigned long repeat, bool force,
		      void (*report)(const struct replay_round *round, void *arg), void *arg,
		      char **err)
{
	pthread_attr_t attr;
	size_t stack = 16 * 1024 > PTHREAD_STACK_MIN ? 16 * 1024 : PTHREAD_STACK_MIN;
	struct replay_round round;

	/* perf closes the ring: each task wakes the next one at its end */
	for (long i = 0; i < r->nr_tasks; i++)
		add_wakeup(r, r->tasks[i], r->tasks[(i + 1) % r->nr_tasks]);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, stack);
	pthread_mutex_lock(&r->start_work);
	pthread_mutex_lock(&r->work_done_wait);
	for (long i = 0; i < r->nr_tasks; i++) {
		struct task *t = r->tasks[i];

		t->fd = open_task_clock(force, r->nr_tasks - i, err);
		if (t->fd < 0)
			return -1;	/* perf exits here, its threads with it */
		sem_init(&t->ready_for_work, 0, 0);
		sem_init(&t->work_done, 0, 0);
		if (pthread_create(&t->thread, &attr, task_thread, t)) {
			*err = xasprintf("cannot start the thread of task %ld\n", t->nr);
			return -1;
		}
	}
	pthread_attr_destroy(&attr);
	report(NULL, arg);
	for (unsigned long i = 0; i < repeat; i++) {
		one_round(r, repeat, &round);
		report(&round, arg);
	}
	/* the threads wait at work_done_wait: let them round once more, to exit */
	r->exiting = true;
	pthread_mutex_unlock(&r->work_done_wait);
	for (long i = 0; i < r->nr_tasks; i++)
		sem_wait(&r->tasks[i]->ready_for_work);
	pthread_mutex_unlock(&r->start_work);
	for (long i = 0; i < r->nr_tasks; i++) {
		pthread_join(r->tasks[i]->thread, NULL);
		close(r->tasks[i]->fd);
		sem_destroy(&r->tasks[i]->ready_for_work);
		sem_destroy(&r->tasks[i]->work_done);
	}
	return 0;
}
