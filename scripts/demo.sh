#!/bin/sh
# make demo: the main job on a bundled workload, from sampling to a flame graph, then counting.
# build/fixtures/demo (tests/fixtures/demo.c) crunches numbers for a few hundred ms in two
# threads, touches memory and makes ~4000 syscalls.
set -e
cd "$(dirname "$0")/.."
demo=build/fixtures/demo
out=build/demo
mkdir -p "$out"

step() {
	printf '\n== %s\n' "$1"
	[ -z "$2" ] || printf '   (%s)\n' "$2"
}

step "pcl --version"
./pcl --version

step "pcl record -g -o $out/perf.data $demo" \
	"samples with call chains of the workload; cpu-clock stands in on machines without a PMU"
./pcl record -g -o "$out/perf.data" "$demo"

step "pcl report --stdio -i $out/perf.data | head -n 40" \
	"where the time went: children (callees included) and self, call chains below each symbol"
./pcl report --stdio -i "$out/perf.data" | head -n 40

step "pcl script -i $out/perf.data -S crunch | head -n 12" \
	"sample by sample: thread, time, period, event and stack; -S keeps those in crunch"
./pcl script -i "$out/perf.data" -S crunch | head -n 12

step "pcl flamegraph -i $out/perf.data -o $out/demo.html" \
	"one self-contained page: flame graph, heat map of time, top functions"
./pcl flamegraph -i "$out/perf.data" -o "$out/demo.html"
echo "   open file://$(pwd)/$out/demo.html in a browser (click to zoom, type a regex to search)"

step "pcl stat $demo" \
	"counters of the workload; hardware events show <not supported> on machines without a PMU"
./pcl stat "$demo"

events='syscalls:sys_enter_read,syscalls:sys_enter_write'
if [ -d /sys/kernel/tracing/events/syscalls ] || [ -d /sys/kernel/debug/tracing/events/syscalls ]
then
	step "pcl stat -e '$events' -e task-clock $demo" \
		"tracepoints are counted like any event: the demo reads and writes 2000 times each"
	./pcl stat -e "$events" -e task-clock "$demo"
fi
