/* script-builtins: the catalogue of perf's bundled scripts and the
 * analyses pcl has built in for them. */
#include <inttypes.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "core/analysis/netdev-times.h"
#include "core/analysis/sched-migration.h"
#include "core/analysis/script-builtins.h"
#include "core/analysis/tp-fields.h"
#include "core/data/session.h"
#include "core/hist/callchain.h"
#include "core/symbols/dso.h"
#include "core/symbols/thread.h"
#include "util/strbuf.h"
#include "util/util.h"

#define EVENTS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define SYSCALL_RW_EVENTS EVENTS("-e", "syscalls:sys_enter_read", "-e", "syscalls:sys_exit_read", \
				 "-e", "syscalls:sys_enter_write", "-e", "syscalls:sys_exit_write")

static const struct script_builtin builtins[SB_NR] = {
	{ SB_RWTOP, "rwtop", "[interval]", "system-wide r/w top", SYSCALL_RW_EVENTS, 1, false,
	  SB_TRACE },
	{ SB_RW_BY_PID, "rw-by-pid", "", "system-wide r/w activity", SYSCALL_RW_EVENTS, 0, false,
	  SB_TRACE },
	{ SB_WAKEUP_LATENCY, "wakeup-latency", "", "system-wide min/max/avg wakeup latency",
	  EVENTS("-e", "sched:sched_switch", "-e", "sched:sched_wakeup"), 0, false, SB_TRACE },
	{ SB_FAILED_SYSCALLS, "failed-syscalls", "[comm]", "system-wide failed syscalls",
	  EVENTS("-e", "raw_syscalls:sys_exit"), 1, false, SB_TRACE },
	{ SB_RW_BY_FILE, "rw-by-file", "<comm>", "r/w activity for a program, by file",
	  EVENTS("-e", "syscalls:sys_enter_read", "-e", "syscalls:sys_enter_write"), 1, false,
	  SB_TRACE },
	{ SB_SCHED_MIGRATION, "sched-migration", "", "sched migration overview",
	  EVENTS("-m", "16384", "-e", "sched:sched_wakeup", "-e", "sched:sched_wakeup_new",
		 "-e", "sched:sched_switch", "-e", "sched:sched_migrate_task"), 1, false, SB_TRACE },
	{ SB_EXPORT_TO_SQLITE, "export-to-sqlite", "[database name] [columns] [calls]",
	  "export perf data to a sqlite3 database", NULL, 4, false, SB_EXPORT },
	{ SB_NET_DROPMONITOR, "net_dropmonitor", "", "display a table of dropped frames",
	  EVENTS("-e", "skb:kfree_skb"), 0, false, SB_TRACE },
	{ SB_SCTOP, "sctop", "[comm] [interval]", "syscall top",
	  EVENTS("-e", "raw_syscalls:sys_enter"), 2, false, SB_TRACE },
	{ SB_COMPACTION_TIMES, "compaction-times",
	  "[-h] [-u] [-p|-pv] [-t | [-m] [-fs] [-ms]] [pid|pid-range|comm-regex]",
	  "display time taken by mm compaction",
	  EVENTS("-e", "compaction:mm_compaction_begin", "-e", "compaction:mm_compaction_end",
		 "-e", "compaction:mm_compaction_migratepages",
		 "-e", "compaction:mm_compaction_isolate_migratepages",
		 "-e", "compaction:mm_compaction_isolate_freepages"), INT32_MAX, true, SB_TRACE },
	{ SB_MEM_PHYS_ADDR, "mem-phys-addr", "", "resolve physical address samples",
	  EVENTS("--phys-data"), 0, false, SB_TRACE },
	{ SB_SYSCALL_COUNTS_BY_PID, "syscall-counts-by-pid", "[comm]",
	  "system-wide syscall counts, by pid", EVENTS("-e", "raw_syscalls:sys_enter"), 1, false,
	  SB_TRACE },
	{ SB_SYSCALL_COUNTS, "syscall-counts", "[comm]", "system-wide syscall counts",
	  EVENTS("-e", "raw_syscalls:sys_enter"), 1, false, SB_TRACE },
	{ SB_POWERPC_HCALLS, "powerpc-hcalls", "", "",
	  EVENTS("-e", "{powerpc:hcall_entry,powerpc:hcall_exit}"), 0, false, SB_NO_DATA },
	{ SB_FUTEX_CONTENTION, "futex-contention", "", "futext contention measurement",
	  EVENTS("-e", "syscalls:sys_enter_futex", "-e", "syscalls:sys_exit_futex"), 0, false,
	  SB_TRACE },
	{ SB_INTEL_PT_EVENTS, "intel-pt-events", "",
	  "print Intel PT Events including Power Events and PTWRITE", NULL, 0, false, SB_NO_DATA },
	{ SB_FLAMEGRAPH, "flamegraph", "", "create flame graphs", EVENTS("-g"), 0, false, SB_DELEGATE },
	{ SB_FAILED_SYSCALLS_BY_PID, "failed-syscalls-by-pid", "[comm]",
	  "system-wide failed syscalls, by pid", EVENTS("-e", "raw_syscalls:sys_exit"), 1, false,
	  SB_TRACE },
	{ SB_EVENT_ANALYZING_SAMPLE, "event_analyzing_sample", "", "analyze all perf samples",
	  NULL, 0, false, SB_TRACE },
	{ SB_STACKCOLLAPSE, "stackcollapse", "",
	  "produce callgraphs in short form for scripting use", NULL, INT32_MAX, true, SB_TRACE },
	{ SB_NETDEV_TIMES, "netdev-times", "[tx] [rx] [dev=] [debug]",
	  "display a process of packet and processing time",
	  EVENTS("-e", "net:net_dev_xmit", "-e", "net:net_dev_queue",
		 "-e", "net:netif_receive_skb", "-e", "net:netif_rx", "-e", "skb:consume_skb",
		 "-e", "skb:kfree_skb", "-e", "skb:skb_copy_datagram_iovec", "-e", "napi:napi_poll",
		 "-e", "irq:irq_handler_entry", "-e", "irq:irq_handler_exit",
		 "-e", "irq:softirq_entry", "-e", "irq:softirq_exit", "-e", "irq:softirq_raise"),
	  INT32_MAX, false, SB_TRACE },
	{ SB_EXPORT_TO_POSTGRESQL, "export-to-postgresql", "[database name] [columns] [calls]",
	  "export perf data to a postgresql database", NULL, 4, false, SB_EXPORT },
};

