"""pcl sched against perf sched 6.1 on the same recordings.

Each recording is made once per module, by perf sched record and by pcl
sched record, of the pingpong fixture (two threads bouncing a byte over
pipes, then sleeping) and of the whole system for half a second.  Times
and pids differ between recordings, so pcl is only ever compared with
perf on the same file.
"""
import os

import pytest

from conftest import PERF, fixture, pcl, perf, unified

RECORDINGS = ["perf-pingpong", "pcl-pingpong", "perf-system", "pcl-system"]
# with callchains (record -g)
STACK_RECORDINGS = ["perf-stacks", "pcl-stacks"]
# compressed (record -z)
ZSTD_RECORDINGS = ["perf-zstd", "pcl-zstd"]
# a one-page ring under 20000 round trips: events are usually lost
LOSSY_RECORDINGS = ["perf-lossy", "pcl-lossy"]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    directory = tmp_path_factory.mktemp("sched")
    workloads = {"pingpong": ["--", fixture("pingpong"), "300"],
                 "system": ["-a", "sleep", "0.5"],
                 "stacks": ["-g", "--", fixture("pingpong"), "100"],
                 "zstd": ["-z", "--", fixture("pingpong"), "100"],
                 "lossy": ["-m", "1", "--", fixture("pingpong"), "20000"]}
    paths = {}
    for name in RECORDINGS + STACK_RECORDINGS + ZSTD_RECORDINGS + LOSSY_RECORDINGS:
        tool, workload = name.split("-")
        path = str(directory / (name + ".data"))
        run = perf if tool == "perf" else pcl
        r = run("sched", "record", "-q", "-o", path, *workloads[workload])
        assert r.returncode == 0, r.stderr
        paths[name] = path
    return paths


def same_output(path, *args):
    want = perf("sched", "-i", path, *args)
    got = pcl("sched", "-i", path, *args)
    assert got.returncode == want.returncode, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


def test_record_has_perfs_events(recordings):
    want = perf("evlist", "-v", "-i", recordings["perf-pingpong"]).stdout
    got = perf("evlist", "-v", "-i", recordings["pcl-pingpong"]).stdout
    assert got == want


@pytest.mark.parametrize("name", RECORDINGS)
@pytest.mark.parametrize("args", [[], ["-p"], ["-s", "max"], ["-s", "runtime,switch"],
                                  ["-s", "avg,max", "-p"], ["-C", "1"], ["--pids", "-s", "pid"]],
                         ids=lambda a: " ".join(a))
def test_latency(recordings, name, args):
    same_output(recordings[name], "latency", *args)


def test_latency_bad_sort_key(recordings):
    r = pcl("sched", "-i", recordings["perf-pingpong"], "latency", "-s", "bogus")
    assert r.returncode == 129
    assert "Unknown --sort key: `bogus'" in r.stderr


def test_script_is_pcl_script(recordings):
    path = recordings["pcl-pingpong"]
    assert pcl("sched", "script", "-i", path).stdout == perf("sched", "script", "-i", path).stdout


TIMEHIST_ARGS = [[], ["-s"], ["-S"], ["-w"], ["-M"], ["-n"], ["-V"], ["--state"],
                 ["-w", "-M", "-V", "-n", "--state"], ["-I"], ["-I", "-S"], ["--state", "-S"],
                 ["--cpu", "1"], ["--cpu", "0", "-S"], ["-w", "-V", "-S"]]


@pytest.mark.parametrize("name", RECORDINGS)
@pytest.mark.parametrize("args", TIMEHIST_ARGS, ids=lambda a: " ".join(a))
def test_timehist(recordings, name, args):
    same_output(recordings[name], "timehist", *args)


def switch_times(path):
    """The times of perf's timehist rows, to pick windows inside the file."""
    lines = perf("sched", "timehist", "-i", path).stdout.splitlines()[3:]
    return [line.split()[0] for line in lines]


