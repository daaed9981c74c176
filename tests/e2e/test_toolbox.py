"""The small commands of the toolbox (issue 20), side by side with perf 6.1: version,
help, completion (--list-cmds, --list-opts), iostat."""
import glob
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT, pcl, perf

FEATURE_ROW = re.compile(r"^ *([\w-]+): \[ (on |OFF) \]  # (\w+)$")


def feature_rows(text):
    rows = text.splitlines()[1:]
    parsed = [FEATURE_ROW.match(r) for r in rows]
    assert all(parsed), rows
    assert all(len(r.split(":")[0]) == 22 for r in rows), rows
    return {m.group(1): (m.group(2), m.group(3)) for m in parsed}


def test_version_spellings_agree():
    outs = [pcl(*a) for a in (["version"], ["--version"], ["-v"])]
    assert all(r.returncode == 0 for r in outs)
    assert outs[0].stdout == outs[1].stdout == outs[2].stdout
    assert re.fullmatch(r"pcl version \d+\.\d+\.\d+\n", outs[0].stdout)
    # perf's three spellings agree the same way
    assert perf("version").stdout == perf("--version").stdout == perf("-v").stdout


def test_build_options_in_perf_layout():
    mine, theirs = pcl("version", "--build-options"), perf("version", "--build-options")
    assert mine.returncode == theirs.returncode == 0
    ours, perfs = feature_rows(mine.stdout), feature_rows(theirs.stdout)
    # every row of perf's table, in perf's order and under perf's switch names
    assert list(ours)[:len(perfs)] == list(perfs)
    assert all(ours[name][1] == perfs[name][1] for name in perfs)
    # what pcl links is on; what it has no code for is OFF
    for name in ("dwarf", "libelf", "libbfd", "zstd", "lzma", "libtraceevent", "libopcodes"):
        assert ours[name][0] == "on ", name
    for name in ("libpython", "libperl", "libslang", "bpf", "libunwind"):
        assert ours[name][0] == "OFF", name


def test_build_options_spellings_as_perf():
    table = pcl("version", "--build-options").stdout
    assert pcl("-vv").stdout == pcl("--version", "--build-options").stdout == table
    assert perf("-vv").stdout == perf("version", "--build-options").stdout


def test_version_usage_as_perf():
    mine, theirs = pcl("version", "-h"), perf("version", "-h")
    assert mine.returncode == theirs.returncode == 129
    assert mine.stderr.replace("pcl", "perf") == theirs.stderr


# help: the list, and the manual pages (man prints plain text to a pipe)
MAN_ENV = dict(os.environ, MANWIDTH="80", MANPAGER="cat", PAGER="cat", LC_ALL="C")


def command_names(listing):
    return [line.split()[0] for line in listing.splitlines() if line.startswith("   ")]


def test_help_lists_commands_in_perfs_layout():
    mine, theirs = pcl("help"), perf("help")
    assert mine.returncode == theirs.returncode == 0
    frame = lambda text: text.splitlines()[:4] + text.splitlines()[-3:]
    assert frame(mine.stdout) == [l.replace("perf", "pcl") for l in frame(theirs.stdout)]
    for line in mine.stdout.splitlines()[4:-3]:
        assert re.fullmatch(r"   [a-z0-9-]+ +\S.*", line) and line[18] == " " != line[19], line
    names = command_names(mine.stdout)
    assert {"record", "report", "help", "version", "iostat", "test"} <= set(names)
    # the same list with -a, --help and alone (perf: status 1 without a command)
    assert pcl("help", "-a").stdout == pcl("--help").stdout == pcl().stdout == mine.stdout


def test_help_usage_as_perf():
    mine, theirs = pcl("help", "-h"), perf("help", "-h")
    assert mine.returncode == theirs.returncode == 129
    assert mine.stderr == theirs.stderr.replace("perf", "pcl")


@pytest.mark.parametrize("argv", [["help", "version"], ["version", "--help"],
                                  ["help", "-m", "version"], ["help", "-i", "version"]])
def test_help_shows_the_manual(argv):
    r = pcl(*argv, env=MAN_ENV)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("PCL-VERSION(1)")
    assert "pcl-version - show the version of pcl" in r.stdout
    # perf answers the man spellings with its own page (its -i fails silently without info)
    if "-i" not in argv:
        assert perf(*argv, env=MAN_ENV).stdout.startswith("PERF-VERSION(1)")


