/* syscall-table: names from the kernel headers the build saw (generated
 * into build/gen/syscall-names.inc, sorted by number); errno names from
 * the C library. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/syscall-table.h"

struct syscall_entry {
	long nr;
	const char *name;
};

static const struct syscall_entry syscalls[] = {
#include "syscall-names.inc"
};

#define NR_SYSCALLS (sizeof(syscalls) / sizeof(syscalls[0]))

static int by_nr(const void *key, const void *entry)
{
	long nr = *(const long *)key, other = ((const struct syscall_entry *)entry)->nr;

	return (nr > other) - (nr < other);
}

const char *syscall_table__name(long nr)
{
	const struct syscall_entry *e = bsearch(&nr, syscalls, NR_SYSCALLS, sizeof(*e), by_nr);

	return e ? e->name : NULL;
}

long syscall_table__nr(const char *name)
{
	for (size_t i = 0; i < NR_SYSCALLS; i++)
		if (!strcmp(syscalls[i].name, name))
			return syscalls[i].nr;
	return -1;
}

const char *errno_table__name(long err)
{
	if (err < 0)
		err = -err;
	if (err == 0 || err > 4095)
		return NULL;
	/* two numbers have two names: perf's scripts (Python's errno) print
	 * the other one than the C library */
	if (err == EDEADLK)
		return "EDEADLOCK";
	if (err == EOPNOTSUPP)
		return "ENOTSUP";
	return strerrorname_np((int)err);
}
