/* ftrace: tracefs's function-tracer control files, written in perf ftrace's order. */
#include "core/live/ftrace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "core/events/cpumap.h"
#include "util/strbuf.h"
#include "util/util.h"

void ftrace_strlist__add(struct ftrace_strlist *list, const char *s)
{
	list->items = xrealloc(list->items, (list->nr + 1) * sizeof(*list->items));
	list->items[list->nr++] = xstrdup(s);
}

void ftrace_strlist__free(struct ftrace_strlist *list)
{
	for (int i = 0; i < list->nr; i++)
		free(list->items[i]);
	free(list->items);
	list->items = NULL;
	list->nr = 0;
}

static const char *found_dir;

void ftrace__use_tracefs_dir(const char *dir)
{
	found_dir = dir;
}

const char *ftrace__tracefs_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (int pass = 0; pass < 2 && !found_dir; pass++) {
		for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs) && !found_dir; i++) {
			char *readme = xasprintf("%s/README", dirs[i]);

			/* a tracefs we may not enter (not root) is there all the same */
			if (!access(readme, F_OK) || errno == EACCES)
				found_dir = dirs[i];
			free(readme);
		}
		/* an empty /sys/kernel/tracing: mount tracefs there, as perf does */
		if (!found_dir && !pass)
			mount("nodev", dirs[0], "tracefs", 0, NULL);
	}
	return found_dir;
}

static int fail(struct ftrace_failure *f, const char *op, const char *file, const char *value,
		int err)
{
	if (f) {
		snprintf(f->file, sizeof(f->file), "%s", file);
		snprintf(f->value, sizeof(f->value), "%s", value ? value : "");
		f->op = op;
		f->err = err;
	}
	return -err;
}

static char *path_of(const char *file)
{
	const char *dir = ftrace__tracefs_dir();

	return dir ? xasprintf("%s/%s", dir, file) : NULL;
}

int ftrace__read_file(const char *file, char **out, struct ftrace_failure *f)
{
	char *path = path_of(file);
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	ssize_t n;
	int fd;

	*out = NULL;
	if (!path)
		return fail(f, "open", file, NULL, ENOENT);
	fd = open(path, O_RDONLY);
	free(path);
	if (fd < 0)
		return fail(f, "open", file, NULL, errno);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(&sb, buf, (size_t)n);
	if (n < 0) {
		int err = errno;

		close(fd);
		strbuf_release(&sb);
		return fail(f, "read", file, NULL, err);
	}
	close(fd);
	*out = strbuf_detach(&sb);
	return 0;
}

static void (*write_failure_note)(const struct ftrace_failure *f);

void ftrace__on_write_failure(void (*note)(const struct ftrace_failure *f))
{
	write_failure_note = note;
}

static int write_failed(struct ftrace_failure *f, const char *op, const char *file,
			const char *value, int err)
{
	struct ftrace_failure mine;

	fail(&mine, op, file, value, err);
	if (write_failure_note)
		write_failure_note(&mine);
	if (f)
		*f = mine;
	return -err;
}

int ftrace__write_file(const char *file, const char *value, bool append, struct ftrace_failure *f)
{
	char *path = path_of(file), *line;
	size_t len;
	int fd, ret = 0;

	if (!path)
		return write_failed(f, "open", file, value, ENOENT);
	fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	free(path);
	if (fd < 0)
		return write_failed(f, "open", file, value, errno);
	/* with its newline, so that the kernel reports a bad value rather than waiting */
	line = xasprintf("%s\n", value);
	len = strlen(line);
	if (write(fd, line, len) != (ssize_t)len)
		ret = write_failed(f, "write", file, value, errno ? errno : EIO);
	free(line);
	close(fd);
	return ret;
}

