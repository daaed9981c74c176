/* callchain: resolving stacks and folding them into tries (see callchain.h). */
#include "core/hist/callchain.h"
#include "core/data/session.h"
#include "core/symbols/srcline-text.h"
#include "util/hashmap.h"
#include "util/perfconfig.h"
#include "util/util.h"

#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- parameters --------------------------------------------------------- */

void callchain_param__init(struct callchain_param *p)
{
	memset(p, 0, sizeof(*p));
	p->mode = CHAIN_GRAPH_ABS;
	p->min_percent = 0.5;
	p->order = ORDER_CALLEE;
	p->key = CCKEY_FUNCTION;
	p->value = CCVAL_PERCENT;
}

/* perf matches each word as a prefix of the names, in this order. */
static bool word_is(const char *word, const char *name)
{
	return !strncmp(word, name, strlen(word));
}

static bool parse_word(struct callchain_param *p, const char *w)
{
	static const struct { const char *name; enum chain_mode mode; } modes[] = {
		{ "graph", CHAIN_GRAPH_ABS }, { "flat", CHAIN_FLAT },
		{ "fractal", CHAIN_GRAPH_REL }, { "folded", CHAIN_FOLDED },
	};

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if (word_is(w, modes[i].name)) {
			p->mode = modes[i].mode;
			return true;
		}
	if (word_is(w, "caller") || word_is(w, "callee")) {
		p->order = word_is(w, "caller") ? ORDER_CALLER : ORDER_CALLEE;
		p->order_set = true;
		return true;
	}
	if (word_is(w, "function")) {
		p->key = CCKEY_FUNCTION;
		return true;
	}
	if (word_is(w, "address")) {
		p->key = CCKEY_ADDRESS;
		return true;
	}
	if (word_is(w, "srcline")) {
		p->key = CCKEY_SRCLINE;
		return true;
	}
	if (word_is(w, "branch"))	/* no LBR here: accepted and ignored */
		return true;
	if (word_is(w, "percent") || word_is(w, "period") || word_is(w, "count")) {
		p->value = word_is(w, "percent") ? CCVAL_PERCENT :
			   word_is(w, "period") ? CCVAL_PERIOD : CCVAL_COUNT;
		return true;
	}
	return false;
}

int callchain_param__parse(struct callchain_param *p, const char *arg, bool *use_callchain)
{
	char *copy, *tok, *save = NULL;
	bool threshold_set = false;
	int ret = 0;

	p->enabled = true;
	*use_callchain = true;
	if (!arg)
		return 0;
	copy = xstrdup(arg);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		if (word_is(tok, "none")) {
			p->mode = CHAIN_NONE;
			p->enabled = false;
			*use_callchain = false;
			break;
		}
		if (parse_word(p, tok))
			continue;
		if (!threshold_set) {
			p->min_percent = strtod(tok, &end);
			threshold_set = true;
		} else {
			p->print_limit = (uint32_t)strtoul(tok, &end, 0);
		}
		if (end == tok) {
			ret = -1;
			break;
		}
	}
	free(copy);
	return ret;
}

int callchain_param__config(struct callchain_param *p, const char *name, const char *value,
			    char *buf, size_t size, const char **why)
{
	const char *what = NULL;
	char *end;

	*why = NULL;
	if (!strcmp(name, "print-type")) {
		if (!word_is(value, "graph") && !word_is(value, "flat") &&
		    !word_is(value, "fractal") && !word_is(value, "folded"))
			what = "mode";
		else
			parse_word(p, value);
	} else if (!strcmp(name, "order")) {
		if (!word_is(value, "caller") && !word_is(value, "callee"))
			what = "order";
		else
			parse_word(p, value);
	} else if (!strcmp(name, "sort-key")) {
		if (!word_is(value, "function") && !word_is(value, "address"))
			what = "sort key";
		else
			parse_word(p, value);
	} else if (!strcmp(name, "threshold")) {
		double v = strtod(value, &end);

		if (end == value)
			what = "threshold";
		else
			p->min_percent = v;
	} else if (!strcmp(name, "print-limit")) {
		double v = strtod(value, &end);

		if (end == value)
			what = "print limit";
		else
			p->print_limit = (uint32_t)v;
	}
	if (!what)
		return 0;
	snprintf(buf, size, "Invalid callchain %s: %s", what, value);
	*why = buf;
	return -1;
}

