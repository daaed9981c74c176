#!/bin/sh
# bench/flamegraph.sh [perf.data]: `pcl flamegraph` (perf.data -> SVG, one
# step) against `perf script > out` alone, the first of the three steps of
# perf script | stackcollapse-perf.pl | flamegraph.pl.  Without an argument
# it records a callchain profile of more than 150K samples first.  Prints
# the best of three runs of each (wall time and peak RSS) and their ratios
# (target: wall time <= 0.2).
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures
PERF=${PERF:-perf}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

data=$1
if [ -z "$data" ]; then
	data=$dir/perf.data
	# cpu-clock every 20 us on two threads: about 100K samples a second on
	# an idle machine; a busy one gets fewer, so record longer until the
	# file holds more than 150K samples
	for ms in 3000 6000 12000; do
		"$PERF" record -q -g -e cpu-clock -c 20000 -o "$data" -- \
			build/fixtures/flame cpu $ms >/dev/null 2>&1
		n=$("$PERF" script -F period -i "$data" 2>/dev/null | wc -l)
		[ "$n" -le 150000 ] || break
	done
fi

now() { date +%s.%N; }

# "WALL RSS": the best of three wall-clock times of a command (seconds)
# and its peak resident set (KB, from GNU time when installed)
best() {
	b="" rss=0
	for i in 1 2 3; do
		t0=$(now)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f %M -o "$dir/rss" sh -c "$1"
			rss=$(cat "$dir/rss")
		else
			sh -c "$1"
		fi
		t=$(awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%.6f", a - b }')
		b=$(awk -v t="$t" -v b="${b:-1e30}" 'BEGIN { print (t < b) ? t : b }')
	done
	echo "$b $rss"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'; }

set -- $(best "'$PERF' script -i '$data' > '$dir/out.txt' 2>/dev/null")
perf_t=$1 perf_rss=$2
set -- $(best "./pcl flamegraph -i '$data' -o '$dir/out.svg'")
pcl_t=$1 pcl_rss=$2
samples=$(grep -c '^[^[:space:]].* [0-9]*\.[0-9]*: ' "$dir/out.txt" || true)
printf 'date:                %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
printf 'perf.data:           %s MB, %s samples\n' \
	"$(($(stat -c %s "$data") / 1048576))" "$samples"
printf 'perf script > out:   %.3f s, %s KB RSS (%s MB of text)\n' "$perf_t" "$perf_rss" \
	"$(($(stat -c %s "$dir/out.txt") / 1048576))"
printf 'pcl flamegraph:      %.3f s, %s KB RSS\n' "$pcl_t" "$pcl_rss"
printf 'ratio:               wall %s (target <= 0.2), RSS %s\n' \
	"$(ratio "$pcl_t" "$perf_t")" "$(ratio "$pcl_rss" "$perf_rss")"
[ "$samples" -ge 150000 ] || echo "note: fewer than 150K samples were recorded (a busy machine?)"
