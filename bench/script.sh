#!/bin/sh
# pcl script vs perf script on the same callchain-heavy perf.data (>150K
# samples, recorded here): wall time and peak RSS side by side, and ratios.
# Usage: bench/script.sh [perf.data]   (default: record one in a temp dir)
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures >/dev/null
PERF=${PERF:-/usr/bin/perf}
PCL=./pcl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

data=$1
if [ -z "$data" ]; then
	data=$tmp/bench.data
	# cpu-clock every 5us of CPU time on two busy threads; a loaded machine
	# gives the threads less CPU, so record longer until there are enough
	ms=3000
	for try in 1 2 3; do
		$PERF record -q -g -e cpu-clock -c 5000 -o "$data" -- \
			build/fixtures/threads $ms 2 >/dev/null 2>&1
		samples=$($PCL script -F period -i "$data" 2>/dev/null | wc -l)
		[ "$samples" -gt 150000 ] && break
		ms=$((ms * 2))
	done
fi
samples=$($PCL script -F period -i "$data" 2>/dev/null | wc -l)
echo "input: $data ($(du -h "$data" | cut -f1), $samples samples)"

# measure NAME TOOL... -> "seconds maxrss_kb"; output kept in $tmp/out.NAME
measure() {
	name=$1
	shift
	/usr/bin/time -f "%e %M" -o "$tmp/time" "$@" -i "$data" >"$tmp/out.$name" 2>/dev/null
	cat "$tmp/time"
}
# warm the page cache once so neither pays for the first read
cat "$data" >/dev/null
set -- $(measure perf $PERF script); perf_s=$1 perf_kb=$2
set -- $(measure pcl $PCL script); pcl_s=$1 pcl_kb=$2
if cmp -s "$tmp/out.perf" "$tmp/out.pcl"; then same=identical; else same=DIFFERENT; fi

printf '%-12s %10s %12s\n' tool "wall (s)" "peak RSS (MB)"
printf '%-12s %10s %12.1f\n' "perf script" "$perf_s" "$(echo "$perf_kb / 1024" | bc -l)"
printf '%-12s %10s %12.1f\n' "pcl script" "$pcl_s" "$(echo "$pcl_kb / 1024" | bc -l)"
printf 'ratio pcl/perf: time %.2f, RSS %.2f (output %s)\n' \
	"$(echo "$pcl_s / ($perf_s + 0.001)" | bc -l)" "$(echo "$pcl_kb / $perf_kb" | bc -l)" "$same"
