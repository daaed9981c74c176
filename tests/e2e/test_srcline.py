"""Source lines as perf 6.1 prints them: perf asks binutils' addr2line,
pcl reads the DWARF in process and keeps addr2line's answers, quirks and
all (see src/core/srcline.c)."""
import re
import shutil
import tempfile

import pytest

from conftest import fixture, pcl, perf, perf_record_g


@pytest.fixture(scope="module")
def tmp():
    d = tempfile.mkdtemp(prefix="pcl-srcline-")
    yield d
    shutil.rmtree(d, True)


@pytest.fixture(scope="module")
def header_data(tmp):
    return perf_record_g(tmp, "header.data", [fixture("header_lines"), "200"])


@pytest.fixture(scope="module")
def stripped_data(tmp):
    """ls and its libraries: Debian's binaries are stripped, without debug
    info (addr2line finds their functions through .dynsym only)."""
    return perf_record_g(tmp, "stripped.data", ["/bin/ls", "-lR", "/usr/share/doc"],
                         ["-c", "100000"])


def same(path, cmd, *args):
    want = perf(cmd, *(["--stdio"] if cmd == "report" else []), "-i", path, *args)
    got = pcl(cmd, *(["--stdio"] if cmd == "report" else []), "-i", path, *args)
    assert want.returncode == 0, want.stderr
    strip = (lambda t: "\n".join(l for l in t.splitlines() if not l.startswith("#"))) \
        if cmd == "report" else (lambda t: t)
    assert strip(got.stdout) == strip(want.stdout), f"pcl {cmd} {' '.join(args)} differs"
    return want.stdout


def test_dwarf5_rows_before_the_first_file_change(header_data):
    """header_spin's rows come first in the unit and say file 1
    (header_lines.h): addr2line names them by entry 0, header_lines.c."""
    out = same(header_data, "report", "-s", "srcline", "--no-children", "-g", "none")
    assert "header_lines.c:" in out and "header_lines2.h:" in out
    assert "header_lines.h:" not in out
    same(header_data, "script", "-F", "comm,tid,ip,sym,srcline")
    same(header_data, "report", "-s", "srcfile,sym", "--no-children")


@pytest.mark.parametrize("args", [["-s", "dso,srcline", "--no-children", "-g", "none"],
                                  ["-s", "srcfile,dso", "--no-children", "-g", "none"],
                                  ["-g", "srcline", "--no-children"],
                                  ["-g", "address", "--no-children"]],
                         ids=lambda a: " ".join(a))
def test_stripped_functions_without_lines(stripped_data, args):
    """A function found (by .dynsym, whatever its size) without a line is
    "??:0" in report, nothing in script; nothing found is "dso[addr]"."""
    out = same(stripped_data, "report", *args)
    if args[1] == "dso,srcline":
        assert "??:0" in out and re.search(r"\[[0-9a-f]+\]$", out, re.M)


def test_stripped_script_srcline(stripped_data):
    out = same(stripped_data, "script", "-F", "comm,tid,ip,sym,dso,srcline")
    assert "(/usr/bin/ls)" in out
