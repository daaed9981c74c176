/* lock: lock statistics from lockdep's lock:lock_* and lock:contention_*
 * (see lock.h). */
#include "core/analysis/lock.h"
#include "core/analysis/tp-fields.h"
#include "core/symbols/kernel-maps.h"

#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* perf's hash_long(): the golden-ratio multiply of the kernel's hash_64,
 * the top bits kept, as a u32 */
#define GOLDEN_RATIO_64 0x61C8864680B583EBull
#define LOCKHASH_BITS 12

/* A task's progress on one lock.  perf frees the state when a sequence
 * ends or breaks; here it goes back to SEQ_UNINITIALIZED instead. */
enum seq_state {
	SEQ_UNINITIALIZED, SEQ_ACQUIRING, SEQ_CONTENDED, SEQ_ACQUIRED, SEQ_READ_ACQUIRED
};

struct seq_entry {
	uint64_t tid, addr;
	uint64_t prev_time;
	enum seq_state state;
	int read_count;		/* read (and try) acquisitions nested */
};

struct key_entry {
	uint64_t key;
	uint32_t index;
};

static bool seq_eq(const void *value, const void *key)
{
	const struct seq_entry *a = value, *b = key;

	return a->tid == b->tid && a->addr == b->addr;
}

static bool key_eq(const void *value, const void *key)
{
	return ((const struct key_entry *)value)->key == *(const uint64_t *)key;
}

void lock_analysis__init(struct lock_analysis *la)
{
	memset(la, 0, sizeof(*la));
	hashmap_init(&la->by_key, sizeof(struct key_entry));
	hashmap_init(&la->seqs, sizeof(struct seq_entry));
	hashmap_init(&la->threads, 0);
	/* comms: zeroed, a map of pointers */
	la->max_stack = 8;
	la->stack_skip = 3;
}

void lock_analysis__exit(struct lock_analysis *la)
{
	for (size_t i = 0; i < la->nr_stats; i++)
		free(la->stats[i].callstack);
	free(la->stats);
	hashmap_release(&la->by_key);
	hashmap_release(&la->seqs);
	hashmap_release(&la->threads);
	for (void *p = hashmap_next(&la->comms, NULL); p; p = hashmap_next(&la->comms, p))
		free(*(char **)p);
	hashmap_release(&la->comms);
	free(la->events);
}

void lock_analysis__comm(struct lock_analysis *la, uint64_t tid, const char *comm)
{
	char **slot;

	if (tid == UINT64_MAX)
		return;
	slot = hashmap_u64_findnew(&la->comms, tid, NULL);
	free(*slot);
	*slot = xstrdup(comm);
}

const char *lock_analysis__task_name(const struct lock_analysis *la, uint64_t tid, char *buf,
				     size_t size)
{
	const char *comm = tid == UINT64_MAX ? NULL : hashmap_u64_get(&la->comms, tid);

	if (comm)
		return comm;
	if (tid == 0)
		return "swapper";	/* perf's name for the idle task, no COMM needed */
	snprintf(buf, size, ":%d", (int)tid);
	return buf;
}

static struct lock_stat *stat_find(struct lock_analysis *la, uint64_t key)
{
	struct key_entry *e = hashmap_find(&la->by_key, hash_mix(key), key_eq, &key);

	return e ? &la->stats[e->index] : NULL;
}

static struct lock_stat *stat_new(struct lock_analysis *la, uint64_t key, const char *name,
				  uint32_t flags)
{
	bool added;
	struct key_entry *e = hashmap_findnew(&la->by_key, hash_mix(key), key_eq, &key, &added);
	struct lock_stat *ls;

	if (la->nr_stats == la->alloc_stats) {
		la->alloc_stats = la->alloc_stats ? la->alloc_stats * 2 : 256;
		la->stats = xrealloc(la->stats, la->alloc_stats * sizeof(*la->stats));
	}
	e->key = key;
	e->index = (uint32_t)la->nr_stats;
	ls = memset(&la->stats[la->nr_stats++], 0, sizeof(*ls));
	ls->key = key;
	snprintf(ls->name, sizeof(ls->name), "%s", name);
	ls->flags = flags;
	ls->wait_time_min = UINT64_MAX;
	ls->seq = e->index;
	return ls;
}

