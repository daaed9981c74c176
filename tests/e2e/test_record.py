"""`pcl record` against perf 6.1: perf must read pcl's files without a single
warning and see in them what it sees in its own recordings of the same
workload (hot functions, call chains, tracepoint fields, attrs)."""
import os
import re
import shutil
import signal
import stat as st
import struct
import subprocess
import tempfile
import time

import pytest

from conftest import (PCL, PERF, catches, child_runs, children, fixture, pcl, perf, runs,
                      unified, wait_until)

WARN = re.compile(r"warning|error|failed|unexpected|invalid|bogus", re.I)


@pytest.fixture
def tmp(tmp_path):
    return tmp_path


def record(tmp, *args, name="pcl.data", check=True, **kw):
    out = str(tmp / name)
    r = pcl("record", "-o", out, *args, **kw)
    if check:
        assert r.returncode == 0, r.stderr
    return out, r


def perf_clean(*args):
    """Runs perf; its stderr must carry no warning of any kind."""
    r = perf(*args)
    assert r.returncode == 0, r.stderr
    assert not WARN.search(r.stderr), r.stderr
    return r.stdout


def evlist(path):
    return perf_clean("evlist", "-v", "-i", path)


def report(path, *args):
    return perf_clean("report", "--stdio", "-i", path, *args)


def burner(ms=300, cpu=False):
    """The burner workload for ms of wall time or, with cpu, of its own CPU
    time (what a test needs a given amount of samples from)."""
    return [fixture("burner"), str(ms)] + (["cpu"] if cpu else [])


# --- perf reads pcl files ------------------------------------------------

def test_pcl_script_matches_perf_script_on_pcl_files(tmp):
    for args in (["-g"], ["-z"], ["-e", "sched:sched_switch", "-a"]):
        path, _ = record(tmp, *args, "--", *burner(100))
        ours = pcl("script", "-i", path)
        assert ours.returncode == 0, ours.stderr
        assert ours.stdout == perf_clean("script", "-i", path), args


def test_workload_named_as_perf_names_it_before_exec(tmp):
    """The forked workload's COMM before its exec is perf's "perf-exec", in
    a file and in a pipe, so both recordings sort and filter alike."""
    def task_events(path):
        return [re.sub(r"\d+", "N", line.strip()) for line in perf_clean(
            "script", "-i", path, "--show-task-events", "-F", "comm").splitlines()
            if "PERF_RECORD_COMM" in line]

    theirs = str(tmp / "perf.data")
    perf_clean("record", "-q", "-e", "dummy", "-o", theirs, "--", "true")
    ours, _ = record(tmp, "-q", "-e", "dummy", "--", "true")
    want = task_events(theirs)
    assert want == ["perf-exec PERF_RECORD_COMM: perf-exec:N/N",
                    "true PERF_RECORD_COMM exec: true:N/N"]
    assert task_events(ours) == want


def test_perf_reads_pcl_file_without_warnings(tmp):
    path, r = record(tmp, "--", *burner())
    assert re.search(r"\[ pcl record: Woken up \d+ times to write data \]", r.stderr)
    assert re.search(r"\[ pcl record: Captured and wrote [\d.]+ MB .*pcl\.data "
                     r"\(\d+ samples\) \]", r.stderr)
    out = report(path)
    for sym in ("leaf_spin", "leaf_math"):
        assert sym in out
    assert "burner" in out
    script = perf_clean("script", "-i", path)
    assert "leaf_spin" in script
    header = perf_clean("report", "--header-only", "-I", "-i", path)
    for key in ("hostname", "os release", "arch", "nrcpus online", "cpudesc", "cpuid",
                "total memory", "cmdline", "sibling sockets", "node0", "pmu mappings",
                "CPU cache info", "time of first sample", "memory nodes"):
        assert f"# {key}" in header, key
    assert "missing features: TRACING_DATA BRANCH_STACK GROUP_DESC AUXTRACE STAT " \
           "CLOCKID DIR_FORMAT COMPRESSED CPU_PMU_CAPS CLOCK_DATA HYBRID_TOPOLOGY" in header
    evlist(path)


def test_header_features_match_perfs(tmp):
    """The same feature sections as perf's own file, with the same host facts."""
    ours, _ = record(tmp, "--", *burner(50))
    theirs = str(tmp / "perf.data")
    perf("record", "-o", theirs, "--", *burner(50))
    skip = re.compile(r"captured on|data size|feat offset|cmdline|perf version|"
                      r"event :|free =|time of|duration|data offset")

    def facts(p):
        return [l for l in perf_clean("report", "--header-only", "-I", "-i", p).splitlines()
                if not skip.search(l)]
    assert facts(ours) == facts(theirs)


ATTR_CASES = [
    [], ["-g"], ["--call-graph", "dwarf"], ["--call-graph", "dwarf,4096"], ["-c", "10000"],
    ["-F", "999"], ["-d"], ["-R"], ["-i"], ["-a"], ["-C", "0"],
    ["-e", "{cpu-clock,task-clock}"], ["-e", "cpu-clock,page-faults"],
    ["-e", "sched:sched_switch"], ["-e", "sched:sched_switch", "-g"], ["-e", "cycles:u"],
    ["-D", "10"], ["-k", "mono"], ["-e", "cpu-clock/period=12345/"],
]


@pytest.mark.parametrize("args", ATTR_CASES, ids=lambda a: " ".join(a) or "default")
def test_attrs_match_perf(tmp, args):
    ours, _ = record(tmp, *args, "--", *burner(20))
    theirs = str(tmp / "perf.data")
    r = perf("record", "-o", theirs, *args, "--", *burner(20))
    assert r.returncode == 0, r.stderr
    assert evlist(ours) == evlist(theirs)


def test_build_ids_of_hit_dsos(tmp):
    path, _ = record(tmp, "--", *burner(200))
    out = perf_clean("buildid-list", "-i", path)
    names = [l.split()[1] for l in out.splitlines()]
    assert any(n.endswith("/burner") for n in names)
    assert any("libm.so" in n for n in names)
    ids = [l.split()[0] for l in out.splitlines()]
    assert all(re.fullmatch(r"[0-9a-f]{40}", i) for i in ids)


def test_no_buildid(tmp):
    path, r = record(tmp, "-B", "--", *burner(50))
    assert "samples)" not in r.stderr        # perf counts samples only with build ids
    header = perf_clean("report", "--header-only", "-i", path)
    assert re.search(r"missing features: .*\bBUILD_ID\b", header)
    # perf then lists the DSOs hit without ids
    assert not re.search(r"^[0-9a-f]{40} ", perf_clean("buildid-list", "-i", path), re.M)


# --- call chains ---------------------------------------------------------

def chain_below(report_text, leaf):
    """The callers listed under the first call graph of `leaf`."""
    lines = report_text.splitlines()
    for i, l in enumerate(lines):
        if l.rstrip().endswith(leaf) and "%" in l:
            return [x.strip(" |-") for x in lines[i + 1:i + 40]]
    return []


