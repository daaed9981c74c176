/* syscall-args: the argument beautifiers of pcl trace, each printing a value
 * the way perf 6.1's trace shows it. */
#include <arpa/inet.h>
#include <ctype.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "core/analysis/syscalls.h"
#include "syscall-tables.inc"
#include "util/util.h"

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
		{ 0100000, "LARGEFILE" },	/* the kernel's value; glibc says 0 on 64 bits */
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
		{ 07777, "IALLUGO" }, { 0777, "IRWXUGO" }, { 0444, "IRUGO" }, { 0222, "IWUGO" },
		{ 0111, "IXUGO" }, FLAG(S_, IFMT), FLAG(S_, IFSOCK), FLAG(S_, IFLNK),
		FLAG(S_, IFREG), FLAG(S_, IFBLK),
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
		else if (sa->next || sa->sparse)
			strbuf_addf(out, "%d", val);
		else
			strbuf_addstr(out, "(null)");
		return;
	}
	strbuf_addf(out, "%d", val);
}

/* The name of val in list, else val in hex. */
static void print_value_name(struct strbuf *out, unsigned long val, const struct flag_name *list,
			     size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (list[i].bits == val) {
			strbuf_addstr(out, list[i].name);
			return;
		}
	strbuf_addf(out, "%#x", (unsigned int)val);
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

	print_value_name(out, (unsigned int)code, codes, NR(codes));
}

/*
 * A flags argument perf names from a list indexed by bit number.  Bits past
 * the list are dropped.  perf prints a bit the list has no name for with
 * the format "0x%#": glibc writes "0x" and returns -1, so perf's cursor
 * steps back a character and whatever it writes next lands one character
 * before that "0x".  *resume is where the next write starts.
 */
static void print_strarray_flags(struct strbuf *out, unsigned long flags,
				 const struct strarray *sa, size_t *resume)
{
	size_t start = out->len;
	long at = 0;	/* perf's cursor, from start */

	if (!flags) {	/* shown with trace.show_zeros */
		strbuf_addch(out, '0');
		*resume = out->len;
		return;
	}

	for (int bit = 0; bit < sa->nr && flags; bit++) {
		if (!(flags & (1UL << bit)))
			continue;
		if (at) {
			strbuf_setlen(out, start + at);
			strbuf_addch(out, '|');
			at++;
		}
		strbuf_setlen(out, start + at);
		if (sa->names[bit]) {
			strbuf_addstr(out, sa->names[bit]);
			at += (long)strlen(sa->names[bit]);
		} else {
			strbuf_addstr(out, "0x");
			at--;
		}
	}
	*resume = start + at;
}

/* MOUNT_ATTR_*: perf names the bits only when some are outside the atime
 * field, then adds RELATIME when that field is zero */
static void print_fsmount_attr(struct strbuf *out, unsigned long flags, size_t *resume)
{
	static const char *const names[] = {
		"RDONLY", "NOSUID", "NODEV", "NOEXEC", "NOATIME", "STRICTATIME", NULL,
		"NODIRATIME", [20] = "IDMAP", "NOSYMFOLLOW",
	};
	static const struct strarray bits = { 0, NR(names), names, NULL, false, "MOUNT_ATTR_" };
	enum { ATIME = 0x70 };
	size_t start = out->len;

	*resume = start;
	if (flags & ~(unsigned long)ATIME)
		print_strarray_flags(out, flags, &bits, resume);
	if (flags & ATIME)
		return;
	strbuf_setlen(out, *resume);
	strbuf_addstr(out, *resume != start ? "|RELATIME" : "RELATIME");
	*resume = out->len;
}

static void print_sync_file_range(struct strbuf *out, unsigned long flags, size_t *resume)
{
	static const char *const names[] = { "WAIT_BEFORE", "WRITE", "WAIT_AFTER" };
	static const struct strarray bits = { 0, NR(names), names, NULL, false,
					      "SYNC_FILE_RANGE_" };
	enum { WRITE_AND_WAIT = 7 };

	if ((flags & WRITE_AND_WAIT) == WRITE_AND_WAIT) {
		/* perf then prints what is left, a zero as "0" */
		strbuf_addstr(out, "WRITE_AND_WAIT");
		flags &= ~(unsigned long)WRITE_AND_WAIT;
		if (!flags) {
			strbuf_addch(out, '0');
			*resume = out->len;
			return;
		}
	}
	print_strarray_flags(out, flags, &bits, resume);
}

/* IPPROTO_* names of linux/in.h (perf 6.1's list) */
static const char *const ipproto_names[] = {
	[0] = "IP", [1] = "ICMP", [2] = "IGMP", [4] = "IPIP", [6] = "TCP", [8] = "EGP",
	[12] = "PUP", [17] = "UDP", [22] = "IDP", [29] = "TP", [33] = "DCCP", [41] = "IPV6",
	[46] = "RSVP", [47] = "GRE", [50] = "ESP", [51] = "AH", [92] = "MTP", [94] = "BEETPH",
	[98] = "ENCAP", [103] = "PIM", [108] = "COMP", [115] = "L2TP", [132] = "SCTP",
	[136] = "UDPLITE", [137] = "MPLS", [143] = "ETHERNET", [255] = "RAW", [262] = "MPTCP",
};
static const struct strarray ipprotos = { 0, NR(ipproto_names), ipproto_names, NULL, true,
					  "IPPROTO_" };

