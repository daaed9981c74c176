#!/bin/sh
# make demo: the main job on a bundled workload.
set -e
cd "$(dirname "$0")/.."
echo "== pcl --version"
./pcl --version
