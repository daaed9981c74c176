/* syscalls: the syscall table of pcl trace (names, tracepoint formats, perf's
 * per-syscall rules).  The argument beautifiers are in syscall-args.c. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "core/analysis/syscalls.h"
#include "core/events/tracepoint.h"
#include "syscall-tables.inc"
#include "util/glob.h"
#include "util/util.h"

static const char *const syscall_names[] = { SYSCALL_NAMES_INIT };
static const char *const errno_names[] = { ERRNO_NAMES_INIT };

#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

const char *syscall__name(int nr)
{
	return nr >= 0 && nr < ARRAY_LEN(syscall_names) ? syscall_names[nr] : NULL;
}

int syscall__max_nr(void)
{
	return ARRAY_LEN(syscall_names) - 1;
}

int syscall__id(const char *name)
{
	for (int nr = 0; nr < ARRAY_LEN(syscall_names); nr++)
		if (syscall_names[nr] && !strcmp(syscall_names[nr], name))
			return nr;
	return -1;
}

const char *errno__name(int err)
{
	return err > 0 && err < ARRAY_LEN(errno_names) ? errno_names[err] : NULL;
}

const char *errno__script_name(long err)
{
	if (err < 0)
		err = -err;
	if (err == EDEADLK)
		return "EDEADLOCK";
	if (err == EOPNOTSUPP)
		return "ENOTSUP";
	return err <= INT_MAX ? errno__name((int)err) : NULL;
}

/* Value lists of the strarray arguments (perf 6.1 shows these names). */
#define STRARRAY(var, off, pfx, ...)                                                      \
	static const char *const var##_names[] = { __VA_ARGS__ };                         \
	static const struct strarray var = { off, ARRAY_LEN(var##_names), var##_names, NULL, \
					     false, pfx }

STRARRAY(sa_bpf_cmd, 0, "BPF_", "MAP_CREATE", "MAP_LOOKUP_ELEM", "MAP_UPDATE_ELEM",
	 "MAP_DELETE_ELEM",
	 "MAP_GET_NEXT_KEY", "PROG_LOAD", "OBJ_PIN", "OBJ_GET", "PROG_ATTACH", "PROG_DETACH",
	 "PROG_TEST_RUN", "PROG_GET_NEXT_ID", "MAP_GET_NEXT_ID", "PROG_GET_FD_BY_ID",
	 "MAP_GET_FD_BY_ID", "OBJ_GET_INFO_BY_FD", "PROG_QUERY", "RAW_TRACEPOINT_OPEN",
	 "BTF_LOAD", "BTF_GET_FD_BY_ID", "TASK_FD_QUERY", "MAP_LOOKUP_AND_DELETE_ELEM",
	 "MAP_FREEZE", "BTF_GET_NEXT_ID", "MAP_LOOKUP_BATCH", "MAP_LOOKUP_AND_DELETE_BATCH",
	 "MAP_UPDATE_BATCH", "MAP_DELETE_BATCH", "LINK_CREATE", "LINK_UPDATE", "LINK_GET_FD_BY_ID",
	 "LINK_GET_NEXT_ID", "ENABLE_STATS", "ITER_CREATE", "LINK_DETACH", "PROG_BIND_MAP");
STRARRAY(sa_epoll_ctl_ops, 1, "EPOLL_CTL_", "ADD", "DEL", "MOD");
STRARRAY(sa_itimers, 0, "ITIMER_", "REAL", "VIRTUAL", "PROF");
STRARRAY(sa_whences, 0, "SEEK_", "SET", "CUR", "END", "DATA", "HOLE");
STRARRAY(sa_fcntl_linux_cmds, 1024, "F_", "SETLEASE", "GETLEASE", "NOTIFY", [5] = "CANCELLK",
	 "DUPFD_CLOEXEC", "SETPIPE_SZ", "GETPIPE_SZ", "ADD_SEALS", "GET_SEALS", "GET_RW_HINT",
	 "SET_RW_HINT", "GET_FILE_RW_HINT", "SET_FILE_RW_HINT");
static const char *const sa_fcntl_cmds_names[] = {
	"DUPFD", "GETFD", "SETFD", "GETFL", "SETFL", "GETLK", "SETLK", "SETLKW", "SETOWN",
	"GETOWN", "SETSIG", "GETSIG", "GETLK64", "SETLK64", "SETLKW64", "SETOWN_EX", "GETOWN_EX",
	"GETOWNER_UIDS" };
static const struct strarray sa_fcntl_cmds = { 0, ARRAY_LEN(sa_fcntl_cmds_names),
					       sa_fcntl_cmds_names, &sa_fcntl_linux_cmds,
					       false, "F_" };
STRARRAY(sa_rlimits, 0, "RLIMIT_", "CPU", "FSIZE", "DATA", "STACK", "CORE", "RSS", "NPROC",
	 "NOFILE",
	 "MEMLOCK", "AS", "LOCKS", "SIGPENDING", "MSGQUEUE", "NICE", "RTPRIO", "RTTIME");
STRARRAY(sa_sighow, 0, "SIG_", "BLOCK", "UNBLOCK", "SETMASK");
STRARRAY(sa_clockid, 0, "CLOCK_", "REALTIME", "MONOTONIC", "PROCESS_CPUTIME_ID",
	 "THREAD_CPUTIME_ID",
	 "MONOTONIC_RAW", "REALTIME_COARSE", "MONOTONIC_COARSE", "BOOTTIME", "REALTIME_ALARM",
	 "BOOTTIME_ALARM", "SGI_CYCLE", "TAI");
/* names by bit number, lowest first */
STRARRAY(sa_mremap_flags, 0, "MREMAP_", "MAYMOVE", "FIXED", "DONTUNMAP");
STRARRAY(sa_rename_flags, 0, "RENAME_", "NOREPLACE", "EXCHANGE", "WHITEOUT");
STRARRAY(sa_pkey_access, 0, "PKEY_", "DISABLE_ACCESS", "DISABLE_WRITE");
STRARRAY(sa_fspick_flags, 0, "FSPICK_", "CLOEXEC", "SYMLINK_NOFOLLOW", "NO_AUTOMOUNT",
	 "EMPTY_PATH");
STRARRAY(sa_fsmount_flags, 0, "FSMOUNT_", "CLOEXEC");
STRARRAY(sa_move_mount_flags, 0, "MOVE_MOUNT_", "F_SYMLINKS", "F_AUTOMOUNTS", "F_EMPTY_PATH", NULL,
	 "T_SYMLINKS", "T_AUTOMOUNTS", "T_EMPTY_PATH", NULL, "SET_GROUP");
/* values */
STRARRAY(sa_fsconfig_cmds, 0, "FSCONFIG_", "SET_FLAG", "SET_STRING", "SET_BINARY", "SET_PATH",
	 "SET_PATH_EMPTY", "SET_FD", "CMD_CREATE", "CMD_RECONFIGURE");
STRARRAY(sa_kcmp_types, 0, "KCMP_", "FILE", "VM", "FILES", "FS", "SIGHAND", "IO", "SYSVSEM",
	 "EPOLL_TFD");
STRARRAY(sa_keyctl_options, 0, "KEYCTL_", "GET_KEYRING_ID", "JOIN_SESSION_KEYRING", "UPDATE",
	 "REVOKE",
	 "CHOWN", "SETPERM", "DESCRIBE", "CLEAR", "LINK", "UNLINK", "SEARCH", "READ",
	 "INSTANTIATE", "NEGATE", "SET_REQKEY_KEYRING", "SET_TIMEOUT", "ASSUME_AUTHORITY",
	 "GET_SECURITY", "SESSION_TO_PARENT", "REJECT", "INSTANTIATE_IOV", "INVALIDATE",
	 "GET_PERSISTENT");
static const char *const sa_prctl_options_names[] = { PRCTL_OPTIONS_INIT };
static const struct strarray sa_prctl_options = { 0, ARRAY_LEN(sa_prctl_options_names),
						  sa_prctl_options_names, NULL, false, "PR_" };
STRARRAY(sa_socket_families, 0, "PF_", "UNSPEC", "LOCAL", "INET", "AX25", "IPX", "APPLETALK",
	 "NETROM", "BRIDGE", "ATMPVC", "X25", "INET6", "ROSE", "DECnet", "NETBEUI", "SECURITY",
	 "KEY", "NETLINK", "PACKET", "ASH", "ECONET", "ATMSVC", "RDS", "SNA", "IRDA", "PPPOX",
	 "WANPIPE", "LLC", "IB", "MPLS", "CAN", "TIPC", "BLUETOOTH", "IUCV", "RXRPC", "ISDN",
	 "PHONET", "IEEE802154", "CAIF", "ALG", "NFC", "VSOCK", "KCM", "QIPCRTR", "SMC", "XDP",
	 "MCTP");

/* perf's per-syscall rules: return value kinds and the arguments whose
 * meaning the format's types cannot tell. */
struct fmt_arg {
	enum syscall_arg_kind kind;	/* SCA_LONG: decided from the format */
	const struct strarray *strarray;
	bool show_zero;
};

struct syscall_fmt {
	const char *name;
	const char *alias;		/* its tracepoint's name when it differs */
	bool hexret, errpid, timeout;
	struct fmt_arg arg[SYSCALL_MAX_ARGS];
};

#define K(k) { .kind = (k) }
#define SA(a) { .kind = SCA_STRARRAY, .strarray = &(a) }
#define BITS(a) { .kind = SCA_BITS, .strarray = &(a) }
#define SOCKADDR { .kind = SCA_SOCKADDR, .strarray = &sa_socket_families }

static const struct syscall_fmt syscall_fmts[] = {
	{ .name = "access", .arg = { [1] = K(SCA_ACCMODE) } },
	{ .name = "arch_prctl", .arg = { [0] = K(SCA_ARCH_PRCTL), [1] = K(SCA_PTR) } },
	/* sockaddrs: perf's hex, with no NULL */
	{ .name = "bind", .arg = { [0] = K(SCA_INT), [1] = SOCKADDR, [2] = K(SCA_INT) } },
	{ .name = "bpf", .arg = { [0] = SA(sa_bpf_cmd) } },
	{ .name = "brk", .hexret = true, .arg = { [0] = K(SCA_PTR) } },
	{ .name = "clock_gettime", .arg = { [0] = SA(sa_clockid) } },
	{ .name = "clone", .errpid = true,
	  .arg = { [0] = K(SCA_CLONE_FLAGS), [1] = K(SCA_HEX), [2] = K(SCA_HEX),
		   [3] = K(SCA_HEX), [4] = K(SCA_HEX) } },
	{ .name = "close", .arg = { [0] = K(SCA_CLOSE_FD) } },
	{ .name = "connect", .arg = { [0] = K(SCA_INT), [1] = SOCKADDR, [2] = K(SCA_INT) } },
	{ .name = "epoll_ctl", .arg = { [1] = SA(sa_epoll_ctl_ops) } },
	{ .name = "eventfd2", .arg = { [1] = K(SCA_EFD_FLAGS) } },
	{ .name = "fchmodat", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "fchownat", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "fcntl",
	  .arg = { [1] = { SCA_FCNTL_CMD, &sa_fcntl_cmds, true }, [2] = K(SCA_FCNTL_ARG) } },
	{ .name = "flock", .arg = { [1] = K(SCA_FLOCK_CMD) } },
	{ .name = "fsconfig", .arg = { [1] = SA(sa_fsconfig_cmds) } },
	{ .name = "fsmount", .arg = { [1] = BITS(sa_fsmount_flags), [2] = K(SCA_FSMOUNT_ATTR) } },
	{ .name = "fspick",
	  .arg = { [0] = K(SCA_FDAT), [1] = K(SCA_FILENAME), [2] = BITS(sa_fspick_flags) } },
	{ .name = "fstat", .alias = "newfstat" },
	{ .name = "fstatat", .alias = "newfstatat" },
	{ .name = "futex", .arg = { [1] = K(SCA_FUTEX_OP), [5] = K(SCA_FUTEX_VAL3) } },
	{ .name = "futimesat", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "getitimer", .arg = { [0] = SA(sa_itimers) } },
	/* getpid's errpid entry is out of order in perf's table: its lookup
	 * misses it, so perf prints getpid's result as a plain number */
	{ .name = "getpgid", .errpid = true },
	{ .name = "getppid", .errpid = true },
	{ .name = "getrandom", .arg = { [2] = K(SCA_GETRANDOM_FLAGS) } },
	{ .name = "getrlimit", .arg = { [0] = SA(sa_rlimits) } },
	{ .name = "getsockopt", .arg = { [1] = { SCA_SOCKOPT_LEVEL, NULL, true } } },
	{ .name = "gettid", .errpid = true },
	{ .name = "ioctl", .arg = { [1] = K(SCA_IOCTL_CMD), [2] = K(SCA_HEX) } },
	{ .name = "kcmp",
	  .arg = { [0] = K(SCA_PID), [1] = K(SCA_PID),
		   [2] = { .kind = SCA_KCMP_TYPE, .strarray = &sa_kcmp_types } } },
	{ .name = "keyctl", .arg = { [0] = SA(sa_keyctl_options) } },
	{ .name = "kill", .arg = { [1] = K(SCA_SIGNUM) } },
	{ .name = "linkat", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "lseek", .arg = { [2] = SA(sa_whences) } },
	{ .name = "lstat", .alias = "newlstat" },
	{ .name = "madvise", .arg = { [0] = K(SCA_HEX), [2] = K(SCA_MADV_BHV) } },
	{ .name = "mkdirat", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "mknodat", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "mmap", .hexret = true,
	  .arg = { [2] = K(SCA_MMAP_PROT), [3] = K(SCA_MMAP_FLAGS), [5] = K(SCA_HEX) } },
	{ .name = "mount", .arg = { [0] = K(SCA_FILENAME), [3] = K(SCA_MOUNT_FLAGS) } },
	{ .name = "move_mount",
	  .arg = { [0] = K(SCA_FDAT), [1] = K(SCA_FILENAME), [2] = K(SCA_FDAT),
		   [3] = K(SCA_FILENAME), [4] = BITS(sa_move_mount_flags) } },
	{ .name = "mprotect", .arg = { [0] = K(SCA_HEX), [2] = K(SCA_MMAP_PROT) } },
	{ .name = "mq_unlink", .arg = { [0] = K(SCA_FILENAME) } },
	{ .name = "mremap", .hexret = true, .arg = { [3] = BITS(sa_mremap_flags) } },
	{ .name = "name_to_handle_at", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "newfstatat", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "open", .arg = { [1] = K(SCA_OPEN_FLAGS) } },
	{ .name = "open_by_handle_at", .arg = { [0] = K(SCA_FDAT), [2] = K(SCA_OPEN_FLAGS) } },
	{ .name = "openat", .arg = { [0] = K(SCA_FDAT), [2] = K(SCA_OPEN_FLAGS) } },
	{ .name = "perf_event_open",
	  .arg = { [2] = K(SCA_INT), [3] = K(SCA_FD), [4] = K(SCA_PERF_FLAGS) } },
	{ .name = "pipe2", .arg = { [1] = K(SCA_PIPE_FLAGS) } },
	{ .name = "pkey_alloc", .arg = { [1] = BITS(sa_pkey_access) } },
	{ .name = "pkey_free", .arg = { [0] = K(SCA_INT) } },
	{ .name = "pkey_mprotect",
	  .arg = { [0] = K(SCA_HEX), [2] = K(SCA_MMAP_PROT), [3] = K(SCA_INT) } },
	{ .name = "poll", .timeout = true },
	{ .name = "ppoll", .timeout = true },
	{ .name = "prctl",
	  .arg = { [0] = { .kind = SCA_PRCTL_OPTION, .strarray = &sa_prctl_options },
		   [1] = K(SCA_PRCTL_ARG2),
		   [2] = K(SCA_PRCTL_ARG3) } },
	{ .name = "pread", .alias = "pread64" },
	{ .name = "preadv", .alias = "pread" },
	{ .name = "prlimit64", .arg = { [1] = SA(sa_rlimits) } },
	{ .name = "pwrite", .alias = "pwrite64" },
	{ .name = "readlinkat", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "renameat", .arg = { [0] = K(SCA_FDAT), [2] = K(SCA_FDAT) } },
	{ .name = "renameat2",
	  .arg = { [0] = K(SCA_FDAT), [2] = K(SCA_FDAT), [4] = BITS(sa_rename_flags) } },
	{ .name = "rt_sigaction", .arg = { [0] = K(SCA_SIGNUM) } },
	{ .name = "rt_sigprocmask", .arg = { [0] = SA(sa_sighow) } },
	{ .name = "rt_sigqueueinfo", .arg = { [1] = K(SCA_SIGNUM) } },
	{ .name = "rt_tgsigqueueinfo", .arg = { [2] = K(SCA_SIGNUM) } },
	{ .name = "sched_setscheduler", .arg = { [1] = K(SCA_SCHED_POLICY) } },
	{ .name = "seccomp", .arg = { [0] = K(SCA_SECCOMP_OP), [1] = K(SCA_SECCOMP_FLAGS) } },
	{ .name = "select", .timeout = true },
	{ .name = "recvfrom", .arg = { [3] = K(SCA_MSG_FLAGS) } },
	{ .name = "recvmmsg", .arg = { [3] = K(SCA_MSG_FLAGS) } },
	{ .name = "recvmsg", .arg = { [2] = K(SCA_MSG_FLAGS) } },
	{ .name = "sendfile", .alias = "sendfile64" },
	{ .name = "sendmmsg", .arg = { [3] = K(SCA_MSG_FLAGS) } },
	{ .name = "sendmsg", .arg = { [2] = K(SCA_MSG_FLAGS) } },
	{ .name = "sendto", .arg = { [3] = K(SCA_MSG_FLAGS), [4] = SOCKADDR } },
	{ .name = "set_tid_address", .errpid = true },
	{ .name = "setitimer", .arg = { [0] = SA(sa_itimers) } },
	{ .name = "setrlimit", .arg = { [0] = SA(sa_rlimits) } },
	{ .name = "setsockopt", .arg = { [1] = { SCA_SOCKOPT_LEVEL, NULL, true } } },
	{ .name = "socket",
	  .arg = { [0] = SA(sa_socket_families), [1] = K(SCA_SK_TYPE), [2] = K(SCA_SK_PROTO) } },
	{ .name = "socketpair", .arg = { [0] = SA(sa_socket_families), [1] = K(SCA_SK_TYPE) } },
	{ .name = "stat", .alias = "newstat" },
	{ .name = "statx", .arg = { [0] = K(SCA_FDAT), [2] = K(SCA_EMPTY), [3] = K(SCA_EMPTY) } },
	{ .name = "swapoff", .arg = { [0] = K(SCA_FILENAME) } },
	{ .name = "swapon", .arg = { [0] = K(SCA_FILENAME) } },
	{ .name = "symlinkat", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "sync_file_range", .arg = { [3] = K(SCA_SYNC_FILE_RANGE) } },
	{ .name = "tgkill", .arg = { [2] = K(SCA_SIGNUM) } },
	{ .name = "tkill", .arg = { [1] = K(SCA_SIGNUM) } },
	{ .name = "umount2", .alias = "umount", .arg = { [0] = K(SCA_FILENAME) } },
	{ .name = "uname", .alias = "newuname" },
	{ .name = "unlinkat", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "utimensat", .arg = { [0] = K(SCA_FDAT) } },
	{ .name = "wait4", .errpid = true, .arg = { [2] = K(SCA_WAITID_OPTIONS) } },
	{ .name = "waitid", .errpid = true, .arg = { [3] = K(SCA_WAITID_OPTIONS) } },
};

static const struct syscall_fmt *syscall_fmt__find(const char *name)
{
	for (int i = 0; i < ARRAY_LEN(syscall_fmts); i++)
		if (!strcmp(syscall_fmts[i].name, name))
			return &syscall_fmts[i];
	return NULL;
}

struct syscall_table {
	struct tep_handle *tep;
	struct syscall *calls;		/* [syscall__max_nr() + 1] */
	unsigned char *state;		/* per nr: 0 not read, 1 read, 2 missing */
};

struct syscall_table *syscall_table__new(void)
{
	struct syscall_table *t = xcalloc(1, sizeof(*t));
	int n = syscall__max_nr() + 1;

	t->tep = tep_alloc();
	t->calls = xcalloc(n, sizeof(*t->calls));
	t->state = xcalloc(n, 1);
	return t;
}

void syscall_table__delete(struct syscall_table *t)
{
	if (!t)
		return;
	if (t->tep)
		tep_free(t->tep);
	free(t->calls);
	free(t->state);
	free(t);
}

struct tep_event *syscall_table__tp_format(struct syscall_table *t, const char *sys,
					   const char *name)
{
	const char *events = tracing_events_path();
	struct tep_event *ev = NULL;
	char *path, *text;

	if (!events || !t->tep)
		return NULL;
	path = xasprintf("%s/%s/%s/format", events, sys, name);
	text = read_file_str(path);
	free(path);
	if (!text)
		return NULL;
	if (tep_parse_format(t->tep, &ev, text, strlen(text), sys) != TEP_ERRNO__SUCCESS)
		ev = NULL;
	free(text);
	return ev;
}

static struct tep_event *read_enter_format(struct syscall_table *t, const char *name)
{
	char *tp = xasprintf("sys_enter_%s", name);
	struct tep_event *ev = syscall_table__tp_format(t, "syscalls", tp);

	free(tp);
	return ev;
}

enum syscall_arg_kind syscall_arg__kind(const struct tep_format_field *f)
{
	size_t len = strlen(f->name);

	if (!strcmp(f->type, "const char *") &&
	    ((len >= 4 && !strcmp(f->name + len - 4, "name")) || strstr(f->name, "path")))
		return SCA_FILENAME;
	if ((f->flags & TEP_FIELD_IS_POINTER) || strstr(f->name, "addr"))
		return SCA_PTR;
	if (!strcmp(f->type, "pid_t"))
		return SCA_PID;
	if (!strcmp(f->type, "umode_t"))
		return SCA_MODE_T;
	if ((f->flags & TEP_FIELD_IS_ARRAY) && strstr(f->type, "char"))
		return SCA_CHAR_ARRAY;
	if ((!strcmp(f->type, "int") || !strcmp(f->type, "unsigned int") ||
	     !strcmp(f->type, "long")) && len >= 2 && !strcmp(f->name + len - 2, "fd"))
		return SCA_FD;
	return SCA_LONG;
}

static bool returns_fd(const char *name)
{
	static const char *const names[] = {
		"open", "openat", "openat2", "creat", "dup", "dup2", "dup3", "socket", "accept",
		"accept4", "epoll_create", "epoll_create1", "eventfd", "eventfd2", "memfd_create",
		"memfd_secret", "timerfd_create", "signalfd", "signalfd4", "inotify_init",
		"inotify_init1", "fanotify_init", "perf_event_open", "pidfd_open", "pidfd_getfd",
		"open_by_handle_at", "open_tree", "fsopen", "fspick", "fsmount", "userfaultfd",
		"io_uring_setup",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static bool syscall__load(struct syscall_table *t, int nr, struct syscall *sc)
{
	const char *name = syscall__name(nr);
	const struct syscall_fmt *fmt;
	struct tep_format_field *f;
	struct tep_event *ev;
	int i = 0;

	if (!name)
		return false;
	fmt = syscall_fmt__find(name);
	ev = read_enter_format(t, name);
	if (!ev && fmt && fmt->alias)
		ev = read_enter_format(t, fmt->alias);
	if (!ev)
		return false;

	sc->name = name;
	sc->is_exit = !strcmp(name, "exit_group") || !strcmp(name, "exit");
	sc->is_open = !strcmp(name, "open") || !strcmp(name, "openat");
	sc->returns_fd = returns_fd(name);
	if (fmt) {
		sc->has_fmt = true;
		sc->hexret = fmt->hexret;
		sc->errpid = fmt->errpid;
		sc->timeout = fmt->timeout;
	}
	sc->exit_ret = (struct syscall_arg_fmt){ .name = "ret" };
	if (fmt && fmt->arg[0].kind != SCA_LONG) {
		sc->exit_ret.kind = fmt->arg[0].kind;
		sc->exit_ret.strarray = fmt->arg[0].strarray;
		sc->exit_ret.show_zero = fmt->arg[0].show_zero;
	}
	f = ev->format.fields;
	if (f && (!strcmp(f->name, "__syscall_nr") || !strcmp(f->name, "nr")))
		f = f->next;
	for (; f && i < SYSCALL_MAX_ARGS; f = f->next, i++) {
		struct syscall_arg_fmt *a = &sc->args[i];

		a->name = f->name;
		if (fmt && fmt->arg[i].kind != SCA_LONG) {
			a->kind = fmt->arg[i].kind;
			a->strarray = fmt->arg[i].strarray;
			a->show_zero = fmt->arg[i].show_zero;
		} else {
			a->kind = syscall_arg__kind(f);
		}
	}
	sc->nr_args = i;
	return true;
}

const struct syscall *syscall_table__get(struct syscall_table *t, int nr)
{
	if (nr < 0 || nr > syscall__max_nr())
		return NULL;
	if (!t->state[nr])
		t->state[nr] = syscall__load(t, nr, &t->calls[nr]) ? 1 : 2;
	return t->state[nr] == 1 ? &t->calls[nr] : NULL;
}

bool *syscall_filter__parse(const char *expr, char **bad)
{
	int n = syscall__max_nr() + 1;
	bool *on = xcalloc(n, sizeof(*on));
	/* as perf: a list that begins with '!' is negated whole */
	bool negate_all = *expr == '!', any_positive = false;
	char *copy = xstrdup(expr), *save = NULL;

	*bad = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (*tok != '!' && !negate_all)
			any_positive = true;
	if (!any_positive)
		for (int nr = 0; nr < n; nr++)
			on[nr] = syscall_names[nr] != NULL;
	strcpy(copy, expr);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool negate = negate_all || *tok == '!';
		const char *pat = tok + (*tok == '!');
		bool matched = false;

		for (int nr = 0; nr < n; nr++) {
			if (!syscall_names[nr] || !glob_match(pat, syscall_names[nr]))
				continue;
			on[nr] = !negate;
			matched = true;
		}
		if (!matched) {
			*bad = xstrdup(pat);
			free(on);
			on = NULL;
			break;
		}
	}
	free(copy);
	return on;
}
