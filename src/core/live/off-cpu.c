/* off-cpu: perf's offcpu-time samples without BPF (see off-cpu.h). */
#include "core/live/off-cpu.h"
#include "util/hashmap.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* The longest callchain the kernel hands out (PERF_MAX_STACK_DEPTH with its
 * context markers), and so the longest a sample here carries. */
#define MAX_CHAIN	(127 + 8)

/* A switch waiting for its round to be ordered. */
struct pending_switch {
	uint64_t time;
	uint64_t seq;		/* arrival order: ties keep it */
	uint32_t pid, tid, cpu;
	bool in;
	bool preempted;		/* out, but runnable: no sleep */
	uint64_t *chain;	/* a sleep's stack (out only), owned */
	size_t nr;
};

/* Per thread: the stack of its last sched_switch sample, then its sleep. */
struct thread_state {
	uint64_t *stack;	/* not yet claimed by a switch-out */
	size_t stack_nr;
	uint64_t *chain;	/* the sleep's stack */
	size_t nr;
	uint64_t since;		/* asleep since; 0: running */
};

struct off_cpu {
	uint64_t sample_type, id;
	struct hashmap threads;	/* tid -> struct thread_state */
	struct pending_switch *pending;
	size_t nr_pending, alloc_pending;
	uint64_t seq;
	uint64_t newest, newest_before;	/* times of this round, of the last */
	uint64_t nr_samples, total_ns;
	uint64_t sample[MAX_CHAIN + 16];	/* the record being built */
};

void off_cpu__init_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_BPF_OUTPUT;
	attr->size = sizeof(*attr);
	attr->freq = 1;
	attr->sample_freq = 1;
	attr->sample_type = PERF_SAMPLE_CALLCHAIN;
}

struct off_cpu *off_cpu__new(uint64_t sample_type, uint64_t id)
{
	struct off_cpu *oc;

	if (sample_type & ~(uint64_t)OFF_CPU_SAMPLE_TYPES)
		return NULL;
	oc = xcalloc(1, sizeof(*oc));
	oc->sample_type = sample_type;
	oc->id = id;
	hashmap_init(&oc->threads, sizeof(struct thread_state));
	return oc;
}

void off_cpu__delete(struct off_cpu *oc)
{
	struct thread_state *ts = NULL;

	if (!oc)
		return;
	while ((ts = hashmap_next(&oc->threads, ts))) {
		free(ts->stack);
		free(ts->chain);
	}
	hashmap_release(&oc->threads);
	for (size_t i = 0; i < oc->nr_pending; i++)
		free(oc->pending[i].chain);
	free(oc->pending);
	free(oc);
}

static struct thread_state *thread_state(struct off_cpu *oc, uint32_t tid)
{
	return hashmap_u64_findnew(&oc->threads, tid, NULL);
}

void off_cpu__stack(struct off_cpu *oc, uint32_t tid, const uint64_t *chain, size_t nr)
{
	struct thread_state *ts = thread_state(oc, tid);

	if (nr > MAX_CHAIN)
		nr = MAX_CHAIN;
	free(ts->stack);
	ts->stack = nr ? xmalloc(nr * sizeof(*chain)) : NULL;
	if (nr)
		memcpy(ts->stack, chain, nr * sizeof(*chain));
	ts->stack_nr = nr;
}

static struct pending_switch *add_pending(struct off_cpu *oc, uint32_t pid, uint32_t tid,
					  uint64_t time)
{
	struct pending_switch *p;

	if (oc->nr_pending == oc->alloc_pending) {
		oc->alloc_pending = oc->alloc_pending ? oc->alloc_pending * 2 : 256;
		oc->pending = xrealloc(oc->pending, oc->alloc_pending * sizeof(*oc->pending));
	}
	p = &oc->pending[oc->nr_pending++];
	memset(p, 0, sizeof(*p));
	p->time = time;
	p->seq = oc->seq++;
	p->pid = pid;
	p->tid = tid;
	off_cpu__note_time(oc, time);
	return p;
}

void off_cpu__switch_out(struct off_cpu *oc, uint32_t pid, uint32_t tid, uint64_t time,
			 bool preempted)
{
	struct thread_state *ts = thread_state(oc, tid);
	uint64_t *stack = ts->stack;
	size_t nr = ts->stack_nr;
	struct pending_switch *p;

	ts->stack = NULL;
	ts->stack_nr = 0;
	p = add_pending(oc, pid, tid, time);
	/* A preempted thread is runnable: perf counts sleeps only. */
	p->preempted = preempted;
	if (preempted) {
		free(stack);
		return;
	}
	p->chain = stack;
	p->nr = nr;
}

