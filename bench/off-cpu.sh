#!/bin/sh
# bench/off-cpu.sh: the cost of `pcl record --off-cpu -g` against plain
# `perf record -e sched:sched_switch -g` (what it records underneath, without
# the off-CPU samples) on a context-switch-heavy workload: pingpong's two
# threads bouncing a byte N times over pipes, every round two sleeps and two
# wake-ups.  Rounds alternate between the tools so machine noise hits both.
#
#   workload: pingpong's own wall time under each recorder (and alone)
#   total:    the recorder's whole run, file finishing included
#   file:     the size of the perf.data written
# Prints the medians and pcl/perf (< 1: pcl cheaper), then perf with
# --switch-events too: the kernel-side work pcl asks for (switch samples and
# switch records), for comparison.
#
# Usage: bench/off-cpu.sh [ROUNDS] [N]   (default 5 rounds, N = 20000)
set -e
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
N=${2:-20000}
PCL=${PCL:-./pcl}
PERF=${PERF:-perf}
make -s pcl fixtures >/dev/null
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PINGPONG=$(pwd)/build/fixtures/pingpong

cat >"$TMP/work.sh" <<EOF
s=\$(date +%s%N); $PINGPONG $N; e=\$(date +%s%N)
echo \$((e - s)) >"\$1"
EOF

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# run_one TOOL: appends "workload_ns total_ns bytes" to $TMP/TOOL.
run_one() {
	start=$(date +%s%N)
	case $1 in
	none) sh "$TMP/work.sh" "$TMP/t" ;;
	pcl) $PCL record -q --off-cpu -g -o "$TMP/f.data" -- sh "$TMP/work.sh" "$TMP/t" ;;
	perf) $PERF record -q -e sched:sched_switch -g -o "$TMP/f.data" -- \
		sh "$TMP/work.sh" "$TMP/t" 2>/dev/null ;;
	perfsw) $PERF record -q -e sched:sched_switch -g --switch-events -o "$TMP/f.data" -- \
		sh "$TMP/work.sh" "$TMP/t" 2>/dev/null ;;
	esac
	end=$(date +%s%N)
	bytes=0
	[ "$1" = none ] || bytes=$(stat -c %s "$TMP/f.data")
	echo "$(cat "$TMP/t") $((end - start)) $bytes" >>"$TMP/$1"
	rm -f "$TMP/f.data" "$TMP/f.data.old"
}

: >"$TMP/none"; : >"$TMP/pcl"; : >"$TMP/perf"; : >"$TMP/perfsw"
for r in $(seq "$ROUNDS"); do
	run_one none; run_one pcl; run_one perf; run_one perfsw
done
col() { cut -d' ' -f"$2" "$TMP/$1" | median; }
printf '%-24s %10s %10s %8s %14s\n' "pingpong $N, median of $ROUNDS" pcl perf pcl/perf \
	"perf+switches"
for m in 1:workload_ms 2:total_ms 3:file_KB; do
	c=${m%%:*} name=${m#*:}
	p=$(col pcl "$c") q=$(col perf "$c") w=$(col perfsw "$c")
	div=1000000; [ "$c" = 3 ] && div=1024
	printf '%-24s %10.1f %10.1f %8.2f %14.1f\n' "$name" "$(echo "$p / $div" | bc -l)" \
		"$(echo "$q / $div" | bc -l)" "$(echo "$p / $q" | bc -l)" \
		"$(echo "$w / $div" | bc -l)"
done
printf '%-24s %10.1f\n' "workload_ms alone" "$(echo "$(col none 1) / 1000000" | bc -l)"