/* What an event is to the analysis, looked up at its first sample. */
enum lock_kind {
	KIND_NONE, KIND_BEGIN, KIND_END,
	KIND_LOCKDEP	/* + enum lockdep_event */
};

struct lock_event {
	bool known;
	int kind;
	struct tep_format_field *addr, *flags;	/* lock_addr or lockdep_addr; flags */
};

static const struct lock_event *event_of(struct lock_analysis *la, struct perf_session *s,
					 struct evsel *evsel)
{
	static const char *const names[] = {
		"lock:contention_begin", "lock:contention_end", "lock:lock_acquire",
		"lock:lock_acquired", "lock:lock_contended", "lock:lock_release",
	};
	struct lock_event *e;
	struct tep_event *tp;

	e = tp_event_slot(&la->events, &la->nr_events, evsel->idx, sizeof(*e));
	if (e->known)
		return e;
	e->known = true;
	la->swap = tp_swapped(s->tep);
	for (size_t i = 0; evsel->attr.type == PERF_TYPE_TRACEPOINT && i < ARRAY_SIZE(names); i++)
		if (!strcmp(evsel->name, names[i]))
			e->kind = KIND_BEGIN + (int)i;
	tp = e->kind ? perf_session__event(s, evsel)->tp_format : NULL;
	if (tp) {
		e->addr = tep_find_field(tp, e->kind < KIND_LOCKDEP ? "lock_addr" : "lockdep_addr");
		e->flags = tep_find_field(tp, "flags");
	}
	return e;
}

/* Mutexes and rwsems live in the scheduler's text, spinlocks in the
 * lock text: perf looks for callers beyond both. */
static bool is_lock_function(struct lock_analysis *la, struct machine *m, uint64_t addr)
{
	if (!la->bounds_loaded) {
		const struct symbol *sym, *end, *ls, *le;

		la->bounds_loaded = true;
		sym = machine__find_kernel_symbol_by_name(m, "__sched_text_start", NULL);
		if (sym) {
			end = machine__find_kernel_symbol_by_name(m, "__sched_text_end", NULL);
			ls = machine__find_kernel_symbol_by_name(m, "__lock_text_start", NULL);
			le = machine__find_kernel_symbol_by_name(m, "__lock_text_end", NULL);

			la->have_bounds = end && ls && le;
			la->sched_start = sym->start;
			la->sched_end = end ? end->start : 0;
			la->lock_start = ls ? ls->start : 0;
			la->lock_end = le ? le->start : 0;
		}
	}
	if (!la->have_bounds)
		return false;
	return (la->sched_start <= addr && addr < la->sched_end) ||
	       (la->lock_start <= addr && addr < la->lock_end);
}

/* One frame of a sample's chain: its address and the mode it ran in. */
struct chain_frame {
	uint64_t ip;
	uint8_t cpumode;
};

/* The chain's first max frames, context markers applied as perf applies
 * them (a marker it does not know drops the whole chain).  Symbols are
 * looked up later, and only where they matter. */
static int chain_frames(const struct perf_sample *sample, int max, struct chain_frame *out)
{
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	int n = 0;

	for (uint64_t i = 0; i < sample->callchain_nr && n < max; i++) {
		uint64_t ip = sample->callchain[i];

		if (ip < PERF_CONTEXT_MAX)
			out[n++] = (struct chain_frame){ ip, cpumode };
		else if (!perf_context__cpumode(ip, &cpumode))
			return 0;
	}
	return n;
}

/* The symbol perf lock sees at a frame: kernel ones only, because it
 * does not read MMAP2 records, which map every user DSO today. */
static const struct symbol *frame_symbol(struct perf_session *s, const struct chain_frame *f,
					 struct addr_location *al)
{
	if (f->cpumode != PERF_RECORD_MISC_KERNEL ||
	    !machine__lookup(s->machine, NULL, f->cpumode, f->ip, al))
		return NULL;
	return al->sym;
}

/* A kernel frame in the lock code that has a symbol: perf looks past it. */
static bool in_lock_code(struct lock_analysis *la, struct perf_session *s,
			 const struct chain_frame *f)
{
	struct addr_location al;

	return f->cpumode == PERF_RECORD_MISC_KERNEL && is_lock_function(la, s->machine, f->ip) &&
	       frame_symbol(s, f, &al);
}

