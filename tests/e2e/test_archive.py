"""pcl archive against perf archive 6.1 on the same recording.

Every test has its own HOME (and so its own build-id cache, ~/.debug).  The
workload is a copy of a fixture that is deleted after recording: a report on
a fresh HOME names its symbols only through the unpacked archive.
"""
import os
import re
import shutil
import pytest

from conftest import PCL, PERF, fixture, run, unified


def env_with_home(home):
    os.makedirs(home, exist_ok=True)
    return dict(os.environ, HOME=str(home))


@pytest.fixture
def recording(tmp_path):
    """A recording of a workload copy (cached in tmp/home1), binary gone."""
    workload = tmp_path / "bin" / "burner_copy"
    workload.parent.mkdir()
    shutil.copy(fixture("burner"), workload)
    data = tmp_path / "perf.data"
    env = env_with_home(tmp_path / "home1")
    r = run([PERF, "record", "-q", "-e", "task-clock", "-c", "100000", "-o", str(data),
             str(workload)], env=env)
    assert r.returncode == 0, r.stderr
    workload.unlink()
    return data, env


def members(tarball):
    r = run(["tar", "tjf", str(tarball)])
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_members_match_perf(recording, tmp_path):
    data, env = recording
    want = run([PERF, "archive", str(data)], env=env)
    assert want.returncode == 0, want.stderr
    perf_tar = tmp_path / "perf.tar.bz2"
    os.rename(str(data) + ".tar.bz2", perf_tar)
    got = run([PCL, "archive", str(data)], env=env)
    assert got.returncode == 0, got.stderr
    assert got.stdout == want.stdout.replace("'perf report'", "'pcl report'")
    want_members, got_members = members(perf_tar), members(str(data) + ".tar.bz2")
    assert got_members == want_members, unified(want_members, got_members)
    assert "burner_copy/" in got_members and ".build-id/" in got_members


def test_unpacked_elsewhere_names_the_symbols(recording, tmp_path):
    data, env = recording
    assert run([PCL, "archive", str(data)], env=env).returncode == 0
    unpack_dir = tmp_path / "elsewhere"
    unpack_dir.mkdir()
    shutil.copy(str(data) + ".tar.bz2", unpack_dir / "perf.data.tar.bz2")
    other = env_with_home(tmp_path / "home2")
    report_argv = [PERF, "report", "--stdio", "-i", str(data), "--sort", "dso,sym"]
    before = run(report_argv, env=other)
    assert "[.] leaf_spin" not in before.stdout, "the binary should be gone"
    r = run([PCL, "archive", "--unpack"], env=other, cwd=unpack_dir)
    assert r.returncode == 0, r.stderr
    report = run(report_argv, env=other)
    assert report.returncode == 0, report.stderr
    assert re.search(r"burner_copy +\[\.\] leaf_spin", report.stdout), report.stdout


def test_unpack_without_one_tarball_fails(tmp_path):
    r = run([PCL, "archive", "--unpack"], env=env_with_home(tmp_path / "h"), cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.startswith("pcl archive: 0 perf*.tar.bz2 files found")


def test_no_build_ids(tmp_path):
    """A recording without build ids: perf's message and status."""
    data = tmp_path / "nob.data"
    env = env_with_home(tmp_path / "home")
    assert run([PERF, "record", "-q", "-B", "-e", "task-clock", "-c", "100000", "-o",
                str(data), "true"], env=env).returncode == 0
    want = run([PERF, "archive", str(data)], env=env)
    got = run([PCL, "archive", str(data)], env=env)
    assert got.returncode == want.returncode
    assert got.stdout == want.stdout.replace("perf archive", "pcl archive")


def no_tips(report):
    return re.sub(r"^# \(Tip: .*\)\n", "", report, flags=re.M)


EMBED_VIEWS = [
    ["report", "--stdio"],
    ["report", "--stdio", "--no-children", "--sort", "dso,sym", "-g", "caller"],
    ["script", "-F", "comm,tid,ip,sym,symoff,dso"],
]


@pytest.mark.parametrize("recorder", [PERF, PCL])
def test_embedded_symbols_report_anywhere(recorder, tmp_path):
    """archive --embed: the copy reports, without the binary, the build-id
    cache or any file's symbols (--symfs of an empty directory hides the
    system libraries and kallsyms too), what perf reports of the original
    with everything in place; perf reads the copy as the original."""
    workload = tmp_path / "bin" / "burner_copy"
    workload.parent.mkdir()
    shutil.copy(fixture("burner"), workload)
    data, embedded = tmp_path / "perf.data", tmp_path / "perf.data.embedded"
    env = env_with_home(tmp_path / "home1")
    r = run([recorder, "record", "-q", "-g", "-e", "task-clock", "-c", "100000", "-o",
             str(data), str(workload)], env=env)
    assert r.returncode == 0, r.stderr
    want = [no_tips(run([PERF, *view, "-i", str(data)], env=env).stdout)
            for view in EMBED_VIEWS]
    assert "[k]" in want[1] and "[.] leaf_spin" in want[1], want[1]
    flame = run([PCL, "flamegraph", str(data), "-o", "-"], env=env).stdout
    r = run([PCL, "archive", "--embed", str(data)], env=env)
    assert r.returncode == 0, r.stderr
    assert re.match(r".*perf\.data\.embedded: the symbols of \d+ DSOs \(\d+ symbols\) "
                    r"embedded\n$", r.stdout), r.stdout
    assert no_tips(run([PERF, *EMBED_VIEWS[1], "-i", str(embedded)], env=env).stdout) == \
        want[1]

    workload.unlink()
    elsewhere = env_with_home(tmp_path / "home2")
    nothing = tmp_path / "empty"
    nothing.mkdir()
    for view, expected in zip(EMBED_VIEWS, want):
        got = run([PCL, *view, "-i", str(embedded), "--symfs", str(nothing)], env=elsewhere)
        assert got.returncode == 0, got.stderr
        assert no_tips(got.stdout) == expected, unified(expected, got.stdout)
    got = run([PCL, "flamegraph", str(embedded), "--symfs", str(nothing), "-o", "-"],
              env=elsewhere)
    assert got.stdout == flame
    # the original alone has lost its symbols there: the tables did the work
    bare = run([PCL, *EMBED_VIEWS[1], "-i", str(data), "--symfs", str(nothing)], env=elsewhere)
    assert "leaf_spin" not in bare.stdout and "[k] 0x" in bare.stdout


def test_embed_refuses_a_pipe(tmp_path):
    env = env_with_home(tmp_path / "home")
    data = tmp_path / "pipe.data"
    with open(data, "w") as out:
        r = run([PERF, "record", "-q", "-e", "task-clock", "-o", "-", "true"], env=env,
                stdout=out)
    assert r.returncode == 0, r.stderr
    got = run([PCL, "archive", "--embed", str(data)], env=env)
    assert got.returncode == 1
    assert got.stderr == "pcl archive: --embed needs a perf.data file, not a pipe\n"
