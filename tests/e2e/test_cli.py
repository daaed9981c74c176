"""The `pcl` command itself: help, version, unknown commands, option errors."""
import subprocess

import pytest

from conftest import pcl, perf


def test_no_args_lists_commands():
    r = pcl()
    assert r.returncode == perf().returncode == 1
    assert "usage: pcl" in r.stdout
    for name in ("help", "version"):
        assert f"   {name} " in r.stdout


def test_version_forms_agree():
    a, b = pcl("--version"), pcl("version")
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout
    assert a.stdout.startswith("pcl version ")


def test_unknown_command_suggests():
    r = pcl("versoin")
    assert r.returncode == 1
    assert "'versoin' is not a pcl-command" in r.stderr
    assert "Did you mean this?\n\tversion" in r.stderr


def test_unknown_command_exit_matches_perf():
    assert pcl("nosuchcommand").returncode == perf("nosuchcommand").returncode == 1


@pytest.mark.parametrize("args", [
    "stat -r abc true", "stat --repeat abc true", "stat --repeat=abc true", "stat --repeat",
    "stat -r", "stat --all-cpus=3 true", "stat --no-event x", "stat -I abc true",
    "stat -I -5 true", "stat --no-repeat=4 true", "record -e", "record -F",
    "record -m abc true", "record --mmap-pages abc true", "record --no-output=3",
    "record --count=x true", "record -c x true", "record -c -5 true", "record -cx true",
    "report --percent-limit"])
def test_bad_option_values_as_perf(args):
    """A value an option refuses: perf's complaint, its usage lines and that
    option's help alone (none for a --no-X or an --X=value spelling), rc 129."""
    want = perf(*args.split(), stdin=subprocess.DEVNULL, timeout=30)
    got = pcl(*args.split(), stdin=subprocess.DEVNULL, timeout=30)
    assert got.returncode == want.returncode == 129
    assert got.stderr == want.stderr.replace("perf ", "pcl "), (want.stderr, got.stderr)
