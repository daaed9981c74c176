"""pcl evlist against perf evlist 6.1 on the same perf.data files."""
import os

import pytest

from conftest import pcl, perf
from perfdata_corpus import perf_data  # noqa: F401 (fixture)

KINDS = ["fp", "dwarf", "threads", "nocallchain", "syscalls", "sched", "system", "pipe",
         "compressed"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("args", [[], ["-v"], ["-F"], ["-g"], ["--trace-fields"],
                                  ["-v", "--trace-fields"]], ids=lambda a: " ".join(a))
def test_evlist_matches_perf(perf_data, kind, args):
    want = perf("evlist", "-i", perf_data[kind], *args)
    got = pcl("evlist", "-i", perf_data[kind], *args)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout


def test_group_with_other_options_is_refused(perf_data):
    r = pcl("evlist", "-g", "-v", "-i", perf_data["fp"])
    assert r.returncode == 129
    assert "--group option is not compatible with other options" in r.stderr


def test_groups(tmp_path):
    path = str(tmp_path / "group.data")
    rec = perf("record", "-q", "-o", path, "-e", "{cpu-clock,task-clock}", "-e", "page-faults",
               "-c", "100000", "--", "true")
    assert rec.returncode == 0, rec.stderr
    for args in ([], ["-g"], ["-v"]):
        assert pcl("evlist", "-i", path, *args).stdout == perf("evlist", "-i", path, *args).stdout


def test_not_a_perf_data_file(tmp_path):
    junk = tmp_path / "junk"
    junk.write_bytes(b"\0" * 200)
    r = pcl("evlist", "-i", str(junk))
    assert r.returncode == perf("evlist", "-i", str(junk)).returncode == 255
    assert "bad magic" in r.stderr


@pytest.mark.parametrize("cmd", [["evlist"], ["buildid-list"], ["script"], ["report", "--stdio"]])
def test_another_users_file_needs_force(tmp_path, cmd):
    """perf reads a recording another user owns only with -f: so does pcl."""
    if os.geteuid() != 0:
        pytest.skip("only root can give a file away")
    path = str(tmp_path / "theirs.data")
    rec = perf("record", "-q", "-o", path, "--", "true")
    assert rec.returncode == 0, rec.stderr
    os.chown(path, 1, 1)
    a, b = perf(*cmd, "-i", path), pcl(*cmd, "-i", path)
    assert b.returncode == a.returncode == 255
    assert "not owned by current user or root (use -f to override)" in a.stderr
    assert "not owned by current user or root (use -f to override)" in b.stderr
    a, b = perf(*cmd, "-f", "-i", path), pcl(*cmd, "-f", "-i", path)
    assert b.returncode == a.returncode == 0, b.stderr
