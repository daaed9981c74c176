/* Unit tests for core/sort and core/hist: the layouts -s/-F build, entries
 * keyed by sort keys, Self and Children totals (recursion counted once),
 * filters, groups, and perf's output order.  Threads, DSOs and symbols are
 * made by hand; stacks are hand-made frames.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/perf_event.h>

#include "core/hist/hist.h"

/* --- layouts ----------------------------------------------------------------- */

static struct hist_layout layout_of(const char *sort, const char *fields, bool cumulate,
				    char **err)
{
	struct sort_setup ss = { .sort_order = sort, .field_order = fields, .cumulate = cumulate };
	struct hist_layout l;

	*err = NULL;
	hist_layout__setup(&l, &ss, err);
	return l;
}

static const char *column(const struct hist_layout *l, int i)
{
	return hist_field__header(&l->fields[i]);
}

static void test_layout_defaults(void **state)
{
	char *err;
	struct hist_layout l = layout_of(NULL, NULL, false, &err);

	assert_null(err);
	assert_int_equal(l.nr_fields, 4);
	assert_string_equal(column(&l, 0), "Overhead");
	assert_string_equal(column(&l, 1), "Command");
	assert_string_equal(column(&l, 2), "Shared Object");
	assert_string_equal(column(&l, 3), "Symbol");
	assert_int_equal(l.nr_keys, 3);
	assert_true(l.need_collapse);

	l = layout_of(NULL, NULL, true, &err);
	assert_int_equal(l.nr_fields, 5);
	assert_string_equal(column(&l, 0), "Children");
	assert_string_equal(column(&l, 1), "Self");
	assert_string_equal(l.sorts[0]->name, "overhead_children");
	hist_layout__cancel_cumulate(&l);
	assert_int_equal(l.nr_fields, 4);
	assert_string_equal(column(&l, 0), "Overhead");
}

static void test_layout_sort_and_fields(void **state)
{
	char *err;
	struct hist_layout l = layout_of("dso,s", NULL, false, &err);

	/* prefixes: "s" is symbol */
	assert_null(err);
	assert_int_equal(l.nr_keys, 2);
	assert_string_equal(l.keys[1]->name, "symbol");
	assert_false(l.need_collapse);

	/* a list naming an overhead gets no Overhead put in front */
	l = layout_of("comm,overhead_sys", NULL, false, &err);
	assert_string_equal(l.sorts[0]->name, "comm");
	assert_string_equal(column(&l, 0), "Overhead");
	assert_string_equal(column(&l, 2), "sys");

	/* -F alone decides the columns; sort keys follow them */
	l = layout_of(NULL, "overhead,sym,comm", true, &err);
	assert_int_equal(l.nr_fields, 3);
	assert_string_equal(column(&l, 0), "Overhead");
	assert_string_equal(l.sorts[1]->name, "symbol");
	assert_false(l.need_collapse);

	/* -F +x adds to the defaults, -s keys are shown after */
	l = layout_of("pid", "+period", false, &err);
	assert_string_equal(column(&l, 1), "Period");
	assert_string_equal(column(&l, 2), "    Pid:Command");

	l = layout_of("comm,nosuchkey", NULL, false, &err);
	assert_string_equal(err, "Unknown --sort key: `nosuchkey'");
	free(err);
	l = layout_of(NULL, "+", false, &err);
	assert_string_equal(err, "Invalid --fields key: `+'");
	free(err);
}

static void test_layout_elide(void **state)
{
	char *err;
	struct hist_layout l = layout_of(NULL, NULL, false, &err);
	const char *only[HISTC_NR_COLS] = { NULL };

	only[HISTC_DSO] = "libc.so.6";
	hist_layout__elide(&l, only);
	assert_true(l.fields[2].elide);
	assert_true(hist_layout__elided(&l, l.fields[2].field));
	assert_false(l.fields[1].elide);

	/* eliding every key would leave nothing: none is elided */
	l = layout_of("dso", NULL, false, &err);
	hist_layout__elide(&l, only);
	assert_false(l.fields[1].elide);
}

/* --- histograms ---------------------------------------------------------------- */

