#!/bin/sh
# pcl lock report/contention vs perf lock on the same large contention
# recording (perf lock record -a of threads contending on their mmap
# lock): wall time and peak RSS side by side, ratios, identical output?
# Usage: bench/lock.sh [perf.data]   (default: record one in a temp dir)
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures >/dev/null
PERF=${PERF:-/usr/bin/perf}
PCL=./pcl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

data=$1
if [ -z "$data" ]; then
	data=$tmp/lock.data
	$PERF lock record -q -a -o "$data" -- build/fixtures/lock_contend 8 20000 \
		>/dev/null 2>&1
fi
echo "input: $data ($(du -h "$data" | cut -f1))"
cat "$data" >/dev/null

# run NAME ARGS... -> "seconds maxrss_kb"; the tables (stderr) kept in $tmp/out.NAME
run() {
	name=$1
	shift
	/usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/out.$name" || true
	cat "$tmp/time"
}
printf '%-22s %10s %10s %12s %12s %7s %7s %s\n' sub-command "perf (s)" "pcl (s)" \
	"perf RSS MB" "pcl RSS MB" "time" "RSS" output
for sub in report contention; do
	set -- $(run perf $PERF lock -i "$data" $sub); perf_s=$1 perf_kb=$2
	set -- $(run pcl $PCL lock -i "$data" $sub); pcl_s=$1 pcl_kb=$2
	if cmp -s "$tmp/out.perf" "$tmp/out.pcl"; then same=identical; else same=DIFFERENT; fi
	printf '%-22s %10s %10s %12.1f %12.1f %7.2f %7.2f %s\n' "lock $sub" "$perf_s" "$pcl_s" \
		"$(echo "$perf_kb / 1024" | bc -l)" "$(echo "$pcl_kb / 1024" | bc -l)" \
		"$(echo "$pcl_s / ($perf_s + 0.001)" | bc -l)" "$(echo "$pcl_kb / $perf_kb" | bc -l)" \
		"$same"
done
