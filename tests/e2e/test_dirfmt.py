"""perf's directory format (record --threads): DIR/data holds the header, the
synthesized records and the features, DIR/data.N the records of ring N.

pcl reads perf's directories byte-equal with perf (report, script, -D,
evlist, buildid-list, annotate, diff, sched, compressed ones too); pcl record
--threads writes directories perf 6.1 reads without a word, equal to what it
shows for its own --threads recording of the same command; a killed one
stays readable; inject, archive and data convert take a directory.
"""
import os
import re
import signal
import subprocess
import tarfile
import time

import pytest

from conftest import PCL, children, fixture, pcl, perf, unified


def no_tip(text):
    """perf report ends with a random tip; perf names a vdso it could not
    find by build id after its temporary copy, now and then."""
    return re.sub(r"/tmp/perf-vdso\.so-\w+", "[vdso]", re.sub(r"# \(Tip: .*\)\n", "", text))


def same(args, *, cwd=None):
    """perf's and pcl's output of the same command line, both rc 0."""
    want = perf(*args, cwd=cwd)
    got = pcl(*args, cwd=cwd)
    assert want.returncode == 0, want.stderr
    assert got.returncode == 0, got.stderr
    return no_tip(want.stdout), no_tip(got.stdout)


def ring_files(path):
    return sorted(n for n in os.listdir(path) if n.startswith("data."))


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    d = tmp_path_factory.mktemp("dirfmt")
    out = {}
    for name, tool, extra in [("perf", perf, ["-g"]), ("perf_z", perf, ["-z"]),
                              ("pcl", pcl, ["-g"]), ("pcl_z", pcl, ["-z", "-g"]),
                              ("single", perf, ["-g"])]:
        path = str(d / (name + ".data"))
        threads = [] if name == "single" else ["--threads"]
        r = tool("record", "-q", *threads, *extra, "-o", path, fixture("threads"))
        assert r.returncode == 0, r.stderr
        out[name] = path
    path = str(d / "sched.data")
    r = perf("sched", "record", "-q", "--threads", "-o", path, fixture("pingpong"))
    assert r.returncode == 0, r.stderr
    out["sched"] = path
    return out


READERS = [
    ["report", "--stdio"],
    ["report", "--stdio", "--no-children", "-s", "dso,sym", "-g", "caller"],
    ["script"],
    ["script", "-F", "comm,tid,time,event,ip,sym,dso", "-G"],
    ["report", "-D"],
    ["report", "--stdio", "--header-only"],
    ["evlist", "-v"],
    ["buildid-list"],
]


@pytest.mark.parametrize("which", ["perf", "perf_z", "pcl", "pcl_z"])
@pytest.mark.parametrize("args", READERS, ids=lambda a: " ".join(a))
def test_readers_equal_perf(recordings, which, args):
    want, got = same([*args, "-i", recordings[which]])
    assert got == want, unified(want, got)


def test_files_longer_than_a_turn(tmp_path):
    """perf reads each file 2 MB at a time in turns; so does pcl, delivering
    between turns: the output stays perf's."""
    path = str(tmp_path / "big.data")
    r = perf("record", "-q", "--threads", "-a", "-g", "-F", "10000", "-o", path,
             "--", "sleep", "2")
    assert r.returncode == 0, r.stderr
    if max(os.path.getsize(os.path.join(path, n)) for n in ring_files(path)) < 2 << 20:
        pytest.skip("too few samples on this machine to need turns")
    want, got = same(["script", "-i", path])
    assert got == want, unified(want, got)


def test_dump_names_each_file(recordings):
    path = recordings["perf"]
    got = pcl("report", "-D", "-i", path).stdout
    assert re.search(r"^0x[0-9a-f]+@%s/data \[" % re.escape(path), got, re.M)
    assert re.search(r"^0x[0-9a-f]+@%s/data\.\d+ \[" % re.escape(path), got, re.M)