int callchain_param__read_config(struct callchain_param *p, char *buf, size_t size,
				 const char **why, const char **key, const char **value)
{
	static const char *const keys[] = {
		"call-graph.print-type", "call-graph.order", "call-graph.sort-key",
		"call-graph.threshold", "call-graph.print-limit",
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v = perfconfig__default(keys[i]);

		if (v && callchain_param__config(p, keys[i] + strlen("call-graph."), v, buf, size,
						 why)) {
			*key = keys[i];
			*value = v;
			return -1;
		}
	}
	return 0;
}

/* --- frames ------------------------------------------------------------- */

#define STACK_SLOTS 4096	/* resolved stacks kept (see callchain_cursor__resolve) */

struct cc_stack {
	uint32_t generation;		/* 0: empty */
	const struct thread *thread;
	uint64_t hash;
	uint64_t *ips;
	uint32_t nr_ips;
	const struct cc_frame **frames;
	uint32_t nr_frames;
	struct symbol *parent;
	const struct cc_frame *root;
	bool has_user, broken;
};


int callchain_max_stack_default(void)
{
	char *s = read_file_str("/proc/sys/kernel/perf_event_max_stack");
	int v = s ? atoi(s) : 0;

	free(s);
	return v > 0 ? v : 127;
}

void cc_resolver__init(struct cc_resolver *r, struct machine *m,
		       const struct callchain_param *param, struct strset *strings)
{
	memset(r, 0, sizeof(*r));
	r->machine = m;
	r->param = param;
	r->strings = strings;
	r->max_stack = 127;
	r->generation = 1;
	r->maps_generation = machine__maps_generation(m);
	hashmap_init(&r->frames, sizeof(struct cc_frame *));
}

void cc_resolver__exit(struct cc_resolver *r)
{
	for (size_t i = 0; r->stacks && i < STACK_SLOTS; i++) {
		free(r->stacks[i].ips);
		free(r->stacks[i].frames);
	}
	free(r->stacks);
	hashmap_release(&r->frames);
	hashmap_release(&r->ranks);
	free(r->resolved);
	free(r->resolved_branches);
	arena_release(&r->arena);
	strbuf_release(&r->scratch);
	memset(r, 0, sizeof(*r));
}

void cc_resolver__init_like(struct cc_resolver *fresh, const struct cc_resolver *r)
{
	cc_resolver__init(fresh, r->machine, r->param, r->strings);
	fresh->parent_regex = r->parent_regex;
	fresh->max_stack = r->max_stack;
	fresh->hide_unresolved = r->hide_unresolved;
	fresh->ignore_callees = r->ignore_callees;
	fresh->branch_history = r->branch_history;
	fresh->lbr_depth = r->lbr_depth;
}

/* Forgets cached resolutions when the machine's maps changed (MMAP, exec). */
static void sync_with_machine(struct cc_resolver *r)
{
	uint64_t now = machine__maps_generation(r->machine);

	if (r->maps_generation == now)
		return;
	r->maps_generation = now;
	r->generation++;
}

struct rank_walk {
	struct cc_resolver *r;
	uint32_t next;
};

static void rank_one(struct dso *dso, void *arg)
{
	struct rank_walk *w = arg;

	hashmap_u64_put(&w->r->ranks, (uintptr_t)dso, (void *)(uintptr_t)++w->next);
}

/*
 * perf breaks ties between sibling call-graph nodes by comparing DSO
 * pointers, i.e. allocation order, which follows creation order: the
 * machine's DSO list order stands in for it.
 */
static uint32_t dso_rank(struct cc_resolver *r, const struct dso *dso)
{
	struct rank_walk w = { r, 0 };

	if (!dso)
		return 0;
	if (!hashmap_u64_get(&r->ranks, (uintptr_t)dso))
		machine__for_each_dso(r->machine, rank_one, &w);
	return (uint32_t)(uintptr_t)hashmap_u64_get(&r->ranks, (uintptr_t)dso);
}