struct world {
	struct thread t1, t2;
	struct dso exe, libc;
	struct symbol main_sym, work, rec, memcpy_sym;
	struct cc_frame f_main, f_work, f_rec, f_memcpy;
	struct hist_opts opts;
	struct strset strings;
	struct callchain_store store;
	struct hists *h;
};

static struct world *world_make(const struct sort_setup *ss)
{
	struct world *w = calloc(1, sizeof(*w));
	bool cumulate = ss->cumulate;
	char *err = NULL;

	w->t1 = (struct thread){ .pid = 10, .tid = 10, .comm = "prog" };
	w->t2 = (struct thread){ .pid = 10, .tid = 11, .comm = "helper" };
	w->exe = (struct dso){ .long_name = "/bin/prog", .short_name = "prog" };
	w->libc = (struct dso){ .long_name = "/lib/libc.so.6", .short_name = "libc.so.6" };
	w->main_sym = (struct symbol){ .start = 0x100, .end = 0x200, .name = "main" };
	w->work = (struct symbol){ .start = 0x200, .end = 0x300, .name = "work" };
	w->rec = (struct symbol){ .start = 0x300, .end = 0x400, .name = "recurse" };
	w->memcpy_sym = (struct symbol){ .start = 0x500, .end = 0x600, .name = "memcpy" };
#define FRAME(f, d, s, ip_) w->f = (struct cc_frame){ .ip = (ip_), .dso = &w->d, .sym = &w->s }
	FRAME(f_main, exe, main_sym, 0x400150);
	FRAME(f_work, exe, work, 0x400250);
	FRAME(f_rec, exe, rec, 0x400350);
	FRAME(f_memcpy, libc, memcpy_sym, 0x7f0000000550);
#undef FRAME
	hist_layout__setup(&w->opts.layout, ss, &err);
	assert_null(err);
	if (!cumulate)
		hist_layout__cancel_cumulate(&w->opts.layout);
	callchain_param__init(&w->opts.cc);
	w->opts.cc.order = ORDER_CALLER;
	w->opts.cumulate = cumulate;
	w->opts.use_callchain = true;
	callchain_store__init(&w->store);
	w->h = hists__new(&w->opts, NULL, &w->strings, &w->store);
	return w;
}

static struct world *world_new(const char *sort, bool cumulate)
{
	struct sort_setup ss = { .sort_order = sort, .cumulate = cumulate };

	return world_make(&ss);
}

static void world_free(struct world *w)
{
	hists__delete(w->h);
	callchain_store__exit(&w->store);
	strset_release(&w->strings);
	free(w);
}

/* One sample of thread t in sym at ip, with a stack (caller first). */
static void sample(struct world *w, struct thread *t, struct dso *dso, struct symbol *sym,
		   uint64_t period, const struct cc_frame **stack, uint32_t depth)
{
	struct callchain_cursor c = { .frames = stack, .nr = depth };
	struct hist_sample s = {
		.thread = t,
		.comm = strset_intern(&w->strings, t->comm),
		.dso = dso,
		.sym = sym,
		.addr = sym ? sym->start + 8 : 0x123,
		.level = '.',
		.cpumode = PERF_RECORD_MISC_USER,
		.cpu = 0,
		.period = period,
		.cursor = depth ? &c : NULL,
	};

	hists__add_sample(w->h, &s);
}

static const struct hist_entry *entry(struct world *w, const char *sym_name, const char *comm)
{
	for (size_t i = 0; i < w->h->nr_sorted; i++) {
		const struct hist_entry *he = w->h->sorted[i];

		if (he->sym && !strcmp(he->sym->name, sym_name) && !strcmp(he->comm, comm))
			return he;
	}
	return NULL;
}

