#!/bin/sh
# pcl report vs perf report --stdio on real-program recordings (issue 21's
# "speed and memory"): medians of wall time, CPU time (user + sys) and peak
# RSS, and the pcl/perf ratios.
#   system:  perf record -a -g -F 999 -- sleep 5 while stress-ng and a
#            compile of pcl's own sources load the machine; report --stdio
#   srcline: a C++ template program with debug info, perf record -g;
#            report --stdio -s srcline -g none (perf runs addr2line: ~20 s)
# Usage: bench/report-system.sh [system.data [srcline.data]]
#   (default: record both in a temp dir; needs root or perf_event_paranoid
#   <= 0 for -a).  REPEAT runs per case (default 5); SKIP_PERF_SRCLINE=1
#   skips perf's srcline runs.  Outputs are compared (perf's Tip aside).
set -e
cd "$(dirname "$0")/.."
make -s pcl >/dev/null
PERF=${PERF:-/usr/bin/perf}
PCL=./pcl
REPEAT=${REPEAT:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. bench/lib.sh

record_system() {
	stress-ng --cpu 1 --timeout 6 -q &
	(for f in src/core/hist/*.c src/core/data/*.c; do
		cc -std=gnu11 -O2 -Isrc -Ibuild/gen -D_GNU_SOURCE \
			$(pkg-config --cflags libtraceevent libtracefs python3-embed 2>/dev/null) \
			-c "$f" -o "$tmp/x.o" 2>/dev/null || true
	done) &
	$PERF record -q -a -g -F 999 -o "$1" -- sleep 5 >/dev/null 2>&1
	wait
}

record_srcline() {
	cat >"$tmp/tmpl.cpp" <<'EOF'
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>
template <typename T> struct Acc {
	std::map<T, std::vector<T>> m;
	void add(T k, T v) { m[k].push_back(v); }
};
template <int N> unsigned long work(unsigned long x) { return work<N - 1>(x * 2654435761u + N) ^ (x >> 7); }
template <> unsigned long work<0>(unsigned long x) { return x; }
int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 15000000;
	Acc<long> a;
	Acc<std::string> b;
	std::unordered_map<long, std::string> u;
	unsigned long h = 1;

	for (long i = 0; i < iters; i++) {
		h = work<20>(h + i);
		a.add(h % 1000, i);
		if (i % 7 == 0) {
			std::string s = std::to_string(h % 5000);
			b.add(s, s);
			u[h % 20000] = s;
		}
		if (i % 100000 == 0) {
			std::vector<long> v(a.m.begin()->second);
			std::sort(v.begin(), v.end());
		}
	}
	printf("%zu %zu %lu\n", b.m.size(), u.size(), h);
}
EOF
	g++ -O2 -g -fno-omit-frame-pointer -o "$tmp/tmpl" "$tmp/tmpl.cpp"
	$PERF record -q -g -o "$1" -- "$tmp/tmpl" >/dev/null 2>&1
}

# measure NAME TOOL ARGS... -> "wall cpu rss_mb" medians; output kept
measure() {
	name=$1
	shift
	: >"$tmp/$name.runs"
	for i in $(seq "$REPEAT"); do
		/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" >"$tmp/out" 2>/dev/null
		cat "$tmp/time" >>"$tmp/$name.runs"
	done
	grep -v '^# (Tip: ' "$tmp/out" >"$tmp/out.$name"
	echo "$(awk '{ print $1 }' "$tmp/$name.runs" | median)" \
		"$(awk '{ print $2 + $3 }' "$tmp/$name.runs" | median)" \
		"$(awk '{ print $4 / 1024 }' "$tmp/$name.runs" | median)"
}

run() {
	label=$1 data=$2
	shift 2
	if [ "$label" = srcline ] && [ -n "$SKIP_PERF_SRCLINE" ]; then
		set -- - - - "$@"
		rm -f "$tmp/out.perf"
	else
		set -- $(REPEAT=$([ "$label" = srcline ] && echo 1 || echo "$REPEAT") \
			measure perf $PERF report --stdio -i "$data" "$@") "$@"
	fi
	perf_wall=$1 perf_cpu=$2 perf_mb=$3
	shift 3
	set -- $(measure pcl $PCL report --stdio -i "$data" "$@")
	same=$(same_output)
	if [ "$perf_wall" = - ]; then
		printf '%-10s %9s %9s %9s %9s %9s %9.1f %7s %7s %6s  %s\n' "$label" - "$1" - "$2" \
			- "$3" - - - "$same"
		return
	fi
	printf '%-10s %9s %9s %9.2f %9.2f %9.1f %9.1f %7.2f %7.2f %6.2f  %s\n' "$label" \
		"$perf_wall" "$1" "$perf_cpu" "$2" "$perf_mb" "$3" \
		"$(echo "$1 / ($perf_wall + 0.001)" | bc -l)" \
		"$(echo "$2 / ($perf_cpu + 0.001)" | bc -l)" "$(echo "$3 / $perf_mb" | bc -l)" "$same"
}

system=$1
srcline=$2
if [ -z "$system" ]; then
	system=$tmp/system.data
	record_system "$system"
fi
if [ -z "$srcline" ]; then
	srcline=$tmp/srcline.data
	record_srcline "$srcline"
fi
cat "$system" "$srcline" >/dev/null	# warm the page cache once
echo "system: $system ($(du -h "$system" | cut -f1)); srcline: $srcline ($(du -h "$srcline" | cut -f1))"
printf '%-10s %9s %9s %9s %9s %9s %9s %7s %7s %6s  %s\n' case "perf wall" "pcl wall" \
	"perf cpu" "pcl cpu" "perf MB" "pcl MB" "wall" "cpu" RSS output
run system "$system"
run srcline "$srcline" -s srcline -g none
echo "(medians of $REPEAT runs, perf's srcline once; wall, cpu and RSS columns are pcl/perf)"
