"""pcl heatmap on recordings made here, checked against an independent
computation: the test reads `perf script --ns` of the same file, pairs
the events (or reads the duration field) and buckets the latencies
itself, and every cell of pcl's SVG and HTML page must hold that count.

Recordings: nanosleeps of varied lengths with call chains, by perf
record and by pcl record (syscall enter/exit paired by thread), raw_syscalls of the syscalls fixture
(paired by thread, and by the key fields common_pid,id), block I/O of a
direct-I/O dd (paired by dev,sector; system-wide), and
sched_stat_runtime (--latency-field runtime).  The text input of
trace2heatmap.pl is checked on made-up lines; the HTML page in headless
Chromium, clicking cells and reading the listing.
"""
import collections
import json
import math
import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET

import pytest

from conftest import PCL, fixture, pcl, perf

SVG = "{http://www.w3.org/2000/svg}"
UNIT_SECONDS = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
SLEEPS = "for i in 1 2 3 4 5 6 7 8 9; do sleep 0.00$i; sleep 0.0$i; done"


@pytest.fixture(scope="module")
def tmp():
    with tempfile.TemporaryDirectory(prefix="pcl-heatmap-") as d:
        yield d


def record(tmp, name, events, workload, extra=(), tool=perf):
    path = os.path.join(tmp, name)
    # a system-wide recording can fail while other tests' perf sessions
    # hold the machine's buffers: only the recording is tried again
    for _ in range(3 if "-a" in extra else 1):
        r = tool("record", "-q", *extra, "-e", ",".join(events), "-o", path, "--", *workload)
        if r.returncode == 0:
            return path
    raise AssertionError("%s record failed: %s" % (tool.__name__, r.stderr))


@pytest.fixture(scope="module", params=["perf", "pcl"])
def sleeps(tmp, request):
    """The sleeps recorded by perf record and by pcl record."""
    return record(tmp, request.param + "-sleeps.data",
                  ["syscalls:sys_enter_clock_nanosleep", "syscalls:sys_exit_clock_nanosleep"],
                  ["sh", "-c", SLEEPS], ["-g"], {"perf": perf, "pcl": pcl}[request.param])


@pytest.fixture(scope="module")
def raw(tmp):
    return record(tmp, "raw.data", ["raw_syscalls:sys_enter", "raw_syscalls:sys_exit"],
                  [fixture("syscalls"), "300"])


@pytest.fixture(scope="module")
def block(tmp):
    out = os.path.join(tmp, "dd.out")
    dd = subprocess.run(["dd", "if=/dev/zero", "of=" + out, "bs=4k", "count=1", "oflag=direct"],
                        capture_output=True, text=True)
    if dd.returncode != 0:
        pytest.skip("no direct I/O under %s: %s" % (tmp, dd.stderr.strip()))
    path = record(tmp, "block.data", ["block:block_rq_issue", "block:block_rq_complete"],
                  ["dd", "if=/dev/zero", "of=" + out, "bs=4k", "count=200", "oflag=direct"],
                  ["-a"])
    if not any(e["event"] == "block:block_rq_complete" for e in script(path)):
        pytest.skip("no block I/O completions recorded (no block device under %s)" % tmp)
    return path


@pytest.fixture(scope="module")
def runtime(tmp):
    return record(tmp, "runtime.data", ["sched:sched_stat_runtime"], [fixture("threads")])


LINE = re.compile(r"^\s*(.*?)\s+(\d+)\s+(\d+)\.(\d{9}):\s+(\S+):\s?(.*)$")


def script(path):
    """The samples of perf script --ns: comm, tid, time (ns), event, trace text."""
    r = perf("script", "--ns", "-F", "comm,tid,time,event,trace", "-i", path)
    assert r.returncode == 0, r.stderr
    out = []
    for line in r.stdout.splitlines():
        m = LINE.match(line)
        assert m, line
        out.append({"comm": m[1], "tid": int(m[2]), "ns": int(m[3]) * 10**9 + int(m[4]),
                    "event": m[5], "trace": m[6]})
    return out


def pair(samples, start, end, key):
    """(end time ns, latency ns, start sample) of each start..end pair of
    the same key; a later start of a waiting key replaces it, an end
    before the waiting start leaves it waiting."""
    waiting, out = {}, []
    for s in samples:
        if s["event"] == start:
            waiting[key(s)] = s
        elif s["event"] == end:
            st = waiting.get(key(s))
            if st is not None and st["ns"] <= s["ns"]:
                out.append((s["ns"], s["ns"] - st["ns"], waiting.pop(key(s))))
    return out


