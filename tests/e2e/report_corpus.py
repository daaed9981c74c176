"""perf.data files for the report tests, recorded once per test process by
perf 6.1 from the report_work and syscalls fixtures (each run 0.1-0.3 s).

Kinds: fp (-g, some stacks cut short on purpose), dwarf (--call-graph dwarf), plain (no callchains), multi
(two events), group ('{cpu-clock,task-clock}'), tracepoints (two syscall
tracepoints with -g), sched (system wide sched tracepoints with kernel
stacks), system (system wide cpu-clock, many DSOs), pipe (perf record -o -).
System-wide files hold whatever else ran; tests look at the workload's
threads only (SYSTEM_COMMS).
"""
import atexit
import os
import shutil
import subprocess
import tempfile

import pytest

from conftest import PERF, fixture

SYSTEM_WIDE = ("sched", "system")
SYSTEM_COMMS = "report_work,rw-worker"

_DIR = None
_FILES = {}


def _record(name, args, workload, pipe=False):
    path = os.path.join(_DIR, name + ".data")
    cmd = [PERF, "record", "-q", "-o", "-" if pipe else path, *args, "--", *workload]
    with open(path if pipe else os.devnull, "wb") as out:
        subprocess.run(cmd, stdout=out, stderr=subprocess.DEVNULL, check=True, timeout=120)
    _FILES[name] = path


def corpus():
    """{kind: path}, recorded on first use."""
    global _DIR
    if _DIR is None:
        _DIR = tempfile.mkdtemp(prefix="pcl-report-corpus-")
        atexit.register(shutil.rmtree, _DIR, True)
        work, syscalls = fixture("report_work"), fixture("syscalls")
        _record("fp", ["-g"], [work, "300", "cut"])
        # from 20 ms on: DWARF stacks sampled in ld.so at start-up sometimes
        # end in a 0 - 1 frame or split inlined siblings where perf does not
        # (known divergences, issue notes), which made the suite flaky
        _record("dwarf", ["--call-graph", "dwarf,4096", "-D", "20"], [work, "150"])
        _record("plain", [], [work, "200"])
        _record("multi", ["-g", "-e", "cpu-clock", "-e", "task-clock"], [work, "200"])
        _record("group", ["-g", "-e", "{cpu-clock,task-clock}"], [work, "200"])
        _record("tracepoints", ["-g", "-e", "syscalls:sys_enter_write",
                                "-e", "syscalls:sys_enter_read"], [syscalls, "100"])
        _record("sched", ["-a", "-g", "-e", "sched:sched_switch", "-e", "sched:sched_wakeup"],
                [work, "300"])
        _record("system", ["-a", "-g", "-F", "999"], [work, "300"])
        _record("pipe", ["-g"], [work, "200"], pipe=True)
    return dict(_FILES)


@pytest.fixture(scope="session")
def report_data():
    return corpus()