const struct script_builtin *script_builtins(size_t *nr)
{
	*nr = SB_NR;
	return builtins;
}

const struct script_builtin *script_builtin__find(const char *name)
{
	for (int i = 0; i < SB_NR; i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

/* --- tallies --- */

struct tally_key {
	const struct sb_tally *t;
	const char *str;
	int64_t key[3];
};

static bool row_matches(const struct sb_row *row, const struct tally_key *k)
{
	if (memcmp(row->key, k->key, sizeof(row->key)))
		return false;
	if (!row->str || !k->str)
		return row->str == k->str;
	return !strcmp(row->str, k->str);
}

static bool tally_eq(const void *value, const void *key)
{
	const struct tally_key *k = key;

	return row_matches(&k->t->rows[*(const size_t *)value], k);
}

static uint64_t tally_hash(const struct tally_key *k)
{
	uint64_t h = k->str ? hash_string(k->str, strlen(k->str)) : 0;

	for (int i = 0; i < 3; i++)
		h = hash_add(h, (uint64_t)k->key[i]);
	return h;
}

struct sb_row *sb_tally__find(const struct sb_tally *t, const char *str, int64_t a, int64_t b,
			      int64_t c)
{
	struct tally_key k = { t, str, { a, b, c } };
	size_t *idx = hashmap_find(&t->index, tally_hash(&k), tally_eq, &k);

	return idx ? &t->rows[*idx] : NULL;
}

struct sb_row *sb_tally__get(struct sb_tally *t, const char *str, int64_t a, int64_t b,
			     int64_t c)
{
	struct tally_key k = { t, str, { a, b, c } };
	bool added = false;
	size_t *idx;

	if (!t->index.slot_size)
		hashmap_init(&t->index, sizeof(size_t));
	idx = hashmap_findnew(&t->index, tally_hash(&k), tally_eq, &k, &added);
	if (!added)
		return &t->rows[*idx];
	if (t->nr == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 16;
		t->rows = xrealloc(t->rows, t->alloc * sizeof(*t->rows));
	}
	*idx = t->nr;
	t->rows[t->nr] = (struct sb_row){ .str = str ? xstrdup(str) : NULL,
					  .key = { a, b, c } };
	return &t->rows[t->nr++];
}

void sb_tally__exit(struct sb_tally *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		free(t->rows[i].str);
		free(t->rows[i].comm);
	}
	free(t->rows);
	hashmap_release(&t->index);
	memset(t, 0, sizeof(*t));
}

static const struct sb_tally *sort_tally;
static int (*sort_cmp)(const struct sb_row *, const struct sb_row *);

static int by_cmp_then_index(const void *a, const void *b)
{
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	int c = sort_cmp(&sort_tally->rows[ia], &sort_tally->rows[ib]);

	return c ? c : (ia > ib) - (ia < ib);
}

size_t *sb_tally__sorted(const struct sb_tally *t,
			 int (*cmp)(const struct sb_row *, const struct sb_row *))
{
	size_t *order = xmalloc((t->nr + 1) * sizeof(*order));

	for (size_t i = 0; i < t->nr; i++)
		order[i] = i;
	sort_tally = t;
	sort_cmp = cmp;
	qsort(order, t->nr, sizeof(*order), by_cmp_then_index);
	return order;
}

/* --- arguments --- */

#define NSEC_PER_SEC 1000000000ULL
#define DEFAULT_SCREEN_SECS 3

/* --include-tid --include-pid --no-comm --tidy-java --kernel */
static int stackcollapse_args(struct stackcollapse_opts *o, int argc, const char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--include-tid"))
			o->include_tid = true;
		else if (!strcmp(argv[i], "--include-pid"))
			o->include_pid = true;
		else if (!strcmp(argv[i], "--no-comm"))
			o->no_comm = true;
		else if (!strcmp(argv[i], "--tidy-java"))
			o->tidy_java = true;
		else if (!strcmp(argv[i], "--kernel"))
			o->annotate_kernel = true;
		else
			return -1;
	}
	/* the script refuses ids without the comm they follow */
	return (o->include_tid || o->include_pid) && o->no_comm ? -1 : 0;
}

