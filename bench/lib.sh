# bench/lib.sh: pieces the report benches share; sourced after $tmp (a
# scratch directory) and $REPEAT are set.

# fastest_run TOOL ARGS... -> "seconds maxrss_kb" of the fastest of $REPEAT
# runs (other jobs on the machine only ever slow a run down); the output is
# kept, without perf's Tip line, in $tmp/out.TOOL
fastest_run() {
	best=
	for i in $(seq "$REPEAT"); do
		/usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >"$tmp/out" 2>/dev/null
		if [ -z "$best" ] || [ "$(echo "$(cut -d' ' -f1 "$tmp/time") < $best" | bc)" = 1 ]; then
			best=$(cut -d' ' -f1 "$tmp/time")
			cp "$tmp/time" "$tmp/best"
		fi
	done
	grep -v '^# (Tip: ' "$tmp/out" >"$tmp/out.$(basename "$1")"
	cat "$tmp/best"
}

# same_output: whether $tmp/out.pcl equals $tmp/out.perf ("-" without perf's)
same_output() {
	if [ ! -f "$tmp/out.perf" ]; then
		echo -
	elif cmp -s "$tmp/out.perf" "$tmp/out.pcl"; then
		echo identical
	else
		echo DIFFERENT
	fi
}
