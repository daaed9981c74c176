"""DWARF unwinding (--call-graph dwarf) against perf 6.1 on a workload whose
stacks cross three DSOs: vdso -> libc -> the fixture.  libdw learns about
each DSO only when the unwinder reaches it; a DSO it has not been told of
yet gets frame-pointer guesses instead of its CFI, which skipped a frame on
the first such stack of a file."""
import re

from conftest import fixture, pcl, perf


def test_stacks_through_vdso_and_libc_match_perf(tmp_path):
    data = str(tmp_path / "dwarf.data")
    rec = perf("record", "-q", "-o", data, "--call-graph", "dwarf,4096", "--",
               fixture("clock_loop"), "400", "10")
    assert rec.returncode == 0, rec.stderr
    want = perf("script", "-i", data, "-F", "ip,sym").stdout
    got = pcl("script", "-i", data, "-F", "ip,sym")
    assert got.returncode == 0, got.stderr
    # the workload's stacks are there: through the vdso, down to main
    assert re.search(r"__vdso_clock_gettime\n(.*\n)*?\s+\w+ spin_clock\n\s+\w+ main\n", got.stdout)
    assert got.stdout == want


def test_stack_beyond_the_copy_ends_like_perf(tmp_path):
    """Python's deep interpreter stacks outgrow a 4 KB copy: the return
    address beyond it lies in the [stack] mapping, which perf's unwinder
    reads as 0 and prints as a last frame at -1; a stack copy's last word
    is read the same way."""
    data = str(tmp_path / "deep.data")
    rec = perf("record", "-q", "-o", data, "-F", "2000", "--call-graph", "dwarf,4096", "--",
               "/usr/bin/python3", "-c", "import json\nfor i in range(2000): json.dumps(list(range(300)))")
    assert rec.returncode == 0, rec.stderr
    want = perf("script", "-i", data).stdout
    got = pcl("script", "-i", data)
    assert got.returncode == 0, got.stderr
    assert "ffffffffffffffff [unknown] ([unknown])" in want
    assert got.stdout == want
