#!/bin/sh
# Turns a text file (JS, CSS) into C string literal lines, one per line of
# the file, for #include inside a string initializer.
# Usage: embed-asset.sh FILE > FILE.inc
set -e
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$1"
