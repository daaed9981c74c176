"""Every command that reads a perf.data, on a file that is not there:
perf 6.1's words ("failed to open PATH: reason"), its hint where the
missing file is called perf.data, its extra lines and its status."""
import subprocess

import pytest

from conftest import pcl, perf

COMMANDS = [
    ["buildid-list"], ["buildid-list", "-i", "perf.data"], ["buildid-list", "-i", "./perf.data"],
    ["buildid-list", "-i", "missing.data"],
    ["report", "--stdio"], ["report", "--stdio", "-i", "perf.data"],
    ["report", "--stdio", "-i", "./perf.data"],
    ["script"], ["script", "--header-only"], ["script", "-i", "missing.data"],
    ["annotate", "--stdio"], ["evlist"], ["evlist", "-i", "missing.data"],
    ["sched", "latency"], ["sched", "map", "-i", "missing.data"],
    ["lock", "report"], ["lock", "report", "-i", "missing.data"], ["kmem", "stat"],
    ["timechart"], ["c2c", "report", "--stdio"], ["mem", "report", "--stdio"],
    ["kwork", "report"], ["trace", "-i", "perf.data"], ["kvm", "report", "--stdio"],
    ["diff"], ["data", "convert", "--to-json", "out.json"],
]


@pytest.mark.parametrize("cmd", COMMANDS, ids=" ".join)
def test_missing_file_as_perf(tmp_path, cmd):
    """Each tool in a directory of its own (perf leaves files behind)."""
    (tmp_path / "perf").mkdir()
    (tmp_path / "pcl").mkdir()
    want = perf(*cmd, cwd=str(tmp_path / "perf"), stdin=subprocess.DEVNULL)
    got = pcl(*cmd, cwd=str(tmp_path / "pcl"), stdin=subprocess.DEVNULL)
    assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout,
                                                        want.stderr)
