/* Unit tests for core/stacks: stackcollapse's naming rules, perf script
 * text, the stack trie and folded I/O, reversal, flame charts, diffs,
 * sample filters, and stacks from a synthesised perf.data stream (period
 * weights, event choice, filters, off-CPU time). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "perf-data-builder.h"
#include "core/data/sample-filter.h"
#include "core/data/session.h"
#include "core/hist/stacks.h"
#include "util/strbuf.h"

/* ---- naming rules ---- */

static const char *fold(const char *func, const char *mod, bool java)
{
	static struct strbuf sb = STRBUF_INIT;
	struct fold_opts o = { .java = java };

	strbuf_reset(&sb);
	fold_frame(&sb, func, strlen(func), mod, strlen(mod), &o);
	return strbuf_str(&sb);
}

static void frame_names(void **state)
{
	assert_string_equal(fold("main+0x1d", "/bin/x", false), "main");
	assert_string_equal(fold("main+0x1D", "/bin/x", false), "main+0x1D");	/* lowercase hex only */
	assert_string_equal(fold("[unknown]", "/usr/lib/libc.so.6", false), "[libc.so.6]");
	assert_string_equal(fold("[unknown]", "[kernel.kallsyms]", false), "[[kernel.kallsyms]]");
	assert_string_equal(fold("[unknown]", "[unknown]", false), "[unknown]");
	assert_string_equal(fold("foo(int, char*) const", "m", false), "foo");
	assert_string_equal(fold("a::(anonymous namespace)::b(int)", "m", false),
			    "a::(anonymous namespace)::b");
	assert_string_equal(fold("net/http.(*Client).Do", "m", false), "net/http.(*Client).Do");
	assert_string_equal(fold("x;y", "m", false), "x:y");
	assert_string_equal(fold("RegExp:[&<>\"']", "m", false), "RegExp:[&<>]");
	assert_string_equal(fold("Ljava/lang/Thread;.run()V", "m", true), "java/lang/Thread:.run");
	assert_string_equal(fold("Ljava/lang/Thread;.run()V", "m", false), "Ljava/lang/Thread:.run");
	assert_string_equal(fold("(deleted)", "m", false), "");
	assert_string_equal(fold("a->b->c", "m", false), "a;b_[i];c_[i]");
	assert_string_equal(fold("a->", "m", false), "a");
}

static void kernel_annotation(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct fold_opts o = { .annotate_kernel = true };

	fold_frame(&sb, "schedule+0x10", 13, "[kernel.kallsyms]", 17, &o);
	fold_frame(&sb, "ext4_x", 6, "/lib/modules/6.1/build/vmlinux", 30, &o);
	fold_frame(&sb, "main", 4, "/bin/x", 6, &o);
	assert_string_equal(sb.buf, "schedule_[k];ext4_x_[k];main");
	strbuf_release(&sb);
}

static const char *comm_of(const char *line, bool include_pid, bool include_tid)
{
	static struct strbuf sb = STRBUF_INIT;
	struct fold_head h;

	strbuf_reset(&sb);
	if (!fold_parse_head(line, strlen(line), &h))
		return NULL;
	fold_comm(&sb, &h, include_pid, include_tid);
	return strbuf_str(&sb);
}

static void comm_names(void **state)
{
	assert_string_equal(comm_of("V8 Worker Thread 11 [000] 1.0: ", false, false),
			    "V8_Worker_Thread");
	assert_string_equal(comm_of("a b 10/11 1.0: ", true, false), "a_b-10");
	assert_string_equal(comm_of("ab 10/11 1.0: ", true, true), "ab-10/11");
	assert_string_equal(comm_of("ab    11 1.0: ", true, true), "ab-?/11");
	/* the shortest name that digits follow: "worker 3" loses its " 3" */
	assert_string_equal(comm_of("worker 3 10/11 1.0: ", false, false), "worker");
	assert_null(comm_of(" lead 11 1.0: ", false, false));
	assert_null(comm_of("\t    ffff8103 f+0x1b (m)", false, false));
}

static const char *fold_line(const char *line)
{
	static struct strbuf sb = STRBUF_INIT;
	struct fold_opts o = { 0 };

	strbuf_reset(&sb);
	if (fold_frame_line(&sb, line, strlen(line), &o) < 0)
		return NULL;
	return strbuf_str(&sb);
}

