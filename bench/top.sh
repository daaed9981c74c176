#!/bin/sh
# bench/top.sh [SECONDS]: the CPU cost of `pcl top --stdio` and `perf top
# --stdio`, both at -F 4000 on every CPU (-a) for SECONDS (default 10) while
# burner loads the machine, run one after the other.  Each gets a
# pseudo-terminal for stdin (perf floods its key menu on /dev/null, which
# would count against it), its screens go to /dev/null, SIGINT stops it.
# Prints user and system CPU seconds of each and the pcl/perf ratio of the
# totals (at most 1 is the goal).  TOP_ARGS adds options to both (e.g. -g).
set -e
cd "$(dirname "$0")/.."
make -s pcl fixtures >/dev/null
PERF=${PERF:-/usr/bin/perf}
secs=${1:-10}
build/fixtures/burner $(( (secs * 2 + 10) * 1000 )) cpu >/dev/null &
load=$!
trap 'kill $load 2>/dev/null' EXIT INT TERM

# cpu TOOL -> "user sys" CPU seconds of `TOOL top --stdio -F 4000 -a`
cpu() {
	/usr/bin/python3 - "$secs" "${TOP_ARGS:-}" "$@" <<'PY'
import os, pty, signal, subprocess, sys, time
secs = float(sys.argv[1])
extra = sys.argv[2].split()
master, slave = pty.openpty()
with open(os.devnull, "wb") as null:
    p = subprocess.Popen([*sys.argv[3:], "top", "--stdio", "-F", "4000", "-a", "-d", "1", *extra],
                         stdin=slave, stdout=null, stderr=null)
    time.sleep(secs)
    p.send_signal(signal.SIGINT)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = status
print(f"{ru.ru_utime:.2f} {ru.ru_stime:.2f}")
PY
}

pcl=$(cpu ./pcl)
perf=$(cpu "$PERF")
printf '%-24s %8s %8s %8s\n' "run ($secs s)" "user s" "sys s" "total s"
echo "$pcl" | awk '{ printf "%-24s %8.2f %8.2f %8.2f\n", "pcl top --stdio", $1, $2, $1 + $2 }'
echo "$perf" | awk '{ printf "%-24s %8.2f %8.2f %8.2f\n", "perf top --stdio", $1, $2, $1 + $2 }'
echo "$pcl $perf" | awk '{ t = $3 + $4; printf "pcl/perf CPU: %.2f\n", t ? ($1 + $2) / t : 0 }'