/* perf's callchain_id: the frames past the lock code, hashed together. */
static uint64_t chain_key(struct lock_analysis *la, struct perf_session *s,
			  const struct perf_sample *sample)
{
	struct chain_frame frames[256];
	int n = chain_frames(sample, la->max_stack < 256 ? la->max_stack : 256, frames);
	uint64_t hash = 0;

	for (int i = la->stack_skip > 0 ? la->stack_skip : 0; i < n; i++) {
		if (in_lock_code(la, s, &frames[i]))
			continue;
		/* perf's hash_long() returns 32 bits */
		hash ^= (uint32_t)(frames[i].ip * GOLDEN_RATIO_64);
	}
	return hash;
}

/* The first caller past the lock code, "func+0x12"; false when none. */
static bool chain_caller(struct lock_analysis *la, struct perf_session *s,
			 const struct perf_sample *sample, char *buf, size_t size)
{
	struct chain_frame frames[256];
	int n = chain_frames(sample, la->max_stack < 256 ? la->max_stack : 256, frames);

	for (int i = la->stack_skip > 0 ? la->stack_skip : 0; i < n; i++) {
		struct addr_location al;
		const struct symbol *sym = frame_symbol(s, &frames[i], &al);
		uint64_t offset;

		if (!sym || (frames[i].cpumode == PERF_RECORD_MISC_KERNEL &&
			     is_lock_function(la, s->machine, frames[i].ip)))
			continue;
		offset = al.addr - sym->start;
		if (offset)
			snprintf(buf, size, "%s+%#lx", sym->name, (unsigned long)offset);
		else
			snprintf(buf, size, "%s", sym->name);
		return true;
	}
	return false;
}

static uint64_t aggr_key(struct lock_analysis *la, struct perf_session *s,
			 const struct perf_sample *sample, uint64_t addr)
{
	switch (la->aggr) {
	case LOCK_AGGR_CALLER:
		return chain_key(la, s, sample);
	case LOCK_AGGR_TASK:
		return sample->tid;
	default:
		return addr;
	}
}

static struct seq_entry *get_seq(struct lock_analysis *la, uint64_t tid, uint64_t addr)
{
	struct seq_entry key = { .tid = tid, .addr = addr };
	uint64_t h = hash_mix(hash_add(tid, addr));
	bool added;
	struct seq_entry *e = hashmap_findnew(&la->seqs, h, seq_eq, &key, &added);

	if (added)
		*e = key;
	return e;
}

/* A sequence out of lockdep's order: perf counts the first one of each
 * lock by the event that broke it, and forgets the task's state of the
 * lock. */
static int broken_seq(struct lock_analysis *la, struct lock_stat *ls, struct seq_entry *seq,
		      enum lock_broken by)
{
	if (!ls->broken) {
		ls->broken = true;
		la->bad_hist[by]++;
	}
	seq->state = SEQ_UNINITIALIZED;
	seq->read_count = 0;
	return 0;
}

static int contention_begin(struct lock_analysis *la, struct perf_session *s,
			    const struct lock_event *e, const struct perf_sample *sample)
{
	uint64_t addr = tp_read_number(e->addr, sample, la->swap);
	uint64_t key = aggr_key(la, s, sample, addr);
	struct lock_stat *ls = stat_find(la, key);
	struct seq_entry *seq;

	if (!ls) {
		char name[128];

		if (la->thread_names || !chain_caller(la, s, sample, name, sizeof(name)))
			snprintf(name, sizeof(name), "Unknown");
		ls = stat_new(la, key, name, (uint32_t)tp_read_number(e->flags, sample, la->swap));
	}
	if (la->keep_callstacks && !ls->callstack && la->max_stack > 0) {
		struct chain_frame frames[256];
		int n = chain_frames(sample, la->max_stack < 256 ? la->max_stack : 256, frames);

		ls->callstack = xcalloc((size_t)la->max_stack, sizeof(*ls->callstack));
		for (int i = 0; i < n; i++)
			ls->callstack[i] = frames[i].ip;
	}
	hashmap_u64_findnew(&la->threads, sample->tid, NULL);
	seq = get_seq(la, sample->tid, addr);
	/* a nested begin (mutex spinning) keeps the first one */
	if (seq->state == SEQ_CONTENDED)
		return 0;
	if (seq->state == SEQ_ACQUIRING || seq->state == SEQ_READ_ACQUIRED)
		return broken_seq(la, ls, seq, LOCK_BROKEN_CONTENDED);
	seq->state = SEQ_CONTENDED;
	seq->prev_time = sample->time;
	ls->nr_contended++;
	return 0;
}