/* The frame table's tag (the table mixes it). */
static uint64_t frame_hash(const struct cc_frame *f)
{
	return f->ip ^ (uintptr_t)f->sym ^ ((uintptr_t)f->dso << 1) ^ ((uintptr_t)f->srcline << 3) ^
	       (uint64_t)(f->kernel | f->inlined << 1);
}

static bool frame_equal(const void *value, const void *key)
{
	const struct cc_frame *a = *(struct cc_frame *const *)value, *b = key;

	return a->ip == b->ip && a->dso == b->dso && a->sym == b->sym &&
	       a->srcline == b->srcline && a->kernel == b->kernel && a->inlined == b->inlined;
}

static const struct cc_frame *frame_intern(struct cc_resolver *r, struct cc_frame *tmpl)
{
	bool added;
	struct cc_frame **f = hashmap_findnew(&r->frames, frame_hash(tmpl), frame_equal, tmpl,
					      &added);

	if (!added)
		return *f;
	tmpl->dso_order = dso_rank(r, tmpl->dso);
	tmpl->key = r->param->key;
	*f = arena_alloc(&r->arena, sizeof(**f));
	**f = *tmpl;
	return *f;
}

const struct cc_frame *cc_resolver__adopt(struct cc_resolver *r, const struct cc_frame *frame)
{
	struct cc_frame tmpl = *frame;

	return frame_intern(r, &tmpl);
}

/* What perf 6.1 keeps as a call-graph entry's source line (only for the
 * address and srcline keys): "file:line"; unknown, nothing for the
 * srcline key, "+offset" or "dso[addr]" for the address key. */
static const char *frame_srcline(struct cc_resolver *r, struct dso *dso, struct symbol *sym,
				 uint64_t addr)
{
	const char *line;

	if (!dso || r->param->key == CCKEY_FUNCTION)
		return NULL;
	line = srcline_known(dso, addr);
	if (line)
		return strset_intern(r->strings, line);
	if (r->param->key != CCKEY_ADDRESS)
		return NULL;
	strbuf_reset(&r->scratch);
	if (sym)
		strbuf_addf(&r->scratch, "+%" PRIu64, addr - sym->start);
	else
		srcline_unknown(&r->scratch, dso, addr);
	return strset_intern(r->strings, strbuf_str(&r->scratch));
}

/* --- cursors ------------------------------------------------------------ */

void callchain_cursor__exit(struct callchain_cursor *c)
{
	free(c->frames);
	free(c->branches);
	memset(c, 0, sizeof(*c));
}

static void cursor_grow(struct callchain_cursor *c, uint32_t nr)
{
	while (c->alloc < nr) {
		c->alloc = c->alloc ? c->alloc * 2 : 64;
		c->frames = xrealloc(c->frames, c->alloc * sizeof(*c->frames));
		if (c->branches)
			c->branches = xrealloc(c->branches, c->alloc * sizeof(*c->branches));
	}
}

/* b: the frame's branch, for a cursor that keeps them */
static void cursor_push(struct callchain_cursor *c, const struct cc_frame *f,
			const struct callchain_branch *b)
{
	cursor_grow(c, c->nr + 1);
	if (c->branches)
		c->branches[c->nr] = *b;
	c->frames[c->nr++] = f;
}

/* from_chain: a PERF_SAMPLE_CALLCHAIN frame, where perf looks for the
 * parent (-p) and --ignore-callees (not among DWARF-unwound frames) */
static void cursor_add(struct callchain_cursor *c, struct cc_resolver *r, const struct cc_frame *f,
		       const struct callchain_branch *b, bool from_chain)
{
	if (r->hide_unresolved && !f->sym)
		return;
	if (from_chain && r->parent_regex && !c->parent && f->sym &&
	    !regexec(r->parent_regex, f->sym->name, 0, NULL, 0)) {
		c->parent = f->sym;
	} else if (from_chain && r->ignore_callees && f->sym &&
		   !regexec(r->ignore_callees, f->sym->name, 0, NULL, 0)) {
		/* what came before is forgotten, whichever the order (perf) */
		c->nr = 0;
		c->root = f;
	}
	cursor_push(c, f, b);
}

