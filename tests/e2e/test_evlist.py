"""pcl evlist against perf evlist 6.1 on the same perf.data files."""
import os
import struct

import pytest

from conftest import pcl, perf
from perfdata_corpus import perf_data  # noqa: F401 (fixture)
from test_report import normalize

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


HEADER_EVENT_DESC = 12


def hardware_without_names(src, dst, config):
    """A copy of a one-event file whose event is the hardware event CONFIG
    and whose header has no event descriptions: readers name it from its
    attr alone, as in files of old perf versions or other writers."""
    b = bytearray(open(src, "rb").read())
    _, _, attr_size, attrs, _, data, data_size = struct.unpack_from("<8sQQQQQQ", b, 0)
    struct.pack_into("<I", b, attrs, 0)     # PERF_TYPE_HARDWARE
    struct.pack_into("<Q", b, attrs + 8, config)
    bitmap = 24 + 16 * 3
    features = int.from_bytes(b[bitmap:bitmap + 32], "little")
    order = [n for n in range(256) if features >> n & 1]
    table, k = data + data_size, order.index(HEADER_EVENT_DESC)
    del b[table + 16 * k:table + 16 * k + 16]
    for j in range(len(order) - 1):     # the sections after the table moved up
        offset, = struct.unpack_from("<Q", b, table + 16 * j)
        struct.pack_into("<Q", b, table + 16 * j, offset - 16)
    b[bitmap:bitmap + 32] = (features & ~(1 << HEADER_EVENT_DESC)).to_bytes(32, "little")
    open(dst, "wb").write(b)


@pytest.mark.parametrize("config", range(10))
def test_hardware_event_named_by_its_attr(perf_data, tmp_path, config):
    """perf calls such events "cycles" and "branches", not the list's
    "cpu-cycles" and "branch-instructions"."""
    path = str(tmp_path / "hw.data")
    hardware_without_names(perf_data["nocallchain"], path, config)
    for args in ([], ["-v"]):
        want = perf("evlist", "-i", path, *args)
        assert pcl("evlist", "-i", path, *args).stdout == want.stdout != ""
    want = perf("report", "-i", path, "--stdio")
    got = pcl("report", "-i", path, "--stdio")
    assert "of event" in want.stdout
    assert normalize(got.stdout) == normalize(want.stdout), got.stderr


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