static void frame_lines(void **state)
{
	assert_string_equal(fold_line("\t 1139 leaf(int)+0x10 (/tmp/x)"), "leaf");
	assert_string_equal(fold_line("\t 3 [unknown] (/usr/lib/libc.so.6)"), "[libc.so.6]");
	/* a module with blanks: FUNC runs on into it */
	assert_string_equal(fold_line("\t 3 [unknown] (/memfd:sealed-9 (deleted))"), "[unknown] ");
	assert_string_equal(fold_line("\t 3 f+0x1 (inlined)"), "f");
	assert_null(fold_line("\t 3 h (/lib/a b)"));
	assert_null(fold_line("\t"));
}

static void sample_line_events(void **state)
{
	static const char *const named[] = {
		"my prog 1234 [001] 10.000001:     250000 cpu-clock:ppp: ",
		"p 1 1.0: cycles:u:",
	};
	const char *ev;
	size_t len;
	uint64_t period;

	assert_true(fold_parse_event(named[0], strlen(named[0]), &ev, &len, &period));
	assert_int_equal(len, 13);
	assert_memory_equal(ev, "cpu-clock:ppp", 13);
	assert_int_equal(period, 250000);
	assert_true(fold_parse_event(named[1], strlen(named[1]), &ev, &len, &period));
	assert_int_equal(period, 0);
	/* a tracepoint's line ends with its fields, a frame's with its module */
	assert_false(fold_parse_event("p 1 [000] 1.0: sched:sched_switch: prev_comm=p", 46, &ev,
				      &len, &period));
	assert_false(fold_parse_event("p 1 1.0: 10 ev: 1139 f+0x1 (/x)", 31, &ev, &len, &period));
}

static void event_choice(void **state)
{
	char *filter = NULL;

	assert_true(fold_keep_event(&filter, NULL, 0));		/* names none */
	assert_null(filter);
	assert_true(fold_keep_event(&filter, "cycles", 6));		/* the first named */
	assert_string_equal(filter, "cycles");
	assert_false(fold_keep_event(&filter, "cycles:u", 8));
	assert_true(fold_keep_event(&filter, NULL, 0));
	assert_true(fold_keep_event(&filter, "cycles", 6));
	free(filter);
}

/* ---- perf script text ---- */

static char *folded_of(const struct stacks *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(stacks__write_folded(st, f), 0);
	fclose(f);
	return buf;
}

static char *collapse(const char *text, const struct script_text_opts *o)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct stacks *st = stacks__new(false);
	char *err = NULL, *out;

	assert_int_equal(stacks__read_perf_script(st, in, o, &err), 0);
	fclose(in);
	out = folded_of(st);
	stacks__delete(st);
	return out;
}

static const char script_text[] =
	"# ========\n"
	"# cmdline : /usr/bin/perf record -g ./x\n"
	"my prog 1234 [001] 10.000001:     250000 cpu-clock:ppp: \n"
	"\t    ffffffff8103ce3b native_safe_halt+0x1b ([kernel.kallsyms])\n"
	"\t            1139 leaf(int)+0x10 (/tmp/x)\n"
	"\t            2000 [unknown] (/usr/lib/libc.so.6)\n"
	"\t               0 [unknown] ([unknown])\n"
	"\n"
	"my prog 1234 [001] 10.000251:     250000 cpu-clock:ppp: \n"
	"\t            1139 leaf(int)+0x12 (/tmp/x)\n"
	"\t            2000 [unknown] (/usr/lib/libc.so.6)\n"
	"\t               0 [unknown] ([unknown])\n"
	"\n"
	"other 99/100 [000] 10.0003: 7 page-faults: \n"
	"\t            1139 leaf+0x1 (/tmp/x)\n"
	"\n"
	"kworker/0:1 12 [000] 10.0004:     500000 cpu-clock:ppp: \n"
	"\t            1139 worker+0x1 (/tmp/x)\n"
	"\n";

