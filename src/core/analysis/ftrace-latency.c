/* ftrace-latency: function_graph text into perf ftrace latency's log2 histogram. */
#include "core/analysis/ftrace-latency.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct ftrace_call_stack {
	char **names;
	int depth, size;
};

/* The text of the FUNCTION CALLS column: after the last '|', spaces trimmed. */
static void function_column(const char *line, const char **start, size_t *len)
{
	const char *bar = strrchr(line, '|');
	const char *s = bar ? bar + 1 : line;
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	*start = s;
	*len = n;
}

static void set_func(struct ftrace_graph_line *out, const char *text, size_t len)
{
	const char *paren = memchr(text, '(', len);
	size_t n = paren ? (size_t)(paren - text) : len;

	if (n >= sizeof(out->func))
		n = sizeof(out->func) - 1;
	memcpy(out->func, text, n);
	out->func[n] = '\0';
}

void ftrace_graph__parse_line(const char *line, struct ftrace_graph_line *out)
{
	const char *cpu_end, *p, *text;
	size_t len;

	memset(out, 0, sizeof(*out));
	out->cpu = -1;
	if (line[0] == '#')
		return;
	cpu_end = strchr(line, ')');
	if (cpu_end) {
		const char *d = line;

		while (*d == ' ')
			d++;
		if (isdigit((unsigned char)*d))
			out->cpu = atoi(d);
	}
	/* the duration as perf reads it: the first number after the CPU, in " us" */
	for (p = cpu_end ? cpu_end : line; *p && !isdigit((unsigned char)*p) && *p != '|'; p++)
		;
	if (isdigit((unsigned char)*p)) {
		char *unit;
		double num = strtod(p, &unit);

		if (!strncmp(unit, " us", 3)) {
			out->has_duration = true;
			out->duration = num;
		}
	}
	function_column(line, &text, &len);
	if (len && text[0] == '}') {
		out->kind = FTRACE_GRAPH_EXIT;
	} else if (len > 2 && memchr(text, '(', len) && !strncmp(text + len - 2, ");", 2)) {
		out->kind = FTRACE_GRAPH_LEAF;
		set_func(out, text, len);
	} else if (len > 1 && memchr(text, '(', len) && text[len - 1] == '{') {
		out->kind = FTRACE_GRAPH_ENTRY;
		set_func(out, text, len);
	}
}

int ftrace_latency__bucket(double duration_us, bool use_nsec)
{
	double num = use_nsec ? duration_us * 1000 : duration_us;
	int i;

	if (!(num > 0))
		return 0;
	/* perf truncates log2 toward zero: durations below 2 share the first bucket */
	i = (int)log2(num);
	if (i < 0)
		return 0;
	return i >= FTRACE_LATENCY_BUCKETS ? FTRACE_LATENCY_BUCKETS - 1 : i;
}

void ftrace_latency__init(struct ftrace_latency *lat, bool use_nsec)
{
	memset(lat, 0, sizeof(*lat));
	lat->use_nsec = use_nsec;
}

static struct ftrace_call_stack *stack_of(struct ftrace_latency *lat, int cpu)
{
	if (cpu < 0)
		cpu = 0;
	if (cpu >= lat->nr_stacks) {
		lat->stacks = xrealloc(lat->stacks, (cpu + 1) * sizeof(*lat->stacks));
		memset(lat->stacks + lat->nr_stacks, 0,
		       (cpu + 1 - lat->nr_stacks) * sizeof(*lat->stacks));
		lat->nr_stacks = cpu + 1;
	}
	return &lat->stacks[cpu];
}

static void take_line(struct ftrace_latency *lat, const char *line)
{
	struct ftrace_graph_line gl;
	struct ftrace_call_stack *stack;
	char *exited = NULL;

	ftrace_graph__parse_line(line, &gl);
	if (gl.kind == FTRACE_GRAPH_ENTRY || gl.kind == FTRACE_GRAPH_EXIT) {
		stack = stack_of(lat, gl.cpu);
		if (gl.kind == FTRACE_GRAPH_ENTRY) {
			if (stack->depth == stack->size) {
				stack->size = stack->size ? 2 * stack->size : 16;
				stack->names = xrealloc(stack->names,
							stack->size * sizeof(*stack->names));
			}
			stack->names[stack->depth++] = xstrdup(gl.func);
		} else if (stack->depth) {
			exited = stack->names[--stack->depth];
		} else {
			lat->unmatched_exits++;
		}
	}
	if (gl.has_duration) {
		lat->buckets[ftrace_latency__bucket(gl.duration, lat->use_nsec)]++;
		if (gl.kind == FTRACE_GRAPH_LEAF || gl.kind == FTRACE_GRAPH_EXIT) {
			lat->calls++;
			if (lat->on_call)
				lat->on_call(lat->arg, gl.cpu,
					     gl.kind == FTRACE_GRAPH_LEAF ? gl.func : exited,
					     gl.duration);
		}
	}
	free(exited);
}

void ftrace_latency__feed(struct ftrace_latency *lat, const char *data, size_t len)
{
	const char *end = data + len;

	while (data < end) {
		const char *nl = memchr(data, '\n', (size_t)(end - data));
		size_t n = (size_t)((nl ? nl : end) - data);

		lat->partial = xrealloc(lat->partial, lat->partial_len + n + 1);
		memcpy(lat->partial + lat->partial_len, data, n);
		lat->partial_len += n;
		lat->partial[lat->partial_len] = '\0';
		if (!nl)
			break;
		take_line(lat, lat->partial);
		lat->partial_len = 0;
		data = nl + 1;
	}
}

void ftrace_latency__exit(struct ftrace_latency *lat)
{
	for (int c = 0; c < lat->nr_stacks; c++) {
		for (int i = 0; i < lat->stacks[c].depth; i++)
			free(lat->stacks[c].names[i]);
		free(lat->stacks[c].names);
	}
	free(lat->stacks);
	free(lat->partial);
	memset(lat, 0, sizeof(*lat));
}

unsigned long ftrace_latency__total(const struct ftrace_latency *lat)
{
	unsigned long total = 0;

	for (int i = 0; i < FTRACE_LATENCY_BUCKETS; i++)
		total += lat->buckets[i];
	return total;
}