def test_fp_call_chains(tmp):
    path, _ = record(tmp, "-g", "--", *burner())
    out = report(path, "--no-children")
    chain = " ".join(chain_below(out, "leaf_spin"))
    assert re.search(r"leaf_spin\s+level\s+level.*middle\s+outer\s+main", chain, re.S), chain


def test_dwarf_call_chains(tmp):
    path, _ = record(tmp, "--call-graph", "dwarf", "--", *burner())
    assert "REGS_USER|STACK_USER" in evlist(path)
    out = report(path, "--no-children")
    chain = " ".join(chain_below(out, "__sin_fma"))
    # libm has no frame pointers: only the DWARF unwind finds leaf_math here.
    assert re.search(r"leaf_math\s+level.*middle\s+outer\s+main", chain, re.S), chain


# --- tracepoints and filters ---------------------------------------------

def test_tracepoint_fields_in_perf_script(tmp):
    # only sleep's switches: a loaded machine switches enough to lose some
    # of every switch in 0.2 s, and perf script then warns about it
    path, _ = record(tmp, "-e", "sched:sched_switch", "--filter", 'prev_comm == "sleep"',
                     "-a", "--", "sleep", "0.2")
    out = perf_clean("script", "-i", path)
    assert "sched:sched_switch:" in out
    assert re.search(r"prev_comm=\S+ prev_pid=\d+ .* ==> next_comm=", out)
    assert "TRACING_DATA" not in perf_clean("report", "--header-only", "-i", path)


def test_filter_records_only_matching_events(tmp):
    cat = ["cat", "/etc/hostname"]
    allp, _ = record(tmp, "-e", "syscalls:sys_enter_openat", "--", *cat, name="all.data")
    flt, _ = record(tmp, "-e", "syscalls:sys_enter_openat", "--filter", "flags == 0",
                    "--", *cat, name="flt.data")
    every = perf_clean("script", "-i", allp).splitlines()
    kept = perf_clean("script", "-i", flt).splitlines()
    assert kept and all("flags: 0x00000000" in l for l in kept)
    assert any("flags: 0x00000000" not in l for l in every)     # the filter removed some
    assert len(kept) < len(every)


def test_filter_needs_a_tracepoint():
    r = pcl("record", "-e", "cpu-clock", "--filter", "x == 1", "true")
    assert r.returncode == 129
    assert "filter" in r.stderr


# --- targets -------------------------------------------------------------

def test_system_wide(tmp):
    path, _ = record(tmp, "-a", "--", "sleep", "0.3")
    assert "IDENTIFIER" in evlist(path) and "dummy:HG" in evlist(path)
    out = report(path, "--sort", "comm")
    assert "sleep" in out or "swapper" in out


def test_no_command_is_system_wide_until_interrupted(tmp):
    out = str(tmp / "sw.data")
    p = subprocess.Popen([PCL, "record", "-o", out], stderr=subprocess.PIPE, text=True)
    wait_until(lambda: catches(p.pid, signal.SIGINT), "pcl record's SIGINT handler")
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == -signal.SIGINT, err
    assert "Captured and wrote" in err
    assert "CPU" in evlist(out)


def spawn_burner(ms=8000):
    p = subprocess.Popen(burner(ms))
    wait_until(lambda: runs(p.pid, "burner"), "the burner's exec")
    return p


@pytest.mark.parametrize("opt", ["-p", "-t"])
def test_attach_to_running_process(tmp, opt):
    b = spawn_burner()
    try:
        path, _ = record(tmp, opt, str(b.pid), "-g", "--", "sleep", "0.5")
    finally:
        b.kill()
        b.wait()
    out = report(path, "--sort", "comm,pid")
    assert f"burner" in out and str(b.pid) in out
    script = perf_clean("script", "-i", path, "-F", "pid")
    assert {int(x) for x in script.split()} == {b.pid}
    assert "leaf_spin" in report(path)


def test_proc_map_timeout(tmp):
    """--proc-map-timeout 0: no time to read a running process's maps, so
    none are written; perf's warning names it, and its closing warning
    counts it.  The default limit reads them all."""
    b = spawn_burner()
    try:
        path, r = record(tmp, "--proc-map-timeout", "0", "-p", str(b.pid), "--",
                         "sleep", "0.1")
        theirs = perf("record", "--proc-map-timeout", "0", "-p", str(b.pid),
                      "-o", str(tmp / "perf.data"), "--", "sleep", "0.1")
        full, _ = record(tmp, "-p", str(b.pid), "--", "sleep", "0.1", name="full.data")
    finally:
        b.kill()
        b.wait()

    def warnings(text):
        return [line for line in text.splitlines() if not line.startswith(("[ ", "assertion"))]

    assert warnings(r.stderr) == warnings(theirs.stderr)
    assert f"Reading /proc/{b.pid}/task/{b.pid}/maps time out" in r.stderr
    assert "1 map information files for pre-existing threads were" in r.stderr

    def maps(p):
        return [line for line in perf_clean("script", "-i", p, "--show-mmap-events").splitlines()
                if "PERF_RECORD_MMAP2" in line]

    assert maps(path) == []
    assert any("burner" in line for line in maps(full))


def test_cpu_list(tmp):
    path, _ = record(tmp, "-C", "0", "--", *burner(200))
    cpus = set(perf_clean("script", "-i", path, "-F", "cpu").split())
    assert cpus == {"[000]"}


def test_count_vs_frequency(tmp):
    cpath, _ = record(tmp, "-c", "100000", "--", *burner(100), name="c.data")
    periods = set(perf_clean("script", "-i", cpath, "-F", "period").split())
    assert periods == {"100000"}
    fpath, _ = record(tmp, "-F", "1000", "--", *burner(100), name="f.data")
    assert "sample_freq }: 1000" in evlist(fpath)
    r = pcl("record", "-c", "5", "-F", "100", "-o", str(tmp / "x.data"), "true")
    assert r.returncode != 0
    assert "cannot set frequency and period at the same time" in r.stderr


def test_frequency_above_the_kernel_limit(tmp):
    limit = int(open("/proc/sys/kernel/perf_event_max_sample_rate").read())
    r = pcl("record", "-F", str(limit * 2), "-o", str(tmp / "x.data"), "true")
    assert r.returncode == 0
    assert f"Maximum frequency rate ({limit} Hz) exceeded, throttling" in r.stderr
    assert f"sample_freq }}: {limit}," in evlist(str(tmp / "x.data"))
    r = pcl("record", "--strict-freq", "-F", str(limit * 2), "-o", str(tmp / "y.data"), "true")
    assert r.returncode != 0
    assert "perf_event_max_sample_rate" in r.stderr


def test_group(tmp):
    path, _ = record(tmp, "-e", "{cpu-clock,task-clock}", "--", *burner(100))
    header = perf_clean("report", "--header-only", "-I", "-i", path)
    assert "# group: {cpu-clock,task-clock}" in header
    out = report(path, "--group")
    assert "cpu-clock" in out and "task-clock" in out