def leftovers(samples, start, end, key):
    """What pairing leaves, in the words of the map's subtitle."""
    waiting, unmatched, replaced = {}, 0, 0
    for s in samples:
        if s["event"] == start:
            replaced += key(s) in waiting
            waiting[key(s)] = s
        elif s["event"] == end:
            st = waiting.get(key(s))
            if st is None or st["ns"] > s["ns"]:
                unmatched += 1
            else:
                del waiting[key(s)]
    words = []
    for n, one, many in ((unmatched, "end without a start", "ends without a start"),
                         (len(waiting), "start without an end", "starts without an end"),
                         (replaced, "start replaced by a later one",
                          "starts replaced by later ones")):
        if n:
            words.append("; %d %s" % (n, one if n == 1 else many))
    return "".join(words)


def summary(svg):
    root = ET.parse(svg).getroot()
    return next(t for t in root.iter(SVG + "text") if t.get("id") == "summary").text


def cells(events, stepsec, rows, minlat=0.0, maxlat=None):
    """The (col, row) of each (time s, latency) pair, None outside the
    latency range: columns from the first time, rows of (maxlat - minlat)
    / rows, the top edge in the top row."""
    t0 = min(t for t, _ in events)
    if maxlat is None:
        maxlat = max([minlat] + [lat for _, lat in events])
    rowsize = (maxlat - minlat) / rows if maxlat > minlat else 1
    return [(math.floor((t - t0) / stepsec), min(math.floor((lat - minlat) / rowsize), rows - 1))
            if minlat <= lat <= maxlat else None for t, lat in events]


def buckets(*args):
    """{(col, row): count} of cells(*args)."""
    return collections.Counter(c for c in cells(*args) if c is not None)


def ns_events(pairs, unitslat="us"):
    per_ns = 1e-9 / UNIT_SECONDS[unitslat]
    return [(end / 10**9, lat * per_ns) for end, lat, _ in pairs]


def heatmap(tmp, name, *args):
    out = os.path.join(tmp, name)
    r = pcl("heatmap", *args, "-o", out)
    assert r.returncode == 0, r.stderr
    return out


def svg_cells(path):
    """{(col, row): count} of the SVG's cells, which must all be drawn
    inside the map with a tooltip naming their count."""
    root = ET.parse(path).getroot()
    assert root.tag == SVG + "svg"
    cells = {}
    for rect in root.iter(SVG + "rect"):
        if rect.get("class") != "cell":
            continue
        key = (int(rect.get("data-col")), int(rect.get("data-row")))
        n = int(rect.get("data-count"))
        assert key not in cells and n > 0
        assert rect.find(SVG + "title").text.endswith(": %d event%s" % (n, "" if n == 1 else "s"))
        cells[key] = n
    return cells


def tid_key(s):
    return s["tid"]


def test_syscall_pairs_by_thread(tmp, sleeps):
    pairs = pair(script(sleeps), "syscalls:sys_enter_clock_nanosleep",
                 "syscalls:sys_exit_clock_nanosleep", tid_key)
    assert len(pairs) == 18
    for args in (["--stepsec", "0.05", "--rows", "20", "--unitslat", "ms"],
                 ["--stepsec", "0.1", "--rows", "7"],
                 ["--stepsec", "0.02", "--minlat", "2000", "--maxlat", "40000"]):
        svg = heatmap(tmp, "sleeps.svg", "-i", sleeps, "--start",
                      "syscalls:sys_enter_clock_nanosleep", *args)
        o = dict(zip(args[::2], args[1::2]))
        unit = o.get("--unitslat", "us")
        want = buckets(ns_events(pairs, unit), float(o["--stepsec"]), int(o.get("--rows", 50)),
                       float(o.get("--minlat", 0)),
                       float(o["--maxlat"]) if "--maxlat" in o else None)
        assert svg_cells(svg) == want, args
    # the latencies are the sleeps: 1 ms .. 90 ms, not more than 20 ms over
    lats = sorted(lat for _, lat, _ in pairs)
    assert lats[0] >= 1e6 and lats[-1] >= 9e7 and lats[-1] < 1.1e8


