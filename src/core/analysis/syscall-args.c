/* syscall-args: the argument beautifiers of pcl trace, each printing a value
 * the way perf 6.1's trace shows it. */
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/analysis/syscalls.h"

/* One flag bit (or multi-bit value) and its name. */
struct flag_name {
	unsigned long bits;
	const char *name;
};

#define FLAG(prefix, n) { prefix##n, #n }

/* Names each flag of list present in *flags in list order ("A|B"),
 * clearing it; returns whether anything was printed so far. */
static bool print_flags(struct strbuf *out, unsigned long *flags,
			const struct flag_name *list, size_t nr, bool printed)
{
	for (size_t i = 0; i < nr; i++) {
		if ((*flags & list[i].bits) != list[i].bits || !list[i].bits)
			continue;
		strbuf_addf(out, "%s%s", printed ? "|" : "", list[i].name);
		*flags &= ~list[i].bits;
		printed = true;
	}
	return printed;
}

/* Any flag bit of list present in *flags (perf's "flags & X" test). */
static bool print_any_flags(struct strbuf *out, unsigned long *flags,
			    const struct flag_name *list, size_t nr, bool printed)
{
	for (size_t i = 0; i < nr; i++) {
		if (!(*flags & list[i].bits))
			continue;
		strbuf_addf(out, "%s%s", printed ? "|" : "", list[i].name);
		*flags &= ~list[i].bits;
		printed = true;
	}
	return printed;
}

