/* timechart: task and CPU state intervals for the timechart (see timechart.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include <traceevent/event-parse.h>

#include "core/analysis/timechart.h"
#include "core/data/perf-data.h"
#include "core/events/cpumap.h"
#include "core/data/perf-record.h"
#include "util/strbuf.h"
#include "util/util.h"

#define PWR_EVENT_EXIT ((uint32_t)-1)
#define TRACE_FLAG_HARDIRQ 0x08
#define TRACE_FLAG_SOFTIRQ 0x10
#define MAX_VALID_FREQ 8000000		/* kHz; above is garbage */
#define TIME_THRESHOLD 10000000		/* 10 ms of running */
#define BYTES_THRESHOLD (1024 * 1024)

void timechart__init(struct timechart *tc)
{
	memset(tc, 0, sizeof(*tc));
	tc->io_min_time = 1000000;
	tc->io_merge_dist = 1000;
	tc->cstate_since = xcalloc(TIMECHART_MAX_CPUS, sizeof(*tc->cstate_since));
	tc->pstate_since = xcalloc(TIMECHART_MAX_CPUS, sizeof(*tc->pstate_since));
	tc->pstate = xcalloc(TIMECHART_MAX_CPUS, sizeof(*tc->pstate));
	tc->cstate = xcalloc(TIMECHART_MAX_CPUS, sizeof(*tc->cstate));
}

void timechart__exit(struct timechart *tc)
{
	while (tc->tasks) {
		struct tc_task *t = tc->tasks;

		while (t->comms) {
			struct tc_comm *c = t->comms;

			while (c->intervals) {
				struct tc_interval *i = c->intervals;

				c->intervals = i->next;
				free(i->backtrace);
				free(i);
			}
			while (c->io) {
				struct tc_io *io = c->io;

				c->io = io->next;
				free(io);
			}
			t->comms = c->next;
			free(c->comm);
			free(c);
		}
		tc->tasks = t->next;
		free(t);
	}
	while (tc->power) {
		struct tc_power *p = tc->power;

		tc->power = p->next;
		free(p);
	}
	while (tc->wakeups) {
		struct tc_wakeup *w = tc->wakeups;

		tc->wakeups = w->next;
		free(w->backtrace);
		free(w);
	}
	while (tc->filters) {
		struct tc_filter *f = tc->filters;

		tc->filters = f->next;
		free(f->name);
		free(f);
	}
	hashmap_release(&tc->task_by_pid);
	free(tc->cstate_since);
	free(tc->pstate_since);
	free(tc->pstate);
	free(tc->cstate);
}

enum tc_event timechart__event_kind(const char *name)
{
	static const struct { const char *name; int kind; } table[] = {
		{ "power:cpu_idle", TC_EV_CPU_IDLE },
		{ "power:cpu_frequency", TC_EV_CPU_FREQUENCY },
		{ "sched:sched_wakeup", TC_EV_WAKEUP },
		{ "sched:sched_switch", TC_EV_SWITCH },
		{ "power:power_start", TC_EV_POWER_START },
		{ "power:power_end", TC_EV_POWER_END },
		{ "power:power_frequency", TC_EV_POWER_FREQUENCY },
	};
	static const struct { const char *call; int type; } io[] = {
		{ "read", TC_IO_READ }, { "pread64", TC_IO_READ }, { "readv", TC_IO_READ },
		{ "preadv", TC_IO_READ }, { "write", TC_IO_WRITE }, { "pwrite64", TC_IO_WRITE },
		{ "writev", TC_IO_WRITE }, { "pwritev", TC_IO_WRITE }, { "sync", TC_IO_SYNC },
		{ "sync_file_range", TC_IO_SYNC }, { "fsync", TC_IO_SYNC },
		{ "msync", TC_IO_SYNC }, { "recvfrom", TC_IO_RX }, { "recvmmsg", TC_IO_RX },
		{ "recvmsg", TC_IO_RX }, { "sendto", TC_IO_TX }, { "sendmsg", TC_IO_TX },
		{ "sendmmsg", TC_IO_TX }, { "epoll_pwait", TC_IO_POLL },
		{ "epoll_wait", TC_IO_POLL }, { "poll", TC_IO_POLL }, { "ppoll", TC_IO_POLL },
		{ "pselect6", TC_IO_POLL }, { "select", TC_IO_POLL },
	};
	static const char enter[] = "syscalls:sys_enter_", leave[] = "syscalls:sys_exit_";
	const char *call = NULL;
	int base = 0;

	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (!strcmp(name, table[i].name))
			return (enum tc_event)table[i].kind;
	if (!strncmp(name, enter, strlen(enter))) {
		call = name + strlen(enter);
		base = TC_EV_IO_ENTER;
	} else if (!strncmp(name, leave, strlen(leave))) {
		call = name + strlen(leave);
		base = TC_EV_IO_EXIT;
	}
	for (size_t i = 0; call && i < ARRAY_SIZE(io); i++)
		if (!strcmp(call, io[i].call))
			return (enum tc_event)(base + io[i].type);
	return TC_EV_OTHER;
}

