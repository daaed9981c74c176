/* probe-trace: the dynamic events of tracefs (uprobe_events and
 * kprobe_events): reading the ones defined, writing a definition, deleting
 * by [GROUP:]EVENT globs.  A definition line is what perf writes:
 *   p:GROUP/EVENT /path:0xOFFSET ARG...   (r: for return probes)
 *   p:GROUP/EVENT SYMBOL+OFF ARG...       (kprobes) */
#ifndef PCL_PROBE_TRACE_H
#define PCL_PROBE_TRACE_H

#include <stdbool.h>
#include <stdint.h>

struct probe_msgs;

struct probe_event {
	bool uprobe;
	bool retprobe;
	char *group, *event;
	char *target;	  /* uprobes: the binary; kprobes: SYMBOL[+OFF] */
	uint64_t offset;  /* uprobes: file offset */
	char **arg_names;	/* the names before '=' */
	int nr_args;
	char *line;	/* the definition as tracefs gives it */
};

/* The tracefs directory (mounted if needed), NULL when there is none. */
const char *probe_tracefs_dir(void);

/* Whether FILE may be read (or written): 0, -EACCES or -ENOENT. */
int probe_tracefs_access(const char *file, bool write);

/* Whether the control file of the kind exists ("uprobe_events"). */
bool probe_tracefs_has(const char *file);

/* perf -v's note as it opens a tracefs file ("uprobe_events"). */
void probe_trace__log_open(struct probe_msgs *msgs, const char *file, bool write);
/* The same for README, which perf reads once a run, when it first needs
 * to know what the kernel's tracer supports. */
void probe_trace__log_readme(struct probe_msgs *msgs);

/* perf -v's notes as it parses an event's definition, as it looks for
 * where a uprobe is (-l), and as it deletes an event. */
void probe_event__log_parse(const struct probe_event *ev, struct probe_msgs *msgs);
void probe_event__log_lookup(const struct probe_event *ev, struct probe_msgs *msgs);
void probe_event__log_delete(const struct probe_event *ev, struct probe_msgs *msgs);

/* The events defined in uprobe_events and kprobe_events. */
int probe_events__read(struct probe_event **events);
void probe_events__free(struct probe_event *events, int nr);

/* Appends one definition line to FILE ("uprobe_events"); 0 or -errno. */
int probe_events__write(const char *file, const char *line);

/* Deletes GROUP/EVENT from FILE; 0 or -errno. */
int probe_events__delete(const char *file, const char *group, const char *event);

/* Whether "[GROUP:]EVENT" (globs; a bare EVENT matches any group) names ev. */
bool probe_event__matches(const struct probe_event *ev, const char *filter);

/* The default group of a binary: "probe_" and its name up to the first
 * dot, other characters than letters, digits and '_' made '_'. */
char *probe_default_group(const char *binary);

#endif