/* "N", "LO-HI" (either may be empty) or else a regex on the comm */
static int compaction_filter(struct compaction_opts *o, const char *arg)
{
	const char *dash = strchr(arg, '-');
	size_t digits = strspn(arg, "0123456789");

	if (*arg && !arg[digits]) {
		o->pid_filter = true;
		o->pid_lo = o->pid_hi = atol(arg);
		return 0;
	}
	if (dash && (size_t)(dash - arg) == digits && !dash[1 + strspn(dash + 1, "0123456789")]) {
		o->pid_filter = true;
		o->pid_lo = atol(arg);
		o->pid_hi = atol(dash + 1);
		return 0;
	}
	o->comm_re = xmalloc(sizeof(regex_t));
	if (regcomp(o->comm_re, arg, REG_EXTENDED | REG_NOSUB)) {
		free(o->comm_re);
		o->comm_re = NULL;
		return -1;
	}
	return 0;
}

/* -h -p -pv -u -t -m -fs -ms, then a pid, pid range or comm regex last */
static int compaction_args(struct compaction_opts *o, int argc, const char **argv)
{
	static const char *const shows[] = { "-t", "-m", "-fs", "-ms" };

	o->show = COMPACTION_ALL;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int show = -1;

		for (int k = 0; k < 4; k++)
			if (!strcmp(a, shows[k]))
				show = k ? 1 << (k - 1) : 0;
		if (show >= 0)	/* the first choice replaces "all", the others add */
			o->show = o->show == COMPACTION_ALL ? (unsigned)show : o->show | (unsigned)show;
		else if (!strcmp(a, "-h"))
			o->help = true;
		else if (!strcmp(a, "-p") || !strcmp(a, "-pv"))
			o->by_task = a[2] ? 2 : 1;
		else if (!strcmp(a, "-u"))
			o->micro = true;
		else if (a[0] == '-')
			return -1;
		else if (i == argc - 1 && compaction_filter(o, a) < 0)
			return -1;
	}
	return 0;
}

/* rwtop [interval]; sctop [comm] [interval] or sctop interval|comm */
static int screen_args(struct script_builtin_run *run, int argc, const char **argv)
{
	long secs = DEFAULT_SCREEN_SECS;
	char *end;

	if (argc == 2) {
		run->for_comm = argv[0];
		secs = strtol(argv[1], &end, 10);
		if (*end || !*argv[1])
			return -1;
	} else if (argc == 1) {
		secs = strtol(argv[0], &end, 10);
		if (*end || !*argv[0]) {
			if (run->sb->id == SB_RWTOP)
				return -1;
			run->for_comm = argv[0];
			secs = DEFAULT_SCREEN_SECS;
		}
	}
	if (secs <= 0)	/* rwtop's "interval 0" means the default */
		secs = DEFAULT_SCREEN_SECS;
	run->interval_ns = (uint64_t)secs * NSEC_PER_SEC;
	return 0;
}