static void print_rest(struct strbuf *out, unsigned long rest, bool printed)
{
	if (rest)
		strbuf_addf(out, "%s%#x", printed ? "|" : "", (unsigned int)rest);
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

void syscall_args__open_flags(struct strbuf *out, unsigned long flags)
{
	static const struct flag_name names[] = {
		FLAG(O_, RDWR), FLAG(O_, APPEND), FLAG(O_, ASYNC), FLAG(O_, CLOEXEC),
		FLAG(O_, CREAT), FLAG(O_, DIRECT), FLAG(O_, DIRECTORY), FLAG(O_, EXCL),
		FLAG(O_, NOFOLLOW), FLAG(O_, TMPFILE), FLAG(O_, NOATIME), FLAG(O_, NOCTTY),
		FLAG(O_, NONBLOCK), FLAG(O_, PATH),
	};
	static const struct flag_name tail[] = { FLAG(O_, TRUNC), FLAG(O_, WRONLY) };
	bool printed = false;

	if ((flags & O_ACCMODE) == O_RDONLY) {
		strbuf_addstr(out, "RDONLY");
		printed = true;
	}
	if (!flags)
		return;
	printed = print_any_flags(out, &flags, names, NR(names), printed);
	/* O_SYNC includes O_DSYNC's bit; perf names SYNC and leaves the bits */
	if ((flags & O_SYNC) == O_SYNC) {
		strbuf_addf(out, "%sSYNC", printed ? "|" : "");
		printed = true;
	} else if (flags & O_DSYNC) {
		strbuf_addf(out, "%sDSYNC", printed ? "|" : "");
		flags &= ~(unsigned long)O_DSYNC;
		printed = true;
	}
	printed = print_any_flags(out, &flags, tail, NR(tail), printed);
	print_rest(out, flags, printed);
}

/* perf lists mmap's prot and flags bit by bit, lowest first, from names
 * generated out of the uapi headers; unnamed bits beyond them are dropped. */
static void print_bit_names(struct strbuf *out, unsigned long flags,
			    const char *const *names, int nr)
{
	bool printed = false;

	for (int bit = 0; bit < nr; bit++) {
		if (!(flags & (1UL << bit)))
			continue;
		if (printed)
			strbuf_addch(out, '|');
		if (names[bit])
			strbuf_addstr(out, names[bit]);
		else
			strbuf_addf(out, "%#lx", 1UL << bit);
		printed = true;
	}
}

void syscall_args__mmap_prot(struct strbuf *out, unsigned long prot)
{
	static const char *const names[] = {
		[0] = "READ", [1] = "WRITE", [2] = "EXEC", [3] = "SEM",
		[24] = "GROWSDOWN", [25] = "GROWSUP",
	};

	if (!prot) {
		strbuf_addstr(out, "NONE");
		return;
	}
	print_bit_names(out, prot, names, NR(names));
}

void syscall_args__mmap_flags(struct strbuf *out, unsigned long flags)
{
	static const char *const names[] = {
		[0] = "SHARED", [1] = "PRIVATE", [4] = "FIXED", [5] = "ANONYMOUS",
		[6] = "32BIT", [8] = "GROWSDOWN", [11] = "DENYWRITE", [12] = "EXECUTABLE",
		[13] = "LOCKED", [14] = "NORESERVE", [15] = "POPULATE", [16] = "NONBLOCK",
		[17] = "STACK", [18] = "HUGETLB", [19] = "SYNC", [20] = "FIXED_NOREPLACE",
		[26] = "UNINITIALIZED",
	};

	print_bit_names(out, flags, names, NR(names));
}

void syscall_args__mode(struct strbuf *out, unsigned long mode)
{
	static const struct flag_name names[] = {
		FLAG(S_, IFSOCK), FLAG(S_, IFLNK), FLAG(S_, IFREG), FLAG(S_, IFBLK),
		FLAG(S_, IFDIR), FLAG(S_, IFCHR), FLAG(S_, IFIFO), FLAG(S_, ISUID),
		FLAG(S_, ISGID), FLAG(S_, ISVTX), FLAG(S_, IRWXU), FLAG(S_, IRUSR),
		FLAG(S_, IWUSR), FLAG(S_, IXUSR), FLAG(S_, IRWXG), FLAG(S_, IRGRP),
		FLAG(S_, IWGRP), FLAG(S_, IXGRP), FLAG(S_, IRWXO), FLAG(S_, IROTH),
		FLAG(S_, IWOTH), FLAG(S_, IXOTH),
	};
	unsigned long m = (unsigned int)mode;

	print_rest(out, m, print_flags(out, &m, names, NR(names), false));
}

static void print_accmode(struct strbuf *out, int mode)
{
	static const struct flag_name names[] = { { R_OK, "R" }, { W_OK, "W" }, { X_OK, "X" } };
	unsigned long m = (unsigned int)mode;

	if (mode == F_OK) {
		strbuf_addstr(out, "F");
		return;
	}
	/* perf writes these without separators ("RW") */
	for (size_t i = 0; i < NR(names); i++)
		if (m & names[i].bits) {
			strbuf_addstr(out, names[i].name);
			m &= ~names[i].bits;
		}
	if (m)
		strbuf_addf(out, "|%#x", (unsigned int)m);
}

static void print_signum(struct strbuf *out, int sig)
{
	static const char *const names[] = {
		[SIGHUP] = "HUP", [SIGINT] = "INT", [SIGQUIT] = "QUIT", [SIGILL] = "ILL",
		[SIGTRAP] = "TRAP", [SIGABRT] = "ABRT", [SIGBUS] = "BUS", [SIGFPE] = "FPE",
		[SIGKILL] = "KILL", [SIGUSR1] = "USR1", [SIGSEGV] = "SEGV", [SIGUSR2] = "USR2",
		[SIGPIPE] = "PIPE", [SIGALRM] = "ALRM", [SIGTERM] = "TERM", [SIGSTKFLT] = "STKFLT",
		[SIGCHLD] = "CHLD", [SIGCONT] = "CONT", [SIGSTOP] = "STOP", [SIGTSTP] = "TSTP",
		[SIGTTIN] = "TTIN", [SIGTTOU] = "TTOU", [SIGURG] = "URG", [SIGXCPU] = "XCPU",
		[SIGXFSZ] = "XFSZ", [SIGVTALRM] = "VTALRM", [SIGPROF] = "PROF",
		[SIGWINCH] = "WINCH", [SIGIO] = "IO", [SIGPWR] = "PWR", [SIGSYS] = "SYS",
	};

	if (sig > 0 && sig < (int)NR(names) && names[sig])
		strbuf_addstr(out, names[sig]);
	else
		strbuf_addf(out, "%#x", sig);
}

static void print_strarray(struct strbuf *out, const struct strarray *sa, int val)
{
	/* a single list prints its entry for any in-range value; a chained
	 * one (fcntl) falls back to the number on a hole */
	for (const struct strarray *a = sa; a; a = a->next) {
		int idx = val - a->offset;

		if (idx < 0 || idx >= a->nr)
			continue;
		if (a->names[idx])
			strbuf_addstr(out, a->names[idx]);
		else if (sa->next)
			strbuf_addf(out, "%d", val);
		else
			strbuf_addstr(out, "(null)");
		return;
	}
	strbuf_addf(out, "%d", val);
}

static void print_arch_prctl(struct strbuf *out, int code)
{
	static const struct flag_name codes[] = {
		{ 0x1001, "SET_GS" }, { 0x1002, "SET_FS" }, { 0x1003, "GET_FS" },
		{ 0x1004, "GET_GS" }, { 0x1011, "GET_CPUID" }, { 0x1012, "SET_CPUID" },
		{ 0x1021, "GET_XCOMP_SUPP" }, { 0x1022, "GET_XCOMP_PERM" },
		{ 0x1023, "REQ_XCOMP_PERM" }, { 0x1024, "GET_XCOMP_GUEST_PERM" },
		{ 0x1025, "REQ_XCOMP_GUEST_PERM" }, { 0x2001, "MAP_VDSO_X32" },
		{ 0x2002, "MAP_VDSO_32" }, { 0x2003, "MAP_VDSO_64" },
	};

	for (size_t i = 0; i < NR(codes); i++)
		if (codes[i].bits == (unsigned long)code) {
			strbuf_addstr(out, codes[i].name);
			return;
		}
	strbuf_addf(out, "%#x", code);
}

/* Argument positions, as bits of the mask of hidden arguments. */
#define ARG_BIT(i) (1u << (i))

static void print_futex_op(struct strbuf *out, int op, unsigned int *mask)
{
	enum { UADDR2 = ARG_BIT(4), VAL3 = ARG_BIT(5), TIMEOUT = ARG_BIT(3) };
	static const struct {
		int cmd;
		const char *name;
		unsigned int hide;
	} cmds[] = {
		{ FUTEX_WAIT, "WAIT", VAL3 | UADDR2 },
		{ FUTEX_WAKE, "WAKE", VAL3 | UADDR2 | TIMEOUT },
		{ FUTEX_FD, "FD", VAL3 | UADDR2 | TIMEOUT },
		{ FUTEX_REQUEUE, "REQUEUE", VAL3 | TIMEOUT },
		{ FUTEX_CMP_REQUEUE, "CMP_REQUEUE", TIMEOUT },
		{ FUTEX_CMP_REQUEUE_PI, "CMP_REQUEUE_PI", TIMEOUT },
		{ FUTEX_WAKE_OP, "WAKE_OP", 0 },
		{ FUTEX_LOCK_PI, "LOCK_PI", VAL3 | UADDR2 | TIMEOUT },
		{ FUTEX_UNLOCK_PI, "UNLOCK_PI", VAL3 | UADDR2 | TIMEOUT },
		{ FUTEX_TRYLOCK_PI, "TRYLOCK_PI", VAL3 | UADDR2 },
		{ FUTEX_WAIT_BITSET, "WAIT_BITSET", UADDR2 },
		{ FUTEX_WAKE_BITSET, "WAKE_BITSET", UADDR2 },
		{ FUTEX_WAIT_REQUEUE_PI, "WAIT_REQUEUE_PI", 0 },
	};
	int cmd = op & FUTEX_CMD_MASK;
	size_t i;

	for (i = 0; i < NR(cmds); i++)
		if (cmds[i].cmd == cmd) {
			strbuf_addstr(out, cmds[i].name);
			*mask |= cmds[i].hide;
			break;
		}
	if (i == NR(cmds))
		strbuf_addf(out, "%#x", cmd);
	if (op & FUTEX_PRIVATE_FLAG)
		strbuf_addstr(out, "|PRIVATE_FLAG");
	if (op & FUTEX_CLOCK_REALTIME)
		strbuf_addstr(out, "|CLOCK_REALTIME");
}

static void print_clone_flags(struct strbuf *out, unsigned long flags, unsigned int *mask)
{
	static const struct flag_name names[] = {
		FLAG(CLONE_, VM), FLAG(CLONE_, FS), FLAG(CLONE_, FILES), FLAG(CLONE_, SIGHAND),
		FLAG(CLONE_, PIDFD), FLAG(CLONE_, PTRACE), FLAG(CLONE_, VFORK),
		FLAG(CLONE_, PARENT), FLAG(CLONE_, THREAD), FLAG(CLONE_, NEWNS),
		FLAG(CLONE_, SYSVSEM), FLAG(CLONE_, SETTLS), FLAG(CLONE_, PARENT_SETTID),
		FLAG(CLONE_, CHILD_CLEARTID), FLAG(CLONE_, DETACHED), FLAG(CLONE_, UNTRACED),
		FLAG(CLONE_, CHILD_SETTID), FLAG(CLONE_, NEWCGROUP), FLAG(CLONE_, NEWUTS),
		FLAG(CLONE_, NEWIPC), FLAG(CLONE_, NEWUSER), FLAG(CLONE_, NEWPID),
		FLAG(CLONE_, NEWNET), FLAG(CLONE_, IO),
	};

	if (!(flags & CLONE_PARENT_SETTID))
		*mask |= ARG_BIT(2);
	if (!(flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)))
		*mask |= ARG_BIT(3);
	if (!(flags & CLONE_SETTLS))
		*mask |= ARG_BIT(4);
	print_rest(out, flags, print_any_flags(out, &flags, names, NR(names), false));
}

