#!/bin/sh
# pcl kmem stat vs perf kmem stat on the same large slab recording
# (recorded here with perf kmem record): wall time and peak RSS side by
# side, ratios, and whether the outputs are identical.  (Large page
# recordings are not used: perf 6.1 gives up on them at the first page
# freed with another order than it was allocated with, and so does pcl.)
# Usage: bench/kmem.sh [perf.data]   (default: record one in a temp dir)
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures >/dev/null
PERF=${PERF:-/usr/bin/perf}
PCL=./pcl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

data=$1
if [ -z "$data" ]; then
	data=$tmp/kmem.data
	$PERF kmem --slab record -q -o "$data" -- \
		sh -c 'build/fixtures/lock_contend 4 400; ls -R /usr/share/doc >/dev/null' \
		>/dev/null 2>&1
fi
echo "input: $data ($(du -h "$data" | cut -f1))"
cat "$data" >/dev/null

# run NAME ARGS... -> "seconds maxrss_kb"; output kept in $tmp/out.NAME
run() {
	name=$1
	shift
	/usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >"$tmp/out.$name" 2>"$tmp/err.$name" || true
	cat "$tmp/time"
}
args="-i $data --caller --alloc"
set -- $(run perf $PERF kmem $args stat); perf_s=$1 perf_kb=$2
set -- $(run pcl $PCL kmem $args stat); pcl_s=$1 pcl_kb=$2
if cmp -s "$tmp/out.perf" "$tmp/out.pcl"; then same=identical; else same=DIFFERENT; fi

printf '%-16s %10s %12s\n' tool "wall (s)" "peak RSS (MB)"
printf '%-16s %10s %12.1f\n' "perf kmem stat" "$perf_s" "$(echo "$perf_kb / 1024" | bc -l)"
printf '%-16s %10s %12.1f\n' "pcl kmem stat" "$pcl_s" "$(echo "$pcl_kb / 1024" | bc -l)"
printf 'ratio pcl/perf: time %.2f, RSS %.2f (output %s)\n' \
	"$(echo "$pcl_s / ($perf_s + 0.001)" | bc -l)" "$(echo "$pcl_kb / $perf_kb" | bc -l)" "$same"
