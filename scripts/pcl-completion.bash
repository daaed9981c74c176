# Bash completion for pcl: commands, sub-commands, long options and event names.
# pcl answers the questions itself (`pcl --list-cmds`, `pcl CMD --list-opts`,
# `pcl CMD --list-cmds`, `pcl list --raw-dump`), so the lists follow the binary.
# Installed by `make install`; to try it from a build tree: source scripts/pcl-completion.bash

# The part of WORD that readline has already split off at a COMP_WORDBREAKS character
# (the "sched:" of "sched:sched_sw"): it is stripped from the replies, which replace
# only what follows it.
__pcl_split_off()
{
	local word=$1 i

	for ((i = ${#word} - 1; i >= 0; i--)); do
		if [[ $COMP_WORDBREAKS == *"${word:i:1}"* ]]; then
			printf '%s' "${word:0:i+1}"
			return
		fi
	done
}

# Sets COMPREPLY to the words of LIST starting with CUR, each after HEAD (the elements of
# a comma-separated list before CUR).
__pcl_reply()
{
	local list=$1 cur=$2 head=$3 split w

	split=$(__pcl_split_off "$head$cur")
	COMPREPLY=()
	for w in $(compgen -W "$list" -- "$cur"); do
		w=$head$w
		COMPREPLY+=("${w#"$split"}")
	done
}

_pcl()
{
	# Whitespace-separated words up to the cursor: event names keep their colons.
	local line=${COMP_LINE:0:COMP_POINT} pcl cmd= sub= subs= cur= prev= i
	local -a words

	read -ra words <<<"$line"
	if [[ $line == *[[:space:]] ]]; then
		words+=("")
	fi
	pcl=${words[0]}
	cur=${words[${#words[@]} - 1]}
	((${#words[@]} > 1)) && prev=${words[${#words[@]} - 2]}

	# The command and its sub-command: the first words that are not options.
	for ((i = 1; i < ${#words[@]} - 1; i++)); do
		[[ ${words[i]} == -* ]] && continue
		if [[ -z $cmd ]]; then
			cmd=${words[i]}
			subs=$("$pcl" "$cmd" --list-cmds 2>/dev/null)
		elif [[ -z $sub && " $subs " == *" ${words[i]} "* ]]; then
			sub=${words[i]}
		fi
	done

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			__pcl_reply "$("$pcl" --list-opts 2>/dev/null)" "$cur"
		else
			__pcl_reply "$("$pcl" --list-cmds 2>/dev/null)" "$cur"
		fi
		return
	fi
	# -e takes a comma-separated list: complete its last element
	if [[ $prev == @(-e|--event) ]]; then
		local head=
		[[ $cur == *,* ]] && head=${cur%,*},
		__pcl_reply "$("$pcl" list --raw-dump 2>/dev/null)" "${cur##*,}" "$head"
		return
	fi
	if [[ $cur == -* ]]; then
		__pcl_reply "$("$pcl" "$cmd" $sub --list-opts 2>/dev/null)" "$cur"
	elif [[ -z $sub && -n $subs ]]; then
		__pcl_reply "$subs" "$cur"
	fi
	# nothing matched: readline completes file names (-o default)
}

complete -o bashdefault -o default -F _pcl pcl