def test_raw_syscalls_by_thread_and_by_key(tmp, raw):
    samples = script(raw)
    by_tid = pair(samples, "raw_syscalls:sys_enter", "raw_syscalls:sys_exit", tid_key)
    # the fixture's 300 writes and reads at least
    assert len(by_tid) > 600
    svg = heatmap(tmp, "raw.svg", "-i", raw, "--start", "raw_syscalls:sys_enter",
                  "--stepsec", "0.001", "--rows", "30", "--unitslat", "ns")
    assert svg_cells(svg) == buckets(ns_events(by_tid, "ns"), 0.001, 30)
    assert summary(svg).endswith("per cell" + leftovers(
        samples, "raw_syscalls:sys_enter", "raw_syscalls:sys_exit", tid_key))

    def nr(s):
        return (s["tid"], int(re.match(r"NR (-?\d+)", s["trace"])[1]))
    by_key = pair(samples, "raw_syscalls:sys_enter", "raw_syscalls:sys_exit", nr)
    svg = heatmap(tmp, "rawkey.svg", "-i", raw, "--start", "raw_syscalls:sys_enter",
                  "--end", "raw_syscalls:sys_exit", "--key", "common_pid,id",
                  "--stepsec", "0.002", "--rows", "10", "--maxlat", "20")
    assert svg_cells(svg) == buckets(ns_events(by_key), 0.002, 10, 0, 20)


def test_block_io_by_dev_and_sector(tmp, block):
    def dev_sector(s):
        m = re.match(r"(\d+,\d+) \S+ (?:\d+ )?\(.*?\) (\d+) \+", s["trace"])
        assert m, s["trace"]
        return m[1], int(m[2])
    samples = script(block)
    pairs = pair(samples, "block:block_rq_issue", "block:block_rq_complete", dev_sector)
    # how many of dd's writes reach the device as requests of their own is
    # the block layer's business (CI once saw them merged into one)
    assert pairs
    svg = heatmap(tmp, "block.svg", "-i", block, "--start", "block:block_rq_issue",
                  "--end", "block:block_rq_complete", "--key", "dev,sector",
                  "--stepsec", "0.005", "--rows", "25")
    assert svg_cells(svg) == buckets(ns_events(pairs), 0.005, 25)
    assert summary(svg) == "%d events, at most %d per cell%s" % (
        len(pairs), max(buckets(ns_events(pairs), 0.005, 25).values()),
        leftovers(samples, "block:block_rq_issue", "block:block_rq_complete", dev_sector))
    # an I/O belongs to whoever issued it, not to the completion's context
    html = heatmap(tmp, "block.html", "-i", block, "--start", "block:block_rq_issue",
                   "--end", "block:block_rq_complete", "--key", "dev,sector",
                   "--stepsec", "0.005", "--rows", "25", "--cell-events", str(len(pairs)))
    data = html_data(html)
    assert sorted((tid, data["comms"][c]) for tid, c in zip(data["tid"], data["comm"])) == \
        sorted((st["tid"], st["comm"]) for _, _, st in pairs)
    assert data["stacks"] == [] and set(data["stack"]) == {-1}


def test_latency_field(tmp, runtime):
    samples = [s for s in script(runtime) if s["event"] == "sched:sched_stat_runtime"]
    events = [(s["ns"] / 10**9, int(re.search(r"runtime=(\d+)", s["trace"])[1]) * (1e-9 / 1e-6))
              for s in samples]
    assert len(events) > 10
    svg = heatmap(tmp, "runtime.svg", "-i", runtime, "--start", "sched:sched_stat_runtime",
                  "--latency-field", "runtime", "--stepsec", "0.01", "--rows", "40")
    assert svg_cells(svg) == buckets(events, 0.01, 40)
    # the same numbers read as microseconds: a thousand times the latency
    top = max(lat for _, lat in events) * 1000
    svg = heatmap(tmp, "runtime-us.svg", "-i", runtime, "--start", "sched:sched_stat_runtime",
                  "--latency-field", "runtime:us", "--stepsec", "0.01", "--rows", "40",
                  "--maxlat", "%.9g" % top)
    assert svg_cells(svg) == buckets([(t, lat * 1000) for t, lat in events], 0.01, 40, 0, top)