static void print_sk_proto(struct strbuf *out, int proto, int family)
{
	if (family == AF_INET || family == AF_INET6)
		print_strarray(out, &ipprotos, proto);
	else
		strbuf_addf(out, "%d", proto);
}

/* SOL_* of linux/socket.h: SOL_SOCKET lives elsewhere and is not named */
static void print_sockopt_level(struct strbuf *out, int level)
{
	static const char *const names[] = {
		[0] = "IP", [6] = "TCP", [17] = "UDP", [41] = "IPV6", [58] = "ICMPV6",
		[132] = "SCTP", [136] = "UDPLITE", [255] = "RAW", [256] = "IPX", [257] = "AX25",
		[258] = "ATALK", [259] = "NETROM", [260] = "ROSE", [261] = "DECNET", [262] = "X25",
		[263] = "PACKET", [264] = "ATM", [265] = "AAL", [266] = "IRDA", [267] = "NETBEUI",
		[268] = "LLC", [269] = "DCCP", [270] = "NETLINK", [271] = "TIPC", [272] = "RXRPC",
		[273] = "PPPOL2TP", [274] = "BLUETOOTH", [275] = "PNPIPE", [276] = "RDS",
		[277] = "IUCV", [278] = "CAIF", [279] = "ALG", [280] = "NFC", [281] = "KCM",
		[282] = "TLS", [283] = "XDP", [284] = "MPTCP", [285] = "MCTP", [286] = "SMC",
	};
	static const struct strarray levels = { 0, NR(names), names, NULL, true, "SOL_" };

	print_strarray(out, &levels, level);
}

static void print_msg_flags(struct strbuf *out, unsigned long flags)
{
	static const struct flag_name names[] = {
		FLAG(MSG_, OOB), FLAG(MSG_, PEEK), FLAG(MSG_, DONTROUTE), FLAG(MSG_, CTRUNC),
		{ 0x10, "PROBE" }, FLAG(MSG_, TRUNC), FLAG(MSG_, DONTWAIT), FLAG(MSG_, EOR),
		FLAG(MSG_, WAITALL), FLAG(MSG_, FIN), FLAG(MSG_, SYN), FLAG(MSG_, CONFIRM),
		FLAG(MSG_, RST), FLAG(MSG_, ERRQUEUE), FLAG(MSG_, NOSIGNAL), FLAG(MSG_, MORE),
		FLAG(MSG_, WAITFORONE), { 0x20000, "SENDPAGE_NOTLAST" }, FLAG(MSG_, FASTOPEN),
		FLAG(MSG_, CMSG_CLOEXEC),
	};

	flags = (unsigned int)flags;
	if (!flags) {
		strbuf_addstr(out, "NONE");
		return;
	}
	print_rest(out, flags, print_any_flags(out, &flags, names, NR(names), false));
}

static void print_flock_cmd(struct strbuf *out, unsigned long cmd)
{
	static const struct flag_name names[] = {
		FLAG(LOCK_, SH), FLAG(LOCK_, EX), FLAG(LOCK_, NB), FLAG(LOCK_, UN),
		{ 0x20, "MAND" }, { 0xc0, "RW" }, { 0x40, "READ" }, { 0x80, "WRITE" },
	};

	cmd = (unsigned int)cmd;
	if (!cmd) {
		strbuf_addstr(out, "NONE");
		return;
	}
	print_rest(out, cmd, print_flags(out, &cmd, names, NR(names), false));
}

static void print_sched_policy(struct strbuf *out, unsigned long policy)
{
	static const struct flag_name names[] = {
		{ 0, "NORMAL" }, { 1, "FIFO" }, { 2, "RR" }, { 3, "BATCH" }, { 4, "ISO" },
		{ 5, "IDLE" }, { 6, "DEADLINE" },
	};
	unsigned long rest = (unsigned int)policy & ~0xffUL;

	print_value_name(out, policy & 0xff, names, NR(names));
	if (rest & SCHED_RESET_ON_FORK) {
		strbuf_addstr(out, "|RESET_ON_FORK");
		rest &= ~(unsigned long)SCHED_RESET_ON_FORK;
	}
	if (rest)
		strbuf_addf(out, "|%#x", (unsigned int)rest);
}

static void print_seccomp_op(struct strbuf *out, unsigned long op)
{
	static const struct flag_name names[] = { { 0, "STRICT" }, { 1, "FILTER" } };

	print_value_name(out, (unsigned int)op, names, NR(names));
}