static void script_text_default(void **state)
{
	struct script_text_opts o = { 0 };
	char *out = collapse(script_text, &o);

	/* only the first event (cpu-clock:ppp); periods summed; caller first */
	assert_string_equal(out,
		"kworker/0:1;worker 500000\n"
		"my_prog;[unknown];[libc.so.6];leaf 250000\n"
		"my_prog;[unknown];[libc.so.6];leaf;native_safe_halt 250000\n");
	free(out);
}

/* No samples, no lines (and no qsort of a NULL array: UBSan in unit-asan) */
static void script_text_without_samples(void **state)
{
	struct script_text_opts o = { 0 };
	char *out = collapse("\n", &o);

	assert_string_equal(out, "");
	free(out);
}

static void script_text_options(void **state)
{
	struct script_text_opts o = { .event_filter = "page-faults", .include_tid = true };
	char *out = collapse(script_text, &o);

	assert_string_equal(out, "other-99/100;leaf 7\n");
	free(out);
	o = (struct script_text_opts){ .include_pid = true, .annotate_kernel = true };
	out = collapse(script_text, &o);
	assert_non_null(strstr(out, "my_prog-?;[unknown];[libc.so.6];leaf;native_safe_halt_[k] "));
	free(out);
}

static void script_text_odd_lines(void **state)
{
	struct script_text_opts o = { 0 };
	/* no period (1 each), a tracepoint line, a frame with a space in the
	 * module, a '(' frame that is skipped, no trailing blank line */
	char *out = collapse("pp 1 1.0: ev: \n"
			     "\t 10 f (x) (/lib/a b)\n"
			     "\t 10 h (/lib/a b)\n"
			     "\t 11 (x) (/m)\n"
			     "\t 12 g (/m)\n"
			     "\n"
			     "pp 1 1.1: sched:sched_switch: prev_comm=p ==> next_pid=0\n"
			     "\t 12 g (/m)\n"
			     "\n"
			     "pp 1 1.2: ev: \n"
			     "\t 12 g (/m)\n", &o);

	/* "f (x) (/lib/a b)" is function f of module "x"; "h (/lib/a b)" is
	 * no frame line at all (the module may not hold blanks) */
	assert_string_equal(out, "pp;g 1\npp;g;f 1\n");
	free(out);
	/* stackcollapse's pattern wants a process name of two characters: a
	 * single-letter one runs on to the next " <digits> " */
	out = collapse("a 1 [000] 2.5:     7 ev: \n\t 12 g (/m)\n\n", &o);
	assert_string_equal(out, "a_1_[000]_2.5:;g 7\n");
	free(out);
}

/* Tracepoint lines name no event at their end: stackcollapse keeps them
 * all, whatever event it settled on; asked for one, only its samples. */
static void script_text_tracepoints(void **state)
{
	static const char text[] =
		"perf 20 [000] 1.1: sched:sched_wakeup: comm=m pid=18 prio=0 target_cpu=000\n"
		"\t 5 try_to_wake_up+0x279 ([kernel.kallsyms])\n"
		"\n"
		"perf 20 [000] 1.2: sched:sched_switch: prev_comm=perf prev_pid=20 ==> next_pid=18\n"
		"\t 6 __schedule+0x628 ([kernel.kallsyms])\n"
		"\n"
		"perf 20 [000] 1.3:     250000 cpu-clock: \n"
		"\t 7 f+0x1 (/x)\n"
		"\n"
		"perf 20 [000] 1.4: sched:sched_switch: prev_comm=perf prev_pid=20 ==> next_pid=0\n"
		"\t 6 __schedule+0x628 ([kernel.kallsyms])\n"
		"\n"
		"perf 20 [000] 1.5:          3 page-faults: \n"
		"\t 7 f+0x1 (/x)\n"
		"\n";
	struct script_text_opts o = { 0 };
	char *out = collapse(text, &o);

	assert_string_equal(out, "perf;__schedule 2\nperf;f 250000\nperf;try_to_wake_up 1\n");
	free(out);
	o.event_filter = "sched:sched_switch";
	out = collapse(text, &o);
	assert_string_equal(out, "perf;__schedule 2\n");
	free(out);
	o.event_filter = "page-faults";
	out = collapse(text, &o);
	assert_string_equal(out, "perf;f 3\n");
	free(out);
}

/* ---- the trie, folded I/O and transformations ---- */

