/* stacks: the trie of weighted call stacks, folded I/O, and the
 * transformations flame graphs need (see stacks.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist/stacks.h"
#include "util/strbuf.h"
#include "util/util.h"

/* What the name table keeps per name. */
struct name_id {
	struct hashmap_str key;
	uint32_t id;
};

struct stacks *stacks__new(bool keep_samples)
{
	struct stacks *st = xcalloc(1, sizeof(*st));

	st->keep_samples = keep_samples;
	hashmap_init(&st->name_ids, sizeof(struct name_id));
	hashmap_init(&st->node_ids, sizeof(uint32_t));
	/* node 0: the root, named "all" like flamegraph.pl's bottom frame */
	stacks__name(st, "all", 3, FRAME_USER);
	st->nodes_alloc = 1024;
	st->nodes = xcalloc(st->nodes_alloc, sizeof(*st->nodes));
	st->nr_nodes = 1;
	return st;
}

void stacks__delete(struct stacks *st)
{
	if (!st)
		return;
	free(st->names);
	free(st->name_kind);
	hashmap_release(&st->name_ids);
	arena_release(&st->name_strings);
	free(st->nodes);
	hashmap_release(&st->node_ids);
	free(st->samples);
	free(st);
}

uint32_t stacks__name(struct stacks *st, const char *name, size_t len, unsigned kind)
{
	bool added;
	struct name_id *n = hashmap_str_findnew(&st->name_ids, name, len, &st->name_strings,
						&added);

	if (!added) {
		st->name_kind[n->id] |= (uint8_t)kind;
		return n->id;
	}
	if (st->nr_names == st->names_alloc) {
		st->names_alloc = st->names_alloc ? st->names_alloc * 2 : 256;
		st->names = xrealloc(st->names, st->names_alloc * sizeof(*st->names));
		st->name_kind = xrealloc(st->name_kind, st->names_alloc);
	}
	n->id = st->nr_names++;
	st->names[n->id] = n->key.str;
	st->name_kind[n->id] = (uint8_t)kind;
	return n->id;
}

