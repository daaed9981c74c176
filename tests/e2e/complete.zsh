# Prints what the zsh completion function offers for a typed line (the e2e tests): zsh's
# completion builtins are replaced by stand-ins (functions win over builtins) that print
# each candidate compadd gets which matches PREFIX, after what compset moved to IPREFIX,
# and FILES for _files.
# usage: zsh -f complete.zsh SCRIPT LINE
script=$1 line=$2
words=(${=line})
[[ $line == *' ' || -z $line ]] && words+=('')
CURRENT=$#words
PREFIX=$words[CURRENT]
IPREFIX=
compset() {
	[[ $1 == -P && $PREFIX == *,* ]] || return 1
	IPREFIX=${PREFIX%,*},
	PREFIX=${PREFIX##*,}
}
compadd() {
	local w
	for w in ${(P)2}; do
		[[ $w == ${(b)PREFIX}* ]] && print -r -- $IPREFIX$w
	done
	return 0
}
_files() { print FILES }
source $script
