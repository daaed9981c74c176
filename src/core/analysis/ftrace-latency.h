/* ftrace-latency: perf ftrace latency's histogram of function durations, read from the
 * function_graph tracer's text (trace_pipe).
 *
 * Each line is "CPU) DURATION | FUNCTION CALLS":
 *    1)   1.234 us    |  vfs_read();        a call without traced callees
 *    1)               |  vfs_read() {       a call's entry
 *    1) + 12.34 us    |  }                  its exit, with the call's duration
 * Entries and exits pair up on a stack per CPU, which names each exit.  A completed call
 * (a leaf, or an exit) with a duration counts in bucket log2(duration) of 22, in
 * microseconds (nanoseconds with use_nsec), as perf counts them: below 1 and up to the
 * first bucket, from 2^20 (about a second, or a millisecond) in the last.
 */
#ifndef PCL_FTRACE_LATENCY_H
#define PCL_FTRACE_LATENCY_H

#include <stdbool.h>
#include <stddef.h>

#define FTRACE_LATENCY_BUCKETS 22

enum ftrace_graph_kind {
	FTRACE_GRAPH_OTHER, /* a comment, a marker ("=>"), a blank line */
	FTRACE_GRAPH_LEAF,  /* "func();" */
	FTRACE_GRAPH_ENTRY, /* "func() {" */
	FTRACE_GRAPH_EXIT,  /* "}" */
};

/* One line of function_graph text, taken apart. */
struct ftrace_graph_line {
	enum ftrace_graph_kind kind;
	int cpu; /* -1 when the line has no "N)" */
	bool has_duration;
	double duration; /* microseconds, as the kernel prints them */
	char func[128];	 /* leaf and entry: the function; exit: "" (see below) */
};

/*
 * Takes one line (without its newline) apart.  Never fails: a line that is not a call is
 * FTRACE_GRAPH_OTHER.  The duration is the number perf ftrace latency reads: the first
 * number after the CPU, when " us" follows it.
 */
void ftrace_graph__parse_line(const char *line, struct ftrace_graph_line *out);

/* The bucket of a duration in microseconds (use_nsec: counted in nanoseconds). */
int ftrace_latency__bucket(double duration_us, bool use_nsec);

struct ftrace_call_stack;

struct ftrace_latency {
	bool use_nsec;
	unsigned long buckets[FTRACE_LATENCY_BUCKETS];
	unsigned long calls;	       /* completed calls seen (leaves and exits) */
	unsigned long unmatched_exits; /* exits of calls entered before the trace began */
	char *partial;		       /* a line not yet ended by a newline (perf never
					 * counts a last line without one) */
	size_t partial_len;
	struct ftrace_call_stack *stacks; /* open calls, per CPU */
	int nr_stacks;
	/* called for each completed call, with the function's name when known */
	void (*on_call)(void *arg, int cpu, const char *func, double duration_us);
	void *arg;
};

void ftrace_latency__init(struct ftrace_latency *lat, bool use_nsec);

/* Feeds trace text in any chunks; lines are completed across calls. */
void ftrace_latency__feed(struct ftrace_latency *lat, const char *data, size_t len);

void ftrace_latency__exit(struct ftrace_latency *lat);

/* Sum of the buckets. */
unsigned long ftrace_latency__total(const struct ftrace_latency *lat);

#endif
