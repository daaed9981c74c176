"""pcl trace against perf trace 6.1: replaying `trace record` files byte for byte,
pcl trace record's files read by perf."""
import os

import pytest

from conftest import fixture, pcl, perf, unified

# workloads recorded with perf trace record: one thread, threads, forks,
# signals, failing calls, a shell's redirections and fcntls
WORKLOADS = {
    "syscalls": lambda tmp: [fixture("syscalls"), "5"],
    "threads": lambda tmp: [fixture("threads")],
    "vforks": lambda tmp: [fixture("vforks")],
    "sigwork": lambda tmp: [fixture("sigwork")],
    "write1000": lambda tmp: [fixture("write1000")],
    "ls": lambda tmp: ["sh", "-c", "ls /nonexistent / || true"],
    "shell": lambda tmp: ["sh", "-c", f"echo hi > {tmp}/x; cat {tmp}/x; exec 3<{tmp}/x"],
}

OPTIONS = [[], ["-s"], ["-S"], ["--failure"], ["--duration", "0.005"],
           ["-s", "--errno-summary"], ["-S", "--failure"], ["-T"], ["--max-events", "5"]]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("trace")
    files = {}
    for name, workload in WORKLOADS.items():
        path = str(tmp / f"{name}.data")
        r = perf("trace", "record", "-o", path, "--", *workload(tmp),
                 stdout=open(os.devnull, "w"))
        assert r.returncode == 0, r.stderr
        files[name] = path
    return files


@pytest.mark.parametrize("name", list(WORKLOADS))
@pytest.mark.parametrize("args", OPTIONS, ids=lambda a: " ".join(a) or "plain")
def test_replay_matches_perf(recordings, name, args):
    want = perf("trace", "-i", recordings[name], *args)
    got = pcl("trace", "-i", recordings[name], *args)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout == ""
    assert got.stderr == want.stderr, unified(want.stderr, got.stderr)


def test_output_file(recordings, tmp_path):
    """-o writes what would go to stderr."""
    out = tmp_path / "out.txt"
    got = pcl("trace", "-i", recordings["syscalls"], "-S", "-o", str(out))
    want = perf("trace", "-i", recordings["syscalls"], "-S")
    assert got.returncode == 0 and got.stderr == ""
    assert out.read_text() == want.stderr


def test_summary_counts_every_call(recordings):
    """write1000 makes 1000 writes: the summary says so."""
    got = pcl("trace", "-i", recordings["write1000"], "-s")
    rows = [line.split() for line in got.stderr.splitlines() if line.startswith("   write ")]
    assert rows and rows[0][1] == "1000", got.stderr


def test_pcl_record_is_perfs(tmp_path):
    """pcl trace record: perf's events and attrs; perf trace reads the file
    and both tools print the same."""
    ours, theirs = str(tmp_path / "pcl.data"), str(tmp_path / "perf.data")
    workload = [fixture("syscalls"), "3"]
    r = pcl("trace", "record", "-o", ours, "--", *workload)
    assert r.returncode == 0, r.stderr
    r = perf("trace", "record", "-o", theirs, "--", *workload)
    assert r.returncode == 0, r.stderr
    assert perf("evlist", "-v", "-i", ours).stdout == perf("evlist", "-v", "-i", theirs).stdout
    for args in ([], ["-S"]):
        want = perf("trace", "-i", ours, *args)
        got = pcl("trace", "-i", ours, *args)
        assert want.returncode == 0, want.stderr
        assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
    assert "write(fd: 3, buf: 0x" in want.stderr


def test_missing_file():
    r = pcl("trace", "-i", "/nonexistent/perf.data")
    assert r.returncode != 0
    assert "/nonexistent/perf.data" in r.stderr