static void print_seccomp_flags(struct strbuf *out, unsigned long flags)
{
	static const struct flag_name names[] = { { 1, "TSYNC" } };

	flags = (unsigned int)flags;
	print_rest(out, flags, print_any_flags(out, &flags, names, NR(names), false));
}

/* MS_MGC_VAL in the top half marks old callers; perf drops it first */
static unsigned long mount_flags_value(unsigned long flags)
{
	if ((flags & 0xffff0000UL) == 0xc0ed0000UL)
		flags &= ~0xffff0000UL;
	return flags;
}

static void print_mount_flags(struct strbuf *out, unsigned long flags, size_t *resume)
{
	static const char *const names[] = {
		"RDONLY", "NOSUID", "NODEV", "NOEXEC", "SYNCHRONOUS", "REMOUNT", "MANDLOCK",
		"DIRSYNC", "NOSYMFOLLOW", NULL, "NOATIME", "NODIRATIME", "BIND", "MOVE", "REC",
		"SILENT", "POSIXACL", "UNBINDABLE", "PRIVATE", "SLAVE", "SHARED", "RELATIME",
		"KERNMOUNT", "I_VERSION", "STRICTATIME", "LAZYTIME", "SUBMOUNT", "NOREMOTELOCK",
		"NOSEC", "BORN", "ACTIVE", "NOUSER",
	};
	static const struct strarray bits = { 0, NR(names), names, NULL, false, "MS_" };

	print_strarray_flags(out, flags, &bits, resume);
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

static void print_prctl_option(struct strbuf *out, const struct strarray *options,
			       unsigned long option, unsigned int *mask)
{
	enum { ARG2 = ARG_BIT(1), ALL_BUT2 = ARG_BIT(2) | ARG_BIT(3) | ARG_BIT(4) | ARG_BIT(5) };
	static const unsigned char hide[] = {
		[PR_GET_DUMPABLE] = ARG2 | ALL_BUT2, [PR_SET_DUMPABLE] = ALL_BUT2,
		[PR_SET_NAME] = ALL_BUT2, [PR_GET_CHILD_SUBREAPER] = ALL_BUT2,
		[PR_SET_CHILD_SUBREAPER] = ALL_BUT2, [PR_GET_SECUREBITS] = ARG2 | ALL_BUT2,
		[PR_SET_SECUREBITS] = ALL_BUT2,
		[PR_SET_MM] = ARG_BIT(3) | ARG_BIT(4) | ARG_BIT(5),
		[PR_GET_PDEATHSIG] = ARG2 | ALL_BUT2, [PR_SET_PDEATHSIG] = ALL_BUT2,
	};

	if (option < NR(hide))
		*mask |= hide[option];
	print_strarray(out, options, (int)option);
}

static void print_madvise_behavior(struct strbuf *out, int behavior)
{
	static const char *const names[] = { MADVISE_BEHAVIORS_INIT };

	if (behavior >= 0 && behavior < (int)NR(names) && names[behavior])
		strbuf_addf(out, "MADV_%s", names[behavior]);
	else
		strbuf_addf(out, "%#x", behavior);
}

/* ioctl command names of the kernel headers (gen-syscall-tables.sh) */
#define IOCTL_NAMES(var, init)                                                          \
	static const char *const var##_names[] = { init };                              \
	static const struct strarray var = { 0, NR(var##_names), var##_names, NULL, false, "" }
IOCTL_NAMES(kvm_cmds, IOCTL_KVM_INIT);
IOCTL_NAMES(sndrv_pcm_cmds, IOCTL_SNDRV_PCM_INIT);
IOCTL_NAMES(sndrv_ctl_cmds, IOCTL_SNDRV_CTL_INIT);
IOCTL_NAMES(vhost_write_cmds, IOCTL_VHOST_WRITE_INIT);
IOCTL_NAMES(vhost_read_cmds, IOCTL_VHOST_READ_INIT);
IOCTL_NAMES(drm_cmds, IOCTL_DRM_INIT);

/* The families perf names by number alone (vhost by direction too). */
static const struct ioctl_family {
	unsigned int type;
	const struct strarray *cmds, *read;	/* read: of the commands that read */
} ioctl_families[] = {
	{ 0xAE, &kvm_cmds, NULL },
	{ 'A', &sndrv_pcm_cmds, NULL },
	{ 'U', &sndrv_ctl_cmds, NULL },
	{ 0xAF, &vhost_write_cmds, &vhost_read_cmds },
	{ 'd', &drm_cmds, NULL },
};

/* perf names the tty ioctls and the families above by their number, other
 * types by direction, type, number and size */
static void print_ioctl_cmd(struct strbuf *out, unsigned long cmd)
{
	static const char *const tty_cmds[] = {
		[1] = "TCGETS", "TCSETS", "TCSETSW", "TCSETSF", "TCGETA", "TCSETA", "TCSETAW",
		"TCSETAF", "TCSBRK", "TCXONC", "TCFLSH", "TIOCEXCL", "TIOCNXCL", "TIOCSCTTY",
		"TIOCGPGRP", "TIOCSPGRP", "TIOCOUTQ", "TIOCSTI", "TIOCGWINSZ", "TIOCSWINSZ",
		"TIOCMGET", "TIOCMBIS", "TIOCMBIC", "TIOCMSET", "TIOCGSOFTCAR", "TIOCSSOFTCAR",
		"FIONREAD", "TIOCLINUX", "TIOCCONS", "TIOCGSERIAL", "TIOCSSERIAL", "TIOCPKT",
		"FIONBIO", "TIOCNOTTY", "TIOCSETD", "TIOCGETD", "TCSBRKP",
		[0x27] = "TIOCSBRK", "TIOCCBRK", "TIOCGSID", "TCGETS2", "TCSETS2", "TCSETSW2",
		"TCSETSF2", "TIOCGRS48", "TIOCSRS485", "TIOCGPTN", "TIOCSPTLCK", "TIOCGDEV",
		"TCSETX", "TCGETX", "TIOCSIG", "TIOCVHANGUP", "TIOCGPKT", "TIOCGPTLCK",
		[0x40] = "TIOCGEXCL", "TIOCGPTPEER", "TIOCGISO7816", "TIOCSISO7816",
		[0x50] = "FIONCLEX", "FIOCLEX", "FIOASYNC", "TIOCSERCONFIG", "TIOCSERGWILD",
		"TIOCSERSWILD", "TIOCGLCKTRMIOS", "TIOCSLCKTRMIOS", "TIOCSERGSTRUCT",
		"TIOCSERGETLSR", "TIOCSERGETMULTI", "TIOCSERSETMULTI", "TIOCMIWAIT", "TIOCGICOUNT",
	};
	unsigned int dir = (cmd >> 30) & 3, type = (cmd >> 8) & 0xff, nr = cmd & 0xff;
	unsigned int size = (cmd >> 16) & 0x3fff;

	static const char *const perf_cmds[] = {
		"ENABLE", "DISABLE", "REFRESH", "RESET", "PERIOD", "SET_OUTPUT", "SET_FILTER", "ID",
		"SET_BPF", "PAUSE_OUTPUT", "QUERY_BPF", "MODIFY_ATTRIBUTES",
	};

	if (type == '$') {
		if (nr < NR(perf_cmds))
			strbuf_addf(out, "PERF_%s", perf_cmds[nr]);
		else	/* perf prints KVM's type here */
			strbuf_addf(out, "(%#x, %#x, %#x)", 0xAE, nr, dir);
		return;
	}
	if (type == 'T') {
		if (nr < NR(tty_cmds) && tty_cmds[nr])
			strbuf_addstr(out, tty_cmds[nr]);
		else
			strbuf_addf(out, "(%#x, %#x, %#x)", 'T', nr, dir);
		return;
	}
	for (size_t i = 0; i < NR(ioctl_families); i++) {
		const struct ioctl_family *f = &ioctl_families[i];
		const struct strarray *names = f->read && (dir & 2) ? f->read : f->cmds;

		if (f->type != type)
			continue;
		if (nr < (unsigned int)names->nr && names->names[nr])
			strbuf_addstr(out, names->names[nr]);
		else
			strbuf_addf(out, "(%#x, %#x, %#x)", type, nr, dir);
		return;
	}
	strbuf_addch(out, '(');
	if (!dir)
		strbuf_addstr(out, "NONE");
	if (dir & 2)
		strbuf_addstr(out, "READ");
	if (dir & 1)
		strbuf_addf(out, "%sWRITE", dir & 2 ? "|" : "");
	strbuf_addf(out, ", %#x, %#x, %#x)", type, nr, size);
}

static void print_fcntl_getfd(struct strbuf *out, unsigned long val)
{
	/* perf 6.1 has these two the wrong way round; shown as it shows them */
	strbuf_addstr(out, val ? "0" : "CLOEXEC");
}

static void print_fcntl_lease(struct strbuf *out, int lease)
{
	if (lease == F_RDLCK)
		strbuf_addstr(out, "RDLCK");
	else if (lease == F_WRLCK)
		strbuf_addstr(out, "WRLCK");
	else if (lease == F_UNLCK)
		strbuf_addstr(out, "UNLCK");
	else
		strbuf_addf(out, "%#x", lease);
}

static enum syscall_ret_kind fcntl_cmd_ret(unsigned long cmd, unsigned int *mask)
{
	switch (cmd) {
	case F_GETFL:
		*mask |= ARG_BIT(2);
		return SCR_OPEN_FLAGS;
	case F_GETFD:
		*mask |= ARG_BIT(2);
		return SCR_FCNTL_GETFD;
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return SCR_FD;
	case F_GETOWN:
		*mask |= ARG_BIT(2);
		return SCR_PID;
	case F_GETLEASE:
		*mask |= ARG_BIT(2);
		return SCR_FCNTL_LEASE;
	case F_GET_SEALS:
	case F_GETSIG:
		*mask |= ARG_BIT(2);
		break;
	}
	return SCR_DEFAULT;
}

static void print_fd(struct strbuf *out, int fd, const struct syscall_args_ctx *ctx)
{
	const char *path = ctx && ctx->fd_path ? ctx->fd_path(ctx->priv, fd) : NULL;

	strbuf_addf(out, "%d", fd);
	if (path)
		strbuf_addf(out, "<%s>", path);
}

/* A struct sockaddr of len bytes (sa: a sockaddr_storage's worth, zero
 * past them) in perf's augmented form: "{ .family: INET, port: 80, addr:
 * 127.0.0.1 }".  An abstract unix socket's name is shown after an '@'. */
static void print_sockaddr(struct strbuf *out, const unsigned char *sa, unsigned long len,
			   const struct strarray *families, const struct syscall_args_ctx *ctx)
{
	struct sockaddr_storage ss;
	size_t start;
	char addr[INET6_ADDRSTRLEN];

	memcpy(&ss, sa, sizeof(ss));
	if (len > sizeof(ss))
		len = sizeof(ss);
	strbuf_addstr(out, "{ .family: ");
	start = out->len;
	print_strarray(out, families, ss.ss_family);
	if (ctx->show_prefix && !isdigit((unsigned char)out->buf[start])) {
		char *name = xstrdup(out->buf + start);

		strbuf_setlen(out, start);
		strbuf_addf(out, "%s%s", families->prefix, name);
		free(name);
	}
	if (ss.ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)&ss;

		strbuf_addf(out, ", port: %d, addr: %s", ntohs(in->sin_port),
			    inet_ntop(AF_INET, &in->sin_addr, addr, sizeof(addr)));
	} else if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&ss;

		strbuf_addf(out, ", port: %d, addr: %s", ntohs(in6->sin6_port),
			    inet_ntop(AF_INET6, &in6->sin6_addr, addr, sizeof(addr)));
		if (in6->sin6_flowinfo)
			strbuf_addf(out, ", flowinfo: %u", ntohl(in6->sin6_flowinfo));
		if (in6->sin6_scope_id)
			strbuf_addf(out, ", scope_id: %u", in6->sin6_scope_id);
	} else if (ss.ss_family == AF_UNIX) {
		const struct sockaddr_un *un = (const struct sockaddr_un *)&ss;
		size_t path_len = len > offsetof(struct sockaddr_un, sun_path) ?
				  len - offsetof(struct sockaddr_un, sun_path) : 0;
		bool abstract = path_len && !un->sun_path[0];

		if (path_len > sizeof(un->sun_path))
			path_len = sizeof(un->sun_path);
		strbuf_addf(out, ", path: %s%.*s", abstract ? "@" : "", (int)(path_len - abstract),
			    un->sun_path + abstract);
	}
	strbuf_addstr(out, " }");
}

static void print_pid(struct strbuf *out, pid_t pid, const struct syscall_args_ctx *ctx)
{
	const char *comm = ctx && ctx->pid_comm ? ctx->pid_comm(ctx->priv, pid) : NULL;

	strbuf_addf(out, "%d", pid);
	if (comm)
		strbuf_addf(out, " (%s)", comm);
}

static void print_fcntl_arg(struct strbuf *out, int cmd, unsigned long val,
			    const struct syscall_args_ctx *ctx)
{
	switch (cmd) {
	case F_DUPFD:
		print_fd(out, (int)val, ctx);
		return;
	case F_SETFD:
		print_fcntl_getfd(out, val);
		return;
	case F_SETFL:
		syscall_args__open_flags(out, (unsigned int)val);
		return;
	case F_SETOWN:
		print_pid(out, (pid_t)val, ctx);
		return;
	case F_SETLEASE:
		print_fcntl_lease(out, (int)val);
		return;
	case F_SETLK: case F_SETLKW: case F_GETLK: case F_OFD_SETLK: case F_OFD_SETLKW:
	case F_OFD_GETLK: case F_GETOWN_EX: case F_SETOWN_EX: case F_GET_RW_HINT:
	case F_SET_RW_HINT: case F_GET_FILE_RW_HINT: case F_SET_FILE_RW_HINT:
		strbuf_addf(out, "%#lx", val);
		return;
	}
	strbuf_addf(out, "%ld", (long)val);
}

void syscall_ret__format(enum syscall_ret_kind kind, long ret, const struct syscall_args_ctx *ctx,
			 struct strbuf *out)
{
	switch (kind) {
	case SCR_DEFAULT:
		strbuf_addf(out, "%ld", ret);
		break;
	case SCR_FD:
		print_fd(out, (int)ret, ctx);
		break;
	case SCR_PID:
		print_pid(out, (pid_t)ret, ctx);
		break;
	case SCR_OPEN_FLAGS:
		syscall_args__open_flags(out, (unsigned int)ret);
		break;
	case SCR_FCNTL_GETFD:
		print_fcntl_getfd(out, (unsigned long)ret);
		break;
	case SCR_FCNTL_LEASE:
		print_fcntl_lease(out, (int)ret);
		break;
	}
}

/* trace.show_prefix: the C prefix put back on each name of the value
 * printed from start ("RDONLY|CLOEXEC" -> "O_RDONLY|O_CLOEXEC"; numbers
 * stay), on the first one only for first_only (socket types), and *resume
 * moved along. */
static void add_prefix(struct strbuf *out, size_t start, size_t *resume, const char *prefix,
		       bool first_only)
{
	char *text = xstrdup(out->buf + start);
	size_t keep = *resume - start, moved = keep;
	bool at_name = true;
	int names = 0;

	strbuf_setlen(out, start);
	for (size_t i = 0; text[i]; i++) {
		if (i == keep)
			moved = out->len - start;
		if (at_name && (isalpha((unsigned char)text[i]) || text[i] == '_') &&
		    !(first_only && names++)) {
			strbuf_addstr(out, prefix);
		}
		at_name = text[i] == '|';
		strbuf_addch(out, text[i]);
	}
	if (keep >= strlen(text))
		moved = out->len - start;
	*resume = start + moved;
	free(text);
}

/* The prefix perf shows a kind's names with (NULL: none). */
static const char *kind_prefix(const struct syscall_arg_fmt *a, const uint64_t *args)
{
	switch (a->kind) {
	case SCA_MODE_T:		return "S_";
	case SCA_OPEN_FLAGS:
	case SCA_PIPE_FLAGS:		return "O_";
	case SCA_FCNTL_ARG:		return (int)args[1] == F_SETFL ? "O_" : NULL;
	case SCA_MMAP_PROT:		return "PROT_";
	case SCA_MMAP_FLAGS:		return "MAP_";
	case SCA_SIGNUM:		return "SIG";
	case SCA_ARCH_PRCTL:		return "ARCH_";
	case SCA_FUTEX_OP:		return "FUTEX_";
	case SCA_FUTEX_VAL3:		return "FUTEX_BITSET_";
	case SCA_CLONE_FLAGS:		return "CLONE_";
	case SCA_GETRANDOM_FLAGS:	return "GRND_";
	case SCA_WAITID_OPTIONS:	return "W";
	case SCA_SK_TYPE:		return "SOCK_";
	case SCA_EFD_FLAGS:		return "EFD_";
	case SCA_PERF_FLAGS:		return "PERF_FLAG_";
	case SCA_MSG_FLAGS:		return "MSG_";
	case SCA_FLOCK_CMD:		return "LOCK_";
	case SCA_SYNC_FILE_RANGE:	return "SYNC_FILE_RANGE_";
	case SCA_SCHED_POLICY:		return "SCHED_";
	case SCA_SECCOMP_OP:		return "SECCOMP_SET_MODE_";
	case SCA_SECCOMP_FLAGS:		return "SECCOMP_FILTER_FLAG_";
	case SCA_MOUNT_FLAGS:		return "MS_";
	case SCA_FSMOUNT_ATTR:		return "MOUNT_ATTR_";
	case SCA_BITS:
	case SCA_STRARRAY:
	case SCA_PRCTL_OPTION:
	case SCA_FCNTL_CMD:
	case SCA_KCMP_TYPE:		return a->strarray->prefix;
	case SCA_SOCKOPT_LEVEL:		return "SOL_";
	case SCA_SK_PROTO:
		return (int)args[0] == AF_INET || (int)args[0] == AF_INET6 ? "IPPROTO_" : NULL;
	default:			return NULL;
	}
}

/* The value printed from start as perf shows it with trace.show_prefix. */
static void show_prefix(const struct syscall_arg_fmt *a, unsigned long val, const uint64_t *args,
			struct strbuf *out, size_t start, size_t *resume)
{
	const char *value = out->buf + start, *prefix = kind_prefix(a, args);
	bool listed = a->kind == SCA_STRARRAY || a->kind == SCA_FCNTL_CMD ||
		      a->kind == SCA_KCMP_TYPE || a->kind == SCA_PRCTL_OPTION ||
		      a->kind == SCA_SOCKOPT_LEVEL || a->kind == SCA_SK_PROTO;

	if (*resume < start)	/* perf's cursor went back over a bare "0x" */
		return;

	if (a->kind == SCA_FDAT && !strcmp(value, "CWD")) {
		strbuf_setlen(out, start);
		strbuf_addstr(out, "AT_FDCWD");
	} else if (a->kind == SCA_ACCMODE) {	/* perf suffixes these: R_OK */
		char *text = xstrdup(value);

		strbuf_setlen(out, start);
		for (char *c = text; *c; c++) {
			strbuf_addch(out, *c);
			if (strchr("RWXF", *c))
				strbuf_addstr(out, "_OK");
		}
		free(text);
	} else if (a->kind == SCA_EMPTY) {	/* perf prints the prefix alone, per bit */
		for (int bit = 0; bit < 32; bit++)
			if (val & (1UL << bit))
				strbuf_addf(out, "%s%s", out->len > start ? "|" : "",
					    !strcmp(a->name, "mask") ? "STATX_" : "AT_");
	} else if (a->kind == SCA_IOCTL_CMD && value[0] == '(' &&
		   isalpha((unsigned char)value[1])) {
		add_prefix(out, start + 1, resume, "_IOC_", false);	/* the direction */
		return;
	} else if (!prefix || !*prefix ||
		   (!strcmp(value, "NONE") && a->kind != SCA_MMAP_PROT)) {
		return;		/* no prefix, or zero msg flags' NONE */
	} else if ((isdigit((unsigned char)value[0]) || value[0] == '-') && !strchr(value, '|')) {
		/* a number a list has no name for */
		if (listed)
			strbuf_addf(out, " /* %s??? */", prefix);
	} else {
		add_prefix(out, start, resume, prefix, a->kind == SCA_SK_TYPE);
		return;
	}
	*resume = out->len;
}

/* Prints one argument; *resume is left where the next one is to be written
 * (out->len but for perf's "0x" of unnamed flag bits). */
static void print_value(const struct syscall_arg_fmt *a, unsigned long val,
			const uint64_t *args, const struct syscall_args_ctx *ctx, unsigned int idx,
			unsigned int *mask, enum syscall_ret_kind *ret, struct strbuf *out,
			size_t *resume)
{
	static const struct flag_name pipe_flags[] = { FLAG(O_, CLOEXEC), FLAG(O_, NONBLOCK) };
	static const struct flag_name random_flags[] = { { 2, "RANDOM" }, { 1, "NONBLOCK" } };
	static const struct flag_name efd_flags[] = { FLAG(O_, CLOEXEC), FLAG(O_, NONBLOCK) };
	static const struct flag_name perf_flags[] = {
		{ 1, "FD_NO_GROUP" }, { 2, "FD_OUTPUT" }, { 4, "PID_CGROUP" }, { 8, "FD_CLOEXEC" },
	};

	switch (a->kind) {
	case SCA_LONG:
		strbuf_addf(out, "%ld", (long)val);
		break;
	case SCA_INT:
		strbuf_addf(out, "%d", (int)val);
		break;
	case SCA_SOCKADDR:
		if (ctx && ctx->strings && idx + 1 < SYSCALL_MAX_ARGS && ctx->strings[idx]) {
			print_sockaddr(out, (const unsigned char *)ctx->strings[idx], args[idx + 1],
				       a->strarray, ctx);
			break;
		}
		strbuf_addf(out, "%#lx", val);
		break;
	case SCA_HEX:
		strbuf_addf(out, "%#lx", val);
		break;
	case SCA_PTR:
		if (val)
			strbuf_addf(out, "%#lx", val);
		else
			strbuf_addstr(out, "NULL");
		break;
	case SCA_FILENAME:
		if (ctx && ctx->empty_strings)
			strbuf_addstr(out, "\"\"");
		else if (ctx && ctx->strings && idx < SYSCALL_MAX_ARGS && ctx->strings[idx])
			strbuf_addf(out, "\"%s\"", ctx->strings[idx]);
		else
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
		print_pid(out, (pid_t)val, ctx);
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
	case SCA_BITS:
		print_strarray_flags(out, val, a->strarray, resume);
		return;
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
	case SCA_PRCTL_OPTION:
		print_prctl_option(out, a->strarray, val, mask);
		break;
	case SCA_PRCTL_ARG2:
		if ((int)args[0] == PR_SET_NAME)
			strbuf_addf(out, "%#lx", val);
		else
			strbuf_addf(out, "%ld", (long)val);
		break;
	case SCA_PRCTL_ARG3:
		if ((int)args[0] == PR_SET_MM)
			strbuf_addf(out, "%#lx", val);
		else
			strbuf_addf(out, "%ld", (long)val);
		break;
	case SCA_MADV_BHV:
		print_madvise_behavior(out, (int)val);
		break;
	case SCA_IOCTL_CMD:
		print_ioctl_cmd(out, val);
		break;
	case SCA_FCNTL_CMD:
		*ret = fcntl_cmd_ret(val, mask);
		print_strarray(out, a->strarray, (int)val);
		break;
	case SCA_FCNTL_ARG:
		print_fcntl_arg(out, (int)args[1], val, ctx);
		break;
	case SCA_PERF_FLAGS:
		print_rest(out, val, print_any_flags(out, &val, perf_flags, NR(perf_flags), false));
		break;
	case SCA_SK_PROTO:
		print_sk_proto(out, (int)val, (int)args[0]);
		break;
	case SCA_SOCKOPT_LEVEL:
		print_sockopt_level(out, (int)val);
		break;
	case SCA_MSG_FLAGS:
		print_msg_flags(out, val);
		break;
	case SCA_FLOCK_CMD:
		print_flock_cmd(out, val);
		break;
	case SCA_SYNC_FILE_RANGE:
		print_sync_file_range(out, val, resume);
		return;
	case SCA_SCHED_POLICY:
		print_sched_policy(out, val);
		break;
	case SCA_SECCOMP_OP:
		print_seccomp_op(out, val);
		break;
	case SCA_SECCOMP_FLAGS:
		print_seccomp_flags(out, val);
		break;
	case SCA_KCMP_TYPE:
		if ((int)val != 0)	/* KCMP_FILE compares fds, the others nothing */
			*mask |= ARG_BIT(idx + 1) | ARG_BIT(idx + 2);
		print_strarray(out, a->strarray, (int)val);
		break;
	case SCA_MOUNT_FLAGS:
		print_mount_flags(out, val, resume);
		return;
	case SCA_FSMOUNT_ATTR:
		print_fsmount_attr(out, val, resume);
		return;
	case SCA_CHAR_ARRAY:	/* tp_fields__format prints these */
	case SCA_EMPTY:
		break;
	}
	*resume = out->len;
}

enum syscall_ret_kind syscall_args__format(const struct syscall *sc,
					   const uint64_t args[SYSCALL_MAX_ARGS],
					   const struct syscall_args_ctx *ctx, struct strbuf *out)
{
	enum syscall_ret_kind ret = SCR_DEFAULT;
	unsigned int mask = 0;
	size_t start = out->len, resume = out->len, value;

	for (int i = 0; i < sc->nr_args; i++) {
		const struct syscall_arg_fmt *a = &sc->args[i];
		unsigned long val = (unsigned long)args[i];

		if (mask & ARG_BIT(i))
			continue;
		if (a->kind == SCA_MOUNT_FLAGS)
			val = mount_flags_value(val);
		/* zeros are left out unless they have a name */
		if (!val && !a->show_zero && a->kind != SCA_STRARRAY && !(ctx && ctx->show_zeros))
			continue;
		strbuf_setlen(out, resume);
		if (out->len > start)
			strbuf_addstr(out, ", ");
		if (!(ctx && ctx->hide_names))
			strbuf_addf(out, "%s: ", a->name);
		value = out->len;
		print_value(a, val, args, ctx, i, &mask, &ret, out, &resume);
		if (ctx && ctx->show_prefix)
			show_prefix(a, val, args, out, value, &resume);
	}
	return ret;
}

/* A field's integer, unsigned, of its size. */
static uint64_t field_value(const struct tep_format_field *f, const unsigned char *raw)
{
	uint64_t v = 0;

	switch (f->size) {
	case 1:
		return raw[f->offset];
	case 2: {
		uint16_t v16;

		memcpy(&v16, raw + f->offset, 2);
		return v16;
	}
	case 4: {
		uint32_t v32;

		memcpy(&v32, raw + f->offset, 4);
		return v32;
	}
	case 8:
		memcpy(&v, raw + f->offset, 8);
		return v;
	}
	return 0;
}

void tp_fields__format(const struct tep_event *ev, const void *raw, size_t raw_size,
		       const struct syscall_args_ctx *ctx, const struct syscall_arg_fmt *ret_fmt,
		       struct strbuf *out)
{
	const unsigned char *data = raw;
	size_t start = out->len;
	unsigned int mask = 0;
	enum syscall_ret_kind ret = SCR_DEFAULT;
	int idx = 0;
	size_t resume;

	for (struct tep_format_field *f = ev->format.fields; f; f = f->next, idx++) {
		struct syscall_arg_fmt a = { .name = f->name, .kind = syscall_arg__kind(f) };
		uint64_t args[SYSCALL_MAX_ARGS] = { 0 };

		if (ret_fmt && !strcmp(f->name, "ret"))
			a = *ret_fmt;

		if ((size_t)f->offset + f->size > raw_size)
			continue;
		if (a.kind == SCA_CHAR_ARRAY) {
			size_t off = f->offset, len = f->arraylen;
			const char *str;

			if (f->flags & TEP_FIELD_IS_DYNAMIC) {
				uint32_t loc = (uint32_t)field_value(f, data);

				off = loc & 0xffff;
				len = loc >> 16;
				if (f->flags & TEP_FIELD_IS_RELATIVE)
					off += f->offset + f->size;
			}
			if (off + len > raw_size)
				continue;
			str = (const char *)data + off;
			if (out->len > start)
				strbuf_addstr(out, ", ");
			if (!(ctx && ctx->hide_names))
				strbuf_addf(out, "%s: ", f->name);
			strbuf_addf(out, "\"%.*s\"", (int)strnlen(str, len), str);
			continue;
		}
		if (f->flags & TEP_FIELD_IS_ARRAY)
			continue;
		args[0] = field_value(f, data);
		/* zeros are left out unless they have a name */
		if (!args[0] && !a.show_zero && a.kind != SCA_STRARRAY && !(ctx && ctx->show_zeros))
			continue;
		if (out->len > start)
			strbuf_addstr(out, ", ");
		if (!(ctx && ctx->hide_names))
			strbuf_addf(out, "%s: ", f->name);
		print_value(&a, (unsigned long)args[0], args, ctx, idx & 31, &mask, &ret, out,
			    &resume);
	}
}
