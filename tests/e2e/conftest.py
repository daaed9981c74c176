"""Shared helpers for pcl's end-to-end tests: run pcl and perf 6.1 side by side."""
import difflib
import os
import shutil
import subprocess
import time

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# PCL_BIN: another build of pcl to test (make check also runs the suite on the sanitizer build)
PCL = os.environ.get("PCL_BIN") or os.path.join(ROOT, "pcl")
# The sanitizer build runs several times slower: a live test whose point is
# keeping up with an event storm gives it room instead.
SANITIZED = os.path.basename(PCL) == "pcl-asan"
PERF = shutil.which("perf") or "/usr/bin/perf"
FIXTURES = os.path.join(ROOT, "build", "fixtures")


def fixture(name):
    """Path of a fixture workload built by make (tests/fixtures/NAME.c)."""
    path = os.path.join(FIXTURES, name)
    if not os.path.exists(path):
        subprocess.run(["make", "-C", ROOT, "fixtures"], check=True,
                       stdout=subprocess.DEVNULL)
    return path


def wait_until(cond, what, timeout=120):
    """Polls cond until it holds: a live test waits on what a process has
    done, never for a fixed time (a loaded machine makes any one wrong)."""
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "gave up waiting %d s for %s" % (timeout, what)
        time.sleep(0.02)


def catches(pid, sig):
    """Whether process pid has a handler in place for signal sig (its
    SigCgt mask): a signal sent then is handled, not fatal."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (sig - 1) & 1)
    except FileNotFoundError:
        pass
    return False


def runs(pid, comm):
    """Whether process pid has exec'd the program named comm."""
    try:
        with open("/proc/%s/comm" % pid) as f:
            return f.read().strip() == comm
    except FileNotFoundError:
        return False


def children(pid):
    """The pids of process pid's children (a recording's workload)."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(child) for child in f.read().split()]
    except OSError:
        return []


def child_runs(pid, comm):
    """Whether a child of process pid has exec'd the program named comm."""
    return any(runs(child, comm) for child in children(pid))


def run(argv, **kw):
    """Runs a command, returning CompletedProcess with text stdout/stderr."""
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("text", True)
    kw.setdefault("timeout", 120)
    return subprocess.run(argv, **kw)


def unified(a, b, limit=20000):
    """A unified diff of perf's text a and pcl's text b, for failures."""
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True),
                                        "perf", "pcl", n=2))[:limit]


def pcl(*args, **kw):
    return run([PCL, *args], **kw)


def perf(*args, **kw):
    return run([PERF, *args], **kw)


def perf_killed_by_addr2line(run):
    """perf 6.1 dies of SIGPIPE when its addr2line cannot read a DSO (a
    memfd mapping; it says "could not read first record") or gives up
    under load (then it says nothing): its output stops mid-line."""
    return run.returncode in (141, -13)


def perf_record_g(directory, name, workload, extra=()):
    """perf record -g of workload into directory/name; its path."""
    path = os.path.join(directory, name)
    r = perf("record", "-q", "-g", *extra, "-o", path, "--", *workload)
    assert r.returncode == 0, r.stderr
    return path


@pytest.fixture(scope="session", autouse=True)
def tracefs_mounted():
    """Tracepoint tests need tracefs; mount it as perf would."""
    if not os.path.exists("/sys/kernel/tracing/events"):
        subprocess.run(["mount", "-t", "tracefs", "nodev", "/sys/kernel/tracing"],
                       stderr=subprocess.DEVNULL)