def test_threads_are_followed(tmp):
    path, _ = record(tmp, "--", fixture("threads"))
    tids = set(perf_clean("script", "-i", path, "-F", "tid").split())
    assert len(tids) >= 3


# --- output --------------------------------------------------------------

def test_compression(tmp):
    path, r = record(tmp, "-z", "--", *burner(200))
    assert re.search(r"compressed \(original [\d.]+ MB, ratio is [\d.]+\)", r.stderr)
    header = perf_clean("report", "--header-only", "-i", path)
    assert "# compressed : Zstd, level = 1" in header
    assert "leaf_spin" in report(path)
    # The data really is made of COMPRESSED records.
    raw = open(path, "rb").read()
    off, size = struct.unpack_from("<QQ", raw, 0x28)
    types = set()
    p = off
    while p < off + size:
        t, _, s = struct.unpack_from("<IHH", raw, p)
        types.add(t)
        p += s
    assert 81 in types and 9 not in types


def test_old_file_is_kept_and_mode_is_private(tmp, monkeypatch):
    monkeypatch.chdir(tmp)
    # stdout is no pipe, else the data would go there
    for _ in range(2):
        r = pcl("record", "-q", "--", *burner(30), stdout=subprocess.DEVNULL)
        assert r.returncode == 0 and r.stderr == ""
    assert os.path.exists("perf.data") and os.path.exists("perf.data.old")
    for f in ("perf.data", "perf.data.old"):
        assert st.S_IMODE(os.stat(f).st_mode) == 0o600
    os.chmod("perf.data", 0o644)
    pcl("record", "-q", "--", *burner(30), stdout=subprocess.DEVNULL)
    assert st.S_IMODE(os.stat("perf.data").st_mode) == 0o600


@pytest.mark.parametrize("reader,shows", [("report --stdio -s comm,dso", "burner"),
                                          ("script -F comm,event", "burner"),
                                          ("evlist", "cpu-clock"),
                                          ("annotate --stdio -s leaf_spin", "leaf_spin"),
                                          ("buildid-list", "burner")])
