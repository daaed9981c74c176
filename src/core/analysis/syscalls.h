/* syscalls: what pcl trace knows about each system call.
 *
 * Numbers and names come from the kernel headers (generated at build time),
 * argument names and types from the syscalls:sys_enter_NAME tracepoint
 * formats in tracefs, parsed with libtraceevent; a small table adds what the
 * formats cannot say (which arguments are flags, which return values are
 * addresses or pids), choosing the beautifiers perf 6.1 uses.
 *
 * syscall_args__format() prints the raw_syscalls:sys_enter arguments the way
 * perf trace does: "name: value" pairs, zero values left out (unless
 * asked), values decoded
 * (open flags, mmap prot, fds, signals, ...).
 */
#ifndef PCL_SYSCALLS_H
#define PCL_SYSCALLS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/strbuf.h"

#define SYSCALL_MAX_ARGS 6

/* How one argument is shown. */
enum syscall_arg_kind {
	SCA_LONG,		/* %ld, the default */
	SCA_INT,		/* %d */
	SCA_HEX,		/* %#lx */
	SCA_PTR,		/* a pointer: %#lx, NULL for zero */
	SCA_FILENAME,		/* a user string: quoted when the caller read it,
				 * else the pointer (%#x, as perf without BPF) */
	SCA_FD,			/* fd, with its path when known */
	SCA_FDAT,		/* dirfd: CWD for AT_FDCWD */
	SCA_CLOSE_FD,		/* an fd that stops being open */
	SCA_PID,		/* pid, with the task's comm when known */
	SCA_MODE_T,
	SCA_OPEN_FLAGS,		/* hides the mode argument without O_CREAT */
	SCA_MMAP_PROT,
	SCA_MMAP_FLAGS,		/* hides fd and offset of anonymous maps */
	SCA_BITS,		/* flags named bit by bit from a list (strarray); an
				 * unnamed bit inside the list is perf's broken "0x" */
	SCA_ACCMODE,
	SCA_SIGNUM,
	SCA_STRARRAY,		/* a name from a list, shown even when zero */
	SCA_ARCH_PRCTL,
	SCA_FUTEX_OP,		/* hides the arguments the op ignores */
	SCA_FUTEX_VAL3,
	SCA_CLONE_FLAGS,	/* hides the pointers the flags do not use */
	SCA_PIPE_FLAGS,
	SCA_GETRANDOM_FLAGS,
	SCA_WAITID_OPTIONS,
	SCA_SK_TYPE,
	SCA_EFD_FLAGS,
	SCA_PRCTL_OPTION,	/* hides the arguments the option ignores */
	SCA_PRCTL_ARG2,
	SCA_PRCTL_ARG3,
	SCA_MADV_BHV,
	SCA_IOCTL_CMD,
	SCA_FCNTL_CMD,		/* also picks how the result is shown */
	SCA_FCNTL_ARG,
	SCA_PERF_FLAGS,
	SCA_SK_PROTO,		/* IPPROTO names for INET and INET6 sockets */
	SCA_SOCKOPT_LEVEL,
	SCA_MSG_FLAGS,
	SCA_FLOCK_CMD,
	SCA_SYNC_FILE_RANGE,
	SCA_SCHED_POLICY,
	SCA_SECCOMP_OP,
	SCA_SECCOMP_FLAGS,
	SCA_KCMP_TYPE,		/* hides the indexes of all but KCMP_FILE */
	SCA_MOUNT_FLAGS,	/* without the MS_MGC_VAL magic */
	SCA_FSMOUNT_ATTR,
	SCA_SOCKADDR,		/* a struct sockaddr (its length the next argument):
				 * decoded when the caller read it, else %#lx;
				 * strarray names its families */
	SCA_CHAR_ARRAY,		/* a tracepoint's char[] field, as a quoted string */
	SCA_EMPTY,		/* perf 6.1 prints statx's flags and mask as nothing */
};

/* How a result is shown when an argument decides it (fcntl's cmd). */
enum syscall_ret_kind {
	SCR_DEFAULT,
	SCR_FD,
	SCR_PID,
	SCR_OPEN_FLAGS,
	SCR_FCNTL_GETFD,
	SCR_FCNTL_LEASE,
};

struct syscall_arg_fmt {
	const char *name;		/* the format's field name */
	enum syscall_arg_kind kind;
	const struct strarray *strarray; /* SCA_STRARRAY */
	bool show_zero;
};

struct syscall {
	const char *name;		/* NULL: no such syscall number */
	int nr_args;
	bool is_exit;			/* exit, exit_group: no sys_exit follows */
	bool is_open;
	bool returns_fd;		/* a new fd on success (open, dup2, socket ...) */
	bool has_fmt;			/* perf has a table entry: its ret rules apply */
	bool hexret, errpid, timeout;
	struct syscall_arg_fmt args[SYSCALL_MAX_ARGS];
	/* the ret field of its syscalls:sys_exit_* tracepoint: perf lays its
	 * table's arguments over the fields after __syscall_nr, so ret gets
	 * the first argument's beautifier (openat's "ret: 3</etc/passwd>",
	 * brk's hex, clone's flags); a number when the table has none */
	struct syscall_arg_fmt exit_ret;
};

