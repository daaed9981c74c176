"""pcl annotate --stdio against perf 6.1 annotate on the same perf.data."""
import os
import tempfile

import pytest

from conftest import fixture, pcl, perf, unified


@pytest.fixture(scope="module")
def tmp():
    with tempfile.TemporaryDirectory(prefix="pcl-annotate-") as d:
        yield d


def record(directory, name, workload, *extra):
    path = os.path.join(directory, name)
    r = perf("record", "-q", *extra, "-o", path, "--", *workload)
    assert r.returncode == 0, r.stderr
    return path


@pytest.fixture(scope="module")
def o2_data(tmp):
    """The -O2 fixture: inlined helpers, a jump table, libm."""
    return record(tmp, "o2.data", [fixture("annotate_work"), "300"], "-e", "cpu-clock")


@pytest.fixture(scope="module")
def two_events_data(tmp):
    """Two events with call graphs: one annotation per event, kernel symbols."""
    return record(tmp, "two.data", [fixture("annotate_work"), "200"], "-g", "-e",
                  "cpu-clock,task-clock")


@pytest.fixture(scope="module")
def o1_data(tmp):
    """burner: frame pointers, libc's sort (source paths relative to the unit)."""
    return record(tmp, "o1.data", [fixture("burner"), "300", "cpu"], "-e", "cpu-clock")


def same(path, *args):
    want = perf("annotate", "-i", path, "--stdio", *args)
    got = pcl("annotate", "-i", path, "--stdio", *args)
    assert got.returncode == want.returncode, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)
    assert got.stderr == want.stderr, unified(want.stderr, got.stderr)
    return got


OPTIONS = [
    [],
    ["--no-source"],
    ["--source"],
    ["-l"],
    ["-l", "--no-source"],
    ["-n"],
    ["--show-total-period"],
    ["--percent-type", "global-period"],
    ["--percent-type", "local-hits"],
    ["--percent-type", "global-hits"],
    ["--asm-raw"],
    ["-M", "intel"],
    ["--asm-raw", "-M", "intel", "--no-source"],
    ["-P"],
    ["--skip-missing"],
]


@pytest.mark.parametrize("args", OPTIONS, ids=lambda a: " ".join(a) or "default")
def test_every_symbol(o2_data, args):
    out = same(o2_data, *args).stdout
    assert "annotate_work for cpu-clock" in out


@pytest.mark.parametrize("args", [[], ["--asm-raw"], ["-l"]],
                         ids=lambda a: " ".join(a) or "default")
def test_libc_and_frame_pointers(o1_data, args):
    same(o1_data, *args)


def test_two_events_and_kernel_message(two_events_data):
    got = same(two_events_data)
    assert "for task-clock" in got.stdout


@pytest.mark.parametrize("args", [["--group"], ["--group", "-n"], ["--percent-limit", "5"],
                                  ["--stdio-color", "always", "-l"],
                                  ["--stdio-color", "always", "--show-total-period"]],
                         ids=" ".join)
def test_groups_limits_colours(two_events_data, args):
    same(two_events_data, *args)


@pytest.mark.parametrize("sym", ["hot_mix", "hot_switch", "hot_math", "hot_walk"])
def test_one_symbol(o2_data, sym):
    got = same(o2_data, "-s", sym)
    assert got.stdout.count("Source code & Disassembly") == 1


def test_two_processes(tmp):
    """Symbols sampled by several threads and processes (perf orders by DSO
    and symbol, whatever the comm); a GOT slot named by its relocation."""
    data = record(tmp, "procs.data", ["sh", "-c", "%s 300 & %s 300; wait" % (
        fixture("report_work"), fixture("annotate_work"))], "-g", "-e", "cpu-clock",
        "-c", "100000")
    same(data)


def test_cpu_filter(tmp, o2_data):
    data = record(tmp, "cpu.data", [fixture("annotate_work"), "200"], "--sample-cpu",
                  "-e", "cpu-clock")
    same(data, "-C", "0")
    same(data, "-C", "1")
    same(o2_data, "-C", "0")    # a file without CPUs: perf's message


def test_dso_filter(o2_data):
    same(o2_data, "-d", "annotate_work")


def test_no_such_symbol(o2_data):
    got = same(o2_data, "-s", "no_such_symbol")
    assert "has no samples" in got.stderr
