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

# median of the numbers on stdin, one a line
median() {
	sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# paired_cpu "PCL COMMAND" "PERF COMMAND" -> "pcl_cpu perf_cpu ratio pcl_mb perf_mb":
# the two run in turn $REPEAT times after a warm-up each, CPU seconds (user
# + sys) and peak RSS of each; the medians of each, and of the pair-by-pair
# ratios pcl/perf, which hold when the machine's speed drifts between
# pairs.  The commands are split at blanks (no quoting); the last run's
# stdout and stderr are kept in $tmp/out.pcl, $tmp/err.pcl, $tmp/out.perf
# and $tmp/err.perf.
paired_cpu() {
	: >"$tmp/pairs"
	for i in 0 $(seq "$REPEAT"); do
		for who in pcl perf; do
			cmd=$1
			[ $who = perf ] && cmd=$2
			/usr/bin/time -f "%U %S %M" -o "$tmp/time.$who" $cmd \
				>"$tmp/out.$who" 2>"$tmp/err.$who" || true
		done
		[ "$i" = 0 ] && continue	# the warm-up
		paste -d' ' "$tmp/time.pcl" "$tmp/time.perf" >>"$tmp/pairs"
	done
	echo "$(awk '{ print $1 + $2 }' "$tmp/pairs" | median)" \
		"$(awk '{ print $4 + $5 }' "$tmp/pairs" | median)" \
		"$(awk '{ print ($1 + $2) / ($4 + $5 + 0.0001) }' "$tmp/pairs" | median)" \
		"$(awk '{ print $3 / 1024 }' "$tmp/pairs" | median)" \
		"$(awk '{ print $6 / 1024 }' "$tmp/pairs" | median)"
}