static int contention_end(struct lock_analysis *la, struct perf_session *s,
			  const struct lock_event *e, const struct perf_sample *sample)
{
	uint64_t addr = tp_read_number(e->addr, sample, la->swap);
	struct lock_stat *ls = stat_find(la, aggr_key(la, s, sample, addr));
	struct seq_entry *seq;
	uint64_t term;

	if (!ls || !hashmap_u64_find(&la->threads, sample->tid))
		return 0;
	seq = get_seq(la, sample->tid, addr);
	switch (seq->state) {
	case SEQ_UNINITIALIZED:
		return 0;
	case SEQ_ACQUIRING:
	case SEQ_ACQUIRED:
	case SEQ_READ_ACQUIRED:
		/* an end without its begin */
		return broken_seq(la, ls, seq, LOCK_BROKEN_ACQUIRED);
	case SEQ_CONTENDED:
		break;
	}
	term = sample->time - seq->prev_time;
	ls->wait_time_total += term;
	if (term < ls->wait_time_min)
		ls->wait_time_min = term;
	if (ls->wait_time_max < term)
		ls->wait_time_max = term;
	seq->state = SEQ_ACQUIRED;
	ls->nr_acquired++;
	ls->avg_wait_time = ls->wait_time_total / ls->nr_acquired;
	return 0;
}

/* ---- lockdep's lock:lock_acquire, _acquired, _contended, _release ----- */

enum lockdep_event { LOCKDEP_ACQUIRE, LOCKDEP_ACQUIRED, LOCKDEP_CONTENDED, LOCKDEP_RELEASE };
enum { LOCKDEP_TRY = 1, LOCKDEP_READ = 2 };

static void lockdep_acquire(struct lock_analysis *la, struct lock_stat *ls,
			    struct seq_entry *seq, uint32_t flags, uint64_t time)
{
	switch (seq->state) {
	case SEQ_UNINITIALIZED:
		if (flags) {	/* read and try locks are held at once */
			seq->state = SEQ_READ_ACQUIRED;
			seq->read_count = 1;
			ls->nr_acquired++;
		} else {
			seq->state = SEQ_ACQUIRING;
		}
		seq->prev_time = time;
		return;
	case SEQ_READ_ACQUIRED:
		if (flags & LOCKDEP_READ) {
			seq->read_count++;
			ls->nr_acquired++;
			return;
		}
		break;
	default:
		break;
	}
	broken_seq(la, ls, seq, LOCK_BROKEN_ACQUIRE);
}

static void lockdep_acquired(struct lock_analysis *la, struct lock_stat *ls,
			     struct seq_entry *seq, uint64_t time)
{
	uint64_t term;

	switch (seq->state) {
	case SEQ_UNINITIALIZED:
		return;		/* an orphan */
	case SEQ_ACQUIRING:
		break;
	case SEQ_CONTENDED:
		term = time - seq->prev_time;
		ls->wait_time_total += term;
		if (term < ls->wait_time_min)
			ls->wait_time_min = term;
		if (ls->wait_time_max < term)
			ls->wait_time_max = term;
		break;
	default:
		broken_seq(la, ls, seq, LOCK_BROKEN_ACQUIRED);
		return;
	}
	seq->state = SEQ_ACQUIRED;
	ls->nr_acquired++;
	/* lockdep averages over the contentions, not the acquisitions */
	ls->avg_wait_time = ls->nr_contended ? ls->wait_time_total / ls->nr_contended : 0;
	seq->prev_time = time;
}

static void lockdep_contended(struct lock_analysis *la, struct lock_stat *ls,
			      struct seq_entry *seq, uint64_t time)
{
	if (seq->state == SEQ_UNINITIALIZED)
		return;
	if (seq->state != SEQ_ACQUIRING) {
		broken_seq(la, ls, seq, LOCK_BROKEN_CONTENDED);
		return;
	}
	seq->state = SEQ_CONTENDED;
	ls->nr_contended++;
	ls->avg_wait_time = ls->wait_time_total / ls->nr_contended;
	seq->prev_time = time;
}

