#!/bin/sh
# pcl report vs perf report --stdio on the same callchain perf.data (>150K
# samples, deep stacks, recorded here): wall time and peak RSS side by side
# for the plain report, --no-children, -g folded and -s srcline, with the
# pcl/perf ratios, and whether the outputs match (perf's Tip line aside).
# Usage: bench/report.sh [perf.data]   (default: record one in a temp dir)
# perf's -s srcline runs addr2line per address and takes minutes;
# SKIP_PERF_SRCLINE=1 skips that perf run.  Each case runs REPEAT times
# (default 3; the srcline cases once) and the fastest run counts.
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures >/dev/null
PERF=${PERF:-/usr/bin/perf}
PCL=./pcl
REPEAT=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. bench/lib.sh

nr_samples() {
	$PCL report --stdio -i "$1" -g none -s comm 2>/dev/null |
		sed -n 's/^# Samples: \([0-9]*\)\([KM]*\).*/\1 \2/p' | head -1 |
		awk '{ print $2 == "K" ? $1 * 1000 : $2 == "M" ? $1 * 1000000 : $1 }'
}

data=$1
if [ -z "$data" ]; then
	data=$tmp/bench.data
	# cpu-clock every 20us of CPU time on report_work's two threads (stacks
	# up to 13 deep, three DSOs and the kernel); a loaded machine gives
	# them less CPU, so record longer until there are enough
	ms=3000
	for try in 1 2 3; do
		$PERF record -q -g -e cpu-clock -c 20000 -o "$data" -- \
			build/fixtures/report_work $ms >/dev/null 2>&1
		[ "$(nr_samples "$data")" -gt 150000 ] && break
		ms=$((ms * 2))
	done
fi
echo "input: $data ($(du -h "$data" | cut -f1), about $(nr_samples "$data") samples)"
cat "$data" >/dev/null	# warm the page cache once


printf '%-28s %10s %10s %10s %10s %8s %8s  %s\n' case "perf (s)" "pcl (s)" \
	"perf (MB)" "pcl (MB)" "time" "RSS" output
run() {
	label=$1
	shift
	if [ "$label" = "-s srcline" ] && [ -n "$SKIP_PERF_SRCLINE" ]; then
		perf_s=- perf_kb=0
		rm -f "$tmp/out.perf"
	else
		set -- $(fastest_run $PERF report --stdio -i "$data" "$@") "$@"
		perf_s=$1 perf_kb=$2
		shift 2
	fi
	set -- $(fastest_run $PCL report --stdio -i "$data" "$@")
	pcl_s=$1 pcl_kb=$2
	same=$(same_output)
	if [ "$perf_s" = - ]; then
		printf '%-28s %10s %10s %10s %10.1f %8s %8s  %s\n' "$label" - "$pcl_s" - \
			"$(echo "$pcl_kb / 1024" | bc -l)" - - "$same"
		return
	fi
	printf '%-28s %10s %10s %10.1f %10.1f %8.2f %8.2f  %s\n' "$label" "$perf_s" "$pcl_s" \
		"$(echo "$perf_kb / 1024" | bc -l)" "$(echo "$pcl_kb / 1024" | bc -l)" \
		"$(echo "$pcl_s / ($perf_s + 0.001)" | bc -l)" "$(echo "$pcl_kb / $perf_kb" | bc -l)" \
		"$same"
}
run "report"
run "--no-children" --no-children
run "-g folded --no-children" -g folded --no-children
REPEAT=1 run "-s srcline" -s srcline -g none
echo "(time and RSS columns are pcl/perf ratios; lower is better)"
