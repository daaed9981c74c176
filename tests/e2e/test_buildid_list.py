"""pcl buildid-list against perf buildid-list 6.1 on the same perf.data files."""
import os
import re

import pytest

from conftest import fixture, pcl, perf
from perfdata_corpus import normalize_vdso, perf_data  # noqa: F401 (fixture)

KINDS = ["fp", "dwarf", "threads", "nocallchain", "syscalls", "sched", "system", "pipe",
         "compressed"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("args", [[], ["-H"]], ids=lambda a: " ".join(a) or "default")
def test_buildid_list_matches_perf(perf_data, kind, args):
    want = perf("buildid-list", "-i", perf_data[kind], *args)
    got = pcl("buildid-list", "-i", perf_data[kind], *args)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == normalize_vdso(want.stdout)
    assert got.stdout, "every recording hits at least the kernel or the workload"


def test_kernel_build_id():
    want, got = perf("buildid-list", "-k"), pcl("buildid-list", "-k")
    assert got.returncode == 0
    assert got.stdout == want.stdout
    assert len(got.stdout.strip()) == 40


def test_kernel_maps():
    """-m: the running kernel's map (_text to _etext) and its modules', each
    with its build id (this machine has no loadable modules to list)."""
    want, got = perf("buildid-list", "-m"), pcl("buildid-list", "-m")
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout
    assert got.stdout.split()[-1] == "[kernel.kallsyms]"


def test_with_hits_lists_a_jit_map_like_perf(tmp_path):
    """Samples in JIT code hit the /tmp/perf-PID.map DSO (made from an
    anonymous executable map): --with-hits lists it, without a build id."""
    data = str(tmp_path / "jit.data")
    rec = perf("record", "-q", "-o", data, "--", fixture("jit_map"), "150")
    assert rec.returncode == 0, rec.stderr
    pids = set(re.findall(r"perf-(\d+)\.map", perf("script", "-i", data).stdout))
    try:
        for args in (["--with-hits"], []):
            a = perf("buildid-list", "-i", data, *args)
            b = pcl("buildid-list", "-i", data, *args)
            assert b.stdout == a.stdout
        assert re.search(r"^ {41}/tmp/perf-\d+\.map$", b.stdout, re.M) is None
        assert re.search(r"^ {41}/tmp/perf-\d+\.map$",
                         pcl("buildid-list", "-i", data, "--with-hits").stdout, re.M)
    finally:
        for pid in pids:
            if os.path.exists(f"/tmp/perf-{pid}.map"):
                os.unlink(f"/tmp/perf-{pid}.map")

