#!/bin/sh
# check-layers.sh: the include rules of docs/architecture.md, checked on src/.
# Each layer may include the layers listed for it (and itself); a header
# named *-int.h is private to the folder it lives in.  Prints every broken
# rule as "file: includes X (layer may include: ...)" and exits 1 if any.
cd "$(dirname "$0")/.." || exit 2

allowed() {	# allowed LAYER -> the layers it may include
	case $1 in
	util)     echo "util" ;;
	events)   echo "util events" ;;
	symbols)  echo "util symbols" ;;
	data)     echo "util events symbols data" ;;
	live)     echo "util events symbols data live" ;;
	hist)     echo "util events symbols data hist" ;;
	analysis) echo "util events symbols data hist analysis" ;;
	probe)    echo "util symbols probe" ;;
	ui)       echo "util events symbols data hist analysis ui" ;;
	cmd)      echo "util events symbols data live hist analysis probe ui cmd" ;;
	esac
}

layer_of() {	# layer_of PATH (relative to src/)
	case $1 in
	util/*) echo util ;;
	core/*/*) p=${1#core/}; echo "${p%%/*}" ;;
	ui/*) echo ui ;;
	*) echo cmd ;;
	esac
}

bad=0
for file in $(find src -name '*.[ch]' | sort); do
	rel=${file#src/}
	layer=$(layer_of "$rel")
	ok=$(allowed "$layer")
	if [ -z "$ok" ]; then
		echo "$file: in no layer (src/core files belong in a subsystem folder)"
		bad=1
		continue
	fi
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file"); do
		[ -f "src/$inc" ] || continue	# generated assets and the like
		target=$(layer_of "$inc")
		case " $ok " in
		*" $target "*) ;;
		*) echo "$file: includes $inc (a $layer file may include: $ok)"; bad=1 ;;
		esac
		case $inc in
		*-int.h)
			if [ "$(dirname "$inc")" != "$(dirname "$rel")" ]; then
				echo "$file: includes $inc, private to src/$(dirname "$inc")"
				bad=1
			fi ;;
		esac
	done
done
[ $bad = 0 ] && echo "layers: every include follows docs/architecture.md"
exit $bad