int script_builtin_run__init(struct script_builtin_run *run, const struct script_builtin *sb,
			     int argc, const char **argv)
{
	memset(run, 0, sizeof(*run));
	run->sb = sb;
	run->min_latency = 1000000000;
	if (argc > sb->max_args || (sb->id == SB_RW_BY_FILE && argc < 1))
		return -1;
	if (sb->id == SB_MEM_PHYS_ADDR)
		iomem_table__load(&run->iomem, NULL);
	if (sb->id == SB_SCHED_MIGRATION) {
		run->sched = xmalloc(sizeof(*run->sched));
		sched_migration__init(run->sched);
		run->output = argc ? argv[0] : "sched-migration.html";
		return 0;
	}
	if (sb->id == SB_NETDEV_TIMES) {
		run->netdev = xmalloc(sizeof(*run->netdev));
		netdev_times__init(run->netdev, argc, argv);
		return 0;
	}
	if (sb->id == SB_RWTOP || sb->id == SB_SCTOP)
		return screen_args(run, argc, argv);
	if (sb->id == SB_COMPACTION_TIMES)
		return compaction_args(&run->compaction, argc, argv);
	if (sb->id == SB_STACKCOLLAPSE)
		return stackcollapse_args(&run->collapse, argc, argv);
	if (argc < 1)
		return 0;
	/* the by-pid scripts take a pid where the argument is a number */
	if (sb->id == SB_SYSCALL_COUNTS_BY_PID || sb->id == SB_FAILED_SYSCALLS_BY_PID) {
		char *end;
		long pid = strtol(argv[0], &end, 10);

		if (*argv[0] && !*end) {
			run->for_pid = pid;
			return 0;
		}
	}
	run->for_comm = argv[0];
	return 0;
}

void script_builtin_run__exit(struct script_builtin_run *run)
{
	for (size_t i = 0; i < run->nr_tasks; i++) {
		free(run->tasks[i].comm);
		free(run->tasks[i].done);
	}
	free(run->tasks);
	free(run->first_event);
	free(run->frames);
	if (run->netdev)
		netdev_times__exit(run->netdev);
	free(run->netdev);
	if (run->sched)
		sched_migration__exit(run->sched);
	free(run->sched);
	iomem_table__exit(&run->iomem);
	if (run->compaction.comm_re) {
		regfree(run->compaction.comm_re);
		free(run->compaction.comm_re);
	}
	struct sb_tally *tallies[] = { &run->counts, &run->reads, &run->read_errors, &run->writes,
				       &run->write_errors, &run->unhandled, &run->pending,
				       &run->names, &run->last_wakeup, &run->by_comm,
				       &run->by_symbol, &run->by_dso };

	for (size_t i = 0; i < sizeof(tallies) / sizeof(tallies[0]); i++)
		sb_tally__exit(tallies[i]);
}

/* --- samples --- */

/* A tracepoint sample as the scripts' handlers see it. */
struct tp_sample {
	struct tep_event *tp;
	const struct perf_sample *sample;
	int64_t pid;		/* common_pid: the thread */
	const char *comm;
};

static int64_t field(const struct tp_sample *ts, const char *name)
{
	return tp_value(ts->tp, ts->sample, name);
}

static bool is_event(const struct tp_sample *ts, const char *sys, const char *name)
{
	return !strcmp(ts->tp->system, sys) && !strcmp(ts->tp->name, name);
}

/* raw_syscalls:NAME, or the syscalls:NAME perf's record falls back to */
static bool is_raw_syscall(const struct tp_sample *ts, const char *name)
{
	return is_event(ts, "raw_syscalls", name) || is_event(ts, "syscalls", name);
}

static bool comm_filtered(const struct script_builtin_run *run, const struct tp_sample *ts)
{
	return (run->for_comm && strcmp(ts->comm, run->for_comm)) ||
	       (run->for_pid && ts->pid != run->for_pid);
}

/* Perl scripts count the events they have no handler for */
static void unhandled(struct script_builtin_run *run, const struct tp_sample *ts)
{
	char *name = xasprintf("%s::%s", ts->tp->system, ts->tp->name);

	sb_tally__get(&run->unhandled, name, 0, 0, 0)->count++;
	free(name);
}

static void rw_by_pid(struct script_builtin_run *run, const struct tp_sample *ts)
{
	bool enter_read = is_event(ts, "syscalls", "sys_enter_read");
	bool enter_write = is_event(ts, "syscalls", "sys_enter_write");
	struct sb_row *row;
	int64_t ret;

	if (enter_read || enter_write) {
		row = sb_tally__get(enter_read ? &run->reads : &run->writes, NULL, ts->pid, 0, 0);
		row->val[0] += field(ts, "count");	/* bytes requested / written */
		row->count++;
		free(row->comm);
		row->comm = xstrdup(ts->comm);
	} else if (is_event(ts, "syscalls", "sys_exit_read")) {
		ret = field(ts, "ret");
		row = sb_tally__get(&run->reads, NULL, ts->pid, 0, 0);
		row->has_val = true;
		if (ret > 0)
			row->val[1] += ret;
		else
			sb_tally__get(&run->read_errors, NULL, ts->pid, ret, 0)->count++;
	} else if (is_event(ts, "syscalls", "sys_exit_write")) {
		ret = field(ts, "ret");
		if (ret <= 0) {
			sb_tally__get(&run->writes, NULL, ts->pid, 0, 0);
			sb_tally__get(&run->write_errors, NULL, ts->pid, ret, 0)->count++;
		}
	} else {
		unhandled(run, ts);
	}
}

