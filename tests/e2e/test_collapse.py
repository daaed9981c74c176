"""pcl collapse -i FILE (perf.data) folds exactly what `perf script -i FILE | pcl collapse`
(perf script's text) folds, option by option, on real recordings: two tracepoints, a
tracepoint beside cpu-clock, a plain -g profile, code run from a memfd (a DSO name with
blanks).  Where stackcollapse-perf.pl is installed, it is the third witness; else the
independent reading of its rules in test_flamegraph.py is."""
import collections
import re
import shutil
import subprocess
import tempfile

import pytest

from conftest import fixture, pcl, perf, perf_record_g
from test_flamegraph import HEAD, collapse_text, parse_folded

STACKCOLLAPSE = shutil.which("stackcollapse-perf.pl")
# perf script with the PID shown, as --include-pid and --include-tid want it
WITH_PID = "comm,pid,tid,time,period,event,ip,sym,symoff,dso"


@pytest.fixture(scope="module")
def tmp():
    with tempfile.TemporaryDirectory(prefix="pcl-collapse-") as d:
        yield d


@pytest.fixture(scope="module")
def recordings(tmp):
    two_tp = ["-e", "sched:sched_switch", "-e", "sched:sched_wakeup", "-a"]
    with_tp = ["-e", "cpu-clock", "-e", "sched:sched_switch", "-F", "2000"]
    return {
        "tracepoints": perf_record_g(tmp, "tp.data", ["sleep", "0.3"], two_tp),
        # the nap guarantees a sched_switch with a stack: a busy loop may
        # never be switched out on an idle machine
        "mixed": perf_record_g(tmp, "mixed.data",
                               ["sh", "-c", fixture("flame") + " phases 300 && sleep 0.05"],
                               with_tp),
        "cpu": perf_record_g(tmp, "cpu.data", [fixture("flame"), "cpu", "200"],
                             ["-F", "2000"]),
        "memfd": perf_record_g(tmp, "memfd.data", [fixture("memfd_exec"), "100"],
                               ["-F", "2000"]),
    }


def script_text(path, fields=None, *args):
    if fields and "sched:" in perf("evlist", "-i", path).stdout:
        fields += ",trace"
    r = perf("script", "-i", path, *(["-F", fields] if fields else []), *args)
    assert r.returncode == 0, r.stderr
    return r.stdout if not fields else without_exited_tasks(r.stdout)


def without_exited_tasks(text):
    """perf script shows a task past its exit as ":-1 -1" (a tracepoint
    recording with -a has some).  Its default sample line names no process
    for stackcollapse, which drops the sample, as pcl does; a line with
    "PID/TID" runs the name on into the period, which pcl does not follow."""
    return "\n\n".join(s for s in text.split("\n\n") if not s.startswith(":-1 "))


def from_text(text, *opts):
    r = pcl("collapse", *opts, input=text)
    assert r.returncode == 0, r.stderr
    return r.stdout


def from_data(path, *opts):
    r = pcl("collapse", "-i", path, *opts)
    assert r.returncode == 0, r.stderr
    return r.stdout