TEXT = "".join("%d %d\n" % (17442020318913 + 7919 * i, (i * 37) % 1000 + (i % 3) * 400)
               for i in range(2000))


def test_text_input(tmp):
    path = os.path.join(tmp, "trace.txt")
    with open(path, "w") as f:
        f.write("# time latency, in us\n\n" + TEXT)
    events = [(int(t) * 1e-6, float(lat)) for t, lat in
              (line.split() for line in TEXT.splitlines())]
    svg = heatmap(tmp, "text.svg", "--input", path, "--stepsec", "0.5", "--rows", "12",
                  "--maxlat", "1200")
    assert svg_cells(svg) == buckets(events, 0.5, 12, 0, 1200)
    # milliseconds of time; stdin; latencies above --maxlat left out and said so
    r = pcl("heatmap", "-i", "-", "--unitstime", "ms", "--stepsec", "10", "--rows", "5",
            "--maxlat", "500", "--title", "a <b>", input=TEXT)
    assert r.returncode == 0, r.stderr
    out = os.path.join(tmp, "stdin.svg")
    with open(out, "w") as f:
        f.write(r.stdout)
    events = [(int(t) * 1e-3, float(lat)) for t, lat in
              (line.split() for line in TEXT.splitlines())]
    want = buckets(events, 10, 5, 0, 500)
    assert svg_cells(out) == want
    outside = sum(1 for _, lat in events if lat > 500)
    assert outside > 0 and "%d outside the latency range" % outside in r.stdout
    assert ">a &lt;b&gt;</text>" in r.stdout


def test_svg_layout_and_colours(tmp):
    """--boxsize sizes the cells, rows stack upwards, the palette runs from
    its light end (one event) to its dark end (the busiest cell)."""
    path = os.path.join(tmp, "trace.txt")
    with open(path, "w") as f:
        f.write(TEXT)
    svg = heatmap(tmp, "layout.svg", "-i", path, "--boxsize", "5", "--rows", "6",
                  "--colors", "blues", "--title", "IO")
    root = ET.parse(svg).getroot()
    rects = [r for r in root.iter(SVG + "rect") if r.get("class") == "cell"]
    counts = [int(r.get("data-count")) for r in rects]
    top = min(int(r.get("y")) for r in rects if r.get("data-row") == "5")
    for r in rects:
        assert r.get("width") == r.get("height") == "5"
        assert int(r.get("y")) == top + 5 * (5 - int(r.get("data-row")))
        assert (int(r.get("x")) - int(rects[0].get("x"))) % 5 == 0
        f = (int(r.get("data-count")) - 1) / (max(counts) - 1)
        assert r.get("fill") == "rgb(%d,%d,%d)" % tuple(
            math.floor(lo + f * (hi - lo) + 0.5)
            for lo, hi in zip((214, 232, 255), (0, 40, 150))), r.get("data-count")
    assert root.find(SVG + "text").text == "IO"


