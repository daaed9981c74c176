#!/bin/sh
# bench/flamegraph.sh [perf.data]: `pcl flamegraph` (perf.data -> SVG, one
# step) against `perf script > out` alone, the first of the three steps of
# perf script | stackcollapse-perf.pl | flamegraph.pl.  Without an argument
# it records a callchain profile of more than 150K samples first.  Prints
# the best of three runs of each and their ratio (target: <= 0.2).
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures
PERF=${PERF:-perf}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

data=$1
if [ -z "$data" ]; then
	data=$dir/perf.data
	# cpu-clock every 20 us on two threads for 3 s: about 300K samples
	"$PERF" record -q -g -e cpu-clock -c 20000 -o "$data" -- build/fixtures/flame cpu 3000 \
		>/dev/null 2>&1
fi

now() { date +%s.%N; }

# best of three wall-clock times of a shell command
best() {
	b=""
	for i in 1 2 3; do
		t0=$(now)
		sh -c "$1"
		t=$(awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%.6f", a - b }')
		b=$(awk -v t="$t" -v b="${b:-1e30}" 'BEGIN { print (t < b) ? t : b }')
	done
	echo "$b"
}

perf_t=$(best "'$PERF' script -i '$data' > '$dir/out.txt' 2>/dev/null")
pcl_t=$(best "./pcl flamegraph -i '$data' -o '$dir/out.svg'")
samples=$(grep -c '^[^[:space:]].* [0-9]*\.[0-9]*: ' "$dir/out.txt" || true)
printf 'samples:             %s\n' "$samples"
printf 'perf script > out:   %.3f s (%s MB of text)\n' "$perf_t" \
	"$(($(stat -c %s "$dir/out.txt") / 1048576))"
printf 'pcl flamegraph:      %.3f s\n' "$pcl_t"
printf 'ratio:               %.3f (target <= 0.2)\n' \
	"$(awk -v a="$pcl_t" -v b="$perf_t" 'BEGIN { print a / b }')"
[ "$samples" -ge 150000 ] || echo "note: fewer than 150K samples were recorded (a busy machine?)"