static void test_entries_merge_by_keys(void **state)
{
	struct world *w = world_new(NULL, false);

	sample(w, &w->t1, &w->exe, &w->work, 100, NULL, 0);
	sample(w, &w->t1, &w->exe, &w->work, 50, NULL, 0);
	sample(w, &w->t2, &w->exe, &w->work, 30, NULL, 0);
	sample(w, &w->t1, &w->libc, &w->memcpy_sym, 20, NULL, 0);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 3);
	assert_int_equal(w->h->stats.total_period, 200);
	assert_int_equal(w->h->stats.nr_samples, 4);
	assert_int_equal(entry(w, "work", "prog")->stat.period, 150);
	assert_int_equal(entry(w, "work", "prog")->stat.nr_events, 2);
	assert_int_equal(entry(w, "work", "helper")->stat.period, 30);
	/* largest first */
	assert_ptr_equal(w->h->sorted[0], entry(w, "work", "prog"));
	assert_ptr_equal(w->h->sorted[2], entry(w, "memcpy", "prog"));
	/* widths come from what is shown */
	assert_int_equal(w->h->col_len[HISTC_COMM], 6);
	assert_int_equal(w->h->col_len[HISTC_DSO], 9);
	assert_int_equal(w->h->col_len[HISTC_SYMBOL], 10);
	world_free(w);

	/* by dso only: the first sample's symbol stays with the entry */
	w = world_new("dso", false);
	sample(w, &w->t1, &w->exe, &w->work, 100, NULL, 0);
	sample(w, &w->t2, &w->exe, &w->main_sym, 100, NULL, 0);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 1);
	assert_ptr_equal(w->h->sorted[0]->sym, &w->work);
	world_free(w);
}

static void test_equal_periods_sort_by_keys(void **state)
{
	struct world *w = world_new(NULL, false);

	sample(w, &w->t1, &w->exe, &w->work, 10, NULL, 0);
	sample(w, &w->t1, &w->exe, &w->main_sym, 10, NULL, 0);
	sample(w, &w->t2, &w->exe, &w->work, 10, NULL, 0);
	sample(w, &w->t1, NULL, NULL, 10, NULL, 0);
	hists__output_resort(w->h);
	/* comm, then dso by name (none last), then symbol by name */
	assert_string_equal(w->h->sorted[0]->comm, "helper");
	assert_string_equal(w->h->sorted[1]->sym->name, "main");
	assert_string_equal(w->h->sorted[2]->sym->name, "work");
	assert_null(w->h->sorted[3]->dso);
	world_free(w);
}

static void test_children_and_recursion(void **state)
{
	struct world *w = world_new(NULL, true);
	const struct cc_frame *deep[] = { &w->f_main, &w->f_rec, &w->f_rec, &w->f_rec, &w->f_memcpy };
	const struct cc_frame *flat[] = { &w->f_main, &w->f_work };
	const struct hist_entry *he;

	sample(w, &w->t1, &w->libc, &w->memcpy_sym, 100, deep, 5);
	sample(w, &w->t1, &w->libc, &w->memcpy_sym, 100, deep, 5);	/* replayed */
	sample(w, &w->t1, &w->exe, &w->work, 50, flat, 2);
	hists__output_resort(w->h);

	he = entry(w, "main", "prog");
	assert_int_equal(he->stat.period, 0);
	assert_int_equal(he->stat_acc.period, 250);
	/* three frames of recurse, counted once per sample */
	he = entry(w, "recurse", "prog");
	assert_int_equal(he->stat_acc.period, 200);
	assert_int_equal(he->stat_acc.nr_events, 2);
	he = entry(w, "memcpy", "prog");
	assert_int_equal(he->stat.period, 200);
	assert_int_equal(he->stat_acc.period, 200);
	assert_int_equal(w->h->stats.total_period, 250);
	assert_int_equal(w->h->stats.nr_samples, 3);

	/* main's trie holds both stacks from main on */
	he = entry(w, "main", "prog");
	assert_int_equal(he->callchain->node.children_hit, 250);
	assert_int_equal(he->callchain->max_depth, 5);
	/* the caller above the callee when Children tie */
	assert_ptr_equal(w->h->sorted[0], entry(w, "main", "prog"));
	world_free(w);
}

/*
 * An inlined function is compared by name, others by address, so the
 * first tree walk can miss an equal entry: two entries of "inl" exist
 * until the collapse pass merges them.  perf's merge keeps the surviving
 * entry's callchain depth, which orders equal Children.
 */