/* A field of the event proper, unsigned as its size reads; 0 when absent
 * (perf's reader does not look at the common_* fields). */
static struct tep_format_field *find_field(struct timechart *tc, struct tep_event *tp,
					   const char *name)
{
	struct tc_field_slot *slot;

	for (size_t i = 0; i < ARRAY_SIZE(tc->fields); i++)
		if (tc->fields[i].tp == tp && tc->fields[i].name == name)
			return tc->fields[i].field;
	slot = &tc->fields[tc->next_field++ % ARRAY_SIZE(tc->fields)];
	*slot = (struct tc_field_slot){ tp, name, tp ? tep_find_field(tp, name) : NULL };
	return slot->field;
}

static uint64_t field_value(struct timechart *tc, struct tep_event *tp,
			    const struct perf_sample *sample, const char *name)
{
	struct tep_format_field *f = find_field(tc, tp, name);
	const uint8_t *p;

	if (!f || !sample->raw_data || (size_t)f->offset + (size_t)f->size > sample->raw_size)
		return 0;
	p = (const uint8_t *)sample->raw_data + f->offset;
	switch (f->size) {
	case 1: return *p;
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
	default: return 0;
	}
}

struct tc_task *timechart__task(const struct timechart *tc, int pid)
{
	return hashmap_u64_get(&tc->task_by_pid, (uint32_t)pid);
}

static struct tc_task *find_task(struct timechart *tc, int pid)
{
	struct tc_task **slot = hashmap_u64_findnew(&tc->task_by_pid, (uint32_t)pid, NULL);

	if (!*slot) {
		*slot = xcalloc(1, sizeof(**slot));
		(*slot)->pid = pid;
		(*slot)->next = tc->tasks;	/* newest first, as perf lists them */
		tc->tasks = *slot;
	}
	return *slot;
}

static struct tc_comm *new_comm(struct tc_task *t)
{
	struct tc_comm *c = xcalloc(1, sizeof(*c));

	c->next = t->comms;
	t->comms = c;
	t->current = c;
	return c;
}

void timechart__comm(struct timechart *tc, int tid, const char *comm)
{
	struct tc_task *t = find_task(tc, tid);

	for (struct tc_comm *c = t->comms; c; c = c->next) {
		if (c->comm && !strcmp(c->comm, comm)) {
			t->current = c;
			return;
		}
		if (!c->comm) {		/* the unnamed one takes the name */
			c->comm = xstrdup(comm);
			t->current = c;
			return;
		}
	}
	new_comm(t)->comm = xstrdup(comm);
}

void timechart__fork(struct timechart *tc, int pid, int ppid, uint64_t time)
{
	struct tc_task *t = find_task(tc, pid), *parent = find_task(tc, ppid);

	t->ppid = ppid;
	if (parent->current && parent->current->comm && !t->current)
		timechart__comm(tc, pid, parent->current->comm);
	if (t->current && !t->current->start) {
		t->current->start = time;
		t->current->state_since = time;
	}
}

void timechart__exit_task(struct timechart *tc, int pid, uint64_t time)
{
	struct tc_task *t = find_task(tc, pid);

	if (t->current)
		t->current->end = time;
}