@pytest.mark.parametrize("name", RECORDINGS)
def test_timehist_time_window(recordings, name):
    times = switch_times(recordings[name])
    first, last = times[len(times) // 4], times[len(times) // 2]
    for span in (f"{first},{last}", f"{first},", f",{last}", first):
        same_output(recordings[name], "timehist", "--time", span)
        same_output(recordings[name], "timehist", "--time", span, "-S")


@pytest.mark.parametrize("name", ["perf-pingpong", "pcl-pingpong"])
def test_timehist_pid_and_tid_filters(recordings, name):
    path = recordings[name]
    lines = perf("sched", "timehist", "-i", path).stdout.splitlines()[3:]
    task = next(line.split()[2] for line in lines if line.split()[2].startswith("pong["))
    tid, pid = task[len("pong["):-1].split("/")
    for args in (["-p", pid], ["-t", tid], ["-t", tid, "-S"], ["-p", pid, "-w"],
                 ["-p", f"{pid},1", "-s"]):
        same_output(path, "timehist", *args)


@pytest.mark.parametrize("name", RECORDINGS)
@pytest.mark.parametrize("args", [[], ["--compact"], ["--cpus", "1"], ["--cpus", "0", "--compact"],
                                  ["-v"]], ids=lambda a: " ".join(a))
def test_map(recordings, name, args):
    same_output(recordings[name], "map", *args)


def test_map_color_options_are_plain_off_a_terminal(recordings):
    # perf 6.1 crashes on --color-pids; off a terminal its colours are off anyway
    path = recordings["pcl-pingpong"]
    got = pcl("sched", "-i", path, "map", "--color-pids", "1", "--color-cpus", "0")
    assert got.returncode == 0
    assert got.stdout == perf("sched", "-i", path, "map").stdout


@pytest.mark.parametrize("name", STACK_RECORDINGS)
@pytest.mark.parametrize("args", [[], ["-w", "-M"], ["--max-stack", "3"], ["--max-stack", "20", "-n"],
                                  ["-V", "--state", "-S"], ["--no-call-graph"], ["-I"],
                                  ["-I", "-S"], ["-I", "-s", "--max-stack", "2"]],
                         ids=lambda a: " ".join(a))
def test_timehist_callchains(recordings, name, args):
    same_output(recordings[name], "timehist", *args)


@pytest.mark.parametrize("name", RECORDINGS)
@pytest.mark.parametrize("args", [["latency"], ["map"], ["timehist"], ["timehist", "-w", "-M", "-S"]],
                         ids=lambda a: " ".join(a))
def test_dump_raw_trace(recordings, name, args):
    want = perf("sched", "-i", recordings[name], "-D", *args)
    got = pcl("sched", "-i", recordings[name], "-D", *args)
    assert got.returncode == want.returncode, got.stderr
    assert got.stdout == want.stdout, unified(want.stdout, got.stdout)


MEASUREMENT_LINES = ("run measurement overhead: ", "sleep measurement overhead: ",
                     "the run test took ", "the sleep test took ")


def replay_structure(text):
    """replay's lines without its measurements (times vary run to run):
    the lines after the calibration, and the round numbers."""
    lines = text.splitlines()
    for line, start in zip(lines, MEASUREMENT_LINES):
        assert line.startswith(start) and line.endswith(" nsecs"), line
    rounds = [line.split(":")[0] for line in lines if line.startswith("#")]
    return [line for line in lines[4:] if not line.startswith("#")], rounds


@pytest.mark.parametrize("name", ["perf-pingpong", "pcl-pingpong"])
def test_replay(recordings, name):
    want = perf("sched", "-i", recordings[name], "replay", "-r", "2")
    got = pcl("sched", "-i", recordings[name], "replay", "-r", "2")
    assert got.returncode == want.returncode == 0, got.stderr
    assert replay_structure(got.stdout) == replay_structure(want.stdout)
    assert replay_structure(got.stdout)[1] == ["#1  ", "#2  "]


@pytest.fixture(scope="module")
def no_sched_events(tmp_path_factory):
    """A recording without tracepoints, and one perf sched wrote to a pipe."""
    directory = tmp_path_factory.mktemp("nosched")
    plain = str(directory / "plain.data")
    r = perf("record", "-q", "-o", plain, "--", "true")
    assert r.returncode == 0, r.stderr
    piped = str(directory / "pipe.data")
    with open(piped, "wb") as out:
        r = run_to(out, [PERF, "sched", "record", "-q", "-o", "-", "--", "true"])
    assert r.returncode == 0
    return {"plain": plain, "pipe": piped}


def run_to(out, argv):
    import subprocess
    return subprocess.run(argv, stdout=out, stderr=subprocess.DEVNULL, timeout=120)


@pytest.mark.parametrize("kind", ["plain", "pipe"])
@pytest.mark.parametrize("sub", ["latency", "map", "timehist"])
def test_files_without_sched_events(no_sched_events, kind, sub):
    # like perf, nothing is read from them (a pipe's events come too late)
    path = no_sched_events[kind]
    source = "-" if kind == "pipe" else path
    with open(path, "rb") as f:
        want = perf("sched", "-i", source, sub, stdin=f)
    with open(path, "rb") as f:
        got = pcl("sched", "-i", source, sub, stdin=f)
    assert got.returncode == want.returncode
    assert got.stdout == want.stdout
    assert got.stderr.splitlines()[-1] == want.stderr.splitlines()[-1]


@pytest.mark.parametrize("name", ZSTD_RECORDINGS)
@pytest.mark.parametrize("args", [["latency"], ["map"], ["timehist", "-S", "-w", "-M"],
                                  ["-D", "latency"]], ids=lambda a: " ".join(a))
def test_compressed(recordings, name, args):
    same_output(recordings[name], *args)


@pytest.mark.parametrize("name", LOSSY_RECORDINGS)
@pytest.mark.parametrize("args", [["latency"], ["map"], ["timehist", "-S"], ["timehist", "-s"],
                                  ["-D", "timehist"], ["-D", "latency"]],
                         ids=lambda a: " ".join(a))
def test_lost_events(recordings, name, args):
    # the INFO lines of latency and map, timehist's "lost N events" lines
    same_output(recordings[name], *args)


@pytest.mark.parametrize("span", ["9,1", "abc", "1,2,3,4"])
def test_timehist_bad_time(recordings, span):
    want = perf("sched", "-i", recordings["perf-pingpong"], "timehist", "--time", span)
    got = pcl("sched", "-i", recordings["perf-pingpong"], "timehist", "--time", span)
    assert got.returncode == want.returncode != 0
    assert got.stdout == want.stdout == ""


# perf sched record's events with sched_wakeup for sched_waking, as on
# kernels without sched_waking: the wake-ups latency and replay read
WAKEUP_EVENTS = ["-e", "sched:sched_switch", "-e", "sched:sched_stat_runtime",
                 "-e", "sched:sched_process_fork", "-e", "sched:sched_wakeup_new",
                 "-e", "sched:sched_migrate_task", "-e", "sched:sched_wakeup"]


@pytest.fixture(scope="module")
def wakeup_recordings(tmp_path_factory):
    directory = tmp_path_factory.mktemp("wakeup")
    paths = {}
    for tool, run in (("perf", perf), ("pcl", pcl)):
        path = str(directory / (tool + ".data"))
        r = run("record", "-q", "-a", "-R", "-c", "1", *WAKEUP_EVENTS, "-o", path, "--",
                fixture("pingpong"), "200")
        assert r.returncode == 0, r.stderr
        paths[tool] = path
    return paths


@pytest.mark.parametrize("tool", ["perf", "pcl"])
@pytest.mark.parametrize("args", [["latency"], ["latency", "-p"], ["latency", "-C", "0"], ["map"],
                                  ["timehist", "-S", "-w", "-M"], ["-D", "latency"]],
                         ids=lambda a: " ".join(a))
def test_sched_wakeup_recordings(wakeup_recordings, tool, args):
    same_output(wakeup_recordings[tool], *args)


@pytest.mark.parametrize("tool", ["perf", "pcl"])
def test_sched_wakeup_replay(wakeup_recordings, tool):
    want = perf("sched", "-i", wakeup_recordings[tool], "replay", "-r", "1")
    got = pcl("sched", "-i", wakeup_recordings[tool], "replay", "-r", "1")
    assert got.returncode == want.returncode == 0, got.stderr
    assert replay_structure(got.stdout) == replay_structure(want.stdout)