static void rw_by_file(struct script_builtin_run *run, const struct tp_sample *ts)
{
	bool enter_read = is_event(ts, "syscalls", "sys_enter_read");
	struct sb_row *row;

	if (!enter_read && !is_event(ts, "syscalls", "sys_enter_write")) {
		unhandled(run, ts);
		return;
	}
	if (strcmp(ts->comm, run->for_comm))
		return;
	row = sb_tally__get(enter_read ? &run->reads : &run->writes, NULL, field(ts, "fd"),
			    0, 0);
	row->val[0] += field(ts, "count");
	row->count++;
}

static void wakeup_latency(struct script_builtin_run *run, const struct tp_sample *ts)
{
	struct sb_row *row;

	if (is_event(ts, "sched", "sched_wakeup")) {
		row = sb_tally__get(&run->last_wakeup, NULL, field(ts, "target_cpu"), 0, 0);
		row->val[0] = (int64_t)ts->sample->time;
	} else if (is_event(ts, "sched", "sched_switch")) {
		row = sb_tally__find(&run->last_wakeup, NULL, ts->sample->cpu, 0, 0);
		if (row && row->val[0]) {
			int64_t latency = (int64_t)ts->sample->time - row->val[0];

			if (latency > run->max_latency)
				run->max_latency = latency;
			if (latency < run->min_latency)
				run->min_latency = latency;
			run->total_latency += latency;
			run->wakeups++;
		}
		if (row)
			row->val[0] = 0;
	} else {
		unhandled(run, ts);
	}
}

#define FUTEX_CMD_MASK (~(128 | 256))	/* without PRIVATE_FLAG, CLOCK_REALTIME */
#define FUTEX_WAIT_CMD 0

static void futex_contention(struct script_builtin_run *run, const struct tp_sample *ts)
{
	struct sb_row *row, *wait;

	if (is_event(ts, "syscalls", "sys_enter_futex")) {
		if ((field(ts, "op") & FUTEX_CMD_MASK) != FUTEX_WAIT_CMD)
			return;
		row = sb_tally__get(&run->names, NULL, ts->pid, 0, 0);
		free(row->comm);
		row->comm = xstrdup(ts->comm);
		row = sb_tally__get(&run->pending, NULL, ts->pid, 0, 0);
		row->val[0] = field(ts, "uaddr");
		row->val[1] = (int64_t)ts->sample->time;
		row->has_val = true;
	} else if (is_event(ts, "syscalls", "sys_exit_futex")) {
		int64_t elapsed;

		row = sb_tally__find(&run->pending, NULL, ts->pid, 0, 0);
		if (!row || !row->has_val)
			return;
		elapsed = (int64_t)ts->sample->time - row->val[1];
		row->has_val = false;
		wait = sb_tally__get(&run->counts, NULL, ts->pid, row->val[0], 0);
		if (!wait->count) {
			wait->min = wait->max = elapsed;
			wait->avg = (double)elapsed;
		} else {
			if (elapsed < wait->min)
				wait->min = elapsed;
			if (elapsed > wait->max)
				wait->max = elapsed;
			wait->avg = (wait->avg + (double)elapsed) / 2;
		}
		wait->count++;
	}
}

static bool compaction_filtered(const struct compaction_opts *o, int64_t pid, const char *comm)
{
	if (o->pid_filter)
		return !(pid >= o->pid_lo && (o->pid_hi == 0 || pid <= o->pid_hi));
	return o->comm_re && regexec(o->comm_re, comm, 0, NULL, 0);
}

static void compaction_add(struct compaction *sum, const struct compaction *c)
{
	sum->ns += c->ns;
	sum->moved += c->moved;
	sum->failed += c->failed;
	sum->free_scanned += c->free_scanned;
	sum->free_isolated += c->free_isolated;
	sum->migrate_scanned += c->migrate_scanned;
	sum->migrate_isolated += c->migrate_isolated;
}

static struct compaction_task *compaction_task(struct script_builtin_run *run, int64_t pid,
					       const char *comm)
{
	struct sb_row *row = sb_tally__find(&run->pending, NULL, pid, 0, 0);
	struct compaction_task *task;

	if (row)
		return &run->tasks[row->val[0]];
	if (!comm)
		return NULL;
	run->tasks = xrealloc(run->tasks, (run->nr_tasks + 1) * sizeof(*run->tasks));
	task = &run->tasks[run->nr_tasks];
	*task = (struct compaction_task){ .pid = pid, .comm = xstrdup(comm),
		.filtered = compaction_filtered(&run->compaction, pid, comm) };
	sb_tally__get(&run->pending, NULL, pid, 0, 0)->val[0] = (int64_t)run->nr_tasks++;
	return task;
}