static void add_interval(struct timechart *tc, int pid, enum tc_state type, int cpu,
			 uint64_t start, uint64_t end, const char *backtrace)
{
	struct tc_task *t = find_task(tc, pid);
	struct tc_comm *c = t->current ? t->current : new_comm(t);
	struct tc_interval *i = xcalloc(1, sizeof(*i));

	i->start = start;
	i->end = end;
	i->type = type;
	i->cpu = cpu;
	i->backtrace = backtrace ? xstrdup(backtrace) : NULL;
	i->next = c->intervals;
	c->intervals = i;
	if (type == TC_RUNNING && end > start && start > 0)
		c->total_time += end - start;
	if (c->start == 0 || c->start > start)
		c->start = start;
}

static void add_power(struct timechart *tc, enum tc_power_type type, int cpu, int state,
		      uint64_t start, uint64_t end)
{
	struct tc_power *p = xcalloc(1, sizeof(*p));

	p->type = type;
	p->cpu = cpu;
	p->state = state;
	p->start = start;
	p->end = end;
	p->next = tc->power;
	tc->power = p;
}

/* Closes cpu's current P-state at time (from the start when it had none). */
static struct tc_power *pstate_end(struct timechart *tc, int cpu, uint64_t time)
{
	uint64_t since = tc->pstate_since[cpu] ? tc->pstate_since[cpu] : tc->first_time;

	add_power(tc, TC_PSTATE, cpu, (int)tc->pstate[cpu], since, time);
	return tc->power;
}

static void pstate_change(struct timechart *tc, int cpu, uint64_t time, uint64_t freq)
{
	if (freq > MAX_VALID_FREQ)
		return;
	pstate_end(tc, cpu, time);
	tc->pstate[cpu] = freq;
	tc->pstate_since[cpu] = time;
	if (freq > tc->max_freq)
		tc->max_freq = freq;
	if (freq < tc->min_freq || tc->min_freq == 0)
		tc->min_freq = freq;
	if (freq == tc->max_freq - 1000)
		tc->turbo_freq = tc->max_freq;
}

static void sched_wakeup(struct timechart *tc, int cpu, uint64_t time, int waker, int wakee,
			 unsigned int flags, const char *backtrace)
{
	struct tc_wakeup *w = xcalloc(1, sizeof(*w));
	struct tc_task *t;

	w->time = time;
	w->waker = flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ) ? -1 : waker;
	w->wakee = wakee;
	w->backtrace = backtrace ? xstrdup(backtrace) : NULL;
	w->next = tc->wakeups;
	tc->wakeups = w;

	t = find_task(tc, wakee);
	if (t->current && t->current->state == TC_NONE) {
		t->current->state_since = time;
		t->current->state = TC_WAITING;
	}
	if (t->current && t->current->state == TC_BLOCKED) {
		add_interval(tc, t->pid, TC_BLOCKED, cpu, t->current->state_since, time, NULL);
		t->current->state_since = time;
		t->current->state = TC_WAITING;
	}
}

static void sched_switch(struct timechart *tc, int cpu, uint64_t time, int prev_pid,
			 int next_pid, uint64_t prev_state, const char *backtrace)
{
	struct tc_task *prev = find_task(tc, prev_pid), *next = find_task(tc, next_pid);

	if (prev->current && prev->current->state != TC_NONE)
		add_interval(tc, prev_pid, TC_RUNNING, cpu, prev->current->state_since, time,
			     backtrace);
	if (next->current) {
		if (next->current->state != TC_NONE)
			add_interval(tc, next_pid, next->current->state, cpu,
				     next->current->state_since, time, backtrace);
		next->current->state_since = time;
		next->current->state = TC_RUNNING;
	}
	if (prev->current) {
		prev->current->state = TC_NONE;
		prev->current->state_since = time;
		if (prev_state & 2)		/* TASK_UNINTERRUPTIBLE */
			prev->current->state = TC_BLOCKED;
		if (prev_state == 0)		/* preempted while runnable */
			prev->current->state = TC_WAITING;
	}
}

static void complain(struct timechart *tc, const char *what)
{
	tc->io_invalid++;
	if (tc->warn)
		tc->warn(what);
}