int ftrace__can_write(const char *file)
{
	char *path = path_of(file);
	int fd;

	if (!path)
		return -ENOENT;
	fd = open(path, O_WRONLY | O_APPEND);
	free(path);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int ftrace__open_pipe(struct ftrace_failure *f)
{
	char *path = path_of("trace_pipe");
	int fd;

	if (!path)
		return fail(f, "open", "trace_pipe", NULL, ENOENT);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	free(path);
	return fd < 0 ? fail(f, "open", "trace_pipe", NULL, errno) : fd;
}

bool ftrace__has_tracer(const char *available, const char *tracer)
{
	size_t len = strlen(tracer);

	for (const char *p = available; p && *p;) {
		size_t word = strcspn(p, " \t\n");

		if (word == len && !strncmp(p, tracer, len))
			return true;
		p += word;
		p += strspn(p, " \t\n");
	}
	return false;
}

char *ftrace__cpumask(const struct cpu_map *cpus)
{
	struct strbuf sb = STRBUF_INIT;
	int last = 0, nibbles;

	for (int i = 0; i < cpus->nr; i++)
		if (cpus->map[i] > last)
			last = cpus->map[i];
	nibbles = last / 4 + 1;
	for (int n = nibbles - 1; n >= 0; n--) {
		int bits = 0;

		for (int i = 0; i < cpus->nr; i++)
			if (cpus->map[i] >= 0 && cpus->map[i] / 4 == n)
				bits |= 1 << (cpus->map[i] % 4);
		strbuf_addch(&sb, "0123456789abcdef"[bits]);
		if (n && n % 8 == 0)
			strbuf_addch(&sb, ',');
	}
	return strbuf_detach(&sb);
}

/* The options perf ftrace sets, with the values its reset writes. */
static const struct {
	const char *name, *reset;
} perf_options[] = {
	{ "options/function-fork", "0" },  { "options/func_stack_trace", "0" },
	{ "options/sleep-time", "1" },	   { "options/funcgraph-irqs", "1" },
	{ "options/funcgraph-proc", "0" }, { "options/funcgraph-abstime", "0" },
	{ "options/latency-format", "0" }, { "options/irq-info", "0" },
};

#define NR_OPTIONS (sizeof(perf_options) / sizeof(*perf_options))

/* The saved state: restored in this order, tracing_on last. */
static const char *const saved_files[] = {
	"tracing_cpumask", "max_graph_depth", "tracing_thresh",
	"buffer_size_kb",  "current_tracer",  "tracing_on",
};

#define NR_SAVED (sizeof(saved_files) / sizeof(*saved_files))

static char *saved_values[NR_SAVED + NR_OPTIONS];
static bool state_saved;

static const char *saved_name(size_t i)
{
	return i < NR_OPTIONS ? perf_options[i].name : saved_files[i - NR_OPTIONS];
}

/* A control file's value: its first word ("7 (expanded: 1408)" gives 1408, the size a
 * first use expands the buffer to), or NULL if unreadable. */
static char *current_value(const char *file)
{
	char *text, *value, *expanded;

	if (ftrace__read_file(file, &text, NULL))
		return NULL;
	expanded = strstr(text, "(expanded: ");
	if (expanded)
		value = xstrndup(expanded + 11, strcspn(expanded + 11, ")"));
	else
		value = xstrndup(text, strcspn(text, " \n"));
	free(text);
	return value;
}

void ftrace__save_state(void)
{
	for (size_t i = 0; i < NR_SAVED + NR_OPTIONS; i++) {
		free(saved_values[i]);
		saved_values[i] = current_value(saved_name(i));
	}
	state_saved = true;
}

void ftrace__restore(void)
{
	if (!state_saved)
		return;
	for (size_t i = 0; i < NR_SAVED + NR_OPTIONS; i++) {
		char *now;

		if (!saved_values[i])
			continue;
		now = current_value(saved_name(i));
		if (now && strcmp(now, saved_values[i]))
			ftrace__write_file(saved_name(i), saved_values[i], false, NULL);
		free(now);
		free(saved_values[i]);
		saved_values[i] = NULL;
	}
	state_saved = false;
}

/* A write a kernel without function_graph cannot take (the file is missing) is no error
 * for a reset: there is nothing to reset. */
static int reset_write(const char *file, const char *value, struct ftrace_failure *f)
{
	int ret = ftrace__write_file(file, value, false, f);

	return ret == -ENOENT ? 0 : ret;
}

int ftrace__reset(struct ftrace_failure *f)
{
	static const char *const filter_files[] = {
		"set_ftrace_filter",
		"set_ftrace_notrace",
		"set_graph_function",
		"set_graph_notrace",
	};
	struct cpu_map *online;
	char *mask;
	int ret;

	ret = ftrace__write_file("tracing_on", "0", false, f);
	if (!ret)
		ret = ftrace__write_file("current_tracer", "nop", false, f);
	if (!ret)
		ret = ftrace__write_file("set_ftrace_pid", " ", false, f);
	if (ret)
		return ret;
	online = cpu_map__new_online();
	if (!online)
		return fail(f, "read", "/sys/devices/system/cpu/online", NULL, errno ? errno : EIO);
	mask = ftrace__cpumask(online);
	cpu_map__delete(online);
	ret = ftrace__write_file("tracing_cpumask", mask, false, f);
	free(mask);
	if (!ret)
		ret = reset_write("max_graph_depth", "0", f);
	if (!ret)
		ret = ftrace__write_file("tracing_thresh", "0", false, f);
	if (ret)
		return ret;
	for (size_t i = 0; i < sizeof(filter_files) / sizeof(*filter_files); i++)
		ftrace__write_file(filter_files[i], " ", false, NULL);
	for (size_t i = 0; i < NR_OPTIONS; i++)
		ftrace__write_file(perf_options[i].name, perf_options[i].reset, false, NULL);
	return 0;
}

static int append_all(const char *file, const struct ftrace_strlist *list, struct ftrace_failure *f)
{
	for (int i = 0; i < list->nr; i++) {
		int ret = ftrace__write_file(file, list->items[i], true, f);

		if (ret)
			return ret;
	}
	return 0;
}

static int set_filters(const struct ftrace_config *c, struct ftrace_failure *f)
{
	int ret = append_all("set_ftrace_filter", &c->filters, f);

	if (!ret)
		ret = append_all("set_ftrace_notrace", &c->notrace, f);
	if (!ret)
		ret = append_all("set_graph_function", &c->graph_funcs, f);
	/* older kernels lack set_graph_notrace: perf goes on without it */
	if (!ret)
		append_all("set_graph_notrace", &c->nograph_funcs, NULL);
	return ret;
}

static int set_int(const char *file, long value, bool append, struct ftrace_failure *f)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", value);
	return ftrace__write_file(file, buf, append, f);
}

