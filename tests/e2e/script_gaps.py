"""Known differences between pcl script and perf script that come from
perf's symbol engine, for the tests that compare the two."""
import difflib
import re


def unified(a, b):
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True),
                                        "perf", "pcl", n=2))[:6000]


# Differences that come from the symbol engine (src/core/machine.h), not
# from the reader: a frame both tools print at the same address with the
# same layout, but named differently, in one of these known ways.
# a frame line, or a sample line ending in "ip sym+off (dso)"
_FRAME = re.compile(r"^(.*?)([0-9a-f]+) (\S+)(?: \((.*)\))?$")


def symbol_engine_gap(perf_line, pcl_line):
    p, q = _FRAME.match(perf_line), _FRAME.match(pcl_line)
    if not p or not q or p.group(1) != q.group(1) or p.group(2) != q.group(2):
        return None
    names = {p.group(3).split("+")[0], q.group(3).split("+")[0]}
    # perf's symbol rbtree sometimes finds _init (sized up to .text) before
    # the PLT entry it overlaps, depending on the tree's shape.
    if p.group(4) == q.group(4) and "_init" in names and any(n.endswith("@plt") for n in names):
        return "PLT entry named _init by perf's overlapping-symbol lookup"
    return None


def known_gaps(a, b):
    """The set of known symbol-engine gaps explaining every difference, or
    None when some difference is not one of them."""
    al, bl = a.splitlines(), b.splitlines()
    reasons = set()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, al, bl, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if op != "replace" or i2 - i1 != j2 - j1:
            return None
        for x, y in zip(al[i1:i2], bl[j1:j2]):
            r = symbol_engine_gap(x, y)
            if not r:
                return None
            reasons.add(r)
    return reasons
