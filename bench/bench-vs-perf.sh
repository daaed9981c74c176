#!/bin/sh
# pcl bench against perf bench 6.1: the same benchmarks with the same parameters, rounds
# alternating between the two tools, the median of each side and the pcl/perf ratio.  The
# work is the same, so a ratio near 1 says pcl measures what perf measures; times (sec, ms)
# are better lower, rates (ops/sec, GB/sec) higher.
# Usage: bench/bench-vs-perf.sh [rounds]   (default 3)
set -e
cd "$(dirname "$0")/.."
make -s pcl >/dev/null
PERF=${PERF:-/usr/bin/perf}
PCL=./pcl
rounds=${1:-3}

# value TOOL ARGS...: the benchmark's headline number
value() {
	tool=$1
	shift
	$tool bench "$@" 2>/dev/null | awk '
		/^Averaged .* operations\/sec/ { v = $2 }		# futex hash, lock-pi, epoll
		/^Wokeup .* ms/ { v = $(NF - 2) }			# futex wake
		/^Requeued .* ms/ { v = $(NF - 2) }			# futex requeue
		/^[0-9.]+$/ { if (v == "") v = $1 }			# -f simple: time, bytes/sec
		/^ main, .* total-speed$/ { v = $2; sub(",", "", v) }	# numa mem
		END { print v }'
}

median() {
	sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# case LABEL UNIT ARGS...
case_() {
	label=$1 unit=$2
	shift 2
	: >"$tmp/perf"
	: >"$tmp/pcl"
	i=0
	while [ $i -lt "$rounds" ]; do
		value $PERF "$@" >>"$tmp/perf"
		value $PCL "$@" >>"$tmp/pcl"
		i=$((i + 1))
	done
	p=$(median <"$tmp/perf")
	q=$(median <"$tmp/pcl")
	printf '%-34s %-9s %14s %14s %7.2f\n' "$label" "$unit" "$p" "$q" \
		"$(echo "$q / $p" | bc -l)"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "$(date -u +%F) $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg), $rounds rounds, medians"
printf '%-34s %-9s %14s %14s %7s\n' benchmark unit perf pcl pcl/perf
case_ "sched messaging (10 groups)" sec -f simple sched messaging
case_ "sched messaging -p -t" sec -f simple sched messaging -p -t
case_ "sched pipe -l 200000" sec -f simple sched pipe -l 200000
case_ "sched pipe -T -l 200000" sec -f simple sched pipe -T -l 200000
case_ "syscall basic -l 2000000" sec -f simple syscall basic -l 2000000
case_ "mem memcpy 1MB x1000 (glibc)" bytes/s -f simple mem memcpy -f default -l 1000
case_ "mem memset 1MB x1000 (glibc)" bytes/s -f simple mem memset -f default -l 1000
case_ "mem memcpy 1MB x1000 (movsb)" bytes/s -f simple mem memcpy -f x86-64-movsb -l 1000
case_ "futex hash -r 1" ops/s futex hash -r 1 -s
case_ "futex wake -t 2" ms futex wake -t 2 -s
case_ "futex requeue -t 4" ms futex requeue -t 4 -s
case_ "futex lock-pi -r 1 -t 2" ops/s futex lock-pi -r 1 -t 2 -s
case_ "epoll wait -r 1 -t 1" ops/s epoll wait -r 1 -t 1
case_ "numa mem -p 2 -P 32 -s 2" GB/s numa mem -p 2 -P 32 -s 2
