#!/bin/sh
# pcl annotate vs perf annotate --stdio on the same perf.data (about 20 MB,
# recorded here: call graphs of report_work and annotate_work, so many
# symbols in several DSOs are sampled): wall time and peak RSS side by side
# for every sampled symbol with source, without source (--no-source), with
# raw bytes in Intel syntax and with -l, the pcl/perf ratios, and whether
# the outputs match.  perf runs objdump once per symbol; pcl disassembles
# in process.
# Usage: bench/annotate.sh [perf.data]   (default: record one in a temp dir)
# Each case runs REPEAT times (default 3) and the fastest run counts.
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures build/fixtures/annotate_work >/dev/null
PERF=${PERF:-/usr/bin/perf}
PCL=./pcl
REPEAT=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

data=$1
if [ -z "$data" ]; then
	data=$tmp/bench.data
	# cpu-clock every 20us of CPU time; a loaded machine gives the
	# workloads less CPU, so record longer until the file is big enough
	ms=1500
	for try in 1 2 3; do
		$PERF record -q -g -e cpu-clock -c 20000 -o "$data" -- sh -c \
			"build/fixtures/report_work $ms & build/fixtures/annotate_work $ms; wait" \
			>/dev/null 2>&1
		[ "$(du -k "$data" | cut -f1)" -gt 18000 ] && break
		ms=$((ms * 2))
	done
fi
echo "input: $data ($(du -h "$data" | cut -f1)," \
	"$($PCL annotate --stdio -i "$data" 2>/dev/null | grep -c '^ Percent |') symbols annotated)"
cat "$data" >/dev/null	# warm the page cache once

# measure TOOL ARGS... -> "seconds maxrss_kb" of the fastest of $REPEAT runs
# (other jobs on the machine only ever slow a run down); output kept
measure() {
	best=
	for i in $(seq "$REPEAT"); do
		/usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err"
		if [ -z "$best" ] || [ "$(echo "$(cut -d' ' -f1 "$tmp/time") < $best" | bc)" = 1 ]; then
			best=$(cut -d' ' -f1 "$tmp/time")
			cp "$tmp/time" "$tmp/best"
		fi
	done
	cat "$tmp/err" >>"$tmp/out"
	mv "$tmp/out" "$tmp/out.$(basename "$1")"
	cat "$tmp/best"
}

printf '%-28s %10s %10s %10s %10s %8s %8s  %s\n' case "perf (s)" "pcl (s)" \
	"perf (MB)" "pcl (MB)" "time" "RSS" output
run() {
	label=$1
	shift
	set -- $(measure $PERF annotate --stdio -i "$data" "$@") "$@"
	perf_s=$1 perf_kb=$2
	shift 2
	set -- $(measure $PCL annotate --stdio -i "$data" "$@")
	pcl_s=$1 pcl_kb=$2
	if cmp -s "$tmp/out.perf" "$tmp/out.pcl"; then
		same=identical
	else
		same=DIFFERENT
	fi
	printf '%-28s %10s %10s %10.1f %10.1f %8.2f %8.2f  %s\n' "$label" "$perf_s" "$pcl_s" \
		"$(echo "$perf_kb / 1024" | bc -l)" "$(echo "$pcl_kb / 1024" | bc -l)" \
		"$(echo "$pcl_s / ($perf_s + 0.001)" | bc -l)" "$(echo "$pcl_kb / $perf_kb" | bc -l)" \
		"$same"
}
run "every symbol"
run "--no-source" --no-source
run "--asm-raw -M intel" --asm-raw -M intel
run "-l" -l
echo "(time and RSS columns are pcl/perf ratios; lower is better)"