static void test_collapse_keeps_depth(void **state)
{
	struct world *w = world_new(NULL, true);
	struct symbol regs[8], inl1 = { .start = 0x200, .end = 0x300, .name = "inl" }, inl2 = inl1;
	struct cc_frame f_inl1 = { .ip = 0x400210, .dso = &w->exe, .sym = &inl1, .inlined = true };
	struct cc_frame f_inl2 = f_inl1;
	struct cc_frame f_reg = { .ip = 0x400010, .dso = &w->exe, .sym = &regs[0] };
	const struct cc_frame *shallow[] = { &f_inl1, &f_reg };
	const struct cc_frame *deep[] = { &f_inl2, &w->f_main, &f_reg };
	const char *names[] = { "b", "p", "q", "r", "s", "t", "u", "v" };
	size_t nr_in;

	f_inl2.sym = &inl2;
	for (int i = 0; i < 8; i++)
		regs[i] = (struct symbol){ .start = 0x1000 * (i + 1), .end = 0x1000 * (i + 1) + 0x100, .name = names[i] };
	/* "b" then "inl" (left of it by name), then regular symbols at growing
	 * addresses: rotations put one named after "inl" above it */
	sample(w, &w->t1, &w->exe, &regs[0], 10, shallow, 2);
	for (int i = 1; i < 8; i++)
		sample(w, &w->t1, &w->exe, &regs[i], 10, NULL, 0);
	sample(w, &w->t1, &w->exe, &regs[0], 10, deep, 3);
	nr_in = w->h->nr_entries;
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, nr_in - 1);
	assert_int_equal(entry(w, "inl", "prog")->stat_acc.period, 20);
	assert_int_equal(entry(w, "inl", "prog")->callchain->max_depth, 2);
	world_free(w);
}

/* A stack seen before is replayed only while the tree has not grown:
 * perf walks the tree again for every sample, and a walk that found an
 * inlined function's entry can miss it once new entries rebalanced the
 * tree (see above). */
static void test_replay_walks_again_after_growth(void **state)
{
	struct world *w = world_new(NULL, true);
	struct symbol regs[8], inl = { .start = 0x200, .end = 0x300, .name = "inl" };
	struct cc_frame f_inl = { .ip = 0x400210, .dso = &w->exe, .sym = &inl, .inlined = true };
	struct cc_frame f_reg = { .ip = 0x400010, .dso = &w->exe, .sym = &regs[0] };
	const struct cc_frame *stack[] = { &f_inl, &f_reg };
	const char *names[] = { "b", "p", "q", "r", "s", "t", "u", "v" };
	size_t nr;

	for (int i = 0; i < 8; i++)
		regs[i] = (struct symbol){ .start = 0x1000 * (i + 1), .end = 0x1000 * (i + 1) + 0x100, .name = names[i] };
	sample(w, &w->t1, &w->exe, &regs[0], 10, stack, 2);
	sample(w, &w->t1, &w->exe, &regs[0], 10, stack, 2);	/* replayed */
	nr = w->h->nr_entries;
	for (int i = 1; i < 8; i++)
		sample(w, &w->t1, &w->exe, &regs[i], 10, NULL, 0);
	/* the same stack again: the walk for "inl" now goes astray */
	sample(w, &w->t1, &w->exe, &regs[0], 10, stack, 2);
	assert_int_equal(w->h->nr_entries, nr + 7 + 1);
	hists__output_resort(w->h);
	assert_int_equal(entry(w, "inl", "prog")->stat_acc.period, 30);
	world_free(w);
}

