#!/bin/sh
# bench/trace.sh [COUNT]: a syscall storm (dd copying COUNT single bytes,
# default 200000) untraced, under `pcl trace -s`, `perf trace -s`,
# `strace -c -f`, `pcl trace -o /dev/null` and `perf trace -o /dev/null`,
# side by side in one run.  Prints each wall time, the write calls each
# summary counted (COUNT + 3 when nothing is lost) and pcl's ratios.
set -e
cd "$(dirname "$0")/.."
make -s pcl
PERF=${PERF:-perf}
count=${1:-200000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
storm="dd if=/dev/zero of=/dev/null bs=1 count=$count"

# wall seconds of "$@", its stderr in $dir/err
wall() {
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>"$dir/err" || true
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc
}
# the write calls of a summary: pcl's and perf's rows, or strace -c's
writes() {
	awk '$1 == "write" { print $2; exit }
	     $NF == "write" && NF >= 5 { print $(NF - 1); exit }' "$dir/err"
}

base=$(wall $storm)
pcl_s=$(wall ./pcl trace -s -- $storm); pcl_n=$(writes)
perf_s=$(wall "$PERF" trace -s -- $storm); perf_n=$(writes)
strace_s=$(wall strace -c -f -- $storm); strace_n=$(writes)
pcl_o=$(wall ./pcl trace -o /dev/null -- $storm)
perf_o=$(wall "$PERF" trace -o /dev/null -- $storm)

printf '%-28s %8s %8s\n' "run" "wall s" "writes"
printf '%-28s %8.2f\n' "untraced" "$base"
printf '%-28s %8.2f %8s\n' "pcl trace -s" "$pcl_s" "$pcl_n"
printf '%-28s %8.2f %8s\n' "perf trace -s" "$perf_s" "$perf_n"
printf '%-28s %8.2f %8s\n' "strace -c -f" "$strace_s" "$strace_n"
printf '%-28s %8.2f\n' "pcl trace -o /dev/null" "$pcl_o"
printf '%-28s %8.2f\n' "perf trace -o /dev/null" "$perf_o"
echo "pcl/perf -s: $(echo "scale=2; $pcl_s / $perf_s" | bc)" \
     " pcl/strace -s: $(echo "scale=2; $pcl_s / $strace_s" | bc)" \
     " pcl/perf -o: $(echo "scale=2; $pcl_o / $perf_o" | bc)" \
     " pcl/strace -o: $(echo "scale=2; $pcl_o / $strace_s" | bc)"
