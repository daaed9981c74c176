"""pcl collapse / pcl flamegraph: folded stacks equal what stackcollapse-perf.pl's
default rules make of perf 6.1's `perf script` output, the SVG and HTML views
are well-formed and interactive, diff and off-CPU give sane numbers."""
import collections
import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET

import pytest

from conftest import fixture, pcl, perf

# --- an independent reading of stackcollapse-perf.pl's default rules -------
# (regular expressions here; pcl's C implementation scans by hand)
HEAD = re.compile(r"^(\S.+?)\s+(\d+)/*(\d+)*\s+")
EVENT = re.compile(r":\s*(\d+)*\s+(\S+):\s*$")
FRAME = re.compile(r"^\s*(\w+)\s*(.+) \((\S*)\)")


def tidy(func, mod, pname):
    names = []
    parts = func.split("->")
    while parts and parts[-1] == "":  # Perl's split drops trailing empties
        parts.pop()
    for i, f in enumerate(parts):
        if f == "[unknown]" and mod != "[unknown]":
            f = "[" + mod.rsplit("/", 1)[-1] + "]"
        f = f.replace(";", ":")
        if not re.search(r"\.\(.*\)\.", f):
            f = re.sub(r"\((?!anonymous namespace\)).*", "", f)
        f = f.replace('"', "").replace("'", "")
        if pname == "java" and "/" in f:
            f = re.sub(r"^L", "", f)
        if i:
            f += "_[i]"
        names.append(f)
    return names


def collapse_text(text):
    """perf script text -> {folded stack: weight}"""
    out = collections.Counter()
    stack, pname, period, event_filter = [], None, 1, None
    for line in text.split("\n"):
        if line.startswith("#"):
            continue
        if line == "":
            if pname is not None:
                out[";".join([pname] + stack)] += period
            stack, pname = [], None
            continue
        m = HEAD.match(line)
        if m:
            e = EVENT.search(line)
            period = 1
            if e:
                event_filter = event_filter or e.group(2)
                if e.group(2) != event_filter:
                    pname = None
                    continue
                period = int(e.group(1)) if e.group(1) else 1
            pname = m.group(1).replace(" ", "_")
            continue
        m = FRAME.match(line)
        if m and pname is not None:
            func = re.sub(r"\+0x[\da-f]+$", "", m.group(2))
            if func.startswith("("):
                continue
            stack[0:0] = tidy(func, m.group(3), pname)
    return out


def parse_folded(text):
    out = {}
    for line in text.splitlines():
        stack, count = line.rsplit(" ", 1)
        assert stack not in out, "stack printed twice: " + stack
        out[stack] = int(count)
    return out


def test_tidy_rules():
    assert tidy("foo(int, char*) const", "/x/a.so", "p") == ["foo"]
    assert tidy("[unknown]", "/usr/lib/libc.so.6", "p") == ["[libc.so.6]"]
    assert tidy("[unknown]", "[unknown]", "p") == ["[unknown]"]
    assert tidy("ns::(anonymous namespace)::f(int)", "m", "p") == \
        ["ns::(anonymous namespace)::f"]
    assert tidy("net/http.(*Client).Do", "m", "p") == ["net/http.(*Client).Do"]
    assert tidy("Ljava/lang/Thread;.run()V", "m", "java") == ["java/lang/Thread:.run"]
    assert tidy("a->b", "m", "p") == ["a", "b_[i]"]


# --- recordings -----------------------------------------------------------
@pytest.fixture(scope="module")
def tmp():
    with tempfile.TemporaryDirectory(prefix="pcl-flame-") as d:
        yield d


def record(tmp, name, args, extra=()):
    path = os.path.join(tmp, name)
    r = perf("record", "-q", "-g", *extra, "-o", path, "--", *args)
    assert r.returncode == 0, r.stderr
    return path


@pytest.fixture(scope="module")
def cpu_data(tmp):
    return record(tmp, "cpu.data", [fixture("flame"), "cpu", "400"], ["-F", "2000"])