static struct stacks *from_folded(const char *text, bool keep)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct stacks *st = stacks__new(keep);
	char *err = NULL;

	assert_int_equal(stacks__read_folded(st, in, false, &err), 0);
	fclose(in);
	return st;
}

static void folded_round_trip(void **state)
{
	struct stacks *st = from_folded("b;x 3\na;b;c 5\n\na;b 2\na;b;c 1\nV8 w;op new 2.6\n"
					"junk\n", false);
	char *out = folded_of(st);

	assert_string_equal(out, "V8 w;op new 3\na;b 2\na;b;c 6\nb;x 3\n");
	assert_int_equal(st->total, 14);
	assert_false(st->diff);
	free(out);
	stacks__delete(st);
}

static void folded_errors(void **state)
{
	FILE *in = fmemopen("nothing to count\n", 17, "r");
	struct stacks *st = stacks__new(false);
	char *err = NULL;

	assert_int_equal(stacks__read_folded(st, in, false, &err), -1);
	assert_non_null(strstr(err, "no folded stacks"));
	free(err);
	fclose(in);
	stacks__delete(st);
}

static void tree_totals_and_order(void **state)
{
	struct stacks *st = from_folded("p;zeta 4\np;alpha;x 1\np;alpha 2\np;mid 3\n", false);
	struct stack_tree t;
	uint32_t p, first;

	stack_tree__build(&t, st, true);
	assert_int_equal(t.total[0], 10);
	assert_int_equal(t.max_depth, 3);
	p = t.children[t.first_child[0]];
	assert_string_equal(st->names[st->nodes[p].name], "p");
	assert_int_equal(t.first_child[p + 1] - t.first_child[p], 3);
	first = t.children[t.first_child[p]];
	assert_string_equal(st->names[st->nodes[first].name], "alpha");
	assert_int_equal(t.total[first], 3);
	assert_string_equal(st->names[st->nodes[t.children[t.first_child[p] + 2]].name], "zeta");
	stack_tree__exit(&t);
	/* creation order (flame charts) */
	stack_tree__build(&t, st, false);
	first = t.children[t.first_child[p]];
	assert_string_equal(st->names[st->nodes[first].name], "zeta");
	stack_tree__exit(&t);
	stacks__delete(st);
}

static void reversed_stacks(void **state)
{
	struct stacks *st = from_folded("p;a;leaf 5\np;b;leaf 2\np;a 1\n", false);
	struct stacks *r = stacks__reversed(st);
	char *out = folded_of(r);

	assert_string_equal(out, "a;p 1\nleaf;a;p 5\nleaf;b;p 2\n");
	assert_int_equal(r->total, 8);
	free(out);
	stacks__delete(r);
	stacks__delete(st);
}

static void flame_chart_merges_neighbours_only(void **state)
{
	/* input order is time order for folded text */
	struct stacks *st = from_folded("p;a 1\np;a 1\np;b 1\np;a 1\n", true);
	struct stacks *c = stacks__chart(st);
	struct stack_tree t;
	uint32_t p;

	stack_tree__build(&t, c, false);
	p = t.children[t.first_child[0]];
	assert_int_equal(t.first_child[0 + 1] - t.first_child[0], 1);	/* one "p" run */
	assert_int_equal(t.first_child[p + 1] - t.first_child[p], 3);	/* a, b, a */
	assert_int_equal(t.total[t.children[t.first_child[p]]], 2);
	assert_string_equal(c->names[c->nodes[t.children[t.first_child[p] + 2]].name], "a");
	stack_tree__exit(&t);
	stacks__delete(c);
	stacks__delete(st);
}

static void diff_profiles(void **state)
{
	struct stacks *base = from_folded("p;a 10\np;gone 5\n", false);
	struct stacks *st = from_folded("p;a 30\np;new 10\n", false);
	struct stack_tree t;
	char *out;

	stacks__merge_base(st, base);
	out = folded_of(st);
	assert_string_equal(out, "p;a 10 30\np;gone 5 0\np;new 0 10\n");
	free(out);
	assert_int_equal(st->total_base, 15);
	stack_tree__build(&t, st, true);
	assert_int_equal(t.total[0], 40);
	assert_int_equal(t.total_base[0], 15);
	stack_tree__exit(&t);
	stacks__normalize_base(st);
	assert_int_equal(st->total_base, 40);
	out = folded_of(st);
	assert_string_equal(out, "p;a 27 30\np;gone 13 0\np;new 0 10\n");
	free(out);
	stacks__delete(base);
	stacks__delete(st);
	/* two counts per line: base and new at once */
	st = from_folded("p;a 1 3\n", false);
	assert_true(st->diff);
	assert_int_equal(st->total_base, 1);
	assert_int_equal(st->total, 3);
	stacks__delete(st);
}

