#!/bin/sh
# gen-syscall-names.sh CC: the build machine's system call numbers and names
# (from the kernel headers' <asm/unistd.h>) as C initializers "{ NR, "name" },",
# sorted by number, for src/core/analysis/syscall-table.c.  tracefs names the
# syscalls:sys_enter_* events but not their numbers, so the headers are the source.
cc=${1:-cc}
echo '#include <asm/unistd.h>' | $cc -E -dM - |
	awk '$1 == "#define" && $2 ~ /^__NR_/ && $3 ~ /^[0-9]+$/ {
		printf "%d %s\n", $3, substr($2, 6) }' |
	sort -n -k1,1 -u |
	awk '{ printf "\t{ %d, \"%s\" },\n", $1, $2 }'
