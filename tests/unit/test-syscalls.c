/* Unit tests for core/analysis syscalls and syscall-args: the names from the
 * kernel headers, perf 6.1's beautifiers (expected strings are what perf
 * trace printed for the same values), -e parsing and the tracefs formats. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "core/analysis/syscalls.h"
#include "core/events/tracepoint.h"

static void test_names(void **state)
{
	assert_string_equal(syscall__name(0), "read");
	assert_string_equal(syscall__name(262), "newfstatat");
	assert_int_equal(syscall__id("openat"), 257);
	assert_int_equal(syscall__id("no_such_call"), -1);
	assert_null(syscall__name(-1));
	assert_string_equal(errno__name(2), "ENOENT");
	assert_string_equal(errno__name(11), "EAGAIN");
	assert_null(syscall__name(100000));
	assert_int_equal(syscall__id(syscall__name(1)), 1);
	assert_string_equal(syscall__name(231), "exit_group");
	assert_int_equal(syscall__id("futex"), 202);
}

/* pcl script's built-ins name errnos as perf's Python scripts do */
static void test_script_errno_names(void **state)
{
	assert_string_equal(errno__script_name(-ENOENT), "ENOENT");
	assert_string_equal(errno__script_name(EBADF), "EBADF");
	assert_string_equal(errno__script_name(-EDEADLK), "EDEADLOCK");
	assert_string_equal(errno__script_name(-EOPNOTSUPP), "ENOTSUP");
	assert_null(errno__script_name(0));
	assert_null(errno__script_name(-5000));
}

#define ASSERT_FMT(call, want)                                \
	do {                                                  \
		struct strbuf sb = STRBUF_INIT;               \
		call;                                         \
		assert_string_equal(strbuf_str(&sb), want);   \
		strbuf_release(&sb);                          \
	} while (0)

static void test_open_flags(void **state)
{
	ASSERT_FMT(syscall_args__open_flags(&sb, O_RDONLY | O_CLOEXEC), "RDONLY|CLOEXEC");
	ASSERT_FMT(syscall_args__open_flags(&sb, O_WRONLY), "WRONLY");
	ASSERT_FMT(syscall_args__open_flags(&sb, O_WRONLY | O_CREAT | O_TRUNC),
		   "CREAT|TRUNC|WRONLY");
	ASSERT_FMT(syscall_args__open_flags(&sb, O_RDONLY | 0100000), "RDONLY|LARGEFILE");
	ASSERT_FMT(syscall_args__open_flags(&sb, O_RDWR | 0x40000000), "RDWR|0x40000000");
}

static void test_mmap(void **state)
{
	ASSERT_FMT(syscall_args__mmap_prot(&sb, PROT_READ | PROT_EXEC), "READ|EXEC");
	ASSERT_FMT(syscall_args__mmap_prot(&sb, PROT_READ | PROT_WRITE), "READ|WRITE");
	ASSERT_FMT(syscall_args__mmap_flags(&sb, MAP_PRIVATE | MAP_FIXED | MAP_DENYWRITE),
		   "PRIVATE|FIXED|DENYWRITE");
	ASSERT_FMT(syscall_args__mmap_flags(&sb, MAP_PRIVATE | MAP_ANONYMOUS), "PRIVATE|ANONYMOUS");
}

static void test_mode(void **state)
{
	ASSERT_FMT(syscall_args__mode(&sb, 0666), "IRUGO|IWUGO");
	ASSERT_FMT(syscall_args__mode(&sb, 0644), "IRUGO|IWUSR");
	ASSERT_FMT(syscall_args__mode(&sb, 0700), "IRWXU");
}

static void test_filter(void **state)
{
	char *bad;
	bool *on = syscall_filter__parse("open*,!openat", &bad);

	assert_non_null(on);
	assert_true(on[syscall__id("open")]);
	assert_true(on[syscall__id("open_by_handle_at")]);
	assert_false(on[syscall__id("openat")]);
	assert_false(on[syscall__id("read")]);
	free(on);

	on = syscall_filter__parse("!write", &bad);
	assert_non_null(on);
	assert_true(on[syscall__id("read")]);
	assert_false(on[syscall__id("write")]);
	free(on);

	assert_null(syscall_filter__parse("write,nosuchcall", &bad));
	assert_string_equal(bad, "nosuchcall");
	free(bad);
}

