"""pcl kwork against perf kwork 6.1: the same record command line gives the
same attrs, and report, latency and timehist print the same text on the same
files (recorded system-wide by perf kwork record and by pcl kwork record
around a workload that writes with fsync and sends loopback packets, so
that irqs, softirqs and workqueues all show up)."""
import os

import pytest

from conftest import pcl, perf, unified

# disk writes (block irqs, softirqs and writeback work) and loopback UDP (NET_RX)
WORKLOAD = ["/usr/bin/python3", "-c", """
import os, socket, time
fd = os.open('{dir}/kwork-scratch', os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
rx.bind(('127.0.0.1', 0))
tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(20):
    os.write(fd, b'k' * 65536)
    os.fsync(fd)
    tx.sendto(b'ping', rx.getsockname())
    rx.recv(16)
    time.sleep(0.01)
os.close(fd)
"""]


def run_text(tool, *args):
    """perf 6.1 may print a freed name's bytes: read what is not UTF-8 as is."""
    return tool(*args, errors="surrogateescape")


def workload(directory):
    return [*WORKLOAD[:2], WORKLOAD[2].format(dir=directory)]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    """{name: path}: perf's and pcl's recordings of every class, of two
    classes and with call chains, and perf's with a one-page buffer."""
    d = str(tmp_path_factory.mktemp("kwork"))
    out = {}
    for name, tool, flags, extra in (("perf", perf, [], []), ("pcl", pcl, [], []),
                                     ("perf-irq", perf, ["-k", "irq,softirq"], []),
                                     ("pcl-irq", pcl, ["-k", "irq,softirq"], []),
                                     ("perf-g", perf, [], ["-g"]),
                                     ("pcl-g", pcl, [], ["-g"]),
                                     # one page of buffer: likely to lose events
                                     ("perf-lost", perf, [], ["-m", "1"])):
        path = os.path.join(d, name + ".data")
        r = tool("kwork", *flags, "record", "-q", "-o", path, *extra, "--", *workload(d))
        assert r.returncode == 0, r.stderr
        out[name] = path
    return out


@pytest.mark.parametrize("which", ["", "-irq", "-g"])
def test_record_attrs_match_perf(recordings, which):
    want = perf("evlist", "-v", "-i", recordings["perf" + which])
    got = perf("evlist", "-v", "-i", recordings["pcl" + which])
    assert want.returncode == got.returncode == 0
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


def freed_name(want, got):
    """perf 6.1 prints report and latency tables after freeing its symbols,
    so the tail of a workqueue function's name can be the allocator's bytes
    ("(w)blk_mq_requeue_workP", "(w)page_reporting_procP"): such a row is
    the same when the rest of it is and the names agree on their start."""
    w, g = want.split("|"), got.split("|")
    if len(w) != len(g) or w[1:] != g[1:]:
        return False
    wn, gn = w[0].strip(), g[0].strip()
    return gn.startswith("(w)") and len(os.path.commonprefix([wn, gn])) >= 11


def assert_same(want, got):
    assert got.returncode == want.returncode
    if got.stdout != want.stdout:
        wl, gl = want.stdout.splitlines(), got.stdout.splitlines()
        assert len(wl) == len(gl), unified(want.stdout, got.stdout)
        for w, g in zip(wl, gl):
            assert w == g or freed_name(w, g), unified(want.stdout, got.stdout)
    assert got.stderr.replace("pcl kwork", "perf kwork") == want.stderr, \
        unified(want.stderr, got.stderr)


TABLE_ARGS = [
    [], ["-S"], ["-s", "count"], ["-s", "max,runtime"], ["-s", "count", "-S"],
    ["-C", "0"], ["-C", "1"], ["-C", "0-1", "-S"], ["-n", "RCU"], ["-n", "TIMER", "-S"],
    ["-s", "bad"], ["-C", "8"],
]
LATENCY_ARGS = [[], ["-s", "max"], ["-s", "count"], ["-s", "avg,count"], ["-C", "1"],
                ["-n", "NET_RX"], ["-s", "bad"]]
KINDS = [[], ["-k", "irq"], ["-k", "softirq"], ["-k", "workqueue"],
         ["-k", "workqueue,irq"], ["-k", "softirq,workqueue"]]


def cases(arg_lists):
    """Every kind list with the default options, two of them with the others
    (the kinds only choose the rows and order ties)."""
    out = [(kinds, []) for kinds in KINDS]
    out += [(kinds, args) for args in arg_lists if args for kinds in (KINDS[0], KINDS[4])]
    return out


def case_id(case):
    return " ".join(case[0]) + "|" + (" ".join(case[1]) or "default")


