"""`pcl record --off-cpu` against perf 6.1: perf here has no BPF build and
ignores the option, so the oracle is perf reading pcl's file: its report
must show the off-CPU time (offcpu-time samples, period = ns asleep) under
the stack the sleep began with, and pcl's readers must print what perf's
print of the same file."""
import collections
import re

import pytest

from conftest import fixture, pcl, perf, unified

WARN = re.compile(r"warning|error|failed|unexpected|invalid|bogus", re.I)
SLEEP_WORK = ["sh", "-c", f"sleep 0.3; {fixture('burner')} 100"]


def perf_clean(*args):
    r = perf(*args)
    assert r.returncode == 0, r.stderr
    assert not WARN.search(r.stderr), r.stderr
    return r.stdout


def without_tip(text):
    return re.sub(r"^# \(Tip: .*\)\n", "", text, flags=re.M)


def record(tmp_path, *args, name="oc.data"):
    out = str(tmp_path / name)
    r = pcl("record", "--off-cpu", "-o", out, *args)
    assert r.returncode == 0, r.stderr
    return out


def off_cpu_samples(path):
    """(comm, tid, period, frames) of each offcpu-time sample, as perf sees it."""
    text = perf_clean("script", "-i", path, "-F", "comm,tid,event,period,ip,sym")
    samples = []
    for line in text.splitlines():
        if line.startswith("\t") and samples:
            samples[-1][3].append(line.split()[1] if len(line.split()) > 1 else "")
        elif "offcpu-time:" in line:
            head = line.split()
            samples.append((head[0], int(head[1]), int(head[2]), []))
        elif line.strip():
            samples.append(("", 0, 0, []))	# another event's sample
    samples = [s for s in samples if s[0]]
    return samples


@pytest.fixture(scope="module")
def sleep_file(tmp_path_factory):
    return record(tmp_path_factory.mktemp("offcpu"), "-g", "--", *SLEEP_WORK)


def test_offcpu_event_attr_is_perfs(sleep_file):
    lines = perf_clean("evlist", "-v", "-i", sleep_file).splitlines()
    attr = next(ln for ln in lines if ln.startswith("offcpu-time:"))
    assert "type: 1," in attr and "config: 0xa," in attr
    assert "{ sample_period, sample_freq }: 1," in attr and "freq: 1" in attr
    assert "CALLCHAIN" in attr and "PERIOD" in attr


def test_perf_report_shows_the_sleep(sleep_file):
    report = perf_clean("report", "--stdio", "--no-children", "-i", sleep_file)
    assert "of event 'offcpu-time'" in report
    # perf's BPF version writes no sched_switch samples: neither do we
    assert "of event 'sched:sched_switch'" not in report
    asleep = sum(period for comm, _, period, frames in off_cpu_samples(sleep_file)
                 if comm == "sleep" and "do_nanosleep" in frames and "schedule" in frames)
    assert asleep >= 300_000_000


@pytest.mark.parametrize("args", [[], ["--no-children"], ["--sort", "comm,sym"],
                                  ["-g", "caller"]])
def test_pcl_report_matches_perf(sleep_file, args):
    theirs = perf_clean("report", "--stdio", "-i", sleep_file, *args)
    ours = pcl("report", "--stdio", "-i", sleep_file, *args)
    assert ours.returncode == 0, ours.stderr
    assert without_tip(ours.stdout) == without_tip(theirs), \
        unified(without_tip(theirs), without_tip(ours.stdout))


@pytest.mark.parametrize("args", [[], ["-F", "comm,tid,time,event,period,ip,sym"]])
def test_pcl_script_matches_perf(sleep_file, args):
    theirs = perf_clean("script", "-i", sleep_file, *args)
    ours = pcl("script", "-i", sleep_file, *args)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == theirs, unified(theirs, ours.stdout)