static void lockdep_release(struct lock_analysis *la, struct lock_stat *ls,
			    struct seq_entry *seq)
{
	switch (seq->state) {
	case SEQ_UNINITIALIZED:
		return;
	case SEQ_ACQUIRED:
		break;
	case SEQ_READ_ACQUIRED:
		if (--seq->read_count)
			return;
		break;
	default:
		broken_seq(la, ls, seq, LOCK_BROKEN_RELEASE);
		return;
	}
	seq->state = SEQ_UNINITIALIZED;
}

static int lockdep_event(struct lock_analysis *la, struct perf_session *s, struct evsel *evsel,
			 const struct lock_event *e, const struct perf_sample *sample,
			 enum lockdep_event event)
{
	struct tep_event *tp = perf_session__event(s, evsel)->tp_format;
	uint64_t addr = tp_read_number(e->addr, sample, la->swap);
	uint64_t key = la->aggr == LOCK_AGGR_TASK ? sample->tid : addr;
	struct lock_stat *ls = stat_find(la, key);
	struct seq_entry *seq;

	/* perf keeps lockdep's locks by address or task only */
	if (la->aggr == LOCK_AGGR_CALLER)
		return 0;
	if (!ls) {
		char *name = tp ? tp_string(tp, sample, "name") : xstrdup("");

		ls = stat_new(la, key, name, 0);
		free(name);
	}
	hashmap_u64_findnew(&la->threads, sample->tid, NULL);
	seq = get_seq(la, sample->tid, addr);
	switch (event) {
	case LOCKDEP_ACQUIRE:
		lockdep_acquire(la, ls, seq, (uint32_t)tp_read_number(e->flags, sample, la->swap),
				sample->time);
		break;
	case LOCKDEP_ACQUIRED:
		lockdep_acquired(la, ls, seq, sample->time);
		break;
	case LOCKDEP_CONTENDED:
		lockdep_contended(la, ls, seq, sample->time);
		break;
	case LOCKDEP_RELEASE:
		lockdep_release(la, ls, seq);
		break;
	}
	return 0;
}

int lock_analysis__sample(struct lock_analysis *la, struct perf_session *s,
			  struct evsel *evsel, const struct perf_sample *sample)
{
	const struct lock_event *e = event_of(la, s, evsel);

	switch (e->kind) {
	case KIND_NONE:
		return 0;
	case KIND_BEGIN:
		return contention_begin(la, s, e, sample);
	case KIND_END:
		return contention_end(la, s, e, sample);
	default:
		return lockdep_event(la, s, evsel, e, sample,
				     (enum lockdep_event)(e->kind - KIND_LOCKDEP));
	}
}

/* ---- perf's orders ---------------------------------------------------- */

static unsigned int bucket_of(uint64_t key)
{
	return (unsigned int)((key * GOLDEN_RATIO_64) >> (64 - LOCKHASH_BITS));
}

/* perf's hash table walk: buckets in turn, the newest lock first in each */
static int table_cmp(const void *pa, const void *pb)
{
	const struct lock_stat *a = *(const struct lock_stat *const *)pa;
	const struct lock_stat *b = *(const struct lock_stat *const *)pb;
	unsigned int ba = bucket_of(a->key), bb = bucket_of(b->key);

	if (ba != bb)
		return ba < bb ? -1 : 1;
	return a->seq > b->seq ? -1 : a->seq < b->seq;
}

struct lock_stat **lock_analysis__table_order(struct lock_analysis *la, size_t *nr)
{
	struct lock_stat **v = xmalloc((la->nr_stats + 1) * sizeof(*v));

	for (size_t i = 0; i < la->nr_stats; i++)
		v[i] = &la->stats[i];
	qsort(v, la->nr_stats, sizeof(*v), table_cmp);
	*nr = la->nr_stats;
	return v;
}

struct name_entry {
	const char *name;
	struct lock_stat *first;
};

static bool name_eq(const void *value, const void *key)
{
	return !strcmp(((const struct name_entry *)value)->name, key);
}