static void io_begin(struct timechart *tc, int pid, enum tc_io_type type, uint64_t start,
		     int fd)
{
	struct tc_task *t = find_task(tc, pid);
	struct tc_comm *c = t->current ? t->current : new_comm(t);
	struct tc_io *prev = c->io, *io;

	if (prev && prev->start && !prev->end) {
		/* the previous call never ended: drop it, and this one too */
		complain(tc, "Skip invalid start event: previous event already started!");
		c->io = prev->next;
		free(prev);
		return;
	}
	io = xcalloc(1, sizeof(*io));
	io->start = start;
	io->type = type;
	io->fd = fd;
	io->next = c->io;
	c->io = io;
	if (c->start == 0 || c->start > start)
		c->start = start;
}

/* -1 for a task never seen before (perf stops reading there). */
static int io_end(struct timechart *tc, int pid, enum tc_io_type type, uint64_t end, long ret)
{
	struct tc_task *t = find_task(tc, pid);
	struct tc_comm *c = t->current;
	struct tc_io *io, *prev;

	if (!c) {
		complain(tc, "Invalid pidcomm!");
		return -1;
	}
	io = c->io;
	if (!io)			/* its start was before the recording */
		return 0;
	if (io->end) {		/* an end without its start */
		complain(tc, "Skip invalid end event: previous event already ended!");
		return 0;
	}
	if (io->type != type) {
		complain(tc, "Skip invalid end event: invalid event type!");
		return 0;
	}
	io->end = end;
	prev = io->next;
	/* short calls are drawn min_time long, without overlapping */
	if (io->end - io->start < tc->io_min_time)
		io->end = io->start + tc->io_min_time;
	if (prev && io->start < prev->end) {
		if (prev->err)
			io->start = prev->end;
		else
			prev->end = io->start;
	}
	if (ret < 0) {
		io->err = (int)ret;
	} else if (type == TC_IO_READ || type == TC_IO_WRITE || type == TC_IO_TX ||
		   type == TC_IO_RX) {
		if ((uint64_t)ret > c->max_bytes)
			c->max_bytes = (uint64_t)ret;
		c->total_bytes += (uint64_t)ret;
		io->bytes = (uint64_t)ret;
	}
	/* close calls of one kind on one fd merge into one box */
	if (prev && prev->type == io->type && prev->err == io->err && prev->fd == io->fd &&
	    prev->end + tc->io_merge_dist >= io->start) {
		io->bytes += prev->bytes;
		io->merges += prev->merges + 1;
		io->start = prev->start;
		io->next = prev->next;
		free(prev);
		if (!io->err && io->bytes > c->max_bytes)
			c->max_bytes = io->bytes;
	}
	tc->io_events++;
	return 0;
}

void timechart__widen(struct timechart *tc, uint64_t first, uint64_t last)
{
	if (!tc->first_time || tc->first_time > first)
		tc->first_time = first;
	if (tc->last_time < last)
		tc->last_time = last;
}

