#!/bin/sh
# bench/sqlite.sh [perf.data]: pcl script -s export-to-sqlite (all, and all calls callchains)
# on one callchain recording of about 20 MB (made when no file is given: cpu-clock every 20 us
# on flame's two threads for 6 s), against `perf script > out` for scale (perf's own
# export-to-sqlite.py needs PySide, which Debian's perf cannot load). Best of three wall times.
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures
PERF=${PERF:-perf}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

data=$1
if [ -z "$data" ]; then
	data=$dir/perf.data
	"$PERF" record -q -g -e cpu-clock -c 20000 -o "$data" -- build/fixtures/flame cpu 6000 \
		>/dev/null 2>&1
fi

now() { date +%s.%N; }

# the best of three wall-clock times of a command, in seconds (rm'ing the database first)
best() {
	b=""
	for i in 1 2 3; do
		rm -f "$dir/out.db"
		t0=$(now)
		sh -c "$1" >/dev/null 2>&1
		b=$(awk -v a="$(now)" -v t0="$t0" -v b="${b:-1e30}" \
			'BEGIN { t = a - t0; printf "%.3f", (t < b) ? t : b }')
	done
	echo "$b"
}

script_t=$(best "'$PERF' script -i '$data' > '$dir/out.txt'")
all_t=$(best "./pcl script -i '$data' -s export-to-sqlite '$dir/out.db'")
paths_t=$(best "./pcl script -i '$data' -s export-to-sqlite '$dir/out.db' all calls callchains")
printf 'date:                          %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
printf 'perf.data:                     %s KB, %s samples\n' "$(($(stat -c %s "$data") / 1024))" \
	"$(./pcl script -F period -i "$data" 2>/dev/null | wc -l)"
printf 'perf script > out:             %s s\n' "$script_t"
printf 'export-to-sqlite:              %s s\n' "$all_t"
printf 'export-to-sqlite, call paths:  %s s, %s KB\n' "$paths_t" \
	"$(($(stat -c %s "$dir/out.db") / 1024))"
