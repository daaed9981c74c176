#!/bin/sh
# bench/sched.sh [perf.data]: `pcl sched latency`, `map` and `timehist`
# against perf's on the same sched recording.  Without an argument it
# records the pingpong fixture with perf sched record until the file
# passes 50 MB.  Prints the best of three runs of each (wall time and peak
# RSS) and their ratios (targets: wall <= 0.3, RSS <= 0.5).
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures
PERF=${PERF:-perf}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

data=$1
if [ -z "$data" ]; then
	data=$dir/perf.data
	# about 600 bytes of sched events per round trip of the byte
	for rounds in 100000 200000 400000; do
		"$PERF" sched record -q -o "$data" -- build/fixtures/pingpong $rounds \
			>/dev/null 2>&1
		[ "$(stat -c %s "$data")" -le 52428800 ] || break
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

printf 'date:       %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
printf 'perf.data:  %s MB\n' "$(($(stat -c %s "$data") / 1048576))"
for sub in latency map timehist; do
	set -- $(best "'$PERF' sched -i '$data' $sub > '$dir/perf.txt' 2>/dev/null")
	perf_t=$1 perf_rss=$2
	set -- $(best "./pcl sched -i '$data' $sub > '$dir/pcl.txt' 2>/dev/null")
	pcl_t=$1 pcl_rss=$2
	cmp -s "$dir/perf.txt" "$dir/pcl.txt" && same=same || same=DIFFERENT
	printf '%-9s perf %.3f s %s KB, pcl %.3f s %s KB: wall %s, RSS %s (output %s)\n' \
		"$sub" "$perf_t" "$perf_rss" "$pcl_t" "$pcl_rss" \
		"$(ratio "$pcl_t" "$perf_t")" "$(ratio "$pcl_rss" "$perf_rss")" "$same"
done