static void compaction_times(struct script_builtin_run *run, const struct tp_sample *ts)
{
	const char *name = ts->tp->name;
	struct compaction_task *task;
	struct compaction *c;

	if (strcmp(ts->tp->system, "compaction"))
		return;
	if (!strcmp(name, "mm_compaction_begin")) {
		task = compaction_task(run, ts->pid, ts->comm);
		if (!task->filtered) {
			task->pending = true;
			task->current = (struct compaction){ .ns = (int64_t)ts->sample->time };
		}
		return;
	}
	task = compaction_task(run, ts->pid, NULL);
	if (!task || task->filtered)
		return;
	if (!task->pending) {
		fprintf(stderr, "missing start compaction event for pid %" PRId64 "\n", ts->pid);
		return;
	}
	c = &task->current;
	if (!strcmp(name, "mm_compaction_migratepages")) {
		c->moved += field(ts, "nr_migrated");
		c->failed += field(ts, "nr_failed");
	} else if (!strcmp(name, "mm_compaction_isolate_freepages")) {
		c->free_scanned += field(ts, "nr_scanned");
		c->free_isolated += field(ts, "nr_taken");
	} else if (!strcmp(name, "mm_compaction_isolate_migratepages")) {
		c->migrate_scanned += field(ts, "nr_scanned");
		c->migrate_isolated += field(ts, "nr_taken");
	} else if (!strcmp(name, "mm_compaction_end")) {
		c->ns = (int64_t)ts->sample->time - c->ns;
		task->pending = false;
		compaction_add(&run->total, c);
		compaction_add(&task->sum, c);
		if (run->compaction.by_task == 2) {
			task->done = xrealloc(task->done, (task->nr_done + 1) * sizeof(*task->done));
			task->done[task->nr_done++] = *c;
		}
	}
}

static void syscall_events(struct script_builtin_run *run, const struct tp_sample *ts)
{
	enum script_builtin_id id = run->sb->id;
	int64_t nr, ret;

	if (id == SB_SYSCALL_COUNTS || id == SB_SYSCALL_COUNTS_BY_PID || id == SB_SCTOP) {
		if (!is_raw_syscall(ts, "sys_enter") || comm_filtered(run, ts))
			return;
		nr = field(ts, "id");
		if (id != SB_SYSCALL_COUNTS_BY_PID)
			sb_tally__get(&run->counts, NULL, nr, 0, 0)->count++;
		else
			sb_tally__get(&run->counts, ts->comm, ts->pid, nr, 0)->count++;
		return;
	}
	if (!is_raw_syscall(ts, "sys_exit"))
		return;
	ret = field(ts, "ret");
	if (ret >= 0)
		return;
	if (id == SB_FAILED_SYSCALLS) {
		sb_tally__get(&run->counts, ts->comm, 0, 0, 0)->count++;
	} else if (!comm_filtered(run, ts)) {
		nr = field(ts, "id");
		sb_tally__get(&run->counts, ts->comm, ts->pid, nr, ret)->count++;
	}
}

/* event_analyzing_sample: samples by comm, symbol and DSO (tracepoints
 * go to the script's dump of their fields, printed as they come; those
 * with callchains are counted, pcl does not print them) */
static void analyze_sample(struct script_builtin_run *run, struct perf_session *s,
			   const struct session_event *se, const struct perf_sample *sample)
{
	struct addr_location al = { 0 };

	if (se && se->tp_format) {
		if (sample->callchain)
			run->tracepoint_samples++;
		return;
	}
	perf_session__resolve_sample(s, sample, &al);
	sb_tally__get(&run->by_comm, al.thread ? al.thread->comm : "", 0, 0, 0)->count++;
	sb_tally__get(&run->by_symbol, al.sym ? al.sym->name : "Unknown_symbol", 0, 0, 0)->count++;
	sb_tally__get(&run->by_dso, al.map && al.dso ? al.dso->long_name : "Unknown_dso",
		      0, 0, 0)->count++;
}

/* stackcollapse: a frame's name as the script makes it */
static void collapse_frame(struct strbuf *sb, const struct stackcollapse_opts *o,
			   const struct callchain_frame *f)
{
	const char *name = f->al.sym ? f->al.sym->name : "[unknown]";
	size_t start = sb->len;

	for (const char *c = name; *c; c++)
		if (!o->tidy_java || (*c != '<' && *c != '>'))
			strbuf_addch(sb, *c == ';' ? ':' : *c);
	if (o->tidy_java) {
		/* Java's "Lpkg/Class;method(args)": no leading L, no arguments */
		char *paren;

		if (sb->len > start && sb->buf[start] == 'L') {
			memmove(sb->buf + start, sb->buf + start + 1, sb->len - start);
			sb->len--;
		}
		paren = sb->len > start ? strchr(sb->buf + start, '(') : NULL;
		if (paren) {
			sb->len = (size_t)(paren - sb->buf);
			*paren = 0;
		}
	}
	if (o->annotate_kernel && f->al.map && f->al.dso &&
	    !strcmp(f->al.dso->long_name, "[kernel.kallsyms]"))
		strbuf_addstr(sb, "_[k]");
}