def test_pipes_without_file_names(tmp, reader, shows):
    """No -o with stdout a pipe: record streams the pipe format there, and a
    reader without -i takes a pipe on stdin, as perf's do; no perf.data."""
    stream = tmp / "stream"
    r = subprocess.run("%s record -q -e cpu-clock -c 100000 -- %s | tee %s | %s %s" % (
        PCL, " ".join(burner(100)), stream, PCL, reader), shell=True, cwd=tmp,
        capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert not os.path.exists(tmp / "perf.data")
    assert stream.read_bytes()[:8] == b"PERFILE2"
    want = subprocess.run("cat %s | %s %s" % (stream, PERF, reader), shell=True, cwd=tmp,
                          capture_output=True, text=True, timeout=120)
    # report's tip line is picked at random; perf's buildid-list names a
    # sampled vdso by the temporary file it copies it to from a pipe
    got, want = (re.sub(r"# \(Tip: .*\n", "", out) for out in (r.stdout, want.stdout))
    want = re.sub(r"/tmp/perf-vdso\.so-\w+", "[vdso]", want)
    assert got == want, unified(want, got)
    assert shows in got


def cpu_ms(pid):
    """The CPU time process pid has used, in ms (in clock ticks' steps)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def test_switch_output_on_signal(tmp):
    out = str(tmp / "sw.data")
    # 2.5 s of the burner's CPU time, however loaded the machine
    p = subprocess.Popen([PCL, "record", "--switch-output", "-o", out, "--",
                          *burner(2500, cpu=True)], stderr=subprocess.PIPE, text=True)
    # the first file, switched by the signal, must hold samples: the
    # burner has run 30 ms (120 samples at 4000 Hz) in the rings, which
    # the switch drains first
    wait_until(lambda: catches(p.pid, signal.SIGUSR2) and
               any(runs(pid, "burner") and cpu_ms(pid) >= 30 for pid in children(p.pid)),
               "the burner's first 30 ms")
    p.send_signal(signal.SIGUSR2)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert "[ pcl record: dump data: Woken up" in err
    files = sorted(f for f in os.listdir(tmp) if re.fullmatch(r"sw\.data\.\d{16}", f))
    assert len(files) == 2, (files, err)
    assert not os.path.exists(out)
    for f in files:
        assert f"[ pcl record: Dump {tmp / f} ]" in err
        report(str(tmp / f))


def test_switch_output_by_size(tmp):
    out = str(tmp / "sz.data")
    # 600 ms of CPU at 4000 Hz: 2400 samples, over 80 KB
    r = pcl("record", "--switch-output=20K", "-o", out, "--", *burner(600, cpu=True))
    assert r.returncode == 0, r.stderr
    files = [f for f in os.listdir(tmp) if f.startswith("sz.data.")]
    assert len(files) >= 2
    for f in files:
        evlist(str(tmp / f))


def test_max_size_stops_the_session(tmp):
    out = str(tmp / "m.data")
    r = pcl("record", "--max-size=40K", "-m", "4", "-o", out, "--", *burner(5000), timeout=60)
    assert "perf size limit reached" in r.stderr
    assert os.path.getsize(out) < 200 * 1024
    report(out)


def whole_records(path, pipe=False):
    """A recording's bytes, where its whole records end (at a torn last
    record, or at a size below a record header's, which the caller asserts
    against) and their types."""
    with open(path, "rb") as f:
        raw = f.read()
    if pipe:
        p = 16
    else:
        p = struct.unpack_from("<Q", raw, 0x28)[0] if len(raw) >= 0x30 else len(raw)
    types = set()
    while p + 8 <= len(raw):
        t, _, s = struct.unpack_from("<IHH", raw, p)
        if s < 8 or p + s > len(raw):
            break
        types.add(t)
        p += s
    return raw, p, types


def written(path, want, pipe=False):
    """Whether a recording being written holds records of the types want."""
    return os.path.exists(path) and want <= whole_records(path, pipe)[2]


def kill_with_workload(p):
    """SIGKILLs a recording and its workload, by pid: a pkill by name would
    also kill the burners of tests running alongside."""
    workload = children(p.pid)
    p.kill()
    p.wait()
    for pid in workload:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_killed_recording_keeps_whole_records(tmp):
    out = str(tmp / "k.data")
    p = subprocess.Popen([PCL, "record", "-m", "1", "-o", out, "--", *burner(5000)],
                         stderr=subprocess.DEVNULL)
    # killed once FINISHED_INIT and samples are in the file
    wait_until(lambda: written(out, {82, 9}), "samples in the file")
    kill_with_workload(p)
    raw, p, types = whole_records(out)
    assert raw[:8] == b"PERFILE2"
    off, size = struct.unpack_from("<QQ", raw, 0x28)
    assert size == 0                       # never finished: the reader walks to EOF
    assert len(raw) - p < 65536 and (len(raw) - p < 8 or
                                     struct.unpack_from("<IHH", raw, p)[2] >= 8)
    assert 82 in types and 9 in types      # FINISHED_INIT and samples made it
    # pcl's reader walks such a file to its end
    r = pcl("script", "-i", out)
    assert r.returncode == 0 and "burner" in r.stdout
    assert "data size in the header is 0" in r.stderr


# --- exit status and errors ------------------------------------------------

def test_workload_exit_status_is_passed_on(tmp):
    _, r = record(tmp, "--", "sh", "-c", "exit 3", check=False)
    assert r.returncode == 3
    _, r = record(tmp, "--", "sh", "-c", "kill -TERM $$", check=False)
    assert r.returncode == -signal.SIGTERM      # as perf: it dies of the same signal
    assert "Captured and wrote" in r.stderr


def stopped_by(tool, tmp, sig, args):
    """Runs `tool record ARGS` until its file exists, then sends sig."""
    out = tmp / ("%s-%d.data" % (os.path.basename(tool), sig))
    p = subprocess.Popen([tool, "record", "-o", str(out), *args], stderr=subprocess.PIPE,
                         text=True)
    wait_until(lambda: out.exists() and catches(p.pid, sig),
               "%s record's file and signal handler" % tool)
    p.send_signal(sig)
    _, err = p.communicate(timeout=120)
    return p.returncode, "Captured and wrote" in err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
@pytest.mark.parametrize("args", [["-a"], ["--", "sleep", "30"]], ids=["system", "workload"])
def test_stopped_by_a_signal_ends_as_perf_does(tmp, sig, args):
    """perf finishes its file, then dies of the signal that stopped it (or of
    the SIGTERM it sent its workload): the shell sees 130 or 143."""
    assert stopped_by(PCL, tmp, sig, args) == stopped_by(PERF, tmp, sig, args)


def test_workload_not_found(tmp):
    _, r = record(tmp, "--", "/nonexistent/cmd", check=False)
    assert r.returncode == 255
    assert "Failed to collect 'cpu-clock:ppp' for the '/nonexistent/cmd' workload: " \
           "No such file or directory" in r.stderr
    assert "Woken up" not in r.stderr


def test_bad_event(tmp):
    _, r = record(tmp, "-e", "nosuchevent", "true", check=False)
    assert r.returncode == 129
    assert "event syntax error: 'nosuchevent'" in r.stderr


def test_pid_gone(tmp):
    _, r = record(tmp, "-p", "999999999", "sleep", "0.1", check=False)
    assert r.returncode != 0
    assert "Couldn't create thread/CPU maps: No such process" in r.stderr
    # a thread that vanished between the map and the open: perf's syscall message
    _, r = record(tmp, "-t", "999999999", "sleep", "0.1", check=False)
    assert r.returncode != 0
    assert "No such process" in r.stderr


def test_bad_call_graph(tmp):
    _, r = record(tmp, "--call-graph", "dwarf,70000", "true", check=False)
    assert r.returncode == 129
    assert "callchain: Incorrect stack dump size (max 65528): 70000" in r.stderr


OLD_SETUPS = {
    "dir with a stranger": lambda old: (os.mkdir(old), open(old + "/x", "w").close()),
    "dir with a subdir": lambda old: os.makedirs(old + "/sub"),
    "empty dir": lambda old: os.mkdir(old),
    "dir of perf data files": lambda old: (os.mkdir(old), open(old + "/data", "w").close(),
                                           open(old + "/data.1", "w").close()),
    "dangling link": lambda old: os.symlink("/nonexistent", old),
}


def run_in(tool, d, *args, user=()):
    return subprocess.run([*user, tool, "record", *args, "-o", "d.data", "true"], cwd=d,
                          capture_output=True, text=True)


@pytest.mark.parametrize("setup", sorted(OLD_SETUPS))
def test_old_file_that_cannot_go_keeps_the_recording(tmp, setup):
    """Where FILE.old cannot be replaced perf refuses to record and keeps
    FILE; pcl must never truncate a recording it could not move away."""
    results = {}
    for tool in (PERF, PCL):
        d = tmp / os.path.basename(tool)
        d.mkdir()
        assert run_in(tool, d, "-q").returncode == 0
        before = (d / "d.data").read_bytes()
        OLD_SETUPS[setup](str(d / "d.data.old"))
        r = run_in(tool, d)
        kept = (d / "d.data").read_bytes() == before
        results[tool] = (r.returncode, r.stderr if r.returncode else "", kept)
    assert results[PCL] == results[PERF]


def test_old_file_of_another_user_in_a_sticky_dir():
    if os.geteuid() != 0:
        pytest.skip("needs root to make files of two users")
    d = tempfile.mkdtemp()
    os.chmod(d, 0o1777)
    try:
        old = os.path.join(d, "d.data.old")
        open(old, "w").close()
        os.chown(old, 1, 1)         # daemon: a stranger to nobody
        drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        for tool in (PERF, PCL):
            data = os.path.join(d, "d.data")
            if os.path.exists(data):
                os.unlink(data)
            assert run_in(tool, d, "-q", user=drop).returncode == 0
            size = os.path.getsize(data)
            r = run_in(tool, d, user=drop)
            assert r.returncode == 255
            assert "Can't remove old data: Operation not permitted (d.data.old)" in r.stderr
            assert os.path.getsize(data) == size
    finally:
        shutil.rmtree(d)


def test_paranoid_user_falls_back_to_user_space(tmp):
    if os.geteuid() != 0 or int(open("/proc/sys/kernel/perf_event_paranoid").read()) < 2:
        pytest.skip("needs root to drop privileges and perf_event_paranoid >= 2")
    d = tempfile.mkdtemp()      # pytest's own tmp dirs are private to root
    os.chmod(d, 0o777)
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    out = os.path.join(d, "u.data")
    r = subprocess.run(drop + [PCL, "record", "-o", out, "--", *burner(50)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "cpu-clock:uhppp" in perf("evlist", "-f", "-i", out).stdout
    r = subprocess.run(drop + [PCL, "record", "-a", "-o", out + "2", "true"],
                       capture_output=True, text=True)
    shutil.rmtree(d)
    assert r.returncode == 255
    assert "perf_event_paranoid setting is" in r.stderr


def test_disk_full(tmp):
    mnt = tmp / "small"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)]).returncode:
        pytest.skip("cannot mount a small tmpfs")
    try:
        # 1 s of CPU at 4000 Hz: 4000 samples, over 120 KB
        r = pcl("record", "-F", "4000", "-o", str(mnt / "f.data"), "--", *burner(1000, cpu=True))
        assert r.returncode != 0
        assert "No space left on device" in r.stderr
    finally:
        subprocess.run(["umount", str(mnt)])


def test_buildid_cache(tmp):
    """The DSOs hit land in ~/.debug as perf lays it out; -N leaves it alone."""
    env = dict(os.environ, HOME=str(tmp))
    out = str(tmp / "c.data")
    # a 20 us period: exec, page faults and exit always put kernel samples in
    r = pcl("record", "-q", "-c", "20000", "-o", out, "--", *burner(100), env=env)
    assert r.returncode == 0, r.stderr
    listed = set(perf("buildid-cache", "-l", env=env).stdout.splitlines())
    ids = perf_clean("buildid-list", "-i", out)
    # perf's listing leaves out the vDSO, which is cached all the same
    hit = {l for l in ids.splitlines() if not l.endswith("[vdso]")}
    assert hit and listed >= hit
    kernel = [l.split()[0] for l in ids.splitlines() if l.endswith("[kernel.kallsyms]")]
    assert kernel and os.path.isfile(tmp / ".debug" / "[kernel.kallsyms]" / kernel[0] /
                                     "kallsyms")
    home2 = tmp / "other"
    home2.mkdir()
    env["HOME"] = str(home2)
    r = pcl("record", "-q", "-N", "-o", out, "--", *burner(50), env=env)
    assert r.returncode == 0 and not (home2 / ".debug").exists()


# --- pipe mode (-o -) ------------------------------------------------------

PIPE_CASES = {
    "plain": [],
    "fp": ["-g"],
    # a reader slower than 32 MB/s of stacks would stall the pipe and the rings
    "dwarf": ["--call-graph", "dwarf", "-F", "500"],
    # every run makes system calls (a busy loop may never be switched out)
    "tracepoint": ["-e", "raw_syscalls:sys_enter"],
    "system-wide": ["-a"],
    "compressed": ["-z"],
    "two-events": ["-e", "cpu-clock,task-clock", "-g"],
}

# Record types whose number depends on the run (samples, maps, rounds...).
VARYING_TYPES = {"SAMPLE", "MMAP", "MMAP2", "COMM", "EXIT", "FORK", "FINISHED_ROUND",
                 "COMPRESSED", "LOST", "LOST_SAMPLES", "THROTTLE", "UNTHROTTLE"}


def pipe_stream(tool, tmp, args, name, ms=150):
    """`tool record -o - ARGS -- burner > name`: the stream, and the stderr."""
    out = tmp / name
    with open(out, "wb") as f:
        r = subprocess.run([tool, "record", "-o", "-", *args, "--", *burner(ms)], stdout=f,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return str(out), r.stderr


def from_stdin(path, *args):
    with open(path, "rb") as f:
        return subprocess.run(args, stdin=f, capture_output=True, text=True, timeout=120)


def record_types(path):
    """Multiset of record types perf report -D sees, the varying ones only
    as present or not."""
    r = from_stdin(path, PERF, "report", "-D", "-i", "-")
    assert r.returncode == 0, r.stderr
    counts = {}
    for t in re.findall(r"\[0x[0-9a-f]+\]: PERF_RECORD_([A-Z_0-9]+)", r.stdout):
        # what other processes have loaded (test_record_bpf.py compares them)
        if t in ("KSYMBOL", "BPF_EVENT"):
            continue
        counts[t] = counts.get(t, 0) + 1
    return {t: (1 if t in VARYING_TYPES else n) for t, n in counts.items()}


@pytest.mark.parametrize("case", PIPE_CASES)
def test_pipe_into_perf_report(tmp, case):
    args = PIPE_CASES[case]
    p = subprocess.Popen([PCL, "record", "-o", "-", *args, "--", *burner(300)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    rep = subprocess.run([PERF, "report", "-i", "-", "--stdio"], stdin=p.stdout,
                         capture_output=True, text=True, timeout=120)
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait() == 0, err
    assert rep.returncode == 0 and not WARN.search(rep.stderr), rep.stderr
    assert re.fullmatch(r"\[ pcl record: Woken up \d+ times to write data \]\n"
                        r"\[ pcl record: Captured and wrote 0\.000 MB -"
                        r"(, compressed \(original [\d.]+ MB, ratio is [\d.]+\))? \]\n", err), err
    if case == "tracepoint":
        assert "of event 'raw_syscalls:sys_enter'" in rep.stdout
    else:
        assert "leaf_spin" in rep.stdout and "burner" in rep.stdout, rep.stdout[:2000]
    if case == "two-events":
        assert "of event 'cpu-clock'" in rep.stdout and "of event 'task-clock'" in rep.stdout


@pytest.mark.parametrize("case", PIPE_CASES)
def test_pipe_records_match_perfs(tmp, case):
    args = PIPE_CASES[case]
    ours, _ = pipe_stream(PCL, tmp, args, "pcl.pipe", ms=50)
    theirs, _ = pipe_stream(PERF, tmp, ["-q", *args], "perf.pipe", ms=50)
    assert record_types(ours) == record_types(theirs)
    # the stream saved to a file is read from that file too
    assert "of event" in report(ours)


def without_tip(text):
    return re.sub(r"^# \(Tip: .*\)\n", "", text, flags=re.M)


@pytest.mark.parametrize("case", ["fp", "tracepoint", "compressed"])
def test_pcl_reads_its_pipe_as_perf_does(tmp, case):
    path, _ = pipe_stream(PCL, tmp, PIPE_CASES[case], "pcl.pipe")
    for cmd in (["report", "--stdio"], ["script"]):
        ours = from_stdin(path, PCL, *cmd, "-i", "-")
        theirs = from_stdin(path, PERF, *cmd, "-i", "-")
        assert ours.returncode == 0, ours.stderr
        assert without_tip(ours.stdout) == without_tip(theirs.stdout), cmd


@pytest.mark.parametrize("case", ["plain", "fp", "tracepoint", "system-wide", "two-events"])
def test_pipe_attrs_match_perfs_pipe(tmp, case):
    """perf evlist -v of the two streams; perf gives a piped event an id
    (sample_type ID), so a pipe's attrs differ from a file's by that bit."""
    args = PIPE_CASES[case]
    ours, _ = pipe_stream(PCL, tmp, args, "pcl.pipe", ms=20)
    theirs, _ = pipe_stream(PERF, tmp, ["-q", *args], "perf.pipe", ms=20)
    got = [from_stdin(p, PERF, "evlist", "-v", "-i", "-") for p in (ours, theirs)]
    assert got[0].returncode == 0, got[0].stderr
    assert got[0].stdout == got[1].stdout
    file, _ = record(tmp, *args, "--", *burner(20))
    assert got[0].stdout.replace("|ID|", "|") == evlist(file).replace(
        "raw_syscalls:sys_enter", "unknown tracepoint").replace("|ID|", "|")


def test_killed_pipe_recording_is_readable(tmp):
    out = tmp / "k.pipe"
    with open(out, "wb") as f:
        p = subprocess.Popen([PCL, "record", "-m", "1", "-o", "-", "--", *burner(5000)],
                             stdout=f, stderr=subprocess.DEVNULL)
        # killed once samples of the burner's leaf_spin are in the pipe
        # (after its 16-byte header), which perf script then finds
        wait_until(lambda: written(str(out), {9}, pipe=True) and
                   "leaf_spin" in from_stdin(str(out), PERF, "script", "-i", "-").stdout,
                   "leaf_spin's samples in the pipe")
        kill_with_workload(p)
    r = from_stdin(str(out), PERF, "script", "-i", "-")
    assert "burner" in r.stdout and "leaf_spin" in r.stdout
    r = pcl("script", "-i", str(out))
    assert "burner" in r.stdout


def test_overwrite_keeps_the_newest_records(tmp):
    """--overwrite is a flight recorder: one-page rings (one per CPU) read at
    the end hold only the last samples (32 bytes each here), as perf's do."""
    for tool in (perf, pcl):
        out = str(tmp / "ow.data")
        r = tool("record", "-q", "--overwrite", "-m", "1", "-e", "cpu-clock", "-c", "100000",
                 "-o", out, "--", *burner(1500, cpu=True))
        assert r.returncode == 0, r.stderr
        times = [float(line.split()[2].rstrip(":")) for line in
                 perf("script", "-F", "comm,tid,time", "-i", out).stdout.splitlines()]
        # 1.5 s of CPU every 0.1 ms would be 15000 samples; a page holds 128
        assert 10 < len(times) <= os.cpu_count() * 4096 // 32, (tool, len(times))
        assert times == sorted(times)


