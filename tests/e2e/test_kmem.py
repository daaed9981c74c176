"""pcl kmem against perf kmem 6.1: the same record command lines give the
same attrs, and `kmem stat` prints the same tables on the same files (one
recorded by perf kmem record, one by pcl kmem record)."""
import os

import pytest

from conftest import fixture, pcl, perf, unified

WORKLOAD = ["lock_contend", "2", "100"]


def workload():
    return [fixture(WORKLOAD[0]), *WORKLOAD[1:]]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    """{(tool, mode): path} of kmem recordings of the allocating workload."""
    d = tmp_path_factory.mktemp("kmem")
    out = {}
    for name, tool in (("perf", perf), ("pcl", pcl)):
        for mode, flags in (("slab", []), ("page", ["--page"]), ("both", ["--slab", "--page"])):
            path = os.path.join(str(d), "%s-%s.data" % (name, mode))
            r = tool("kmem", *flags, "record", "-q", "-o", path, "--", *workload())
            assert r.returncode == 0, r.stderr
            out[(name, mode)] = path
    return out


@pytest.mark.parametrize("mode", ["slab", "page", "both"])
def test_record_attrs_match_perf(recordings, mode):
    want = perf("evlist", "-v", "-i", recordings[("perf", mode)])
    got = perf("evlist", "-v", "-i", recordings[("pcl", mode)])
    assert want.returncode == got.returncode == 0
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


STAT_ARGS = [
    [], ["--caller"], ["--alloc"], ["--caller", "--alloc", "-l", "7"],
    ["--alloc", "--caller", "-l", "3", "--raw-ip"],
    ["--caller", "-s", "bytes,pingpong", "-l", "20"], ["--alloc", "-s", "ptr", "-l", "10"],
    ["--alloc", "-s", "callsite,hit"], ["--caller", "-l", "0"],
    ["--page"], ["--page", "--caller"], ["--page", "--alloc", "-l", "10"],
    ["--page", "--caller", "--alloc", "-s", "gfp,migtype,order"],
    ["--page", "--alloc", "-s", "page,order", "-l", "5"], ["--page", "--alloc", "-s", "hit"],
    ["--page", "--live", "--caller", "--alloc"],
    ["--slab", "--page", "--caller", "--alloc", "-l", "4"], ["--page", "--slab", "--caller"],
    ["-s", "bad"], ["--page", "-s", "bytes,foo"], ["--time", "abc"],
]


@pytest.mark.parametrize("tool", ["perf", "pcl"])
@pytest.mark.parametrize("mode", ["slab", "page", "both"])
@pytest.mark.parametrize("args", STAT_ARGS, ids=lambda a: " ".join(a) or "default")
def test_stat_matches_perf(recordings, tool, mode, args):
    path = recordings[(tool, mode)]
    want = perf("kmem", "-i", path, *args, "stat")
    got = pcl("kmem", "-i", path, *args, "stat")
    assert got.returncode == want.returncode
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
    assert got.stderr.replace("pcl kmem", "perf kmem") == want.stderr, \
        unified(want.stderr, got.stderr)


def test_time_window_matches_perf(recordings):
    """--time keeps the samples of a window: half of the recording here."""
    path = recordings[("perf", "both")]
    times = perf("script", "-i", path, "-F", "time").stdout.split()
    assert times
    start, end = float(times[0].rstrip(":")), float(times[-1].rstrip(":"))
    window = "%.6f,%.6f" % (start, (start + end) / 2)
    for args in (["--caller", "-l", "5"], ["--page", "--alloc", "-l", "5"]):
        want = perf("kmem", "-i", path, "--time", window, *args, "stat")
        got = pcl("kmem", "-i", path, "--time", window, *args, "stat")
        assert got.returncode == want.returncode == 0
        assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


def test_usage_and_missing_input(tmp_path):
    for args in ([], ["stat"], ["foo"]):
        want = perf("kmem", *args, cwd=str(tmp_path))
        got = pcl("kmem", *args, cwd=str(tmp_path))
        assert got.returncode == want.returncode
        assert got.stderr.replace("pcl kmem", "perf kmem") == want.stderr