def test_annotate_and_diff(recordings):
    want, got = same(["annotate", "--stdio", "-i", recordings["perf"], "spin_work"])
    assert got == want, unified(want, got)
    want, got = same(["diff", recordings["single"], recordings["perf"]])
    assert got == want, unified(want, got)


@pytest.mark.parametrize("args", [["sched", "latency"], ["sched", "timehist"], ["script"]],
                         ids=lambda a: " ".join(a))
def test_sched_directory(recordings, args):
    want, got = same([*args, "-i", recordings["sched"]])
    assert got == want, unified(want, got)


def test_default_input_is_a_directory(recordings, tmp_path):
    os.symlink(recordings["perf"], str(tmp_path / "perf.data"))
    want, got = same(["report", "--stdio"], cwd=str(tmp_path))
    assert got == want, unified(want, got)


def test_pcl_directory_layout(recordings):
    path = recordings["pcl"]
    assert os.path.isdir(path)
    assert os.path.isfile(os.path.join(path, "data"))
    assert ring_files(path) == ring_files(recordings["perf"])
    header = perf("report", "--header-only", "-i", path).stdout
    assert "# directory data version : 1" in header


@pytest.mark.parametrize("args", [["report", "--stdio"], ["script"], ["evlist", "-v"]],
                         ids=lambda a: " ".join(a))
@pytest.mark.parametrize("which", ["pcl", "pcl_z"])
def test_perf_reads_pcl_directory_quietly(recordings, which, args):
    r = perf(*args, "-i", recordings[which])
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout


def test_evlist_equals_perfs_own_threads_recording(recordings):
    want = perf("evlist", "-v", "-i", recordings["perf"]).stdout
    got = perf("evlist", "-v", "-i", recordings["pcl"]).stdout
    assert got == want, unified(want, got)


