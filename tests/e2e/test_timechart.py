"""pcl timechart against perf timechart 6.1 on the same recordings.

Recordings are made once per module, each in its own directory (perf
timechart record has no -o: both write ./perf.data), by perf and by pcl:
the pingpong fixture (wake-ups between two threads), the threads fixture
with -T, a short and a 1.2 s system-wide sleep, -P, -g call chains, and
-I system calls; and the long system-wide ones with frequency changes
added (this machine has no cpufreq).  Every chart is made
by both tools from the same file and the SVGs must be byte-equal, as must
the "Written N seconds" line and the status.
"""
import os
import struct
import subprocess

import pytest

from conftest import fixture, pcl, perf, unified

WORKLOADS = {
    "pingpong": ([], ["pingpong", "100"]),
    "system": ([], ["sleep", "0.3"]),
    # over a second: wider than the page, with the 1 s grid lines
    "long": ([], ["sleep", "1.2"]),
    "tasks": (["-T"], ["threads"]),
    "power": (["-P"], ["sleep", "0.2"]),
    "stacks": (["-g"], ["pingpong", "50"]),
    "io": (["-I"], ["pingpong", "100"]),
    # threads that do I/O with no name of their own (no COMM record)
    "iothreads": (["-I"], ["threads"]),
}
RECORDINGS = [tool + "-" + name for name in WORKLOADS for tool in ("perf", "pcl")]
# the long system recordings with frequency changes added (add_frequencies)
FREQ_RECORDINGS = ["perf-freq", "pcl-freq"]
# kHz values that take every branch of the frequency labels (GHz, turbo:
# just under the highest, MHz, a bare number)
FREQS = [3000000, 2999000, 1200000, 800]
FREQ_SAMPLES = {}

CHART_OPTIONS = [[], ["-P"], ["-T"], ["-n", "3"], ["-n", "0"], ["-n", "40"],
                 ["-w", "3000"], ["--highlight", "100000"], ["--highlight", "pong"],
                 ["-p", "pong"], ["-p", "pingpong", "-p", "1"], ["-t"]]
IO_OPTIONS = [[], ["--io-skip-eagain"], ["--io-min-time", "10us"],
              ["--io-min-time", "5ms"], ["--io-merge-dist", "100us"],
              ["--io-merge-dist", "0"], ["-n", "2"], ["-p", "pingpong"]]


