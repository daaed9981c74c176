"""pcl lock against perf lock 6.1: record gives the same attrs, and report,
contention, info and script print the same text on the same files (perf's
and pcl's recordings of threads contending on their mmap lock, one of
them system-wide).  perf lock prints its tables to stderr."""
import os

import pytest

from conftest import fixture, pcl, perf, unified


def workload(threads="6", rounds="300"):
    return [fixture("lock_contend"), threads, rounds]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    d = tmp_path_factory.mktemp("lock")
    out = {}
    for name, tool in (("perf", perf), ("pcl", pcl)):
        for mode, flags in (("task", []), ("system", ["-a"])):
            path = os.path.join(str(d), "%s-%s.data" % (name, mode))
            r = tool("lock", "record", "-q", *flags, "-o", path, "--", *workload())
            assert r.returncode == 0, r.stderr
            out[(name, mode)] = path
    return out


@pytest.mark.parametrize("mode", ["task", "system"])
def test_record_attrs_match_perf(recordings, mode):
    want = perf("evlist", "-v", "-i", recordings[("perf", mode)])
    got = perf("evlist", "-v", "-i", recordings[("pcl", mode)])
    assert want.returncode == got.returncode == 0
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


ARGS = [
    ["report"], ["report", "-t"], ["report", "-c"], ["report", "-c", "-t"],
    ["report", "-k", "wait_max"], ["report", "-k", "wait_min"], ["report", "-E", "3"],
    ["report", "-F", "contended,wait_min", "-k", "avg_wait"], ["report", "-q"],
    ["report", "-F", "contended,foo"], ["report", "-k", "bogus"], ["rep"],
    ["contention"], ["contention", "-t"], ["contention", "-k", "contended", "-E", "5"],
    ["contention", "-k", "wait_min", "-F", "wait_min,contended"], ["contention", "-k", "avg_wait"],
    ["contention", "--stack-skip", "4", "--max-stack", "6"], ["contention", "--stack-skip", "6"],
    ["contention", "-k", "acquired"],
    ["contention", "-F", "foo"], ["contention", "-q"], ["contention", "-b"], ["cont", "-E", "2"],
    ["info", "-t"], ["info", "-m"], ["info", "-t", "-m"], ["info"],
]


def same(want, got):
    assert got.returncode == want.returncode, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
    assert got.stderr.replace("pcl lock", "perf lock") == want.stderr, \
        unified(want.stderr, got.stderr)


@pytest.mark.parametrize("tool", ["perf", "pcl"])
@pytest.mark.parametrize("mode", ["task", "system"])
@pytest.mark.parametrize("args", ARGS, ids=" ".join)
def test_analysis_matches_perf(recordings, tool, mode, args):
    path = recordings[(tool, mode)]
    same(perf("lock", "-i", path, *args), pcl("lock", "-i", path, *args))


@pytest.mark.parametrize("mode", ["task", "system"])
def test_script_matches_perf(recordings, mode):
    path = recordings[("perf", mode)]
    want = perf("lock", "-i", path, "script")
    got = pcl("lock", "-i", path, "script")
    assert got.returncode == want.returncode == 0
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


def test_file_without_lock_events(tmp_path):
    path = str(tmp_path / "plain.data")
    r = perf("record", "-q", "-o", path, "-e", "sched:sched_process_exec", "--", "true")
    assert r.returncode == 0, r.stderr
    for args in (["report"], ["contention"], ["info", "-m"]):
        same(perf("lock", "-i", path, *args), pcl("lock", "-i", path, *args))


def test_usage(tmp_path):
    for args in ([], ["bogus"]):
        want = perf("lock", *args, cwd=str(tmp_path))
        got = pcl("lock", *args, cwd=str(tmp_path))
        assert got.returncode == want.returncode


def tables(text):
    """From the table's header on: -v's debugging lines before it are perf's own."""
    lines = text.splitlines(True)
    for i, line in enumerate(lines):
        if line.startswith(" contended") or line.lstrip().startswith("Name "):
            return "".join(lines[i:])
    return ""


@pytest.mark.parametrize("mode", ["task", "system"])
@pytest.mark.parametrize("args", [["contention", "-v"], ["contention", "-v", "--max-stack", "4"],
                                  ["report", "-v"]], ids=" ".join)
def test_verbose_matches_perf(recordings, mode, args):
    """-v: each caller's first call chain under it, and the debugging footer."""
    path = recordings[("perf", mode)]
    want = perf("lock", "-i", path, *args)
    got = pcl("lock", "-i", path, *args)
    assert got.returncode == want.returncode == 0
    assert tables(got.stderr) == tables(want.stderr), \
        unified(tables(want.stderr), tables(got.stderr))


@pytest.mark.parametrize("tool", ["perf", "pcl"])
@pytest.mark.parametrize("args", [["report"], ["contention"], ["info", "-t"]], ids=" ".join)
def test_dump_raw_trace_matches_perf(recordings, tool, args):
    """-D: every record dumped, ": unhandled!" for the kinds perf lock skips."""
    path = recordings[(tool, "task")]
    same(perf("lock", "-D", "-i", path, *args), pcl("lock", "-D", "-i", path, *args))