void off_cpu__switch_in(struct off_cpu *oc, uint32_t pid, uint32_t tid, uint64_t time,
			uint32_t cpu)
{
	struct pending_switch *p = add_pending(oc, pid, tid, time);

	p->in = true;
	p->cpu = cpu;
}

static int by_time(const void *a, const void *b)
{
	const struct pending_switch *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The sample of a sleep, laid out as sample_type says. */
static int emit_sleep(struct off_cpu *oc, const struct thread_state *ts,
		      const struct pending_switch *in, off_cpu_emit_fn *emit, void *ctx)
{
	struct perf_event_header *h = (void *)oc->sample;
	uint64_t *f = oc->sample + 1, st = oc->sample_type, ip = 0;
	uint64_t period = in->time - ts->since;
	bool kernel = false;
	size_t i;

	/* The first address of the chain is where the thread stopped. */
	for (i = 0; i < ts->nr; i++) {
		if (ts->chain[i] >= PERF_CONTEXT_MAX) {
			kernel = ts->chain[i] == PERF_CONTEXT_KERNEL;
			continue;
		}
		ip = ts->chain[i];
		break;
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		*f++ = oc->id;
	if (st & PERF_SAMPLE_IP)
		*f++ = ip;
	if (st & PERF_SAMPLE_TID)
		*f++ = (uint64_t)in->tid << 32 | in->pid;
	if (st & PERF_SAMPLE_TIME)
		*f++ = in->time;
	if (st & PERF_SAMPLE_ID)
		*f++ = oc->id;
	if (st & PERF_SAMPLE_CPU)
		*f++ = in->cpu;
	if (st & PERF_SAMPLE_PERIOD)
		*f++ = period;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		*f++ = ts->nr;
		memcpy(f, ts->chain, ts->nr * sizeof(*f));
		f += ts->nr;
	}
	if (st & PERF_SAMPLE_CGROUP)
		*f++ = 0;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	h->size = (uint16_t)((char *)f - (char *)oc->sample);
	oc->nr_samples++;
	oc->total_ns += period;
	return emit(ctx, h);
}

/* Pairs the switches up to limit in time order, keeps the rest waiting. */
static int flush(struct off_cpu *oc, uint64_t limit, off_cpu_emit_fn *emit, void *ctx)
{
	size_t done = 0;
	int err = 0;

	qsort(oc->pending, oc->nr_pending, sizeof(*oc->pending), by_time);
	for (; done < oc->nr_pending && oc->pending[done].time <= limit && !err; done++) {
		struct pending_switch *p = &oc->pending[done];
		struct thread_state *ts = thread_state(oc, p->tid);

		if (!p->in) {
			/* an out after an out: the wake-up between them was
			 * lost (a full ring), and so is that sleep */
			free(ts->chain);
			ts->chain = p->chain;
			ts->nr = p->nr;
			ts->since = p->preempted ? 0 : p->time;
			p->chain = NULL;
		} else if (ts->since) {
			err = emit_sleep(oc, ts, p, emit, ctx);
			ts->since = 0;
		}
	}
	for (size_t i = 0; i < done; i++)
		free(oc->pending[i].chain);
	memmove(oc->pending, oc->pending + done, (oc->nr_pending - done) * sizeof(*oc->pending));
	oc->nr_pending -= done;
	return err;
}

void off_cpu__note_time(struct off_cpu *oc, uint64_t time)
{
	if (time > oc->newest)
		oc->newest = time;
}

int off_cpu__round_end(struct off_cpu *oc, off_cpu_emit_fn *emit, void *ctx)
{
	int err = oc->newest_before ? flush(oc, oc->newest_before, emit, ctx) : 0;

	oc->newest_before = oc->newest;
	return err;
}

int off_cpu__finish(struct off_cpu *oc, off_cpu_emit_fn *emit, void *ctx)
{
	return flush(oc, UINT64_MAX, emit, ctx);
}

uint64_t off_cpu__nr_samples(const struct off_cpu *oc)
{
	return oc->nr_samples;
}

uint64_t off_cpu__total_ns(const struct off_cpu *oc)
{
	return oc->total_ns;
}