def test_default_inputs(tmp, runtime):
    """perf.data in the current directory, or text from a pipe on stdin."""
    directory = os.path.join(tmp, "cwd")
    os.makedirs(directory, exist_ok=True)
    link = os.path.join(directory, "perf.data")
    if not os.path.exists(link):
        os.symlink(runtime, link)
    args = ["--start", "sched:sched_stat_runtime", "--latency-field", "runtime"]
    want = pcl("heatmap", "-i", runtime, *args, "-o", "-").stdout
    r = pcl("heatmap", *args, "-o", "-", cwd=directory, stdin=subprocess.DEVNULL)
    assert r.returncode == 0 and r.stdout == want and 'class="cell"' in want, r.stderr
    path = os.path.join(tmp, "trace.txt")
    with open(path, "w") as f:
        f.write(TEXT)
    r = subprocess.run(["sh", "-c", 'cat "$1" | "$2" heatmap --rows 5 -o -', "sh", path,
                        PCL], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert 'id="summary"' in r.stdout and "2000 events" in r.stdout


def test_pipe_format(tmp):
    """perf record -o - output, from a file and from a pipe on stdin."""
    path = os.path.join(tmp, "pipe.data")
    with open(path, "wb") as out:
        r = subprocess.run(["perf", "record", "-q", "-o", "-", "-e",
                            "syscalls:sys_enter_clock_nanosleep,"
                            "syscalls:sys_exit_clock_nanosleep", "--", "sh", "-c", SLEEPS],
                           stdout=out, stderr=subprocess.PIPE, timeout=120)
    assert r.returncode == 0, r.stderr
    pairs = pair(script(path), "syscalls:sys_enter_clock_nanosleep",
                 "syscalls:sys_exit_clock_nanosleep", tid_key)
    want = buckets(ns_events(pairs), 0.05, 20)
    assert len(pairs) == 18
    args = ["--start", "syscalls:sys_enter_clock_nanosleep", "--stepsec", "0.05", "--rows", "20"]
    assert svg_cells(heatmap(tmp, "pipe.svg", "-i", path, *args)) == want
    with open(path, "rb") as f:
        r = pcl("heatmap", *args, "-o", os.path.join(tmp, "stdin.svg"), stdin=f)
    assert r.returncode == 0, r.stderr
    assert svg_cells(os.path.join(tmp, "stdin.svg")) == want
    with open(path, "rb") as f:
        r = pcl("heatmap", "--start", "syscalls:sys_enter_nanosleep", "-o", "-", stdin=f)
    assert r.returncode != 0 and "event syscalls:sys_enter_nanosleep is not in -" in r.stderr


def test_errors(tmp, sleeps, runtime):
    bad = os.path.join(tmp, "bad.txt")
    with open(bad, "w") as f:
        f.write("1 2\n3\n")
    cases = [
        (["-i", bad], "line 2: expected 'time latency'"),
        (["-i", bad, "--start", "x:y"], "--start needs perf.data input"),
        (["-i", sleeps], "give --start"),
        (["-i", sleeps, "--start", "syscalls:sys_enter_nanosleep"],
         "event syscalls:sys_enter_nanosleep is not in"),
        (["-i", runtime, "--start", "sched:sched_stat_runtime"], "give --end"),
        (["-i", runtime, "--start", "sched:sched_stat_runtime", "--latency-field", "runtime",
          "--key", "pid"], "no --end or --key"),
        (["-i", runtime, "--start", "sched:sched_stat_runtime", "--end",
          "sched:sched_stat_runtime"], "name the same event"),
        (["-i", runtime, "--start", "sched:sched_stat_runtime", "--latency-field", "comm"],
         "no numeric field 'comm'"),
        (["-i", runtime, "--start", "sched:sched_stat_runtime", "--latency-field",
          "runtime:min"], "the unit s, ms, us or ns (got 'runtime:min')"),
        (["-i", runtime, "--start", "sched:sched_stat_runtime", "--latency-field", ":us"],
         "is FIELD or FIELD:UNIT"),
        (["-i", sleeps, "--start", "syscalls:sys_enter_clock_nanosleep", "--key", "nope"],
         "has no field 'nope' (--key)"),
        (["-i", sleeps, "--start", "syscalls:sys_enter_clock_nanosleep", "--colors", "pink"],
         "unknown --colors 'pink'"),
        (["-i", sleeps, "--start", "syscalls:sys_enter_clock_nanosleep", "--stepsec", "x"],
         "--stepsec wants a number"),
        (["-i", sleeps, "--start", "syscalls:sys_enter_clock_nanosleep", "--stepsec",
          "1e-12"], "raise --stepsec"),
        (["-i", sleeps, "--start", "syscalls:sys_enter_clock_nanosleep", "--unitslat", "m"],
         "--unitslat is s, ms, us or ns"),
    ]
    for args, message in cases:
        r = pcl("heatmap", *args, "-o", os.path.join(tmp, "x.svg"))
        assert r.returncode != 0 and message in r.stderr, (args, r.stderr)


def html_data(path):
    text = open(path).read()
    assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text
    m = re.search(r'<script id="pcl-data" type="application/json">(.*?)</script>', text, re.S)
    return json.loads(m[1])


def test_html_data_matches_the_cells(tmp, sleeps):
    html = heatmap(tmp, "sleeps.html", "-i", sleeps, "--start",
                   "syscalls:sys_enter_clock_nanosleep", "--stepsec", "0.05", "--rows", "20")
    data = html_data(html)
    pairs = pair(script(sleeps), "syscalls:sys_enter_clock_nanosleep",
                 "syscalls:sys_exit_clock_nanosleep", tid_key)
    assert collections.Counter(divmod(c, 20) for c in data["cell"]) == \
        buckets(ns_events(pairs), 0.05, 20)
    assert sorted(data["tid"]) == sorted(st["tid"] for _, _, st in pairs)
    assert {data["comms"][c] for c in data["comm"]} == {"sleep"}
    # -g: each event's stack, the start's, ends in the libc wrapper
    assert all(data["stacks"][s].split(";")[-1].startswith("clock_nanosleep")
               for s in data["stack"])


def test_html_lists_a_bounded_number_per_cell(tmp, sleeps):
    """--cell-events N: the page lists at most N events per cell (the first
    ones), while the flame graph's per-cell stack counts cover them all.
    One column for the whole run: in 0.05 s ones, a loaded machine spread
    the sleeps (a fork and exec each) one a column; in latency rows 1/20
    of the longest sleep high, the nine short ones still share rows."""
    args = ["-i", sleeps, "--start", "syscalls:sys_enter_clock_nanosleep", "--stepsec", "1000",
            "--rows", "20"]
    full = html_data(heatmap(tmp, "all.html", *args))
    some = html_data(heatmap(tmp, "some.html", *args, "--cell-events", "1"))
    per_cell = collections.Counter(full["cell"])
    assert max(per_cell.values()) > 1, "the fixture needs a cell with several events"
    assert collections.Counter(some["cell"]) == {c: 1 for c in per_cell}
    first = {}
    for i, c in enumerate(full["cell"]):
        first.setdefault(c, i)
    assert sorted(some["t"]) == sorted(full["t"][i] for i in first.values())
    for data in (full, some):
        counts = collections.Counter()
        for cell, stack, n in zip(*[iter(data["cellstacks"])] * 3):
            counts[(cell, data["stacks"][stack])] += n
        assert counts == collections.Counter(
            (c, full["stacks"][st]) for c, st in zip(full["cell"], full["stack"]))
    r = pcl("heatmap", *args, "--cell-events", "0", "-o", os.path.join(tmp, "x.html"))
    assert r.returncode != 0 and "--cell-events must be at least 1" in r.stderr


CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser")
                 if os.access(p, os.X_OK)), None)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_html_click_lists_the_events(tmp, sleeps):
    from test_flamegraph import Browser
    html = heatmap(tmp, "click.html", "-i", sleeps, "--start",
                   "syscalls:sys_enter_clock_nanosleep", "--stepsec", "0.05", "--rows", "20",
                   "--boxsize", "12")
    pairs = pair(script(sleeps), "syscalls:sys_enter_clock_nanosleep",
                 "syscalls:sys_exit_clock_nanosleep", tid_key)
    want = buckets(ns_events(pairs), 0.05, 20)
    where = cells(ns_events(pairs), 0.05, 20)
    t0 = min(end for end, _, _ in pairs)
    with Browser(tmp) as b:
        b.open(html)
        b.wait("document.documentElement.getAttribute('data-pcl-ready')", "the page's script")
        drawn = drawn_cells(b)
        assert {(c, r): n for c, r, n, _, _ in drawn} == want
        for col, row, n, x, y in sorted(drawn, key=lambda c: -c[2])[:3]:
            click(b, x, y)
            b.wait("document.querySelectorAll('#listing tr').length === %d" % (n + 1),
                   "the listing of cell %d,%d" % (col, row))
            listed = b.js("Array.from(document.querySelectorAll('#listing tr')).slice(1)"
                          ".map(function (tr) { return Array.from(tr.cells).map("
                          "function (td) { return td.textContent; }); })")
            expect = sorted((round((end - t0) / 1e9, 6), "sleep", st["tid"])
                            for (end, _, st), c in zip(pairs, where) if c == (col, row))
            got = sorted((float(t), comm, int(tid)) for t, _, comm, tid, _ in listed)
            assert [(round(t, 6), c, tid) for t, c, tid in got] == expect
            assert all("clock_nanosleep" in row_[4] for row_ in listed)
            assert b.js("document.getElementById('listing-caption').textContent").startswith(
                "%d event" % n)
            # the flame graph of the cell's stacks: all of them end in the libc wrapper
            assert flame_frames(b) == {"all": n, "[unknown]": n, "clock_nanosleep@GLIBC_2.2.5": n}
        # shift-click adds a cell, the listing and the flame graph hold both
        (_, _, n1, x1, y1), (_, _, n2, x2, y2) = sorted(drawn, key=lambda c: -c[2])[:2]
        click(b, x1, y1)
        click(b, x2, y2, modifiers=8)
        b.wait("document.querySelectorAll('#listing tr').length === %d" % (n1 + n2 + 1),
               "the listing of two cells")
        assert b.js("document.querySelectorAll('rect.cell.selected').length") == 2
        assert flame_frames(b)["all"] == n1 + n2
        assert b.js("document.getElementById('listing-caption').textContent") == \
            "%d events in 2 cells" % (n1 + n2)
        assert b.errors == []

    # one event listed per cell: the caption and the flame graph still count
    # all; one column for the whole run, where the short sleeps share rows
    # (a loaded machine can spread the sleeps one per 0.05 s column)
    html = heatmap(tmp, "one.html", "-i", sleeps, "--start", "syscalls:sys_enter_clock_nanosleep",
                   "--stepsec", "1000", "--rows", "20", "--boxsize", "12", "--cell-events", "1")
    with Browser(tmp) as b:
        b.open(html)
        b.wait("document.documentElement.getAttribute('data-pcl-ready')", "the page's script")
        drawn = drawn_cells(b)
        _, _, n, x, y = max(drawn, key=lambda c: c[2])
        assert n > 1, drawn
        click(b, x, y)
        b.wait("document.getElementById('listing-caption') !== null", "the listing")
        assert b.js("document.querySelectorAll('#listing tr').length") == 2
        caption = b.js("document.getElementById('listing-caption').textContent")
        assert caption.startswith("%d events at" % n) and caption.endswith("(1 listed)"), caption
        assert flame_frames(b)["all"] == n
        assert b.errors == []


