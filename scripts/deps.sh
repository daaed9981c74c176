#!/bin/sh
# Usage: deps.sh SET...   SET: build, test, bench or fuzz (make demo needs the build set only).
# Checks that the Debian 12 packages of each SET are installed and, as root, installs the
# missing ones with apt-get; as another user it names them and the command that installs them.
# Packages already present are skipped, so re-running is cheap.
set -e
[ $# -gt 0 ] || set -- build

# compiler and the libraries pcl links with (enough to build ./pcl and the fixtures);
# libdrm-dev's headers only name DRM's ioctls for pcl trace; python3.11-dev embeds CPython
# for pcl script -s FILE.py; libbabeltrace-dev: the CTF writer of data convert --to-ctf;
# libncurses-dev: the full-screen browsers of report, top and annotate.  binutils-dev,
# libbabeltrace-dev and libpq-dev bring the libraries pcl opens with dlopen on first use
# (libbinutils' libopcodes and libbfd, libbabeltrace1, libpq5), by the sonames built against
BUILD="build-essential pkg-config
libtraceevent-dev libtracefs-dev libelf-dev libdw-dev libzstd-dev liblzma-dev zlib1g-dev libiberty-dev binutils-dev
libdrm-dev libsqlite3-dev libpq-dev python3.11-dev libbabeltrace-dev libncurses-dev"
# unit tests (cmocka), end-to-end tests (pytest against perf 6.1, chromium for the flame
# graph pages, clang for a clang-built workload), stress-ng to load the machine while they run;
# linux-perf also has <perf/perf_dlfilter.h>, which pcl's --dlfilter is built with;
# postgresql-15: a throwaway server (initdb, pg_ctl) for export-to-postgresql; babeltrace reads
# back the CTF traces of perf and pcl; python3-pyte emulates a terminal for the browser tests;
# zsh runs the zsh completion
TEST="libcmocka-dev python3-pytest linux-perf chromium clang stress-ng protobuf-compiler
postgresql-15 babeltrace python3-pyte zsh"
# bench/*.sh: perf side by side, /usr/bin/time for RSS, bc for the ratios, stress-ng and
# g++ for report-system.sh's recordings
BENCH="linux-perf time bc stress-ng g++"
FUZZ="clang"

want=$BUILD
for set in "$@"; do
	case $set in
	build) ;;
	test) want="$want $TEST" ;;
	bench) want="$want $BENCH" ;;
	fuzz) want="$want $FUZZ" ;;
	*) echo "deps.sh: unknown set '$set' (build, test, bench, fuzz)" >&2; exit 2 ;;
	esac
done

missing=""
for p in $want; do
	case " $missing " in *" $p "*) continue ;; esac
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: '$*' needs these Debian packages, missing here:$missing" >&2
	echo "deps.sh: install them as root with: apt-get install$missing" >&2
	exit 1
fi
echo "deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# waits for another apt-get (a parallel make, a second deps.sh) to release dpkg's lock
install="apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=600"
$install $missing || { apt-get update && $install $missing; }