static int need_tracefs(void **state)
{
	if (!tracing_events_path() || tracepoint__id("syscalls", "sys_enter_openat") < 0)
		skip();
	return 0;
}

/* openat from the tracefs format: CWD, the pointer perf cannot read, the
 * flags; the mode hidden without O_CREAT, zero arguments left out */
/* The calls' arguments formatted alone, as perf 6.1 printed them for the
 * same values (tests/fixtures/trace_args). */
static void expect_format(struct syscall_table *t, const char *name,
			  const uint64_t args[SYSCALL_MAX_ARGS], const char *want)
{
	const struct syscall *sc = syscall_table__get(t, syscall__id(name));
	struct strbuf sb = STRBUF_INIT;

	assert_non_null(sc);
	syscall_args__format(sc, args, NULL, &sb);
	assert_string_equal(strbuf_str(&sb), want);
	strbuf_release(&sb);
}

static void test_format_flag_quirks(void **state)
{
	struct syscall_table *t = syscall_table__new();
	uint64_t mv[SYSCALL_MAX_ARGS] = { (uint64_t)-1, 0x23, (uint64_t)-1, 0x25, 0x88 };
	uint64_t mount[SYSCALL_MAX_ARGS] = { 0x1e, 0x10, 0x20, 0xc0ed0201 };
	uint64_t fsmount[SYSCALL_MAX_ARGS] = { (uint64_t)-1, 0, 0x100 };
	uint64_t sync[SYSCALL_MAX_ARGS] = { (uint64_t)-1, 0, 0, 7 };
	uint64_t recv[SYSCALL_MAX_ARGS] = { (uint64_t)-1, 0x10, 1, 0x10000040 };

	/* unnamed bits inside the list: a bare "0x" and perf's cursor a step back */
	expect_format(t, "move_mount", mv,
		      "from_dfd: -1, from_pathname: 0x23, to_dfd: -1, to_pathname: 0x25, "
		      "flags:|0x");
	mv[4] = 0x109;
	expect_format(t, "move_mount", mv,
		      "from_dfd: -1, from_pathname: 0x23, to_dfd: -1, to_pathname: 0x25, "
		      "flags: F_SYMLINKS|SET_GROUP");
	/* mount's old magic is dropped first */
	expect_format(t, "mount", mount,
		      "dev_name: 0x1e, dir_name: 0x10, type: 0x20, flags: RDONLY|0x");
	mount[3] = 0xc0ed0000;
	expect_format(t, "mount", mount, "dev_name: 0x1e, dir_name: 0x10, type: 0x20");
	expect_format(t, "fsmount", fsmount, "fs_fd: -1, attr_flags:|RELATIME");
	expect_format(t, "sync_file_range", sync, "fd: -1, flags: WRITE_AND_WAIT0");
	expect_format(t, "recvfrom", recv,
		      "fd: -1, ubuf: 0x10, size: 1, flags: DONTWAIT|0x10000000");
	syscall_table__delete(t);
}

static void test_format_openat(void **state)
{
	struct syscall_table *t = syscall_table__new();
	const struct syscall *sc = syscall_table__get(t, syscall__id("openat"));
	uint64_t args[SYSCALL_MAX_ARGS] = { (uint64_t)-100, 0x7fdb7abf70b1, O_RDONLY | O_CLOEXEC,
					    0644 };
	struct strbuf sb = STRBUF_INIT;

	assert_non_null(sc);
	assert_int_equal(sc->nr_args, 4);
	syscall_args__format(sc, args, NULL, &sb);
	assert_string_equal(strbuf_str(&sb),
			    "dfd: CWD, filename: 0x7abf70b1, flags: RDONLY|CLOEXEC");
	strbuf_reset(&sb);
	args[2] = O_WRONLY | O_CREAT;
	syscall_args__format(sc, args, NULL, &sb);
	assert_string_equal(strbuf_str(&sb),
			    "dfd: CWD, filename: 0x7abf70b1, flags: CREAT|WRONLY, "
			    "mode: IRUGO|IWUSR");
	strbuf_release(&sb);

	sc = syscall_table__get(t, syscall__id("mmap"));
	assert_non_null(sc);
	assert_true(sc->hexret);
	{
		uint64_t margs[SYSCALL_MAX_ARGS] = { 0, 8192, PROT_READ | PROT_WRITE,
						     MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t)-1, 0 };

		syscall_args__format(sc, margs, NULL, &sb);
		assert_string_equal(strbuf_str(&sb),
				    "len: 8192, prot: READ|WRITE, flags: PRIVATE|ANONYMOUS");
		strbuf_release(&sb);
	}
	syscall_table__delete(t);
}