int timechart__sample(struct timechart *tc, enum tc_event ev, struct tep_event *tp,
		      const struct perf_sample *sample, const char *backtrace)
{
	uint32_t cpu_id;
	int tid = (int)sample->tid, cpu = (int)sample->cpu;

	timechart__widen(tc, sample->time, sample->time);

	switch (ev) {
	case TC_EV_OTHER:
		return 0;
	case TC_EV_CPU_IDLE:
	case TC_EV_CPU_FREQUENCY:
	case TC_EV_POWER_START:
	case TC_EV_POWER_FREQUENCY:
		cpu_id = (uint32_t)field_value(tc, tp, sample, "cpu_id");
		if (cpu_id >= TIMECHART_MAX_CPUS)
			return -1;
		if (ev == TC_EV_CPU_IDLE) {
			uint32_t state = (uint32_t)field_value(tc, tp, sample, "state");

			if (state == PWR_EVENT_EXIT) {
				add_power(tc, TC_CSTATE, (int)cpu_id, tc->cstate[cpu_id],
					  tc->cstate_since[cpu_id], sample->time);
			} else {
				tc->cstate[cpu_id] = (int)state;
				tc->cstate_since[cpu_id] = sample->time;
			}
		} else if (ev == TC_EV_CPU_FREQUENCY) {
			pstate_change(tc, (int)cpu_id, sample->time,
				      (uint32_t)field_value(tc, tp, sample, "state"));
		} else if (ev == TC_EV_POWER_START) {
			tc->cstate[cpu_id] = (int)field_value(tc, tp, sample, "value");
			tc->cstate_since[cpu_id] = sample->time;
		} else {
			pstate_change(tc, (int)cpu_id, sample->time,
				      field_value(tc, tp, sample, "value"));
		}
		return 0;
	case TC_EV_POWER_END:
		add_power(tc, TC_CSTATE, cpu, tc->cstate[cpu], tc->cstate_since[cpu],
			  sample->time);
		return 0;
	case TC_EV_WAKEUP:
		sched_wakeup(tc, cpu, sample->time, (int)field_value(tc, tp, sample, "common_pid"),
			     (int)field_value(tc, tp, sample, "pid"),
			     (unsigned int)field_value(tc, tp, sample, "common_flags"), backtrace);
		return 0;
	case TC_EV_SWITCH:
		sched_switch(tc, cpu, sample->time, (int)field_value(tc, tp, sample, "prev_pid"),
			     (int)field_value(tc, tp, sample, "next_pid"),
			     field_value(tc, tp, sample, "prev_state"), backtrace);
		return 0;
	default:
		break;
	}
	if (ev >= TC_EV_IO_EXIT)
		return io_end(tc, tid, (enum tc_io_type)(ev - TC_EV_IO_EXIT), sample->time,
			      (long)field_value(tc, tp, sample, "ret"));
	io_begin(tc, tid, (enum tc_io_type)(ev - TC_EV_IO_ENTER), sample->time,
		 (int)(long)field_value(tc, tp, sample, "fd"));
	return 0;
}

char *timechart__backtrace(const struct perf_sample *sample)
{
	struct strbuf sb = STRBUF_INIT;

	for (uint64_t i = 0; sample->callchain && i < sample->callchain_nr; i++) {
		uint64_t ip = sample->callchain[i];

		if (ip < PERF_CONTEXT_MAX) {
			strbuf_addf(&sb, "..... %016" PRIx64 "\n", ip);
		} else if (ip != PERF_CONTEXT_HV && ip != PERF_CONTEXT_KERNEL &&
			   ip != PERF_CONTEXT_USER) {
			strbuf_release(&sb);
			return NULL;
		}
	}
	return strbuf_detach(&sb);
}