static void merge_into(struct lock_stat *p, struct lock_stat *st)
{
	p->nr_acquired += st->nr_acquired;
	p->nr_contended += st->nr_contended;
	p->wait_time_total += st->wait_time_total;
	/* perf averages combined locks over their contentions */
	if (p->nr_contended)
		p->avg_wait_time = p->wait_time_total / p->nr_contended;
	if (p->wait_time_min > st->wait_time_min)
		p->wait_time_min = st->wait_time_min;
	if (p->wait_time_max < st->wait_time_max)
		p->wait_time_max = st->wait_time_max;
	p->broken |= st->broken;
	st->combined = true;
}

void lock_analysis__combine(struct lock_analysis *la)
{
	size_t nr;
	struct lock_stat **v = lock_analysis__table_order(la, &nr);
	struct hashmap by_name;

	hashmap_init(&by_name, sizeof(struct name_entry));
	for (size_t i = 0; i < nr; i++) {
		uint64_t h = hash_mix(hash_string(v[i]->name, strlen(v[i]->name)));
		bool added;
		struct name_entry *e = hashmap_findnew(&by_name, h, name_eq, v[i]->name, &added);

		if (added)
			*e = (struct name_entry){ v[i]->name, v[i] };
		else
			merge_into(e->first, v[i]);
	}
	hashmap_release(&by_name);
	free(v);
}

static uint64_t key_value(const struct lock_stat *ls, enum lock_key key)
{
	switch (key) {
	case LOCK_KEY_ACQUIRED:
		return ls->nr_acquired;
	case LOCK_KEY_CONTENDED:
		return ls->nr_contended;
	case LOCK_KEY_AVG_WAIT:
		return ls->avg_wait_time;
	case LOCK_KEY_WAIT_TOTAL:
		return ls->wait_time_total;
	case LOCK_KEY_WAIT_MAX:
		return ls->wait_time_max;
	case LOCK_KEY_WAIT_MIN:
		return ls->wait_time_min == UINT64_MAX ? 0 : ls->wait_time_min;
	}
	return 0;
}

struct ranked {
	struct lock_stat *ls;
	uint64_t value;
	size_t pos;
};

static int ranked_cmp(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

struct lock_stat **lock_analysis__sorted(struct lock_analysis *la, enum lock_key key,
					 size_t *nr)
{
	size_t n, kept = 0;
	struct lock_stat **v = lock_analysis__table_order(la, &n);
	struct ranked *r = xmalloc((n + 1) * sizeof(*r));

	for (size_t i = 0; i < n; i++) {
		if (v[i]->combined)
			continue;
		r[kept] = (struct ranked){ v[i], key_value(v[i], key), kept };
		kept++;
	}
	qsort(r, kept, sizeof(*r), ranked_cmp);
	for (size_t i = 0; i < kept; i++)
		v[i] = r[i].ls;
	free(r);
	*nr = kept;
	return v;
}

static int u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

uint64_t *lock_analysis__threads(struct lock_analysis *la, size_t *nr)
{
	uint64_t *v = xmalloc((la->threads.used + 1) * sizeof(*v));
	size_t n = 0;

	for (void *p = hashmap_next(&la->threads, NULL); p; p = hashmap_next(&la->threads, p))
		v[n++] = hashmap_u64_key(p);
	qsort(v, n, sizeof(*v), u64_cmp);
	*nr = n;
	return v;
}

/* The LCB_F_* flag combinations perf 6.1 names. */
const char *lock_type_name(uint32_t flags)
{
	enum { SPIN = 1, READ = 2, WRITE = 4, RT = 8, PERCPU = 16, MUTEX = 32 };
	static const struct {
		uint32_t flags;
		const char *name;
	} types[] = {
		{ 0, "semaphore" }, { SPIN, "spinlock" }, { SPIN | READ, "rwlock:R" },
		{ SPIN | WRITE, "rwlock:W" }, { READ, "rwsem:R" }, { WRITE, "rwsem:W" },
		{ RT, "rtmutex" }, { RT | READ, "rwlock-rt:R" }, { RT | WRITE, "rwlock-rt:W" },
		{ PERCPU | READ, "pcpu-sem:R" }, { PERCPU | WRITE, "pcpu-sem:W" },
		{ MUTEX, "mutex" }, { MUTEX | SPIN, "mutex" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (types[i].flags == flags)
			return types[i].name;
	return "unknown";
}
