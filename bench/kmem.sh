#!/bin/sh
# pcl kmem stat vs perf kmem stat on the same large recordings: CPU time
# (user + sys) and peak RSS, medians of REPEAT pairs (default 7) run in
# turn, the median of the pair-by-pair ratios pcl/perf, and whether the
# outputs are identical.
#   slab: perf kmem --slab record (system-wide) of threads mapping memory
#         and two directory walks: about 100 MB, a million samples
#   page: perf kmem --page record (call chains) of the threads: about
#         10 MB (perf 6.1 gives up on larger page recordings at the first
#         page freed with another order than it was allocated with, and so
#         does pcl)
# Usage: bench/kmem.sh [slab.data [page.data]]   (default: record them in a
# temp dir; needs root or perf_event_paranoid <= 0)
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures >/dev/null
PERF=${PERF:-/usr/bin/perf}
PCL=./pcl
REPEAT=${REPEAT:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. bench/lib.sh

slab=$1 page=$2
if [ -z "$slab" ]; then
	slab=$tmp/slab.data
	$PERF kmem --slab record -q -o "$slab" -- sh -c 'build/fixtures/lock_contend 4 2000;
		ls -R /usr/share/doc /usr/lib >/dev/null' >/dev/null 2>&1
fi
if [ -z "$page" ]; then
	page=$tmp/page.data
	$PERF kmem --page record -q -o "$page" -- build/fixtures/lock_contend 4 200 \
		>/dev/null 2>&1
fi
echo "slab: $slab ($(du -h "$slab" | cut -f1)), page: $page ($(du -h "$page" | cut -f1))"
cat "$slab" "$page" >/dev/null

printf '%-34s %9s %9s %7s %8s %8s %s\n' case "pcl cpu" "perf cpu" ratio "pcl MB" \
	"perf MB" output
for opts in "-i $slab stat" "-i $slab --caller --alloc stat" \
	"-i $page --page --caller --alloc stat"; do
	set -- $(paired_cpu "$PCL kmem $opts" "$PERF kmem $opts")
	if cmp -s "$tmp/out.perf" "$tmp/out.pcl"; then same=identical; else same=DIFFERENT; fi
	case "$opts" in *--page*) name=page ;; *) name=slab ;; esac
	printf '%-34s %9.3f %9.3f %7.2f %8.1f %8.1f %s\n' \
		"$name $(echo "$opts" | sed 's/^-i [^ ]* //')" "$1" "$2" "$3" "$4" "$5" "$same"
done
echo "(CPU seconds and MB: medians of $REPEAT pairs; ratio: median of the pairs' pcl/perf)"