static void test_filtered_and_percentages(void **state)
{
	struct world *w = world_new(NULL, false);
	struct hist_sample s = {
		.thread = &w->t2, .dso = &w->exe, .sym = &w->work, .addr = 0x208,
		.level = '.', .cpumode = PERF_RECORD_MISC_KERNEL, .period = 300,
		.filtered = HIST_FILTER_THREAD,
	};

	s.comm = strset_intern(&w->strings, "helper");
	sample(w, &w->t1, &w->exe, &w->work, 100, NULL, 0);
	hists__add_sample(w->h, &s);
	hists__output_resort(w->h);
	assert_int_equal(w->h->stats.total_period, 400);
	assert_int_equal(w->h->stats.total_non_filtered_period, 100);
	assert_int_equal(w->h->stats.nr_non_filtered_samples, 1);
	assert_true(hist_entry__percent_limit(entry(w, "work", "prog")) == 25.0);
	w->opts.filter_relative = true;
	assert_true(hist_entry__percent_limit(entry(w, "work", "prog")) == 100.0);
	/* kernel-mode periods go to sys */
	assert_int_equal(hist_entry__value(entry(w, "work", "helper"), HV_OVERHEAD_SYS), 300);
	assert_int_equal(hist_entry__value(entry(w, "work", "helper"), HV_OVERHEAD_US), 0);
	/* filtered entries do not widen columns */
	assert_int_equal(w->h->col_len[HISTC_COMM], 4);
	world_free(w);
}

static void test_group_pairs(void **state)
{
	struct world *w = world_new(NULL, false);
	struct hists *member = hists__new(&w->opts, NULL, &w->strings, &w->store);
	struct hists *leader = w->h;

	leader->nr_members = 2;
	leader->members = calloc(1, sizeof(*leader->members));
	leader->members[0] = member;
	member->leader = leader;
	w->opts.event_group = true;
	sample(w, &w->t1, &w->exe, &w->work, 10, NULL, 0);
	w->h = member;
	sample(w, &w->t1, &w->exe, &w->work, 7, NULL, 0);
	sample(w, &w->t1, &w->libc, &w->memcpy_sym, 5, NULL, 0);
	w->h = leader;
	hists__collapse(leader);
	hists__collapse(member);
	hists__link_group(leader, member, 1);
	hists__output_resort(member);
	hists__output_resort(leader);
	/* the member's own entry got an empty twin in the leader */
	assert_int_equal(leader->nr_sorted, 2);
	assert_int_equal(entry(w, "work", "prog")->pairs[0]->stat.period, 7);
	assert_int_equal(entry(w, "memcpy", "prog")->stat.period, 0);
	assert_int_equal(entry(w, "memcpy", "prog")->pairs[0]->stat.period, 5);
	hists__delete(member);
	world_free(w);
}

/* --- --hierarchy ------------------------------------------------------------ */

static void test_hierarchy_levels(void **state)
{
	struct sort_setup ss = { .sort_order = "overhead,{comm,dso},sym", .hierarchy = true };
	struct hist_layout l;
	char *err = NULL;

	assert_int_equal(hist_layout__setup(&l, &ss, &err), 0);
	/* braces share a level; values are no level */
	assert_int_equal(l.nr_levels, 2);
	assert_int_equal(l.levels[0].nr_keys, 2);
	assert_string_equal(l.levels[0].keys[0]->name, "comm");
	assert_string_equal(l.levels[0].keys[1]->name, "dso");
	assert_int_equal(l.levels[1].nr_keys, 1);
	assert_string_equal(l.levels[1].keys[0]->name, "symbol");
	assert_true(l.need_collapse);
	assert_true(hist_level__has(&l.levels[0], HISTC_DSO));
	assert_false(hist_level__has(&l.levels[1], HISTC_DSO));
}

static struct world *hierarchy_world(const char *sort, bool thread_filter)
{
	struct sort_setup ss = { .sort_order = sort, .hierarchy = true };
	struct world *w = world_make(&ss);

	w->opts.thread_filter = thread_filter;
	w->opts.use_callchain = false;
	return w;
}

