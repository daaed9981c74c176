#!/bin/sh
# bench/record.sh: pcl record against perf record, measured side by side in
# one run, rounds alternating between the two so that machine noise hits both.
#
#   1. workload slowdown under `record -F 4999 -g` (fixed work: a CPU loop and
#      a syscall loop), relative to the workload alone;
#   2. time from the workload's end to the recorder's exit (file finishing);
#   3. lost samples at a rate neither can keep up with (-F max, 64K buffers,
#      all CPUs): the median lost fraction of each, and in how many rounds
#      pcl lost no more than perf did in the same round.
# Prints each measure for pcl and perf and the pcl/perf ratio (< 1: pcl better;
# for the slowdown: the workload's run time under pcl over its time under perf).
#
# Usage: bench/record.sh [ROUNDS] [lost]   (default 5; "lost": measure 3 only;
#                                           needs root for -a)
set -e
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
PART=${2:-all}
PCL=${PCL:-./pcl}
PERF=${PERF:-perf}
make -s pcl fixtures >/dev/null
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

now_ns() { date +%s%N; }

# The fixed-work payloads; each writes its start/end times (ns) to $1.
cat >"$TMP/cpu.sh" <<'EOF'
s=$(date +%s%N); i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; e=$(date +%s%N)
echo "$s $e" >"$1"
EOF
cat >"$TMP/sys.sh" <<'EOF'
s=$(date +%s%N); dd if=/dev/zero of=/dev/null bs=512 count=400000 2>/dev/null; e=$(date +%s%N)
echo "$s $e" >"$1"
EOF
cat >"$TMP/flood.sh" <<'EOF'
dd if=/dev/zero of=/dev/null bs=512 count=10000 2>/dev/null
EOF

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# run_one TOOL PAYLOAD: prints "workload_ns tail_ns" (tail: workload end to exit).
run_one() {
	tool=$1 payload=$2
	case $tool in
	none) sh "$TMP/$payload.sh" "$TMP/t"; end=$(cut -d' ' -f2 "$TMP/t") ;;
	pcl) $PCL record -q -F 4999 -g -o "$TMP/pcl.data" -- sh "$TMP/$payload.sh" "$TMP/t"
	     end=$(now_ns) ;;
	perf) $PERF record -q -F 4999 -g -o "$TMP/perf.data" -- sh "$TMP/$payload.sh" "$TMP/t" \
	     2>/dev/null; end=$(now_ns) ;;
	esac
	read s e <"$TMP/t"
	echo "$((e - s)) $((end - e))"
}

printf '%-44s %12s %12s %8s\n' "measure (median of $ROUNDS)" pcl perf pcl/perf
[ "$PART" = lost ] || for payload in cpu sys; do
	: >"$TMP/none" ; : >"$TMP/pcl" ; : >"$TMP/perf"
	for r in $(seq "$ROUNDS"); do
		for tool in none pcl perf; do
			run_one $tool $payload >>"$TMP/$tool"
		done
	done
	base=$(cut -d' ' -f1 "$TMP/none" | median)
	for tool in pcl perf; do
		eval "slow_$tool=\$(cut -d' ' -f1 \"\$TMP/$tool\" | median)"
		eval "tail_$tool=\$(cut -d' ' -f2 \"\$TMP/$tool\" | median)"
	done
	# The ratio compares the workload's run time under each recorder
	# directly: the slowdowns against the bare run are shown for scale.
	awk -v b="$base" -v a="$slow_pcl" -v p="$slow_perf" -v w="$payload" 'BEGIN {
		printf "%-44s %11.1f%% %11.1f%% %8.2f\n", "workload slowdown (" w " loop, -F 4999 -g)",
			100 * (a / b - 1), 100 * (p / b - 1), a / p }'
	awk -v a="$tail_pcl" -v p="$tail_perf" -v w="$payload" 'BEGIN {
		printf "%-44s %10.1fms %10.1fms %8.2f\n", "workload end to recorder exit (" w ")",
			a / 1e6, p / 1e6, a / p }'
done

# Lost samples: a rate no recorder keeps up with, through small buffers.
lost_of() {
	$PERF report --stdio -i "$1" 2>/dev/null | awk '
		/^# Total Lost Samples:/ { lost = $5 }
		/^# Samples:/ { n = $3; if (n ~ /K$/) n *= 1000; else if (n ~ /M$/) n *= 1e6; s += n }
		END { printf "%.4f\n", (s + lost) ? lost / (s + lost) : 0 }'
}
: >"$TMP/lpcl" ; : >"$TMP/lperf"
for r in $(seq "$ROUNDS"); do
	$PCL record -q -a -g -F max -m 16 -o "$TMP/pcl.data" -- sh "$TMP/flood.sh" 2>/dev/null
	lost_of "$TMP/pcl.data" >>"$TMP/lpcl"
	$PERF record -q -a -g -F max -m 16 -o "$TMP/perf.data" -- sh "$TMP/flood.sh" 2>/dev/null
	lost_of "$TMP/perf.data" >>"$TMP/lperf"
done
awk -v a="$(median <"$TMP/lpcl")" -v p="$(median <"$TMP/lperf")" 'BEGIN {
	printf "%-44s %11.1f%% %11.1f%% %8.2f\n", "samples lost (-a -g -F max -m 16)",
		100 * a, 100 * p, (p > 0 ? a / p : 1) }'
paste "$TMP/lpcl" "$TMP/lperf" | awk -v n="$ROUNDS" '$1 <= $2 { k++ } END {
	printf "%-44s %12s\n", "rounds where pcl lost no more than perf", (k + 0) "/" n }'