/* A list of names for consecutive values starting at offset; next is
 * searched when the value is outside this one (fcntl's two ranges).  A
 * sparse list shows the number for a value it has no name for. */
struct strarray {
	int offset, nr;
	const char *const *names;
	const struct strarray *next;
	bool sparse;
	const char *prefix;	/* the names' C prefix ("SEEK_") */
};

/* The number -> name map of this machine's kernel headers. */
const char *syscall__name(int nr);
int syscall__max_nr(void);
/* The number of a syscall name, or -1. */
int syscall__id(const char *name);
/* "ENOENT" for 2; NULL when unknown. */
const char *errno__name(int err);
/* The same for err of either sign, but for the two numbers with two names
 * the one perf's Python scripts print (EDEADLOCK, ENOTSUP). */
const char *errno__script_name(long err);

struct syscall_table;

/* Formats are read lazily, each syscall once, from tracefs. */
struct syscall_table *syscall_table__new(void);
void syscall_table__delete(struct syscall_table *t);
/* The syscall's description, or NULL when the number is unknown or its
 * tracepoint format missing (perf skips those events). */
const struct syscall *syscall_table__get(struct syscall_table *t, int nr);

struct tep_event;
struct tep_format_field;

/* The format of tracepoint sys:name from tracefs, parsed once with the
 * table's libtraceevent handle (which owns it), or NULL. */
struct tep_event *syscall_table__tp_format(struct syscall_table *t, const char *sys,
					   const char *name);

/* perf's choice for an argument or field no rule names, from its type and
 * name: filenames, pointers, pids, modes, fds, strings, else a number. */
enum syscall_arg_kind syscall_arg__kind(const struct tep_format_field *f);

/* What the argument printer asks of its caller. */
struct syscall_args_ctx {
	/* the path of fd in the calling thread, or NULL */
	const char *(*fd_path)(void *priv, int fd);
	/* fd is being closed (its path is forgotten) */
	void (*fd_closed)(void *priv, int fd);
	/* the comm of pid, or NULL */
	const char *(*pid_comm)(void *priv, pid_t pid);
	void *priv;
	/* perfconfig's trace.show_zeros, trace.show_arg_names = false and
	 * trace.show_prefix (names with their C prefix: O_RDONLY) */
	bool show_zeros, hide_names, show_prefix;
	/* a syscalls:sys_enter_* tracepoint's line: perf shows its user
	 * strings empty, not their addresses */
	bool empty_strings;
	/* the strings of the call's pathname arguments by argument index
	 * (NULL: not read, the pointer is shown), or NULL; a sockaddr's is
	 * its bytes, a struct sockaddr_storage's worth, zero past those read */
	const char *const *strings;
};

/* Appends sc's arguments from the six raw values, as perf trace shows them
 * between the parentheses; returns how its result is to be shown. */
enum syscall_ret_kind syscall_args__format(const struct syscall *sc,
					   const uint64_t args[SYSCALL_MAX_ARGS],
					   const struct syscall_args_ctx *ctx, struct strbuf *out);

/* A result an argument gave a kind to (not SCR_DEFAULT). */
void syscall_ret__format(enum syscall_ret_kind kind, long ret, const struct syscall_args_ctx *ctx,
			 struct strbuf *out);

/* Appends the fields of a tracepoint sample (raw payload) the way perf
 * trace shows them: "name: value" pairs, zeros left out, char arrays as
 * strings; other arrays are left out.  A field named "ret" is shown as
 * ret_fmt says when it is not NULL (a syscall's exit tracepoint). */
void tp_fields__format(const struct tep_event *ev, const void *raw, size_t raw_size,
		       const struct syscall_args_ctx *ctx, const struct syscall_arg_fmt *ret_fmt,
		       struct strbuf *out);

/*
 * -e/--expr: which syscalls to trace, from "name,glob*,!name": names and
 * globs add syscalls, "!" entries take them away (alone, from all of
 * them); a list that begins with "!" takes all its entries away, as
 * perf's does.  Returns a bitmap of syscall__max_nr() + 1 booleans, or NULL with
 * *bad set to the first entry that names no syscall (caller frees it).
 */
bool *syscall_filter__parse(const char *expr, char **bad);

/* The flag beautifiers on their own (unit tests, pcl script later). */
void syscall_args__open_flags(struct strbuf *out, unsigned long flags);
void syscall_args__mmap_prot(struct strbuf *out, unsigned long prot);
void syscall_args__mmap_flags(struct strbuf *out, unsigned long flags);
void syscall_args__mode(struct strbuf *out, unsigned long mode);

#endif