def read_events(src):
    """A perf.data file's bytes, its sample ids by event name, and where
    its data section is."""
    listed = perf("evlist", "-i", src).stdout.splitlines()
    names = [line for line in listed if not line.startswith("#")]
    with open(src, "rb") as f:
        data = bytearray(f.read())
    attr_size, = struct.unpack_from("<Q", data, 16)
    attrs_off, attrs_size, data_off, data_size = struct.unpack_from("<QQQQ", data, 24)
    ids = {}
    for i, attr in enumerate(range(attrs_off, attrs_off + attrs_size, attr_size)):
        off, size = struct.unpack_from("<QQ", data, attr + attr_size - 16)
        ids[names[i]] = struct.unpack_from("<%dQ" % (size // 8), data, off)
    return data, ids, data_off, data_size


def add_frequencies(src, dst):
    """Copies src with some samples moved to its power:cpu_frequency event:
    this machine has no cpufreq, and perf and pcl must draw P-state lines
    alike.  The power:cpu_idle samples (the same fields: state, cpu_id)
    and, as a busy machine hardly idles, every 100th sched:sched_wakeup
    (its first 8 bytes of fields overwritten) become frequency changes.
    Returns how many."""
    data, ids, data_off, data_size = read_events(src)
    freq = ids["power:cpu_frequency"]
    idle = dict(zip(ids["power:cpu_idle"], freq))
    wakeup = dict(zip(ids["sched:sched_wakeup"], freq))
    pos, n, wakeups = data_off, 0, 0
    while pos < data_off + data_size:
        kind, _, size = struct.unpack_from("<IHH", data, pos)
        sample_id = struct.unpack_from("<Q", data, pos + 8)[0] if kind == 9 else None
        if sample_id in wakeup:
            wakeups += 1
        if sample_id in idle or (sample_id in wakeup and wakeups % 100 == 0):
            struct.pack_into("<Q", data, pos + 8, idle.get(sample_id) or wakeup[sample_id])
            # id, ip, tid, time, then cpu; after the period and raw size, the
            # common fields, then state and cpu_id
            cpu = struct.unpack_from("<I", data, pos + 8 + 4 * 8)[0]
            state = pos + 8 + 6 * 8 + 4 + 8
            struct.pack_into("<II", data, state, FREQS[n % len(FREQS)], cpu)
            n += 1
        pos += size
    with open(dst, "wb") as f:
        f.write(data)
    return n


def workload(args):
    """The workload argv: a fixture by name, else a command."""
    path = fixture(args[0]) if args[0] in ("pingpong", "threads") else args[0]
    return [path, *args[1:]]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    paths = {}
    for name in RECORDINGS:
        tool, kind = name.split("-")
        directory = tmp_path_factory.mktemp(name)
        opts, work = WORKLOADS[kind]
        run = perf if tool == "perf" else pcl
        # stdout is no pipe, else perf record would write the data there
        r = run("timechart", "record", *opts, "--", *workload(work), cwd=directory,
                stdout=subprocess.DEVNULL)
        assert r.returncode == 0, r.stderr
        paths[name] = str(directory / "perf.data")
    for tool in ("perf", "pcl"):
        path = str(tmp_path_factory.mktemp("freq") / "perf.data")
        FREQ_SAMPLES[tool] = add_frequencies(paths[tool + "-long"], path)
        paths[tool + "-freq"] = path
    return paths


def chart(run, directory, data, opts):
    """Runs a chart into directory/chart.svg: (status, stderr, svg or None)."""
    os.makedirs(directory, exist_ok=True)
    r = run("timechart", "-i", data, "-o", "chart.svg", *opts, cwd=directory)
    path = os.path.join(directory, "chart.svg")
    svg = None
    if os.path.exists(path):
        with open(path) as f:
            svg = f.read()
        os.unlink(path)
    return r.returncode, r.stderr, svg


def compare(tmp_path, data, opts):
    want = chart(perf, str(tmp_path / "perf"), data, opts)
    if want[0] in (-11, 139):
        # -p NAME compares the name of every task: perf 6.1 crashes on a
        # task with none (one that did I/O before any COMM); pcl skips it
        pytest.skip("perf timechart crashed on this file")
    got = chart(pcl, str(tmp_path / "pcl"), data, opts)
    assert got[0] == want[0], got[1]
    assert got[1] == want[1], unified(want[1], got[1])
    assert got[2] == want[2], unified(want[2] or "", got[2] or "")
    return want


IO_RECORDINGS = [r for r in RECORDINGS if "-io" in r]


@pytest.mark.parametrize("name", [r for r in RECORDINGS if r not in IO_RECORDINGS]
                         + FREQ_RECORDINGS)
@pytest.mark.parametrize("opts", CHART_OPTIONS, ids=" ".join)
def test_chart(recordings, tmp_path, name, opts):
    compare(tmp_path, recordings[name], opts)


@pytest.mark.parametrize("name", IO_RECORDINGS)
@pytest.mark.parametrize("opts", IO_OPTIONS, ids=" ".join)
def test_io_chart(recordings, tmp_path, name, opts):
    compare(tmp_path, recordings[name], opts)


@pytest.mark.parametrize("kind", list(WORKLOADS))
def test_record_events(recordings, kind):
    """pcl timechart record asks for perf's events, with perf's attrs."""
    want = perf("evlist", "-v", "-i", recordings["perf-" + kind])
    got = perf("evlist", "-v", "-i", recordings["pcl-" + kind])
    assert want.returncode == 0 and got.returncode == 0
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


@pytest.mark.parametrize("opts", [
    ["-P", "-T"], ["--highlight", "ping", "--highlight", "5"],
    ["--io-min-time", "7xs"], ["bogus"], ["record", "-P", "-T"], ["record", "--bogus"],
    ["-h"], ["record", "-h"],
], ids=" ".join)
def test_usage_errors(recordings, tmp_path, opts):
    compare(tmp_path, recordings["perf-pingpong"], opts)


def test_without_tracepoints(tmp_path):
    data = str(tmp_path / "clock.data")
    r = perf("record", "-q", "-e", "cpu-clock", "-o", data, "true")
    assert r.returncode == 0, r.stderr
    compare(tmp_path, data, [])


def test_missing_file(tmp_path):
    compare(tmp_path, str(tmp_path / "none.data"), [])


def test_html_page(recordings, tmp_path):
    """-o NAME.html: perf's SVG (without its XML prolog) inline in a page
    with the zoom script; the Written line names the page."""
    data = recordings["perf-pingpong"]
    want = chart(perf, str(tmp_path / "perf"), data, [])
    directory = tmp_path / "pcl"
    directory.mkdir()
    r = pcl("timechart", "-i", data, "-o", "chart.html", cwd=directory)
    assert r.returncode == 0, r.stderr
    assert r.stderr == want[1].replace("chart.svg", "chart.html")
    page = (directory / "chart.html").read_text()
    assert page.startswith("<!DOCTYPE html>")
    svg = want[2][want[2].index("<svg "):]
    assert svg in page
    assert page.index(svg) < page.index("<script>") < page.index("zoomTo")
    assert page.rstrip().endswith("</html>")


def test_freq_recordings_draw_pstates(recordings, tmp_path):
    """The derived files do take the frequency labels' branches."""
    svg = chart(perf, str(tmp_path / "perf"), recordings["perf-freq"], [])[2]
    if FREQ_SAMPLES["perf"] < len(FREQS):
        pytest.skip("too few samples to turn into frequency changes")
    for label in ("Turbo", "   3.00 Ghz", "   1200 Mhz", "      800"):
        assert ">" + label + "<" in svg


def test_exit_of_unknown_task(recordings, tmp_path):
    """A read's exit in a task never seen (lost events do that): perf says
    "Invalid pidcomm!" and stops without a chart."""
    data, ids, pos, size = read_events(recordings["perf-io"])
    exits, end, seen = set(ids["syscalls:sys_exit_read"]), pos + size, 0
    while pos < end and seen < 10:
        kind, _, length = struct.unpack_from("<IHH", data, pos)
        if kind == 9 and struct.unpack_from("<Q", data, pos + 8)[0] in exits:
            seen += 1
            if seen == 10:  # after id and ip: pid, tid
                struct.pack_into("<II", data, pos + 8 + 16, 999999, 999999)
        pos += length
    assert seen == 10
    path = tmp_path / "orphan.data"
    path.write_bytes(data)
    status, stderr, svg = compare(tmp_path, str(path), [])
    assert "Invalid pidcomm!" in stderr and svg is None and status == 255