/* A resolved frame as the trie compares it. */
static const struct cc_frame *intern_frame(struct cc_resolver *r, const struct callchain_frame *u)
{
	const struct addr_location *al = &u->al;
	struct cc_frame f = { .ip = u->ip, .inlined = u->inlined,
			      .kernel = al->cpumode == PERF_RECORD_MISC_KERNEL };

	if (al->map) {
		f.dso = al->dso;
		f.sym = al->sym;
		f.addr = al->addr;
		f.map_size = al->map->end - al->map->start;
		f.unmap_shift = map__unmap_ip(al->map, 0);
	}
	/* DWARF-expanded frames carry their line whatever the key (perf's
	 * inline list); --children entries of them show it */
	if (u->srcline)
		f.srcline = strset_intern(r->strings, u->srcline);
	else if (f.dso)
		f.srcline = frame_srcline(r, f.dso, f.sym, f.addr);
	return frame_intern(r, &f);
}

/*
 * The sample's stack as the session resolves it for every command (callee
 * first: the PERF_SAMPLE_CALLCHAIN part, then the DWARF-unwound user
 * part), taken in the report's order.
 */
static void add_frames(struct callchain_cursor *c, struct cc_resolver *r, struct thread *thread,
		       const struct perf_event_attr *attr, const struct perf_sample *sample)
{
	bool callee = r->param->order == ORDER_CALLEE;
	struct callchain_request req = { .max_stack = r->max_stack, .keep_outermost = !callee,
					 .branch_history = r->branch_history,
					 .lbr_depth = r->lbr_depth };
	/* unwound inline lists add entries, and branches two each */
	int n, max = r->max_stack * (r->branch_history ? 11 : 9) + 64;

	if (r->resolved_cap < max) {
		r->resolved_cap = max;
		r->resolved = xrealloc(r->resolved, (size_t)max * sizeof(*r->resolved));
		if (r->branch_history)
			r->resolved_branches = xrealloc(r->resolved_branches,
							(size_t)max * sizeof(*r->resolved_branches));
	}
	req.branches = r->resolved_branches;
	if (r->branch_history && !c->branches) {
		c->branches = xmalloc((c->alloc ? c->alloc : 1) * sizeof(*c->branches));
		cursor_grow(c, 1);
	}
	n = perf_sample__resolve_callchain(sample, attr, r->machine, thread, &req, r->resolved,
					   max);
	/* perf walks caller order unwound part first: a corrupt chain, met
	 * last, empties the cursor of it too */
	if (req.corrupt && !callee)
		return;
	/* caller order reverses the lot, inline lists included (perf) */
	for (int k = 0; k < n; k++) {
		int i = callee ? k : n - 1 - k;

		cursor_add(c, r, intern_frame(r, &r->resolved[i]),
			   req.branches ? &req.branches[i] : NULL, i < req.nr_chain);
	}
}

/* Where a complete user stack ends: program and thread entry points. */
static bool is_stack_bottom(const struct symbol *sym)
{
	static const char *const names[] = {
		"main", "_start", "__libc_start_main", "__libc_start_call_main",
		"__libc_start_main_impl", "start_thread", "clone", "clone3", "__clone",
		"__clone3", "thread_start", "_dl_start", "_dl_start_user",
	};

	if (!sym)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(sym->name, names[i]))
			return true;
	return false;
}

static void check_bottom(struct callchain_cursor *c, bool callee)
{
	const struct cc_frame *bottom = NULL;

	for (uint32_t i = 0; i < c->nr; i++) {
		const struct cc_frame *f = c->frames[callee ? c->nr - 1 - i : i];

		if (!f->kernel) {
			bottom = f;
			break;
		}
	}
	c->has_user = bottom != NULL;
	c->broken = bottom && !is_stack_bottom(bottom->sym);
}

/*
 * Resolved frame-pointer stacks, by thread and addresses: profiles repeat
 * the same few stacks, and this spares resolving them frame by frame.
 * (DWARF stacks depend on the stack copy too and are not cached.)
 */