static void samples_sorted_stably(void **state)
{
	struct stacks *st = stacks__new(true);
	uint32_t a = stacks__add_path(st, "a", 1), b = stacks__add_path(st, "b", 1);

	stacks__add(st, a, 1, 30);
	stacks__add(st, b, 2, 10);
	stacks__add(st, a, 3, 10);
	stacks__sort_samples(st);
	assert_int_equal(st->samples[0].weight, 2);
	assert_int_equal(st->samples[1].weight, 3);
	assert_int_equal(st->samples[2].time, 30);
	stacks__delete(st);
}

/* ---- sample filters ---- */

static void filter_parsing(void **state)
{
	struct sample_filter f = { 0 }, t1 = { 0 }, t2 = { 0 }, bad = { 0 };

	assert_int_equal(sample_filter__set_cpus(&f, "0-2,5"), 0);
	assert_false(sample_filter__skip_cpu(&f, 1));
	assert_true(sample_filter__skip_cpu(&f, 3));
	assert_false(sample_filter__skip_cpu(&f, 5));
	assert_int_equal(sample_filter__set_cpus(&bad, "3-1"), -1);
	assert_int_equal(sample_filter__set_cpus(&bad, "x"), -1);
	assert_int_equal(sample_filter__set_time(&t1, "10.5,11"), 0);
	assert_true(sample_filter__skip_time(&t1, 10400000000ULL));
	assert_false(sample_filter__skip_time(&t1, 10500000000ULL));
	assert_false(sample_filter__skip_time(&t1, 11000000000ULL));
	assert_int_equal(sample_filter__set_time(&t2, ",5,20,"), 0);
	assert_false(sample_filter__skip_time(&t2, 1));
	assert_true(sample_filter__skip_time(&t2, 6000000000ULL));
	assert_false(sample_filter__skip_time(&t2, 30000000000ULL));
	assert_int_equal(sample_filter__set_time(&bad, "5"), -1);
	assert_int_equal(sample_filter__set_time(&bad, "9,8"), -1);
	/* lists split at commas only: comm names hold blanks */
	name_list__add(&f.comms, "spin worker,x");
	assert_int_equal(f.comms.n, 2);
	assert_true(name_list__has(&f.comms, "spin worker"));
	sample_filter__exit(&f);
	sample_filter__exit(&t1);
	sample_filter__exit(&t2);
	sample_filter__exit(&bad);
}

/* ---- from a perf.data stream ---- */

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
	    PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)
#define SAMPLE_ID_ALL (1ULL << 18)
#define CTX_USER ((uint64_t)-512)	/* PERF_CONTEXT_USER */

static void attr_record(struct buf *b, uint64_t config, uint64_t id)
{
	struct t_attr a = { PERF_TYPE_SOFTWARE, config, 1, ST, 0, SAMPLE_ID_ALL };
	size_t r = rec_begin(b, PERF_RECORD_HEADER_ATTR, 0);

	b_attr(b, &a);
	b_u64(b, id);
	rec_end(b, r);
}

/* sample_id_all trailer: TID, TIME, ID */
static void trailer(struct buf *b, uint32_t tid, uint64_t time, uint64_t id)
{
	b_u32(b, tid);
	b_u32(b, tid);
	b_u64(b, time);
	b_u64(b, id);
}

static void comm_at(struct buf *b, uint32_t tid, const char *name, uint64_t time)
{
	size_t r = rec_begin(b, PERF_RECORD_COMM, 0), n = strlen(name) + 1;

	b_u32(b, tid);
	b_u32(b, tid);
	b_bytes(b, name, n);
	b_zero(b, ((n + 7) & ~(size_t)7) - n);
	trailer(b, tid, time, 100);
	rec_end(b, r);
}