static void test_hierarchy_entries(void **state)
{
	struct world *w = hierarchy_world("overhead,comm,sym", false);
	const struct hist_entry *prog, *helper;

	sample(w, &w->t1, &w->exe, &w->work, 100, NULL, 0);
	sample(w, &w->t1, &w->libc, &w->memcpy_sym, 50, NULL, 0);
	sample(w, &w->t2, &w->exe, &w->work, 30, NULL, 0);
	sample(w, &w->t1, &w->exe, &w->work, 20, NULL, 0);
	hists__collapse(w->h);
	hists__output_resort(w->h);
	/* the top level: comms, largest first, each with its symbols */
	assert_int_equal(w->h->nr_sorted, 2);
	prog = w->h->sorted[0];
	helper = w->h->sorted[1];
	assert_string_equal(prog->comm, "prog");
	assert_int_equal(prog->stat.period, 170);
	assert_false(prog->leaf);
	assert_int_equal(prog->nr_children, 2);
	assert_string_equal(prog->children[0]->sym->name, "work");
	assert_int_equal(prog->children[0]->stat.period, 120);
	assert_true(prog->children[0]->leaf);
	assert_int_equal(prog->children[0]->depth, 1);
	assert_ptr_equal(prog->children[0]->parent_he, prog);
	assert_int_equal(helper->stat.period, 30);
	assert_int_equal(w->h->stats.total_period, 200);
	/* depth first */
	assert_ptr_equal(hist_entry__hierarchy_next(prog), prog->children[0]);
	assert_ptr_equal(hist_entry__hierarchy_next(prog->children[1]), helper);
	assert_ptr_equal(hist_entry__hierarchy_next(helper), helper->children[0]);
	assert_null(hist_entry__hierarchy_next(helper->children[0]));
	world_free(w);
}

/* top rebuilds its --hierarchy view at every refresh: the new view's
 * entries take the browser's marks of the old view's equal ones. */
static void test_hierarchy_carry_marks(void **state)
{
	struct world *w = hierarchy_world("overhead,comm,sym", false);
	struct hists *old = w->h;
	const struct hist_entry *prog = NULL, *helper = NULL;

	sample(w, &w->t1, &w->exe, &w->work, 100, NULL, 0);
	sample(w, &w->t1, &w->libc, &w->memcpy_sym, 50, NULL, 0);
	hists__collapse(old);
	hists__output_resort(old);
	assert_int_equal(old->nr_sorted, 1);
	old->sorted[0]->browser_marks = HIST_MARK_UNFOLDED;
	assert_string_equal(old->sorted[0]->children[1]->sym->name, "memcpy");
	old->sorted[0]->children[1]->browser_marks = HIST_MARK_SELECTED;

	w->h = hists__new(&w->opts, NULL, &w->strings, &w->store);
	sample(w, &w->t2, &w->exe, &w->work, 500, NULL, 0);
	sample(w, &w->t1, &w->libc, &w->memcpy_sym, 60, NULL, 0);
	sample(w, &w->t1, &w->exe, &w->main_sym, 10, NULL, 0);
	hists__collapse(w->h);
	hists__output_resort(w->h);
	hists__hierarchy_carry_marks(w->h, old);
	hists__delete(old);
	for (size_t i = 0; i < w->h->nr_sorted; i++) {
		if (!strcmp(w->h->sorted[i]->comm, "prog"))
			prog = w->h->sorted[i];
		else
			helper = w->h->sorted[i];
	}
	assert_non_null(prog);
	assert_non_null(helper);
	assert_int_equal(prog->browser_marks, HIST_MARK_UNFOLDED);
	assert_int_equal(helper->browser_marks, 0);
	for (uint32_t i = 0; i < prog->nr_children; i++)
		assert_int_equal(prog->children[i]->browser_marks,
				 !strcmp(prog->children[i]->sym->name, "memcpy") ? HIST_MARK_SELECTED : 0);
	world_free(w);
}

/* C++ names run to thousands of characters: entries keyed by the
 * "sym+offset" srcline of code without lines stay apart however long
 * their common prefix, and the keys print whole. */