#define COLLAPSE_MAX_FRAMES 1024

/* stackcollapse: "comm[-pid[/tid]];outermost;...;leaf", counted */
static void collapse_sample(struct script_builtin_run *run, struct perf_session *s,
			    struct evsel *evsel, const struct perf_sample *sample)
{
	const struct stackcollapse_opts *o = &run->collapse;
	struct thread *thread = machine__findnew_thread(s->machine, (pid_t)sample->pid,
							(pid_t)sample->tid);
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	if (!run->frames)
		run->frames = xcalloc(COLLAPSE_MAX_FRAMES, sizeof(*run->frames));
	if (sample->callchain)
		n = perf_session__resolve_callchain(s, evsel, sample, thread,
						    callchain_max_stack_default(), run->frames,
						    COLLAPSE_MAX_FRAMES);
	if (!o->no_comm) {
		for (const char *c = thread ? thread->comm : ""; *c; c++)
			strbuf_addch(&sb, *c == ' ' ? '_' : *c);
		if (o->include_pid)
			strbuf_addf(&sb, "-%u", sample->pid);
		if (o->include_tid)
			strbuf_addf(&sb, "%c%u", o->include_pid ? '/' : '-', sample->tid);
	}
	for (int i = n - 1; i >= 0; i--) {
		if (i < n - 1 || !o->no_comm)
			strbuf_addch(&sb, ';');
		collapse_frame(&sb, o, &run->frames[i]);
	}
	sb_tally__get(&run->counts, sb.buf ? sb.buf : "", 0, 0, 0)->count++;
	strbuf_release(&sb);
}

void script_builtin_run__sample(struct script_builtin_run *run, struct perf_session *s,
				struct evsel *evsel, const struct perf_sample *sample)
{
	struct session_event *se = perf_session__event(s, evsel);
	struct thread *thread;
	struct tp_sample ts;

	if (run->sb->id == SB_EVENT_ANALYZING_SAMPLE) {
		analyze_sample(run, s, se, sample);
		return;
	}
	if (run->sb->id == SB_STACKCOLLAPSE) {
		if (!se || !se->tp_format)	/* its handler is for the other samples */
			collapse_sample(run, s, evsel, sample);
		return;
	}
	if (run->sb->id == SB_MEM_PHYS_ADDR) {
		if (se && se->tp_format)
			return;	/* its handler is for the other samples */
		if (!run->first_event)
			run->first_event = xstrdup(evsel->name);
		sb_tally__get(&run->counts, iomem_table__type(&run->iomem, sample->phys_addr),
			      0, 0, 0)->count++;
		return;
	}
	if (!se || !se->tp_format || !sample->raw_data)
		return;	/* the other scripts' handlers are for tracepoints */
	thread = machine__findnew_thread(s->machine, (pid_t)sample->pid, (pid_t)sample->tid);
	ts = (struct tp_sample){ .tp = se->tp_format, .sample = sample,
				 .comm = thread ? thread->comm : "" };
	ts.pid = field(&ts, "common_pid");

	switch (run->sb->id) {
	case SB_RW_BY_PID:
	case SB_RWTOP:
		rw_by_pid(run, &ts);
		break;
	case SB_RW_BY_FILE:
		rw_by_file(run, &ts);
		break;
	case SB_WAKEUP_LATENCY:
		wakeup_latency(run, &ts);
		break;
	case SB_FUTEX_CONTENTION:
		futex_contention(run, &ts);
		break;
	case SB_COMPACTION_TIMES:
		compaction_times(run, &ts);
		break;
	case SB_SCHED_MIGRATION:
		sched_migration__event(run->sched, ts.tp, sample);
		break;
	case SB_NETDEV_TIMES:
		netdev_times__event(run->netdev, ts.tp, sample, ts.pid, ts.comm);
		break;
	case SB_NET_DROPMONITOR:
		if (is_event(&ts, "skb", "kfree_skb"))
			sb_tally__get(&run->counts, NULL, field(&ts, "location"), 0, 0)->count++;
		break;
	case SB_SYSCALL_COUNTS:
	case SB_SYSCALL_COUNTS_BY_PID:
	case SB_SCTOP:
	case SB_FAILED_SYSCALLS:
	case SB_FAILED_SYSCALLS_BY_PID:
		syscall_events(run, &ts);
		break;
	default:
		break;
	}
}

