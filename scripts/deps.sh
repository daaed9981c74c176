#!/bin/sh
# Install (with apt-get) every Debian package pcl needs to build, test and benchmark.
# Packages already present are skipped, so re-running is cheap.
set -e
PKGS="build-essential pkg-config
libtraceevent-dev libtracefs-dev libelf-dev libdw-dev libzstd-dev liblzma-dev libiberty-dev
libcapstone-dev libncurses-dev
libcmocka-dev python3-pytest chromium clang
linux-perf"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing packages:$missing (run as root to install them)" >&2
	exit 1
fi
echo "deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends $missing ||
	{ apt-get update && apt-get install -y --no-install-recommends $missing; }
