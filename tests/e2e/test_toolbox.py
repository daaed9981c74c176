"""The small commands of the toolbox (issue 20), side by side with perf 6.1: version,
help, completion (--list-cmds, --list-opts), iostat."""
import re

from conftest import pcl, perf

FEATURE_ROW = re.compile(r"^ *([\w-]+): \[ (on |OFF) \]  # (\w+)$")


def feature_rows(text):
    rows = text.splitlines()[1:]
    parsed = [FEATURE_ROW.match(r) for r in rows]
    assert all(parsed), rows
    assert all(len(r.split(":")[0]) == 22 for r in rows), rows
    return {m.group(1): (m.group(2), m.group(3)) for m in parsed}


def test_version_spellings_agree():
    outs = [pcl(*a) for a in (["version"], ["--version"], ["-v"])]
    assert all(r.returncode == 0 for r in outs)
    assert outs[0].stdout == outs[1].stdout == outs[2].stdout
    assert re.fullmatch(r"pcl version \d+\.\d+\.\d+\n", outs[0].stdout)
    # perf's three spellings agree the same way
    assert perf("version").stdout == perf("--version").stdout == perf("-v").stdout


def test_build_options_in_perf_layout():
    mine, theirs = pcl("version", "--build-options"), perf("version", "--build-options")
    assert mine.returncode == theirs.returncode == 0
    ours, perfs = feature_rows(mine.stdout), feature_rows(theirs.stdout)
    # every row of perf's table, in perf's order and under perf's switch names
    assert list(ours)[:len(perfs)] == list(perfs)
    assert all(ours[name][1] == perfs[name][1] for name in perfs)
    # what pcl links is on; what it has no code for is OFF
    for name in ("dwarf", "libelf", "libbfd", "zstd", "lzma", "libtraceevent", "libopcodes"):
        assert ours[name][0] == "on ", name
    for name in ("libpython", "libperl", "libslang", "bpf", "libunwind"):
        assert ours[name][0] == "OFF", name


def test_version_usage_as_perf():
    mine, theirs = pcl("version", "-h"), perf("version", "-h")
    assert mine.returncode == theirs.returncode == 129
    assert mine.stderr.replace("pcl", "perf") == theirs.stderr