def test_every_command_has_a_manual_page():
    names = command_names(pcl("help").stdout)
    missing = [n for n in names if not os.path.exists(os.path.join(ROOT, "docs", f"pcl-{n}.1"))]
    assert missing == []


def test_help_without_a_page_says_so():
    mine, theirs = pcl("help", "nosuch", env=MAN_ENV), perf("help", "nosuch", env=MAN_ENV)
    assert mine.returncode == theirs.returncode == 16
    assert mine.stdout == theirs.stdout == ""
    assert mine.stderr.startswith("No manual entry for pcl-nosuch")
    assert "'nosuch' is not a pcl command" in mine.stderr


def test_help_web_has_no_html_manual():
    r = pcl("help", "-w", "record")
    assert r.returncode == perf("help", "-w", "record").returncode == 255
    assert "no HTML manual" in r.stderr


# completion: what perf's bash completion asks, and pcl's script against perf's
def test_list_cmds_and_opts_of_pcl():
    mine, theirs = pcl("--list-cmds"), perf("--list-cmds")
    assert mine.returncode == theirs.returncode == 0
    assert re.fullmatch(r"([a-z0-9-]+ )+\n", mine.stdout)
    assert mine.stdout.split() == command_names(pcl("help").stdout)
    mine, theirs = pcl("--list-opts"), perf("--list-opts")
    assert mine.returncode == theirs.returncode == 0
    assert re.fullmatch(r"(--[a-z0-9-]+ )+\n", mine.stdout)
    assert set(mine.stdout.split()) <= set(theirs.stdout.split())


@pytest.mark.parametrize("argv", [["sched", "--list-opts"], ["diff", "--list-opts"],
                                  ["kallsyms", "--list-opts"], ["version", "--list-opts"],
                                  ["help", "--list-opts"], ["config", "--list-opts"],
                                  ["sched", "--list-cmds"], ["kmem", "--list-cmds"],
                                  ["lock", "--list-cmds"], ["data", "--list-cmds"],
                                  ["trace", "--list-cmds"], ["diff", "--list-cmds"],
                                  ["test", "--list-cmds"], ["test", "--list-opts"]])
def test_command_lists_equal_perfs(argv):
    mine, theirs = pcl(*argv), perf(*argv)
    assert mine.returncode == theirs.returncode == 130
    assert mine.stdout == theirs.stdout


def test_record_list_opts_as_perf():
    mine, theirs = pcl("record", "--list-opts"), perf("record", "--list-opts")
    assert mine.returncode == theirs.returncode == 130
    assert re.fullmatch(r"(--[a-z0-9-]+ )+\n", mine.stdout)
    assert {"--event", "--freq", "--call-graph", "--output"} <= set(mine.stdout.split())
    # options parsed past the sub-command: sched record is record
    assert pcl("sched", "record", "--list-opts").stdout == mine.stdout


def complete(tool, line):
    """COMPREPLY of tool's bash completion for the command line typed so far."""
    script = {"pcl": os.path.join(ROOT, "scripts", "pcl-completion.bash"),
              "perf": "/usr/share/bash-completion/completions/perf"}[tool]
    env = dict(os.environ, PATH=ROOT + ":" + os.environ["PATH"])
    r = subprocess.run(["bash", os.path.join(ROOT, "tests", "e2e", "complete.sh"), script,
                        "_" + tool, line], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True, env=env, timeout=60)
    assert r.returncode == 0
    return sorted(w for w in r.stdout.split("\n") if w)


@pytest.mark.parametrize("line", ["pcl rec", "pcl record --fre", "pcl sched ", "pcl sched re",
                                  "pcl --list", "pcl sched record --ev", "pcl record -e cpu-c",
                                  "pcl lock rep", "pcl kmem --in"])
def test_completion_equals_perfs(line):
    mine = complete("pcl", line)
    assert mine and mine == complete("perf", line.replace("pcl", "perf", 1))


@pytest.mark.parametrize("line,expect", [
    ("pcl record -e sched:sched_sw", ["sched_swap_numa", "sched_switch"]),
    ("pcl stat -e cycles,sched:sched_swi", ["sched_switch"]),
    ("pcl stat -e cpu-clock,task-cl", ["cpu-clock,task-clock"]),
    ("pcl help vers", ["version"]),
    ("pcl version --b", ["--build-options"]),
])
def test_completion_of_events_and_help(line, expect):
    assert complete("pcl", line) == expect