def drawn_cells(b):
    """The page's cells: column, row, count and the middle of each on screen."""
    return b.js("Array.from(document.querySelectorAll('rect.cell')).map(function (r) {"
                " var b = r.getBoundingClientRect(); return [+r.dataset.col,"
                " +r.dataset.row, +r.dataset.count, b.left + b.width / 2,"
                " b.top + b.height / 2]; })")


def click(b, x, y, modifiers=0):
    for kind in ("mousePressed", "mouseReleased"):
        b.call("Input.dispatchMouseEvent", session=True, type=kind, x=x, y=y, button="left",
               clickCount=1, modifiers=modifiers)


def flame_frames(b):
    """{name: count} of the page's flame graph frames (names are unique here)."""
    return dict(b.js("Array.from(document.querySelectorAll('#flame g.frame')).map("
                     "function (g) { return [g.dataset.name, +g.dataset.count]; })"))


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_html_of_text_input(tmp):
    """Text has no threads or stacks: the listing has times and latencies only."""
    from test_flamegraph import Browser
    path = os.path.join(tmp, "trace.txt")
    with open(path, "w") as f:
        f.write(TEXT)
    html = heatmap(tmp, "text.html", "-i", path, "--stepsec", "1", "--rows", "4")
    events = [(int(t) * 1e-6, float(lat)) for t, lat in
              (line.split() for line in TEXT.splitlines())]
    want = buckets(events, 1, 4)
    (col, row), n = max(want.items(), key=lambda kv: kv[1])
    with Browser(tmp) as b:
        b.open(html)
        b.wait("document.documentElement.getAttribute('data-pcl-ready')", "the page's script")
        x, y = b.js("(function () { var r = document.querySelector('rect.cell[data-col=\"%d\"]"
                    "[data-row=\"%d\"]').getBoundingClientRect();"
                    " return [r.left + r.width / 2, r.top + r.height / 2]; })()" % (col, row))
        click(b, x, y)
        b.wait("document.querySelectorAll('#listing tr').length === %d" % (n + 1),
               "the listing")
        head = b.js("Array.from(document.querySelectorAll('#listing th')).map("
                    "function (th) { return th.textContent; })")
        assert head == ["time (s)", "latency (us)", "comm", "tid"]
        lats = b.js("Array.from(document.querySelectorAll('#listing tr')).slice(1).map("
                    "function (tr) { return +tr.cells[1].textContent; })")
        assert sorted(lats) == sorted(lat for (_, lat), c in zip(events, cells(events, 1, 4))
                                      if c == (col, row))
        assert b.js("document.getElementById('flame').childElementCount") == 0
        assert b.errors == []
