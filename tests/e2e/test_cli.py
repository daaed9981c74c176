"""The `pcl` command itself: help, version, unknown commands, option errors."""
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
