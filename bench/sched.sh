#!/bin/sh
# bench/sched.sh [perf.data]: `pcl sched latency`, `map`, `timehist` and
# `pcl timechart` against perf's on the same sched recording.  Without an argument it
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
# "TOOL TIME RSS" lines' command: the analysis SUB of $data by TOOL, its
# output in $dir/TOOL.out
run_sub() {
	case $2 in
	timechart) echo "'$1' timechart -i '$data' -o '$dir/$3.out' >/dev/null 2>&1" ;;
	*) echo "'$1' sched -i '$data' $2 > '$dir/$3.out' 2>/dev/null" ;;
	esac
}

for sub in latency map timehist timechart; do
	set -- $(best "$(run_sub "$PERF" $sub perf)")
	perf_t=$1 perf_rss=$2
	set -- $(best "$(run_sub ./pcl $sub pcl)")
	pcl_t=$1 pcl_rss=$2
	cmp -s "$dir/perf.out" "$dir/pcl.out" && same=same || same=DIFFERENT
	printf '%-9s perf %.3f s %s KB, pcl %.3f s %s KB: wall %s, RSS %s (output %s)\n' \
		"$sub" "$perf_t" "$perf_rss" "$pcl_t" "$pcl_rss" \
		"$(ratio "$pcl_t" "$perf_t")" "$(ratio "$pcl_rss" "$perf_rss")" "$same"
done