int ftrace__apply(const struct ftrace_config *c, const int *pids, int nr_pids,
		  const struct cpu_map *cpus, const char **what, struct ftrace_failure *f)
{
	int ret = 0;

#define STEP(cond, words, expr)          \
	do {                             \
		if (!ret && (cond)) {    \
			*what = (words); \
			ret = (expr);    \
		}                        \
	} while (0)

	for (int i = 0; !cpus && i < nr_pids; i++)
		STEP(true, "failed to set ftrace pid", set_int("set_ftrace_pid", pids[i], true, f));
	if (cpus) {
		char *mask = ftrace__cpumask(cpus);

		STEP(true, "failed to set tracing cpumask",
		     ftrace__write_file("tracing_cpumask", mask, false, f));
		free(mask);
	}
	STEP(c->func_stack_trace, "failed to set tracing option func_stack_trace",
	     ftrace__write_file("options/func_stack_trace", "1", false, f));
	STEP(c->func_irq_info, "failed to set tracing option irq-info",
	     ftrace__write_file("options/irq-info", "1", false, f));
	STEP(true, "failed to set tracing filters", set_filters(c, f));
	STEP(c->graph_depth, "failed to set graph depth",
	     set_int("max_graph_depth", c->graph_depth, false, f));
	STEP(c->buffer_size, "failed to set tracing per-cpu buffer size",
	     set_int("buffer_size_kb", (long)(c->buffer_size / 1024), false, f));
	STEP(c->inherit, "failed to set tracing option function-fork",
	     ftrace__write_file("options/function-fork", "1", false, f));
	STEP(c->graph_nosleep_time, "failed to set tracing option sleep-time",
	     ftrace__write_file("options/sleep-time", "0", false, f));
	STEP(c->graph_noirqs, "failed to set tracing option funcgraph-irqs",
	     ftrace__write_file("options/funcgraph-irqs", "0", false, f));
	STEP(c->graph_verbose, "failed to set tracing option funcgraph-proc/funcgraph-abstime",
	     ftrace__write_file("options/funcgraph-proc", "1", false, f));
	STEP(c->graph_verbose, "failed to set tracing option funcgraph-proc/funcgraph-abstime",
	     ftrace__write_file("options/funcgraph-abstime", "1", false, f));
	STEP(c->graph_verbose, "failed to set tracing option funcgraph-proc/funcgraph-abstime",
	     ftrace__write_file("options/latency-format", "1", false, f));
	STEP(c->graph_thresh, "failed to set tracing thresh",
	     set_int("tracing_thresh", c->graph_thresh, false, f));
#undef STEP
	return ret;
}