static uint32_t node_new(struct stacks *st, uint32_t parent, uint32_t name)
{
	struct stack_node *n;

	if (st->nr_nodes == st->nodes_alloc) {
		st->nodes_alloc *= 2;
		st->nodes = xrealloc(st->nodes, st->nodes_alloc * sizeof(*st->nodes));
	}
	n = &st->nodes[st->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->name = name;
	n->depth = st->nodes[parent].depth + 1;
	return st->nr_nodes++;
}

uint32_t stacks__child(struct stacks *st, uint32_t parent, uint32_t name)
{
	bool added;
	uint32_t *id = hashmap_u64_findnew(&st->node_ids, (uint64_t)parent << 32 | name, &added);

	if (added)
		*id = node_new(st, parent, name);
	return *id;
}

void stacks__add(struct stacks *st, uint32_t node, uint64_t weight, uint64_t time)
{
	st->nodes[node].self += weight;
	st->total += weight;
	if (!st->keep_samples)
		return;
	if (st->nr_samples == st->samples_alloc) {
		st->samples_alloc = st->samples_alloc ? st->samples_alloc * 2 : 4096;
		st->samples = xrealloc(st->samples, st->samples_alloc * sizeof(*st->samples));
	}
	st->samples[st->nr_samples++] = (struct stack_sample){
		.time = time, .weight = weight, .node = node,
	};
}

void stacks__add_base(struct stacks *st, uint32_t node, uint64_t weight)
{
	st->nodes[node].self_base += weight;
	st->total_base += weight;
	st->diff = true;
}

/* Kernel frames in folded text carry perf's "_[k]" annotation. */
static unsigned folded_kind(const char *name, size_t len)
{
	return len >= 4 && !memcmp(name + len - 4, "_[k]", 4) ? FRAME_KERNEL : FRAME_USER;
}

uint32_t stacks__add_path(struct stacks *st, const char *path, size_t len)
{
	uint32_t node = 0;
	const char *p = path, *end = path + len;

	while (p <= end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		size_t n = semi ? (size_t)(semi - p) : (size_t)(end - p);

		node = stacks__child(st, node, stacks__name(st, p, n, folded_kind(p, n)));
		if (!semi)
			break;
		p = semi + 1;
	}
	return node;
}

struct indexed_sample {
	struct stack_sample s;
	size_t i;
};

static int cmp_sample_time(const void *a, const void *b)
{
	const struct indexed_sample *x = a, *y = b;

	if (x->s.time != y->s.time)
		return x->s.time < y->s.time ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

void stacks__sort_samples(struct stacks *st)
{
	struct indexed_sample *tmp;
	size_t i;

	for (i = 1; i < st->nr_samples; i++)
		if (st->samples[i].time < st->samples[i - 1].time)
			break;
	if (i >= st->nr_samples)
		return;
	/* qsort is not stable: the arrival index breaks ties */
	tmp = xmalloc(st->nr_samples * sizeof(*tmp));
	for (i = 0; i < st->nr_samples; i++)
		tmp[i] = (struct indexed_sample){ .s = st->samples[i], .i = i };
	qsort(tmp, st->nr_samples, sizeof(*tmp), cmp_sample_time);
	for (i = 0; i < st->nr_samples; i++)
		st->samples[i] = tmp[i].s;
	free(tmp);
}

/* The path of node (root excluded), outermost first; returns its length. */
static uint32_t node_path(const struct stacks *st, uint32_t node, uint32_t **buf, uint32_t *alloc)
{
	uint32_t depth = st->nodes[node].depth;

	if (depth > *alloc) {
		*alloc = depth * 2;
		*buf = xrealloc(*buf, *alloc * sizeof(**buf));
	}
	for (uint32_t i = depth; i > 0; i--) {
		(*buf)[i - 1] = node;
		node = st->nodes[node].parent;
	}
	return depth;
}

static void append_path(struct strbuf *sb, const struct stacks *st, const uint32_t *path,
			uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(sb, ';');
		strbuf_addstr(sb, st->names[st->nodes[path[i]].name]);
	}
}

struct folded_line {
	char *text;		/* the stack */
	uint64_t self, base;
};

static int cmp_line(const void *a, const void *b)
{
	const struct folded_line *x = a, *y = b;

	return strcmp(x->text, y->text);
}

int stacks__write_folded(const struct stacks *st, FILE *out)
{
	struct folded_line *lines = NULL;
	size_t n = 0, alloc = 0;
	uint32_t *path = NULL, path_alloc = 0;
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	for (uint32_t i = 1; i < st->nr_nodes; i++) {
		const struct stack_node *node = &st->nodes[i];
		uint32_t len;

		if (!node->self && !node->self_base)
			continue;
		len = node_path(st, i, &path, &path_alloc);
		strbuf_reset(&sb);
		append_path(&sb, st, path, len);
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			lines = xrealloc(lines, alloc * sizeof(*lines));
		}
		lines[n++] = (struct folded_line){
			.text = strbuf_detach(&sb), .self = node->self, .base = node->self_base,
		};
	}
	/* stackcollapse sorts the stacks (its hash keys) by byte value */
	if (n)
		qsort(lines, n, sizeof(*lines), cmp_line);
	for (size_t i = 0; i < n; i++) {
		if (st->diff)
			fprintf(out, "%s %llu %llu\n", lines[i].text,
				(unsigned long long)lines[i].base, (unsigned long long)lines[i].self);
		else
			fprintf(out, "%s %llu\n", lines[i].text, (unsigned long long)lines[i].self);
		free(lines[i].text);
	}
	if (ferror(out) || fflush(out))
		ret = -1;
	free(lines);
	free(path);
	strbuf_release(&sb);
	return ret;
}

/* A count at the end of s[0..*len): digits with an optional fraction,
 * preceded by whitespace.  Shrinks *len to the text before it. */
