# Prints the COMPREPLY of a bash completion function for a typed line (the e2e tests).
# usage: complete.sh SCRIPT FUNC LINE
script=$1 func=$2 line=$3
source "$script"
COMP_LINE=$line; COMP_POINT=${#line}
# split as readline does: whitespace, then wordbreak characters as words of their own
eval "$(python3 - "$line" <<'PY'
import re, sys, shlex
line = sys.argv[1]
words = []
for w in line.split():
    words += [p for p in re.split(r"([:=])", w) if p]
if line.endswith(" ") or not line: words.append("")
print("COMP_WORDS=(" + " ".join(shlex.quote(w) for w in words) + ")")
print(f"COMP_CWORD={len(words)-1}")
PY
)"
$func
printf '%s\n' "${COMPREPLY[@]}"