# iostat: perf's message, usage and status where the IIO PMUs are absent
HAS_IIO = bool(glob.glob("/sys/bus/event_source/devices/uncore_iio_*"))


@pytest.mark.skipif(HAS_IIO, reason="the machine has IIO PMUs")
@pytest.mark.parametrize("args", [[], ["list"], ["--", "true"], ["-h"], ["0000:00", "--", "true"],
                                  ["list", "--", "true"], ["-a", "true"], ["--bogus"]])
def test_iostat_without_iio_as_perf(args):
    mine, theirs = pcl("iostat", *args), perf("iostat", *args)
    assert mine.returncode == theirs.returncode == 129
    assert mine.stdout == theirs.stdout == ""
    assert mine.stderr == theirs.stderr.replace("perf stat", "pcl stat")
    assert mine.stderr.startswith("Unsupported uncore pmu configuration\n")


def test_iostat_help_is_its_manual():
    r = pcl("iostat", "--help", env=MAN_ENV)
    assert r.returncode == 0 and r.stdout.startswith("PCL-IOSTAT(1)")
    assert perf("iostat", "--help", env=MAN_ENV).stdout.startswith("PERF-IOSTAT(1)")


def test_install_ships_pages_and_completion(tmp_path):
    """make install: the completion script, and pages an installed pcl finds beside its bin/
    (a prefix man does not search)."""
    r = subprocess.run(["make", "-C", ROOT, "install", f"DESTDIR={tmp_path}", "PREFIX=/opt/pcl"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    assert r.returncode == 0, r.stdout
    prefix = tmp_path / "opt" / "pcl"
    assert (prefix / "share" / "bash-completion" / "completions" / "pcl").read_text() == \
        open(os.path.join(ROOT, "scripts", "pcl-completion.bash")).read()
    assert (prefix / "share" / "zsh" / "site-functions" / "_pcl").read_text() == \
        open(os.path.join(ROOT, "scripts", "_pcl")).read()
    assert (prefix / "share" / "man" / "man1" / "pcl-help.1").exists()
    r = subprocess.run([str(prefix / "bin" / "pcl"), "help", "iostat"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=MAN_ENV, timeout=60)
    assert r.returncode == 0 and r.stdout.startswith("PCL-IOSTAT(1)"), r.stderr


def complete_zsh(line):
    """What scripts/_pcl offers for the command line typed so far (stand-ins for zsh's
    completion builtins print the candidates: complete.zsh)."""
    env = dict(os.environ, PATH=ROOT + ":" + os.environ["PATH"])
    r = subprocess.run(["zsh", "-f", os.path.join(ROOT, "tests", "e2e", "complete.zsh"),
                        os.path.join(ROOT, "scripts", "_pcl"), line], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=env, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return sorted(w for w in r.stdout.split("\n") if w)


needs_zsh = pytest.mark.skipif(not shutil.which("zsh"), reason="zsh is not installed")


@needs_zsh
def test_zsh_completion_parses():
    r = subprocess.run(["zsh", "-n", os.path.join(ROOT, "scripts", "_pcl")],
                       stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == ""


@needs_zsh
@pytest.mark.parametrize("line", ["pcl rec", "pcl record --fre", "pcl sched ", "pcl sched re",
                                  "pcl --list", "pcl sched record --ev", "pcl record -e cpu-c",
                                  "pcl lock rep", "pcl kmem --in", "pcl version --b"])
def test_zsh_completion_offers_what_bash_does(line):
    """The same words as the bash completion (itself perf's, above)."""
    mine = complete_zsh(line)
    assert mine and mine == complete("pcl", line)


@needs_zsh
@pytest.mark.parametrize("line,expect", [
    ("pcl record -e sched:sched_sw", ["sched:sched_swap_numa", "sched:sched_switch"]),
    ("pcl stat -e cycles,sched:sched_swi", ["cycles,sched:sched_switch"]),
    ("pcl stat -e cpu-clock,task-cl", ["cpu-clock,task-clock"]),
    ("pcl report -i perf.da", ["FILES"]),
])
def test_zsh_completion_of_events_and_files(line, expect):
    """zsh does not cut words at colons: whole event names, after the list's head."""
    assert complete_zsh(line) == expect