static bool take_count(const char *s, size_t *len, uint64_t *count)
{
	size_t e = *len, b;
	char buf[64];

	while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
		e--;
	b = e;
	while (b > 0 && (isdigit((unsigned char)s[b - 1]) || s[b - 1] == '.'))
		b--;
	if (b == e || b == 0 || !isdigit((unsigned char)s[b]) || e - b >= sizeof(buf))
		return false;
	if (s[b - 1] != ' ' && s[b - 1] != '\t')
		return false;
	memcpy(buf, s + b, e - b);
	buf[e - b] = 0;
	if (strchr(buf, '.')) {
		char *end;
		double v = strtod(buf, &end);

		if (*end || strchr(strchr(buf, '.') + 1, '.'))
			return false;
		*count = (uint64_t)llround(v);
	} else {
		errno = 0;
		*count = strtoull(buf, NULL, 10);
		if (errno)
			return false;
	}
	while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '\t'))
		b--;
	*len = b;
	return true;
}

int stacks__read_folded(struct stacks *st, FILE *in, bool base, char **err)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0, good = 0, bad = 0;
	ssize_t got;

	while ((got = getline(&line, &cap, in)) >= 0) {
		size_t len = (size_t)got;
		uint64_t c1, c2;
		uint32_t node;

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		if (!len)
			continue;
		if (!take_count(line, &len, &c2) || !len) {
			bad++;
			continue;
		}
		good++;
		if (take_count(line, &len, &c1) && len) {
			/* difffolded: "stack BASE NEW" */
			node = stacks__add_path(st, line, len);
			stacks__add_base(st, node, c1);
			stacks__add(st, node, c2, lineno);
			continue;
		}
		node = stacks__add_path(st, line, len);
		if (base)
			stacks__add_base(st, node, c2);
		else
			stacks__add(st, node, c2, lineno);
	}
	free(line);
	if (ferror(in)) {
		*err = xasprintf("read error: %s", strerror(errno));
		return -1;
	}
	if (!good && bad) {
		*err = xasprintf("no folded stacks found (%zu lines not of the form 'a;b;c COUNT')",
				 bad);
		return -1;
	}
	return 0;
}

/* Copies kind bits of a name into another stacks. */
static uint32_t copy_name(struct stacks *dst, const struct stacks *src, uint32_t name)
{
	const char *s = src->names[name];

	return stacks__name(dst, s, strlen(s), src->name_kind[name]);
}

struct stacks *stacks__reversed(const struct stacks *st)
{
	struct stacks *r = stacks__new(st->keep_samples);
	uint32_t *map = xcalloc(st->nr_nodes, sizeof(*map));
	uint32_t *path = NULL, alloc = 0;

	r->timed = st->timed;
	for (uint32_t i = 1; i < st->nr_nodes; i++) {
		uint32_t len, node = 0;

		if (!st->nodes[i].self && !st->nodes[i].self_base)
			continue;
		len = node_path(st, i, &path, &alloc);
		for (uint32_t k = len; k > 0; k--)
			node = stacks__child(r, node, copy_name(r, st, st->nodes[path[k - 1]].name));
		map[i] = node;
		if (st->nodes[i].self_base)
			stacks__add_base(r, node, st->nodes[i].self_base);
		if (!st->keep_samples)
			stacks__add(r, node, st->nodes[i].self, 0);
	}
	r->diff = st->diff;
	/* kept samples carry all the (new) weight: replay them */
	for (size_t i = 0; i < st->nr_samples; i++)
		stacks__add(r, map[st->samples[i].node], st->samples[i].weight,
			    st->samples[i].time);
	free(map);
	free(path);
	return r;
}

struct stacks *stacks__chart(const struct stacks *st)
{
	struct stacks *c = stacks__new(true);
	uint32_t *last_child = xcalloc(1, sizeof(*last_child));
	uint32_t *path = NULL, alloc = 0, last_alloc = 1;