/* By ppid, then pid, as perf orders the rows. */
static int task_cmp(const void *a, const void *b)
{
	const struct tc_task *x = *(struct tc_task *const *)a, *y = *(struct tc_task *const *)b;

	if (x->ppid != y->ppid)
		return x->ppid < y->ppid ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

void timechart__finish(struct timechart *tc)
{
	struct tc_task **v;
	size_t n = 0;

	for (unsigned int cpu = 0; cpu <= tc->nr_cpus && cpu < TIMECHART_MAX_CPUS; cpu++) {
		struct tc_power *p = pstate_end(tc, (int)cpu, tc->last_time);

		if (!p->state)
			p->state = (int)tc->min_freq;
	}
	for (struct tc_task *t = tc->tasks; t; t = t->next)
		n++;
	if (!n)
		return;
	v = xcalloc(n, sizeof(*v));
	n = 0;
	for (struct tc_task *t = tc->tasks; t; t = t->next)
		v[n++] = t;
	qsort(v, n, sizeof(*v), task_cmp);
	for (size_t i = 0; i < n; i++)
		v[i]->next = i + 1 < n ? v[i + 1] : NULL;
	tc->tasks = v[0];
	free(v);
}

void timechart__add_filter(struct timechart *tc, const char *pid_or_name)
{
	struct tc_filter *f = xcalloc(1, sizeof(*f));

	f->name = xstrdup(pid_or_name);
	f->pid = (int)strtoull(pid_or_name, NULL, 10);
	f->next = tc->filters;
	tc->filters = f;
}

static bool passes_filter(const struct timechart *tc, const struct tc_task *t,
			  const struct tc_comm *c)
{
	for (const struct tc_filter *f = tc->filters; f; f = f->next) {
		if (f->pid && t->pid == f->pid)
			return true;
		if (c->comm && !strcmp(f->name, c->comm))
			return true;
	}
	return false;
}

/* One selection pass: the names -p asks for, or those over threshold. */
static int select_pass(struct timechart *tc, uint64_t threshold)
{
	int count = 0;

	for (struct tc_task *t = tc->tasks; t; t = t->next) {
		for (struct tc_comm *c = t->comms; c; c = c->next) {
			/* a start of 1 stands for the beginning (perf's I/O pass
			 * without -p leaves it) */
			if (c->start == 1 && (!tc->io_events || tc->filters))
				c->start = tc->first_time;
			if (tc->filters)
				c->display = passes_filter(tc, t, c);
			else if (tc->io_events)
				c->display = c->total_bytes >= threshold;
			else
				c->display = c->total_time >= threshold;
			count += c->display;
			if (c->end == 0)	/* it ran to the end */
				c->end = tc->last_time;
		}
	}
	return count;
}

int timechart__select(struct timechart *tc, int proc_num)
{
	int threshold = tc->io_events ? BYTES_THRESHOLD : TIME_THRESHOLD;
	int count;

	do {
		count = select_pass(tc, (uint64_t)threshold);
		threshold /= 10;
	} while (!tc->filters && threshold && count < proc_num);
	return count;
}

/* The CPUs of each list as bitmaps of nr_cpus bytes; false for a list
 * that does not parse or names a CPU beyond nr_cpus. */
static bool parse_cpu_lists(char **lists, uint32_t nr, int nr_cpus, uint8_t *sets)
{
	for (uint32_t i = 0; i < nr; i++) {
		struct cpu_map *m = cpu_map__parse(lists[i]);
		bool ok = m != NULL;

		for (int j = 0; m && j < m->nr && ok; j++) {
			if (m->map[j] < 0 || m->map[j] >= nr_cpus)
				ok = false;
			else
				sets[(size_t)i * (size_t)nr_cpus + (size_t)m->map[j]] = 1;
		}
		cpu_map__delete(m);
		if (!ok)
			return false;
	}
	return true;
}

int *timechart__topology(const struct perf_header *h)
{
	int nr_cpus = (int)(h->nr_cpus_online < TIMECHART_MAX_CPUS ? h->nr_cpus_online
								   : TIMECHART_MAX_CPUS);
	uint8_t *cores = xcalloc((size_t)h->nr_sibling_cores + 1, (size_t)nr_cpus + 1);
	uint8_t *threads = xcalloc((size_t)h->nr_sibling_threads + 1, (size_t)nr_cpus + 1);
	int *position = NULL, next = 0;

	if (!h->nr_sibling_cores && !h->nr_sibling_threads)	/* no CPU_TOPOLOGY */
		goto out;
	if (!parse_cpu_lists(h->sibling_cores, h->nr_sibling_cores, nr_cpus, cores) ||
	    !parse_cpu_lists(h->sibling_threads, h->nr_sibling_threads, nr_cpus, threads))
		goto out;
	position = xcalloc((size_t)nr_cpus + 1, sizeof(*position));
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		position[cpu] = -1;
	/* core by core, each CPU's thread siblings get the next places */
	for (uint32_t core = 0; core < h->nr_sibling_cores; core++) {
		for (int cpu = 0; cpu < nr_cpus; cpu++) {
			if (!cores[(size_t)core * (size_t)nr_cpus + (size_t)cpu])
				continue;
			for (uint32_t t = 0; t < h->nr_sibling_threads; t++) {
				const uint8_t *set = threads + (size_t)t * (size_t)nr_cpus;

				if (!set[cpu])
					continue;
				for (int thr = 0; thr < nr_cpus; thr++)
					if (set[thr] && position[thr] == -1)
						position[thr] = next++;
			}
		}
	}
out:
	free(cores);
	free(threads);
	return position;
}
