"""--inline / --no-inline of pcl script and pcl report against perf 6.1 on
recordings of a fixture with an inlined function (inline_ties: outer ->
middle_step, always inlined -> nested).

perf 6.1 expands DWARF-unwound frames into the functions inlined at their
address by default (--inline is on): the entries show "(inlined)", the
enclosing function by its DWARF name, and each its own source line (the
call site for the callers).  --no-inline leaves the frames as the symbol
table names them, with the address's innermost source line.  Frame-pointer
callchains are never expanded, whichever option."""
import re

import pytest

from conftest import fixture, pcl, perf

INLINE_OPTS = [[], ["--inline"], ["--no-inline"]]


def name(args):
    return " ".join(args) or "default"


@pytest.fixture(scope="module")
def inline_data(tmp_path_factory):
    """inline_ties recorded with frame pointers and with DWARF stacks; the
    recording starts after the dynamic loader's work (-D)."""
    paths = {}
    for kind, cg in [("fp", ["-g"]), ("dwarf", ["--call-graph", "dwarf,4096"])]:
        data = str(tmp_path_factory.mktemp("inl") / f"{kind}.data")
        rec = perf("record", "-q", "-o", data, "-D", "20", *cg, "--", fixture("inline_ties"), "150")
        assert rec.returncode == 0, rec.stderr
        paths[kind] = data
    return paths


def same(want, got, what):
    assert got.returncode == want.returncode, got.stderr
    assert got.stdout == want.stdout, what


def report_text(out):
    return re.sub(r"^# \(Tip: .*\)\n", "", out, flags=re.M).rstrip("\n")


@pytest.mark.parametrize("kind", ["fp", "dwarf"])
@pytest.mark.parametrize("opt", INLINE_OPTS, ids=name)
@pytest.mark.parametrize("fields", [[], ["-F", "ip,sym"], ["-F", "ip,sym,symoff,dso"],
                                    ["-F", "comm,tid,ip,sym,srcline"]], ids=name)
def test_script_inline(inline_data, kind, opt, fields):
    args = ["script", "-i", inline_data[kind], *opt, *fields]
    same(perf(*args), pcl(*args), f"pcl {' '.join(args)}")


def test_script_inline_expands_dwarf_frames_only(inline_data):
    dwarf = pcl("script", "-i", inline_data["dwarf"], "-F", "ip,sym").stdout
    plain = pcl("script", "-i", inline_data["dwarf"], "-F", "ip,sym", "--no-inline").stdout
    assert re.search(r" middle_step\+0x[0-9a-f]+ \(inlined\)\n", pcl("script", "-i", inline_data["dwarf"]).stdout)
    assert "middle_step" in dwarf and "middle_step" not in plain
    fp = pcl("script", "-i", inline_data["fp"], "-F", "ip,sym", "--inline").stdout
    assert "middle_step" not in fp


@pytest.mark.parametrize("kind", ["fp", "dwarf"])
@pytest.mark.parametrize("opt", INLINE_OPTS, ids=name)
@pytest.mark.parametrize("args", [[], ["--no-children"], ["-g", "callee", "--no-children"],
                                  ["-s", "sym"], ["-s", "srcline", "--no-children"],
                                  ["-g", "none", "-s", "dso,sym"]], ids=name)
def test_report_inline(inline_data, kind, opt, args):
    cmd = ["report", "--stdio", "-i", inline_data[kind], "--comms", "tie-thread", *opt, *args]
    want, got = perf(*cmd), pcl(*cmd)
    assert got.returncode == want.returncode, got.stderr
    assert report_text(got.stdout) == report_text(want.stdout), f"pcl {' '.join(cmd)}"