def cgroup_records(path):
    return sorted(line.split(" ", 3)[3] for line in
                  perf("script", "-D", "-i", path).stdout.splitlines()
                  if "PERF_RECORD_CGROUP" in line)


def test_all_cgroups_as_perf(tmp):
    """--all-cgroups: CGROUP records for the cgroup tree, and samples that
    name theirs; both reports agree by cgroup path and namespace id."""
    paths = {}
    for tool, name in ((perf, "perf"), (pcl, "pcl")):
        paths[name] = str(tmp / (name + ".data"))
        r = tool("record", "-q", "--all-cgroups", "--namespaces", "-o", paths[name], "--",
                 *burner(50))
        assert r.returncode == 0, r.stderr
    assert cgroup_records(paths["pcl"]) == cgroup_records(paths["perf"]) != []
    for path in paths.values():
        for keys in ("cgroup", "cgroup_id,cgroup,comm"):
            theirs = perf("report", "--stdio", "-s", keys, "-i", path).stdout
            ours = pcl("report", "--stdio", "-s", keys, "-i", path).stdout
            assert without_tip(ours) == without_tip(theirs), unified(theirs, ours)
            assert "N/A" not in ours


@pytest.mark.parametrize("opt", ["--switch-output", "--timestamp-filename"])
def test_timestamped_output_refuses_a_pipe(opt):
    r = pcl("record", opt, "-o", "-", "--", "true")
    assert r.returncode == 255 and r.stdout == ""
    assert opt + " needs an output file" in r.stderr