static void test_long_names_stay_apart(void **state)
{
	enum { LONG_NAME = 5000 };
	struct world *w = world_new("srcline", false);
	struct symbol long_a = w->work, long_b = w->rec;
	char *name_a = malloc(LONG_NAME + 1), *name_b = malloc(LONG_NAME + 1);
	struct strbuf sb = STRBUF_INIT;
	/* a real DSO (of a file that does not exist: no source lines) */
	struct machine *m = machine__new();
	struct thread *t = machine__findnew_thread(m, 10, 10);
	struct addr_location al;

	machine__process_mmap(m, 10, 10, 0x1000, 0x4000, 0, "/no/prog", PERF_RECORD_MISC_USER,
			      NULL, 0);
	assert_true(machine__resolve(m, t, PERF_RECORD_MISC_USER, 0x1800, &al));

	memset(name_a, 'x', LONG_NAME);
	memcpy(name_b, name_a, LONG_NAME);
	name_a[LONG_NAME - 1] = 'a';
	name_b[LONG_NAME - 1] = 'b';
	name_a[LONG_NAME] = name_b[LONG_NAME] = '\0';
	long_a.name = name_a;
	long_b.name = name_b;
	sample(w, &w->t1, al.dso, &long_a, 100, NULL, 0);
	sample(w, &w->t1, al.dso, &long_b, 50, NULL, 0);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 2);
	assert_int_equal(strlen(w->h->sorted[0]->srcline), LONG_NAME + strlen("+8"));
	assert_int_equal(w->h->col_len[HISTC_SRCLINE], LONG_NAME + strlen("+8"));
	w->opts.layout.fields[w->opts.layout.nr_fields - 1].field->print(
		w->h->sorted[1], &sb, w->h->col_len[HISTC_SRCLINE]);
	assert_string_equal(strbuf_str(&sb) + LONG_NAME - 1, "b+8");
	strbuf_release(&sb);
	world_free(w);
	machine__delete(m);
	free(name_a);
	free(name_b);
}

static void test_hierarchy_filters(void **state)
{
	/* a --comms filter with no comm level hides everything (perf) */
	struct world *w = hierarchy_world("overhead,sym", true);
	struct hist_sample s = {
		.thread = &w->t2, .dso = &w->exe, .sym = &w->work, .addr = 0x208, .level = '.',
		.cpumode = PERF_RECORD_MISC_USER, .period = 30, .filtered = HIST_FILTER_THREAD,
	};

	s.comm = strset_intern(&w->strings, "helper");
	sample(w, &w->t1, &w->exe, &w->work, 100, NULL, 0);
	hists__add_sample(w->h, &s);
	hists__collapse(w->h);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 1);
	assert_true(w->h->sorted[0]->filtered & HIST_FILTER_THREAD);
	assert_int_equal(w->h->stats.total_non_filtered_period, 0);
	world_free(w);

	/* with one: the comm level decides, and its children follow it */
	w = hierarchy_world("overhead,comm,sym", true);
	s.thread = &w->t2;
	s.dso = &w->exe;
	s.sym = &w->work;
	s.comm = strset_intern(&w->strings, "helper");
	sample(w, &w->t1, &w->exe, &w->work, 100, NULL, 0);
	hists__add_sample(w->h, &s);
	hists__collapse(w->h);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 2);
	assert_false(w->h->sorted[0]->filtered);
	assert_false(w->h->sorted[0]->children[0]->filtered);
	assert_true(w->h->sorted[1]->filtered);
	assert_true(w->h->sorted[1]->children[0]->filtered);
	assert_int_equal(w->h->stats.total_non_filtered_period, 100);
	world_free(w);
}

/* perf top's ageing: 7/8 of period and samples kept (rounded down), an
 * entry at zero gone, the stack memo forgotten (its entries may be gone),
 * totals and call graphs following. */
