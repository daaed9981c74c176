#!/bin/sh
# bench/exports.sh [perf.data]: pcl data convert --to-pprof and --to-speedscope against
# `perf script > out` (the text any converter of perf's output starts from) and against
# perf data convert --to-json (perf's own export), on one callchain recording (made when no
# file is given: cpu-clock every 50 us on two threads for 3 s). Prints the best of three
# wall times of each and pcl's over perf script's.
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures
PERF=${PERF:-perf}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

data=$1
if [ -z "$data" ]; then
	data=$dir/perf.data
	"$PERF" record -q -g -e cpu-clock -c 50000 -o "$data" -- build/fixtures/flame cpu 3000 \
		>/dev/null 2>&1
fi

now() { date +%s.%N; }

# the best of three wall-clock times of a command, in seconds
best() {
	b=""
	for i in 1 2 3; do
		t0=$(now)
		sh -c "$1" >/dev/null 2>&1
		b=$(awk -v a="$(now)" -v t0="$t0" -v b="${b:-1e30}" \
			'BEGIN { t = a - t0; printf "%.3f", (t < b) ? t : b }')
	done
	echo "$b"
}

script_t=$(best "'$PERF' script -i '$data' > '$dir/out.txt'")
json_t=$(best "'$PERF' data convert -f -i '$data' --to-json '$dir/perf.json'")
pcl_json_t=$(best "./pcl data convert -f -i '$data' --to-json '$dir/pcl.json'")
pprof_t=$(best "./pcl data convert -f -i '$data' --to-pprof '$dir/out.pb.gz'")
speedscope_t=$(best "./pcl data convert -f -i '$data' --to-speedscope '$dir/out.json'")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }
printf 'date:                         %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
printf 'perf.data:                    %s KB, %s samples\n' "$(($(stat -c %s "$data") / 1024))" \
	"$(./pcl script -F period -i "$data" 2>/dev/null | wc -l)"
printf 'perf script > out:            %s s\n' "$script_t"
printf 'perf data convert --to-json:  %s s; pcl: %s s\n' "$json_t" "$pcl_json_t"
printf 'pcl data convert --to-pprof:   %s s (%s of perf script), %s KB\n' "$pprof_t" \
	"$(ratio "$pprof_t" "$script_t")" "$(($(stat -c %s "$dir/out.pb.gz") / 1024))"
printf 'pcl data convert --to-speedscope: %s s (%s of perf script), %s KB\n' "$speedscope_t" \
	"$(ratio "$speedscope_t" "$script_t")" "$(($(stat -c %s "$dir/out.json") / 1024))"
