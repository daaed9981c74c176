#!/bin/sh
# Runs every test suite and ends with one summary line: "N passed, N failed".
# Usage: check.sh UNIT_BIN... -- ASAN_BIN...   (build/pcl-asan must exist)
cd "$(dirname "$0")/.."
passed=0 failed=0
run_unit() {
	for t in "$@"; do
		if "$t" >build/last-unit.log 2>&1; then
			n=$(grep -c '^\[       OK \]' build/last-unit.log)
			passed=$((passed + n))
		else
			cat build/last-unit.log
			n=$(grep -c '^\[       OK \]' build/last-unit.log)
			f=$(grep -c '^\[  FAILED  \] [a-z_]' build/last-unit.log)
			[ "$f" -gt 0 ] || f=1
			passed=$((passed + n)); failed=$((failed + f))
			echo "unit test binary failed: $t"
		fi
	done
}
plain="" asan="" seen=0
for a in "$@"; do
	if [ "$a" = "--" ]; then seen=1; continue; fi
	if [ $seen = 0 ]; then plain="$plain $a"; else asan="$asan $a"; fi
done
echo "== unit tests"
run_unit $plain
echo "== unit tests under ASan+UBSan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 run_unit $asan
echo "unit: $passed passed, $failed failed"
# The e2e suite twice: on ./pcl, then on build/pcl-asan (ASan+UBSan; leaks
# are the unit tests' business, a command's memory goes when it exits).
run_e2e() {
	log=$1
	shift
	env "$@" /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/e2e >"$log" 2>&1
	rc=$?
	cat "$log"
	ep=$(tail -n 1 "$log" | grep -o '[0-9]* passed' | grep -o '[0-9]*')
	ef=$(tail -n 1 "$log" | grep -o '[0-9]* failed' | grep -o '[0-9]*')
	ee=$(tail -n 1 "$log" | grep -o '[0-9]* error' | grep -o '[0-9]*')
	passed=$((passed + ${ep:-0})); failed=$((failed + ${ef:-0} + ${ee:-0}))
	[ $rc -ne 0 ] && [ $((${ef:-0} + ${ee:-0})) -eq 0 ] && failed=$((failed + 1))
}
echo "== end-to-end tests"
run_e2e build/e2e.log
echo "== end-to-end tests on the ASan+UBSan build"
run_e2e build/e2e-asan.log PCL_BIN="$PWD/build/pcl-asan" ASAN_OPTIONS=detect_leaks=0 \
	UBSAN_OPTIONS=print_stacktrace=1
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