static void print_two_flags(struct strbuf *out, unsigned long flags, const struct flag_name *names)
{
	print_rest(out, flags, print_any_flags(out, &flags, names, 2, false));
}

static void print_waitid_options(struct strbuf *out, unsigned long options)
{
	static const struct flag_name names[] = {
		{ WNOHANG, "NOHANG" }, { WUNTRACED, "UNTRACED" }, { WCONTINUED, "CONTINUED" },
	};

	print_rest(out, options, print_any_flags(out, &options, names, NR(names), false));
}

static void print_sk_type(struct strbuf *out, int type)
{
	static const char *const names[] = {
		[SOCK_STREAM] = "STREAM", [SOCK_DGRAM] = "DGRAM", [SOCK_RAW] = "RAW",
		[SOCK_RDM] = "RDM", [SOCK_SEQPACKET] = "SEQPACKET", [SOCK_DCCP] = "DCCP",
		[SOCK_PACKET] = "PACKET",
	};
	int base = type & 0xf;
	unsigned long rest = (unsigned int)type & ~0xfu;

	if (base < (int)NR(names) && names[base])
		strbuf_addstr(out, names[base]);
	else
		strbuf_addf(out, "%#x", base);
	if (rest & SOCK_CLOEXEC) {
		strbuf_addstr(out, "|CLOEXEC");
		rest &= ~(unsigned long)SOCK_CLOEXEC;
	}
	if (rest & SOCK_NONBLOCK) {
		strbuf_addstr(out, "|NONBLOCK");
		rest &= ~(unsigned long)SOCK_NONBLOCK;
	}
	if (rest)
		strbuf_addf(out, "|%#x", (unsigned int)rest);
}

