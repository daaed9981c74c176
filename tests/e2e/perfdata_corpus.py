"""A corpus of perf.data files recorded by perf 6.1 from the fixtures, made
once per test process (the reader's tests share it) in a temporary dir.

Each recording is short (0.2-0.3 s of workload).  Files are named by kind:
fp (frame-pointer callchains), dwarf (--call-graph dwarf), threads,
nocallchain, syscalls (tracepoint), sched (system-wide tracepoints with
kernel stacks), system (system-wide, several DSOs), pipe (perf record -o -),
compressed (-z).
"""
import atexit
import os
import re
import shutil
import subprocess
import tempfile

import pytest

from conftest import PERF, fixture

_DIR = None
_FILES = {}


def _record(name, args, workload, pipe=False):
    path = os.path.join(_DIR, name + ".data")
    if pipe:
        with open(path, "wb") as out:
            subprocess.run([PERF, "record", "-q", "-o", "-", *args, "--", *workload],
                           stdout=out, stderr=subprocess.DEVNULL, check=True, timeout=120)
    else:
        subprocess.run([PERF, "record", "-q", "-o", path, *args, "--", *workload],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       timeout=120)
    _FILES[name] = path


def corpus():
    """Returns {kind: path}, recording the files on first use."""
    global _DIR
    if _DIR is None:
        _DIR = tempfile.mkdtemp(prefix="pcl-corpus-")
        if not os.environ.get("PCL_KEEP_CORPUS"):   # set it to debug a failure
            atexit.register(shutil.rmtree, _DIR, True)
        burner, threads, syscalls = fixture("burner"), fixture("threads"), fixture("syscalls")
        _record("fp", ["-g"], [burner, "300"])
        _record("dwarf", ["--call-graph", "dwarf,4096"], [burner, "200"])
        _record("threads", ["-g"], [threads, "200", "3"])
        _record("nocallchain", [], [burner, "200"])
        _record("syscalls", ["-e", "syscalls:sys_enter_write"], [syscalls, "200"])
        _record("sched", ["-a", "-g", "-e", "sched:sched_switch", "-e", "sched:sched_wakeup"],
                ["sleep", "0.3"])
        _record("system", ["-a", "-g", "-F", "499"], [burner, "300"])
        _record("pipe", ["-g"], [burner, "200"], pipe=True)
        _record("compressed", ["-z", "-g"], [burner, "200"])
    return dict(_FILES)


@pytest.fixture(scope="session")
def perf_data():
    return corpus()


# perf extracts the vdso into a randomly named temporary file and sometimes
# prints that name; pcl calls the DSO [vdso].
_VDSO_TMP = re.compile(r"/tmp/perf-vdso\.so-[A-Za-z0-9]+")


def normalize_vdso(text):
    return _VDSO_TMP.sub("[vdso]", text)
