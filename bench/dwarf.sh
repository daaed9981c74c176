#!/bin/sh
# pcl against perf on --call-graph dwarf recordings of real programs: a C++
# template program (built here with g++ -O2 -g) and python3.11 running json,
# re and recursion.  Wall time and peak RSS of report --stdio and script,
# side by side, the pcl/perf ratios, and whether the outputs match (perf's
# Tip line aside; "N lines differ" otherwise).
# Usage: bench/dwarf.sh [perf.data ...]   (default: record both here)
# PYTHON names the interpreter (default python3.11; skipped when missing).
# Each case runs REPEAT times (default 3) and the fastest run counts.
set -e
cd "$(dirname "$0")/.."
make -s pcl >/dev/null
PERF=${PERF:-/usr/bin/perf}
PCL=./pcl
PYTHON=${PYTHON:-python3.11}
REPEAT=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. bench/lib.sh

record() {
	out=$1
	shift
	$PERF record -q -e cpu-clock --call-graph dwarf -o "$out" -- "$@" >/dev/null 2>&1
}

if [ $# -eq 0 ]; then
	cat >"$tmp/tmpl.cpp" <<'EOF'
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>
template <typename T> struct Node { T value; std::vector<Node<T>> kids; };
template <typename T> T walk(const Node<T> &n)
{
	T s = n.value;
	for (const auto &k : n.kids)
		s += walk(k);
	return s;
}
template <typename T> Node<T> build(int depth, int fan)
{
	Node<T> n{T(depth), {}};
	if (depth > 0)
		for (int i = 0; i < fan; i++)
			n.kids.push_back(build<T>(depth - 1, fan));
	return n;
}
static std::map<std::string, int> words(int n)
{
	std::map<std::string, int> m;
	for (int i = 0; i < n; i++)
		m[std::to_string(i * 7919 % 10007)]++;
	return m;
}
int main(int argc, char **argv)
{
	double acc = 0;
	for (int r = 0; r < (argc > 1 ? atoi(argv[1]) : 200); r++) {
		acc += walk(build<double>(6, 4));
		std::vector<int> v;
		for (auto &kv : words(20000))
			v.push_back(kv.second);
		std::sort(v.begin(), v.end(), std::greater<int>());
		acc += v[0];
	}
	printf("%f\n", acc);
	return 0;
}
EOF
	g++ -O2 -g -o "$tmp/tmpl" "$tmp/tmpl.cpp"
	record "$tmp/cxx.data" "$tmp/tmpl" 400
	set -- "$tmp/cxx.data"
	if command -v "$PYTHON" >/dev/null; then
		cat >"$tmp/work.py" <<'EOF'
import json, re, sys
def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)
for i in range(int(sys.argv[1])):
    fib(18)
    s = json.dumps([{"a": j, "b": str(j)} for j in range(2000)])
    json.loads(s)
    re.findall(r"\d+", s)
EOF
		record "$tmp/python.data" "$PYTHON" "$tmp/work.py" 300
		set -- "$@" "$tmp/python.data"
	fi
fi


printf '%-24s %-8s %9s %9s %10s %10s %6s %6s  %s\n' input command "perf (s)" "pcl (s)" \
	"perf (MB)" "pcl (MB)" time RSS output
for data in "$@"; do
	cat "$data" >/dev/null	# warm the page cache once
	for cmd in report script; do
		args=
		[ $cmd = report ] && args=--stdio
		set -- $(fastest_run $PERF $cmd $args -i "$data")
		perf_s=$1 perf_kb=$2
		set -- $(fastest_run $PCL $cmd $args -i "$data")
		pcl_s=$1 pcl_kb=$2
		if cmp -s "$tmp/out.perf" "$tmp/out.pcl"; then
			same=identical
		else
			same="$(diff "$tmp/out.perf" "$tmp/out.pcl" | grep -c '^>') lines differ"
		fi
		printf '%-24s %-8s %9s %9s %10.1f %10.1f %6.2f %6.2f  %s\n' \
			"$(basename "$data") ($(du -h "$data" | cut -f1))" $cmd "$perf_s" "$pcl_s" \
			"$(echo "$perf_kb / 1024" | bc -l)" "$(echo "$pcl_kb / 1024" | bc -l)" \
			"$(echo "$pcl_s / ($perf_s + 0.001)" | bc -l)" "$(echo "$pcl_kb / $perf_kb" | bc -l)" \
			"$same"
	done
done
echo "(time and RSS columns are pcl/perf ratios; lower is better)"