@pytest.mark.parametrize("opt", ["--switch-output", "--timestamp-filename"])
def test_timestamped_output_keeps_the_old_file_as_perf(tmp, opt):
    """The file is renamed FILE.TIMESTAMP at the end, and a FILE there before
    becomes FILE.old (what perf 6.1 does with either option)."""
    names = {}
    for tool, name in ((perf, "perf"), (pcl, "pcl")):
        d = tmp / name
        d.mkdir()
        (d / "x.data").write_text("an older recording")
        r = tool("record", opt, "-o", str(d / "x.data"), "--", *burner(30))
        assert r.returncode == 0, r.stderr
        files = sorted(os.listdir(d))
        names[name] = [re.sub(r"\.\d{16}$", ".TIMESTAMP", f) for f in files]
        stamped = [f for f in files if re.fullmatch(r"x\.data\.\d{16}", f)]
        assert len(stamped) == 1, files
        assert f"record: Dump {d / stamped[0]} ]" in r.stderr
        assert (d / "x.data.old").read_text() == "an older recording"
        report(str(d / stamped[0]))
    assert names["pcl"] == names["perf"] == ["x.data.TIMESTAMP", "x.data.old"]


def file_order(path):
    """Record types in file order: perf report -D says where each record is
    (it prints samples later, in time order)."""
    out = perf_clean("report", "-D", "-i", path)
    found = re.findall(r"^(0x[0-9a-f]+)@\S+ \[0x[0-9a-f]+\]: event: (\d+)$", out, flags=re.M)
    return [t for _, t in sorted(found, key=lambda f: int(f[0], 16))]


@pytest.mark.parametrize("target", ["workload", "-p"])
def test_tail_synthesize_writes_the_tasks_last(tmp, target):
    """--tail-synthesize: the ids, maps and tasks come after the last sample
    (FINISHED_INIT first, as perf writes it).  A reader meets them last:
    samples it flushed before (perf's rounds) stay unresolved, in perf's
    files as in pcl's, so only the workload's own maps are checked there."""
    sample, comm, mmap2, finished_init, id_index, thread_map = "9", "3", "10", "82", "69", "73"
    if target == "-p":
        b = spawn_burner()
        try:
            path, _ = record(tmp, "--tail-synthesize", "-p", str(b.pid), "--", "sleep", "0.5")
        finally:
            b.kill()
            b.wait()
    else:
        path, _ = record(tmp, "--tail-synthesize", "--", *burner(200))
    order = file_order(path)
    last_sample = len(order) - 1 - order[::-1].index(sample)
    tail = order[order.index(finished_init):]
    assert order.index(finished_init) > last_sample
    assert tail.index(id_index) < tail.index(thread_map)
    if target == "-p":
        # the running task's name and maps, read as the recording ended
        assert comm in tail and mmap2 in tail
    else:
        out = report(path, "--sort", "comm,dso,sym")
        assert "burner" in out and "leaf_spin" in out


