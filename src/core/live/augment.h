/* augment: the user strings of syscalls' pathname arguments, read in the
 * kernel by a small BPF program of pcl's own (pcl trace).
 *
 * raw_syscalls:sys_enter carries a pathname as a pointer only.  A program,
 * attached to that tracepoint, looks the syscall id up in a table of which
 * arguments (at most two) are pathnames, copies them with
 * bpf_probe_read_user_str() (up to AUGMENT_STR_MAX bytes each, as perf's
 * augmenter's PATH_MAX buffers) and writes a record (pid/tid, id, the six
 * arguments, the strings) to a BPF ring buffer.  It returns 1, so every perf
 * event on the tracepoint still gets its sample; the record is written
 * before the sample, so a sample read from a ring always finds its record
 * already in the BPF ring.
 *
 * bpf_probe_read_user_str() cannot fault a page in: when a read fails at
 * the entry, the record's header is kept per thread in a BPF map and a
 * second program, on raw_syscalls:sys_exit, reads the strings again (the
 * kernel brought their pages in) and writes a record marked late; the
 * trace asks for it at the call's exit (not for execve: AUGMENT_SPEC_NO_LATE).
 *
 * A syscall whose spec has AUGMENT_SPEC_SOCKADDR (connect, bind, sendto)
 * has a struct sockaddr instead: its length argument's worth of bytes (up
 * to AUGMENT_SOCKADDR_MAX) copied with bpf_probe_read_user().
 *
 * The programs are raw BPF instructions built here (no compiler at build
 * time) and loaded with the bpf(2) syscall itself.  Records are kept per
 * thread in their order; augment__take() matches a sys_enter to the oldest
 * record of its thread with the same id and arguments and drops the older
 * ones (calls whose samples were filtered out or lost).  The program
 * sees every task's calls: records of tasks not traced are dropped once
 * AUGMENT_KEEP_MS old (augment__prune()), and a thread keeps at most
 * AUGMENT_QUEUE_MAX (samples read from the rings lag the records by a few
 * rounds at most, far less than either).
 */
#ifndef PCL_AUGMENT_H
#define PCL_AUGMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define AUGMENT_NR_ARGS 6
/* bytes copied per string, its NUL included: longer strings are cut */
#define AUGMENT_STR_MAX 4096
/* how long a record waits for its sample, and how many a thread keeps */
#define AUGMENT_KEEP_MS 10000
#define AUGMENT_QUEUE_MAX 8192

/* in a spec: no second read at the exit (execve: another address space) */
#define AUGMENT_SPEC_NO_LATE	(1u << 16)
/* in a record's spec: read at the exit */
#define AUGMENT_SPEC_LATE	(1u << 17)
/* in a spec: the first argument is a struct sockaddr, the second its
 * length; up to AUGMENT_SOCKADDR_MAX bytes of it are copied */
#define AUGMENT_SPEC_SOCKADDR	(1u << 18)
/* a struct sockaddr_storage */
#define AUGMENT_SOCKADDR_MAX	128

/* What the table says of a syscall: the indexes of its (up to two) pathname
 * arguments, each plus one in a byte, 0 for none. */
static inline uint32_t augment__spec(int first_arg, int second_arg)
{
	return (uint32_t)(first_arg + 1) | (second_arg >= 0 ? (uint32_t)(second_arg + 1) << 8 : 0);
}

struct augment;

/* Creates the maps and loads the programs: specs[nr] for syscall ids 0 ..
 * nr_specs - 1, records of task group self left out.  NULL on failure, with
 * why (the error, the verifier's first words) in why[why_size]. */
struct augment *augment__new(const uint32_t *specs, int nr_specs, pid_t self, char *why,
			     size_t why_size);
/* No BPF: records come from augment__feed() alone (unit tests). */
struct augment *augment__new_unloaded(void);
void augment__delete(struct augment *a);

/* The kernel addresses of the programs' functions (as /proc/kallsyms lists
 * them, under "[bpf]"), at most max of them in addrs; how many. */
size_t augment__ksyms(const struct augment *a, uint64_t *addrs, size_t max);

/* Attaches the programs to the tracepoints of ids enter_id and exit_id
 * (raw_syscalls:sys_enter's and sys_exit's) through perf events of their
 * own; 0 or -errno. */
int augment__attach(struct augment *a, uint64_t enter_id, uint64_t exit_id);

/* Moves the BPF ring's records to the threads' queues. */
void augment__drain(struct augment *a);
/* Drops the records older than AUGMENT_KEEP_MS (at most every quarter of
 * that: call it as often as is convenient). */
void augment__prune(struct augment *a);

/* One record as the program writes it (host byte order): pid_tgid, id,
 * args[6], spec, the two strings' lengths (helper results: bytes with the
 * NUL, or -errno), padding, then the strings, the second right after the
 * first (a failed read takes no room).  False when it is too short. */
#define AUGMENT_REC_PID_TGID	0
#define AUGMENT_REC_ID		8
#define AUGMENT_REC_ARGS	16
#define AUGMENT_REC_SPEC	64
#define AUGMENT_REC_LEN0	68
#define AUGMENT_REC_LEN1	72
#define AUGMENT_REC_STR		80
/* the most a record takes */
#define AUGMENT_REC_SIZE	(AUGMENT_REC_STR + 2 * AUGMENT_STR_MAX)

bool augment__feed(struct augment *a, const void *rec, size_t size);

/* The strings of thread tid's call id with args, read at its entry or,
 * late, at its exit: strs[i] is argument i's string or NULL (a sockaddr:
 * AUGMENT_SOCKADDR_MAX bytes, those not read zero).  They stay valid until
 * the next take.  False when no record matches (the BPF ring
 * drained once more before giving up). */
bool augment__take(struct augment *a, pid_t tid, long id, const uint64_t args[AUGMENT_NR_ARGS],
		   bool late, const char *strs[AUGMENT_NR_ARGS]);

/* Records taken, and records dropped unmatched (statistics for -v). */
void augment__stats(const struct augment *a, unsigned long *taken, unsigned long *dropped);

#endif