static void comm(struct buf *b, uint32_t tid, const char *name)
{
	comm_at(b, tid, name, 1);
}

static void mmap_lib(struct buf *b, uint32_t tid)
{
	static const char name[] = "/no/such/libfoo.so";
	size_t r = rec_begin(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);

	b_u32(b, tid);
	b_u32(b, tid);
	b_u64(b, 0x10000);
	b_u64(b, 0x10000);
	b_u64(b, 0);
	b_bytes(b, name, sizeof(name));
	b_zero(b, ((sizeof(name) + 7) & ~(size_t)7) - sizeof(name));
	trailer(b, tid, 1, 100);
	rec_end(b, r);
}

/* Threads 5 (named first_comm) and 6 ("other"), both with libfoo mapped. */
static void two_threads(struct buf *b, const char *first_comm)
{
	comm(b, 5, first_comm);
	comm(b, 6, "other");
	mmap_lib(b, 5);
	mmap_lib(b, 6);
}

/* A sample whose chain is leaf 0x10100 (libfoo), then 0x500 (unmapped). */
static void chain_sample(struct buf *b, uint32_t tid, uint64_t time, uint64_t id,
			 uint64_t period)
{
	size_t r = rec_begin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);

	b_u64(b, 0x10100);
	b_u32(b, tid);
	b_u32(b, tid);
	b_u64(b, time);
	b_u64(b, id);
	b_u64(b, period);
	b_u64(b, 3);
	b_u64(b, CTX_USER);
	b_u64(b, 0x10100);
	b_u64(b, 0x500);
	rec_end(b, r);
}

static void switch_in(struct buf *b, uint32_t tid, uint64_t time)
{
	size_t r = rec_begin(b, PERF_RECORD_SWITCH, 0);

	trailer(b, tid, time, 100);
	rec_end(b, r);
}

static char *stream(void)
{
	struct buf b = { 0 };
	char *path;

	b_u64(&b, 0x32454c4946524550ULL);	/* pipe header */
	b_u64(&b, 16);
	attr_record(&b, PERF_COUNT_SW_CPU_CLOCK, 100);
	attr_record(&b, PERF_COUNT_SW_PAGE_FAULTS, 200);
	two_threads(&b, "my proc");
	chain_sample(&b, 5, 100, 100, 1000);
	chain_sample(&b, 6, 200, 200, 7);	/* page fault */
	chain_sample(&b, 5, 300, 100, 2000);
	chain_sample(&b, 6, 350, 100, 500);
	switch_in(&b, 5, 450);
	chain_sample(&b, 6, 500, 200, 3);	/* page fault */
	rec_end(&b, rec_begin(&b, PERF_RECORD_FINISHED_ROUND, 0));
	path = b_to_file(&b);
	free(b.p);
	return path;
}

static char *session_folded(const char *path, struct stacks_opts *o, struct stacks_stats *stats,
			    bool keep)
{
	char *err = NULL, *out;
	struct perf_session *s = perf_session__open(path, false, &err);
	struct stacks *st = stacks__new(keep);

	assert_non_null(s);
	if (stacks__add_session(st, s, o, stats, &err) < 0)
		fail_msg("%s", err);
	out = folded_of(st);
	if (keep) {
		assert_true(st->timed);
		for (size_t i = 1; i < st->nr_samples; i++)
			assert_true(st->samples[i - 1].time <= st->samples[i].time);
	}
	stacks__delete(st);
	perf_session__delete(s);
	return out;
}