	c->timed = st->timed;
	for (size_t i = 0; i < st->nr_samples; i++) {
		const struct stack_sample *s = &st->samples[i];
		uint32_t len = node_path(st, s->node, &path, &alloc), node = 0;

		for (uint32_t k = 0; k < len; k++) {
			uint32_t name = copy_name(c, st, st->nodes[path[k]].name);
			uint32_t last = last_child[node];

			if (last && c->nodes[last].name == name) {
				node = last;
				continue;
			}
			/* a new run: siblings may repeat names, so no hash look-up */
			last = node_new(c, node, name);
			if (c->nr_nodes > last_alloc) {
				uint32_t old = last_alloc;

				last_alloc = c->nodes_alloc;
				last_child = xrealloc(last_child, last_alloc * sizeof(*last_child));
				memset(last_child + old, 0, (last_alloc - old) * sizeof(*last_child));
			}
			last_child[node] = last;
			node = last;
		}
		stacks__add(c, node, s->weight, s->time);
	}
	free(last_child);
	free(path);
	return c;
}

void stacks__merge_base(struct stacks *st, const struct stacks *base)
{
	uint32_t *map = xcalloc(base->nr_nodes, sizeof(*map));

	/* parents come before children: map them first */
	for (uint32_t i = 1; i < base->nr_nodes; i++) {
		const struct stack_node *n = &base->nodes[i];

		map[i] = stacks__child(st, map[n->parent], copy_name(st, base, n->name));
		if (n->self)
			stacks__add_base(st, map[i], n->self);
	}
	st->diff = true;
	free(map);
}

void stacks__normalize_base(struct stacks *st)
{
	double scale;
	uint64_t total = 0;

	if (!st->total_base)
		return;
	scale = (double)st->total / (double)st->total_base;
	for (uint32_t i = 0; i < st->nr_nodes; i++) {
		st->nodes[i].self_base = (uint64_t)llround((double)st->nodes[i].self_base * scale);
		total += st->nodes[i].self_base;
	}
	st->total_base = total;
}

static int cmp_child_name(const void *a, const void *b, void *arg)
{
	const struct stacks *st = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(st->names[st->nodes[x].name], st->names[st->nodes[y].name]);

	return c ? c : (x > y) - (x < y);
}

void stack_tree__build(struct stack_tree *t, const struct stacks *st, bool by_name)
{
	uint32_t n = st->nr_nodes, *fill;

	memset(t, 0, sizeof(*t));
	t->total = xcalloc(n, sizeof(*t->total));
	t->total_base = xcalloc(n, sizeof(*t->total_base));
	t->first_child = xcalloc(n + 1, sizeof(*t->first_child));
	t->children = xcalloc(n, sizeof(*t->children));
	/* children always have larger ids than their parent */
	for (uint32_t i = n; i-- > 0;) {
		t->total[i] += st->nodes[i].self;
		t->total_base[i] += st->nodes[i].self_base;
		if (i) {
			t->total[st->nodes[i].parent] += t->total[i];
			t->total_base[st->nodes[i].parent] += t->total_base[i];
			t->first_child[st->nodes[i].parent + 1]++;
		}
		if (st->nodes[i].depth > t->max_depth)
			t->max_depth = st->nodes[i].depth;
	}
	for (uint32_t i = 0; i < n; i++)
		t->first_child[i + 1] += t->first_child[i];
	fill = xmalloc(n * sizeof(*fill));
	memcpy(fill, t->first_child, n * sizeof(*fill));
	for (uint32_t i = 1; i < n; i++)
		t->children[fill[st->nodes[i].parent]++] = i;
	free(fill);
	if (!by_name)
		return;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = t->first_child[i], b = t->first_child[i + 1];

		if (b - a > 1)
			qsort_r(t->children + a, b - a, sizeof(*t->children), cmp_child_name,
				(void *)st);
	}
}

void stack_tree__exit(struct stack_tree *t)
{
	free(t->total);
	free(t->total_base);
	free(t->first_child);
	free(t->children);
	memset(t, 0, sizeof(*t));
}
