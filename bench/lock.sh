#!/bin/sh
# pcl lock report/contention vs perf lock on the same large contention
# recording (perf lock record -a of 8 threads contending on their mmap
# lock, 150000 rounds each: about 20 MB, a minute or two to record): CPU
# time (user + sys) and peak RSS, medians of REPEAT pairs (default 7) run
# in turn, the median of the pair-by-pair ratios pcl/perf, and whether the
# tables (stderr) are identical.
# Usage: bench/lock.sh [perf.data]   (default: record one in a temp dir;
# needs root or perf_event_paranoid <= 0)
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures >/dev/null
PERF=${PERF:-/usr/bin/perf}
PCL=./pcl
REPEAT=${REPEAT:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. bench/lib.sh

data=$1
if [ -z "$data" ]; then
	data=$tmp/lock.data
	$PERF lock record -q -a -o "$data" -- build/fixtures/lock_contend 8 150000 \
		>/dev/null 2>&1
fi
echo "input: $data ($(du -h "$data" | cut -f1))"
cat "$data" >/dev/null

printf '%-18s %9s %9s %7s %8s %8s %s\n' sub-command "pcl cpu" "perf cpu" ratio "pcl MB" \
	"perf MB" output
for sub in report contention; do
	set -- $(paired_cpu "$PCL lock -i $data $sub" "$PERF lock -i $data $sub")
	if cmp -s "$tmp/err.perf" "$tmp/err.pcl"; then same=identical; else same=DIFFERENT; fi
	printf '%-18s %9.3f %9.3f %7.2f %8.1f %8.1f %s\n' "lock $sub" "$1" "$2" "$3" "$4" "$5" \
		"$same"
done
echo "(CPU seconds and MB: medians of $REPEAT pairs; ratio: median of the pairs' pcl/perf)"
