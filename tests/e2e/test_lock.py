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


# ---- lockdep: lock:lock_acquire, _acquired, _contended, _release ----------
# This kernel has no lockdep, so the recordings are synthesized
# (perfdata_lockdep.py): with broken sequences (perf's debugging footer)
# and without.

@pytest.fixture(scope="module")
def lockdep(tmp_path_factory):
    import perfdata_lockdep
    d = tmp_path_factory.mktemp("lockdep")
    out = {}
    for name, broken in (("broken", True), ("clean", False)):
        out[name] = str(d / (name + ".data"))
        perfdata_lockdep.write(out[name], broken=broken)
    return out


KEYS = ["acquired", "contended", "avg_wait", "wait_total", "wait_max", "wait_min"]
LOCKDEP_ARGS = (
    [["report"], ["report", "-t"], ["report", "-c"], ["report", "-c", "-t"], ["report", "-q"],
     ["report", "-E", "3"], ["report", "-t", "-E", "2", "-k", "wait_max"],
     ["report", "-F", "contended,wait_min", "-k", "avg_wait"], ["report", "-F", "wait_max"],
     ["report", "-F", "acquired,foo"], ["info", "-t"], ["info", "-m"], ["info", "-t", "-m"],
     ["info"], ["contention"]] +
    [["report", "-k", k] for k in KEYS] + [["report", "-c", "-k", k] for k in KEYS])


@pytest.mark.parametrize("kind", ["broken", "clean"])
@pytest.mark.parametrize("args", LOCKDEP_ARGS, ids=" ".join)
def test_lockdep_matches_perf(lockdep, kind, args):
    path = lockdep[kind]
    same(perf("lock", "-i", path, *args), pcl("lock", "-i", path, *args))


def test_lockdep_has_rows(lockdep):
    """The comparison means something: perf reads the synthesized file."""
    r = perf("lock", "-i", lockdep["broken"], "report")
    assert "&mm->mmap_lock" in r.stderr and "bad:" in r.stderr
    assert "bad:" not in perf("lock", "-i", lockdep["clean"], "report").stderr


@pytest.mark.parametrize("args", [["script"], ["-D", "report"]], ids=" ".join)
def test_lockdep_script_and_dump_match_perf(lockdep, args):
    path = lockdep["broken"]
    same(perf("lock", "-i", path, *args), pcl("lock", "-i", path, *args))


@pytest.mark.parametrize("args", [["contention"], ["contention", "-v"], ["report"]],
                         ids=" ".join)
@pytest.mark.parametrize("vmlinux", ["/nonexistent", "burner"])
def test_vmlinux_matches_perf(recordings, args, vmlinux):
    """--vmlinux FILE: the kernel's symbols from that file only (callers
    "Unknown" when it has none of them)."""
    path = recordings[("perf", "task")]
    vmlinux = fixture(vmlinux) if vmlinux == "burner" else vmlinux
    want = perf("lock", "--vmlinux", vmlinux, "-i", path, *args)
    got = pcl("lock", "-i", path, *args[:1], "--vmlinux", vmlinux, *args[1:])
    assert got.returncode == want.returncode == 0
    assert tables(got.stderr) == tables(want.stderr), \
        unified(tables(want.stderr), tables(got.stderr))


@pytest.mark.parametrize("kind", ["broken", "clean"])
def test_lockdep_verbose_matches_perf(lockdep, kind):
    """-v: the debugging footer even without broken sequences."""
    want = perf("lock", "-i", lockdep[kind], "report", "-v")
    got = pcl("lock", "-i", lockdep[kind], "report", "-v")
    assert got.returncode == want.returncode == 0
    assert tables(got.stderr) == tables(want.stderr), \
        unified(tables(want.stderr), tables(got.stderr))
    assert "=== output for debug" in want.stderr