def stackcollapse(text, *opts):
    r = subprocess.run([STACKCOLLAPSE, *opts], input=text, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


# (pcl collapse options, perf script -F list, its stackcollapse-perf.pl options)
OPTIONS = [
    ([], None, []),
    (["--kernel"], None, ["--kernel"]),
    (["--include-pid"], WITH_PID, ["--pid"]),
    (["--include-tid"], WITH_PID, ["--tid"]),
    (["--max-stack", "3"], None, []),
]


@pytest.mark.parametrize("kind", ["tracepoints", "mixed", "cpu", "memfd"])
@pytest.mark.parametrize("opts,fields,perl_opts", OPTIONS,
                         ids=[" ".join(o[0]) or "default" for o in OPTIONS])
def test_data_path_folds_what_the_text_path_folds(recordings, kind, opts, fields, perl_opts):
    path = recordings[kind]
    script_args = opts[:2] if opts[:1] == ["--max-stack"] else []
    text = script_text(path, fields, *script_args)
    naming = [o for o in opts if o != "--max-stack" and not o.isdigit()]
    folded = from_data(path, *opts)
    assert folded == from_text(text, *naming)
    assert parse_folded(folded) == collapse_text(
        text, **{o[2:].replace("-", "_"): True for o in naming})
    if STACKCOLLAPSE:
        assert folded == stackcollapse(text, *perl_opts)
    # pcl script --folded is the same data path
    if not naming:
        r = pcl("script", "--folded", "-i", path, *opts)
        assert r.returncode == 0 and r.stdout == folded, r.stderr


def test_two_tracepoints_keep_both(recordings):
    """Their lines end with the tracepoint's fields, naming no event at the
    end: stackcollapse keeps both events, each sample weighing 1."""
    path = recordings["tracepoints"]
    text = script_text(path)
    folded = parse_folded(from_data(path))
    heads = [l for l in text.splitlines() if HEAD.match(l)]
    wakeups = sum(" sched:sched_wakeup: " in l for l in heads)
    switches = sum(" sched:sched_switch: " in l for l in heads)
    assert wakeups and switches
    assert sum(folded.values()) == wakeups + switches
    assert any(k.endswith(";__schedule") for k in folded)
    r = pcl("collapse", "-i", path)
    assert "using the samples" not in r.stderr
    # asked for one, only its samples, from the file and from the text
    for event, count in (("sched:sched_switch", switches), ("sched:sched_wakeup", wakeups)):
        one = from_data(path, "--event", event)
        assert sum(parse_folded(one).values()) == count
        assert one == from_text(text, "--event", event)


def test_tracepoint_beside_cpu_clock(recordings):
    """cpu-clock's lines name it: it becomes the event; the tracepoint's
    lines name none and stay."""
    path = recordings["mixed"]
    text = script_text(path)
    folded = parse_folded(from_data(path))
    heads = [l for l in text.splitlines() if HEAD.match(l)]
    switches = sum(" sched:sched_switch: " in l for l in heads)
    clock = sum(int(l.split(": ")[1].split()[0]) for l in heads if l.endswith("cpu-clock: "))
    assert switches and clock
    assert sum(folded.values()) == clock + switches
    only_clock = parse_folded(from_data(path, "--event", "cpu-clock"))
    assert sum(only_clock.values()) == clock
    assert from_data(path, "--event", "cpu-clock") == from_text(text, "--event", "cpu-clock")
    assert from_data(path, "--event", "sched:sched_switch") == \
        from_text(text, "--event", "sched:sched_switch")


def test_dso_name_with_blanks(recordings):
    """The memfd's DSO is "/memfd:sealed-code (deleted)": stackcollapse's
    frame pattern ends the module at the last " (", so its FUNC is
    "[unknown] (/memfd:sealed-code", tidied to "[unknown] "."""
    path = recordings["memfd"]
    text = script_text(path)
    if "(/memfd:sealed-code (deleted))" not in text:
        pytest.skip("the kernel named the memfd mapping otherwise")
    folded = parse_folded(from_data(path))
    assert any(k.endswith(";[unknown] ") for k in folded), folded
    assert not any("[memfd" in k for k in folded)


def test_pipe_mode(tmp):
    """A perf.data pipe announces its events as it goes; perf script then
    shows a tracepoint's frames without offset or module, lines
    stackcollapse does not read as frames."""
    piped = tmp + "/mixed.pipe"
    with open(piped, "w") as f:
        r = perf("record", "-q", "-g", "-e", "cpu-clock", "-e", "sched:sched_switch",
                 "-F", "2000", "-o", "-", "--", fixture("flame"), "phases", "200", stdout=f)
    assert r.returncode == 0, r.stderr
    with open(piped) as f:
        text = perf("script", "-i", "-", stdin=f).stdout
    with open(piped) as f:
        r = pcl("collapse", stdin=f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == from_text(text)
    assert parse_folded(r.stdout) == collapse_text(text)


def test_filters_on_tracepoints(recordings):
    """Sample filters (perf.data only) keep what perf script's own keep."""
    path = recordings["tracepoints"]
    text = script_text(path)
    heads = [HEAD.match(l) for l in text.splitlines() if HEAD.match(l)]
    comm = collections.Counter(m.group(1) for m in heads).most_common(1)[0][0]
    cpu = re.search(r"\[(\d+)\]", text).group(1)
    whole = sum(parse_folded(from_data(path)).values())
    for ours, theirs in ((["--comm", comm], ["--comms", comm]),
                         (["--cpu", cpu], ["--cpu", cpu]),
                         (["--dso", "[kernel.kallsyms]"], ["--dsos", "[kernel.kallsyms]"])):
        got = from_data(path, *ours)
        assert got == from_text(script_text(path, None, *theirs)), ours
        assert 0 < sum(parse_folded(got).values()) <= whole, ours