@pytest.fixture(scope="module")
def dwarf_data(tmp):
    return record(tmp, "dwarf.data", [fixture("flame"), "cpu", "200"],
                  ["--call-graph", "dwarf"])


def perf_script(path, *args):
    r = perf("script", "-i", path, *args)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("which", ["cpu_data", "dwarf_data"])
def test_folded_equals_stackcollapse_rules(which, request):
    path = request.getfixturevalue(which)
    expected = collapse_text(perf_script(path))
    r = pcl("collapse", "-i", path)
    assert r.returncode == 0, r.stderr
    got = parse_folded(r.stdout)
    assert len(expected) > 5
    assert got == expected
    lines = r.stdout.splitlines()
    assert lines == sorted(lines, key=lambda l: l.rsplit(" ", 1)[0].encode())


def test_collapse_reads_perf_script_text(cpu_data):
    text = perf_script(cpu_data)
    r = pcl("collapse", input=text)
    assert r.returncode == 0, r.stderr
    assert parse_folded(r.stdout) == collapse_text(text)
    # and from a file argument
    r2 = pcl("collapse", "-i", "-", input=text)
    assert r2.stdout == r.stdout


def test_folded_weights_and_shape(cpu_data):
    got = parse_folded(pcl("collapse", "-i", cpu_data).stdout)
    # the root total is the total period of the samples
    script = perf("script", "-i", cpu_data, "-F", "period")
    total = sum(int(x) for x in script.stdout.split())
    assert sum(got.values()) == total
    # comm with a space became '_'; the thread's stacks are under it
    worker = {k: v for k, v in got.items() if k.startswith("spin_worker;")}
    assert worker and all("worker_loop" in k for k in worker)
    # hot_a calls hot_leaf three times for hot_b's once
    a = sum(v for k, v in got.items() if "hot_a;hot_leaf" in k)
    b = sum(v for k, v in got.items() if "hot_b;hot_leaf" in k)
    assert a > 1.5 * b > 0


def test_script_folded(cpu_data):
    r = pcl("script", "--folded", "-i", cpu_data)
    assert r.returncode == 0, r.stderr
    assert r.stdout == pcl("collapse", "-i", cpu_data).stdout


def sample_times(text):
    return [float(m.group(1)) for m in re.finditer(r" (\d+\.\d+): ", text)]


def test_collapse_filters_match_perf_script(cpu_data):
    text = perf_script(cpu_data)
    times = sample_times(text)
    mid = "%.6f" % ((times[0] + times[-1]) / 2)
    cases = [
        (["--comm", "spin worker"], ["--comms", "spin worker"]),
        (["--dso", "flame"], ["--dsos", "flame"]),
        (["--time", "," + mid], ["--time", "," + mid]),
    ]
    full = collapse_text(text)
    for ours, theirs in cases:
        expected = collapse_text(perf_script(cpu_data, *theirs))
        r = pcl("collapse", "-i", cpu_data, *ours)
        assert r.returncode == 0, r.stderr
        got = parse_folded(r.stdout)
        assert got == expected, ours
        assert 0 < sum(got.values()) < sum(full.values()), ours
    pid = re.search(r"^\S+\s+(\d+)", text).group(1)
    got = parse_folded(pcl("collapse", "-i", cpu_data, "--pid", pid).stdout)
    assert got == full  # one process
    # like perf, -C needs CPU in the samples (not recorded without -a)
    r = pcl("collapse", "-i", cpu_data, "--cpu", "0")
    assert r.returncode != 0 and "CPU" in r.stderr
    assert "cpu" not in perf("report", "-i", cpu_data, "--header-only").stdout.split(
        "sample_type")[-1].split("\n")[0].lower()
    bad = pcl("collapse", "-i", cpu_data, "--cpu", "x")
    assert bad.returncode != 0 and "cpu" in bad.stderr.lower()