def test_writer_thread_per_group(tmp_path):
    """--threads=cpu runs a writer thread per CPU beside the main one."""
    path = str(tmp_path / "t.data")
    # the workload waits for a line on its stdin: the recording lasts until we look
    proc = subprocess.Popen([PCL, "record", "-q", "--threads", "-o", path, "--",
                             "sh", "-c", "read x"], stdin=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    tasks, want = 0, -1
    try:
        for _ in range(1200):
            time.sleep(0.05)
            if os.path.isdir(path):
                want = 1 + len(ring_files(path))
                tasks = len(os.listdir("/proc/%d/task" % proc.pid))
                if tasks == want:
                    break
    finally:
        proc.communicate(b"\n", timeout=120)
    assert proc.returncode == 0
    assert tasks == want


@pytest.mark.parametrize("spec", ["cpu", "core", "package", "numa", "0/0"])
def test_specs_write_what_perf_reads(tmp_path, spec):
    path = str(tmp_path / "s.data")
    r = pcl("record", "-q", "--threads=" + spec, "-o", path, fixture("threads"))
    assert r.returncode == 0, r.stderr
    want = perf("script", "-i", path)
    assert want.returncode == 0 and want.stderr == "", want.stderr
    got = pcl("script", "-i", path)
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


@pytest.mark.parametrize("args", [
    ["--threads=bogus"], ["--threads=user"], ["--threads=0/0:0/0"],
    ["--threads=1000/1000"], ["--threads", "--per-thread"], ["--threads", "-o", "-"],
], ids=lambda a: " ".join(a))
def test_errors_like_perf(tmp_path, args):
    out = [] if "-o" in args else ["-o", str(tmp_path / "e.data")]
    want = perf("record", *args, *out, "true", stdout=subprocess.DEVNULL)
    got = pcl("record", *args, *out, "true", stdout=subprocess.DEVNULL)
    assert (got.returncode, got.stderr) == (want.returncode, want.stderr)
    assert not os.path.exists(str(tmp_path / "e.data"))


def test_no_switch_output(tmp_path):
    """perf warns that --switch-output does not apply and writes one directory."""
    first = []
    for tool in (perf, pcl):
        path = str(tmp_path / (tool.__name__ + ".data"))
        r = tool("record", "--threads", "--switch-output=signal", "-o", path, "true")
        assert r.returncode == 0, r.stderr
        first.append(r.stderr.splitlines()[0])
        assert os.path.isdir(path)
        # no timestamped dumps beside it
        assert not [n for n in os.listdir(str(tmp_path)) if n.startswith(tool.__name__ + ".data.")]
    assert first[1] == first[0]


def test_old_directory_kept(tmp_path):
    """As perf: the previous recording, a directory, becomes FILE.old."""
    for tool in (perf, pcl):
        path = str(tmp_path / (tool.__name__ + ".data"))
        for _ in range(2):
            r = tool("record", "-q", "--threads", "-o", path, "true")
            assert r.returncode == 0, r.stderr
        assert os.path.isdir(path + ".old")
        assert ring_files(path + ".old") == ring_files(path)
        r = tool("record", "-q", "-o", path, "true")
        assert r.returncode == 0, r.stderr
        assert os.path.isfile(path) and os.path.isdir(path + ".old")


def test_killed_recording_stays_readable(tmp_path):
    # small rings wake the recorder often; the workload outlives the wait.
    # The kill comes once every CPU's ring file has data: the exec's MMAP2
    # sits at the start of one of them, and what the kernel still held is
    # lost to pcl as to perf.
    path = str(tmp_path / "k.data")
    proc = subprocess.Popen([PCL, "record", "-q", "--threads", "-m", "1", "-o", path, "--",
                             fixture("threads"), "60000", "2"], stderr=subprocess.DEVNULL)
    workload = []
    try:
        for _ in range(1200):
            time.sleep(0.05)
            if os.path.isdir(path) and ring_files(path) and all(
                    os.path.getsize(os.path.join(path, n)) for n in ring_files(path)):
                break
    finally:
        workload = children(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        for pid in workload:
            os.kill(pid, signal.SIGKILL)
    assert workload
    report = pcl("report", "--stdio", "-i", path)
    assert report.returncode == 0, report.stderr
    assert "was the recording killed?" in report.stderr
    assert re.search(r"# Samples: \d+", report.stdout), report.stdout
    script = pcl("script", "-i", path)
    assert script.returncode == 0 and "spin_work" in script.stdout


def test_inject_merges_into_one_file(recordings, tmp_path):
    out = str(tmp_path / "inj.data")
    r = pcl("inject", "-i", recordings["perf"], "-o", out)
    assert r.returncode == 0, r.stderr
    assert os.path.isfile(out)
    got = perf("script", "-i", out)
    assert got.stderr == ""
    want = perf("script", "-i", recordings["perf"]).stdout
    assert got.stdout == want, unified(want, got.stdout)


@pytest.mark.parametrize("cmd", [["collapse"], ["flamegraph", "-o", "-"]], ids=lambda a: a[0])
def test_stacks_from_a_directory(recordings, tmp_path, cmd):
    """collapse and flamegraph take a directory as perf.data, not as text."""
    merged = str(tmp_path / "merged.data")
    assert pcl("inject", "-i", recordings["perf"], "-o", merged).returncode == 0
    want = pcl(*cmd, "-i", merged)
    got = pcl(*cmd, "-i", recordings["perf"])
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout


def test_data_convert_json(recordings, tmp_path):
    want_out, got_out = str(tmp_path / "perf.json"), str(tmp_path / "pcl.json")
    want = perf("data", "convert", "--to-json", want_out, "-i", recordings["perf"])
    got = pcl("data", "convert", "--to-json", got_out, "-i", recordings["perf"])
    assert want.returncode == got.returncode == 0, got.stderr
    with open(want_out) as w, open(got_out) as g:
        assert g.read() == w.read()


def test_archive(recordings, tmp_path):
    lists = []
    for tool in (perf, pcl):
        data = str(tmp_path / (tool.__name__ + ".data"))
        subprocess.run(["cp", "-r", recordings["perf"], data], check=True)
        r = tool("archive", data)
        assert r.returncode == 0, r.stderr
        with tarfile.open(data + ".tar.bz2") as t:
            lists.append(sorted(t.getnames()))
    assert lists[1] == lists[0]