/* A sockaddr the caller read: decoded as perf's augmenter shows it; not
 * read, the pointer in hex as perf 6.1 shows it here. */
static void expect_sockaddr(struct syscall_table *t, const char *name, uint64_t *args,
			    const void *sa, size_t len, bool prefix, const char *want)
{
	const struct syscall *sc = syscall_table__get(t, syscall__id(name));
	char bytes[sizeof(struct sockaddr_storage)] = { 0 };
	const char *strs[SYSCALL_MAX_ARGS] = { NULL };
	struct syscall_args_ctx ctx = { .strings = strs, .show_prefix = prefix };
	struct strbuf sb = STRBUF_INIT;
	int at = !strcmp(name, "sendto") ? 4 : 1;

	assert_non_null(sc);
	if (sa)
		memcpy(bytes, sa, len);
	strs[at] = bytes;
	args[at + 1] = len;
	syscall_args__format(sc, args, sa ? &ctx : NULL, &sb);
	assert_string_equal(strbuf_str(&sb), want);
	strbuf_release(&sb);
}

static void test_format_sockaddr(void **state)
{
	struct syscall_table *t = syscall_table__new();
	uint64_t args[SYSCALL_MAX_ARGS] = { 3, 0x7ffd4334b140 };
	uint64_t send[SYSCALL_MAX_ARGS] = { 3, 0x7ffd4334b000, 2, 0, 0x7ffd4334b140 };
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(80),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(9),
				    .sin6_addr = IN6ADDR_LOOPBACK_INIT,
				    .sin6_flowinfo = htonl(5), .sin6_scope_id = 2 };
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/run/x.sock" };
	struct sockaddr_un abstract = { .sun_family = AF_UNIX, .sun_path = "\0pcl" };
	struct sockaddr_storage netlink = { .ss_family = AF_NETLINK };
	uint16_t odd = 200;

	expect_sockaddr(t, "connect", args, NULL, 16, false,
			"fd: 3, uservaddr: 0x7ffd4334b140, addrlen: 16");
	expect_sockaddr(t, "connect", args, &in, sizeof(in), false,
			"fd: 3, uservaddr: { .family: INET, port: 80, addr: 127.0.0.1 }, "
			"addrlen: 16");
	expect_sockaddr(t, "connect", args, &in, sizeof(in), true,
			"fd: 3, uservaddr: { .family: PF_INET, port: 80, addr: 127.0.0.1 }, "
			"addrlen: 16");
	expect_sockaddr(t, "bind", args, &in6, sizeof(in6), false,
			"fd: 3, umyaddr: { .family: INET6, port: 9, addr: ::1, flowinfo: 5, "
			"scope_id: 2 }, addrlen: 28");
	expect_sockaddr(t, "bind", args, &un, offsetof(struct sockaddr_un, sun_path) + 12, false,
			"fd: 3, umyaddr: { .family: LOCAL, path: /run/x.sock }, addrlen: 14");
	expect_sockaddr(t, "bind", args, &abstract, offsetof(struct sockaddr_un, sun_path) + 4,
			false, "fd: 3, umyaddr: { .family: LOCAL, path: @pcl }, addrlen: 6");
	expect_sockaddr(t, "bind", args, &netlink, 12, false,
			"fd: 3, umyaddr: { .family: NETLINK }, addrlen: 12");
	expect_sockaddr(t, "bind", args, &odd, 2, false,
			"fd: 3, umyaddr: { .family: 200 }, addrlen: 2");
	expect_sockaddr(t, "sendto", send, &in, sizeof(in), false,
			"fd: 3, buff: 0x7ffd4334b000, len: 2, addr: { .family: INET, port: 80, "
			"addr: 127.0.0.1 }, addr_len: 0x10");
	syscall_table__delete(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_script_errno_names),
		cmocka_unit_test(test_open_flags),
		cmocka_unit_test(test_mmap),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_filter),
		cmocka_unit_test_setup(test_format_openat, need_tracefs),
		cmocka_unit_test_setup(test_format_flag_quirks, need_tracefs),
		cmocka_unit_test_setup(test_format_sockaddr, need_tracefs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