static void print_fd(struct strbuf *out, int fd, const struct syscall_args_ctx *ctx)
{
	const char *path = ctx && ctx->fd_path ? ctx->fd_path(ctx->priv, fd) : NULL;

	strbuf_addf(out, "%d", fd);
	if (path)
		strbuf_addf(out, "<%s>", path);
}

static void print_value(const struct syscall_arg_fmt *a, unsigned long val,
			const struct syscall_args_ctx *ctx, unsigned int idx, unsigned int *mask,
			struct strbuf *out)
{
	static const struct flag_name pipe_flags[] = { FLAG(O_, CLOEXEC), FLAG(O_, NONBLOCK) };
	static const struct flag_name random_flags[] = { { 2, "RANDOM" }, { 1, "NONBLOCK" } };
	static const struct flag_name efd_flags[] = { FLAG(O_, CLOEXEC), FLAG(O_, NONBLOCK) };
	const char *comm;

	switch (a->kind) {
	case SCA_LONG:
		strbuf_addf(out, "%ld", (long)val);
		break;
	case SCA_INT:
		strbuf_addf(out, "%d", (int)val);
		break;
	case SCA_HEX:
		strbuf_addf(out, "%#lx", val);
		break;
	case SCA_FILENAME:
		strbuf_addf(out, "%#x", (unsigned int)val);
		break;
	case SCA_FDAT:
		if ((int)val == AT_FDCWD) {
			strbuf_addstr(out, "CWD");
			break;
		}
		print_fd(out, (int)val, ctx);
		break;
	case SCA_FD:
		print_fd(out, (int)val, ctx);
		break;
	case SCA_CLOSE_FD:
		print_fd(out, (int)val, ctx);
		if (ctx && ctx->fd_closed)
			ctx->fd_closed(ctx->priv, (int)val);
		break;
	case SCA_PID:
		strbuf_addf(out, "%d", (int)val);
		comm = ctx && ctx->pid_comm ? ctx->pid_comm(ctx->priv, (pid_t)val) : NULL;
		if (comm)
			strbuf_addf(out, " (%s)", comm);
		break;
	case SCA_MODE_T:
		syscall_args__mode(out, val);
		break;
	case SCA_OPEN_FLAGS:
		if (!((int)val & O_CREAT))
			*mask |= ARG_BIT(idx + 1);
		syscall_args__open_flags(out, (unsigned int)val);
		break;
	case SCA_MMAP_PROT:
		syscall_args__mmap_prot(out, val);
		break;
	case SCA_MMAP_FLAGS:
		if (val & MAP_ANONYMOUS)
			*mask |= ARG_BIT(4) | ARG_BIT(5);
		syscall_args__mmap_flags(out, val);
		break;
	case SCA_ACCMODE:
		print_accmode(out, (int)val);
		break;
	case SCA_SIGNUM:
		print_signum(out, (int)val);
		break;
	case SCA_STRARRAY:
		print_strarray(out, a->strarray, (int)val);
		break;
	case SCA_ARCH_PRCTL:
		print_arch_prctl(out, (int)val);
		break;
	case SCA_FUTEX_OP:
		print_futex_op(out, (int)val, mask);
		break;
	case SCA_FUTEX_VAL3:
		if ((unsigned int)val == FUTEX_BITSET_MATCH_ANY)
			strbuf_addstr(out, "MATCH_ANY");
		else
			strbuf_addf(out, "%#x", (unsigned int)val);
		break;
	case SCA_CLONE_FLAGS:
		print_clone_flags(out, val, mask);
		break;
	case SCA_PIPE_FLAGS:
		print_two_flags(out, (unsigned int)val, pipe_flags);
		break;
	case SCA_GETRANDOM_FLAGS:
		print_two_flags(out, (unsigned int)val, random_flags);
		break;
	case SCA_WAITID_OPTIONS:
		print_waitid_options(out, (unsigned int)val);
		break;
	case SCA_SK_TYPE:
		print_sk_type(out, (int)val);
		break;
	case SCA_EFD_FLAGS:
		print_two_flags(out, (unsigned int)val, efd_flags);
		break;
	}
}

void syscall_args__format(const struct syscall *sc, const uint64_t args[SYSCALL_MAX_ARGS],
			  const struct syscall_args_ctx *ctx, struct strbuf *out)
{
	unsigned int mask = 0;
	size_t start = out->len;

	for (int i = 0; i < sc->nr_args; i++) {
		const struct syscall_arg_fmt *a = &sc->args[i];
		unsigned long val = (unsigned long)args[i];

		if (mask & ARG_BIT(i))
			continue;
		/* zeros are left out unless they have a name */
		if (!val && !a->show_zero && a->kind != SCA_STRARRAY)
			continue;
		if (out->len > start)
			strbuf_addstr(out, ", ");
		strbuf_addf(out, "%s: ", a->name);
		print_value(a, val, ctx, i, &mask, out);
	}
}
