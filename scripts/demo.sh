#!/bin/sh
# make demo: the main job on a bundled workload.
# build/fixtures/demo (tests/fixtures/demo.c) crunches numbers for a few
# hundred ms in two threads, touches memory and makes ~4000 syscalls.
set -e
cd "$(dirname "$0")/.."
demo=build/fixtures/demo

echo "== pcl --version"
./pcl --version
echo
echo "== pcl stat $demo"
echo "   (counters of the workload; hardware events show <not supported> on machines without a PMU)"
./pcl stat "$demo"
echo "== pcl stat -e 'syscalls:sys_enter_read,syscalls:sys_enter_write' -e task-clock $demo"
echo "   (tracepoints are counted like any event: the demo reads and writes 2000 times each)"
./pcl stat -e 'syscalls:sys_enter_read,syscalls:sys_enter_write' -e task-clock "$demo"
echo "== pcl stat -x, -r 3 -e task-clock,page-faults $demo"
echo "   (CSV, three runs: value,unit,event,noise,runtime,%running,metric,metric unit)"
./pcl stat -x, -r 3 -e task-clock,page-faults "$demo" 2>&1 | grep -v '^demo:'
