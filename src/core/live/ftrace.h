/* ftrace: the kernel's function tracers driven through tracefs's control files, as perf
 * ftrace drives them: reset to a known state, filters and options written, the tracer
 * chosen, tracing switched on and off, and the state found before put back at the end.
 *
 * Nothing here prints: a failed step is described in a struct ftrace_failure (which file,
 * what was done to it, errno) for the command to explain.
 */
#ifndef PCL_FTRACE_H
#define PCL_FTRACE_H

#include <stdbool.h>

struct cpu_map;

/* The step that failed: file (relative to tracefs) and what was done to it. */
struct ftrace_failure {
	char file[64];
	char value[64]; /* what was being written ("" for open/read) */
	const char *op; /* "open", "read", "write" */
	int err;	/* errno */
};

struct ftrace_strlist {
	char **items;
	int nr;
};

void ftrace_strlist__add(struct ftrace_strlist *list, const char *s);
void ftrace_strlist__free(struct ftrace_strlist *list);

/* What perf ftrace's options ask of tracefs. */
struct ftrace_config {
	const char *tracer;				      /* "function_graph" or "function" */
	struct ftrace_strlist filters;			      /* -T: set_ftrace_filter */
	struct ftrace_strlist notrace;			      /* -N: set_ftrace_notrace */
	struct ftrace_strlist graph_funcs;		      /* -G: set_graph_function */
	struct ftrace_strlist nograph_funcs;		      /* -g: set_graph_notrace */
	bool func_stack_trace, func_irq_info;		      /* --func-opts call-graph,irq-info */
	bool graph_nosleep_time, graph_noirqs, graph_verbose; /* --graph-opts */
	int graph_thresh, graph_depth;
	unsigned long buffer_size; /* -m, bytes; 0: leave as is */
	bool inherit;		   /* --inherit: options/function-fork */
};

/* Where tracefs is (mounting it at /sys/kernel/tracing when nothing is there), or NULL. */
const char *ftrace__tracefs_dir(void);

/* Uses dir as tracefs from now on (a test's directory of plain files). */
void ftrace__use_tracefs_dir(const char *dir);

/*
 * Reads a whole tracefs file into *out (NUL-terminated, caller frees).
 * Returns 0 or -errno, the failure described in *f.
 */
int ftrace__read_file(const char *file, char **out, struct ftrace_failure *f);

/* Called for every write that fails, also those a reset goes on after (perf's -v). */
void ftrace__on_write_failure(void (*note)(const struct ftrace_failure *f));

/* Writes value and a newline to a tracefs file (appending when append), as perf does. */
int ftrace__write_file(const char *file, const char *value, bool append, struct ftrace_failure *f);

/*
 * Whether a control file opens for writing, without changing it (opened to append, closed
 * unwritten): 0 or -errno.  Tells ahead whether a kernel refuses the function tracer.
 */
int ftrace__can_write(const char *file);

/* trace_pipe opened for non-blocking reads: the fd, or -errno. */
int ftrace__open_pipe(struct ftrace_failure *f);

/* Whether tracer is one of available_tracers' words. */
bool ftrace__has_tracer(const char *available, const char *tracer);

/*
 * Remembers the values of the control files pcl changes that are not lists (tracing_on,
 * current_tracer, buffer_size_kb, tracing_cpumask, tracing_thresh, max_graph_depth and the
 * options), so that ftrace__restore() can put them back.
 */
void ftrace__save_state(void);

/*
 * perf's reset: tracing off, the nop tracer, no pid filter, every online CPU, no depth or
 * threshold (then, failures ignored, empty function filters and perf's option defaults).
 * Files only a function_graph kernel has are skipped when missing.  Returns 0 or -errno.
 */
int ftrace__reset(struct ftrace_failure *f);

/*
 * Writes the configuration in perf's order: pids (unless cpus), the cpu mask (cpus not
 * NULL), function options, filters, depth, buffer size, function-fork, graph options,
 * threshold.  Returns 0 or -errno; *what names perf's words for the step that failed.
 */
int ftrace__apply(const struct ftrace_config *c, const int *pids, int nr_pids,
		  const struct cpu_map *cpus, const char **what, struct ftrace_failure *f);

/* tracing_cpumask's text for a CPU list: hex, a comma every 32 CPUs ("3", "1,00000000"). */
char *ftrace__cpumask(const struct cpu_map *cpus);

/* After perf's final reset: writes back the saved values that the reset left different. */
void ftrace__restore(void);

#endif