static void session_stacks(void **state)
{
	char *path = stream(), *out;
	struct stacks_opts o = { 0 };
	struct sample_filter filter = { 0 };
	struct stacks_stats stats;

	/* the first sample's event: cpu-clock, weighted by period */
	out = session_folded(path, &o, &stats, true);
	assert_string_equal(out, "my_proc;[unknown];[libfoo.so] 3000\n"
				 "other;[unknown];[libfoo.so] 500\n");
	assert_int_equal(stats.nr_samples, 3);
	assert_int_equal(stats.nr_other_event, 2);
	assert_true(stats.has_callchain);
	assert_non_null(strstr(stats.event_name, "cpu-clock"));
	free(stats.event_name);
	free(out);

	o.event = "page-faults";
	o.include_pid = true;
	out = session_folded(path, &o, &stats, false);
	assert_string_equal(out, "other-6;[unknown];[libfoo.so] 10\n");
	free(stats.event_name);
	free(out);

	o = (struct stacks_opts){ .filter = &filter };
	name_list__add(&filter.comms, "my proc");
	assert_int_equal(sample_filter__set_time(&filter, "0.000000200,"), 0);
	out = session_folded(path, &o, &stats, false);
	assert_string_equal(out, "my_proc;[unknown];[libfoo.so] 2000\n");
	assert_int_equal(stats.nr_filtered, 2);
	free(stats.event_name);
	free(out);
	sample_filter__exit(&filter);

	o = (struct stacks_opts){ .event = "nope" };
	{
		char *err = NULL;
		struct perf_session *s = perf_session__open(path, false, &err);
		struct stacks *st = stacks__new(false);

		assert_int_equal(stacks__add_session(st, s, &o, &stats, &err), -1);
		assert_non_null(strstr(err, "'nope' not found"));
		free(err);
		free(stats.event_name);
		stacks__delete(st);
		perf_session__delete(s);
	}
	unlink(path);
	free(path);
}

/* The process frame follows the thread's comm as it changes (exec). */
static void session_comm_changes(void **state)
{
	struct buf b = { 0 };
	struct stacks_opts o = { 0 };
	struct stacks_stats stats;
	char *path, *out;

	b_u64(&b, 0x32454c4946524550ULL);	/* pipe header */
	b_u64(&b, 16);
	attr_record(&b, PERF_COUNT_SW_CPU_CLOCK, 100);
	two_threads(&b, "first");
	chain_sample(&b, 5, 100, 100, 1);
	chain_sample(&b, 6, 110, 100, 10);
	chain_sample(&b, 5, 120, 100, 100);
	comm_at(&b, 5, "second one", 150);
	chain_sample(&b, 5, 200, 100, 1000);
	rec_end(&b, rec_begin(&b, PERF_RECORD_FINISHED_ROUND, 0));
	path = b_to_file(&b);
	free(b.p);
	out = session_folded(path, &o, &stats, false);
	assert_string_equal(out, "first;[unknown];[libfoo.so] 101\n"
				 "other;[unknown];[libfoo.so] 10\n"
				 "second_one;[unknown];[libfoo.so] 1000\n");
	free(stats.event_name);
	free(out);
	unlink(path);
	free(path);
}

static void session_off_cpu(void **state)
{
	char *path = stream(), *out;
	/* cpu-clock samples stand in for switch-outs: tid 5 is back at the
	 * SWITCH at 450, 150 after its second switch-out (which replaced the
	 * first: no switch-in came between); tid 6 is seen running in its page
	 * fault at 500, 150 after its switch-out */
	struct stacks_opts o = { .event = "cpu-clock", .off_cpu = true };
	struct stacks_stats stats;

	out = session_folded(path, &o, &stats, true);
	assert_string_equal(out, "my_proc;[unknown];[libfoo.so] 150\n"
				 "other;[unknown];[libfoo.so] 150\n");
	assert_int_equal(stats.nr_no_switch_in, 1);	/* tid 5's first period */
	free(stats.event_name);
	free(out);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(frame_names),
		cmocka_unit_test(kernel_annotation),
		cmocka_unit_test(comm_names),
		cmocka_unit_test(frame_lines),
		cmocka_unit_test(sample_line_events),
		cmocka_unit_test(event_choice),
		cmocka_unit_test(script_text_tracepoints),
		cmocka_unit_test(script_text_default),
		cmocka_unit_test(script_text_without_samples),
		cmocka_unit_test(script_text_options),
		cmocka_unit_test(script_text_odd_lines),
		cmocka_unit_test(folded_round_trip),
		cmocka_unit_test(folded_errors),
		cmocka_unit_test(tree_totals_and_order),
		cmocka_unit_test(reversed_stacks),
		cmocka_unit_test(flame_chart_merges_neighbours_only),
		cmocka_unit_test(diff_profiles),
		cmocka_unit_test(samples_sorted_stably),
		cmocka_unit_test(filter_parsing),
		cmocka_unit_test(session_stacks),
		cmocka_unit_test(session_comm_changes),
		cmocka_unit_test(session_off_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