static void test_decay_and_zero(void **state)
{
	struct world *w = world_new(NULL, false);
	const struct cc_frame *stack[] = { &w->f_main, &w->f_work };

	sample(w, &w->t1, &w->exe, &w->work, 800, stack, 2);
	sample(w, &w->t1, &w->exe, &w->work, 800, stack, 2);
	sample(w, &w->t1, &w->libc, &w->memcpy_sym, 1, NULL, 0);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 2);
	hists__decay(w->h, false, false);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 1);
	assert_int_equal(entry(w, "work", "prog")->stat.period, 1400);
	assert_int_equal(entry(w, "work", "prog")->stat.nr_events, 1);
	assert_int_equal(entry(w, "work", "prog")->callchain->node.children_hit, 1400);
	assert_int_equal(w->h->stats.total_period, 1400);
	/* memcpy's entry is reused by the next new one */
	sample(w, &w->t2, &w->exe, &w->work, 8, NULL, 0);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 2);
	assert_int_equal(entry(w, "work", "helper")->stat.period, 8);
	assert_int_equal(w->h->nr_spare, 0);
	hists__decay(w->h, false, false);
	/* the same stack again lands on the surviving entry */
	sample(w, &w->t1, &w->exe, &w->work, 100, stack, 2);
	hists__output_resort(w->h);
	assert_int_equal(entry(w, "work", "prog")->stat.period, 1400 * 7 / 8 + 100);
	/* -K: kernel entries go (these are user ones); -U: user ones */
	hists__decay(w->h, false, true);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 2);
	hists__decay(w->h, true, false);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 0);
	sample(w, &w->t1, &w->exe, &w->work, 5, NULL, 0);
	hists__delete_entries(w->h);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 0);
	assert_int_equal(w->h->stats.total_period, 0);
	world_free(w);
}

/* perf top -z in a browser: the entries shown leave the tree but stay
 * sorted while new samples start new entries; released, they are spares,
 * reused without the browser's marks. */
static void test_retire_entries(void **state)
{
	struct world *w = world_new(NULL, false);
	struct hist_entry *shown;

	sample(w, &w->t1, &w->exe, &w->work, 800, NULL, 0);
	hists__output_resort(w->h);
	shown = w->h->sorted[0];
	shown->browser_marks = HIST_MARK_SELECTED;
	hists__retire_entries(w->h);
	assert_int_equal(w->h->nr_sorted, 1);
	assert_ptr_equal(w->h->sorted[0], shown);
	assert_int_equal(w->h->nr_entries, 0);
	sample(w, &w->t1, &w->exe, &w->work, 100, NULL, 0);
	assert_int_equal(shown->stat.period, 800);
	assert_int_equal(w->h->nr_entries, 1);
	hists__release_retired(w->h);
	assert_int_equal(w->h->nr_sorted, 0);
	assert_int_equal(w->h->nr_spare, 1);
	hists__output_resort(w->h);
	assert_int_equal(w->h->nr_sorted, 1);
	assert_int_equal(w->h->sorted[0]->stat.period, 100);
	assert_int_equal(w->h->stats.total_period, 100);
	sample(w, &w->t2, &w->exe, &w->work, 8, NULL, 0);
	assert_int_equal(w->h->nr_spare, 0);
	assert_int_equal(shown->stat.period, 8);
	assert_int_equal(shown->browser_marks, 0);
	world_free(w);
}

/* perf top sizes the columns from the rows it shows. */
static void test_recalc_col_len(void **state)
{
	struct world *w = world_new(NULL, false);

	sample(w, &w->t1, &w->exe, &w->work, 100, NULL, 0);
	sample(w, &w->t1, &w->libc, &w->memcpy_sym, 10, NULL, 0);
	hists__output_resort(w->h);
	assert_int_equal(w->h->col_len[HISTC_DSO], 9);
	hists__recalc_col_len(w->h, 1);
	assert_int_equal(w->h->col_len[HISTC_DSO], 4);
	world_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_defaults),
		cmocka_unit_test(test_layout_sort_and_fields),
		cmocka_unit_test(test_layout_elide),
		cmocka_unit_test(test_entries_merge_by_keys),
		cmocka_unit_test(test_equal_periods_sort_by_keys),
		cmocka_unit_test(test_children_and_recursion),
		cmocka_unit_test(test_collapse_keeps_depth),
		cmocka_unit_test(test_replay_walks_again_after_growth),
		cmocka_unit_test(test_filtered_and_percentages),
		cmocka_unit_test(test_group_pairs),
		cmocka_unit_test(test_hierarchy_levels),
		cmocka_unit_test(test_hierarchy_entries),
		cmocka_unit_test(test_hierarchy_carry_marks),
		cmocka_unit_test(test_hierarchy_filters),
		cmocka_unit_test(test_long_names_stay_apart),
		cmocka_unit_test(test_decay_and_zero),
		cmocka_unit_test(test_retire_entries),
		cmocka_unit_test(test_recalc_col_len),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