static uint64_t stack_hash(const struct thread *t, const uint64_t *ips, uint64_t nr)
{
	uint64_t h = hash_mix((uintptr_t)t ^ nr);

	for (uint64_t i = 0; i < nr; i++)
		h = hash_add(h, ips[i]);
	return h;
}

static struct cc_stack *stack_slot(struct cc_resolver *r, const struct thread *t,
				   const struct perf_sample *sample, uint64_t *hash)
{
	if (!r->stacks)
		r->stacks = xcalloc(STACK_SLOTS, sizeof(*r->stacks));
	*hash = stack_hash(t, sample->callchain, sample->callchain_nr);
	return &r->stacks[*hash % STACK_SLOTS];
}

static bool stack_hit(const struct cc_resolver *r, const struct cc_stack *st,
		      const struct thread *t, uint64_t hash, const struct perf_sample *sample)
{
	return st->generation == r->generation && st->hash == hash && st->thread == t &&
	       st->nr_ips == sample->callchain_nr &&
	       (!st->nr_ips || !memcmp(st->ips, sample->callchain, st->nr_ips * sizeof(*st->ips)));
}

static void stack_store(struct cc_resolver *r, struct cc_stack *st, const struct thread *t,
			uint64_t hash, const struct perf_sample *sample,
			const struct callchain_cursor *c)
{
	free(st->ips);
	free(st->frames);
	st->generation = r->generation;
	st->thread = t;
	st->hash = hash;
	st->nr_ips = (uint32_t)sample->callchain_nr;
	st->ips = xmalloc((st->nr_ips ? st->nr_ips : 1) * sizeof(*st->ips));
	if (st->nr_ips)
		memcpy(st->ips, sample->callchain, st->nr_ips * sizeof(*st->ips));
	st->nr_frames = c->nr;
	st->frames = xmalloc((c->nr ? c->nr : 1) * sizeof(*st->frames));
	if (c->nr)
		memcpy(st->frames, c->frames, c->nr * sizeof(*c->frames));
	st->parent = c->parent;
	st->root = c->root;
	st->has_user = c->has_user;
	st->broken = c->broken;
}

