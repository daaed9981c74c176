"""`pcl list` side by side with perf 6.1's `perf list` on this machine."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import PCL, PERF, pcl, perf


def without_metrics(text):
    """perf's vendor metric tables are not part of pcl: drop that section."""
    return re.sub(r"\n\nMetric Groups:\n.*", "\n", text, flags=re.S) if "\nMetric Groups:" in text \
        else text


def same_as_perf(*args):
    """pcl list ARGS and perf list ARGS agree.  Other tests may add build-id
    cache entries or probes meanwhile, so a difference is retried."""
    for _ in range(3):
        want = perf("list", *args)
        got = pcl("list", *args)
        assert got.returncode == want.returncode == 0
        if got.stdout == without_metrics(want.stdout):
            return got.stdout
    assert got.stdout == without_metrics(want.stdout)
    return got.stdout


def test_whole_list_equals_perf():
    out = same_as_perf()
    assert "  cpu-clock                                          [Software event]\n" in out
    assert "[Tracepoint event]" in out
    assert "Metric Groups" not in out


def test_tracepoints_equal_perf():
    def tracepoints(text):
        return sorted(l for l in text.splitlines() if l.endswith("[Tracepoint event]"))
    mine = tracepoints(pcl("list", "tracepoint").stdout)
    assert mine == tracepoints(perf("list", "tracepoint").stdout)
    # the set is every event directory with an id under tracefs
    events = "/sys/kernel/tracing/events"
    on_disk = sorted(f"{s}:{e}" for s in os.listdir(events)
                     if os.path.isdir(f"{events}/{s}")
                     for e in os.listdir(f"{events}/{s}")
                     if os.path.exists(f"{events}/{s}/{e}/id"))
    assert sorted(l.split()[0] for l in mine) == on_disk


@pytest.mark.parametrize("args", [
    ["sw"], ["software"], ["hw"], ["hardware"], ["cache"], ["hwcache"], ["pmu"],
    ["tracepoint"], ["sdt"],
    ["sched:*"], ["sched:sched_stat*"], ["syscalls:sys_enter_wr*"], ["*:*"], ["sched:"],
    ["sched"], ["clock"], ["sched*"], ["*sched*"], ["cpu-clock"], ["tsc"], ["TSC"],
    ["faults"], ["xyzzy-nothing"], ["hw", "sw"], ["sched:sched_switch", "cpu-clock"],
])
def test_filters_equal_perf(args):
    same_as_perf(*args)


def test_glob_filter_selects():
    out = pcl("list", "sched:sched_stat*").stdout.splitlines()
    assert out and all(l.split()[0].startswith("sched:sched_stat") for l in out)
    sw = pcl("list", "sw").stdout
    assert "context-switches OR cs" in sw and "duration_time" in sw
    assert "[Tracepoint event]" not in sw


def test_raw_dump_equals_perf():
    for args in ([], ["sw"], ["sched:*"], ["pmu"]):
        want = perf("list", "--raw-dump", *args).stdout
        got = pcl("list", "--raw-dump", *args).stdout
        # perf appends metric names (one group per line) after the events
        assert want.startswith(got), args
        assert "\n" not in got
        assert got.split() == want[:len(got)].split()


@pytest.mark.skipif(not shutil.which("script"), reason="needs script(1) for a terminal")
@pytest.mark.parametrize("arg", ["sw", "tsc", "clock", "sched:sched_stat*"])
def test_terminal_layout_matches_perf_pager(arg):
    """On a terminal perf pages its output, with a header and a blank line
    after each section; pcl prints the same layout (its header names -e only)."""
    def on_tty(cmd):
        r = subprocess.run(["script", "-qec", cmd, "/dev/null"], stdout=subprocess.PIPE,
                           text=True, timeout=120, env={**os.environ, "PAGER": "sed -n p"})
        return r.stdout.replace("\r", "")
    want = on_tty(f"{PERF} list '{arg}'").replace("(to be used in -e or -M)",
                                                  "(to be used in -e)")
    got = on_tty(f"{PCL} list '{arg}'")
    assert got.startswith("\nList of pre-defined events (to be used in -e):\n\n")
    assert got == without_metrics(want)


def test_help_and_bad_option():
    r = pcl("list", "-h")
    assert r.returncode == 129
    assert "pcl list [<options>]" in r.stderr
    r = pcl("list", "--no-such-option")
    assert r.returncode == perf("list", "--no-such-option").returncode == 129


@pytest.mark.parametrize("opts", [
    ["-d"], ["--desc"], ["--no-desc"], ["-v"], ["--long-desc"], ["--details"], ["--deprecated"],
    ["-d", "--details", "--deprecated", "-v"],
])
@pytest.mark.parametrize("args", [[], ["sw"], ["pmu"], ["sched:sched_stat*"], ["clock"]])
def test_description_options_equal_perf(opts, args):
    """-d/-v/--details/--deprecated describe metrics and vendor events, which
    this machine's perf has none of outside its metric tables."""
    same_as_perf(*opts, *args)


@pytest.mark.parametrize("args", [
    ["sw"], ["hw"], ["cache"], ["pmu"], ["tracepoint"], ["sdt"], ["sdt", "sdt"],
    ["clock"], ["sched:sched_switch"], ["cache", "pmu"], [],
])
def test_debug_log_equals_perf(args):
    """--debug: perf names the CPU of its event tables and logs each SDT
    cache entry it parses, on stderr; stdout is unchanged."""
    for _ in range(3):  # other tests may change the build-id cache meanwhile
        want = perf("list", "--debug", *args)
        got = pcl("list", "--debug", *args)
        assert got.returncode == want.returncode == 0
        if (got.stderr, got.stdout) == (want.stderr, without_metrics(want.stdout)):
            return
    assert got.stderr == want.stderr
    assert got.stdout == without_metrics(want.stdout)


@pytest.mark.parametrize("cputype", ["core", "atom", "foo"])
def test_cputype_equals_perf(cputype):
    """Without hybrid PMUs perf warns and lists everything."""
    for args in (["sw"], ["pmu"]):
        want = perf("list", "--cputype", cputype, *args)
        got = pcl("list", "--cputype", cputype, *args)
        assert (got.returncode, got.stdout, got.stderr) == \
            (want.returncode, without_metrics(want.stdout), want.stderr)
    assert pcl("list", "--cputype").returncode == perf("list", "--cputype").returncode == 129


def test_options_equal_perf():
    assert pcl("list", "--list-opts").stdout == perf("list", "--list-opts").stdout
    want = perf("list", "-h").stderr.splitlines()[3:]
    assert pcl("list", "-h").stderr.splitlines()[3:] == want