bool script_builtin_run__screen_due(struct script_builtin_run *run, uint64_t time)
{
	bool due;

	if (!run->interval_ns)
		return false;
	if (!run->next_screen) {
		/* rwtop's first screen comes after a second, sctop's after an interval */
		run->next_screen = time + (run->sb->id == SB_RWTOP ? NSEC_PER_SEC : run->interval_ns);
		return false;
	}
	due = time >= run->next_screen;
	while (time >= run->next_screen)
		run->next_screen += run->interval_ns;
	return due;
}

void script_builtin_run__clear_screen(struct script_builtin_run *run)
{
	sb_tally__exit(&run->counts);
	sb_tally__exit(&run->reads);
	sb_tally__exit(&run->writes);
	sb_tally__exit(&run->read_errors);
	sb_tally__exit(&run->write_errors);
}

/* --- physical memory --- */

static void push_range(uint64_t **list, size_t *nr, uint64_t start, uint64_t end)
{
	*list = xrealloc(*list, (*nr + 2) * sizeof(**list));
	(*list)[(*nr)++] = start;
	(*list)[(*nr)++] = end;
}

void iomem_table__load(struct iomem_table *t, const char *path)
{
	FILE *f = fopen(path ? path : "/proc/iomem", "r");
	char *line = NULL;
	size_t len = 0;

	memset(t, 0, sizeof(*t));
	if (!f)
		return;
	while (getline(&line, &len, f) > 0) {
		/* "start-end : name": split at the first two '-' or ':' */
		char *sep1 = strpbrk(line, "-:"), *sep2 = sep1 ? strpbrk(sep1 + 1, "-:") : NULL;
		struct iomem_range r;
		char *name, *end;

		if (!sep2)
			continue;
		r = (struct iomem_range){ strtoull(line, NULL, 16), strtoull(sep1 + 1, NULL, 16),
					  xstrdup(sep2 + 1) };
		t->ranges = xrealloc(t->ranges, (t->nr + 1) * sizeof(*t->ranges));
		t->ranges[t->nr++] = r;
		for (name = r.rest; *name == ' ' || *name == '\t'; name++)
			;
		end = name + strlen(name);
		while (end > name && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if ((size_t)(end - name) == strlen("System RAM") && str_starts_with(name, "System RAM"))
			push_range(&t->ram, &t->nr_ram, r.start, r.end);
		else if ((size_t)(end - name) == strlen("Persistent Memory") &&
			 str_starts_with(name, "Persistent Memory"))
			push_range(&t->pmem, &t->nr_pmem, r.start, r.end);
	}
	free(line);
	fclose(f);
}

/* Python's bisect_right: how many of the list's first entries are <= x */
static size_t bisect_right(const uint64_t *list, size_t nr, uint64_t x)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x < list[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

const char *iomem_table__type(const struct iomem_table *t, uint64_t phys)
{
	if (!phys)
		return "N/A";
	if (bisect_right(t->ram, t->nr_ram, phys) % 2)
		return "System RAM";
	if (bisect_right(t->pmem, t->nr_pmem, phys) % 2)
		return "Persistent Memory";
	for (size_t i = 0; i < t->nr; i++)
		if (t->ranges[i].start <= phys && phys <= t->ranges[i].end)
			return t->ranges[i].rest;
	return "N/A";
}

void iomem_table__exit(struct iomem_table *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->ranges[i].rest);
	free(t->ranges);
	free(t->ram);
	free(t->pmem);
	memset(t, 0, sizeof(*t));
}

/* --- kernel symbols --- */

static int by_addr_then_name(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

void ksym_table__load(struct ksym_table *t, const char *path)
{
	FILE *f = fopen(path ? path : "/proc/kallsyms", "r");
	char line[1024], name[512];
	unsigned long long addr;
	size_t alloc = 0;

	memset(t, 0, sizeof(*t));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %*s %511s", &addr, name) != 2)
			continue;
		if (t->nr == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			t->syms = xrealloc(t->syms, alloc * sizeof(*t->syms));
		}
		t->syms[t->nr++] = (struct ksym){ addr, xstrdup(name) };
	}
	fclose(f);
	qsort(t->syms, t->nr, sizeof(*t->syms), by_addr_then_name);
}

const struct ksym *ksym_table__find(const struct ksym_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;	/* the last symbol at or before addr */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < t->syms[mid].addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo ? &t->syms[lo - 1] : NULL;
}

void ksym_table__exit(struct ksym_table *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->syms[i].name);
	free(t->syms);
	memset(t, 0, sizeof(*t));
}