/* Samples whose user stack is their branch stack (record --call-graph lbr). */
static bool lbr_call_stacks(const struct perf_event_attr *attr)
{
	return (attr->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	       (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK);
}

void callchain_cursor__resolve(struct callchain_cursor *c, struct cc_resolver *r,
			       struct thread *thread, const struct perf_event_attr *attr,
			       const struct perf_sample *sample)
{
	const uint64_t dwarf = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	struct cc_stack *st = NULL;
	uint64_t hash = 0;

	sync_with_machine(r);
	c->nr = 0;
	c->parent = NULL;
	c->root = NULL;
	/* the branches' flags are the sample's own, and an LBR call stack's
	 * frames its branch stack's: not cached */
	if ((attr->sample_type & dwarf) != dwarf && sample->callchain && !r->branch_history &&
	    !lbr_call_stacks(attr)) {
		st = stack_slot(r, thread, sample, &hash);
		if (stack_hit(r, st, thread, hash, sample)) {
			cursor_grow(c, st->nr_frames);
			if (st->nr_frames)
				memcpy(c->frames, st->frames, st->nr_frames * sizeof(*c->frames));
			c->nr = st->nr_frames;
			c->hash = hash;
			c->parent = st->parent;
			c->root = st->root;
			c->has_user = st->has_user;
			c->broken = st->broken;
			return;
		}
	}
	add_frames(c, r, thread, attr, sample);
	/* branches head the stack: where it ends says nothing of its frames */
	if (r->branch_history)
		c->has_user = c->broken = false;
	else
		check_bottom(c, r->param->order == ORDER_CALLEE);
	if (st) {
		stack_store(r, st, thread, hash, sample, c);
		c->hash = hash;
	} else {
		c->hash = hash_mix(c->nr);
		for (uint32_t i = 0; i < c->nr; i++)
			c->hash = hash_add(c->hash, (uintptr_t)c->frames[i]);
	}
}

/* --- the trie ----------------------------------------------------------- */

void callchain_store__init(struct callchain_store *s)
{
	memset(s, 0, sizeof(*s));
}

void callchain_store__exit(struct callchain_store *s)
{
	arena_release(&s->arena);
	memset(s, 0, sizeof(*s));
}

struct callchain_root *callchain_root__new(struct callchain_store *s)
{
	return arena_alloc(&s->arena, sizeof(struct callchain_root));
}

/* perf orders DSOs by their struct's address; creation order stands in. */
static int dso_address_cmp(uint32_t dso_a, uint64_t a, uint32_t dso_b, uint64_t b)
{
	if (dso_a != dso_b)
		return dso_a < dso_b ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* A missing string sorts after any string. */
static int string_cmp(const char *a, const char *b)
{
	if (a && b)
		return strcmp(a, b);
	return a ? -1 : 1;
}

/*
 * perf's match_chain: <0 when the sibling's frame sorts before the new
 * one (the new one then goes left), 0 when the new frame joins it.  By
 * source line (srcline key, when either has one), by name when either
 * is an inlined function, by DSO and symbol start, else by DSO and ip.
 */
static int sibling_cmp(const struct cc_frame *sibling, const struct cc_frame *f)
{
	if (f->key == CCKEY_SRCLINE && (sibling->srcline || f->srcline))
		return string_cmp(sibling->srcline, f->srcline);
	if (f->key != CCKEY_ADDRESS && sibling->sym && f->sym) {
		if (sibling->inlined || f->inlined)
			return strcmp(sibling->sym->name, f->sym->name);
		return dso_address_cmp(sibling->dso_order, sibling->sym->start, f->dso_order,
				       f->sym->start);
	}
	return dso_address_cmp(sibling->dso_order, sibling->ip, f->dso_order, f->ip);
}

/* The child f joins, found the way perf's tree search finds it, or a new
 * one linked where that search ended. */
static struct callchain_node *child_for(struct callchain_store *s, struct callchain_node *node,
					const struct cc_frame *f)
{
	struct rb_node **link = &node->kids.node, *parent = NULL;
	struct callchain_node *c;

	while (*link) {
		int cmp;

		c = (struct callchain_node *)((char *)*link - offsetof(struct callchain_node, kid));
		cmp = sibling_cmp(c->frame, f);
		if (!cmp)
			return c;
		parent = *link;
		link = cmp < 0 ? &parent->left : &parent->right;
	}
	/* packed: 16-byte alignment made the 120-byte nodes 128 */
	c = arena_alloc_aligned(&s->arena, sizeof(*c), _Alignof(struct callchain_node));
	c->parent = node;
	c->frame = f;
	c->sibling = node->child;
	node->child = c;
	node->nr_children++;
	rb_insert(&node->kids, &c->kid, parent, link);
	return c;
}

static const struct callchain_node *kid_node(const struct rb_node *n)
{
	return (const struct callchain_node *)((const char *)n -
					       offsetof(struct callchain_node, kid));
}

/* The children in perf's order: an in-order walk of their tree. */
#define for_each_kid(c, node)								\
	for (const struct rb_node *kid_ = rb_first(&(node)->kids);			\
	     kid_ && ((c) = kid_node(kid_), 1); kid_ = rb_next(kid_))

/*
 * A branch end reaching node n (perf's counts as its tree's nodes take
 * their entries): the node that it made starts its counts there, one
 * that it joined adds to them, and only a join counts a source end in
 * from_count (what averages its loops).
 */
static void count_branch(struct callchain_store *s, struct callchain_node *n, uint64_t ip,
			 const struct callchain_branch *b, bool made)
{
	struct cc_branch_counts *c = n->branch;

	if (!c)
		c = n->branch = arena_alloc(&s->arena, sizeof(*c));	/* zeroed */
	c->branch_count++;
	if (b->from) {
		c->branch_to = true;
		c->predicted_count += BRANCH_PREDICTED(b->flags);
		c->abort_count += BRANCH_ABORT(b->flags);
		branch_type_stat__add_apart(&c->types, b->flags, b->from, ip);
	} else {
		c->branch_to = false;
		c->cycles_count += BRANCH_CYCLES(b->flags);
		c->iter_count += b->nr_loop_iter;
		c->iter_cycles += b->iter_cycles;
		c->from_count += !made;
	}
}

struct callchain_node *callchain_root__append_branches(struct callchain_store *s,
						       struct callchain_root *root,
						       const struct cc_frame *const *frames,
						       const struct callchain_branch *branches,
						       uint32_t nr, uint64_t period)
{
	struct callchain_node *node = &root->node;

	if (!nr)
		return NULL;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t had = node->nr_children;

		node = child_for(s, node, frames[i]);
		if (branches && branches[i].branch)
			count_branch(s, node, frames[i]->ip, &branches[i],
				     node->parent->nr_children != had);
	}
	callchain_node__add(node, period);
	if (nr > root->max_depth)
		root->max_depth = nr;
	return node;
}

struct callchain_node *callchain_root__append(struct callchain_store *s,
					      struct callchain_root *root,
					      const struct cc_frame *const *frames, uint32_t nr,
					      uint64_t period)
{
	return callchain_root__append_branches(s, root, frames, NULL, nr, period);
}

struct merge_path {
	const struct cc_frame **v;
	uint32_t nr, alloc;
};

static void merge_walk(struct callchain_store *s, struct callchain_root *dst,
		       const struct callchain_node *n, struct merge_path *p)
{
	if (n->frame) {
		if (p->nr == p->alloc) {
			p->alloc = p->alloc ? p->alloc * 2 : 64;
			p->v = xrealloc(p->v, p->alloc * sizeof(*p->v));
		}
		p->v[p->nr++] = n->frame;
		if (n->hit)
			callchain_root__append(s, dst, p->v, p->nr, n->hit);
	}
	const struct callchain_node *c;

	for_each_kid(c, n)
		merge_walk(s, dst, c, p);
	if (n->frame)
		p->nr--;
}

void callchain_root__merge(struct callchain_store *s, struct callchain_root *dst,
			   const struct callchain_root *src)
{
	struct merge_path p = { NULL, 0, 0 };
	/* perf's merge leaves the depth (a tie-break of the output order) alone */
	uint32_t depth = dst->max_depth;

	merge_walk(s, dst, &src->node, &p);
	dst->max_depth = depth;
	free(p.v);
}

struct copy_walk {
	struct callchain_store *s;
	struct callchain_root *dst;
	struct cc_resolver *frames;
	struct merge_path path;
	uint32_t nr_marked;	/* nodes of the path with browser marks */
};

static void copy_walk(struct copy_walk *w, const struct callchain_node *n)
{
	struct merge_path *p = &w->path;
	const struct callchain_node *c;

	if (n->frame) {
		if (p->nr == p->alloc) {
			p->alloc = p->alloc ? p->alloc * 2 : 64;
			p->v = xrealloc(p->v, p->alloc * sizeof(*p->v));
		}
		p->v[p->nr++] = cc_resolver__adopt(w->frames, n->frame);
		w->nr_marked += n->browser_marks != 0;
		if (n->hit) {
			struct callchain_node *to = callchain_root__append(w->s, w->dst, p->v, p->nr,
									  n->hit);

			to->count = n->count;
			/* the copy of the path has as many nodes as the original */
			for (const struct callchain_node *from = n; w->nr_marked && from->frame;
			     from = from->parent, to = to->parent)
				to->browser_marks |= from->browser_marks;
		}
	}
	for_each_kid(c, n)
		copy_walk(w, c);
	if (n->frame) {
		p->nr--;
		w->nr_marked -= n->browser_marks != 0;
	}
}

struct callchain_root *callchain_root__copy(struct callchain_store *s,
					    const struct callchain_root *src,
					    struct cc_resolver *frames)
{
	struct copy_walk w = { .s = s, .dst = callchain_root__new(s), .frames = frames };

	copy_walk(&w, &src->node);
	w.dst->max_depth = src->max_depth;
	free(w.path.v);
	return w.dst;
}

static void finalize_node(struct callchain_node *n)
{
	n->children_hit = 0;
	n->children_count = 0;
	for (struct callchain_node *c = n->child; c; c = c->sibling) {
		finalize_node(c);
		n->children_hit += callchain_node__cumul_hits(c);
		n->children_count += callchain_node__cumul_counts(c);
	}
}

void callchain_root__finalize(struct callchain_root *root)
{
	finalize_node(&root->node);
}

static void decay_node(struct callchain_node *n)
{
	for (struct callchain_node *c = n->child; c; c = c->sibling)
		decay_node(c);
	n->hit = n->hit * 7 / 8;
}

void callchain_root__decay(struct callchain_root *root)
{
	decay_node(&root->node);
}

const struct callchain_node *callchain_node__run_end(const struct callchain_node *n)
{
	while (!n->hit && n->nr_children == 1)
		n = n->child;
	return n;
}

/* Nodes to order by a value, largest first, equal ones as they came. */
struct ranked {
	const struct callchain_node *node;
	uint64_t value;
	uint32_t seq;
};

static int ranked_cmp(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Sorts v[0..nr) by value (cumulative hits or own hits), stably. */
static void sort_ranked(const struct callchain_node **v, uint32_t nr, bool cumulative)
{
	struct ranked *r;

	if (nr < 2)
		return;
	r = xmalloc(nr * sizeof(*r));
	for (uint32_t i = 0; i < nr; i++)
		r[i] = (struct ranked){ v[i], cumulative ? callchain_node__cumul_hits(v[i]) :
							   v[i]->hit, i };
	qsort(r, nr, sizeof(*r), ranked_cmp);
	for (uint32_t i = 0; i < nr; i++)
		v[i] = r[i].node;
	free(r);
}

/* perf's order: its children's tree in order, then by total, stably. */
uint32_t callchain_node__sorted_children(const struct callchain_node *n, uint64_t min_hit,
					 const struct callchain_node ***out)
{
	const struct callchain_node **v = NULL, *c;
	uint32_t nr = 0;

	if (n->nr_children)
		v = xmalloc(n->nr_children * sizeof(*v));
	for_each_kid(c, n)
		if (callchain_node__cumul_hits(c) >= min_hit)
			v[nr++] = c;
	sort_ranked(v, nr, true);
	*out = v;
	return nr;
}

struct flat_list {
	const struct callchain_node **v;
	uint32_t nr, alloc;
	uint64_t min_hit;
};

/* Post order, siblings in their tree's order, as perf walks them.  A
 * subtree below min_hit in total holds no node to keep. */
static void flat_walk(const struct callchain_node *n, struct flat_list *l)
{
	if (n->frame && callchain_node__cumul_hits(n) < l->min_hit)
		return;
	if (n->nr_children == 1) {
		flat_walk(n->child, l);
	} else if (n->nr_children > 1) {
		const struct callchain_node *c;

		for_each_kid(c, n)
			flat_walk(c, l);
	}
	if (n->hit && n->hit >= l->min_hit) {
		if (l->nr == l->alloc) {
			l->alloc = l->alloc ? l->alloc * 2 : 16;
			l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
		}
		l->v[l->nr++] = n;
	}
}

uint32_t callchain_root__flat(const struct callchain_root *root, uint64_t min_hit,
			      const struct callchain_node ***out)
{
	struct flat_list l = { .min_hit = min_hit };

	flat_walk(&root->node, &l);
	/* by period; equal ones in walk order */
	sort_ranked(l.v, l.nr, false);
	*out = l.v;
	return l.nr;
}

const char *cc_frame__name(const struct cc_frame *f, enum chain_key key, struct strbuf *sb)
{
	bool show_srcline = key != CCKEY_FUNCTION;

	strbuf_reset(sb);
	if (!f->sym)
		strbuf_addf(sb, "%#" PRIx64, f->ip);
	else if (show_srcline && f->srcline)
		strbuf_addf(sb, "%s %s%s", f->sym->name, f->srcline, f->inlined ? " (inlined)" : "");
	else
		strbuf_addf(sb, "%s%s", f->sym->name, f->inlined ? " (inlined)" : "");
	return strbuf_str(sb);
}