def test_tail_synthesize_names_the_exited_workload(tmp):
    """--tail-synthesize -- true: the workload has exited when the file
    ends; perf reads its name from /proc before reaping it, so a COMM
    "true" follows FINISHED_INIT.  pcl keeps the zombie as long."""
    tails = {}
    for tool in (PERF, PCL):
        path = str(tmp / (os.path.basename(tool) + ".data"))
        r = subprocess.run([tool, "record", "-q", "-o", path, "--tail-synthesize", "--", "true"],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        order = file_order(path)
        tails[tool] = order[order.index("82"):][:3]
        dump = perf_clean("report", "-D", "-i", path)
        assert re.search(r"^0 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_COMM: true:\d+/\d+$",
                         dump, flags=re.M), dump
    assert tails[PCL] == tails[PERF] == ["82", "3", "69"]


@pytest.mark.parametrize("what", ["no", "task", "mmap", "all"])
def test_synth_describes_running_tasks_as_perf(tmp, what):
    """--synth no|task|mmap|all on a running process: the same COMM and
    MMAP2 records as perf's (none, names, names and maps)."""
    b = spawn_burner()
    counts = {}
    try:
        for tool in (PERF, PCL):
            path = str(tmp / (os.path.basename(tool) + ".data"))
            r = subprocess.run([tool, "record", "-q", "-o", path, "--synth", what,
                                "-p", str(b.pid), "--", "sleep", "0.2"],
                               capture_output=True, text=True)
            assert r.returncode == 0, r.stderr
            dump = perf_clean("report", "-D", "-i", path)
            counts[tool] = [len(re.findall(r"\]: PERF_RECORD_%s" % t, dump))
                            for t in ("COMM", "MMAP2")]
    finally:
        b.kill()
        b.wait()
    assert counts[PCL] == counts[PERF]


@pytest.mark.parametrize("cmd", ["sched", "lock", "kmem", "trace"])
def test_header_cmdline_is_the_command_typed(tmp, cmd):
    """A command that records through record (sched record, ...) names
    itself in the header's cmdline, as perf's do, not the record line it
    built."""
    lines = {}
    for tool in (PERF, PCL):
        path = str(tmp / (os.path.basename(tool) + ".data"))
        r = subprocess.run([tool, cmd, "record", "-o", path, "--", "true"],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        head = perf("report", "--header-only", "-i", path).stdout
        line = re.search(r"^# cmdline : (\S+) (.*)$", head, flags=re.M)
        lines[tool] = line.group(2).replace(path, "FILE")
    assert lines[PCL] == lines[PERF]


# --- options that change what happens rather than the attrs ----------------

def test_dry_run_writes_nothing(tmp):
    for tool in (pcl, perf):
        out = tmp / (tool.__name__ + ".data")
        r = tool("record", "--dry-run", "-o", str(out), "--", *burner(20))
        assert (r.returncode, r.stderr, out.exists()) == (0, "", False)


def test_switch_max_files_keeps_the_newest(tmp):
    out = str(tmp / "mx.data")
    # 600 ms of CPU at 4000 Hz: over 80 KB; 16K rings woken every 8K
    r = pcl("record", "-m", "4", "--switch-output=8K", "--switch-max-files", "2", "-o", out,
            "--", *burner(600, cpu=True))
    assert r.returncode == 0, r.stderr
    dumped = re.findall(r"\[ pcl record: Dump (\S+) \]", r.stderr)
    assert len(dumped) > 2, r.stderr
    left = sorted(str(tmp / f) for f in os.listdir(tmp) if f.startswith("mx.data."))
    assert left == sorted(dumped[-2:])


def sample_range(path):
    head = perf_clean("report", "--header-only", "-i", path)
    return re.findall(r"# time of (?:first|last) sample : ([\d.]+)", head)


@pytest.mark.parametrize("args", [["--buildid-all"], ["--buildid-all", "--timestamp-boundary"],
                                  ["-B"], ["-B", "--timestamp-boundary"], []])
def test_timestamp_boundary_as_perf(tmp, args):
    """perf times the samples while it looks for their DSOs: not with -B, and
    with --buildid-all only when --timestamp-boundary asks for it."""
    got = []
    for tool in (pcl, perf):
        out = str(tmp / (tool.__name__ + ".data"))
        r = tool("record", "-q", "-o", out, *args, "--", *burner(50))
        assert r.returncode == 0, r.stderr
        times = sample_range(out)
        assert len(times) == 2, times
        got.append([t == "0.000000" for t in times])
    assert got[0] == got[1]


def test_realtime_runs_under_sched_fifo(tmp):
    p = subprocess.Popen([PCL, "record", "-q", "-r", "1", "-o", str(tmp / "rt.data"), "--",
                          *burner(1500)], stderr=subprocess.PIPE, text=True)
    policies = set()
    while p.poll() is None:
        try:
            policies.add(os.sched_getscheduler(p.pid))
        except OSError:
            break
        time.sleep(0.05)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert os.SCHED_FIFO in policies


@pytest.mark.parametrize("enable", [True, False])
def test_control_fifo_enables_and_disables(tmp, enable):
    ctl, ack = str(tmp / "ctl"), str(tmp / "ack")
    os.mkfifo(ctl)
    os.mkfifo(ack)
    out = str(tmp / "ctl.data")
    p = subprocess.Popen([PCL, "record", "-D", "-1", "--control", f"fifo:{ctl},{ack}", "-o", out,
                          "--", *burner(800)], stderr=subprocess.PIPE, text=True)
    with open(ctl, "w") as c, open(ack, "rb") as a:
        for cmd in (["ping", "enable", "disable"] if enable else ["ping"]):
            c.write(cmd + "\n")
            c.flush()
            assert a.read(5) == b"ack\n\0", cmd     # perf's, NUL included
            time.sleep(0.3)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    # -D -1 says the events start disabled
    assert (err.count("Events enabled\n"), err.count("Events disabled\n")) == (enable, 1 + enable)
    samples = len(perf_clean("script", "-i", out).splitlines())
    assert (samples > 0) == enable


def control_session(tool, tmp, commands):
    """stderr and the acks of a recording started disabled and driven by
    the commands through --control fifos, each given time to act."""
    ctl, ack = str(tmp / "ctl"), str(tmp / "ack")
    for f in (ctl, ack):
        if os.path.exists(f):
            os.unlink(f)
        os.mkfifo(f)
    p = subprocess.Popen([tool, "record", "-e", "cpu-clock", "-D", "-1", "--control",
                          f"fifo:{ctl},{ack}", "-o", str(tmp / "c.data"), "--", *burner(4000)],
                         stderr=subprocess.PIPE, text=True)
    acks = []
    with open(ctl, "w") as c, open(ack, "rb") as a:
        os.set_blocking(a.fileno(), False)
        for cmd in commands:
            c.write(cmd + "\n")
            c.flush()
            time.sleep(0.4)
            acks.append(a.read() or b"")
        _, err = p.communicate(timeout=60)
        acks.append(a.read() or b"")
    err = re.sub(r"\[ \w+ record: .*\n", "", err.replace(PCL, "perf"))
    # an ack can come after the next command: their count tells
    return p.returncode, err, b"".join(acks)


def test_control_commands_as_perf(tmp):
    commands = ["enable cpu-clock", "disable cpu-clock", "enable bogus", "evlist",
                "evlist -v", "snapshot", "bogus", "ping", "stop"]
    mine, theirs = (control_session(t, tmp, commands) for t in (PCL, PERF))
    assert mine == theirs


def test_switch_output_event_switches_the_file(tmp):
    out = str(tmp / "ev.data")
    p = subprocess.Popen([PCL, "record", "-e", "cpu-clock", "-o", out, "--switch-output-event",
                          "syscalls:sys_enter_getppid", "--", "sleep", "1.5"],
                         stderr=subprocess.PIPE, text=True)
    # the side-band event is open and enabled before the workload's exec
    wait_until(lambda: child_runs(p.pid, "sleep"), "the workload's exec")
    os.getppid()
    _, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    files = [f for f in os.listdir(tmp) if re.fullmatch(r"ev\.data\.\d{16}", f)]
    assert len(files) >= 2, err
    for f in files:
        evlist(str(tmp / f))


def test_kcore_as_perf(tmp):
    if os.access("/proc/kcore", os.R_OK):
        pytest.skip("/proc/kcore is readable here: pcl does not copy it")
    mine = pcl("record", "--kcore", "-o", str(tmp / "k.data"), "--", *burner(20))
    theirs = perf("record", "--kcore", "-o", str(tmp / "p.data"), "--", *burner(20))
    assert (mine.returncode, mine.stderr) == (theirs.returncode, theirs.stderr)
    assert mine.stderr == "ERROR: kcore is not readable.\n"


def test_buildid_mmap_names_the_maps_by_build_id(tmp):
    """The build ids go into the MMAP2 records, none into the header."""
    ours, _ = record(tmp, "-q", "--buildid-mmap", "--", *burner(20))
    theirs = str(tmp / "perf.data")
    assert perf("record", "-q", "-o", theirs, "--buildid-mmap", "--", *burner(20)).returncode == 0

    def maps(path):
        out = perf_clean("script", "--show-mmap-events", "-F", "comm", "-i", path)
        return sorted(set(re.sub(r"\S+ \d+/\d+: \[0x[0-9a-f]+", "", l) for l in out.splitlines()
                          if "PERF_RECORD_MMAP" in l))

    def features(path):
        head = perf_clean("report", "--header-only", "-i", path)
        return re.search(r"# missing features: .*", head).group(0)
    assert maps(ours) == maps(theirs)
    assert features(ours) == features(theirs)
    # the DSOs hit vary from run to run; the workload's is always there
    burner_id = perf_clean("buildid-list", "-i", theirs).split("\n")
    assert [l for l in burner_id if l.endswith("/burner")][0] in \
        perf_clean("buildid-list", "-i", ours)


def test_cgroup_goes_to_the_events_before_it(tmp):
    """-G pairs with the events defined before it: one name for all of them,
    the later events count everywhere (a cgroup without tasks shows it)."""
    mnt = "/sys/fs/cgroup/unified" if os.path.isdir("/sys/fs/cgroup/unified") else "/sys/fs/cgroup"
    empty = os.path.join(mnt, "pcl-test-empty-%d" % os.getpid())
    try:
        os.mkdir(empty)
    except OSError as e:
        pytest.skip("cannot make a cgroup: %s" % e)
    try:
        name = os.path.basename(empty)
        counts = []
        for tool in (pcl, perf):
            out = str(tmp / (tool.__name__ + ".data"))
            r = tool("record", "-q", "-o", out, "-a", "-e", "cpu-clock", "-G", name,
                     "-e", "task-clock", "--", *burner(100))
            assert r.returncode == 0, r.stderr
            events = perf_clean("script", "-F", "event", "-i", out).split()
            counts.append((events.count("cpu-clock:"), events.count("task-clock:") > 0))
        assert counts[0] == counts[1] == (0, True)
    finally:
        os.rmdir(empty)


def test_options_are_perfs_in_perfs_order():
    """--list-opts in perf's table order, -h's option column as perf's."""
    mine, theirs = pcl("record", "--list-opts"), perf("record", "--list-opts")
    assert mine.stdout == theirs.stdout

    def names(tool):
        out = tool("record", "-h")
        return re.findall(r"^ +((?:-\w, )?--?[\w-]+)", out.stdout + out.stderr, re.M)
    assert len(names(perf)) > 80 and names(pcl) == names(perf)


# --- -D: a start delay or spans of time -----------------------------------

@pytest.mark.parametrize("spec", ["abc", "10-20,15-30", "20-10", "10-20,20-30", " 10-20",
                                  "10-20,", "0", "-2", "1-2-3", "10x", "100000000000",
                                  "10-20 ", "+10-20", "10-+20", "0-0", "5-5", "10 -20"])
def test_delay_spec_accepted_as_perf(tmp, spec):
    """perf takes -D MS (-1 or ≥ 1) or increasing spans START-END that do not
    touch; anything else gets the usage of -D (rc 129)."""
    want = perf("record", "-q", "-D", spec, "-o", str(tmp / "perf.data"), "--", "true")
    got = pcl("record", "-q", "-D", spec, "-o", str(tmp / "pcl.data"), "--", "true")
    assert got.returncode == want.returncode, (spec, got.stderr, want.stderr)
    if want.returncode == 129:
        assert got.stderr == want.stderr.replace("perf record", "pcl record"), \
            unified(want.stderr, got.stderr)


@pytest.mark.parametrize("spec", ["10-20,30-40", "0-30"])
def test_delay_spans_as_perf(tmp, spec):
    """-D spans: the events go on and off on perf's schedule (its Events
    enabled/disabled lines), the attrs are perf's, and once the last span
    ends the recording stops: the workload gets SIGTERM and, as perf, the
    recorder ends with it (rc 143)."""
    runs = {}
    for tool, run in (("perf", perf), ("pcl", pcl)):
        out = str(tmp / f"{tool}.data")
        r = run("record", "-D", spec, "-o", out, "--", "sleep", "30", timeout=60)
        lines = [ln for ln in r.stderr.splitlines() if ln.startswith("Events ")]
        runs[tool] = (r.returncode, lines, evlist(out))
    assert runs["pcl"] == runs["perf"]


def test_delay_spans_system_wide(tmp):
    """Without a workload the recording simply ends after the last span."""
    out, r = record(tmp, "-a", "-D", "10-20", timeout=60)
    assert [ln for ln in r.stderr.splitlines() if ln.startswith("Events ")] == \
        ["Events disabled", "Events enabled", "Events disabled"]
    assert evlist(out) == perf_clean("evlist", "-v", "-i", out)


def test_help_as_perf():
    """-h: perf's options and texts, except where pcl says an option has no
    effect, its --control (which takes more commands than perf's) and perf's
    note on its missing BPF skeleton."""
    def options(text):
        """help text per option: the lines up to the next option line"""
        found, name = {}, None
        for line in text.replace("perf record", "pcl record") \
                        .replace("'perf list'", "'pcl list'").splitlines():
            m = re.match(r"\s+(-\w, )?(--[\w-]+|-\w)", line)
            if m and not line.startswith("\t"):
                name = m.group(2)
            if name:
                found[name] = found.get(name, "") + line + "\n"
        return found
    want, got = options(perf("record", "-h").stderr), options(pcl("record", "-h").stderr)
    assert sorted(got) == sorted(want)
    for name, text in got.items():
        if "(no effect)" in text or name == "--control":
            continue
        assert text == want[name].replace(
            "                          (not built-in because no BUILD_BPF_SKEL=1)\n", ""), \
            unified(want[name], text)