@pytest.mark.parametrize("file", ["perf", "pcl", "perf-irq"])
@pytest.mark.parametrize("case", cases(TABLE_ARGS), ids=case_id)
def test_report_matches_perf(recordings, file, case):
    kinds, args = case
    path = recordings[file]
    assert_same(run_text(perf, "kwork", *kinds, "report", "-i", path, *args),
                run_text(pcl, "kwork", *kinds, "report", "-i", path, *args))


@pytest.mark.parametrize("file", ["perf", "pcl", "perf-irq"])
@pytest.mark.parametrize("case", cases(LATENCY_ARGS), ids=case_id)
def test_latency_matches_perf(recordings, file, case):
    kinds, args = case
    path = recordings[file]
    assert_same(run_text(perf, "kwork", *kinds, "latency", "-i", path, *args),
                run_text(pcl, "kwork", *kinds, "latency", "-i", path, *args))


TIMEHIST_ARGS = [[], ["-C", "1"], ["-n", "RCU"], ["-n", "NET_RX", "-C", "0"]]


@pytest.mark.parametrize("file", ["perf", "pcl", "pcl-irq"])
@pytest.mark.parametrize("case", cases(TIMEHIST_ARGS), ids=case_id)
def test_timehist_matches_perf(recordings, file, case):
    kinds, args = case
    path = recordings[file]
    assert_same(run_text(perf, "kwork", *kinds, "timehist", "-i", path, *args),
                run_text(pcl, "kwork", *kinds, "timehist", "-i", path, *args))


@pytest.mark.parametrize("args", [["-g"], ["-g", "--max-stack", "2"], ["--max-stack", "3"],
                                  ["-g", "-C", "0", "-n", "RCU"]],
                         ids=" ".join)
def test_timehist_call_graph_matches_perf(recordings, args):
    for file in ("perf-g", "pcl-g"):
        path = recordings[file]
        assert_same(run_text(perf, "kwork", "timehist", "-i", path, *args),
                    run_text(pcl, "kwork", "timehist", "-i", path, *args))


def sample_times(path):
    times = perf("script", "-i", path, "-F", "time").stdout.split()
    assert times
    return float(times[0].rstrip(":")), float(times[-1].rstrip(":"))


@pytest.mark.parametrize("sub", ["report", "latency", "timehist"])
def test_time_window_matches_perf(recordings, sub):
    """--time keeps the events of a window: the middle of the recording."""
    path = recordings["perf"]
    start, end = sample_times(path)
    third = (end - start) / 3
    for window in ("%.6f,%.6f" % (start + third, end - third), "%.6f," % (start + third),
                   ",%.6f" % (end - third), "abc"):
        args = ["kwork", sub, "-i", path, "--time", window]
        if sub == "report":
            args.append("-S")
        assert_same(run_text(perf, *args), run_text(pcl, *args))


@pytest.mark.parametrize("sub", ["report", "latency", "timehist"])
def test_dump_raw_trace_matches_perf(recordings, sub):
    path = recordings["perf-irq"]
    assert_same(run_text(perf, "kwork", "-D", sub, "-i", path),
                run_text(pcl, "kwork", "-D", sub, "-i", path))


def test_usage_and_missing_input(tmp_path):
    for args in (["report", "-s", "nope"], ["-k", "nope", "report"], ["foo"], ["re"], [],
                 ["latency", "-i", "missing.data"], ["report"], ["timehist"]):
        want = perf("kwork", *args, cwd=str(tmp_path))
        got = pcl("kwork", *args, cwd=str(tmp_path))
        assert got.returncode == want.returncode, args
        assert got.stdout == want.stdout
        assert got.stderr.replace("pcl kwork", "perf kwork") == want.stderr, \
            unified(want.stderr, got.stderr)


@pytest.mark.parametrize("sub", ["report", "latency"])
@pytest.mark.parametrize("args", [["-v"], ["-v", "-k", "irq"], ["-v", "-k", "softirq"]],
                         ids=" ".join)
def test_verbose_atom_pages_match_perf(recordings, sub, args):
    """-v adds perf's count of atom pages (its debug lines on stderr are
    not reproduced)."""
    for file in ("perf", "pcl-irq"):
        want = run_text(perf, "kwork", *args, sub, "-i", recordings[file])
        got = run_text(pcl, "kwork", *args, sub, "-i", recordings[file])
        assert "atom pages" in want.stdout
        want.stderr = got.stderr = ""
        assert_same(want, got)


@pytest.mark.parametrize("sub", ["report", "latency", "timehist"])
def test_small_buffer_recording_matches_perf(recordings, sub):
    """A recording that may have lost events: perf's INFO line about them
    and its warnings on stderr."""
    path = recordings["perf-lost"]
    assert_same(run_text(perf, "kwork", sub, "-i", path),
                run_text(pcl, "kwork", sub, "-i", path))