def test_flamegraph_of_the_sleep(sleep_file, tmp_path):
    svg = tmp_path / "off.svg"
    r = pcl("flamegraph", "-i", sleep_file, "--event", "offcpu-time", "-o", str(svg))
    assert r.returncode == 0, r.stderr
    assert "do_nanosleep" in svg.read_text()


def test_without_g_the_stacks_are_still_there(tmp_path):
    path = record(tmp_path, "--", *SLEEP_WORK)
    sleeps = [s for s in off_cpu_samples(path) if s[0] == "sleep"]
    assert sum(s[2] for s in sleeps) >= 300_000_000
    assert any("do_nanosleep" in s[3] for s in sleeps)


def test_threads_switching_on_many_cpus(tmp_path):
    """pingpong's two threads sleep and wake each other hundreds of times,
    on whatever CPUs: every wake-up pairs with its own sleep."""
    path = record(tmp_path, "-g", "--", fixture("pingpong"), "300")
    samples = off_cpu_samples(path)
    by_comm = collections.Counter(comm for comm, *_ in samples)
    # the main thread is "pingpong": most rounds put both to sleep
    assert by_comm["pingpong"] >= 20 and by_comm["pong"] >= 20, by_comm
    assert all(period > 0 for _, _, period, _ in samples)
    # a thread's sleeps never overlap: each began after the one before ended
    text = perf_clean("script", "-i", path, "--ns", "-F", "tid,time,event,period")
    sleeps = collections.defaultdict(list)
    for line in text.splitlines():
        if "offcpu-time:" in line:
            tid, time, period = line.split()[:3]
            woke = round(float(time.rstrip(":")) * 1e9)
            sleeps[tid].append((woke - int(period), woke))
    for tid, spans in sleeps.items():
        spans.sort()
        assert all(b[0] >= a[1] for a, b in zip(spans, spans[1:])), tid
    assert all(any(f in ("read", "__libc_read", "pipe_read") for f in frames)
               or "do_nanosleep" in frames or "futex_wait" in frames
               for comm, _, _, frames in samples if comm == "pong")


def test_system_wide_in_order(tmp_path):
    """-a: every task's sleeps, from every CPU's ring; perf must find the
    samples in the order its rounds promise (no "out of order" warning)."""
    path = record(tmp_path, "-a", "-g", "--", "sleep", "0.3")
    report = perf_clean("report", "--stdio", "--no-children", "--sort", "comm", "-i", path)
    assert "of event 'offcpu-time'" in report
    assert any(comm == "sleep" and period >= 300_000_000
               for comm, _, period, _ in off_cpu_samples(path))


def test_attached_to_a_running_process(tmp_path):
    """-p: the events run from the drain's start, not an exec; the switch
    event's records (LOST ones too) must not leak into the file."""
    import subprocess
    target = subprocess.Popen([fixture("pingpong"), "100000"])
    try:
        path = record(tmp_path, "-g", "-p", str(target.pid), "--", "sleep", "0.3")
    finally:
        target.wait(timeout=120)
    assert perf_clean("evlist", "-i", path).split() == ["cpu-clock:ppp", "offcpu-time"] or \
        perf_clean("evlist", "-i", path).split() == ["cycles:P", "offcpu-time"]
    assert {comm for comm, *_ in off_cpu_samples(path)} >= {"pingpong", "pong"}


def test_pipe(tmp_path):
    """-o -: the switch event's attr stays out of the stream too."""
    from conftest import PCL, PERF
    import subprocess
    rec = subprocess.Popen([PCL, "record", "-q", "--off-cpu", "-o", "-", "--", "sleep", "0.2"],
                           stdout=subprocess.PIPE)
    rep = subprocess.run([PERF, "report", "--stdio", "--no-children", "-i", "-"],
                         stdin=rec.stdout, capture_output=True, text=True, timeout=120)
    rec.wait(timeout=120)
    assert rec.returncode == 0 and rep.returncode == 0, rep.stderr
    assert not WARN.search(rep.stderr), rep.stderr
    assert "of event 'offcpu-time'" in rep.stdout
    assert "sched_switch" not in rep.stdout
